"""Pair files in (`pair_files`): every format read, every error located, blank texts kept and warned."""

from __future__ import annotations

import json
import re

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from nash_metric.common.blank import BlankTextWarning
from nash_metric.common.io import InputFileError
from nash_metric.corpus import pair_files
from nash_metric.corpus.pair_files import PairCorpus, open_candidates_references, open_pairs

PREDICTIONS = ["Revenue rose 5%.", "  Net loss was $2m, wider \"than\" expected"]
REFERENCES = ["Revenue grew by 5 percent.", "Net loss: $2 million\t(wider)"]


def _jsonl(path, records) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def _parquet(path, columns: dict) -> None:
    pq.write_table(pa.table(columns), path)


# ------------------------------------------------------------------------------------------ open_pairs().read()


def test_csv_round_trip_keeps_texts_as_given(tmp_path):
    path = tmp_path / "pairs.csv"
    path.write_text('id,prediction,reference\n1,Revenue rose 5%.,Revenue grew by 5 percent.\n'
                    '2,"  Net loss was $2m, wider ""than"" expected","Net loss: $2 million\t(wider)"\n',
                    encoding="utf-8")
    corpus = open_pairs(path).read()
    assert corpus == PairCorpus(PREDICTIONS, REFERENCES, [str(path)])
    assert len(corpus) == 2 and not corpus.multi_reference


def test_tsv_with_renamed_columns_and_no_quote_processing(tmp_path):
    path = tmp_path / "pairs.TSV"
    path.write_text('hyp\tref\n"quoted" hyp\tref one\nhyp two\tref two\n', encoding="utf-8")
    corpus = open_pairs(path, prediction_column="hyp", reference_column="ref").read()
    assert corpus.predictions == ['"quoted" hyp', "hyp two"] and corpus.references == ["ref one", "ref two"]


def test_jsonl_single_and_multi_reference(tmp_path):
    path = tmp_path / "pairs.jsonl"
    _jsonl(path, [{"prediction": p, "reference": r, "extra": 1} for p, r in zip(PREDICTIONS, REFERENCES)])
    assert open_pairs(path).read() == PairCorpus(PREDICTIONS, REFERENCES, [str(path)])
    multi = tmp_path / "multi.jsonl"
    _jsonl(multi, [{"out": "a", "refs": ["r1", "r2"]}, {"out": "b", "refs": ["r3"]}])
    corpus = open_pairs(multi, prediction_column="out", reference_column="refs").read()
    assert corpus.references == [["r1", "r2"], ["r3"]] and corpus.multi_reference


def test_parquet_single_and_multi_reference(tmp_path):
    path = tmp_path / "pairs.parquet"
    _parquet(path, {"prediction": PREDICTIONS, "reference": REFERENCES})
    assert open_pairs(path).read() == PairCorpus(PREDICTIONS, REFERENCES, [str(path)])
    multi = tmp_path / "multi.parquet"
    _parquet(multi, {"p": ["a", "b"], "r": [["r1", "r2"], ["r3"]]})
    corpus = open_pairs(multi, prediction_column="p", reference_column="r").read()
    assert corpus.references == [["r1", "r2"], ["r3"]] and corpus.multi_reference


def test_latin1_file_is_read_with_a_warning(tmp_path):
    path = tmp_path / "pairs.csv"
    path.write_bytes("prediction,reference\ncaf\xe9,caf\xe9\n".encode("latin-1"))
    with pytest.warns(UnicodeWarning, match="Latin-1"):
        assert open_pairs(path).read().predictions == ["café"]


@pytest.mark.parametrize(("content", "match"), [
    ("prediction,reference\na,b\nc,d,e\n", r"pairs\.csv:3: expected 2 fields \(prediction, reference\), got 3; quote "
                                          "a text that contains a comma$"),
    ("prediction,reference\na,b\nc\n", r"pairs\.csv:3: expected 2 fields \(prediction, reference\), got 1$"),
    ("pred,reference\na,b\n", r"pairs\.csv:1: no column 'prediction'; columns are \['pred', 'reference'\] "
                              r"\(pass --prediction-column/--reference-column"),
    ("prediction,reference\n", r"pairs\.csv: no pairs"),
    ("", r"pairs\.csv: no pairs"),
    ('prediction,reference\n"a,b\n', r"pairs\.csv:2: CSV error"),
])
def test_csv_errors_name_file_line_and_field(tmp_path, content, match):
    path = tmp_path / "pairs.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputFileError, match=match):
        open_pairs(path).read()


