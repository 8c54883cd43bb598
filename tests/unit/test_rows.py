"""Per-pair rows out (`RowWriter`, every format) and back (`read_rows`), bit for bit."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from nash_metric.corpus.rows import FIGURE_COLUMNS, OUTPUT_FORMATS, RowWriter, figure_list_type, read_rows

FLOATS = [0.1 + 0.2, 1 / 3, -0.0, 1e-300, 5e-324, 1.7976931348623157e308, 2.0, math.pi]


@pytest.mark.parametrize("suffix", OUTPUT_FORMATS)
def test_row_writer_round_trip_is_exact(tmp_path, suffix):
    path = tmp_path / "deep" / "er" / f"scores{suffix}"
    chunks = [
        {"index": np.arange(3), "nash": np.array(FLOATS[:3]), "text": ["a,b", 'say "x"', "tab\there"]},
        {"index": [3, 4, 5], "nash": [np.float64(v) for v in FLOATS[3:6]], "text": ["line\nbreak", "cr\rhere", "é"]},
        {"index": np.array([6, 7], dtype=np.int32), "nash": np.array(FLOATS[6:]), "text": ["7", "plain"]},
    ]
    with RowWriter(path, ["index", "nash", "text"]) as writer:
        for chunk in chunks:
            writer.write(chunk)
        writer.write({"index": [], "nash": [], "text": []})  # an empty chunk writes nothing
    assert writer.rows_written == 8
    rows = read_rows(path)
    assert list(rows) == ["index", "nash", "text"]
    assert rows["index"] == list(range(8)) and all(type(v) is int for v in rows["index"])
    assert [v.hex() for v in rows["nash"]] == [v.hex() for v in FLOATS]  # bit for bit, -0.0 included
    assert rows["text"] == ["a,b", 'say "x"', "tab\there", "line\nbreak", "cr\rhere", "é", "7", "plain"]
    if suffix == ".parquet":
        file = pq.ParquetFile(path)
        assert file.num_row_groups == 3
        assert file.schema_arrow.field("nash").type == pa.float64()
        assert file.schema_arrow.field("index").type == pa.int64()


def test_row_writer_jsonl_writes_python_types_in_column_order(tmp_path):
    path = tmp_path / "scores.jsonl"
    with RowWriter(path, ["b", "a"]) as writer:
        writer.write({"a": np.array([np.float32(0.5)]), "b": np.array([np.int64(2)])})
    assert path.read_text(encoding="utf-8") == '{"b": 2, "a": 0.5}\n'


def test_row_writer_errors(tmp_path):
    with pytest.raises(ValueError, match=r"unsupported output format '\.xlsx'; use one of \.jsonl, \.csv, \.tsv, "
                                         r"\.parquet"):
        RowWriter(tmp_path / "out.xlsx", ["a"])
    with RowWriter(tmp_path / "out.csv", ["a", "b"]) as writer:
        with pytest.raises(ValueError, match=r"unequal length.*'a': 2, 'b': 1"):
            writer.write({"a": [1, 2], "b": [1]})
        with pytest.raises(ValueError, match=r"missing \['b'\], unexpected \['c'\]"):
            writer.write({"a": [1], "c": [1]})
    with pytest.raises(ValueError, match="write after close"):
        writer.write({"a": [1], "b": [2]})
    with RowWriter(tmp_path / "out.parquet", ["a"]) as writer:
        writer.write({"a": [1.5]})
        with pytest.raises(ValueError, match="column 'a' does not fit its type double"):
            writer.write({"a": ["text"]})


def test_row_writer_with_no_rows_writes_a_readable_file(tmp_path):
    for suffix in OUTPUT_FORMATS:
        path = tmp_path / f"empty{suffix}"
        RowWriter(path, ["a", "b"]).close()
        assert read_rows(path) in ({"a": [], "b": []}, {})  # JSONL has no header to name the columns


@pytest.mark.parametrize("module", ["nash_metric.corpus.rows", "nash_metric.corpus.summary"])
def test_importing_the_corpus_outputs_loads_neither_numpy_nor_pyarrow(module):
    code = f"import sys, {module}; print([m for m in ('numpy', 'pyarrow', 'torch') if m in sys.modules])"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_the_summary_spells_the_outputs_baseline_fields():
    from nash_metric.corpus import summary
    from nash_metric.pipeline import output

    assert summary.BASELINE_FIELDS == output.BASELINE_FIELDS


# Figure entries as the scorer gives them (verdicts.decide.FigureVerdict): a misplaced one, a computed one (its
# derivation and operands, table cells), an unsupported one with nothing to compare it with, one with a closest
# derivation, an unmatched one.
REF = {"text": "3.56%", "start": 21, "end": 26, "value": 3.56, "cell": None}
OPERANDS = [{"text": "62.4", "start": 40, "end": 44, "value": 62.4,
             "cell": {"section": "", "row": "Revenue", "column": "2019", "path": ""}},
            {"text": "50.2", "start": 47, "end": 51, "value": 50.2,
             "cell": {"section": "Net sales:", "row": "Revenue", "column": "2018 é", "path": ""}}]
GROWTH = "(62.4 − 50.2) / 50.2 = 24.3%"
ENTRIES = [
    [{"text": "4%", "start": 21, "end": 23, "value": 4.0, "verdict": "misplaced", "found": REF, "reference": REF,
      "cosine": 0.1 + 0.2, "basis": "period: 2022, not 2023", "derivation": None, "operands": None, "role": "figure"},
     {"text": "24.3%", "start": 30, "end": 35, "value": 24.3, "verdict": "computed", "found": None, "reference": REF,
      "cosine": 0.5, "basis": None, "derivation": GROWTH, "operands": OPERANDS, "role": "figure"}],
    [],
    [{"text": "é 5", "start": 0, "end": 3, "value": 5.0, "verdict": "unsupported", "found": None, "reference": None,
      "cosine": None, "basis": None, "derivation": None, "operands": None, "role": "figure"},
     {"text": "30%", "start": 5, "end": 8, "value": 30.0, "verdict": "unsupported", "found": None, "reference": REF,
      "cosine": 0.25, "basis": None, "derivation": GROWTH, "operands": OPERANDS[::-1], "role": "figure"},
     {"text": "7", "start": 9, "end": 10, "value": 7.0, "verdict": "unmatched", "found": None, "reference": REF,
      "cosine": -0.0, "basis": None, "derivation": None, "operands": [], "role": "figure"}],
]


@pytest.mark.parametrize("suffix", OUTPUT_FORMATS)
def test_figure_columns_keep_their_entries(tmp_path, suffix):
    path = tmp_path / f"rows{suffix}"
    assert FIGURE_COLUMNS == ("unsupported_numbers", "figure_verdicts")
    with RowWriter(path, ["index", "unsupported_numbers"]) as writer:
        writer.write({"index": [0], "unsupported_numbers": [[]]})  # no entry yet: the type is fixed all the same
        writer.write({"index": [1, 2, 3], "unsupported_numbers": ENTRIES})
    cells = read_rows(path)["unsupported_numbers"]
    if suffix in (".csv", ".tsv"):  # a JSON text in the cell
        cells = [json.loads(cell) for cell in cells]
    assert cells == [[], *ENTRIES]
    assert cells[1][0]["cosine"].hex() == (0.1 + 0.2).hex()  # floats exact in every format
    if suffix == ".jsonl":
        assert json.loads(path.read_text(encoding="utf-8").splitlines()[1])["unsupported_numbers"] == ENTRIES[0]
    if suffix == ".parquet":
        assert pq.read_schema(path).field("unsupported_numbers").type == figure_list_type()


def test_the_figure_type_is_the_verdict_schema():
    from typing import get_type_hints

    from nash_metric.verdicts.decide import CellRef, FigureVerdict, NumberRef

    entry = figure_list_type().value_type
    assert [entry.field(k).name for k in range(entry.num_fields)] == list(get_type_hints(FigureVerdict))
    for name in ("found", "reference", "operands"):
        number = entry.field(name).type
        number = number.value_type if name == "operands" else number  # a list of them
        assert [number.field(k).name for k in range(number.num_fields)] == list(get_type_hints(NumberRef))
        assert entry.field(name).nullable
        cell = number.field("cell").type
        assert [cell.field(k).name for k in range(cell.num_fields)] == list(get_type_hints(CellRef))
    assert str(entry.field("derivation").type) == "string" and entry.field("derivation").nullable


@pytest.mark.parametrize("suffix", OUTPUT_FORMATS)
def test_an_entry_written_before_derivations_reads_back(tmp_path, suffix):
    """Rows of an older scorer (no `derivation`, `operands`, `role`, nor a number's `cell`): JSONL and CSV keep them
    as they came, Parquet's fixed type gives them nulls."""
    bare = {k: v for k, v in REF.items() if k != "cell"}
    old = [{**{k: v for k, v in ENTRIES[0][0].items() if k not in ("derivation", "operands", "role")}, "found": bare,
            "reference": bare}]
    path = tmp_path / f"rows{suffix}"
    with RowWriter(path, ["figure_verdicts"]) as writer:
        writer.write({"figure_verdicts": [old]})
    (cell,) = read_rows(path)["figure_verdicts"]
    cell = json.loads(cell) if suffix in (".csv", ".tsv") else cell
    assert cell == ([{**old[0], "found": REF, "reference": REF, "derivation": None, "operands": None, "role": None}]
                    if suffix == ".parquet" else old)


def test_figure_columns_refuse_what_is_not_a_list(tmp_path):
    refused = "column 'unsupported_numbers' holds a list of figure entries per row, got str"
    with RowWriter(tmp_path / "rows.jsonl", ["unsupported_numbers"]) as writer, pytest.raises(TypeError, match=refused):
        writer.write({"unsupported_numbers": [json.dumps(ENTRIES[0])]})
    RowWriter(tmp_path / "empty.parquet", ["index", "unsupported_numbers"]).close()
    assert pq.read_schema(tmp_path / "empty.parquet").field("unsupported_numbers").type == figure_list_type()
    with RowWriter(tmp_path / "plain.jsonl", ["unsupported_numbers"], figure_columns=()) as writer:
        writer.write({"unsupported_numbers": ["[]"]})  # a caller that declares no figure column writes as given
