"""The summary of a scored corpus: each field's mean with a percentile bootstrap interval, and as Markdown.

numpy is imported where it is used, so importing this module stays cheap (``nash --help``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

__all__ = ["SUMMARY_FIELDS", "UNSUPPORTED_RATE", "corpus_summary", "summary_markdown"]

# The share of pairs whose prediction states a figure the reference does not support (a 0/1 column per pair).
UNSUPPORTED_RATE = "pairs_with_unsupported_numbers"
# Each channel's F, the precision and recall of NASH, of the number channel and of the baseline, support and α.
SUMMARY_FIELDS = ("nash", "nash_precision", "nash_recall", "text_similarity", "numeric_similarity",
                  "numeric_precision", "numeric_recall", "numeric_support", UNSUPPORTED_RATE, "alpha",
                  "baseline", "baseline_precision", "baseline_recall")


def corpus_summary(columns: Mapping[str, np.ndarray], *, n_unscored: int, hashcode: str,
                   fields: Sequence[str] = SUMMARY_FIELDS, n_resamples: int = 1000, seed: int = 0,
                   confidence: float = 0.95) -> dict:
    """Corpus means with percentile bootstrap intervals (the same resampled pairs for every field)."""
    import numpy as np

    from ..common.bootstrap import percentile_intervals

    missing = [name for name in fields if name not in columns]
    if missing:
        raise ValueError(f"no column {missing}; columns are {list(columns)}")
    arrays = [np.asarray(columns[name], dtype=np.float64) for name in fields]
    shapes = {name: array.shape for name, array in zip(fields, arrays)}
    if any(array.ndim != 1 for array in arrays) or len(set(shapes.values())) > 1:
        raise ValueError(f"summary columns must be 1-D and of equal length, got shapes {shapes}")
    if not arrays or len(arrays[0]) == 0:
        raise ValueError("no pairs to summarise")
    bounds = percentile_intervals(arrays, n_resamples, confidence, seed)
    return {
        "pairs": len(arrays[0]),
        "unscored_numbers": int(n_unscored),
        "hashcode": hashcode,
        "bootstrap": {"resamples": n_resamples, "seed": seed, "confidence": confidence},
        "fields": {name: {"mean": float(array.mean()), "low": lo, "high": hi}
                   for name, array, (lo, hi) in zip(fields, arrays, bounds)},
    }


def summary_markdown(summary: dict) -> str:
    """The summary as a Markdown table (mean and interval per field) and a line of corpus facts."""
    confidence = summary["bootstrap"]["confidence"]
    lines = [f"| field | mean | {confidence * 100:g}% CI |", "|---|---:|:---:|"]
    for name, stats in summary["fields"].items():
        lines.append(f"| {name} | {stats['mean']:.4f} | {stats['low']:.4f}–{stats['high']:.4f} |")
    lines += ["", f"pairs: {summary['pairs']} · unscored numbers: {summary['unscored_numbers']} · "
              f"hashcode: `{summary['hashcode']}`"]
    return "\n".join(lines) + "\n"
