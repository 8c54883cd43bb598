"""`nash build-data filing-claims` and `nash bench filing-claims`: their flags (defaults and choices from the
benchmark's own) and runs."""

from __future__ import annotations

import argparse

from ...benchmarks import registry
from ...benchmarks.filing_claims.defaults import (
    CELLS_PER_TABLE,
    DEFAULT_SEED,
    DEFAULT_SPLIT,
    DEFAULT_SPLIT_SEED,
    SPLIT_CHOICES,
)
from ..command import Command
from ..options import scorer_factory
from ..parser import NON_NEGATIVE, POSITIVE, UsageError
from .report import add_report_arguments, print_build, report

FILING_CLAIMS = registry["filing-claims"]


def add_build_options(parser: argparse.ArgumentParser, source_required: bool) -> None:
    parser.add_argument("--source", required=source_required, metavar="tatqa_dev.json",
                        help="TAT-QA's dev set (../shared/data/annual_reports/tatqa_dev.json)")
    parser.add_argument("--seed", type=NON_NEGATIVE, default=DEFAULT_SEED,
                        help="seed of the cells, values and templates drawn (default: %(default)s)")
    parser.add_argument("--split-seed", type=NON_NEGATIVE, default=DEFAULT_SPLIT_SEED,
                        help="seed of the split by table into tune and report halves (default: %(default)s)")
    parser.add_argument("--cells-per-table", type=POSITIVE, default=CELLS_PER_TABLE,
                        help="cells drawn per table, each giving a supported, a misplaced and an unsupported claim "
                        "(default: %(default)s)")


def add_build_arguments(parser: argparse.ArgumentParser) -> None:
    add_build_options(parser, source_required=True)
    parser.add_argument("--out", required=True, metavar="FILE.jsonl",
                        help="the claims (claims-format JSONL); the build report goes beside it")


def run_build(args: argparse.Namespace) -> int:
    built = FILING_CLAIMS.build(args.out, source=args.source, seed=args.seed, split_seed=args.split_seed,
                                cells_per_table=args.cells_per_table, show_progress=True)
    print_build(FILING_CLAIMS, built, f"wrote {args.out} and its build report {built['build_report']}")
    return 0


def add_bench_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", default=None, metavar="FILE.jsonl",
                        help="claims built before (nash build-data filing-claims); else give --source to build now")
    add_build_options(parser, source_required=False)
    parser.add_argument("--split", default=DEFAULT_SPLIT, choices=SPLIT_CHOICES,
                        help="the half by table to score (default: %(default)s)")
    parser.add_argument("--limit", type=POSITIVE, default=None,
                        help="first N tables of each split (a fixed pseudo-random order; quick runs)")
    add_report_arguments(parser)


def run_bench(args: argparse.Namespace) -> int:
    if (args.data is None) == (args.source is None):
        raise UsageError("give --data (a build) or --source (TAT-QA's tatqa_dev.json, built now), not both")
    result = FILING_CLAIMS.evaluate(scorer_factory(args), args.data, source=args.source, seed=args.seed,
                                    split_seed=args.split_seed, cells_per_table=args.cells_per_table,
                                    split=args.split, limit=args.limit)
    report(args, FILING_CLAIMS, result)
    return 0


BUILD = Command(FILING_CLAIMS.name, "FilingClaims: claims about TAT-QA table cells and values computed from them, "
                "each against every form of its source", add_build_arguments, run_build)
BENCH = Command(
    FILING_CLAIMS.name, FILING_CLAIMS.summary, add_bench_arguments, run_bench, scorer_options=True,
    description="The claims evaluation (ROC AUC of numeric_support, BA of the verdict, beside the value-anywhere "
    "check) per split, per source form (markdown, html, text), per kind (misplaced, unsupported, and the false "
    "computed kinds other-row, other-year, wrong-operation, off, wrong-direction, against the label-1 rows) and per "
    "group (template claims, claims from TAT-QA's questions, values computed from cells), with the false-computed "
    "rate (wrong values whose figure is called computed). See nash_metric.benchmarks.filing_claims.",
)
