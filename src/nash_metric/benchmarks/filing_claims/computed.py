"""Computed claims: TAT-QA's arithmetic questions, their answers derived from cells of the table, as claims.

A claim of this group states a value that no cell need state: the answer TAT-QA derives from cells of the table
(a difference, a change in points, a percentage change, a sum, an average, a share or ratio), written as the
question's answer is ("The percentage change in Adjusted EBITDA between 2018 and 2019 was 16.36%."). It is the
dev data of the ``computed`` figure verdict: a value a derivation of the source's numbers gives, though no number
states it. A derivation of another shape (a difference of two averages, a change of a sum) is kept as operation
``other``: its claim is true, but beyond the derivations the verdict tries. The sentence is TAT-QA's question, so
it may state numbers of its own ("over the 3 year period"), as the ``question`` group's claims may.

**Which questions.** ``answer_type == "arithmetic"``. Its ``derivation`` ("(668 - 716)/716", "126 / 67 - 1",
"(428,501 + 423,209 )/2", "34% + 11%", "-1.9-(-2.2)") is parsed without eval (`parse_derivation`: numbers with
thousands commas and ``%``, unary minus, parentheses or brackets, ``+ - * /``) and its operation named
(`classify`). The numbers of its structure (the ``n`` dividing a sum of ``n`` items, the ``1`` of ``a / b - 1``,
a factor ``100``) are constants; every other number must be the value of a body cell of the table (sign dropped,
as `questions` finds an answer; among several such cells the ones in one row, else one column, are taken). The
derivation, evaluated here, must give TAT-QA's answer at the answer's written precision (a percent answer also
as 100 × the derivation, as TAT-QA writes a ratio as a percent), with the answer's sign. Every question left out
is tallied with the reason.

**Claims.** *computed* (label 1): the question as a statement of its answer (`questions.question_sentence`), the
answer as TAT-QA gives it (its sign and decimals) in the question's family: a percent ("-6.7%"), or an amount
with the currency of its operand cells and TAT-QA's scale word ("$90,494 thousand", "-$35 million"; a ratio has
neither). The false claims (label 0), each when it can be made, in the same sentence and unit:

* *other-row*: the same derivation over the cells of another row, in the same columns (operands in one row only);
* *other-year*: the same derivation over the same rows in another column (or columns shifted together); in both,
  a number takes its new cell's sign as the derivation took its own cell's (kept, or dropped);
* *wrong-operation*: a percentage change stated as the difference of its operands (written as a percent, at the
  operands' decimals), a difference stated as the percentage change (written in the amount's unit, 2 decimals);
* *off*: the answer moved 10-30% up or down, at its decimals;
* *wrong-direction*: the answer with its sign flipped (changes with a non-zero answer only: a percentage change,
  or a difference whose question names a change, "change", "increase", "decline", ...; the sign of "the
  difference between A and B" or of "the total expenses" is no direction).

A false value must not agree with the true one at either's written precision (`figures.agrees`; for
*wrong-direction*, whose magnitude is the answer's, the signed values are compared), must not be zero and must not
be a number of the source (`SourceNumbers.holds`), else that claim is skipped and tallied. A true answer the
source also states is kept, flagged ``stated_in_source`` (the verdict may then call it supported).
"""

from __future__ import annotations

import ast
import itertools
import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, DivisionByZero, InvalidOperation, localcontext
from typing import Any

from .figures import ClaimText, SourceNumbers, agrees, core_place
from .questions import question_sentence
from .table import Table

OPERATIONS = ("difference", "point-change", "percent-change", "sum", "average", "share", "ratio", "other")
CHANGES = ("difference", "point-change", "percent-change")  # what a wrong-direction claim needs
FALSE_KINDS = ("other-row", "other-year", "wrong-operation", "off", "wrong-direction")
AMOUNT_SCALES = ("thousand", "million", "billion")
OFF_STEP = (0.10, 0.30)  # an off value moves by this share of the answer, up or down
OFF_TRIES = 40  # draws of an off value before the claim is given up
WRONG_OPERATION_DECIMALS = 2  # a percentage change stated in an amount's unit, at TAT-QA's percent precision
MAX_ASSIGNMENTS = 4096  # cell assignments of the operands compared before the first one found is taken

