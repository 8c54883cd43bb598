"""SummEdits benchmark: reader errors, subset rules, metrics and pooled thresholds (fake scorer).

The real data with the real model: tests/integration/test_summedits_data.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from nash_metric.benchmarks import registry
from nash_metric.benchmarks.summedits.data import (
    SummEditsRow,
    counts,
    data_files,
    new_numerals,
    numerals,
    read_summedits,
    subset_labels,
)
from nash_metric.benchmarks.summedits.evaluation import evaluate
from nash_metric.benchmarks.summedits.metrics import FIELDS, balanced_accuracy, best_threshold, roc_auc
from nash_metric.benchmarks.summedits.report import markdown
from nash_metric.common.io import InputFileError
from nash_metric.common.reporting import write_json

# -- project-written samples --------------------------------------------------------------------------------

ORIGINAL_A = "Revenue was 5 million in 2020."
ORIGINAL_B = "The team met on Monday."
# summary -> the score every field of the fake scorer gives it (bertscore_f1 gets 1 - score)
SCORES = {
    "Revenue reached 5 million in 2020.": 0.9,
    "Revenue was 5 million in 2021.": 0.2,
    "Revenue was 7 million in 2020.": 0.6,
    "Profit was 5 million in 2020.": 0.8,
    "The team gathered on Monday.": 0.7,
    "The team met on Monday at 9.": 0.3,
    "The team met on Tuesday.": 0.95,
    "": 0.1,
}


def _row(summary: str, original: str, label: int, **extra) -> dict:
    return {"id": f"r{len(summary)}", "doc": f"Source of: {original}", "original_summary": original,
            "summary": summary, "label": label, "edit_types": [], "split": "test", **extra}


ROWS_A = [
    _row(ORIGINAL_A, ORIGINAL_A, 1),  # not an edit: left out
    _row("Revenue reached 5 million in 2020.", ORIGINAL_A, 1),
    _row("Revenue was 5 million in 2021.", ORIGINAL_A, 0),  # figure edit
    _row("Revenue was 7 million in 2020.", ORIGINAL_A, 0),  # figure edit
    _row("Profit was 5 million in 2020.", ORIGINAL_A, 0),  # inconsistent, no new figure
    _row("Revenue reached 5 million in 2020.", ORIGINAL_A, 1),  # the same pair again: scored once
]
ROWS_B = [
    _row("The team gathered on Monday.", ORIGINAL_B, 1),
    _row("The team met on Monday at 9.", ORIGINAL_B, 0),  # figure edit
    _row("The team met on Tuesday.", ORIGINAL_B, 0),
    _row("", ORIGINAL_B, 0),  # a blank summary is a text: scored, and counted
]


def _write(folder: Path, name: str, rows) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(rows), encoding="utf-8")
    return path


@pytest.fixture
def data_dir(tmp_path) -> Path:
    folder = tmp_path / "summedits"
    _write(folder, "summedits_alpha.json", ROWS_A)
    _write(folder, "summedits_beta.json", ROWS_B)
    _write(folder, "notes.json", [])  # not a summedits_*.json: ignored
    return folder


class FakeScorer:
    """The scorer protocol on hand-set scores (`SCORES`), logging every call; for unit tests only.

    ``flags``: summary -> the verdicts of its flagged figures; without it, one "unsupported" figure below 0.5.
    """

    def __init__(self, backend: str = "sentence", calls: list | None = None, overrides: dict | None = None,
                 flags: dict | None = None):
        self.backend, self.calls, self.overrides = backend, [] if calls is None else calls, overrides or {}
        self.flags = flags

    @property
    def echo(self) -> dict:
        return {"model": "fake", "backend": self.backend, "threshold": 0.5}

    @property
    def hashcode(self) -> str:
        return f"fake_{self.backend}"

    def with_options(self, **overrides):
        return FakeScorer(overrides.get("backend", self.backend), self.calls, overrides, self.flags)

    def _flagged(self, prediction: str, score: float) -> list[dict]:
        if self.flags is None:
            return [{"text": "x", "verdict": "unsupported"}] if score < 0.5 else []
        return [{"text": "x", "verdict": v} for v in self.flags.get(prediction, ())]

    def score(self, predictions, references, show_progress=False):
        self.calls.append((self.backend, list(predictions), list(references)))
        s = np.array([SCORES[p] for p in predictions])
        return SimpleNamespace(
            nash=s, numeric=s, numeric_precision=s, numeric_support=np.ones(len(s)),
            unsupported_numbers=[self._flagged(p, v) for p, v in zip(predictions, s)],
            baseline=s if self.backend == "sentence" else 1.0 - s, config=self.echo, unscored=[],
        )


# -- reader ------------------------------------------------------------------------------------------------------


def test_a_folder_gives_every_summedits_file_by_domain(data_dir):
    assert [p.name for p in data_files(data_dir)] == ["summedits_alpha.json", "summedits_beta.json"]
    files, domains = read_summedits(data_dir)
    assert list(domains) == ["alpha", "beta"] and [len(r) for r in domains.values()] == [6, 4]
    assert [f.domain for f in files] == ["alpha", "beta"] and len(files[0].sha256) == 64
    row = domains["alpha"][2]
    assert isinstance(row, SummEditsRow) and row.index == 2 and row.label == 0 and row.split == "test"
    files, domains = read_summedits([data_dir / "summedits_beta.json"], limit=2)
    assert list(domains) == ["beta"] and len(domains["beta"]) == 2 and files[0].rows_in_file == 4


def test_a_file_without_the_prefix_is_its_own_domain(tmp_path):
    path = _write(tmp_path, "finance_dev.json", ROWS_B)
    assert list(read_summedits(path)[1]) == ["finance_dev"]


@pytest.mark.parametrize(("change", "message"), [
    ({"summary": None}, r"row 1: field 'summary' must be a string, got NoneType"),
    ({"doc": 3}, r"row 1: field 'doc' must be a string, got int"),
    ({"label": 2}, r"row 1: field 'label' must be 0 or 1, got 2"),
    ({"label": True}, r"row 1: field 'label' must be 0 or 1, got True"),
    ({"label": "1"}, r"row 1: field 'label' must be 0 or 1, got '1'"),
    ({"edit_types": "number"}, r"row 1: field 'edit_types' must be a list of strings"),
])
def test_a_bad_field_names_file_row_and_field(tmp_path, change, message):
    path = _write(tmp_path, "summedits_bad.json", [ROWS_B[0], {**ROWS_B[1], **change}])
    with pytest.raises(InputFileError, match=r"summedits_bad\.json: " + message):
        read_summedits(path)


def test_a_missing_field_and_other_shapes_are_refused(tmp_path):
    row = dict(ROWS_B[0])
    del row["original_summary"]
    with pytest.raises(InputFileError, match=r"summedits_x\.json: row 0: missing field 'original_summary'"):
        read_summedits(_write(tmp_path, "summedits_x.json", [row]))
    with pytest.raises(InputFileError, match=r"row 1: expected an object"):
        read_summedits(_write(tmp_path, "summedits_x.json", [ROWS_B[0], ["a", "b"]]))
    with pytest.raises(InputFileError, match=r"expected a JSON list of rows, got dict"):
        read_summedits(_write(tmp_path, "summedits_x.json", {"rows": []}))
    with pytest.raises(InputFileError, match=r"summedits_x\.json: no rows"):
        read_summedits(_write(tmp_path, "summedits_x.json", []))
    (tmp_path / "summedits_x.json").write_text('[\n{"doc": ', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"summedits_x\.json:2: not valid JSON"):
        read_summedits(tmp_path / "summedits_x.json")


def test_missing_paths_empty_folders_and_twice_given_domains_are_refused(tmp_path, data_dir):
    with pytest.raises(FileNotFoundError, match="no such file or folder"):
        data_files(tmp_path / "nowhere")
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match=r"no summedits_\*\.json files"):
        data_files(tmp_path / "empty")
    with pytest.raises(ValueError, match=r"domain.* alpha given by more than one file"):
        data_files([data_dir, data_dir / "summedits_alpha.json"])


# -- subsets ----------------------------------------------------------------------------------------------------


def test_numerals_are_digit_tokens_without_thousands_commas():
    assert numerals("$3,035.5 at 12:30 on 1/2/2020, up 4% and 1,000,000 units; items 1,2") == {
        "3035.5": 1, "12:30": 1, "1/2/2020": 1, "4": 1, "1000000": 1, "1,2": 1}
    assert numerals("COVID-19 cases") == {} and numerals("no figures") == {}  # identifiers are names
    assert numerals("SARS-CoV-2, a 4D matrix, the 49ers; $5bn on the 26th") == {"5": 1, "26": 1}
    assert new_numerals("5 and 5 more", "5 in all") == {"5": 1}  # a multiset: stated twice, once in the original
    assert new_numerals("from 7 to 5", "from 5 to 7") == {}  # swapped figures state nothing new
    assert new_numerals("3,035 units", "3035 units") == {}


def test_a_list_label_opening_the_text_or_a_line_is_not_a_figure():
    assert numerals("5) The email asks for 3 demos.\n2. Then 4 calls\n  (3) and 12) items") == {"3": 1, "4": 1, "12": 1}
    assert numerals("See item 5) below; 2.5 million in 2019. Then") == {"5": 1, "2.5": 1, "2019": 1}
    assert numerals("2019. A year") == {"2019": 1}  # three digits and more: no label
    assert numerals("2.5 million") == {"2.5": 1}  # a decimal, not "2. "
    # the dev row that changed subset with this rule (qmsumm 246): a numbered summary of an unnumbered one
    row = SummEditsRow("d", 0, "0", "doc", "The document discusses the decision.", "4) The document analyzes it.", 0)
    assert not row.is_figure_edit and new_numerals(row.summary, row.original_summary) == {}


def _rows(*specs) -> list[SummEditsRow]:
    return [SummEditsRow("d", i, str(i), "doc", original, summary, label) for i, (summary, original, label)
            in enumerate(specs)]


def test_subset_rules_on_hand_made_rows():
    rows = _rows(
        ("Sales were $5.", "Sales were $5.", 1),  # not an edit
        ("Sales were $5.", "Sales were $5.", 0),  # not an edit, even labelled inconsistent
        ("Sales reached $5.", "Sales were $5.", 1),  # consistent edit
        ("Sales were $6.", "Sales were $5.", 0),  # figure edit
        ("Sales were $5 in 2020.", "Sales were $5.", 1),  # consistent edit with a new figure: still a positive
        ("Costs were $5.", "Sales were $5.", 0),  # inconsistent, no new figure
        ("Sales were.", "Sales were $5.", 0),  # drops a figure: nothing new stated
        ("", "Sales were $5.", 0),  # blank summary
    )
    assert subset_labels(rows, "figure_edits_vs_consistent").tolist() == [-1, -1, 1, 0, 1, -1, -1, -1]
    assert subset_labels(rows, "all_edits").tolist() == [-1, -1, 1, 0, 1, 0, 0, 0]
    c = counts(rows)
    assert (c["rows"], c["not_edits"], c["not_edits_labelled_inconsistent"], c["edits"]) == (8, 2, 1, 6)
    assert (c["consistent_edits"], c["inconsistent_edits"], c["figure_edits"]) == (2, 4, 1)
    assert c["consistent_edits_with_new_numerals"] == 1 and c["blank_summaries"] == 1
    assert c["subsets"] == {"figure_edits_vs_consistent": {"positives": 2, "negatives": 1},
                            "all_edits": {"positives": 2, "negatives": 4}}
    with pytest.raises(ValueError, match="unknown subset"):
        subset_labels(rows, "figures")


# -- metrics --------------------------------------------------------------------------------------------------


def test_auc_balanced_accuracy_and_the_best_threshold_by_hand():
    y = np.array([1, 1, 0, 0, 0])
    s = np.array([0.9, 0.7, 0.2, 0.6, 0.3])
    assert roc_auc(y, s) == 1.0 and roc_auc(y, np.ones(5)) == 0.5 and roc_auc(y, -s) == 0.0
    assert roc_auc(np.array([1, 1]), np.array([0.1, 0.2])) is None
    assert best_threshold(y, s) == pytest.approx(0.65)  # midway between 0.6 and 0.7
    assert balanced_accuracy(y, s >= 0.65) == 1.0
    assert balanced_accuracy(y, s >= 0.25) == pytest.approx((1 + 1 / 3) / 2)
    assert balanced_accuracy(np.array([0, 0]), np.array([True, False])) is None
    assert best_threshold(y, np.ones(5)) == 1.0  # one value: everything consistent, BA 0.5
    assert best_threshold(np.array([0, 0]), np.array([0.1, 0.2])) is None
    # no candidate beats 0.5 (anti-correlated): the lowest score, everything consistent
    assert best_threshold(y, -s) == pytest.approx(-0.9)


# -- evaluate on the fake scorer --------------------------------------------------------------------------------


def test_evaluate_pools_thresholds_and_scores_each_pair_once(data_dir):
    scorer = FakeScorer("sentence")
    result = evaluate(scorer, data_dir, show_progress=False)
    res = result["results"]
    assert result["benchmark"] == "summedits" and res["domains"] == ["alpha", "beta"]
    assert res["reference_modes"] == ["original", "doc"]
    # the sentence scorer given is reused for cosine; the token one comes from with_options(backend="token");
    # 9 edits, 8 distinct pairs
    assert [(backend, len(preds)) for backend, preds, _ in scorer.calls] == [("sentence", 8), ("token", 8)] * 2
    assert scorer.calls[2][2][0].startswith("Source of: ")  # doc mode scores against the doc
    assert result["config"]["hashcode"] == "fake_sentence" and result["config"]["token_hashcode"] == "fake_token"
    assert [d["domain"] for d in result["config"]["data"]] == ["alpha", "beta"]
    assert all(len(d["sha256"]) == 64 for d in result["config"]["data"])

    c = res["counts"]
    assert (c["alpha"]["not_edits"], c["alpha"]["edits"], c["alpha"]["figure_edits"]) == (1, 5, 2)
    assert (c["beta"]["figure_edits"], c["beta"]["blank_summaries"]) == (1, 1)
    assert c["overall"]["subsets"] == {"figure_edits_vs_consistent": {"positives": 3, "negatives": 3},
                                       "all_edits": {"positives": 3, "negatives": 6}}

    for mode in ("original", "doc"):
        fig = res["metrics"][mode]["figure_edits_vs_consistent"]
        assert res["thresholds"][mode]["figure_edits_vs_consistent"]["nash"] == pytest.approx(0.65)
        assert "verdict" not in res["thresholds"][mode]["figure_edits_vs_consistent"]
        for group in ("alpha", "beta", "overall"):
            assert fig[group]["nash"] == {"auc": 1.0, "balanced_accuracy": 1.0}
            assert fig[group]["bertscore_f1"]["auc"] == 0.0
            assert fig[group]["numeric_support"] == {"auc": 0.5, "balanced_accuracy": 0.5}  # constant 1.0
        # verdict: consistent when no unsupported number (score >= 0.5 here); no threshold
        assert fig["overall"]["verdict"]["balanced_accuracy"] == pytest.approx((1 + 2 / 3) / 2)
        assert fig["overall"]["verdict"]["auc"] == pytest.approx(5 / 6)

        every = res["metrics"][mode]["all_edits"]
        assert res["thresholds"][mode]["all_edits"]["cosine"] == pytest.approx(0.65)
        assert every["overall"]["cosine"]["auc"] == pytest.approx(14 / 18)
        assert every["overall"]["cosine"]["balanced_accuracy"] == pytest.approx((1 + 4 / 6) / 2)
        assert every["alpha"]["cosine"] == {"auc": 1.0, "balanced_accuracy": pytest.approx((1 + 2 / 3) / 2)}
        # beta alone would choose another threshold; the pooled one applies to every domain
        assert every["beta"]["cosine"] == {"auc": pytest.approx(2 / 3), "balanced_accuracy": pytest.approx(5 / 6)}
    assert res["threshold_source"]["kind"] == "pooled"


def test_thresholds_of_an_earlier_result_are_applied_as_they_are(tmp_path, data_dir):
    earlier = write_json(tmp_path / "dev.json", evaluate(FakeScorer(), data_dir, show_progress=False))
    pooled_here = evaluate(FakeScorer(), data_dir / "summedits_beta.json", show_progress=False)
    assert pooled_here["results"]["thresholds"]["original"]["figure_edits_vs_consistent"]["nash"] == \
        pytest.approx(0.5)
    fixed = evaluate(FakeScorer(), data_dir / "summedits_beta.json", reference="doc", thresholds=earlier,
                     show_progress=False)
    res = fixed["results"]
    assert res["reference_modes"] == ["doc"] and res["threshold_source"]["kind"] == "file"
    assert res["threshold_source"]["domains"] == ["alpha", "beta"] and fixed["config"]["thresholds"] == str(earlier)
    assert res["thresholds"]["doc"] == json.loads(earlier.read_text())["results"]["thresholds"]["doc"]
    assert res["metrics"]["doc"]["all_edits"]["beta"]["cosine"]["balanced_accuracy"] == pytest.approx(5 / 6)
    text = markdown(fixed)
    assert "fixed beforehand, read from" in text and "chosen on alpha, beta" in text

    only_original = write_json(tmp_path / "orig.json",
                               evaluate(FakeScorer(), data_dir, reference="original", show_progress=False))
    with pytest.raises(ValueError, match="no threshold for reference 'doc'"):
        evaluate(FakeScorer(), data_dir, reference="doc", thresholds=only_original, show_progress=False)
    with pytest.warns(UserWarning, match="chosen with other scorers"):
        evaluate(FakeScorer("token"), data_dir, reference="original", thresholds=only_original, show_progress=False)


def test_a_token_scorer_gets_its_cosine_from_a_sentence_backbone(data_dir):
    scorer = FakeScorer("token")
    result = evaluate(scorer, data_dir, reference="original", show_progress=False)
    assert [backend for backend, _, _ in scorer.calls] == ["token", "sentence"]
    assert result["config"]["sentence_hashcode"] == "fake_sentence"
    assert result["results"]["metrics"]["original"]["all_edits"]["overall"]["nash"]["auc"] == pytest.approx(14 / 18)


def test_bad_options_are_refused_before_scoring(data_dir):
    scorer = FakeScorer()
    with pytest.raises(ValueError, match="reference must be one of"):
        evaluate(scorer, data_dir, reference="summary", show_progress=False)
    with pytest.raises(ValueError, match="--limit must be a positive integer"):
        evaluate(scorer, data_dir, limit=0, show_progress=False)
    with pytest.raises(TypeError, match="NASH scorer or a factory"):
        evaluate("not a scorer", data_dir, show_progress=False)
    assert scorer.calls == []


def test_markdown_has_one_table_per_reference_and_subset(data_dir, tmp_path):
    result = evaluate(FakeScorer(), data_dir, show_progress=False)
    text = markdown(result)
    assert text.count("### ") == 7  # 2 references x 2 subsets + thresholds + verdict classes per reference
    # the fake flags one "unsupported" figure below 0.5: 0 of 3 consistent edits, 2 of 3 figure edits, 3 of 6 edits
    assert "### Verdict classes · summary vs source document · overall" in text
    assert "### summary vs original summary · figure_edits_vs_consistent" in text
    assert "### summary vs source document · all_edits" in text
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in text.splitlines() if line.startswith("|")]
    headers = [r for r in rows if r[:2] == ["Domain", "n (+/−)"]]
    assert len(headers) == 4 and all(h == ["Domain", "n (+/−)", *FIELDS] for h in headers)
    overall = [r for r in rows if r[0] == "overall" and r[1] == "3/3"]
    assert len(overall) == 2 and overall[0][2:5] == ["1.000 / 1.000", "0.000 / 0.500", "1.000 / 1.000"]
    assert "maximise BA on all rows of this run pooled" in text
    classes = [r for r in rows if r[0].startswith("figure_edits_vs_consistent · ")]
    assert classes[:2] == [["figure_edits_vs_consistent · consistent", "3", "0", "0", "0 / –"],
                           ["figure_edits_vs_consistent · inconsistent", "3", "2", "2", "2 / 1.000"]]
    assert next(r for r in rows if r[0] == "subset · label")[4] == "unsupported: rows / share of figures"
    path = registry["summedits"].plot(result, tmp_path / "summedits.png")
    assert path.is_file() and path.stat().st_size > 0


def test_the_cli_lists_the_command():
    from nash_metric.cli import build_parser

    args = build_parser().parse_args(["bench", "summedits", "--data", "a", "b.json", "--reference", "doc",
                                      "--limit", "3", "--thresholds", "r.json", "--backend", "token"])
    assert (args.data, args.reference, args.limit, args.thresholds, args.backend) == \
        (["a", "b.json"], "doc", 3, "r.json", "token")
    assert build_parser().parse_args(["bench", "summedits", "--data", "a"]).reference == "both"


# -- verdict classes and the value-anywhere check -----------------------------------------------------------------

# summary -> the verdicts of its flagged figures; the classes come from these entries, none is hard-coded
FLAGS = {
    "Revenue reached 5 million in 2020.": ["misplaced"],  # consistent, twice in alpha
    "Revenue was 5 million in 2021.": ["unsupported", "unsupported"],  # figure edit
    "Revenue was 7 million in 2020.": ["misplaced", "unsupported"],  # figure edit
    "The team met on Monday at 9.": ["unmatched"],  # figure edit
}


def test_flagged_figures_are_counted_by_verdict_class(data_dir):
    res = evaluate(FakeScorer(flags=FLAGS), data_dir, reference="doc", show_progress=False)["results"]
    figure = res["verdict_classes"]["doc"]["figure_edits_vs_consistent"]["overall"]
    share = lambda n, d: pytest.approx(n / d)  # noqa: E731
    assert figure["consistent"] == {"rows": 3, "rows_flagged": 2, "figures_flagged": 2, "classes": {
        "misplaced": {"rows": 2, "figures": 2, "share_of_flagged": 1.0},
        "unmatched": {"rows": 0, "figures": 0, "share_of_flagged": 0.0},
        "unsupported": {"rows": 0, "figures": 0, "share_of_flagged": 0.0}}}
    assert figure["inconsistent"] == {"rows": 3, "rows_flagged": 3, "figures_flagged": 5, "classes": {
        "misplaced": {"rows": 1, "figures": 1, "share_of_flagged": share(1, 5)},
        "unmatched": {"rows": 1, "figures": 1, "share_of_flagged": share(1, 5)},
        "unsupported": {"rows": 2, "figures": 3, "share_of_flagged": share(3, 5)}}}
    every = res["verdict_classes"]["doc"]["all_edits"]
    assert (every["overall"]["inconsistent"]["rows"], every["overall"]["inconsistent"]["rows_flagged"]) == (6, 3)
    assert every["beta"]["inconsistent"]["classes"]["unmatched"]["rows"] == 1
    none = {"rows": 0, "figures": 0, "share_of_flagged": None}
    assert every["beta"]["consistent"] == {"rows": 1, "rows_flagged": 0, "figures_flagged": 0, "classes": {
        "misplaced": none, "unmatched": none, "unsupported": none}}

    cells = res["metrics"]["doc"]["figure_edits_vs_consistent"]["overall"]
    # consistent edits 0, 0, 1 (two flagged misplaced) against figure edits 0, 0, 0
    assert cells["verdict"] == {"auc": pytest.approx(2 / 3), "balanced_accuracy": pytest.approx(2 / 3)}
    # unsupported: consistent 1, 1, 1 against 0, 0, 1 (the unmatched one is not "unsupported")
    assert cells["verdict_unsupported"] == {"auc": share(5, 6), "balanced_accuracy": share(5, 6)}
    # misplaced: consistent 0, 0, 1 against 1, 0, 1
    assert cells["verdict_misplaced"] == {"auc": share(1, 3), "balanced_accuracy": share(1, 3)}
    assert "verdict_misplaced" not in res["thresholds"]["doc"]["figure_edits_vs_consistent"]


# summary -> how many of its figures are computed (supported: never in `unsupported_numbers`)
COMPUTED = {"Revenue reached 5 million in 2020.": 1, "Revenue was 7 million in 2020.": 2}


class ComputingScorer(FakeScorer):
    """FakeScorer whose output also lists every figure (`figure_verdicts`): the flagged ones of FLAGS, and the
    computed ones of ``COMPUTED``."""

    def with_options(self, **overrides):
        return ComputingScorer(overrides.get("backend", self.backend), self.calls, overrides, self.flags)

    def score(self, predictions, references, show_progress=False):
        out = super().score(predictions, references, show_progress)
        out.figure_verdicts = [[*flagged, *[{"text": "y", "verdict": "computed", "derivation": "7 − 5 = 2"}]
                                * COMPUTED.get(p, 0)] for p, flagged in zip(predictions, out.unsupported_numbers)]
        return out


def test_computed_figures_are_counted_beside_the_flagged_ones(data_dir):
    plain = evaluate(FakeScorer(flags=FLAGS), data_dir, reference="doc", show_progress=False)["results"]
    result = evaluate(ComputingScorer(flags=FLAGS), data_dir, reference="doc", show_progress=False)
    res = result["results"]
    figure = res["verdict_classes"]["doc"]["figure_edits_vs_consistent"]["overall"]
    before = plain["verdict_classes"]["doc"]["figure_edits_vs_consistent"]["overall"]
    for label, rows, figures in (("consistent", 2, 2), ("inconsistent", 1, 2)):
        classes = dict(figure[label]["classes"])
        assert classes.pop("computed") == {"rows": rows, "figures": figures, "share_of_flagged": None}
        # not flagged: the rows, figures and shares of the flagged ones stay
        assert {**figure[label], "classes": classes} == before[label]
    cells = res["metrics"]["doc"]["figure_edits_vs_consistent"]["overall"]
    assert cells["verdict"] == plain["metrics"]["doc"]["figure_edits_vs_consistent"]["overall"]["verdict"]
    # computed: consistent edits 0, 0 (the pair twice), 1 against figure edits 1, 0 (two computed), 1
    assert cells["verdict_computed"] == {"auc": pytest.approx(1 / 3), "balanced_accuracy": pytest.approx(1 / 3)}
    assert "verdict_computed" in FIELDS and "verdict_computed" not in res["thresholds"]["doc"]["all_edits"]
    table = markdown(result)
    assert "computed: rows / share of figures" in table and "| 2 / –  " in table
    # A scorer without figure_verdicts (as FakeScorer) has no computed figures: the field is 1.0 everywhere.
    assert plain["metrics"]["doc"]["all_edits"]["overall"]["verdict_computed"]["balanced_accuracy"] == 0.5


def test_a_scorer_listing_figure_verdicts_for_other_pairs_is_refused(data_dir):
    class Short(ComputingScorer):
        def score(self, predictions, references, show_progress=False):
            out = super().score(predictions, references, show_progress)
            out.figure_verdicts = out.figure_verdicts[:-1]
            return out

    with pytest.raises(ValueError, match=r"the scorer listed figure verdicts for \d+ of \d+ pairs"):
        evaluate(Short(flags=FLAGS), data_dir, reference="doc", show_progress=False)


def test_the_value_anywhere_check_reads_the_texts_against_each_reference(data_dir):
    res = evaluate(FakeScorer(), data_dir, show_progress=False)["results"]
    for mode in ("original", "doc"):  # the doc is "Source of: " + the original summary: the same digit strings
        figure = res["metrics"][mode]["figure_edits_vs_consistent"]["overall"]
        # consistent edits state only the original's figures (1.0); figure edits 0.5 (5 of 5, 2021), 0.5, 0.0 (9)
        assert figure["value_anywhere"] == {"auc": 1.0, "balanced_accuracy": 1.0}
        assert figure["value_anywhere_share"] == {"auc": 1.0, "balanced_accuracy": 1.0}
        assert res["thresholds"][mode]["figure_edits_vs_consistent"]["value_anywhere_share"] == pytest.approx(0.75)
        # all edits: 3 more inconsistent edits that state no new value (1.0)
        assert res["metrics"][mode]["all_edits"]["overall"]["value_anywhere"] == {"auc": pytest.approx(0.75),
                                                                                  "balanced_accuracy": 0.75}


def test_an_older_thresholds_file_without_the_new_fields_still_applies(tmp_path, data_dir):
    earlier = evaluate(FakeScorer(), data_dir, reference="doc", show_progress=False)
    for subset in earlier["results"]["thresholds"]["doc"].values():
        del subset["value_anywhere_share"]
    path = write_json(tmp_path / "old.json", earlier)
    fixed = evaluate(FakeScorer(), data_dir, reference="doc", thresholds=path, show_progress=False)
    res = fixed["results"]
    assert res["threshold_source"]["missing"] == ["doc/figure_edits_vs_consistent/value_anywhere_share",
                                                  "doc/all_edits/value_anywhere_share"]
    cell = res["metrics"]["doc"]["figure_edits_vs_consistent"]["overall"]["value_anywhere_share"]
    assert cell == {"auc": 1.0, "balanced_accuracy": None}  # no threshold recorded: no BA, the AUC stays
    assert res["metrics"]["doc"]["figure_edits_vs_consistent"]["overall"]["value_anywhere"]["balanced_accuracy"] == 1.0
    assert "none recorded there for doc/figure_edits_vs_consistent/value_anywhere_share" in markdown(fixed)


def test_an_entry_without_a_verdict_is_refused(data_dir):
    class NoVerdict(FakeScorer):
        def _flagged(self, prediction, score):
            return [{"text": "x"}] if score < 0.5 else []

    with pytest.raises(ValueError, match=r"unsupported_numbers\[\d+\]\[0\] has no verdict"):
        evaluate(NoVerdict(), data_dir, reference="original", show_progress=False)
