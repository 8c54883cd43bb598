"""SummEdits rows, their domains' files and the subsets (`evaluation`'s docstring has the whole specification)."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..value_anywhere import blank_list_labels

SUBSETS = {
    "figure_edits_vs_consistent": "positives: consistent edits (label 1, summary != original_summary); negatives: "
    "figure edits (label 0 and numerals(summary) - numerals(original_summary) non-empty)",
    "all_edits": "label 1 vs label 0 among the rows with summary != original_summary",
}
NUMERALS_DEFINITION = ("numerals(text) = multiset of the digit tokens (\\d+ with . , : / groups) that are not part of "
                       "an identifier (glued to letters: COVID-19, SARS-CoV-2, 4D, 49ers; a scale or ordinal suffix "
                       "such as 5bn, 26th, 7pm is allowed), thousands commas removed; a list label opening the text or "
                       "a line (\"5) \", \"2. \", \"(3) \") is skipped")
OVERALL = "overall"
PREFIX = "summedits_"
TEXT_FIELDS = ("doc", "original_summary", "summary")
# A digit token not glued to a letter before it (directly or across a hyphen: "COVID-19") and followed by no
# letter but a scale, ordinal or clock suffix ("5bn", "26th", "7pm").
_NUMERAL = re.compile(r"(?<![A-Za-z0-9.,])(?<![A-Za-z]-)\d+(?:[.,:/]\d+)*(?!\d)"
                      r"(?:(?=(?:bn|mn|m|b|k|st|nd|rd|th|s|am|pm|x)\b)|(?![A-Za-z]))")
_THOUSANDS = re.compile(r",(?=\d{3}(?!\d))")


# -- reading ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SummEditsRow:
    domain: str
    index: int  # position in its file, 0-based
    id: str
    doc: str
    original_summary: str
    summary: str
    label: int  # 1 consistent, 0 inconsistent
    edit_types: tuple[str, ...] = ()
    split: str | None = None

    @property
    def is_edit(self) -> bool:
        return self.summary != self.original_summary

    @property
    def is_figure_edit(self) -> bool:
        """An inconsistent edit that states a figure the original summary does not."""
        return self.label == 0 and self.is_edit and bool(new_numerals(self.summary, self.original_summary))

    def reference(self, mode: str) -> str:
        return self.original_summary if mode == "original" else self.doc


@dataclass(frozen=True)
class DomainFile:
    domain: str
    path: Path
    sha256: str
    rows_in_file: int


def numerals(text: str) -> Counter[str]:
    """The digit-bearing tokens of ``text`` as a multiset (independent of NASH's number reader).

    A list label that opens the text or a line ("5) The email ...") numbers an item, it states no figure: it is
    blanked first, by the value-anywhere check's own rule (`value_anywhere.blank_list_labels`), offsets kept.
    """
    text = blank_list_labels(text)
    return Counter(_THOUSANDS.sub("", m.group()) for m in _NUMERAL.finditer(text))


def new_numerals(summary: str, original: str) -> Counter[str]:
    """The numerals ``summary`` states more often than ``original`` does (multiset difference)."""
    return numerals(summary) - numerals(original)


def domain_of(path: str | Path) -> str:
    stem = Path(path).stem
    return stem[len(PREFIX):] if stem.startswith(PREFIX) and len(stem) > len(PREFIX) else stem


def data_files(data: str | Path | Sequence[str | Path]) -> list[Path]:
    """The files ``data`` names: a folder gives every ``summedits_*.json`` in it (sorted), a file itself."""
    items = [data] if isinstance(data, (str, Path)) else list(data)
    if not items:
        raise ValueError("no SummEdits data given")
    files: list[Path] = []
    for item in items:
        path = Path(item)
        if path.is_dir():
            found = sorted(p for p in path.glob(f"{PREFIX}*.json") if p.is_file())
            if not found:
                raise FileNotFoundError(f"{path}: no {PREFIX}*.json files in this folder")
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            raise FileNotFoundError(f"{path}: no such file or folder")
    domains = Counter(domain_of(p) for p in files)
    if twice := sorted(d for d, n in domains.items() if n > 1):
        raise ValueError(f"domain(s) {', '.join(twice)} given by more than one file: "
                         f"{', '.join(str(p) for p in files if domain_of(p) in twice)}")
    return files


def _row(path: Path, domain: str, index: int, raw: Any) -> SummEditsRow:
    from ...common.io import InputFileError

    def fail(message: str) -> InputFileError:
        return InputFileError(path, None, f"row {index}: {message}")

    if not isinstance(raw, dict):
        raise fail(f"expected an object with fields {', '.join(TEXT_FIELDS)}, label; got {type(raw).__name__}")
    for name in (*TEXT_FIELDS, "label"):
        if name not in raw:
            raise fail(f"missing field {name!r}")
    for name in TEXT_FIELDS:
        if not isinstance(raw[name], str):
            raise fail(f"field {name!r} must be a string, got {type(raw[name]).__name__}")
    label = raw["label"]
    if isinstance(label, bool) or not isinstance(label, (int, float)) or label not in (0, 1):
        raise fail(f"field 'label' must be 0 or 1, got {label!r}")
    row_id = raw.get("id", f"{domain}-{index}")
    if not isinstance(row_id, (str, int)) or isinstance(row_id, bool):
        raise fail(f"field 'id' must be a string or an integer, got {type(row_id).__name__}")
    edit_types = raw.get("edit_types", [])
    if edit_types is None:
        edit_types = []
    if not isinstance(edit_types, list) or not all(isinstance(e, str) for e in edit_types):
        raise fail(f"field 'edit_types' must be a list of strings, got {edit_types!r}")
    split = raw.get("split")
    if split is not None and not isinstance(split, str):
        raise fail(f"field 'split' must be a string, got {type(split).__name__}")
    return SummEditsRow(domain, index, str(row_id), raw["doc"], raw["original_summary"], raw["summary"], int(label),
                        tuple(edit_types), split)


def read_file(path: str | Path, limit: int | None = None) -> tuple[DomainFile, list[SummEditsRow]]:
    """The rows of one SummEdits file (``limit``: the first N; every row is checked)."""
    from ...common.io import InputFileError

    path = Path(path)
    raw_bytes = path.read_bytes()
    try:
        payload = json.loads(raw_bytes.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InputFileError(path, None, f"not valid UTF-8: {exc.reason}") from None
    except json.JSONDecodeError as exc:
        raise InputFileError(path, exc.lineno, f"not valid JSON: {exc.msg} (column {exc.colno})") from None
    if not isinstance(payload, list):
        raise InputFileError(path, None, f"expected a JSON list of rows, got {type(payload).__name__}")
    if not payload:
        raise InputFileError(path, None, "no rows")
    domain = domain_of(path)
    rows = [_row(path, domain, i, raw) for i, raw in enumerate(payload)]
    info = DomainFile(domain, path, hashlib.sha256(raw_bytes).hexdigest(), len(rows))
    return info, rows[:limit] if limit is not None else rows


def read_summedits(data: str | Path | Sequence[str | Path], limit: int | None = None
                   ) -> tuple[list[DomainFile], dict[str, list[SummEditsRow]]]:
    """Every file ``data`` names, and its rows by domain (in file order)."""
    files, domains = [], {}
    for path in data_files(data):
        info, rows = read_file(path, limit)
        files.append(info)
        domains[info.domain] = rows
    return files, domains


# -- subsets and counts -----------------------------------------------------------------------------------


def subset_labels(rows: Sequence[SummEditsRow], subset: str) -> np.ndarray:
    """Per row: 1 positive, 0 negative, -1 outside ``subset``."""
    if subset not in SUBSETS:
        raise ValueError(f"unknown subset {subset!r}; expected one of {', '.join(SUBSETS)}")
    out = np.full(len(rows), -1, np.int64)
    for k, row in enumerate(rows):
        if not row.is_edit:
            continue
        if row.label == 1:
            out[k] = 1
        elif subset == "all_edits" or row.is_figure_edit:
            out[k] = 0
    return out


def counts(rows: Sequence[SummEditsRow]) -> dict[str, Any]:
    edits = [r for r in rows if r.is_edit]
    out = {
        "rows": len(rows),
        "not_edits": len(rows) - len(edits),
        "not_edits_labelled_inconsistent": sum(1 for r in rows if not r.is_edit and r.label == 0),
        "edits": len(edits),
        "consistent_edits": sum(1 for r in edits if r.label == 1),
        "inconsistent_edits": sum(1 for r in edits if r.label == 0),
        "figure_edits": sum(1 for r in edits if r.is_figure_edit),
        "consistent_edits_with_new_numerals": sum(
            1 for r in edits if r.label == 1 and new_numerals(r.summary, r.original_summary)),
        "blank_summaries": sum(1 for r in edits if not r.summary.strip()),
        "blank_original_summaries": sum(1 for r in edits if not r.original_summary.strip()),
        "blank_docs": sum(1 for r in edits if not r.doc.strip()),
    }
    out["subsets"] = {}
    for subset in SUBSETS:
        y = subset_labels(rows, subset)
        out["subsets"][subset] = {"positives": int((y == 1).sum()), "negatives": int((y == 0).sum())}
    return out
