"""Released NumFinE records as the protocol rows the evaluation scores, with the toolkit's semantics.

* triplet: (anchor a, positive b, negative c);
* cross-pair: pairs (a, b) and (c, d); the gold is the record's ``gold`` when present, else the pair whose
  ``num`` deviates less, relatively (|v_b - v_a| / |v_a|, as our own builder compares magnitudes). Records
  whose deviations tie, or whose ``num`` has no value (or a zero base), are left out and counted by reason;
* listwise: the anchor a against every candidate, gold distance |Δ| = |v_candidate - v_a| from ``num`` (the
  paper's protocol, Kendall τ_b); ``gold_order`` is kept for the exact-order accuracy. A record whose ``num``
  has no value is left out, counted.

Only the flattened texts are scored; the records themselves are never rewritten.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .released import GOLD_A, ReleasedFile, id_of, num_value

NO_VALUE = "a num without a numeric value"
ZERO_BASE = "num of the pair's first sentence is 0: no relative deviation"
TIE = "both pairs deviate equally: no gold"


@dataclass(frozen=True)
class ProtocolTable:
    """One config's rows to score and the records left out of it, by reason."""

    rows: list[dict[str, Any]]
    left_out: Counter = field(default_factory=Counter)


def protocol_table(file: ReleasedFile) -> ProtocolTable:
    """The rows of one released file (or built config), flattened for scoring."""
    rows: list[dict[str, Any]] = []
    left_out: Counter = Counter()
    flatten = {"triplet": _triplet, "crosspair": _crosspair, "listwise": _listwise}[file.protocol]
    for i, record in enumerate(file.records):
        common = {"unit_id": id_of(file.protocol, record, i), "category": str(record.get("category") or ""),
                  "subcategory": str(record.get("subcategory") or ""), "source": str(record.get("source") or "")}
        row = flatten(record)
        if isinstance(row, str):
            left_out[row] += 1
        else:
            rows.append({**common, **row})
    return ProtocolTable(rows, left_out)


def _triplet(r: dict[str, Any]) -> dict[str, Any]:
    return {"anchor": r["sentence_a"]["text"], "positive": r["sentence_b"]["text"],
            "negative": r["sentence_c"]["text"]}


def _crosspair(r: dict[str, Any]) -> dict[str, Any] | str:
    label = _gold_label(r.get("gold"))
    if label is None:
        deviations = [_relative_deviation(r[x]["num"], r[y]["num"])
                      for x, y in (("sentence_a", "sentence_b"), ("sentence_c", "sentence_d"))]
        reason = next((d for d in deviations if isinstance(d, str)), None)
        if reason:
            return reason
        da, db = (round(float(d), 12) for d in deviations)
        if da == db:
            return TIE
        label = 0 if da < db else 1
    return {"sentence_a1": r["sentence_a"]["text"], "sentence_a2": r["sentence_b"]["text"],
            "sentence_b1": r["sentence_c"]["text"], "sentence_b2": r["sentence_d"]["text"], "label": label}


def _gold_label(gold: Any) -> int | None:
    """0 when the toolkit's ``gold`` names pair (a, b), 1 for (c, d), None without one (checked on reading)."""
    if gold is None:
        return None
    return 0 if str(gold).strip().lower() in GOLD_A else 1


def _relative_deviation(base: str, changed: str) -> float | str:
    v, w = num_value(base), num_value(changed)
    if v is None or w is None:
        return NO_VALUE
    if v == 0:
        return ZERO_BASE
    return abs(w - v) / abs(v)


def _listwise(r: dict[str, Any]) -> dict[str, Any] | str:
    anchor = num_value(r["sentence_a"]["num"])
    values = [num_value(c["num"]) for c in r["candidates"]]
    if anchor is None or any(v is None for v in values):
        return NO_VALUE
    return {"anchor": r["sentence_a"]["text"], "variants": [c["text"] for c in r["candidates"]],
            "distances": [abs(float(v) - anchor) for v in values], "gold_order": r.get("gold_order")}
