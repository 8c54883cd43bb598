"""Labelled claims against their sources: does the support verdict tell a supported figure from a wrong one?

**Data.** A JSONL file, one claim a line: ``{"source": str, "claim": str, "label": 0 | 1}`` and optionally
``id`` (str or int, unique; default ``line-N``), ``kind`` and ``group`` (str: e.g. ``"misplaced"``,
``"template"``). Label 1: the claim's figures are supported by its source. Any other field is kept as metadata
(`Claim.extra`; FilingClaims adds ``form``, ``split``, ``table``). A malformed line fails as
``FILE:LINE: field ...``. This is the format of any held-out set of claims: nothing here knows where they came from.

**Scoring.** Each distinct (claim, source) pair is scored once by the scorer given (the pairs ordered by source,
so a chunk encodes a source once). Per row, from the scorer's output only: ``numeric_support`` (share of the
claim's figures supported, 1.0 when it states none) and ``verdict`` (1 when the pair's ``unsupported_numbers``
list is empty). Beside them, the value-anywhere check (`benchmarks.value_anywhere`): ``value_anywhere_share``
and ``value_anywhere`` (1 when every digit string of the claim is found by value in the source).

**Metrics** (`claim_tables`), label 1 positive: ROC AUC of the two shares, balanced accuracy of the two binary
checks (no threshold), overall; per ``kind`` (the label-0 rows of that kind against every label-1 row); per
``group`` (that group's rows); per group and kind. Per kind also the share of rows each check flags, the
verdicts (any string) of the figures the scorer did not call supported and the share of rows with a figure whose
verdict is ``computed`` (no number states its value, a derivation of the source's numbers gives it: it counts as
supported). On label-0 rows that share is the **false-computed rate** (`false_computed`): wrong values that a
derivation excused; it is given overall, per kind, per group and per group and kind. It needs the scorer's
``figure_verdicts`` (every figure's verdict); without them it is None.
"""

from __future__ import annotations

import hashlib
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..verdicts.spec import DERIVED
from .registry import ScorerSource, scorer_factory
from .summedits.metrics import balanced_accuracy, roc_auc
from .value_anywhere import value_anywhere_share

REQUIRED_FIELDS = ("source", "claim", "label")
LABEL_FIELDS = ("kind", "group")  # optional strings the tables break the rows down by
FIELDS = {
    "numeric_support": "share of the claim's figures that NASH's verdict supports (1.0 when it states none): AUC",
    "verdict": "1 when NASH lists no figure of the claim as not supported: BA (binary, no threshold)",
    "value_anywhere_share": "share of the claim's digit strings found by value anywhere in the source: AUC",
    "value_anywhere": "1 when every digit string of the claim is found by value in the source: BA",
    "false_computed": "share of label-0 rows with a figure whose verdict is computed (from figure_verdicts)",
}


@dataclass(frozen=True)
class Claim:
    """One labelled claim: its file line (1-based; 0 when built in memory), text, source and label."""

    line: int
    id: str
    source: str
    claim: str
    label: int  # 1: its figures are supported by the source
    kind: str | None = None
    group: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)  # every other field of the line


@dataclass(frozen=True)
class ClaimScores:
    """Per claim: what the scorer and the value-anywhere check say."""

    numeric_support: np.ndarray
    verdict: np.ndarray  # 1.0: no figure listed as not supported
    value_anywhere_share: np.ndarray
    value_anywhere: np.ndarray  # 1.0: every digit string found
    flagged: tuple[tuple[str, ...], ...]  # per claim, the verdict of each figure listed as not supported
    # Per claim, the verdict of every figure (the scorer's figure_verdicts); None when the scorer gives none.
    verdicts: tuple[tuple[str, ...], ...] | None = None


# -- reading ------------------------------------------------------------------------------------------------


def _text_field(where: Any, record: dict, name: str, required: bool) -> str | None:
    value = record.get(name)
    if value is None and not required:
        return None
    if name not in record:
        raise where(f"missing field {name!r}; fields are {sorted(record)}")
    if not isinstance(value, str):
        raise where(f"field {name!r} must be a string, got {type(value).__name__}")
    if required and not value.strip():
        raise where(f"field {name!r} is empty")
    return value


