"""How precisely a number was written, and what it can be compared with: the inputs of the support verdict.

A figure is supported by another when they agree at the precision it was written with (``support``):

* **Written precision.** The place of a mention's last written digit, with its scale applied: ``25%`` is
  written to 1, ``24.6%`` to 0.1, ``$1.2 billion`` to 100 million, ``$1,234 million`` to 1 million, ``$0.13``
  to 0.01. The tolerance is half of that (the rounding interval): ``25%`` covers [24.5, 25.5], ``$1.2 billion``
  covers [1.15, 1.25] billion. Written numbers (``twenty-four``, ``three million``) and power forms
  (``10^30``) and fractions (``1/2``) have no digits to count: their value's last non-zero digit is taken instead.
* **Hedges** widen the tolerance by one step, from half a unit of the last written digit to a whole unit:
  ``about 25%`` covers [24, 26], ``roughly $1.2 billion`` [1.1, 1.3] billion. The words are in ``HEDGES``
  (``vocabulary.en``). A hedged round number's trailing zeros are rounding, not digits: ``roughly 2,500`` is 2,500
  at the unit of its last non-zero digit and covers what rounds to it there, [2,450, 2,550] (the hedge is spent on
  the zeros: no further widening). Without a hedge, and after a decimal point (``about 2.50%``), zeros are digits.
* **Families.** Percent and percentage points are different quantities (``rose 2%`` is not ``rose 2
  percentage points``); basis points are hundredths of a point (``50 bp`` = ``0.5 percentage points``).
  Two stated currencies or physical units must be equal; a number without a unit fits any unit but a
  percent's (``25 billion`` against ``$25 billion``: the currency may be said elsewhere). Times of day are
  compared with times only; calendar periods (dates, quarters, fiscal years) by ``periods.CalendarKeys``.

This module reads one mention at a time and imports nothing but the stdlib, ``mention``, ``normalize`` and the
vocabulary.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..vocabulary.en import HEDGES
from .mention import NumericMention
from .normalize import normalize_digits

__all__ = ["HEDGES", "WrittenPrecision", "written_decimals", "written_precision"]

# A hedge right before a number (a comparison such as "more than" is a bound, not a hedge); longest first.
_HEDGE_BEFORE = re.compile(
    r"(?:^|[\s(])(?:" + "|".join(re.escape(h) for h in sorted(HEDGES, key=len, reverse=True)) + r")\s*$",
    re.IGNORECASE,
)
_POWER = re.compile(r"\d\s*(?:[eE][+-]?\d|\^|\*\*|[x×]\s*10)")
_FRACTION = re.compile(r"\d\s*/\s*\d|[½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞]")
_DIGITS = re.compile(r"\d")
_DECIMAL = re.compile(r"\.\d")  # a decimal point: its trailing zeros are written precision ("about 2.50%")
_POINTS = re.compile(r"\bpoints?\b|\bpp\b|\bpts?\b|\bbps?\b|\bbasis\b", re.IGNORECASE)
_PERCENT_WORD = re.compile(r"%|percent|per\s*cent|pct", re.IGNORECASE)
# The first bound of a range in points ("2 to 3 percentage points", "2-3 pp") takes its unit from the second.
_POINTS_RANGE_AFTER = re.compile(r"\s{0,3}(?:[-\u2010-\u2015\u2212~]|(?i:to|through|thru|and)\b)\s{0,3}[\d.,]+\s*"
                                 r"(?i:percentage\s+points?|points?|pp|pts?)\b")

# A figure written with one or two significant digits ("$2 billion") would otherwise cover +-25%: however it
# was rounded, a figure more than this share away from another is not the same figure (doubled when hedged).
# Chosen on the SummEdits dev domains (docs/benchmarks/summedits.md), not per domain.
RELATIVE_CAP = 0.05
# A written figure covers half a unit of its last written digit on each side: its rounding interval.
ROUNDING = 0.5
# A hedge doubles what a figure covers: a whole unit of its last digit, twice `RELATIVE_CAP`, a minute of a time.
HEDGE_WIDENING = 2
# The characters before a number a hedge may end in: room for the longest hedge ("approximately", 13), the space
# or parenthesis before it and the spaces after it.
HEDGE_LOOKBACK = 24
# Half a minute, in hours: a time of day is written to the minute at best.
HALF_MINUTE = 1 / 120
# log10 of a power of ten may fall a hair short of its integer in floats: this keeps 1000's first digit at 10^3.
_LOG_SLACK = 1e-12
# The significant digits of a written number's value that may state its precision (a float holds 15-17).
_VALUE_DIGITS = 12

# Unit families beyond the mention's own unit code.
PERCENT, POINTS, TIME = "%", "points", "time"


@dataclass(frozen=True)
class WrittenPrecision:
    """What the support verdict needs of one mention: a comparable value, its tolerance and its family.

    ``family`` is None for a number that fits any unit but a percent's; else "%", "points", "time" or the
    mention's own unit (an ISO 4217 code, "kg", ...). ``value`` is the mention's value, except for basis
    points, which are given in percentage points.
    """

    value: float
    tolerance: float
    family: str | None
    hedged: bool
    rounding: float  # the tolerance before `RELATIVE_CAP`: what the written digits alone allow


def written_precision(text: str, mention: NumericMention) -> WrittenPrecision:
    """The written precision of ``mention`` (found in ``text``, whose words before it may hedge it)."""
    assert mention.value is not None, "only valued mentions are compared"
    hedged = bool(_HEDGE_BEFORE.search(text, max(0, mention.start - HEDGE_LOOKBACK), mention.start))
    widening = HEDGE_WIDENING if hedged else 1
    value = float(mention.value)
    if mention.period is not None and mention.period.startswith("T"):
        # A time of day in decimal hours, written to the minute at best: equal or not.
        minute = HALF_MINUTE * widening
        return WrittenPrecision(value, minute, TIME, hedged, minute)
    step = _last_digit_place(mention.text, value)
    family: str | None = mention.unit
    if mention.kind == "percentage":
        if mention.unit == "bp":
            value, step, family = value / 100, step / 100, POINTS
        else:
            inherited = not _PERCENT_WORD.search(mention.text)  # a range's bare first bound: "2 to 3 points"
            points = _POINTS.search(mention.text) or (inherited and _POINTS_RANGE_AFTER.match(text, mention.end))
            family = POINTS if points else PERCENT
    if hedged and not _DECIMAL.search(mention.text) and (place := _value_place(value)) > step:
        step, widening = place, 1  # "roughly 2,500" agrees with 2,477
    rounding = step * (ROUNDING * widening)
    tolerance = min(rounding, RELATIVE_CAP * widening * abs(value))
    return WrittenPrecision(value, tolerance, family, hedged, rounding)


def written_decimals(text: str) -> int:
    """The decimals a figure is written with ("24.3%": 1, "$1,146.20": 2, "6.3 m/s": 1, "5": 0): what a result
    computed for it is shown with."""
    head, dot, tail = text.partition(".")
    if not dot or not head[-1:].isdigit():
        return 0
    return len(tail) - len(tail.lstrip("0123456789"))


def _last_digit_place(written: str, value: float) -> float:
    """The value of one unit in the last written digit, scale included (``$1.2 billion`` -> 1e8)."""
    digits = "".join(_DIGITS.findall(normalize_digits(written)))
    significant = digits.lstrip("0")
    if value == 0:
        decimals = re.search(r"[.,](\d+)", written)
        return 10.0 ** -len(decimals.group(1)) if decimals else 1.0
    if not significant or _POWER.search(written) or _FRACTION.search(written):
        return _value_place(value)
    leading = math.floor(math.log10(abs(value)) + _LOG_SLACK)
    return 10.0 ** (leading - len(significant) + 1)


def _value_place(value: float) -> float:
    """The place of the value's last non-zero digit among its first `_VALUE_DIGITS` significant ones (written
    numbers)."""
    mantissa = f"{abs(value):.{_VALUE_DIGITS - 1}e}"
    digits, exponent = mantissa.split("e")
    significant = digits.replace(".", "").rstrip("0") or "0"
    return 10.0 ** (int(exponent) - len(significant) + 1)
