"""``extract_numbers``: every reader's mentions merged into one non-overlapping list, and masking on top.

The English reader always runs (written numbers only when the text has letters); the Chinese reader runs
on text containing CJK characters. Candidates are listed digits, written, Chinese, so that
``resolve_overlaps`` breaks equal-span ties in that order.
"""

from __future__ import annotations

import math
import re

from .chinese import extract_chinese_numbers
from .english import digit_mentions, written_mentions
from .mention import MASK_TOKEN, NumericMention, mask_spans, resolve_overlaps

__all__ = ["extract_numbers", "mask_numbers"]

_CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


def extract_numbers(text: str) -> list[NumericMention]:
    """Return the numeric mentions of ``text``, sorted by start and non-overlapping (rules: ``english`` and
    ``chinese`` module docs)."""
    if not isinstance(text, str):
        raise TypeError(f"extract_numbers expects str, got {type(text).__name__}")
    mentions = digit_mentions(text)
    if any(ch.isalpha() for ch in text):
        mentions += written_mentions(text)
        if _CJK.search(text):
            mentions += [_check_chinese(text, m) for m in extract_chinese_numbers(text)]
    return resolve_overlaps(mentions)


def _check_chinese(text: str, m: NumericMention) -> NumericMention:
    # The Chinese reader works on a normalised copy of the text: guard the span and value invariants.
    if text[m.start:m.end] != m.text or (m.value is not None and not math.isfinite(m.value)):
        raise ValueError(f"the Chinese reader returned an inconsistent mention {m!r}")
    return m


def mask_numbers(
    text: str, mentions: list[NumericMention] | None = None, mask: str = MASK_TOKEN
) -> tuple[str, list[NumericMention]]:
    """Replace every mention's span with ``mask``; return the masked text and the mentions (sorted).

    ``mentions`` defaults to ``extract_numbers(text)``; ValueError if they overlap or are not in ``text``.
    """
    return mask_spans(text, extract_numbers(text) if mentions is None else mentions, mask)
