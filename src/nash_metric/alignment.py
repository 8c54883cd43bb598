"""Number channel: align mentions by context, score aligned values by magnitude (DESIGN §1.3).

The steps, each a function below:

1. `align_numbers`: every mention v of one text picks the mention u* of the other text with the highest
   context cosine (a directional argmax: several v may pick the same u), in both directions.
2. `Alignment.accepted(tau)`: the tau gate; a match counts when its cosine is at least tau (or when a
   stated condition links the two numbers, in comparison-aware mode).
3. `magnitude_similarity`: an accepted match contributes 1 / (1 + |v-u| / N(v,u)), N(v,u) = 1 + (|v|+|u|)/2;
   two calendar periods (dates, quarters, fiscal years) contribute their calendar similarity instead
   (`numbers.periods`: 1 / (1 + days / 182.5), compared at the coarser granularity).
4. `numeric_similarity`: S(a->b) = sum of contributions / |V_b|, capped at 1 because the many-to-one argmax
   can exceed |V_b| when a holds more numbers than b; S_num is the mean of both directions; no numbers on
   either side -> 1, numbers on one side only -> 0.

The alignment is stored flat (one row per mention) so that S_num can be recomputed at any tau without
encoding again, and so that `explain` reads the very matches the score used.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import numpy as np

from .numbers.periods import CalendarKeys, calendar_similarity


def magnitude_similarity(v: np.ndarray | float, u: np.ndarray | float) -> np.ndarray:
    """1 / (1 + |v-u| / (1 + (|v|+|u|)/2)), computed on halves so that no finite input overflows."""
    v = np.asarray(v, dtype=np.float64)
    u = np.asarray(u, dtype=np.float64)
    diff = np.abs(v / 2 - u / 2)
    norm = 0.5 + np.abs(v) / 4 + np.abs(u) / 4
    return 1.0 / (1.0 + diff / norm)


@dataclass
class MentionTable:
    """The scorable mentions of many texts, stacked: text t owns rows offsets[t] : offsets[t] + counts[t]."""

    vectors: np.ndarray  # [M, H] L2-normalised context vectors
    values: np.ndarray  # [M] float64 values
    offsets: np.ndarray  # [T] int64
    counts: np.ndarray  # [T] int64
    calendar: CalendarKeys | None = None  # the mentions' calendar periods (None: no mention has one)

    def of(self, text_id: int) -> slice:
        start = int(self.offsets[text_id])
        return slice(start, start + int(self.counts[text_id]))


@dataclass
class Matches:
    """One direction's argmax matches: a row per source mention of every aligned pair."""

    pair: np.ndarray  # [R] aligned-pair row
    source: np.ndarray  # [R] mention index within the source text's scorable mentions
    target: np.ndarray  # [R] index of the chosen mention in the other text
    cosine: np.ndarray  # [R] context cosine of the match
    magnitude: np.ndarray  # [R] magnitude similarity of the two values (calendar similarity for two periods)
    similarity: np.ndarray  # [R] what the match contributes when accepted (magnitude, or a condition score)
    by_condition: np.ndarray  # [R] bool: scored by a stated condition, so it counts whatever tau says

    @classmethod
    def empty(cls) -> Matches:
        i, f = np.zeros(0, np.int64), np.zeros(0, np.float64)
        return cls(i, i, i, f, f, f, np.zeros(0, bool))

    def accepted(self, tau: float) -> np.ndarray:
        """The tau gate: a match counts when its cosine reaches tau, or when a condition scored it."""
        return (self.cosine >= tau) | self.by_condition


class NumberScores(NamedTuple):
    """S_num and its two directions, per aligned pair."""

    s_num: np.ndarray
    a_to_b: np.ndarray  # S(a->b): a's numbers found in b, normalised by |V_b|
    b_to_a: np.ndarray


@dataclass
class Alignment:
    """Argmax matches of a list of text pairs (a, b), both directions, with the mention counts."""

    n_a: np.ndarray  # [P] scorable mentions of each first text
    n_b: np.ndarray  # [P]
    a_to_b: Matches
    b_to_a: Matches
    cosines: dict[int, np.ndarray] = field(default_factory=dict)  # pair -> [n_a, n_b] matrix, when kept

    def numeric_similarity(self, tau: float) -> NumberScores:
        return numeric_similarity(self, tau)

    @classmethod
    def concat(cls, parts: Sequence[Alignment]) -> tuple[Alignment, np.ndarray]:
        """The pairs of several alignments as one, and the row offset of each part (chunks of one corpus)."""
        sizes = np.array([len(p.n_a) for p in parts], np.int64)
        offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)

        def shifted(direction: str) -> Matches:
            matches = (getattr(p, direction) for p in parts)
            return _concat([replace(m, pair=m.pair + o) for m, o in zip(matches, offsets)])

        merged = cls(
            n_a=np.concatenate([p.n_a for p in parts]) if parts else np.zeros(0, np.int64),
            n_b=np.concatenate([p.n_b for p in parts]) if parts else np.zeros(0, np.int64),
            a_to_b=shifted("a_to_b"),
            b_to_a=shifted("b_to_a"),
            cosines={int(row + o): c for p, o in zip(parts, offsets) for row, c in p.cosines.items()},
        )
        return merged, offsets


