"""The context of a figure, as the support verdict's second step compares it: the words it quantifies and the
period it is stated for.

* In running text, a figure's words are the content words of its clause: at most `WINDOW` words on each side
  within its sentence, other numbers left out. Its period is the year its sentence names ("$1.2 billion in
  2019"), none when it names several; a calendar period has none (its own value is its period).
* In a table cell (`tables.find_tables`), its words are its row label, the section above its row and its column
  headers, and its period the year its headers (else its row label) name: "Fixed Price" x "2019". A cell's
  neighbours in reading order are other cells, not its meaning. The table's scale ("in millions") comes along.

Words are lower-cased and reduced to a crude stem (a plural's "s" dropped), stop words left out: the verdict
weighs them by how rare they are among the source's figures, so frequent words cost little either way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..numbers.mention import NumericMention
from .tables import Cell, Table, cell_at, find_tables, row_text

__all__ = ["WINDOW", "Context", "context_words", "mention_contexts"]

WINDOW = 8  # words each side of a figure, within its sentence (chosen on dev data: README, "Figures against a source")

_WORD = re.compile(r"[A-Za-z][A-Za-z'&-]*")
_YEAR = re.compile(r"(?<!\d)(?:19[5-9]\d|20[0-4]\d)(?!\d)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[^a-z0-9])|(?<=;)\s+|\n\s*\n|\n(?=\s*[-*•|])")
_STOP = frozenset((
    "a", "an", "the", "of", "in", "on", "at", "to", "for", "from", "by", "with", "and", "or", "but", "as", "is",
    "are", "was", "were", "be", "been", "being", "it", "its", "this", "that", "these", "those", "than", "then",
    "there", "their", "they", "we", "our", "us", "you", "your", "he", "she", "his", "her", "i", "me", "my",
    "will", "would", "shall", "should", "can", "could", "may", "might", "do", "does", "did", "has", "have",
    "had", "not", "no", "so", "up", "down", "over", "under", "about", "into", "out", "per", "also", "which",
    "who", "whom", "what", "when", "where", "while", "during", "after", "before", "year", "years", "quarter",
    "quarters", "month", "months", "ended", "ending", "end", "total",
))
_FIRST_YEAR_DAY = re.compile(r"^(?:FY)?(\d{4})")
_PERCENT = re.compile(r"%|\bper ?cent", re.IGNORECASE)
_PERCENT_AFTER = re.compile(r"\s*(?:\|\s*)?%")


@dataclass(frozen=True)
class Context:
    """What a figure means where it stands."""

    words: frozenset[str]
    year: int | None  # the year it is stated for, when its sentence or its column says one
    cell: bool  # it stands in a table cell
    scale: float | None  # its table's scale ("in millions": 1e6), when it is a cell of a table that states one
    percent: bool = False  # a cell its table gives as a percent (in its header, row label, caption or own cell)


def context_words(text: str) -> frozenset[str]:
    """The content words of `text`, lower-cased and stemmed (what two contexts share is counted on these)."""
    return frozenset(w for w in (_stem(m.group()) for m in _WORD.finditer(text)) if w not in _STOP and len(w) > 1)


def mention_contexts(text: str, mentions: Sequence[NumericMention]) -> list[Context]:
    """The `Context` of each of `mentions` (found in `text`), in order."""
    tables = find_tables(text) if _may_hold_a_table(text) else ()
    years = [(m.start, m.end, y) for m in mentions if (y := _year_of(m)) is not None]
    sentences = [0, *(m.end() for m in _SENTENCE_END.finditer(text)), len(text)]
    words = [(m.start(), m.end(), _stem(m.group())) for m in _WORD.finditer(text)]
    starts = [w[0] for w in words]
    out = []
    for mention in mentions:
        found = cell_at(tables, mention.start, mention.end) if tables else None
        if found is not None:
            out.append(_cell_context(*found, _PERCENT_AFTER.match(text, mention.end) is not None))
            continue
        low, high = _sentence_of(sentences, mention.start)
        out.append(Context(_window(words, starts, mention, low, high), _nearest_year(years, mention, low, high),
                           cell=False, scale=None))
    return out


def _cell_context(table: Table, cell: Cell, percent_after: bool) -> Context:
    header_years = [int(y) for h in cell.headers for y in _YEAR.findall(h)]
    label_years = [int(y) for y in _YEAR.findall(cell.row_label)]
    year = header_years[-1] if header_years else (label_years[-1] if label_years else None)
    named = row_text(cell)
    percent = percent_after or bool(_PERCENT.search(" ".join((named, table.caption))))
    return Context(context_words(named), year, cell=True, scale=table.scale, percent=percent)


def _window(words: list[tuple[int, int, str]], starts: list[int], mention: NumericMention, low: int, high: int
            ) -> frozenset[str]:
    from bisect import bisect_left

    here = bisect_left(starts, mention.start)
    before = [w for s, e, w in words[max(0, here - 3 * WINDOW):here] if s >= low][-WINDOW:]
    after = [w for s, e, w in words[here:here + 3 * WINDOW] if s >= mention.end and e <= high][:WINDOW]
    return frozenset(w for w in (*before, *after) if w not in _STOP and len(w) > 1)


def _nearest_year(years: list[tuple[int, int, int]], mention: NumericMention, low: int, high: int) -> int | None:
    if mention.period is not None:
        return None  # a period is compared by its own value, not by the year around it
    near = [(min(abs(s - mention.end), abs(mention.start - e)), y) for s, e, y in years
            if low <= s and e <= high and (s, e) != (mention.start, mention.end)]
    # Two years in one sentence ("in 2019 and 2018 respectively") leave the figure's own one unsaid.
    return near[0][1] if near and len({y for _, y in near}) == 1 else None


def _sentence_of(bounds: list[int], position: int) -> tuple[int, int]:
    from bisect import bisect_right

    k = bisect_right(bounds, position) - 1
    return bounds[max(0, k)], bounds[min(len(bounds) - 1, k + 1)]


def _year_of(mention: NumericMention) -> int | None:
    if mention.period is None:
        return None
    found = _FIRST_YEAR_DAY.match(mention.period)
    return int(found.group(1)) if found else None


def _stem(word: str) -> str:
    word = word.lower().removesuffix("'s").strip("'-&")
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _may_hold_a_table(text: str) -> bool:
    return "|" in text or "<t" in text.lower() or "\t" in text or "  " in text
