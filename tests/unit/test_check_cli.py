"""`nash check`: each figure of a generated text against its source, told with where its value stands; rows as
`nash score` writes them; bad input in one `nash: error:` line before any model loads."""

from __future__ import annotations

import argparse
import io
import json

import pytest
from number_refs import number_ref

from nash_metric.cli import main
from nash_metric.corpus.rows import read_rows
from nash_metric.reports.figure_rows import Source, figure_rows, snippet, summary_line, verdict_counts

SOURCE = """ACME Corp. Annual Report (excerpt)

Net sales by segment ($ in millions)

| Segment | 2019 | 2018 |
|---|---|---|
| Industrial | 1,452.4 | 1,146.2 |
| Consumer | 812.7 | 790.3 |

Net sales rose 17% in 2019. The company paid a dividend of $0.52 per share in 2019.
"""
# $1,452.4 million: Industrial 2019, supported. $790.3 million: Consumer's 2018 value stated for 2019, misplaced
# (812.7 in the 2019 column fits it: same row label, same year, +0.5; 790.3 another year, -0.5: a gap of 1.0
# against a margin of 0.25, which a cosine term of weight 0.5 cannot close unless the two cosines differ by 1.5).
# $0.55: stated nowhere, unsupported, whatever the model.
TEXT = ("Industrial net sales were $1,452.4 million in 2019.\n"
        "Consumer net sales were $790.3 million in 2019. The dividend was $0.55 per share.\n")


def _at(text: str, needle: str) -> tuple[int, int]:
    start = text.index(needle)
    return start, start + len(needle)


# -- telling a figure's place ----------------------------------------------------------------------------------


def test_snippet_brackets_the_number_and_cuts_long_lines():
    line = "The company paid a dividend of $0.52 per share in 2019 and employed about 9,800 people at year end."
    start, end = _at(line, "$0.52")
    assert snippet(line, start, end, width=200) == line.replace("$0.52", "[$0.52]")
    # room = 30 - 7 = 23 characters: 11 before (half), the other 12 after, each cut side marked.
    assert snippet(line, start, end, width=30) == "…ividend of [$0.52] per share i…"
    text = "first line\n  Net   sales\trose 17% here  \nlast"
    assert snippet(text, *_at(text, "17%")) == "Net sales rose [17%] here"  # its line only, whitespace collapsed
    assert snippet("12", 0, 2) == "[12]"


def test_a_place_names_its_line_and_its_table_cell():
    source = Source.read(SOURCE)
    cell = source.place(number_ref(SOURCE, "790.3"))
    assert (cell.line, cell.cell) == (8, "Consumer · 2018")
    assert cell.describe() == "line 8 (Consumer · 2018): | Consumer | 812.7 | [790.3] |"
    prose = source.place(number_ref(SOURCE, "$0.52"))
    assert (prose.line, prose.cell) == (10, "")
    # 82 characters: room for 72 - 7 = 65 around "$0.52", the 19 after it whole, so 46 of the 59 before it.
    assert prose.describe() == "line 10: …e 17% in 2019. The company paid a dividend of [$0.52] per share in 2019."


def _entry(text, verdict, found=None, reference=None):
    start, end = _at(TEXT, text)
    ref = lambda needle: None if needle is None else number_ref(SOURCE, needle)  # noqa: E731
    return {"text": text, "start": start, "end": end, "value": 0.0, "verdict": verdict, "found": ref(found),
            "reference": ref(reference), "cosine": None}


