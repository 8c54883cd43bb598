"""What `nash build-data` and `nash bench` print and write: a build's report, a result's tables (and with --output
the JSON beside them), a result's figure."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from ...benchmarks import Benchmark


def add_report_arguments(parser: argparse.ArgumentParser, plot: str | None = None) -> None:
    """--output, which `report` writes, and with `plot` (what the figure shows) --plot, which `plot` draws; both
    checked for writability as they are parsed, before a benchmark's data is read or its model loads."""
    parser.add_argument("--output", default=None, type=_writable(), help="write the results as JSON here (a .md "
                        "table is written beside it)")
    if plot is not None:
        parser.add_argument("--plot", default=None, type=_writable(figure=True), help=plot)


def _writable(figure: bool = False) -> Callable[[str], str]:
    """An argparse type: the path, if `common.io.check_writable` (and for a figure its suffix rule) accepts it."""

    def parse(value: str) -> str:
        from ...common.io import check_writable

        check = None
        if figure:
            from ...reports.plot import check_figure_path as check
        try:
            check_writable(value, check=check)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        return value

    return parse


def print_build(benchmark: Benchmark, built: dict[str, Any], wrote: str) -> None:
    """A build's report (when the benchmark has a Markdown form of it), then what was written where."""
    if benchmark.build_markdown is not None:
        print(benchmark.build_markdown(built))
    print(wrote)


def report(args: argparse.Namespace, benchmark: Benchmark, result: dict[str, Any]) -> None:
    """Print a benchmark's tables; with --output, write the JSON envelope and the tables beside it (.md)."""
    from ...common.atomic import write_text
    from ...common.reporting import write_json

    text = benchmark.markdown(result)
    print(text)
    if args.output:
        path = write_json(args.output, result)
        write_text(path.with_suffix(".md"), text.rstrip("\n") + "\n")
        print(f"wrote {path} and {path.with_suffix('.md')}", file=sys.stderr)


def plot(args: argparse.Namespace, benchmark: Benchmark, result: dict[str, Any]) -> None:
    """With --plot, the benchmark's figure of `result`."""
    if args.plot:
        print(f"wrote {benchmark.plot(result, args.plot)}", file=sys.stderr)