_CHANGE_WORDS = re.compile(r"\b(?:chang\w*|increas\w*|decreas\w*|grow\w*|grew|rise[sn]?|rising|rose|declin\w*|"
                           r"fell|drop\w*|movements?|variances?)\b", re.IGNORECASE)  # a question naming a change
_NUMBER = re.compile(r"(?<![\w.])(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?![\w.])\s*(%)?")
_REST = re.compile(r"^[\s()+\-*/_n0-9]*$")  # what a derivation may hold once its numbers are names
_SIGNS = str.maketrans({"−": "-", "–": "-", "—": "-", "×": "*", "÷": "/", "[": "(", "]": ")", "{": "(", "}": ")"})


class DerivationError(ValueError):
    """A derivation that is not plain arithmetic of numbers, or that cannot be evaluated (a division by zero)."""


# -- parsing --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Num:
    index: int  # the derivation's index-th number


@dataclass(frozen=True)
class Neg:
    arg: Node


@dataclass(frozen=True)
class Bin:
    op: str  # + - * /
    left: Node
    right: Node


Node = Num | Neg | Bin
_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}


@dataclass(frozen=True)
class Derivation:
    """A parsed derivation: its numbers as written (magnitudes, in order; ``%`` noted) and its expression tree."""

    text: str
    numbers: tuple[Decimal, ...]
    percent: tuple[bool, ...]
    tree: Node

    def value(self, numbers: Sequence[Decimal] | None = None) -> Decimal:
        """The derivation's value, of its own numbers or of ``numbers`` put in their places (``34%`` counts 34)."""
        return evaluate(self.tree, self.numbers if numbers is None else numbers)


def _node(node: ast.AST) -> Node:
    if isinstance(node, ast.Name) and re.fullmatch(r"_n\d+", node.id):
        return Num(int(node.id[2:]))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        arg = _node(node.operand)
        return Neg(arg) if isinstance(node.op, ast.USub) else arg
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return Bin(_OPS[type(node.op)], _node(node.left), _node(node.right))
    raise DerivationError(f"not plain arithmetic: {ast.dump(node)[:60]}")


def parse_derivation(text: str) -> Derivation:
    """A derivation of numbers (thousands commas, ``%``, currency signs dropped), unary minus, parentheses or
    brackets and ``+ - * /``; anything else raises `DerivationError` (nothing is evaluated as code)."""
    plain = str(text).translate(_SIGNS).replace("$", "")
    numbers: list[Decimal] = []
    percent: list[bool] = []

    def name(m: re.Match[str]) -> str:
        numbers.append(Decimal(m[0].rstrip("% \t").replace(",", "")))
        percent.append(bool(m[1]))
        return f" _n{len(numbers) - 1} "

    named = _NUMBER.sub(name, plain)
    if not numbers or not _REST.match(named) or not named.strip():
        raise DerivationError(f"not a derivation of numbers: {text!r}")
    try:
        tree = ast.parse(named.strip(), mode="eval").body
    except SyntaxError:
        raise DerivationError(f"not a well-formed expression: {text!r}") from None
    return Derivation(str(text), tuple(numbers), tuple(percent), _node(tree))


def evaluate(node: Node, numbers: Sequence[Decimal]) -> Decimal:
    """The value of an expression tree (exact decimal arithmetic, 28 digits for a quotient)."""
    if isinstance(node, Num):
        return numbers[node.index]
    if isinstance(node, Neg):
        return -evaluate(node.arg, numbers)
    a, b = evaluate(node.left, numbers), evaluate(node.right, numbers)
    if node.op == "+":
        return a + b
    if node.op == "-":
        return a - b
    if node.op == "*":
        return a * b
    if b == 0:
        raise DerivationError("divides by zero")
    with localcontext() as ctx:
        ctx.prec = 28
        try:
            return a / b
        except (DivisionByZero, InvalidOperation):
            raise DerivationError("divides by zero") from None


