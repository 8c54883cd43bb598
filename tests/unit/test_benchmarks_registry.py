"""The benchmark registry: cheap lookup, one protocol for all four benchmarks, the CLI wired through it."""

from __future__ import annotations

import ast
import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest

import nash_metric.benchmarks
from nash_metric.benchmarks import Benchmark, UnknownBenchmarkError, registry

PACKAGE = Path(nash_metric.benchmarks.__file__).parent  # the code under test, wherever it is installed


def _loaded_after(code: str) -> list[str]:
    """Modules loaded by running `code` in a fresh interpreter."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_importing_the_registry_loads_no_benchmark_code():
    loaded = _loaded_after("import nash_metric.benchmarks as b; b.registry['numfine'].summary")
    heavy = [m for m in loaded if m.split(".")[0] in ("numpy", "torch", "pandas", "datasets", "transformers")]
    ours = [m for m in loaded if m.startswith("nash_metric.benchmarks.")]
    assert heavy == [] and ours == ["nash_metric.benchmarks.registry"]


# What building the CLI parser may import of the benchmarks: the registry and the light modules of the defaults and
# choices its flags share with the benchmark code.
LIGHT_MODULES = ["nash_metric.benchmarks.data_to_text", "nash_metric.benchmarks.data_to_text.defaults",
                 "nash_metric.benchmarks.embednum", "nash_metric.benchmarks.embednum.configs",
                 "nash_metric.benchmarks.filing_claims", "nash_metric.benchmarks.filing_claims.defaults",
                 "nash_metric.benchmarks.nquad", "nash_metric.benchmarks.nquad.defaults",
                 "nash_metric.benchmarks.numfine", "nash_metric.benchmarks.numfine.defaults",
                 "nash_metric.benchmarks.registry", "nash_metric.benchmarks.summedits",
                 "nash_metric.benchmarks.summedits.defaults"]


def test_cli_parser_loads_no_benchmark_code():
    loaded = _loaded_after("from nash_metric.cli import build_parser; build_parser()")
    assert [m for m in loaded if m.startswith("nash_metric.benchmarks.")] == LIGHT_MODULES
    assert not [m for m in loaded if m.split(".")[0] in ("numpy", "torch", "pandas")]


def test_the_light_modules_import_nothing_heavy():
    code = "; ".join(f"import {module}" for module in LIGHT_MODULES)
    loaded = _loaded_after(code)
    assert [m for m in loaded if m.startswith("nash_metric.") and m not in LIGHT_MODULES] == [
        "nash_metric._version", "nash_metric.benchmarks"]


def test_unknown_name_lists_the_known_ones():
    known = "numfine, embednum1k, nquad, stsb, summedits, claims, filing-claims, rotowire, quintd, tabfact"
    with pytest.raises(UnknownBenchmarkError, match=f"known benchmarks: {known}") as info:
        registry["numfin"]
    assert isinstance(info.value, KeyError) and str(info.value).startswith("unknown benchmark 'numfin'")
    assert list(registry) == ["numfine", "embednum1k", "nquad", "stsb", "summedits", "claims", "filing-claims",
                              "rotowire", "quintd", "tabfact"]


@pytest.mark.parametrize("name", ["numfine", "embednum1k", "nquad", "stsb", "summedits", "claims", "filing-claims",
                                  "rotowire", "quintd", "tabfact"])
def test_every_entry_point_resolves(name):
    bench = registry[name]
    assert isinstance(bench, Benchmark) and bench.summary and "\n" not in bench.summary
    for role in ("build", "build_markdown", "evaluate", "markdown", "plot", "card"):
        ref = getattr(bench, f"{role}_ref")
        entry = getattr(bench, role)
        assert (entry is None) == (ref is None), role
        assert entry is None or callable(entry), role
    assert callable(bench.evaluate) and callable(bench.markdown)
    assert (bench.build is None) == (name in ("stsb", "summedits", "claims", "rotowire", "quintd", "tabfact"))


def _flag(*command: str, dest: str):
    """The parser action of `dest` under `nash COMMAND...`."""
    from nash_metric.cli import build_parser

    parser = build_parser()
    for name in command:
        parser = next(a for a in parser._actions if a.dest in ("command", "dataset", "benchmark")).choices[name]
    return next(a for a in parser._actions if a.dest == dest)


def test_cli_defaults_and_choices_are_the_benchmarks_constants():
    """Not copies: the very objects the benchmark code uses (a copy would pass an equality test and drift later)."""
    from nash_metric.benchmarks.embednum import construction as embednum
    from nash_metric.benchmarks.nquad import evaluation as nquad
    from nash_metric.benchmarks.numfine import construction as numfine
    from nash_metric.benchmarks.summedits import evaluation as summedits

    assert _flag("build-data", "embednum1k", dest="configs").choices is embednum.ALL_CONFIGS
    assert _flag("bench", "embednum1k", dest="configs").choices is embednum.ALL_CONFIGS
    assert _flag("bench", "summedits", dest="reference").choices is summedits.REFERENCE_CHOICES
    assert _flag("bench", "nquad", dest="label").default is nquad.DEFAULT_LABEL
    assert _flag("build-data", "numfine", dest="k").default == numfine.K_DEFAULT
    for entry, flag in [(registry["numfine"].build, ("build-data", "numfine", "k")),
                        (registry["numfine"].evaluate, ("bench", "numfine", "alignment_rows")),
                        (registry["embednum1k"].build, ("build-data", "embednum1k", "candidate_questions")),
                        (registry["nquad"].build, ("build-data", "nquad", "test_fraction")),
                        (registry["nquad"].build, ("build-data", "nquad", "answer_rtol")),
                        (registry["nquad"].evaluate, ("bench", "nquad", "numeral_weight")),
                        (registry["nquad"].evaluate, ("bench", "nquad", "split")),
                        (registry["summedits"].evaluate, ("bench", "summedits", "reference"))]:
        parameter = {"candidate_questions": "n_candidate_questions"}.get(flag[-1], flag[-1])
        assert _flag(*flag[:-1], dest=flag[-1]).default == inspect.signature(entry).parameters[parameter].default


def test_benchmark_code_never_imports_the_cli():
    # Package-wide cycles and argparse are checked in tests/unit/test_architecture.py.
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or "", *(a.name for a in node.names)] if node.level else [node.module or ""]
                assert not any(n == "cli" or n.endswith(".cli") or n == "nash_metric.cli" for n in names), path
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith("nash_metric.cli") for a in node.names), path


def test_stsb_through_the_registry_with_a_scorer_or_a_factory(tmp_path, tiny_scorer):
    tsv = tmp_path / "sts.tsv"
    rows = [("A man plays a guitar.", "A man plays the guitar.", 4.8), ("Sales rose 5%.", "Sales rose 50%.", 2.0),
            ("A cat sleeps.", "Stocks fell sharply.", 0.2), ("It costs $3.", "It costs 3 dollars.", 4.5)]
    tsv.write_text("".join(f"g\tf\t2012\t{i}\t{s}\t{a}\t{b}\n" for i, (a, b, s) in enumerate(rows)), encoding="utf-8")
    stsb = registry["stsb"]
    result = stsb.evaluate(tiny_scorer, tsv, limit=3, show_progress=False)
    assert result["benchmark"] == "stsb" and result["results"]["pairs"] == 3
    assert result["config"]["limit"] == 3 and result["config"]["hashcode"] == tiny_scorer.hashcode
    assert "Spearman (all 3 pairs)" in stsb.markdown(result)
    again = stsb.evaluate(lambda **overrides: tiny_scorer.with_options(**overrides), tsv, limit=3,
                          show_progress=False)
    assert again["results"] == result["results"]
    with pytest.raises(TypeError, match="NASH scorer or a factory"):
        stsb.evaluate("not a scorer", tsv, show_progress=False)
