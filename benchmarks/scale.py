"""Corpus-scale wall time, throughput and peak memory of `nash score --pairs`, measured in one run.

    python benchmarks/scale.py [--sizes 1000 10000 50000] [--backends sentence token] [--procs 1 2]
                               [--model MODEL] [--seed 0] [--workdir DIR] [--output FILE.json]

Each backend x size x process count runs the real command in a fresh subprocess (1 process: `python -m
nash_metric`; N > 1: under `torch.distributed.run`), so model load is part of every run; one extra 50-pair run
per backend/procs measures that startup, and pairs/s is also reported net of it. Peak RSS is that of the largest
single process (under torchrun: the launcher or a worker, in practice a worker). Every output is checked (one row
per pair, in order) and the `nash` column of 1 vs N processes compared.

The corpus: N distinct pairs from Financial PhraseBank and TAT-QA sentences (../shared/data), each text a
variant of a real sentence with every digit run redrawn at the same length; 3 in 4 pairs compare two variants
of one sentence (numeric difference), 1 in 4 two different sentences (semantic difference). Cached in --workdir.
Ratios, not seconds, are what carries over between machines.
"""

from __future__ import annotations

import argparse
import csv
import importlib.metadata
import json
import math
import os
import platform
import random
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # inherited by every run

from nash_metric.pairs_io import read_rows
from nash_metric.reporting import markdown_table

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
STARTUP_PAIRS = 50
COLUMNS = {  # table header -> run field
    "backend": "backend",
    "processes": "procs",
    "pairs": "pairs",
    "wall s": "wall_s",
    "pairs/s": "pairs_per_s",
    "pairs/s net of startup": "pairs_per_s_net",
    "peak RSS MiB": "peak_rss_mib",
    "RSS vs smallest size": "rss_vs_smallest",
}
# Runs the command, then reports its wall time and the largest ru_maxrss (KiB on Linux) of any descendant
# that was waited for: torchrun reaps its workers, so their peaks reach us through it.
WRAPPER = (
    "import json, resource, subprocess, sys, time\n"
    "t = time.perf_counter()\n"
    "rc = subprocess.run(sys.argv[2:]).returncode\n"
    "wall = time.perf_counter() - t\n"
    "rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "open(sys.argv[1], 'w').write(json.dumps({'wall_s': wall, 'maxrss_kib': rss}))\n"
    "sys.exit(rc)\n"
)


def load_sentences(data: Path) -> list[str]:
    with (data / "financial_phrasebank" / "all-data.csv").open(encoding="latin-1", newline="") as fh:
        phrasebank = [row[1] for row in csv.reader(fh) if len(row) == 2 and row != ["label", "content"]]
    tatqa = (data / "annual_reports" / "tatqa_dev_sentences.txt").read_text(encoding="utf-8").splitlines()
    return [s for s in dict.fromkeys(s.strip() for s in phrasebank + tatqa) if s]


def make_pairs(sentences: list[str], n: int, seed: int) -> list[tuple[str, str]]:
    """N distinct pairs; texts are kept distinct across the corpus while fresh variants can be found."""
    rng = random.Random(seed)
    numeric = [s for s in sentences if re.search(r"\d", s)]
    seen: set[str] = set()

    def redraw(m: re.Match[str]) -> str:
        k = len(m.group())
        return str(rng.randrange(10 ** (k - 1) if k > 1 else 0, 10**k))

    def fresh(pool: list[str]) -> str:
        # A sentence without digits yields one text only: after a few tries accept a repeat.
        for _ in range(20):
            text = re.sub(r"\d+", redraw, rng.choice(pool))
            if text not in seen:
                break
        seen.add(text)
        return text

    pairs: dict[tuple[str, str], None] = {}
    for attempt in range(50 * n + 1000):
        if len(pairs) == n:
            break
        if attempt % 4 == 3:
            pred, ref = fresh(sentences), fresh(sentences)
        else:
            base = rng.choice(numeric)
            pred, ref = fresh([base]), fresh([base])
        if pred != ref:
            pairs.setdefault((pred, ref))
    if len(pairs) < n:
        raise RuntimeError(f"only {len(pairs)} distinct pairs could be drawn, {n} asked")
    return list(pairs)


