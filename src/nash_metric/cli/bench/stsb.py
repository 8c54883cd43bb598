"""`nash bench stsb`: its flags and run."""

from __future__ import annotations

import argparse

from ...benchmarks import registry
from ..command import Command
from ..options import scorer_factory
from ..parser import POSITIVE
from .report import add_report_arguments, report

STSB = registry["stsb"]


def add_bench_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", required=True, help="STS-B TSV (e.g. sts-dev.tsv)")
    parser.add_argument("--limit", type=POSITIVE, default=None, help="first N pairs")
    add_report_arguments(parser)


def run_bench(args: argparse.Namespace) -> int:
    report(args, STSB, STSB.evaluate(scorer_factory(args), args.data, limit=args.limit))
    return 0


BENCH = Command(STSB.name, STSB.summary, add_bench_arguments, run_bench, scorer_options=True)
