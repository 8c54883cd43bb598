"""What checking figures against a long source costs: time and memory for 1, 10 and 20 claims against one source.

    python perf/source_cost.py [--source ../shared/data/annual_reports/tatqa_dev.json] [--size 30000]

The source is FilingClaims' markdown form (tables with `$` cells, then their paragraphs) of consecutive TAT-QA
contexts, until it reaches `--size` characters; the claims are FilingClaims' template claims about it. Each run
is one `NASH.score(claims, [source] * n)` call on a warm model: the source is encoded once per call, so the cost
should grow with the claims only by their own (short) encodings and the verdicts' rows. Peak memory is the
process's resident peak (`resource.getrusage`) after each call.

The claims alternate FilingClaims' template claims and its computed claims (changes, sums, shares of its
cells), so that the derivations of computed figures (`pipeline.derivations`) run. Their cost is measured beside:
the verdict step of the same call's mentions, timed with the shipped rule and with `computed=False` (best of 3).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from dataclasses import replace

import numpy as np

from nash_metric import NASH
from nash_metric.benchmarks.filing_claims.build import context_rows, read_source
from nash_metric.common.verdicts import COMPUTED
from nash_metric.numbers import extract_numbers
from nash_metric.pipeline.pool import read_pairs
from nash_metric.pipeline.steps import score_chunk
from nash_metric.pipeline.support import RULE, context_verdicts

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "annual_reports" / "tatqa_dev.json"


def source_and_claims(path: Path, size: int) -> tuple[str, list[str]]:
    _, contexts = read_source(path)
    parts, template, computed = [], [], []
    for context in contexts:
        rows = [r for r in context_rows(context)[0] if r["form"] == "markdown"]
        if not rows:
            continue
        parts.append(rows[0]["source"])
        template += [r["claim"] for r in rows if r["group"] == "template"]
        computed += [r["claim"] for r in rows if r["group"] == "computed"]
        if sum(len(p) + 2 for p in parts) >= size:
            break
    mixed = [c for pair in zip(template, computed) for c in pair]
    return "\n\n".join(parts), mixed + template[len(mixed) // 2:]


def verdict_seconds(scorer: NASH, claims: list[str], source: str) -> dict[str, float]:
    """The verdict step alone over one call's mentions, with and without derivations (best of 3 each)."""
    preds, refs, _ = read_pairs(claims, [source] * len(claims), scorer.config.numbers)
    call = score_chunk(scorer.fitted, preds, refs)
    pairs = np.stack([call.pool.original_ids(preds), call.pool.original_ids(refs)], 1).tolist()
    out = {}
    for name, rule in (("with_derivations", RULE), ("without_derivations", replace(RULE, computed=False))):
        times = []
        for _ in range(3):
            start = time.perf_counter()
            context_verdicts(call.mentions, pairs, rule)
            times.append(time.perf_counter() - start)
        out[name] = round(min(times), 3)
    out["added_by_derivations"] = round(out["with_derivations"] - out["without_derivations"], 3)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default=str(DATA))
    parser.add_argument("--size", type=int, default=30_000)
    parser.add_argument("--output", default=None, help="write the result as JSON")
    args = parser.parse_args()
    source, claims = source_and_claims(Path(args.source), args.size)
    scorer = NASH()
    scorer.score(["warm up 1"], ["warm up 2"])
    result = {"model": scorer.echo["model"], "source_chars": len(source),
              "source_figures": len(extract_numbers(source)), "runs": []}
    for n in (1, 10, 20):
        start = time.perf_counter()
        out = scorer.score(claims[:n], [source] * n)
        seconds = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        verdicts = sum(len(v) for v in out.figure_verdicts)
        computed = sum(e["verdict"] == COMPUTED for v in out.figure_verdicts for e in v)
        step = verdict_seconds(scorer, claims[:n], source)
        result["runs"].append({"claims": n, "seconds": round(seconds, 2), "peak_rss_mb": round(peak),
                               "figures_judged": verdicts, "figures_computed": computed, "verdict_step": step})
        print(f"{n:>3} claims against {len(source):,} characters ({result['source_figures']} figures): "
              f"{seconds:.1f} s, peak RSS {peak:,.0f} MB, {verdicts} figures judged ({computed} computed); "
              f"verdict step {step['with_derivations']:.3f} s, {step['without_derivations']:.3f} s without "
              f"derivations ({step['added_by_derivations']:+.3f} s)")
    if args.output:
        Path(args.output).write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
