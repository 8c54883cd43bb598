"""NQuAD's question-level release (NQuAD_train.json / NQuAD_test.json): reading, splits, errors, the CLI build.

The records below are fictional Chinese finance news written for these tests, in the release's layout.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from nash_metric.benchmarks.nquad.questions import join_sentences, numeral_value
from nash_metric.cli import main

SENTENCES = "sentences_containing_the_numeral_in_answer_options"
XINGHE = ["星河电子3月12日公布，去年营收12.6亿元，同比增长35%。", "海外业务增长41%，占比25%，毛利率接近三成。"]
JINQIAO = ["金桥银行公布，今年将新设5家分行，5家分行均位于华东，员工增至3200人。",
           "该行不良贷款率降至1.2%，拨备覆盖率为210%，较上年提高10个百分点。"]
YUANHANG = ["远航物流2024年净利润2.5亿元，每股派息0.8元。", "公司计划未来三年投资15亿元扩建仓储。"]
DONGFANG = ["东方能源一季度发电量增长18%，装机容量达到450万千瓦。", "公司预计全年发电量增幅在15%至20%之间。"]


def record(article, stem, options, ans, target, sentences) -> dict:
    return {"news_article": article, "question_stem": stem, "answer_options": options, "ans": ans,
            "target_num": target, SENTENCES: sentences}


def train_records() -> list[dict]:
    """Two articles: Xinghe with 2 questions (one with Chinese-numeral options), Jinqiao whose target_num 五
    answers the option 5."""
    return [
        record(XINGHE, "星河电子营收增长___%   ", ["25", "28.4", "35", "41"], 2, "35",
               [["占比25%"], ["毛利率为28.4%"], ["去年营收12.6亿元，同比增长35%"], ["海外业务增长41%"]]),
        record(XINGHE, "星河电子毛利率近___成", ["两", "三", "四", "五"], 1, "三",
               [["占比25%"], ["毛利率接近三成"], ["海外业务增长41%"], ["同比增长35%"]]),
        record(JINQIAO, "金桥银行今年新设___家分行", ["1.2", "5", "210", "3200"], 1, "五",
               [["该行不良贷款率降至1.2%"], ["今年将新设5家分行", "5家分行均位于华东"],
                ["拨备覆盖率为210%。", "较上年提高10个百分点"], ["员工增至3200人"]]),
    ]


def release_test_records() -> list[dict]:
    """Two articles; Yuanhang's options are partly numbers and its ans a digit string, as in some copies."""
    return [
        record(YUANHANG, "远航物流净利润___亿元", [0.8, "2.50", 3, 15], "1", "2.5",
               [["每股派息0.8元"], ["远航物流2024年净利润2.5亿元"], ["公司计划未来三年投资15亿元扩建仓储"],
                ["公司计划未来三年投资15亿元扩建仓储"]]),
        record(DONGFANG, "东方能源一季度发电量增长___%", ["15", "18", "20", "450"], 1, "18",
               [["公司预计全年发电量增幅在15%至20%之间"], ["东方能源一季度发电量增长18%"],
                ["公司预计全年发电量增幅在15%至20%之间"], ["装机容量达到450万千瓦"]]),
    ]


def write_json(path: Path, data) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


@pytest.fixture
def release(tmp_path) -> tuple[Path, Path]:
    """(train file, test file) of the fictional release, in tmp_path/release/."""
    return (write_json(tmp_path / "release" / "NQuAD_train.json", train_records()),
            write_json(tmp_path / "release" / "NQuAD_test.json", release_test_records()))


def build(*sources: Path, out: Path, extra: tuple[str, ...] = ()) -> dict:
    """`nash build-data nquad --source ... --out OUT` (exit 0 asserted); the build report."""
    args = ["build-data", "nquad", *[a for s in sources for a in ("--source", str(s))], "--out", str(out), *extra]
    assert main(args) == 0
    return json.loads((out / "build_report.json").read_text(encoding="utf-8"))


def load(out: Path, cache: Path):
    from datasets import load_dataset

    return load_dataset(str(out), cache_dir=str(cache))


