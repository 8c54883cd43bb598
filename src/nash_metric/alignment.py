"""Number channel: align mentions by context, score aligned values by magnitude (DESIGN §1.3).

The steps, each a function below:

1. `align_numbers`: every mention v of one text picks the mention u* of the other text with the highest
   context cosine (a directional argmax: several v may pick the same u), in both directions.
2. `Alignment.accepted(tau)`: the tau gate; a match counts when its cosine is at least tau (or when a
   stated condition links the two numbers, in comparison-aware mode).
3. `magnitude_similarity`: an accepted match contributes 1 / (1 + |v-u| / N(v,u)), N(v,u) = 1 + (|v|+|u|)/2;
   two calendar periods (dates, quarters, fiscal years) contribute their calendar similarity instead
   (`numbers.periods`: 1 / (1 + days / 182.5), compared at the coarser granularity).
4. `numeric_similarity`: S(a->b) = sum of the contributions of a's mentions / |V_a|, as the authors' code
   divides it (the paper prints |V_b|, which exceeds 1 when the counts differ), so each direction is the mean
   over one side's numbers and stays in [0, 1]: with a the prediction, S(a->b) is the numeric precision and
   S(b->a) the recall, as bert-score's P and R. S_num is the mean of both directions; no numbers on either
   side -> 1, numbers on one side only -> 0 (the side without numbers then has a direction of 1: it states
   nothing unsupported, and the other side's direction is 0).
5. `value_support`: whether the chosen mention's value agrees at the precision the source mention was written
   with (`numbers.precision`), for the verdicts of `support.py`.

The alignment is stored flat (one row per mention) so that S_num can be recomputed at any tau without
encoding again, and so that `explain` reads the very matches the score used.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import numpy as np

from .numbers.periods import CALENDAR_GRANULARITIES, CalendarKeys, calendar_similarity


def magnitude_similarity(v: np.ndarray | float, u: np.ndarray | float) -> np.ndarray:
    """1 / (1 + |v-u| / (1 + (|v|+|u|)/2)), computed on halves so that no finite input overflows."""
    v = np.asarray(v, dtype=np.float64)
    u = np.asarray(u, dtype=np.float64)
    diff = np.abs(v / 2 - u / 2)
    norm = 0.5 + np.abs(v) / 4 + np.abs(u) / 4
    return 1.0 / (1.0 + diff / norm)


@dataclass
class SupportKeys:
    """Per mention, what the support verdict compares (`numbers.precision.WrittenPrecision`, stacked)."""

    values: np.ndarray  # [M] comparable value (basis points in percentage points)
    tolerance: np.ndarray  # [M] half a unit of the last written digit (a whole unit when hedged)
    family: np.ndarray  # [M] int: -1 fits any unit but a strict one; equal codes fit each other
    strict: np.ndarray  # [M] bool: percent, percentage points, time of day: only their own family fits
    labels: list[tuple[str, int, int, float]]  # [M] (text, start, end, value) of each mention, for reports


@dataclass
class MentionTable:
    """The scorable mentions of many texts, stacked: text t owns rows offsets[t] : offsets[t] + counts[t]."""

    vectors: np.ndarray  # [M, H] L2-normalised context vectors
    values: np.ndarray  # [M] float64 values
    offsets: np.ndarray  # [T] int64
    counts: np.ndarray  # [T] int64
    calendar: CalendarKeys | None = None  # the mentions' calendar periods (None: no mention has one)
    support: SupportKeys | None = None  # what the support verdict compares (None: values only, exactly)

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
    supported: np.ndarray  # [R] bool: the chosen mention's value supports the source's (`value_support`)

    @classmethod
    def empty(cls) -> Matches:
        i, f, b = np.zeros(0, np.int64), np.zeros(0, np.float64), np.zeros(0, bool)
        return cls(i, i, i, f, f, f, b, b)

    def accepted(self, tau: float) -> np.ndarray:
        """The tau gate: a match counts when its cosine reaches tau, or when a condition scored it."""
        return (self.cosine >= tau) | self.by_condition


class NumberScores(NamedTuple):
    """S_num and its two directions, per aligned pair."""

    s_num: np.ndarray
    a_to_b: np.ndarray  # S(a->b): a's numbers found in b, normalised by |V_a| (with a the prediction: precision)
    b_to_a: np.ndarray  # S(b->a): b's numbers found in a, normalised by |V_b| (the recall)


@dataclass
class Alignment:
    """Argmax matches of a list of text pairs (a, b), both directions, with the mention counts."""

    n_a: np.ndarray  # [P] scorable mentions of each first text
    n_b: np.ndarray  # [P]
    a_to_b: Matches
    b_to_a: Matches
    cosines: dict[int, np.ndarray] = field(default_factory=dict)  # pair -> [n_a, n_b] matrix, when kept
    first_a: np.ndarray | None = None  # [P] row of each first text's first mention in `labels`
    first_b: np.ndarray | None = None  # [P]
    labels: list[tuple[str, int, int, float]] = field(default_factory=list)  # (text, start, end, value) per row

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

        label_offsets = np.cumsum([0, *(len(p.labels) for p in parts)])
        labelled = all(p.first_a is not None for p in parts)

        def firsts(side: str) -> np.ndarray | None:
            return np.concatenate([getattr(p, side) + o for p, o in zip(parts, label_offsets)]) if labelled else None

        merged = cls(
            n_a=np.concatenate([p.n_a for p in parts]) if parts else np.zeros(0, np.int64),
            n_b=np.concatenate([p.n_b for p in parts]) if parts else np.zeros(0, np.int64),
            a_to_b=shifted("a_to_b"),
            b_to_a=shifted("b_to_a"),
            cosines={int(row + o): c for p, o in zip(parts, offsets) for row, c in p.cosines.items()},
            first_a=firsts("first_a") if parts else None,
            first_b=firsts("first_b") if parts else None,
            labels=[label for p in parts for label in p.labels],
        )
        return merged, offsets


def numeric_similarity(alignment: Alignment, tau: float) -> NumberScores:
    """S_num per pair at threshold tau: the mean of the two directional means (DESIGN §1.3)."""
    a_to_b = _directional(alignment.a_to_b, tau, alignment.n_a, len(alignment.n_a))
    b_to_a = _directional(alignment.b_to_a, tau, alignment.n_b, len(alignment.n_a))
    both = (alignment.n_a > 0) & (alignment.n_b > 0)
    neither = (alignment.n_a == 0) & (alignment.n_b == 0)
    # A side without numbers has nothing to find or to get wrong: its direction is 1 (bert-score's P of a
    # prediction that states no figure), the other side's 0. S_num keeps the paper's edge cases: 1 when neither
    # side holds a number, 0 when one side does.
    a_to_b = np.where(both, a_to_b, np.where(alignment.n_a == 0, 1.0, 0.0))
    b_to_a = np.where(both, b_to_a, np.where(alignment.n_b == 0, 1.0, 0.0))
    s_num = np.where(both, (a_to_b + b_to_a) / 2, np.where(neither, 1.0, 0.0))
    return NumberScores(s_num, a_to_b, b_to_a)


def _directional(matches: Matches, tau: float, n_source: np.ndarray, n_pairs: int) -> np.ndarray:
    """Sum of the source mentions' accepted contributions / |V_source|: a mean over one side's numbers, in [0, 1]
    with no cap (NaN where the source has no numbers; the caller applies the edge cases)."""
    total = np.bincount(matches.pair, weights=matches.similarity * matches.accepted(tau), minlength=n_pairs)
    with np.errstate(invalid="ignore", divide="ignore"):
        return total / n_source


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
        supported = value_support(mentions, ia, ib)
        similarity, by_condition = magnitude.copy(), np.zeros(magnitude.shape, dtype=bool)
        for local, k in enumerate(pair_ids):
            if conditions and k in conditions:
                _apply_conditions(conditions[k], similarity[local], by_condition[local])
            if keep_cosines:
                cosines[int(k)] = cos[local, : counts[ka[local]], : counts[kb[local]]].copy()
        # a -> b: each mention of a picks its best b mention; b -> a likewise.
        scores = (cos, magnitude, similarity, by_condition)
        p, i = np.nonzero(mask_a)
        j = cos.argmax(axis=2)[p, i]
        parts["ab"].append(_matches(pair_ids, (p, i, j), i, j, scores, supported))
        p, j = np.nonzero(mask_b)
        i = cos.argmax(axis=1)[p, j]
        # The support matrix reads a's written precision: b's verdicts are not reported, so none are kept.
        parts["ba"].append(_matches(pair_ids, (p, i, j), j, i, scores, np.zeros_like(supported)))
    return Alignment(
        n_a=counts[pairs_a].astype(np.float64),
        n_b=counts[pairs_b].astype(np.float64),
        a_to_b=_concat(parts["ab"]),
        b_to_a=_concat(parts["ba"]),
        cosines=cosines,
        first_a=offsets[pairs_a] if mentions.support is not None else None,
        first_b=offsets[pairs_b] if mentions.support is not None else None,
        labels=mentions.support.labels if mentions.support is not None else [],
    )


def value_similarity(mentions: MentionTable, ia: np.ndarray, ib: np.ndarray) -> np.ndarray:
    """Similarity of the values of mentions ia[..., :, None] and ib[..., None, :]: magnitude, or calendar
    similarity where both are calendar periods."""
    magnitude = magnitude_similarity(mentions.values[ia][..., :, None], mentions.values[ib][..., None, :])
    if mentions.calendar is None:
        return magnitude
    days = mentions.calendar.distance(ia, ib)
    return np.where(np.isnan(days), magnitude, calendar_similarity(np.nan_to_num(days)))


def value_support(mentions: MentionTable, ia: np.ndarray, ib: np.ndarray) -> np.ndarray:
    """Whether mention ib[..., None, :] supports ia[..., :, None]: the same value at the precision ia was written
    with (`numbers.precision`: within its tolerance, strictly, or equal) and a fitting family.

    The written precision is ia's: a reference that rounds ("$1.2 billion") does not support a prediction that
    states more ("$1,234 million"). Two calendar periods agree when they are the same period at the coarser
    granularity (0 days apart); a period against a plain number only when the period is a bare year. Without
    `mentions.support`, values must be equal.
    """
    keys = mentions.support
    if keys is None:
        return mentions.values[ia][..., :, None] == mentions.values[ib][..., None, :]
    va, vb = keys.values[ia][..., :, None], keys.values[ib][..., None, :]
    # Halves, so that no finite pair overflows; a relative epsilon absorbs the float error of scaled values.
    gap = np.abs(va / 2 - vb / 2)
    close = (gap < keys.tolerance[ia][..., :, None] / 2) | (gap <= 1e-12 * np.maximum(np.abs(va), np.abs(vb)))
    fa, fb = keys.family[ia][..., :, None], keys.family[ib][..., None, :]
    fits = (fa == fb) | ((fa < 0) & ~keys.strict[ib][..., None, :]) | ((fb < 0) & ~keys.strict[ia][..., :, None])
    agree = close & fits
    if mentions.calendar is None:
        return agree
    level = mentions.calendar.level
    cal_a, cal_b = level[ia][..., :, None] >= 0, level[ib][..., None, :] >= 0
    year = CALENDAR_GRANULARITIES.index("year")
    days = mentions.calendar.distance(ia, ib)
    one_period = (cal_a & (level[ia][..., :, None] != year)) | (cal_b & (level[ib][..., None, :] != year))
    return np.where(cal_a & cal_b, days == 0, agree & ~one_period)


def _apply_conditions(scores: np.ndarray, similarity: np.ndarray, by_condition: np.ndarray) -> None:
    rows, cols = scores.shape
    scored = ~np.isnan(scores)
    similarity[:rows, :cols] = np.where(scored, scores, similarity[:rows, :cols])
    by_condition[:rows, :cols] = scored


def _matches(pair_ids, chosen, source, target, scores, supported) -> Matches:
    cos, magnitude, similarity, by_condition = scores
    return Matches(
        pair=pair_ids[chosen[0]],
        source=source,
        target=target,
        cosine=cos[chosen],
        magnitude=magnitude[chosen],
        similarity=similarity[chosen],
        by_condition=by_condition[chosen],
        supported=supported[chosen],
    )


def _concat(parts: list[Matches]) -> Matches:
    if not parts:
        return Matches.empty()
    return Matches(*(np.concatenate([getattr(m, f) for m in parts]) for f in Matches.__dataclass_fields__))


def _gather_index(offsets: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    cols = np.arange(int(counts.max()))[None, :]
    mask = cols < counts[:, None]
    return np.where(mask, offsets[:, None] + cols, 0), mask
