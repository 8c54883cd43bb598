"""EmbedNum-1K number formats: seeded threshold/answer draws and their renderings (paper Table 1 + extras).

Every triple is drawn as integers on a grid: a threshold t and a distance d >= 1 grid step, with
A+ and A- at t + d and t - d (which one satisfies depends on the operator). A+ and A- are thus at
the *same* distance from the threshold, on opposite sides, so closeness to the threshold carries
no information: only the direction of the comparison does. d = round(r * t), r ~ U(0.1, 0.5)
(seeded), clipped to the grid, so the distance is controlled relative to the threshold.

Grids and derivations (``FORMATS``, declared as data in ``configs``):

* ``orig``: integers 1..999.  ``a1``..``a4``: 1-, 2-, 3-, 4-digit integers.
* ``b1``..``b4``: 1..999 with 1/2/3/4 decimal places (last decimal non-zero on all three numbers).
* ``c1``..``c3``: the ``a1`` draws scaled down by 10/100/1000 (0.8, 0.08, 0.008).
* ``d1``..``d3``: the ``a1`` draws scaled up by 10/100/1000 (80, 800, 8000).
* ``e1`` / ``e2``: the ``a1`` draws written "8 percentage" / "8%".  ``e3``: the ``a4`` draws with a
  thousands separator ("3,035").
* ``extreme_large`` / ``extreme_small``: the ``orig`` draws × 10^30 / × 10^-30, written out in full.
* ``currency_usd|eur|jpy|cny``: the ``orig`` draws as US dollars converted at ``CURRENCY_RATES``
  (threshold and answers alike, so the comparison outcome is unchanged), money questions only.
* ``written``: the ``orig`` draws in words (num2words: "two hundred and twenty").
* ``context_reduced``: the ``orig`` draws in "Which number is above 200?" / "The number is 220.".

Derived formats share their source's draws row by row, so e.g. ``a1`` vs ``c2`` differ in format only.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from decimal import Decimal

import numpy as np

from .configs import CURRENCY_RATES, FormatSpec

_CURRENCY_STYLE = {"usd": ("$", 2), "eur": ("€", 2), "jpy": ("¥", 0), "cny": ("CNY ", 2)}
RELATIVE_DISTANCE = (0.1, 0.5)


@dataclass(frozen=True)
class Draw:
    """One triple on a grid: threshold t, lower t - d and upper t + d, as exact Decimals."""

    threshold: Decimal
    lower: Decimal
    upper: Decimal
    relative_distance: float


def format_rng(seed: int, name: str) -> np.random.Generator:
    # A stream per format name: adding a format never changes the draws of another.
    return np.random.default_rng([seed, zlib.crc32(name.encode())])


def _ok_decimals(units: int, decimals: int) -> bool:
    return decimals == 0 or units % 10 != 0


def draw_grid(rng: np.random.Generator, spec: FormatSpec) -> Draw:
    """Seeded threshold and symmetric distance on `spec`'s grid (see module docstring)."""
    lo, hi = spec.lo, spec.hi
    for _ in range(1000):
        r = float(rng.uniform(*RELATIVE_DISTANCE))
        t_lo = max(lo + 1, math.ceil(lo / (1 - r)))
        t_hi = min(hi - 1, math.floor(hi / (1 + r)))
        if t_lo > t_hi:
            t_lo, t_hi = lo + 1, hi - 1
        t = int(rng.integers(t_lo, t_hi + 1))
        d = min(max(1, round(r * t)), t - lo, hi - t)
        if all(_ok_decimals(u, spec.decimals) for u in (t, t - d, t + d)):
            scale = Decimal(1).scaleb(-spec.decimals)
            return Draw(t * scale, (t - d) * scale, (t + d) * scale, d / t)
    raise RuntimeError(f"format {spec.name}: no valid draw in 1000 tries (grid {lo}..{hi})")  # pragma: no cover


def draw_candidates(rng: np.random.Generator, n: int, lo: int = 1, hi: int = 999) -> tuple[int, list[int], list[int]]:
    """Threshold plus n/2 distinct integers strictly above and n/2 strictly below it (uniform)."""
    half = n // 2
    if n % 2 or n < 2 or hi - lo + 1 < n + 1:
        raise ValueError(f"candidate count must be even and at most {hi - lo}, got {n}")
    t = int(rng.integers(lo + half, hi - half + 1))
    above = rng.choice(np.arange(t + 1, hi + 1), size=half, replace=False)
    below = rng.choice(np.arange(lo, t), size=half, replace=False)
    return t, [int(v) for v in above], [int(v) for v in below]


def scale(draw: Draw, shift: int) -> Draw:
    return Draw(*(v.scaleb(shift) for v in (draw.threshold, draw.lower, draw.upper)), draw.relative_distance)


def _plain(value: Decimal) -> str:
    """Fixed-point digits, no exponent, no trailing zeros beyond the value's own places."""
    text = format(value, "f")
    return text


def _written(value: Decimal) -> str:
    from num2words import num2words

    if value != value.to_integral_value():
        raise ValueError(f"written format expects integers, got {value}")
    return num2words(int(value))


def number_text(spec: FormatSpec, value: Decimal) -> str:
    """The bare number as written in `spec` (no unit)."""
    if spec.style.startswith("currency_"):
        cur = spec.style.removeprefix("currency_")
        _, places = _CURRENCY_STYLE[cur]
        amount = (value * CURRENCY_RATES[cur]).quantize(Decimal(1).scaleb(-places))
        return f"{amount:,.{places}f}"
    if spec.style == "comma":
        return f"{int(value):,}"
    if spec.style == "written":
        return _written(value)
    return _plain(value)


def converted_value(spec: FormatSpec, value: Decimal) -> Decimal:
    """The numeric value a reader gets from the rendering (currency conversion applied)."""
    if spec.style.startswith("currency_"):
        cur = spec.style.removeprefix("currency_")
        return (value * CURRENCY_RATES[cur]).quantize(Decimal(1).scaleb(-_CURRENCY_STYLE[cur][1]))
    return value


def render(spec: FormatSpec, value: Decimal, unit: str) -> str:
    """The number with its unit as it appears in the question or answer.

    `unit` is the seed's unit: "plain", "percent" (45%) or "money" ($45). e1/e2 write every number as
    a percentage, as in the paper's Table 1; currency formats prefix the currency's symbol or code.
    """
    text = number_text(spec, value)
    if spec.style == "percentage_word":
        return f"{text} percentage"
    if spec.style == "percent_sign":
        return f"{text}%"
    if spec.style.startswith("currency_"):
        return _CURRENCY_STYLE[spec.style.removeprefix("currency_")][0] + text
    if spec.style == "reduced":
        return text
    if spec.style == "written":
        return {"plain": text, "percent": f"{text} percent", "money": f"{text} dollars"}[unit]
    return {"plain": text, "percent": f"{text}%", "money": f"${text}"}[unit]
