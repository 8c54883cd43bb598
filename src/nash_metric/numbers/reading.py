"""What the English digit pass (``numbers.english``) and written-number grammar (``numbers.written``) share:
the candidate record, the text they read and the way back to the input's spans, and the sign and currency
around a number.

``read_mentions(text, candidates)`` runs a pass over ``normalize_digits(text)`` with the zero-width characters
(U+200B/C/D, U+2060, U+FEFF) and soft hyphens taken out, and maps spans back to ``text``: ``5\\u200b000`` is one
mention 5000 over all five characters.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from ..vocabulary.en import ANY_CODE, CURRENCY_WORDS, SYMBOLS
from .lexicon import (
    CUR_AFTER,
    INVISIBLE,
    INVISIBLE_RE,
    MINUS_WORD,
    OPERAND_BEFORE,
    PREFIX_CUR,
    RANGE_BEFORE,
    SIGN_AFTER,
    SIGNS,
)
from .mention import NumericMention
from .normalize import normalize_digits
from .numerals import to_float

__all__ = ["Candidate", "currency_after", "currency_before", "percent_unit", "read_mentions", "sign_before"]


@dataclass
class Candidate:
    """A mention under construction: the number and its scale's power of ten apart, since a range's first
    bound takes the second's scale (``5-10 million``)."""

    start: int
    end: int
    number: Decimal | None
    kind: str
    unit: str | None
    exp: int = 0
    negative: bool = False
    error: str | None = None


def read_mentions(text: str, candidates: Callable[[str], list[Candidate]]) -> list[NumericMention]:
    """The mentions ``candidates`` finds in the reader's view of ``text``, with spans and texts of ``text``."""
    work, keep = _prepare(text)
    out = []
    for c in candidates(work):
        if keep is not None:  # spans back to the input: "5\u200b000" is one mention over all five characters
            c.start, c.end = keep[c.start], keep[c.end - 1] + 1
        raw = text[c.start:c.end]
        value, error = to_float(c.number, c.exp, c.negative, raw)
        out.append(NumericMention(raw, c.start, c.end, value, c.kind, c.unit, c.error or error))
    return out


def _prepare(text: str) -> tuple[str, list[int] | None]:
    """The text the passes read: digits normalised (one for one) and invisible characters removed; with the
    position in ``text`` of each kept character when some were removed."""
    work = normalize_digits(text)
    if not INVISIBLE_RE.search(work):
        return work, None
    keep = [i for i, ch in enumerate(work) if ch not in INVISIBLE]
    return "".join(work[i] for i in keep), keep


def sign_before(text: str, start: int) -> tuple[bool, int] | None:
    """(negative, sign start) for a sign right before ``start``: ``-5``, ``–5``, ``−5``, ``+5``, ``minus 5``;
    None for a range hyphen (``5 - 10``), a binary minus (``10 minus 3``) or no sign."""
    ch = text[start - 1] if start else ""
    if ch and ch in SIGNS:
        before = text[start - 2] if start >= 2 else " "
        if (before.isspace() or before in SIGN_AFTER) and not RANGE_BEFORE.search(text, max(0, start - 4), start):
            return ch != "+", start - 1
    elif ch.isspace() and start >= 6 and text[start - 2] in "sS\t \u00a0":
        word = MINUS_WORD.search(text, max(0, start - 12), start)
        if word and not OPERAND_BEFORE.search(text, max(0, word.start() - 12), word.start()):
            return True, word.start()
    return None


def currency_before(text: str, start: int) -> tuple[str, int] | None:
    """(ISO code, start) of a currency right before ``start``, glued or after one space: ``$5``, ``EUR 5``,
    ``euro3``; None if there is none."""
    ch = text[start - 1] if start else ""
    if ch.isspace() and start >= 2:
        ch = text[start - 2]
    if not (ch.isalpha() or ch in "$€£¥₹₩₽"):  # cheap test: what a code or symbol can end with
        return None
    c = PREFIX_CUR.search(text, max(0, start - 7), start)
    if c is None:
        return None
    code = c["code"] or ""
    return ANY_CODE.get(code) or SYMBOLS.get(c["sym"] or code, "EUR"), c.start()


def currency_after(text: str, end: int) -> tuple[str, int] | None:
    """(ISO code, end) of a currency code or word right after ``end``: ``5 EUR``, ``100USD``, ``5 euros``."""
    c = CUR_AFTER.match(text, end)
    if c is None:
        return None
    code = ANY_CODE[c["code"]] if c["code"] else CURRENCY_WORDS[c["word"].lower()]
    return code, c.end()


def percent_unit(m: re.Match[str]) -> str:
    """The unit of a match of ``lexicon.UNIT_AFTER`` or ``PCT_AFTER_SCALE`` that found a percent or bp."""
    return "%" if m["pct"] else "bp"
