"""Template claims: a sampled cell's row label, column header and a value, in a sentence.

For a cell (label R, header C, value V) the three claims share one template and differ only by the value:
**supported** states V; **misplaced** states the value of another cell of the same row or column (a value the
table holds, but for another year or item); **unsupported** states V perturbed to a value the source holds nowhere.
A cell is used only when all three can be made, so the kinds stay balanced and compare on the same cells.
"""

from __future__ import annotations

import random
import re
from collections import Counter

from .figures import ClaimText, SourceNumbers, misplaced, perturbed
from .table import Cell, Figure, Table

_DATE = re.compile(r"\b(?:January|February|March|April|May|June|July|August|September|October|November|December)"
                   r"\s+\d{1,2}\b|\b\d{1,2}\s+(?:January|February|March|April|May|June|July|August|September|October|"
                   r"November|December)\b", re.IGNORECASE)
_PERIOD = re.compile(r"\b(?:19|20)\d{2}\b|\bfiscal\b|\bFY\s?\d|\bquarter\b|\bQ[1-4]\b|\byears?\b|\bmonths?\b|\bended\b",
                     re.IGNORECASE)
TEMPLATES = {
    "date": ("{R} was {V} at {C}.", "At {C}, {R} amounted to {V}.", "{R} as of {C}: {V}."),
    "period": ("{R} was {V} in {C}.", "In {C}, {R} amounted to {V}.", "{R} for {C} stood at {V}."),
    "other": ("{R} ({C}) was {V}.", "The {C} figure for {R} was {V}.", "For {R}, {C} amounted to {V}."),
}


def header_kind(header: str) -> str:
    """Which templates fit a column header: a date ("December 31, 2019"), a period ("2019", "Fiscal 2018") or
    anything else ("Level 1", "Total Expected Charges")."""
    return "date" if _DATE.search(header) else "period" if _PERIOD.search(header) else "other"


def _sentence(template: str, cell: Cell, value: str) -> str:
    return template.format(R=cell.label, C=cell.header, V=value)


def cell_claims(table: Table, cell: Cell, rng: random.Random, source: SourceNumbers) -> list[ClaimText] | str:
    """The supported, misplaced and unsupported claims of one cell, or why it gives none."""
    other = misplaced(table, cell.row, cell.col, rng, [cell.figure])
    if other is None:
        return "no other value in its row or column"
    wrong = perturbed(cell.figure, rng, source)
    if wrong is None:
        return "every perturbed value drawn is a number of the source"
    where, at, figure = other
    currency, scale = table.row_currency(cell.row), table.row_scale(cell.row)
    template = rng.choice(TEMPLATES[header_kind(cell.header)])
    true = cell.figure.written(currency, scale)
    stated = {
        "supported": (cell.figure, "cell", [cell.row, cell.col]),
        "misplaced": (Figure(currency, figure.core, figure.negative, figure.percent), where, list(at)),
        "unsupported": (wrong, "perturbed", None),
    }
    claims = []
    for kind, (value, source_of, at_cell) in stated.items():
        written = value.written(currency, scale)
        detail = {"cell": [cell.row, cell.col], "figure": written, "cell_value": true, "value_from": source_of,
                  "value_cell": at_cell}
        claims.append(ClaimText(_sentence(template, cell, written), int(kind == "supported"), kind, "template",
                                detail))
    return claims


def template_claims(table: Table, rng: random.Random, source: SourceNumbers, cap: int
                    ) -> tuple[list[ClaimText], Counter[str]]:
    """Up to ``cap`` cells' claims, the cells drawn in a seeded order; the tally says what was used or skipped."""
    cells = table.cells()
    tally: Counter[str] = Counter({"claim cells": len(cells)})
    rng.shuffle(cells)
    claims: list[ClaimText] = []
    for cell in cells:
        if tally["cells used"] == cap:
            break
        made = cell_claims(table, cell, rng, source)
        if isinstance(made, str):
            tally[f"cells skipped: {made}"] += 1
            continue
        tally["cells used"] += 1
        claims.extend(made)
    return claims, tally