def claim_from_record(record: dict, line: int, fail: Any) -> Claim:
    """One claim from a decoded line; ``fail(message)`` makes the error that names the file and line."""
    source, claim = (_text_field(fail, record, name, True) for name in ("source", "claim"))
    label = record.get("label")
    if "label" not in record:
        raise fail(f"missing field 'label'; fields are {sorted(record)}")
    if isinstance(label, bool) or not isinstance(label, (int, float)) or label not in (0, 1):
        raise fail(f"field 'label' must be 0 or 1, got {label!r}")
    kind, group = (_text_field(fail, record, name, False) for name in LABEL_FIELDS)
    claim_id = record.get("id", f"line-{line}")
    if isinstance(claim_id, bool) or not isinstance(claim_id, (str, int)):
        raise fail(f"field 'id' must be a string or an integer, got {type(claim_id).__name__}")
    extra = {k: v for k, v in record.items() if k not in (*REQUIRED_FIELDS, *LABEL_FIELDS, "id")}
    return Claim(line, str(claim_id), source, claim, int(label), kind, group, extra)


def read_claims(path: str | Path, limit: int | None = None) -> tuple[dict[str, Any], list[Claim]]:
    """The claims of a JSONL file (``limit``: the first N; every line is checked) and what was read."""
    from ..common.io import InputFileError, read_text
    from ..corpus.records import jsonl_records, text_lines

    path = Path(path)
    text = read_text(path)
    claims, seen = [], {}
    for number, record in jsonl_records(path, text_lines(text)):
        claim = claim_from_record(record, number, lambda message, n=number: InputFileError(path, n, message))
        if claim.id in seen:
            raise InputFileError(path, number, f"field 'id': {claim.id!r} is also the id of line {seen[claim.id]}")
        seen[claim.id] = number
        claims.append(claim)
    if not claims:
        raise InputFileError(path, None, "no claims (expected one JSON object a line)")
    info = {"path": str(path), "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
            "rows_in_file": len(claims), "rows_used": min(len(claims), limit or len(claims))}
    return info, claims[:limit] if limit is not None else claims


# -- scoring ------------------------------------------------------------------------------------------------


def _verdicts(entries: Any, pair: int) -> tuple[str, ...]:
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise ValueError(f"pair {pair}: unsupported_numbers must be a list of dicts, got {entries!r:.80}")
    return tuple(str(e.get("verdict", "unknown")) for e in entries)


def by_source(pairs: Iterable[tuple[str, str]]) -> tuple[list[tuple[str, str]], dict[tuple[str, str], int], int]:
    """The distinct (text, source) pairs, grouped by source in order of first appearance (a chunk then encodes a
    source once), each pair's place in that order, and the number of sources."""
    seen: dict[tuple[str, str], int] = {}
    first_seen: dict[str, int] = {}
    for text, source in pairs:
        first_seen.setdefault(source, len(first_seen))
        seen.setdefault((text, source), len(seen))
    order = sorted(seen, key=lambda pair: (first_seen[pair[1]], seen[pair]))
    return order, {pair: k for k, pair in enumerate(order)}, len(first_seen)


def score_claims(scorer: Any, claims: Sequence[Claim], show_progress: bool = True) -> tuple[ClaimScores, dict]:
    """Every claim scored: each distinct (claim, source) pair once, the pairs grouped by source."""
    order, position, sources = by_source((c.claim, c.source) for c in claims)
    if show_progress:
        print(f"  {len(claims)} claims, {len(order)} distinct (claim, source) pairs, {sources} sources; "
              f"model {scorer.echo['model']} ({scorer.echo['backend']})", file=sys.stderr)
    out = scorer.score([p for p, _ in order], [s for _, s in order], show_progress=show_progress)
    for name in ("numeric_support", "unsupported_numbers"):
        if not hasattr(out, name):
            raise AttributeError(f"the scorer's output has no {name!r}: claims need a NASH that reports it")
    if len(out.unsupported_numbers) != len(order):
        raise ValueError(f"the scorer listed unsupported numbers for {len(out.unsupported_numbers)} of "
                         f"{len(order)} pairs")
    index = np.array([position[(c.claim, c.source)] for c in claims], np.int64)
    flagged = [_verdicts(entries, k) for k, entries in enumerate(out.unsupported_numbers)]
    every = getattr(out, "figure_verdicts", None)
    if every is not None and len(every) not in (0, len(order)):
        raise ValueError(f"the scorer gave figure verdicts for {len(every)} of {len(order)} pairs")
    verdicts = [_verdicts(entries, k) for k, entries in enumerate(every)] if every else None
    share = np.array([value_anywhere_share(p, s) for p, s in order])
    scores = ClaimScores(
        numeric_support=np.asarray(out.numeric_support, dtype=float)[index],
        verdict=np.array([0.0 if f else 1.0 for f in flagged])[index],
        value_anywhere_share=share[index],
        value_anywhere=(share == 1.0).astype(float)[index],
        flagged=tuple(flagged[k] for k in index),
        verdicts=None if verdicts is None else tuple(verdicts[k] for k in index),
    )
    info = {"claims": len(claims), "distinct_pairs": len(order), "sources": sources,
            "threshold": out.config.get("threshold")}
    return scores, info