# -- the operation --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shape:
    """What a derivation does: its operation, its structural constants (numbers no cell need state), the numbers
    that repeat another (the old value of ``(a - b) / b``: its denominator is the same operand as ``b``), and for a
    change its new and old terms (a number, perhaps negated: ``-1.9 - (-2.2)``)."""

    operation: str
    constants: frozenset[int]
    same_as: dict[int, int]
    new: Node | None = None
    old: Node | None = None


def _leaf(node: Node) -> int | None:
    """The number a node is, perhaps negated (``-2.2``, ``(-2.2)``), else None."""
    while isinstance(node, Neg):
        node = node.arg
    return node.index if isinstance(node, Num) else None


def _terms(node: Node) -> list[Node]:
    """The terms of a chain of additions (``a + b + c``)."""
    if isinstance(node, Bin) and node.op == "+":
        return _terms(node.left) + _terms(node.right)
    return [node]


def _is(node: Node, numbers: Sequence[Decimal], value: int) -> bool:
    return isinstance(node, Num) and numbers[node.index] == value


def _constants(node: Node, numbers: Sequence[Decimal]) -> set[int]:
    """The structural numbers of a tree: an average's count, the ``1`` of ``a / b - 1``, a factor 100."""
    if isinstance(node, Neg):
        return _constants(node.arg, numbers)
    if not isinstance(node, Bin):
        return set()
    found = _constants(node.left, numbers) | _constants(node.right, numbers)
    if node.op == "/" and isinstance(node.right, Num) and len(terms := _terms(node.left)) >= 2 \
            and _is(node.right, numbers, len(terms)):
        found.add(node.right.index)
    elif node.op == "*" and (_is(node.right, numbers, 100) or _is(node.left, numbers, 100)):
        found.add(node.right.index if _is(node.right, numbers, 100) else node.left.index)
    elif node.op == "-" and isinstance(node.left, Bin) and node.left.op == "/" and _is(node.right, numbers, 1):
        found.add(node.right.index)
    return found


def classify(derivation: Derivation) -> Shape:
    """The operation of a derivation, read from its tree: difference (``a - b``), percent-change (``(a - b) / b``,
    ``a / b - 1``, either times 100), sum (``a + b + ...``), average (``(a + b + ...) / n``), share or ratio
    (``a / b``, perhaps times 100: `operation_of` tells them apart), other. ``point-change`` (a difference of two
    percentages) is told from a difference by its cells and answer (`operation_of`)."""
    numbers = derivation.numbers
    constants = frozenset(_constants(derivation.tree, numbers))
    node = derivation.tree
    if isinstance(node, Bin) and node.op == "*":  # x * 100 or 100 * x
        if isinstance(node.right, Num) and node.right.index in constants:
            node = node.left
        elif isinstance(node.left, Num) and node.left.index in constants:
            node = node.right
    if isinstance(node, Bin) and node.op == "-":
        if _leaf(node.left) is not None and _leaf(node.right) is not None:
            return Shape("difference", constants, {}, node.left, node.right)
        inner = node.left
        if isinstance(inner, Bin) and inner.op == "/" and isinstance(node.right, Num) \
                and node.right.index in constants and _leaf(inner.left) is not None \
                and _leaf(inner.right) is not None:
            return Shape("percent-change", constants, {}, inner.left, inner.right)
    if isinstance(node, Bin) and node.op == "/":
        top, bottom = node.left, _leaf(node.right)
        if isinstance(top, Bin) and top.op == "-" and bottom is not None:
            a, b = _leaf(top.left), _leaf(top.right)
            if a is not None and b is not None and b != bottom and numbers[b] == numbers[bottom]:
                return Shape("percent-change", constants, {bottom: b}, top.left, top.right)
        terms = _terms(top)
        if len(terms) >= 2 and bottom in constants and all(_leaf(t) is not None for t in terms):
            return Shape("average", constants, {})
        if _leaf(top) is not None and bottom is not None:
            return Shape("share", constants, {})
    terms = _terms(node)
    if len(terms) >= 2 and all(_leaf(t) is not None for t in terms):
        return Shape("sum", constants, {})
    return Shape("other", constants, {})


