"""A table rendered as a source, in each form a filing comes in; every form is followed by the paragraphs.

* ``markdown``: pipe rows, every header row kept (the first above the ``---`` line, the others as rows, as a filing
  converted to Markdown shows them), a currency sign in a cell of its own (``| $ | 1,452.4 |``);
* ``html``: ``<table>`` with ``<th>`` cells for the header rows and ``<td>`` cells for the body;
* ``text``: plain-text columns aligned with spaces, labels to the left and figures to the right.
"""

from __future__ import annotations

import html

from .defaults import Form
from .table import Table, read_figure


def _split_currency(cell: str) -> tuple[str, str]:
    """("$", "(5,625)") for "$(5,625)"; ("", cell) for a cell without a leading currency sign."""
    figure = read_figure(cell)
    if figure is None or not figure.currency or not cell.startswith(figure.currency):
        return "", cell
    return figure.currency, cell[len(figure.currency):].strip()


def markdown_table(table: Table) -> str:
    """Pipe rows; a column whose body figures carry a currency sign gets the sign in a cell of its own."""
    width = len(table.rows[0])
    signed = {c for (_, c), f in table.figures.items() if f.currency}
    lines = []
    for r, row in enumerate(table.rows):
        cells = [row[0]]
        for c in range(1, width):
            if c not in signed:
                cells.append(row[c])
            elif r < table.header_rows:
                cells.extend(["", row[c]])
            else:
                cells.extend(_split_currency(row[c]))
        lines.append("| " + " | ".join(cells) + " |")
        if r == 0:
            lines.append("|" + "|".join("---" for _ in cells) + "|")
    return "\n".join(lines)


def html_table(table: Table) -> str:
    """``<table>``: header rows of ``<th>``, body rows of ``<td>``, one row a line."""
    lines = ["<table>"]
    for r, row in enumerate(table.rows):
        tag = "th" if r < table.header_rows else "td"
        lines.append("  <tr>" + "".join(f"<{tag}>{html.escape(cell)}</{tag}>" for cell in row) + "</tr>")
    lines.append("</table>")
    return "\n".join(lines)


def text_table(table: Table) -> str:
    """Whitespace-aligned columns: the label column left-aligned, the others right-aligned, three spaces apart."""
    widths = [max(len(row[c]) for row in table.rows) for c in range(len(table.rows[0]))]
    lines = []
    for row in table.rows:
        cells = [row[0].ljust(widths[0]), *(cell.rjust(w) for cell, w in zip(row[1:], widths[1:]))]
        lines.append("   ".join(cells).rstrip())
    return "\n".join(lines)


RENDERERS = {"markdown": markdown_table, "html": html_table, "text": text_table}


def render_source(table: Table, paragraphs: list[str], form: Form) -> str:
    """The source a claim is checked against: the table in ``form``, then the context's paragraphs."""
    return "\n\n".join([RENDERERS[form](table), *paragraphs])
