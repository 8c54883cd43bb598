"""How the calendar scale (``numbers.periods.DAY_SCALE``) moves NumFinE's temporal units, measured in one run.

    python perf/calendar_scale.py --data /tmp/numfine_ar [--scales 7 30 91 182.5 365] [--backend sentence]

Two calendar periods score 1 / (1 + days / DAY_SCALE). Triplets and lists compare variants of one anchor,
so the scale moves them only where a sentence holds several periods (an anchor's "December 31, 2019" may
align to a variant's shifted "fiscal 2021"); it mostly moves the cross-pair protocol (two units, one
variant each: the smaller deviation should score higher), where a date's pull is weighed against another
unit's. Prints a Markdown table over the temporal units and writes JSON with ``--output``.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from nash_metric import NASH
from nash_metric.benchmarks.numfine.evaluation import load_tables, run_numfine
from nash_metric.numbers import periods

PROTOCOLS = ("triplet_easy", "triplet_medium", "triplet_hard", "listwise", "crosspair")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True, help="a built NumFinE folder")
    parser.add_argument("--scales", type=float, nargs="+", default=[7.0, 30.0, 91.0, 182.5, 365.0])
    parser.add_argument("--backend", default="sentence", choices=("sentence", "token"))
    parser.add_argument("--output", type=Path)
    args = parser.parse_args()

    tables = {name: [r for r in rows if r["category"] == "temporal"] for name, rows in load_tables(args.data).items()}
    scorer = NASH(backend=args.backend)
    rows = []
    default = periods.DAY_SCALE
    try:
        for scale in args.scales:
            periods.DAY_SCALE = scale
            result = run_numfine(scorer, tables, alignment_rows=0, show_progress=False)
            rows.append({"day_scale": scale, **{p: result["nash"][p] for p in PROTOCOLS}})
    finally:
        periods.DAY_SCALE = default
    base = run_numfine(scorer, tables, alignment_rows=0, show_progress=False)["base"]
    units = {name: len(rows_) for name, rows_ in tables.items()}
    print(f"NumFinE temporal units ({units['listwise']} units, {units['crosspair']} cross-pairs), "
          f"{args.backend} backbone, {scorer.resolved.name}; Base: "
          + ", ".join(f"{p} {base[p]:.3f}" for p in PROTOCOLS))
    print("\n| DAY_SCALE (days) | " + " | ".join(PROTOCOLS) + " |")
    print("|---" * (len(PROTOCOLS) + 1) + "|")
    for r in rows:
        print(f"| {r['day_scale']:g} | " + " | ".join(f"{r[p]:.3f}" for p in PROTOCOLS) + " |")
    if args.output:
        args.output.write_text(json.dumps({"config": scorer.echo, "base": base, "rows": rows, "units": units},
                                          indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
