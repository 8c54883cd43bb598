"""The wrong figures of FilingClaims: another cell's value (misplaced) and a value stated nowhere (unsupported).

Two values *agree* when either, rounded at the other's written precision, is the other (``1,450`` agrees with
``1,452.4``; ``1,146.2`` with ``1,146.20``): a claim's value that agrees with a number of its source could be
read as that number, so an unsupported value must agree with none, and a misplaced one must not agree with the
true value. Values are compared without sign, as a reader that drops the sign of ``(5,625)`` would.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from functools import cached_property
from typing import Any

from ..value_anywhere import digit_values
from .defaults import Group, Kind
from .table import Figure, Table

MAX_TRIES = 40  # draws of a perturbed value before a cell is given up
RELATIVE_STEP = (0.02, 0.15)  # a perturbed value moves by this share of the true one, up or down


@dataclass(frozen=True)
class ClaimText:
    """A claim before it meets its sources: its sentence, label, kind, group and how it was made."""

    claim: str
    label: int
    kind: Kind
    group: Group
    detail: dict[str, Any] = field(default_factory=dict, compare=False)


def place(value: Decimal) -> Decimal:
    """The unit of the last digit ``value`` states (``7.5``: 0.1; ``1400``: 100, a round number read coarsely)."""
    return Decimal(1).scaleb(value.normalize().as_tuple().exponent)


def _at(value: Decimal, unit: Decimal) -> Decimal:
    return (value / unit).quantize(Decimal(1), rounding=ROUND_HALF_UP) * unit


def agrees(a: Decimal, b: Decimal, a_place: Decimal | None = None, b_place: Decimal | None = None) -> bool:
    """Whether ``a`` and ``b`` (signs dropped) could be read as the same number at either's written precision."""
    a, b = abs(a), abs(b)
    a_place, b_place = a_place or place(a), b_place or place(b)
    return a == b or _at(b, a_place) == a or _at(a, b_place) == b


def core_place(core: str) -> Decimal:
    """The precision a core is written at: its last decimal, or for an integer its last non-zero digit."""
    decimals = len(core.partition(".")[2])
    return Decimal(1).scaleb(-decimals) if decimals else place(Decimal(core.replace(",", "")) or Decimal(1))


@dataclass(frozen=True)
class SourceNumbers:
    """Every number a source states (its digit strings, by value), for the checks that a value is stated nowhere."""

    values: tuple[Decimal, ...]

    @classmethod
    def of(cls, texts: Iterable[str]) -> SourceNumbers:
        return cls(tuple({v for text in texts for v in digit_values(text, skip_list_labels=False)}))

    @cached_property
    def _by_size(self) -> tuple[list[Decimal], list[Decimal]]:
        ordered = sorted(self.values, key=abs)
        return [abs(v) for v in ordered], ordered

    def holds(self, core: str) -> bool:
        """Whether some number of the source agrees with the core (at either's precision)."""
        value, unit = abs(Decimal(core.replace(",", ""))), core_place(core)
        # Only a number within a unit of the value, or within half its own place (at most half its size, but a
        # unit for zero), can agree: the numbers of other sizes are not compared.
        sizes, ordered = self._by_size
        low, high = min(value - unit, value * 2 / 3), max(value + unit, value * 2)
        near = ordered[:bisect_right(sizes, 0)] + ordered[bisect_left(sizes, low):bisect_right(sizes, high)]
        return any(agrees(value, v, unit) for v in near)


def _digit_change(core: str, rng: random.Random) -> str:
    positions = [k for k, ch in enumerate(core) if ch.isdigit()]
    k = rng.choice(positions[1:] or positions)
    digits = [d for d in "0123456789" if d != core[k] and (d != "0" or k != positions[0] or len(positions) == 1)]
    return core[:k] + rng.choice(digits) + core[k + 1:]


def _relative(core: str, rng: random.Random) -> str:
    decimals = len(core.partition(".")[2])
    step = rng.uniform(*RELATIVE_STEP) * rng.choice((-1, 1))
    value = Decimal(core.replace(",", "")) * Decimal(str(1 + step))
    grouped = "," in core or Decimal(core.replace(",", "")) < 1000  # a filing groups thousands unless it did not
    return f"{value:,.{decimals}f}" if grouped else f"{value:.{decimals}f}"


def perturbed(figure: Figure, rng: random.Random, source: SourceNumbers) -> Figure | None:
    """The figure with a value its source does not hold anywhere, at a plausible distance (a digit changed, or
    2-15% off at the same decimals); None when ``MAX_TRIES`` draws all hit a number of the source."""
    for _ in range(MAX_TRIES):
        core = _digit_change(figure.core, rng) if rng.random() < 0.5 else _relative(figure.core, rng)
        if core == figure.core or Decimal(core.replace(",", "")) == 0 or source.holds(core):
            continue
        return figure.with_core(core)
    return None


def misplaced(table: Table, row: int, col: int, rng: random.Random, avoid: Sequence[Figure]
              ) -> tuple[str, tuple[int, int], Figure] | None:
    """Another figure of the same row or column of the same kind (percent or not) that agrees with none of
    ``avoid`` (the true values): where it is ("row" or "column"), its cell, its figure; None when there is none."""
    choices = []
    for where, cell in table.neighbours(row, col):
        other = table.figures[cell]
        if other.percent != table.figures[(row, col)].percent:
            continue
        if any(agrees(other.value, a.value, core_place(other.core), core_place(a.core)) for a in avoid):
            continue
        choices.append((where, cell, other))
    return rng.choice(choices) if choices else None
