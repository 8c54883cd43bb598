"""`nash build-data numfine` and `nash bench numfine`: their flags (defaults from the benchmark's own) and runs."""

from __future__ import annotations

import argparse
from pathlib import Path

from ...benchmarks import registry
from ...benchmarks.numfine.defaults import ALIGNMENT_ROWS, CARD_LICENSE, CARD_NAME, K_DEFAULT
from ..command import Command
from ..options import scorer_factory
from ..parser import NON_NEGATIVE, POSITIVE
from .report import add_report_arguments, plot, print_build, report

NUMFINE = registry["numfine"]


def add_build_arguments(parser: argparse.ArgumentParser) -> None:
    given = parser.add_mutually_exclusive_group(required=True)
    given.add_argument("--source", help="sentences to build from: .txt (one a line), .csv/.tsv/.parquet (--column), "
                       ".jsonl")
    given.add_argument("--released", help="the authors' released NumFinE instead: one .json of their toolkit "
                       "(triplet_hard.json, crosspair.json, listwise.json, *_test.json) or a folder of them; "
                       "one config per file, records as released")
    parser.add_argument("--column", default=None, help="CSV column / JSONL field holding the sentence")
    parser.add_argument("--encoding", default=None, help="source encoding (default: UTF-8, Latin-1 fallback with a "
                        "warning)")
    parser.add_argument("--out", required=True, help="output folder (a dataset repo: README.md card + data/)")
    parser.add_argument("--seed", type=NON_NEGATIVE, default=0)
    parser.add_argument("--k", type=POSITIVE, default=K_DEFAULT, help="variants per unit (default: %(default)s)")
    parser.add_argument("--name", default=CARD_NAME, help="pretty name on the dataset card")
    parser.add_argument("--license", default=CARD_LICENSE, help="Hub licence id of the result (inherit the source's)")
    parser.add_argument("--source-note", default=None, help="one paragraph on the source for the card")


def run_build(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if args.released:
        given = [flag for flag, value in (("--column", args.column), ("--encoding", args.encoding),
                                          ("--source-note", args.source_note)) if value is not None]
        if given:
            raise ValueError(f"{', '.join(given)} only appl{'y' if len(given) > 1 else 'ies'} to --source; "
                             "--released converts the files as they are")
        card = {"pretty_name": args.name if args.name != CARD_NAME else None,
                "license": args.license if args.license != CARD_LICENSE else None}
        built = NUMFINE.build(args.out, released=args.released, card=card)
        first = built["configs"][0]["config"]
        print_build(NUMFINE, built, f"\nwrote {out}/ (data/<config>/*.parquet, README.md, build_report.json); "
                    f"load with datasets.load_dataset({str(out)!r}, {first!r}); the card's licence is blank: "
                    "fill in the release's")
        return 0
    card = {"pretty_name": args.name, "license": args.license, "source_note": args.source_note}
    built = NUMFINE.build(args.out, source=args.source, column=args.column, encoding=args.encoding,
                          seed=args.seed, k=args.k, card=card, show_progress=True)
    print_build(NUMFINE, built, f"\nwrote {out}/ (data/<config>/*.parquet, README.md, build_report.json); "
                f"load with datasets.load_dataset({str(out)!r}, 'triplet_hard')")
    return 0


def add_bench_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", required=True, help="a built NumFinE folder (or hub id), or the authors' released "
                        ".json file(s): one file or a folder of them")
    parser.add_argument("--configs", nargs="+", default=None, metavar="CONFIG", help="only these configs (default: "
                        "all the data has): a build's triplet_easy, triplet_medium, triplet_hard, listwise, "
                        "crosspair; a release's, its file stems")
    parser.add_argument("--limit", type=POSITIVE, default=None, help="first N rows of each config (our builds "
                        "keep rows in unit-id hash order, a fixed pseudo-random sample; a release, in file order)")
    add_report_arguments(parser, plot="grouped bar chart (.png/.pdf/.svg)")
    parser.add_argument("--threshold-sweep", action="store_true",
                        help="also report tau in {mu-2sigma .. mu+2sigma} calibrated on the anchors (paper App. B)")
    parser.add_argument("--no-alignment-check", action="store_true", help="skip the paper §5.5 alignment check")
    parser.add_argument("--alignment-rows", type=NON_NEGATIVE, default=ALIGNMENT_ROWS,
                        help="(anchor, closest variant) pairs for the alignment check (default: %(default)s)")
    parser.add_argument("--seed", type=NON_NEGATIVE, default=0, help="seed of the calibration pairs (threshold "
                        "sweep)")


def run_bench(args: argparse.Namespace) -> int:
    result = NUMFINE.evaluate(scorer_factory(args), args.data, configs=args.configs, limit=args.limit,
                              seed=args.seed, threshold_sweep=args.threshold_sweep,
                              alignment_rows=0 if args.no_alignment_check else args.alignment_rows)
    report(args, NUMFINE, result)
    plot(args, NUMFINE, result)
    return 0


BUILD = Command(NUMFINE.name, "construct NumFinE from a corpus of sentences", add_build_arguments, run_build)
BENCH = Command(NUMFINE.name, NUMFINE.summary, add_bench_arguments, run_bench, scorer_options=True)
