"""A whole NumFinE build from base sentences: units, the six config tables and the build report."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..._version import __version__
from .construction import DROP_REASONS, K_DEFAULT, make_units
from .tables import protocol_tables


@dataclass
class NumFinEBuild:
    units: list[dict[str, Any]]
    tables: dict[str, list[dict[str, Any]]]
    report: dict[str, Any]


def build_numfine(sentences: Iterable[tuple[int, str]] | Sequence[str], seed: int = 0, k: int = K_DEFAULT,
                  source: str | None = None, show_progress: bool = False) -> NumFinEBuild:
    """Units, the six config tables and the build report, from base sentences."""
    units, report = make_units(sentences, seed=seed, k=k, show_progress=show_progress)
    if not units:
        raise ValueError(f"no NumFinE unit could be built from {source or 'the given sentences'}: "
                         f"{report['totals']['targets']} targets, all dropped ({report['totals']['dropped']})")
    tables, cp = protocol_tables(units, seed)
    report = {"source": source, "nash_metric": __version__, **report, "crosspair": cp,
              "rows": {c: len(rows) for c, rows in tables.items()}}
    return NumFinEBuild(units, tables, report)


def build_from_file(path: str | Path, column: str | None = None, seed: int = 0, k: int = K_DEFAULT,
                    encoding: str | None = None, show_progress: bool = False) -> NumFinEBuild:
    from ...io import iter_sentences

    path = Path(path)
    build = build_numfine(list(iter_sentences(path, column, encoding)), seed=seed, k=k, source=str(path),
                          show_progress=show_progress)
    build.report["source_sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    build.report["source_column"] = column
    return build


def build_report_markdown(report: dict[str, Any]) -> str:
    from ...reporting import markdown_table

    rows = []
    for cat, st in report["categories"].items():
        rows.append([cat, st["targets"], st["kept"], *(st["dropped"][r] for r in DROP_REASONS),
                     ", ".join(f"{k} {v}" for k, v in st["subcategories"].items()) or "–"])
    t = report["totals"]
    rows.append(["**total**", t["targets"], t["kept"], *(t["dropped"][r] for r in DROP_REASONS), ""])
    cat_table = markdown_table(["category", "targets", "kept", "dropped: <k distinct", "dropped: >3 implausible",
                                "dropped: no replacement", "kept by subcategory"], rows)
    s, m = report["sentences"], report["mentions"]
    lines = [
        f"- Source: {report.get('source')} (seed {report['seed']}, k {report['k']})",
        f"- Sentences: {s['read']} read, {s['duplicates']} duplicates, {s['with_numbers']} with numbers; "
        f"mentions found {m['found']} ({m['in_dates_or_times']} inside a date or clock time, which is one target), "
        f"unusable {m['unusable']} {m['unusable_by_reason'] or ''}",
        "", cat_table, "",
        markdown_table(["config", "rows"], list(report["rows"].items())),
        "",
        f"- Cross-pairs: {report['crosspair']['pairs']} pairs; {report['crosspair']['unpaired_units']} units left "
        f"unpaired (odd group sizes); {report['crosspair']['pairs_without_separated_variants']} pairs without "
        f"variants {report['crosspair']['min_ratio']}x apart",
    ]
    return "\n".join(lines)
