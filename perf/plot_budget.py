"""Cost of the alignment heat map of number-dense pairs: wall time, peak RSS and pixels, in the CLI and the Space.

    python perf/plot_budget.py [--sizes 25000 2000] [--seed 0] [--max-rss-gb 4] [--timeout 300] [--before]
                               [--output FILE.json]

Issue 31: `nash explain A B --plot map.png` on a 25 KB pair (~1,700 figures a side) passed 13 GB and 500 s without
drawing anything, and the Space's Compare tab ran 107 s on two dense 2,000-character texts, then failed to encode
an 18,130 x 8,470-pixel figure. The map now draws at most `reports.plot.PLOT_BUDGET` (40 x 30 numbers: the figures
the verdict flags, then the highest cosines) and says how many it left out.

Pairs come from a seeded recipe: financial clauses (amounts, percentages, table rows as text) with random figures,
about one figure per 14 characters; B is A with each figure rescaled by [0.5, 2] with probability 1/2, so the
verdicts are mixed. Scenarios, each in a fresh Python process with the default model (the embedded
all-MiniLM-L6-v2), so that its peak RSS is its own (the child's rusage from wait4):
  cli N      `nash explain A B --plot map.png` (the command itself, stdout discarded): process time, peak RSS,
             the PNG's pixels; the done-when of issue 31 is under 2 GB and 60 s for the 25 KB pair
  steps N    the same work step by step in one process: explain, the figure, the PNG
  space N    the Space's Compare handler (default limits: 60 s a request; model and bert-score loaded before the
             clock starts, as on a served Space), then gradio's own encoding of its figure (`gr.Plot.postprocess`:
             WebP at the figure's dpi), as the page gets it; only for pairs within the Space's 2,000 characters
  before N   `steps` with an unbounded budget (the map as before issue 31), only with --before and only for pairs
             within the Space's limit; killed past --max-rss-gb or --timeout
A process past --max-rss-gb or --timeout is killed (the machine is shared) and reported as such.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import struct
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np
from capped_child import run_capped  # perf/, the script's own folder

from nash_metric import extract_numbers
from nash_metric.common.reporting import environment, markdown_table, write_json

ITEMS = ("Revenue", "Net income", "Operating profit", "EBITDA", "Gross margin", "Free cash flow", "Net debt",
         "Capital expenditure", "Dividends", "Operating expenses", "Interest expense", "Tax charge", "Order backlog",
         "Inventories", "Trade receivables", "Staff costs")
TEMPLATES = (
    "{item} ${a:,.1f} mn, up {p:.1f}% from ${b:,.1f} mn.",
    "{item} rose {p:.1f}% to €{a:,.2f} bn; margin {m:.1f}%.",
    "{item}: {a:,.0f} | {b:,.0f} | {p:.1f}% | {m:.1f}%.",
    "{item} {a:,.0f}, {b:,.0f}, {p:.0f}%, {m:.0f}%, {c:,.0f}.",
    "{item} fell {p:.1f}% to {a:,.1f} mn vs {b:,.1f} mn.",
)
FIGURES = "abpmc"
SPACE_CHARS = 2_000  # space/limits.py MAX_CHARS (not imported: that would load the Space's package here)

# The children. Each prints one JSON line last; texts come in a JSON file (argv[1]), the figure goes to argv[2].
CLI = """
import json, sys, time
from nash_metric.cli import main
pair = json.load(open(sys.argv[1], encoding="utf-8"))
sys.stdout = open("/dev/null", "w")  # the explanation of ~1,800 figures a side is long: not what is measured
start = time.perf_counter()
code = main(["explain", pair["a"], pair["b"], "--plot", sys.argv[2]])
sys.stdout = sys.__stdout__
print(json.dumps({"exit": code, "main_s": time.perf_counter() - start}))
"""
STEPS = """
import json, sys, time
from nash_metric import NASH
from nash_metric.reports.plot import PLOT_BUDGET, PlotBudget, explanation_figure, save_figure
pair = json.load(open(sys.argv[1], encoding="utf-8"))
budget = PLOT_BUDGET if sys.argv[3] == "budget" else PlotBudget(10**6, 10**6, 10**9, 10**18)
scorer = NASH()
t0 = time.perf_counter()
info = scorer.explain(pair["a"], pair["b"])
t1 = time.perf_counter()
figure = explanation_figure(info, budget)
t2 = time.perf_counter()
save_figure(figure, sys.argv[2])
t3 = time.perf_counter()
shape = figure.axes[0].get_images()[0].get_array().shape
print(json.dumps({"explain_s": t1 - t0, "figure_s": t2 - t1, "png_s": t3 - t2, "shown": list(shape),
                  "nash": info["scores"]["nash"]}))