def rows_by_stem(ds) -> dict[str, dict]:
    return {r["stem"]: r for split in ds.values() for r in split}


# ---------------------------------------------------------------- the build, field by field

def test_train_and_test_files_keep_their_splits_and_map_every_field(tmp_path, release):
    train, test = release
    report = build(train, test, out=tmp_path / "out")
    ds = load(tmp_path / "out", tmp_path / "cache")
    assert (ds["train"].num_rows, ds["test"].num_rows) == (3, 2)
    assert report["questions_per_split"] == {"train": 3, "test": 2} and report["questions_read"] == 5
    assert report["source_layout"] == "question-level release" and report["split_by"] == "file name"
    assert report["files"] == {"train": [str(train)], "test": [str(test)]} and report["skipped"] == {}
    rows = rows_by_stem(ds)
    q = rows["星河电子营收增长[MASK]%"]  # the stem is stripped, its blank masked
    assert q["headline"] == "星河电子营收增长35%" and q["answer"] == 2 and q["options"][q["answer"]] == "35"
    assert (q["target"], q["target_value"], q["target_kind"], q["exact"]) == ("35", 35.0, "percentage", True)
    assert q["option_values"] == [25.0, 28.4, 35.0, 41.0] and q["date"] == ""
    assert q["option_sentence_lists"][2] == ["去年营收12.6亿元，同比增长35%"]
    assert q["avg_option_diff"] == pytest.approx((10 + 6.6 + 6) / 3 / 35)
    chinese = rows["星河电子毛利率近[MASK]成"]
    assert chinese["option_values"] == [2.0, 3.0, 4.0, 5.0] and chinese["headline"] == "星河电子毛利率近三成"
    assert chinese["target_kind"] == "percentage"  # 三成 as the reader sees it in the headline
    assert chinese["article_id"] == q["article_id"] and {chinese["id"], q["id"]} == {f"{q['article_id']}-{k}"
                                                                                        for k in (0, 1)}
    bank = rows["金桥银行今年新设[MASK]家分行"]
    assert (bank["target"], bank["target_value"], bank["options"][bank["answer"]]) == ("五", 5.0, "5")
    assert bank["option_sentences"][1] == "今年将新设5家分行。5家分行均位于华东"  # joined with 。
    assert bank["option_sentences"][2] == "拨备覆盖率为210%。较上年提高10个百分点"  # no 。 after 。
    assert bank["option_sentence_lists"][1] == ["今年将新设5家分行", "5家分行均位于华东"]
    numbers = rows["远航物流净利润[MASK]亿元"]
    assert numbers["options"] == ["0.8", "2.50", "3", "15"] and numbers["answer"] == 1
    assert numbers["headline"] == "远航物流净利润2.50亿元" and numbers["target_kind"] == "monetary"


def test_the_card_says_the_questions_are_the_releases(tmp_path, release):
    build(*release, out=tmp_path / "out")
    card = (tmp_path / "out" / "README.md").read_text(encoding="utf-8")
    construction = card.split("## Construction", 1)[1].split("## Evaluation", 1)[0]
    assert "The questions are the release's, not constructed by nash-metric's rules" in construction
    assert "NQuAD_train.json" in construction and "NQuAD_test.json" in construction
    assert "closest to the target" not in construction and "seeded random order" not in card
    assert "| `option_sentence_lists` | list[list[string]] | each option's sentences as released |" in card
    assert f"--source {release[0]} --source {release[1]} --out DIR --seed 0" in card
    assert re.search(r"\| source layout +\| question-level release, split by file name +\|", card)


def test_a_single_file_is_split_by_article(tmp_path, release):
    alone = write_json(tmp_path / "all_questions.json", train_records() + release_test_records())
    report = build(alone, out=tmp_path / "out", extra=("--seed", "3", "--test-fraction", "0.5"))
    ds = load(tmp_path / "out", tmp_path / "cache")
    assert ds["train"].num_rows + ds["test"].num_rows == 5 and report["split_by"].startswith("article")
    assert report["articles_per_split"] == {"train": 2, "test": 2} and report["articles_in_both_splits"] == 0
    assert set(ds["train"]["article_id"]).isdisjoint(ds["test"]["article_id"])
    assert report["files"] == {"train": [str(alone)], "test": [str(alone)]}