def test_a_tsv_row_with_too_many_fields_gets_no_quoting_hint(tmp_path):
    path = tmp_path / "pairs.tsv"
    path.write_text("prediction\treference\na\tb\tc\n", encoding="utf-8")  # TSV is read without quotes
    with pytest.raises(InputFileError, match=r"pairs\.tsv:2: expected 2 fields \(prediction, reference\), got 3$"):
        open_pairs(path)


@pytest.mark.parametrize(("records", "match"), [
    ([{"prediction": "a", "reference": "b"}, {"prediction": "c"}],
     r"pairs\.jsonl:2: missing field 'reference'; fields are \['prediction'\] \(pass --prediction-column"),
    ([{"prediction": "a", "reference": None}], r"pairs\.jsonl:1: field 'reference' is null"),
    ([{"prediction": 3, "reference": "b"}], r"pairs\.jsonl:1: field 'prediction' must be a string, got int"),
    ([{"prediction": "a", "reference": []}], r"pairs\.jsonl:1: field 'reference' is an empty list"),
    ([{"prediction": "a", "reference": ["x", 1]}], r"pairs\.jsonl:1: field 'reference'\[1\] must be a string"),
    ([{"prediction": "a", "reference": ["x"]}, {"prediction": "b", "reference": ["y"]},
      {"prediction": "c", "reference": "z"}], r"pairs\.jsonl:3: field 'reference' is a string but line 1 holds a list"),
    ([{"prediction": "a", "reference": "x"}, {"prediction": "b", "reference": ["y"]}],
     r"pairs\.jsonl:2: field 'reference' is a list but line 1 holds a string"),
    ([{"prediction": ["a"], "reference": "x"}], r"pairs\.jsonl:1: field 'prediction' must be a string, got list"),
    ([], r"pairs\.jsonl: no pairs"),
])
def test_jsonl_errors_name_file_line_and_field(tmp_path, records, match):
    path = tmp_path / "pairs.jsonl"
    _jsonl(path, records)
    with pytest.raises(InputFileError, match=match):
        open_pairs(path).read()


def test_jsonl_invalid_line_is_located(tmp_path):
    path = tmp_path / "pairs.jsonl"
    path.write_text('{"prediction": "a", "reference": "b"}\n{oops\n', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"pairs\.jsonl:2: invalid JSON"):
        open_pairs(path).read()


PQ = r"pairs\.parquet: "


@pytest.mark.parametrize(("columns", "match"), [
    ({"prediction": ["a", "b", None], "reference": ["x", "y", "z"]}, PQ + r"row 3: field 'prediction' is null"),
    ({"prediction": ["a", "b"], "reference": [["x"], None]}, PQ + r"row 2: field 'reference' is null"),
    ({"prediction": ["a", "b"], "reference": [["x"], []]}, PQ + r"row 2: field 'reference' is an empty list"),
    ({"prediction": [1], "reference": ["x"]}, PQ + r"row 1: field 'prediction' must be a string, got int"),
    ({"prediction": ["a"], "ref": ["x"]}, PQ + r"no column 'reference'; columns are \['prediction', 'ref'\]"),
    ({"prediction": pa.array([], pa.string()), "reference": pa.array([], pa.string())}, PQ + r"no pairs"),
])
def test_parquet_errors_name_file_row_and_field(tmp_path, columns, match):
    path = tmp_path / "pairs.parquet"
    _parquet(path, columns)
    with pytest.raises(InputFileError, match=match) as info:
        open_pairs(path).read()
    row = re.search(r"row (\d+)", str(info.value))
    assert info.value.line == (int(row.group(1)) if row else None)


