"""Numeric support: a verdict for every figure of the prediction, and the share its reference supports.

NASH's number channel grades how close two figures are, which is right for ranking near-paraphrases but hides
a wrong figure: $0.13 against $0.15 scores 0.98. A user asking "did the model state figures its reference (a
summary, or the whole source) does not support?" needs a verdict per figure. It is decided in two steps:

1. **Value.** The figure's places are the reference numbers that agree with it at the precision it was written
   with, in a fitting family (`numbers.precision`, `alignment.value_support`: rounding, hedges, percent vs
   points, currencies and units, calendar periods). A bare reference number may stand at a scale its text states
   elsewhere: a table's caption ("in millions") gives its cells that scale, and a figure written with a scale
   word ("$1.2 billion") agrees with a reference number written without one ("1,234"; `SCALES`), unless that
   number counts things ("2,477 hospitals"), which is never an amount of money. No place: **unsupported**.
2. **Binding.** The value's places are read for what they are bound to (`context.binding`, docs: "Figures
   against a source"): a cell's row label and column headers, a clause's period and the noun its figure
   quantifies, the direction of a change. Word overlap and vector cosine decide nothing here: they were too
   noisy to overrule a value the source states verbatim. The figure is
   * **contradicted** when it states a change ("fell 7.5%") and every place states the opposite direction;
   * **misplaced** when every place is bound to something the prediction contradicts (another year than the
     one the prediction names, or a subject the prediction binds to another figure, or another row or column
     of a table), *and* a commensurable number of another value is bound to what the prediction states (its
     year and its subject). Commensurable: the same family, both per unit or both totals, at most
     `VerdictRule.ratio` apart, never the other bound of a place's range. A calendar period is never misplaced;
   * **supported** otherwise.
3. **Derivation.** A figure stated nowhere (or stated only in a row or column other than the ones it names) is
   **computed** when a derivation of the reference numbers bound to what it names gives it: a change, a
   percentage change, a sum, a share, a ratio, an average, a change in points, at its written precision and in
   the direction it states (`derivations`: "(62.4 − 50.2) / 50.2 = 24.3%"). It counts as supported. Otherwise
   it stays **unsupported**, with the closest such derivation, if any, for the reader.

All steps read the pair alone, so a reference summary and a long source are judged alike, with no mode switch,
and the verdict does not depend on the batch. tau does not gate it. A stated condition (comparison-aware mode)
does not make a figure supported: the verdict is about values. Every rule was chosen leave-one-domain-out on dev
data (`perf/verdict_ablation.py`).

The rule of earlier versions, where only the argmax-aligned number decides (`verdict="argmax"`: ``supported``,
``unsupported`` when its value differs, ``unmatched`` when its cosine is below tau), is kept for the ablation.

``numeric_support`` is the share of the prediction's figures that are supported or computed, 1.0 when it states
none; ``figure_verdicts`` lists every figure with its verdict, ``unsupported_numbers`` the ones neither.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, NamedTuple, TypedDict

import numpy as np

from ..common.batching import size_batches
from ..common.verdicts import (
    RULE_VERDICTS,
    SUPPORTING,
    UNMATCHED,
)
from ..context.binding import DURATIONS
from ..context.words import Context, mention_contexts
from ..numbers.extract import range_connectors
from ..numbers.precision import PERCENT, POINTS, TIME, written_precision
from .alignment import Alignment, Matches, MentionTable, SupportKeys, gather_index, value_support
from .derivations import Derivation, SourceIndex, derive
from .pool import TextPool

VERDICTS = RULE_VERDICTS["context"]  # the verdicts of the default rule, in code order
ARGMAX_VERDICTS = RULE_VERDICTS["argmax"]
_STRICT = (PERCENT, POINTS, TIME)


class Code(IntEnum):
    """A figure's verdict under the default rule as `pair_verdicts` stores it (an int8 array of codes);
    `VERDICTS[code]` (or `code.verdict`) is its name (`common.verdicts`)."""

    SUPPORTED = 0
    MISPLACED = 1
    UNSUPPORTED = 2
    CONTRADICTED = 3
    COMPUTED = 4

    @property
    def verdict(self) -> str:
        return VERDICTS[self]


class ArgmaxCode(IntEnum):
    """A figure's verdict under the argmax rule (`verdict="argmax"`), as `verdict_codes` returns it;
    `ARGMAX_VERDICTS[code]` is its name."""

    SUPPORTED = 0
    UNSUPPORTED = 1
    UNMATCHED = 2


@dataclass(frozen=True)
class VerdictRule:
    """The verdict's rules, each a switch so that `perf/verdict_ablation.py` can measure it leave-one-domain-out
    (the dev sets: SummEdits' five dev domains against their documents, FilingClaims); the defaults shipped."""

    # Each switch on unless the leave-one-domain-out table says otherwise (docs/benchmarks/filing-claims.md).
    counts: bool = True  # a number that counts things never supports an amount of money, nor stands at a scale
    durations: bool = True  # a length of time agrees only with the same unit of time ("20 years" vs "20 minutes")
    tables: bool = True  # misplaced: a table cell's row, column or period
    prose: bool = True  # misplaced: a clause's period or subject noun in running text
    direction: bool = True  # contradicted: a change stated in the opposite direction
    # misplaced: a count of other things ("ten jobs" for "10 machines"). Off: it loses SummEdits news left out
    # ("870 people ... infected" for "870 infections"; `perf/verdict_ablation.py`).
    nouns: bool = False
    # Rivals at most this many times apart: the dev sets cannot tell 3, 10, 30 or none apart in running text
    # (`perf/verdict_ablation.py`); 10 answers the held-out error that asked for it (an EPS of $2.41 "misplaced"
    # by $812 million). In tables it costs FilingClaims' tune half 0.04 BA, so a cell is bound by its row and
    # column whatever its magnitude (`ratio_in_tables=False`).
    ratio: float = 10.0
    ratio_in_tables: bool = False
    # computed: a figure stated nowhere that a derivation of numbers bound to what it names gives (`derivations`).
    computed: bool = True

    def describe(self) -> str:
        """The rule as the echo names it: "context(counts+tables+prose+direction+computed, ratio 10)"."""
        on = [name for name in ("counts", "durations", "tables", "prose", "nouns", "direction", "computed")
              if getattr(self, name)]
        return f"context({'+'.join(on) or 'value'}, ratio {self.ratio:g}{'' if self.ratio_in_tables else ' in prose'})"


RULE = VerdictRule()
# Step 1 as before this rule: values alone, no binding.
VALUE_ONLY = VerdictRule(counts=False, durations=False, tables=False, prose=False, direction=False, computed=False)
SMALL_COUNT = 12  # written in words up to "twelve": a count (`_a_count`)
SCALES = (1e3, 1e6, 1e9)  # the scales a bare reference number may stand at, for a figure written with a scale word


class NumberRef(TypedDict):
    """A number of the reference: its text, span and value."""

    text: str
    start: int
    end: int
    value: float


class FigureVerdict(TypedDict):
    """One figure of the prediction and its verdict (an entry of `figure_verdicts` and `unsupported_numbers`).

    `found`: where its value is stated (supported, misplaced, contradicted; None when unsupported). `reference`:
    the reference number it is compared with: its value's place when supported or contradicted, the number of
    another value bound to what the prediction states when misplaced, the closest in context when unsupported
    (None when the reference states no number). `cosine`: the backbone cosine of the figure and `reference`.
    `basis`: what decided a misplaced or contradicted figure ("period: 2022, not 2023"; None otherwise).
    `derivation`: for a computed figure, how its bound source numbers give its value ("(62.4 − 50.2) / 50.2 =
    24.3%"); for an unsupported one, the closest derivation of its bound numbers, if any (its result then differs
    from the figure's value); None otherwise. `operands`: the source numbers of `derivation`, in its order.
    Docs: "The support verdict".
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


# -- what each mention brings ----------------------------------------------------------------------------------


def support_keys(pool: TextPool, table: MentionTable, **precision: Any) -> SupportKeys:
    """The written precision, unit family, context and binding of every row of `table` (built by
    `pool.mention_table`); `precision` goes to `written_precision` (its ablation switches)."""
    size = len(table.values)
    values, tolerance, rounding = np.zeros(size), np.zeros(size), np.zeros(size)
    families: list[str | None] = [None] * size
    labels: list[tuple[str, int, int, float]] = [("", 0, 0, 0.0)] * size
    contexts: list[Context | None] = [None] * size
    scaled, judged, money = np.zeros(size, bool), np.ones(size, bool), np.zeros(size, bool)
    partner = np.full(size, -1, np.int64)
    for text in pool.mentions:
        start = int(table.offsets[pool.ids[text]])
        scorable = [pool.mentions[text][i] for i in pool.scorable[text]]
        for row, (mention, context) in enumerate(zip(scorable, mention_contexts(text, scorable)), start=start):
            written = written_precision(text, mention, **precision)
            values[row], tolerance[row], families[row] = written.value, written.tolerance, written.family
            rounding[row] = written.rounding
            labels[row] = (mention.text, mention.start, mention.end, float(mention.value))
            contexts[row], scaled[row], judged[row] = context, _states_a_scale(mention), not _a_count(mention)
            money[row] = mention.kind == "monetary"
        ends = {m.end: start + k for k, m in enumerate(scorable)}
        starts = {m.start: start + k for k, m in enumerate(scorable)}
        for a_end, b_start in range_connectors(text, scorable):
            partner[ends[a_end]], partner[starts[b_start]] = starts[b_start], ends[a_end]
    codes = {name: k for k, name in enumerate(sorted({f for f in families if f is not None}))}
    family = np.array([codes[f] if f is not None else -1 for f in families], np.int64)
    # A table states a cell's percent in its header, its row label or a cell of its own ("| 12.5 | % |").
    percent = np.array([c is not None and c.percent for c in contexts], bool)
    if percent.any():
        codes.setdefault(PERCENT, len(codes))
        family = np.where(percent & (family < 0), codes[PERCENT], family)
    nouns = [_noun(c) for c in contexts]
    noun_codes = {n: k for k, n in enumerate(sorted({n for n in nouns if n is not None}))}
    return SupportKeys(
        cell=np.array([_cell(c) for c in contexts], bool),
        noun=np.array([noun_codes.get(n, -1) for n in nouns], np.int64),
        timed=np.array([n in DURATIONS for n in nouns], bool),
        values=values,
        tolerance=tolerance,
        family=family,
        strict=np.array([f in _STRICT for f in families], bool) | percent,
        labels=labels,
        contexts=contexts,
        scaled=scaled,
        table_scale=np.array([c.scale if c is not None and c.scale else np.nan for c in contexts], np.float64),
        clock=np.array([f == TIME for f in families], bool),
        judged=judged,
        year=np.array([c.year if c is not None and c.year is not None else np.nan for c in contexts], np.float64),
        direction=np.array([c.direction if c is not None else 0 for c in contexts], np.int8),
        counted=np.array([c is not None and c.counted is not None for c in contexts], bool),
        per_unit=np.array([c is not None and c.per_unit for c in contexts], bool),
        money=money,
        partner=partner,
        rounding=rounding,
        percent=family == codes.get(PERCENT, -2),
        points=family == codes.get(POINTS, -2),
    )


def _a_count(mention: Any) -> bool:
    """A small count written in words ("two friends", "three options"): a summary infers it more often than it
    copies it, and a source rarely states it, so the verdict does not judge it (it still supports a figure)."""
    return (mention.kind == "quantity" and mention.unit is None and mention.period is None
            and not any(ch.isdigit() for ch in mention.text) and abs(float(mention.value)) <= SMALL_COUNT)


def _states_a_scale(mention: Any) -> bool:
    """Whether the mention's own words scale it ("$1.2 billion", "5bn"): its value is not its digits'."""
    if mention.kind not in ("quantity", "monetary") or mention.period is not None:
        return False
    digits = "".join(ch for ch in mention.text if ch.isdigit() or ch == ".")
    try:
        return abs(float(digits.strip(".") or "nan") - abs(float(mention.value))) > 1e-9 * abs(float(mention.value))
    except ValueError:
        return False


# -- step 1: value ---------------------------------------------------------------------------------------------


def value_agreement(mentions: MentionTable, ia: np.ndarray, ib: np.ndarray, rule: VerdictRule = RULE
                    ) -> np.ndarray:
    """[..., m, n] whether reference mention ib[..., j] states the value of figure ia[..., i] (leading dimensions:
    several pairs at once, `small_pair_values`): as written, at its table's scale, or (a bare number, for a figure
    with a scale word) at one of `SCALES`. With `rule.counts`, a number that counts things ("5,078 people") never
    states an amount of money nor stands at a scale."""
    keys = mentions.support
    agree = value_support(mentions, ia, ib, unsigned=True)
    bare = ~keys.scaled[ib] & ~keys.strict[ib] & np.isnan(keys.table_scale[ib])
    if rule.counts:
        bare &= ~keys.counted[ib]
    if mentions.calendar is not None:
        bare &= mentions.calendar.level[ib] < 0
    in_scaled_table = ~np.isnan(keys.table_scale[ib])
    if in_scaled_table.any():
        agree |= value_support(mentions, ia, ib, b_values=keys.values * np.nan_to_num(keys.table_scale, nan=1.0),
                               unsigned=True)
    if bare.any() and keys.scaled[ia].any():
        for scale in SCALES:
            agree |= value_support(mentions, ia, ib, b_values=keys.values * scale, unsigned=True) \
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


def rivals(mentions: MentionTable, ia: np.ndarray, ib: np.ndarray, rule: VerdictRule = RULE) -> np.ndarray:
    """[..., m, n] whether reference mention ib[..., j] could state what figure ia[..., i] states, whatever its value
    (commensurable): the same family (a number without a unit fits any but a strict one), both amounts per unit
    or both totals, neither counting things against money, at most `rule.ratio` apart (a table's scale applied;
    a table cell at any distance unless `rule.ratio_in_tables`: its row and column bind it), and a calendar
    period only for a period (a year stated beside an amount is not a rival of the amount)."""
    keys = mentions.support

    def a(values: np.ndarray) -> np.ndarray:  # figure ia[i]'s value down a column
        return values[ia][..., :, None]

    def b(values: np.ndarray) -> np.ndarray:  # reference number ib[j]'s along a row
        return values[ib][..., None, :]

    fa, fb = a(keys.family), b(keys.family)
    fits = (fa == fb) | (fa < 0) & ~b(keys.strict) | (fb < 0) & ~a(keys.strict)
    fits &= a(keys.per_unit) == b(keys.per_unit)
    fits &= ~((a(keys.money) | b(keys.money)) & (a(keys.counted) | b(keys.counted)))
    va = np.abs(a(keys.values))
    vb = np.abs(b(keys.values) * np.nan_to_num(b(keys.table_scale), nan=1.0))
    near = _within(va, vb, rule.ratio)
    # A bare number may stand at a scale for a figure written with one ("185" for "$185 million").
    for scale in SCALES:
        near |= _within(va, vb * scale, rule.ratio) & a(keys.scaled) & np.isnan(b(keys.table_scale))
    if not rule.ratio_in_tables:
        near |= b(keys.cell)
    fits &= near
    if mentions.calendar is None:
        return fits
    level = mentions.calendar.level
    return fits & ((a(level) >= 0) == (b(level) >= 0))


def _within(a: np.ndarray, b: np.ndarray, ratio: float) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return (np.maximum(a, b) <= ratio * np.minimum(a, b)) | ((a == 0) & (b == 0))


# -- step 2: binding -------------------------------------------------------------------------------------------


def _subject(context: Context | None) -> frozenset[str]:
    return context.subject if context is not None else frozenset()


def _noun(context: Context | None) -> str | None:
    return context.counted if context is not None else None


def _cell(context: Context | None) -> bool:
    return context is not None and context.cell


class _Tables:
    """The row words, column words and column years of each table of one reference, by the table's start
    (`Context.place`)."""

    def __init__(self, contexts: Sequence[Context | None]) -> None:
        self.rows: dict[int, dict[int, frozenset[str]]] = {}
        self.columns: dict[int, dict[int, frozenset[str]]] = {}
        self.years: dict[int, set[int]] = {}
        for c in contexts:
            if c is not None and c.place is not None:
                table, row, column = c.place
                self.rows.setdefault(table, {})[row] = c.row_words
                self.columns.setdefault(table, {})[column] = c.column_words
                if c.column_year is not None:
                    self.years.setdefault(table, set()).add(c.column_year)

    def named(self, table: int, subject: frozenset[str]) -> tuple[set[int], set[int]]:
        """The rows and the columns of `table` the prediction's subject names: those sharing the most words
        with it ("Property, Plant and Equipment, Gross" over "..., Net"), none when it shares none."""
        return _most(self.rows.get(table, {}), subject), _most(self.columns.get(table, {}), subject)


def _most(labels: dict[int, frozenset[str]], subject: frozenset[str]) -> set[int]:
    shared = {k: len(words & subject) for k, words in labels.items()}
    best = max(shared.values(), default=0)
    return {k for k, n in shared.items() if n == best} if best else set()


def _contradicts(keys: SupportKeys, i: int, j: int, others: Sequence[frozenset[str]], tables: _Tables,
                 rule: VerdictRule) -> str | None:
    """What of reference number j's binding figure i's text contradicts, None when nothing does: another year
    than the one the prediction names; for a table cell, another row or column than the ones of its table the
    prediction names; in running text, a subject the prediction binds to another of its figures (`others`)."""
    context = keys.contexts[j]
    cell = _cell(context)
    if not (rule.tables if cell else rule.prose):
        return None
    ya, yb = keys.year[i], keys.year[j]
    if not np.isnan(ya) and not np.isnan(yb) and ya != yb:
        return f"period: {int(yb)}, not {int(ya)}"
    if cell and not np.isnan(ya) and context.column_year is None and int(ya) in tables.years.get(context.place[0], ()):
        # "In 2019, X amounted to ..." against a table with a 2019 column: a cell of a column of no year (a
        # change, a share) is not the 2019 value.
        return f"column: {' '.join(sorted(context.column_words)) or '(no period)'}, not {int(ya)}"
    noun_a, noun_b = _noun(keys.contexts[i]), _noun(context)
    if rule.nouns and not cell and noun_a and noun_b not in (None, noun_a):
        return f"counts {noun_b}, not {noun_a}"
    sa, sb = _subject(keys.contexts[i]), _subject(context)
    if not sa:
        return None
    if cell:
        table, row, column = context.place
        rows, columns = tables.named(table, sa)
        if rows and row not in rows:
            return f"row: {' '.join(sorted(context.row_words)) or '(unlabelled)'}, not the one named"
        if columns and column not in columns:
            return f"column: {' '.join(sorted(context.column_words)) or '(unlabelled)'}, not the one named"
        return None
    # Only a word the prediction itself binds to another of its figures: a paraphrase ("earnings per share" for
    # "EPS") or an unshared word ("adjusted") says nothing by itself.
    if sb and any(sb - sa & other for other in others):
        return f"subject: {' '.join(sorted(sb))}, not {' '.join(sorted(sa))}"
    return None


def _bound_to_figure(keys: SupportKeys, i: int, j: int, places: np.ndarray) -> int:
    """How strongly reference number j is bound to what figure i states (0: not bound): its year must be the
    prediction's when it names one, and it must share the prediction's subject or a place's table row."""
    ya, yb = keys.year[i], keys.year[j]
    if not np.isnan(ya) and yb != ya:
        return 0
    sa, sb = _subject(keys.contexts[i]), _subject(keys.contexts[j])
    row = keys.contexts[j].place[:2] if _cell(keys.contexts[j]) else None
    same_row = row is not None and any(_cell(keys.contexts[p]) and keys.contexts[p].place[:2] == row for p in places)
    shared = len(sa & sb)
    if not shared and not same_row:
        return 0
    return 1 + shared + (not np.isnan(ya))