def test_rows_show_what_the_context_fits_only_where_it_is_not_where_the_value_stands():
    verdicts = [_entry("$1,452.4 million", "supported", "1,452.4", "1,452.4"),
                _entry("$790.3 million", "misplaced", "790.3", "812.7"),
                _entry("$0.55", "unsupported", None, "$0.52")]
    supported, misplaced, unsupported = figure_rows(SOURCE, verdicts)
    assert (supported.found.cell, supported.matched) == ("Industrial · 2019", None)
    assert (misplaced.found.cell, misplaced.matched_text, misplaced.matched.cell) == ("Consumer · 2018", "812.7",
                                                                                      "Consumer · 2019")
    assert unsupported.found is None and unsupported.matched_text == "$0.52" and unsupported.matched.line == 10
    assert verdict_counts(verdicts) == {"supported": 1, "misplaced": 1, "unsupported": 1, "contradicted": 0,
                                        "computed": 0}
    assert summary_line(1 / 3, verdicts) == ("numeric support 0.33: 1 supported, 1 misplaced, 1 unsupported, "
                                             "0 contradicted, 0 computed (3 figures)")
    argmax = [{**verdicts[0], "verdict": "unmatched"}]
    assert verdict_counts(argmax) == {"supported": 0, "misplaced": 0, "unsupported": 0, "contradicted": 0,
                                      "computed": 0, "unmatched": 1}
    assert summary_line(1.0, []) == "numeric support 1.00: the text states no figure to check"


# A figure no number of SOURCE states, but a derivation of two gives (computed), and one that no derivation gives
# either (unsupported, with the closest derivation of its bound numbers): hand-made as the pipeline writes them.
DERIVED = "Industrial net sales grew 26.7% in 2019. Consumer net sales grew 5% in 2019."


def _number(needle: str, value: float) -> dict:
    return number_ref(SOURCE, needle, value)


def _derived_entries() -> list[dict]:
    industrial, consumer = (_number("1,452.4", 1452.4), _number("1,146.2", 1146.2)), \
        (_number("812.7", 812.7), _number("790.3", 790.3))
    grew, five = _at(DERIVED, "26.7%"), _at(DERIVED, "5%")
    return [
        {"text": "26.7%", "start": grew[0], "end": grew[1], "value": 26.7, "verdict": "computed", "found": None,
         "reference": _number("17%", 17.0), "cosine": 0.5, "basis": None,
         "derivation": "(1,452.4 − 1,146.2) / 1,146.2 = 26.7%", "operands": list(industrial)},
        {"text": "5%", "start": five[0], "end": five[1], "value": 5.0, "verdict": "unsupported", "found": None,
         "reference": _number("17%", 17.0), "cosine": 0.4, "basis": None,
         "derivation": "(812.7 − 790.3) / 790.3 = 2.8%", "operands": list(consumer)},
    ]


def test_a_computed_figure_shows_its_derivation_and_an_unsupported_one_its_closest():
    from nash_metric.cli.check import Check, check_report

    entries = _derived_entries()
    computed, unsupported = figure_rows(SOURCE, entries)
    assert computed.derivation == "(1,452.4 − 1,146.2) / 1,146.2 = 26.7%" and computed.matched is None
    assert [(text, place.cell) for text, place in computed.operands] == [("1,452.4", "Industrial · 2019"),
                                                                        ("1,146.2", "Industrial · 2018")]
    assert unsupported.derivation == "(812.7 − 790.3) / 790.3 = 2.8%" and unsupported.matched_text == "17%"
    report = check_report(Check(SOURCE, DERIVED, "derived"), entries, 0.5, marks=False).splitlines()
    assert report == [
        "derived: 2 figures",
        "  computed     26.7%",
        "      found    stated nowhere as such in the source",
        "      computed (1,452.4 − 1,146.2) / 1,146.2 = 26.7%",
        "      from     1,452.4, line 7 (Industrial · 2019): | Industrial | [1,452.4] | 1,146.2 |",
        "      from     1,146.2, line 7 (Industrial · 2018): | Industrial | 1,452.4 | [1,146.2] |",
        "  unsupported  5%",
        "      found    nowhere in the source",
        "      closest  17%, line 10: Net sales rose [17%] in 2019. The company paid a dividend of $0.52 per s…",
        "      closest  derivation: (812.7 − 790.3) / 790.3 = 2.8%",
        "numeric support 0.50: 0 supported, 0 misplaced, 1 unsupported, 0 contradicted, 1 computed (2 figures)",
    ]
    marked = check_report(Check(SOURCE, DERIVED, "derived"), entries, 0.5, marks=True).splitlines()
    assert marked[1] == "  Σ computed     26.7%" and marked[6] == "  ✗ unsupported  5%"
    # An entry from before derivations (no keys) reads as none.
    old = [{k: v for k, v in entries[1].items() if k not in ("derivation", "operands")}]
    assert not any("derivation" in line for line in check_report(Check(SOURCE, DERIVED, "old"), old, 0.0,
                                                                  marks=False).splitlines())


