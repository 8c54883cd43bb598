"""How the support verdict's constants were chosen: each variant scored on the SummEdits dev domains, pooled.

    python perf/support_ablation.py [--data ../shared/data/summedits] [--output docs/summedits/support_ablation]

Encodes every (summary, reference) pair once per reference mode (sentence backbone, default model and tau),
then recomputes `numeric_support` for each variant from the same mention vectors:

  relative cap   none, 2%, 5% (shipped), 10%: how far apart two figures may be however coarsely written;
  hedges         on (shipped) or off: "about 25%" covers [24, 26] instead of [24.5, 25.5];
  search         argmax (shipped): only the aligned number decides; any: any reference number with cosine >= tau
                 and an agreeing value supports it.

Reports ROC AUC of numeric_support and balanced accuracy of the verdict ("no unsupported number") on the
subset figure edits vs consistent edits (`nash_metric.benchmarks.summedits.evaluation`), per domain and all pooled. The
choice is made on the pooled figures, never per domain; held-out domains judge it.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np

from nash_metric import NASH
from nash_metric.benchmarks.summedits.data import read_summedits, subset_labels
from nash_metric.benchmarks.summedits.metrics import balanced_accuracy, roc_auc
from nash_metric.common.reporting import markdown_table
from nash_metric.pipeline.alignment import align_numbers, value_support
from nash_metric.pipeline.pool import read_pairs
from nash_metric.pipeline.steps import score_chunk
from nash_metric.pipeline.support import numeric_support, support_keys

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "summedits"
SHIPPED = {"relative_cap": 0.05, "hedges": True, "search": "argmax"}
VARIANTS = [
    {"relative_cap": cap, "hedges": hedges, "search": search}
    for cap, hedges, search in itertools.product((None, 0.02, 0.05, 0.10), (True, False), ("argmax", "any"))
]


def any_aligned_support(table, alignment, pairs_a, pairs_b, tau: float) -> np.ndarray:
    """numeric_support when any reference number with cosine >= tau and an agreeing value supports a figure."""
    out = np.ones(len(pairs_a))
    for k, (a, b) in enumerate(zip(pairs_a, pairs_b)):
        n_a, n_b = int(table.counts[a]), int(table.counts[b])
        if not n_a:
            continue
        if not n_b:
            out[k] = 0.0
            continue
        ia = np.arange(table.offsets[a], table.offsets[a] + n_a)
        ib = np.arange(table.offsets[b], table.offsets[b] + n_b)
        agree = value_support(table, ia, ib) & (alignment.cosines[k] >= tau)
        out[k] = agree.any(axis=1).mean()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(DATA))
    parser.add_argument("--output", default=None, help="write OUTPUT.json and OUTPUT.md")
    args = parser.parse_args()

    _, domains = read_summedits(args.data)
    rows = [row for domain in domains.values() for row in domain]
    labels = subset_labels(rows, "figure_edits_vs_consistent")
    kept = [row for row, y in zip(rows, labels) if y >= 0]
    y = labels[labels >= 0]
    row_domains = np.array([row.domain for row in kept])
    scorer = NASH(backend="sentence")
    results: dict[str, list[dict]] = {}
    for mode in ("original", "doc"):
        preds, refs, _ = read_pairs([row.summary for row in kept], [row.reference(mode) for row in kept],
                                    scorer.config.numbers)
        print(f"{mode}: encoding {len(preds)} pairs", file=sys.stderr)
        call = score_chunk(scorer.fitted, preds, refs, show_progress=True)
        pool, tau, table = call.pool, call.tau, call.mentions
        ids_a, ids_b = pool.original_ids(preds), pool.original_ids(refs)
        results[mode] = []
        for variant in VARIANTS:
            table.support = support_keys(pool, table, relative_cap=variant["relative_cap"], hedges=variant["hedges"])
            alignment = align_numbers(table, ids_a, ids_b, keep_cosines=variant["search"] == "any")
            if variant["search"] == "argmax":
                support = numeric_support(alignment, tau)
            else:
                support = any_aligned_support(table, alignment, ids_a, ids_b, tau)
            entry = {**variant}
            for domain in [*domains, "overall"]:
                chosen = row_domains == domain if domain != "overall" else np.ones(len(y), bool)
                entry[domain] = {"auc": roc_auc(y[chosen], support[chosen]),
                                 "ba": balanced_accuracy(y[chosen], (support[chosen] == 1.0).astype(int))}
            results[mode].append(entry)
    text = markdown(results, list(domains))
    print(text)
    if args.output:
        Path(args.output).parent.mkdir(parents=True, exist_ok=True)
        Path(f"{args.output}.json").write_text(json.dumps({"shipped": SHIPPED, "results": results}, indent=1))
        Path(f"{args.output}.md").write_text(text)
    return 0


def markdown(results: dict[str, list[dict]], domains: list[str]) -> str:
    parts = []
    for mode, entries in results.items():
        rows = []
        for e in entries:
            name = (f"cap {'none' if e['relative_cap'] is None else format(e['relative_cap'], '.0%')}, "
                    f"hedges {'on' if e['hedges'] else 'off'}, {e['search']}")
            shipped = all(e[k] == v for k, v in SHIPPED.items())
            rows.append([f"**{name}**" if shipped else name,
                         *(f"{e[d]['auc']:.3f} / {e[d]['ba']:.3f}" for d in [*domains, "overall"])])
        parts.append(f"numeric_support vs {mode}: ROC AUC / verdict BA, figure edits vs consistent edits\n\n"
                     + markdown_table(["variant", *domains, "overall"], rows))
    return "\n\n".join(parts) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
