"""The context of a figure, as the support verdict's second step reads it: what it is bound to and the words
around it.

* In running text, its binding is `binding.prose_bindings`'s: the noun its clause quantifies, the year bound to
  it ("$1.2 billion in 2019"; none when its sentence lists several), the direction of a change, a count's noun;
  a calendar period has no year of its own (its value is its period). Its words are the content words of its
  clause: at most `WINDOW` words on each side within its sentence, other numbers left out.
* In a table cell (`tables.find_tables`), its binding is its row label and the section above its row
  (`row_words`), its column headers (`column_words`) and the year its headers (else its row label) name:
  "Fixed Price" x "2019". A cell's neighbours in reading order are other cells, not its meaning. The table's
  scale ("in millions") comes along.

Words are lower-cased and reduced to a crude stem (a plural's "s" dropped), stop words left out. They decide no
verdict: they only choose which number a report shows beside an unsupported figure.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ..numbers.calendar import LABEL_YEARS, year_pattern
from ..numbers.mention import NumericMention
from ..vocabulary.en import STOP_WORDS, SUBJECT_STOP_WORDS
from .binding import SENTENCE_END, WINDOW, WORD, cell_direction, prose_bindings, stem, subject_words
from .days import named_day, names_a_day, row_days
from .keys import NO_GLOSSARY, Glossary, key_words
from .tables import Cell, Table, cell_at, find_tables, row_text

__all__ = ["WINDOW", "Context", "context_words", "mention_contexts"]


_YEAR = re.compile(rf"(?<!\d)(?:{year_pattern(LABEL_YEARS)})(?!\d)")  # a year a header or row label names
_SHORT_FISCAL = re.compile(r"\bFY?\s?['’]?(\d{2})(?!\d)")  # "FY19", "F18", "FY '19": a fiscal year
# A label's two-digit fiscal year is in this century ("FY95" is 2095 here, not `calendar.two_digit_year`'s 1995):
# labels name a filing's recent years.
_SHORT_FISCAL_CENTURY = 2000
# A figure's word window also stops at a semicolon (the binding reads it as a clause break instead).
_SENTENCE_END = re.compile(rf"{SENTENCE_END.pattern}|(?<=;)\s+")
_PERCENT = re.compile(r"%|\bper ?cent", re.IGNORECASE)
_PERCENT_AFTER = re.compile(r"\s*(?:\|\s*)?%")
# "(In thousands, except percentages)" says which cells are not in the scale, not that this one is a percent.
_EXCEPT = re.compile(r"\bexcept\b[^)|\n]*", re.IGNORECASE)


@dataclass(frozen=True)
class CellLabel:
    """A table cell's labels as its table writes them: the section above its row, its row label (a row with none:
    its cells of words, `tables.Cell.record`), its column's header lines joined by spaces ("" where there is none)."""

    section: str
    row: str
    column: str
    path: str = ""  # a data value's key path ("forecast[2].main.temp"); "" in a table written as text

    def describe(self) -> str:
        """"Revenue: · Fixed Price · 2019"; a data value's "forecast[2].main.temp (2024-03-01 18:00)"; "" for a
        cell with no label."""
        if self.path:
            return f"{self.path} ({self.row})" if self.row else self.path
        return " · ".join(part for part in (self.section, self.row, self.column) if part)


