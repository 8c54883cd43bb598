"""Inputs that cannot make sense are refused: binary sources, too few numbers to calibrate, bad counts."""

from __future__ import annotations

import json
import random
import re
import unicodedata
import warnings

import numpy as np
import pytest

from nash_metric.calibration.threshold import (
    MIN_CALIBRATION_SENTENCES,
    TooFewNumbersError,
    builtin_sentences,
    calibrate_threshold,
    tau_from_vectors,
)
from nash_metric.common.io import _NON_TEXT, MAX_NON_TEXT_SHARE, InputFileError, read_text
from nash_metric.corpus.sentences import calibrate_file, read_sentence_source, read_sentences
from nash_metric.numbers import extract_numbers
from nash_metric.pipeline.pool import valued

NUMBERED = [f"Revenue rose {k}% to EUR {10 + k} mn in {2000 + k}." for k in range(MIN_CALIBRATION_SENTENCES + 5)]


class FakeEncoder:
    """Mention vectors without a model: one unit vector per number that `extract_numbers` values."""

    def __init__(self) -> None:
        self.calls = 0

    def mention_vectors(self, texts, show_progress=False):
        self.calls += 1
        out = []
        for t in texts:
            n = len(valued(extract_numbers(t)))
            v = np.random.default_rng(len(t)).normal(size=(n, 8))
            out.append(v / np.linalg.norm(v, axis=1, keepdims=True) if n else np.zeros((0, 8)))
        return out


# ------------------------------------------------------------------------------------------------ binary sources

def test_random_bytes_are_refused_naming_a_line(tmp_path):
    path = tmp_path / "noise.txt"
    path.write_bytes(random.Random(0).randbytes(4096))
    with pytest.raises(InputFileError, match=r"noise\.txt:\d+: binary or not text") as info:
        read_sentences(path)
    assert info.value.line is not None and info.value.line >= 1
    with pytest.raises(InputFileError, match=r"noise\.txt:\d+: binary"):  # an explicit encoding does not help
        read_sentences(path, encoding="latin-1")


def test_nul_byte_names_line_and_column(tmp_path):
    path = tmp_path / "nul.csv"
    path.write_bytes(b"sentence\nRevenue rose 4%.\nProfit\x00 fell.\n")
    with pytest.raises(InputFileError, match=r"nul\.csv:3: binary or not text: a NUL byte at column 7"):
        read_sentences(path)


def test_utf16_is_read_by_its_mark_and_refused_without_one(tmp_path):
    path = tmp_path / "wide.txt"
    path.write_bytes("Revenue rose 4%.\nCosts fell 2%.\n".encode("utf-16"))  # with its byte-order mark
    assert read_sentences(path) == ["Revenue rose 4%.", "Costs fell 2%."]
    path.write_bytes("Revenue rose 4%.\nCosts fell 2%.\n".encode("utf-16-le"))  # without one
    with pytest.raises(InputFileError, match=r"wide\.txt:1: binary or not text.*pass encoding= utf-16-le"):
        read_sentences(path)
    assert read_sentences(path, encoding="utf-16-le") == ["Revenue rose 4%.", "Costs fell 2%."]


