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

# Written forms, tried in order: (thousands separator, decimal mark, core pattern). The extractor's value
# decides between readings of an ambiguous core such as "1,234" (1234, or 1.234 with a decimal comma).
_FORMS: list[tuple[str, str, re.Pattern[str]]] = [
    (",", ".", re.compile(r"(?P<int>\d{1,3}(?:,\d{3})+|\d+)?(?:(?P<gap> ?)\.(?P<frac>\d+))?")),
    (" ", ".", re.compile(r"(?P<int>\d{1,3}(?: \d{3})+|\d+)?(?:(?P<gap>)\.(?P<frac>\d+))?")),
    (" ", ",", re.compile(r"(?P<int>\d{1,3}(?: \d{3})+|\d+)?(?:(?P<gap>),(?P<frac>\d+))?")),
    (".", ",", re.compile(r"(?P<int>\d{1,3}(?:\.\d{3})+|\d+)?(?:(?P<gap>),(?P<frac>\d+))?")),
]
# Text that holds digits but is a currency marker: "x20ac" is how U+20AC (the euro sign) survives in
# the Financial PhraseBank release.
_DIGIT_MARKERS = re.compile(r"^x20ac\s?", re.IGNORECASE)


@dataclass(frozen=True)
class SurfaceFormat:
    prefix: str
    suffix: str
    core: Decimal  # absolute value of the digits as written (205.5 for "EUR 205.5 mn")
    decimals: int
    grouped: bool  # "100,000" / "100 000"
    leading_dot: bool  # ".26"
    gap: str  # " " in "74 .8"
    width: int  # zero padding of the integer part ("09")
    group_sep: str = ","
    decimal_mark: str = "."

    @classmethod
    def parse(cls, text: str, value: float | None = None) -> SurfaceFormat:
        """Split ``text`` into prefix/core/suffix; ValueError unless it holds exactly one numeral.

        With ``value`` (the extractor's reading), the written form must reproduce it up to a power of ten
        (a scale word such as "mn"); that also picks the reading of "1,234" or "37,7".
        """
        marker = _DIGIT_MARKERS.match(text)
        head, body = (text[: marker.end()], text[marker.end() :]) if marker else ("", text)
        reasons = []
        for group_sep, decimal_mark, pattern in _FORMS:
            cores = [m for m in pattern.finditer(body) if m["int"] or m["frac"]]
            if len(cores) != 1:
                reasons.append(f"{len(cores)} numerals")
                continue
            m = cores[0]
            prefix, suffix = head + body[: m.start()], body[m.end() :]
            if re.search(r"\d", body[: m.start()] + suffix):
                reasons.append("digits outside the numeral")
                continue
            int_part, frac = m["int"] or "", m["frac"] or ""
            grouped = group_sep in int_part
            core = Decimal(int_part.replace(group_sep, "") or "0") + (Decimal(f"0.{frac}") if frac else Decimal(0))
            if value is not None and scale_of(core, value) is None:
                reasons.append(f"reads as {core}, not {value}")
                continue
            width = len(int_part) if int_part.startswith("0") and len(int_part) > 1 and not grouped else 1
            leading_dot = not int_part and bool(frac)
            return cls(prefix, suffix, core, len(frac), grouped, leading_dot, m["gap"] or "", width, group_sep,
                       decimal_mark)
        raise ValueError(f"unsupported number format {text!r} ({'; '.join(dict.fromkeys(reasons))})")

    def quantize(self, value: Decimal) -> Decimal:
        """Round to the written precision (banker's rounding keeps it unbiased)."""
        return value.quantize(Decimal(1).scaleb(-self.decimals), rounding=ROUND_HALF_EVEN)

    def render_core(self, value: Decimal) -> str:
        if value < 0:
            raise ValueError(f"cores are unsigned (the sign stays in the prefix), got {value}")
        q = self.quantize(value)
        int_part = int(q)
        digits = f"{int_part:,}".replace(",", self.group_sep) if self.grouped else str(int_part).zfill(self.width)
        if self.leading_dot and int_part == 0:
            digits = ""
        if self.decimals:
            frac = f"{q:.{self.decimals}f}".split(".")[1]
            return f"{digits}{self.gap}{self.decimal_mark}{frac}"
        return digits

    def render(self, value: Decimal) -> str:
        return f"{self.prefix}{self.render_core(value)}{self.suffix}"


def scale_of(core: Decimal, value: float) -> Decimal | None:
    """The power of ten p with |value| = core * p (a scale word), or None if there is none."""
    if core == 0:
        return Decimal(1) if value == 0 else None
    ratio = abs(Decimal(repr(float(value)))) / core
    if ratio <= 0:
        return None
    p = Decimal(1).scaleb(round(float(ratio.log10())))
    return p if abs(ratio - p) <= p * Decimal("1e-9") else None


@dataclass(frozen=True)
class WordFormat:
    """A numeral written in words ("three", "Twenty-four"); variants are written in words too (num2words)."""

    core: Decimal
    capitalised: bool
    prefix: str = ""
    suffix: str = ""
    decimals: int = 0
    grouped: bool = False

    @classmethod
    def parse(cls, text: str, value: float) -> WordFormat:
        if not re.fullmatch(r"[A-Za-z]+(?:[- ][A-Za-z]+)*", text.strip()):
            raise ValueError(f"{text!r} is neither digits nor a number in words")
        if value < 0 or value != int(value):
            raise ValueError(f"{text!r}: only non-negative whole numbers in words are varied")
        return cls(Decimal(int(value)), text[:1].isupper())

    def quantize(self, value: Decimal) -> Decimal:
        return value.quantize(Decimal(1), rounding=ROUND_HALF_EVEN)

    def render(self, value: Decimal) -> str:
        from num2words import num2words

        words = num2words(int(self.quantize(value)), lang="en").replace(",", "")
        return words[:1].upper() + words[1:] if self.capitalised else words
