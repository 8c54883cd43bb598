"""EmbedNum-1K: seed questions, construction invariants (checked by parsing the text), formats,
sources and their errors, the published folder (load_dataset, builder), evaluation tables."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from nash_metric.benchmarks.embednum.configs import (
    ALL_CONFIGS,
    CANDIDATE_CONFIGS,
    CURRENCY_RATES,
    PAPER_FORMATS,
    TRIPLE_CONFIGS,
)
from nash_metric.benchmarks.embednum.construction import build_embednum, write_parquet
from nash_metric.benchmarks.embednum.dataset import load_data
from nash_metric.benchmarks.embednum.evaluation import evaluate, plot_heatmap, summarize, tables
from nash_metric.benchmarks.embednum.sources import holds, load_released, load_seeds
from nash_metric.common.io import InputFileError
from nash_metric.numbers import extract_numbers, mask_numbers
from nash_metric.numbers.comparisons import find_constraints


@pytest.fixture(scope="module")
def seeds():
    return load_seeds()


@pytest.fixture(scope="module")
def small(seeds):
    return build_embednum(seeds, n=24, seed=3, n_candidate_questions=6)


def only_number(text: str) -> float:
    ms = extract_numbers(text)
    assert len(ms) == 1, f"{text!r} parses as {[m.text for m in ms]}"
    assert ms[0].value is not None, ms[0].error
    return ms[0].value


def check_triple(row: dict) -> None:
    """The condition read off the TEXT: A+ satisfies it, A− violates it, fields agree with the text."""
    q_mentions = extract_numbers(row["question"])
    assert len(q_mentions) == 1, row["id"]
    (constraint,) = find_constraints(row["question"], q_mentions)
    threshold = q_mentions[0].value
    assert constraint.op == row["op"], row["id"]
    pos, neg = only_number(row["positive"]), only_number(row["negative"])
    assert holds(constraint.op, pos, threshold), row["id"]
    assert not holds(constraint.op, neg, threshold), row["id"]
    assert (threshold, pos, neg) == pytest.approx((row["threshold"], row["positive_value"], row["negative_value"]),
                                                  rel=1e-12), row["id"]


def check_candidates(row: dict) -> None:
    q_mentions = extract_numbers(row["question"])
    (constraint,) = find_constraints(row["question"], q_mentions)
    values = [only_number(c) for c in row["candidates"]]
    assert values == pytest.approx(row["candidate_values"])
    assert [int(holds(constraint.op, v, q_mentions[0].value)) for v in values] == list(row["labels"]), row["id"]
    assert sum(row["labels"]) == len(values) // 2


# -- seed questions -----------------------------------------------------------------------------------
def test_seed_questions_are_many_varied_and_balanced(seeds):
    assert len(seeds) >= 60
    directions = Counter(t.direction for t in seeds)
    assert directions["above"] == directions["below"]
    assert len({t.cue.lower() for t in seeds}) >= 12  # varied comparison wording
    assert {t.unit for t in seeds} == {"plain", "percent", "money"}
    assert len({t.question.split()[0] for t in seeds}) >= 3  # "Which", "List", "Show", "Find"
    money = Counter(t.direction for t in seeds if t.unit == "money")
    assert money["above"] == money["below"] > 0


# -- construction invariants --------------------------------------------------------------------------
def test_every_row_of_every_config_satisfies_and_violates_by_parsing(small):
    assert set(small) == set(ALL_CONFIGS)
    for config, rows in small.items():
        for row in rows:
            (check_candidates if config in CANDIDATE_CONFIGS else check_triple)(row)


@pytest.mark.slow  # every row of every config
def test_published_sample_all_rows_by_parsing(data_paths):
    """The must-show: every row of the built folder, every config, checked from the text alone."""
    folder = data_paths.dataset("embednum1k")
    data = load_data(folder)
    assert set(data) == set(ALL_CONFIGS)
    for config, rows in data.items():
        assert len(rows) == (200 if config in CANDIDATE_CONFIGS else 1000), config
        for row in rows:
            (check_candidates if config in CANDIDATE_CONFIGS else check_triple)(row)


def test_balance_distance_and_only_the_number_differs(small):
    for config in TRIPLE_CONFIGS:
        rows = small[config]
        assert Counter(r["direction"] for r in rows) == {"above": 12, "below": 12}, config
        for r in rows:
            # Same distance on both sides (currency rounding to cents keeps it exact for these rates).
            assert abs(r["positive_value"] - r["threshold"]) == pytest.approx(
                abs(r["negative_value"] - r["threshold"]), rel=1e-9), r["id"]
            assert mask_numbers(r["positive"])[0] == mask_numbers(r["negative"])[0], r["id"]
            assert 0.0 < r["relative_distance"] <= 0.75, r["id"]
    # The controlled distance r ~ U(0.1, 0.5) survives rounding on the wide grids.
    assert 0.2 < np.mean([r["relative_distance"] for r in small["a4"]]) < 0.4


def test_configs_share_templates_row_by_row(small):
    for config in TRIPLE_CONFIGS:
        if not config.startswith("currency_"):
            assert [r["seed_id"] for r in small[config]] == [r["seed_id"] for r in small["orig"]], config
    assert all(r["unit"] == "money" for r in small["currency_usd"])


def test_determinism_and_seed(seeds):
    a = build_embednum(seeds, n=10, seed=7, configs=["orig", "b3", "candidates_10"], n_candidate_questions=3)
    b = build_embednum(seeds, n=10, seed=7, configs=["orig", "b3", "candidates_10"], n_candidate_questions=3)
    c = build_embednum(seeds, n=10, seed=8, configs=["orig", "b3", "candidates_10"], n_candidate_questions=3)
    assert a == b
    assert a["orig"] != c["orig"]
    # A format's draws do not depend on which other configs are built.
    assert build_embednum(seeds, n=10, seed=7, configs=["b3"])["b3"] == a["b3"]


def _numbers(rows):
    return [r[k] for r in rows for k in ("threshold_text", "positive_text", "negative_text")]


@pytest.mark.parametrize("config", (*PAPER_FORMATS, "extreme_large", "extreme_small", "written", "context_reduced"))
def test_format_shapes(small, config):
    texts = _numbers(small[config])
    digits = {"a1": r"[1-9]", "a2": r"[1-9]\d", "a3": r"[1-9]\d\d", "a4": r"[1-9]\d{3}", "orig": r"[1-9]\d{0,2}",
              "b1": r"\d{1,3}\.\d*[1-9]", "b2": r"\d{1,3}\.\d[1-9]", "b3": r"\d{1,3}\.\d\d[1-9]",
              "b4": r"\d{1,3}\.\d{3}[1-9]", "c1": r"0\.[1-9]", "c2": r"0\.0[1-9]", "c3": r"0\.00[1-9]",
              "d1": r"[1-9]0", "d2": r"[1-9]00", "d3": r"[1-9]000", "e1": r"[1-9] percentage", "e2": r"[1-9]%",
              "e3": r"[1-9],\d{3}", "extreme_large": r"[1-9]\d{0,2}0{30}", "extreme_small": r"0\.0{27,29}[1-9]\d*",
              "written": r"[a-z -]+", "context_reduced": r"[1-9]\d{0,2}"}[config]
    for text in texts:
        core = text if config in ("e1", "e2") else re.sub(r"^\$|%$| percent$| dollars$", "", text)
        assert re.fullmatch(digits, core), (config, text)
    if config == "b1":  # exactly one decimal place
        assert all(re.fullmatch(r"\d+\.\d", re.sub(r"^\$|%$", "", t)) for t in texts)
    if config == "context_reduced":
        assert all(r["question"].startswith("Which number is ") for r in small[config])


def test_derived_formats_scale_their_source(small):
    for k, a1 in enumerate(small["a1"]):
        for name, factor in (("c1", 0.1), ("c2", 0.01), ("c3", 0.001), ("d1", 10), ("d2", 100), ("d3", 1000)):
            row = small[name][k]
            assert row["threshold"] == pytest.approx(a1["threshold"] * factor, rel=1e-12)
            assert row["positive_value"] == pytest.approx(a1["positive_value"] * factor, rel=1e-12)
        assert small["e2"][k]["threshold"] == a1["threshold"]
    for k, row in enumerate(small["orig"]):
        assert small["extreme_large"][k]["threshold"] == pytest.approx(row["threshold"] * 1e30, rel=1e-12)
        assert small["extreme_small"][k]["threshold"] == pytest.approx(row["threshold"] * 1e-30, rel=1e-12)


def test_currency_rates_and_symbols(small):
    usd = small["currency_usd"]
    for cur, symbol in (("eur", "€"), ("jpy", "¥"), ("cny", "CNY ")):
        for k, row in enumerate(small[f"currency_{cur}"]):
            assert row["question"].count(symbol) == 1
            assert row["threshold"] == pytest.approx(usd[k]["threshold"] * float(CURRENCY_RATES[cur]), rel=1e-12)
            m = extract_numbers(row["positive"])[0]
            assert m.kind == "monetary" and m.unit == cur.upper()


# -- sources and errors -------------------------------------------------------------------------------
def _write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


GOOD_SEED = {"id": "x", "question": "Which stocks trade above {threshold}?", "answer": "{entity} trades at {value}.",
             "op": ">", "unit": "plain"}


@pytest.mark.parametrize(("change", "message"), [
    ({"op": "<"}, r":1: field 'op' is '<' but the question's cue 'above' means '>'"),
    ({"question": "Which of 3 stocks trade above {threshold}?"}, r":1: field 'question' must hold exactly one"),
    ({"question": "Which stocks trade near {threshold}?"}, r":1: field 'question': no one-sided comparison"),
    ({"answer": "{entity} trades at {value} after 2 days."}, r":1: field 'answer' must hold exactly one"),
    ({"answer": "{entity} trades above {value}."}, r":1: field 'answer' must not state a comparison"),
    ({"unit": "yen"}, r":1: field 'unit' must be one of"),
    ({"answer": "{entity} trades."}, r":1: field 'answer' must contain '\{value\}' exactly once"),
    ({"extra": 1}, r":1: unknown field\(s\) \['extra'\]"),
])
def test_seed_errors_name_file_line_and_field(tmp_path, change, message):
    path = _write(tmp_path / "seeds.jsonl", [{**GOOD_SEED, **change}])
    with pytest.raises(InputFileError, match=message):
        load_seeds(path)


def test_seed_errors_duplicates_and_missing_direction(tmp_path):
    path = _write(tmp_path / "s.jsonl", [GOOD_SEED, GOOD_SEED])
    with pytest.raises(InputFileError, match=r"s.jsonl:2: field 'id': 'x' already used on line 1"):
        load_seeds(path)
    with pytest.raises(InputFileError, match="no seed question with direction 'below'"):
        load_seeds(_write(tmp_path / "t.jsonl", [GOOD_SEED]))


RELEASED = [
    {"question": "Which stocks have a P/E ratio above 200?", "positive": "Stock ABC has a P/E ratio of 220.",
     "negative": "Stock ABC has a P/E ratio of 180."},
    {"question": "Which funds charge fees below 2%?", "positive": "Fund Z charges fees of 1.5%.",
     "negative": "Fund Z charges fees of 2.5%."},
    {"question": "Which stocks closed at no less than $40?", "positive": "XYZ closed at $44.",
     "negative": "XYZ closed at $36."},
    {"question": "Which stocks closed below $40?", "positive": "XYZ closed at $30.", "negative": "XYZ closed at $50."},
]


def test_released_file_roundtrip(tmp_path):
    path = _write(tmp_path / "released.jsonl", RELEASED)
    released = load_released(path)
    assert [r.template.op for r in released] == [">", "<", ">=", "<"]
    assert released[0].template.question == "Which stocks have a P/E ratio above {threshold}?"
    data = build_embednum([r.template for r in released], n=4, seed=0, released=released,
                          configs=["orig", "a2", "currency_eur"])
    assert [r["question"] for r in data["orig"]] == [r["question"] for r in RELEASED]  # verbatim
    assert [r["positive_value"] for r in data["orig"]] == [220.0, 1.5, 44.0, 30.0]
    for config in data:
        for row in data[config]:
            check_triple(row)


@pytest.mark.parametrize(("record", "message"), [
    ({**RELEASED[0], "positive": "Stock ABC has a P/E ratio of 190."}, r"r.jsonl:1: positive value '190' does not"),
    ({**RELEASED[0], "negative": "Stock ABC has a P/E ratio of 230."}, r"r.jsonl:1: negative value '230' satisfies"),
    ({**RELEASED[0], "negative": "Stock XYZ has a P/E ratio of 180."}, r"r.jsonl:1: positive and negative must differ"),
    ({"question": "Which?", "positive": "a 1", "negative": "a 2"}, r"r.jsonl:1: question must hold exactly one"),
    ({"query": "Which stocks above 200?", "pos": "A 220", "other": "x"}, r"r.jsonl:1: missing field for negative"),
])
def test_released_errors(tmp_path, record, message):
    with pytest.raises(InputFileError, match=message):
        load_released(_write(tmp_path / "r.jsonl", [record]))


def test_build_rejects_bad_arguments(seeds):
    with pytest.raises(ValueError, match="unknown EmbedNum-1K config"):
        build_embednum(seeds, n=4, configs=["f9"])
    with pytest.raises(ValueError, match="n must be at least 2"):
        build_embednum(seeds, n=1)


# -- published folder ---------------------------------------------------------------------------------
def test_load_dataset_every_config(tmp_path, data_paths):
    datasets = pytest.importorskip("datasets")
    folder = data_paths.dataset("embednum1k")
    # Prepared (Arrow cache) loads of a few configs; every config through the same resolution, streamed
    # (no cache written), to keep the suite fast.
    for config in ("orig", "e3", "candidates_100"):
        ds = datasets.load_dataset(str(folder), config, split="test", cache_dir=str(tmp_path))
        assert ds.num_rows == (200 if config in CANDIDATE_CONFIGS else 1000), config
        assert ds[0]["config"] == config
    for config in ALL_CONFIGS:
        ds = datasets.load_dataset(str(folder), config, split="test", streaming=True)
        assert next(iter(ds))["id"] == f"{config}-0000"
    assert not (folder / "embednum1k.py").exists()  # a script named like the folder breaks loading


def test_card_matches_the_data(data_paths):
    folder = data_paths.dataset("embednum1k")
    card = (folder / "README.md").read_text(encoding="utf-8")
    for config in ALL_CONFIGS:
        assert f"- config_name: {config}\n" in card
        assert pq.read_metadata(folder / "data" / f"{config}.parquet").num_rows > 0
    assert "license: cc-by-4.0" in card


def test_builder_class_generates_a_config(tmp_path, monkeypatch, data_paths):
    folder = data_paths.dataset("embednum1k")
    spec = importlib.util.spec_from_file_location("embednum1k_builder", folder / "embednum1k_builder.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # datasets re-imports the builder's module by name
    spec.loader.exec_module(module)
    builder = module.EmbedNum1K(config_name="e3", n=6, seed=0, cache_dir=str(tmp_path))
    builder.download_and_prepare()
    rows = builder.as_dataset(split="test").to_list()
    assert rows == build_embednum(load_seeds(), n=6, seed=0, configs=["e3"])["e3"]
    # The published file is the same construction at n=1000.
    assert load_data(folder, ["orig"])["orig"] == build_embednum(load_seeds(), n=1000, seed=0, configs=["orig"])["orig"]


def test_cli_build_then_load(tmp_path):
    from nash_metric.cli import main

    assert main(["build-data", "embednum1k", "--out", str(tmp_path), "--n", "8", "--candidate-questions", "2",
                 "--configs", "orig", "c2", "candidates_10"]) == 0
    data = load_data(tmp_path)
    assert {c: len(r) for c, r in data.items()} == {"orig": 8, "c2": 8, "candidates_10": 2}
    assert main(["build-data", "embednum1k", "--out", str(tmp_path), "--source", str(tmp_path / "nope.jsonl")]) == 2


# -- evaluation ---------------------------------------------------------------------------------------
def test_summarize_hand_checked(small):
    data = {"orig": small["orig"][:4], "candidates_10": small["candidates_10"][:2]}
    # orig: pairs (A+, A−) per row; row 0 right, row 1 tie (wrong), rows 2-3 wrong/right.
    trip = np.array([0.9, 0.1, 0.5, 0.5, 0.2, 0.3, 0.7, 0.6])
    cand = np.concatenate([np.array(r["labels"], float) for r in data["candidates_10"]])  # perfect ranking
    summary = summarize(data, {"cos": np.concatenate([trip, cand])})
    entry = summary["triples"]["orig"]["cos"]
    assert entry["accuracy"] == 0.5 and entry["ties"] == 1
    dirs = [r["direction"] for r in data["orig"]]
    assert dirs == ["above", "below", "above", "below"]
    assert (entry["above"], entry["below"]) == (0.5, 0.5)
    assert summary["candidates"]["candidates_10"]["cos"] == {"P@1": 1.0, "P@5": 1.0}
    text = tables(summary)
    assert "| orig" in text and "P@5" in text and "mean (1 paper formats)" in text


def test_plot_heatmap(small, tmp_path):
    summary = summarize({"a1": small["a1"][:2]}, {"x": np.array([1.0, 0.0, 0.0, 1.0]), "y": np.zeros(4)})
    path = plot_heatmap(summary, tmp_path / "h.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_bench_end_to_end_real_model(tmp_path, seeds):
    from nash_metric.scorer import NASH

    write_parquet(build_embednum(seeds, n=6, seed=0, configs=["orig", "c3", "candidates_10"],
                                 n_candidate_questions=2), tmp_path)
    result = evaluate(lambda comparisons: NASH(comparisons=comparisons), tmp_path, show_progress=False)
    s = result["results"]
    assert s["columns"] == ["cosine", "BERTScore", "NASH", "NASH+cmp"]
    for config in ("orig", "c3"):
        assert s["triples"][config]["NASH+cmp"]["accuracy"] == 1.0
    assert s["candidates"]["candidates_10"]["NASH+cmp"]["P@5"] == 1.0
    # Equidistant answers: plain NASH prefers the larger number (where the figures align), so it gets "above" mostly
    # right and "below" wrong.
    plain = s["above_below_paper_formats"]["NASH"]
    assert plain["above"] > 0.5 and plain["below"] == 0.0
