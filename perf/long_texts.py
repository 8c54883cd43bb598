"""Cost of very long, number-dense texts: peak memory and time of one scoring process per scenario.

    python perf/long_texts.py [--backends sentence token] [--sizes 25000 50000 100000] [--short 200]
                              [--seed 0] [--max-rss-gb 8] [--output FILE.json]

Texts come by a seeded recipe from the TAT-QA dev sentences of ../shared/data/annual_reports: the long
text concatenates the densest quarter of them (numbers per character) in seeded order up to the size
(with repeats past the ~33 KB they hold); its pair is a seeded perturbation (half of the non-date numbers
scaled by [0.5, 2], written with the same decimals), so both sides are number-dense. The short pairs are
seeded sentences against their perturbations.

Scenarios, each scored in a fresh Python process with the default model (the embedded all-MiniLM-L6-v2) and
chunk size, so that its peak RSS is its own (the child's rusage from wait4, as RUSAGE_CHILDREN reads it):
  short        the short pairs alone: interpreter, torch and the model (the floor)
  long         the first --sizes pair alone
  long+short   that pair among the short pairs, one `score` call (one chunk)
  long N       one pair of ~N bytes a side, for cost against size
A process whose RSS passes --max-rss-gb is killed (the machine is shared) and reported as such. The
ratio long+short / long of peak RSS says whether one long pair multiplies its chunk's memory (target
<= 1.5x).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np
from capped_child import run_capped  # perf/, the script's own folder

from nash_metric import extract_numbers
from nash_metric.common.reporting import environment, markdown_table, write_json

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "annual_reports" / "tatqa_dev_sentences.txt"
DIGITS = re.compile(r"\d[\d,]*(?:\.\d+)?")
# The child: score the pairs of a JSONL file, print the scoring time and the long pair's score.
CHILD = """
import json, sys, time
from nash_metric import NASH
rows = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
scorer = NASH(backend=sys.argv[2])
start = time.perf_counter()
out = scorer.score([r["prediction"] for r in rows], [r["reference"] for r in rows])
print(json.dumps({"score_s": time.perf_counter() - start, "nash": float(out.nash[0]),
                  "numeric": float(out.numeric[0]), "mean_nash": float(out.nash.mean())}))
