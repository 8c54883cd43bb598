"""How far tau = mu + sigma calibrated on n sentences lands from tau calibrated on a whole corpus.

    python perf/calibration_minimum.py [--corpus ../shared/data/annual_reports/tatqa_dev_sentences.txt]

The evidence behind `calibration.MIN_CALIBRATION_SENTENCES`: for each n, 200 random subsets of the corpus's
sentences with a number (each with its own pair seed) are calibrated, and the table gives the spread of
their tau and the median and 95th percentile of the error |tau_n - tau_full|. Prints Markdown; `--output` writes JSON.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np

from nash_metric import NASH
from nash_metric.calibration.threshold import MIN_CALIBRATION_SENTENCES, tau_from_vectors
from nash_metric.common.reporting import markdown_table
from nash_metric.corpus.sentences import read_sentences

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared/data/annual_reports/tatqa_dev_sentences.txt"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="sentences, one a line")
    parser.add_argument("--model", default=None, help="default: the embedded all-MiniLM-L6-v2")
    parser.add_argument("--sizes", type=int, nargs="+", default=[2, 5, 10, 20, 50, 100])
    parser.add_argument("--subsets", type=int, default=200)
    parser.add_argument("--output", type=Path)
    args = parser.parse_args()

    scorer = NASH(**({"model": args.model} if args.model else {}), threshold=0.0, device="cpu")
    vectors = [v for v in scorer.mention_vectors(sorted(set(read_sentences(args.corpus)))) if len(v)]
    full = tau_from_vectors(vectors, min_sentences=2)
    rng = np.random.default_rng(0)
    rows = []
    for n in args.sizes:
        taus = np.array([
            tau_from_vectors([vectors[i] for i in rng.choice(len(vectors), size=n, replace=False)], seed=r,
                             min_sentences=2).tau
            for r in range(args.subsets)
        ])
        error = np.abs(taus - full.tau)
        rows.append({"sentences": n, "tau_sd": float(taus.std()), "median_error": float(np.median(error)),
                     "p95_error": float(np.quantile(error, 0.95))})
    print(f"{scorer.resolved.name} ({scorer.backend}), {args.corpus.name}: {len(vectors)} sentences with a number, "
          f"full tau {full.tau:.4f} (mu {full.mu:.4f}, sigma {full.sigma:.4f}); minimum {MIN_CALIBRATION_SENTENCES}\n")
    print(markdown_table(["sentences", "tau sd", "median error", "95th pct error"],
                         [[r["sentences"], r["tau_sd"], r["median_error"], r["p95_error"]] for r in rows], digits=3))
    if args.output:
        result = {"model": scorer.resolved.name, "corpus": str(args.corpus), "full": full.as_dict(), "rows": rows}
        args.output.write_text(json.dumps(result, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
