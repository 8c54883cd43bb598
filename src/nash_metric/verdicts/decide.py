"""Numeric support: a verdict for every figure of the prediction, and the share its reference supports.

NASH's number channel grades how close two figures are, which is right for ranking near-paraphrases but hides
a wrong figure: $0.13 against $0.15 scores 0.98. A user asking "did the model state figures its reference (a
summary, or the whole source) does not support?" needs a verdict per figure. `decide` takes its steps in order:

1. **Value** (`verdicts.value`). The figure's places are the reference numbers that agree with it at the precision
   it was written with, in a fitting family (`numbers.precision`, `pipeline.alignment.value_support`: rounding,
   hedges, percent vs points, currencies and units, calendar periods). A bare reference number may stand at a
   scale its text states elsewhere: a table's caption ("in millions") gives its cells that scale, and a figure
   written with a scale word ("$1.2 billion") agrees with a reference number written without one ("1,234";
   `value.SCALES`), unless that number counts things ("2,477 hospitals"), which is never an amount of money. No
   place: **unsupported**.
2. **Binding** (`verdicts.placement`, over `context.binding`; docs: "Figures against a source"). The value's
   places are read for what they are bound to: a cell's row label and column headers, a clause's period and the
   noun its figure quantifies, the direction of a change. Word overlap and vector cosine decide nothing here:
   they were too noisy to overrule a value the source states verbatim. The figure is
   * **contradicted** when it states a change ("fell 7.5%") and every place states the opposite direction;
   * **misplaced** when every place is bound to something the prediction contradicts (another year than the
     one the prediction names, or a subject the prediction binds to another figure, or another row or column
     of a table), *and* a commensurable number of another value is bound to what the prediction states (its
     year and its subject). Commensurable (`value.rivals`): the same family, both per unit or both totals, at
     most `VerdictRule.ratio` apart in running text, never the other bound of a place's range. A calendar period
     is never misplaced;
   * **supported** when it is stated as a bound ("more than 3", "at least 20": `numbers.comparisons`), which
     names no value of a place, under `VerdictRule.comparisons` (off by default);
   * **supported** otherwise, unless it is a range's bound or called the highest or lowest and is not the minimum
     or maximum of the table column it names over the rows it names (`aggregates.extreme`): then **misplaced**.

   In a table (text or data: `context.table_data`), a figure names a column by the noun after it, else by its
   subject, and a row by its subject, else by the nearest row label before it (`placement.Tables.named`); the cell
   so named holding another value makes it misplaced (`placement.bound_cells`).
3. **Derivation** (`verdicts.derivations`). A figure stated nowhere (or stated only in a row or column other than
   the ones it names) is **computed** when a derivation of the reference numbers bound to what it names gives it:
   a change, a percentage change, a sum, a share, a ratio, an average, a change in points, at its written
   precision and in the direction it states ("(62.4 − 50.2) / 50.2 = 24.3%"). It counts as supported.
   Otherwise it stays **unsupported**, with the closest such derivation, if any, for the reader.

All steps read the pair alone, so a reference summary and a long source are judged alike, with no mode switch,
and the verdict does not depend on the batch. tau does not gate it. A stated condition (comparison-aware mode)
does not make a figure supported: the verdict is about values. Every rule was chosen leave-one-domain-out on dev
data (`perf/verdict_ablation.py`; the switches: `verdicts.rules`).

The rule of earlier versions, where only the argmax-aligned number decides (`verdict="argmax"`), is
`verdicts.argmax`. The verdicts' names, marks and colours are `verdicts.spec`'s.

``numeric_support`` is the share of the prediction's figures that are supported or computed, 1.0 when it states
none; a supported period that only places another figure ("in 2023") is not counted (`FigureVerdict.role`).
``figure_verdicts`` lists every figure with its verdict, ``unsupported_numbers`` the ones neither.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Literal, NamedTuple, TypedDict

import numpy as np

from ..pipeline.alignment import MentionTable
from . import value
from .aggregates import aggregate, extreme
from .derivations import Derivation, SourceIndex, derive
from .keys import Label, SupportKeys
from .placement import Basis, Tables, bound_cells, bound_strength, contradiction, naming
from .reference import Reference, closeness
from .rules import RULE, VerdictRule
from .spec import RULE_VERDICTS, SUPPORTING, support_share

VERDICTS = RULE_VERDICTS["context"]  # the verdicts of the default rule, in code order
Role = Literal["figure", "period"]


class Code(IntEnum):
    """A figure's verdict under the default rule as `pair_verdicts` stores it (an int8 array of codes);
    `VERDICTS[code]` (or `code.verdict`) is its name (`verdicts.spec`)."""

    SUPPORTED = 0
    MISPLACED = 1
    UNSUPPORTED = 2
    CONTRADICTED = 3
    COMPUTED = 4

    @property
    def verdict(self) -> str:
        return VERDICTS[self]


class CellRef(TypedDict):
    """A table cell's labels as its table writes them ("" where there is none); in data, `row` is its record's
    identifying fields, `column` its key path below the record and `path` its whole key path ("" in a table
    written as text)."""

    section: str
    row: str
    column: str
    path: str


class NumberRef(TypedDict):
    """A number of the reference: its text, span and value, and its table cell when it stands in one (None in
    running text): where a report shows it, without reading the reference's tables again."""

    text: str
    start: int
    end: int
    value: float
    cell: CellRef | None


