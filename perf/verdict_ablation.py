"""How the figure verdict was chosen: every rule and constant measured on dev data only, beside value-anywhere.

    python perf/verdict_ablation.py [--summedits ../shared/data/summedits] [--claims CLAIMS.jsonl]
                                    [--output docs/verdict_ablation]

Dev data: SummEdits' five dev domains (figure edits vs consistent edits, summary against the original summary
and against the doc) and the tuning half of FilingClaims (`nash build-data filing-claims`; its `split` field),
never a held-out set. Each (text, reference) pair is encoded once per data set (default model and backbone);
every variant then recomputes the verdicts from the same mention vectors:

  argmax            the rule of earlier versions (`verdict="argmax"`): only the aligned number decides;
  value only        step 1 alone: a figure is supported when its value is stated anywhere (never misplaced);
  context P/C/M     both steps, `ContextWeights(period=P, cosine=C, margin=M)`.

Reports ROC AUC of `numeric_support` and balanced accuracy of the verdict (no figure flagged), pooled (never per
domain), and the value-anywhere check (`benchmarks.value_anywhere`) on the same rows.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np

from nash_metric import NASH
from nash_metric.benchmarks.summedits.data import read_summedits, subset_labels
from nash_metric.benchmarks.summedits.metrics import balanced_accuracy, roc_auc
from nash_metric.benchmarks.value_anywhere import value_anywhere_share
from nash_metric.common.reporting import markdown_table
from nash_metric.pipeline.pool import read_pairs
from nash_metric.pipeline.steps import score_chunk
from nash_metric.pipeline.support import (
    CONTEXT_WEIGHTS,
    SUPPORTED,
    ContextWeights,
    argmax_verdicts,
    context_verdicts,
    support_fields,
)

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "summedits"
GRID = [ContextWeights(p, c, m) for p, c, m in itertools.product((0.0, 0.5, 1.0), (0.0, 0.5, 1.0), (0.15, 0.25, 0.5))]
NEVER = ContextWeights(0.0, 0.0, float("inf"))  # value only: no figure is ever misplaced


@dataclass
class DevSet:
    name: str
    predictions: list[str]
    references: list[str]
    labels: np.ndarray  # 1 supported / consistent, 0 not
    kinds: np.ndarray  # per row: a class name ("figure edit", "misplaced", ...) or "supported"


def summedits_sets(folder: str) -> list[DevSet]:
    _, domains = read_summedits(folder)
    rows = [row for domain in domains.values() for row in domain]
    labels = subset_labels(rows, "figure_edits_vs_consistent")
    kept = [row for row, y in zip(rows, labels) if y >= 0]
    y = labels[labels >= 0]
    kinds = np.where(y == 1, "supported", "figure edit")
    return [DevSet(f"SummEdits vs {mode}", [r.summary for r in kept], [r.reference(mode) for r in kept], y, kinds)
            for mode in ("original", "doc")]


def claims_sets(path: str, split: str) -> list[DevSet]:
    rows = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    rows = [r for r in rows if r.get("split", split) == split]
    out = []
    for group in sorted({r.get("group", "all") for r in rows}):
        chosen = [r for r in rows if r.get("group", "all") == group]
        out.append(DevSet(f"FilingClaims {split} ({group})", [r["claim"] for r in chosen],
                          [r["source"] for r in chosen], np.array([int(r["label"]) for r in chosen]),
                          np.array([r.get("kind", "supported" if r["label"] else "false") for r in chosen])))
    return out


def metrics(y: np.ndarray, share: np.ndarray, kinds: np.ndarray) -> dict[str, float | None]:
    out = {"auc": roc_auc(y, share), "ba": balanced_accuracy(y, share == 1.0)}
    for kind in sorted(set(kinds.tolist()) - {"supported"}):
        chosen = (kinds == kind) | (y == 1)
        out[f"ba {kind}"] = balanced_accuracy(y[chosen], share[chosen] == 1.0)
    return out


def evaluate(dev: DevSet, scorer: NASH) -> list[dict]:
    preds, refs, _ = read_pairs(dev.predictions, dev.references, scorer.config.numbers)
    print(f"{dev.name}: encoding {len(preds)} pairs", file=sys.stderr)
    call = score_chunk(scorer.fitted, preds, refs, show_progress=True)
    pairs = np.stack([call.pool.original_ids(preds), call.pool.original_ids(refs)], 1).tolist()
    index = np.arange(len(preds))
    anywhere = np.array([value_anywhere_share(p, r) for p, r in zip(dev.predictions, dev.references)])
    results = [{"variant": "value-anywhere check", **metrics(dev.labels, anywhere, dev.kinds)}]
    alignment = call.output.alignment
    variants = [("argmax (earlier versions)", None), ("value only", NEVER),
                *((f"context {w.period}/{w.cosine}/{w.margin}", w) for w in GRID)]
    for name, weights in variants:
        verdicts = argmax_verdicts(alignment, call.tau) if weights is None else context_verdicts(
            call.mentions, pairs, weights)
        share = support_fields(verdicts, call.output.pair_index if weights is None else index)["numeric_support"]
        shipped = weights == CONTEXT_WEIGHTS
        flagged = sum(e["verdict"] != SUPPORTED for v in verdicts for e in v)
        results.append({"variant": f"**{name}**" if shipped else name, "flagged": flagged,
                        **metrics(dev.labels, share, dev.kinds)})
    return results


def markdown(name: str, results: list[dict]) -> str:
    columns = [k for k in results[0] if k not in ("variant",)]
    for r in results[1:]:
        columns += [k for k in r if k not in columns and k != "variant"]
    rows = [[r["variant"], *(r.get(c) for c in columns)] for r in results]
    return f"### {name}\n\n" + markdown_table(["variant", *columns], rows, digits=3)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--summedits", default=str(DATA))
    parser.add_argument("--claims", default=None, help="FilingClaims JSONL (nash build-data filing-claims)")
    parser.add_argument("--split", default="tune", help="the claims' split to tune on (default: tune)")
    parser.add_argument("--model", default=None)
    parser.add_argument("--output", default=None, help="write OUTPUT.json and OUTPUT.md")
    args = parser.parse_args()
    scorer = NASH(**({"model": args.model} if args.model else {}))
    sets = summedits_sets(args.summedits) + (claims_sets(args.claims, args.split) if args.claims else [])
    results = {dev.name: evaluate(dev, scorer) for dev in sets}
    text = "\n\n".join(markdown(name, r) for name, r in results.items()) + "\n"
    print(text)
    if args.output:
        Path(args.output).parent.mkdir(parents=True, exist_ok=True)
        Path(f"{args.output}.json").write_text(json.dumps({"shipped": CONTEXT_WEIGHTS.__dict__, "model":
                                                           scorer.echo["model"], "results": results}, indent=1))
        Path(f"{args.output}.md").write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