def pairs_file(workdir: Path, sentences: list[str], n: int, seed: int) -> Path:
    path = workdir / f"pairs_{n}_seed{seed}.jsonl"
    if not path.is_file():
        tmp = path.with_suffix(".tmp")
        with tmp.open("w", encoding="utf-8") as fh:
            for pred, ref in make_pairs(sentences, n, seed):
                fh.write(json.dumps({"prediction": pred, "reference": ref}, ensure_ascii=False) + "\n")
        tmp.replace(path)  # a killed run leaves no half-written cache
    return path


def distinct_texts(path: Path) -> int:
    texts: set[str] = set()
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            texts.update((row["prediction"], row["reference"]))
    return len(texts)


def command(procs: int, pairs: Path, out: Path, backend: str, model: str | None) -> list[str]:
    args = ["-m", "nash_metric", "score", "--pairs", str(pairs), "--output", str(out), "--backend", backend]
    if model:
        args += ["--model", model]
    if procs == 1:
        return [sys.executable, *args]
    return [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", str(procs), *args]


def run_one(cmd: list[str], n: int, out: Path, threads: int) -> dict[str, Any]:
    out.unlink(missing_ok=True)
    stats_path = out.with_suffix(".stats.json")
    env = {**os.environ, "OMP_NUM_THREADS": str(threads)}
    proc = subprocess.run(
        [sys.executable, "-c", WRAPPER, str(stats_path), *cmd], env=env, capture_output=True, text=True
    )
    if proc.returncode != 0:
        raise RuntimeError(f"exit {proc.returncode}: {shlex.join(cmd)}\n{(proc.stdout + proc.stderr)[-3000:].strip()}")
    stats = json.loads(stats_path.read_text())
    rows = read_rows(out)
    index = [int(i) for i in rows["index"]]
    if index != list(range(n)) or len(rows["nash"]) != n:
        raise RuntimeError(f"{out}: {len(index)} rows for {n} pairs, or index not 0..n-1 in order")
    return {
        "pairs": n,
        "wall_s": stats["wall_s"],
        "pairs_per_s": n / stats["wall_s"],
        "peak_rss_mib": stats["maxrss_kib"] / 1024,
        "omp_num_threads": threads,
        "command": shlex.join(cmd),
        "nash": [math.nan if x is None else float(x) for x in rows["nash"]],  # JSON writes NaN as null
    }


def max_abs_diff(a: list[float], b: list[float]) -> float:
    # NaN on both sides (e.g. an empty text) is agreement, NaN on one side is not.
    return max((0.0 if math.isnan(x) and math.isnan(y) else abs(x - y) for x, y in zip(a, b)), default=0.0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 50000])
    parser.add_argument("--backends", nargs="+", default=["sentence", "token"], choices=("sentence", "token"))
    parser.add_argument("--procs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--model", default=None, help="passed to `nash score --model` (default: its own)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--workdir", type=Path, default=None, help="pairs cache and outputs (default: a temp dir)")
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args(argv)
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="nash-scale-"))
    workdir.mkdir(parents=True, exist_ok=True)
    sizes, procs_list = sorted(set(args.sizes)), sorted(set(args.procs))
    sentences = load_sentences(args.data)
    corpus = {}
    for n in [STARTUP_PAIRS, *sizes]:
        path = pairs_file(workdir, sentences, n, args.seed)
        corpus[n] = {"path": str(path), "pairs": n, "distinct_texts": distinct_texts(path)}
    for n in sizes:
        print(f"corpus {n} pairs: {corpus[n]['distinct_texts']} distinct texts of {2 * n}", file=sys.stderr)

    cpus = os.cpu_count() or 1
    runs: list[dict[str, Any]] = []
    startup: dict[tuple[str, int], dict[str, Any]] = {}
    errors: list[str] = []
    # One untimed run first, so the first timed startup does not also pay for a cold file cache (model, .pyc).
    warm_out = workdir / "out_warmup.jsonl"
    warm_cmd = command(1, Path(corpus[STARTUP_PAIRS]["path"]), warm_out, args.backends[0], args.model)
    print("warm-up ...", file=sys.stderr, flush=True)
    try:
        run_one(warm_cmd, STARTUP_PAIRS, warm_out, cpus)
    except (RuntimeError, OSError, KeyError, ValueError) as exc:
        print(f"warm-up: {exc}", file=sys.stderr)
    for backend in args.backends:
        for procs in procs_list:
            threads = max(1, cpus // procs)
            for n in [STARTUP_PAIRS, *sizes]:
                out = workdir / f"out_{backend}_{procs}p_{n}.jsonl"
                cmd = command(procs, Path(corpus[n]["path"]), out, backend, args.model)
                print(f"{backend} {procs}p {n} pairs ...", file=sys.stderr, flush=True)
                try:
                    result = {"backend": backend, "procs": procs, **run_one(cmd, n, out, threads)}
                except (RuntimeError, OSError, KeyError, ValueError) as exc:  # report, go on with the other runs
                    errors.append(f"{backend} {procs}p {n}: {exc}")
                    print(errors[-1], file=sys.stderr)
                    continue
                if n == STARTUP_PAIRS:
                    startup[backend, procs] = result
                else:
                    runs.append(result)

    by_key = {(r["backend"], r["procs"], r["pairs"]): r for r in runs}
    for r in runs:
        start = startup.get((r["backend"], r["procs"]))
        net = r["wall_s"] - start["wall_s"] if start else 0.0
        r["startup_wall_s"] = start["wall_s"] if start else None
        r["pairs_per_s_net"] = r["pairs"] / net if net > 0 else None
        smallest = next(by_key[k] for n in sizes if (k := (r["backend"], r["procs"], n)) in by_key)
        r["rss_vs_smallest"] = r["peak_rss_mib"] / smallest["peak_rss_mib"]
    print(markdown_table(list(COLUMNS), [[r[k] for k in COLUMNS.values()] for r in runs], digits=2))

    ratios: list[dict[str, Any]] = []
    print()
    for (backend, procs), s in startup.items():
        print(f"startup ({STARTUP_PAIRS} pairs) {backend} {procs}p: {s['wall_s']:.2f} s, {s['peak_rss_mib']:.0f} MiB")
    for backend in args.backends:
        for n in sizes:
            one = by_key.get((backend, 1, n))
            for procs in [p for p in procs_list if p != 1]:
                many = by_key.get((backend, procs, n))
                if not (one and many):
                    continue
                ok = one["pairs_per_s_net"] and many["pairs_per_s_net"]
                net = many["pairs_per_s_net"] / one["pairs_per_s_net"] if ok else None
                ratio = {"backend": backend, "pairs": n, "procs": procs, "throughput_net_vs_1proc": net}
                ratio["throughput_vs_1proc"] = many["pairs_per_s"] / one["pairs_per_s"]
                ratio["max_abs_nash_diff_vs_1proc"] = max_abs_diff(one["nash"], many["nash"])
                ratios.append(ratio)
                print(
                    f"{backend} {n} pairs: {procs} procs / 1 proc throughput {ratio['throughput_vs_1proc']:.2f}x"
                    f" (net of startup {'–' if net is None else f'{net:.2f}x'}),"
                    f" max |Δnash| {ratio['max_abs_nash_diff_vs_1proc']:.1e}"
                )
        for procs in procs_list:
            have = [by_key[k] for n in sizes if (k := (backend, procs, n)) in by_key]
            if len(have) > 1:
                print(
                    f"{backend} {procs}p peak RSS {have[-1]['pairs']} vs {have[0]['pairs']} pairs: "
                    f"{have[-1]['peak_rss_mib']:.0f} / {have[0]['peak_rss_mib']:.0f} MiB = "
                    f"{have[-1]['rss_vs_smallest']:.2f}x"
                )
    bad = [r for r in ratios if r["max_abs_nash_diff_vs_1proc"] > 1e-6]
    if bad:
        errors.append(f"nash differs between 1 and N processes by more than 1e-6: {bad}")
    for e in errors:
        print(f"\nERROR {e}", file=sys.stderr)

    if args.output:
        machine = {
            "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(),
            "python": platform.python_version(),
            "cpu_count": cpus,
            "torch": importlib.metadata.version("torch"),
        }
        strip = lambda r: {k: v for k, v in r.items() if k != "nash"}  # noqa: E731
        payload = {
            "machine": machine,
            "model": args.model or "sentence-transformers/all-MiniLM-L6-v2 (default)",
            "seed": args.seed,
            "corpus": list(corpus.values()),
            "startup": [strip(s) for s in startup.values()],
            "runs": [strip(r) for r in runs],
            "ratios": ratios,
            "errors": errors,
        }
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