# -- the operands' cells --------------------------------------------------------------------------------------

Cell = tuple[int, int]


def _candidates(table: Table, value: Decimal, percent: bool) -> list[Cell]:
    """The body cells holding ``value`` (sign dropped); a number written with ``%`` prefers percent cells."""
    found = [at for at, f in sorted(table.figures.items()) if abs(f.value) == abs(value)]
    if percent and any(table.figures[at].percent for at in found):
        found = [at for at in found if table.figures[at].percent]
    return found


def _assignment_key(cells: Sequence[Cell]) -> tuple[int, int, int]:
    return (len(set(cells)) == len(cells), len({r for r, _ in cells}) == 1, len({c for _, c in cells}) == 1)


def locate(table: Table, derivation: Derivation, shape: Shape) -> dict[int, Cell] | None:
    """The cell of each operand (every number but the constants), or None when one is not a body cell's value.
    Among several cells with an operand's value, the assignment with distinct cells all in one row, else all in
    one column, is taken (the first in reading order among equals)."""
    free = [k for k in range(len(derivation.numbers)) if k not in shape.constants and k not in shape.same_as]
    options = [_candidates(table, derivation.numbers[k], derivation.percent[k]) for k in free]
    if any(not o for o in options):
        return None
    total = 1
    for o in options:
        total *= len(o)
    if total > MAX_ASSIGNMENTS:
        chosen: Sequence[Cell] = [o[0] for o in options]
    else:
        chosen = max(itertools.product(*options), key=_assignment_key)
    cells = dict(zip(free, chosen))
    cells.update({k: cells[v] for k, v in shape.same_as.items()})
    return cells


def operation_of(derivation: Derivation, shape: Shape, table: Table, cells: dict[int, Cell], percent_answer: bool,
                 factor: int) -> str:
    """The operation named for the claim: a difference of two percentages (cells, numbers written with ``%``, or
    a percent answer that is the difference itself, not 100 times it) is a ``point-change``; ``a / b`` is a
    ``share`` when the answer is a percent, else a ``ratio``."""
    if shape.operation == "difference" and (all(table.figures[at].percent for at in cells.values())
                                            or all(derivation.percent[k] for k in cells)
                                            or (percent_answer and factor == 1)):
        return "point-change"
    if shape.operation == "share" and not percent_answer:
        return "ratio"
    return shape.operation


# -- values as written ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Unit:
    """How the claim writes its value: a percent, or an amount with a currency sign and a scale word."""

    percent: bool
    currency: str = ""
    scale: str = ""


def rounded(value: Decimal, decimals: int) -> Decimal:
    return value.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


def core_of(value: Decimal, decimals: int) -> str:
    """The magnitude as written: thousands commas, ``decimals`` decimals."""
    return f"{abs(rounded(value, decimals)):,.{decimals}f}"


def written(value: Decimal, decimals: int, unit: Unit) -> str:
    """``-6.7%``, ``$90,494 thousand``, ``-$35 million``: the sign first, then the currency, the number, the unit."""
    sign = "-" if rounded(value, decimals) < 0 else ""
    tail = "%" if unit.percent else f" {unit.scale}" if unit.scale else ""
    return f"{sign}{unit.currency}{core_of(value, decimals)}{tail}"