class FigureVerdict(TypedDict):
    """One figure of the prediction and its verdict (an entry of `figure_verdicts` and `unsupported_numbers`).

    Docs: "Figures against a source".

    Attributes:
        text: the figure as the prediction writes it.
        start: where it starts in the prediction (a character offset).
        end: where it ends.
        value: its value as read.
        verdict: its verdict (`verdicts.spec`: supported, computed, misplaced, unsupported, contradicted; with
            `verdict="argmax"`: supported, unsupported, unmatched).
        found: where its value is stated (supported, misplaced, contradicted; None when unsupported or computed).
        reference: the reference number it is compared with: its value's place when supported or contradicted,
            the number of another value bound to what the prediction states when misplaced, the closest in context
            when unsupported (None when the reference states no number of its kind: `value.kin`).
        cosine: the backbone cosine of the figure and `reference`.
        basis: what decided a misplaced or contradicted figure ("period: 2022, not 2023"; None otherwise).
        derivation: for a computed figure, how its bound source numbers give its value ("(62.4 − 50.2) / 50.2 =
            24.3%"); for an unsupported one, the closest derivation of its bound numbers, if any (its result then
            differs from the figure's value); None otherwise.
        operands: the source numbers of `derivation`, in its order.
        role: "period" for a calendar period that places a figure of its sentence ("2023" in "Revenue was $5
            million in 2023"): judged like any figure, but counted in `numeric_support` only when not supported
            (it states where another figure stands, not a quantity of its own); "figure" otherwise.
    """

    text: str
    start: int
    end: int
    value: float
    verdict: str
    found: NumberRef | None
    reference: NumberRef | None
    cosine: float | None
    basis: str | None
    derivation: str | None
    operands: list[NumberRef] | None
    role: Role


@dataclass(frozen=True)
class Decision:
    """One figure's verdict: its code, the reference number (a column of its pair's matrices) where its value is
    stated (-1: none) and the one it is compared with, and what decided a misplaced or contradicted figure."""

    code: Code
    found: int
    compared: int
    basis: Basis | None = None


@dataclass(frozen=True)
class Figure:
    """What one figure's decision reads: its place `k` among its pair's figures `ia` (mention-table rows), the
    reference's rows `ib`, its rows of the value agreement, rivals and closeness against them, whether it is a
    quantity (not a calendar period), the number a report compares it with by default, and the reference's
    tables."""

    keys: SupportKeys
    k: int
    ia: np.ndarray
    ib: np.ndarray
    agree: np.ndarray
    rival: np.ndarray
    closeness: np.ndarray
    quantity: bool
    compared: int
    tables: Tables

    @property
    def row(self) -> int:
        return int(self.ia[self.k])


