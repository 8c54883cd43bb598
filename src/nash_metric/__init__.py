"""nash-metric: numerically aware semantic similarity (NASH) for the Hugging Face ecosystem."""

from __future__ import annotations

__version__ = "0.1.0"

from .calibration import Calibration, calibrate_threshold
from .functional import nash_score
from .numbers import MASK_TOKEN, NumericMention, extract_numbers, mask_numbers
from .scorer import NASH, NASHOutput
from .weighting import IDF

__all__ = [
    "IDF",
    "MASK_TOKEN",
    "NASH",
    "Calibration",
    "NASHOutput",
    "NumericMention",
    "__version__",
    "calibrate_threshold",
    "extract_numbers",
    "mask_numbers",
    "nash_score",
]
