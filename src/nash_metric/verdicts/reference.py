"""What every pair against one reference reads of it, once however many pairs share it (claims against one
source), and how close a reference number's context is to a figure's: the number a report shows beside a figure.
Closeness decides no verdict.
"""

from __future__ import annotations

import math

import numpy as np

from ..pipeline.alignment import MentionTable
from .keys import SupportKeys
from .placement import Tables
from .rules import RULE, VerdictRule

# How a report's closest number is chosen (`closeness`): the idf-weighted share of shared words, plus these
# weights times the same year (+1) or another (-1), and times the backbone cosine.
PERIOD_WEIGHT = 0.5
COSINE_WEIGHT = 0.5


class Reference:
    """One reference's rows, its tables (`placement.Tables`), the words of its numbers' contexts and their idf."""

    def __init__(self, mentions: MentionTable, b: slice, rule: VerdictRule = RULE) -> None:
        keys = mentions.support
        self.ib = np.arange(b.start, b.stop)
        self.tables = Tables([keys.contexts[j] for j in self.ib], rule.records)
        self.words = [keys.contexts[j].words for j in self.ib]
        frequency: dict[str, int] = {}
        for words in self.words:
            for w in words:
                frequency[w] = frequency.get(w, 0) + 1
        self.idf = {w: math.log1p(len(self.ib) / f) for w, f in frequency.items()}


def closeness(keys: SupportKeys, ia: np.ndarray, ib: np.ndarray, cosine: np.ndarray, reference: Reference
              ) -> np.ndarray:
    """[m, n] how close reference mention ib[j]'s context is to figure ia[i]'s: shared words (each weighted by its
    inverse frequency among the reference's figures), plus `PERIOD_WEIGHT` for the same year (minus it for
    another), plus `COSINE_WEIGHT` times the backbone cosine."""
    words = _shared_words(keys, ia, reference)
    year_a, year_b = keys.year[ia][:, None], keys.year[ib][None, :]
    both = ~np.isnan(year_a) & ~np.isnan(year_b)
    period = np.where(both, np.where(year_a == year_b, 1.0, -1.0), 0.0)
    return words + PERIOD_WEIGHT * period + COSINE_WEIGHT * cosine


def _shared_words(keys: SupportKeys, ia: np.ndarray, reference: Reference) -> np.ndarray:
    """[m, n] the idf-weighted share of figure ia[i]'s words that reference mention j's context holds (over the
    words some reference context holds). Plain set arithmetic: a pair has few figures and short contexts."""
    idf = reference.idf
    out = np.zeros((len(ia), len(reference.words)))
    if not idf:
        return out
    for row, i in enumerate(ia):
        known = {w: idf[w] for w in keys.contexts[i].words if w in idf}
        total = sum(known.values())
        if total:
            out[row] = [sum(known[w] for w in words & known.keys()) / total for words in reference.words]
    return out
