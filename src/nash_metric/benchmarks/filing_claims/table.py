"""A TAT-QA table read for building claims: its figures, each with its row label and column header, and its scale.

Independent of NASH's own readers (``numbers``, ``context``), so that the benchmark does not grade NASH by its own
reading. A cell holds a figure when it is, as printed, an optional currency sign, an optional sign or parentheses
(an accounting negative), a number with optional thousands commas and decimals, and an optional ``%``. A plain
integer from 1900 to 2099 is a year, not a figure, and a column headed "Note" holds note references, not figures.

The header is the block of rows before the first row that has a label (first cell) and a figure. A column's
header is its lowest header cell that is not a scale or unit note ("(in millions)", "$", "%"). A cell is a
*claim cell* when its row label and its column header are both non-empty and each names one row or column only
(a label that repeats, "Other" under two sections, would make a claim about it ambiguous).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

_FIGURE = re.compile(r"^(?P<cur>US\$|HK\$|RMB|[$€£¥])?\s*(?P<open>\()?\s*(?P<cur2>[$€£¥])?\s*(?P<sign>[-−–])?\s*"
                     r"(?P<core>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*(?P<close>\))?\s*(?P<pct>%)?$")
_YEAR = re.compile(r"^(?:19|20)\d{2}$")
_UNIT = r"(?:[$€£¥]|US\$|RMB)?\s*(?:in\s*)?(?:thousands?|millions?|billions?|['’]000s?|000s?|m\b|bn\b)"
# A parenthesised unit note: "($ in millions)", "(Dollars in thousands, except per share data)".
_PAREN_UNIT = r"\([^()]*(?:thousands?|millions?|billions?|['’]000|\$000|[$€£]m\b|[$€£]bn\b)[^()]*\)"
_NOTE_COLUMN = re.compile(r"^notes?\b", re.IGNORECASE)  # its numbers point to notes: not figures
_SCALE_NOTE = re.compile(rf"^(?:{_PAREN_UNIT}|\(?\s*(?:{_UNIT}|[$€£¥%])?\s*(?:of\s+[\w. ]+)?\s*"
                         r"(?:,\s*except[^)]*)?\)?)$", re.IGNORECASE)
# A unit note or a footnote marker at the end of a header or label: "2019 €m", "Other (1)", "schemes1".
_TAIL_NOTE = re.compile(rf"(?:\s*{_PAREN_UNIT}|\s*\(?{_UNIT}\)?|\s*\(\d{{1,2}}\)|(?-i:(?<=[a-z]))\d)$", re.IGNORECASE)
_SCALES = (("thousand", re.compile(r"thousands?\b|['’]000|\$000|\b000s\b", re.IGNORECASE)),
           ("million", re.compile(r"millions?\b|\$m\b|€m\b|£m\b", re.IGNORECASE)),
           ("billion", re.compile(r"billions?\b|\$bn\b|€bn\b|£bn\b", re.IGNORECASE)))
_PARAGRAPH_SCALE = re.compile(r"\(\s*(?:[$€£]\s*)?in\s+(thousands|millions|billions)\b|\bin\s+(thousands|millions|"
                              r"billions)(?:\s+of\s+\w+)?\s*(?:[,):]|except)", re.IGNORECASE)
MAX_LABEL = 90  # a longer first cell is a note, not a row label
# A row of ratios, per-share amounts or counts is not in the table's scale ("in millions, except per share").
_UNSCALED_ROW = re.compile(r"\bper\b|ratio|percent|%|margin|\brate\b|\bdays\b|number of|headcount|employees|"
                           r"\bshares\b", re.IGNORECASE)


def clean(text: str) -> str:
    """A cell as one line: whitespace runs as one space, no space at the ends."""
    return " ".join(str(text).split())


def name_of(text: str) -> str:
    """A header or label as a claim names it: no unit note or footnote marker at its end, no colon."""
    previous = None
    while previous != text:
        previous, text = text, _TAIL_NOTE.sub("", text).strip().rstrip(":,").strip()
    return text


@dataclass(frozen=True)
class Figure:
    """A number as printed in a cell: ``$(5,625)`` is currency ``$``, core ``5,625``, negative in parentheses."""

    currency: str
    core: str  # the digits as printed, thousands commas included
    negative: str  # "" (not negative), "paren" or "minus"
    percent: bool

    @property
    def value(self) -> Decimal:
        """Signed value."""
        magnitude = Decimal(self.core.replace(",", ""))
        return -magnitude if self.negative else magnitude

    @property
    def decimals(self) -> int:
        return len(self.core.partition(".")[2])

    def written(self, currency: str | None = None, scale: str = "") -> str:
        """The figure as a claim states it: its (or the given) currency, its sign, ``%`` or the scale word."""
        cur = self.currency if currency is None else currency
        number = f"({self.core})" if self.negative == "paren" else f"-{self.core}" if self.negative else self.core
        tail = "%" if self.percent else f" {scale}" if scale else ""
        return f"{cur}{number}{tail}"

    def with_core(self, core: str) -> Figure:
        return Figure(self.currency, core, self.negative, self.percent)


def read_figure(text: str) -> Figure | None:
    """The figure a cell (or an answer) holds, or None: text, a blank, a dash, a year."""
    text = clean(text)
    m = _FIGURE.match(text)
    if m is None or bool(m["open"]) != bool(m["close"]) or (m["cur"] and m["cur2"]):
        return None
    if _YEAR.match(text):
        return None
    negative = "paren" if m["open"] else "minus" if m["sign"] else ""
    return Figure(m["cur"] or m["cur2"] or "", m["core"], negative, bool(m["pct"]))


@dataclass(frozen=True)
class Cell:
    """A figure of the table's body at (row, col), with its row label and column header."""

    row: int
    col: int
    figure: Figure
    label: str
    header: str


