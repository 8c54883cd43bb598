"""The authors' released NumFinE layout (their toolkit's ``nash/data/*.json``): build, load, bench, errors.

Every record here is written for these tests, in the release's layout; none is copied from the release.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from nash_metric.benchmarks.numfine.evaluation import evaluate, load_data
from nash_metric.benchmarks.numfine.released import read_release, read_released_file
from nash_metric.cli import main


def sentence(text: str, num: str) -> dict[str, str]:
    return {"text": text, "num": num}


def triplet(i: int, category: str = "Monetary", source: str = "10K") -> dict:
    return {"id": i, "source": source, "category": category, "subcategory": "money",
            "sentence_a": sentence(f"Unit {i} booked revenue of $100 million.", "100"),
            "sentence_b": sentence(f"Unit {i} booked revenue of $104 million.", "104"),
            "sentence_c": sentence(f"Unit {i} booked revenue of $190 million.", "190")}


def crosspair(i: int, a: str, b: str, c: str, d: str, **extra) -> dict:
    return {"pair_id": i, "source": "news", "category": "Quantity", "subcategory": "Quantity",
            "sentence_a": sentence(f"Pair {i} plant shipped {a} crates.", a),
            "sentence_b": sentence(f"Pair {i} plant shipped {b} crates.", b),
            "sentence_c": sentence(f"Pair {i} depot held {c} pallets.", c),
            "sentence_d": sentence(f"Pair {i} depot held {d} pallets.", d), **extra}


def listwise(i: int, anchor: str, candidates: list[str], unit: str = "%", **extra) -> dict:
    return {"id": i, "source": "10K", "category": "Percentage", "subcategory": "relative",
            "sentence_a": sentence(f"List {i} margin reached {anchor}{unit} this year.", anchor),
            "candidates": [sentence(f"List {i} margin reached {c}{unit} this year.", c) for c in candidates], **extra}


# ------------------------------------------------------------------ a hand-computed release and its scores

TRIPLETS = [triplet(i) for i in range(4)]
CROSSPAIRS = [
    crosspair(0, "100", "110", "50", "75"),  # deviations 0.10 < 0.50: pair (a, b) should score higher
    crosspair(1, "100", "105", "20", "30", gold="b"),  # gold given: pair (c, d), whatever the deviations say
    crosspair(2, "200", "220", "30", "33"),  # 0.10 = 0.10: a tie, left out
    crosspair(3, "40", "80", "1,000", "1,050"),  # 1.00 > 0.05: pair (c, d)
    {**crosspair(4, "9", "9", "9", "9"), "sentence_a": sentence("Pair 4 sales peaked in March.", "March")},  # no value
]
LISTS = [
    listwise(0, "100", ["101", "150", "90", "300"], unit=" units", gold_order=[0, 2, 1, 3]),  # |Δ| 1, 50, 10, 200
    listwise(1, "5", ["6", "2", "9"]),  # |Δ| 1, 3, 4
    {**listwise(2, "7", ["8", "9"]), "sentence_a": sentence("List 2 orders peaked in March.", "March")},  # no value
]

# (Base, +NASH) similarity of each scored (reference, prediction) pair, keyed by the prediction.
_T, _C = TRIPLETS, CROSSPAIRS
SCORES = {
    # triplets, (positive, negative): Base right, wrong, tie (wrong), right = 2/4; +NASH right x3, wrong = 3/4
    _T[0]["sentence_b"]["text"]: (0.9, 0.9), _T[0]["sentence_c"]["text"]: (0.8, 0.2),
    _T[1]["sentence_b"]["text"]: (0.7, 0.8), _T[1]["sentence_c"]["text"]: (0.75, 0.3),
    _T[2]["sentence_b"]["text"]: (0.6, 0.7), _T[2]["sentence_c"]["text"]: (0.6, 0.4),
    _T[3]["sentence_b"]["text"]: (0.5, 0.3), _T[3]["sentence_c"]["text"]: (0.4, 0.35),
    # cross-pairs, (pair ab, pair cd), judged: 0 (gold ab), 1 (gold cd), 3 (gold cd); Base 2/3, +NASH 3/3
    _C[0]["sentence_b"]["text"]: (0.8, 0.9), _C[0]["sentence_d"]["text"]: (0.85, 0.5),  # Base wrong, NASH right
    _C[1]["sentence_b"]["text"]: (0.6, 0.4), _C[1]["sentence_d"]["text"]: (0.7, 0.6),  # both right
    _C[3]["sentence_b"]["text"]: (0.5, 0.2), _C[3]["sentence_d"]["text"]: (0.55, 0.9),  # both right
}
# list 0, candidates (101, 150, 90, 300) at |Δ| (1, 50, 10, 200):
#   Base (0.9, 0.5, 0.8, 0.6): of 6 candidate pairs only (150, 300) is discordant: τ_b = (5 - 1) / 6 = 2/3;
#     along gold_order (0, 2, 1, 3) the scores are 0.9, 0.8, 0.5, 0.6: not falling, exact order wrong;
#   +NASH (0.95, 0.7, 0.9, 0.3): all 6 concordant, τ_b = 1; exact order right.
# list 1, candidates (6, 2, 9) at |Δ| (1, 3, 4):
#   Base (0.7, 0.7, 0.1): one pair tied in score, 2 concordant: τ_b = 2 / sqrt((3 - 1) * 3) = 2 / sqrt(6);
#   +NASH (0.8, 0.2, 0.5): (2, 9) discordant: τ_b = (2 - 1) / 3.
for k, values in ((0, [(0.9, 0.95), (0.5, 0.7), (0.8, 0.9), (0.6, 0.3)]), (1, [(0.7, 0.8), (0.7, 0.2), (0.1, 0.5)])):
    for candidate, pair in zip(LISTS[k]["candidates"], values, strict=True):
        SCORES[candidate["text"]] = pair

EXPECTED = {
    "base": {"triplet_test": 2 / 4, "crosspair_test": 2 / 3, "listwise_test": (2 / 3 + 2 / math.sqrt(6)) / 2,
             "listwise_test_exact_order": 0.0},
    "nash": {"triplet_test": 3 / 4, "crosspair_test": 1.0, "listwise_test": (1 + 1 / 3) / 2,
             "listwise_test_exact_order": 1.0},
}


class LookupScorer:
    """Scores from ``SCORES``: the protocols' arithmetic is what these tests check, not a model."""

    backend, hashcode, echo = "sentence", "lookup", {"model": "lookup"}

    def __init__(self) -> None:
        self.references: dict[str, str] = {}

    def with_options(self, **overrides):
        return self

    def score(self, predictions, references, show_progress=False):
        for p, r in zip(predictions, references, strict=True):
            self.references[p] = r
        pairs = np.array([SCORES[p] for p in predictions])
        return SimpleNamespace(baseline=pairs[:, 0], nash=pairs[:, 1], unscored=[], config={"threshold": 0.5})


