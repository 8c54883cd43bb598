"""The verdicts are one table (`verdicts.spec`): no other library module spells a verdict's name, and the table is
whole (each verdict has what every front end reads of it, under each rule that gives it)."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

import nash_metric
from nash_metric.verdicts import spec
from nash_metric.verdicts.spec import (
    DERIVED,
    MARKS,
    RULE_VERDICTS,
    SPEC,
    SPECS,
    SUPPORTING,
    VERDICT_COLOURS,
    VERDICT_HELP,
    phrase,
)

PACKAGE = Path(nash_metric.__file__).parent
NAMES = {"supported", "misplaced", "unsupported", "contradicted", "computed", "unmatched"}
# The modules allowed to write a verdict's name: the table itself, and the benchmarks (whose claim kinds and
# published columns are named like verdicts).
EXEMPT = (PACKAGE / "verdicts" / "spec.py", PACKAGE / "benchmarks")


def _library_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py")
                  if not any(p == e or e in p.parents for e in EXEMPT))


def _spelled_names(path: Path) -> list[str]:
    """Each string constant of `path` (an f-string's parts included) that is a verdict's name, as "line: name";
    a string statement (a docstring) is documentation, not code, and is left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
    return sorted((f"{node.lineno}: {node.value}" for node in ast.walk(tree)
                   if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in NAMES
                   and id(node) not in docs), key=lambda found: int(found.partition(":")[0]))


def test_the_names_are_the_spec_s():
    assert {s.name for s in SPECS} == NAMES == set(SPEC)


def test_no_library_module_but_the_spec_spells_a_verdict():
    modules = _library_modules()
    assert len(modules) > 50 and PACKAGE / "verdicts" / "decide.py" in modules
    spelled = {str(p.relative_to(PACKAGE)): found for p in modules if (found := _spelled_names(p))}
    assert not spelled, f"verdict names written outside verdicts/spec.py (use its constants or fields): {spelled}"


def test_the_check_finds_a_spelled_name(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('"""A docstring may say computed."""\nx = "computed"\ny = f"unmatched{x}"\nz = "misplaced: no"\n')
    assert _spelled_names(module) == ["2: computed", "3: unmatched"]  # an f-string's parts too
    module.write_text('def f(v):\n    """supported"""\n    return v == "supported"\n')
    assert _spelled_names(module) == ["3: supported"]


def test_each_rule_s_verdicts_have_a_mark_colour_and_help():
    for rule, verdicts in RULE_VERDICTS.items():
        assert len(set(verdicts)) == len(verdicts)
        assert set(verdicts) == {s.name for s in SPECS if rule in s.help}  # a rule gives what it has help for
        assert dict(VERDICT_HELP[rule]) == {v: SPEC[v].help[rule] for v in verdicts}
        assert all(VERDICT_HELP[rule][v].strip() for v in verdicts)
    assert {v for verdicts in RULE_VERDICTS.values() for v in verdicts} == set(SPEC)  # every verdict is given
    assert set(MARKS) == set(VERDICT_COLOURS) == set(SPEC)
    assert all(len(s.mark) == 1 for s in SPECS) and len(set(MARKS.values())) == len(SPECS)
    assert all(re.fullmatch("#[0-9a-f]{6}", s.colour) for s in SPECS)
    assert len({s.colour.lower() for s in SPECS}) == len(SPECS)
    assert tuple(s.name for s in SPECS if s.supporting) == SUPPORTING
    assert set(DERIVED) <= set(SUPPORTING)  # a value a derivation gives counts as supported


def test_rule_verdicts_match_the_codes():
    from nash_metric.verdicts import argmax, decide

    assert RULE_VERDICTS["context"] == decide.VERDICTS and RULE_VERDICTS["argmax"] == argmax.ARGMAX_VERDICTS
    for codes, verdicts in ((decide.Code, RULE_VERDICTS["context"]), (argmax.ArgmaxCode, RULE_VERDICTS["argmax"])):
        assert [(int(c), c.name) for c in codes] == [(k, v.upper()) for k, v in enumerate(verdicts)]


def test_the_name_constants_are_the_spec_s():
    for s in SPECS:
        assert getattr(spec, s.name.upper()) == s.name


def _fields(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


@pytest.mark.parametrize("verdict", sorted(NAMES))
def test_each_verdict_has_its_phrases(verdict):
    s = SPEC[verdict]
    assert s.note and all(_fields(t) <= {"found", "reference", "derivation", "aligned"} for t in s.note)
    assert s.said and all(_fields(t) <= {"name", "note", "reference", "derivation"} for t in s.said)
    assert _fields(s.title) <= {"reference", "derivation"} and not _fields(s.alone)
    assert s.name in s.describe("4%", "1 + 2 = 3") and s.name in s.describe(None)
    assert set(s.cells) <= {"found", "reference", "operands"} and (s.outline or s.underline)
    assert not s.bound or "reference" not in s.cells  # the bound number gets ◎, not the verdict's mark


def test_a_phrase_is_the_first_template_with_every_field():
    templates = ("{a} and {b}", "{a}", "none")
    assert phrase(templates, a="x", b="y") == "x and y"
    assert phrase(templates, a="x", b=None) == "x"
    assert phrase(templates, a="", b="y") == "none"
    assert phrase(("at {a}",), a=None) == "at None"  # the last one, whatever is missing
