"""A whole NumFinE build from base sentences: units, the six config tables and the build report."""

from __future__ import annotations

import hashlib
import warnings
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
        where, targets = source or "the given sentences", report["totals"]["targets"]
        if not targets:
            raise ValueError(f"no NumFinE unit could be built from {where}: none of its {report['sentences']['read']} "
                             "sentences has a number to perturb")
        raise ValueError(f"no NumFinE unit could be built from {where}: {targets} targets, all dropped "
                         f"({report['totals']['dropped']})")
    tables, cp = protocol_tables(units, seed)
    report = {"source": source, "nash_metric": __version__, **report, "crosspair": cp,
              "rows": {c: len(rows) for c, rows in tables.items()},
              "omitted_configs": omitted_configs(tables, cp, len(units))}
    for config, reason in report["omitted_configs"].items():
        warnings.warn(f"NumFinE config {config!r} omitted (not written, not on the card): {reason}", stacklevel=2)
    return NumFinEBuild(units, tables, report)


def omitted_configs(tables: dict[str, list[dict[str, Any]]], crosspair: dict[str, Any], n_units: int) -> dict[str, str]:
    """Configs without rows, and why: they are not written, since ``load_dataset`` refuses an empty split."""
    reasons = {}
    for config, rows in tables.items():
        if rows:
            continue
        if config == "crosspair":
            cp = crosspair
            reasons[config] = (f"no cross-pair from {n_units} units: {cp['unpaired_units']} without a partner of the "
                               f"same category and distance unit, {cp['pairs_without_separated_variants']} pairs "
                               f"without variants {cp['min_ratio']}x apart; a larger source gives some")
        else:
            reasons[config] = f"no rows from {n_units} units"
    return reasons


def build_from_file(path: str | Path, column: str | None = None, seed: int = 0, k: int = K_DEFAULT,
                    encoding: str | None = None, show_progress: bool = False) -> NumFinEBuild:
    from ...corpus.sentences import iter_sentences

    path = Path(path)
    build = build_numfine(list(iter_sentences(path, column, encoding)), seed=seed, k=k, source=str(path),
                          show_progress=show_progress)
    build.report["source_sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    build.report["source_column"] = column
    return build


def build_report_markdown(report: dict[str, Any]) -> str:
    """The build report as Markdown (a build from the authors' release has its own)."""
    from ...common.reporting import markdown_table

    if report.get("layout") == "released":
        from .released_publish import report_markdown

        return report_markdown(report)

    rows = []
    for cat, st in report["categories"].items():
        rows.append([cat, st["targets"], st["kept"], *(st["dropped"][r] for r in DROP_REASONS),
                     ", ".join(f"{k} {v}" for k, v in st["subcategories"].items()) or "–"])
    t = report["totals"]
    rows.append(["**total**", t["targets"], t["kept"], *(t["dropped"][r] for r in DROP_REASONS), ""])
    cat_table = markdown_table(["category", "targets", "kept", "dropped: <k distinct", "dropped: >3 implausible",
                                "dropped: no replacement", "kept by subcategory"], rows)
    s, m = report["sentences"], report["mentions"]
    omitted = report.get("omitted_configs", {})  # absent from reports of earlier builds
    lines = [
        f"- Source: {report.get('source')} (seed {report['seed']}, k {report['k']})",
        f"- Sentences: {s['read']} read, {s['duplicates']} duplicates, {s['with_numbers']} with numbers; "
        f"mentions found {m['found']} ({m['in_dates_or_times']} inside a date or clock time, which is one target), "
        f"unusable {m['unusable']} {m['unusable_by_reason'] or ''}",
        "", cat_table, "",
        markdown_table(["config", "rows"], [[c, n if c not in omitted else f"{n} (omitted)"]
                                            for c, n in report["rows"].items()]),
        "",
        *(f"- Omitted config `{c}` (not written, not on the card): {why}" for c, why in omitted.items()),
        f"- Cross-pairs: {report['crosspair']['pairs']} pairs; {report['crosspair']['unpaired_units']} units left "
        f"unpaired (odd group sizes); {report['crosspair']['pairs_without_separated_variants']} pairs without "
        f"variants {report['crosspair']['min_ratio']}x apart",
    ]
    return "\n".join(lines)
