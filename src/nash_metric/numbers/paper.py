"""The paper's number reader (``numbers="paper"``): the scope of the authors' toolkit, read as it reads it.

So that scores can be compared with the toolkit (cnclabs/toolkit.fin.nash) number for number, this reader
keeps its scope and its readings, quirks included:

* a token is an optional currency symbol (``$ € £ ¥``), an optional sign, digits with optional ``,``
  thousands groups and one decimal part, or a leading-dot decimal (``.26``), then an optional ordinal
  suffix (``3rd``), then an optional glued ``%``, ``bp``/``bps`` or ``k``/``m``/``b`` (either case, scaling
  by 10^3/10^6/10^9); it must not be followed by a letter, digit or underscore;
* there is no left boundary: ``COVID-19`` gives −19 and the range ``60-70`` gives 60 and −70;
* scale words are not read: ``1.5 million`` is 1.5; spaced units (``5.2 %``), dates, written numbers and
  accounting negatives are out of scope (a date is several numbers).

Where it must differ, it says so instead of guessing: a malformed token (``1.2.3``, which the toolkit reads
as 1.2 and 0.3), scientific notation (``1e400``, read as 400) and a value that overflows a float are
mentions without a value, with ``error`` set: never scored, reported by ``unscored``.
"""

from __future__ import annotations

import math
import re

from .mention import NumericMention

__all__ = ["paper_mentions"]

_TOKEN = re.compile(
    r"(?P<cur>[$€£¥])?(?:(?P<lead>\.\d+(?:\.\d+)?)"  # a leading-dot decimal takes no sign
    r"|(?P<sign>[+-])?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?))"
    r"(?:st|nd|rd|th)?(?P<suf>%|bps|bp|[kKmMbB])?(?!\w)"
)
_SCALE = {"k": 1e3, "m": 1e6, "b": 1e9}
_CURRENCY = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY"}
_MORE_DECIMALS = re.compile(r"(?:\.\d+)+")
# "1e400", "2.5E-3": the toolkit reads 400 and 2 and -3
_SCIENTIFIC = re.compile(r"(?<![\w.])[$€£¥]?[+-]?(?:\d[\d,]*(?:\.\d+)*|\.\d+(?:\.\d+)*)[eE][+-]?\d+(?!\w)")




def paper_mentions(text: str) -> list[NumericMention]:
    """The toolkit-scope mentions of ``text``, in order (rules: module doc)."""
    out = [NumericMention(m.group(), m.start(), m.end(), None, "quantity", None,
                          f"{m.group()!r}: scientific notation is outside the paper reader's scope")
           for m in _SCIENTIFIC.finditer(text)]
    taken = [(m.start, m.end) for m in out]
    pos = 0
    for m in _TOKEN.finditer(text):
        if m.start() < pos or any(s < m.end() and m.start() < e for s, e in taken):
            continue
        number = m["lead"] or m["num"]
        suffix = m["suf"]
        unit = "%" if suffix == "%" else "bp" if suffix in ("bp", "bps") else None
        kind = "percentage" if unit else "monetary" if m["cur"] else "quantity"
        start, end, error = m.start(), m.end(), None
        more = _MORE_DECIMALS.match(text, end)
        value: float | None = None
        if number.count(".") > 1 or more:  # ".02.2011" would not even parse as a float
            end = more.end() if more else end
            error = f"malformed number {text[start:end]!r}: more than one decimal point"
        elif not math.isfinite(value := float((m["sign"] or "") + number.replace(",", ""))
                               * _SCALE.get((suffix or "").lower(), 1)):
            value, error = None, f"{m.group()!r} overflows a float"
        pos = end
        out.append(NumericMention(text[start:end], start, end, value, kind,
                                  _CURRENCY.get(m["cur"] or "") if kind == "monetary" else unit, error))
    return sorted(out, key=lambda x: x.start)
