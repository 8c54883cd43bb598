"""Building FilingClaims from TAT-QA: the claims of every table, each against every form of its source.

Three groups of claims per table: ``template`` (sampled cells in a sentence: supported, misplaced, unsupported),
``question`` (TAT-QA's questions answered by a stated cell: supported, misplaced) and ``computed`` (TAT-QA's
arithmetic questions, their answers derived from cells: computed, and the false other-row, other-year,
wrong-operation, off and wrong-direction), drawn in that order from one generator per table.

Seeded per table (`random.Random` of the seed and the table's uid), so a table's claims do not depend on the
other tables, on their order or on ``--limit``. The split is by table, from a hash of its uid and the split seed
(not the claim seed): another claim seed keeps every table in its half, so constants tuned on ``tune`` never see
a ``report`` table. The rows are claims-format JSONL (`benchmarks.claims`) with ``kind``, ``group``, ``form``,
``split``, ``table`` and how the claim was made (``cell``, ``figure``, ``cell_value``, ``value_from``, ...; a
computed claim: ``question``, ``derivation``, ``operation``, ``cells``, ``value``, ``changed``, ...).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .computed import computed_claims
from .defaults import CELLS_PER_TABLE, DEFAULT_SEED, DEFAULT_SPLIT_SEED, FORMS, SPLITS, Split
from .figures import ClaimText, SourceNumbers
from .questions import question_claims
from .render import render_source
from .table import paragraphs_of, read_table
from .templates import template_claims

BENCHMARK = "filing-claims"


def split_of(uid: str, split_seed: int = DEFAULT_SPLIT_SEED) -> Split:
    """The half a table belongs to: a hash of its uid and the split seed."""
    digest = hashlib.sha256(f"{BENCHMARK}:split:{split_seed}:{uid}".encode()).digest()
    return SPLITS[digest[0] % 2]


def table_order(uid: str, split_seed: int = DEFAULT_SPLIT_SEED) -> str:
    """A table's place in the order ``--limit`` takes tables in (a fixed pseudo-random order)."""
    return hashlib.sha256(f"{BENCHMARK}:order:{split_seed}:{uid}".encode()).hexdigest()