def test_a_folder_takes_its_release_files_and_says_what_it_skipped(tmp_path, release, capsys):
    folder = release[0].parent
    (folder / "notes.txt").write_text("读我", encoding="utf-8")
    write_json(folder / "articles.json", [{"headline": "营收增长35%", "content": "营收增长35%。"}])
    report = build(folder, out=tmp_path / "out")
    err = capsys.readouterr().err
    assert f"NQuAD {folder}: took NQuAD_test.json, NQuAD_train.json" in err
    assert "skipped articles.json (not question-level: no record with question_stem or answer_options), " \
           "notes.txt (not a .json file)" in err
    assert report["questions_per_split"] == {"train": 3, "test": 2} and report["source"] == [str(folder)]


def test_left_out_questions_are_counted(tmp_path, release):
    sentences = release_test_records()[0][SENTENCES]
    bad = [record(YUANHANG, "远航物流派息___元", ["0.8", "2.5", "3", "15"], 0, "0.9", sentences),
           record(YUANHANG, "远航物流投资___亿元", ["三", "3", "15", "2.5"], 2, "15", sentences),
           record(YUANHANG, "远航物流第___季度", ["数百", "3", "15", "2.5"], 1, "3", sentences)]
    write_json(release[1], release_test_records() + bad)
    report = build(*release, out=tmp_path / "out")
    assert report["skipped"] == {"question: an option has no numeric value": 1,
                                 "question: options are not 4 distinct values": 1,
                                 "question: target_num disagrees by value with the answer option": 1}
    assert (report["questions_read"], report["questions_kept"], report["questions"]) == (8, 5, 5)
    md = (tmp_path / "out" / "build_report.md").read_text(encoding="utf-8")
    assert re.search(r"\| skipped: question: target_num disagrees by value with the answer option +\| 1 +\|", md)
    ids = load(tmp_path / "out", tmp_path / "cache")["test"]["id"]
    assert len(ids) == len(set(ids)) == 2


# ---------------------------------------------------------------- errors

def _broken(field_change) -> list[dict]:
    records = copy.deepcopy(train_records())
    field_change(records[1])
    return records