@dataclass(frozen=True)
class Context:
    """What a figure means where it stands."""

    words: frozenset[str]
    year: int | None  # the year it is stated for, when its sentence or its column says one
    cell: bool  # it stands in a table cell
    scale: float | None  # its table's scale ("in millions": 1e6), when it is a cell of a table that states one
    percent: bool = False  # a cell its table gives as a percent (in its header, row label, caption or own cell)
    # What it is bound to (`binding`): the noun(s) it quantifies, the direction of a change (+1, -1, 0), whether
    # it counts things ("2,477 hospitals") or is an amount per unit ("$2.41 per share"); for a cell, its row
    # label, section and column headers (years left out: they are its `year`), and `place` its table cell.
    subject: frozenset[str] = frozenset()
    direction: int = 0
    counted: str | None = None  # the noun it counts ("hospital"), None when it is no count
    per_unit: bool = False
    place: tuple[int, int, int] | None = None  # (table start, row, column) of a cell
    row_words: frozenset[str] = frozenset()  # a cell's row label and section, as `subject` words
    record_words: frozenset[str] = frozenset()  # a cell's row's cells of words when it has no label (`Cell.record`)
    column_words: frozenset[str] = frozenset()  # a cell's column headers, years left out, as `subject` words
    column_year: int | None = None  # the year a cell's column headers state (its `year` may be its row label's)
    years: frozenset[int] = frozenset()  # every year its sentence names (a cell: its own year)
    sentence_at: int = -1  # where its sentence starts in the text (running text; -1 in a table cell)
    # The content words of its whole sentence (running text; at most `SENTENCE_WORDS`): where a computed figure's
    # operation is named ("The percentage change in the total balance of goodwill of ... was 49.92%").
    sentence: frozenset[str] = frozenset()
    label: CellLabel | None = None  # a cell's labels as written (what a report shows), None in running text
    # Running text, for a table's cells to be named by (`verdicts.placement.Tables.named`): the noun words right
    # after the figure ("38 points", "12-rebound"), and the content words of its sentence before it, nearest last
    # (the player, team or city it is stated for: "Dwight Howard ... tallied 17 points, 17 rebounds").
    attribute: frozenset[str] = frozenset()
    before: tuple[str, ...] = ()
    # A cell's column headers as content words, units kept ("Points", "FG%": what an `attribute` names).
    header_words: frozenset[str] = frozenset()
    # The day it is stated for (`days.named_day`: "01-06", "thu"; running text), or the days a cell's row label
    # names (a forecast's record).
    day: str | None = None
    days: frozenset[str] = frozenset()
    # A number in words in a table's header or label, not in a cell ("Three-pointers made"): no figure of the table.
    headed: bool = False
    # One of a pair with no noun after it ("beat the Knicks 113-107"), as the verdict names rows
    # (`verdicts.placement.naming`): stated for any entity its sentence names, not for the one it names most.
    for_either: bool = False
    # The word right before it, apart by spaces alone, stemmed ("android" in "Android 6.0", in a sentence or in a
    # cell's own text; "" when none): a cell that writes the figure after the prediction's own word states it
    # for what the prediction does (`verdicts.placement.contradiction`).
    lead: str = ""


def context_words(text: str) -> frozenset[str]:
    """The content words of `text`, lower-cased and stemmed (what two contexts share is counted on these)."""
    return frozenset(w for w in (stem(m.group()) for m in WORD.finditer(text)) if w not in STOP_WORDS and len(w) > 1)


def mention_contexts(text: str, mentions: Sequence[NumericMention], glossary: Glossary = NO_GLOSSARY
                     ) -> list[Context]:
    """The `Context` of each of `mentions` (found in `text`), in order; `glossary` adds to the words keys and headers
    are read as (`keys.key_words`)."""
    tables = find_tables(text) if _may_hold_a_table(text) else ()
    sentences = [0, *(m.end() for m in _SENTENCE_END.finditer(text)), len(text)]
    words = [(m.start(), m.end(), stem(m.group())) for m in WORD.finditer(text)]
    starts = [w[0] for w in words]
    bindings = prose_bindings(text, mentions, SUBJECT_STOP_WORDS)
    # A data table repeats its sections, key paths and record labels in every cell: each is read as words once.
    read_key = functools.lru_cache(maxsize=None)(functools.partial(key_words, glossary=glossary))
    out = []
    shared = _Shared()
    sentence_words: dict[tuple[int, int], frozenset[str]] = {}  # a sentence's figures share its words
    dated = names_a_day(text)
    for mention, bound in zip(mentions, bindings):
        found = cell_at(tables, mention.start, mention.end) if tables else None
        if found is not None:
            out.append(shared.context(_cell_context(text, mention, *found, read_key)))
            continue
        low, high = _sentence_of(sentences, mention.start)
        if (low, high) not in sentence_words:
            sentence_words[low, high] = shared.words(_sentence_words(words, starts, low, high))
        out.append(Context(
            shared.words(_window(words, starts, mention, low, high)), bound.year, cell=False, scale=None,
            subject=shared.words(bound.subject), direction=bound.direction, counted=bound.counted,
            per_unit=bound.per_unit, years=bound.years, sentence=sentence_words[low, high], sentence_at=low,
            attribute=_attribute(text, mention.end, high),
            before=_before(words, starts, mention.start, low),
            day=named_day(text, _sentence_of(sentences, max(0, low - 1))[0], mention.start) if dated else None,
            headed=bool(tables) and _in_a_table(tables, mention), lead=_lead(text, mention.start)))
    return out


