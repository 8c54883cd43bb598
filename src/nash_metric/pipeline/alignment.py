"""Number channel: align mentions by context, score aligned values by magnitude (docs/method.md §1.3).

The steps, each a function below:

1. `align_numbers`: every mention v of one text picks the mention u* of the other text with the highest
   context cosine (a directional argmax: several v may pick the same u), in both directions.
2. `Alignment.accepted(tau)`: the tau gate; a match counts when its cosine is at least tau (or when a
   stated condition links the two numbers, in comparison-aware mode).
3. `magnitude_similarity`: an accepted match contributes 1 / (1 + |v-u| / N(v,u)), N(v,u) = 1 + (|v|+|u|)/2;
   two calendar periods (dates, quarters, fiscal years) contribute their calendar similarity instead
   (`numbers.periods`: 1 / (1 + days / 182.5), compared at the coarser granularity). With the full reader, two
   figures of different kinds (percent and points, two currencies, a date and a count: `kinds_fit`) contribute 0;
   the paper's reader compares magnitudes only.
4. `numeric_similarity`: S(a->b) = sum of the contributions of a's mentions / |V_a|, as the authors' code
   divides it (the paper prints |V_b|, which exceeds 1 when the counts differ), so each direction is the mean
   over one side's numbers and stays in [0, 1]: with a the prediction, S(a->b) is the numeric precision and
   S(b->a) the recall, as bert-score's P and R. S_num is the mean of both directions; no numbers on either
   side -> 1, numbers on one side only -> 0 (the side without numbers then has a direction of 1: it states
   nothing unsupported, and the other side's direction is 0).
5. `value_support`: whether the chosen mention's value agrees at the precision the source mention was written
   with (`numbers.precision`), for the figure verdicts (`verdicts.decide`).

The alignment is stored flat (one row per mention) so that S_num can be recomputed at any tau without
encoding again, and so that `explain` reads the very matches the score used. Its memory follows the work:
pairs of similar mention counts share one padded einsum, a pair of many numbers runs in blocks of rows, and
values are compared at the chosen matches only, so a long text neither pads the pairs beside it nor costs a
matrix per value test.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import numpy as np

from ..common.batching import size_batches
from ..numbers.periods import CALENDAR_GRANULARITIES, CalendarKeys, calendar_similarity
from ..verdicts.keys import Label, SupportKeys


def magnitude_similarity(v: np.ndarray | float, u: np.ndarray | float) -> np.ndarray:
    """1 / (1 + |v-u| / (1 + (|v|+|u|)/2)), computed on halves so that no finite input overflows."""
    v = np.asarray(v, dtype=np.float64)
    u = np.asarray(u, dtype=np.float64)
    diff = np.abs(v / 2 - u / 2)
    norm = 0.5 + np.abs(v) / 4 + np.abs(u) / 4
    return 1.0 / (1.0 + diff / norm)


@dataclass(frozen=True)
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
    other_kind: np.ndarray  # [R] bool: the two figures are of incompatible kinds (`kinds_fit`), so magnitude is 0

    @classmethod
    def empty(cls) -> Matches:
        i, f, b = np.zeros(0, np.int64), np.zeros(0, np.float64), np.zeros(0, bool)
        return cls(i, i, i, f, f, f, b, b, b)

    def accepted(self, tau: float) -> np.ndarray:
        """The tau gate: a match counts when its cosine reaches tau, or when a condition scored it."""
        return (self.cosine >= tau) | self.by_condition


class NumberScores(NamedTuple):
    """S_num and its two directions, per aligned pair. Built by keyword: the directions are easy to swap."""

    s_num: np.ndarray
    a_to_b: np.ndarray  # S(a->b): a's numbers found in b, normalised by |V_a| (with a the prediction: precision)
    b_to_a: np.ndarray  # S(b->a): b's numbers found in a, normalised by |V_b| (the recall)

    def map(self, fn: Callable[[np.ndarray], np.ndarray]) -> NumberScores:
        """Each score through `fn` (rows picked, blank pairs zeroed), every direction kept in its place."""
        return NumberScores(s_num=fn(self.s_num), a_to_b=fn(self.a_to_b), b_to_a=fn(self.b_to_a))


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
    labels: list[Label] = field(default_factory=list)  # (text, start, end, value, cell labels) per row

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
    """S_num per pair at threshold tau: the mean of the two directional means (docs/method.md §1.3)."""
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
    return NumberScores(s_num=s_num, a_to_b=a_to_b, b_to_a=b_to_a)


def _directional(matches: Matches, tau: float, n_source: np.ndarray, n_pairs: int) -> np.ndarray:
    """Sum of the source mentions' accepted contributions / |V_source|: a mean over one side's numbers, in [0, 1]
    with no cap (NaN where the source has no numbers; the caller applies the edge cases)."""
    total = np.bincount(matches.pair, weights=matches.similarity * matches.accepted(tau), minlength=n_pairs)
    with np.errstate(invalid="ignore", divide="ignore"):
        return total / n_source


# Cells of one cosine einsum (float32: 16 MB), padding included; a pair with more is aligned in blocks of rows.
CELL_BUDGET = 1 << 22


def align_numbers(mentions: MentionTable, pairs_a: np.ndarray, pairs_b: np.ndarray,
                  conditions: dict[int, np.ndarray] | None = None, keep_cosines: bool = False,
                  budget: int | None = None, kinds: bool = True) -> Alignment:
    """The argmax alignment of pairs (pairs_a[k], pairs_b[k]) of text ids, vectorised over pairs.

    `conditions[k]` optionally holds pair k's condition scores (comparison-aware mode) as an
    [n_a, n_b] matrix, NaN where no condition applies: such an entry replaces the magnitude similarity
    and counts whatever the cosine, since the condition itself ("above 200") links the two numbers.
    `keep_cosines` keeps each pair's full cosine matrix (for `explain`). With `kinds` (the full reader), a match
    of figures of different kinds (`kinds_fit`) scores 0: the context says they fill one slot, and the
    prediction filled it with another quantity; the paper's reader compares magnitudes only (`kinds=False`).

    Memory follows the work, not the largest pair: pairs of similar sizes share one padded einsum whose
    padding stays within twice its real cells (`batching.size_batches`), a pair of more than `budget` cells
    (default `CELL_BUDGET`) is aligned in blocks of rows (`_align_blocks`), and the values are compared for
    the chosen matches only. The einsum gives every cosine the same float whatever the batch, so the result
    does not depend on the batching; rows come in pair order, then source mention order.
    """
    budget = budget or CELL_BUDGET
    counts, offsets = mentions.counts, mentions.offsets
    live = np.nonzero((counts[pairs_a] > 0) & (counts[pairs_b] > 0))[0]
    m, n = counts[pairs_a[live]], counts[pairs_b[live]]
    dtype = mentions.vectors.dtype
    ab, ba = _Argmax(live, m, dtype), _Argmax(live, n, dtype)
    cosines: dict[int, np.ndarray] = {}
    big = m * n > budget
    for q in np.nonzero(big)[0]:
        va = mentions.vectors[mentions.of(pairs_a[live[q]])]
        vb = mentions.vectors[mentions.of(pairs_b[live[q]])]
        full = _align_blocks(va, vb, budget, ab.of(q), ba.of(q), keep_cosines)
        if full is not None:
            cosines[int(live[q])] = full
    # Padding within twice the real cells; the budget covers the cosines and the gathered vectors.
    for qs in size_batches(m, n, budget, per_pair=mentions.vectors.shape[1], max_padding=2, eligible=~big):
        ia, mask_a = gather_index(offsets[pairs_a[live[qs]]], m[qs])
        ib, mask_b = gather_index(offsets[pairs_b[live[qs]]], n[qs])
        cos = np.einsum("pih,pjh->pij", mentions.vectors[ia], mentions.vectors[ib])
        np.copyto(cos, -np.inf, where=~(mask_a[:, :, None] & mask_b[:, None, :]))
        # a -> b: each mention of a picks its best b mention (the first of equals); b -> a likewise.
        j = cos.argmax(axis=2)
        ab.fill(qs, mask_a, j, np.take_along_axis(cos, j[:, :, None], 2)[:, :, 0])
        i = cos.argmax(axis=1)
        ba.fill(qs, mask_b, i, np.take_along_axis(cos, i[:, None, :], 1)[:, 0, :])
        if keep_cosines:
            cosines.update({int(live[q]): cos[k, : m[q], : n[q]].copy() for k, q in enumerate(qs)})
    first_a, first_b = offsets[pairs_a], offsets[pairs_b]
    return Alignment(
        n_a=counts[pairs_a].astype(np.float64),
        n_b=counts[pairs_b].astype(np.float64),
        a_to_b=ab.matches(mentions, (ab.source, ab.target), (first_a, first_b), conditions, kinds, support=True),
        # The support verdict reads a's written precision: b's verdicts are not reported, so none are computed.
        b_to_a=ba.matches(mentions, (ba.target, ba.source), (first_a, first_b), conditions, kinds, support=False),
        cosines=dict(sorted(cosines.items())),
        first_a=first_a if mentions.support is not None else None,
        first_b=first_b if mentions.support is not None else None,
        labels=mentions.support.labels if mentions.support is not None else [],
    )


class _Argmax:
    """One direction's choices, a row per source mention of each live pair: pair order, then source order."""

    def __init__(self, pairs: np.ndarray, sizes: np.ndarray, dtype: np.dtype) -> None:
        self.pairs = pairs
        self.start = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        self.pair = np.repeat(pairs, sizes)
        self.source = np.arange(len(self.pair)) - np.repeat(self.start[:-1], sizes)
        self.target = np.zeros(len(self.pair), np.int64)
        self.cosine = np.zeros(len(self.pair), dtype)

    def of(self, q: int) -> tuple[np.ndarray, np.ndarray]:
        """Views of the target and cosine rows of live pair q, for the block-wise path to fill."""
        rows = slice(self.start[q], self.start[q + 1])
        return self.target[rows], self.cosine[rows]

    def fill(self, qs: np.ndarray, mask: np.ndarray, target: np.ndarray, cosine: np.ndarray) -> None:
        """The padded choices [B, width] of live pairs qs, real entries (mask) only."""
        rows = (self.start[qs][:, None] + np.arange(mask.shape[1]))[mask]
        self.target[rows], self.cosine[rows] = target[mask], cosine[mask]

    def matches(
        self,
        mentions: MentionTable,
        local: tuple[np.ndarray, np.ndarray],
        firsts: tuple[np.ndarray, np.ndarray],
        conditions: dict[int, np.ndarray] | None,
        kinds: bool,
        support: bool,
    ) -> Matches:
        """Values compared, and conditions read, at the chosen entries only: `local` holds their (a, b) indices
        within the pair's mentions, `firsts` the table row of each pair's first a and b mention. A stated
        condition scores its number whatever the kinds (`numbers.comparisons` reads the cue and the figure)."""
        if not len(self.pair):
            return Matches.empty()
        ia, ib = (first[self.pair] + index for first, index in zip(firsts, local))
        other_kind = ~kinds_fit(mentions, ia[:, None], ib[:, None]).reshape(-1) if kinds else np.zeros(len(ia), bool)
        magnitude = np.where(other_kind, 0.0, value_similarity(mentions, ia[:, None], ib[:, None], kinds=False)
                             .reshape(-1))
        similarity, by_condition = magnitude.copy(), np.zeros(len(magnitude), bool)
        for k, scores in (conditions or {}).items():
            q = int(np.searchsorted(self.pairs, k))
            if q == len(self.pairs) or self.pairs[q] != k:
                continue  # no numbers on one side: no match to score
            rows = slice(self.start[q], self.start[q + 1])
            i, j = local[0][rows], local[1][rows]
            inside = (i < scores.shape[0]) & (j < scores.shape[1])
            score = np.full(len(i), np.nan)
            score[inside] = scores[i[inside], j[inside]]
            scored = ~np.isnan(score)
            similarity[rows] = np.where(scored, score, magnitude[rows])
            by_condition[rows] = scored
        supported = np.zeros(len(ia), bool)
        if support:
            supported = value_support(mentions, ia[:, None], ib[:, None]).reshape(-1)
        return Matches(self.pair, self.source, self.target, self.cosine, magnitude, similarity, by_condition, supported,
                       other_kind)


