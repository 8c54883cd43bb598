"""The authors' released NumFinE: their toolkit's files (``nash/data/`` of ``cnclabs/toolkit.fin.nash``), checked.

Each file is a JSON list of records (JSONL, one record a line, is read too); its stem names its protocol:
``triplet_easy``, ``triplet_medium``, ``triplet_hard``, ``crosspair``, ``listwise`` and the ``*_test`` samples.
Every sentence is an object ``{"text": ..., "num": ...}``, ``num`` being the perturbed numeral as written:

* triplet ``{id, source, category, subcategory, sentence_a, sentence_b, sentence_c}``: a is the anchor, b the
  positive, c the negative;
* cross-pair ``{pair_id, ..., sentence_a, sentence_b, sentence_c, sentence_d}``: the pairs (a, b) and (c, d),
  with an optional ``gold`` (``a``/``pair_a``/``1`` or ``b``/``pair_b``/``2``, the toolkit evaluator's
  spellings) naming the pair that should score higher;
* listwise ``{id, ..., sentence_a, candidates: [{text, num}, ...]}``, with an optional ``gold_order`` (candidate
  indices, most similar first).

A malformed record is an error naming the file, the record index and the field: a missing field, a ``num``
that its text does not state, fewer than two candidates, a ``gold``/``gold_order`` the toolkit would not read.
A folder is read file by file; what was taken and what was skipped (and why) is part of the result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...numbers import extract_numbers
from .schema import Protocol, config_order, protocol_of

SENTENCES: dict[Protocol, tuple[str, ...]] = {
    "triplet": ("sentence_a", "sentence_b", "sentence_c"),
    "crosspair": ("sentence_a", "sentence_b", "sentence_c", "sentence_d"),
    "listwise": ("sentence_a",),
}
ID_FIELD: dict[Protocol, str] = {"triplet": "id", "crosspair": "pair_id", "listwise": "id"}
LABEL_FIELDS = ("source", "category", "subcategory")
GOLD_A, GOLD_B = ("a", "pair_a", "1"), ("b", "pair_b", "2")
SUFFIXES = (".json", ".jsonl")


@dataclass(frozen=True)
class ReleasedFile:
    """One released file (or one config of a folder built from them): its checked records, as released."""

    path: Path
    config: str  # the file stem, which names the config of a built folder
    protocol: Protocol
    records: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class Release:
    """What a path held: the files taken, and the files skipped with the reason."""

    files: tuple[ReleasedFile, ...]
    skipped: tuple[tuple[str, str], ...] = ()

    def describe(self) -> str:
        took = ", ".join(f"{f.path.name} ({f.protocol}, {len(f.records)} records)" for f in self.files)
        left = "; ".join(f"{name} ({why})" for name, why in self.skipped)
        return f"took {took}" + (f"; skipped {left}" if left else "")


def read_release(path: str | Path) -> Release:
    """The released file ``path``, or every released file of the folder ``path`` (others skipped, with reasons)."""
    path = Path(path)
    if path.is_file():
        return Release((read_released_file(path),))
    if not path.is_dir():
        raise FileNotFoundError(f"{path}: no such file or folder")
    taken: list[ReleasedFile] = []
    skipped: list[tuple[str, str]] = []
    for f in sorted(p for p in path.iterdir() if not p.name.startswith(".")):
        why = _skip_reason(f)
        if why:
            skipped.append((f.name, why))
        else:
            taken.append(read_released_file(f))
    if not taken:
        raise ValueError(f"{path}: no README.md with `configs:` (a built folder) and no released NumFinE file (a "
                         ".json named triplet*, crosspair* or listwise*); skipped "
                         f"{', '.join(f'{n} ({why})' for n, why in skipped) or 'nothing: the folder is empty'}")
    stems = [f.config for f in taken]
    twice = sorted({c for c in stems if stems.count(c) > 1})
    if twice:
        raise ValueError(f"{path}: two files for config(s) {twice} (a config is named after its file's stem)")
    return Release(tuple(sorted(taken, key=lambda f: config_order(f.config))), tuple(skipped))


def _skip_reason(path: Path) -> str | None:
    if not path.is_file():
        return "a folder"
    if path.suffix.lower() not in SUFFIXES:
        return f"not {' or '.join(SUFFIXES)}"
    if protocol_of(path.stem) is None:
        return "its name names no protocol (triplet*, crosspair*, listwise*)"
    return None


def read_released_file(path: str | Path) -> ReleasedFile:
    """One released file, every record checked; the protocol comes from the stem, else from the first record."""
    path = Path(path)
    records = _json_records(path)
    protocol = protocol_of(path.stem) or (_protocol_from_fields(records[0]) if records else None)
    if protocol is None:
        raise ValueError(f"{path}: neither its name nor its first record's fields say whether it is a triplet, "
                         "crosspair or listwise file (name it triplet_*.json, crosspair*.json or listwise*.json)")
    return released_file(path, path.stem, protocol, records)


def released_file(path: Path, config: str, protocol: Protocol, records: Sequence[Any]) -> ReleasedFile:
    """Records of one file or built config, each checked (errors name ``path``, the record index and the field)."""
    if not records:
        raise ValueError(f"{path}: no records")
    checked = tuple(check_record(path, protocol, i, r) for i, r in enumerate(records))
    return ReleasedFile(path, config, protocol, checked)


def _json_records(path: Path) -> list[Any]:
    from ...common.io import InputFileError, read_json, read_text
    from ...corpus.records import jsonl_records, text_lines

    if path.suffix.lower() not in SUFFIXES:
        raise ValueError(f"{path}: a released NumFinE file is .json (a list of records) or .jsonl")
    if path.suffix.lower() == ".jsonl":
        return [record for _, record in jsonl_records(path, text_lines(read_text(path)))]
    data = read_json(path)
    if not isinstance(data, list):
        raise InputFileError(path, None, f"expected a JSON list of records, got {type(data).__name__}")
    return data


def _protocol_from_fields(record: Any) -> Protocol | None:
    if not isinstance(record, dict):
        return None
    if "candidates" in record:
        return "listwise"
    if "sentence_d" in record:
        return "crosspair"
    return "triplet" if "sentence_c" in record else None


# ------------------------------------------------------------------------------------------- record checks

class RecordError(ValueError):
    """A malformed released record: the file, the record index and the field."""

    def __init__(self, path: Path, index: int, field: str, message: str):
        super().__init__(f"{path}: record {index}: field {field!r}: {message}")


def check_record(path: Path, protocol: Protocol, index: int, record: Any) -> dict[str, Any]:
    """The record with ``num`` as a string; a `RecordError` for anything the protocol cannot use."""
    if not isinstance(record, dict):
        raise ValueError(f"{path}: record {index}: expected an object, got {type(record).__name__}")
    out = dict(record)
    for name in SENTENCES[protocol]:
        out[name] = _sentence(path, index, name, record.get(name), name in record, record)
    if protocol == "listwise":
        out["candidates"] = _candidates(path, index, record)
        _check_gold_order(path, index, record.get("gold_order"), len(out["candidates"]))
    if protocol == "crosspair":
        _check_gold(path, index, record.get("gold"))
    _check_id(path, index, record.get(ID_FIELD[protocol]), ID_FIELD[protocol])
    return out


def _sentence(path: Path, index: int, field: str, value: Any, present: bool, record: dict) -> dict[str, str]:
    if not present:
        raise RecordError(path, index, field, f"missing; the record's fields are {list(record)}")
    if not isinstance(value, dict):
        raise RecordError(path, index, field, f"expected an object {{text, num}}, got {type(value).__name__}")
    text, num = value.get("text"), value.get("num")
    if not isinstance(text, str) or not text.strip():
        raise RecordError(path, index, f"{field}.text", "missing or empty" if text in (None, "") else
                          f"expected a string, got {type(text).__name__}")
    if isinstance(num, bool) or not isinstance(num, (str, int, float)) or not str(num).strip():
        raise RecordError(path, index, f"{field}.num", f"expected the numeral as written, got {num!r}")
    num = str(num).strip()
    if not states(text, num):
        raise RecordError(path, index, f"{field}.num", f"{num!r} is not in its text {text!r}")
    return {**value, "text": text, "num": num}


def _candidates(path: Path, index: int, record: dict) -> list[dict[str, str]]:
    raw = record.get("candidates")
    if not isinstance(raw, list):
        raise RecordError(path, index, "candidates", "missing" if raw is None else
                          f"expected a list of {{text, num}} objects, got {type(raw).__name__}")
    if len(raw) < 2:
        raise RecordError(path, index, "candidates", f"{len(raw)} candidate(s); a list needs at least 2")
    return [_sentence(path, index, f"candidates[{j}]", c, True, record) for j, c in enumerate(raw)]


def _check_gold(path: Path, index: int, gold: Any) -> None:
    if gold is not None and str(gold).strip().lower() not in (*GOLD_A, *GOLD_B):
        raise RecordError(path, index, "gold", f"{gold!r} is not one of {', '.join((*GOLD_A, *GOLD_B))}")


def _check_gold_order(path: Path, index: int, order: Any, n: int) -> None:
    if order is None:
        return
    if not isinstance(order, list) or any(isinstance(i, bool) or not isinstance(i, int) for i in order) \
            or sorted(order) != list(range(n)):
        raise RecordError(path, index, "gold_order",
                          f"{order!r} is not an order of the {n} candidate indices 0..{n - 1}")


def _check_id(path: Path, index: int, value: Any, field: str) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, (str, int))):
        raise RecordError(path, index, field, f"expected a string or an integer, got {value!r}")


# ------------------------------------------------------------------------------------------- numeral values

def num_value(num: str) -> float | None:
    """The value of a released ``num`` as nash-metric's reader reads it ("$1.6 billion" → 1.6e9), None without one."""
    values = [m.value for m in extract_numbers(num) if m.value is not None]
    return float(values[0]) if len(values) == 1 else None


def states(text: str, num: str) -> bool:
    """Whether ``text`` states ``num``: as written, or as a number of the same value ("1,000" for "1000")."""
    if num in text:
        return True
    value = num_value(num)
    return value is not None and any(m.value == value for m in extract_numbers(text))


def id_of(protocol: Protocol, record: dict[str, Any], index: int) -> str:
    """The record's own id (``id``; ``pair_id`` for cross-pairs) as a string, else its index."""
    value = record.get(ID_FIELD[protocol])
    return str(index) if value is None else str(value)
