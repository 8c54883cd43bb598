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
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["normalize_digits"]

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
