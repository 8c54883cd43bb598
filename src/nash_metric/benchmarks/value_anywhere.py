r"""The value-anywhere check: what a user writes in ten lines instead of a figure verdict.

Every digit string of the prediction (thousands commas removed; a list label that opens a line, ``5) `` or
``2. ``, skipped) is looked up among the digit strings of the source by value (``7.50`` finds ``7.5``). A
prediction is supported when every one is found. Benchmarks that judge a figure verdict show this check beside
it, so the gap to it stays visible; `tests/unit/test_value_anywhere.py` pins it with fixed cases, so it cannot
drift weaker.
"""

from __future__ import annotations

import re
from decimal import Decimal

__all__ = ["blank_list_labels", "digit_values", "value_anywhere", "value_anywhere_share"]

_DIGIT_STRING = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
_LIST_LABEL = re.compile(r"^[ \t]*\(?\d{1,2}[.)][ \t]+", re.MULTILINE)


def blank_list_labels(text: str) -> str:
    """`text` with each list label that opens it or a line ("5) ", "2. ", "(3) ") blanked, offsets kept."""
    return _LIST_LABEL.sub(lambda m: " " * len(m.group()), text)


def digit_values(text: str, skip_list_labels: bool = True) -> list[Decimal]:
    """The value of each digit string of `text`, in order (``1,146.2`` -> 1146.2)."""
    if skip_list_labels:
        text = blank_list_labels(text)
    return [Decimal(m.group().replace(",", "")).normalize() for m in _DIGIT_STRING.finditer(text)]


def value_anywhere_share(prediction: str, source: str) -> float:
    """The share of the prediction's digit strings whose value the source states anywhere (1.0 when none)."""
    wanted = digit_values(prediction)
    if not wanted:
        return 1.0
    stated = set(digit_values(source, skip_list_labels=False))
    return sum(v in stated for v in wanted) / len(wanted)


def value_anywhere(prediction: str, source: str) -> bool:
    """True when every digit string of the prediction is found, by value, anywhere in the source."""
    return value_anywhere_share(prediction, source) == 1.0