def test_marks_only_on_a_terminal_that_can_draw_them():
    from nash_metric.cli.check import uses_marks

    class Terminal(io.StringIO):
        def __init__(self, encoding: str, tty: bool) -> None:
            super().__init__()
            self._encoding, self._tty = encoding, tty

        @property
        def encoding(self) -> str:
            return self._encoding

        def isatty(self) -> bool:
            return self._tty

    assert uses_marks(Terminal("utf-8", True))
    assert not uses_marks(Terminal("utf-8", False))  # a file or a pipe: words
    assert not uses_marks(Terminal("ascii", True))
    assert not uses_marks(Terminal("cp1252", True))  # no ↷ in Windows-1252


# -- bad input: one line, no model ---------------------------------------------------------------------------


@pytest.fixture
def files(tmp_path):
    (tmp_path / "source.md").write_text(SOURCE, encoding="utf-8")
    (tmp_path / "text.txt").write_text(TEXT, encoding="utf-8")
    (tmp_path / "empty.md").write_text(" \n\n", encoding="utf-8")
    return tmp_path


def _error(capsys, argv):
    code = main(["check", *argv, "--model", "/no/such/model"])  # never loaded: the input fails first
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("nash: error: ")]
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize("lines,message", [
    (['{"source": "a 1", "text": "b 2"}', "", '{"source": "a 1", "text": '],
     ":3: invalid JSON: Expecting value (column 27)"),
    (['{"source": "a 1", "txt": "b 2"}'], ":1: missing field 'text'; fields are ['source', 'txt']"),
    (['{"source": ["a 1"], "text": "b 2"}'], ":1: field 'source' must be a string, got list"),
    (['{"source": "a 1", "text": null}'], ":1: field 'text' must be a string, got NoneType"),
    (['{"source": "  ", "text": "b 2"}'], ":1: empty 'source' field: nothing to check the figures against"),
    (['["a 1", "b 2"]'], ":1: expected a JSON object, got list"),
    ([""], ': no lines to check; expected one {"source": ..., "text": ...} object a line'),
])
def test_a_bad_jsonl_line_is_named(files, capsys, lines, message):
    path = files / "checks.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert _error(capsys, ["--jsonl", str(path)]) == f"nash: error: {path}{message}"


def test_missing_and_empty_files_are_named(files, capsys):
    source, text = str(files / "source.md"), str(files / "text.txt")
    missing = _error(capsys, ["--source", str(files / "nope.md"), "--text", text])
    assert missing.startswith("nash: error: --source: no such file '") and missing.endswith(
        "(pass a file, or - to read stdin)")
    assert _error(capsys, ["--source", str(files / "empty.md"), "--text", text]) == \
        f"nash: error: {files / 'empty.md'}: empty source: nothing to check the figures against"
    assert _error(capsys, ["--source", source, "--text", str(files / "empty.md")]) == \
        f"nash: error: {files / 'empty.md'}: empty text: no figures to check"
    assert "give --source FILE and --text FILE" in _error(capsys, ["--source", source])
    assert "do not combine it with --source/--text" in _error(capsys, ["--jsonl", source, "--text", text])
    assert _error(capsys, ["--source", source, "--text", text, "--output", str(files / "rows.xlsx")]) == \
        f"nash: error: --output {files / 'rows.xlsx'}: unsupported format; use one of .jsonl, .csv, .tsv, .parquet"


