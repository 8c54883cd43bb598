"""The `nash` command: the table of its commands, and `main`.

Each command is a `Command` (name, help, flags, run) in the module of its job; building the parser imports no
torch, numpy or benchmark code (`nash --help` is quick), and argparse is used only in this package.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .._version import __version__
from .bench import BENCH, BUILD_DATA
from .check import CHECK
from .command import add_commands
from .explain import EXPLAIN
from .fitting import CALIBRATE, FIT_BASELINE, FIT_IDF
from .options import add_config_arguments, check_scorer_options, config_from_args, scorer_from_args
from .parser import UsageParser
from .running import run
from .score import SCORE
from .serve import APP, EXPORT

COMMANDS = (SCORE, CHECK, FIT_IDF, FIT_BASELINE, EXPLAIN, CALIBRATE, APP, EXPORT, BUILD_DATA, BENCH)

__all__ = ["COMMANDS", "add_config_arguments", "build_parser", "config_from_args", "main", "scorer_from_args"]


def build_parser() -> argparse.ArgumentParser:
    parser = UsageParser(prog="nash", description="NASH: numerically aware semantic similarity.")
    parser.add_argument("--version", action="version", version=f"nash-metric {__version__}")
    parser.add_argument("--debug", action="store_true", help="show the traceback of an error (anywhere on the line)")
    add_commands(parser, COMMANDS, dest="command")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """`nash ARGV`; returns the exit status (see `running.run`)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    args = build_parser().parse_args([arg for arg in argv if arg != "--debug"])
    check_scorer_options(args)
    return run(args, debug=debug)
