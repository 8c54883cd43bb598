"""What checking figures against a long source costs: time and memory, by claims and by the source's size.

    python perf/source_cost.py [--source ../shared/data/annual_reports/tatqa_dev.json] [--size 30000]
    python perf/source_cost.py --sizes 30K 300K 1M 5M [--baseline COMMIT] [--output docs/source_cost.json]

The source is FilingClaims' markdown form (tables with `$` cells, then their paragraphs) of consecutive TAT-QA
contexts, until it reaches its size (past the 547,000 characters of TAT-QA dev the contexts repeat); the claims are
FilingClaims' template claims about it.

By claims (`--size`): each run is one `NASH.score(claims, [source] * n)` call on a warm model for 1, 10 and 20
claims: the source is encoded once per call, so the cost should grow with the claims only by their own (short)
encodings and the verdicts' rows. Peak memory is the process's resident peak (`resource.getrusage`) after each
call. The claims alternate FilingClaims' template claims and its computed claims (changes, sums, shares of its
cells), so that the derivations of computed figures (`verdicts.derivations`) run. Their cost is measured beside:
the verdict step of the same call's mentions, timed with the shipped rule and with `computed=False` (best of 3).

By size (`--sizes`, characters; K = 1,024, M = 1,048,576): for each size, `nash check --source SOURCE --text CLAIMS`
(the first 20 claims, one a line) in a fresh process, as a user runs it: its wall time (the model's load included)
and its own peak RSS (from wait4, `capped_child`), killed past `--max-rss-gb` or `--timeout`. With `--baseline SRC`
each size also runs on that source tree first, for a before/after table; SRC is a `src` folder or a commit of
this repository (taken out with `git archive` into a temporary folder). `--output X.json` also writes `X.md`.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from dataclasses import replace

import numpy as np
from capped_child import run_capped  # perf/, the script's own folder

from nash_metric import NASH
from nash_metric.benchmarks.filing_claims.build import context_rows, read_source
from nash_metric.common.reporting import markdown_table, write_json
from nash_metric.numbers import extract_numbers
from nash_metric.pipeline.pool import read_pairs
from nash_metric.pipeline.steps import score_chunk
from nash_metric.verdicts.decide import context_verdicts
from nash_metric.verdicts.rules import RULE
from nash_metric.verdicts.spec import COMPUTED

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "annual_reports" / "tatqa_dev.json"
UNITS = {"K": 1024, "M": 1024**2}
SWEEP_CLAIMS = 20  # the claims of the text each size's `nash check` reads


def source_and_claims(path: Path, size: int) -> tuple[str, list[str]]:
    _, contexts = read_source(path)
    forms = [[r for r in context_rows(context)[0] if r["form"] == "markdown"] for context in contexts]
    forms = [rows for rows in forms if rows]
    parts, template, computed, length = [], [], [], 0
    for rows in itertools.cycle(forms):  # past the last context, the first ones again
        parts.append(rows[0]["source"])
        length += len(rows[0]["source"]) + 2
        if len(parts) <= len(forms):
            template += [r["claim"] for r in rows if r["group"] == "template"]
            computed += [r["claim"] for r in rows if r["group"] == "computed"]
        if length >= size:
            break
    mixed = [c for pair in zip(template, computed) for c in pair]
    return "\n\n".join(parts), mixed + template[len(mixed) // 2:]


def characters(size: str) -> int:
    """'300K' -> 307,200; '1M' -> 1,048,576; '30000' -> 30,000."""
    unit = UNITS.get(size[-1:].upper(), 1)
    return int(float(size[:-1] if unit > 1 else size) * unit)


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


# -- by size: one `nash check` process per size ------------------------------------------------------------------


def check_once(tree: Path, source: Path, text: Path, max_rss_kb: int, timeout: float) -> dict:
    """`nash check` of the tree `tree` (its src folder) in a fresh process: wall seconds, peak RSS (MB), status."""
    env = {**os.environ, "PYTHONPATH": str(tree), "HF_HUB_OFFLINE": "1"}
    argv = [sys.executable, "-m", "nash_metric", "check", "--source", str(source), "--text", str(text)]
    child = run_capped(argv, env, max_rss_kb, timeout)
    status = child.killed or ("ok" if child.code == 0 else f"exit {child.code}: {child.last_error[:160]}")
    judged = child.stdout.splitlines()[0].rpartition(": ")[2] if status == "ok" and child.stdout else ""
    return {"seconds": round(child.seconds, 1), "peak_rss_mb": round(child.peak_rss_mb), "status": status,
            "judged": judged}


def machine() -> dict:
    import torch

    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").is_file() else ""
    return {"cpu": cpu, "cores": os.cpu_count(), "torch_threads": torch.get_num_threads(),
            "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
            "memory_gb": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1024**3, 1),
            "python": platform.python_version(), "torch": torch.__version__}


def baseline_tree(baseline: str, tmp: Path) -> tuple[Path, str]:
    """The `src` folder a --baseline names, and how the report names it: a folder as it is, or a commit of this
    repository taken out into `tmp`."""
    if Path(baseline).is_dir():
        return Path(baseline), baseline
    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", baseline], capture_output=True,
                            text=True, check=True).stdout.strip()
    archive = subprocess.run(["git", "-C", str(REPO), "archive", commit, "src"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(tmp)], input=archive.stdout, check=True)
    return tmp / "src", f"commit {commit}"


def sweep(args: argparse.Namespace) -> int:
    max_rss_kb = int(args.max_rss_gb * 1024**2)
    load = os.getloadavg()[0]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        before = baseline_tree(args.baseline, Path(tmp)) if args.baseline else None
        trees = ([("before", before[0])] if before else []) + [("after", REPO / "src")]
        for label in args.sizes:
            source, claims = source_and_claims(Path(args.source), characters(label))
            paths = Path(tmp) / f"source_{label}.md", Path(tmp) / f"claims_{label}.txt"
            paths[0].write_text(source, encoding="utf-8")
            paths[1].write_text("\n".join(claims[:SWEEP_CLAIMS]) + "\n", encoding="utf-8")
            row = {"size": label, "characters": len(source), "figures": len(extract_numbers(source))}
            for name, tree in trees:
                row[name] = check_once(tree, *paths, max_rss_kb, args.timeout)
                print(f"{label:>5} ({len(source):,} characters, {row['figures']:,} figures) {name}: "
                      f"{row[name]['seconds']:.1f} s, peak RSS {row[name]['peak_rss_mb']:,} MB, {row[name]['status']}",
                      flush=True)
            rows.append(row)
    result = {"command": "nash check --source SOURCE --text CLAIMS", "claims": SWEEP_CLAIMS,
              "model": "all-MiniLM-L6-v2 (embedded default)", "baseline": before and before[1], "machine": machine(),
              "load_average": [round(load, 1), round(os.getloadavg()[0], 1)], "sizes": rows}
    if args.output:
        write_json(args.output, result)
        Path(args.output).with_suffix(".md").write_text(sweep_markdown(result), encoding="utf-8")
        print(f"wrote {args.output} and {Path(args.output).with_suffix('.md')}")
    return 0


def sweep_markdown(result: dict) -> str:
    """The size table: time and peak RSS of one `nash check` per size, before and after when both ran."""
    names = [n for n in ("before", "after") if all(n in r for r in result["sizes"])]
    headers = ["source", "characters", "figures", *[f"{h} {n}" if len(names) > 1 else h for n in names
                                                     for h in ("time", "peak RSS")]]

    def cells(run: dict) -> list[str]:
        if run["status"] != "ok":
            return [f"{run['status']} ({run['seconds']:,.0f} s)", f"> {run['peak_rss_mb']:,} MB"]
        return [f"{run['seconds']:,.0f} s", f"{run['peak_rss_mb']:,} MB"]

    rows = [[r["size"], f"{r['characters']:,}", f"{r['figures']:,}", *[c for n in names for c in cells(r[n])]]
            for r in result["sizes"]]
    m = result["machine"]
    gpu = m["gpu"] or "no GPU"
    sizes = " ".join(r["size"] for r in result["sizes"])
    return (f"# Cost of a long source\n\n`python perf/source_cost.py --sizes {sizes}"
            f"{' --baseline ' + result['baseline'].split()[-1] if result['baseline'] else ''} "
            "--output docs/source_cost.json`: "
            f"`{result['command']}` of {result['claims']} claims, one fresh process per size (the model's load "
            f"included), {result['model']}.\n\n" + markdown_table(headers, rows) +
            "\n\nSizes in characters (K = 1,024, M = 1,048,576; past TAT-QA dev's 547,000 characters its contexts "
            "repeat); figures: the source's mentions (`extract_numbers`)."
            + (f" Before: {result['baseline']}." if result["baseline"] else "") +
            f"\n\nMachine: {m['cpu']}, {m['cores']} cores ({m['torch_threads']} torch threads), {gpu}, "
            f"{m['memory_gb']} GB; Python {m['python']}, torch {m['torch']}; load average {result['load_average'][0]} "
            f"before, {result['load_average'][1]} after (a shared machine: times vary).\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default=str(DATA))
    parser.add_argument("--size", type=int, default=30_000)
    parser.add_argument("--sizes", nargs="+", default=None, metavar="SIZE",
                        help="one `nash check` process per source size (30K 300K 1M 5M: K = 1,024, M = 1,048,576 "
                        "characters)")
    parser.add_argument("--baseline", default=None, metavar="SRC", help="with --sizes: also run an older tree (a src "
                        "folder, or a commit of this repository)")
    parser.add_argument("--max-rss-gb", type=float, default=8.0, help="with --sizes: kill a check past this RSS")
    parser.add_argument("--timeout", type=float, default=3600, help="with --sizes: kill a check past this many s")
    parser.add_argument("--output", default=None, help="write the result as JSON (with --sizes, and Markdown beside)")
    args = parser.parse_args()
    if args.sizes:
        return sweep(args)
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