def test_an_unwritable_output_fails_before_the_model_loads(files, capsys, monkeypatch):
    from nash_metric.cli import options

    monkeypatch.setattr(options, "scorer_from_args", lambda args: pytest.fail("the model was loaded"))
    source, text = str(files / "source.md"), str(files / "text.txt")
    assert _error(capsys, ["--source", source, "--text", text, "--output", "/proc/nash/rows.jsonl"]) == \
        "nash: error: --output /proc/nash/rows.jsonl: cannot write there: the folder '/proc/nash' does not exist"


# -- a check with the tiny model -------------------------------------------------------------------------------


def _tiny(tiny_model_dir):
    return ["--model", str(tiny_model_dir), "--backend", "token", "--device", "cpu"]


def test_check_prints_each_figure_where_its_value_stands_and_writes_rows(files, tiny_model_dir, capsys):
    rows = files / "rows.csv"
    code = main(["check", "--source", str(files / "source.md"), "--text", str(files / "text.txt"), "--output",
                 str(rows), *_tiny(tiny_model_dir)])
    out, err = capsys.readouterr()
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == f"{files / 'text.txt'} against {files / 'source.md'}: 5 figures"
    figures = [line.split() for line in lines if line.startswith("  ") and not line.startswith("      ")]
    assert [(f[0], f[1]) for f in figures] == [("supported", "$1,452.4"), ("supported", "2019"),
                                               ("misplaced", "$790.3"), ("supported", "2019"),
                                               ("unsupported", "$0.55")]
    assert [f[-1] for f in figures] == ["1)", "1)", "2)", "2)", "2)"]  # (text line N): the text has two lines
    assert "      found    line 7 (Industrial · 2019): | Industrial | [1,452.4] | 1,146.2 |" in lines
    assert "      found    line 8 (Consumer · 2018): | Consumer | 812.7 | [790.3] |" in lines
    assert "      because  period: 2018, not 2019" in lines
    assert "      bound to 812.7, line 8 (Consumer · 2019): | Consumer | [812.7] | 790.3 |" in lines
    assert "      found    nowhere in the source" in lines
    # The two years place the amounts: supported, they are not counted in the numeric support.
    assert lines[-1] == ("numeric support 0.33: 1 supported, 1 misplaced, 1 unsupported, 0 contradicted, "
                         "0 computed (3 figures; 2 supported periods that place figures, not counted)")
    assert "✓" not in out  # not a terminal: words
    written = read_rows(rows)
    assert written["index"] == [0] and written["numeric_support"] == [pytest.approx(1 / 3)]
    assert written["unsupported"] == [2]
    verdicts = json.loads(written["figure_verdicts"][0])
    assert [v["verdict"] for v in verdicts] == ["supported", "supported", "misplaced", "supported", "unsupported"]
    assert verdicts[2]["found"]["text"] == "790.3" and verdicts[2]["reference"]["text"] == "812.7"
    assert [v["text"] for v in json.loads(written["unsupported_numbers"][0])] == ["$790.3 million", "$0.55"]
    assert f"wrote 1 rows to {rows}" in err