def test_unsupported_and_unreadable_inputs(tmp_path):
    with pytest.raises(InputFileError, match=r"pairs\.xlsx: unsupported format '\.xlsx': use one of .csv, .tsv, "
                                             r"\.jsonl, \.parquet"):
        open_pairs(tmp_path / "pairs.xlsx").read()
    with pytest.raises(FileNotFoundError):
        open_pairs(tmp_path / "missing.csv").read()
    bad = tmp_path / "bad.parquet"
    bad.write_text("not parquet", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"bad\.parquet: not a readable Parquet file"):
        open_pairs(bad).read()
    with pytest.raises(ValueError, match="both 'x'"):
        open_pairs(tmp_path / "pairs.csv", prediction_column="x", reference_column="x").read()


# ------------------------------------------------------------------------- open_candidates_references().read()


def test_candidates_and_one_references_file(tmp_path):
    cands, refs = tmp_path / "cands.txt", tmp_path / "refs.txt"
    cands.write_bytes(b"first  cand\r\nsecond cand\r\n")
    refs.write_text("first ref\nsecond ref", encoding="utf-8")  # no final newline
    for references in (refs, [refs], str(refs)):
        corpus = open_candidates_references(cands, references).read()
        assert corpus.predictions == ["first  cand", "second cand"]
        assert corpus.references == ["first ref", "second ref"] and not corpus.multi_reference
        assert corpus.sources == [str(cands), str(refs)]


def test_candidates_and_two_references_files(tmp_path):
    cands, r1, r2 = tmp_path / "cands.txt", tmp_path / "r1.txt", tmp_path / "r2.txt"
    cands.write_text("a\nb\n", encoding="utf-8")
    r1.write_text("a1\nb1\n", encoding="utf-8")
    r2.write_text("a2\nb2\n", encoding="utf-8")
    corpus = open_candidates_references(cands, [r1, r2]).read()
    assert corpus.references == [["a1", "a2"], ["b1", "b2"]] and corpus.multi_reference and len(corpus) == 2


