"""`nash explain`: mentions, masked texts, alignments and the arithmetic of one pair, as text, JSON or a figure."""

from __future__ import annotations

import argparse
import json
import sys

from .command import Command
from .options import scorer_from_args


def add_explain_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--json", action="store_true", help="print the full JSON explanation")
    parser.add_argument("--plot", default=None, metavar="FILE", help="also draw the alignment heat map (the Space's "
                        "figure) to FILE: .png, .svg or .pdf")


def run_explain(args: argparse.Namespace) -> int:
    from ..common.validation import check_pairs

    check_pairs([args.a], [args.b])  # before the model loads
    if args.plot is not None:
        from ..reports.plot import check_figure_path, explanation_figure, save_figure

        check_figure_path(args.plot)  # before the model loads
    info = scorer_from_args(args).explain(args.a, args.b)
    if args.plot is not None:
        print(f"wrote {save_figure(explanation_figure(info), args.plot)}", file=sys.stderr)
    if args.json:
        print(json.dumps(info, indent=2, ensure_ascii=False))
    else:
        from ..reports.explain_text import render_explanation

        print(render_explanation(info))
    return 0


EXPLAIN = Command("explain", "mentions, masked texts, alignments and the arithmetic of one pair",
                  add_explain_arguments, run_explain, scorer_options=True)
