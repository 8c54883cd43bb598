"""NQuAD's Chinese sentence splitter: each option is shown with the body sentence that contains it."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Sentence", "split_sentences_zh"]


@dataclass(frozen=True)
class Sentence:
    """One sentence of a text: ``text == source[start:end]`` (surrounding whitespace excluded)."""

    text: str
    start: int
    end: int


_SENTENCE_END = re.compile(r"[。！？；!?;]+[”’」』）)》]*|\n+")


def split_sentences_zh(text: str) -> list[Sentence]:
    """Split on 。！？； (and ASCII !?; and newlines); closing quotes stay with their sentence."""
    out: list[Sentence] = []
    pos = 0
    for m in [*_SENTENCE_END.finditer(text), None]:
        end = m.end() if m else len(text)
        piece = text[pos:end]
        stripped = piece.strip()
        if stripped:
            start = pos + piece.index(stripped)
            out.append(Sentence(stripped, start, start + len(stripped)))
        pos = end
    return out