def test_candidates_references_errors(tmp_path):
    cands, r1, r2 = tmp_path / "cands.txt", tmp_path / "r1.txt", tmp_path / "r2.txt"
    cands.write_text("a\nb\nc\n", encoding="utf-8")
    r1.write_text("a1\nb1\nc1\n", encoding="utf-8")
    r2.write_text("a2\nb2\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"r2\.txt: line counts differ \(.*cands\.txt has 3, .*r1\.txt has 3, "
                                             r".*r2\.txt has 2\)"):
        open_candidates_references(cands, [r1, r2]).read()
    r2.write_text("a2\nb2\nc2\n\n", encoding="utf-8")  # one newline too many is a blank 4th line: 4 texts
    with (pytest.raises(InputFileError, match=r"line counts differ \(.*r2\.txt has 4 \(its last 1 blank\)\)"),
          pytest.warns(BlankTextWarning, match=r"r2\.txt:4: blank line")):
        open_candidates_references(cands, [r1, r2]).read()
    cands.write_text("", encoding="utf-8")
    r1.write_text("", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"cands\.txt: no pairs"):
        open_candidates_references(cands, r1).read()
    with pytest.raises(ValueError, match="no references"):
        open_candidates_references(cands, []).read()


# ------------------------------------------------------------------------------- blank texts: kept, warned


def _blank_warnings(caught) -> list[str]:
    return [str(w.message) for w in caught if issubclass(w.category, BlankTextWarning)]


@pytest.mark.parametrize(("content", "expected", "warned"), [
    ("prediction,reference\na,b\nc,  \n", (["a", "c"], ["b", "  "]), [r"pairs\.csv:3: blank 'reference' field"]),
    ("prediction,reference\na,b\n,d\n", (["a", ""], ["b", "d"]), [r"pairs\.csv:3: blank 'prediction' field"]),
    ('prediction,reference\n"multi\nline",b\nd,\n', (["multi\nline", "d"], ["b", ""]),
     [r"pairs\.csv:4: blank 'reference' field"]),  # the line a record starts on
    ("prediction,reference\n,\n", ([""], [""]),
     [r"pairs\.csv:2: blank 'prediction' field", r"pairs\.csv:2: blank 'reference' field"]),
])
def test_blank_csv_cell_is_a_text_with_a_warning(tmp_path, content, expected, warned):
    path = tmp_path / "pairs.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.warns(BlankTextWarning) as caught:
        corpus = open_pairs(path).read()
    assert (corpus.predictions, corpus.references) == expected
    messages = _blank_warnings(caught)
    assert len(messages) == len(warned)
    for message, pattern in zip(messages, warned):
        assert re.search(pattern + ", scored 0 as bert-score does", message), message


def test_blank_jsonl_and_parquet_cells_are_texts(tmp_path):
    jsonl = tmp_path / "pairs.jsonl"
    _jsonl(jsonl, [{"prediction": "a", "reference": " \t"}, {"prediction": "", "reference": "b"}])
    with pytest.warns(BlankTextWarning) as caught:
        corpus = open_pairs(jsonl).read()
    assert (corpus.predictions, corpus.references) == (["a", ""], [" \t", "b"])
    assert _blank_warnings(caught) == [
        f"{jsonl}:1: blank 'reference' field, scored 0 as bert-score does",
        f"{jsonl}:2: blank 'prediction' field, scored 0 as bert-score does",
    ]
    multi = tmp_path / "multi.jsonl"
    _jsonl(multi, [{"prediction": "a", "reference": ["x", "y", " "]}])
    with pytest.warns(BlankTextWarning, match=r"multi\.jsonl:1: blank 'reference'\[2\] field"):
        assert open_pairs(multi).read().references == [["x", "y", " "]]
    parquet = tmp_path / "pairs.parquet"
    _parquet(parquet, {"prediction": ["a", "b"], "reference": [["x"], ["y", ""]]})
    with pytest.warns(BlankTextWarning, match=r"pairs\.parquet: row 2: blank 'reference'\[1\] field"):
        assert open_pairs(parquet).read().references == [["x"], ["y", ""]]


def test_null_and_missing_fields_are_still_errors(tmp_path):
    path = tmp_path / "pairs.jsonl"
    _jsonl(path, [{"prediction": "", "reference": None}])
    with pytest.raises(InputFileError, match=r"pairs\.jsonl:1: field 'reference' is null"):
        open_pairs(path).read()
    _jsonl(path, [{"prediction": ""}])
    with pytest.raises(InputFileError, match=r"pairs\.jsonl:1: missing field 'reference'"):
        open_pairs(path).read()


def test_many_blank_cells_name_the_first_few_and_count_the_rest(tmp_path):
    path = tmp_path / "pairs.csv"
    path.write_text("prediction,reference\n" + "".join(f",r{k}\n" for k in range(pair_files.SHOWN_BLANK + 5)),
                    encoding="utf-8")
    with pytest.warns(BlankTextWarning) as caught:
        assert len(open_pairs(path).read()) == pair_files.SHOWN_BLANK + 5
    messages = _blank_warnings(caught)
    assert len(messages) == pair_files.SHOWN_BLANK + 1
    assert messages[0].endswith("pairs.csv:2: blank 'prediction' field, scored 0 as bert-score does")
    assert messages[-1].endswith(f"pairs.csv: 5 more blank texts (on lines after {pair_files.SHOWN_BLANK + 1}), each "
                                 "scored 0 as bert-score does")


def test_blank_line_of_a_candidates_file_is_a_blank_text(tmp_path):
    cands, refs = tmp_path / "cands.txt", tmp_path / "refs.txt"
    cands.write_text("a\n \nc\n", encoding="utf-8")
    refs.write_text("a1\nb1\n\n", encoding="utf-8")  # a blank last line, then the final newline
    with pytest.warns(BlankTextWarning) as caught:
        corpus = open_candidates_references(cands, refs).read()
    assert corpus.predictions == ["a", " ", "c"] and corpus.references == ["a1", "b1", ""]  # still aligned
    messages = _blank_warnings(caught)
    assert len(messages) == 2
    assert messages[0].endswith("cands.txt:2: blank line, scored 0 as bert-score does")
    assert messages[1].endswith("refs.txt:3: blank line, scored 0 as bert-score does")
