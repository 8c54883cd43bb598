"""The method is described once (`nash_metric.reports.method`); every place a user reads it quotes that text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nash_metric.reports.method import METHOD_STEPS, METHOD_SUMMARY, QUOTED_IN, quote_blocks, quoted_names

ROOT = Path(__file__).resolve().parents[2]


def _folded(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("relative", sorted(QUOTED_IN))
def test_each_quoting_file_holds_the_current_text(relative: str) -> None:
    text = (ROOT / relative).read_text(encoding="utf-8")
    assert sorted(quoted_names(text)) == sorted(QUOTED_IN[relative]), relative
    assert quote_blocks(text, QUOTED_IN[relative]) == text, (
        f"{relative} quotes an old method text: run `python -m nash_metric.reports.method`")


def test_a_stale_block_is_rewritten() -> None:
    stale = "intro\n<!-- method: summary -->\nmixed with IDF weights\n<!-- /method -->\nafter\n"
    fresh = quote_blocks(stale, {"summary": METHOD_SUMMARY})
    assert "IDF weights" not in fresh and METHOD_SUMMARY.rstrip() in fresh and fresh.endswith("after\n")


def test_card_front_matter_describes_the_method_as_the_summary() -> None:
    card = (ROOT / "metrics/nash/README.md").read_text(encoding="utf-8")
    front = card.split("---\n")[1]
    description = re.search(r"description: >-\n((?:  .*\n)+)", front).group(1)
    assert _folded(description) == _folded(METHOD_SUMMARY)


def test_space_and_evaluate_module_use_the_same_text() -> None:
    from nash_metric.space.app import ABOUT

    assert METHOD_STEPS in ABOUT
    module = (ROOT / "metrics/nash/nash.py").read_text(encoding="utf-8")
    assert "METHOD_SUMMARY" in module and "METHOD_STEPS" in module


def test_the_text_states_the_defaults() -> None:
    """The drift this guards against: the defaults mix with uniform weights and leave numbers out."""
    assert "every token weighs 1" in METHOD_SUMMARY and "IDF weights" not in METHOD_SUMMARY
    assert 'idf="uniform"' in METHOD_STEPS and 'numbers="full"' in METHOD_STEPS


def test_a_lost_block_is_named_and_fails(tmp_path, capsys) -> None:
    from nash_metric.reports.method import main

    for relative in QUOTED_IN:
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text("no blocks here\n", encoding="utf-8")
    assert main(str(tmp_path)) == 1
    assert "README.md: no <!-- method: steps --> ... <!-- /method --> block" in capsys.readouterr().err