class PairVerdicts(NamedTuple):
    """The verdicts of one pair's figures, per figure: the `Code` (int8; `VERDICTS[code]`), the reference row where its
    value was found (-1: none), the reference row it is compared with, their cosine, the basis of a misplaced or
    contradicted verdict, and the derivation of a computed figure (or the closest one of an unsupported one)."""

    code: np.ndarray
    found: np.ndarray
    compared: np.ndarray
    cosine: np.ndarray
    basis: list[str | None]
    derivation: list[Derivation | None]


# Cells of one block of a pair's [figures x reference numbers] matrices (cosines, agreement, closeness, and their
# temporaries): against a long source the prediction's figures are judged a block at a time, each float64 matrix of
# a block at most 8 MB (50 figures against 93,000 source numbers peaked 0.3 GB higher in one block).
VERDICT_CELLS = 1 << 20


class Reference:
    """What every pair against one reference reads of it, read once however many pairs share it (claims against
    one source): its rows, its tables (`_Tables`), the words of its numbers' contexts and their idf."""

    def __init__(self, mentions: MentionTable, b: slice) -> None:
        keys = mentions.support
        self.ib = np.arange(b.start, b.stop)
        self.tables = _Tables([keys.contexts[j] for j in self.ib])
        self.words = [_words(keys.contexts[j]) for j in self.ib]
        frequency: dict[str, int] = {}
        for words in self.words:
            for w in words:
                frequency[w] = frequency.get(w, 0) + 1
        self.idf = {w: math.log1p(len(self.ib) / f) for w, f in frequency.items()}


