"""Step 2 of the verdict, the binding of a value's places: whether a reference number that states a figure's
value is bound to something the prediction contradicts (`contradiction`, which says what as a typed `Basis`), and
how strongly a number of another value is bound to what the prediction states (`bound_strength`).

Positive evidence only: a period, a table's row or column, a subject noun the prediction binds to another of its
figures (docs: "Figures against a source"). Word overlap and vector cosine decide nothing here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from ..context.words import Context
from .keys import SupportKeys
from .rules import VerdictRule

BasisKind = Literal["period", "column", "row", "counts", "subject", "direction"]
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
    (`Context.place`)."""

    def __init__(self, contexts: Sequence[Context]) -> None:
        self.rows: dict[int, dict[int, frozenset[str]]] = {}
        self.columns: dict[int, dict[int, frozenset[str]]] = {}
        self.years: dict[int, set[int]] = {}
        for c in contexts:
            if c.place is not None:
                table, row, column = c.place
                self.rows.setdefault(table, {})[row] = c.row_words
                self.columns.setdefault(table, {})[column] = c.column_words
                if c.column_year is not None:
                    self.years.setdefault(table, set()).add(c.column_year)

    def named(self, table: int, subject: frozenset[str]) -> tuple[set[int], set[int]]:
        """The rows and the columns of `table` the prediction's subject names: those sharing the most words
        with it ("Property, Plant and Equipment, Gross" over "..., Net"), none when it shares none."""
        return _most(self.rows.get(table, {}), subject), _most(self.columns.get(table, {}), subject)


def _most(labels: dict[int, frozenset[str]], subject: frozenset[str]) -> set[int]:
    shared = {k: len(words & subject) for k, words in labels.items()}
    best = max(shared.values(), default=0)
    return {k for k, n in shared.items() if n == best} if best else set()


def _words(words: frozenset[str], empty: str) -> str:
    return " ".join(sorted(words)) or empty


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
        return Basis("column", f"{_words(context.column_words, '(no period)')}, not {int(ya)}")
    if rule.nouns and not context.cell and figure.counted and context.counted not in (None, figure.counted):
        return Basis("counts", f"{context.counted}, not {figure.counted}")
    sa, sb = figure.subject, context.subject
    if not sa:
        return None
    if context.cell:
        table, row, column = context.place
        rows, columns = tables.named(table, sa)
        if rows and row not in rows:
            return Basis("row", f"{_words(context.row_words, '(unlabelled)')}, not the one named")
        if columns and column not in columns:
            return Basis("column", f"{_words(context.column_words, '(unlabelled)')}, not the one named")
        return None
    # Only a word the prediction itself binds to another of its figures: a paraphrase ("earnings per share" for
    # "EPS") or an unshared word ("adjusted") says nothing by itself.
    if sb and any(sb - sa & other for other in others):
        return Basis("subject", f"{_words(sb, '')}, not {_words(sa, '')}")
    return None


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
