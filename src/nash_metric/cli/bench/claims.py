"""`nash bench claims`: labelled {source, claim, label} rows, the figure verdict against the value-anywhere check."""

from __future__ import annotations

import argparse

from ...benchmarks import registry
from ..command import Command
from ..options import scorer_factory
from ..parser import POSITIVE
from .report import add_report_arguments, report

CLAIMS = registry["claims"]


def add_bench_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", required=True, metavar="FILE.jsonl",
                        help='one claim a line: {"source": str, "claim": str, "label": 0|1} and optionally "id", '
                        '"kind" and "group" (the tables break the rows down by them); other fields are kept')
    parser.add_argument("--limit", type=POSITIVE, default=None, help="first N rows of the file (quick runs)")
    add_report_arguments(parser)


def run_bench(args: argparse.Namespace) -> int:
    result = CLAIMS.evaluate(scorer_factory(args), args.data, limit=args.limit)
    report(args, CLAIMS, result)
    return 0


BENCH = Command(
    CLAIMS.name, CLAIMS.summary, add_bench_arguments, run_bench, scorer_options=True,
    description="ROC AUC of numeric_support and balanced accuracy of the verdict (no figure listed as not "
    "supported), beside the value-anywhere check (every digit string of the claim found by value in the source), "
    "overall, per kind (against the label-1 rows) and per group. Each distinct (claim, source) pair is scored once. "
    "See nash_metric.benchmarks.claims.",
)
