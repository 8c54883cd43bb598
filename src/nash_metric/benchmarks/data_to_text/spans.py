"""Character spans: the tokens of a tokenised text located in it or in its detokenised form, and overlap.

A label given on tokens (Rotowire's gold errors: document token indices) becomes a character span of the text that
is scored, so that it can be compared with the figures' character spans.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

Span = tuple[int, int]  # [start, end) character offsets

_TOKEN = re.compile(r"\S+")
# Characters the detokenised text may hold between two tokens beyond whitespace ("DJ. Augustin" for the tokens
# "DJ" "Augustin"): punctuation only, a few at a time, so that a word is never skipped.
MAX_SKIPPED = 2


def token_spans(text: str) -> list[Span]:
    """The character span of each whitespace-separated token of ``text``."""
    return [m.span() for m in _TOKEN.finditer(text)]


@dataclass(frozen=True)
class Alignment:
    """Where each token stands in a text, or why it could not be placed.

    ``spans``: per token its span (None when the alignment failed); ``skipped``: the characters of the text
    between tokens that no token holds and that are not whitespace (``"."`` of ``"DJ."``); ``failure``: what failed
    (None when every token was found).
    """

    spans: list[Span] | None
    skipped: int = 0
    failure: str | None = None


def _skippable(char: str) -> bool:
    return not char.isspace() and not char.isalnum()


def locate_tokens(tokens: Sequence[str], text: str, max_skipped: int = MAX_SKIPPED) -> Alignment:
    """Each token of ``tokens`` found in ``text`` in order, whitespace between them free; at most ``max_skipped``
    punctuation characters may stand before a token (or after the last) that no token holds. Anything else (a
    changed word, a token out of order, a word left over) fails the whole alignment."""
    spans: list[Span] = []
    at, skipped = 0, 0
    for k, token in enumerate(tokens):
        extra = 0
        while True:
            while at < len(text) and text[at].isspace():
                at += 1
            if text.startswith(token, at):
                break
            if extra < max_skipped and at < len(text) and _skippable(text[at]):
                at, extra = at + 1, extra + 1
                continue
            return Alignment(None, skipped, f"token {k + 1} {token!r} not found at character {at} "
                                            f"(the text there: {text[at:at + 30]!r})")
        skipped += extra
        spans.append((at, at + len(token)))
        at += len(token)
    rest = text[at:].strip()
    if len(rest) > max_skipped or not all(_skippable(c) for c in rest):
        return Alignment(None, skipped, f"text left after the last token: {rest[:30]!r}")
    return Alignment(spans, skipped + len(rest))


def token_range(spans: Sequence[Span], first: int, last: int) -> Span:
    """The characters from token ``first`` to token ``last`` (0-based, inclusive)."""
    return spans[first][0], spans[last][1]


def overlaps(a: Span, b: Span) -> bool:
    """Whether the spans share a character."""
    return a[0] < b[1] and b[0] < a[1]


def overlaps_any(span: Span, others: Sequence[Span]) -> bool:
    return any(overlaps(span, other) for other in others)