@pytest.mark.parametrize("change, message", [
    (lambda r: r.pop("question_stem"),
     "record 1: missing field 'question_stem'; fields are ['ans', 'answer_options', "),
    (lambda r: r.update(ans=4), "record 1: field 'ans' is 4, outside 0..3"),
    (lambda r: r.update(ans="two"), "record 1: field 'ans' must be an integer in 0..3, got 'two'"),
    (lambda r: r.update(question_stem="星河电子毛利率近三成"),
     "record 1: field 'question_stem' must hold one '___' blank, found 0: '星河电子毛利率近三成'"),
    (lambda r: r["answer_options"].pop(),
     "record 1: field 'answer_options' must be a list of 4 options, got 3 entries"),
    (lambda r: r[SENTENCES].__setitem__(2, []),
     f"record 1: field '{SENTENCES}' entry 2 (option '四') is empty: each option needs its sentences"),
    (lambda r: r[SENTENCES].pop(), f"record 1: field '{SENTENCES}' must hold one sentence list per option (4), got 3"),
    (lambda r: r.update(news_article="星河电子"), "record 1: field 'news_article' must be a non-empty list of strings"),
])
def test_malformed_records_name_file_record_and_field(tmp_path, capsys, change, message):
    path = write_json(tmp_path / "NQuAD_train.json", _broken(change))
    assert main(["build-data", "nquad", "--source", str(path), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert f"nash: error: {path} {message}" in err


def test_invalid_json_names_file_and_line(tmp_path, capsys):
    path = tmp_path / "NQuAD_train.json"
    path.write_text('[\n {"question_stem": "营收增长___%",\n "ans": 1,,\n}]', encoding="utf-8")
    assert main(["build-data", "nquad", "--source", str(path), "--out", str(tmp_path / "out")]) == 2
    assert f"nash: error: {path}:3: invalid JSON: Expecting property name enclosed in double quotes" in \
        capsys.readouterr().err


def test_a_record_that_is_not_an_object(tmp_path):
    from nash_metric.benchmarks import registry

    path = write_json(tmp_path / "q.json", [*train_records(), ["不是对象"]])
    with pytest.raises(ValueError, match=r"q.json record 3: expected a question object, got list"):
        registry["nquad"].build(tmp_path / "out", source=path)


@pytest.mark.parametrize("names, message", [
    (("a_train.json", "b_train.json"), "two question-level files for the train split: .*a_train.json and "),
    (("NQuAD_train.json", "extra.json"), r"extra.json: its name holds neither 'train' nor 'test'"),
    (("train_test.json", "NQuAD_test.json"), r"train_test.json: its name holds both 'train' and 'test'"),
    (("NQuAD_train.json",), None),  # alone: split by article, no name needed
])
def test_split_names(tmp_path, names, message):
    from nash_metric.benchmarks import registry

    paths = [write_json(tmp_path / name, train_records()) for name in names]
    if message is None:
        assert registry["nquad"].build(tmp_path / "out", source=paths)["split_by"].startswith("article")
        return
    with pytest.raises(ValueError, match=message):
        registry["nquad"].build(tmp_path / "out", source=paths)


def test_a_folder_needs_both_splits_and_one_kind_per_build(tmp_path, release):
    from nash_metric.benchmarks import registry

    release[1].unlink()
    with pytest.raises(ValueError, match="no question-level file for the test split"):
        registry["nquad"].build(tmp_path / "out", source=release[0].parent)
    articles = tmp_path / "a.jsonl"
    articles.write_text(json.dumps({"headline": "增长35%", "content": "增长35%。"}, ensure_ascii=False) + "\n")
    with pytest.raises(ValueError, match=r"--source mixes question-level files \(.*NQuAD_train.json\) with "
                                         r"article-level ones \(.*a.jsonl\): build from one kind"):
        registry["nquad"].build(tmp_path / "out", source=[release[0], articles])


# ---------------------------------------------------------------- reading helpers

@pytest.mark.parametrize("text, value", [("5", 5.0), ("五", 5.0), ("2.50", 2.5), ("三成", 30.0), ("1,200", 1200.0),
                                         ("35%", 35.0), ("两", 2.0), ("数百", None), ("三四", None),
                                         ("3-4", None), ("N/A", None), ("十", 10.0), ("百", None)])
def test_numeral_value(text, value):
    assert numeral_value(text) == value


def test_join_sentences():
    assert join_sentences(["甲增长5%", "乙增长6%"]) == "甲增长5%。乙增长6%"
    assert join_sentences(["甲增长5%！", " 乙增长6% ", ""]) == "甲增长5%！乙增长6%"
    assert join_sentences(["他说：“增长5%。”", "乙"]) == "他说：“增长5%。”乙"


# ---------------------------------------------------------------- evaluation on a release build

@pytest.mark.slow
def test_bench_runs_on_a_release_build(tmp_path, release, tiny_model_dir):
    build(*release, out=tmp_path / "out")
    out = tmp_path / "result.json"
    assert main(["bench", "nquad", "--data", str(tmp_path / "out"), "--split", "all", "--model", str(tiny_model_dir),
                 "--backend", "sentence", "--output", str(out)]) == 0
    result = json.loads(out.read_text(encoding="utf-8"))["results"]
    assert result["n_questions"] == 5 and {r["n"] for r in result["systems"]} == {5}
    # 一季度 is the only other stem number: a quarter, of no option's kind
    assert result["questions_with_stem_numbers"] == {"all": 1, "same kind": 0}


def test_stem_agreement_reads_a_bare_option_in_its_blank():
    from nash_metric.benchmarks.nquad.evaluation import stem_agreement

    row = {"stem": "营收增长[MASK]%，上年增长30%，3月", "options": ["35", "28", "41", "25"],
           "option_values": [35.0, 28.0, 41.0, 25.0]}
    same = stem_agreement([row], same_kind=True)[0]
    assert same[1] == pytest.approx(1 / (1 + 2 / 30))  # 28 (a percentage in its blank) against 30 % only