def write_release(folder: Path, extra: dict[str, object] | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    files = {"triplet_test.json": TRIPLETS, "crosspair_test.json": CROSSPAIRS, "listwise_test.json": LISTS,
             **(extra or {})}
    for name, records in files.items():
        (folder / name).write_text(records if isinstance(records, str) else json.dumps(records, indent=2),
                                   encoding="utf-8")
    return folder


def test_bench_output_equals_the_hand_computation(tmp_path):
    scorer = LookupScorer()
    result = evaluate(scorer, write_release(tmp_path / "rel"), alignment_rows=0, show_progress=False)
    res = result["results"]
    for column, expected in EXPECTED.items():
        for key, value in expected.items():
            assert res[column][key] == pytest.approx(value, abs=1e-12), (column, key)
    assert res["rows"] == {"triplet_test": 4, "listwise_test": 2, "crosspair_test": 3}  # n: records less left out
    assert res["left_out"] == {"listwise_test": {"a num without a numeric value": 1},
                               "crosspair_test": {"both pairs deviate equally: no gold": 1,
                                                  "a num without a numeric value": 1}}
    assert res["base"]["listwise_test_exact_order_n"] == 1
    # the anchor is the reference side; the cross-pair's pairs are (a, b) and (c, d)
    assert scorer.references[TRIPLETS[0]["sentence_c"]["text"]] == TRIPLETS[0]["sentence_a"]["text"]
    assert scorer.references[CROSSPAIRS[0]["sentence_d"]["text"]] == CROSSPAIRS[0]["sentence_c"]["text"]


def test_a_folder_built_from_the_release_benches_the_same(tmp_path):
    release = write_release(tmp_path / "rel")
    out = tmp_path / "built"
    assert main(["build-data", "numfine", "--released", str(release), "--out", str(out)]) == 0
    direct = evaluate(LookupScorer(), release, alignment_rows=0, show_progress=False)["results"]
    built = evaluate(LookupScorer(), out, alignment_rows=0, show_progress=False)["results"]
    for key in ("rows", "left_out", "base", "nash", "configs"):
        assert built[key] == direct[key], key


def test_build_keeps_every_record_as_released(tmp_path, capsys):
    from datasets import load_dataset

    release = write_release(tmp_path / "rel", {"notes.txt": "not data", "units.json": "[]"})
    out = tmp_path / "built"
    assert main(["build-data", "numfine", "--released", str(release), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Took: triplet_test.json, listwise_test.json, crosspair_test.json" in printed
    assert "Skipped `notes.txt`: not .json or .jsonl" in printed
    assert "Skipped `units.json`: its name names no protocol" in printed
    for config, records in (("triplet_test", TRIPLETS), ("crosspair_test", CROSSPAIRS), ("listwise_test", LISTS)):
        rows = load_dataset(str(out), config, split="test").to_list()
        assert len(rows) == len(records)
        for row, record in zip(rows, records, strict=True):
            assert {k: v for k, v in row.items() if v is not None} == record  # nested {text, num}, ids, gold kept
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "license: ''" in card and "fill in `license:`" in card
    assert f"nash build-data numfine --released {release} --out DIR" in card
    assert "| triplet_test   | triplet   | 4       | Monetary 4" in card  # counts per category and source
    report = json.loads((out / "build_report.json").read_text(encoding="utf-8"))
    assert [c["records"] for c in report["configs"]] == [4, 3, 5]
    assert load_dataset(str(out), split="test").num_rows == 4  # the default config: the triplets


def test_bench_cli_reports_every_protocol_on_the_folder_and_says_what_it_took(tmp_path, capsys, tiny_model_dir):
    release = write_release(tmp_path / "rel", {"notes.txt": "not data"})
    code = main(["bench", "numfine", "--data", str(release), "--model", str(tiny_model_dir), "--backend", "token",
                 "--no-alignment-check"])
    assert code == 0
    captured = capsys.readouterr()
    assert "took triplet_test.json (triplet, 4 records)" in captured.err and "skipped notes.txt" in captured.err
    for label in ("Triplet `triplet_test` (acc)", "Listwise `listwise_test` (Kendall τ_b)",
                  "Listwise `listwise_test` exact order (acc)", "Cross-pair `crosspair_test` (acc)"):
        assert label in captured.out
    assert "`crosspair_test`: 2 record(s) left out" in captured.out


def test_a_single_file_and_the_protocol_from_its_fields(tmp_path):
    path = tmp_path / "sample.json"  # a name that says nothing: the first record's fields do
    path.write_text(json.dumps(LISTS), encoding="utf-8")
    file = read_released_file(path)
    assert (file.protocol, file.config, len(file.records)) == ("listwise", "sample", 3)
    loaded = load_data(tmp_path / "sample.json", limit=1)
    assert loaded.tables["sample"][0]["distances"] == [1.0, 50.0, 10.0, 200.0]
    (tmp_path / "odd.json").write_text(json.dumps([{"text": "x"}]), encoding="utf-8")
    with pytest.raises(ValueError, match=r"odd\.json: neither its name nor its first record's fields"):
        read_released_file(tmp_path / "odd.json")


def _broken(record: dict, path: str, value) -> dict:
    """``record`` with the field at dotted ``path`` set to ``value`` (``...`` deletes it)."""
    record = json.loads(json.dumps(record))
    *parents, last = path.split(".")
    target = record
    for key in parents:
        target = target[int(key)] if isinstance(target, list) else target[key]
    if value is ...:
        del target[last]
    else:
        target[last] = value
    return record


@pytest.mark.parametrize(("name", "records", "message"), [
    ("triplet_hard.json", [TRIPLETS[0], _broken(TRIPLETS[1], "sentence_c", ...)],
     r"triplet_hard\.json: record 1: field 'sentence_c': missing; the record's fields are \['id'"),
    ("triplet_hard.json", [_broken(TRIPLETS[0], "sentence_b.num", "105")],
     r"record 0: field 'sentence_b\.num': '105' is not in its text"),
    ("triplet_hard.json", [_broken(TRIPLETS[0], "sentence_a.text", "")],
     r"record 0: field 'sentence_a\.text': missing or empty"),
    ("triplet_hard.json", [_broken(TRIPLETS[0], "sentence_a", "Revenue of $100 million.")],
     r"record 0: field 'sentence_a': expected an object \{text, num\}, got str"),
    ("listwise.json", [LISTS[0], {**LISTS[1], "candidates": LISTS[1]["candidates"][:1]}],
     r"listwise\.json: record 1: field 'candidates': 1 candidate\(s\); a list needs at least 2"),
    ("listwise.json", [_broken(LISTS[1], "candidates.2.num", None)],
     r"record 0: field 'candidates\[2\]\.num': expected the numeral as written, got None"),
    ("listwise.json", [{**LISTS[0], "gold_order": [0, 1, 1, 3]}],
     r"record 0: field 'gold_order': \[0, 1, 1, 3\] is not an order of the 4 candidate indices 0\.\.3"),
    ("crosspair.json", [{**CROSSPAIRS[0], "gold": "c"}],
     r"crosspair\.json: record 0: field 'gold': 'c' is not one of a, pair_a, 1, b, pair_b, 2"),
    ("crosspair.json", [CROSSPAIRS[0], "pair"], r"crosspair\.json: record 1: expected an object, got str"),
    ("crosspair.json", [{**CROSSPAIRS[0], "pair_id": 1.5}], r"record 0: field 'pair_id': expected a string or an"),
])
def test_malformed_records_name_the_file_the_record_and_the_field(tmp_path, capsys, name, records, message):
    (tmp_path / name).write_text(json.dumps(records), encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        read_release(tmp_path)
    # the build reads through the same checks, and writes nothing
    assert main(["build-data", "numfine", "--released", str(tmp_path / name), "--out", str(tmp_path / "out")]) != 0
    assert re.search(message, capsys.readouterr().err) and not (tmp_path / "out").exists()


@pytest.mark.parametrize(("content", "message"), [
    ('[{"id": 0,\n "sentence_a": }]', r"triplet_easy\.json:2: invalid JSON"),
    ('{"data": []}', r"triplet_easy\.json: expected a JSON list of records, got dict"),
    ("[]", r"triplet_easy\.json: no records"),
])
def test_file_level_errors(tmp_path, content, message):
    bad = tmp_path / "triplet_easy.json"
    bad.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        read_release(bad)


def test_flags_of_a_build_from_sentences_and_twice_the_same_config(tmp_path, capsys):
    bad = write_release(tmp_path / "rel") / "triplet_test.json"
    assert main(["build-data", "numfine", "--released", str(bad), "--out", str(tmp_path / "o"), "--column", "x"]) != 0
    assert "--column only applies to --source" in capsys.readouterr().err
    twice = write_release(tmp_path / "twice")
    (twice / "triplet_test.jsonl").write_text("\n".join(json.dumps(r) for r in TRIPLETS), encoding="utf-8")
    with pytest.raises(ValueError, match=r"two files for config\(s\) \['triplet_test'\]"):
        read_release(twice)


def test_a_num_written_another_way_is_still_stated():
    from nash_metric.benchmarks.numfine.released import num_value, states

    assert states("Headcount reached 1,000 people.", "1000")
    assert not states("Headcount reached 1,000 people.", "1001")
    assert num_value("$1.6 billion") == 1.6e9 and num_value("March") is None


def test_fields_without_a_column_are_named_not_dropped_silently(tmp_path, capsys):
    records = [{**LISTS[0], "note": "checked", "candidates": [{**c, "span": [0, 3]} for c in LISTS[0]["candidates"]]}]
    (tmp_path / "rel").mkdir()
    (tmp_path / "rel" / "listwise.json").write_text(json.dumps(records), encoding="utf-8")
    assert main(["build-data", "numfine", "--released", str(tmp_path / "rel"), "--out", str(tmp_path / "o")]) == 0
    assert "`listwise`: fields not carried (no column for them): candidates[].span, note" in capsys.readouterr().out
    report = json.loads((tmp_path / "o" / "build_report.json").read_text(encoding="utf-8"))
    assert report["configs"][0]["fields_not_carried"] == ["candidates[].span", "note"]


def test_a_licence_given_to_the_build_is_on_the_card(tmp_path):
    out = tmp_path / "built"
    assert main(["build-data", "numfine", "--released", str(write_release(tmp_path / "rel")), "--out", str(out),
                 "--license", "cc-by-4.0"]) == 0
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "license: cc-by-4.0" in card and "`cc-by-4.0`, as given to the build" in card and "Not set" not in card


def test_the_card_of_a_release_build_has_what_every_card_owes(tmp_path):
    """The checks the committed cards pass (tests/unit/test_dataset_cards.py), on a folder built from the release."""
    import pyarrow.parquet as pq
    import yaml

    out = tmp_path / "built"
    assert main(["build-data", "numfine", "--released", str(write_release(tmp_path / "rel")), "--out", str(out)]) == 0
    text = (out / "README.md").read_text(encoding="utf-8")
    meta = yaml.safe_load(text.split("---\n")[1])
    infos = {i["config_name"]: i for i in meta["dataset_info"]}
    for config in meta["configs"]:
        (path,) = [d["path"] for d in config["data_files"]]
        info = infos[config["config_name"]]
        assert info["splits"][0]["num_examples"] == pq.read_metadata(out / path).num_rows
        assert [f["name"] for f in info["features"]] == pq.read_schema(out / path).names
    assert meta["source_datasets"] == ["original"] and meta["license"] == ""
    limitations = text.split("## Bias, risks and limitations")[1].split("## ")[0]
    assert len([line for line in limitations.splitlines() if line.startswith("- ")]) >= 3
    assert "the smallest config, `listwise_test`, has 3 records" in limitations
    assert "huang-etal-2026-nash" in text.split("## Citation")[1]