def decide(figure: Figure, rule: VerdictRule = RULE) -> Decision:
    """Steps 1 and 2 for one figure, in order: the places of its value (none: unsupported); what contradicts each
    place's binding; a change stated in the other direction at every place (contradicted); a place nothing
    contradicts (supported); else a number of another value bound to what it states (misplaced), or supported."""
    places = np.flatnonzero(figure.agree)
    if not len(places):
        return Decision(Code.UNSUPPORTED, -1, figure.compared)
    others = _others(figure)
    why = _contradictions(figure, places, others, rule)
    free = [p for p, w in zip(places, why) if w is None]
    best = int(max(free or places, key=lambda p: figure.closeness[p]))
    direction = _opposite_direction(figure, places, rule)
    if direction is not None:
        return Decision(Code.CONTRADICTED, best, best, direction)
    if rule.comparisons and figure.keys.bounded[figure.row]:  # "more than 3 draws" states no cell's value
        return Decision(Code.SUPPORTED, best, best)
    if free:
        return _unless_extreme(figure, places, rule, Decision(Code.SUPPORTED, best, best))
    bound = _bound_rival(figure, places, others, rule)
    if bound is None:
        # In a table: the cell the figure names by its row and column states another value.
        cells = (bound_cells(figure.keys, figure.row, figure.tables, figure.ib, places, rule)
                 if rule.tables and rule.cells else [])
        bound = max(cells, key=lambda j: figure.closeness[j]) if cells else None
    if bound is None:
        return _unless_extreme(figure, places, rule, Decision(Code.SUPPORTED, best, best))
    return Decision(Code.MISPLACED, best, bound, why[0])


def _unless_extreme(figure: Figure, places: np.ndarray, rule: VerdictRule, supported: Decision) -> Decision:
    """A supported figure that is a range's bound or called the highest or lowest, and is not that of the column
    it names: misplaced, compared with the cell that is (`aggregates.extreme`)."""
    if not (rule.extremes and figure.quantity):
        return supported
    found = extreme(figure.keys, figure.row, figure.tables, figure.ib, places, rule)
    return supported if found is None else Decision(Code.MISPLACED, supported.found, found[1], found[0])


def _others(figure: Figure) -> list[frozenset[str]]:
    """The subjects of the pair's other figures of another value (its range's other bound aside)."""
    keys, i = figure.keys, figure.row
    return [keys.contexts[int(g)].subject for g in figure.ia
            if g != i and g != keys.partner[i] and keys.values[g] != keys.values[i]]


def _contradictions(figure: Figure, places: np.ndarray, others: list[frozenset[str]], rule: VerdictRule
                    ) -> list[Basis | None]:
    """What contradicts each place's binding (None: nothing). A calendar period is where the other figures stand:
    nothing contradicts it, and its first place is the one it is compared with."""
    if not figure.quantity:
        return [None]
    return [contradiction(figure.keys, figure.row, int(figure.ib[p]), others, figure.tables, rule) for p in places]


def _opposite_direction(figure: Figure, places: np.ndarray, rule: VerdictRule) -> Basis | None:
    """A change stated in the other direction at every place of the value ("fell 7.5%" against "rose 7.5%")."""
    direction = int(figure.keys.direction[figure.row])
    if rule.direction and direction and all(int(figure.keys.direction[figure.ib[p]]) == -direction for p in places):
        return Basis("direction", f"the source states a {'fall' if direction > 0 else 'rise'}")
    return None


def _bound_rival(figure: Figure, places: np.ndarray, others: list[frozenset[str]], rule: VerdictRule) -> int | None:
    """The rival (a commensurable number of another value) most strongly bound to what the figure states, that
    nothing contradicts and that is not the other bound of a place's range; None when none is bound."""
    keys, ib = figure.keys, figure.ib
    partners = {int(keys.partner[ib[p]]) for p in places}
    strength = [(bound_strength(keys, figure.row, int(ib[j]), ib[places]), figure.closeness[j], j)
                for j in np.flatnonzero(figure.rival) if int(ib[j]) not in partners
                and contradiction(keys, figure.row, int(ib[j]), others, figure.tables, rule) is None]
    bound = max((s for s in strength if s[0] > 0), default=None)
    return None if bound is None else int(bound[2])