# -- metrics ------------------------------------------------------------------------------------------------


def _labels(claims: Sequence[Claim]) -> np.ndarray:
    return np.array([c.label for c in claims], np.int64)


def metric_cell(y: np.ndarray, scores: ClaimScores, keep: np.ndarray) -> dict[str, Any]:
    """AUC of the shares and BA of the binary checks on the rows ``keep``, with the count of each class."""
    yy = y[keep]
    return {
        "positives": int((yy == 1).sum()), "negatives": int((yy == 0).sum()),
        "numeric_support_auc": roc_auc(yy, scores.numeric_support[keep]),
        "verdict_ba": balanced_accuracy(yy, scores.verdict[keep] >= 0.5),
        "value_anywhere_share_auc": roc_auc(yy, scores.value_anywhere_share[keep]),
        "value_anywhere_ba": balanced_accuracy(yy, scores.value_anywhere[keep] >= 0.5),
    }


def _values(claims: Sequence[Claim], name: str, mask: np.ndarray) -> list[str]:
    """The distinct values of the field ``name`` among the rows ``mask``, in order of appearance."""
    return list(dict.fromkeys(getattr(c, name) for c, m in zip(claims, mask) if m and getattr(c, name) is not None))


def computed_share(scores: ClaimScores, keep: np.ndarray) -> float | None:
    """The share of the rows ``keep`` with a figure whose verdict is ``computed`` (`verdicts.spec.DERIVED`; on
    label-0 rows: the false-computed rate); None without rows or without the scorer's figure verdicts."""
    rows = np.flatnonzero(keep)
    if scores.verdicts is None or not len(rows):
        return None
    return float(np.mean([any(v in DERIVED for v in scores.verdicts[k]) for k in rows]))


def _flag_row(scores: ClaimScores, keep: np.ndarray, y: np.ndarray) -> dict[str, Any]:
    n = int(keep.sum())
    tally = Counter(v for k in np.flatnonzero(keep) for v in scores.flagged[k])
    return {"rows": n, "flagged_by_verdict": float((scores.verdict[keep] < 0.5).mean()) if n else None,
            "flagged_by_value_anywhere": float((scores.value_anywhere[keep] < 0.5).mean()) if n else None,
            "with_computed_figure": computed_share(scores, keep),
            "false_computed": computed_share(scores, keep & (y == 0)),
            "figure_verdicts": dict(sorted(tally.items()))}


def claim_tables(claims: Sequence[Claim], scores: ClaimScores, mask: np.ndarray | None = None) -> dict[str, Any]:
    """The metrics of the rows ``mask`` (all when None): overall, per kind, per group, per group and kind."""
    mask = np.ones(len(claims), bool) if mask is None else np.asarray(mask, bool)
    y = _labels(claims)
    kind = np.array([c.kind for c in claims], dtype=object)
    group = np.array([c.group for c in claims], dtype=object)
    negative_kinds = _values(claims, "kind", mask & (y == 0))
    groups = _values(claims, "group", mask)
    out: dict[str, Any] = {"overall": metric_cell(y, scores, mask), "kind": {}, "group": {}, "group_kind": {}}
    for k in negative_kinds:
        out["kind"][k] = metric_cell(y, scores, mask & ((y == 1) | (kind == k)))
    for g in groups:
        in_group = mask & (group == g)
        out["group"][g] = metric_cell(y, scores, in_group)
        for k in _values(claims, "kind", in_group & (y == 0)):
            out["group_kind"][f"{g} · {k}"] = metric_cell(y, scores, in_group & ((y == 1) | (kind == k)))
    out["flags"] = {k: _flag_row(scores, mask & (kind == k), y) for k in _values(claims, "kind", mask)}
    if not out["flags"]:
        out["flags"] = {f"label {v}": _flag_row(scores, mask & (y == v), y) for v in (1, 0)
                        if (mask & (y == v)).any()}
    negative = mask & (y == 0)
    out["false_computed"] = {
        "overall": computed_share(scores, negative),
        "kind": {k: computed_share(scores, negative & (kind == k)) for k in negative_kinds},
        "group": {g: computed_share(scores, negative & (group == g)) for g in _values(claims, "group", negative)},
        "group_kind": {f"{g} · {k}": computed_share(scores, negative & (group == g) & (kind == k))
                       for g in _values(claims, "group", negative)
                       for k in _values(claims, "kind", negative & (group == g))},
    }
    return out


# -- report -------------------------------------------------------------------------------------------------


def _cell_row(name: str, cell: dict[str, Any]) -> list[Any]:
    return [name, f"{cell['positives']}/{cell['negatives']}", cell["numeric_support_auc"], cell["verdict_ba"],
            cell["value_anywhere_share_auc"], cell["value_anywhere_ba"]]


