"""The Gradio Space (`pip install 'nash-metric[app]'`; `nash app` serves it).

    app          the Blocks layout and `launch`; the shared controls come from `NASHConfig`
    handlers     Compare / Rank / Batch handlers and the tau control (error panels, never tracebacks)
    scorers      one loaded scorer per (model, backend), the tau a request uses, the baselines
    render       HTML fragments (all user text escaped) and the stylesheet `CSS`
    plot         the alignment heat map
    batch_files  strict, size-limited parsing of uploaded pair files and the CSV download

Only `app` and `handlers` import gradio; they are imported on first use of `build_demo` / `launch`, so
`render` and `batch_files` stay importable (and testable) without it. `import nash_metric` never imports
this package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {"build_demo": "app", "launch": "app", "CSS": "render"}

__all__ = ["CSS", "build_demo", "launch"]

if TYPE_CHECKING:
    from .app import build_demo, launch
    from .render import CSS


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