def _derived(keys: SupportKeys, row: int, decision: Decision, index: SourceIndex, before: frozenset[str],
             rule: VerdictRule, tables: Tables | None = None, ib: np.ndarray | None = None
             ) -> tuple[Decision, Derivation | None]:
    """Step 3 for one figure stated nowhere, or stated only in a row or column other than the ones it names
    ("combined services and product revenue" against the total's row): computed when a derivation of the numbers
    bound to what it names gives it. With it, its derivation, or an unsupported figure's closest one."""
    # The columns its noun names, of a reference with tables (none: every operand stands in running text).
    columns = tables.attribute_columns(naming(keys, row, rule)) \
        if rule.operand_columns and tables is not None and tables.headers else None
    match, closest = derive(keys, row, index, before, columns, rule.intervals)
    if match is None and tables is not None and ib is not None and rule.aggregates:
        found = aggregate(keys, row, tables, ib, rule)  # the highest, lowest, average or total of a column it names
        match = None if found is None else Derivation(*found)
    if match is not None:
        return Decision(Code.COMPUTED, -1, decision.compared), match
    return decision, closest if decision.code == Code.UNSUPPORTED else None


def _derives(decision: Decision, quantity: bool) -> bool:
    """Whether step 3 looks for a derivation of this figure."""
    stated_elsewhere = decision.code == Code.MISPLACED and decision.basis is not None and decision.basis.by_line
    return quantity and (decision.code == Code.UNSUPPORTED or stated_elsewhere)


def _subject_before(keys: SupportKeys, ia: np.ndarray, k: int, quantity: np.ndarray) -> frozenset[str]:
    """A figure in a clause of its own ("..., or 24.3%") takes the subject of the quantity before it."""
    return next((keys.contexts[int(g)].subject for g in ia[:k][::-1]
                 if quantity[g - ia[0]] and keys.contexts[int(g)].subject), frozenset())


class PairVerdicts(NamedTuple):
    """The verdicts of one pair's figures, per figure: the `Code` (int8; `VERDICTS[code]`), the reference row where its
    value was found (-1: none), the reference row it is compared with, their cosine, the basis of a misplaced or
    contradicted verdict, and the derivation of a computed figure (or the closest one of an unsupported one)."""

    code: np.ndarray
    found: np.ndarray
    compared: np.ndarray
    cosine: np.ndarray
    basis: list[Basis | None]
    derivation: list[Derivation | None]