METRIC_HEADERS = ["rows", "n (+/−)", "numeric_support AUC", "verdict BA", "value-anywhere share AUC",
                  "value-anywhere BA"]


def metric_rows(tables: dict[str, Any], prefix: str = "", group_kind: bool = True) -> list[list[Any]]:
    """One table row per subset of ``claim_tables``: overall, kinds, groups and (with ``group_kind``) group × kind."""
    rows = [_cell_row(f"{prefix}overall", tables["overall"])]
    rows += [_cell_row(f"{prefix}kind {k} vs label 1", c) for k, c in tables["kind"].items()]
    rows += [_cell_row(f"{prefix}group {g}", c) for g, c in tables["group"].items()]
    rows += [_cell_row(f"{prefix}{gk} vs label 1", c) for gk, c in tables["group_kind"].items() if group_kind]
    return rows


def _share(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def flag_markdown(tables: dict[str, Any]) -> str:
    """Per kind: the share of rows each check flags, the share with a figure called computed (on a label-0 kind:
    its false-computed rate) and the verdicts of the figures not supported; then the false-computed rate of the
    label-0 rows overall and per group."""
    from ..common.reporting import markdown_table

    rows = [[k, f["rows"], f["flagged_by_verdict"], f["flagged_by_value_anywhere"],
             f.get("with_computed_figure"),
             ", ".join(f"{v} {n}" for v, n in f["figure_verdicts"].items()) or "–"]
            for k, f in tables["flags"].items()]
    table = markdown_table(["kind", "rows", "flagged by verdict", "flagged by value-anywhere",
                            "with a figure called computed", "verdicts of the figures not supported"], rows)
    rates = tables.get("false_computed")
    if not rates:
        return table
    parts = [f"all {_share(rates['overall'])}", *(f"group {g} {_share(v)}" for g, v in rates["group"].items())]
    return (f"{table}\n\nFalse-computed rate (share of the label-0 rows with a figure whose verdict is computed): "
            f"{' · '.join(parts)}")


def markdown(result: dict[str, Any]) -> str:
    """The tables ``nash bench claims`` prints."""
    from ..common.reporting import markdown_table

    res, config = result["results"], result["config"]
    data = config["data"]
    limited = f" · first {config['limit']} rows" if config.get("limit") else ""
    parts = [f"Claims · {data['path']} ({res['scoring']['claims']} rows, {res['scoring']['distinct_pairs']} "
             f"distinct pairs{limited}) · {config['model']} ({config['backend']}) · hashcode {config['hashcode']}",
             "Label 1 = the claim's figures are supported. AUC of the shares, balanced accuracy of the binary checks "
             "(verdict: no figure listed as not supported; value-anywhere: every digit string found by value).",
             markdown_table(METRIC_HEADERS, metric_rows(res["tables"])),
             "### Share of rows flagged, per kind\n\n" + flag_markdown(res["tables"])]
    return "\n\n".join(parts) + "\n"


# -- benchmark entry point ----------------------------------------------------------------------------------


def scorer_config(scorer: Any) -> dict[str, Any]:
    return {**scorer.echo, "hashcode": scorer.hashcode}


def run_claims(scorer: Any, claims: Sequence[Claim], show_progress: bool = True) -> dict[str, Any]:
    """Scores and tables of ``claims``: the ``results`` of ``evaluate``."""
    scores, info = score_claims(scorer, claims, show_progress)
    return {"fields": dict(FIELDS), "scoring": info, "tables": claim_tables(claims, scores)}


def evaluate(scorer: ScorerSource, data: str | Path, *, limit: int | None = None,
             show_progress: bool = True) -> dict[str, Any]:
    """``nash bench claims``: the claims of the JSONL file ``data`` (``limit``: its first N rows), scored."""
    from ..common.reporting import result_envelope

    if limit is not None and limit < 1:
        raise ValueError(f"--limit must be a positive integer, got {limit}")
    info, claims = read_claims(data, limit)
    nash = scorer_factory(scorer)()
    if show_progress:
        print(f"Claims from {data}: {len(claims)} rows{f' (--limit {limit})' if limit else ''}", file=sys.stderr)
    results = run_claims(nash, claims, show_progress)
    return result_envelope("claims", {**scorer_config(nash), "data": info, "limit": limit}, results)


def claims_of(records: Iterable[dict[str, Any]]) -> list[Claim]:
    """Claims from records built in memory (errors name the record's index)."""
    def fail(index: int) -> Any:
        return lambda message: ValueError(f"claim {index}: {message}")

    return [claim_from_record(r, 0, fail(k)) for k, r in enumerate(records)]