def test_jsonl_checks_each_line_against_its_own_source(files, tiny_model_dir, capsys):
    path = files / "checks.jsonl"
    path.write_text(json.dumps({"source": SOURCE, "text": "Consumer net sales were $812.7 million in 2019."}) + "\n\n"
                    + json.dumps({"source": "Profit was 30 mn.", "text": "Profit was 31 mn, no news."}) + "\n",
                    encoding="utf-8")
    output = files / "rows.jsonl"
    assert main(["check", "--jsonl", str(path), "--output", str(output), *_tiny(tiny_model_dir)]) == 0
    lines = capsys.readouterr().out.splitlines()
    headers = [line for line in lines if line.startswith(str(path))]
    assert headers == [f"{path}:1: 2 figures", f"{path}:3: 1 figure"]  # the blank line 2 is skipped
    assert ("numeric support 1.00: 1 supported, 0 misplaced, 0 unsupported, 0 contradicted, 0 computed "
            "(1 figure; 1 supported period that places a figure, not counted)") in lines
    assert "numeric support 0.00: 0 supported, 0 misplaced, 1 unsupported, 0 contradicted, 0 computed (1 figure)" \
        in lines
    assert lines[-1] == ("2 texts: mean numeric support 0.50; 1 supported, 0 misplaced, 1 unsupported, "
                         "0 contradicted, 0 computed; 1 supported period that places a figure, not counted")
    written = read_rows(output)
    assert written["index"] == [0, 1] and written["unsupported"] == [0, 1]
    # a list of entries, as `unsupported_numbers` (a JSON text only in CSV/TSV cells)
    assert [len(v) for v in written["figure_verdicts"]] == [2, 1]
    assert [e["verdict"] for e in written["figure_verdicts"][1]] == ["unsupported"]
    assert written["unsupported_numbers"][1] == written["figure_verdicts"][1]


def test_check_is_a_command():
    from nash_metric.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices["check"]
    flags = {a.dest for a in sub._actions}
    assert {"source", "text", "jsonl", "output", "encoding", "model", "backend", "verdict"} <= flags


def test_text_from_stdin_and_a_missing_file_named_by_its_flag(tmp_path, monkeypatch, capsys):
    import io

    from nash_metric.cli.check import read_checks
    from nash_metric.cli.parser import UsageError

    source = tmp_path / "source.md"
    source.write_text("Revenue was $5 million.", encoding="utf-8")
    args = argparse.Namespace(jsonl=None, source=str(source), text="-", encoding=None)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"Revenue was $5 million.")))
    [check] = read_checks(args)
    assert check.text == "Revenue was $5 million." and check.label == f"stdin against {source}"
    inline = "Revenue was " + "x" * 5000  # a text given where a file belongs: one short line, no OS error
    with pytest.raises(UsageError, match=r"^--text: no such file 'Revenue was x+… \(pass a file, or - to read stdin\)"):
        read_checks(argparse.Namespace(jsonl=None, source=str(source), text=inline, encoding=None))
    with pytest.raises(UsageError, match="cannot both read stdin"):
        read_checks(argparse.Namespace(jsonl=None, source="-", text="-", encoding=None))


# -- a source that is data: --source-format, and the key path a figure is bound to ------------------------------

WEATHER = ('{"list": [\n'
           '  {"main": {"temp": 3.5, "humidity": 81}, "dt_txt": "2024-01-04 02:00:00"},\n'
           '  {"main": {"temp": 2.9, "humidity": 85}, "dt_txt": "2024-01-04 05:00:00"}\n'
           ']}\n')