_LEAD = re.compile(rf"({WORD.pattern})[ \t]+$")


def _lead(text: str, start: int) -> str:
    """The word right before `start`, apart by spaces alone, stemmed ("" when none: a quote, a bar, a line break)."""
    found = _LEAD.search(text, max(0, start - 40), start)
    return stem(found.group(1)) if found else ""


def _in_a_table(tables: Sequence[Table], mention: NumericMention) -> bool:
    """Whether a number written in words stands inside a table (its headers, a label), not in a cell."""
    return not any(ch.isdigit() for ch in mention.text) and any(t.start <= mention.start < t.end for t in tables)


class _Shared:
    """Equal word sets of a text's contexts as one object: a long source holds a context per figure, and its cells
    repeat their row's label, their column's headers and their sentence's words. A word is one string already
    (`binding.stem` returns its cached one)."""

    _SETS = ("words", "subject", "row_words", "record_words", "column_words", "sentence", "attribute", "header_words")

    def __init__(self) -> None:
        self.sets: dict[frozenset[str], frozenset[str]] = {}

    def context(self, context: Context) -> Context:
        return replace(context, **{name: self.words(getattr(context, name)) for name in self._SETS})

    def words(self, words: frozenset[str]) -> frozenset[str]:
        return self.sets.setdefault(words, words)


def _cell_context(text: str, mention: NumericMention, table: Table, cell: Cell, read_key: Callable[[str], str]
                  ) -> Context:
    header_years = [y for h in cell.headers for y in _years_in(h)]
    label_years = _years_in(cell.row_label)
    year = header_years[-1] if header_years else (label_years[-1] if label_years else None)
    # Keys and headers as words ("FG_PCT": "field goals percent"); a header as written keeps its "%".
    section, headers = read_key(cell.section), [read_key(h) for h in cell.headers]
    named = row_text(cell)
    percent = _PERCENT_AFTER.match(text, mention.end) is not None or bool(
        _PERCENT.search(_EXCEPT.sub(" ", " ".join((named, *headers, table.caption)))))
    row = subject_words(_YEAR.sub(" ", f"{section} {read_key(cell.row_label)}"), SUBJECT_STOP_WORDS)
    column = subject_words(_YEAR.sub(" ", " ".join(headers)), SUBJECT_STOP_WORDS)
    return Context(context_words(f"{named} {' '.join(headers)}"), year, cell=True, scale=table.scale,
                   percent=percent, subject=row | column,
                   direction=cell_direction(text, mention), per_unit="per" in named.lower().split(),
                   place=(table.start, cell.row, cell.column), row_words=row, column_words=column,
                   record_words=subject_words(cell.record, SUBJECT_STOP_WORDS) if cell.record else frozenset(),
                   column_year=header_years[-1] if header_years else None,
                   years=frozenset(() if year is None else (year,)),
                   label=CellLabel(cell.section, cell.row_label or cell.record, " ".join(cell.headers), cell.path),
                   header_words=context_words(_YEAR.sub(" ", " ".join(headers))), days=row_days(cell.row_label),
                   lead=_lead(text, mention.start))


