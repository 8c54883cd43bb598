"""nash-metric: numerically aware semantic similarity (NASH) for the Hugging Face ecosystem.

Names are imported on first use (PEP 562), so `import nash_metric` and `nash --help` stay free of torch.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._version import __version__

# public name -> module that defines it
_EXPORTS = {
    "IDF": "pipeline.weighting",
    "MASK_TOKEN": "numbers",
    "NASH": "scorer",
    "NASHConfig": "config",
    "NASHOutput": "pipeline.output",
    "Calibration": "calibration.threshold",
    "NumericMention": "numbers",
    "calibrate_threshold": "calibration.threshold",
    "extract_numbers": "numbers",
    "mask_numbers": "numbers",
    "nash_score": "functional",
}

__all__ = [
    "IDF",
    "MASK_TOKEN",
    "NASH",
    "Calibration",
    "NASHConfig",
    "NASHOutput",
    "NumericMention",
    "__version__",
    "calibrate_threshold",
    "extract_numbers",
    "mask_numbers",
    "nash_score",
]

if TYPE_CHECKING:
    from .calibration.threshold import Calibration, calibrate_threshold
    from .config import NASHConfig
    from .functional import nash_score
    from .numbers import MASK_TOKEN, NumericMention, extract_numbers, mask_numbers
    from .pipeline.output import NASHOutput
    from .pipeline.weighting import IDF
    from .scorer import NASH


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    globals()[name] = value  # cache: the next access skips __getattr__
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