def answer_value(answer: Any) -> tuple[Decimal, int] | None:
    """TAT-QA's answer as a decimal and its decimals (a float ``45.0`` is the integer 45), or None."""
    if isinstance(answer, bool) or not isinstance(answer, (int, float, str)):
        return None
    try:
        value = Decimal(str(answer).replace(",", "").strip())
    except InvalidOperation:
        return None
    if not value.is_finite():
        return None
    if isinstance(answer, float) and value == value.to_integral_value():
        value = value.to_integral_value()
    return value, max(0, -int(value.as_tuple().exponent))


def reproduces(value: Decimal, answer: Decimal, decimals: int) -> bool:
    """Whether ``value`` is ``answer`` at the answer's written precision (half a unit of its last decimal)."""
    return abs(value - answer) <= Decimal(1).scaleb(-decimals) / 2 * Decimal("1.000001")


# -- the claims -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Computed:
    """A usable question: its derivation, shape, operand cells, the factor the derivation is read at (100 when
    TAT-QA writes a ratio as a percent), its answer and how the claims write values."""

    question: dict[str, Any]
    derivation: Derivation
    shape: Shape
    operation: str
    cells: dict[int, Cell]
    factor: int
    answer: Decimal
    decimals: int
    unit: Unit


def usable(table: Table, question: dict[str, Any]) -> Computed | str:
    """The question's derivation checked against its table and answer, or why it is left out."""
    try:
        derivation = parse_derivation(str(question.get("derivation") or ""))
    except DerivationError:
        return "the derivation is not plain arithmetic of numbers"
    read = answer_value(question.get("answer"))
    if read is None:
        return "the answer is not a number"
    answer, decimals = read
    shape = classify(derivation)
    cells = locate(table, derivation, shape)
    if cells is None:
        return "an operand is not a cell of the table"
    try:
        value = derivation.value()
    except DerivationError:
        return "the derivation divides by zero"
    percent = question.get("scale") == "percent"
    factors = (1, 100) if percent else (1,)
    factor = next((f for f in factors if reproduces(value * f, answer, decimals)), None)
    if factor is None:
        if any(reproduces(-value * f, answer, decimals) for f in factors):
            return "the derivation gives the answer with the other sign"
        return "the derivation does not give the answer"
    operation = operation_of(derivation, shape, table, cells, percent, factor)
    if operation == "percent-change" and shape.old is not None and evaluate(shape.old, derivation.numbers) < 0:
        # TAT-QA divides by the signed base, NASH (and most writers) by its magnitude: the sign is a convention.
        return "a percentage change from a negative base (its sign is a convention)"
    if percent:
        unit = Unit(True)
    elif operation == "ratio":
        unit = Unit(False)
    else:
        currency = next((c for c in (table.row_currency(r) for r, _ in sorted(set(cells.values()))) if c), "")
        scale = str(question.get("scale") or "")
        unit = Unit(False, currency, scale if scale in AMOUNT_SCALES else "")
    return Computed(question, derivation, shape, operation, cells, factor, answer, decimals, unit)


def _sign(value: Decimal) -> int:
    return -1 if value < 0 else 1


def _moved(c: Computed, table: Table, mapping: dict[Cell, Cell]) -> Decimal | None:
    """The derivation over other cells (``mapping``: operand cell -> its replacement), the sign of each number
    treated as the derivation treats it for its own cell; None when a replacement is not a figure of the same
    kind (percent or not) or the derivation divides by zero."""
    numbers = list(c.derivation.numbers)
    for k, at in c.cells.items():
        new = mapping[at]
        old_figure, new_figure = table.figures[at], table.figures.get(new)
        if new_figure is None or new_figure.percent != old_figure.percent:
            return None
        numbers[k] = abs(new_figure.value) * _sign(new_figure.value) * _sign(old_figure.value)
    try:
        return c.derivation.value(numbers) * c.factor
    except DerivationError:
        return None


