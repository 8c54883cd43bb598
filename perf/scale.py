"""Corpus-scale wall time, throughput, time to the first output row and peak memory of `nash score --pairs`.

    python perf/scale.py [--sizes 10000 100000 1000000] [--backends sentence] [--procs 1 2]
                         [--model MODEL | --tiny-model] [--threshold TAU] [--seed 0]
                         [--workdir DIR] [--output FILE.json] [--generate-only] [--no-warmup]

Each backend x size x process count runs the real command in a fresh subprocess (1 process: `python -m
nash_metric`; N > 1: under `torch.distributed.run`), so model load is part of every run; one extra 50-pair run
per backend/procs measures that startup, and pairs/s is also reported net of it. Per run: wall time, pairs/s,
the time to the first output row (from launch until the JSONL output holds its first newline, polled every
10 ms by the process that launched the command), and peak RSS of the largest single process (under torchrun:
the launcher or a worker, in practice a worker), with its ratio to the smallest size (target at 1M vs 10k:
<= 1.2x). Every output is checked as it is streamed back (one row per pair, in order), the `nash` column of
1 vs N processes compared, then the output deleted (1M rows take hundreds of MB).

The model: --model is any hub id or path (default: `nash score`'s own, the embedded all-MiniLM-L6-v2).
--tiny-model builds, once per seed in --workdir, a random-weight sentence-transformers model (BERT, 2 layers,
hidden 64, 2 heads, MiniLM's tokenizer, mean pooling + normalisation), so that the 1M-pair memory run fits a
2-core CPU: tokenizer, number reader, alignment, output and I/O are real, only the forward pass is cheap, so
its pairs/s are NOT the real model's. A model without a per-model default tau gets --threshold (default 0.3),
so that no tau calibration runs at startup; the report states the model and tau.

The corpus (recipe 2): from the Financial PhraseBank and TAT-QA sentences of ../shared/data, the 2,360 whose
digit runs allow >= 10^4 variants; each text is one of them with every digit run redrawn at the same length
(no leading zero); pairs 0, 1, 2 of every 4 compare two variants of one sentence (numeric difference), pair 3
two different sentences (semantic difference); prediction != reference always. One seeded stream, written as
JSONL line by line (never held in memory) and cached in --workdir by size, seed and recipe version: the
first N pairs of any size are the N-pair file, so sizes are comparable. Measured (seed 0): distinct texts
20,000 of 20,000 at 10k pairs, 199,968 of 200,000 at 100k, 1,997,123 of 2,000,000 (99.86%) at 1M; the 1M
file (310 MiB) is generated in ~19 s (--generate-only) on this project's 2-core CPU. Ratios, not seconds,
are what carries over between machines.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import importlib.metadata
import itertools
import json
import math
import os
import platform
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from array import array
from collections.abc import Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # inherited by every run

import numpy as np

from nash_metric.backbone.models import DEFAULT_THRESHOLDS, OFFLINE_HINT, embedded_model_dir, resolve_model
from nash_metric.common.reporting import markdown_table

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
STARTUP_PAIRS = 50
RECIPE = 2  # bump when the corpus recipe changes: cached files of another recipe are not reused
MIN_VARIANTS = 10**4  # sentences with fewer digit variants would repeat texts at 1M pairs
FALLBACK_THRESHOLD = 0.3
RSS_TARGET = 1.2  # peak RSS at the largest size / at the smallest (10k by default)
TINY = {"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 2, "intermediate_size": 128}
COLUMNS = {  # table header -> run field
    "backend": "backend",
    "processes": "procs",
    "pairs": "pairs",
    "wall s": "wall_s",
    "first row s": "first_row_s",
    "pairs/s": "pairs_per_s",
    "pairs/s net of startup": "pairs_per_s_net",
    "peak RSS MiB": "peak_rss_mib",
    "RSS vs smallest size": "rss_vs_smallest",
}
# Launches the command, polls its output (argv[2]) until a first complete JSONL row appears, then waits; reports
# wall time, time to that row and the largest ru_maxrss (KiB on Linux) of any descendant that was waited for:
# torchrun reaps its workers, so their peaks reach us through it. Both times share one origin, the launch.
WRAPPER = (
    "import json, os, resource, subprocess, sys, time\n"
    "stats, out = sys.argv[1], sys.argv[2]\n"
    "t = time.perf_counter()\n"
    "proc = subprocess.Popen(sys.argv[3:])\n"
    "first, seen = None, 0\n"
    "while first is None and proc.poll() is None:\n"
    "    size = os.path.getsize(out) if os.path.exists(out) else 0\n"
    "    if size > seen:\n"
    "        with open(out, 'rb') as fh:\n"
    "            fh.seek(seen)\n"
    "            if b'\\n' in fh.read(size - seen):\n"
    "                first = time.perf_counter() - t\n"
    "        seen = size\n"
    "    time.sleep(0.01)\n"
    "rc = proc.wait()\n"
    "wall = time.perf_counter() - t\n"
    "at_exit = first is None and os.path.exists(out) and os.path.getsize(out) > 0\n"
    "rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "json.dump({'wall_s': wall, 'first_row_s': wall if at_exit else first, 'first_row_at_exit': at_exit,\n"
    "           'maxrss_kib': rss}, open(stats, 'w'))\n"
    "sys.exit(rc)\n"
)


def load_sentences(data: Path) -> list[str]:
    with (data / "financial_phrasebank" / "all-data.csv").open(encoding="latin-1", newline="") as fh:
        phrasebank = [row[1] for row in csv.reader(fh) if len(row) == 2 and row != ["label", "content"]]
    tatqa = (data / "annual_reports" / "tatqa_dev_sentences.txt").read_text(encoding="utf-8").splitlines()
    return [s for s in dict.fromkeys(s.strip() for s in phrasebank + tatqa) if s]


def templates(sentences: list[str]) -> list[list[str]]:
    """Each usable sentence split as [text, digits, text, digits, ..., text] (odd items: digit runs)."""
    kept = []
    for s in sentences:
        parts = re.split(r"(\d+)", s)
        variants = math.prod(9 * 10 ** (len(d) - 1) if len(d) > 1 else 10 for d in parts[1::2])
        if len(parts) > 1 and variants >= MIN_VARIANTS:
            kept.append(parts)
    return kept


def iter_pairs(sentences: list[str], seed: int) -> Iterator[tuple[str, str]]:
    """The endless pair stream of the recipe; nothing in it depends on the size asked, hence the prefix property."""
    rng = random.Random(seed)
    pool = templates(sentences)

    def variant(parts: list[str]) -> str:
        return "".join(
            p if i % 2 == 0 else str(rng.randrange(10 ** (len(p) - 1) if len(p) > 1 else 0, 10 ** len(p)))
            for i, p in enumerate(parts)
        )

    for i in itertools.count():
        if i % 4 == 3:
            a, b = rng.sample(range(len(pool)), 2)
            yield variant(pool[a]), variant(pool[b])
        else:
            base = rng.choice(pool)
            pred, ref = variant(base), variant(base)
            while ref == pred:
                ref = variant(base)
            yield pred, ref


def corpus_files(workdir: Path, sentences: list[str], sizes: list[int], seed: int) -> dict[int, dict[str, Any]]:
    """The pairs file of every size, generating the missing ones in one streamed pass of the largest."""
    source = hashlib.sha256("\n".join(sentences).encode()).hexdigest()[:16]
    info: dict[int, dict[str, Any]] = {}
    missing = []
    for n in sorted(set(sizes)):
        path = workdir / f"pairs_{n}_seed{seed}_r{RECIPE}.jsonl"
        meta = path.with_suffix(".meta.json")
        cached = json.loads(meta.read_text()) if path.is_file() and meta.is_file() else None
        if cached and cached.get("source_sha256") == source:
            info[n] = {**cached, "path": str(path), "cached": True}
        else:
            missing.append(n)
    if not missing:
        return info
    # Distinct texts are counted by their 64-bit hash (collisions negligible at 2M), 16 MB at 1M pairs.
    hashes = np.empty(2 * missing[-1], dtype=np.int64)
    handles = {n: (workdir / f"pairs_{n}_seed{seed}_r{RECIPE}.jsonl.tmp").open("w", encoding="utf-8") for n in missing}
    digests = {n: hashlib.sha256() for n in missing}
    start = time.perf_counter()
    for i, (pred, ref) in enumerate(itertools.islice(iter_pairs(sentences, seed), missing[-1])):
        line = json.dumps({"prediction": pred, "reference": ref}, ensure_ascii=False) + "\n"
        hashes[2 * i], hashes[2 * i + 1] = hash(pred), hash(ref)
        for n, fh in handles.items():  # a file is closed once full, so every open one takes this line
            fh.write(line)
            digests[n].update(line.encode())
        if i + 1 in handles:
            n = i + 1
            handles.pop(n).close()
            path = workdir / f"pairs_{n}_seed{seed}_r{RECIPE}.jsonl"
            meta = {
                "pairs": n,
                "seed": seed,
                "recipe": RECIPE,
                "source_sha256": source,
                "sha256": digests[n].hexdigest(),
                "bytes": path.with_suffix(".jsonl.tmp").stat().st_size,
                "distinct_texts": int(np.unique(hashes[: 2 * n]).size),
                "generate_s": time.perf_counter() - start,
            }
            path.with_suffix(".meta.json").write_text(json.dumps(meta, indent=2) + "\n")
            path.with_suffix(".jsonl.tmp").replace(path)  # last: a killed run leaves no half-written cache
            info[n] = {**meta, "path": str(path), "cached": False}
    return dict(sorted(info.items()))


def tiny_model(workdir: Path, seed: int) -> Path:
    """A random-weight sentence-transformers BERT with MiniLM's tokenizer, built once per seed."""
    path = workdir / f"tiny-st-h{TINY['hidden_size']}-l{TINY['num_hidden_layers']}-seed{seed}"
    if (path / "modules.json").is_file():
        return path
    import torch

    try:  # newer sentence-transformers moved the modules (the old path warns); older ones have only that
        from sentence_transformers.sentence_transformer import modules as st
    except ImportError:
        from sentence_transformers import models as st
    from sentence_transformers import SentenceTransformer
    from transformers import AutoTokenizer, BertConfig, BertModel

    source = embedded_model_dir()
    if source is None:
        raise SystemExit(f"--tiny-model needs the embedded MiniLM's tokenizer: {OFFLINE_HINT}")
    build = Path(tempfile.mkdtemp(prefix="tiny-st-", dir=workdir))
    tokenizer = AutoTokenizer.from_pretrained(source)
    tokenizer.save_pretrained(build / "bert")
    torch.manual_seed(seed)
    config = BertConfig(vocab_size=len(tokenizer), max_position_embeddings=512, **TINY)
    BertModel(config).save_pretrained(build / "bert")
    transformer = st.Transformer(str(build / "bert"), max_seq_length=256)  # MiniLM's window
    modules = [transformer, st.Pooling(TINY["hidden_size"], "mean"), st.Normalize()]
    SentenceTransformer(modules=modules, device="cpu").save(str(build / "model"))
    shutil.rmtree(path, ignore_errors=True)  # a half-built one from a killed run
    (build / "model").replace(path)
    shutil.rmtree(build)
    return path


