"""The Batch tab reads an upload with the command line's reader: the same pairs, the same messages (issue 31)."""

from __future__ import annotations

import csv
import json
import os

import pytest

from nash_metric.common.io import InputFileError
from nash_metric.corpus.pair_files import open_pairs
from nash_metric.space.batch_files import BatchFileError, parse_pairs

# Cells Python's csv module has to quote: doubled quotes, commas, line breaks (LF and CRLF), a leading space.
ROWS = [
    ('"Separation Agreement"', "Separation Agreement"),
    ('The "Separation Agreement" was signed on 3 May 2019.', 'The "Separation Agreement", signed 2019, pays $1.2m.'),
    ('He said ""twice"" and left, 4% richer.', "Net sales rose 5%,\nthen fell 2%."),
    ("  Revenue was $2,452.4 million.", "Revenue:\r\n$2,452.4 million"),
    ('"', 'a "quoted" cell, with "two" pairs'),
]


def _written(path, header=("a", "b"), rows=ROWS):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        writer.writerows(rows)
    return path


# Files the Space's former reader (csv.Sniffer on the first 4 kB) misread as doublequote=False: a doubled quote
# with a comma between the quotes ("line 2: 4 fields, but the header row has 2", the report), and a
# doubled quote after the sniffed sample; then cells of every kind together.
FILES = {
    "issue": [('Under the "Separation Agreement, 2019", fees rose 4%.', "Fees rose 4%.")],
    "late": [(f"Revenue rose {k}%.", f"Revenue rose {k + 1}%.") for k in range(200)] + ROWS[:1],
    "mixed": ROWS,
}


@pytest.mark.parametrize("kind", sorted(FILES))
def test_a_csv_written_by_pythons_csv_module_gives_the_clis_pairs(tmp_path, kind):
    path = _written(tmp_path / "pairs.csv", rows=FILES[kind])
    assert '""Separation Agreement' in path.read_text(encoding="utf-8")  # the doubling the issue is about
    cli = open_pairs(path, "a", "b").read()  # what `nash score --pairs pairs.csv` reads
    space = parse_pairs(path)
    assert space.pairs == list(zip(cli.predictions, cli.references)) == FILES[kind]
    assert space.columns == ("a", "b") and space.ignored == ()


def test_the_same_file_with_other_columns_and_as_jsonl(tmp_path):
    path = _written(tmp_path / "pairs.csv", ("id", "prediction", "reference"),
                    [(str(k), a, b) for k, (a, b) in enumerate(ROWS)])
    cli, space = open_pairs(path).read(), parse_pairs(path)
    assert space.pairs == list(zip(cli.predictions, cli.references)) == ROWS and space.ignored == ("id",)
    jsonl = tmp_path / "pairs.jsonl"
    jsonl.write_text("".join(json.dumps({"prediction": a, "reference": b, "id": k}) + "\n"
                             for k, (a, b) in enumerate(ROWS)), encoding="utf-8")
    cli = open_pairs(jsonl).read()
    assert parse_pairs(jsonl).pairs == list(zip(cli.predictions, cli.references)) == ROWS


def test_the_batch_tab_scores_those_pairs(tmp_path, tiny_model_dir):
    from nash_metric.space.handlers import SpaceHandlers
    from nash_metric.space.limits import SpaceLimits

    model = str(tiny_model_dir)
    path = _written(tmp_path / "pairs.csv")
    summary, table, download = SpaceHandlers(SpaceLimits(allowed_models=(model,))).batch(
        str(path), model, "token", False, 0.5)
    assert "nash-error" not in summary and f"{len(ROWS)} pairs" in summary, summary
    assert [(row[0], row[1]) for row in table["data"]] == ROWS
    with open(download, newline="", encoding="utf-8") as fh:
        assert [tuple(r[:2]) for r in list(csv.reader(fh))[1:]] == ROWS  # and the download reads back the same


def _both_errors(path, columns=("a", "b")) -> tuple[str, str]:
    """The command line reader's message, less the file's folder, and the Batch tab's."""
    with pytest.raises(InputFileError) as cli:
        open_pairs(path, *columns).read()
    with pytest.raises(BatchFileError) as space:
        parse_pairs(path)
    return str(cli.value).removeprefix(f"{path.parent}{os.sep}"), str(space.value)


@pytest.mark.parametrize(("name", "content", "message"), [
    # An unquoted comma: the report was "line 2: 4 fields, but the header row has 2".
    ("bad.csv", 'a,b\n"fine","also fine"\nThe "Separation Agreement", signed, pays 4%,ok\n',
     "bad.csv:3: expected 2 fields (a, b), got 4; quote a text that contains a comma"),
    ("bad.csv", "a,b\nx 1,y 2\nshort\n", "bad.csv:3: expected 2 fields (a, b), got 1"),
    ("bad.csv", 'a,b\nx 1,y 2\n"never closed,y 3\nx 4,y 4\n', "bad.csv:3: CSV error: unexpected end of data"),
    ("bad.csv", 'a,b\nx 1,"y" 2\n', "bad.csv:2: CSV error: ',' expected after '\"'"),
    ("bad.jsonl", '{"a": "x", "b": "y"}\n\n{"a": "x", "b": \n',
     "bad.jsonl:3: invalid JSON: Expecting value (column 17)"),
    ("bad.jsonl", '{"a": "x", "b": "y"}\n{"a": "x", "b": null}\n', "bad.jsonl:2: field 'b' is null"),
    ("bad.jsonl", '{"a": "x", "b": "y"}\n{"a": "x", "b": 4}\n', "bad.jsonl:2: field 'b' must be a string, got int"),
    ("bad.jsonl", '{"a": "x", "b": "y"}\n[1]\n', "bad.jsonl:2: expected a JSON object, got list"),
])
def test_a_malformed_file_gets_the_same_message_and_line_in_both(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    assert _both_errors(path) == (message, message)
