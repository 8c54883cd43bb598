"""``nash bench filing-claims``: the claims evaluation (`benchmarks.claims`) per split, form, kind and group.

Groups: ``template``, ``question`` and ``computed`` (`computed`: values TAT-QA derives from cells, and false ones
made from the same derivation); beside the metrics, per kind and group, the false-computed rate (label-0 rows
with a figure whose verdict is ``computed``).

The claims come from a build written before (``data``: its JSONL) or are built now from TAT-QA (``source``).
Every selected row is scored once; the tables are then read per split (``tune``, ``report``), over all forms and
per form. ``limit``: the first N tables of each split, in a fixed pseudo-random order (`build.table_order`), every
claim and form of a table kept together.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..claims import (
    FIELDS,
    METRIC_HEADERS,
    Claim,
    claim_tables,
    claims_of,
    flag_markdown,
    metric_rows,
    read_claims,
    score_claims,
    scorer_config,
)
from ..registry import ScorerSource, scorer_factory
from .build import BENCHMARK, build_rows, read_source, table_order
from .defaults import CELLS_PER_TABLE, DEFAULT_SEED, DEFAULT_SPLIT, DEFAULT_SPLIT_SEED, FORMS, SPLIT_CHOICES, SPLITS

BUILD_FIELDS = ("form", "split", "table")  # what a FilingClaims row adds to the claims format


def _check_rows(claims: Sequence[Claim], path: str) -> None:
    for c in claims:
        for name in BUILD_FIELDS:
            if not isinstance(c.extra.get(name), str):
                raise ValueError(f"{path}:{c.line}: field {name!r} missing or not a string: not a FilingClaims "
                                 "build (nash build-data filing-claims)")
        if c.extra["split"] not in SPLITS or c.extra["form"] not in FORMS:
            raise ValueError(f"{path}:{c.line}: split {c.extra['split']!r} or form {c.extra['form']!r} is not one "
                             f"of {SPLITS} / {FORMS}")


def load_claims(data: str | Path | None, source: str | Path | None, seed: int, split_seed: int,
                cells_per_table: int, show_progress: bool) -> tuple[dict[str, Any], list[Claim]]:
    """The claims of a build (``data``) or built now from ``source``, and where they came from."""
    if (data is None) == (source is None):
        raise ValueError("give either data (a FilingClaims .jsonl built before) or source (TAT-QA's tatqa_dev.json)")
    if data is not None:
        info, claims = read_claims(data)
        _check_rows(claims, str(data))
        return {"kind": "build", **info}, claims
    info, contexts = read_source(source)
    rows, report = build_rows(contexts, seed, split_seed, cells_per_table, show_progress)
    return {"kind": "built now", "source": info, **{k: report[k] for k in ("seed", "split_seed", "cells_per_table")},
            "rows": len(rows)}, claims_of(rows)


def select(claims: Sequence[Claim], splits: Sequence[str], limit: int | None, split_seed: int) -> list[Claim]:
    """The claims of ``splits``; with ``limit``, of the first N tables of each split in `table_order`."""
    kept = [c for c in claims if c.extra["split"] in splits]
    if limit is None:
        return kept
    chosen = set()
    for split in splits:
        tables = sorted({c.extra["table"] for c in kept if c.extra["split"] == split},
                        key=lambda uid: table_order(uid, split_seed))
        chosen.update(tables[:limit])
    return [c for c in kept if c.extra["table"] in chosen]


def split_tables(claims: Sequence[Claim], scores: Any, splits: Sequence[str]) -> dict[str, Any]:
    """Per split: the tables of every form together and of each form."""
    split = np.array([c.extra["split"] for c in claims], dtype=object)
    form = np.array([c.extra["form"] for c in claims], dtype=object)
    out = {}
    for s in splits:
        in_split = split == s
        out[s] = {"tables": len({c.extra["table"] for c, m in zip(claims, in_split) if m}),
                  "all_forms": claim_tables(claims, scores, in_split),
                  "forms": {f: claim_tables(claims, scores, in_split & (form == f)) for f in FORMS}}
    return out


def evaluate(scorer: ScorerSource, data: str | Path | None = None, *, limit: int | None = None,
             show_progress: bool = True, source: str | Path | None = None, seed: int = DEFAULT_SEED,
             split_seed: int = DEFAULT_SPLIT_SEED, cells_per_table: int = CELLS_PER_TABLE,
             split: str = DEFAULT_SPLIT) -> dict[str, Any]:
    """FilingClaims scored: ``data`` (a build's JSONL) or ``source`` (TAT-QA, built now with ``seed``,
    ``split_seed``, ``cells_per_table``); ``split``: tune, report or both; ``limit``: N tables per split."""
    from ...common.reporting import result_envelope

    if split not in SPLIT_CHOICES:
        raise ValueError(f"split must be one of {', '.join(SPLIT_CHOICES)}, got {split!r}")
    if limit is not None and limit < 1:
        raise ValueError(f"--limit must be a positive integer, got {limit}")
    splits = SPLITS if split == "both" else (split,)
    info, claims = load_claims(data, source, seed, split_seed, cells_per_table, show_progress)
    claims = select(claims, splits, limit, split_seed)
    if not claims:
        raise ValueError(f"no claims in split {split!r}")
    nash = scorer_factory(scorer)()
    if show_progress:
        print(f"FilingClaims ({info['kind']}): {len(claims)} rows of split {split}"
              f"{f', first {limit} tables per split' if limit else ''}", file=sys.stderr)
    scores, scoring = score_claims(nash, claims, show_progress)
    results = {"fields": dict(FIELDS), "scoring": scoring, "splits": split_tables(claims, scores, splits)}
    config = {**scorer_config(nash), "data": info, "split": split, "limit": limit}
    return result_envelope(BENCHMARK, config, results)


def markdown(result: dict[str, Any]) -> str:
    """Per split: every subset over all forms, then each form's overall and per-kind rows, then what was flagged."""
    from ...common.reporting import markdown_table

    res, config = result["results"], result["config"]
    limited = f" · first {config['limit']} tables per split" if config.get("limit") else ""
    parts = [f"FilingClaims · {res['scoring']['claims']} rows ({res['scoring']['distinct_pairs']} distinct pairs)"
             f"{limited} · {config['model']} ({config['backend']}) · hashcode {config['hashcode']}",
             "Label 1 = the claim states its cell's own value (template, question) or the value TAT-QA derives from "
             "cells (computed). AUC of the shares, balanced accuracy of the binary checks (verdict: no figure listed "
             "as not supported; value-anywhere: every digit string found by value). `kind K vs label 1`: the rows of "
             "kind K against the label-1 rows of the same subset. False-computed rate: the share of label-0 rows with "
             "a figure whose verdict is computed (a wrong value a derivation excused)."]
    for name, split in res["splits"].items():
        rows = metric_rows(split["all_forms"], "all forms · ")
        for form, tables in split["forms"].items():
            rows += metric_rows(tables, f"{form} · ", group_kind=False)
        parts.append(f"### Split {name} ({split['tables']} tables)\n\n" + markdown_table(METRIC_HEADERS, rows))
        parts.append(f"Share of rows flagged, split {name}, all forms:\n\n" + flag_markdown(split["all_forms"]))
    return "\n\n".join(parts) + "\n"
