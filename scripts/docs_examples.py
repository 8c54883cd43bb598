"""The command examples of the README and the docs, run as written: what a page shows a command print is what it prints.

    python scripts/docs_examples.py --check   # exit 1, with a diff per example, where a page's output is stale
    python scripts/docs_examples.py --write   # rewrite every example's output with what its command prints now
    python scripts/docs_examples.py --list    # the examples, page and line, without running them

An example is a fenced block whose first line is the command after `$ ` and whose other lines are its output, under
an `<!-- example -->` marker (README.md and docs/**/*.md):

    <!-- example -->
    ```text
    $ nash check --source docs/examples/sales.csv --text docs/examples/claim.txt
    docs/examples/claim.txt against docs/examples/sales.csv: 4 figures
    ...
    ```

The command runs as a user types it: in bash, from the repository root, with this interpreter's `bin/` first on
PATH (so `nash` and `python` are this venv's), offline (`HF_HUB_OFFLINE=1`: the embedded default model,
all-MiniLM-L6-v2), stdout and stderr together in the order printed, and not on a terminal (`nash check` prints its
verdicts as words, no marks). Its input files are the repository's (docs/examples/ holds the docs' own). The marker
takes options, `<!-- example: from="numeric support" lines=4 exit=2 -->`:

- `from="TEXT"`: show the output from its first line that starts with TEXT (an excerpt; `...` marks a cut);
- `lines=N`: show N lines (from the first, or from `from`'s);
- `exit=N`: the exit status the command must end with (default 0); another fails both --check and --write.

Normalised, and only these: progress bars are dropped (tqdm's lines on stderr, such as transformers' `Loading
weights: 100%|...| 103/103 [00:00<00:00, 6544.96it/s]`: they carry a timing; of a line rewritten with carriage
returns the last state is kept, as a terminal shows it); trailing spaces of a line and trailing blank lines are
dropped (as an editor does); and --check compares a hashcode's version part
(`_version=0.4.0.dev1(hug_trans=5.24.0)_0ab943dc`: the package's and transformers' versions, and the digest that
covers them) as `_version=<version>(hug_trans=<transformers>)_<digest>`, so a release or a newer transformers does
not fail it, while --write writes the hashcode as printed. No example prints a timing or a path outside the
repository.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARKER = "<!-- example"
BLOCK = re.compile(
    r"^(?P<marker><!-- example(?::[ \t]*(?P<options>[^\n]*?))?[ \t]*-->)\n"
    r"(?P<fence>```[\w-]*)\n"
    r"\$ (?P<command>[^\n]+)\n"
    r"(?P<output>.*?)"
    r"^```[ \t]*$",
    re.MULTILINE | re.DOTALL,
)
OPTIONS = ("from", "lines", "exit")
CUT = "..."
# Compared as their placeholder by --check (written as printed by --write): what a release or another transformers
# changes without the example being wrong.
NORMALISED = ((re.compile(r"_version=[^\s(]+\(hug_trans=[^\s)]+\)_[0-9a-f]{8}"),
               "_version=<version>(hug_trans=<transformers>)_<digest>"),)
# A tqdm bar's line (`Loading weights: 100%|██████████| 103/103 [00:00<00:00, 6544.96it/s]`): it carries a timing.
PROGRESS_BAR = re.compile(r"^(?:.*: )?\s*\d+%\|.*\| *\S+/\S+ \[.*\]$")
TIMEOUT_S = 600


@dataclass(frozen=True)
class Example:
    """One marked block of a page: its command, the output the page shows, and how to cut the printed output."""

    page: Path
    line: int  # of the marker, 1-based
    marker: str  # its text, options included
    command: str
    shown: str  # the block's lines after the command, each ending in a newline
    start: str | None = None  # `from`
    lines: int | None = None
    exit: int = 0

    @property
    def where(self) -> str:
        return f"{_shown(self.page)}:{self.line}"


def _shown(page: Path) -> str:
    """A page as a message names it: relative to the repository root when it is under it."""
    return page.relative_to(ROOT).as_posix() if page.is_relative_to(ROOT) else str(page)


def pages(root: Path = ROOT) -> list[Path]:
    """README.md and every page under docs/ (generated results included: a marker there is managed too)."""
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def _options(text: str | None, where: str) -> dict[str, str]:
    options: dict[str, str] = {}
    for item in shlex.split(text or ""):
        key, sep, value = item.partition("=")
        if not sep or key not in OPTIONS:
            raise ValueError(f"{where}: example option {item!r} is none of {', '.join(f'{o}=' for o in OPTIONS)}")
        options[key] = value
    return options


def examples_of(page: Path) -> list[Example]:
    """The examples of one page, in order. A marker not followed by a fenced `$ command` block is an error."""
    text = page.read_text(encoding="utf-8")
    found = []
    for match in BLOCK.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        where = f"{_shown(page)}:{line}"
        options = _options(match.group("options"), where)
        found.append(Example(page, line, match.group("marker"), match.group("command").strip(), match.group("output"),
                             start=options.get("from"),
                             lines=int(options["lines"]) if "lines" in options else None,
                             exit=int(options.get("exit", "0"))))
    markers = [text.count("\n", 0, m.start()) + 1 for m in re.finditer(rf"^{re.escape(MARKER)}\b", text, re.MULTILINE)]
    stray = sorted(set(markers) - {e.line for e in found})
    if stray:
        raise ValueError(f"{_shown(page)}:{stray[0]}: an {MARKER} --> marker must stand right "
                         "above a fenced block whose first line is `$ COMMAND`")
    return found


def examples(paths: Iterable[Path] | None = None) -> list[Example]:
    return [e for page in (pages() if paths is None else paths) for e in examples_of(page)]


def clean(output: str) -> str:
    """The output as a terminal leaves it, less its progress bars: of a line rewritten with carriage returns, its
    last state; tqdm's bars (on stderr, with a timing and a rate) dropped; trailing spaces of each line and trailing
    blank lines dropped; every line ends in a newline."""
    lines = [line.rsplit("\r", 1)[-1].rstrip() for line in output.split("\n")]
    lines = [line for line in lines if not PROGRESS_BAR.match(line)]
    while lines and not lines[-1]:
        lines.pop()
    return "".join(f"{line}\n" for line in lines)


def normalised(output: str) -> str:
    for pattern, placeholder in NORMALISED:
        output = pattern.sub(placeholder, output)
    return output


def excerpt(output: str, start: str | None, lines: int | None) -> str:
    """The part of `output` an example shows, with `...` where it was cut."""
    all_lines = output.splitlines()
    first = 0
    if start is not None:
        first = next((i for i, line in enumerate(all_lines) if line.startswith(start)), -1)
        if first < 0:
            raise ValueError(f"no line of the output starts with {start!r}")
    last = len(all_lines) if lines is None else min(len(all_lines), first + lines)
    kept = ([CUT] if first > 0 else []) + all_lines[first:last] + ([CUT] if last < len(all_lines) else [])
    return "".join(f"{line}\n" for line in kept)


def environment() -> dict[str, str]:
    """The user's environment, offline, with this interpreter's scripts (nash, python) first on PATH."""
    bin_dir = str(Path(sys.executable).parent)
    return {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false",
            "PYTHONUNBUFFERED": "1", "PYTHONIOENCODING": "utf-8", "COLUMNS": "120",
            "PATH": os.pathsep.join([bin_dir, os.environ.get("PATH", "")])}


def run(command: str) -> tuple[str, int]:
    """What `command` prints (stdout and stderr together, cleaned) and its exit status, run from the root in bash."""
    done = subprocess.run(["bash", "-c", command], cwd=ROOT, env=environment(), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, encoding="utf-8", timeout=TIMEOUT_S)
    return clean(done.stdout), done.returncode


@dataclass(frozen=True)
class Outcome:
    example: Example
    printed: str | None  # what the block should show now; None when the command failed
    problem: str | None  # why it could not be compared (a wrong exit status, a `from` not found)

    @property
    def stale(self) -> bool:
        return self.problem is None and normalised(clean(self.example.shown)) != normalised(self.printed or "")

    def report(self) -> str:
        if self.problem is not None:
            return f"{self.example.where}: $ {self.example.command}\n{self.problem}"
        diff = difflib.unified_diff(clean(self.example.shown).splitlines(), (self.printed or "").splitlines(),
                                    "shown on the page", "printed now", lineterm="")
        return f"{self.example.where}: $ {self.example.command}\n" + "\n".join(diff)


def outcomes(chosen: Iterable[Example], *, progress: bool = False) -> Iterator[Outcome]:
    """Each example run once (an identical command is run once for all its blocks)."""
    cache: dict[str, tuple[str, int]] = {}
    for example in chosen:
        if example.command not in cache:
            if progress:
                print(f"running {example.where}: $ {example.command}", file=sys.stderr, flush=True)
            cache[example.command] = run(example.command)
        output, status = cache[example.command]
        if status != example.exit:
            yield Outcome(example, None, f"exit status {status}, not {example.exit} (exit=N in the marker says "
                          f"which the example expects); it printed:\n{output}")
            continue
        try:
            yield Outcome(example, excerpt(output, example.start, example.lines), None)
        except ValueError as exc:
            yield Outcome(example, None, f"{exc}; it printed:\n{output}")


def check(chosen: Iterable[Example] | None = None, *, progress: bool = False) -> list[str]:
    """One report (a diff, or why it could not run) per example whose page is not what its command prints now."""
    return [o.report() for o in outcomes(examples() if chosen is None else chosen, progress=progress)
            if o.problem is not None or o.stale]


def write(chosen: Iterable[Example] | None = None, *, progress: bool = False) -> tuple[list[Path], list[str]]:
    """Rewrite each example's output with what its command prints now; the pages changed and the problems.

    A page is read again just before it is written, and only its example blocks are replaced, so an edit made to
    its prose while the commands ran is kept."""
    printed: dict[tuple[Path, str, str], str] = {}  # (page, marker, command) -> output
    problems = []
    for outcome in outcomes(examples() if chosen is None else chosen, progress=progress):
        if outcome.problem is not None:
            problems.append(outcome.report())
        else:
            e = outcome.example
            printed[e.page, e.marker, e.command] = outcome.printed or ""
    changed = []
    for page in sorted({page for page, _, _ in printed}):
        before = page.read_text(encoding="utf-8")

        def fill(match: re.Match[str], page: Path = page) -> str:
            key = (page, match.group("marker"), match.group("command").strip())
            if key not in printed:
                return match.group(0)
            return (f"{match.group('marker')}\n{match.group('fence')}\n$ {match.group('command').strip()}\n"
                    f"{printed[key]}```")

        after = BLOCK.sub(fill, before)
        if after != before:
            page.write_text(after, encoding="utf-8")
            changed.append(page)
    return changed, problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="fail, with a diff, where a page's output is stale")
    mode.add_argument("--write", action="store_true", help="rewrite the examples' outputs with what they print now")
    mode.add_argument("--list", action="store_true", help="list the examples without running them")
    parser.add_argument("pages", nargs="*", type=Path, help="only these pages (default: README.md and docs/**/*.md)")
    args = parser.parse_args(argv)
    chosen = examples([p.resolve() for p in args.pages] if args.pages else None)
    if args.list:
        for e in chosen:
            print(f"{e.where}: $ {e.command}")
        return 0
    if args.check:
        reports = check(chosen, progress=True)
        print("\n\n".join(reports) if reports else f"{len(chosen)} examples print what their pages show")
        if reports:
            print(f"\n{len(reports)} of {len(chosen)} examples differ; `python scripts/docs_examples.py --write` "
                  "rewrites them", file=sys.stderr)
        return 1 if reports else 0
    changed, problems = write(chosen, progress=True)
    for page in changed:
        print(f"rewrote {_shown(page)}")
    print(f"{len(chosen)} examples run, {len(changed)} pages rewritten", file=sys.stderr)
    if problems:
        print("\n\n".join(problems), file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
