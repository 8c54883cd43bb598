"""The numeric mention record, the mask token, span masking and the one overlap rule.

A leaf module (stdlib only): the readers (``english``, ``chinese``), the scorer and the UI all share these,
and none of them should have to import an extractor to get them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

__all__ = ["MASK_TOKEN", "NumericMention", "mask_spans", "resolve_overlaps"]

MASK_TOKEN = "[NUM]"


@dataclass(frozen=True)
class NumericMention:
    """One numeric mention: ``text == source[start:end]``; ``value`` is finite, or None with ``error``."""

    text: str
    start: int
    end: int
    value: float | None
    kind: str  # "quantity" | "percentage" | "monetary" | "temporal"
    unit: str | None = None  # "%", "bp", an ISO 4217 code, or None
    error: str | None = None

    def to_dict(self) -> dict:
        return asdict(self)


def resolve_overlaps(mentions: list[NumericMention]) -> list[NumericMention]:
    """Keep a non-overlapping subset, sorted by start: longest span wins; ties: earlier start, then earlier
    in ``mentions`` (callers list their readers in priority order, so list order is the source tie-break).
    """
    if len(mentions) < 2:
        return mentions
    order = sorted(range(len(mentions)), key=lambda i: (-(mentions[i].end - mentions[i].start),
                                                        mentions[i].start, i))
    kept: list[NumericMention] = []
    for i in order:
        m = mentions[i]
        if all(m.end <= k.start or m.start >= k.end for k in kept):
            kept.append(m)
    return sorted(kept, key=lambda x: x.start)


def mask_spans(
    text: str, mentions: list[NumericMention], mask: str = MASK_TOKEN
) -> tuple[str, list[NumericMention]]:
    """Replace every mention's span with ``mask``; return the masked text and the mentions (sorted).

    Raises ValueError when mentions overlap or do not match ``text`` (they came from another string).
    """
    mentions = sorted(mentions, key=lambda x: x.start)
    parts: list[str] = []
    pos = 0
    for mention in mentions:
        if mention.start < pos or text[mention.start:mention.end] != mention.text:
            raise ValueError(f"mention {mention.text!r} at {mention.start} overlaps or is not in the text")
        parts.append(text[pos:mention.start])
        parts.append(mask)
        pos = mention.end
    parts.append(text[pos:])
    return "".join(parts), mentions
