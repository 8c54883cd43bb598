"""The README is a front page and the docs pages stay true to the tree: every path and module they name exists, every
Python example parses, every relative link resolves, and `mkdocs build --strict` passes. The cards (datasets, metric,
Space) cite only modules and names that exist, and the reference lists every `NASHConfig` option with its doc."""

from __future__ import annotations

import ast
import html
import importlib.util
import os
import re
import subprocess
import sys
import warnings
from dataclasses import fields
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from nash_metric.config import NASHConfig

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
# The pages a reader of the repository or of the site reads. CHANGELOG.md is left out: it names what was, not what is.
PAGES = [README, ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]
FOLDERS = ("src", "tests", "perf", "scripts", "docs", "datasets", "metrics", "spaces_app", "requirements")
# The cards published with the data, the metric and the Space, and the code that writes the dataset cards: every
# dotted `nash_metric.…` name they cite must exist.
CARDS = [*sorted((ROOT / "datasets").glob("*/README.md")),
         *sorted((ROOT / "src" / "nash_metric" / "benchmarks").glob("**/card*.py")),
         ROOT / "metrics/nash/README.md", ROOT / "metrics/nash/nash.py", ROOT / "spaces_app/README.md"]
REFERENCE = ROOT / "docs" / "reference.md"
OPTIONS_HOOK = ROOT / "docs" / "hooks" / "options_table.py"
# Paths the pages name that are not this repository's: the authors' toolkit.
ELSEWHERE = {"nash/evaluator/evaluation.py"}
# Modules a page names as gone (ARCHITECTURE.md: "0.2.0's deep imports (`nash_metric.output`, …) are gone").
GONE = {"nash_metric.output"}
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
        if len(rest) == 1 and origin and origin.suffix == ".py" and rest[0] in _defined_names(origin):
            return True
        return _imports(".".join(parts[:cut]), rest)  # an attribute's attribute, or a name served at run time (PEP 562)
    return False


def _defined_names(path: Path) -> set[str]:
    """The names a module binds at its top level (under `if` and `try` too): defs, classes, assignments, imports.

    A word that only occurs in a docstring or comment is not one: `nash_metric.pipeline.support` is no module once
    `pipeline/__init__.py` merely mentions support."""
    names: set[str] = set()
    statements = list(ast.parse(path.read_text(encoding="utf-8")).body)
    while statements:
        node = statements.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for target in targets for n in ast.walk(target) if isinstance(n, ast.Name)}
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        elif isinstance(node, (ast.If, ast.Try, ast.With)):
            statements += [*node.body, *getattr(node, "orelse", []), *getattr(node, "finalbody", []),
                           *(s for handler in getattr(node, "handlers", []) for s in handler.body)]
    return names


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
    assert [n for n in sorted(names - GONE) if not _module_attribute_exists(n)] == []


def test_the_module_check_tells_a_module_from_a_word() -> None:
    """A moved module fails however often its old name is still written somewhere (issue 52)."""
    assert _module_attribute_exists("nash_metric.numbers.comparisons")
    assert _module_attribute_exists("nash_metric.extract_numbers")  # served lazily by the package (PEP 562)
    assert _module_attribute_exists("nash_metric.config.NASHConfig.from_options")
    assert not _module_attribute_exists("nash_metric.comparisons")
    assert not _module_attribute_exists("nash_metric.pipeline.support.FigureVerdict")
    assert not _module_attribute_exists("nash_metric.config.NASHConfig.no_such_method")


def test_every_card_is_under_test() -> None:
    assert all(card.is_file() for card in CARDS)
    assert {_rel(c) for c in CARDS} >= {"datasets/embednum1k/README.md", "datasets/nquad/README.md",
                                        "datasets/numfine/README.md", "src/nash_metric/benchmarks/embednum/card.py"}


@pytest.mark.parametrize("card", CARDS, ids=_rel)
def test_every_dotted_name_a_card_cites_exists(card: Path) -> None:
    """Anywhere in the card (prose, code spans, the generator's strings), not only in code spans."""
    names = set(re.findall(r"\bnash_metric(?:\.\w+)+", card.read_text(encoding="utf-8")))
    assert [n for n in sorted(names) if not _module_attribute_exists(n)] == []


