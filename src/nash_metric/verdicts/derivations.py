"""Computed figures: a figure whose value no source number states, checked against derivations of the source
numbers bound to what the prediction names (docs: "Figures against a source", computed figures).

A generated text about a filing computes more than it copies: "revenue grew 24.3%", "costs rose by $12.2
million", "combined revenue was $93.4 million". Every pair of a filing excerpt's ~50 numbers under five operations
lands near almost any percentage, so a derivation counts only when three things hold:

1. **The operation is the one the prediction states.** Its words name it: a change (a verb or noun of change,
   `context.binding`: "grew", "fell", "the increase in", "the change in"), a difference ("difference"), a sum
   ("total", "combined"), an average ("average"), a share ("share", "percentage of", "accounted for"), a ratio
   ("ratio", "times"). The family follows from the operation: a percentage change or a share is a percent, a
   change between two percentages is in points (or a percent), a difference, sum or average keeps the operands'
   currency and the table's scale ("in millions").
2. **The operands are bound to what the prediction names.** In a table: the row (or column) its subject names and
   the periods it names (both years' columns for a change; the year before for a change in one named year), or
   the rows it names for a sum, a share, a difference of items. In running text: numbers whose subject shares a
   word with the figure's and whose year, when they state one, is one the prediction names.
3. **The result agrees at the figure's written precision**, hedges included (`numbers.precision`), and in the
   direction it states: a rise needs a positive change, a fall a negative one ("fell 7.5%" from 33.5 to 31.0;
   the same lexicon as the `contradicted` verdict). A figure stated as "the change" keeps its own sign.

Only bound operands are enumerated (a few rows and columns, a few clauses), never all pairs of the source, so the
cost stays small on a long source (`perf/source_cost.py`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations, pairwise, permutations

import numpy as np

from ..context.binding import CHANGE_WORD_SIGNS, change_sign
from ..context.words import Context
from ..numbers.precision import written_decimals
from ..vocabulary.en import COMPARED_WORDS, DIFFERENCE_WORDS, SCALE_EXPONENTS, SCALE_NAMES
from .aggregates import AggregateName
from .keys import SupportKeys
from .operations import (
    AMOUNTS,
    IN_PROSE,
    OPERATION,
    OPERATIONS,
    OVER_ITEMS,
    OVER_PERIODS,
    OVER_TERMS,
    Figure,
    OperationName,
)

MAX_LINES = 3  # rows (or columns) a subject names most strongly: the lines of a change over periods
MAX_ITEMS = 6  # rows a subject names at all: the items of a sum, share or difference
ITEM_SLACK = 2  # an item's line shares at most this many fewer (weighted) words with the subject than the best's
MAX_TOTALS = 2  # lines named "total" added to the items of a sum or a share
MAX_PROSE = 6  # numbers of running text bound to the subject
MAX_TERMS = 5  # terms of a sum or an average
CLOSEST = 0.5  # an unsupported figure shows its closest derivation when it is at most this share away
# A percent change, share or ratio agrees when its interval meets the figure's, if that interval is at most this
# share of it: wider, the operands' digits say too little (FilingClaims tune: 1% gains 0.001 BA, 5% nothing, no
# cap loses 0.013; `perf/verdict_ablation.py`).
INTERVAL_CAP = 0.01
# Float error allowed when a result meets a tolerance: relative to the tolerance (a rounding half-unit computed in
# floats) and to the value (a scaled result).
TOLERANCE_SLACK = 1e-9
VALUE_SLACK = 1e-12
_CURRENCY_SPACE = re.compile(r"([$€£¥])\s+")  # a table's "$ 1,452.4" reads "$1,452.4" in a derivation
# A written amount's digits, the signs and parentheses around them, and the scale word after them ("-$0.3
# million", "($1.2) million", "5bn"): an amount's result is written in its figure's form.
_DIGITS = re.compile(r"\d[\d,]*(?:\.\d+)?|\.\d+")
_SIGNS = re.compile(r"[()+\-−–]")
_SCALE_WORD = re.compile(r"[\s-]*([a-z]+)")
MAX_DECIMALS = 9  # an amount's result shows at most this many decimals at its figure's scale
DIGIT_SLACK = 1e-9  # float error in the decimals an operand's last digit calls for (log10(0.001) is -2.9999...)


@dataclass(frozen=True)
class Derivation:
    """How source numbers give a figure: the operation, its operands (mention-table rows, in the order the text
    reads them), its result (comparable with the figure's value) and the readable text of it."""

    operation: OperationName | AggregateName
    operands: tuple[int, ...]
    value: float
    text: str


@dataclass(frozen=True)
class _Ask:
    """What a figure asks of a derivation: its target value, tolerance, family and the operations its words
    name; `sign` +1 / -1 a rise or fall, 0 its own sign, None a magnitude."""

    value: float
    tolerance: float
    figure: Figure  # its kind (percent, points, amount, scaled, money), as the operations read it
    decimals: int
    change: bool
    sign: int | None
    operations: frozenset[str]  # over periods (a change) and over items (a sum, share, ratio, average)
    items_difference: bool  # a difference of two items ("the difference between A and B", "$5 million more")
    family: int  # the figure's unit family code (-1: any) and per-unit flag: an amount's operands fit them
    per_unit: bool
    written: str  # the figure as written ("$300 million"): an amount's derivation reads its result in that form


class SourceIndex:
    """The numbers of one reference a derivation may use, by table line and in running text."""

    def __init__(self, keys: SupportKeys, ib: np.ndarray, usable: np.ndarray) -> None:
        self.rows: dict[tuple[int, int], list[int]] = {}  # (table, row) -> mention rows, in column order
        self.columns: dict[tuple[int, int], list[int]] = {}
        self.row_words: dict[tuple[int, int], frozenset[str]] = {}
        self.column_words: dict[tuple[int, int], frozenset[str]] = {}
        # Numbers of running text by the words that bind them (their subject, else their clause's words), so a
        # figure looks up the few that share a word with it, not every number of a long source.
        self.prose: dict[str, list[int]] = {}
        for j, ok in zip(ib.tolist(), usable.tolist()):
            context = keys.contexts[j]
            if not ok or context is None:
                continue
            if context.place is None:
                for word in context.subject or context.words:
                    self.prose.setdefault(word, []).append(j)
                continue
            table, row, column = context.place
            self.rows.setdefault((table, row), []).append(j)
            self.columns.setdefault((table, column), []).append(j)
            self.row_words[(table, row)] = context.row_words
            self.column_words[(table, column)] = context.column_words

    def binds(self, subject: frozenset[str]) -> bool:
        """Whether operands may be bound to a figure of `subject`: a table line, or two numbers of running text
        that share a word with it (`_in_prose`). Most figures of prose have neither: no derivation is asked of
        them."""
        if self.rows or self.columns:
            return True
        shared: set[int] = set()
        for word in subject:
            shared.update(self.prose.get(word, ()))
            if len(shared) > 1:
                return True
        return False


def derive(keys: SupportKeys, i: int, index: SourceIndex, before: frozenset[str] = frozenset(),
           columns: Mapping[int, set[int]] | None = None, intervals: bool = False
           ) -> tuple[Derivation | None, Derivation | None]:
    """(the derivation of bound source numbers that gives figure i, else None; the closest one, for a reader).
    `before`: the subject of the prediction's figure before i, for a figure in a clause of its own ("..., or
    24.3%"), which names no subject itself. `columns`: per table, the columns the figure's noun names
    (`placement.Tables.attribute_columns`); a table operand must stand in one of them ("14 rebounds" is no sum of
    defensive rebounds and rebounds). `intervals`: a pure result agrees when its interval at the operands' written
    precision meets the figure's (`_spread`), and a result that is one of its operands is no derivation."""
    context = keys.contexts[i]
    if context is None:
        return None, None
    subject = context.subject or before
    if not index.binds(subject):
        return None, None
    if subject is not context.subject:
        context = replace(context, subject=subject)
    ask = _ask(keys, i, context)
    if not ask.operations:
        return None, None
    best: tuple[float, Derivation] | None = None
    for operation, operands in _candidates(keys, index, context, ask):
        if columns and not _in_columns(keys, operands, columns):
            continue
        for value, scale in _results(keys, operation, operands, ask):
            agrees = _agrees(ask, operation, value) or (
                intervals and OPERATION[operation].pure
                and _agrees(ask, operation, value, _spread(keys, operation, operands, value)))
            if agrees and not (intervals and _degenerate(keys, operation, operands)):
                return _derivation(keys, operation, operands, value, scale, ask), None
            gap = abs(abs(value) - abs(ask.value))  # the closest by magnitude: a reader sees a wrong direction
            if best is None or gap < best[0]:
                best = (gap, _derivation(keys, operation, operands, value, scale, ask))
    near = best is not None and best[0] <= CLOSEST * max(abs(ask.value), ask.tolerance)
    return None, best[1] if near else None


def _in_columns(keys: SupportKeys, operands: tuple[int, ...], columns: Mapping[int, set[int]]) -> bool:
    """Whether every table operand of a table whose columns the figure names stands in one of them."""
    places = (keys.contexts[j].place for j in operands)
    return all(place is None or place[0] not in columns or place[2] in columns[place[0]] for place in places)


# -- what the figure asks --------------------------------------------------------------------------------------


def _ask(keys: SupportKeys, i: int, context: Context) -> _Ask:
    words = context.words | context.subject | context.sentence
    direction = int(keys.direction[i])
    named = change_sign(context.subject)
    named = named if named is not None else change_sign(context.sentence)
    # A change its clause states elsewhere ("grew from $50.2 million to $62.4 million, or 24.3%"): its verb's
    # direction when the clause has one direction only, else a magnitude.
    around = words & CHANGE_WORD_SIGNS.keys()
    change = bool(direction) or named is not None or bool(around)
    if direction:
        sign = direction
    elif named is not None:
        sign = named
    else:
        signs = {CHANGE_WORD_SIGNS[w] for w in around}
        sign = signs.pop() if len(signs) == 1 else None
    percent, points = bool(keys.percent[i]), bool(keys.points[i])
    amount = not percent and not points and not bool(keys.strict[i])
    figure = Figure(percent, points, amount, bool(keys.scaled[i]), bool(keys.money[i]), int(keys.family[i]) < 0)
    operations = frozenset(o.name for o in OPERATIONS if o.named(words, change, figure))
    # A difference between two items rather than a change over periods: "$5 million more than Europe".
    items_difference = bool(words & (DIFFERENCE_WORDS | COMPARED_WORDS)) and "difference" in operations
    written = keys.labels[i][0]
    return _Ask(float(keys.values[i]), float(keys.rounding[i]), figure, written_decimals(written), change, sign,
                operations, items_difference, int(keys.family[i]), bool(keys.per_unit[i]), written)


# -- the bound operands ----------------------------------------------------------------------------------------


def _years(context: Context) -> frozenset[int]:
    return context.years | ({context.year} if context.year is not None else frozenset())


def _candidates(keys: SupportKeys, index: SourceIndex, context: Context, ask: _Ask
                ) -> Iterator[tuple[OperationName, tuple[int, ...]]]:
    """Each operation the figure's words name, over each tuple of operands bound to what it names."""
    years = _years(context)
    subject = context.subject
    # A line is named by the figure's subject first, then by the other words of its sentence: "Royalty Bearing
    # Licenses for 2019 expressed as a percentage of Total Revenue for 2019 was 95.72%" names both rows.
    named = subject | context.sentence
    for lines, words in ((index.rows, index.row_words), (index.columns, index.column_words)):
        scored = sorted(((2 * len(w & subject) + len(w & named), key) for key, w in words.items() if w & named),
                        reverse=True)
        if not scored:
            continue
        top = scored[0][0]
        strongest = [key for n, key in scored if n == top][:MAX_LINES]
        items = [key for n, key in scored if n >= max(1, top - ITEM_SLACK)][:MAX_ITEMS]
        if "sum" in ask.operations or "share" in ask.operations:
            items += [key for key, w in words.items() if "total" in w and key not in items][:MAX_TOTALS]
        for key in strongest:
            yield from _over_periods(keys, lines[key], years, ask)
        yield from _over_items(keys, lines, items, years, ask, by_row=lines is index.rows)
    yield from _in_prose(keys, index.prose, subject, years, ask)


def _year(keys: SupportKeys, j: int) -> int | None:
    year = keys.year[j]
    return None if np.isnan(year) else int(year)


def _period_pairs(keys: SupportKeys, line: Sequence[int], years: frozenset[int]) -> list[tuple[int, int]]:
    """(new, old) pairs of a line's cells for a change over the periods the prediction names: both named years;
    one named year against the latest year before it; none named, each year against the one before."""
    dated: dict[int, int] = {}
    for j in line:
        year = _year(keys, j)
        if year is not None:
            dated.setdefault(year, j)
    ordered = sorted(dated)
    if len(years & dated.keys()) >= 2:
        named = sorted(years & dated.keys())
        return [(dated[b], dated[a]) for a, b in pairwise(named)] + (
            [(dated[named[-1]], dated[named[0]])] if len(named) > 2 else [])
    if len(years) == 1:
        (year,) = years
        before = [y for y in ordered if y < year]
        return [(dated[year], dated[before[-1]])] if year in dated and before else []
    if years:
        return []
    return [(dated[b], dated[a]) for a, b in pairwise(ordered)]


def _over_periods(keys: SupportKeys, line: Sequence[int], years: frozenset[int], ask: _Ask
                  ) -> Iterator[tuple[OperationName, tuple[int, ...]]]:
    for new, old in _period_pairs(keys, line, years):
        for operation in _asked(ask, *OVER_PERIODS):
            yield operation, (new, old)
    if ask.operations & set(OVER_TERMS):
        # Over the years named, or every year between two ("the average over 2017 to 2019").
        span = set(range(min(years), max(years) + 1)) if len(years) == 2 else years
        dated = [j for j in line if _year(keys, j) is not None and (not span or _year(keys, j) in span)]
        if len(dated) >= 2:
            for operation in _asked(ask, *OVER_TERMS):
                yield operation, tuple(dated[:MAX_TERMS])


def _over_items(keys: SupportKeys, lines: dict[tuple[int, int], list[int]], items: list[tuple[int, int]],
                years: frozenset[int], ask: _Ask, by_row: bool) -> Iterator[tuple[OperationName, tuple[int, ...]]]:
    """Operations over the named lines' cells that stand in one line of the other direction (the rows' cells of
    one column, in a period the prediction names when it names one)."""
    wanted = [o for o in _asked(ask, *OVER_ITEMS) if o != "difference" or ask.items_difference]
    if len(items) < 2 or not (wanted or ask.operations & set(OVER_TERMS)):
        return
    crossing: dict[tuple[int, int], dict[tuple[int, int], int]] = {}
    for key in items:
        for j in lines[key]:
            table, row, column = keys.contexts[j].place
            across = (table, column) if by_row else (table, row)
            year = _year(keys, j)
            if years and year is not None and year not in years:
                continue
            crossing.setdefault(across, {}).setdefault(key, j)
    for cells in crossing.values():
        operands = sorted(cells.values())  # mention rows in text order: a sum reads top to bottom
        if len(operands) < 2:
            continue
        for a, b in permutations(operands, 2):
            for operation in wanted:
                yield operation, (a, b)
        yield from _subsets(operands, ask)


def _in_prose(keys: SupportKeys, prose: dict[str, list[int]], subject: frozenset[str], years: frozenset[int],
              ask: _Ask) -> Iterator[tuple[OperationName, tuple[int, ...]]]:
    """Operations over the numbers of running text bound to the figure's subject: by their own subject, or for a
    number with none ("up from $50.2 million in 2018"), by the words of its clause's window."""
    if ask.change and len(years) == 1:  # a change in one named year is from the year before
        years = years | {next(iter(years)) - 1}
    shared: dict[int, int] = {}
    for word in subject:
        for j in prose.get(word, ()):
            shared[j] = shared.get(j, 0) + 1
    bound = sorted(((n, j) for j, n in shared.items()
                    if not years or _year(keys, j) is None or _year(keys, j) in years),
                   key=lambda s: (-s[0], s[1]))  # ties by position: the same choice in every process
    chosen = sorted(j for _, j in bound[:MAX_PROSE])
    for a, b in permutations(chosen, 2):
        ya, yb = _year(keys, a), _year(keys, b)
        dated = ya is not None and yb is not None
        if dated and ya <= yb:  # a change runs from the earlier year to the later one
            continue
        for operation in _asked(ask, *(o for o in IN_PROSE if not dated or o != "share")):
            yield operation, (a, b)
    yield from _subsets(chosen, ask)


def _asked(ask: _Ask, *operations: OperationName) -> list[OperationName]:
    """Those of `operations` the figure's words name."""
    return [o for o in operations if o in ask.operations]


def _subsets(operands: Sequence[int], ask: _Ask) -> Iterator[tuple[OperationName, tuple[int, ...]]]:
    """Sums and averages of every 2 to `MAX_TERMS` of the operands, in text order."""
    for size in range(2, min(len(operands), MAX_TERMS) + 1):
        for terms in combinations(operands, size):
            for operation in _asked(ask, *OVER_TERMS):
                yield operation, terms


# -- results ---------------------------------------------------------------------------------------------------


def _fits(keys: SupportKeys, operation: str, operands: tuple[int, ...], ask: _Ask) -> bool:
    """Whether the operands' family gives the figure's family under the operation (`Operation.fits`)."""
    percents = {bool(keys.percent[j]) for j in operands}
    if len(percents) != 1 or any(bool(keys.points[j]) for j in operands):
        return False
    fit = OPERATION[operation].fits(percents.pop(), ask.figure)
    if fit != AMOUNTS:
        return bool(fit)
    if not ask.figure.amount:
        return False
    return all((ask.family < 0 or keys.family[j] in (-1, ask.family)) and bool(keys.per_unit[j]) == ask.per_unit
               and not (ask.figure.money and keys.counted[j]) for j in operands)


def _results(keys: SupportKeys, operation: str, operands: tuple[int, ...], ask: _Ask
             ) -> Iterator[tuple[float, float]]:
    """The operation's result over the operands, comparable with the figure's value, and the scale it stands at
    (the operands' table scale; 1 when it cancels). An amount is tried at its table's scale and as written."""
    if not _fits(keys, operation, operands, ask):
        return
    raw = np.array([keys.values[j] for j in operands], np.float64)
    scales = {float(s) for s in np.nan_to_num(keys.table_scale[list(operands)], nan=1.0)}
    if len(scales) != 1:
        return
    scale = scales.pop()
    result = OPERATION[operation].apply(raw)
    if result is None or not np.isfinite(result):
        return
    if OPERATION[operation].pure:
        yield result, 1.0
        return
    yield result * scale, scale
    if scale != 1.0 and not ask.figure.scaled:
        yield result, 1.0
    if scale == 1.0 and ask.figure.scaled and not any(keys.scaled[j] for j in operands):
        # Bare numbers at the scale the figure's own word states ("-181 thousand" from 81,731 − 81,912), as a
        # bare number may stand at a scale in step 1.
        for stated in SCALE_NAMES:
            yield result * stated, stated


def _spread(keys: SupportKeys, operation: str, operands: tuple[int, ...], centre: float) -> float:
    """Half the width of the interval a percent change, share or ratio (its operands' result `centre`) takes when
    each operand may be any value its written digits round from ("2.79" is 2.785 to 2.795): its widest corner. 0
    when a corner is undefined or the interval is wider than `INTERVAL_CAP` of the result, which then says too
    little to support a figure."""
    apply = OPERATION[operation].apply
    raw = [float(keys.values[j]) for j in operands]
    half = [float(keys.rounding[j]) for j in operands]
    corners = [apply(np.array([raw[0] + a * half[0], raw[1] + b * half[1]])) for a in (-1, 1) for b in (-1, 1)]
    if any(c is None or not np.isfinite(c) for c in corners):
        return 0.0
    spread = max(abs(c - centre) for c in corners)
    return spread if spread <= INTERVAL_CAP * abs(centre) else 0.0


def _degenerate(keys: SupportKeys, operation: str, operands: tuple[int, ...]) -> bool:
    """Whether a sum, difference or average is one of its own operands ("16 − 0 = 16"): a derivation that computes
    nothing. Exactly: within the operands' rounding it would reject true claims (FilingClaims tune loses 0.001)."""
    if OPERATION[operation].pure:
        return False
    raw = np.array([keys.values[j] for j in operands], np.float64)
    result = OPERATION[operation].apply(raw)
    return result is not None and bool(np.any(np.abs(raw - result) <= VALUE_SLACK * abs(result)))


def _agrees(ask: _Ask, operation: str, value: float, spread: float = 0.0) -> bool:
    """Whether a result is what the figure states, at its written precision and in its direction (a change stated
    as a rise or a fall needs that sign; a figure stated as "the change" keeps its own; else a magnitude): the
    figure's rounding interval meets the result's (`spread`: its half-width, from the operands' written digits)."""
    target = ask.value
    sign = ask.sign if OPERATION[operation].over_periods else (0 if target < 0 else None)
    if sign is None:
        gap = abs(abs(value) - abs(target))
    elif sign == 0:
        gap = abs(value - target)
    else:
        gap = abs(value - sign * abs(target))
    return gap <= ask.tolerance * (1 + TOLERANCE_SLACK) + spread + VALUE_SLACK * abs(target)


# -- the derivation as text ------------------------------------------------------------------------------------


def _shown(keys: SupportKeys, j: int) -> str:
    """An operand as its source writes it, an accounting negative in its parentheses: "(1.9)", "$1,452.4"."""
    text = _CURRENCY_SPACE.sub(r"\1", " ".join(keys.labels[j][0].split()))
    negative = keys.values[j] < 0 and not text.lstrip("$€£¥").startswith(("-", "−", "("))
    return f"({text})" if negative else text


def _derivation(keys: SupportKeys, operation: OperationName, operands: tuple[int, ...], value: float, scale: float,
                ask: _Ask) -> Derivation:
    op, scale = OPERATION[operation], scale or 1.0
    texts = [_shown(keys, j) for j in operands]
    text = op.render(texts, float(keys.values[operands[-1]]))
    if op.pure:  # a percent or a multiple: the operands' scale cancels, the figure's decimals alone
        result = _number(value, ask.decimals, ask.decimals) + op.unit
    elif op.unit or ask.figure.points or ask.figure.percent:  # percents and points: the operands' own
        decimals = max([ask.decimals, *(written_decimals(t) for t in texts)])
        unit = op.unit or (" points" if ask.figure.points else "%")
        result = _number(value / scale, decimals, ask.decimals) + unit
    else:
        result = _amount(keys, operands, texts, value, scale, ask)
    return Derivation(operation, operands, value, f"{text} = {result}")


def _amount(keys: SupportKeys, operands: tuple[int, ...], texts: Sequence[str], value: float, scale: float,
            ask: _Ask) -> str:
    """An amount's result as the figure writes its own value: its currency, its scale word ("$4.2 billion −
    $3.9 billion = $300 million" for "$300 million", "= $0.3 billion" for "$0.3 billion"), digits as fine as the
    figure's and the operands' at that scale, no zero past the figure's own ("= $300 million", not
    "300,000,000.0")."""
    form = _form(ask.written, ask.value)
    if form is None:  # no digits of its own to follow ("three hundred million dollars"): its magnitude's scale
        shown = max((s for s in SCALE_NAMES if s <= abs(ask.value)), default=1.0)
        prefix, suffix = "", f" {SCALE_NAMES[shown]}" if shown in SCALE_NAMES else ""
    else:
        prefix, suffix, shown = form
    # The operands' last written digit, at the scale shown: "$4.2 billion" is to 100 million, no decimal in
    # millions; a table's "44.3" (in millions) is to 0.1 million.
    finest = min(10.0 ** -written_decimals(t) * _own_scale(keys, j) for j, t in zip(operands, texts)) * scale / shown
    decimals = max(ask.decimals, min(MAX_DECIMALS, math.ceil(-math.log10(finest) - DIGIT_SLACK)))
    number = _number(value / shown, decimals, ask.decimals)
    sign = "−" if number.startswith("−") else ""
    return f"{sign}{prefix}{number.lstrip('−')}{suffix}"


def _form(text: str, value: float) -> tuple[str, str, float] | None:
    """A written amount's text before its digits (a currency), after them (a scale word, a unit) and the scale
    that word gives: "$300 million" -> ("$", " million", 1e6), "€3.4m" -> ("€", "m", 1e6), "5,000" -> ("", "",
    1.0); signs and parentheses left out. None when its digits times a scale its own words name do not give its
    value (a number in words; "$3" of "$3-5 million", scaled by the range's word)."""
    digits = _DIGITS.search(text)
    if digits is None:
        return None
    written = float(digits.group().replace(",", ""))
    prefix, suffix = _SIGNS.sub("", text[:digits.start()]), text[digits.end():].lstrip(")")
    if written == 0 or value == 0:
        return (prefix, suffix, 1.0) if written == abs(value) else None
    exponent = round(math.log10(abs(value) / written))
    if not math.isclose(abs(value), written * 10.0 ** exponent, rel_tol=1e-9):
        return None
    if exponent:
        word = _SCALE_WORD.match(suffix.lower())
        if word is None or SCALE_EXPONENTS.get(word.group(1)) != exponent:
            return None
    return prefix, suffix, 10.0 ** exponent


def _own_scale(keys: SupportKeys, j: int) -> float:
    """The scale a number's own words give it ("$4.2 billion": 1e9; a table's bare "44.3": 1)."""
    form = _form(keys.labels[j][0], float(keys.values[j]))
    return 1.0 if form is None else form[2]


def _number(value: float, decimals: int, keep: int) -> str:
    """`value` at `decimals`, zeros past the first `keep` decimals dropped ("300", not "300.0"), its minus "−"
    (none on a zero)."""
    head, _, tail = f"{abs(value):,.{decimals}f}".partition(".")
    tail = tail[:keep] + tail[keep:].rstrip("0")
    number = f"{head}.{tail}" if tail else head
    return f"−{number}" if value < 0 and number.strip("0.,") else number