@pytest.mark.parametrize("name,content,source_format,message", [
    ("bad.json", '{\n  "a": 1\n  "b": 2\n}\n', "json",
     "not JSON (--source-format json): Expecting ',' delimiter at line 3, column 3"),
    ("repr.json", "{'a': 1, 'b': None}\n", "json",
     "not JSON (--source-format json): Expecting property name enclosed in double quotes at line 1, column 2 "
     "(a Python literal? --source-format python)"),
    ("prose.json", "Revenue was $5 million.\n", "json", "not JSON (--source-format json): Expecting value at line 1, "
     "column 1"),
    ("bad.jsonl", '{"a": 1}\n{"b": 2\n', "jsonl",
     "not JSON Lines (--source-format jsonl): Expecting ',' delimiter at line 2, column 8"),
    ("list.jsonl", '{"a": 1}\n[1, 2]\n', "jsonl",
     "not JSON Lines (--source-format jsonl): each line of JSON Lines must be one object at line 2, column 7"),
    ("bad.py", "{'a': (1, 2,\n 'b': 3}\n", "python",
     "not a Python literal (--source-format python): ',' or ')' was expected at line 2, column 5"),
    ("trailing.py", "{'a': 1} and then prose\n", "python",
     "not a Python literal (--source-format python): text after the data at line 1, column 10"),
    ("bad.csv", "city,population,area\nLyon,522000,47.9\nNice,342000\n", "csv",
     "not CSV (--source-format csv): 2 fields where the first row has 3, at line 3, column 12"),
    ("one.csv", "just a line of prose\nand another\n", "csv",
     "not CSV (--source-format csv): no field delimiter (, ; tab |) in its first row, at line 1, column 1"),
])
def test_a_source_not_in_its_named_format_fails_before_the_model_loads(files, capsys, name, content, source_format,
                                                                        message):
    path = files / name
    path.write_text(content, encoding="utf-8")
    assert _error(capsys, ["--source", str(path), "--text", str(files / "text.txt"), "--source-format",
                           source_format]) == f"nash: error: {path}: {message}"


def test_a_jsonl_lines_source_is_checked_in_its_named_format(files, capsys):
    path = files / "checks.jsonl"
    path.write_text(json.dumps({"source": '{"a": 1}', "text": "a 1"}) + "\n"
                    + json.dumps({"source": '{"a": 1', "text": "a 1"}) + "\n", encoding="utf-8")
    assert _error(capsys, ["--jsonl", str(path), "--source-format", "json"]) == (
        f"nash: error: {path}:2: the source is not JSON (--source-format json): Expecting ',' delimiter at line 1, "
        "column 8")


@pytest.mark.parametrize("source_format,content", [
    ("json", WEATHER), ("python", "{'a': (1, 2), 'b': None, 'c': True}"), ("python", WEATHER),
    ("jsonl", '{"a": 1}\n\n{"a": 2}\n'), ("csv", "city;population\nLyon;522000\n"),
    ("csv", 'city,note\nLyon,"big, old"\n'),
    ("text", "{'a': 1"), ("auto", "{'a': 1"),  # no check: read as it comes
])
def test_a_source_in_its_named_format_is_read(tmp_path, source_format, content):
    from nash_metric.cli.check import read_checks

    source, text = tmp_path / "source", tmp_path / "text.txt"
    source.write_text(content, encoding="utf-8")
    text.write_text("It was 3.5 degrees.", encoding="utf-8")
    [check] = read_checks(argparse.Namespace(jsonl=None, source=str(source), text=str(text), encoding=None,
                                             source_format=source_format))
    assert check.source == content


def test_source_format_is_a_flag_of_check():
    from nash_metric.cli import build_parser
    from nash_metric.cli.check import SOURCE_FORMATS

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices["check"]
    [flag] = [a for a in sub._actions if a.dest == "source_format"]
    assert flag.option_strings == ["--source-format"] and flag.default == "auto"
    assert tuple(flag.choices) == SOURCE_FORMATS == ("auto", "text", "json", "jsonl", "python", "csv")
    with pytest.raises(SystemExit):
        sub.parse_args(["--source", "a", "--text", "b", "--source-format", "yaml"])


def _data_entry(source: str, text: str, figure: str, verdict: str, found: str | None, reference: str,
                cells: dict[str, dict[str, str]]) -> dict:
    def ref(needle: str | None) -> dict | None:
        if needle is None:
            return None
        start = source.index(needle)
        return {"text": needle, "start": start, "end": start + len(needle), "value": float(needle),
                "cell": cells[needle]}

    start = text.index(figure)
    return {"text": figure, "start": start, "end": start + len(figure), "value": 0.0, "verdict": verdict,
            "found": ref(found), "reference": ref(reference), "cosine": 0.5}