def _years_in(text: str) -> list[int]:
    """The years a header or row label names: "2019", and a fiscal year in two digits ("FY19", "F18")."""
    return ([int(y) for y in _YEAR.findall(text)]
            or [_SHORT_FISCAL_CENTURY + int(y) for y in _SHORT_FISCAL.findall(text)])


def _window(words: list[tuple[int, int, str]], starts: list[int], mention: NumericMention, low: int, high: int
            ) -> frozenset[str]:
    from bisect import bisect_left

    here = bisect_left(starts, mention.start)
    before = [w for s, e, w in words[max(0, here - 3 * WINDOW):here] if s >= low][-WINDOW:]
    after = [w for s, e, w in words[here:here + 3 * WINDOW] if s >= mention.end and e <= high][:WINDOW]
    return frozenset(w for w in (*before, *after) if w not in STOP_WORDS and len(w) > 1)


ATTRIBUTE_WORDS = 2  # content words after a figure that name what it measures ("38 points", "three-point attempts")
ATTRIBUTE_CHARS = 40  # up to a clause break or another number ("1,350 units from 15 stores": {unit})
BEFORE_WORDS = 24  # content words of its sentence before a figure that may name its row
# A number ends the attribute; an abbreviation that starts with a digit ("3Pt") is a word of it.
_ATTRIBUTE_END = re.compile(r"[,;:.()!?]|\d(?![\dA-Za-z]*[A-Za-z])|\b(?:and|while|but|on|in|with|for|to|at|as|than)\b")
_ATTRIBUTE_WORD = re.compile(r"\d*[A-Za-z][A-Za-z'&-]*")
# An abbreviation as prose writes one, in capitals ("FG", "3Pt", "PTS"): read as a key is (`keys.key_words`).
_ABBREVIATION = re.compile(r"\d*[A-Z][A-Za-z]*[A-Z][a-z]?|\d+[A-Z][a-z]*")


def _attribute(text: str, end: int, high: int) -> frozenset[str]:
    """The first content words after a figure, up to a clause break ("17 points and ...": {point}; "10-17 FG":
    {field, goal})."""
    after = text[end:min(high, end + ATTRIBUTE_CHARS)]
    cut = _ATTRIBUTE_END.search(after)
    found: list[str] = []
    for m in _ATTRIBUTE_WORD.finditer(after[:cut.start()] if cut else after):
        word = m.group()
        if _ABBREVIATION.fullmatch(word):
            found += [stem(w) for w in key_words(word).split()]
        elif word[0].isalpha():
            found.append(stem(word))
    return frozenset([w for w in found if w not in STOP_WORDS and len(w) > 1][:ATTRIBUTE_WORDS])


def _before(words: list[tuple[int, int, str]], starts: list[int], position: int, low: int) -> tuple[str, ...]:
    from bisect import bisect_left

    here = bisect_left(starts, position)
    found = [w for s, e, w in words[max(0, here - 3 * BEFORE_WORDS):here] if s >= low]
    return tuple(w for w in found if w not in STOP_WORDS and len(w) > 1)[-BEFORE_WORDS:]


SENTENCE_WORDS = 64  # a sentence's content words a context keeps: a run-on "sentence" stays bounded


def _sentence_words(words: list[tuple[int, int, str]], starts: list[int], low: int, high: int) -> frozenset[str]:
    from bisect import bisect_left

    first = bisect_left(starts, low)
    inside = (w for s, e, w in words[first:first + 3 * SENTENCE_WORDS] if e <= high)
    return frozenset(w for w in inside if w not in SUBJECT_STOP_WORDS and len(w) > 1)  # "total" names a sum


def _sentence_of(bounds: list[int], position: int) -> tuple[int, int]:
    from bisect import bisect_right

    k = bisect_right(bounds, position) - 1
    return bounds[max(0, k)], bounds[min(len(bounds) - 1, k + 1)]


def _may_hold_a_table(text: str) -> bool:
    return ("|" in text or "{" in text or "[" in text or "<t" in text.lower() or "\t" in text or "  " in text
            or ("," in text and "\n" in text))
