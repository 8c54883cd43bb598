"""The README is a front page and the docs pages stay true to the tree: every path and module they name exists, every
Python example parses, every relative link resolves, and `mkdocs build --strict` passes."""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
# The pages a reader of the repository or of the site reads. CHANGELOG.md is left out: it names what was, not what is.
PAGES = [README, ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]
FOLDERS = ("src", "tests", "perf", "scripts", "docs", "datasets", "metrics", "spaces_app", "requirements")
# Paths the pages name that are not this repository's: the authors' toolkit.
ELSEWHERE = {"nash/evaluator/evaluation.py"}
README_MAX_LINES = 300


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _code_spans(text: str) -> list[str]:
    return re.findall(r"`([^`\n]+)`", text)


def _fenced(text: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", text, re.MULTILINE | re.DOTALL)


def test_readme_is_a_front_page() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= README_MAX_LINES
    quickstart = text[text.index("## Quickstart"):]
    commands = [line.split("#")[0].strip() for block in _fenced(quickstart, "bash")[:1] for line in block.splitlines()]
    assert commands == ["make demo", "make test"]


def _python_files() -> set[str]:
    return {p.name for p in ROOT.rglob("*.py") if not {".venv", ".venv-latest", "site"} & set(p.parts)}


def _resolves(path: str) -> bool:
    candidates = [path, f"src/nash_metric/{path}", f"src/{path}"]
    return any((ROOT / c).exists() for c in candidates)


@pytest.mark.parametrize("page", PAGES, ids=_rel)
def test_every_source_path_a_page_names_exists(page: Path) -> None:
    """`validation.py` moved to `common/`: a page that still names the old path fails here."""
    names = _python_files()
    missing = []
    for span in _code_spans(page.read_text(encoding="utf-8")):
        path = span.split("::")[0].split(":")[0]
        if "<" in path or path in ELSEWHERE or " " in path:
            continue
        if path.endswith(".py"):
            if not (_resolves(path) or ("/" not in path and path in names)):
                missing.append(path)
        elif path.split("/")[0] in FOLDERS and "/" in path and not (ROOT / path).exists():
            missing.append(path)
    assert missing == []


def _module_attribute_exists(dotted: str) -> bool:
    """`nash_metric.a.b.C` names a module, or a name defined in one, without importing anything."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            spec = importlib.util.find_spec(".".join(parts[:cut]))
        except (ImportError, ValueError):  # a part of the dotted name that is not a package
            spec = None
        if spec is None:
            continue
        rest = parts[cut:]
        if not rest:
            return True
        origin = Path(spec.origin) if spec.origin else None
        if origin and origin.is_file() and re.search(rf"\b{rest[0]}\b", origin.read_text(encoding="utf-8")):
            return True
        return _imports(".".join(parts[:cut]), rest)  # a name the module serves at run time (PEP 562)
    return False


def _imports(module: str, names: list[str]) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            obj = importlib.import_module(module)
            for name in names:
                obj = getattr(obj, name)
        except (ImportError, AttributeError):
            return False
    return True


@pytest.mark.parametrize("page", PAGES, ids=_rel)
def test_every_module_a_page_names_exists(page: Path) -> None:
    names = {m for span in _code_spans(page.read_text(encoding="utf-8"))
             for m in re.findall(r"\bnash_metric(?:\.\w+)+", span)}
    assert [n for n in sorted(names) if not _module_attribute_exists(n)] == []


@pytest.mark.parametrize("page", PAGES, ids=_rel)
def test_every_python_example_parses(page: Path) -> None:
    for block in _fenced(page.read_text(encoding="utf-8"), "python"):
        ast.parse(block)


@pytest.mark.parametrize("page", [README, ROOT / "CONTRIBUTING.md"], ids=_rel)
def test_root_pages_link_to_files_that_exist(page: Path) -> None:
    """The site checks its own links (`mkdocs build --strict`); the README and CONTRIBUTING.md are read on a forge."""
    links = re.findall(r"\]\(([^)\s]+)\)", page.read_text(encoding="utf-8"))
    local = [link.split("#")[0] for link in links if "://" not in link and not link.startswith("#")]
    assert local and [link for link in local if not (ROOT / link).exists()] == []


def test_every_page_is_in_the_navigation() -> None:
    """Pages of the site are in mkdocs.yml's nav; results that scripts write are listed under `not_in_nav`."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = set(re.findall(r"^\s+- (?:[^:\n]+: )?(\S+\.md)$", config, re.MULTILINE))
    not_in_nav = re.findall(r"^  (/\S+)$", config, re.MULTILINE)
    pages = {_rel(p)[len("docs/"):] for p in (ROOT / "docs").rglob("*.md")}
    outside = {p for p in pages if any(f"/{p}".startswith(prefix) for prefix in not_in_nav)}
    assert pages - outside == nav


@pytest.mark.slow
def test_the_site_builds_strict(tmp_path) -> None:
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings")
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(tmp_path)],
                         cwd=ROOT, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "index.html").exists() and (tmp_path / "reference" / "index.html").exists()


@pytest.mark.parametrize("page", [README, ROOT / "CONTRIBUTING.md"], ids=_rel)
def test_no_page_states_a_test_count(page):
    """A test count or suite time goes stale with the next test: pytest prints both, so no page states them."""
    text = page.read_text(encoding="utf-8")
    assert not re.findall(r"\b\d[\d,]* (?:tests|passed)\b", text)
