"""`nash check`: each figure of a generated text judged against its source (supported, computed, misplaced,
unsupported, contradicted), with where its value stands in the source (or, for a computed figure, the derivation of
the source's numbers that gives it, and where those stand); rows as `nash score` writes them with --output.

A check, not a test: it exits 0 whatever the verdicts. The inputs are read and checked whole before the model
loads, so a missing file, an empty source, a source over --max-source-chars or a malformed JSONL line costs no
model load. A long source (`LONG_SOURCE` characters or more) is encoded with a progress bar on stderr, in windows of
the model's length; --quiet leaves it out.

A source is read as it comes (`--source-format auto`): data in it (JSON, Python repr, JSON Lines, in a fenced block or
not) is found by its shape. A named data format (`json`, `jsonl`, `python`, `csv`) is checked first, and a source that
is not written in it fails before the model loads, with the place where reading stopped.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ..common.validation import cut, echoed
from ..verdicts.spec import MARKS, SPEC, UNSUPPORTED, UNSUPPORTED_COUNT
from .command import Command
from .parser import POSITIVE, UsageError

if TYPE_CHECKING:
    from ..pipeline.output import NASHOutput

FIELDS = ("source", "text")  # of a JSONL line
SOURCE_FORMATS = ("auto", "text", "json", "jsonl", "python", "csv")  # --source-format
FORMAT_NAMES = {"json": "JSON", "jsonl": "JSON Lines", "python": "a Python literal", "csv": "CSV"}
STDIN = "-"  # --source/--text: read the text from stdin
SUPPORT_COLUMNS = (UNSUPPORTED_COUNT, "unsupported_numbers", "figure_verdicts", "unscored")
WORDS_WIDTH = len(UNSUPPORTED)  # the verdict column's width (a longer name, as contradicted, runs past it)
# A source this long takes a while to encode (about 30 s on a 2-core CPU with all-MiniLM-L6-v2; docs/figures.md,
# "Cost"): a progress bar shows it.
LONG_SOURCE = 100_000


@dataclass(frozen=True)
class Check:
    """One generated text to check against its source; `label` says where they came from."""

    source: str
    text: str
    label: str


def add_check_arguments(parser: argparse.ArgumentParser) -> None:
    inputs = parser.add_argument_group("input: a source and a text, or a JSONL file of them")
    inputs.add_argument("--source", default=None, metavar="FILE", help="the source: a text file (prose, markdown "
                        "or HTML tables, TSV/CSV blocks, aligned columns), or - to read it from stdin")
    inputs.add_argument("--text", default=None, metavar="FILE", help="the generated text whose figures are checked: "
                        "a file, or - to read it from stdin")
    inputs.add_argument("--jsonl", default=None, metavar="FILE", help='one {"source": ..., "text": ...} object a '
                        "line, each text checked against its own source")
    inputs.add_argument("--source-format", choices=SOURCE_FORMATS, default="auto", help="how the source is written "
                        "(default: auto, data found by its shape: JSON, Python repr or JSON Lines, whole or in a ``` "
                        "block, else prose and tables). json, jsonl, python or csv: the source is checked to be that "
                        "and fails, naming its line and column, before the model loads. text: no check; data in the "
                        "source is still read as data")
    inputs.add_argument("--encoding", default=None, help="input encoding (default: UTF-8, Latin-1 fallback with a "
                        "warning)")
    parser.add_argument("--output", default=None, metavar="FILE", help="per-text rows as `nash score` writes them, "
                        "with a figure_verdicts column: .jsonl, .csv, .tsv or .parquet")
    parser.add_argument("--max-source-chars", type=POSITIVE, default=None, metavar="N", help="refuse a source of "
                        "more than N characters before the model loads (default: no limit; a source's time and "
                        "memory grow with its length: docs/figures.md, \"Cost\")")
    parser.add_argument("--quiet", action="store_true", help=f"no progress bar (one is shown on stderr while a source "
                        f"of {LONG_SOURCE:,} characters or more is encoded)")


def run_check(args: argparse.Namespace) -> int:
    """`nash check`: read and check every input before the model loads, then print each text's figures with their
    verdicts (and write `--output` rows). In Python: `NASH().score(texts, sources).figure_verdicts`.

    Args:
        args: the parsed command line: `nash check`'s flags and the scorer options'.

    Returns:
        The exit status: 0 whatever the verdicts (a check, not a test).

    Raises:
        UsageError: --jsonl with --source/--text, one of --source/--text missing, or both reading stdin.
        InputFileError: an empty source or text, or a malformed JSONL line (the file and line named).
    """
    checks = read_checks(args)
    if args.output is not None:  # before the model loads, as `nash score` checks its outputs
        from ..common.io import check_writable
        from ..corpus.records import require_parquet
        from ..corpus.rows import OUTPUT_FORMATS

        check_writable(args.output, "--output", OUTPUT_FORMATS)
        require_parquet(args.output)
    from .options import scorer_from_args

    scorer = scorer_from_args(args)
    marks = uses_marks(sys.stdout)
    writer = _writer(args.output, scorer.config.baseline)
    supports: list[float] = []
    judged: list[Mapping[str, Any]] = []  # every figure's verdict, for the last line
    # A run that fails or is interrupted leaves an existing --output as it was (RowWriter aborts).
    with writer if writer is not None else contextlib.nullcontext():
        for start in range(0, len(checks), scorer.config.chunk_size):
            block = checks[start : start + scorer.config.chunk_size]
            with source_progress(block, quiet=args.quiet) as progress:
                out = scorer.score([c.text for c in block], [c.source for c in block], progress=progress)
            for check, verdicts, support in zip(block, out.figure_verdicts, out.numeric_support.tolist()):
                print(check_report(check, verdicts, support, marks=marks))
                supports.append(support)
                judged += verdicts
            _warn_unscored(block, out)
            if writer is not None:
                writer.write(check_rows(out, start))
    if len(checks) > 1:
        from ..reports.figure_rows import verdict_counts
        from ..verdicts.spec import counted, not_counted

        tally = ", ".join(f"{n} {verdict}" for verdict, n in verdict_counts(counted(judged)).items())
        print(f"{len(checks)} texts: mean numeric support {sum(supports) / len(supports):.2f}; {tally}"
              f"{not_counted(judged)}")
    if args.output is not None:
        print(f"wrote {len(checks)} rows to {args.output}", file=sys.stderr)
    return 0


# -- input -----------------------------------------------------------------------------------------------------


def read_checks(args: argparse.Namespace) -> list[Check]:
    """The texts to check, read and checked whole (errors name the file, and in JSONL its line and field)."""
    from ..common.io import InputFileError

    if args.jsonl is not None:
        if args.source is not None or args.text is not None:
            raise UsageError("--jsonl holds the sources and texts itself; do not combine it with --source/--text")
        checks = read_jsonl(args.jsonl, args.encoding)
        for check in checks:
            _within_limit(check.source, getattr(args, "max_source_chars", None), f"{check.label}: source")
            path, _, line = check.label.rpartition(":")
            check_source_format(check.source, getattr(args, "source_format", "auto"), path, int(line),
                                "the source is ")
        return checks
    if args.source is None or args.text is None:
        raise UsageError("give --source FILE and --text FILE (or --jsonl FILE with one {\"source\": ..., "
                         "\"text\": ...} object a line)")
    if args.source == args.text == STDIN:
        raise UsageError("--source and --text cannot both read stdin (-): give one of them as a file")
    source, text = (_read_input(value, flag, args.encoding) for value, flag in ((args.source, "--source"),
                                                                                  (args.text, "--text")))
    if not source.strip():
        raise InputFileError(args.source, None, "empty source: nothing to check the figures against")
    _within_limit(source, getattr(args, "max_source_chars", None), "--source")
    check_source_format(source, getattr(args, "source_format", "auto"),
                        "stdin" if args.source == STDIN else args.source)
    if not text.strip():
        raise InputFileError(args.text, None, "empty text: no figures to check")
    named = {STDIN: "stdin"}
    return [Check(source, text, f"{named.get(args.text, args.text)} against {named.get(args.source, args.source)}")]


def check_source_format(source: str, source_format: str, path: str, line: int | None = None, what: str = "") -> None:
    """Raise `InputFileError` (naming `path`, the JSONL `line` if any, and the line and column in the source where
    reading stopped) unless `source` is written in `source_format`; "auto" and "text" check nothing. `what` begins
    the message ("the source is " for a JSONL line's)."""
    from ..common.io import InputFileError

    if source_format in ("auto", "text"):
        return
    problem = _format_problem(source, source_format)
    if problem is not None:
        raise InputFileError(path, line, f"{what}not {FORMAT_NAMES[source_format]} (--source-format "
                             f"{source_format}): {problem}")


def _format_problem(source: str, source_format: str) -> str | None:
    """Why `source` is not written in `source_format` ("... at line 3, column 7"), or None when it is."""
    import json

    from ..context.data_parse import DataError
    from ..context.table_data import read_data

    if source_format == "csv":
        return _csv_problem(source)
    # JSON Lines a line at a time, so that a line left open is named, not the next one.
    lines = [(k, line) for k, line in enumerate(source.split("\n")) if line.strip()] \
        if source_format == "jsonl" else [(0, source)]
    for before, line in lines if source_format != "python" else ():
        try:
            json.loads(line)
        except json.JSONDecodeError as error:
            # The data reader takes Python repr too ('single quotes', None, tuples): JSON is held to JSON.
            return f"{error.msg} at line {before + error.lineno}, column {error.colno}" + (
                " (a Python literal? --source-format python)" if "'" in line else "")
    try:
        read_data(source, "jsonl" if source_format == "jsonl" else "python")
    except DataError as error:
        return str(error)
    return None


def _csv_problem(source: str) -> str | None:
    """Why `source` is not CSV: a quoting error, no delimiter, or a row whose width is not the first row's."""
    import csv
    import io

    lines = [line for line in source.splitlines() if line.strip()]
    try:
        dialect: Any = csv.Sniffer().sniff("\n".join(lines[:20]), delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(source), dialect, strict=True)
    width = None
    try:
        for row in reader:
            if not any(field.strip() for field in row):
                continue
            if width is None:
                width = len(row)
                if width < 2:
                    return f"no field delimiter (, ; tab |) in its first row, at line {reader.line_num}, column 1"
            elif len(row) != width:
                return (f"{len(row)} fields where the first row has {width}, at line {reader.line_num}, column "
                        f"{_column_of(source, reader.line_num, dialect.delimiter, min(len(row), width))}")
    except csv.Error as error:
        return f"{error}, at line {reader.line_num}"
    return None if width is not None else "no rows"


def _column_of(source: str, line: int, delimiter: str, field: int) -> int:
    """The 1-based column where field number `field` (0-based) of `line` starts: where a short or long row goes
    wrong."""
    text = source.splitlines()[line - 1] if line <= len(source.splitlines()) else ""
    at = 0
    for _ in range(field):
        found = text.find(delimiter, at)
        if found < 0:
            return len(text) + 1
        at = found + 1
    return at + 1


class SourceTooLong(ValueError):
    """A source over --max-source-chars: one line that says how to go on."""


def _within_limit(source: str, limit: int | None, where: str) -> None:
    if limit is not None and len(source) > limit:
        raise SourceTooLong(f"{where}: {len(source):,} characters, over --max-source-chars {limit}; raise it or cut "
                            "the source")


@contextlib.contextmanager
def source_progress(block: Sequence[Check], *, quiet: bool) -> Iterator[Callable[[int, int], object] | None]:
    """A progress bar on stderr, in windows encoded, while a block holding a long source is scored (else None)."""
    longest = max((len(c.source) for c in block), default=0)
    if quiet or longest < LONG_SOURCE:
        yield None
        return
    from tqdm.auto import tqdm

    bars: list[Any] = []  # opened at the first batch, when the windows are counted

    def advance(done: int, of: int) -> None:
        if not bars or bars[0].total != of:
            for bar in bars:
                bar.close()
            bars[:] = [tqdm(total=of, desc=f"encoding {longest:,} characters", unit="window", file=sys.stderr)]
        bars[0].update(done - bars[0].n)

    try:
        yield advance
    finally:
        for bar in bars:
            bar.close()


def _read_input(value: str, flag: str, encoding: str | None) -> str:
    """The text a --source/--text names: a file, or stdin for "-". A path that is no file is one usage line naming
    the flag (never a raw OS error: a text given in place of a file is long)."""
    from ..common.io import read_text

    if value == STDIN:
        return sys.stdin.buffer.read().decode(encoding) if encoding else sys.stdin.read()
    try:
        is_file, is_dir = Path(value).is_file(), Path(value).is_dir()
    except (OSError, ValueError):  # a name too long for the OS, or with a NUL: not a path anyone meant
        is_file = is_dir = False
    if is_dir:
        raise UsageError(f"{flag}: {echoed(value)} is a folder, not a file (pass one of its files, or - to read "
                         "stdin)")
    if not is_file:
        raise UsageError(f"{flag}: no such file {echoed(value)} (pass a file, or - to read stdin)")
    return read_text(value, encoding)


def read_jsonl(path: str | Path, encoding: str | None = None) -> list[Check]:
    """One `Check` per non-blank line of a JSONL file of {"source": ..., "text": ...} objects."""
    from ..common.io import InputFileError, read_text
    from ..corpus.records import jsonl_records, text_lines

    checks = []
    for line, record in jsonl_records(path, text_lines(read_text(path, encoding))):
        source, text = (_field(path, line, record, name) for name in FIELDS)
        checks.append(Check(source, text, f"{path}:{line}"))
    if not checks:
        raise InputFileError(path, None, 'no lines to check; expected one {"source": ..., "text": ...} object a line')
    return checks


def _field(path: str | Path, line: int, record: Mapping[str, Any], name: str) -> str:
    from ..corpus.records import string_field

    return string_field(path, line, record, name, ": nothing to check the figures against" if name == "source" else "")


# -- output ----------------------------------------------------------------------------------------------------


def uses_marks(stream: IO[str]) -> bool:
    """Marks (✓ Σ ↷ ✗ ⇅) on a terminal that can draw them; words only in a file or a pipe."""
    try:
        "".join(MARKS.values()).encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


def check_report(check: Check, verdicts: Sequence[Mapping[str, Any]], support: float, *, marks: bool) -> str:
    """What `nash check` prints for one text: a header, each figure with its verdict and places, a summary.

    Under each figure, one line a thing: where its value is ``found``; ``because`` what decided; ``bound to`` (or
    ``closest``) the number it is compared with (`VerdictSpec.bound`); for a computed figure (`VerdictSpec.derived`)
    the derivation that gives its value (``computed``) and ``from`` where each of its numbers stands; for an
    unsupported one the closest derivation of its bound numbers, when there is one (``closest  derivation: …``).

    A figure whose number stands in data (a JSON, Python-repr or JSON Lines source: its cell has a key `path`) says
    which value it is bound to by its key path and its record's identifying fields: ``bound to
    list[0].main.temp (2024-01-04 02:00:00)``, its value's own for a figure the source supports, the number it is
    compared with for a misplaced or contradicted one (``closest`` for an unsupported one)."""
    from ..reports.figure_rows import Source, figure_rows, summary_line

    lines = [f"{check.label}: {len(verdicts)} figure{'s' if len(verdicts) != 1 else ''}"]
    several_lines = "\n" in check.text.strip()
    for entry, row in zip(verdicts, figure_rows(Source.read(check.source), verdicts)):
        spec = SPEC.get(row.verdict)
        derived, bound = spec is not None and spec.derived, spec is not None and spec.bound
        verdict = f"{MARKS.get(row.verdict, '?')} {row.verdict}" if marks else row.verdict
        where = f"  (text line {check.text.count(chr(10), 0, row.start) + 1})" if several_lines else ""
        lines.append(f"  {verdict:<{WORDS_WIDTH + (2 if marks else 0)}}  {cut(row.text)}{where}")
        nowhere = "stated nowhere as such in the source" if derived else "nowhere in the source"
        lines.append(f"      found    {row.found.describe() if row.found else nowhere}")
        if row.basis is not None:
            lines.append(f"      because  {row.basis}")
        if row.derivation is not None and derived:
            lines.append(f"      computed {row.derivation}")
            lines += [f"      from     {text}, {place.describe()}" for text, place in row.operands]
        if row.matched is not None:
            label = "bound to" if bound else "closest "
            data = data_place(entry.get("reference"))
            lines.append(f"      {label} {data}: {row.matched_text}" if data else
                         f"      {label} {row.matched_text}, {row.matched.describe()}")
        elif not derived and data_place(entry.get("found")):
            lines.append(f"      bound to {data_place(entry.get('found'))}")
        if row.derivation is not None and not derived:
            lines.append(f"      closest  derivation: {row.derivation}")
    lines.append(summary_line(support, verdicts))
    return "\n".join(lines)


def data_place(number: Mapping[str, Any] | None) -> str | None:
    """A number's place in data, "list[0].main.temp (2024-01-04 02:00:00)": its key path and its record's
    identifying fields (`CellLabel.describe`); None for a number in running text or in a table written as text."""
    cell = (number or {}).get("cell") or {}
    path, row = cell.get("path") or "", cell.get("row") or ""
    if not path:
        return None
    return f"{path} ({row})" if row else path


def check_rows(out: NASHOutput, start: int) -> dict[str, Any]:
    """One chunk's rows: the columns `nash score` writes, and every figure's verdict as a list of entries."""
    import numpy as np

    from ..corpus.scoring import support_columns

    return {
        "index": np.arange(start, start + len(out), dtype=np.int64),
        **out.columns(),
        **support_columns(out.unsupported_numbers),
        "figure_verdicts": list(out.figure_verdicts),
        "unscored": np.bincount([u["index"] for u in out.unscored], minlength=len(out)),
    }


def _writer(output: str | None, baseline: bool) -> Any:
    if output is None:
        return None
    from ..corpus.rows import RowWriter
    from ..pipeline.output import public_fields

    return RowWriter(output, ("index", *public_fields(baseline), *SUPPORT_COLUMNS))


def _warn_unscored(block: Sequence[Check], out: NASHOutput) -> None:
    """A figure of the text the number reader could not score is not checked: say so."""
    for item in out.unscored:
        if item["side"] == "prediction":
            print(f"warning: {block[item['index']].label}: figure {echoed(item['text'])} not checked "
                  f"({item['reason']})", file=sys.stderr)


CHECK = Command(
    "check", "check each figure of a generated text against its source: supported, computed, misplaced, "
    "contradicted or unsupported",
    add_check_arguments, run_check, scorer_options=True,
    description="Judge every figure of a generated text against its source, in two steps: its value (stated "
    "nowhere in the source: computed when a derivation of the source's numbers bound to what it states gives it, "
    "a change, sum, share, ratio or average; else unsupported), then what its places are bound to (only another "
    "year's column, row or subject: misplaced; a change in the other direction: contradicted), else supported. "
    "Prints each figure with its verdict and where its value stands in the source (line, table cell, snippet) or "
    "the derivation that gives it, then the numeric support (computed figures count as supported). Exits 0 "
    "whatever the verdicts.",
)
