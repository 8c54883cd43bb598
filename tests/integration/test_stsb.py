"""STS-B reader, correlations and (slow) the Base vs +NASH check on real pairs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from nash_metric.benchmarks.stsb import correlations, read_stsb, results_markdown
from nash_metric.common.io import InputFileError


def _write(tmp_path: Path, lines: list[str]) -> Path:
    f = tmp_path / "sts.tsv"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return f


def test_read_stsb_keeps_quotes_and_extra_columns(tmp_path):
    f = _write(tmp_path, [
        "main-news\theadlines\t2016\t0001\t4.5\tHe said \"yes\" to 5 %\tHe agreed to 5 %\tsrc1\tsrc2",
        "main-captions\tMSRvid\t2012test\t0002\t0.000\tA man plays.\tA cat sleeps.",
    ])
    pairs = read_stsb(f)
    assert [(p.line, p.score) for p in pairs] == [(1, 4.5), (2, 0.0)]
    assert pairs[0].sentence1 == 'He said "yes" to 5 %'
    assert len(read_stsb(f, limit=1)) == 1


@pytest.mark.parametrize(("line", "message"), [
    ("a\tb\tc\td\t4.0\tonly one sentence", r"sts\.tsv:2: expected at least 7 tab-separated fields"),
    ("a\tb\tc\td\thigh\tx\ty", r"sts\.tsv:2: score field \(column 5\) is not a number: 'high'"),
    ("a\tb\tc\td\t7.5\tx\ty", r"sts\.tsv:2: score 7.5 outside the STS range 0-5"),
    ("a\tb\tc\td\t3.0\tx\t ", r"sts\.tsv:2: empty sentence2 \(column 7\)"),
])
def test_bad_lines_are_reported_with_their_number(tmp_path, line, message):
    f = _write(tmp_path, ["a\tb\tc\td\t1.0\tfine\talso fine", line])
    with pytest.raises(InputFileError, match=message):
        read_stsb(f)


def test_correlations_by_hand():
    gold = np.array([0.0, 1.0, 2.0, 3.0])
    assert correlations(np.array([0.1, 0.2, 0.3, 0.9]), gold)["spearman"] == pytest.approx(1.0)
    c = correlations(np.array([0.0, 2.0, 1.0, 3.0]), gold)
    assert c["spearman"] == pytest.approx(0.8)  # one adjacent swap: 1 - 6*2/(4*15)
    assert c["pearson"] == pytest.approx(0.8)


def test_results_markdown_shows_both_columns():
    res = {"pairs": 3, "pairs_with_numbers": 1, "pairs_numbers_one_side": 1,
           "base": {"spearman": 0.8, "pearson": 0.7}, "nash": {"spearman": 0.79, "pearson": 0.71}}
    text = results_markdown(res)
    assert "| Spearman (all 3 pairs)" in text and "-0.010" in text and "+0.010" in text
    assert text.endswith("on one side only (S_num = 0): 1")


@pytest.mark.slow
def test_nash_keeps_general_semantics_on_real_pairs(data_paths):
    from nash_metric import NASH
    from nash_metric.benchmarks.stsb import run_stsb

    stsb = data_paths.require("stsb")
    res = run_stsb(NASH(backend="sentence"), read_stsb(stsb, limit=120), show_progress=False)
    assert res["pairs"] == 120
    assert res["base"]["spearman"] > 0.6
    assert abs(res["nash"]["spearman"] - res["base"]["spearman"]) < 0.05
    assert 0 < res["pairs_numbers_one_side"] <= res["pairs_with_numbers"]
