"""Figure verdicts told to a person: where in the source a figure's value stands (line, table cell, a snippet),
how the source's numbers give a computed figure's value (its derivation, and where each of its numbers stands),
its mark (`verdicts.spec.MARKS`), and the one-line summary of a text. `nash check` prints them, the
Space's "Check figures" tab shows them, so both say the same.

Reads `NASHOutput.figure_verdicts` entries (`verdicts.decide.FigureVerdict`: `found` is where the value is
stated, `reference` the number it is compared with, `basis` what decided a misplaced or contradicted figure,
`derivation` and `operands` how the source's numbers give a computed figure's value, or the closest derivation of an
unsupported one's).
Free of gradio, numpy and torch: the CLI imports it before any model loads.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..verdicts.spec import RULE_VERDICTS, counted, not_counted, supports

__all__ = ["FigureRow", "Place", "Source", "figure_rows", "snippet", "summary_line", "verdict_counts"]
SNIPPET_CHARS = 72  # of the source line around a number, the number included
_NEWLINE, _SPACES = re.compile(r"\n"), re.compile(r"\s+")


@dataclass(frozen=True)
class Place:
    """Where a number stands in a text: its 1-based line, its table cell (row label and column headers, "" when
    it stands in running text) and the line around it with the number in [brackets]."""

    line: int
    cell: str
    snippet: str

    def describe(self) -> str:
        """"line 8 (Consumer · 2018): | Consumer | 812.7 | [790.3] |"."""
        return f"line {self.line}{f' ({self.cell})' if self.cell else ''}: {self.snippet}"


@dataclass(frozen=True)
class FigureRow:
    """One figure of a generated text, told: its verdict, where its value was found and, when another number is
    bound to what it states (misplaced) or its value is stated nowhere (unsupported), that number; `basis`: what
    decided a misplaced or contradicted figure ("period: 2022, not 2023"); `derivation`: how the source's numbers
    give a computed figure's value ("(62.4 − 50.2) / 50.2 = 24.3%"), or the closest derivation of an unsupported
    one's bound numbers (its result then another value), else None; `operands`: the numbers of `derivation`, each
    (its text, its place)."""

    text: str
    start: int
    end: int
    verdict: str
    found: Place | None
    matched: Place | None  # None for a supported figure (nothing but its value's place to show)
    matched_text: str | None
    basis: str | None = None
    derivation: str | None = None
    operands: tuple[tuple[str, Place], ...] = ()


@dataclass(frozen=True)
class Source:
    """A source text read once for places: where its lines start. A number's table cell comes with its verdict
    (`NumberRef.cell`): the source's tables are not read again."""

    text: str
    line_starts: tuple[int, ...]

    @classmethod
    def read(cls, text: str) -> Source:
        return cls(text, (0, *(m.end() for m in _NEWLINE.finditer(text))))

    def place(self, number: Mapping[str, Any]) -> Place:
        """Where a `NumberRef` of this source stands: its line, its cell's labels, the line around it."""
        start, end, cell = int(number["start"]), int(number["end"]), number.get("cell")
        label = "" if not cell else " · ".join(part for part in (cell["section"], cell["row"], cell["column"]) if part)
        return Place(bisect.bisect_right(self.line_starts, start), label, snippet(self.text, start, end))


def snippet(text: str, start: int, end: int, width: int = SNIPPET_CHARS) -> str:
    """The line of `text` around `text[start:end]`, whitespace collapsed, cut to about `width` characters with
    "…" where it was cut, the span in [brackets]."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    before = _SPACES.sub(" ", text[line_start:start]).lstrip()
    number = _SPACES.sub(" ", text[start:end])
    after = _SPACES.sub(" ", text[end:line_end]).rstrip()
    room = max(0, width - len(number) - 2)
    keep_before = min(len(before), max(room // 2, room - len(after)))
    keep_after = min(len(after), room - keep_before)
    head = "…" + before[len(before) - keep_before:].lstrip() if keep_before < len(before) else before
    tail = after[:keep_after].rstrip() + "…" if keep_after < len(after) else after
    return f"{head}[{number}]{tail}"


def figure_rows(source: str | Source, verdicts: Sequence[Mapping[str, Any]]) -> list[FigureRow]:
    """Each figure of one text (its `figure_verdicts` entries) with the places its verdict refers to."""
    read = source if isinstance(source, Source) else Source.read(source)
    rows = []
    for entry in verdicts:
        found, reference = entry.get("found"), entry.get("reference")
        # A computed figure's closest number says nothing its derivation does not: its operands are shown instead.
        show_match = reference is not None and not supports(entry["verdict"]) and reference != found
        rows.append(FigureRow(
            text=entry["text"], start=int(entry["start"]), end=int(entry["end"]), verdict=entry["verdict"],
            found=read.place(found) if found else None,
            matched=read.place(reference) if show_match else None,
            matched_text=reference["text"] if show_match else None, basis=entry.get("basis"),
            derivation=entry.get("derivation"),
            operands=tuple((o["text"], read.place(o)) for o in entry.get("operands") or ()),
        ))
    return rows


def verdict_counts(verdicts: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """How many figures got each verdict: those of the default rule always (`RULE_VERDICTS["context"]`), any other
    one (`unmatched`: verdict="argmax") when it occurs."""
    counts = dict.fromkeys(RULE_VERDICTS["context"], 0)
    for entry in verdicts:
        counts[entry["verdict"]] = counts.get(entry["verdict"], 0) + 1
    return counts


def summary_line(support: float, verdicts: Sequence[Mapping[str, Any]]) -> str:
    """"numeric support 0.60: 2 supported, 1 misplaced, 1 unsupported, 0 contradicted, 1 computed (5 figures)"
    (a computed figure counts as supported in the numeric support; a supported period that places a figure does
    not count, and the line says so: `spec.counted`)."""
    if not verdicts:
        return f"numeric support {support:.2f}: the text states no figure to check"
    kept = counted(verdicts)
    counts = ", ".join(f"{n} {verdict}" for verdict, n in verdict_counts(kept).items())
    return (f"numeric support {support:.2f}: {counts} ({len(kept)} figure{'s' if len(kept) != 1 else ''}"
            f"{not_counted(verdicts)})")