def pair_verdicts(mentions: MentionTable, a: slice, b: slice, rule: VerdictRule = RULE,
                  index: SourceIndex | None = None, reference: Reference | None = None) -> PairVerdicts:
    """The verdicts of one pair's figures (table rows `a`) against its reference (rows `b`); `index`: the
    reference's `derivations.SourceIndex`, and `reference` its `Reference`, when the caller keeps them for a
    reference many pairs share. Figures are judged in blocks of at most `value.VERDICT_CELLS` cells: a verdict
    reads its figure's own row. Small pairs are judged many at once by `small_pair_verdicts`, to the same
    verdicts."""
    ia, ib = np.arange(a.start, a.stop), np.arange(b.start, b.stop)
    m = len(ia)
    keys = mentions.support
    if len(ib) == 0:  # a reference without numbers: no place, no number to compare with, no derivation
        none, tables = np.zeros(0), Tables(())
        decisions = [decide(Figure(keys, k, ia, ib, none, none, none, True, -1, tables), rule) for k in range(m)]
        return _pair_verdicts(decisions, np.full(m, np.nan), [None] * m, b.start)
    reference = reference or Reference(mentions, b, rule)
    quantity = _quantities(mentions, ia)
    decisions: list[Decision] = []
    cosines = np.zeros(m, mentions.vectors.dtype)
    step = max(1, value.VERDICT_CELLS // len(ib))
    for first in range(0, m, step):
        block = ia[first : first + step]
        cosine = mentions.vectors[block] @ mentions.vectors[b].T
        agree = value.value_agreement(mentions, block, ib, rule)
        rival = value.rivals(mentions, block, ib, rule) & ~agree
        close = closeness(keys, block, ib, cosine, reference)
        compared, lost = _closest_fitting(agree | rival, close)
        if lost.any():
            compared[lost] = _closest_of_kind(value.kin(mentions, block[lost], ib), cosine[lost])
        decisions += [decide(Figure(keys, first + row, ia, ib, agree[row], rival[row], close[row],
                                    bool(quantity[first + row]), int(compared[row]), reference.tables), rule)
                      for row in range(len(block))]
        cosines[first : first + len(block)] = cosine[np.arange(len(block)), [d.compared for d in decisions[first:]]]
    derived = _derivations(mentions, ia, ib, decisions, rule, index, reference)
    return _pair_verdicts(decisions, cosines, derived, b.start)


def small_pair_verdicts(mentions: MentionTable, spans: Sequence[tuple[slice, slice]],
                        references: Sequence[Reference | None], indexes: Sequence[SourceIndex | None],
                        rule: VerdictRule = RULE) -> dict[int, PairVerdicts]:
    """Per small pair k (`value.small_pair_blocks`: figures `spans[k][0]` against reference numbers `spans[k][1]`,
    its `references[k]` and `indexes[k]` as for `pair_verdicts`), the verdicts `pair_verdicts` gives it. The value
    step and the number each figure is compared with run in padded numpy over a block of pairs, and only a figure
    whose value is found goes on to the binding (`decide`): on a pair of two sentences numpy's cost per call, not
    the arithmetic, is what a verdict costs."""
    keys, out = mentions.support, {}
    for block in value.small_pair_blocks(mentions, spans, rule):
        pairs = list(zip(block.group.tolist(), block.m.tolist(), block.n.tolist()))
        cosine = np.zeros(block.cells.shape, mentions.vectors.dtype)
        close = np.full(block.cells.shape, -np.inf)
        fits = block.agree | block.rival
        fitted = fits.any(axis=(1, 2))
        for p, (k, m, n) in enumerate(pairs):  # each pair's own product and closeness, as `pair_verdicts` has them
            ia, b = np.arange(spans[k][0].start, spans[k][0].stop), spans[k][1]
            cosine[p, :m, :n] = mentions.vectors[ia] @ mentions.vectors[b].T
            if fitted[p]:  # closeness ranks the numbers that fit a figure only
                close[p, :m, :n] = closeness(keys, ia, block.ib[p, :n], cosine[p, :m, :n], references[k])
        compared, lost = _closest_fitting(fits, close)
        if lost.any():  # kind is read for the figures nothing fits only, each against its own pair's numbers
            kind = value.kin(mentions, block.ia[lost][:, None], block.ib[np.nonzero(lost)[0]])[:, 0]
            compared[lost] = _closest_of_kind(kind & block.cells[lost], cosine[lost])
        quantity, placed = _quantities(mentions, block.ia).tolist(), block.agree.any(axis=-1).tolist()
        chosen = compared.tolist()
        decisions: list[Decision] = []
        derived: list[Derivation | None] = []
        for p, (k, m, n) in enumerate(pairs):
            ia, ib, tables = block.ia[p, :m], block.ib[p, :n], references[k].tables
            own = [decide(Figure(keys, row, ia, ib, block.agree[p, row, :n], block.rival[p, row, :n], close[p, row, :n],
                                 quantity[p][row], chosen[p][row], tables), rule)
                   if placed[p][row] else Decision(Code.UNSUPPORTED, -1, chosen[p][row]) for row in range(m)]
            derived += _derivations(mentions, ia, ib, own, rule, indexes[k], references[k])
            decisions += own
        # The block's figures in pair order; a computed figure keeps the number it is compared with.
        pair = np.repeat(np.arange(len(pairs)), block.m)
        first = np.cumsum(block.m) - block.m
        column = np.array([d.compared for d in decisions], np.int64)
        cosines = cosine[pair, np.arange(len(pair)) - first[pair], np.where(column >= 0, column, block.n[pair] - 1)]
        verdicts = _pair_verdicts(decisions, cosines, derived, block.ib[pair, 0])
        for (k, m, _), start in zip(pairs, first.tolist()):
            out[k] = PairVerdicts(*(field[start : start + m] for field in verdicts))
    return out


def _quantities(mentions: MentionTable, rows: np.ndarray) -> np.ndarray:
    """Whether each of `rows` is a quantity: a calendar period is where the other figures stand, not a quantity
    stated for something."""
    return mentions.calendar.level[rows] < 0 if mentions.calendar is not None else np.ones(rows.shape, bool)


def _closest_fitting(fits: np.ndarray, close: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """[..., m] The number a report shows beside each figure of [..., m, n] matrices, the closest that fits it, and
    which figures nothing fits (`_closest_of_kind` chooses theirs)."""
    return np.where(fits, close, -np.inf).argmax(axis=-1), ~fits.any(axis=-1)


def _closest_of_kind(kind: np.ndarray, cosine: np.ndarray) -> np.ndarray:
    """[L] For figures nothing fits, the number a report shows: the closest by cosine of its kind (`value.kin`),
    else none (-1): "7.0%" read "the reference says $845 million"."""
    return np.where(kind.any(axis=-1), np.where(kind, cosine, -np.inf).argmax(axis=-1), -1)


def _derivations(mentions: MentionTable, ia: np.ndarray, ib: np.ndarray, decisions: list[Decision],
                 rule: VerdictRule, index: SourceIndex | None, reference: Reference) -> list[Derivation | None]:
    """Step 3 for the pair's figures it looks at (`_derives`): each one's decision replaced in `decisions`, and its
    derivation."""
    derived: list[Derivation | None] = [None] * len(ia)
    if not rule.computed or not any(_derives(d, True) for d in decisions):  # most pairs: every figure is found
        return derived
    keys, quantity = mentions.support, _quantities(mentions, ia)
    for k, decision in enumerate(decisions):
        if _derives(decision, bool(quantity[k])):
            index = index or source_index(mentions, ib)
            own = keys.contexts[int(ia[k])]  # `derive` reads the subject before only for a figure without one
            before = _subject_before(keys, ia, k, quantity) if own is not None and not own.subject else frozenset()
            decisions[k], derived[k] = _derived(keys, int(ia[k]), decision, index, before, rule, reference.tables, ib)
    return derived


def _pair_verdicts(decisions: Sequence[Decision], cosines: np.ndarray, derived: list[Derivation | None],
                   first: int | np.ndarray) -> PairVerdicts:
    """The decisions as arrays, their reference columns as table rows (the reference's first row `first`; per
    figure, for the figures of several pairs)."""
    found, compared = (np.array([getattr(d, side) for d in decisions], np.int64) for side in ("found", "compared"))
    return PairVerdicts(np.array([d.code for d in decisions], np.int8), np.where(found >= 0, found + first, -1),
                        np.where(compared >= 0, compared + first, -1), cosines, [d.basis for d in decisions], derived)


def source_index(mentions: MentionTable, ib: np.ndarray) -> SourceIndex:
    """The reference numbers (rows `ib`) a derivation may use: quantities, no calendar period."""
    return SourceIndex(mentions.support, ib, _quantities(mentions, ib))


# -- the verdicts ----------------------------------------------------------------------------------------------


def context_verdicts(mentions: MentionTable, pairs: Sequence[tuple[int, int]], rule: VerdictRule = RULE
                     ) -> list[list[FigureVerdict]]:
    """Per aligned pair (the text ids `pairs[k]` of prediction and reference), every figure with its verdict."""
    indexes: dict[int, SourceIndex] = {}  # a reference many pairs share (claims against one source) is read once
    references: dict[int, Reference] = {}
    spans = [(mentions.of(text_a), mentions.of(text_b)) for text_a, text_b in pairs]
    for (_, text_b), (a, b) in zip(pairs, spans):
        if rule.computed and text_b not in indexes:
            indexes[text_b] = source_index(mentions, np.arange(b.start, b.stop))
        if text_b not in references and b.stop > b.start and a.stop > a.start:
            references[text_b] = Reference(mentions, b, rule)
    small = small_pair_verdicts(mentions, spans, [references.get(b) for _, b in pairs],
                                [indexes.get(b) for _, b in pairs], rule)
    labels, quantity = mentions.support.labels, _quantities(mentions, np.arange(len(mentions.values))).tolist()
    out: list[list[FigureVerdict]] = []
    for k, ((_, text_b), (a, b)) in enumerate(zip(pairs, spans)):
        v = small[k] if k in small else pair_verdicts(mentions, a, b, rule, indexes.get(text_b),
                                                      references.get(text_b))
        judged, roles = _judged(mentions.support, a, references.get(text_b), rule), _roles(mentions, a, quantity)
        out.append([figure_entry(labels, a.start + i, VERDICTS[v.code[i]], (v.found[i], v.compared[i]), v.cosine[i],
                                 None if v.basis[i] is None else str(v.basis[i]), v.derivation[i], roles[i])
                    for i in range(len(v.code)) if judged[i]])
    return out


def _judged(keys: SupportKeys, a: slice, reference: Reference | None, rule: VerdictRule) -> np.ndarray:
    """Which of a pair's figures get a verdict: all but a small count written in words ("six assists", which a
    summary of prose infers more often than it copies), unless it names a column of the reference's tables: data
    states its counts."""
    judged = keys.judged[a]
    if reference is None or judged.all() or not reference.tables.header_words or not rule.words:
        return judged
    headers = reference.tables.header_words
    return judged | np.array([bool(keys.contexts[i].attribute & headers) for i in range(a.start, a.stop)], bool)


def _roles(mentions: MentionTable, a: slice, quantity: list[bool]) -> list[Role]:
    """Each of a prediction's figures (rows `a`; `quantity`: `_quantities` of every row) as `FigureVerdict.role`
    reads it: a calendar period in a sentence that states a quantity places it ("period"); any other figure is one
    ("figure")."""
    contexts, quantity = mentions.support.contexts, quantity[a]
    at = [contexts[i].sentence_at for i in range(a.start, a.stop)]
    placed = {s for s, q in zip(at, quantity) if q and s >= 0}
    return ["period" if not q and s >= 0 and s in placed else "figure" for s, q in zip(at, quantity)]


def figure_entry(labels: Sequence[Label], row: int, verdict: str, places: tuple[int, int], cosine: float,
                 basis: str | None = None, derivation: Derivation | None = None, role: Role = "figure"
                 ) -> FigureVerdict:
    """The `FigureVerdict` of the figure at table row `row`; `places`: the rows where its value was found and of
    the number it is compared with (-1: none)."""
    text, start, end, number, _ = labels[row]
    found, compared = places
    return FigureVerdict(text=text, start=start, end=end, value=number, verdict=verdict,
                         found=_ref(labels, found), reference=_ref(labels, compared),
                         cosine=None if compared < 0 else float(cosine), basis=basis,
                         derivation=None if derivation is None else derivation.text,
                         operands=None if derivation is None else [_ref(labels, j) for j in derivation.operands],
                         role=role)


def _ref(labels: Sequence[Label], row: int) -> NumberRef | None:
    if row < 0:
        return None
    text, start, end, number, cell = labels[int(row)]
    return NumberRef(text=text, start=start, end=end, value=number,
                     cell=None if cell is None else CellRef(section=cell.section, row=cell.row, column=cell.column,
                                                          path=cell.path))


# -- the fields ------------------------------------------------------------------------------------------------


def support_fields(verdicts: list[list[FigureVerdict]], pair_index: np.ndarray) -> dict[str, Any]:
    """`numeric_support`, `figure_verdicts` and `unsupported_numbers` of each input pair (row `pair_index[k]`
    of the per-pair `verdicts`). The share counts a period that places a figure (`FigureVerdict.role`) only when
    it is not supported: "$1.4 billion in 2023", misplaced, scores 0, not 0.5."""
    share = np.array([support_share(v) for v in verdicts])
    chosen = [verdicts[row] for row in pair_index.tolist()]
    return {"numeric_support": share[pair_index] if len(share) else np.zeros(len(pair_index)),
            "figure_verdicts": chosen,
            "unsupported_numbers": [[e for e in v if e["verdict"] not in SUPPORTING] for v in chosen]}
