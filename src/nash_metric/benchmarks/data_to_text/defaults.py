"""The data-to-text benchmarks' names, default folders and choices, shared with the `nash` flags (light: no numpy)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

Render = Literal["tables", "json"]
TextForm = Literal["detokenized", "tokenized"]
SpanType = Literal["incorrect", "not-checkable", "misleading", "other"]

# Where each set is read from when --data is not given: relative to the working directory (run from the repo root,
# `../shared/data` is the shared data beside it, as the Makefile's SHARED_DATA).
SHARED_DATA = Path("..") / "shared" / "data"
DATA_FOLDERS = {"rotowire": "rotowire", "quintd": "quintd", "tabfact": "tabfact"}

RENDERS: tuple[Render, ...] = ("tables", "json")  # Rotowire: the box score as two Markdown tables, or its JSON
DEFAULT_RENDER: Render = "tables"
TEXT_FORMS: tuple[TextForm, ...] = ("detokenized", "tokenized")  # Rotowire: the text scored
DEFAULT_TEXT_FORM: TextForm = "detokenized"
# quintd: the crowd's span types, in the order of their codes (0-3), and those whose spans mark a wrong figure. A
# figure in a Not checkable span is stated nowhere in the data: unsupported, as the verdict means it.
SPAN_TYPES: tuple[SpanType, ...] = ("incorrect", "not-checkable", "misleading", "other")
DEFAULT_WRONG: tuple[SpanType, ...] = ("incorrect", "not-checkable")


def default_data(name: str) -> Path:
    """The folder a benchmark reads when no --data is given: ``../shared/data/<name>``."""
    return SHARED_DATA / DATA_FOLDERS[name]


def data_folder(name: str, data: str | Path | None) -> Path:
    """``data`` (or the default folder of ``name``) as an existing folder; else an error that says what to give."""
    path = default_data(name) if data is None else Path(data)
    if not path.is_dir():
        given = "" if data is not None else f" (the default, relative to {Path.cwd()})"
        raise FileNotFoundError(f"{path}: no such folder{given}; give --data DIR, the folder of the {name} data "
                                "(../shared/data/" + DATA_FOLDERS[name] + " beside the repo)")
    return path