"""


def scorable(text: str) -> int:
    return sum(m.value is not None for m in extract_numbers(text))


def perturb(text: str, rng: np.random.Generator) -> str:
    """Half of the non-date numbers scaled by [0.5, 2], written with as many decimals as before."""
    parts, pos = [], 0
    for m in extract_numbers(text):
        digits = DIGITS.search(m.text)
        if m.value is None or m.kind == "temporal" or digits is None or rng.random() < 0.5:
            continue
        written = digits.group()
        decimals = len(written.split(".")[1]) if "." in written else 0
        scaled = float(written.replace(",", "")) * rng.uniform(0.5, 2.0)
        start = m.start + digits.start()
        parts += [text[pos:start], f"{scaled:,.{decimals}f}" if "," in written else f"{scaled:.{decimals}f}"]
        pos = start + len(written)
    return "".join(parts) + text[pos:]


def long_text(dense: list[str], size: int, rng: np.random.Generator) -> str:
    """Dense sentences in seeded order (a fresh permutation each pass) until `size` characters."""
    out: list[str] = []
    length = 0
    while length < size:
        for i in rng.permutation(len(dense)):
            out.append(dense[i])
            length += len(dense[i]) + 1
            if length >= size:
                break
    return " ".join(out)


def workloads(path: Path, sizes: list[int], n_short: int, seed: int) -> tuple[list[tuple[str, str]], dict]:
    sentences = list(dict.fromkeys(line.strip() for line in path.open(encoding="utf-8") if line.strip()))
    counts = np.array([scorable(s) for s in sentences])
    density = counts / np.array([len(s) for s in sentences])
    dense = [s for s, d in zip(sentences, density) if d >= np.quantile(density, 0.75)]
    rng = np.random.default_rng(seed)
    with_numbers = [s for s, c in zip(sentences, counts) if c]
    short = [(s, perturb(s, rng)) for s in (with_numbers[i] for i in rng.choice(len(with_numbers), n_short, False))]
    longs = {}
    for size in sizes:
        text = long_text(dense, size, rng)
        longs[size] = (text, perturb(text, rng))
    return short, longs


def measure(pairs: list[tuple[str, str]], backend: str, max_rss_kb: int, env: dict) -> dict:
    """Score `pairs` in a fresh process: peak RSS (MB), wall time, scoring time; killed past max_rss_kb."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "pairs.jsonl"
        path.write_text("".join(json.dumps({"prediction": a, "reference": b}) + "\n" for a, b in pairs), "utf-8")
        child = run_capped([sys.executable, "-c", CHILD, str(path), backend], env, max_rss_kb)
    row = {"peak_rss_mb": child.peak_rss_mb, "wall_s": child.seconds, "status": child.killed or "ok"}
    if not child.killed and child.code:
        row["status"] = f"exit {child.code}: {child.last_error[:160]}"
    elif not child.killed:
        row.update(json.loads(child.stdout.strip().splitlines()[-1]))
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--backends", nargs="+", default=["sentence", "token"], choices=["sentence", "token"])
    parser.add_argument("--sizes", nargs="+", type=int, default=[25_000, 50_000, 100_000],
                        help="characters per side of the long pairs; the first is the one among the short pairs")
    parser.add_argument("--short", type=int, default=200, help="short pairs beside the long one")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-rss-gb", type=float, default=8.0, help="kill a scoring process past this RSS")
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args(argv)
    if not args.data.is_file():
        sys.exit(f"long_texts: {args.data} not found (TAT-QA dev sentences, ../shared/data/annual_reports)")
    short, longs = workloads(args.data, args.sizes, args.short, args.seed)
    first = longs[args.sizes[0]]
    scenarios = {"short": short, "long": [first], "long+short": [first, *short]}
    scenarios |= {f"long {size // 1000} KB": [pair] for size, pair in longs.items() if size != args.sizes[0]}
    env = dict(os.environ)
    max_rss_kb = int(args.max_rss_gb * 1024**2)
    load_before = os.getloadavg()[0]  # times are only comparable on an otherwise idle machine

    rows, results = [], []
    for backend in args.backends:
        for name, pairs in scenarios.items():
            a, b = max(pairs, key=lambda pair: len(pair[0]) + len(pair[1]))  # the largest pair
            measured = measure(pairs, backend, max_rss_kb, env)
            result = {"backend": backend, "scenario": name, "pairs": len(pairs), "kb_a": len(a.encode()) / 1000,
                      "kb_b": len(b.encode()) / 1000, "numbers_a": scorable(a), "numbers_b": scorable(b), **measured}
            results.append(result)
            rows.append([backend, name, len(pairs), f"{result['kb_a']:.1f} / {result['kb_b']:.1f}",
                         f"{result['numbers_a']} / {result['numbers_b']}", result["peak_rss_mb"],
                         result.get("score_s"), result["wall_s"], result["status"]])
            print(f"{backend} {name}: {measured}", file=sys.stderr, flush=True)
    print(markdown_table(["backend", "scenario", "pairs", "largest pair KB a / b", "numbers a / b", "peak RSS MB",
                          "score s", "process s", "status"], rows, digits=1))
    ratios = {}
    for backend in args.backends:
        by_name = {r["scenario"]: r for r in results if r["backend"] == backend}
        alone, beside = by_name["long"], by_name["long+short"]
        ratios[backend] = beside["peak_rss_mb"] / alone["peak_rss_mb"]
        print(f"\n{backend}: peak RSS long+short / long = {ratios[backend]:.2f}x (target <= 1.5x)"
              + ("" if beside["status"] == "ok" else f" ({beside['status']}: a lower bound)"))
    machine = {**environment(), "numpy": np.__version__, "cpus": os.cpu_count(),
               "processor": platform.processor() or platform.machine(),
               "load_average_1min": [load_before, os.getloadavg()[0]]}
    print(f"\nmodel all-MiniLM-L6-v2 (embedded default), {machine['cpus']} cpus, torch {machine['torch']}, "
          f"numpy {machine['numpy']}, nash-metric {machine['nash_metric']}, "
          f"load average {load_before:.1f} before / {os.getloadavg()[0]:.1f} after")
    if args.output:
        write_json(args.output, {"benchmark": "long_texts", "environment": machine, "seed": args.seed,
                                 "short_pairs": args.short, "sizes": args.sizes, "ratio_long_short_over_long": ratios,
                                 "results": results})
    return 0


if __name__ == "__main__":
    sys.exit(main())
