"""The package's shape: no import cycles, light imports, one option set for every entry point."""

from __future__ import annotations

import ast
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

import nash_metric
from nash_metric.config import NASHConfig, option_names

PACKAGE = Path(nash_metric.__file__).parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every nash_metric module `path` imports, at any depth (function-level imports included)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            if target.startswith("nash_metric"):
                found.add(target)
                found.update(f"{target}.{alias.name}" for alias in node.names)  # `from . import module`
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("nash_metric"))
    return found


def import_graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    return {name: {t for t in _imports(path) if t in modules and t != name} for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle as a list of modules, or None. A package's own __init__ importing its children is no cycle."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if node.startswith(nxt + "."):  # a submodule importing its own package's __init__ (re-exports)
                continue
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_no_import_cycle_in_the_package():
    assert find_cycle(import_graph()) is None, " -> ".join(find_cycle(import_graph()))


# The rooms from the bottom up: a module imports its own room and the rooms below it, never one above
# (function-level and TYPE_CHECKING imports included). docs/ARCHITECTURE.md draws the same stack.
LAYERS = (
    ("_version", "common"),
    ("config",),
    ("vocabulary",),  # the word lists of every reader: plain data, imports nothing of nash_metric
    ("numbers",),
    ("context",),
    ("backbone",),
    ("calibration", "pipeline", "verdicts"),  # verdicts: the figure verdict, beside the pipeline that calls it
    ("reports",),
    ("scorer", "functional"),
    ("corpus",),
    ("benchmarks",),
    ("cli", "ecosystem", "__main__", ""),  # "": the package's own __init__ (lazy public names)
    ("space",),  # the Gradio Space: a front end of its own, which `nash app` serves (ALLOWED_UPWARD)
)
# The one import against the stack: `nash app` (cli/serve.py) reads the Space's limits for its flags and launches it.
ALLOWED_UPWARD = {"nash_metric.cli.serve -> nash_metric.space", "nash_metric.cli.serve -> nash_metric.space.limits"}


def _room(module: str) -> str:
    return module.removeprefix("nash_metric").lstrip(".").split(".")[0]


def _layer(module: str) -> int:
    room = _room(module)
    return next(k for k, rooms in enumerate(LAYERS) if room in rooms)


def test_every_room_has_a_layer():
    rooms = {_room(module) for module in import_graph()}
    assert rooms == {room for layer in LAYERS for room in layer}


def test_imports_run_down_the_layers():
    upward = sorted(f"{source} -> {target}" for source, targets in import_graph().items() for target in targets
                    if _layer(target) > _layer(source))
    assert upward == sorted(ALLOWED_UPWARD)


def test_the_cli_imports_the_space_only_to_serve_it():
    """`nash check` and the Space tell figures with the same `reports.figure_rows`; the CLI imports `space/` in
    `cli/serve.py` alone (`nash app`), and the Space imports nothing of the CLI."""
    graph = import_graph()
    into_space = sorted(f"{source} -> {target}" for source, targets in graph.items() if _room(source) == "cli"
                        for target in targets if _room(target) == "space")
    assert into_space == sorted(ALLOWED_UPWARD)
    assert not [f"{source} -> {target}" for source, targets in graph.items() if _room(source) == "space"
                for target in targets if _room(target) == "cli"]


def test_the_layer_check_sees_an_upward_import():
    assert _layer("nash_metric.backbone.models") < _layer("nash_metric.pipeline.steps") < _layer("nash_metric.scorer")


def test_the_top_level_is_the_public_face():
    modules = {p.stem for p in PACKAGE.glob("*.py")}
    assert modules == {"__init__", "__main__", "_version", "config", "scorer", "functional"}


def test_fitted_is_frozen_and_nothing_changes_a_scorer_after_init():
    from nash_metric.pipeline.fitted import Fitted

    assert Fitted.__dataclass_params__.frozen
    tree = ast.parse((PACKAGE / "scorer.py").read_text(encoding="utf-8"))
    nash = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "NASH")
    writes = []
    for function in (node for node in ast.walk(nash) if isinstance(node, ast.FunctionDef)):
        for node in ast.walk(function):
            targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
            for target in targets:
                if isinstance(target, ast.Attribute) and function.name != "__init__":
                    writes.append(f"{function.name}: {ast.unparse(target)}")
            if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("setattr"):
                writes.append(f"{function.name}: {ast.unparse(node)}")
    assert writes == []


def test_nothing_is_copied_on_the_scoring_path():
    paths = [PACKAGE / "scorer.py", PACKAGE / "functional.py", *(PACKAGE / "pipeline").glob("*.py")]
    users = [p.name for p in paths if "copy" in {a.name for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
                                                  if isinstance(node, ast.Import) for a in node.names}
             or "from copy import" in p.read_text(encoding="utf-8")]
    assert users == []


def test_the_cycle_finder_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"p": {"p.x"}, "p.x": {"p"}}) is None  # re-export through the package __init__