"""
SPACE = """
import base64, io, json, sys, time
import gradio as gr
from PIL import Image
from nash_metric.config import DEFAULT_MODEL
from nash_metric.space.handlers import SpaceHandlers
from nash_metric.space.limits import SpaceLimits
pair = json.load(open(sys.argv[1], encoding="utf-8"))
limits = SpaceLimits()
handlers = SpaceHandlers(limits)
handlers.compare("Revenue rose 4%.", "Revenue rose 40%.", DEFAULT_MODEL, "sentence", True, 0.0)  # loads
start = time.perf_counter()
cards, panels, figure, table = handlers.compare(pair["a"], pair["b"], DEFAULT_MODEL, "sentence", True, 0.0)
handler = time.perf_counter() - start
row = {"handler_s": handler, "scores": 'data-metric="NASH"' in cards and "nash-error" not in cards,
       "budget_s": limits.request_seconds, "figure": figure is not None}
if figure is not None:
    row["shown"] = list(figure.axes[0].get_images()[0].get_array().shape)
    start = time.perf_counter()
    data = gr.Plot().postprocess(figure)
    row["encode_s"] = time.perf_counter() - start
    image = Image.open(io.BytesIO(base64.b64decode(data.plot.split(",", 1)[1])))
    row["pixels"] = list(image.size)
row["total_s"] = handler + row.get("encode_s", 0.0)
print(json.dumps(row))
"""
CHILDREN = {"cli": CLI, "steps": STEPS, "space": SPACE, "before": STEPS}


def dense_pair(chars: int, rng: np.random.Generator) -> tuple[str, str]:
    """(A, B) of about `chars` characters each: clauses of random figures; B rescales half of A's figures."""
    specs, length = [], 0
    while length < chars:
        spec = {"template": TEMPLATES[int(rng.integers(len(TEMPLATES)))], "item": ITEMS[int(rng.integers(len(ITEMS)))],
                "a": rng.uniform(10, 9000), "b": rng.uniform(10, 9000), "p": rng.uniform(0.1, 40),
                "m": rng.uniform(1, 60), "c": rng.uniform(10, 900)}
        specs.append(spec)
        length += len(_clause(spec)) + 1
    other = [{**s, **{k: s[k] * rng.uniform(0.5, 2.0) for k in FIGURES if rng.random() < 0.5}} for s in specs]
    return _joined(specs, chars), _joined(other, chars)


def _clause(spec: dict) -> str:
    return spec["template"].format(**spec)


def _joined(specs: list[dict], chars: int) -> str:
    text = " ".join(_clause(s) for s in specs)
    return text if len(text) <= chars else text[:chars].rsplit(" ", 1)[0]


def png_size(path: Path) -> list[int] | None:
    """(width, height) from a PNG's header, or None when there is no PNG."""
    try:
        head = path.read_bytes()[:24]
    except FileNotFoundError:
        return None
    return list(struct.unpack(">II", head[16:24])) if head[:8] == b"\x89PNG\r\n\x1a\n" else None