def pair_verdicts(mentions: MentionTable, a: slice, b: slice, rule: VerdictRule = RULE,
                  index: SourceIndex | None = None, reference: Reference | None = None,
                  values: tuple[np.ndarray, np.ndarray] | None = None) -> PairVerdicts:
    """The verdicts of one pair's figures (table rows `a`) against its reference (rows `b`); `index`: the
    reference's `derivations.SourceIndex`, and `reference` its `Reference`, when the caller keeps them for a
    reference many pairs share; `values`: the pair's value agreement and rivals when computed with other pairs'
    (`small_pair_values`). Figures are judged in blocks of at most `VERDICT_CELLS` cells: a verdict reads its
    figure's own row."""
    ia, ib = np.arange(a.start, a.stop), np.arange(b.start, b.stop)
    m = len(ia)
    if len(ib) == 0:
        return PairVerdicts(np.full(m, Code.UNSUPPORTED, np.int8), np.full(m, -1), np.full(m, -1), np.full(m, np.nan),
                            [None] * m, [None] * m)
    keys = mentions.support
    reference = reference or Reference(mentions, b)
    # A calendar period is where the other figures stand, not a quantity stated for something.
    quantity = mentions.calendar.level[ia] < 0 if mentions.calendar is not None else np.ones(m, bool)
    code = np.full(m, Code.UNSUPPORTED, np.int8)
    found = np.full(m, -1)
    compared = np.zeros(m, np.int64)
    cosines = np.zeros(m, mentions.vectors.dtype)
    basis: list[str | None] = [None] * m
    step = max(1, VERDICT_CELLS // len(ib))
    for first in range(0, m, step):
        block = ia[first : first + step]
        cosine = mentions.vectors[block] @ mentions.vectors[b].T
        if values is not None:  # a small pair: one block
            agree, rival = values
        else:
            agree = value_agreement(mentions, block, ib, rule)
            rival = rivals(mentions, block, ib, rule) & ~agree
        closeness = context_scores(keys, block, ib, cosine, reference)
        fits = rival | agree
        compared[first : first + len(block)] = np.where(
            fits.any(axis=1), np.where(fits, closeness, -np.inf).argmax(axis=1), cosine.argmax(axis=1))
        for row in range(len(block)):
            _judge(keys, ia, first + row, ib, agree[row], rival[row], closeness[row], quantity, rule, reference.tables,
                   code, found, compared, basis)
        cosines[first : first + len(block)] = cosine[np.arange(len(block)), compared[first : first + len(block)]]
    derived = _derivation_step(mentions, ia, ib, quantity, code, found, basis, index) if rule.computed \
        else [None] * m
    return PairVerdicts(code, np.where(found >= 0, found + b.start, -1), compared + b.start, cosines, basis, derived)


# A pair of at most this many [figure x reference number] cells is a small pair: its value agreement and rivals are
# computed with other small pairs' in one padded call (`small_pair_values`), as numpy's cost per call, not the
# arithmetic, is what a pair of two sentences costs.
SMALL_PAIR = 4096


def small_pair_values(mentions: MentionTable, spans: Sequence[tuple[slice, slice]], rule: VerdictRule = RULE
                      ) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """Per small pair k (figures `spans[k][0]` against reference numbers `spans[k][1]`, both held): its value
    agreement [m, n] and its rivals that do not agree, as `pair_verdicts` computes them; pairs of like sizes are
    padded into one [P, M, N] call of at most `VERDICT_CELLS` cells (`batching.size_batches`; elementwise, so each
    pair's cells are the ones it would get alone)."""
    first = np.array([(a.start, b.start) for a, b in spans], np.int64).reshape(-1, 2)
    m, n = np.array([(a.stop - a.start, b.stop - b.start) for a, b in spans], np.int64).reshape(-1, 2).T
    small = (m > 0) & (n > 0) & (m * n <= min(SMALL_PAIR, VERDICT_CELLS))  # a small pair is one block
    out: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    for group in size_batches(m, n, VERDICT_CELLS, eligible=small):
        ia, _ = gather_index(first[group, 0], m[group])
        ib, _ = gather_index(first[group, 1], n[group])
        agree = value_agreement(mentions, ia, ib, rule)
        rival = rivals(mentions, ia, ib, rule) & ~agree
        for p, k in enumerate(group.tolist()):
            out[k] = agree[p, : m[k], : n[k]], rival[p, : m[k], : n[k]]
    return out


def _judge(keys: SupportKeys, ia: np.ndarray, k: int, ib: np.ndarray, agree: np.ndarray, rival: np.ndarray,
           closeness: np.ndarray, quantity: np.ndarray, rule: VerdictRule, tables: _Tables, code: np.ndarray,
           found: np.ndarray, compared: np.ndarray, basis: list[str | None]) -> None:
    """Steps 1 and 2 for figure k (row ia[k]), in place: `agree`, `rival` and `closeness` are its rows against
    the reference's numbers ib."""
    places = np.flatnonzero(agree)
    if not len(places):
        return
    i = int(ia[k])
    others = [_subject(keys.contexts[int(g)]) for g in ia
              if g != i and g != keys.partner[i] and keys.values[g] != keys.values[i]]
    why = [_contradicts(keys, i, int(ib[p]), others, tables, rule) for p in places] if quantity[k] else [None]
    free = [p for p, w in zip(places, why) if w is None]
    best = max(free or places, key=lambda p: closeness[p])
    code[k], found[k], compared[k] = Code.SUPPORTED, best, best
    direction = int(keys.direction[i])
    if rule.direction and direction and all(int(keys.direction[ib[p]]) == -direction for p in places):
        code[k] = Code.CONTRADICTED
        basis[k] = f"direction: the source states a {'fall' if direction > 0 else 'rise'}"
        return
    if free:
        return
    partners = {int(keys.partner[ib[p]]) for p in places}
    strength = [(_bound_to_figure(keys, i, int(ib[j]), ib[places]), closeness[j], j)
                for j in np.flatnonzero(rival) if int(ib[j]) not in partners
                and _contradicts(keys, i, int(ib[j]), others, tables, rule) is None]
    bound = max((s for s in strength if s[0] > 0), default=None)
    if bound is not None:
        code[k], compared[k], basis[k] = Code.MISPLACED, bound[2], why[0]


def _derivation_step(mentions: MentionTable, ia: np.ndarray, ib: np.ndarray, quantity: np.ndarray, code: np.ndarray,
                     found: np.ndarray, basis: list[str | None], index: SourceIndex | None
                     ) -> list[Derivation | None]:
    """Step 3, in place on `code`, `found` and `basis`: a figure stated nowhere, or stated only in a row or column
    other than the ones it names ("combined services and product revenue" against the total's row), is computed
    when a derivation of the numbers bound to what it names gives it. Per figure: its derivation, or an
    unsupported figure's closest one."""
    keys = mentions.support
    derived: list[Derivation | None] = [None] * len(ia)
    by_line = np.array([b is not None and b.startswith(("row:", "column:")) for b in basis], bool)
    for k in np.flatnonzero(((code == Code.UNSUPPORTED) | ((code == Code.MISPLACED) & by_line)) & quantity):
        index = index or source_index(mentions, ib)
        # A figure in a clause of its own ("..., or 24.3%") takes the subject of the figure before it.
        before = next((_subject(keys.contexts[int(g)]) for g in ia[:k][::-1]
                       if quantity[g - ia[0]] and _subject(keys.contexts[int(g)])), frozenset())
        match, closest = derive(keys, int(ia[k]), index, before)
        if match is not None:
            code[k], found[k], basis[k] = Code.COMPUTED, -1, None
        derived[k] = match or (closest if code[k] == Code.UNSUPPORTED else None)
    return derived


def source_index(mentions: MentionTable, ib: np.ndarray) -> SourceIndex:
    """The reference numbers (rows `ib`) a derivation may use: quantities, no calendar period."""
    quantity = mentions.calendar.level[ib] < 0 if mentions.calendar is not None else np.ones(len(ib), bool)
    return SourceIndex(mentions.support, ib, quantity)


def context_scores(keys: SupportKeys, ia: np.ndarray, ib: np.ndarray, cosine: np.ndarray,
                   reference: Reference) -> np.ndarray:
    """[m, n] how close reference mention ib[j]'s context is to figure ia[i]'s, to choose which number a report
    shows beside a figure (it decides no verdict): shared words (each weighted by its inverse frequency among the
    reference's figures), plus half for the same year (minus half for another), plus half the backbone cosine."""
    words = _shared_words(keys, ia, reference)
    year_a, year_b = keys.year[ia][:, None], keys.year[ib][None, :]
    both = ~np.isnan(year_a) & ~np.isnan(year_b)
    period = np.where(both, np.where(year_a == year_b, 1.0, -1.0), 0.0)
    return words + 0.5 * period + 0.5 * cosine


def _shared_words(keys: SupportKeys, ia: np.ndarray, reference: Reference) -> np.ndarray:
    """[m, n] the idf-weighted share of figure ia[i]'s words that reference mention j's context holds (over the
    words some reference context holds). Plain set arithmetic: a pair has few figures and short contexts."""
    idf = reference.idf
    out = np.zeros((len(ia), len(reference.words)))
    if not idf:
        return out
    for row, i in enumerate(ia):
        known = {w: idf[w] for w in _words(keys.contexts[i]) if w in idf}
        total = sum(known.values())
        if total:
            out[row] = [sum(known[w] for w in words & known.keys()) / total for words in reference.words]
    return out


def _words(context: Context | None) -> frozenset[str]:
    return context.words if context is not None else frozenset()


# -- the verdicts ----------------------------------------------------------------------------------------------


def context_verdicts(mentions: MentionTable, pairs: Sequence[tuple[int, int]], rule: VerdictRule = RULE
                     ) -> list[list[FigureVerdict]]:
    """Per aligned pair (the text ids `pairs[k]` of prediction and reference), every figure with its verdict."""
    out: list[list[FigureVerdict]] = []
    indexes: dict[int, SourceIndex] = {}  # a reference many pairs share (claims against one source) is read once
    references: dict[int, Reference] = {}
    spans = [(mentions.of(text_a), mentions.of(text_b)) for text_a, text_b in pairs]
    small = small_pair_values(mentions, spans, rule)
    for k, ((_, text_b), (a, b)) in enumerate(zip(pairs, spans)):
        if rule.computed and text_b not in indexes:
            indexes[text_b] = source_index(mentions, np.arange(b.start, b.stop))
        if text_b not in references and b.stop > b.start and a.stop > a.start:
            references[text_b] = Reference(mentions, b)
        v = pair_verdicts(mentions, a, b, rule, indexes.get(text_b), references.get(text_b), small.get(k))
        judged = mentions.support.judged[a]
        labels = mentions.support.labels
        out.append([_entry(labels, a.start + i, VERDICTS[v.code[i]], v.found[i], v.compared[i], v.cosine[i],
                           v.basis[i], v.derivation[i]) for i in range(len(v.code)) if judged[i]])
    return out


def _entry(labels: list[tuple[str, int, int, float]], row: int, verdict: str, found: int, compared: int,
           cosine: float, basis: str | None = None, derivation: Derivation | None = None) -> FigureVerdict:
    text, start, end, value = labels[row]
    return FigureVerdict(text=text, start=start, end=end, value=value, verdict=verdict,
                         found=_ref(labels, found), reference=_ref(labels, compared),
                         cosine=None if compared < 0 else float(cosine), basis=basis,
                         derivation=None if derivation is None else derivation.text,
                         operands=None if derivation is None else [_ref(labels, j) for j in derivation.operands])


def _ref(labels: list[tuple[str, int, int, float]], row: int) -> NumberRef | None:
    if row < 0:
        return None
    text, start, end, value = labels[int(row)]
    return NumberRef(text=text, start=start, end=end, value=value)


# -- the argmax rule of earlier versions (verdict="argmax") ----------------------------------------------------


def verdict_codes(matches: Matches, tau: float, rows: Any = slice(None)) -> np.ndarray:
    """Argmax rule, per match row of one direction (all rows or `rows`): an `ArgmaxCode` each (int8)."""
    aligned = matches.cosine[rows] >= tau
    codes = np.where(matches.supported[rows], ArgmaxCode.SUPPORTED, ArgmaxCode.UNSUPPORTED)
    return np.where(aligned, codes, ArgmaxCode.UNMATCHED).astype(np.int8)


def argmax_verdicts(alignment: Alignment, tau: float) -> list[list[FigureVerdict]]:
    """Argmax rule: per aligned pair, every figure of the prediction with its verdict."""
    if alignment.first_a is None:
        raise ValueError("this alignment carries no mention labels: score with NASH to get figure verdicts")
    matches = alignment.a_to_b
    codes = verdict_codes(matches, tau)
    rows = {(int(p), int(s)): r for r, (p, s) in enumerate(zip(matches.pair, matches.source))}
    out: list[list[FigureVerdict]] = []
    for pair in range(len(alignment.n_a)):
        entries = []
        for source in range(int(alignment.n_a[pair])):
            row = rows.get((pair, source))
            label = int(alignment.first_a[pair]) + source
            if row is None or codes[row] == ArgmaxCode.UNMATCHED:
                entries.append(_entry(alignment.labels, label, UNMATCHED, -1, -1, np.nan))
                continue
            target = int(alignment.first_b[pair] + matches.target[row])
            verdict = ARGMAX_VERDICTS[codes[row]]
            found = target if codes[row] == ArgmaxCode.SUPPORTED else -1
            entries.append(_entry(alignment.labels, label, verdict, found, target, float(matches.cosine[row])))
        out.append(entries)
    return out


# -- the fields ------------------------------------------------------------------------------------------------


def support_fields(verdicts: list[list[FigureVerdict]], pair_index: np.ndarray) -> dict[str, Any]:
    """`numeric_support`, `figure_verdicts` and `unsupported_numbers` of each input pair (row `pair_index[k]`
    of the per-pair `verdicts`)."""
    share = np.array([sum(e["verdict"] in SUPPORTING for e in v) / len(v) if v else 1.0 for v in verdicts])
    chosen = [verdicts[row] for row in pair_index.tolist()]
    return {"numeric_support": share[pair_index] if len(share) else np.zeros(len(pair_index)),
            "figure_verdicts": chosen,
            "unsupported_numbers": [[e for e in v if e["verdict"] not in SUPPORTING] for v in chosen]}