def numeric_similarity(alignment: Alignment, tau: float) -> NumberScores:
    """S_num per pair at threshold tau: the mean of the two capped directional sums (DESIGN §1.3)."""
    a_to_b = _directional(alignment.a_to_b, tau, alignment.n_b, len(alignment.n_a))
    b_to_a = _directional(alignment.b_to_a, tau, alignment.n_a, len(alignment.n_a))
    both = (alignment.n_a > 0) & (alignment.n_b > 0)
    neither = (alignment.n_a == 0) & (alignment.n_b == 0)
    a_to_b = np.where(both, a_to_b, np.where(neither, 1.0, 0.0))
    b_to_a = np.where(both, b_to_a, np.where(neither, 1.0, 0.0))
    return NumberScores((a_to_b + b_to_a) / 2, a_to_b, b_to_a)


def _directional(matches: Matches, tau: float, n_target: np.ndarray, n_pairs: int) -> np.ndarray:
    """Sum of accepted contributions / |V_target|, capped at 1 (NaN where the target has no numbers)."""
    total = np.bincount(matches.pair, weights=matches.similarity * matches.accepted(tau), minlength=n_pairs)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.minimum(1.0, total / n_target)


def align_numbers(
    mentions: MentionTable,
    pairs_a: np.ndarray,
    pairs_b: np.ndarray,
    conditions: dict[int, np.ndarray] | None = None,
    keep_cosines: bool = False,
    chunk: int = 2048,
) -> Alignment:
    """The argmax alignment of pairs (pairs_a[k], pairs_b[k]) of text ids, vectorised over pairs.

    `conditions[k]` optionally holds pair k's condition scores (comparison-aware mode) as an
    [n_a, n_b] matrix, NaN where no condition applies: such an entry replaces the magnitude similarity
    and counts whatever the cosine, since the condition itself ("above 200") links the two numbers.
    `keep_cosines` keeps each pair's full cosine matrix (for `explain`).
    """
    n_pairs = len(pairs_a)
    parts: dict[str, list[Matches]] = {"ab": [], "ba": []}
    cosines: dict[int, np.ndarray] = {}
    counts, offsets = mentions.counts, mentions.offsets
    for start in range(0, n_pairs, chunk):
        ka, kb = pairs_a[start : start + chunk], pairs_b[start : start + chunk]
        rows = np.nonzero((counts[ka] > 0) & (counts[kb] > 0))[0]
        if not len(rows):
            continue
        ka, kb = ka[rows], kb[rows]
        pair_ids = rows + start
        ia, mask_a = _gather_index(offsets[ka], counts[ka])
        ib, mask_b = _gather_index(offsets[kb], counts[kb])
        va = mentions.vectors[ia] * mask_a[..., None]
        vb = mentions.vectors[ib] * mask_b[..., None]
        cos = np.einsum("pih,pjh->pij", va, vb)
        cos = np.where(mask_a[:, :, None] & mask_b[:, None, :], cos, -np.inf)
        magnitude = value_similarity(mentions, ia, ib)
        similarity, by_condition = magnitude.copy(), np.zeros(magnitude.shape, dtype=bool)
        for local, k in enumerate(pair_ids):
            if conditions and k in conditions:
                _apply_conditions(conditions[k], similarity[local], by_condition[local])
            if keep_cosines:
                cosines[int(k)] = cos[local, : counts[ka[local]], : counts[kb[local]]].copy()
        # a -> b: each mention of a picks its best b mention; b -> a likewise.
        p, i = np.nonzero(mask_a)
        j = cos.argmax(axis=2)[p, i]
        parts["ab"].append(_matches(pair_ids, (p, i, j), i, j, cos, magnitude, similarity, by_condition))
        p, j = np.nonzero(mask_b)
        i = cos.argmax(axis=1)[p, j]
        parts["ba"].append(_matches(pair_ids, (p, i, j), j, i, cos, magnitude, similarity, by_condition))
    return Alignment(
        n_a=counts[pairs_a].astype(np.float64),
        n_b=counts[pairs_b].astype(np.float64),
        a_to_b=_concat(parts["ab"]),
        b_to_a=_concat(parts["ba"]),
        cosines=cosines,
    )


def value_similarity(mentions: MentionTable, ia: np.ndarray, ib: np.ndarray) -> np.ndarray:
    """Similarity of the values of mentions ia[..., :, None] and ib[..., None, :]: magnitude, or calendar
    similarity where both are calendar periods."""
    magnitude = magnitude_similarity(mentions.values[ia][..., :, None], mentions.values[ib][..., None, :])
    if mentions.calendar is None:
        return magnitude
    days = mentions.calendar.distance(ia, ib)
    return np.where(np.isnan(days), magnitude, calendar_similarity(np.nan_to_num(days)))


def _apply_conditions(scores: np.ndarray, similarity: np.ndarray, by_condition: np.ndarray) -> None:
    rows, cols = scores.shape
    scored = ~np.isnan(scores)
    similarity[:rows, :cols] = np.where(scored, scores, similarity[:rows, :cols])
    by_condition[:rows, :cols] = scored


def _matches(pair_ids, chosen, source, target, cos, magnitude, similarity, by_condition) -> Matches:
    return Matches(
        pair=pair_ids[chosen[0]],
        source=source,
        target=target,
        cosine=cos[chosen],
        magnitude=magnitude[chosen],
        similarity=similarity[chosen],
        by_condition=by_condition[chosen],
    )


def _concat(parts: list[Matches]) -> Matches:
    if not parts:
        return Matches.empty()
    return Matches(*(np.concatenate([getattr(m, f) for m in parts]) for f in Matches.__dataclass_fields__))


def _gather_index(offsets: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    cols = np.arange(int(counts.max()))[None, :]
    mask = cols < counts[:, None]
    return np.where(mask, offsets[:, None] + cols, 0), mask
