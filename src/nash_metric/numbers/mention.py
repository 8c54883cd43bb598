"""The numeric mention record, the mask token, span masking and the one overlap rule.

A leaf module (stdlib only): the readers (``english``, ``chinese``), the scorer and the UI all share these,
and none of them should have to import an extractor to get them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

__all__ = ["MASK_TOKEN", "NumericMention", "mask_spans", "resolve_overlaps"]

MASK_TOKEN = "[NUM]"


@dataclass(frozen=True)
class NumericMention:
    """One numeric mention: ``text == source[start:end]``; ``value`` is finite, or None with ``error``.

    A date, month, quarter, half, fiscal year or time of day is one mention; ``period`` holds its calendar
    meaning and ``value`` its ``periods.period_value`` (decimal year, or decimal hours for a time).
    """

    text: str
    start: int
    end: int
    value: float | None
    kind: str  # "quantity" | "percentage" | "monetary" | "temporal"
    unit: str | None = None  # "%", "bp", an ISO 4217 code, a physical unit ("kg"), or None
    error: str | None = None
    period: str | None = None  # calendar meaning of a temporal mention ("2019-12-31", "2019-Q4"): see periods

    def to_dict(self) -> dict:
        return asdict(self)


def resolve_overlaps(mentions: list[NumericMention]) -> list[NumericMention]:
    """Keep a non-overlapping subset, sorted by start: longest span wins; ties: earlier start, then earlier
    in ``mentions`` (callers list their readers in priority order, so list order is the source tie-break).

    Linear in the text length: an occupancy map marks the characters already taken.
    """
    if len(mentions) < 2:
        return mentions
    order = sorted(range(len(mentions)), key=lambda i: (mentions[i].start - mentions[i].end, mentions[i].start, i))
    taken = bytearray(max(m.end for m in mentions))
    kept: list[NumericMention] = []
    for i in order:
        m = mentions[i]
        if taken.find(1, m.start, m.end) < 0:
            taken[m.start:m.end] = b"\x01" * (m.end - m.start)
            kept.append(m)
    return sorted(kept, key=lambda x: x.start)


def mask_spans(
    text: str, mentions: list[NumericMention], mask: str = MASK_TOKEN,
    connectors: Sequence[tuple[int, int]] = (),
) -> tuple[str, list[NumericMention]]:
    """Replace every mention's span with ``mask``; return the masked text and the mentions (sorted).

    The masked text holds ``mask`` exactly once per mention (the mixing weight counts them): a literal
    ``mask`` elsewhere in ``text`` is escaped (``[NUM]`` -> ``(NUM)``). Each ``(start, end)`` span of
    ``connectors`` (a range's connector between two mentions, ``extract.range_connectors``) becomes one
    space: ``5 to 10%`` -> ``[NUM] [NUM]``.
    Raises ValueError when mentions or connectors overlap or do not match ``text`` (another string's).
    """
    mentions = sorted(mentions, key=lambda x: x.start)
    cuts: list[tuple[int, int, NumericMention | None]] = [(m.start, m.end, m) for m in mentions]
    cuts = sorted(cuts + [(s, e, None) for s, e in connectors], key=lambda x: x[:2])
    parts: list[str] = []
    pos = 0
    for start, end, mention in cuts:
        if mention is None:
            if start < pos or end > len(text) or end <= start:
                raise ValueError(f"connector {start}:{end} overlaps a mention or is not in the text")
        elif start < pos or text[start:end] != mention.text:
            raise ValueError(f"mention {mention.text!r} at {start} overlaps or is not in the text")
        parts.append(_escape(text[pos:start], mask))
        parts.append(mask if mention is not None else " ")
        pos = end
    parts.append(_escape(text[pos:], mask))
    return "".join(parts), mentions


def _escape(part: str, mask: str) -> str:
    """``part`` with each literal ``mask`` rewritten in one pass: ``[NUM]`` -> ``(NUM)``. The rewrite is the
    mask's letters and digits (shorter than the mask) between brackets the mask does not use, so no new
    occurrence can form around it (``[[NUM]]`` -> ``[(NUM)]``)."""
    if not mask or mask not in part:
        return part
    core = "".join(ch for ch in mask if ch.isalnum())
    if len(core) >= len(mask):
        core = mask[:-1]
    brackets = (pair for pair in ("()", "<>", "{}", "«»", "⟨⟩") if pair[0] not in mask and pair[1] not in mask)
    left, right = next(brackets, ("", ""))
    return part.replace(mask, left + core + right)