def _align_blocks(
    va: np.ndarray,
    vb: np.ndarray,
    budget: int,
    ab: tuple[np.ndarray, np.ndarray],
    ba: tuple[np.ndarray, np.ndarray],
    keep: bool,
) -> np.ndarray | None:
    """One big pair's argmax in blocks of a's rows against all of b (peak O(block x n), not O(m x n)): a -> b per
    block, b -> a as a running max over the blocks, where a later block wins only when strictly greater (NaN
    wins, as `argmax` picks the first NaN), so both equal the argmax of the full matrix. Fills `ab`, `ba`
    (target, cosine views); returns the full matrix only when `keep` asks for it."""
    (target_ab, cosine_ab), (target_ba, cosine_ba) = ab, ba
    n = len(vb)
    step = max(1, budget // n)
    full = np.empty((len(va), n), np.result_type(va, vb)) if keep else None
    columns = np.arange(n)
    for r in range(0, len(va), step):
        block = np.einsum("pih,pjh->pij", va[None, r : r + step], vb[None])[0]
        j = block.argmax(axis=1)
        target_ab[r : r + step], cosine_ab[r : r + step] = j, block[np.arange(len(block)), j]
        i = block.argmax(axis=0)
        best = block[i, columns]
        if r == 0:
            target_ba[:], cosine_ba[:] = i, best
        else:
            later = (best > cosine_ba) | (np.isnan(best) & ~np.isnan(cosine_ba))
            target_ba[later], cosine_ba[later] = i[later] + r, best[later]
        if full is not None:
            full[r : r + step] = block
    return full


def value_similarity(mentions: MentionTable, ia: np.ndarray, ib: np.ndarray, kinds: bool = True) -> np.ndarray:
    """Similarity of the values of mentions ia[..., :, None] and ib[..., None, :]: magnitude, or calendar
    similarity where both are calendar periods; with `kinds`, 0 where the two are figures of different kinds
    (`kinds_fit`: "2%" is not "2 percentage points", EUR 5 mn not USD 5 mn). The paper compares magnitudes only."""
    magnitude = magnitude_similarity(mentions.values[ia][..., :, None], mentions.values[ib][..., None, :])
    if mentions.calendar is not None:
        days = mentions.calendar.distance(ia, ib)
        magnitude = np.where(np.isnan(days), magnitude, calendar_similarity(np.nan_to_num(days)))
    return np.where(kinds_fit(mentions, ia, ib), magnitude, 0.0) if kinds else magnitude


def kinds_fit(mentions: MentionTable, ia: np.ndarray, ib: np.ndarray) -> np.ndarray:
    """Whether mentions ia[..., :, None] and ib[..., None, :] are figures of one kind, the families of
    `numbers.precision`: percent, percentage points and times of day fit only their own family, two stated
    currencies or units must be equal, a number without a unit fits any other unit; a calendar period fits
    another period, and a plain number only when it is a bare year ("2019" against "2019 employees" may be
    the same figure; "16 February" against "16" is not). The one check of the score and the support verdict.
    Without `mentions.support` every pair fits."""
    keys = mentions.support
    if keys is None:
        return np.ones(np.broadcast_shapes(ia[..., :, None].shape, ib[..., None, :].shape), bool)
    fa, fb = keys.family[ia][..., :, None], keys.family[ib][..., None, :]
    fits = (fa == fb) | ((fa < 0) & ~keys.strict[ib][..., None, :]) | ((fb < 0) & ~keys.strict[ia][..., :, None])
    if mentions.calendar is None:
        return fits
    level = mentions.calendar.level
    cal_a, cal_b = level[ia][..., :, None] >= 0, level[ib][..., None, :] >= 0
    year = CALENDAR_GRANULARITIES.index("year")
    # A period without a year ("fourth quarter", "16 February") says nothing about one: it supports "Q4 2020"
    # but never "2020" (`CalendarKeys.agree`).
    one_period = (cal_a & (level[ia][..., :, None] != year)) | (cal_b & (level[ib][..., None, :] != year))
    return (cal_a & cal_b) | (fits & ~one_period)


def value_support(mentions: MentionTable, ia: np.ndarray, ib: np.ndarray, b_values: np.ndarray | None = None,
                  unsigned: bool = False, periods: bool = True) -> np.ndarray:
    """Whether mention ib[..., None, :] supports ia[..., :, None]: the same value at the precision ia was written
    with (`numbers.precision`: within its tolerance, strictly, or equal) and a fitting family.

    The written precision is ia's: a reference that rounds ("$1.2 billion") does not support a prediction that
    states more ("$1,234 million"). Two calendar periods agree when they are the same period at the coarser
    granularity (0 days apart); a period against a plain number only when the period is a bare year. Without
    `mentions.support`, values must be equal. `b_values` replaces the comparable values of the ib side (a table's
    scale applied, `verdicts.value.value_agreement`); `unsigned` compares magnitudes (a sign is often said in words);
    `periods=False` skips the calendar arithmetic, for a caller that masks out every ib that is a period.
    """
    keys = mentions.support
    if keys is None:
        return mentions.values[ia][..., :, None] == mentions.values[ib][..., None, :]
    va = keys.values[ia][..., :, None]
    vb = (keys.values if b_values is None else b_values)[ib][..., None, :]
    if unsigned:
        va, vb = np.abs(va), np.abs(vb)
    # Halves, so that no finite pair overflows; a relative epsilon absorbs the float error of scaled values.
    gap = np.abs(va / 2 - vb / 2)
    close = (gap < keys.tolerance[ia][..., :, None] / 2) | (gap <= 1e-12 * np.maximum(np.abs(va), np.abs(vb)))
    agree = close & kinds_fit(mentions, ia, ib)
    if mentions.calendar is None or not periods:
        return agree
    level = mentions.calendar.level
    both = (level[ia][..., :, None] >= 0) & (level[ib][..., None, :] >= 0)
    if not both.any():  # no two periods to compare: skip the calendar arithmetic
        return agree
    return np.where(both, mentions.calendar.agree(ia, ib), agree)


def _concat(parts: list[Matches]) -> Matches:
    if not parts:
        return Matches.empty()
    return Matches(*(np.concatenate([getattr(m, f) for m in parts]) for f in Matches.__dataclass_fields__))


def gather_index(offsets: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows offsets[p] : offsets[p] + counts[p] of each block p, padded to the longest with row 0, and their mask."""
    cols = np.arange(int(counts.max()))[None, :]
    mask = cols < counts[:, None]
    return np.where(mask, offsets[:, None] + cols, 0), mask
