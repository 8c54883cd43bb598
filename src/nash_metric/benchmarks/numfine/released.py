"""Adapter for the authors' released NumFinE data (JSON or JSONL, one record per unit) into our unit rows."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .construction import sentence_id

RELEASED_SENTENCE_FIELDS = ("original", "sentence", "anchor", "base_sentence", "text")
RELEASED_VARIANT_FIELDS = ("variants", "perturbed", "perturbations", "candidates")
RELEASED_DISTANCE_FIELDS = ("distances", "deltas", "abs_deltas", "diffs")
RELEASED_ITEM_TEXT = ("sentence", "text", "variant", "perturbed")
RELEASED_ITEM_DISTANCE = ("distance", "delta", "abs_delta", "diff")


def read_released(path: str | Path) -> list[dict[str, Any]]:
    """Units from a NumFinE release in JSON (a list, or {"data": [...]}) or JSONL, one record per unit.

    Accepted record fields (first match wins):
      sentence: one of ``original, sentence, anchor, base_sentence, text``;
      variants: one of ``variants, perturbed, perturbations, candidates``, either a list of strings with a
        parallel list in ``distances, deltas, abs_deltas, diffs``, or a list of objects with the text in
        ``sentence, text, variant, perturbed`` and |Δ| in ``distance, delta, abs_delta, diff`` (signed Δ
        is made absolute);
      optional: ``unit_id``/``id``, ``category``, ``subcategory``, ``target``/``numeral``/``number``.
    Anything else fails with the file, the record number and the fields found.
    """
    from ...common.io import InputFileError, iter_jsonl_records, read_text

    path = Path(path)
    text = read_text(path)
    records: list[tuple[int, Any]]
    if path.suffix.lower() == ".jsonl":
        records = list(iter_jsonl_records(path, text))
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputFileError(path, exc.lineno, f"invalid JSON: {exc.msg}") from None
        if isinstance(data, dict) and isinstance(data.get("data"), list):
            data = data["data"]
        if not isinstance(data, list):
            raise InputFileError(path, None, "expected a JSON list of unit records (or {\"data\": [...]})")
        records = [(i, r) for i, r in enumerate(data)]
    where = "line" if path.suffix.lower() == ".jsonl" else "record"
    units = [_released_unit(path, where, n, r) for n, r in records]
    if not units:
        raise InputFileError(path, None, "no records")
    return units


def _first(record: dict, names: Sequence[str]) -> Any:
    return next((record[n] for n in names if n in record), None)


def _released_unit(path: Path, where: str, n: int, record: Any) -> dict[str, Any]:
    def fail(message: str) -> ValueError:
        fields = list(record) if isinstance(record, dict) else type(record).__name__
        return ValueError(f"{path}: {where} {n}: {message} (fields: {fields}); see read_released's docstring")

    if not isinstance(record, dict):
        raise fail("expected an object")
    sentence = _first(record, RELEASED_SENTENCE_FIELDS)
    raw = _first(record, RELEASED_VARIANT_FIELDS)
    if not isinstance(sentence, str) or not sentence.strip():
        raise fail(f"no sentence in any of {list(RELEASED_SENTENCE_FIELDS)}")
    if not isinstance(raw, list) or len(raw) < 3:
        raise fail(f"need a list of at least 3 variants in one of {list(RELEASED_VARIANT_FIELDS)}")
    if all(isinstance(v, str) for v in raw):
        dist = _first(record, RELEASED_DISTANCE_FIELDS)
        if not isinstance(dist, list) or len(dist) != len(raw):
            raise fail(f"string variants need a parallel list in one of {list(RELEASED_DISTANCE_FIELDS)}")
        pairs = list(zip(raw, dist, strict=True))
    elif all(isinstance(v, dict) for v in raw):
        pairs = [(_first(v, RELEASED_ITEM_TEXT), _first(v, RELEASED_ITEM_DISTANCE)) for v in raw]
    else:
        raise fail("variants must be all strings or all objects")
    clean = []
    for j, (vt, d) in enumerate(pairs):
        if not isinstance(vt, str) or isinstance(d, bool) or not isinstance(d, (int, float)):
            raise fail(f"variant {j}: need a text and a numeric distance, got {vt!r}, {d!r}")
        clean.append((vt, abs(float(d))))
    clean.sort(key=lambda p: p[1])
    if len({d for _, d in clean}) < 3 or clean[0][1] == clean[1][1]:
        raise fail("distances must single out a closest and a second-closest variant (ties found)")
    uid = str(record.get("unit_id", record.get("id", f"{sentence_id(sentence)}-r{n}")))
    target = _first(record, ("target", "numeral", "number"))
    return {"unit_id": uid, "sentence_id": sentence_id(sentence), "source_line": n, "sentence": sentence,
            "category": str(record.get("category", "unknown")), "subcategory": str(record.get("subcategory", "")),
            "target": "" if target is None else str(target), "target_start": -1, "target_end": -1,
            "target_value": float("nan"), "rule": "released", "delta_unit": "released",
            "variants": [v for v, _ in clean], "variant_targets": ["" for _ in clean],
            "variant_values": [float("nan")] * len(clean), "distances": [d for _, d in clean],
            "relative_distances": [d for _, d in clean], "replaced_variants": 0}
