"""Step 2 of the verdict, the binding of a value's places: whether a reference number that states a figure's
value is bound to something the prediction contradicts (`contradiction`, which says what as a typed `Basis`), and
how strongly a number of another value is bound to what the prediction states (`bound_strength`).

Positive evidence only: a period, a table's row or column, a subject noun the prediction binds to another of its
figures (docs: "Figures against a source"). Word overlap and vector cosine decide nothing here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np

from ..context.binding import stem
from ..context.words import Context
from ..vocabulary.en import QUALIFIER_PAIRS, RANGE_WORDS
from .keys import SupportKeys
from .rules import VerdictRule

BasisKind = Literal["period", "column", "row", "counts", "subject", "direction", "aggregate"]
_SEPARATOR: dict[BasisKind, str] = {"counts": " "}  # "counts jobs, not machines"; the others "row: …"
_LINES: tuple[BasisKind, ...] = ("row", "column")  # a table line other than the one named


@dataclass(frozen=True)
class Basis:
    """What decided a misplaced or contradicted figure: the kind of binding, and what the source binds the value
    to against what the prediction does. `str(basis)` is the `basis` field of a figure verdict."""

    kind: BasisKind
    detail: str

    def __str__(self) -> str:
        return f"{self.kind}{_SEPARATOR.get(self.kind, ': ')}{self.detail}"

    @property
    def by_line(self) -> bool:
        """Another row or column of a table than the ones the prediction names: a derivation may still give the
        figure ("combined services and product revenue" against the total's row)."""
        return self.kind in _LINES


class Tables:
    """The row words, column words and column years of each table of one reference, by the table's start
    (`Context.place`); with `records`, a row with no label is named by its cells of words (`Context.record_words`)."""

    def __init__(self, contexts: Sequence[Context], records: bool = False) -> None:
        self.rows: dict[int, dict[int, frozenset[str]]] = {}
        self.columns: dict[int, dict[int, frozenset[str]]] = {}
        self.years: dict[int, set[int]] = {}
        # Per table, a cell's (row, column) -> its numbers, as positions in `contexts`.
        self.cells: dict[int, dict[tuple[int, int], list[int]]] = {}
        self.headers: dict[int, dict[int, frozenset[str]]] = {}  # a column's headers as words, units kept
        self.days: dict[int, dict[int, frozenset[str]]] = {}  # the days a row's label names
        self.year_columns: dict[int, dict[int, set[int]]] = {}  # per table, a year's columns (by their headers)
        # A noun's columns, per table (`attribute_columns`): read once per noun, not per place of every figure.
        self._by_attribute: dict[frozenset[str], dict[int, set[int]]] = {}
        for j, c in enumerate(contexts):
            if c.place is not None:
                table, row, column = c.place
                self.cells.setdefault(table, {}).setdefault((row, column), []).append(j)
                self.rows.setdefault(table, {})[row] = c.row_words | c.record_words if records else c.row_words
                self.columns.setdefault(table, {})[column] = c.column_words
                self.headers.setdefault(table, {})[column] = c.header_words
                if c.days:
                    self.days.setdefault(table, {})[row] = c.days
                if c.column_year is not None:
                    self.years.setdefault(table, set()).add(c.column_year)
                    self.year_columns.setdefault(table, {}).setdefault(c.column_year, set()).add(column)
        # Every column's header words, of every table: what a small count in words must name to be judged.
        self.header_words = frozenset().union(*(w for columns in self.headers.values() for w in columns.values()))

    def named(self, table: int, figure: Context) -> tuple[set[int], set[int]]:
        """The rows and the columns of `table` a prediction's figure names: those sharing the most words with its
        subject ("Property, Plant and Equipment, Gross" over "..., Net"). A row its subject does not name may be
        named by its sentence before it: the rows of the nearest word that labels one ("Dwight Howard ...
        tallied 17 points, 17 rebounds"). A column is first named by the noun after the figure ("17 rebounds").
        None when nothing names one."""
        rows, columns = self.rows.get(table, {}), self.columns.get(table, {})
        named_columns = (self.attribute_columns(figure).get(table, set()) if figure.attribute
                         else _most(columns, _parts(figure.subject)))
        if not named_columns and figure.year is not None:  # "Diluted EPS was $2.88 in 2023": the 2023 column
            named_columns = self.year_columns.get(table, {}).get(figure.year, set())
        named_rows = (_any(rows, figure.subject | frozenset(figure.before)) if figure.for_either
                      else _most(rows, figure.subject) or _nearest(rows, figure.before))
        if not named_rows and len(rows) == 1:  # a single record ("{'ram_gb': 16, ...}") is the row of every figure
            named_rows = set(rows)
        on_day = {r for r, days in self.days.get(table, {}).items() if figure.day in days} if figure.day else set()
        return (named_rows & on_day or on_day) if on_day else named_rows, named_columns

    def attribute_columns(self, figure: Context) -> dict[int, set[int]]:
        """Per table, the columns the noun after a figure names by their headers ("17 rebounds": Rebounds, not
        Defensive rebounds); tables whose headers it names none of are left out."""
        if not figure.attribute:
            return {}
        found = self._by_attribute.get(figure.attribute)
        if found is None:
            attribute = _parts(figure.attribute)
            named = {table: _closest(headers, attribute) for table, headers in self.headers.items()}
            found = self._by_attribute[figure.attribute] = {table: columns for table, columns in named.items()
                                                             if columns}
        return found


def naming(keys: SupportKeys, i: int, rule: VerdictRule) -> Context:
    """Figure i's context as it names a table's row and column, as far as `rule` reads it (`entities`: the row
    label before it; `days`: the day it names; `attributes`: the noun after it; `year_columns`: the year it is
    stated for). One of a pair ("113 - 107", "(17 - 36)") is stated for one of the two entities its sentence
    names, not for the nearest: its rows are named by its subject and day alone, and with `pairs`, every row its
    subject or its sentence before it names is (`Context.for_either`: "The Rockets defeated the Clippers 109-105"
    names both teams' rows; a range, "ranging from 2 to 4", stays one entity's). A pair followed by a noun ("6-9
    FG") is stated for one entity, and the noun names the column of both (`pairs`)."""
    context = keys.contexts[i]
    partner = int(keys.partner[i])
    attribute = context.attribute if rule.attributes else frozenset()
    if rule.pairs and rule.attributes and not attribute and partner > i:  # "4-7 FG": the first takes the noun
        attribute = keys.contexts[partner].attribute
    one = partner < 0 or (rule.pairs and bool(attribute))
    # A range ("ranging from 4.17°C to 8.46°C") is one quantity of one entity, not a pair of two.
    either = not one and rule.pairs and not context.words & RANGE_WORDS
    before = context.before if (one or either) and rule.entities else ()
    day = context.day if rule.days else None
    year = context.year if rule.year_columns else None
    if (before, day, attribute, year, either) == (context.before, context.day, context.attribute, context.year,
                                                  context.for_either):
        return context
    return replace(context, before=before, day=day, attribute=attribute, year=year, for_either=either)


def bound_cells(keys: SupportKeys, i: int, tables: Tables, ib: np.ndarray, places: np.ndarray, rule: VerdictRule
                ) -> list[int]:
    """The reference numbers (positions in `ib`) in the cells a figure names by row and column, in the tables of
    its value's places (`places`: positions in `ib`) and not among them: what the text states the figure for,
    when the source states another value there ("16 GB of storage" where storage holds 256)."""
    figure, out = naming(keys, i, rule), []
    found = (keys.contexts[int(ib[p])].place[0] for p in places if keys.contexts[int(ib[p])].cell)
    # Every table, when the value may sit in another table than the one that names it ("six road wins": the
    # players' rebounds hold a 6, the team's wins a 5).
    for table in (tables.cells if rule.any_table else dict.fromkeys(found)):
        rows, columns = tables.named(table, figure)
        out += [j for r in rows for c in columns for j in tables.cells[table].get((r, c), ())]
    taken = {int(p) for p in places}
    return [j for j in dict.fromkeys(out) if j not in taken]


def _nearest(labels: dict[int, frozenset[str]], before: Sequence[str]) -> set[int]:
    """The rows labelled by the last of `before` that labels any, those sharing most of `before` among them."""
    for word in reversed(before):
        rows = {k: words for k, words in labels.items() if word in words}
        if rows:
            return _most(rows, frozenset(before))
    return set()


def _parts(words: frozenset[str]) -> frozenset[str]:
    """`words` with the parts of each hyphenated one, as a key's words are split ("feels-like": feels_like)."""
    if not any("-" in w for w in words):
        return words
    return words | {stem(p) for w in words if "-" in w for p in w.split("-") if len(p) > 1}


def _any(labels: dict[int, frozenset[str]], words: frozenset[str]) -> set[int]:
    """The labels sharing any of `words`: every entity a sentence names ("The Houston Rockets (4-3) defeated the LA
    Clippers (4-2) 109-105": both teams)."""
    return {k for k, label in labels.items() if label & words}


def _closest(labels: dict[int, frozenset[str]], words: frozenset[str]) -> set[int]:
    """The labels sharing the most of `words`, and among them those with the fewest other words ("Points" over
    "1st quarter points" for "17 points")."""
    most = _most(labels, words)
    fewest = min((len(labels[k] - words) for k in most), default=0)
    return {k for k in most if len(labels[k] - words) == fewest}


def _most(labels: dict[int, frozenset[str]], subject: frozenset[str]) -> set[int]:
    shared = {k: len(words & subject) for k, words in labels.items()}
    best = max(shared.values(), default=0)
    return {k for k, n in shared.items() if n == best} if best else set()


def _words(words: frozenset[str], empty: str) -> str:
    return " ".join(sorted(words)) or empty


def _line(context: Context, kind: Literal["row", "column"], empty: str) -> str:
    """A table cell's row or column label as its source writes it ("Patient services revenue", a data record's
    "2024-03-01 15:00:00"), not the words that bind it ("patient revenue service"); a row with no label of its
    own by its section; its words when the table writes none."""
    label, row = context.label, kind == "row"
    written = "" if label is None else (label.row or label.section if row else label.column)
    return " ".join(written.split()) or _words(context.row_words if row else context.column_words, empty)


def contradiction(keys: SupportKeys, i: int, j: int, others: Sequence[frozenset[str]], tables: Tables,
                  rule: VerdictRule) -> Basis | None:
    """What of reference number j's binding figure i's text contradicts, None when nothing does: another year
    than the one the prediction names; for a table cell, another row or column than the ones of its table the
    prediction names; in running text, a subject the prediction binds to another of its figures (`others`)."""
    context, figure = keys.contexts[j], keys.contexts[i]
    if not (rule.tables if context.cell else rule.prose):
        return None
    ya, yb = keys.year[i], keys.year[j]
    if not np.isnan(ya) and not np.isnan(yb) and ya != yb:
        return Basis("period", f"{int(yb)}, not {int(ya)}")
    if context.cell and not np.isnan(ya) and context.column_year is None \
            and int(ya) in tables.years.get(context.place[0], ()):
        # "In 2019, X amounted to ..." against a table with a 2019 column: a cell of a column of no year (a
        # change, a share) is not the 2019 value.
        return Basis("column", f"{_line(context, 'column', '(no period)')}, not {int(ya)}")
    if rule.nouns and not context.cell and figure.counted and context.counted not in (None, figure.counted):
        return Basis("counts", f"{context.counted}, not {figure.counted}")
    sa, sb = figure.subject, context.subject
    clash = _qualifier_clash(sa, sb) if rule.qualifiers else None
    if clash is not None:
        return Basis("subject", clash)
    if context.cell:
        if rule.leads and context.lead and context.lead == figure.lead:  # "microUSB 2.0" in the cell as in the text
            return None
        table, row, column = context.place
        named = naming(keys, i, rule)
        rows, columns = tables.named(table, named)
        if rows and row not in rows:
            return Basis("row", f"{_line(context, 'row', '(unlabelled)')}, not the one named")
        # The noun after the figure names a column of another table only ("six road wins": the teams' wins, not
        # a player's rebounds).
        other = not columns and rule.any_table and bool(named.attribute) and bool(tables.attribute_columns(named))
        if (columns and column not in columns) or other:
            return Basis("column", f"{_line(context, 'column', '(unlabelled)')}, not the one named")
        return None
    if not sa:
        return None
    # Only a word the prediction itself binds to another of its figures: a paraphrase ("earnings per share" for
    # "EPS") or an unshared word ("adjusted") says nothing by itself.
    if sb and any(sb - sa & other for other in others):
        return Basis("subject", f"{_words(sb, '')}, not {_words(sa, '')}")
    return None


def _qualifier_clash(figure: frozenset[str], place: frozenset[str]) -> str | None:
    """The basis detail ("adjusted, not gaap") when the figure is qualified by one side of a `QUALIFIER_PAIRS` pair
    and the place only by the other; None otherwise."""
    figure, place = _unsplit(figure), _unsplit(place)
    for one, other in QUALIFIER_PAIRS:
        for named, stated in ((one, other), (other, one)):
            if figure & named and not figure & stated and place & stated and not place & named:
                return f"{_words(place & stated, '')}, not {_words(figure & named, '')}"
    return None


def _unsplit(words: frozenset[str]) -> frozenset[str]:
    # A key or header read as words splits "Non-GAAP" in two: it is the one qualifier, not "GAAP".
    return words - {"non", "gaap"} | {"non-gaap"} if {"non", "gaap"} <= words else words


def bound_strength(keys: SupportKeys, i: int, j: int, places: np.ndarray) -> int:
    """How strongly reference number j is bound to what figure i states (0: not bound): its year must be the
    prediction's when it names one, and it must share the prediction's subject or a place's table row (`places`:
    the reference rows that state figure i's value)."""
    ya, yb = keys.year[i], keys.year[j]
    if not np.isnan(ya) and yb != ya:
        return 0
    context = keys.contexts[j]
    row = context.place[:2] if context.cell else None
    same_row = row is not None and any(keys.contexts[p].cell and keys.contexts[p].place[:2] == row for p in places)
    shared = len(keys.contexts[i].subject & context.subject)
    if not shared and not same_row:
        return 0
    return 1 + shared + (not np.isnan(ya))
