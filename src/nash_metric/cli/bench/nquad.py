"""`nash build-data nquad` and `nash bench nquad`: their flags (defaults and splits from the benchmark's own) and
runs."""

from __future__ import annotations

import argparse

from ...benchmarks import registry
from ...benchmarks.nquad.defaults import (
    ANSWER_RTOL,
    DEFAULT_LABEL,
    DEFAULT_SPLIT,
    EVALUATION_SPLITS,
    NUMERAL_WEIGHT,
    TEST_FRACTION,
)
from ..command import Command
from ..options import scorer_factory
from ..parser import ANY_NUMBER, NON_NEGATIVE, POSITIVE, POSITIVE_NUMBER, float_in
from .report import add_report_arguments, print_build, report

NQUAD = registry["nquad"]


def add_build_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", required=True, action="append",
                        help="raw articles .jsonl (headline, content, id?, date?) or an article-level .json, built by "
                        "our construction; or NQuAD's question-level release, read as released: repeat for "
                        "NQuAD_train.json and NQuAD_test.json, or name their folder (each file's name gives its "
                        "split); one release file alone is split by article")
    parser.add_argument("--out", required=True, help="dataset folder; Parquet goes to OUT/data/")
    parser.add_argument("--seed", type=NON_NEGATIVE, default=0)
    parser.add_argument("--test-fraction", type=float_in(0.0, 1.0), default=TEST_FRACTION,
                        help="share of articles in the test split, in (0, 1) (default: %(default)s)")
    parser.add_argument("--answer-rtol", type=POSITIVE_NUMBER, default=ANSWER_RTOL,
                        help="largest relative gap between the headline numeral and its answer (default: %(default)s)")


def run_build(args: argparse.Namespace) -> int:
    built = NQUAD.build(args.out, source=args.source, seed=args.seed, test_fraction=args.test_fraction,
                        answer_rtol=args.answer_rtol)
    origin = f" from the {built['source_layout']}" if "source_layout" in built else ""
    print_build(NQUAD, built, f"wrote {args.out}/data/{{train,test}}-00000-of-00001.parquet, "
                f"{args.out}/build_report.json and {args.out}/README.md{origin}")
    return 0


def add_bench_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", required=True, help="dataset folder (with data/{split}-*.parquet)")
    parser.add_argument("--split", default=DEFAULT_SPLIT, choices=EVALUATION_SPLITS,
                        help="all = train + test (the built sample is small)")
    parser.add_argument("--limit", type=POSITIVE, default=None, help="first N questions only (quick runs)")
    parser.add_argument("--numeral-weight", type=ANY_NUMBER, default=NUMERAL_WEIGHT,
                        help="lambda of the numeral-aware variant: score + lambda * stem magnitude agreement")
    add_report_arguments(parser)
    parser.add_argument("--label", default=DEFAULT_LABEL, help="data label printed with the table")


def run_bench(args: argparse.Namespace) -> int:
    result = NQUAD.evaluate(scorer_factory(args), args.data, split=args.split, limit=args.limit,
                            backend=args.backend, numeral_weight=args.numeral_weight, label=args.label)
    report(args, NQUAD, result)
    return 0


BUILD = Command(NQUAD.name, "NQuAD numeral cloze from Chinese news articles or the question-level release",
                add_build_arguments, run_build)
BENCH = Command(NQUAD.name, NQUAD.summary, add_bench_arguments, run_bench, scorer_options=True,
                description="Accuracy of picking the answer by similarity(stem, option sentence). --backend auto "
                "runs both NASH backends (sentence: cosine baseline; token: BERTScore baseline).")
