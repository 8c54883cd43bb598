"""The `nash` command line: score, explain, calibrate, build-data, bench, app."""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

from ._version import __version__
from .benchmarks import get_benchmark, registry  # the registry only: no benchmark code is imported
from .config import NUMBER_READERS, NASHConfig, option_names, scorer_options

# What a user can get wrong (an option, a file, a model id, a port) ends in one `nash: error:` line and exit 2;
# anything else is a bug: exit 1, with the traceback only under --debug.
USER_ERRORS = (ValueError, TypeError, KeyError, OSError)


def _int_in(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer in [low, high], checked at parse time."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < low or (high is not None and value > high):
            bounds = f"between {low} and {high}" if high is not None else f"at least {low}"
            raise argparse.ArgumentTypeError(f"must be {bounds}, got {value}")
        return value

    return parse


def _float_in(low: float, high: float, *, closed: bool = False) -> Callable[[str], float]:
    """An argparse type: a float in (low, high), or [low, high] with `closed`."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        inside = low <= value <= high if closed else low < value < high
        if not inside:
            interval = f"[{low:g}, {high:g}]" if closed else f"({low:g}, {high:g})"
            raise argparse.ArgumentTypeError(f"must be in {interval}, got {text}")
        return value

    return parse


# `nash app` flags, named by the SpaceLimits field they set.
SPACE_LIMIT_FLAGS = ("allowed_models", "allow_any_model", "max_loaded_models", "request_seconds", "concurrency",
                     "max_queue", "max_file_bytes")
POSITIVE = _int_in(1)
NON_NEGATIVE = _int_in(0)
PORT = _int_in(1, 65535)


def add_config_arguments(parser: argparse.ArgumentParser) -> None:
    """One `--flag` per NASHConfig option (`--num-layers`, `--bertscore-idf`, ...), generated from the config."""
    group = parser.add_argument_group("scorer options (see NASHConfig)")
    for option in scorer_options():
        flag = "--" + option.name.replace("_", "-")
        doc = option.doc.replace("%", "%%")
        if isinstance(option.default, bool):
            group.add_argument(flag, action="store_true", help=doc)
        else:
            group.add_argument(flag, default=option.default, help=f"{doc} (default: %(default)s)", **option.cli)
    parser.set_defaults(config_parser=parser)  # `main` validates the options before any model is loaded


def config_from_args(args: argparse.Namespace, **overrides) -> NASHConfig:
    """The NASHConfig that options parsed by `add_config_arguments` describe, with `overrides`."""
    return NASHConfig.from_options(**{**{name: getattr(args, name) for name in option_names()}, **overrides})


def scorer_from_args(args: argparse.Namespace, **overrides):
    """The NASH scorer that options parsed by `add_config_arguments` describe."""
    from .scorer import NASH

    return NASH(config_from_args(args, **overrides))


def _cmd_score(args: argparse.Namespace) -> int:
    corpus = _corpus_from_args(args)
    if corpus is not None:
        return _score_corpus(args, corpus)
    from .reporting import markdown_table
    from .validation import check_pairs

    check_pairs([args.a], [args.b])  # before the model loads
    scorer = scorer_from_args(args)
    out = scorer.score([args.a], [args.b])
    rows = [
        [f"baseline ({scorer.baseline_name})", out.baseline_precision[0], out.baseline_recall[0], out.baseline[0]],
        ["NASH", out.nash_precision[0], out.nash_recall[0], out.nash[0]],
        ["S_text", out.text_precision[0], out.text_recall[0], out.text[0]],
        ["S_num", out.numeric_precision[0], out.numeric_recall[0], out.numeric[0]],
    ]
    print(markdown_table(["score", "precision", "recall", "F"], rows, digits=4))
    tau, rescaled = out.config["threshold"], " (rescaled with baseline)" if out.rescale is not None else ""
    print(f"\nalpha={out.alpha[0]:.4f} model={out.config['model']} backend={scorer.backend} tau={tau:.4f}{rescaled} "
          f"hashcode={out.hashcode}")
    print(support_line(out.numeric_support[0], out.unsupported_numbers[0]))
    for item in out.unscored:
        print(f"warning: unscored mention {item['text']!r} in text {item['side']} ({item['reason']})", file=sys.stderr)
    return 0


def support_line(support: float, unsupported: list[dict]) -> str:
    """"numeric support 0.50; unsupported: $0.15 (reference: $0.13)" for one pair."""
    if not unsupported:
        return f"numeric support {support:.2f}: every figure of A is supported by B"
    named = [f"{u['text']} ({'B says ' + u['reference']['text'] if u['reference'] else 'nothing in B aligns'})"
             for u in unsupported]
    return f"numeric support {support:.2f}; not supported: {'; '.join(named)}"


def _corpus_from_args(args: argparse.Namespace):
    """The pairs that --pairs or --candidates/--references name (checked whole, before the model loads; read chunk
    by chunk when scored), or None for one pair given as A B."""
    files = args.pairs is not None or args.candidates is not None or args.references is not None
    if files and (args.a is not None or args.b is not None):
        raise ValueError("give either two texts (nash score A B) or files (--pairs, or --candidates with "
                         "--references), not both")
    if not files:
        if args.a is None or args.b is None:
            raise ValueError("nothing to score: give two texts (nash score A B), --pairs FILE, or --candidates FILE "
                             "--references FILE")
        for flag in ("output", "summary"):
            if getattr(args, flag) is not None:
                raise ValueError(f"--{flag} applies to files of pairs (--pairs, --candidates/--references)")
        return None
    from .pairs_io import OUTPUT_FORMATS, open_candidates_references, open_pairs

    if args.output is not None and Path(args.output).suffix.lower() not in OUTPUT_FORMATS:  # before any scoring
        raise ValueError(f"--output {args.output}: unsupported format; use one of {', '.join(OUTPUT_FORMATS)}")
    if args.pairs is not None:
        if args.candidates is not None or args.references is not None:
            raise ValueError("--pairs takes both columns from one file; do not combine it with "
                             "--candidates/--references")
        return open_pairs(args.pairs, args.prediction_column, args.reference_column, encoding=args.encoding)
    if args.candidates is None or args.references is None:
        raise ValueError("--candidates and --references go together (one text a line, line i of each is pair i)")
    return open_candidates_references(args.candidates, args.references, encoding=args.encoding)


def _score_corpus(args: argparse.Namespace, corpus) -> int:
    from .corpus import score_corpus
    from .distributed import Launch
    from .pairs_io import summary_markdown
    from .reporting import write_json

    launch = Launch.from_env()
    overrides = {}
    if launch is not None:
        overrides["device"] = launch.device(args.device)
        launch.start(overrides["device"])
    try:
        summary = score_corpus(scorer_from_args(args, **overrides), corpus, args.output, launch=launch,
                               show_progress=not args.quiet)
    finally:
        if launch is not None:
            launch.finish()
    if summary is None:  # a rank other than 0: rank 0 reports
        return 0
    print(summary_markdown(summary))
    if args.output is not None:
        print(f"wrote {len(corpus)} rows to {args.output}", file=sys.stderr)
    if args.summary is not None:
        print(f"wrote {write_json(args.summary, summary)}", file=sys.stderr)
    return 0


def _cmd_fit_idf(args: argparse.Namespace) -> int:
    from .io import read_sentences
    from .weighting import fit_idf

    sentences = read_sentences(args.corpus, column=args.column, encoding=args.encoding)
    idf = fit_idf(sentences, args.numbers, source=f"file:{Path(args.output).name}")
    path = idf.save(args.output, corpus=str(args.corpus), sentences=len(sentences), numbers=args.numbers)
    print(f"wrote {path}: {idf.n_documents} distinct masked sentences, {len(idf.df)} tokens, digest {idf.digest}; "
          f"pass it to every shard as --idf {path}")
    return 0


def _cmd_fit_baseline(args: argparse.Namespace) -> int:
    from .io import read_sentence_source
    from .reporting import markdown_table
    from .rescale import DEFAULT_BASELINE_PAIRS, RESCALED_FIELDS, file_record, fit_rescale_baseline

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


def _cmd_explain(args: argparse.Namespace) -> int:
    from .validation import check_pairs

    check_pairs([args.a], [args.b])  # before the model loads
    if args.plot is not None:
        from .plot import check_figure_path, explanation_figure, save_figure

        check_figure_path(args.plot)  # before the model loads
    scorer = scorer_from_args(args)
    info = scorer.explain(args.a, args.b)
    if args.plot is not None:
        print(f"wrote {save_figure(explanation_figure(info), args.plot)}", file=sys.stderr)
    if args.json:
        print(json.dumps(info, indent=2, ensure_ascii=False))
    else:
        from .explain_text import render_explanation

        print(render_explanation(info))
    return 0


def _cmd_calibrate(args: argparse.Namespace) -> int:
    from .calibration import calibrate_file

    scorer = scorer_from_args(args, threshold=0.0)
    result = calibrate_file(scorer, args.sentences, column=args.column, n_pairs=args.pairs, seed=args.seed,
                            encoding=args.encoding, show_progress=True)
    print(json.dumps(result.as_dict(), indent=2))
    return 0


def _cmd_app(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from .space.limits import SpaceLimits

    limits = SpaceLimits.from_env()  # NASH_SPACE_* variables, then the flags given here
    given = {name: getattr(args, name) for name in SPACE_LIMIT_FLAGS if getattr(args, name) not in (None, False)}
    if "allowed_models" in given:
        given["allowed_models"] = (*limits.allowed_models, *given["allowed_models"])
    limits = replace(limits, **given)
    _check_port_free(args.host, args.port)  # before the model and gradio load, not in gradio's traceback
    from .space import launch

    launch(host=args.host, port=args.port, limits=limits)
    return 0


def _check_port_free(host: str, port: int) -> None:
    with socket.socket() as probe:
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise OSError(f"--host {host} --port {port}: cannot listen there ({exc.strerror or exc}); "
                          "choose another --port") from None


def _cmd_export(args: argparse.Namespace) -> int:
    from .export import describe, export_metric, export_space

    export = export_space if args.kind == "space" else export_metric
    print(describe(export(args.dir, wheel=args.wheel, force=args.force, repo_id=args.repo_id)))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="nash", description="NASH: numerically aware semantic similarity.")
    parser.add_argument("--version", action="version", version=f"nash-metric {__version__}")
    parser.add_argument("--debug", action="store_true", help="show the traceback of an error (anywhere on the line)")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser(
        "score", help="score one pair (A B) or files of pairs: baseline vs NASH, S_text, S_num, alpha",
        description="Score one pair given as two texts, or a corpus: --pairs FILE (CSV/TSV/JSONL/Parquet with a "
        "prediction and a reference column) or --candidates FILE --references FILE [FILE ...] (one text a line; "
        "several reference files: the best reference is kept). Under torchrun / accelerate launch the pairs are "
        "split over the processes and rank 0 writes the one output.")
    p.add_argument("a", nargs="?", help="first text (prediction)")
    p.add_argument("b", nargs="?", help="second text (reference)")
    files = p.add_argument_group("files of pairs")
    files.add_argument("--pairs", default=None, help="pairs file: .csv, .tsv, .jsonl or .parquet")
    files.add_argument("--prediction-column", default="prediction", help="column of the predictions in --pairs "
                       "(default: %(default)s)")
    files.add_argument("--reference-column", default="reference", help="column of the references in --pairs: a "
                       "text, or in JSONL/Parquet a list of texts (default: %(default)s)")
    files.add_argument("--candidates", default=None, help="candidates, one a line (bert-score's -c)")
    files.add_argument("--references", action="extend", nargs="+", default=None, metavar="FILE",
                       help="references, one a line; several files give several references per candidate")
    files.add_argument("--encoding", default=None, help="input encoding (default: UTF-8, Latin-1 fallback with a "
                       "warning)")
    files.add_argument("--output", default=None, help="per-pair rows, in input order: .jsonl, .csv, .tsv or "
                       ".parquet")
    files.add_argument("--summary", default=None, help="also write the corpus summary as JSON here")
    files.add_argument("--quiet", action="store_true", help="no progress bar")
    add_config_arguments(p)
    p.set_defaults(func=_cmd_score)

    p = sub.add_parser("fit-idf", help="fit the mixing IDF on a corpus once, for every shard and run (--idf FILE)")
    p.add_argument("--corpus", required=True, help="sentences: .txt (one a line), .csv/.tsv (--column), .jsonl")
    p.add_argument("--column", default=None, help="CSV column / JSONL field holding the sentence")
    p.add_argument("--encoding", default=None, help="corpus encoding (default: UTF-8, Latin-1 fallback)")
    p.add_argument("--output", required=True, help="IDF JSON to write")
    p.add_argument("--numbers", default="full", choices=NUMBER_READERS,
                   help="number reader whose masked forms are counted; use the one you score with")
    p.set_defaults(func=_cmd_fit_idf)

    p = sub.add_parser(
        "fit-baseline", help="fit a rescale baseline on random sentence pairs (for --rescale-with-baseline)",
        description="b = the mean of NASH, S_text and the baseline (F, precision, recall) over random pairs of "
        "distinct corpus sentences (numpy default_rng(--seed)), scored with the options given here; "
        "--rescale-with-baseline --baseline-path FILE then reports (s - b) / (1 - b), as bert-score's "
        "rescale_with_baseline. Fit with the options you score with (model, backend, layer; tau, IDF).")
    p.add_argument("--corpus", required=True, action="extend", nargs="+", metavar="FILE",
                   help="sentence files: .txt (one a line), .csv/.tsv or .jsonl (a 'sentence', 'text' or 'content' "
                   "column, or --column)")
    p.add_argument("--column", default=None, help="CSV column / JSONL field to read in every corpus file")
    p.add_argument("--encoding", default=None, help="corpus encoding (default: UTF-8, Latin-1 fallback)")
    p.add_argument("--pairs", type=POSITIVE, default=None, help="random sentence pairs (default: 10000)")
    p.add_argument("--seed", type=NON_NEGATIVE, default=0, help="seed of the pair draw (default: %(default)s)")
    p.add_argument("--output", required=True, help="baseline JSON to write")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_config_arguments(p)
    p.set_defaults(func=_cmd_fit_baseline)

    p = sub.add_parser("explain", help="mentions, masked texts, alignments and the arithmetic of one pair")
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--json", action="store_true", help="print the full JSON explanation")
    p.add_argument("--plot", default=None, metavar="FILE", help="also draw the alignment heat map (the Space's "
                   "figure) to FILE: .png, .svg or .pdf")
    add_config_arguments(p)
    p.set_defaults(func=_cmd_explain)

    p = sub.add_parser("calibrate", help="tau = mu + sigma of number-context cosine over random sentence pairs")
    p.add_argument("--sentences", required=True, help="text file (one sentence a line), .csv or .jsonl")
    p.add_argument("--column", default=None, help="CSV/JSONL column holding the sentence")
    p.add_argument("--encoding", default=None, help="file encoding (default: UTF-8, Latin-1 fallback with a warning)")
    p.add_argument("--pairs", type=POSITIVE, default=2000, help="random sentence pairs (default: %(default)s)")
    p.add_argument("--seed", type=NON_NEGATIVE, default=0)
    add_config_arguments(p)
    p.set_defaults(func=_cmd_calibrate)

    p = sub.add_parser("app", help="launch the Gradio Space locally",
                       description="Serve the NASH vs BERTScore Space. The limits default to the NASH_SPACE_* "
                       "environment variables (Space variables on the Hub), else to the values shown.")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=PORT, default=7860)
    limits = p.add_argument_group("limits (see spaces_app/README.md)")
    limits.add_argument("--allow-model", dest="allowed_models", action="append", metavar="ID_OR_PATH",
                        help="also serve this hub id or local model folder (repeatable); by default only the "
                        "embedded model and hub models already in the HF cache")
    limits.add_argument("--allow-any-model", dest="allow_any_model", action="store_true",
                        help="serve any hub id or server path typed into the Model box (trusted use only)")
    limits.add_argument("--max-models", dest="max_loaded_models", type=POSITIVE,
                        help="models kept loaded, least recently used dropped first (default: 2)")
    limits.add_argument("--request-seconds", type=_float_in(0.0, float("inf")),
                        help="time budget of one request; a batch stops there with what it scored (default: 60)")
    limits.add_argument("--concurrency", type=POSITIVE, help="runs at a time per action (default: 1)")
    limits.add_argument("--max-queue", type=POSITIVE, help="requests waiting per action (default: 32)")
    limits.add_argument("--max-file-bytes", type=POSITIVE,
                        help="largest upload, refused while it streams in (default: 1000000)")
    p.set_defaults(func=_cmd_app)

    p = sub.add_parser("export", help="write a Hub-ready Space or metric folder with the project's wheel vendored",
                       description="Write a self-contained folder for the Hugging Face Hub: the app, its card (with "
                       "the Space YAML header), pinned requirements and this project's wheel, which requirements.txt "
                       "points at, so the folder builds without a PyPI release. Needs a source checkout.")
    p.add_argument("kind", choices=("space", "metric"), help="space: the NASH vs BERTScore demo (spaces_app/); "
                   "metric: the evaluate module (metrics/nash/)")
    p.add_argument("dir", help="folder to write (must be empty or absent, unless --force)")
    p.add_argument("--wheel", default=None, help="vendor this nash_metric-*.whl instead of building one")
    p.add_argument("--force", action="store_true", help="write into a non-empty folder, replacing export's files")
    p.add_argument("--repo-id", default=None, metavar="OWNER/NAME",
                   help="the public Hub repo DIR is pushed to: requirements.txt names the wheel by its URL there, "
                   "since the Hub installs requirements.txt before the rest of the repo is in place")
    p.set_defaults(func=_cmd_export)

    _add_benchmark_commands(sub)
    return parser


# -- build-data and bench: every benchmark flag is declared here; the work goes through the benchmark registry
def _add_benchmark_commands(sub: argparse._SubParsersAction) -> None:
    """`nash build-data NAME` and `nash bench NAME`; importing the registry loads no benchmark code."""
    build = sub.add_parser("build-data", help="construct a benchmark dataset").add_subparsers(
        dest="dataset", required=True
    )
    bench = sub.add_parser("bench", help="evaluate Base vs +NASH on a benchmark").add_subparsers(
        dest="benchmark", required=True
    )
    _add_numfine_commands(build, bench, registry["numfine"].summary)
    _add_embednum_commands(build, bench, registry["embednum1k"].summary)
    _add_nquad_commands(build, bench, registry["nquad"].summary)
    _add_stsb_commands(bench, registry["stsb"].summary)
    _add_summedits_commands(bench, registry["summedits"].summary)


def _scorer_factory(args: argparse.Namespace):
    """What a benchmark's `evaluate` takes: `factory(**overrides)` builds the scorer the flags describe."""
    return lambda **overrides: scorer_from_args(args, **overrides)


def _report(args: argparse.Namespace, benchmark, result: dict) -> None:
    """Print a benchmark's tables; with --output, write the JSON envelope and the tables beside it (.md)."""
    from .reporting import write_json

    text = benchmark.markdown(result)
    print(text)
    if args.output:
        path = write_json(args.output, result)
        path.with_suffix(".md").write_text(text.rstrip("\n") + "\n", encoding="utf-8")
        print(f"wrote {path} and {path.with_suffix('.md')}", file=sys.stderr)


def _add_numfine_commands(build, bench, summary: str) -> None:
    p = build.add_parser("numfine", help="construct NumFinE from a corpus of sentences")
    p.add_argument("--source", required=True, help="sentences: .txt (one a line), .csv/.tsv (--column), .jsonl")
    p.add_argument("--column", default=None, help="CSV column / JSONL field holding the sentence")
    p.add_argument("--encoding", default=None, help="source encoding (default: UTF-8, Latin-1 fallback with a warning)")
    p.add_argument("--out", required=True, help="output folder (a dataset repo: README.md card + data/)")
    p.add_argument("--seed", type=NON_NEGATIVE, default=0)
    p.add_argument("--k", type=POSITIVE, default=9,  # numfine.construction.K_DEFAULT (a test pins it)
                   help="variants per unit (default: %(default)s)")
    p.add_argument("--name", default="NumFinE", help="pretty name on the dataset card")
    p.add_argument("--license", default="other", help="Hub licence id of the result (inherit the source's)")
    p.add_argument("--source-note", default=None, help="one paragraph on the source for the card")
    p.set_defaults(func=_cmd_build_numfine)

    p = bench.add_parser("numfine", help=summary)
    p.add_argument("--data", required=True, help="a built NumFinE folder (or hub id), or a released .json/.jsonl")
    p.add_argument("--limit", type=POSITIVE, default=None,
                   help="first N rows of each config (rows are in unit-id hash order: a fixed pseudo-random sample)")
    p.add_argument("--output", default=None, help="write the results as JSON here (a .md table is written beside it)")
    p.add_argument("--plot", default=None, help="grouped bar chart (.png/.pdf/.svg)")
    p.add_argument("--threshold-sweep", action="store_true",
                   help="also report tau in {mu-2sigma .. mu+2sigma} calibrated on the anchors (paper App. B)")
    p.add_argument("--no-alignment-check", action="store_true", help="skip the paper §5.5 alignment check")
    p.add_argument("--alignment-rows", type=NON_NEGATIVE, default=1000,
                   help="(anchor, closest variant) pairs for the alignment check (default: %(default)s)")
    p.add_argument("--seed", type=NON_NEGATIVE, default=0, help="seed of the calibration pairs (threshold sweep)")
    add_config_arguments(p)
    p.set_defaults(func=_cmd_bench_numfine)


def _cmd_build_numfine(args: argparse.Namespace) -> int:
    numfine = get_benchmark("numfine")
    card = {"pretty_name": args.name, "license": args.license, "source_note": args.source_note}
    report = numfine.build(args.out, source=args.source, column=args.column, encoding=args.encoding, seed=args.seed,
                           k=args.k, card=card, show_progress=True)
    out = Path(args.out)
    print(numfine.build_markdown(report))
    print(f"\nwrote {out}/ (data/<config>/*.parquet, README.md, build_report.json); "
          f"load with datasets.load_dataset({str(out)!r}, 'triplet_hard')")
    return 0


def _cmd_bench_numfine(args: argparse.Namespace) -> int:
    numfine = get_benchmark("numfine")
    result = numfine.evaluate(_scorer_factory(args), args.data, limit=args.limit, seed=args.seed,
                              threshold_sweep=args.threshold_sweep,
                              alignment_rows=0 if args.no_alignment_check else args.alignment_rows)
    _report(args, numfine, result)
    if args.plot:
        print(f"wrote {numfine.plot(result, args.plot)}", file=sys.stderr)
    return 0


EMBEDNUM_CONFIGS = (  # choices of --configs, checked against the construction code by the tests
    "orig", "a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4", "c1", "c2", "c3", "d1", "d2", "d3", "e1", "e2", "e3",
    "extreme_large", "extreme_small", "currency_usd", "currency_eur", "currency_jpy", "currency_cny", "written",
    "context_reduced", "candidates_10", "candidates_100",
)


def _add_embednum_commands(build, bench, summary: str) -> None:
    p = build.add_parser("embednum1k", help="EmbedNum-1K: 18 number formats + extras (comparison triples)")
    p.add_argument("--out", required=True, help="dataset folder: Parquet to OUT/data/, card to OUT/README.md")
    p.add_argument("--source", default=None, help="the authors' released triples (.jsonl/.json/.csv with question, "
                   "positive, negative); default: generate from seed questions")
    p.add_argument("--seeds", default=None, help="seed question file (default: the packaged 72 templates)")
    p.add_argument("--seed", type=NON_NEGATIVE, default=0)
    p.add_argument("--n", type=POSITIVE, default=None, help="triples per config (default: 1000, or all released)")
    p.add_argument("--candidate-questions", type=POSITIVE, default=200, help="questions in candidates_10/100")
    p.add_argument("--configs", nargs="+", default=None, choices=EMBEDNUM_CONFIGS, metavar="CONFIG",
                   help="subset of configs (default: all)")
    p.set_defaults(func=_cmd_build_embednum)

    p = bench.add_parser("embednum1k", help=summary)
    p.add_argument("--data", required=True, help="dataset folder built by `nash build-data embednum1k`")
    p.add_argument("--configs", nargs="+", default=None, choices=EMBEDNUM_CONFIGS, metavar="CONFIG")
    p.add_argument("--limit", type=POSITIVE, default=None, help="first N rows per config (quick runs)")
    p.add_argument("--candidate-limit", type=POSITIVE, default=None,
                   help="first N questions of candidates_10/100 (default: --limit)")
    p.add_argument("--no-bertscore", action="store_true", help="skip the bert_score package column")
    p.add_argument("--output", default=None, help="JSON result path (a .md table is written beside it)")
    p.add_argument("--plot", default=None, help="heat-map PNG path (formats × scorers)")
    p.add_argument("--update-card", action="store_true", help="write the tables into DATA/README.md")
    add_config_arguments(p)
    p.set_defaults(func=_cmd_bench_embednum)


def _cmd_build_embednum(args: argparse.Namespace) -> int:
    report = get_benchmark("embednum1k").build(
        args.out, source=args.source, seeds=args.seeds, seed=args.seed, n=args.n, configs=args.configs,
        n_candidate_questions=args.candidate_questions, show_progress=True,
    )
    rows = report["rows"]
    print(f"wrote {len(rows)} configs ({sum(rows.values())} rows) to {Path(args.out) / 'data'} and "
          f"{Path(args.out) / 'README.md'}")
    return 0


def _cmd_bench_embednum(args: argparse.Namespace) -> int:
    embednum = get_benchmark("embednum1k")
    result = embednum.evaluate(_scorer_factory(args), args.data, configs=args.configs, limit=args.limit,
                               candidate_limit=args.candidate_limit, bertscore=not args.no_bertscore)
    _report(args, embednum, result)
    if args.plot:
        print(f"wrote {embednum.plot(result, args.plot)}", file=sys.stderr)
    if args.update_card:
        print(f"updated {embednum.card(args.data, result)}", file=sys.stderr)
    return 0


def _add_nquad_commands(build, bench, summary: str) -> None:
    p = build.add_parser("nquad", help="NQuAD numeral cloze from Chinese news articles")
    p.add_argument("--source", required=True, help="raw articles .jsonl (headline, content, id?, date?) or the "
                   "article-level release .json")
    p.add_argument("--out", required=True, help="dataset folder; Parquet goes to OUT/data/")
    p.add_argument("--seed", type=NON_NEGATIVE, default=0)
    p.add_argument("--test-fraction", type=_float_in(0.0, 1.0), default=0.2,
                   help="share of articles in the test split, in (0, 1) (default: %(default)s)")
    p.add_argument("--answer-rtol", type=_float_in(0.0, float("inf")), default=0.1,
                   help="largest relative gap between the headline numeral and its answer (default: %(default)s)")
    p.set_defaults(func=_cmd_build_nquad)

    p = bench.add_parser(
        "nquad", help=summary,
        description="Accuracy of picking the answer by similarity(stem, option sentence). --backend auto runs "
                    "both NASH backends (sentence: cosine baseline; token: BERTScore baseline).")
    p.add_argument("--data", required=True, help="dataset folder (with data/{split}-*.parquet)")
    p.add_argument("--split", default="test", choices=["train", "test", "all"],
                   help="all = train + test (the built sample is small)")
    p.add_argument("--limit", type=POSITIVE, default=None, help="first N questions only (quick runs)")
    p.add_argument("--numeral-weight", type=_float_in(float("-inf"), float("inf")), default=1.0,
                   help="lambda of the numeral-aware variant: score + lambda * stem magnitude agreement")
    p.add_argument("--output", default=None, help="JSON result path (a .md table is written beside it)")
    p.add_argument("--label", default="nash-metric sample (not the official NQuAD data)",
                   help="data label printed with the table")
    add_config_arguments(p)
    p.set_defaults(func=_cmd_bench_nquad)


def _cmd_build_nquad(args: argparse.Namespace) -> int:
    nquad = get_benchmark("nquad")
    report = nquad.build(args.out, source=args.source, seed=args.seed, test_fraction=args.test_fraction,
                         answer_rtol=args.answer_rtol)
    print(nquad.build_markdown(report))
    print(f"wrote {args.out}/data/{{train,test}}-00000-of-00001.parquet, {args.out}/build_report.json and "
          f"{args.out}/README.md")
    return 0


def _cmd_bench_nquad(args: argparse.Namespace) -> int:
    nquad = get_benchmark("nquad")
    result = nquad.evaluate(_scorer_factory(args), args.data, split=args.split, limit=args.limit,
                            backend=args.backend, numeral_weight=args.numeral_weight, label=args.label)
    _report(args, nquad, result)
    return 0


def _add_stsb_commands(bench, summary: str) -> None:
    p = bench.add_parser("stsb", help=summary)
    p.add_argument("--data", required=True, help="STS-B TSV (e.g. sts-dev.tsv)")
    p.add_argument("--limit", type=POSITIVE, default=None, help="first N pairs")
    p.add_argument("--output", default=None, help="write the results as JSON here (a .md table is written beside it)")
    add_config_arguments(p)
    p.set_defaults(func=_cmd_bench_stsb)


def _cmd_bench_stsb(args: argparse.Namespace) -> int:
    stsb = get_benchmark("stsb")
    result = stsb.evaluate(_scorer_factory(args), args.data, limit=args.limit)
    _report(args, stsb, result)
    return 0


def _add_summedits_commands(bench, summary: str) -> None:
    p = bench.add_parser(
        "summedits", help=summary,
        description="ROC AUC and balanced accuracy of cosine, BERTScore F1, NASH, S_num, numeric precision, "
                    "numeric support and the no-unsupported-number verdict at telling consistent edits of a "
                    "verified summary from inconsistent ones (all edits, and the edits that state a wrong figure), "
                    "per domain and overall. Subsets and metrics: see nash_metric.benchmarks.summedits.")
    p.add_argument("--data", required=True, nargs="+", metavar="DIR_OR_FILE",
                   help="a folder (every summedits_*.json in it) or SummEdits .json files; the domain is the file "
                   "name after summedits_")
    p.add_argument("--reference", default="both", choices=("original", "doc", "both"),
                   help="score the summary against the original summary, the source document, or both "
                   "(default: %(default)s)")
    p.add_argument("--limit", type=POSITIVE, default=None, help="first N rows of each file (quick runs)")
    p.add_argument("--thresholds", default=None, metavar="RESULT.json",
                   help="apply the balanced-accuracy thresholds of an earlier result (e.g. of the dev domains) "
                   "instead of choosing them on this run")
    p.add_argument("--output", default=None, help="write the results as JSON here (a .md table is written beside it)")
    p.add_argument("--plot", default=None, help="ROC AUC bars per domain, one panel per reference (.png/.pdf/.svg)")
    add_config_arguments(p)
    p.set_defaults(func=_cmd_bench_summedits)


def _cmd_bench_summedits(args: argparse.Namespace) -> int:
    summedits = get_benchmark("summedits")
    if args.plot:
        from .plot import check_figure_path

        check_figure_path(args.plot)  # refuse a bad path before any model loads
    result = summedits.evaluate(_scorer_factory(args), args.data, limit=args.limit, reference=args.reference,
                                thresholds=args.thresholds)
    _report(args, summedits, result)
    if args.plot:
        print(f"wrote {summedits.plot(result, args.plot)}", file=sys.stderr)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    args = build_parser().parse_args([arg for arg in argv if arg != "--debug"])
    if hasattr(args, "config_parser"):
        try:  # option values are checked now, as argparse checks its own, not after a model has loaded
            config_from_args(args)
        except (ValueError, TypeError) as exc:
            args.config_parser.error(_one_line(exc))
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # weight-loading bars drown the CLI's own output
    format_warning = warnings.formatwarning
    if not debug:  # one `nash: warning:` line, not the source line that raised it
        warnings.formatwarning = lambda message, *_, **__: f"nash: warning: {_one_line(message)}\n"
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("nash: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `nash score ... | head`: the reader left; stop quietly, as other Unix tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's final flush does not fail again
        return 141
    except USER_ERRORS as exc:
        if debug:
            raise
        print(f"nash: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except Exception as exc:
        if debug:
            raise
        print(f"nash: internal error ({type(exc).__name__}: {_one_line(exc)}); this is a bug: rerun with --debug "
              "for the traceback and report it", file=sys.stderr)
        return 1
    finally:
        warnings.formatwarning = format_warning  # `main` may run inside a host program (tests, notebooks)


def _one_line(exc: BaseException) -> str:
    message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
    return " ".join(str(message).split())


if __name__ == "__main__":
    sys.exit(main())
