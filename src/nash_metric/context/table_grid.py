"""The raw grid each table reader yields, and the cell tests the readers and `tables` share.

A reader only finds a table block and cuts it into rows of cells with their spans in the original text;
`tables` decides what the cells mean (header rows, `$` gap columns, row labels, sections, scale).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Literal, NamedTuple

from ..numbers.calendar import HEADER_CELL_YEARS, year_pattern
from ..vocabulary.en import CELL_SCALES

Format = Literal["markdown", "html", "delimited", "columns", "json", "jsonl"]


class RawCell(NamedTuple):
    """One cell as written: whitespace-normalised text, the span of its stripped content, its colspan.
    (A named tuple: readers make one per cell of every candidate line, and a frozen dataclass costs 3x more.)"""

    text: str
    start: int
    end: int
    span: int = 1  # an HTML colspan; 1 elsewhere


@dataclass(frozen=True)
class Grid:
    """A table block cut into rows. `header_rows`: leading rows the markup itself marks as headers (rows above
    a `|---|` line, `<thead>`/all-`<th>` rows, the lines above plain-text columns); `tables` may add more.
    `spread`: whether a header cell spans the empty cells to its right (markup that has no colspan)."""

    format: Format
    start: int
    end: int
    rows: tuple[tuple[RawCell, ...], ...]
    header_rows: int
    spread: bool
    title: str = ""  # a caption the markup carries (an HTML <caption>)


# A whole cell that is one number: currency, sign, parentheses, percent, a scale word or multiple after it.
_NUMBER = re.compile(
    r"[-+−–]?\(?[-+−–]?\s*(?:[A-Z]{1,3}\$|[$€£¥])?\s*\(?[-+−–]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)\)?\s*%?\)?"
    r"(?:\s*(?:x|bps|pts?|" + "|".join(CELL_SCALES) + r")\b)?",
    re.IGNORECASE,
)
_YEAR = re.compile(f"(?:{year_pattern(HEADER_CELL_YEARS)})")
_UNIT = re.compile(r"[A-Z]{0,3}[$€£¥]\s?['’]?000s?", re.IGNORECASE)  # "US$000", "$'000": a unit, not a figure
_NIL = re.compile(r"[$€£¥(\s]*[-−–—―_]+[\s)%]*|n/?a|n\.?m\.?|nil|none", re.IGNORECASE)
_ALNUM = re.compile(r"[^\W_]")
_DIGIT = re.compile(r"\d")


def is_numeric(text: str) -> bool:
    """The whole cell is one number ("$ (1,234)", "4.00%", "1,146.2"); "2019 €m" or "Note 3" is not."""
    stripped = text.strip()
    return _NUMBER.fullmatch(stripped) is not None and _UNIT.fullmatch(stripped) is None


def is_year(text: str) -> bool:
    """A bare year in `calendar.HEADER_CELL_YEARS` (1990-2039): a header, not a figure, when it stands in a
    leading row."""
    return _YEAR.fullmatch(text.strip()) is not None


def has_alnum(text: str) -> bool:
    return _ALNUM.search(text) is not None


def has_digit(text: str) -> bool:
    return _DIGIT.search(text) is not None


def is_nil(text: str) -> bool:
    """A cell that states "nothing": a dash ("—", "$ —", "-%"), "n/a", "nm"."""
    return _NIL.fullmatch(text.strip()) is not None


def line_spans(text: str) -> tuple[tuple[int, int], ...]:
    """(start, end) of every line, without its newline or carriage return."""
    spans = []
    start = 0
    for match in re.finditer(r"\n", text):
        end = match.start()
        spans.append((start, end - 1 if end > start and text[end - 1] == "\r" else end))
        start = match.end()
    spans.append((start, len(text)))
    return tuple(spans)


def line_index(lines: tuple[tuple[int, int], ...], offset: int) -> int:
    """The index of the line holding `offset`."""
    return max(0, bisect_right(lines, offset, key=lambda span: span[0]) - 1)


def norm(text: str) -> str:
    return " ".join(text.split())
