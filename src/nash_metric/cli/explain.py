"""`nash explain`: mentions, masked texts, alignments and the arithmetic of one pair, as text, JSON or a figure."""

from __future__ import annotations

import argparse
import json
import sys

from .command import Command
from .options import scorer_from_args
from .parser import one_line


def add_explain_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--json", action="store_true", help="print the full JSON explanation")
    parser.add_argument("--plot", default=None, metavar="FILE", help="also draw the alignment heat map (the Space's "
                        "figure) to FILE: .png, .svg or .pdf; for a pair with many numbers, those with the highest "
                        "cosines, saying how many it left out")


def run_explain(args: argparse.Namespace) -> int:
    from ..common.validation import check_pairs

    check_pairs([args.a], [args.b])  # before the model loads
    if args.plot is not None:
        from ..common.extras import require
        from ..common.io import check_writable

        require("plot", "nash explain --plot")
        from ..reports.plot import check_figure_path, explanation_figure, save_figure

        check_writable(args.plot, "--plot", check=check_figure_path)  # before the model loads
    info = scorer_from_args(args).explain(args.a, args.b)
    if args.json:
        print(json.dumps(info, indent=2, ensure_ascii=False), flush=True)
    else:
        from ..reports.explain_text import render_explanation

        print(render_explanation(info), flush=True)
    if args.plot is None:
        return 0
    # Drawn after the explanation is out, so that a figure that cannot be drawn never costs the scores. A large
    # pair is cut to the plot budget (reports.plot.PLOT_BUDGET), and the figure's title says so.
    try:
        written = save_figure(explanation_figure(info), args.plot)
    except (ValueError, OSError, MemoryError) as exc:
        print(f"nash: error: the heat map was not written to {args.plot} ({type(exc).__name__}: {one_line(exc)}); "
              "the explanation above is complete", file=sys.stderr)
        return 1 if isinstance(exc, MemoryError) else 2  # running.py's codes: a bug or the machine, or the user's
    print(f"wrote {written}", file=sys.stderr)
    return 0


EXPLAIN = Command("explain", "mentions, masked texts, alignments and the arithmetic of one pair",
                  add_explain_arguments, run_explain, scorer_options=True)
