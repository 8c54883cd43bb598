"""The lists of options, fields and output columns on the docs pages and in the README are the code's, in order."""

from __future__ import annotations

import re
from pathlib import Path

from nash_metric.config import option_names
from nash_metric.corpus.scoring import ROW_COLUMNS, SUPPORT_COLUMNS
from nash_metric.ecosystem.bertscore_args import RESULT_KEYS
from nash_metric.pipeline.output import BASELINE_FIELDS, PUBLIC_FIELDS

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
PYTHON_PAGE = (ROOT / "docs" / "scoring" / "python.md").read_text(encoding="utf-8")
EVALUATE_PAGE = (ROOT / "docs" / "scoring" / "evaluate.md").read_text(encoding="utf-8")
CORPUS_PAGE = (ROOT / "docs" / "corpus.md").read_text(encoding="utf-8")
# The evaluate module's result keys, in its order (metrics/nash/nash.py `_compute`).
EVALUATE_FIELDS = [*PUBLIC_FIELDS, "best_reference", "figure_verdicts", "unsupported_numbers", *RESULT_KEYS, "hashcode"]


def _section(text: str, start: str, end: str) -> str:
    begin = text.index(start)
    return text[begin : text.index(end, begin)]


def test_python_api_example_passes_every_option_in_order() -> None:
    example = _section(PYTHON_PAGE, "scorer = NASH(", "out = scorer.score")
    assert re.findall(r"(\w+)=", example) == list(option_names())


def test_evaluate_page_lists_every_option_and_field() -> None:
    names = re.findall(r"`(\w+)`", _section(EVALUATE_PAGE, "Options: ", "; the module docstring"))
    assert names == ["NASHConfig", "model_type", "model", *option_names()[1:]]
    # the example's result: every field but the baseline's, which baseline=True adds
    assert re.findall(r"'(\w+)': ", EVALUATE_PAGE) == [f for f in EVALUATE_FIELDS if f not in BASELINE_FIELDS]


def test_readme_evaluate_example_names_real_fields_in_order() -> None:
    """The README's example elides fields with `...`; the ones it names are the module's, in the module's order."""
    example = _section(README, 'nash = evaluate.load("metrics/nash")', "```")
    named = re.findall(r"'(\w+)': ", example)
    assert named and named == [f for f in EVALUATE_FIELDS if f in named]


def test_readme_output_field_table_names_real_fields() -> None:
    table = _section(README, "| field | what it answers |", "\n\n")
    named = re.findall(r"`(\w+)`", table)
    attributes = {"text", "numeric"}  # out.text, out.numeric: NASHOutput's names of text_similarity, numeric_similarity
    known = {*EVALUATE_FIELDS, "figure_verdicts", *attributes}
    assert set(named) <= known, set(named) - known
    assert set(PUBLIC_FIELDS) - {"nash_precision", "nash_recall", "text_precision", "text_recall"} <= set(named)


def test_output_file_columns_are_the_written_ones() -> None:
    bullet = _section(CORPUS_PAGE, "- Output (`.jsonl`", "- A tqdm bar")
    written = [*ROW_COLUMNS, "best_reference", *SUPPORT_COLUMNS, "unscored"]
    assert re.findall(r"`(\w+)`", bullet) == written