def _options_hook():
    spec = importlib.util.spec_from_file_location("options_table_hook", OPTIONS_HOOK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _words(text: str) -> str:
    """Text as a reader sees it: no tags or Markdown code marks, entities decoded, one space between words."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).replace("`", " ").split())


def test_the_options_table_hook_is_the_sites() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^hooks:\n  - docs/hooks/options_table\.py$", config, re.MULTILINE)
    assert REFERENCE.read_text(encoding="utf-8").count(_options_hook().OPTIONS_MARKER) == 1


def test_the_reference_lists_every_option_with_its_doc() -> None:
    """The reference's options table comes from NASHConfig's fields as the site is built, so it cannot drift."""
    hook = _options_hook()
    page = hook.on_page_markdown(REFERENCE.read_text(encoding="utf-8"))
    assert hook.OPTIONS_MARKER not in page
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| `(\w+)` \|.*\|$", page, re.MULTILINE)}
    assert list(rows) == [f.name for f in fields(NASHConfig)]
    for f in fields(NASHConfig):
        assert _words(f.metadata["doc"]) in _words(rows[f.name].replace("\\|", "|")), f.name
        assert f"`{f.default!r}`" in rows[f.name]


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


@pytest.fixture(scope="module")
def built_site(tmp_path_factory) -> Path:
    """The site as `make docs` builds it (strict), in a folder of its own."""
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings")
    site = tmp_path_factory.mktemp("site")
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(site)],
                         cwd=ROOT, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert run.returncode == 0, run.stderr
    return site


@pytest.mark.slow
def test_the_site_builds_strict(built_site: Path) -> None:
    assert (built_site / "index.html").exists() and (built_site / "reference.html").exists()
    reference = (built_site / "reference.html").read_text(encoding="utf-8")
    assert "Parameters:" in reference  # mkdocstrings' table of a docstring's `Args:`
    text = _words(reference)
    for f in fields(NASHConfig):  # every option, with its doc, in the built reference
        assert _words(f.metadata["doc"]) in text, f.name


def _site_links(site: Path) -> list[tuple[str, str, Path]]:
    """(page, link as written, the file or folder it names) for every link and asset of the built site's pages
    that stays on the site (no scheme, not a bare #anchor); a root-absolute link ('/x') resolved at the site's root."""
    links = []
    for page in sorted(site.rglob("*.html")):
        for link in re.findall(r'\b(?:href|src)="([^"]*)"', page.read_text(encoding="utf-8")):
            parts = urlsplit(html.unescape(link))
            if parts.scheme or parts.netloc or not parts.path:
                continue
            path = unquote(parts.path)
            target = site / path.lstrip("/") if path.startswith("/") else page.parent / path
            links.append((page.relative_to(site).as_posix(), link, target.resolve()))
    return links


def test_the_site_links_files_not_folders() -> None:
    """Opened from disk (site/index.html, as the README says), a link to a folder shows its listing (issue 56)."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^use_directory_urls: false$", config, re.MULTILINE)
    assert "open `site/index.html`" in README.read_text(encoding="utf-8")


@pytest.mark.slow
def test_no_link_of_the_built_site_points_to_a_folder(built_site: Path) -> None:
    links = _site_links(built_site)
    nav = {link for page, link, _ in links if page == "index.html"}
    assert {"figures.html", "scoring/evaluate.html", "reference.html", "benchmarks/index.html"} <= nav
    assert [(page, link) for page, link, target in links if link.split("#")[0].endswith("/") or target.is_dir()] == []
    assert [(page, link) for page, link, target in links if not target.is_file()] == []
    # Root-absolute links resolve against the file system's root when opened from disk: only the 404 page, which
    # only a server shows, may have them.
    assert [(page, link) for page, link, _ in links if link.startswith("/") and page != "404.html"] == []


# `pip install nash-metric` (with or without extras) from the package index, not a wheel's direct reference (`@ URL`)
INDEX_INSTALL = re.compile(r"""pip install\s+(['"]?)nash-metric(?:\[[^\]\s]*\])?\1(?![\w\[-])(?!\s*@)""")
UNPUBLISHED = re.compile(r"\bnot (?:yet )?(?:published on PyPI|on PyPI)|\bunpublished", re.IGNORECASE)
NEAR = 600  # characters either side of such a line within which the page must say so
INSTALL_PAGES = [*PAGES, ROOT / "metrics/nash/README.md", ROOT / "spaces_app/README.md"]


def _unqualified_index_installs(text: str) -> list[str]:
    """The index installs of nash-metric in `text` with no word near them that it is not on PyPI yet."""
    return [m.group(0) for m in INDEX_INSTALL.finditer(text)
            if not UNPUBLISHED.search(text[max(0, m.start() - NEAR): m.end() + NEAR])]


def test_the_unpublished_rule_catches_a_bare_index_install() -> None:
    assert _unqualified_index_installs("Install it: `pip install nash-metric`.") == ["pip install nash-metric"]
    assert _unqualified_index_installs("`pip install 'nash-metric[offline]'`") == ["pip install 'nash-metric[offline]'"]
    assert _unqualified_index_installs("It is not on PyPI yet: `pip install nash-metric` fails.") == []
    assert _unqualified_index_installs("`pip install nash-metric[offline] @ https://host/nash_metric.whl`") == []
    assert _unqualified_index_installs("`pip install .` or `pip install -e '.[offline]'`") == []


@pytest.mark.parametrize("page", INSTALL_PAGES, ids=_rel)
def test_no_page_installs_nash_metric_from_the_index_as_if_published(page: Path) -> None:
    """nash-metric is not on PyPI yet: a page that gives `pip install nash-metric` says so (issue 56)."""
    assert _unqualified_index_installs(page.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("page", [README, ROOT / "CONTRIBUTING.md"], ids=_rel)
def test_no_page_states_a_test_count(page):
    """A test count or suite time goes stale with the next test: pytest prints both, so no page states them."""
    text = page.read_text(encoding="utf-8")
    assert not re.findall(r"\b\d[\d,]* (?:tests|passed)\b", text)
