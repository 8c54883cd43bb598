"""Blank texts: scored 0 on every channel, as bert-score scores an empty candidate or reference.

A text is blank when ``text.strip() == ""`` ("", "   ", "\\n"). One empty generation must not stop the
evaluation of 10,000 pairs, so a blank prediction or reference is scored, not refused, and the call warns once
with the count (`BlankTextWarning`). The rule, applied to the raw scores of every pair whose prediction or
reference is blank (`zero_blank_pairs`):

- nash, text, numeric and baseline, each with its precision and recall, are 0: an empty text matches nothing,
  not even another empty text (bert-score: "Empty candidate sentence detected; setting raw BERTScores to 0",
  and likewise for an empty reference, empty against empty included);
- alpha is 1.0: a blank text has no number tokens;
- numeric_support is left as the engine computes it (1.0: an empty prediction states no unsupported figure).

Rescaling (`rescale_with_baseline`) follows bert-score, which zeroes the *raw* scores and then rescales them:
a blank pair's rescaled nash, text and baseline fields read (0 - b) / (1 - b) (below 0 for b > 0), as bert-score's
rescaled F of an empty candidate does; its number fields and alpha are never rescaled and stay 0 and 1.

A text whose *text-channel form* is empty (a text made only of numbers, ``"4%"``) is not blank: its text
channel compares two empty forms as equal (`similarity.text_similarity`) and its numbers are scored.

numpy is imported where it is used, so the file readers (`pair_files`) can import the warning cheaply.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import numpy as np

# Every score field a blank pair reads 0 on (`output.SCORE_FIELDS` less alpha and numeric_support).
ZEROED_FIELDS = (
    "nash", "nash_precision", "nash_recall", "text", "text_precision", "text_recall",
    "numeric", "numeric_precision", "numeric_recall", "baseline", "baseline_precision", "baseline_recall",
)

Output = TypeVar("Output")  # a NASHOutput (not imported: output.py may import this module)


class BlankTextWarning(UserWarning):
    """Some texts of a scoring call were blank and scored 0 (filter this category to silence it)."""


def is_blank(text: str) -> bool:
    return not text.strip()


def blank_texts(texts: Sequence[str]) -> np.ndarray:
    """Per text, whether it is blank (``str.strip() == ""``)."""
    import numpy as np

    return np.fromiter((is_blank(t) for t in texts), dtype=bool, count=len(texts))


def blank_pairs(predictions: Sequence[str], references: Sequence[str]) -> np.ndarray:
    """Per pair, whether its prediction or its reference is blank: the pairs `zero_blank_pairs` zeroes."""
    if len(predictions) != len(references):
        raise ValueError(f"{len(predictions)} predictions but {len(references)} references")
    return blank_texts(predictions) | blank_texts(references)


def zero_blank_pairs(out: Output, blank: np.ndarray | None) -> Output:
    """`out` (a NASHOutput of raw, unrescaled scores) with the blank pairs' fields at 0 and their alpha at 1.

    Returns `out` itself when no pair is blank, so scores without blank texts are untouched bit for bit.
    """
    if blank is None or not blank.any():
        return out
    import numpy as np

    changed = {name: np.where(blank, 0.0, getattr(out, name)) for name in ZEROED_FIELDS
               if getattr(out, name) is not None}  # the baseline is None unless asked for
    return replace(out, **changed, alpha=np.where(blank, 1.0, out.alpha))


@dataclass(frozen=True)
class BlankCount:
    """How many blank texts a call held, and the index of the first pair with one (None when there is none)."""

    predictions: int = 0
    references: int = 0
    first: int | None = None

    @property
    def texts(self) -> int:
        return self.predictions + self.references

    def __add__(self, other: BlankCount) -> BlankCount:
        firsts = [i for i in (self.first, other.first) if i is not None]
        return BlankCount(self.predictions + other.predictions, self.references + other.references,
                          min(firsts) if firsts else None)

    def message(self) -> str:
        return (f"{_plural(self.texts, 'blank text')} ({_plural(self.predictions, 'prediction')}, "
                f"{_plural(self.references, 'reference')}) scored 0 on every channel, as bert-score does; first at "
                f"pair index {self.first}")

    def warn(self, stacklevel: int = 2) -> None:
        """One `BlankTextWarning` with the counts, when there is any blank text."""
        if self.texts:
            warnings.warn(self.message(), BlankTextWarning, stacklevel=stacklevel + 1)


def count_blank(predictions: Sequence[str], references: Sequence[str], groups: Sequence[int] | None = None,
                offset: int = 0) -> BlankCount:
    """The blank texts of a call's flat pairs; `groups` (references per prediction) counts each prediction once.

    Pair indices are prediction indices, counted from `offset` (a chunk's start in a stream).
    """
    import numpy as np

    if groups is None:
        owner = np.arange(len(predictions))
        first_of_group = np.ones(len(predictions), dtype=bool)
    else:
        owner = np.repeat(np.arange(len(groups)), groups)
        first_of_group = np.zeros(len(predictions), dtype=bool)
        first_of_group[np.cumsum([0, *groups[:-1]]).astype(np.int64)] = True
    preds, refs = blank_texts(predictions), blank_texts(references)
    either = preds | refs
    first = int(owner[np.argmax(either)]) + offset if either.any() else None
    return BlankCount(int((preds & first_of_group).sum()), int(refs.sum()), first)


def count_blank_corpus(predictions: Sequence[str], references: Sequence[str] | Sequence[Sequence[str]]) -> BlankCount:
    """`count_blank` of a corpus whose references are one str, or one list of str, per prediction."""
    if not references or isinstance(references[0], str):
        return count_blank(predictions, references)
    groups = [len(refs) for refs in references]
    flat = [p for p, refs in zip(predictions, references) for _ in refs]
    return count_blank(flat, [r for refs in references for r in refs], groups)


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"
