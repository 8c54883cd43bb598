"""The tables `nash bench summedits` prints and its plot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from .data import OVERALL
from .metrics import BINARY_FIELDS


def _cell(metrics: dict[str, Any]) -> str:
    from ...common.reporting import format_cell

    return f"{format_cell(metrics['auc'])} / {format_cell(metrics['balanced_accuracy'])}"


MODE_LABELS = {"original": "summary vs original summary", "doc": "summary vs source document"}


def markdown(result: dict[str, Any]) -> str:
    """The tables ``nash bench summedits`` prints: counts, then AUC / BA per reference mode and subset."""
    from ...common.reporting import format_cell, markdown_table

    res, config = result["results"], result["config"]
    groups = [*res["domains"], OVERALL]
    limited = f" · first {config['limit']} rows per domain" if config.get("limit") else ""
    parts = [f"SummEdits · {config['model']} ({config['backend']}; cosine from the sentence backbone, "
             f"BERTScore F1 from the token backbone) · {', '.join(res['domains'])}{limited}"]
    count_rows = []
    for g in groups:
        c = res["counts"][g]
        count_rows.append([g, c["rows"], c["not_edits"], c["edits"], c["consistent_edits"], c["inconsistent_edits"],
                           c["figure_edits"], c["blank_summaries"]])
    parts.append(markdown_table(["Domain", "rows", "not edits (left out)", "edits", "consistent edits",
                                 "inconsistent edits", "figure edits", "blank summaries"], count_rows))
    parts.append(f"Subsets, {res['numerals']}:\n"
                 + "\n".join(f"- `{name}`: {text}" for name, text in res["subsets"].items()))
    source = res["threshold_source"]
    if source["kind"] == "pooled":
        how = ("one threshold per (field, reference, subset), chosen to maximise BA on all rows of this run "
               "pooled (not per domain) and applied to every domain")
    else:
        how = (f"thresholds fixed beforehand, read from {source['path']} (sha256 {source['sha256'][:12]}…, "
               f"chosen on {', '.join(str(d) for d in source.get('domains') or []) or 'its domains'})")
    if source.get("missing"):
        how += f" (none recorded there for {', '.join(source['missing'])}: no BA)"
    parts.append(f"Cells: ROC AUC / balanced accuracy (label 1 = consistent). BA of continuous fields: {how}; "
                 "the binary fields (verdicts, value_anywhere) need no threshold (1 = consistent).")
    fields = list(res["fields"])
    for mode in res["reference_modes"]:
        for subset in res["subsets"]:
            rows = []
            for g in groups:
                sub = res["counts"][g]["subsets"][subset]
                rows.append([g, f"{sub['positives']}/{sub['negatives']}",
                             *(_cell(res["metrics"][mode][subset][g][f]) for f in fields)])
            parts.append(f"### {MODE_LABELS.get(mode, mode)} · {subset}\n\n"
                         + markdown_table(["Domain", "n (+/−)", *fields], rows))
    threshold_rows = [[f"{mode} · {subset}", *(format_cell(res["thresholds"][mode][subset].get(f), 4)
                                             for f in fields if f not in BINARY_FIELDS)]
                      for mode in res["reference_modes"] for subset in res["subsets"]]
    parts.append("### Thresholds\n\n" + markdown_table(
        ["reference · subset", *(f for f in fields if f not in BINARY_FIELDS)], threshold_rows))
    parts.extend(_verdict_classes(res))
    return "\n\n".join(parts) + "\n"


def _verdict_classes(res: dict[str, Any]) -> list[str]:
    """Per reference mode, one table of the flagged figures by verdict class (all domains pooled)."""
    from ...common.reporting import format_cell, markdown_table

    parts = []
    for mode, subsets in res.get("verdict_classes", {}).items():
        rows, names = [], []
        for subset, groups in subsets.items():
            for label, cell in groups[OVERALL].items():
                names = list(cell["classes"])
                per_class = (f"{c['rows']} / {format_cell(c['share_of_flagged'])}" for c in cell["classes"].values())
                rows.append([f"{subset} · {label}", cell["rows"], cell["rows_flagged"], cell["figures_flagged"],
                             *per_class])
        parts.append(f"### Verdict classes · {MODE_LABELS.get(mode, mode)} · overall\n\n" + markdown_table(
            ["subset · label", "rows", "rows flagged", "figures flagged",
             *(f"{name}: rows / share of figures" for name in names)], rows))
    if parts:
        parts.insert(0, "Verdict classes: per subset and label, the rows with a flagged figure and, per verdict "
                        "class, the rows with at least one figure of it / its share of the flagged figures "
                        "(per domain in the JSON; computed figures count as supported: never flagged, no share).")
    return parts


def plot(result: dict[str, Any], path: str | Path, subset: str = "figure_edits_vs_consistent") -> Path:
    """One panel per reference mode: grouped bars of ROC AUC per domain (and overall) for each field."""
    from matplotlib.figure import Figure

    from ...reports.plot import save_figure

    res, config = result["results"], result["config"]
    modes, groups, fields = res["reference_modes"], [*res["domains"], OVERALL], list(res["fields"])
    fig = Figure(figsize=(max(8.0, 1.3 * len(groups) * len(fields) / 4), 3.6 * len(modes)))
    axes = fig.subplots(len(modes), 1, squeeze=False)[:, 0]
    width = 0.8 / len(fields)
    x = np.arange(len(groups))
    for ax, mode in zip(axes, modes):
        table = res["metrics"][mode][subset]
        for k, field in enumerate(fields):
            values = [table[g][field]["auc"] for g in groups]
            ax.bar(x + (k - (len(fields) - 1) / 2) * width, [np.nan if v is None else v for v in values], width,
                   label=field)
        ax.axhline(0.5, color="grey", linestyle="--", linewidth=1, label="chance")
        ax.set_xticks(x, [f"{g}\n({res['counts'][g]['subsets'][subset]['positives']}/"
                          f"{res['counts'][g]['subsets'][subset]['negatives']})" for g in groups], fontsize=8)
        ax.set_ylim(0.0, 1.0)
        ax.set_ylabel("ROC AUC")
        ax.set_title(f"{MODE_LABELS.get(mode, mode)} · {subset} (consistent/figure edits)", fontsize=9)
    axes[0].legend(loc="lower center", ncol=4, fontsize=7, bbox_to_anchor=(0.5, 1.12))
    fig.suptitle(f"SummEdits · {config['model']} ({config['backend']})", fontsize=10)
    fig.tight_layout()
    return save_figure(fig, path)
