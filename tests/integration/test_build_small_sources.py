"""Dataset builders on tiny or bad sources: every config a card lists loads, or the build fails in one line."""

from __future__ import annotations

import json
import random

import pytest

from nash_metric.cli import main

TWO = "Revenue rose 5% to EUR 12.3 mn in 2019.\nThe company hired 250 engineers.\n"
TEN = "\n".join([
    "Revenue rose 5% to EUR 12.3 mn in 2019.", "The company hired 250 engineers.",
    "Operating profit fell 3.2% to EUR 4.1 mn.", "Net sales increased by 12% in the third quarter.",
    "The order is worth EUR 7 mn and deliveries start on March 1, 2011.", "Shares closed at $17.85, down 2.3%.",
    "The plant employs 1,200 people.", "Costs were cut by EUR 2.5 mn in 2010.",
    "The dividend is EUR 0.40 per share.", "Earnings per share were EUR 0.25 in Q4 2009.",
]) + "\n"


def card_configs(folder) -> list[str]:
    from datasets import get_dataset_config_names

    return get_dataset_config_names(str(folder))


def build(tmp_path, capsys, text: str, name: str) -> tuple[int, str, str, object]:
    source, out = tmp_path / f"{name}.txt", tmp_path / name
    source.write_text(text, encoding="utf-8")
    code = main(["build-data", "numfine", "--source", str(source), "--out", str(out)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err, out


@pytest.mark.parametrize("text,name", [(TWO, "two"), (TEN, "ten")])
def test_numfine_from_a_tiny_source_writes_only_configs_that_load(tmp_path, capsys, text, name):
    from datasets import load_dataset

    with pytest.warns(UserWarning, match="'crosspair' omitted") if name == "two" else _no_warning():
        code, out, _, folder = build(tmp_path, capsys, text, name)
    assert code == 0
    report = json.loads((folder / "build_report.json").read_text(encoding="utf-8"))
    listed = card_configs(folder)
    assert set(listed) == {c for c, n in report["rows"].items() if n} == set(listed) - set(report["omitted_configs"])
    for config in listed:
        assert load_dataset(str(folder), config, split="test").num_rows == report["rows"][config] > 0
    for config in report["omitted_configs"]:
        assert not (folder / "data" / config).exists() and f"Not in this build: `{config}`" in (
            folder / "README.md").read_text(encoding="utf-8")
    if name == "two":
        assert report["omitted_configs"].keys() == {"crosspair"} and "Omitted config `crosspair`" in out


class _no_warning:
    def __enter__(self):
        import warnings

        self._catch = warnings.catch_warnings()
        self._catch.__enter__()
        warnings.simplefilter("error", UserWarning)

    def __exit__(self, *exc):
        return self._catch.__exit__(*exc)


def test_rebuild_removes_a_config_the_new_build_omits(tmp_path, capsys):
    code, _, _, folder = build(tmp_path, capsys, TEN, "same")
    assert code == 0 and "crosspair" in card_configs(folder)
    (tmp_path / "same.txt").write_text(TWO, encoding="utf-8")
    with pytest.warns(UserWarning, match="'crosspair' omitted"):
        assert main(["build-data", "numfine", "--source", str(tmp_path / "same.txt"), "--out", str(folder)]) == 0
    assert "crosspair" not in card_configs(folder) and not (folder / "data" / "crosspair").exists()


@pytest.mark.parametrize("content,message", [
    (b"No numbers in this one.\nNor in this one.\n", r"noise\.txt: none of its 2 sentences has a number to perturb"),
    (random.Random(0).randbytes(4096), r"noise\.txt:\d+: binary or not text"),
])
def test_numfine_build_fails_in_one_line_when_nothing_is_usable(tmp_path, capsys, content, message):
    import re

    source = tmp_path / "noise.txt"
    source.write_bytes(content)
    code = main(["build-data", "numfine", "--source", str(source), "--out", str(tmp_path / "out")])
    lines = [line for line in capsys.readouterr().err.splitlines() if line.strip() and "NumFinE units" not in line]
    assert code == 2 and len(lines) == 1 and lines[0].startswith("nash: error:") and re.search(message, lines[0])
    assert not (tmp_path / "out" / "README.md").exists()


def test_bench_skips_configs_a_build_does_not_have(tmp_path, capsys, tiny_model_dir):
    with pytest.warns(UserWarning, match="'crosspair' omitted"):
        code, _, _, folder = build(tmp_path, capsys, TWO, "two")
    code = main(["bench", "numfine", "--data", str(folder), "--model", str(tiny_model_dir), "--backend", "token",
                 "--threshold-sweep", "--alignment-rows", "5"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "no config 'crosspair' in this build" in captured.err
    assert "skipped (no rows): crosspair" in captured.out
    assert "τ sweep skipped: NumFinE anchors: 2 of 2 distinct sentences have a scorable number" in captured.out


def test_bench_reads_an_older_build_with_an_empty_config(tmp_path, capsys):
    """Builds before the omission wrote an empty crosspair shard and listed it: it is skipped, not a crash."""
    from datasets import Dataset

    from nash_metric.benchmarks.numfine.evaluation import load_tables
    from nash_metric.benchmarks.numfine.schema import features, shard_path

    with pytest.warns(UserWarning):
        _, _, _, folder = build(tmp_path, capsys, TWO, "old")
    feats = features("crosspair")
    (folder / shard_path("crosspair")).parent.mkdir(parents=True)
    Dataset.from_dict({k: [] for k in feats}, feats).to_parquet(str(folder / shard_path("crosspair")))
    card = (folder / "README.md").read_text(encoding="utf-8")
    units = "- config_name: units\n"
    listed = f"- config_name: crosspair\n  data_files:\n  - split: test\n    path: {shard_path('crosspair')}\n"
    assert units in card
    (folder / "README.md").write_text(card.replace(units, listed + units, 1), encoding="utf-8")
    assert "crosspair" in card_configs(folder)
    tables = load_tables(folder)
    assert tables["crosspair"] == [] and len(tables["triplet_hard"]) == 3
    assert "config 'crosspair' has no rows; skipped" in capsys.readouterr().err


# ------------------------------------------------------------------------------------------- NQuAD and EmbedNum

BODY = "公司3月5日公布，营收12.6亿元，同比增长35%。海外业务增长41%，占比25%。毛利率为28.4%。"


def test_nquad_keeps_both_splits_non_empty(tmp_path):
    from datasets import load_dataset

    source = tmp_path / "a.jsonl"
    source.write_text("".join(json.dumps({"headline": h, "content": BODY}, ensure_ascii=False) + "\n"
                              for h in ("增长35%", "占比25%")), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["build-data", "nquad", "--source", str(source), "--out", str(out), "--test-fraction", "0.9"]) == 0
    report = json.loads((out / "build_report.json").read_text(encoding="utf-8"))
    assert report["questions_per_split"] == {"train": 1, "test": 1}
    ds = load_dataset(str(out))
    assert ds["train"].num_rows == ds["test"].num_rows == 1


def test_embednum_refuses_counts_that_would_write_empty_configs(tmp_path):
    from nash_metric.benchmarks.embednum.construction import build_embednum
    from nash_metric.benchmarks.embednum.sources import load_seeds

    for bad in (0, -3):
        with pytest.raises(ValueError, match=rf"n_candidate_questions \(--candidate-questions\) must be a positive "
                           rf"integer for \['candidates_10'\], got {bad}"):
            build_embednum(load_seeds(), n=6, configs=["orig", "candidates_10"], n_candidate_questions=bad)
    assert "candidates_10" not in build_embednum(load_seeds(), n=6, configs=["orig"], n_candidate_questions=0)


def test_embednum_rebuild_with_fewer_configs_lists_and_keeps_only_those(tmp_path):
    from datasets import load_dataset

    from nash_metric.benchmarks.embednum.dataset import build_dataset

    build_dataset(tmp_path, n=6, configs=["orig", "b3", "candidates_10"], n_candidate_questions=2)
    build_dataset(tmp_path, n=6, configs=["orig", "b3"])
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == ["b3.parquet", "orig.parquet"]
    assert set(card_configs(tmp_path)) == {"orig", "b3"}
    for config in ("orig", "b3"):
        assert load_dataset(str(tmp_path), config, split="test").num_rows == 6