def measure(kind: str, pair: tuple[str, str], max_rss_kb: int, timeout: float) -> dict:
    """Run the `kind` child on `pair` in a fresh process: peak RSS (MB), wall time, its JSON; killed past the caps."""
    with tempfile.TemporaryDirectory() as tmp:
        source, figure = Path(tmp) / "pair.json", Path(tmp) / "map.png"
        source.write_text(json.dumps({"a": pair[0], "b": pair[1]}), "utf-8")
        argv = [sys.executable, "-c", CHILDREN[kind], str(source), str(figure), "unbounded" if kind == "before"
                else "budget"]
        child = run_capped(argv, dict(os.environ), max_rss_kb, timeout)
        row = {"peak_rss_mb": child.peak_rss_mb, "process_s": child.seconds, "status": child.killed or "ok"}
        if not child.killed and child.code:
            row["status"] = f"exit {child.code}: {child.last_error[:160]}"
        elif not child.killed:
            row.update(json.loads(child.stdout.strip().splitlines()[-1]))
        if kind != "space":
            row["pixels"] = png_size(figure)
    return row


def _scored(text: str) -> int:
    return sum(m.value is not None for m in extract_numbers(text))


def _table_row(kind: str, size: int, pair: tuple[str, str], counts: tuple[int, int], r: dict) -> list:
    shown = "x".join(map(str, r["shown"])) if r.get("shown") else "-"  # the CLI draws what `steps` draws
    pixels = "x".join(map(str, r["pixels"])) if r.get("pixels") else "-"
    in_steps = "explain {explain_s:.1f} + figure {figure_s:.1f} + PNG {png_s:.1f}"
    steps = {"cli": "nash explain {main_s:.1f}", "steps": in_steps, "before": in_steps,
             "space": "handler {handler_s:.1f} + WebP {encode_s:.1f} (budget {budget_s:.0f})"}[kind]
    try:
        detail = steps.format(**r)
    except KeyError:
        detail = "handler {handler_s:.1f}, no figure".format(**r) if "handler_s" in r else ""
    return [kind, f"{len(pair[0]):,} / {len(pair[1]):,}", f"{counts[0]:,} / {counts[1]:,}", r["peak_rss_mb"],
            r["process_s"], detail, shown, pixels, r["status"]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", nargs="+", type=int, default=[25_000, SPACE_CHARS],
                        help="characters a side of each dense pair")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-rss-gb", type=float, default=4.0, help="kill a process past this RSS")
    parser.add_argument("--timeout", type=float, default=300.0, help="kill a process after this many seconds")
    parser.add_argument("--before", action="store_true",
                        help="also draw the Space-size pairs' maps without a budget (capped by the two limits)")
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args(argv)
    max_rss_kb = int(args.max_rss_gb * 1024 ** 2)
    load_before = os.getloadavg()[0]  # times are only comparable on an otherwise idle machine
    rows, results = [], []
    for size in args.sizes:
        pair = dense_pair(size, np.random.default_rng(args.seed))
        counts = (_scored(pair[0]), _scored(pair[1]))
        kinds = ["cli", "steps"] + (["space"] + (["before"] if args.before else []) if size <= SPACE_CHARS else [])
        for kind in kinds:
            measured = measure(kind, pair, max_rss_kb, args.timeout)
            print(f"{kind} {size}: {measured}", file=sys.stderr, flush=True)
            results.append({"scenario": kind, "chars": size, "figures_a": counts[0], "figures_b": counts[1],
                            **measured})
            rows.append(_table_row(kind, size, pair, counts, measured))
    print(markdown_table(["scenario", "chars a / b", "figures a / b", "peak RSS MB", "process s", "steps s",
                          "cells drawn", "pixels", "status"], rows, digits=1))
    machine = {**environment(), "numpy": np.__version__, "cpus": os.cpu_count(),
               "processor": platform.processor() or platform.machine(),
               "load_average_1min": [load_before, os.getloadavg()[0]]}
    print(f"\nmodel all-MiniLM-L6-v2 (embedded default), {machine['cpus']} cpus, torch {machine['torch']}, "
          f"nash-metric {machine['nash_metric']}, load average {load_before:.1f} before / {os.getloadavg()[0]:.1f} "
          "after")
    if args.output:
        write_json(args.output, {"benchmark": "plot_budget", "environment": machine, "seed": args.seed,
                                 "sizes": args.sizes, "results": results})
    return 0


if __name__ == "__main__":
    sys.exit(main())
