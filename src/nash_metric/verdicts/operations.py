"""The operations a computed figure may state, as a table: one `Operation` per kind, with the words that name it
(`vocabulary.en`), which figures can state it, the family rule, how it applies and how it reads.

Adding an operation is one entry in `OPERATIONS` and its name in the operand shapes it is tried over
(`OVER_PERIODS`, `OVER_ITEMS`, `IN_PROSE`, `OVER_TERMS`), with a hand-computed test in
`tests/unit/test_derivations.py`; `derivations` enumerates the operands and checks the results.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from ..vocabulary.en import AVERAGE_WORDS, DIFFERENCE_WORDS, RATIO_WORDS, SHARE_WORDS, SUM_WORDS

OperationName = Literal["difference", "sum", "average", "percent change", "share", "ratio", "points"]
# What the operands' family gives under an operation: the operands' amounts must then fit the figure's amount.
AMOUNTS = "amounts"
Fit = bool | Literal["amounts"]


@dataclass(frozen=True)
class Figure:
    """What a computed figure is, as the operations read it: a percent, percentage points, an amount (neither, nor
    another strict family), written with a scale word, of money, of no unit (-1 family)."""

    percent: bool
    points: bool
    amount: bool
    scaled: bool
    money: bool
    unitless: bool


@dataclass(frozen=True)
class Operation:
    """One operation a figure's words may name.

    Attributes:
        name: as `Derivation.operation` stores it.
        words: the words (stems) that name it near a figure.
        by_change: a change the figure states names it too ("grew 24.3%": a percentage change or a difference).
        not_with_change: words that do not name it when a change is named ("the percentage change in").
        states: whether a figure of its family can state it.
        fits: given whether the operands are percents, whether their family gives the figure's (`AMOUNTS`: when
            every operand is an amount that fits the figure's).
        apply: its result over the operands' values (None: undefined, a zero base).
        over_periods: a change over periods: the figure's direction applies to its sign.
        pure: a pure number (a percent or a multiple): the operands' scale cancels, the figure's decimals alone
            are shown.
        unit: the unit its result reads in ("" for the operands' own).
        render: the operands' texts (and the base's value) as the derivation reads them.
    """

    name: OperationName
    words: frozenset[str]
    by_change: bool
    states: Callable[[Figure], bool]
    fits: Callable[[bool, Figure], Fit]
    apply: Callable[[np.ndarray], float | None]
    render: Callable[[Sequence[str], float], str]
    over_periods: bool = False
    pure: bool = False
    unit: str = ""
    not_with_change: frozenset[str] = frozenset()

    def named(self, words: frozenset[str], change: bool, figure: Figure) -> bool:
        """Whether a figure of this kind, with these words around it (and a change, when it states one), names
        it."""
        triggers = self.words - self.not_with_change if change else self.words
        return self.states(figure) and ((self.by_change and change) or bool(words & triggers))


def _ratio(values: np.ndarray, times: float) -> float | None:
    return None if values[1] == 0 else float(values[0] / values[1] * times)


def _minus(texts: Sequence[str], _: float) -> str:
    return f"{texts[0]} − {texts[-1]}"


OPERATIONS: tuple[Operation, ...] = (
    Operation("difference", DIFFERENCE_WORDS, by_change=True, states=lambda f: True,
              fits=lambda percent, f: (f.percent or f.points) if percent else AMOUNTS,
              apply=lambda v: float(v[0] - v[1]), render=_minus, over_periods=True),
    Operation("sum", SUM_WORDS, by_change=False, states=lambda f: not f.points,
              fits=lambda percent, f: f.percent if percent else AMOUNTS,
              apply=lambda v: float(v.sum()), render=lambda t, _: " + ".join(t)),
    Operation("average", AVERAGE_WORDS, by_change=False, states=lambda f: not f.points,
              fits=lambda percent, f: f.percent if percent else AMOUNTS,
              apply=lambda v: float(v.mean()), render=lambda t, _: f"({' + '.join(t)}) / {len(t)}"),
    Operation("percent change", frozenset(), by_change=True, states=lambda f: f.percent,
              fits=lambda percent, f: f.percent,
              apply=lambda v: None if v[1] == 0 else float((v[0] - v[1]) / abs(v[1]) * 100),
              render=lambda t, base: f"({t[0]} − {t[-1]}) / {t[-1] if base >= 0 else f'|{t[-1]}|'}",
              over_periods=True, pure=True, unit="%"),
    # "percentage" names a share ("as a percentage of total revenue") unless a change is named ("the percentage
    # change in"); the other share words name one either way.
    Operation("share", SHARE_WORDS, by_change=False, states=lambda f: f.percent,
              fits=lambda percent, f: not percent and f.percent, apply=lambda v: _ratio(v, 100),
              render=lambda t, _: f"{t[0]} / {t[-1]}", pure=True, unit="%", not_with_change=frozenset({"percentage"})),
    Operation("ratio", RATIO_WORDS, by_change=False,
              states=lambda f: f.amount and f.unitless and not f.scaled and not f.money,
              fits=lambda percent, f: not percent and f.amount, apply=lambda v: _ratio(v, 1),
              render=lambda t, _: f"{t[0]} / {t[-1]}", pure=True, unit="×"),
    Operation("points", DIFFERENCE_WORDS, by_change=True, states=lambda f: f.points,
              fits=lambda percent, f: percent and f.points, apply=lambda v: float(v[0] - v[1]), render=_minus,
              over_periods=True, unit=" points"),
)
OPERATION: dict[str, Operation] = {o.name: o for o in OPERATIONS}

# The operations tried over each kind of operand tuple, in order: the first whose result agrees is the figure's
# derivation, so the order decides which of two agreeing derivations a report shows.
OVER_PERIODS: tuple[OperationName, ...] = ("percent change", "difference", "points", "ratio")  # a line's two periods
OVER_ITEMS: tuple[OperationName, ...] = ("share", "ratio", "difference")  # two items of one period
IN_PROSE: tuple[OperationName, ...] = ("percent change", "difference", "points", "ratio", "share")  # two clauses
OVER_TERMS: tuple[OperationName, ...] = ("sum", "average")  # 2 to `derivations.MAX_TERMS` terms