def read_source(path: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """TAT-QA's contexts (a JSON list of ``{table: {uid, table}, paragraphs, questions}``) and what was read."""
    from ...common.io import InputFileError

    path = Path(path)
    raw = path.read_bytes()
    try:
        contexts = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputFileError(path, getattr(exc, "lineno", None), f"not TAT-QA JSON: {exc}") from None
    if not isinstance(contexts, list) or not contexts:
        raise InputFileError(path, None, "expected a non-empty JSON list of TAT-QA contexts")
    for k, context in enumerate(contexts):
        table = context.get("table") if isinstance(context, dict) else None
        rows = table.get("table") if isinstance(table, dict) else None
        if not isinstance(rows, list) or not rows or not all(isinstance(r, list) and r for r in rows):
            raise InputFileError(path, None, f"context {k}: field 'table.table' must be a non-empty list of rows")
        if not isinstance(table.get("uid"), str):
            raise InputFileError(path, None, f"context {k}: field 'table.uid' must be a string")
    info = {"path": str(path), "sha256": hashlib.sha256(raw).hexdigest(), "contexts": len(contexts)}
    return info, contexts


def _rows(texts: Sequence[ClaimText], sources: dict[str, str], uid: str, split: Split) -> list[dict[str, Any]]:
    rows = []
    for n, text in enumerate(texts):
        for form in FORMS:
            rows.append({"id": f"{uid}:{n}:{form}", "source": sources[form], "claim": text.claim,
                         "label": text.label, "kind": text.kind, "group": text.group, "form": form, "split": split,
                         "table": uid, **text.detail})
    return rows


def context_rows(context: dict[str, Any], seed: int = DEFAULT_SEED, split_seed: int = DEFAULT_SPLIT_SEED,
                 cells_per_table: int = CELLS_PER_TABLE) -> tuple[list[dict[str, Any]], Counter[str]]:
    """Every row of one TAT-QA context (its claims × the forms of its source) and the tally of how they were made."""
    table = read_table(context)
    paragraphs = paragraphs_of(context)
    sources = {form: render_source(table, paragraphs, form) for form in FORMS}
    numbers = SourceNumbers.of(sources.values())
    rng = random.Random(f"{BENCHMARK}:{seed}:{table.uid}")
    templates, tally = template_claims(table, rng, numbers, cells_per_table)
    questions, asked = question_claims(table, context.get("questions") or [], rng)
    tally.update(asked)
    computed, derived = computed_claims(table, context.get("questions") or [], rng, numbers)
    tally.update(derived)
    tally[f"scale from {table.scale_source}"] += 1
    return _rows([*templates, *questions, *computed], sources, table.uid, split_of(table.uid, split_seed)), tally


def build_rows(contexts: Sequence[dict[str, Any]], seed: int = DEFAULT_SEED, split_seed: int = DEFAULT_SPLIT_SEED,
               cells_per_table: int = CELLS_PER_TABLE, show_progress: bool = False
               ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The rows of every context, in source order, and the build's counts."""
    from tqdm.auto import tqdm

    if cells_per_table < 1:
        raise ValueError(f"cells_per_table must be a positive integer, got {cells_per_table}")
    rows: list[dict[str, Any]] = []
    tally: Counter[str] = Counter()
    tables = Counter()
    for context in tqdm(contexts, desc="FilingClaims tables", disable=not show_progress, file=sys.stderr):
        made, counts = context_rows(context, seed, split_seed, cells_per_table)
        rows.extend(made)
        tally.update(counts)
        tables[split_of(context["table"]["uid"], split_seed)] += 1
    claims = Counter((r["split"], r["group"], r["kind"]) for r in rows if r["form"] == FORMS[0])
    report = {"seed": seed, "split_seed": split_seed, "cells_per_table": cells_per_table, "forms": list(FORMS),
              "tables": dict(tables), "rows": len(rows), "tally": dict(sorted(tally.items())),
              "claims": {f"{s} · {g} · {k}": n for (s, g, k), n in sorted(claims.items())}}
    return rows, report


def build(out: str | Path, *, source: str | Path | None = None, seed: int = DEFAULT_SEED,
          show_progress: bool = False, cells_per_table: int = CELLS_PER_TABLE,
          split_seed: int = DEFAULT_SPLIT_SEED) -> dict[str, Any]:
    """``nash build-data filing-claims``: the rows to ``out`` (JSONL), the build report beside it
    (``<out>.build_report.json``); returns the report."""
    from ...common.atomic import replacing
    from ...common.reporting import write_json

    if source is None:
        raise ValueError("FilingClaims is built from TAT-QA's tatqa_dev.json: give source=")
    info, contexts = read_source(source)
    rows, report = build_rows(contexts, seed, split_seed, cells_per_table, show_progress)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with replacing(out) as partial, partial.open("w", encoding="utf-8") as handle:
        handle.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    report = {"benchmark": BENCHMARK, "source": info, **report, "out": str(out), "build_report": str(report_path(out))}
    write_json(report_path(out), report)
    return report


def report_path(out: str | Path) -> Path:
    out = Path(out)
    return out.with_name(out.stem + ".build_report.json")


def build_markdown(report: dict[str, Any]) -> str:
    """The build report as Markdown: tables per split, claims per split, group and kind, how they were made."""
    from ...common.reporting import markdown_table

    head = (f"FilingClaims from {report['source']['path']} ({report['source']['contexts']} contexts) · seed "
            f"{report['seed']}, split seed {report['split_seed']}, {report['cells_per_table']} cells per table · "
            f"tables: {', '.join(f'{s} {n}' for s, n in sorted(report['tables'].items()))} · {report['rows']} rows "
            f"(claims × forms: {', '.join(report['forms'])})")
    head += (" · groups: template (sampled cells), question (TAT-QA answers stated by a cell), computed (TAT-QA's "
             "arithmetic answers, derived from cells; `computed` tallies say which questions were left out and why)")
    claims = markdown_table(["split · group · kind", "claims"], list(report["claims"].items()))
    tally = markdown_table(["count", "n"], list(report["tally"].items()))
    return "\n\n".join([head, claims, tally]) + "\n"
