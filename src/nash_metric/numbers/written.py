"""Written English numbers: ``twenty-four``, ``two hundred and five``, ``a hundred``, ``minus five``.

``written_mentions(text)`` is one left-to-right pass (``reading.read_mentions``: digits normalised, zero-width
characters read through). A run of number words is split into numbers by a small grammar that reads each
word once (linear in the text):

* ``twenty-four``, ``two hundred and five``, ``three million``, ``a hundred``, ``nineteen hundred``,
  ``two thousand million``; scale words must decrease (``two million three thousand``), and a run that breaks
  the grammar is split (``twenty twenty`` -> 20, 20).
* A bare scale word (``several hundred``, ``millions``) is not a number. A lone ``one`` is a number only when
  a unit follows (``one percent``, ``one million``, ``one euro``) or ``minus`` precedes: ``one of the``,
  ``no one``, ``one-off`` are not. Ordinal words (``second``, ``twenty-first``) are never numbers.
* A percent or bp after the number (``five percent``) or a currency before or after it (``five euros``,
  ``$ five``) joins the mention, as for digits (``numbers.english``).
"""

from __future__ import annotations

import re
from decimal import Decimal

from ..vocabulary.en import NUMBER_WORDS, ORDINAL_WORDS, SCALE_EXPONENTS, SCALE_WORDS, TENS_WORDS
from .lexicon import PCT_AFTER_SCALE
from .mention import NumericMention
from .reading import Candidate, currency_after, currency_before, percent_unit, read_mentions, sign_before

__all__ = ["written_mentions"]

# A run of number words; _parse_written splits it into numbers. Longest alternatives first (eighteen before
# eight, eighty before eight), so the engine never backtracks across words.
_NUMBER_W, _TEENS_W = "|".join(NUMBER_WORDS), "|".join(NUMBER_WORDS[11:])
_TENS_W, _SCALES_W = "|".join(TENS_WORDS), "|".join(SCALE_WORDS)
_NUMWORD = rf"(?:{_TENS_W}|{_TEENS_W}|{_NUMBER_W}|{_SCALES_W})"
_WRITTEN = re.compile(
    rf"(?i)(?<![A-Za-z])(?:a\s+(?={_SCALES_W}))?{_NUMWORD}(?:(?:\s+and\s+|[\s-]+){_NUMWORD})*(?![A-Za-z])"
)
_ORDINAL_TAIL = re.compile(r"-(?i:" + "|".join(ORDINAL_WORDS) + r")\b")
_WORD_RE = re.compile(r"[A-Za-z]+")
# word -> (category, value): u 1-9, t 10-19, z zero, x tens, h hundred, s thousand and up, & "and", a "a"
_W = ({w: ("u", i) for i, w in enumerate(NUMBER_WORDS[1:10], 1)}
      | {w: ("t", i) for i, w in enumerate(NUMBER_WORDS[10:], 10)}
      | {w: ("x", 10 * i) for i, w in enumerate(TENS_WORDS, 2)}
      | {w: ("h" if w == "hundred" else "s", 10 ** SCALE_EXPONENTS[w]) for w in SCALE_WORDS}
      | {"zero": ("z", 0), "and": ("&", 0), "a": ("a", 1)})


def written_mentions(text: str) -> list[NumericMention]:
    """Mentions written as English words (``twenty-four``, ``a hundred``), in text order."""
    return read_mentions(text, _written_candidates)


def _written_candidates(text: str) -> list[Candidate]:
    out: list[Candidate] = []
    for m in _WRITTEN.finditer(text):
        phrases = _parse_written(text, m)
        if phrases and phrases[-1][1] == m.end() and _ORDINAL_TAIL.match(text, m.end()):
            phrases.pop()  # "twenty-first" is an ordinal
        out += [c for phrase in phrases if (c := _candidate(text, *phrase)) is not None]
    return out


def _candidate(text: str, start: int, end: int, value: int) -> Candidate | None:
    """The mention of one written number with its percent or currency and its "minus"; None for a lone
    "one" (a pronoun or article: "one of the") with no unit."""
    unit: str | None = None
    kind = "quantity"
    if pct := PCT_AFTER_SCALE.match(text, end):
        kind, unit, end = "percentage", percent_unit(pct), pct.end()
    elif cur := currency_after(text, end):
        kind, (unit, end) = "monetary", cur
    sign = sign_before(text, start)
    negative = sign is not None and text[sign[1]] in "mM"  # "minus five"; "-five" is rare, left alone
    if negative:
        start = sign[1]
    elif unit is None and text[start:end].lower() == "one":
        return None
    if unit is None and (before := currency_before(text, start)):
        kind, (unit, start) = "monetary", before
    return Candidate(start, end, Decimal(value), kind, unit, negative=negative)


class _Phrase:
    """A written number read left to right: ``total`` (closed scale groups) + ``hundreds`` + ``small``."""

    __slots__ = ("amp", "end", "hundreds", "last", "small", "start", "top", "total")

    def __init__(self, start: int, end: int, cat: str, value: int) -> None:
        self.start, self.end, self.last, self.amp = start, end, cat, False
        self.total = self.hundreds = self.top = 0  # top: the last scale word; scales must decrease
        self.small = value

    def add(self, cat: str, value: int, end: int) -> bool:
        """Take the next word if the phrase stays a number; False ends the phrase before it (and a pending
        "and")."""
        last = self.last
        if cat in "utx" and (self.amp or last in "hs" or (cat == "u" and last == "x")):
            self.small = self.small + value if last == "x" else value
        elif self.amp:
            return False
        elif cat == "h" and last in "utxa" and not self.hundreds and (self.small < 10 or not self.top):  # 1900
            self.hundreds, self.small = self.small * 100, 0
        elif cat == "s" and last in "utxha" and (not self.top or value < self.top):
            self.total += (self.hundreds + self.small) * value
            self.hundreds = self.small = 0
            self.top = value
        elif cat == "s" and last == "s" and value > self.top and self.total < value:  # "two thousand million"
            self.total *= value
            self.top = value
        elif cat == "&" and last in "hs":
            self.amp = True
            return True
        else:
            return False
        self.last, self.end, self.amp = cat, end, False
        return True

    def result(self) -> tuple[int, int, int] | None:
        return None if self.last == "a" else (self.start, self.end, self.total + self.hundreds + self.small)


def _parse_written(text: str, m: re.Match[str]) -> list[tuple[int, int, int]]:
    """Split a run of number words into the longest numbers, left to right in one pass: (start, end, value).
    A phrase starts with a digit word, a tens word, zero or "a" (``a hundred``); a bare scale word
    (``several hundred``) is not a number."""
    out: list[tuple[int, int, int]] = []
    phrase: _Phrase | None = None
    for w in _WORD_RE.finditer(text, m.start(), m.end()):
        cat, value = _W[w.group().lower()]
        if phrase is not None and phrase.add(cat, value, w.end()):
            continue
        if phrase is not None and (res := phrase.result()):
            out.append(res)
        phrase = _Phrase(w.start(), w.end(), cat, value) if cat in "utxza" else None
    if phrase is not None and (res := phrase.result()):
        out.append(res)
    return out

