"""`nash bench summedits`: its flags (reference choices from the benchmark's own) and run."""

from __future__ import annotations

import argparse

from ...benchmarks import registry
from ...benchmarks.summedits.defaults import DEFAULT_REFERENCE, REFERENCE_CHOICES
from ..command import Command
from ..options import scorer_factory
from ..parser import POSITIVE
from .report import add_report_arguments, plot, report

SUMMEDITS = registry["summedits"]


def add_bench_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", required=True, nargs="+", metavar="DIR_OR_FILE",
                        help="a folder (every summedits_*.json in it) or SummEdits .json files; the domain is the "
                        "file name after summedits_")
    parser.add_argument("--reference", default=DEFAULT_REFERENCE, choices=REFERENCE_CHOICES,
                        help="score the summary against the original summary, the source document, or both "
                        "(default: %(default)s)")
    parser.add_argument("--limit", type=POSITIVE, default=None, help="first N rows of each file (quick runs)")
    parser.add_argument("--thresholds", default=None, metavar="RESULT.json",
                        help="apply the balanced-accuracy thresholds of an earlier result (e.g. of the dev domains) "
                        "instead of choosing them on this run")
    add_report_arguments(parser, plot="ROC AUC bars per domain, one panel per reference (.png/.pdf/.svg)")


def run_bench(args: argparse.Namespace) -> int:
    if args.plot:
        from ...reports.plot import check_figure_path

        check_figure_path(args.plot)  # refuse a bad path before any model loads
    result = SUMMEDITS.evaluate(scorer_factory(args), args.data, limit=args.limit, reference=args.reference,
                                thresholds=args.thresholds)
    report(args, SUMMEDITS, result)
    plot(args, SUMMEDITS, result)
    return 0


BENCH = Command(
    SUMMEDITS.name, SUMMEDITS.summary, add_bench_arguments, run_bench, scorer_options=True,
    description="ROC AUC and balanced accuracy of cosine, BERTScore F1, NASH, S_num, numeric precision, numeric "
    "support, the no-flagged-figure verdict (and one per verdict class) and the value-anywhere check at telling "
    "consistent edits of a verified summary from inconsistent ones (all edits, and the edits that state a wrong "
    "figure), per domain and overall, with the flagged figures counted by verdict class. Subsets and metrics: see "
    "nash_metric.benchmarks.summedits.evaluation.",
)
