"""``extract_numbers``: every reader's mentions merged into one non-overlapping list, and masking on top.

Two readers (``NASHConfig.numbers``):

* ``"full"`` (default): digits of other scripts are read as ASCII digits (``normalize_digits``, one
  character for one, so spans hold); the calendar reader (a date, month, quarter, half, fiscal year or
  time of day is one mention with a ``period``), the English digit reader and, on text with letters, the
  written-number reader always run; the Chinese reader runs on text containing CJK characters. A bare
  year the digit reader marks temporal gets its ``period``. Candidates are listed calendar, digits,
  written, Chinese, so that ``resolve_overlaps`` ("longest span wins") breaks equal-span ties in that order.
* ``"paper"``: the paper's scope, as the authors' toolkit reads it (``numbers.paper``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import replace
from itertools import pairwise

from ..config import NUMBER_READERS
from .calendar import calendar_mentions, is_year
from .chinese import extract_chinese_numbers
from .english import digit_mentions
from .mention import MASK_TOKEN, NumericMention, mask_spans, resolve_overlaps
from .normalize import decode_escapes, normalize_digits
from .paper import paper_mentions
from .written import written_mentions

__all__ = ["extract_numbers", "mask_numbers", "masked_for_scoring", "range_connectors", "reader_text"]

# A range's connector: a dash (hyphen-minus, U+2010/2011 hyphens, figure, en and em dash, horizontal bar,
# minus sign) or a tilde between spaces, or a connector word between spaces (see range_connectors).
_CONNECTOR = re.compile(r"\s{0,3}[-\u2010-\u2015\u2212~\u301c\uff5e]\s{0,3}"
                        r"|\s{1,3}(?P<word>(?i:to|through|thru|and))\s{1,3}")
_BETWEEN_BEFORE = re.compile(r"(?<![^\W_])(?i:between)\s{1,3}\Z")
_CHANGE_BEFORE = re.compile(  # "increased by 2.2 % to 24.2 %": a change, not a range
    r"(?<![^\W_])(?i:by|up|down|(?:increas|decreas|declin|improv|reduc|rais|lower|climb|gain|jump|dropp|slipp)ed"
    r"|rose|fell|grew|lost|cut|slid)\s{1,3}\Z")
_CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


def reader_text(text: str, reader: str = "full") -> str:
    """The text a reader reads and the encoder sees: for the full reader, digits of other scripts as ASCII and the
    escape sequences of data written as text as their characters (`normalize`)."""
    return decode_escapes(normalize_digits(text)) if reader == "full" else text


def extract_numbers(text: str, reader: str = "full") -> list[NumericMention]:
    """Return the numeric mentions of ``text``, sorted by start and non-overlapping (rules: the ``calendar``,
    ``english``, ``written``, ``chinese`` and ``paper`` module docs). Spans index ``text``; ``mention.text`` is
    its slice."""
    if not isinstance(text, str):
        raise TypeError(f"extract_numbers expects str, got {type(text).__name__}")
    if reader == "paper":
        return paper_mentions(text)
    if reader != "full":
        raise ValueError(f"unknown number reader {reader!r}; expected one of {', '.join(NUMBER_READERS)}")
    read = normalize_digits(text)
    mentions = calendar_mentions(read) + digit_mentions(read)
    if any(ch.isalpha() for ch in read):
        mentions += written_mentions(read)
        if _CJK.search(read):
            mentions += [_check_chinese(read, m) for m in extract_chinese_numbers(read)]
    return _ranges_share_units(text, [_finish(text, m) for m in resolve_overlaps(mentions)])


def _ranges_share_units(text: str, mentions: list[NumericMention]) -> list[NumericMention]:
    """A range joined by a word (``5 to 10%``, ``between 5 and 10%``) reads its first bound in the second's
    unit, as the reader does for a dash (``5-10%``): both bounds are figures of one kind."""
    first = {a_end: b_start for a_end, b_start in range_connectors(text, mentions)}
    out = list(mentions)
    for k, (a, b) in enumerate(pairwise(mentions)):
        if first.get(a.end) == b.start and a.unit is None and b.unit is not None and a.kind == "quantity":
            out[k] = replace(a, unit=b.unit, kind=b.kind)
    return out


def _finish(text: str, m: NumericMention) -> NumericMention:
    """Give a bare year its period and the mention the original characters of its span."""
    period = m.period
    if (period is None and m.kind == "temporal" and m.value is not None and m.unit is None
            and m.text.isdigit() and len(m.text) == 4 and is_year(m.value)):
        period = m.text
    raw = text[m.start:m.end]
    return m if (period, raw) == (m.period, m.text) else replace(m, period=period, text=raw)


def _check_chinese(text: str, m: NumericMention) -> NumericMention:
    # The Chinese reader works on a normalised copy of the text: guard the span and value invariants.
    if text[m.start:m.end] != m.text or (m.value is not None and not math.isfinite(m.value)):
        raise ValueError(f"the Chinese reader returned an inconsistent mention {m!r}")
    return m


def mask_numbers(
    text: str, mentions: list[NumericMention] | None = None, mask: str = MASK_TOKEN, reader: str = "full"
) -> tuple[str, list[NumericMention]]:
    """Replace every mention's span with ``mask``; return the masked text and the mentions (sorted).

    ``mentions`` defaults to ``extract_numbers(text, reader)``; ValueError if they overlap or are not in
    ``text``. (The scorer masks only the mentions with a value: ``masked_for_scoring``.)
    """
    return mask_spans(text, extract_numbers(text, reader) if mentions is None else mentions, mask)


def masked_for_scoring(text: str, reader: str = "full") -> str:
    """``text`` in the reader's view with its valued mentions masked: what a scoring call's mixing weight
    and IDF see (a mention without a value is reported, never masked). The full reader also writes a
    range's connector as one space (``range_connectors``); the paper reader keeps it, as the toolkit does."""
    text = reader_text(text, reader)
    valued = [m for m in extract_numbers(text, reader) if m.value is not None]
    return mask_spans(text, valued, connectors=range_connectors(text, valued) if reader == "full" else ())[0]


