"""EmbedNum-1K's formats and configs as data: the builder draws and renders them (`formats`, `construction`)
and `nash build-data/bench embednum1k --configs` offers their names. Light (no numpy), so `nash --help` reads it.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

# Fixed, documented conversion rates: units of each currency per 1 USD (rounded 2024 averages).
CURRENCY_RATES: dict[str, Decimal] = {"usd": Decimal("1"), "eur": Decimal("0.92"), "jpy": Decimal("150"),
                                      "cny": Decimal("7.2")}


@dataclass(frozen=True)
class FormatSpec:
    name: str
    source: str  # grid whose draws are used ("orig", "a1", ...; a grid is its own source)
    lo: int = 1  # grid bounds in integer units (only for grids)
    hi: int = 999
    decimals: int = 0  # units are 10^-decimals (b-grids); the rendering keeps exactly these places
    shift: int = 0  # power of ten applied to the source values (c: -1..-3, d: 1..3, extreme: ±30)
    style: str = "plain"  # plain | percentage_word | percent_sign | comma | written | currency_xxx | reduced
    description: str = ""


def _grid(name: str, lo: int, hi: int, decimals: int = 0, description: str = "") -> FormatSpec:
    return FormatSpec(name, name, lo, hi, decimals, description=description)


FORMATS: dict[str, FormatSpec] = {f.name: f for f in [
    _grid("orig", 1, 999, description="integers 1 to 999"),
    *[_grid(f"a{k}", 10 ** (k - 1), 10**k - 1, description=f"{k}-digit integers") for k in range(1, 5)],
    *[_grid(f"b{k}", 10**k, 999 * 10**k, k, description=f"{k} decimal place{'s' * (k > 1)}") for k in range(1, 5)],
    *[FormatSpec(f"c{k}", "a1", shift=-k, description=f"one digit scaled down by {10**k}") for k in range(1, 4)],
    *[FormatSpec(f"d{k}", "a1", shift=k, description=f"one digit scaled up by {10**k}") for k in range(1, 4)],
    FormatSpec("e1", "a1", style="percentage_word", description='"8 percentage"'),
    FormatSpec("e2", "a1", style="percent_sign", description='"8%"'),
    FormatSpec("e3", "a4", style="comma", description='comma-separated "3,035"'),
    FormatSpec("extreme_large", "orig", shift=30, description="orig × 10^30"),
    FormatSpec("extreme_small", "orig", shift=-30, description="orig × 10^-30"),
    *[FormatSpec(f"currency_{c}", "orig", style=f"currency_{c}",
                 description=f"orig as USD converted to {c.upper()} at {CURRENCY_RATES[c]} per USD")
      for c in CURRENCY_RATES],
    FormatSpec("written", "orig", style="written", description="orig in words (num2words)"),
    FormatSpec("context_reduced", "orig", style="reduced", description='"Which number is above 200?"'),
]}
PAPER_FORMATS = ("orig", "a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4", "c1", "c2", "c3",
                 "d1", "d2", "d3", "e1", "e2", "e3")

CANDIDATE_SIZES = (10, 100)
TRIPLE_CONFIGS = tuple(FORMATS)
CANDIDATE_CONFIGS = tuple(f"candidates_{n}" for n in CANDIDATE_SIZES)
ALL_CONFIGS = TRIPLE_CONFIGS + CANDIDATE_CONFIGS
N_CANDIDATE_QUESTIONS = 200  # questions in candidates_10/100
