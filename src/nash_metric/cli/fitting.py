"""The commands that fit something on a corpus, once, for later runs: `fit-idf`, `fit-baseline`, `calibrate`."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..common.defaults import BASELINE_PAIRS, CALIBRATION_PAIRS
from ..config import option_spec
from .command import Command
from .options import add_option_argument, scorer_from_args
from .parser import NON_NEGATIVE, POSITIVE


def add_fit_idf_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--corpus", required=True, help="sentences: .txt (one a line), .csv/.tsv/.parquet (--column), "
                        ".jsonl")
    parser.add_argument("--column", default=None, help="CSV/Parquet column or JSONL field holding the sentence")
    parser.add_argument("--encoding", default=None, help="corpus encoding (default: UTF-8, Latin-1 fallback)")
    parser.add_argument("--output", required=True, help="IDF JSON to write")
    add_option_argument(parser, option_spec("numbers"),
                        help="number reader whose masked forms are counted; use the one you score with")


def run_fit_idf(args: argparse.Namespace) -> int:
    from ..corpus.sentences import read_sentences
    from ..pipeline.weighting import fit_idf

    sentences = read_sentences(args.corpus, column=args.column, encoding=args.encoding)
    idf = fit_idf(sentences, args.numbers, source=f"file:{Path(args.output).name}")
    path = idf.save(args.output, corpus=str(args.corpus), sentences=len(sentences), numbers=args.numbers)
    print(f"wrote {path}: {idf.n_documents} distinct masked sentences, {len(idf.df)} tokens, digest {idf.digest}; "
          f"pass it to every shard as --idf {path}")
    return 0


def add_fit_baseline_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--corpus", required=True, action="extend", nargs="+", metavar="FILE",
                        help="sentence files: .txt (one a line), .csv/.tsv, .jsonl or .parquet (a 'sentence', 'text' "
                        "or 'content' column, or --column)")
    parser.add_argument("--column", default=None, help="CSV/Parquet column or JSONL field to read in every corpus "
                        "file")
    parser.add_argument("--encoding", default=None, help="corpus encoding (default: UTF-8, Latin-1 fallback)")
    parser.add_argument("--pairs", type=POSITIVE, default=None,
                        help=f"random sentence pairs (default: {BASELINE_PAIRS})")
    parser.add_argument("--seed", type=NON_NEGATIVE, default=0, help="seed of the pair draw (default: %(default)s)")
    parser.add_argument("--output", required=True, help="baseline JSON to write")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def run_fit_baseline(args: argparse.Namespace) -> int:
    from ..calibration.rescale import DEFAULT_BASELINE_PAIRS, RESCALED_FIELDS, file_record, fit_rescale_baseline
    from ..common.reporting import markdown_table
    from ..corpus.sentences import read_sentence_source

    sources = [read_sentence_source(path, args.column, args.encoding) for path in args.corpus]  # before the model
    output = Path(args.output)
    if not output.parent.is_dir():
        raise ValueError(f"--output {output}: folder {output.parent} does not exist")
    scorer = scorer_from_args(args, rescale_with_baseline=False, baseline_path=None)
    baseline = fit_rescale_baseline(
        scorer, [s for source in sources for s in source.sentences],
        n_pairs=args.pairs if args.pairs is not None else DEFAULT_BASELINE_PAIRS, seed=args.seed,
        corpus=[file_record(source.path, len(source.sentences)) for source in sources], show_progress=not args.quiet,
    )
    baseline.save(output)
    b = baseline.values
    rows = [[name, b[f"{name}_precision"], b[f"{name}_recall"], b[name]] for name in RESCALED_FIELDS if "_" not in name]
    print(markdown_table(["random-pair mean b", "precision", "recall", "F"], rows, digits=4))
    recipe = baseline.recipe
    print(f"\nwrote {output}: {recipe['pairs']} random pairs of {recipe['sentences']} distinct sentences, seed "
          f"{recipe['seed']}; use it with --rescale-with-baseline --baseline-path {output}")
    return 0


def add_calibrate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sentences", required=True, help="text file (one sentence a line), .csv/.tsv, .jsonl or "
                        ".parquet")
    parser.add_argument("--column", default=None, help="CSV/Parquet column or JSONL field holding the sentence")
    parser.add_argument("--encoding", default=None, help="file encoding (default: UTF-8, Latin-1 fallback with a "
                        "warning)")
    parser.add_argument("--pairs", type=POSITIVE, default=CALIBRATION_PAIRS,
                        help="random sentence pairs (default: %(default)s)")
    parser.add_argument("--seed", type=NON_NEGATIVE, default=0)


def run_calibrate(args: argparse.Namespace) -> int:
    from ..corpus.sentences import calibrate_file

    scorer = scorer_from_args(args, threshold=0.0)
    result = calibrate_file(scorer, args.sentences, column=args.column, n_pairs=args.pairs, seed=args.seed,
                            encoding=args.encoding, show_progress=True)
    print(json.dumps(result.as_dict(), indent=2))
    return 0


FIT_IDF = Command("fit-idf", "fit the mixing IDF on a corpus once, for every shard and run (--idf FILE)",
                  add_fit_idf_arguments, run_fit_idf)
FIT_BASELINE = Command(
    "fit-baseline", "fit a rescale baseline on random sentence pairs (for --rescale-with-baseline)",
    add_fit_baseline_arguments, run_fit_baseline, scorer_options=True,
    description="b = the mean of NASH, S_text and the baseline (F, precision, recall) over random pairs of "
    "distinct corpus sentences (numpy default_rng(--seed)), scored with the options given here; "
    "--rescale-with-baseline --baseline-path FILE then reports (s - b) / (1 - b), as bert-score's "
    "rescale_with_baseline. Fit with the options you score with (model, backend, layer; tau, IDF).",
)
CALIBRATE = Command("calibrate", "tau = mu + sigma of number-context cosine over random sentence pairs",
                    add_calibrate_arguments, run_calibrate, scorer_options=True)
