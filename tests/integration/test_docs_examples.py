"""The command examples of the README and the docs print what their pages show (issue 56): each fenced block that shows
a `$ command` with its output is marked `<!-- example -->`, and `scripts/docs_examples.py` runs it as written (from
the repository root, offline, the embedded all-MiniLM-L6-v2) and compares. `python scripts/docs_examples.py --write`
rewrites the outputs."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("docs_examples", ROOT / "scripts" / "docs_examples.py")
docs_examples = importlib.util.module_from_spec(_spec)
sys.modules["docs_examples"] = docs_examples  # dataclasses resolve their module by name
_spec.loader.exec_module(docs_examples)

FENCED = re.compile(r"^```[\w-]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
# What shows a scoring command's printed output: its `$ nash check|score|explain` line, nash's support line or a
# hashcode. (docs/install.md's `$ nash bench` without the bench extra needs a core-only install:
# tests/integration/test_core_install.py runs that one.)
PRINTED = re.compile(r"^(?:\$ nash (?:check|score|explain)\b|numeric support \d)|hashcode[:=]", re.MULTILINE)
REPO_PATH = re.compile(r"(?<![\w/])(?:docs|scripts|tests|datasets)/[\w./-]*\w")


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_the_examples_are_found() -> None:
    found = {(_rel(e.page), e.command) for e in docs_examples.examples()}
    assert {
        ("docs/figures.md", "nash check --source docs/examples/sales.csv --text docs/examples/claim.txt"),
        ("docs/figures.md", "nash check --source docs/examples/sales.csv --text docs/examples/tripled.txt"),
        ("docs/figures.md", "python scripts/figures_against_data.py"),
    } <= found
    assert {command.split()[0] for _, command in found} <= {"nash", "python"}


@pytest.mark.parametrize("page", docs_examples.pages(), ids=_rel)
def test_every_shown_output_is_an_example(page: Path) -> None:
    """A block showing a command's output is marked, so that it runs; unmarked, it would drift unseen."""
    text = page.read_text(encoding="utf-8")
    managed = {e.line for e in docs_examples.examples_of(page)}
    unmarked = []
    for match in FENCED.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        if PRINTED.search(match.group(1)) and line - 1 not in managed:
            unmarked.append(f"{_rel(page)}:{line}")
    assert unmarked == [], "mark each with <!-- example --> (scripts/docs_examples.py)"


def test_every_file_an_example_reads_is_in_the_repository() -> None:
    """The examples run as a user types them from the repository root: their inputs are committed files."""
    named = {path for e in docs_examples.examples() for path in REPO_PATH.findall(e.command)}
    assert "docs/examples/sales.csv" in named
    assert sorted(p for p in named if not (ROOT / p).is_file()) == []


def test_a_stale_output_fails_with_a_diff_and_write_rewrites_it(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("Prose.\n\n<!-- example -->\n```text\n$ echo hello; echo world\nhello\nmoon\n```\n\nMore.\n"
                    "<!-- example: exit=3 -->\n```text\n$ echo gone >&2; exit 3\ngone\n```\n", encoding="utf-8")
    examples = docs_examples.examples([page])
    assert [(e.line, e.command, e.exit) for e in examples] == [(3, "echo hello; echo world", 0),
                                                             (11, "echo gone >&2; exit 3", 3)]
    [report] = docs_examples.check(examples)
    assert report.startswith(f"{page}:3: $ echo hello; echo world") and "\n-moon\n+world" in report
    changed, problems = docs_examples.write(examples)
    assert (changed, problems) == ([page], [])
    assert "```text\n$ echo hello; echo world\nhello\nworld\n```\n\nMore." in page.read_text(encoding="utf-8")
    assert docs_examples.check(docs_examples.examples([page])) == []


def test_a_wrong_exit_status_or_a_stray_marker_fails(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("<!-- example -->\n```text\n$ echo oops; exit 1\noops\n```\n", encoding="utf-8")
    [report] = docs_examples.check(docs_examples.examples([page]))
    assert "exit status 1, not 0" in report
    page.write_text("<!-- example -->\n\n```text\n$ echo hi\nhi\n```\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"page\.md:1: an <!-- example --> marker must stand right above"):
        docs_examples.examples([page])
    page.write_text("<!-- example: lines=2 colour=red -->\n```text\n$ echo hi\nhi\n```\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"example option 'colour=red'"):
        docs_examples.examples([page])


def test_progress_bars_and_versions_are_normalised_and_nothing_else() -> None:
    printed = ("\rLoading weights:   0%|          | 0/103 [00:00<?, ?it/s]"
               "\rLoading weights: 100%|██████████| 103/103 [00:00<00:00, 6544.96it/s]\n"
               "# weather   \n  4.1  misplaced\n\n\n")
    assert docs_examples.clean(printed) == "# weather\n  4.1  misplaced\n"
    one = "hashcode: m_L6_sentence_tau=0.3763_idf=uniform_version=0.4.0.dev1(hug_trans=5.24.0)_0ab943dc\n"
    other = "hashcode: m_L6_sentence_tau=0.3763_idf=uniform_version=0.4.0(hug_trans=5.30.1)_2b9c9a7c\n"
    assert docs_examples.normalised(one) == docs_examples.normalised(other)
    assert docs_examples.normalised(one) != docs_examples.normalised(one.replace("0.3763", "0.3764"))
    assert docs_examples.excerpt("a\nb\nc\nd\n", "b", 2) == "...\nb\nc\n...\n"
    assert docs_examples.excerpt("a\nb\n", None, None) == "a\nb\n"


@pytest.mark.slow
def test_every_example_prints_what_its_page_shows() -> None:
    """Runs every example (a fresh `nash` process each, the embedded model; about a minute on 2 cores)."""
    reports = docs_examples.check()
    assert reports == [], ("\n\n".join(reports)
                           + "\n\nrun `python scripts/docs_examples.py --write` to rewrite the pages' outputs")