@dataclass(frozen=True)
class Wrong:
    """A false value: its value, decimals, what was changed and the cells it was derived from (None if none)."""

    value: Decimal
    decimals: int
    changed: str
    cells: list[list[int]] | None = None


def _why_wrong(c: Computed, wrong: Wrong, source: SourceNumbers, signed: bool = False) -> str | None:
    """Why a false value cannot be used (zero, agrees with the answer, stated in the source), or None."""
    value = rounded(wrong.value, wrong.decimals)
    if value == 0:
        return "rounds to zero"
    core, true_core = core_of(value, wrong.decimals), core_of(c.answer, c.decimals)
    same = agrees(value, c.answer, core_place(core), core_place(true_core))
    if same and (not signed or _sign(value) == _sign(c.answer)):
        return "agrees with the answer"
    if source.holds(core):
        return "stated in the source"
    return None


def _first_usable(c: Computed, choices: Iterable[Wrong], source: SourceNumbers, rng: random.Random,
                  none: str) -> Wrong | str:
    """A random usable choice; else why none is (``none`` when there are no choices, else every reason met)."""
    options = list(choices)
    if not options:
        return none
    rng.shuffle(options)
    reasons = set()
    for wrong in options:
        why = _why_wrong(c, wrong, source)
        if why is None:
            return wrong
        reasons.add(why)
    return " or ".join(sorted(reasons))


def _cells(c: Computed, mapping: dict[Cell, Cell] | None = None) -> list[list[int]]:
    return [list(mapping[at] if mapping else at) for _, at in sorted(c.cells.items())]


def other_row(c: Computed, table: Table, rng: random.Random, source: SourceNumbers) -> Wrong | str:
    rows = {r for r, _ in c.cells.values()}
    if len(rows) != 1:
        return "not applicable: the operands are not in one row"
    (row,) = rows
    choices = []
    for other in sorted({r for r, _ in table.figures} - {row}):
        mapping = {at: (other, at[1]) for at in c.cells.values()}
        value = _moved(c, table, mapping)
        if value is not None:
            choices.append(Wrong(value, c.decimals, f"row {row} -> {other}", _cells(c, mapping)))
    return _first_usable(c, choices, source, rng, "no other row has figures in the operands' columns")


def other_year(c: Computed, table: Table, rng: random.Random, source: SourceNumbers) -> Wrong | str:
    used = sorted({col for _, col in c.cells.values()})
    columns = sorted({col for _, col in table.figures})
    choices = []
    for shift in range(-len(columns) + 1, len(columns)):
        if shift == 0 or any(columns.index(col) + shift not in range(len(columns)) for col in used):
            continue
        moved = {col: columns[columns.index(col) + shift] for col in used}
        mapping = {at: (at[0], moved[at[1]]) for at in c.cells.values()}
        value = _moved(c, table, mapping)
        if value is not None:
            change = ", ".join(f"{a} -> {b}" for a, b in moved.items())
            choices.append(Wrong(value, c.decimals, f"column {change}", _cells(c, mapping)))
    return _first_usable(c, choices, source, rng, "no other column has figures in the operands' rows")


def wrong_operation(c: Computed, table: Table, rng: random.Random, source: SourceNumbers) -> Wrong | str:
    if c.operation not in CHANGES or c.shape.new is None or c.shape.old is None:
        return "not applicable: not a change"
    numbers = c.derivation.numbers
    new, old = evaluate(c.shape.new, numbers), evaluate(c.shape.old, numbers)
    if c.operation == "percent-change":
        decimals = max(max(0, -int(numbers[_leaf(t)].as_tuple().exponent)) for t in (c.shape.new, c.shape.old))
        wrong = Wrong(new - old, decimals, "percentage change stated as the difference of its operands")
    else:
        if old == 0:
            return "the old value is zero"
        wrong = Wrong((new - old) / abs(old) * 100, WRONG_OPERATION_DECIMALS,
                      "difference stated as the percentage change")
    return _first_usable(c, [wrong], source, rng, "")


