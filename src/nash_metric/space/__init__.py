"""The Gradio Space (`pip install 'nash-metric[app]'`; `nash app` serves it).

    app          the Blocks layout, its queue, `serve` and `launch`; the shared controls come from `NASHConfig`
    handlers     Compare / Rank / Batch handlers and the tau control (error panels, never tracebacks)
    limits       `SpaceLimits` (the operator's knobs, also from NASH_SPACE_* variables) and the fixed limits
    allow        the model allow-list (default model, operator's list, models already in the HF cache)
    scorers      loaders into the process's model cache (`backbone.cache`) under the Space's policy (bounded,
                 default pinned, failures remembered briefly), the tau a request uses, the baselines
    budget       the per-request time budget, checked between bounded steps
    render       HTML fragments (all user text escaped) and the stylesheet `CSS`; the figure rows it shows come
                 from `reports.figure_rows`, shared with `nash check`
    batch_files  strict, size-limited parsing of uploaded pair files and the formula-safe CSV download

Only `app` and `handlers` import gradio; they are imported on first use of `build_demo` / `serve` /
`launch`, so the other modules stay importable (and testable) without it. `import nash_metric` never
imports this package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {"build_demo": "app", "launch": "app", "serve": "app", "CSS": "render", "SpaceLimits": "limits"}

__all__ = ["CSS", "SpaceLimits", "build_demo", "launch", "serve"]

if TYPE_CHECKING:
    from .app import build_demo, launch, serve
    from .limits import SpaceLimits
    from .render import CSS


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
