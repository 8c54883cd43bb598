"""Step 1 of the verdict, the value: which reference numbers state a figure's value (at its written precision,
scale and family), and which could state what it states whatever their value (its rivals, commensurable numbers).
Both as [figures x reference numbers] matrices, several small pairs at once (`small_pair_blocks`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

import numpy as np

from ..common.batching import size_batches
from ..pipeline.alignment import MentionTable, gather_index, value_support
from .keys import SupportKeys
from .rules import RULE, VerdictRule

SCALES = (1e3, 1e6, 1e9)  # the scales a bare reference number may stand at, for a figure written with a scale word
# Cells of one block of a pair's [figures x reference numbers] matrices (cosines, agreement, closeness, and their
# temporaries): against a long source the prediction's figures are judged a block at a time, each float64 matrix of
# a block at most 8 MB (50 figures against 93,000 source numbers peaked 0.3 GB higher in one block).
VERDICT_CELLS = 1 << 20
# A pair of at most this many [figure x reference number] cells is a small pair: its value agreement and rivals are
# computed with other small pairs' in one padded call (`small_pair_blocks`), as numpy's cost per call, not the
# arithmetic, is what a pair of two sentences costs.
SMALL_PAIR = 4096


def value_agreement(mentions: MentionTable, ia: np.ndarray, ib: np.ndarray, rule: VerdictRule = RULE
                    ) -> np.ndarray:
    """[..., m, n] whether reference mention ib[..., j] states the value of figure ia[..., i] (leading dimensions:
    several pairs at once, `small_pair_blocks`): as written, at its table's scale, or (a bare number, for a figure
    with a scale word) at one of `SCALES`. With `rule.counts`, a number that counts things ("5,078 people") never
    states an amount of money nor stands at a scale."""
    keys = mentions.support
    agree = value_support(mentions, ia, ib, unsigned=True)
    if keys.headed.any():  # "Three" of a "Three-pointers made" header states no value
        agree &= ~_along(ib)(keys.headed)
    bare = ~keys.scaled[ib] & ~keys.strict[ib] & np.isnan(keys.table_scale[ib])
    if rule.counts:
        bare &= ~keys.counted[ib]
    if mentions.calendar is not None:
        bare &= mentions.calendar.level[ib] < 0
    in_scaled_table = ~np.isnan(keys.table_scale[ib])
    if in_scaled_table.any():
        agree |= value_support(mentions, ia, ib, b_values=keys.values * np.nan_to_num(keys.table_scale, nan=1.0),
                               unsigned=True)
    if bare.any() and keys.scaled[ia].any():  # a bare number is no period: no calendar arithmetic for it
        for scale in SCALES:
            agree |= value_support(mentions, ia, ib, b_values=keys.values * scale, unsigned=True, periods=False) \
                & bare[..., None, :] & keys.scaled[ia][..., :, None]
    if keys.clock[ia].any():  # "Let's make it 7." supports "at 7 pm": a plain number as the hour of a time
        hours = keys.values[ia][..., :, None]
        plain = (keys.family[ib] < 0) & ~keys.strict[ib]
        if mentions.calendar is not None:
            plain &= mentions.calendar.level[ib] < 0
        hour12 = np.where(hours % 12 == 0, 12, hours % 12)
        agree |= keys.clock[ia][..., :, None] & plain[..., None, :] & (keys.values[ib][..., None, :] == hour12)
    if rule.counts:
        agree &= ~(keys.money[ia][..., :, None] & keys.counted[ib][..., None, :])
    if rule.durations and agree.any():
        agree &= _same_duration(keys, ia, ib)
    return agree


def _same_duration(keys: SupportKeys, ia: np.ndarray, ib: np.ndarray) -> np.ndarray:
    """[..., m, n] False where one side is a length of time and the other counts something else ("25 years" against
    "25 countries", "20 minutes" against "20 years"); a plain number fits either."""
    na, nb = keys.noun[ia][..., :, None], keys.noun[ib][..., None, :]
    return ~(keys.timed[ia][..., :, None] | keys.timed[ib][..., None, :]) | (na == nb) | (na < 0) | (nb < 0)


def _down(ia: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """A [..., M] field as figure ia[i]'s value down a column of a [..., m, n] matrix."""
    return lambda values: values[ia][..., :, None]