def test_control_heavy_line_is_refused_but_a_stray_character_is_not(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text("Fine sentence with 5 words.\nOne stray \x07 bell is a typo.\n\x01\x02ab\x03\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"c\.txt:3: .*3 of its 5 characters .*first U\+0001 at column 1"):
        read_sentences(path)
    path.write_text("Fine sentence with 5 words.\nOne stray \x07 bell is a typo.\n", encoding="utf-8")
    assert len(read_sentences(path)) == 2


def test_windows_1252_text_reads_as_latin1_with_the_warning(tmp_path):
    path = tmp_path / "cp.txt"
    path.write_bytes("Nokia\u2019s sales rose 5 % to EUR 1.2 mn \u2013 caf\u00e9.\n".encode("cp1252"))
    with pytest.warns(UnicodeWarning, match=r"cp\.txt:1: not valid UTF-8"):
        assert read_sentences(path) == ["Nokia\x92s sales rose 5 % to EUR 1.2 mn \x96 caf\u00e9."]


def test_non_text_class_is_the_documented_rule():
    everything = "".join(map(chr, range(0x110000)))
    found = set(_NON_TEXT.findall(everything))
    rule = {c for c in everything if (unicodedata.category(c) in ("Cc", "Cs", "Co") and not c.isspace())
            or c == "\ufffd"}
    assert found == rule and "\t" not in found and "\x00" in found
    assert 0 < MAX_NON_TEXT_SHARE < 0.25  # random bytes are ~25% non-text


def test_unicode_line_separators_do_not_split_sentences(tmp_path):
    path = tmp_path / "u.txt"
    path.write_text("Up 5%\u2028still one line.\r\nSecond 2.\rThird 3.\n", encoding="utf-8", newline="")
    assert read_sentences(path) == ["Up 5%\u2028still one line.", "Second 2.", "Third 3."]


def test_every_shared_text_file_still_reads(data_paths):
    files = sorted(p for p in data_paths.shared.rglob("*") if p.is_file()) if data_paths.shared.is_dir() else []
    if not files:
        pytest.skip("../shared/data is not mounted")
    for path in files:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert read_text(path), path
        if path.name == "all-data.csv":  # ISO-8859-1: still the Latin-1 fallback with its warning
            assert any("not valid UTF-8" in str(w.message) for w in caught)


def test_unsupported_suffix_and_unknown_encoding_are_named(tmp_path):
    json_file = tmp_path / "x.json"
    json_file.write_text('["Up 4%"]', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"x\.json: unsupported format '\.json'"):
        read_sentences(json_file)
    binary = tmp_path / "x.parquet"
    binary.write_bytes(random.Random(1).randbytes(64))
    with pytest.raises(InputFileError, match=r"x\.parquet: not a readable Parquet file"):
        read_sentences(binary)
    text = tmp_path / "t.txt"
    text.write_text("a 1\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"t\.txt: unknown encoding 'klingon'"):
        read_sentences(text, encoding="klingon")


# ----------------------------------------------------------------------------------------- which column was read

def test_sentence_source_says_which_column_was_read(tmp_path):
    fpb = tmp_path / "fpb.csv"
    fpb.write_text("neutral,Sales were EUR 5 mn .\npositive,Profit rose 3 % .\n", encoding="utf-8")
    src = read_sentence_source(fpb)
    assert (src.column, src.sentences, src.lines) == ("content", ["Sales were EUR 5 mn .", "Profit rose 3 % ."], [1, 2])
    assert src.where == f"{fpb} (column 'content')"
    table = tmp_path / "t.csv"
    table.write_text("id,label,text\n1,a,Up 4%\n", encoding="utf-8")
    assert read_sentence_source(table).column == "text"
    assert read_sentence_source(table, column="label").column == "label"
    jsonl = tmp_path / "j.jsonl"
    jsonl.write_text(json.dumps({"body": "Up 4%"}) + "\n", encoding="utf-8")
    assert read_sentence_source(jsonl).column == "body"
    plain = tmp_path / "p.txt"
    plain.write_text("Up 4%\n\nDown 3%\n", encoding="utf-8")
    src = read_sentence_source(plain)
    assert (src.column, src.lines, src.where) == (None, [1, 3], str(plain))


def test_a_sentence_file_is_a_one_column_record_file(tmp_path):
    """Sentence files are read by the record reader of pair files (`corpus.records`): the same formats, Parquet
    included, and the same file:line messages."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    table = tmp_path / "s.parquet"
    pq.write_table(pa.table({"id": [1, 2], "text": ["Up 4%", "Down 3%"]}), table)
    src = read_sentence_source(table)
    assert (src.column, src.sentences, src.lines) == ("text", ["Up 4%", "Down 3%"], [1, 2])
    pq.write_table(pa.table({"text": ["Up 4%", None]}), table)
    with pytest.raises(InputFileError, match=r"s\.parquet: row 2: field 'text' must be a string, got NoneType"):
        read_sentences(table)
    wide = tmp_path / "w.csv"
    wide.write_text("id,text\n1,Up 4%, then down\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"w\.csv:2: expected 2 fields \(id, text\), got 3; quote a text that "
                       "contains a comma"):
        read_sentences(wide)


# ------------------------------------------------------------------------------------------------- calibration

@pytest.mark.parametrize("bad", [0, -3, 1.5, True, "10", None])
def test_n_pairs_must_be_a_positive_integer(bad):
    vecs = FakeEncoder().mention_vectors(NUMBERED)
    with pytest.raises(ValueError, match=re.escape(f"n_pairs must be a positive integer (random sentence pairs to "
                                                   f"draw), got {bad!r}")):
        tau_from_vectors(vecs, n_pairs=bad)
    encoder = FakeEncoder()
    with pytest.raises(ValueError, match="n_pairs must be a positive integer"):
        calibrate_threshold(encoder, NUMBERED, n_pairs=bad)
    assert encoder.calls == 0  # refused before encoding anything


def test_seed_must_be_a_non_negative_integer():
    with pytest.raises(ValueError, match="seed must be a non-negative integer, got -1"):
        calibrate_threshold(FakeEncoder(), NUMBERED, seed=-1)


def test_too_few_sentences_with_numbers_are_refused_with_counts():
    texts = ["Revenue rose 4%.", "Profit fell to EUR 3 mn.", "No numbers here."]
    with pytest.raises(TooFewNumbersError, match=r"NumFinE anchors: 2 of 3 distinct sentences have a scorable "
                       rf"number; .* needs at least {MIN_CALIBRATION_SENTENCES}") as info:
        calibrate_threshold(FakeEncoder(), texts, corpus="NumFinE anchors")
    assert (info.value.found, info.value.distinct, info.value.minimum) == (2, 3, MIN_CALIBRATION_SENTENCES)
    vecs = FakeEncoder().mention_vectors(NUMBERED[:MIN_CALIBRATION_SENTENCES])
    assert tau_from_vectors(vecs).n_sentences == MIN_CALIBRATION_SENTENCES  # exactly the minimum is enough
    with pytest.raises(TooFewNumbersError):
        tau_from_vectors(vecs[:-1])
    assert tau_from_vectors(vecs[:3], min_sentences=3).n_sentences == 3  # a caller may lower it explicitly
    with pytest.raises(ValueError, match="min_sentences must be an integer >= 2"):
        tau_from_vectors(vecs, min_sentences=1)


def test_builtin_corpus_clears_the_minimum():
    with_numbers = [s for s in builtin_sentences() if valued(extract_numbers(s))]
    assert len(with_numbers) >= 4 * MIN_CALIBRATION_SENTENCES


def test_calibrate_file_names_file_and_column(tmp_path):
    small = tmp_path / "small.csv"
    small.write_text("label,text\nup,Revenue rose 4%.\nup,Revenue rose 4%.\ndown,Costs fell.\nup,Profit 3 mn.\n",
                     encoding="utf-8")
    with pytest.raises(TooFewNumbersError, match=re.escape(
            f"{small} (column 'text'): read 4 sentences (3 distinct), 2 with a scorable number; calibrating tau "
            f"= mu + sigma needs at least {MIN_CALIBRATION_SENTENCES}")) as info:
        calibrate_file(FakeEncoder(), small)
    assert "pass --column" in str(info.value)
    with pytest.raises(TooFewNumbersError, match=r"\(column 'label'\): read 4 sentences \(2 distinct\), 0 with"):
        calibrate_file(FakeEncoder(), small, column="label")
    with pytest.raises(ValueError, match=r"n_pairs \(--pairs\) must be a positive integer .*got 0"):
        calibrate_file(FakeEncoder(), small, n_pairs=0)
    good = tmp_path / "good.txt"
    good.write_text("\n".join(NUMBERED) + "\n", encoding="utf-8")
    cal = calibrate_file(FakeEncoder(), good, n_pairs=50)
    assert cal.corpus == str(good) and cal.n_sentences == len(NUMBERED) and cal.n_pairs == 50
    noise = tmp_path / "noise.txt"
    noise.write_bytes(random.Random(0).randbytes(4096))
    with pytest.raises(InputFileError, match=r"noise\.txt:\d+: binary"):
        calibrate_file(FakeEncoder(), noise)


# ---------------------------------------------------------------------------------- threshold='auto' fallback

def test_auto_on_a_single_pair_falls_back_to_the_stated_tau(tiny_default_scorer):
    auto = tiny_default_scorer.with_options(threshold="auto")
    with pytest.warns(UserWarning, match=r"threshold='auto': auto: 2 of 2 texts with a scorable number \(< 20\); "
                      r"fell back to tau \(calibrated on the built-in corpus\)"):
        out = auto.score(["Revenue rose 4%."], ["Revenue rose 40%."])
    assert out.config["threshold"] == tiny_default_scorer.threshold  # the tau used is the one threshold=None gives
    assert out.config["threshold_source"].startswith("auto: 2 of 2 texts")
    assert out.hashcode == tiny_default_scorer.score(["Revenue rose 4%."], ["Revenue rose 40%."]).hashcode
    with pytest.warns(UserWarning, match="auto: 0 of 2 texts"):
        assert auto.for_corpus(["No numbers."], ["None here."]).threshold == tiny_default_scorer.threshold


def test_auto_calibrates_on_a_corpus_with_enough_numbers(tiny_default_scorer):
    auto = tiny_default_scorer.with_options(threshold="auto")
    preds, refs = NUMBERED[:12], [s.replace("rose", "fell") for s in NUMBERED[:12]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no fallback warning
        fixed = auto.for_corpus(preds, refs)
    assert fixed.threshold_source == "auto: 24 texts of the corpus" and fixed.calibration.n_sentences == 24
    assert fixed.threshold != tiny_default_scorer.threshold


def test_auto_tau_is_one_per_corpus_whatever_the_chunks_or_order(tiny_default_scorer):
    auto = tiny_default_scorer.with_options(threshold="auto")
    preds, refs = NUMBERED[:12], [s.replace("rose", "fell") for s in NUMBERED[:12]]
    whole = auto.score(preds, refs)
    chunked = auto.with_options(chunk_size=5).score(preds[::-1], refs[::-1])
    assert whole.config["threshold"] == chunked.config["threshold"] != tiny_default_scorer.threshold
    np.testing.assert_allclose(whole.nash, chunked.nash[::-1], atol=1e-6)
