"""One-for-one character normalisation of numerals, run before the readers and the encoder.

``normalize_digits`` maps every Unicode decimal digit (category Nd: full-width ``１２３``, Arabic-Indic
``١٢٣``, Extended Arabic-Indic ``۱۲۳``, Devanagari ``१२३``, …) to its ASCII digit, and a few number
punctuation marks to their ASCII twins: full-width ``％ ＄ ． ＋ － ￥ ￡`` and the Arabic decimal separator,
thousands separator and percent sign ``٫ ٬ ٪``. Each character becomes exactly one character, so the
output has the input's length and every span found in it is a span of the input.

Left alone on purpose: the full-width comma ``，`` (in CJK text it is the clause comma, and ``3，5家`` must
not become the decimal ``3,5``), the ideographic full stop ``。``, superscripts (``m²``), vulgar
fractions (``½``, read by the English reader) and the zero-width characters (removing them would shift
offsets; the English reader reads through them).

``decode_escapes`` reads the escape sequences that data written as text holds (``\\u2009``, ``\\xa0``: JSON with
``ensure_ascii``, Python's ``repr`` of a string; ``\\n`` and ``\\t`` as spaces), one for one in length too: the
character it stands for, padded with spaces, so that ``€\\u20091,849.42`` reads as €1,849.42, not as the number
20091,849.42, and ``AF\\n0.08 MP`` as 0.08.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["decode_escapes", "normalize_digits"]

_PUNCT = {"％": "%", "＄": "$", "．": ".", "＋": "+", "－": "-", "￥": "¥", "￡": "£",
          "\u066b": ".", "\u066c": ",", "\u066a": "%"}
# In a str pattern \d is exactly Unicode category Nd; (?![0-9]) leaves ASCII digits to the fast path.
_TO_MAP = re.compile(r"(?![0-9])\d|[" + "".join(_PUNCT) + "]")


def _ascii(m: re.Match[str]) -> str:
    ch = m.group()
    return _PUNCT.get(ch) or str(unicodedata.decimal(ch))


def normalize_digits(text: str) -> str:
    """``text`` with every Unicode decimal digit as ASCII and full-width/Arabic ``%$.+-`` marks as ASCII;
    same length, so offsets are unchanged (``"１２．５％"`` -> ``"12.5%"``, ``"٣٫٥"`` -> ``"3.5"``)."""
    if text.isascii():
        return text
    return _TO_MAP.sub(_ascii, text)


# An escape of a character: \uXXXX, \UXXXXXXXX, \xXX, with an optional currency sign before it ("€\u2009"); a line
# break or a tab (\n, \r, \t: "AF\n0.08 MP").
_ESCAPE = re.compile(r"(?<!\\)(?P<sign>[$€£¥₹]?)\\"
                     r"(?:u(?P<u>[0-9A-Fa-f]{4})|U(?P<U>[0-9A-Fa-f]{8})|x(?P<x>[0-9A-Fa-f]{2})|(?P<space>[nrt]))")


def _decoded(m: re.Match[str]) -> str:
    """The escape's character, padded to the match's length: a space (a quote, a backslash, a surrogate) is a space; a
    currency sign (the one before the escape, or the one it encodes) goes last, against the number after it; any
    other character first, against what it follows ("25\\u00b0C" -> "25°")."""
    code = 32 if m.group("space") else int(m.group("u") or m.group("U") or m.group("x"), 16)
    char = chr(code) if code <= 0x10FFFF else "?"
    sign, width = m.group("sign"), len(m.group())
    # A quote or a backslash would end or escape the string around it; half of a surrogate pair ("\\ud83d", as JSON
    # escapes an emoji) is no character: no UTF-8 encoder, the tokenizer's included, takes it.
    if char in "\"'\\" or char.isspace() or unicodedata.category(char) in ("Cc", "Cf", "Cs", "Zs"):
        return sign.rjust(width)
    if unicodedata.category(char) == "Sc":
        return (sign + char).rjust(width)
    return (sign + char).ljust(width)


def decode_escapes(text: str) -> str:
    """``text`` with each escape sequence of a character read as that character, same length (see the module)."""
    return _ESCAPE.sub(_decoded, text) if "\\" in text else text
