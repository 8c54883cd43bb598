"""The argmax rule of earlier versions (`verdict="argmax"`): only the number of the reference a figure aligns with
(the directional argmax of the number channel) decides its verdict: ✓ the same value at its written precision,
✗ another value, ∅ a cosine below tau. Kept for the ablation and for users of 0.2.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any

import numpy as np

from ..pipeline.alignment import Alignment, Matches
from .decide import FigureVerdict, figure_entry
from .spec import RULE_VERDICTS

ARGMAX_VERDICTS = RULE_VERDICTS["argmax"]


class ArgmaxCode(IntEnum):
    """A figure's verdict under the argmax rule, as `verdict_codes` returns it; `ARGMAX_VERDICTS[code]` is its
    name."""

    SUPPORTED = 0
    UNSUPPORTED = 1
    UNMATCHED = 2


def verdict_codes(matches: Matches, tau: float, rows: Any = slice(None)) -> np.ndarray:
    """Per match row of one direction (all rows or `rows`): an `ArgmaxCode` each (int8)."""
    aligned = matches.cosine[rows] >= tau
    codes = np.where(matches.supported[rows], ArgmaxCode.SUPPORTED, ArgmaxCode.UNSUPPORTED)
    return np.where(aligned, codes, ArgmaxCode.UNMATCHED).astype(np.int8)


def argmax_verdicts(alignment: Alignment, tau: float) -> list[list[FigureVerdict]]:
    """Per aligned pair, every figure of the prediction with its verdict."""
    if alignment.first_a is None:
        raise ValueError("this alignment carries no mention labels: score with NASH to get figure verdicts")
    matches = alignment.a_to_b
    codes = verdict_codes(matches, tau)
    rows = {(int(p), int(s)): r for r, (p, s) in enumerate(zip(matches.pair, matches.source))}
    unmatched = ARGMAX_VERDICTS[ArgmaxCode.UNMATCHED]
    out: list[list[FigureVerdict]] = []
    for pair in range(len(alignment.n_a)):
        entries = []
        for source in range(int(alignment.n_a[pair])):
            row = rows.get((pair, source))
            label = int(alignment.first_a[pair]) + source
            if row is None or codes[row] == ArgmaxCode.UNMATCHED:
                entries.append(figure_entry(alignment.labels, label, unmatched, (-1, -1), np.nan))
                continue
            target = int(alignment.first_b[pair] + matches.target[row])
            found = target if codes[row] == ArgmaxCode.SUPPORTED else -1
            entries.append(figure_entry(alignment.labels, label, ARGMAX_VERDICTS[codes[row]], (found, target),
                                        float(matches.cosine[row])))
        out.append(entries)
    return out
