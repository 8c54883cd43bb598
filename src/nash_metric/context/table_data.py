"""Data in a source text read as a table: a JSON or Python-repr value, JSON Lines, or either inside a fenced
block of a prompt ("Based on the given data: ```{...}```").

A record is a table row: an object in a list (`forecast[2]`), else the outermost object. Its identifying fields
(`vocabulary.en.IDENTIFYING_KEYS`: a name, date, time, country, team, ... of the record and of the objects around
it) are the row's label, and a value's key path below its record (`main.temp`) is its column header. So a data
cell is a `tables.Cell` like any table's: the binding, the verdict and the reports read one cell model. A value
under an identifier key (`id`, `icon`, `url`) identifies something and states no figure: it is no cell.

Detection is by shape, cheap first: only text that opens with `{`/`[` (the whole text, a fenced block, or a line)
is parsed, and a parse stops at the first character that is not data.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from ..vocabulary.en import ABSENT_VALUES, IDENTIFIER_KEYS, IDENTIFYING_KEYS, PAIR_NAME_KEYS, PAIR_VALUE_KEYS
from .data_parse import DataError, Node, parse_data, parse_lines

__all__ = ["DataBlock", "DataCell", "DataFormat", "data_cells", "find_data", "in_keys", "read_data"]

DataFormat = Literal["json", "jsonl"]
_FENCE = re.compile(r"^[ \t]*```[\w+-]*[ \t]*\n(.*?)^[ \t]*```", re.MULTILINE | re.DOTALL)
_OPENING = re.compile(r"^[ \t]*[\[{(]", re.MULTILINE)
_DIGIT = re.compile(r"\d")
_KEY_PART = re.compile(r"[A-Za-z]+|\d+")


@dataclass(frozen=True)
class DataBlock:
    """A value of data found in a text: its span, its tree, and how it is written."""

    start: int
    end: int
    root: Node
    format: DataFormat


@dataclass(frozen=True)
class DataCell:
    """A value with a digit: its span, its record (a table row), its key path below the record (a column), the
    record's list path ("forecast", "" for the outermost object), its identifying fields, and its full path
    ("forecast[2].main.temp")."""

    start: int
    end: int
    record: int
    column: str
    section: str
    label: str
    path: str


def _is_data(node: Node) -> bool:
    """An object, or a list holding an object or a list: "[1]" or "(see 2019)" in prose is no data."""
    return node.kind == "object" or (node.kind == "list" and any(c.kind in ("object", "list") for _, c in node.items))


def _try(text: str, start: int, end: int) -> DataBlock | None:
    """The data that fills `text[start:end]` (bar white space), or None."""
    try:
        node, stop = parse_data(text, start, end)
    except DataError:
        node = None
    if node is not None and not text[stop:end].strip() and _is_data(node):
        return DataBlock(node.start, node.end, node, "json")
    first = text.find("\n", start, end)
    if first < 0 or not text[start:end].lstrip().startswith("{"):
        return None
    try:
        node = parse_lines(text, start, end)
    except DataError:
        return None
    lead = len(text[start:end]) - len(text[start:end].lstrip())
    return DataBlock(start + lead, len(text[:end].rstrip()), node, "jsonl") if len(node.items) > 1 else None


@functools.lru_cache(maxsize=32)  # the pool and the contexts read a text's data; a call reads few texts at a time
def find_data(text: str) -> tuple[DataBlock, ...]:
    """Every data value in `text`, in text order, none inside another: the whole text when it is data; else each
    fenced block that is; else each run of lines that opens with a bracket and is data to its last line."""
    if not text.strip() or not ("{" in text or "[" in text):
        return ()
    whole = _try(text, 0, len(text)) if text.lstrip()[:1] in "{[(" else None
    if whole is not None:
        return (whole,)
    found: list[DataBlock] = []
    fenced = [(m.start(1), m.end(1)) for m in _FENCE.finditer(text)]
    for a, b in fenced:
        block = _try(text, a, b)
        if block is not None:
            found.append(block)
    taken = [(f.start, f.end) for f in found] + fenced
    for match in _OPENING.finditer(text):
        at = match.end() - 1
        if any(a <= at < b for a, b in taken):
            continue
        try:
            node, stop = parse_data(text, at)
        except DataError:
            continue
        line_end = text.find("\n", stop)
        if _is_data(node) and not text[stop:len(text) if line_end < 0 else line_end].strip():
            found.append(DataBlock(node.start, node.end, node, "json"))
            taken.append((node.start, node.end))
    return tuple(sorted(found, key=lambda block: block.start))


def read_data(text: str, data_format: DataFormat | Literal["python"]) -> DataBlock:
    """`text` read whole as the data format a user names (`--source-format`); `DataError` (with the line and column)
    when it is not."""
    if data_format == "jsonl":
        lead = len(text) - len(text.lstrip())
        return DataBlock(lead, len(text.rstrip()), parse_lines(text, 0, len(text)), "jsonl")
    node, stop = parse_data(text)
    if text[stop:].strip():
        raise DataError("text after the data", text, stop + len(text[stop:]) - len(text[stop:].lstrip()))
    return DataBlock(node.start, node.end, node, "json")


def _identifying(node: Node) -> list[str]:
    return [child.text for key, child in node.items
            if isinstance(key, str) and child.kind in ("string", "number") and _key_name(key) in IDENTIFYING_KEYS
            and child.text.strip()]


def _pair(node: Node) -> tuple[Node, str | int, Node] | None:
    """A name/value record ({"name": "Size", "value": "6.1 inches"}): (the name, the value's key, the value)."""
    if node.kind != "object" or len(node.items) != 2:
        return None
    fields = {_key_name(key): (key, child) for key, child in node.items if isinstance(key, str)}
    name = next((fields[k][1] for k in fields if k in PAIR_NAME_KEYS), None)
    value = next((fields[k] for k in fields if k in PAIR_VALUE_KEYS), None)
    if name is None or value is None or name.kind != "string" or value[1].kind in ("object", "list"):
        return None
    return name, value[0], value[1]


def _pair_names(node: Node) -> Iterator[Node]:
    """The names of the name/value records in `node` whose value is not an absence, in text order."""
    pair = _pair(node)
    if pair is not None:
        if pair[2].text.strip().lower() not in ABSENT_VALUES:
            yield pair[0]
    elif node.kind in ("object", "list"):
        for _, child in node.items:
            yield from _pair_names(child)


def _key_name(key: str) -> str:
    return "_".join(part.lower() for part in _KEY_PART.findall(key))


def _identifier(key: str | int) -> bool:
    if not isinstance(key, str):
        return False
    name = _key_name(key)
    return name in IDENTIFIER_KEYS or name.endswith("_id") or (key.endswith("Id") and len(key) > 2)


def _step(path: str, key: str | int) -> str:
    return f"{path}[{key}]" if isinstance(key, int) else (f"{path}.{key}" if path else str(key))


def data_cells(block: DataBlock) -> Iterator[DataCell]:
    """Every value with a digit in `block`, in text order, with its record and column (see the module)."""
    counter = iter(range(1 << 62))
    yield from _walk(block.root, "", "", ("",), _Record(next(counter), "", ""), counter)


@dataclass(frozen=True)
class _Record:
    number: int
    path: str  # the record's own path ("forecast[2]")
    section: str  # the path of the list it stands in, indices as written ("forecast")


def _walk(node: Node, path: str, relative: str, labels: tuple[str, ...], record: _Record, counter: Iterator[int]
          ) -> Iterator[DataCell]:
    if node.kind == "object":
        labels = (*labels, *_identifying(node))
    for key, child in node.items:
        if _identifier(key):
            continue
        here = _step(path, key)
        pair = _pair(child)
        if pair is not None:  # its name is the column of its value in the record around it
            name, value_key, value = pair
            if value.kind != "literal" and _DIGIT.search(value.text):
                yield DataCell(value.start, value.end, record.number, name.text, record.section, _label(labels, value),
                               _step(here, value_key))
            continue
        if child.kind in ("object", "list"):
            # An object in a list, or one with identifying fields of its own ("home": {"team": ...}), is a record
            # of its own; a list of scalars is one column's values.
            if child.kind == "object" and (isinstance(key, int) or _identifying(child)):
                inner = _Record(next(counter), here, path if isinstance(key, int) else here)
                yield from _walk(child, here, "", labels, inner, counter)
            else:
                yield from _walk(child, here, _step(relative, key), labels, record, counter)
        elif child.kind != "literal" and _DIGIT.search(child.text):
            column = _step(relative, key) if not isinstance(key, int) else relative
            yield DataCell(child.start, child.end, record.number, column, record.section, _label(labels, child), here)


def _label(labels: tuple[str, ...], value: Node) -> str:
    """A record's identifying fields as its row label (the value's own text left out), each with its white space as
    one space: an escaped space ("Aero\\xa0X2") is read as spaces, one for one (`numbers.normalize`)."""
    own = " ".join(value.text.split())
    return " · ".join(part for part in dict.fromkeys(" ".join(p.split()) for p in labels) if part and part != own)


def in_keys(text: str, spans: Sequence[tuple[int, int]]) -> list[bool]:
    """Per span (a number found in `text`), whether it stands inside data but in no value with a digit: in a key
    ("FG3_PCT", "rain.3h") or an identifier ("id": 802). Such a number is no figure of the text. The name of a
    name/value record is a value: it states one ({"name": "3.5mm jack", "value": "Yes"}) unless the value says the
    thing is absent ("No")."""
    blocks = find_data(text)
    if not blocks:
        return [False] * len(spans)
    values = sorted([(c.start, c.end) for block in blocks for c in data_cells(block)]
                    + [(n.start, n.end) for block in blocks for n in _pair_names(block.root)])
    starts = [a for a, _ in values]
    out = []
    for start, end in spans:
        if not any(b.start <= start < b.end for b in blocks):
            out.append(False)
            continue
        k = bisect_right(starts, start) - 1
        out.append(not (k >= 0 and values[k][0] <= start and end <= values[k][1]))
    return out
