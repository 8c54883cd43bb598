"""NQuAD's reading of Chinese text, shared by both builders and the evaluation: sentences (each option is shown
with the body sentence that contains it) and numerals with their values."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ...numbers import NumericMention, extract_chinese_numbers, extract_numbers, resolve_overlaps

__all__ = ["Sentence", "avg_option_diff", "ends_sentence", "mention_at", "mentions", "split_sentences_zh",
           "value_key"]


@dataclass(frozen=True)
class Sentence:
    """One sentence of a text: ``text == source[start:end]`` (surrounding whitespace excluded)."""

    text: str
    start: int
    end: int


_END = r"[。！？；!?;]+[”’」』）)》]*"
_SENTENCE_END = re.compile(rf"{_END}|\n+")
_ENDS_SENTENCE = re.compile(rf"{_END}$")


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


def ends_sentence(text: str) -> bool:
    """``text`` ends in the punctuation ``split_sentences_zh`` splits on (closing quotes allowed after it)."""
    return _ENDS_SENTENCE.search(text.rstrip()) is not None


def mentions(text: str) -> list[NumericMention]:
    """``extract_numbers`` merged with the Chinese extractor (longest span wins).

    On CJK text this equals ``extract_numbers`` (which already runs the Chinese reader); the explicit merge
    also applies the Chinese rules to text without CJK characters.
    """
    return resolve_overlaps([*extract_numbers(text), *extract_chinese_numbers(text)])


def mention_at(text: str, start: int, end: int) -> NumericMention | None:
    """The first valued mention of ``text`` overlapping ``text[start:end]``: how the reader sees a numeral in its
    sentence (``35`` before ``%`` is a percentage; ``五`` before ``倍`` a number), or None."""
    return next((m for m in mentions(text) if m.value is not None and m.start < end and m.end > start), None)


def value_key(v: float) -> float:
    """Values equal to 12 significant digits are one value: 0.1+0.2 and 0.3 are the same option."""
    return float(f"{v:.12g}")


def avg_option_diff(values: Sequence[float], answer: int) -> float:
    """Mean abs(v - answer value) over the distractors, divided by max(abs(answer value), 1) (the paper's Table 6
    bins the same quantity)."""
    a = values[answer]
    distractors = [v for i, v in enumerate(values) if i != answer]
    return sum(abs(v - a) for v in distractors) / len(distractors) / max(abs(a), 1.0)
