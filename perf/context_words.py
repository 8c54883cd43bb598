"""How many words around a figure its one-pass vector takes in (`pipeline.pool.CONTEXT_WORDS`), chosen on dev data.

    python perf/context_words.py --annual-reports DIR --phrasebank DIR [--stsb FILE] [--words 0 1 2 3] [--report JSON]
                                 [--limit 400] [--backend sentence] [--output docs/context_words]

With `text_channel="one-pass"` a word cannot attend to the numbers of its text, so its state is that of the text
without its numbers; a figure's vector is the mean of its own sub-token states and of the states of K words on
either side. For each K, and for the two-pass default beside them, this runs `nash bench numfine` on both NumFinE
dev builds (`nash build-data numfine --source ...`: the TAT-QA dev sentences and Financial PhraseBank; the first
`--limit` rows of each protocol) and `nash bench stsb` on STS-B dev, each in a fresh process, and writes a
Markdown and a JSON table with the choice (`choose`): the fewest words within 0.005 of the best mean on each
build, STS-B dev kept within 0.005 of two passes. `--report JSON` rebuilds the tables from a saved run. Dev sets
only: the held-out ones are never read.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import torch

from nash_metric.common.reporting import markdown_table

ROOT = Path(__file__).resolve().parents[1]
STSB = ROOT.parent / "shared" / "data" / "stsb" / "sts-dev.tsv"
PROTOCOLS = ("triplet_easy", "triplet_medium", "triplet_hard", "listwise", "crosspair")
BUILDS = ("annual reports", "PhraseBank")
MARGIN = 0.005
# Runs the CLI with CONTEXT_WORDS set first (the constant is read when a pool is built).
CHILD = ("import sys; from nash_metric.pipeline import pool; pool.CONTEXT_WORDS = int(sys.argv[1]); "
         "from nash_metric.cli import main; sys.exit(main(sys.argv[2:]))")


def bench(words: int | None, args: list[str], scratch: Path) -> dict:
    """One `nash bench ...` in a fresh process: one pass with `words` context words, or two passes (None)."""
    out = scratch / f"run{len(list(scratch.iterdir()))}.json"
    channel = ["--text-channel", "two-pass" if words is None else "one-pass"]
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    subprocess.run([sys.executable, "-c", CHILD, str(words or 0), "bench", *args, *channel, "--output", str(out)],
                   check=True, env=env, stdout=subprocess.DEVNULL)
    return json.loads(out.read_text(encoding="utf-8"))["results"]


def measure(words: int | None, opts: argparse.Namespace, scratch: Path) -> dict[str, float]:
    row: dict[str, float] = {}
    for name, data in zip(BUILDS, (opts.annual_reports, opts.phrasebank)):
        got = bench(words, ["numfine", "--data", str(data), "--limit", str(opts.limit), "--no-alignment-check",
                            "--backend", opts.backend], scratch)["nash"]
        row.update({f"{name} {p}": got[p] for p in PROTOCOLS})
    if opts.stsb:
        row["STS-B dev Spearman"] = bench(words, ["stsb", "--data", str(opts.stsb), "--backend", opts.backend],
                                          scratch)["nash"]["spearman"]
    return row


def choose(rows: dict[str, dict[str, float]], margin: float = MARGIN) -> int | None:
    """The fewest context words whose mean over each build's protocols is within `margin` of that build's best
    (more words only make a figure's vector more its context's), with STS-B dev within `margin` of two passes."""
    two = rows["two-pass"]
    ks = {int(name.rsplit("= ", 1)[1]): r for name, r in rows.items() if name.startswith("one-pass")}

    def mean(r: dict[str, float], build: str) -> float:
        return float(np.mean([r[f"{build} {p}"] for p in PROTOCOLS]))

    best = {b: max(mean(r, b) for r in ks.values()) for b in BUILDS}
    fits = [k for k, r in sorted(ks.items()) if all(mean(r, b) >= best[b] - margin for b in BUILDS)
            and ("STS-B dev Spearman" not in r or r["STS-B dev Spearman"] >= two["STS-B dev Spearman"] - margin)]
    return fits[0] if fits else None


def report(rows: dict[str, dict[str, float]]) -> str:
    """The Markdown table (measures x text channels, each build's mean below its protocols) and the choice."""
    lines = []
    for build in BUILDS:
        lines += [f"{build} {p}" for p in PROTOCOLS] + [f"{build} mean"]
    if "STS-B dev Spearman" in next(iter(rows.values())):
        lines.append("STS-B dev Spearman")

    def cell(r: dict[str, float], line: str) -> str:
        if line.endswith(" mean"):
            return f"{np.mean([r[f'{line[:-5]} {p}'] for p in PROTOCOLS]):.4f}"
        return f"{r[line]:.4f}" if "STS" in line else f"{r[line]:.3f}"

    table = markdown_table(["dev set (NASH)", *rows], [[line, *(cell(r, line) for r in rows.values())]
                                                         for line in lines])
    chosen = choose(rows) if len(rows) > 2 else None
    return table + ("" if chosen is None else f"\n\nChosen: K = {chosen} (the fewest words within {MARGIN} of the "
                    "best mean on each build, STS-B dev within {MARGIN} of two passes).".replace("{MARGIN}",
                                                                                                 str(MARGIN)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--annual-reports", type=Path, required=True, help="a NumFinE build of the TAT-QA sentences")
    parser.add_argument("--phrasebank", type=Path, required=True, help="a NumFinE build of Financial PhraseBank")
    parser.add_argument("--stsb", type=Path, default=STSB if STSB.exists() else None)
    parser.add_argument("--words", type=int, nargs="+", default=[0, 1, 2, 3])
    parser.add_argument("--limit", type=int, default=400)
    parser.add_argument("--backend", choices=("sentence", "token"), default="sentence")
    parser.add_argument("--output", type=Path, default=None, help="writes OUTPUT.md and OUTPUT.json")
    parser.add_argument("--report", type=Path, default=None,
                        help="rebuild the tables from the JSON of an earlier run instead of measuring")
    opts = parser.parse_args(argv)
    if opts.report:
        rows = json.loads(opts.report.read_text(encoding="utf-8"))["rows"]
    else:
        with tempfile.TemporaryDirectory() as scratch:
            rows = {"two-pass": measure(None, opts, Path(scratch))}
            for k in opts.words:
                rows[f"one-pass, K = {k}"] = measure(k, opts, Path(scratch))
    table = report(rows)
    print(table)
    if opts.output:
        record = {"rows": rows, "limit": opts.limit, "backend": opts.backend, "model": "all-MiniLM-L6-v2 (embedded)",
                  "machine": f"{platform.machine()}, {os.cpu_count()} cpus, torch {torch.__version__}"}
        if not opts.report:
            opts.output.with_suffix(".json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        opts.output.with_suffix(".md").write_text(table + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
