"""`nash bench rotowire`, `nash bench quintd`, `nash bench tabfact`: real, human-labelled errors in data-to-text, their
flags (defaults and choices from the benchmarks' own) and runs."""

from __future__ import annotations

import argparse

from ...benchmarks import registry
from ...benchmarks.data_to_text.defaults import (
    DEFAULT_RENDER,
    DEFAULT_TEXT_FORM,
    DEFAULT_WRONG,
    RENDERS,
    SPAN_TYPES,
    TEXT_FORMS,
    default_data,
)
from ..command import Command
from ..options import scorer_factory
from ..parser import POSITIVE
from .report import add_report_arguments, report

ROTOWIRE, QUINTD, TABFACT = registry["rotowire"], registry["quintd"], registry["tabfact"]


def _add_data(parser: argparse.ArgumentParser, name: str, what: str, limit: str) -> None:
    parser.add_argument("--data", default=None, metavar="DIR",
                        help=f"{what} (default: {default_data(name)}, relative to the working directory)")
    parser.add_argument("--limit", type=POSITIVE, default=None, help=f"{limit} (quick runs)")


def add_rotowire_arguments(parser: argparse.ArgumentParser) -> None:
    _add_data(parser, "rotowire", "the shared task's folder: games.csv, gsml.csv, shared_task.jsonl, texts/",
              "first N texts of games.csv")
    parser.add_argument("--render", default=DEFAULT_RENDER, choices=RENDERS,
                        help="the box score as the source: two Markdown tables (team lines, players) or the "
                        "record's JSON (default: %(default)s)")
    parser.add_argument("--text", default=DEFAULT_TEXT_FORM, choices=TEXT_FORMS,
                        help="the text scored: detokenised (tokenised where its tokens cannot be found in order) "
                        "or tokenised (default: %(default)s)")
    add_report_arguments(parser)


def run_rotowire(args: argparse.Namespace) -> int:
    result = ROTOWIRE.evaluate(scorer_factory(args), args.data, limit=args.limit, render=args.render, text=args.text)
    report(args, ROTOWIRE, result)
    return 0


def add_quintd_arguments(parser: argparse.ArgumentParser) -> None:
    _add_data(parser, "quintd", "the quintd-1 folder: outputs/<domain>/<model>.json, annotations/human/*.jsonl",
              "first N annotated outputs of each domain")
    parser.add_argument("--wrong", nargs="+", default=list(DEFAULT_WRONG), choices=SPAN_TYPES, metavar="TYPE",
                        help="the crowd's span types that mark a wrong figure, of " + ", ".join(SPAN_TYPES) +
                        " (default: %(default)s: a figure the data contradicts or states nowhere)")
    add_report_arguments(parser)


def run_quintd(args: argparse.Namespace) -> int:
    report(args, QUINTD, QUINTD.evaluate(scorer_factory(args), args.data, limit=args.limit, wrong=tuple(args.wrong)))
    return 0


def add_tabfact_arguments(parser: argparse.ArgumentParser) -> None:
    _add_data(parser, "tabfact", "the folder of pairs.jsonl, or the file", "first N pairs")
    add_report_arguments(parser)


def run_tabfact(args: argparse.Namespace) -> int:
    report(args, TABFACT, TABFACT.evaluate(scorer_factory(args), args.data, limit=args.limit))
    return 0


_UNITS = ("The verdict flags a figure whose verdict does not count as supported (supported and computed do); the "
          "value-anywhere check, beside it at the same unit, one with a digit string the source states nowhere.")
BENCH_ROTOWIRE = Command(
    ROTOWIRE.name, ROTOWIRE.summary, add_rotowire_arguments, run_rotowire, scorer_options=True,
    description="Every figure of the accuracy shared task's 60 neural basketball summaries against its game's box "
    "score; a figure is wrong when it overlaps a NUMBER error a person marked. Balanced accuracy per figure and per "
    f"text, and the shared task's recall and precision on the NUMBER errors. {_UNITS} See "
    "nash_metric.benchmarks.data_to_text.")
BENCH_QUINTD = Command(
    QUINTD.name, QUINTD.summary, add_quintd_arguments, run_quintd, scorer_options=True,
    description="Every figure of quintd-1's annotated LLM outputs against the whole prompt that holds the record; a "
    "figure is wrong when it overlaps an Incorrect or Not checkable span (--wrong). Balanced accuracy per figure and "
    f"per output, per domain and over all. {_UNITS} See nash_metric.benchmarks.data_to_text.")
BENCH_TABFACT = Command(
    TABFACT.name, TABFACT.summary, add_tabfact_arguments, run_tabfact, scorer_options=True,
    description="Each TabFact pair's entailed statement (right) and its refuted rewrite (wrong) against the table "
    "as a Markdown table; a claim is flagged when one of its figures is not supported. Balanced accuracy, the share "
    f"of right claims flagged and the recall of wrong ones. {_UNITS} See nash_metric.benchmarks.data_to_text.")
