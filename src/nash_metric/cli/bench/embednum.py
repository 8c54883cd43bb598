"""`nash build-data embednum1k` and `nash bench embednum1k`: their flags (configs and defaults from the benchmark's
own) and runs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ...benchmarks import registry
from ...benchmarks.embednum.configs import ALL_CONFIGS, N_CANDIDATE_QUESTIONS
from ..command import Command
from ..options import scorer_factory
from ..parser import NON_NEGATIVE, POSITIVE
from .report import add_report_arguments, plot, print_build, report

EMBEDNUM = registry["embednum1k"]


def add_build_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", required=True, help="dataset folder: Parquet to OUT/data/, card to OUT/README.md")
    parser.add_argument("--source", default=None, help="the authors' released triples (.jsonl/.json/.csv with "
                        "question, positive, negative); default: generate from seed questions")
    parser.add_argument("--seeds", default=None, help="seed question file (default: the packaged 72 templates)")
    parser.add_argument("--seed", type=NON_NEGATIVE, default=0)
    parser.add_argument("--n", type=POSITIVE, default=None, help="triples per config (default: 1000, or all "
                        "released)")
    parser.add_argument("--candidate-questions", type=POSITIVE, default=N_CANDIDATE_QUESTIONS,
                        help="questions in candidates_10/100 (default: %(default)s)")
    parser.add_argument("--configs", nargs="+", default=None, choices=ALL_CONFIGS, metavar="CONFIG",
                        help="subset of configs (default: all)")


def run_build(args: argparse.Namespace) -> int:
    built = EMBEDNUM.build(args.out, source=args.source, seeds=args.seeds, seed=args.seed, n=args.n,
                           configs=args.configs, n_candidate_questions=args.candidate_questions, show_progress=True)
    rows = built["rows"]
    print_build(EMBEDNUM, built, f"wrote {len(rows)} configs ({sum(rows.values())} rows) to {Path(args.out) / 'data'} "
                f"and {Path(args.out) / 'README.md'}")
    return 0


def add_bench_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", required=True, help="dataset folder built by `nash build-data embednum1k`")
    parser.add_argument("--configs", nargs="+", default=None, choices=ALL_CONFIGS, metavar="CONFIG")
    parser.add_argument("--limit", type=POSITIVE, default=None, help="first N rows per config (quick runs)")
    parser.add_argument("--candidate-limit", type=POSITIVE, default=None,
                        help="first N questions of candidates_10/100 (default: --limit)")
    parser.add_argument("--no-bertscore", action="store_true", help="skip the bert_score package column")
    add_report_arguments(parser, plot="heat-map PNG path (formats × scorers)")
    parser.add_argument("--update-card", action="store_true", help="write the tables into DATA/README.md")


def run_bench(args: argparse.Namespace) -> int:
    result = EMBEDNUM.evaluate(scorer_factory(args), args.data, configs=args.configs, limit=args.limit,
                               candidate_limit=args.candidate_limit, bertscore=not args.no_bertscore)
    report(args, EMBEDNUM, result)
    plot(args, EMBEDNUM, result)
    if args.update_card:
        print(f"updated {EMBEDNUM.card(args.data, result)}", file=sys.stderr)
    return 0


BUILD = Command(EMBEDNUM.name, "EmbedNum-1K: 18 number formats + extras (comparison triples)", add_build_arguments,
                run_build)
BENCH = Command(EMBEDNUM.name, EMBEDNUM.summary, add_bench_arguments, run_bench, scorer_options=True)