@dataclass(frozen=True)
class Table:
    """A TAT-QA table as rows of cleaned cells (padded to one width), its header block and its figures."""

    uid: str
    rows: tuple[tuple[str, ...], ...]
    header_rows: int
    figures: dict[tuple[int, int], Figure]  # every figure of the body, by (row, col)
    labels: dict[int, str]  # body row -> its label, where it names one row only
    headers: dict[int, str]  # column -> its header, where it names one column only
    scale: str  # "thousand", "million", "billion" or ""
    scale_source: str  # where the scale was found: table, paragraphs, questions or none

    def cells(self) -> list[Cell]:
        """The claim cells, in reading order."""
        return [Cell(r, c, f, self.labels[r], self.headers[c]) for (r, c), f in sorted(self.figures.items())
                if r in self.labels and c in self.headers]

    def row_scale(self, row: int) -> str:
        """The scale word of the amounts of ``row``: the table's, unless the row holds ratios, per-share amounts
        or counts."""
        return "" if _UNSCALED_ROW.search(self.rows[row][0]) else self.scale

    def row_currency(self, row: int) -> str:
        """The currency sign any figure of ``row`` is printed with ("" if none)."""
        return next((f.currency for (r, _), f in sorted(self.figures.items()) if r == row and f.currency), "")

    def neighbours(self, row: int, col: int) -> list[tuple[str, tuple[int, int]]]:
        """The other body figures of the same row ("row") and the same column ("column"), in reading order."""
        return [("row" if r == row else "column", (r, c)) for (r, c) in sorted(self.figures)
                if (r == row) != (c == col)]


def _header_rows(rows: Sequence[Sequence[str]]) -> int:
    for k, row in enumerate(rows):
        if row[0] and any(read_figure(cell) for cell in row[1:]):
            return k
    return len(rows)


def _column_headers(rows: Sequence[Sequence[str]], n_header: int, width: int) -> dict[int, str]:
    found = {}
    for col in range(1, width):
        cells = [rows[r][col] for r in range(n_header - 1, -1, -1)]
        found[col] = next((name_of(c) for c in cells if c and not _SCALE_NOTE.match(c)), "")
    once = Counter(h.casefold() for h in found.values() if h)
    return {col: h for col, h in found.items() if h and once[h.casefold()] == 1}


def _row_labels(rows: Sequence[Sequence[str]], n_header: int) -> dict[int, str]:
    labels = {r: name_of(rows[r][0]) for r in range(n_header, len(rows))}
    labels = {r: t for r, t in labels.items() if t and len(t) <= MAX_LABEL and read_figure(t) is None
              and not _YEAR.match(t)}
    once = Counter(t.casefold() for t in labels.values())
    return {r: t for r, t in labels.items() if once[t.casefold()] == 1}


def table_scale(rows: Sequence[Sequence[str]], paragraphs: Sequence[str], question_scales: Sequence[str]
                ) -> tuple[str, str]:
    """The scale of the table's amounts and where it was found: a note in the table's text cells, a phrase such as
    "(in thousands)" in its paragraphs, or the scale TAT-QA gives every question answered from the table."""
    notes = " ".join(cell for row in rows for cell in row if cell and read_figure(cell) is None)
    for name, pattern in _SCALES:
        if pattern.search(notes):
            return name, "table"
    for text in paragraphs:
        if m := _PARAGRAPH_SCALE.search(text):
            return (m[1] or m[2]).lower().rstrip("s"), "paragraphs"
    stated = {s for s in question_scales if s in ("thousand", "million", "billion")}
    if len(stated) == 1:
        return stated.pop(), "questions"
    return "", "none"


def read_table(context: dict[str, Any]) -> Table:
    """The table of one TAT-QA context (``table.uid``, ``table.table``), its paragraphs and questions."""
    raw = context["table"]["table"]
    width = max(len(row) for row in raw)
    rows = tuple(tuple(clean(c) for c in row) + ("",) * (width - len(row)) for row in raw)
    n_header = _header_rows(rows)
    notes = {c for c in range(1, width) if any(_NOTE_COLUMN.match(rows[r][c]) for r in range(n_header))}
    figures = {(r, c): f for r in range(n_header, len(rows)) for c in range(1, width)
               if c not in notes and (f := read_figure(rows[r][c])) is not None}
    paragraphs = paragraphs_of(context)
    scales = [q.get("scale", "") for q in context.get("questions", []) if q.get("answer_from") == "table"]
    scale, source = table_scale(rows, paragraphs, scales)
    return Table(context["table"]["uid"], rows, n_header, figures, _row_labels(rows, n_header),
                 _column_headers(rows, n_header, width), scale, source)


def paragraphs_of(context: dict[str, Any]) -> list[str]:
    """The context's paragraphs, in their order."""
    return [clean(p["text"]) for p in sorted(context.get("paragraphs", []), key=lambda p: p.get("order", 0))]
