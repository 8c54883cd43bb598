"""`nash bench claims`: the claims file's errors, the scoring of distinct pairs, the metrics by hand, end to end."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from nash_metric.benchmarks import registry
from nash_metric.benchmarks.claims import (
    Claim,
    ClaimScores,
    claim_tables,
    claims_of,
    markdown,
    read_claims,
    score_claims,
)
from nash_metric.common.io import InputFileError

SOURCE_A = "| Item | 2019 | 2018 |\n|---|---|---|\n| Revenue | 120.5 | 98.2 |\n\nRevenue grew."
SOURCE_B = "Net income was $7.50 per share in 2020."
ROWS = [
    {"source": SOURCE_A, "claim": "Revenue was 120.5 in 2019.", "label": 1, "kind": "supported", "group": "g1"},
    {"source": SOURCE_A, "claim": "Revenue was 98.2 in 2019.", "label": 0, "kind": "misplaced", "group": "g1"},
    {"source": SOURCE_A, "claim": "Revenue was 121.7 in 2019.", "label": 0, "kind": "unsupported", "group": "g1"},
    {"source": SOURCE_B, "claim": "Net income was $7.50 per share in 2020.", "label": 1, "kind": "supported",
     "group": "g2", "form": "text"},
    {"source": SOURCE_B, "claim": "Net income was $7.90 per share in 2020.", "label": 0, "kind": "unsupported",
     "group": "g2"},
    {"source": SOURCE_A, "claim": "Revenue was 120.5 in 2019.", "label": 1, "kind": "supported", "group": "g1",
     "id": "again"},  # the first pair again: scored once
]


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def claims_file(tmp_path) -> Path:
    return _write(tmp_path / "claims.jsonl", [json.dumps(r) for r in ROWS])


# -- reading ------------------------------------------------------------------------------------------------


def test_a_claims_file_is_read_with_its_optional_fields(claims_file):
    info, claims = read_claims(claims_file)
    assert len(claims) == 6 and info["rows_in_file"] == 6 and len(info["sha256"]) == 64
    first = claims[0]
    assert (first.line, first.id, first.label, first.kind, first.group) == (1, "line-1", 1, "supported", "g1")
    assert claims[3].extra == {"form": "text"} and claims[5].id == "again"
    _, limited = read_claims(claims_file, limit=2)
    assert [c.line for c in limited] == [1, 2]


GOOD = json.dumps(ROWS[0])


@pytest.mark.parametrize(("bad", "message"), [
    ('{"source": "s", "claim": "c"}', r":2: missing field 'label'"),
    ('{"source": "s", "claim": "c", "label": 2}', r":2: field 'label' must be 0 or 1, got 2"),
    ('{"source": "s", "claim": "c", "label": true}', r":2: field 'label' must be 0 or 1, got True"),
    ('{"source": "s", "claim": 5, "label": 1}', r":2: field 'claim' must be a string, got int"),
    ('{"source": " ", "claim": "c", "label": 1}', r":2: field 'source' is empty"),
    ('{"claim": "c", "label": 1}', r":2: missing field 'source'"),
    ('{"source": "s", "claim": "c", "label": 1, "kind": 3}', r":2: field 'kind' must be a string, got int"),
    ('{"source": "s", "claim": "c", "label": 1, "id": [1]}', r":2: field 'id' must be a string or an integer"),
    ('{"source": "s", "claim": "c", "label": 1, "id": "line-1"}', r":2: field 'id': 'line-1' is also the id of "
     r"line 1"),
    ('{"source": "s", "claim": "c", "label": 1', r":2: invalid JSON"),
    ('["s", "c", 1]', r":2: expected a JSON object, got list"),
])
def test_a_malformed_line_fails_with_its_file_and_line(tmp_path, bad, message):
    path = _write(tmp_path / "bad.jsonl", [GOOD, bad, GOOD.replace("2019.", "2018.")])
    with pytest.raises(InputFileError, match=message) as info:
        read_claims(path)
    assert str(info.value).startswith(f"{path}:2: ")


def test_an_empty_file_has_no_claims(tmp_path):
    with pytest.raises(InputFileError, match="no claims"):
        read_claims(_write(tmp_path / "empty.jsonl", ["", "  "]))


def test_records_built_in_memory_fail_with_their_index():
    with pytest.raises(ValueError, match=r"claim 1: field 'label' must be 0 or 1"):
        claims_of([ROWS[0], {**ROWS[0], "label": "yes"}])


# -- scoring, with a fake scorer ----------------------------------------------------------------------------


class FakeScorer:
    """Supports a figure when its text appears in the source; says what it was asked."""

    hashcode = "fake-hash"

    def __init__(self) -> None:
        self.echo = {"model": "fake", "backend": "sentence"}
        self.calls: list[tuple[list[str], list[str]]] = []

    def score(self, predictions, references, show_progress=False):
        self.calls.append((list(predictions), list(references)))
        flagged = []
        for p, r in zip(predictions, references):
            figures = [w.strip(".$") for w in p.split() if any(ch.isdigit() for ch in w)]
            flagged.append([{"text": f, "verdict": "misplaced" if f.startswith("98") else "odd verdict"}
                            for f in figures if f not in r or f.startswith("98")])
        support = [1.0 - len(f) / 2 for f in flagged]
        return SimpleNamespace(numeric_support=np.array(support), unsupported_numbers=flagged,
                               config={"threshold": 0.5})


def test_each_distinct_pair_is_scored_once_grouped_by_source():
    claims = claims_of(ROWS)
    scorer = FakeScorer()
    scores, info = score_claims(scorer, claims, show_progress=False)
    assert len(scorer.calls) == 1
    predictions, references = scorer.calls[0]
    assert len(predictions) == 5 and info["distinct_pairs"] == 5 and info["sources"] == 2
    assert references == [SOURCE_A] * 3 + [SOURCE_B] * 2  # grouped by source, in order of appearance
    assert scores.verdict.tolist() == [1.0, 0.0, 0.0, 1.0, 0.0, 1.0]
    assert scores.flagged[1] == ("misplaced",) and scores.flagged[2] == ("odd verdict",)  # any string
    # value-anywhere: 98.2 is in the table (a misplaced value passes), 121.7 and 7.90 are not; 2019, 2020 are
    assert scores.value_anywhere.tolist() == [1.0, 1.0, 0.0, 1.0, 0.0, 1.0]
    assert scores.value_anywhere_share.tolist() == [1.0, 1.0, 0.5, 1.0, 0.5, 1.0]


def test_the_metrics_by_hand():
    claims = claims_of(ROWS)
    scores = ClaimScores(numeric_support=np.array([1.0, 0.5, 0.0, 0.5, 0.5, 1.0]),
                         verdict=np.array([1.0, 0.0, 0.0, 0.0, 0.0, 1.0]),
                         value_anywhere_share=np.array([1.0, 1.0, 0.5, 1.0, 0.5, 1.0]),
                         value_anywhere=np.array([1.0, 1.0, 0.0, 1.0, 0.0, 1.0]),
                         flagged=((), ("misplaced",), ("unsupported",), ("misplaced",), ("unsupported",), ()))
    tables = claim_tables(claims, scores)
    overall = tables["overall"]
    assert (overall["positives"], overall["negatives"]) == (3, 3)
    # verdict: positives passed 2 of 3, negatives flagged 3 of 3 -> (2/3 + 1) / 2
    assert overall["verdict_ba"] == pytest.approx((2 / 3 + 1) / 2)
    # value-anywhere: positives 3 of 3, negatives flagged 2 of 3 (the misplaced one passes)
    assert overall["value_anywhere_ba"] == pytest.approx((1 + 2 / 3) / 2)
    # numeric_support AUC: pairs (pos, neg) with pos > neg count 1, ties 0.5: pos {1, .5, 1}, neg {.5, 0, .5}
    assert overall["numeric_support_auc"] == pytest.approx((2 * 3 + (0.5 + 1 + 0.5)) / 9)
    misplaced = tables["kind"]["misplaced"]  # the misplaced row against the 3 supported rows
    assert (misplaced["positives"], misplaced["negatives"]) == (3, 1) and misplaced["value_anywhere_ba"] == 0.5
    assert list(tables["kind"]) == ["misplaced", "unsupported"]
    assert tables["group"]["g2"]["positives"] == 1 and tables["group"]["g2"]["verdict_ba"] == 0.5
    assert list(tables["group_kind"]) == ["g1 · misplaced", "g1 · unsupported", "g2 · unsupported"]
    flags = tables["flags"]
    assert flags["supported"]["flagged_by_verdict"] == pytest.approx(1 / 3)
    assert flags["misplaced"]["flagged_by_value_anywhere"] == 0.0
    assert flags["unsupported"]["figure_verdicts"] == {"unsupported": 2}


def test_rows_without_kind_or_group_are_broken_down_by_label():
    claims = [Claim(k + 1, str(k), "Sales were 5.", c, y) for k, (c, y) in enumerate([("Sales were 5.", 1),
                                                                                       ("Sales were 6.", 0)])]
    scores = ClaimScores(np.array([1.0, 0.0]), np.array([1.0, 0.0]), np.array([1.0, 0.0]), np.array([1.0, 0.0]),
                         ((), ("unsupported",)))
    tables = claim_tables(claims, scores)
    assert tables["kind"] == {} and tables["group"] == {} and list(tables["flags"]) == ["label 1", "label 0"]
    assert tables["overall"]["verdict_ba"] == 1.0 and tables["overall"]["value_anywhere_ba"] == 1.0


# -- end to end ---------------------------------------------------------------------------------------------


def test_bench_claims_end_to_end_on_the_tiny_model(claims_file, tiny_scorer):
    result = registry["claims"].evaluate(tiny_scorer, claims_file, show_progress=False)
    assert result["benchmark"] == "claims" and result["config"]["hashcode"] == tiny_scorer.hashcode
    assert result["config"]["data"]["rows_used"] == 6 and result["results"]["scoring"]["distinct_pairs"] == 5
    overall = result["results"]["tables"]["overall"]
    assert {"numeric_support_auc", "verdict_ba", "value_anywhere_share_auc", "value_anywhere_ba"} <= set(overall)
    assert overall["value_anywhere_ba"] == pytest.approx((1 + 2 / 3) / 2)  # the check does not use the model
    assert overall["verdict_ba"] is not None and 0.0 <= overall["numeric_support_auc"] <= 1.0
    text = markdown(result)
    assert "verdict BA" in text and "value-anywhere BA" in text and "kind misplaced vs label 1" in text


def test_the_cli_runs_and_writes_json_and_markdown(claims_file, tmp_path, tiny_model_dir, capsys):
    from nash_metric.cli import main

    out = tmp_path / "result.json"
    code = main(["bench", "claims", "--data", str(claims_file), "--limit", "3", "--output", str(out),
                 "--model", str(tiny_model_dir), "--backend", "token", "--threshold", "0"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert saved["config"]["limit"] == 3 and saved["results"]["scoring"]["claims"] == 3
    assert "value-anywhere BA" in out.with_suffix(".md").read_text(encoding="utf-8")
    assert "verdict BA" in captured.out


def test_the_cli_reports_a_bad_line_as_a_user_error(tmp_path, tiny_model_dir, capsys):
    from nash_metric.cli import main

    path = _write(tmp_path / "bad.jsonl", [GOOD, '{"source": "s", "claim": "c", "label": "1"}'])
    code = main(["bench", "claims", "--data", str(path), "--model", str(tiny_model_dir)])
    err = capsys.readouterr().err
    assert code == 2 and f"{path}:2: field 'label' must be 0 or 1" in err