def _along(ib: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """A [..., M] field as reference number ib[j]'s value along a row of a [..., m, n] matrix."""
    return lambda values: values[ib][..., None, :]


def kin(mentions: MentionTable, ia: np.ndarray, ib: np.ndarray) -> np.ndarray:
    """[..., m, n] whether reference mention ib[..., j] is of figure ia[..., i]'s kind, whatever its value: the same
    family (a number without a unit fits any but a strict one), both amounts per unit or both totals, neither
    counting things against money, and a calendar period only for a period (a year stated beside an amount is not
    of its kind). A report never compares a figure with a number of another kind ("7.0%" with "$845 million")."""
    keys, a, b = mentions.support, _down(ia), _along(ib)
    fa, fb = a(keys.family), b(keys.family)
    fits = (fa == fb) | (fa < 0) & ~b(keys.strict) | (fb < 0) & ~a(keys.strict)
    fits &= a(keys.per_unit) == b(keys.per_unit)
    fits &= ~((a(keys.money) | b(keys.money)) & (a(keys.counted) | b(keys.counted))) & ~b(keys.headed)
    if mentions.calendar is None:
        return fits
    level = mentions.calendar.level
    return fits & ((a(level) >= 0) == (b(level) >= 0))


def rivals(mentions: MentionTable, ia: np.ndarray, ib: np.ndarray, rule: VerdictRule = RULE) -> np.ndarray:
    """[..., m, n] whether reference mention ib[..., j] could state what figure ia[..., i] states, whatever its value
    (commensurable): of its kind (`kin`) and at most `rule.ratio` apart (a table's scale applied; a table cell at
    any distance unless `rule.ratio_in_tables`: its row and column bind it)."""
    keys, a, b = mentions.support, _down(ia), _along(ib)
    va = np.abs(a(keys.values))
    vb = np.abs(b(keys.values) * np.nan_to_num(b(keys.table_scale), nan=1.0))
    near = _within(va, vb, rule.ratio)
    # A bare number may stand at a scale for a figure written with one ("185" for "$185 million").
    for scale in SCALES:
        near |= _within(va, vb * scale, rule.ratio) & a(keys.scaled) & np.isnan(b(keys.table_scale))
    if not rule.ratio_in_tables:
        near |= b(keys.cell)
    return kin(mentions, ia, ib) & near


def _within(a: np.ndarray, b: np.ndarray, ratio: float) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return (np.maximum(a, b) <= ratio * np.minimum(a, b)) | ((a == 0) & (b == 0))


class SmallPairs(NamedTuple):
    """Small pairs of like sizes padded into one block (`small_pair_blocks`): pair `group[p]`'s figures are rows
    `ia[p, :m[p]]` of the mention table, its reference numbers `ib[p, :n[p]]`; `cells` marks the real cells of the
    [P, M, N] matrices (padding reads row 0: its cells mean nothing)."""

    group: np.ndarray
    m: np.ndarray
    n: np.ndarray
    ia: np.ndarray
    ib: np.ndarray
    cells: np.ndarray
    agree: np.ndarray  # value agreement, False off the real cells
    rival: np.ndarray  # rivals that do not agree, False off the real cells


def small_pair_blocks(mentions: MentionTable, spans: Sequence[tuple[slice, slice]], rule: VerdictRule = RULE
                      ) -> Iterator[SmallPairs]:
    """The small pairs among `spans` (figures `spans[k][0]` against reference numbers `spans[k][1]`, both held) in
    padded blocks of at most `VERDICT_CELLS` cells (`batching.size_batches`), with their value agreement and rivals
    as `pair_verdicts` computes them (elementwise, so each pair's cells are the ones it would get alone)."""
    first = np.array([(a.start, b.start) for a, b in spans], np.int64).reshape(-1, 2)
    m, n = np.array([(a.stop - a.start, b.stop - b.start) for a, b in spans], np.int64).reshape(-1, 2).T
    small = (m > 0) & (n > 0) & (m * n <= min(SMALL_PAIR, VERDICT_CELLS))  # a small pair is one block
    for group in size_batches(m, n, VERDICT_CELLS, eligible=small):
        ia, rows = gather_index(first[group, 0], m[group])
        ib, columns = gather_index(first[group, 1], n[group])
        cells = rows[:, :, None] & columns[:, None, :]
        agree = value_agreement(mentions, ia, ib, rule)
        rival = rivals(mentions, ia, ib, rule) & ~agree
        yield SmallPairs(group, m[group], n[group], ia, ib, cells, agree & cells, rival & cells)