# The found line of a data cell is as for a table written as text: its line, its labels, a snippet.
FOUND_35 = ('line 2 (list · 2024-01-04 02:00:00 · main.temp): {"main": {"temp": [3.5], "humidity": 81}, "dt_txt": '
            '"2024-01-04 02:00:00…')


def test_a_figure_in_data_says_the_key_path_and_record_it_is_bound_to():
    from nash_metric.cli.check import Check, check_report, data_place

    text = "At 2 am it was 3.5 degrees; at 5 am it was 3.5 degrees again, and 4.0 later."
    cells = {"3.5": {"section": "list", "row": "2024-01-04 02:00:00", "column": "main.temp",
                     "path": "list[0].main.temp"},
             "2.9": {"section": "list", "row": "2024-01-04 05:00:00", "column": "main.temp",
                     "path": "list[1].main.temp"}}
    entries = [_data_entry(WEATHER, text, "3.5 degrees", "supported", "3.5", "3.5", cells),
               {**_data_entry(WEATHER, text, "3.5 degrees", "misplaced", "3.5", "2.9", cells),
                "start": text.rindex("3.5 degrees"), "end": text.rindex("3.5 degrees") + 11,
                "basis": "row: 2024-01-04 02:00:00, not the one named"},
               _data_entry(WEATHER, text, "4.0", "unsupported", None, "2.9", cells)]
    report = check_report(Check(WEATHER, text, "weather"), entries, 1 / 3, marks=False).splitlines()
    assert report == [
        "weather: 3 figures",
        "  supported    3.5 degrees",
        f"      found    {FOUND_35}",
        "      bound to list[0].main.temp (2024-01-04 02:00:00)",
        "  misplaced    3.5 degrees",
        f"      found    {FOUND_35}",
        "      because  row: 2024-01-04 02:00:00, not the one named",
        "      bound to list[1].main.temp (2024-01-04 05:00:00): 2.9",
        "  unsupported  4.0",
        "      found    nowhere in the source",
        "      closest  list[1].main.temp (2024-01-04 05:00:00): 2.9",
        "numeric support 0.33: 1 supported, 1 misplaced, 1 unsupported, 0 contradicted, 0 computed (3 figures)",
    ]
    assert data_place({"cell": {"section": "", "row": "", "column": "ram_gb", "path": "ram_gb"}}) == "ram_gb"
    assert data_place({"cell": {"section": "", "row": "Consumer", "column": "2019", "path": ""}}) is None
    assert data_place({"cell": {"section": "", "row": "Consumer", "column": "2019"}}) is None  # from before paths
    assert data_place(None) is None and data_place({"cell": None}) is None


def test_check_of_a_json_source_prints_the_key_paths(files, tiny_model_dir, capsys):
    source = files / "phone.json"
    source.write_text('{"model": "Aero", "ram_gb": 16, "storage_gb": 256, "battery_mah": 5000}\n', encoding="utf-8")
    text = files / "phone.txt"
    text.write_text("The phone has 256 GB of storage and a 5000 mAh battery; it costs $799.\n", encoding="utf-8")
    code = main(["check", "--source", str(source), "--text", str(text), "--source-format", "json",
                 *_tiny(tiny_model_dir)])
    out, err = capsys.readouterr()
    assert code == 0, err
    lines = out.splitlines()
    figures = [line.split()[1] for line in lines if line.startswith("  ") and not line.startswith("      ")]
    assert figures == ["256", "5000", "$799"]
    bound = [line.strip() for line in lines if line.startswith("      bound to") or line.startswith("      closest")]
    # 256 and 5000 are found under their keys (whatever the verdict: the found cell is the value's); $799 nowhere
    assert any(line.startswith("bound to storage_gb") for line in bound), out
    assert any(line.startswith("bound to battery_mah") for line in bound), out
    assert "      found    nowhere in the source" in lines
    assert any(line.startswith("      found    line 1 (storage_gb): ") for line in lines), out