def off(c: Computed, table: Table, rng: random.Random, source: SourceNumbers) -> Wrong | str:
    if rounded(c.answer, c.decimals) == 0:
        return "the answer is zero"
    reasons = set()
    for _ in range(OFF_TRIES):
        step = Decimal(str(round(rng.uniform(*OFF_STEP), 4))) * rng.choice((-1, 1))
        wrong = Wrong(c.answer * (1 + step), c.decimals, f"answer {'+' if step > 0 else ''}{step * 100:.2f}%")
        why = _why_wrong(c, wrong, source)
        if why is None:
            return wrong
        reasons.add(why)
    return "every draw: " + " or ".join(sorted(reasons))


def wrong_direction(c: Computed, table: Table, rng: random.Random, source: SourceNumbers) -> Wrong | str:
    if c.operation not in CHANGES:
        return "not applicable: not a change"
    if c.operation != "percent-change" and not _CHANGE_WORDS.search(str(c.question.get("question", ""))):
        return "not applicable: the question names no change"
    if rounded(c.answer, c.decimals) == 0:
        return "the answer is zero"
    wrong = Wrong(-c.answer, c.decimals, "sign flipped")
    return _why_wrong(c, wrong, source, signed=True) or wrong


MAKERS = {"other-row": other_row, "other-year": other_year, "wrong-operation": wrong_operation, "off": off,
          "wrong-direction": wrong_direction}


def question_claims_of(c: Computed, table: Table, rng: random.Random, source: SourceNumbers
                       ) -> tuple[list[ClaimText], Counter[str]]:
    """The computed claim of a usable question and each false claim that can be made; the tally of the others."""
    tally: Counter[str] = Counter()
    q = c.question
    true_figure = written(c.answer, c.decimals, c.unit)
    base = {"question": q.get("uid"), "derivation": str(q.get("derivation")).strip(), "operation": c.operation,
            "cells": _cells(c), "answer": str(c.answer), "scale": q.get("scale") or "", "true_figure": true_figure}
    stated = source.holds(core_of(c.answer, c.decimals))
    if stated:
        tally["computed: the answer is also a number of the source"] += 1
    claims = [ClaimText(question_sentence(q["question"], [true_figure]), 1, "computed", "computed",
                        {**base, "figure": true_figure, "value": str(c.answer), "changed": None,
                         "value_cells": _cells(c), "stated_in_source": stated})]
    for kind in FALSE_KINDS:
        made = MAKERS[kind](c, table, rng, source)
        if isinstance(made, str):
            tally[f"computed false skipped: {kind}: {made}"] += 1
            continue
        figure = written(made.value, made.decimals, c.unit)
        claims.append(ClaimText(question_sentence(q["question"], [figure]), 0, kind, "computed",
                                {**base, "figure": figure, "value": str(rounded(made.value, made.decimals)),
                                 "changed": made.changed, "value_cells": made.cells}))
    return claims, tally


def computed_claims(table: Table, questions: Sequence[dict[str, Any]], rng: random.Random, source: SourceNumbers
                    ) -> tuple[list[ClaimText], Counter[str]]:
    """The computed and false claims of every arithmetic question of the table; the tally says what was used,
    left out and why."""
    tally: Counter[str] = Counter()
    claims: list[ClaimText] = []
    for q in questions:
        if q.get("answer_type") != "arithmetic":
            continue
        tally["computed: arithmetic questions"] += 1
        found = usable(table, q)
        if isinstance(found, str):
            tally[f"computed skipped: {found}"] += 1
            continue
        tally["computed used"] += 1
        tally[f"computed used: {found.operation}"] += 1
        made, counts = question_claims_of(found, table, rng, source)
        claims.extend(made)
        tally.update(counts)
    return claims, tally
