"""Surface formats of numerals, so a NumFinE variant changes the value and nothing else.

A mention such as ``"EUR 205.5 mn"`` splits into a prefix (``"EUR "``), a numeric core (``205.5``: one
decimal, no grouping) and a suffix (``" mn"``). A new value is rendered with the same decimals,
thousands separators, leading-dot style (``.26``), zero padding and spacing, including the tokenised
Financial PhraseBank habit of a space before the decimal point (``"74 .8"``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal

_CORE = re.compile(r"(?P<int>\d{1,3}(?:,\d{3})+|\d+)?(?:(?P<gap> ?)\.(?P<frac>\d+))?")


@dataclass(frozen=True)
class SurfaceFormat:
    prefix: str
    suffix: str
    core: Decimal  # absolute value of the digits as written (205.5 for "EUR 205.5 mn")
    decimals: int
    grouped: bool  # "100,000"
    leading_dot: bool  # ".26"
    gap: str  # " " in "74 .8"
    width: int  # zero padding of the integer part ("09")

    @classmethod
    def parse(cls, text: str) -> SurfaceFormat:
        """Split ``text`` into prefix/core/suffix; ValueError unless it holds exactly one numeral."""
        cores = [m for m in _CORE.finditer(text) if m["int"] or m["frac"]]
        if len(cores) != 1:
            raise ValueError(f"expected one numeral in {text!r}, found {len(cores)}")
        m = cores[0]
        prefix, suffix = text[: m.start()], text[m.end() :]
        if re.search(r"\d", prefix + suffix):
            raise ValueError(f"digits outside the numeral in {text!r}")
        int_part, frac = m["int"] or "", m["frac"] or ""
        grouped = "," in int_part
        core = Decimal(int_part.replace(",", "") or "0") + (Decimal(f"0.{frac}") if frac else Decimal(0))
        width = len(int_part) if int_part.startswith("0") and len(int_part) > 1 and not grouped else 1
        leading_dot = not int_part and bool(frac)
        return cls(prefix, suffix, core, len(frac), grouped, leading_dot, m["gap"] or "", width)

    def quantize(self, value: Decimal) -> Decimal:
        """Round to the written precision (banker's rounding keeps it unbiased)."""
        return value.quantize(Decimal(1).scaleb(-self.decimals), rounding=ROUND_HALF_EVEN)

    def render_core(self, value: Decimal) -> str:
        if value < 0:
            raise ValueError(f"cores are unsigned (the sign stays in the prefix), got {value}")
        q = self.quantize(value)
        int_part = int(q)
        digits = f"{int_part:,}" if self.grouped else str(int_part).zfill(self.width)
        if self.leading_dot and int_part == 0:
            digits = ""
        if self.decimals:
            frac = f"{q:.{self.decimals}f}".split(".")[1]
            return f"{digits}{self.gap}.{frac}"
        return digits

    def render(self, value: Decimal) -> str:
        return f"{self.prefix}{self.render_core(value)}{self.suffix}"