def range_connectors(text: str, mentions: Sequence[NumericMention]) -> list[tuple[int, int]]:
    """Spans of the connectors that join two consecutive ``mentions`` (``text``'s, sorted) into a range,
    spaces included; the mentions themselves, their spans and values, are unchanged.

    A connector is the whole gap between the two bounds: one dash or tilde within at most three spaces a
    side (``5-10%``, ``5 – 10%``, ``$5-$10 million``, ``2019-20``; a dash between two numbers is never a
    sign, so ``3-2`` and identifiers such as ``ASU 2016-02`` lose their hyphen too), or ``to``, ``through``,
    ``thru`` (``from 5 to 10%``: "from" stays), or ``and`` right after ``between`` (``between 5 and 10%``;
    a bare ``5 and 7`` is a list). The bounds must read as one quantity: the same unit, a first bound
    without one (it takes the second's: ``5 to 10%``), or an amount of money then a bare number (``$5 to
    10 million``). A word or a spaced dash also needs both bounds to be dates or neither (``in 2009 to
    15 %``, ``Nov 9, 2009 - Four companies``), and ``to`` is a change, not a range, after ``by`` or a verb
    of change when the first bound has its own unit (``increased $8.6 million to $24.9 million``,
    ``up 18.5 % to EUR 167.8 mn``): these keep their words, as does ``revenue of 5 and profit of 7``.
    """
    out = []
    for a, b in pairwise(mentions):
        gap = _CONNECTOR.fullmatch(text, a.end, b.start)
        if gap is None or not _one_quantity(a, b):
            continue
        word = (gap["word"] or "").lower()
        spaced = bool(word) or (gap.group()[:1].isspace() and gap.group()[-1:].isspace())
        if spaced and (a.kind == "temporal") != (b.kind == "temporal"):
            continue
        if word == "and" and not _BETWEEN_BEFORE.search(text, max(0, a.start - 12), a.start):
            continue
        if word and word != "and" and a.unit is not None and _CHANGE_BEFORE.search(text, max(0, a.start - 14),
                                                                                     a.start):
            continue
        out.append((a.end, b.start))
    return out


def _one_quantity(a: NumericMention, b: NumericMention) -> bool:
    return (a.unit == b.unit or a.unit is None
            or (b.unit is None and a.kind == "monetary" and b.kind not in ("temporal", "percentage")))
