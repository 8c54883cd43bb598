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
from dataclasses import replace

from ..config import NUMBER_READERS
from .calendar import calendar_mentions
from .chinese import extract_chinese_numbers
from .english import digit_mentions, written_mentions
from .mention import MASK_TOKEN, NumericMention, mask_spans, resolve_overlaps
from .normalize import normalize_digits
from .paper import paper_mentions

__all__ = ["extract_numbers", "mask_numbers", "masked_for_scoring", "reader_text"]

_CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


def reader_text(text: str, reader: str = "full") -> str:
    """The text a reader reads and the encoder sees: digits of other scripts as ASCII for the full reader."""
    return normalize_digits(text) if reader == "full" else text


def extract_numbers(text: str, reader: str = "full") -> list[NumericMention]:
    """Return the numeric mentions of ``text``, sorted by start and non-overlapping (rules: the ``calendar``,
    ``english``, ``chinese`` and ``paper`` module docs). Spans index ``text``; ``mention.text`` is its slice."""
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
    return [_finish(text, m) for m in resolve_overlaps(mentions)]


def _finish(text: str, m: NumericMention) -> NumericMention:
    """Give a bare year its period and the mention the original characters of its span."""
    period = m.period
    if (period is None and m.kind == "temporal" and m.value is not None and m.unit is None
            and m.text.isdigit() and len(m.text) == 4 and 1900 <= m.value <= 2100):
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
    """``text`` in the reader's view with its valued mentions masked: what a scoring call's text channel and
    IDF see (a mention without a value is reported, never masked)."""
    text = reader_text(text, reader)
    return mask_spans(text, [m for m in extract_numbers(text, reader) if m.value is not None])[0]
