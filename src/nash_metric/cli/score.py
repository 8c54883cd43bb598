"""`nash score`: one pair given as two texts (a table of every channel), or files of pairs (rows and a summary)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from .command import Command
from .options import scorer_from_args
from .parser import UsageError

if TYPE_CHECKING:
    from ..corpus.pair_files import PairSource
    from ..pipeline.output import NASHOutput
    from ..scorer import NASH

FILE_FLAGS = ("pairs", "candidates", "references")
FILE_ONLY_FLAGS = ("output", "summary")


def add_score_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("a", nargs="?", help="first text (prediction)")
    parser.add_argument("b", nargs="?", help="second text (reference)")
    files = parser.add_argument_group("files of pairs")
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


def run_score(args: argparse.Namespace) -> int:
    if any(getattr(args, flag) is not None for flag in FILE_FLAGS):
        return _score_corpus(args, _open_corpus(args))
    _check_two_texts(args)
    return _score_pair(args)


def _check_two_texts(args: argparse.Namespace) -> None:
    """Two texts and no flag that needs files, before the model loads."""
    if args.a is None:
        raise UsageError("nothing to score: give two texts (nash score A B), --pairs FILE, or --candidates FILE "
                         "--references FILE")
    if args.b is None:
        raise UsageError(f"only one text given ({args.a!r}); give two texts to compare: nash score A B")
    for flag in FILE_ONLY_FLAGS:
        if getattr(args, flag) is not None:
            raise UsageError(f"--{flag} applies to files of pairs (--pairs, --candidates/--references)")
    from ..common.validation import check_pairs

    check_pairs([args.a], [args.b])


def _score_pair(args: argparse.Namespace) -> int:
    from ..common.reporting import markdown_table

    scorer = scorer_from_args(args)
    out = scorer.score([args.a], [args.b])
    base = [] if out.baseline is None else [  # with --baseline
        [f"baseline ({scorer.backbone_name})", out.baseline_precision[0], out.baseline_recall[0], out.baseline[0]]]
    rows = [
        *base,
        ["NASH", out.nash_precision[0], out.nash_recall[0], out.nash[0]],
        ["S_text", out.text_precision[0], out.text_recall[0], out.text[0]],
        ["S_num", out.numeric_precision[0], out.numeric_recall[0], out.numeric[0]],
    ]
    print(markdown_table(["score", "precision", "recall", "F"], rows, digits=4))
    print(f"\n{_settings_line(scorer, out)}")
    print(support_line(out.numeric_support[0], out.unsupported_numbers[0]))
    for item in out.unscored:
        print(f"warning: unscored mention {item['text']!r} in text {item['side']} ({item['reason']})", file=sys.stderr)
    return 0


def _settings_line(scorer: NASH, out: NASHOutput) -> str:
    """"alpha=… model=… backend=… tau=… hashcode=…" under the table."""
    rescaled = " (rescaled with baseline)" if out.rescale is not None else ""
    return (f"alpha={out.alpha[0]:.4f} model={out.config['model']} backend={scorer.backend} "
            f"tau={out.config['threshold']:.4f}{rescaled} hashcode={out.hashcode}")


def support_line(support: float, unsupported: list[dict]) -> str:
    """"numeric support 0.50; not supported: 10% (B says 4%)" for one pair: each figure of A that is not supported
    (`unsupported_numbers`, support.FigureVerdict entries) with what B says about it."""
    if not unsupported:
        return f"numeric support {support:.2f}: every figure of A is supported by B"
    named = [f"{u['text']} ({_not_supported_note(u)})" for u in unsupported]
    return f"numeric support {support:.2f}; not supported: {'; '.join(named)}"


def _not_supported_note(entry: dict) -> str:
    """"B says 4%" (unsupported: the number of B closest in context, or its aligned number under the argmax rule;
    with the closest derivation of its bound numbers when there is one: "B says 4%; closest derivation: (62.4 −
    50.2) / 50.2 = 24.3%"), "misplaced: found at 1,146.2, but A's binding fits 1,452.4", "contradicted: ...",
    "stated nowhere in B", "nothing in B aligns" (`VerdictSpec.said`; a verdict without a spec reads as
    unsupported). (A computed figure is supported: it is not listed.)"""
    from ..reports.explain_text import figure_note
    from ..verdicts.spec import SPEC, UNSUPPORTED, phrase

    spec = SPEC.get(entry["verdict"], SPEC[UNSUPPORTED])
    found, reference = (entry[key]["text"] if entry.get(key) else None for key in ("found", "reference"))
    return phrase(spec.said, name=spec.name, note=figure_note(entry["verdict"], found, reference),
                  reference=reference, derivation=entry.get("derivation"))


def _open_corpus(args: argparse.Namespace) -> PairSource:
    """The pairs that --pairs or --candidates/--references name: checked whole before the model loads, read chunk
    by chunk when scored."""
    if args.a is not None or args.b is not None:
        raise UsageError("give either two texts (nash score A B) or files (--pairs, or --candidates with "
                         "--references), not both")
    from ..corpus.pair_files import open_candidates_references, open_pairs

    check_outputs(args)
    if args.pairs is not None:
        if args.candidates is not None or args.references is not None:
            raise UsageError("--pairs takes both columns from one file; do not combine it with "
                             "--candidates/--references")
        return open_pairs(args.pairs, args.prediction_column, args.reference_column, encoding=args.encoding)
    if args.candidates is None or args.references is None:
        raise UsageError("--candidates and --references go together (one text a line, line i of each is pair i)")
    return open_candidates_references(args.candidates, args.references, encoding=args.encoding)


def check_outputs(args: argparse.Namespace) -> None:
    """--output and --summary writable before the input is read and the model loads, so that neither a bad path
    nor an unwritable folder costs a model load or a corpus's scoring; neither may be an input or the other.
    Under torchrun only rank 0 writes them, so only rank 0 checks them (another node may not see its folder)."""
    from ..common.io import check_writable
    from ..corpus.distributed import Launch
    from ..corpus.records import require_parquet
    from ..corpus.rows import OUTPUT_FORMATS

    launch = Launch.from_env()
    if launch is not None and not launch.is_main:
        return
    taken = [(f"--{flag}", path) for flag in FILE_FLAGS for path in _paths(getattr(args, flag))]
    for flag, path, suffixes in (("--output", args.output, OUTPUT_FORMATS), ("--summary", args.summary, ())):
        if path is None:
            continue
        check_writable(path, flag, suffixes)
        require_parquet(path)
        for other, used in taken:
            if _same_file(Path(path), Path(used)):
                raise UsageError(f"{flag} {path} is also {other}: it would be overwritten")
        taken.append((flag, path))


def _paths(value: str | list[str] | None) -> list[str]:
    return [] if value is None else [value] if isinstance(value, str) else list(value)


def _same_file(a: Path, b: Path) -> bool:
    """Whether `a` and `b` name one file (an existing file by its inode, links included; else by path)."""
    try:
        return a.samefile(b)
    except OSError:
        return a.expanduser().resolve() == b.expanduser().resolve()


def _score_corpus(args: argparse.Namespace, corpus: PairSource) -> int:
    from ..common.reporting import write_json
    from ..corpus.distributed import Launch
    from ..corpus.scoring import score_corpus
    from ..corpus.summary import summary_markdown

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


SCORE = Command(
    "score", "score one pair (A B) or files of pairs: baseline vs NASH, S_text, S_num, alpha",
    add_score_arguments, run_score, scorer_options=True,
    description="Score one pair given as two texts, or a corpus: --pairs FILE (CSV/TSV/JSONL/Parquet with a "
    "prediction and a reference column) or --candidates FILE --references FILE [FILE ...] (one text a line; "
    "several reference files: the best reference is kept). Under torchrun / accelerate launch the pairs are "
    "split over the processes and rank 0 writes the one output.",
)
