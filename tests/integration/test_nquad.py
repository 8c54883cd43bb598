"""NQuAD: reading sources, constructing questions, the published sample, evaluation."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from nash_metric.benchmarks.nquad.construction import BuildConfig, build, mentions
from nash_metric.benchmarks.nquad.evaluation import load_split, stem_agreement, tie_credit
from nash_metric.benchmarks.nquad.source import Article, read_articles

BODY = "公司3月5日公布，营收12.6亿元，同比增长35%。海外业务增长41%，占比25%。毛利率为28.4%。"


def article(i: int, headline: str, content: str = BODY) -> Article:
    return Article(f"a{i:02d}", headline, content, None, f"test:{i}")


def write_jsonl(path: Path, records: list) -> Path:
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in records)
                    + "\n", encoding="utf-8")
    return path


# ---------------------------------------------------------------- sources

def test_read_raw_jsonl(tmp_path):
    path = write_jsonl(tmp_path / "a.jsonl", [{"headline": "增长35%", "content": BODY, "id": 7, "date": "2024-01-01"},
                                              "", {"headline": "增长41%", "content": BODY}])
    a, b = read_articles(path)
    assert (a.id, a.date, b.id, b.date) == ("7", "2024-01-01", "L3", None)


@pytest.mark.parametrize("record, message", [
    ('{"headline": "x"', "a.jsonl:2: invalid JSON"),
    ('["x"]', "a.jsonl:2: expected a JSON object"),
    ('{"content": "x"}', "a.jsonl:2: missing field 'headline'"),
    ('{"headline": "x", "content": "  "}', "a.jsonl:2: empty 'content' field"),
    ('{"headline": 3, "content": "x"}', "a.jsonl:2: field 'headline' must be a string"),
    ('{"headline": "x", "content": "y", "id": "L1x"}', None),
])
def test_raw_jsonl_errors_name_the_line(tmp_path, record, message):
    path = write_jsonl(tmp_path / "a.jsonl", [{"headline": "h", "content": "c"}, record])
    if message is None:
        assert len(read_articles(path)) == 2
        return
    with pytest.raises(ValueError) as err:
        read_articles(path)
    assert message in str(err.value)


def test_duplicate_ids_are_an_error(tmp_path):
    path = write_jsonl(tmp_path / "a.jsonl", [{"headline": "h", "content": "c", "id": "x"}] * 2)
    with pytest.raises(ValueError, match=r"a.jsonl:2: duplicate article id 'x' \(first at .*a.jsonl:1\)"):
        read_articles(path)


def test_release_json_aliases_and_rejections(tmp_path):
    path = tmp_path / "release.json"
    path.write_text(json.dumps({"n1": {"news_title": "增长35%", "news_article": BODY, "time": "2020-01-01"}},
                               ensure_ascii=False), encoding="utf-8")
    (a,) = read_articles(path)
    assert (a.id, a.headline, a.date) == ("n1", "增长35%", "2020-01-01")
    path.write_text(json.dumps({"data": [{"title": "t", "body": "b", "news_id": 5}]}), encoding="utf-8")
    assert read_articles(path)[0].id == "5"
    # the question-level release is read by nquad.questions (tests/unit/test_nquad_questions.py), not as articles
    path.write_text(json.dumps([{"news_article": [BODY], "question_stem": "增长___%", "answer_options": ["35"]}],
                               ensure_ascii=False), encoding="utf-8")
    with pytest.raises(ValueError, match=r"record 0: a question-level record \(has question_stem or answer_options\), "
                                         r"not an article: give the file to `nash build-data nquad --source`"):
        read_articles(path)
    with pytest.raises(ValueError, match="unsupported suffix"):
        read_articles(tmp_path / "x.csv")


# ---------------------------------------------------------------- construction

def test_question_construction_rules():
    articles = [article(0, "星河电子营收增长35%"), article(1, "海外业务增长41%"),
                article(2, "没有数字的标题"), article(3, "增长35%", "只有两个数字：1和2。"),
                article(4, "增长近三成")]  # 三成 = 30 %, body has 28.4 %: a rounding headline
    splits, report = build(articles, BuildConfig(seed=1))
    rows = splits["train"] + splits["test"]
    assert report["articles_read"] == 5 and report["articles_kept"] == 3 and report["questions"] == 3
    assert report["skipped"]["article: no headline numeral"] == 1
    assert report["skipped"]["article: fewer than 4 body numerals"] == 1
    by_id = {r["article_id"]: r for r in rows}
    q = by_id["a00"]
    assert q["stem"] == "星河电子营收增长[MASK]" and q["target"] == "35%"
    # the 4 distinct body values closest to 35: 35, 28.4, 41, 25 (not 12.6亿, 3月, 5日)
    assert sorted(q["option_values"]) == [25.0, 28.4, 35.0, 41.0]
    assert q["options"][q["answer"]] == "35%" and q["exact"]
    assert "同比增长35%" in q["option_sentences"][q["answer"]]
    rounding = by_id["a04"]
    assert rounding["option_values"][rounding["answer"]] == 28.4 and not rounding["exact"]
    assert {r["article_id"] for r in splits["train"]}.isdisjoint({r["article_id"] for r in splits["test"]})


def test_ties_and_far_answers_are_skipped_and_counted():
    body = "数据显示，甲为100%，乙为102%，丙为130%，丁为140%。"
    _, report = build([article(0, "增长101%", body), article(1, "增长190%", body), article(2, "增长102%", body),
                       article(3, "增长130%", body)], BuildConfig())
    assert report["skipped"]["question: two body values equally close to the target"] == 1
    assert report["skipped"]["question: no body value within 0.1 of the target"] == 1
    assert report["questions"] == 2


def test_seeded_shuffle_and_split_are_deterministic_and_vary():
    heads = ["营收增长35%", "增长41%", "占比25%", "毛利率28.4%", "营收12.6亿元"]
    articles = [article(i, heads[i % 5]) for i in range(30)]
    first = build(articles, BuildConfig(seed=3))
    assert build(articles, BuildConfig(seed=3)) == first
    splits, report = first
    assert report["articles_per_split"] == {"train": 24, "test": 6}
    assert len({int(k) for k, v in report["answer_positions"].items() if v}) >= 3
    other, _ = build(articles, BuildConfig(seed=4))
    assert {r["article_id"] for r in other["test"]} != {r["article_id"] for r in splits["test"]}


def test_build_config_validation():
    with pytest.raises(ValueError, match="test_fraction"):
        BuildConfig(test_fraction=1.0)
    with pytest.raises(ValueError, match="min_body_numerals"):
        BuildConfig(min_body_numerals=3)


def test_mentions_merge_prefers_longest_span():
    assert [(m.text, m.value) for m in mentions("净利润3億元，同比增长18.2%")] == [("3億元", 3e8), ("18.2%", 18.2)]


# ---------------------------------------------------------------- the published sample

def test_sample_loads_with_load_dataset(tmp_path, monkeypatch, data_paths):
    datasets = pytest.importorskip("datasets")
    sample = data_paths.dataset("nquad")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.chdir(data_paths.repo)
    assert not (sample / "nquad.py").exists(), "a <folder>.py makes datasets 5.x refuse the folder"
    assert not list(data_paths.datasets_dir.rglob("__init__.py"))
    ds = datasets.load_dataset("datasets/nquad", cache_dir=str(tmp_path))
    assert set(ds) == {"train", "test"} and ds["test"].num_rows > 0
    train_ids, test_ids = set(ds["train"]["article_id"]), set(ds["test"]["article_id"])
    assert train_ids.isdisjoint(test_ids)
    for split in ("train", "test"):
        for r in ds[split]:
            values = r["option_values"]
            assert len(r["options"]) == len(r["option_sentences"]) == 4 and len(set(values)) == 4
            answer = values[r["answer"]]
            assert min(values, key=lambda v: abs(v - r["target_value"])) == answer
            assert "[MASK]" in r["stem"] and r["target"] not in r["stem"].replace("[MASK]", "\0")
    assert len(set(ds["train"]["answer"])) == 4


def test_sample_is_reproducible_from_its_source(tmp_path, data_paths):
    sample = data_paths.dataset("nquad")
    splits, report = build(read_articles(sample / "source" / "articles.jsonl"), BuildConfig(seed=0))
    assert len(read_articles(sample / "source" / "articles.jsonl")) >= 30
    for split in ("train", "test"):
        assert load_split(sample, split) == splits[split]
    assert json.loads((sample / "build_report.json").read_text())["questions"] == report["questions"]


def test_builder_class_generates_the_same_rows(tmp_path, monkeypatch, data_paths):
    import importlib.util

    sample = data_paths.dataset("nquad")
    spec = importlib.util.spec_from_file_location("nquad_builder", sample / "nquad_builder.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "nquad_builder", module)
    spec.loader.exec_module(module)
    builder = module.NQuAD(cache_dir=str(tmp_path))
    builder.download_and_prepare()
    ds = builder.as_dataset()
    assert ds["test"]["id"] == [r["id"] for r in load_split(sample, "test")]


def test_cli_build_data(tmp_path):
    from nash_metric.cli import main

    src = write_jsonl(tmp_path / "a.jsonl", [{"headline": h, "content": BODY} for h in ("增长35%", "占比25%")])
    assert main(["build-data", "nquad", "--source", str(src), "--out", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "data" / "test-00000-of-00001.parquet").is_file()
    assert json.loads((tmp_path / "out" / "build_report.json").read_text())["questions"] == 2
    assert main(["build-data", "nquad", "--source", str(tmp_path / "missing.jsonl"), "--out", str(tmp_path)]) == 2


# ---------------------------------------------------------------- evaluation

def test_tie_credit_is_the_expected_random_tie_break():
    assert tie_credit(np.array([0.1, 0.9, 0.3, 0.2]), 1) == 1.0
    assert tie_credit(np.array([0.1, 0.9, 0.3, 0.2]), 0) == 0.0
    assert tie_credit(np.array([0.5, 0.5, 0.5, 0.5]), 2) == 0.25
    assert tie_credit(np.array([0.7, 0.7, 0.1, 0.2]), 1) == 0.5


def test_stem_agreement_uses_other_stem_numbers():
    row = {"stem": "利率从3.2%升至[MASK]，8月", "options": ["3.4%", "9.8%", "7月", "12%"],
           "option_values": [3.4, 9.8, 7.0, 12.0]}
    same = stem_agreement([row], same_kind=True)[0]
    assert same[0] > same[1] > same[3] > 0 and same[2] > 0   # 7月 is compared with 8月 only
    assert same[2] == pytest.approx(1 / (1 + 1 / 8.5))
    everything = stem_agreement([row], same_kind=False)[0]
    assert everything[2] != same[2]
    assert not stem_agreement([{**row, "stem": "利率升至[MASK]"}], same_kind=False).any()


def test_load_split_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="no test-"):
        load_split(tmp_path, "test")


@pytest.mark.slow
def test_bench_cli_on_the_sample(tmp_path, capsys, data_paths):
    from nash_metric.cli import main

    sample = data_paths.dataset("nquad")
    out = tmp_path / "nquad.json"
    assert main(["bench", "nquad", "--data", str(sample), "--split", "test", "--limit", "4",
                 "--backend", "sentence", "--output", str(out)]) == 0
    result = json.loads(out.read_text())
    systems = {r["system"]: r for r in result["results"]["systems"]}
    assert {"cosine (char)", "MLIPNS (char)", "cosine (sentence)", "NASH (sentence)"} <= set(systems)
    assert all(0.0 <= r["accuracy"] <= 1.0 and r["n"] == 4 for r in systems.values())
    assert result["config"]["scorers"]["sentence"]["backend"] == "sentence"
    assert "not the official NQuAD data" in capsys.readouterr().out
