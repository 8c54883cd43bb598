"""TabFact (Chen et al., 2020): a statement a Wikipedia table entails, and the annotator's rewrite it refutes.

**Data** (a folder with ``pairs.jsonl``, or the file): one pair a line, ``table_file``, ``table`` (the released CSV:
``#``-separated cells, ``\\r\\n`` or ``\\n`` lines, the first line the header), ``entailed`` and ``refuted`` (the
rewrite, which differs in a number). A malformed line fails as ``FILE:LINE: ...``, naming the field.

**Labels.** Each statement is a claim against its table rendered as a Markdown pipe table (header row, ``|---|``,
body): the entailed one right (1), the refuted one wrong (0).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .scoring import Text

PAIRS = "pairs.jsonl"
STATEMENTS = ("entailed", "refuted")  # label 1, label 0


@dataclass(frozen=True)
class Pair:
    """One TabFact pair (``line``: its line in the file): its table, the entailed statement and the refuted one."""

    line: int
    table_file: str
    table: str
    entailed: str
    refuted: str


def table_rows(table: str) -> list[list[str]]:
    """The rows of a TabFact table: lines split at ``#``, cells stripped; blank lines dropped."""
    return [[cell.strip() for cell in line.split("#")] for line in table.splitlines() if line.strip()]


def markdown_table(table: str) -> str:
    """The table as a Markdown pipe table: the header row, ``|---|``, the body (a ``|`` in a cell escaped)."""
    rows = table_rows(table)
    if not rows:
        raise ValueError("the table has no rows")
    width = len(rows[0])

    def line(cells: list[str]) -> str:
        cells = [*cells, *([""] * (width - len(cells)))]
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    return "\n".join([line(rows[0]), "|" + "|".join("---" for _ in range(width)) + "|", *map(line, rows[1:])]) + "\n"


def pairs_file(data: str | Path) -> Path:
    path = Path(data)
    return path / PAIRS if path.is_dir() else path


def read_tabfact(data: str | Path, limit: int | None = None) -> tuple[dict[str, Any], list[Pair]]:
    """The pairs of ``pairs.jsonl`` (``data``: the file or its folder; ``limit``: the first N, every line checked)
    and what was read."""
    from ...common.io import InputFileError, read_text
    from ...corpus.records import jsonl_records, string_field, text_lines

    path = pairs_file(data)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file")
    text = read_text(path)
    pairs = []
    for number, record in jsonl_records(path, text_lines(text)):
        fields = [string_field(path, number, record, name) for name in ("table_file", "table", *STATEMENTS)]
        rows = table_rows(fields[1])
        if len(rows) < 2:
            raise InputFileError(path, number, "field 'table' must hold a header line and at least one row")
        if fields[2].strip() == fields[3].strip():
            raise InputFileError(path, number, "fields 'entailed' and 'refuted' are the same statement")
        pairs.append(Pair(number, *fields))
    if not pairs:
        raise InputFileError(path, None, "no pairs (expected one JSON object a line)")
    info = {"path": str(path), "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
            "pairs_in_file": len(pairs), "pairs_used": min(len(pairs), limit or len(pairs))}
    return info, pairs[:limit] if limit is not None else pairs


def tabfact_texts(pairs: list[Pair]) -> list[Text]:
    """Two claims per pair against its Markdown table: the entailed one (label 1), the refuted one (label 0)."""
    out = []
    for p in pairs:
        source = markdown_table(p.table)
        out += [Text(f"{p.line}:{name}", "", getattr(p, name), source, label=1 - k)
                for k, name in enumerate(STATEMENTS)]
    return out
