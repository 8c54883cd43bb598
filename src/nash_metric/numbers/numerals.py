"""The value of one digit token, exactly: ``Decimal`` arithmetic, and the float a mention finally gets.

``parse_numeral`` reads what the digit pass's ``lexicon.CORE`` matched: digit grouping (commas, spaces,
apostrophes, European dots), a decimal comma, the ambiguous single group ``1.500`` / ``1,500`` (the text's own
convention decides, then the noun after it), vulgar fractions (``1½``), the PhraseBank tokenisation ``74 .8``,
and exponents and powers (``1.5e-30``, ``10^30``, ``1.5 x 10^6``). ``to_float`` applies a scale's power of ten
and refuses what a float cannot hold. Malformed, overflowing and ambiguous tokens get an error, never a guess
(rules: ``numbers.english``'s docstring).
"""

from __future__ import annotations

import decimal
import math
import re
from decimal import Decimal
from fractions import Fraction

from ..common.validation import echoed
from ..vocabulary.en import DISCRETE_NOUNS
from .lexicon import (
    AMBIGUOUS,
    DECIMAL_COMMA,
    EN_FORM,
    EU_FORM,
    EUROPEAN,
    GROUP_SEP,
    NEXT_WORD,
    STRICT,
    VULGAR,
)

__all__ = ["fraction_decimal", "parse_numeral", "to_float"]

# 60 digits hold any float exactly; the exponent bounds keep 10**huge from running away (it overflows instead)
_CONTEXT = decimal.Context(prec=60, Emax=10**6, Emin=-(10**6), traps=[decimal.Overflow, decimal.InvalidOperation])
_MAX_EXPONENT_DIGITS = 7


def to_float(number: Decimal | None, exp: int, negative: bool, raw: str) -> tuple[float | None, str | None]:
    """``±number × 10**exp`` as a finite float, or None and why (``raw`` is the mention's text)."""
    if number is None:
        return None, None
    try:
        d = _CONTEXT.multiply(number, _CONTEXT.power(Decimal(10), exp)) if exp else number
    except (decimal.Overflow, decimal.InvalidOperation):
        return None, f"{echoed(raw)} is out of range"
    value = float(-d if negative else d)
    if not math.isfinite(value):
        return None, f"{echoed(raw)} overflows a float"
    if value == 0.0 and d != 0:
        return None, f"{echoed(raw)} underflows a float"
    return value, None


def fraction_decimal(f: Fraction) -> Decimal:
    return _CONTEXT.divide(Decimal(f.numerator), Decimal(f.denominator))


def parse_numeral(m: re.Match[str], text: str, conv: list[str | None]) -> tuple[Decimal | None, int, str | None]:
    """Decimal mantissa, power-of-ten exponent and error of the ``lexicon.CORE`` match ``m``; the power form
    ``b^p`` is folded into the mantissa. ``conv`` caches the text's grouping convention (filled on first need)."""
    body = m["body"]
    if body.isdigit() and m.end() == m.end("body"):  # the common case: a plain integer
        return Decimal(body), 0, None
    if body in VULGAR:
        return fraction_decimal(VULGAR[body]), 0, None
    body, error = _python_number(m, text, conv)
    if error:
        return None, 0, error
    mantissa = Decimal(body)
    if m["vfrac"]:
        if not body.isdigit():
            return None, 0, f"malformed number {echoed(m.group())}: a fraction after a decimal"
        mantissa += fraction_decimal(VULGAR[m["vfrac"]])
    return _with_powers(m, mantissa)


def _python_number(m: re.Match[str], text: str, conv: list[str | None]) -> tuple[str, str | None]:
    """The token's digits as a Python number string (grouping removed, a decimal comma as a point), or why
    they are malformed."""
    body = m["body"]
    if GROUP_SEP.search(body):
        body = GROUP_SEP.sub("", body)
    elif m["tokfrac"]:
        body += m["tokfrac"].strip()
    if DECIMAL_COMMA.fullmatch(body):
        return body.replace(",", "."), None
    if not m["tokfrac"] and AMBIGUOUS.fullmatch(body):
        return _ambiguous(body, text, m.end(), conv)
    if STRICT.fullmatch(body):
        return body.replace(",", ""), None
    if EUROPEAN.fullmatch(body):
        return body.replace(".", "").replace(",", "."), None
    why = "digit groups are not thousands separators" if "," in body else "more than one decimal point"
    return body, f"malformed number {echoed(m.group())}: {why}"


def _with_powers(m: re.Match[str], mantissa: Decimal) -> tuple[Decimal | None, int, str | None]:
    """Apply the token's exponent (``1.5e-30``, ``1.5 x 10^6``: returned as the exponent) or power (``10^30``:
    folded into the mantissa)."""
    exp = 0
    for grp in ("exp", "sci"):
        if m[grp] is not None:
            raw = m[grp].replace("−", "-")
            if len(raw.lstrip("+-")) > _MAX_EXPONENT_DIGITS:
                return None, 0, f"{echoed(m.group())} is out of range"
            exp = int(raw)
    if m["pow"] is not None:
        raw = m["pow"].replace("−", "-")
        try:
            if len(raw.lstrip("+-")) > _MAX_EXPONENT_DIGITS:
                raise decimal.Overflow
            mantissa = _CONTEXT.power(mantissa, int(raw))
        except (decimal.Overflow, decimal.InvalidOperation, ZeroDivisionError):
            return None, 0, f"{echoed(m.group())} is out of range"
    return mantissa, exp, None


def _ambiguous(body: str, text: str, end: int, conv: list[str | None]) -> tuple[str, str | None]:
    """``1.500`` / ``1,500`` as a Python number string: the text's own convention decides, then the noun."""
    if not conv:  # computed once per text, on the first ambiguous number
        eu, en = EU_FORM.search(text) is not None, EN_FORM.search(text) is not None
        conv.append("mixed" if eu and en else "eu" if eu else "en" if en else None)
    if conv[0] == "mixed":
        return body, f"ambiguous grouping {body!r}: the text writes numbers both as 1,234.5 and as 1.234,5"
    if body[-4] == ",":
        return body.replace(",", "." if conv[0] == "eu" else ""), None
    if conv[0] == "eu":
        return body.replace(".", ""), None
    if conv[0] is None:
        nxt = NEXT_WORD.match(text, end)
        # "1.500 employees": a count written with a trailing zero; "714.369 people" stays a decimal
        if nxt and nxt.group(1).lower() in DISCRETE_NOUNS and body.endswith("0"):
            return body.replace(".", ""), None
    return body, None