def command(procs: int, pairs: Path, out: Path, backend: str, model: str | None, tau: float | None) -> list[str]:
    args = ["-m", "nash_metric", "score", "--pairs", str(pairs), "--output", str(out), "--backend", backend, "--quiet"]
    if model:
        args += ["--model", model]
    if tau is not None:
        args += ["--threshold", str(tau)]
    if procs == 1:
        return [sys.executable, *args]
    return [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", str(procs), *args]


def read_nash(out: Path, n: int) -> array:
    """The `nash` column, checking one row per pair in order; streamed, as 1M rows would not fit a dict."""
    nash = array("d")
    with out.open(encoding="utf-8") as fh:
        for i, line in enumerate(fh):
            row = json.loads(line)
            if row["index"] != i:
                raise RuntimeError(f"{out}: row {i} has index {row['index']}")
            nash.append(math.nan if row["nash"] is None else float(row["nash"]))  # JSON writes NaN as null
    if len(nash) != n:
        raise RuntimeError(f"{out}: {len(nash)} rows for {n} pairs")
    return nash


def run_one(cmd: list[str], n: int, out: Path, threads: int) -> dict[str, Any]:
    out.unlink(missing_ok=True)
    stats_path = out.with_suffix(".stats.json")
    env = {**os.environ, "OMP_NUM_THREADS": str(threads)}
    proc = subprocess.run(
        [sys.executable, "-c", WRAPPER, str(stats_path), str(out), *cmd], env=env, capture_output=True, text=True
    )
    if proc.returncode != 0:
        raise RuntimeError(f"exit {proc.returncode}: {shlex.join(cmd)}\n{(proc.stdout + proc.stderr)[-3000:].strip()}")
    stats = json.loads(stats_path.read_text())
    stats_path.unlink()
    nash = read_nash(out, n)
    out.unlink()  # checked; kept only when the check fails
    return {
        "pairs": n,
        "wall_s": stats["wall_s"],
        "first_row_s": stats["first_row_s"],
        "first_row_at_exit": stats["first_row_at_exit"],  # seen only once the command had exited: an upper bound
        "pairs_per_s": n / stats["wall_s"],
        "peak_rss_mib": stats["maxrss_kib"] / 1024,
        "rows_checked": len(nash),
        "omp_num_threads": threads,
        "command": shlex.join(cmd),
        "nash": nash,
    }


def max_abs_diff(a: array, b: array) -> float:
    # NaN on both sides (e.g. an empty text) is agreement, NaN on one side is not.
    return max((0.0 if math.isnan(x) and math.isnan(y) else abs(x - y) for x, y in zip(a, b)), default=0.0)


def has_default_threshold(model: str | None) -> bool:
    return model is None or resolve_model(model).name in {name for name, _ in DEFAULT_THRESHOLDS}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--backends", nargs="+", default=["sentence"], choices=("sentence", "token"))
    parser.add_argument("--procs", type=int, nargs="+", default=[1, 2])
    model_group = parser.add_mutually_exclusive_group()
    model_group.add_argument("--model", default=None, help="passed to `nash score --model` (default: its own)")
    model_group.add_argument("--tiny-model", action="store_true",
                             help="a random-weight 2-layer BERT built in --workdir: real memory, not real pairs/s")
    parser.add_argument("--threshold", type=float, default=None,
                        help=f"passed as `nash score --threshold` (default: the model's own tau, else "
                             f"{FALLBACK_THRESHOLD}, so that no calibration runs at startup)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--workdir", type=Path, default=None, help="pairs cache and outputs (default: a temp dir)")
    parser.add_argument("--output", type=Path, default=None)
    parser.add_argument("--generate-only", action="store_true", help="write the pairs files, report, score nothing")
    parser.add_argument("--no-warmup", action="store_true", help="skip the untimed warm-up run (CI)")
    return parser


def model_and_tau(args: argparse.Namespace, workdir: Path) -> tuple[str | None, str, float | None, str]:
    """The model passed to `nash score` and its label; tau (None: the model's own default) and its label."""
    if args.tiny_model:
        model = str(tiny_model(workdir, args.seed))
        model_label = (f"tiny random-weight sentence-transformers BERT ({TINY['num_hidden_layers']} layers, hidden "
                       f"{TINY['hidden_size']}, MiniLM tokenizer, seed {args.seed}) at {model}: its pairs/s are "
                       "NOT the real model's; memory, tokenizer, numbers, alignment and I/O are real")
    else:
        model = args.model
        model_label = args.model or "sentence-transformers/all-MiniLM-L6-v2 (default)"
    tau = args.threshold
    if tau is None and not has_default_threshold(model):
        tau = FALLBACK_THRESHOLD
    tau_label = "the model's own default (no calibration)" if tau is None else f"{tau} (fixed: --threshold {tau})"
    return model, model_label, tau, tau_label


def run_all(args: argparse.Namespace, corpus: dict[int, dict[str, Any]], workdir: Path, model: str | None,
            tau: float | None) -> tuple[list[dict[str, Any]], dict[tuple[str, int], dict[str, Any]], list[str]]:
    """Every backend x process count x size (startup size included): the runs, the startup runs, the errors."""
    cpus = os.cpu_count() or 1
    runs: list[dict[str, Any]] = []
    startup: dict[tuple[str, int], dict[str, Any]] = {}
    errors: list[str] = []
    # One untimed run first, so the first timed startup does not also pay for a cold file cache (model, .pyc).
    if not args.no_warmup:
        warm_out = workdir / "out_warmup.jsonl"
        warm_cmd = command(1, Path(corpus[STARTUP_PAIRS]["path"]), warm_out, args.backends[0], model, tau)
        print("warm-up ...", file=sys.stderr, flush=True)
        try:
            run_one(warm_cmd, STARTUP_PAIRS, warm_out, cpus)
        except (RuntimeError, OSError, KeyError, ValueError) as exc:
            print(f"warm-up: {exc}", file=sys.stderr)
    for backend in args.backends:
        for procs in sorted(set(args.procs)):
            threads = max(1, cpus // procs)
            for n in [STARTUP_PAIRS, *sorted(set(args.sizes))]:
                out = workdir / f"out_{backend}_{procs}p_{n}.jsonl"
                cmd = command(procs, Path(corpus[n]["path"]), out, backend, model, tau)
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
    return runs, startup, errors


def add_net_rates(runs: list[dict[str, Any]], startup: dict[tuple[str, int], dict[str, Any]],
                  sizes: list[int]) -> dict[tuple[str, int, int], dict[str, Any]]:
    """Each run's pairs/s net of its startup run and its RSS against the smallest size; the runs by key."""
    by_key = {(r["backend"], r["procs"], r["pairs"]): r for r in runs}
    for r in runs:
        start = startup.get((r["backend"], r["procs"]))
        net = r["wall_s"] - start["wall_s"] if start else 0.0
        r["startup_wall_s"] = start["wall_s"] if start else None
        r["pairs_per_s_net"] = r["pairs"] / net if net > 0 else None
        smallest = next(by_key[k] for n in sizes if (k := (r["backend"], r["procs"], n)) in by_key)
        r["rss_vs_smallest"] = r["peak_rss_mib"] / smallest["peak_rss_mib"]
    return by_key


def process_ratios(by_key: dict[tuple[str, int, int], dict[str, Any]], backend: str, sizes: list[int],
                   procs_list: list[int]) -> list[dict[str, Any]]:
    """N processes against 1 at each size: throughput (also net of startup) and the largest NASH difference."""
    ratios = []
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
    return ratios


def rss_growth(by_key: dict[tuple[str, int, int], dict[str, Any]], backend: str, sizes: list[int],
               procs_list: list[int]) -> list[dict[str, Any]]:
    """Peak RSS at the largest size against the smallest, per process count, with the target's verdict."""
    growths = []
    for procs in procs_list:
        have = [by_key[k] for n in sizes if (k := (backend, procs, n)) in by_key]
        if len(have) > 1:
            ratio_rss = have[-1]["rss_vs_smallest"]
            growth = {"backend": backend, "procs": procs, "smallest": have[0]["pairs"],
                      "largest": have[-1]["pairs"], "peak_rss_ratio": ratio_rss, "target": RSS_TARGET,
                      "within_target": ratio_rss <= RSS_TARGET}
            growths.append(growth)
            print(
                f"{backend} {procs}p peak RSS {have[-1]['pairs']} vs {have[0]['pairs']} pairs: "
                f"{have[-1]['peak_rss_mib']:.0f} / {have[0]['peak_rss_mib']:.0f} MiB = "
                f"{ratio_rss:.2f}x (target <= {RSS_TARGET}x: {'met' if growth['within_target'] else 'MISSED'})"
            )
    return growths


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="nash-scale-"))
    workdir.mkdir(parents=True, exist_ok=True)
    sizes, procs_list = sorted(set(args.sizes)), sorted(set(args.procs))
    corpus = corpus_files(workdir, load_sentences(args.data), [STARTUP_PAIRS, *sizes], args.seed)
    for n in sizes:
        c = corpus[n]
        made = "cached" if c["cached"] else f"generated in {c['generate_s']:.1f} s"
        print(f"corpus {n} pairs: {c['distinct_texts']} distinct texts of {2 * n}, {c['bytes'] / 2**20:.1f} MiB, "
              f"{made} ({c['path']})", file=sys.stderr)
    machine = {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "python": platform.python_version(),
        "cpu_count": os.cpu_count() or 1,
        "torch": importlib.metadata.version("torch"),
    }
    payload: dict[str, Any] = {"machine": machine, "seed": args.seed, "recipe": RECIPE, "corpus": list(corpus.values())}
    if args.generate_only:
        if args.output:
            args.output.parent.mkdir(parents=True, exist_ok=True)
            args.output.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        return 0

    model, model_label, tau, tau_label = model_and_tau(args, workdir)
    print(f"model: {model_label}\ntau: {tau_label}\n")
    runs, startup, errors = run_all(args, corpus, workdir, model, tau)
    by_key = add_net_rates(runs, startup, sizes)
    print(markdown_table(list(COLUMNS), [[r[k] for k in COLUMNS.values()] for r in runs], digits=2))
    print()
    for (backend, procs), s in startup.items():
        print(f"startup ({STARTUP_PAIRS} pairs) {backend} {procs}p: {s['wall_s']:.2f} s, {s['peak_rss_mib']:.0f} MiB")
    ratios: list[dict[str, Any]] = []
    growths: list[dict[str, Any]] = []
    for backend in args.backends:
        ratios += process_ratios(by_key, backend, sizes, procs_list)
        growths += rss_growth(by_key, backend, sizes, procs_list)
    bad = [r for r in ratios if r["max_abs_nash_diff_vs_1proc"] > 1e-6]
    if bad:
        errors.append(f"nash differs between 1 and N processes by more than 1e-6: {bad}")
    for e in errors:
        print(f"\nERROR {e}", file=sys.stderr)
    if args.output:
        strip = lambda r: {k: v for k, v in r.items() if k != "nash"}  # noqa: E731
        payload.update({"model": model_label, "tiny_model": args.tiny_model, "threshold": tau_label,
                        "startup": [strip(s) for s in startup.values()], "runs": [strip(r) for r in runs],
                        "ratios": ratios, "rss_growth": growths, "errors": errors})
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 1 if errors else 0

if __name__ == "__main__":
    sys.exit(main())