def _imports_argparse(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import) and any(a.name == "argparse" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.module == "argparse":
            return True
    return False


def test_only_the_cli_uses_argparse():
    users = [p.relative_to(PACKAGE) for p in PACKAGE.rglob("*.py") if _imports_argparse(p)]
    assert users and all(path.parts[0] == "cli" for path in users), users


def _functions(path: Path) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


def test_cli_functions_are_short():
    """The command table and each command's flags and run stay readable at a glance."""
    long = {f"{path.relative_to(PACKAGE)}:{fn.name}": fn.end_lineno - fn.lineno + 1
            for path in (PACKAGE / "cli").rglob("*.py") for fn in _functions(path) if fn.end_lineno - fn.lineno >= 60}
    assert long == {}


# Declarative templates (a dataset card's text with its fields filled in) may run long; no logic may.
CARD_TEMPLATES = {"benchmarks/numfine/card.py:render_card", "benchmarks/embednum/card.py:card_text",
                  "benchmarks/nquad/card.py:card_text"}


def test_no_function_is_over_60_lines():
    long = {f"{path.relative_to(PACKAGE).as_posix()}:{fn.name}": fn.end_lineno - fn.lineno + 1
            for path in PACKAGE.rglob("*.py") for fn in _functions(path) if fn.end_lineno - fn.lineno >= 60}
    assert set(long) <= CARD_TEMPLATES, long


MAX_PRIVATE_PARAMETERS = 8


def test_no_private_function_takes_more_than_8_parameters():
    """A helper that needs more takes a small record of what it reads (`verdicts.decide.Figure`, `steps._Parts`)."""
    def count(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
        a = fn.args
        names = [*a.posonlyargs, *a.args, *a.kwonlyargs]
        bound = bool(names) and names[0].arg in ("self", "cls")
        return len(names) - bound + bool(a.vararg) + bool(a.kwarg)

    wide = {f"{path.relative_to(PACKAGE).as_posix()}:{fn.name}": count(fn) for path in PACKAGE.rglob("*.py")
            for fn in _functions(path) if fn.name.startswith("_") and not fn.name.endswith("__")
            and count(fn) > MAX_PRIVATE_PARAMETERS}
    assert wide == {}


def test_every_module_is_on_the_map():
    """docs/ARCHITECTURE.md names each module, by path or in its package's row."""
    doc = (PACKAGE.parents[1] / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    rows = [line for line in doc.splitlines() if line.startswith("|")]
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        folder = module.rpartition("/")[0] + "/"
        in_row = any(f"`{folder}`" in row and re.search(rf"\b{path.stem}\b", row) for row in rows)
        if path.stem not in ("__init__", "__main__") and f"`{module}`" not in doc and not in_row:
            missing.append(module)
    assert missing == []


def _fresh_python(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def test_import_and_help_do_not_load_torch():
    assert _fresh_python("import nash_metric, sys; print('torch' in sys.modules)") == "False"
    code = (
        "import sys\nfrom nash_metric.cli import build_parser\nbuild_parser()\n"
        "print(sorted(m for m in ('torch', 'transformers', 'numpy', 'gradio') if m in sys.modules))"
    )
    assert _fresh_python(code) == "[]"


def test_lazy_exports_resolve():
    for name in nash_metric.__all__:
        assert getattr(nash_metric, name) is not None
    with pytest.raises(AttributeError):
        nash_metric.no_such_name  # noqa: B018


def _keyword_options(fn) -> set[str]:
    return {p.name for p in inspect.signature(fn).parameters.values() if p.kind is p.KEYWORD_ONLY}


def test_every_entry_point_takes_the_config_options():
    from nash_metric import NASH, nash_score
    from nash_metric.cli import build_parser

    options = set(option_names())
    assert _keyword_options(NASH) == options
    assert _keyword_options(nash_score) - {"show_progress"} == options
    for f in NASHConfig.__dataclass_fields__.values():  # generated signatures carry the config's defaults
        assert inspect.signature(NASH).parameters[f.name].default == f.default
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices["score"]
    file_flags = {"pairs", "prediction_column", "reference_column", "candidates", "references", "encoding", "output",
                  "summary", "quiet"}
    assert {a.dest for a in sub._actions} - {"help", "a", "b"} - file_flags == options



# Who else may parse CSV, and why: every reader of a record file goes through corpus/records.py.
OWN_CSV = {
    "corpus/records.py": "the one record reader",
    "corpus/rows.py": "reads back the rows files RowWriter wrote, in the writer's own dialect",
    "context/table_delimited.py": "one line of a CSV table inside a source text, not a record file",
    "cli/check.py": "`nash check --source-format csv`: a source text's row widths checked, not a record file",
}


def test_records_are_read_in_one_place():
    """CSV/TSV, JSONL and Parquet record files are parsed by `corpus/records.py` (JSONL: `jsonl_records`, its
    only reader); Parquet elsewhere only where the rows files come back and the benchmarks read their releases."""
    csv_users, parquet_users = set(), set()
    for path in PACKAGE.rglob("*.py"):
        calls = {ast.unparse(node.func) for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                 if isinstance(node, ast.Call)}
        module = path.relative_to(PACKAGE).as_posix()
        if calls & {"csv.reader", "csv.DictReader"}:
            csv_users.add(module)
        if calls & {"pq.ParquetFile", "pq.read_table"} or any(call.endswith(".iter_batches") for call in calls):
            parquet_users.add(module)
    assert csv_users == set(OWN_CSV)
    assert {m for m in parquet_users if not m.startswith("benchmarks/")} == {"corpus/records.py", "corpus/rows.py"}
    from nash_metric.common import io

    assert not hasattr(io, "iter_jsonl_records") and not hasattr(io, "read_sentences")  # the twins are one
