"""The README's lists of options, fields and output columns are the code's, in the code's order."""

from __future__ import annotations

import re
from pathlib import Path

from nash_metric.config import option_names
from nash_metric.corpus.scoring import ROW_COLUMNS, SUPPORT_COLUMNS
from nash_metric.pipeline.output import PUBLIC_FIELDS

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def _section(start: str, end: str) -> str:
    begin = README.index(start)
    return README[begin : README.index(end, begin)]


def test_python_api_example_passes_every_option_in_order() -> None:
    example = _section("scorer = NASH(", "out = scorer.score")
    assert re.findall(r"(\w+)=", example) == list(option_names())


def test_evaluate_section_lists_every_option_and_field() -> None:
    section = _section("## `evaluate` metric", "## For bert-score users")
    names = re.findall(r"`(\w+)`", section[section.index("Options: ") : section.index("; the module docstring")])
    assert names == ["NASHConfig", "model_type", "model", *option_names()[1:]]
    fields = re.findall(r"'(\w+)': ", section)
    assert fields == [*PUBLIC_FIELDS, "best_reference", "unsupported_numbers", "hashcode"]


def test_output_file_columns_are_the_written_ones() -> None:
    bullet = _section("- Output (`.jsonl`", "- A tqdm bar")
    written = [*ROW_COLUMNS, "best_reference", *SUPPORT_COLUMNS, "unscored"]
    assert re.findall(r"`(\w+)`", bullet) == written
