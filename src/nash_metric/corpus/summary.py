"""The summary of a scored corpus: each field's mean with a percentile bootstrap interval, and as Markdown.

numpy is imported where it is used, so importing this module stays cheap (``nash --help``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

__all__ = ["EMPTY_PREDICTIONS", "SUMMARY_FIELDS", "UNSUPPORTED_RATE", "corpus_summary", "summary_fields",
           "summary_markdown"]

# The share of pairs whose prediction states a figure the reference does not support (a 0/1 column per pair).
UNSUPPORTED_RATE = "pairs_with_unsupported_numbers"
SUPPORT = "numeric_support"
# Pairs whose prediction is blank: numeric_support 1.0 each (nothing stated, nothing unsupported), counted beside it.
EMPTY_PREDICTIONS = "empty_predictions"
# Each channel's F, the precision and recall of NASH, of the number channel and of the baseline, support and α.
SUMMARY_FIELDS = ("nash", "nash_precision", "nash_recall", "text_similarity", "numeric_similarity",
                  "numeric_precision", "numeric_recall", "numeric_support", UNSUPPORTED_RATE, "alpha",
                  "baseline", "baseline_precision", "baseline_recall")


# pipeline.output's BASELINE_FIELDS, spelled here: this module loads no numpy (tests/unit/test_rows.py).
BASELINE_FIELDS = ("baseline", "baseline_precision", "baseline_recall")


def summary_fields(baseline: bool) -> tuple[str, ...]:
    """The fields a corpus summary holds: `SUMMARY_FIELDS`, less the baseline's unless the scorer computes it."""
    return SUMMARY_FIELDS if baseline else tuple(f for f in SUMMARY_FIELDS if f not in BASELINE_FIELDS)


def corpus_summary(columns: Mapping[str, np.ndarray], *, n_unscored: int, hashcode: str,
                   fields: Sequence[str] = SUMMARY_FIELDS, n_resamples: int = 1000, seed: int = 0,
                   confidence: float = 0.95, empty_predictions: int = 0) -> dict:
    """Corpus means with percentile bootstrap intervals (the same resampled pairs for every field).

    `empty_predictions`, the pairs whose prediction is blank, stands beside numeric_support's mean: such a pair's
    support is 1.0 (it states no figure the reference fails to support), which the mean alone would hide."""
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
    if not 0 <= empty_predictions <= len(arrays[0]):
        raise ValueError(f"empty_predictions must be between 0 and the {len(arrays[0])} pairs, got {empty_predictions}")
    bounds = percentile_intervals(arrays, n_resamples, confidence, seed)
    stats = {name: {"mean": float(array.mean()), "low": lo, "high": hi}
             for name, array, (lo, hi) in zip(fields, arrays, bounds)}
    if SUPPORT in stats:
        stats[SUPPORT][EMPTY_PREDICTIONS] = int(empty_predictions)
    return {
        "pairs": len(arrays[0]),
        EMPTY_PREDICTIONS: int(empty_predictions),
        "unscored_numbers": int(n_unscored),
        "hashcode": hashcode,
        "bootstrap": {"resamples": n_resamples, "seed": seed, "confidence": confidence},
        "fields": stats,
    }


def summary_markdown(summary: dict) -> str:
    """The summary as a Markdown table (mean and interval per field) and a line of corpus facts."""
    confidence = summary["bootstrap"]["confidence"]
    empty = summary.get(EMPTY_PREDICTIONS, 0)
    lines = [f"| field | mean | {confidence * 100:g}% CI |", "|---|---:|:---:|"]
    for name, stats in summary["fields"].items():
        note = f" ({empty} empty prediction{'s' * (empty != 1)} at 1.0)" if name == SUPPORT and empty else ""
        lines.append(f"| {name}{note} | {stats['mean']:.4f} | {stats['low']:.4f}–{stats['high']:.4f} |")
    lines += ["", f"pairs: {summary['pairs']} · empty predictions: {empty} · unscored numbers: "
              f"{summary['unscored_numbers']} · hashcode: `{summary['hashcode']}`"]
    return "\n".join(lines) + "\n"
