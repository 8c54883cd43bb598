"""SummEdits on the real data (../shared/data/summedits) with the default scorer (all-MiniLM-L6-v2).

The reader, the subset rules, the metrics and the pooled thresholds are unit-tested on project-written samples
and a fake scorer (tests/unit/test_summedits.py).
"""

from __future__ import annotations

import re

import pytest

from nash_metric.benchmarks.summedits.evaluation import evaluate
from nash_metric.benchmarks.summedits.metrics import FIELDS
from nash_metric.benchmarks.summedits.report import markdown

pytestmark = pytest.mark.slow


def test_real_summedits_with_the_default_scorer(data_paths, minilm_sentence):
    folder = data_paths.shared / "summedits"
    if not any(folder.glob("summedits_*.json")):
        pytest.skip(f"SummEdits not found at {folder} (../shared/data is mounted beside the repo in CI)")
    result = evaluate(minilm_sentence, folder, limit=6, show_progress=False)
    res = result["results"]
    assert len(res["domains"]) >= 1 and result["config"]["hashcode"] == minilm_sentence.hashcode
    assert result["config"]["token_config"]["backend"] == "token"
    for mode in ("original", "doc"):
        for subset, table in res["metrics"][mode].items():
            assert set(table) == {*res["domains"], "overall"}
            for cells in table.values():
                assert set(cells) == set(FIELDS)
                for cell in cells.values():
                    for value in cell.values():
                        assert value is None or 0.0 <= value <= 1.0, (mode, subset, cell)
    assert res["metrics"]["original"]["all_edits"]["overall"]["nash"]["auc"] is not None
    for mode in ("original", "doc"):  # every flagged figure is counted under its verdict class
        for cell in res["verdict_classes"][mode]["all_edits"]["overall"].values():
            assert sum(c["figures"] for c in cell["classes"].values()) == cell["figures_flagged"]
            assert all(c["rows"] <= cell["rows_flagged"] <= cell["rows"] for c in cell["classes"].values())
    assert re.search(r"^\| overall +\| \d+/\d+ +\| ", markdown(result), flags=re.MULTILINE)
