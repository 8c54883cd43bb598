"""A source that is data: the span-keeping parser (JSON, Python repr, JSON Lines), where data is found in a text,
its values as table cells (record = row, identifying fields = row label, key path = column), digits in keys and
identifiers that are no figures, keys read as words, the user's glossary (file and option). No model but where the
echo and hashcode need the tiny scorer."""

from __future__ import annotations

import argparse
import re

import pytest

from nash_metric.common.glossary import check_glossary, read_glossary
from nash_metric.config import NASHConfig, OptionError, OptionTypeError
from nash_metric.context.data_parse import MAX_DEPTH, DataError, parse_data, parse_lines
from nash_metric.context.keys import key_words
from nash_metric.context.table_data import data_cells, find_data, in_keys, read_data
from nash_metric.context.tables import find_tables
from nash_metric.vocabulary.en import KEY_WORDS

FORECAST = ('{"cod": "200", "list": [\n'
            '  {"dt": 1704333600, "main": {"temp": 3.5, "humidity": 81}, "weather": [{"id": 802, "icon": "03n"}],\n'
            '   "rain": {"3h": 0.4}, "dt_txt": "2024-01-04 02:00:00"},\n'
            '  {"dt": 1704344400, "main": {"temp": 2.9, "humidity": 85}, "dt_txt": "2024-01-04 05:00:00"}],\n'
            ' "city": {"name": "Oslo", "population": 580000}}')


def _at(text: str, needle: str, after: str = "") -> tuple[int, int]:
    start = text.index(needle, text.index(after) if after else 0)
    return start, start + len(needle)


def _cells(text: str) -> dict[str, tuple[str, str, str, str]]:
    """Each data cell by its full path: (its text, column, section, row label)."""
    [block] = find_data(text)
    return {c.path: (text[c.start:c.end], c.column, c.section, c.label) for c in data_cells(block)}


def _records(text: str) -> dict[str, int]:
    [block] = find_data(text)
    return {c.path: c.record for c in data_cells(block)}


# -- the parser ------------------------------------------------------------------------------------------------


def test_json_values_keep_their_spans():
    text = '{"a": 1.5, "b": [2, "x3"], "c": {"d": -4e2}}'
    node, end = parse_data(text)
    assert node.kind == "object" and (node.start, end) == (0, len(text))
    a, b, c = (child for _, child in node.items)
    assert [key for key, _ in node.items] == ["a", "b", "c"]
    assert (a.kind, a.text, text[a.start:a.end]) == ("number", "1.5", "1.5")
    assert [(k, v.kind, v.text) for k, v in b.items] == [(0, "number", "2"), (1, "string", "x3")]
    assert text[b.items[1][1].start:b.items[1][1].end] == "x3"  # a string's span is inside its quotes
    assert c.items[0][1].text == "-4e2"


def test_python_repr_with_escapes_literals_and_tuples():
    text = "{'name': 'Widget\\xa0Pro', 'price': 12.5, 'ok': True, 'gone': None, 'dims': (3, 4), 'grid': [[1, 2], [3]]}"
    node, end = parse_data(text)
    items = dict(node.items)
    assert end == len(text)
    assert items["name"].text == "Widget\xa0Pro"  # \xa0 unescaped
    assert text[items["name"].start:items["name"].end] == "Widget\\xa0Pro"  # the span is as written
    assert (items["ok"].kind, items["ok"].text) == ("literal", "True")
    assert (items["gone"].kind, items["gone"].text) == ("literal", "None")
    assert items["dims"].kind == "list" and [v.text for _, v in items["dims"].items] == ["3", "4"]
    assert [[v.text for _, v in row.items] for _, row in items["grid"].items] == [["1", "2"], ["3"]]


def test_bare_keys_and_number_keys():
    node, _ = parse_data("{temp: 3.5, wind_speed: 4, 2019: 7}")
    assert [(k, v.text) for k, v in node.items] == [("temp", "3.5"), ("wind_speed", "4"), ("2019", "7")]


def test_json_lines_are_a_list_of_objects():
    text = '{"year": 2019, "v": 1}\n\n{"year": 2020, "v": 2}\n'
    node = parse_lines(text, 0, len(text))
    assert node.kind == "list" and [k for k, _ in node.items] == [0, 1]
    assert [dict(obj.items)["year"].text for _, obj in node.items] == ["2019", "2020"]
    with pytest.raises(DataError, match="each line of JSON Lines must be one object at line 2"):
        parse_lines('{"a": 1}\n[1, 2]\n', 0, 15)


@pytest.mark.parametrize("text,message", [
    ('{"a": 1,, }', "a key was expected at line 1, column 9"),
    ('{\n  "a": 1\n  "b": 2}', "',' or '}' was expected at line 3, column 3"),
    ("{'a': 'x}", "a string is not closed at line 1, column 7"),
    ('{"a": 1', "',' or '}' was expected at line 1, column 8"),
    ('{"a" 1}', "':' was expected after a key at line 1, column 6"),
    ('[1, @]', "unexpected '@' at line 1, column 5"),
])
def test_malformed_data_names_line_and_column(text, message):
    with pytest.raises(DataError) as error:
        parse_data(text)
    assert str(error.value) == message
    line, column = (int(n) for n in re.findall(r"\d+", message)[-2:])
    assert error.value.position == sum(len(x) + 1 for x in text.split("\n")[:line - 1]) + column - 1


def test_nesting_beyond_the_maximum_depth_is_refused():
    deep = "[" * (MAX_DEPTH + 2) + "]" * (MAX_DEPTH + 2)
    with pytest.raises(DataError, match=f"nesting deeper than {MAX_DEPTH}"):
        parse_data(deep)
    fine = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert parse_data(fine)[1] == len(fine)
    assert find_data(deep) == ()  # detection gives up quietly


def test_read_data_reads_the_whole_text_or_says_where_it_stops():
    assert read_data('  {"a": 1}\n', "json").format == "json"
    assert read_data("{'a': None}", "python").root.kind == "object"
    assert len(read_data('{"a": 1}\n{"a": 2}\n', "jsonl").root.items) == 2
    with pytest.raises(DataError, match="text after the data at line 2, column 1"):
        read_data('{"a": 1}\nmore', "json")


# -- detection ---------------------------------------------------------------------------------------------------


def test_the_whole_text_is_data():
    [block] = find_data(FORECAST)
    assert (block.start, block.end, block.format) == (0, len(FORECAST), "json")
    [table] = find_tables(FORECAST)
    assert table.format == "json" and all(cell.path for cell in table.cells)


def test_a_fenced_block_inside_a_prompt():
    prompt = 'Summarise the data below.\n```json\n{"city": "Lyon", "population": 522000}\n```\nBe brief: 2 lines.'
    [block] = find_data(prompt)
    assert prompt[block.start:block.end] == '{"city": "Lyon", "population": 522000}'
    cells = _cells(prompt)
    assert cells == {"population": ("522000", "population", "", "Lyon")}
    # The figure of the prose after the block is no cell.
    [table] = find_tables(prompt)
    assert [prompt[c.start:c.end] for c in table.cells] == ["522000"]


def test_a_one_line_dict_after_prose():
    text = "Readings for today.\n{'temp': 5, 'hum': 60}\nThat is all for 2024."
    [block] = find_data(text)
    assert text[block.start:block.end] == "{'temp': 5, 'hum': 60}"
    assert [v.text for _, v in block.root.items] == ["5", "60"]


@pytest.mark.parametrize("prose", [
    "As shown in [1], revenue grew 12% (see 2019) to $3 million.",
    "Items [2, 3] and (4, 5) are listed; see [12].",
    "Use {braces} and [brackets] freely: 7 of them.",
])
def test_a_citation_or_a_bracket_in_prose_is_no_data(prose):
    assert find_data(prose) == ()
    assert in_keys(prose, [(m.start(), m.end()) for m in re.finditer(r"\d+", prose)]) == [False] * len(
        re.findall(r"\d+", prose))


def test_csv_stays_with_the_delimited_reader():
    text = "city,population,area\nLyon,522000,47.9\nNice,342000,71.9\n"
    assert find_data(text) == ()
    [table] = find_tables(text)
    assert table.format == "delimited" and not any(cell.path for cell in table.cells)


# -- cells -------------------------------------------------------------------------------------------------------


def test_a_forecast_list_record_by_record():
    cells, records = _cells(FORECAST), _records(FORECAST)
    assert cells["list[0].main.temp"] == ("3.5", "main.temp", "list", "2024-01-04 02:00:00")
    assert cells["list[1].main.temp"] == ("2.9", "main.temp", "list", "2024-01-04 05:00:00")
    assert cells["list[0].rain.3h"] == ("0.4", "rain.3h", "list", "2024-01-04 02:00:00")
    assert cells["city.population"] == ("580000", "population", "city", "Oslo")
    # a list's object is a record (a row) of its own, and so is an object under a key with identifying fields of
    # its own (the city, named); one without them belongs to the record around it (`main` of a forecast)
    assert records["list[0].main.temp"] == records["list[0].rain.3h"] == records["list[0].dt"]
    assert len({records["list[0].main.temp"], records["list[1].main.temp"], records["city.population"]}) == 3
    assert records["city.population"] != records["cod"]  # the named city is a record of its own
    # identifiers ("id", "icon") are no cells; "cod" is a value with digits, so it is one
    assert not any(path.endswith((".id", ".icon")) for path in cells)
    assert "cod" in cells
    # the same key path below the record is one column of the table
    [table] = find_tables(FORECAST)
    temps = [c for c in table.cells if c.path.endswith("main.temp")]
    assert len({c.column for c in temps}) == 1 and len({c.row for c in temps}) == 2
    assert temps[0].headers == ("main.temp",) and temps[0].section == "list" and temps[0].row_label == \
        "2024-01-04 02:00:00"


def test_a_cell_label_tells_its_path_and_record():
    from nash_metric.context.words import CellLabel, mention_contexts
    from nash_metric.numbers import extract_numbers

    mentions = [m for m in extract_numbers(FORECAST) if m.value is not None]
    labels = {FORECAST[m.start:m.end]: c.label for m, c in zip(mentions, mention_contexts(FORECAST, mentions))}
    assert labels["3.5"] == CellLabel("list", "2024-01-04 02:00:00", "main.temp", "list[0].main.temp")
    assert labels["3.5"].describe() == "list[0].main.temp (2024-01-04 02:00:00)"
    assert labels["580000"].describe() == "city.population (Oslo)"
    assert CellLabel("Revenue:", "Fixed Price", "2019").describe() == "Revenue: · Fixed Price · 2019"  # text tables
    assert CellLabel("", "", "ram_gb", "ram_gb").describe() == "ram_gb"


def test_a_nested_spec_of_name_value_records():
    spec = ('{"name": "Aero X2", "specs": {"memory": [{"name": "RAM", "value": 16, "unit": "GB"}, '
            '{"name": "Storage", "value": 256, "unit": "GB"}], "weight_g": 187}}')
    cells = _cells(spec)
    assert cells == {
        "name": ("Aero X2", "name", "", ""),  # a value with a digit; its own text is no label of itself
        "specs.memory[0].value": ("16", "value", "specs.memory", "Aero X2 · RAM"),  # the outer name, then its own
        "specs.memory[1].value": ("256", "value", "specs.memory", "Aero X2 · Storage"),
        "specs.weight_g": ("187", "specs.weight_g", "", "Aero X2"),
    }


def test_name_value_pairs_are_columns_of_the_record_around_them():
    # A spec sheet as a list of {"name", "value"} pairs: the name is the value's attribute (its column), the record
    # around it (its category) its row. A name is no cell, but its digits state what the record has ("a 3.5mm
    # jack"), unless the value says it has none.
    spec = ("{'name': 'Xperia 10 V', 'detailSpec': [{'category': 'Display', 'specifications': ["
            "{'name': 'Size', 'value': '6.1 inches'}, {'name': '3.5mm jack', 'value': 'Yes'}, "
            "{'name': '5G bands', 'value': 'No'}]}]}")
    assert _cells(spec) == {
        "name": ("Xperia 10 V", "name", "", ""),
        "detailSpec[0].specifications[0].value": ("6.1 inches", "Size", "detailSpec", "Xperia 10 V · Display"),
    }
    assert in_keys(spec, [_at(spec, "3.5"), _at(spec, "5G")]) == [False, True]


def test_an_escaped_line_end_is_part_of_a_string():
    node, _ = parse_data("{'camera': '50 MP\\n64 MP'}")  # Python's repr of a two-line value
    assert node.items[0][1].text == "50 MP\n64 MP"
    with pytest.raises(DataError, match="a string runs over a line end"):
        parse_data("{'camera': '50 MP\n64 MP'}")


def test_json_lines_of_yearly_records():
    text = '{"year": 2019, "sales": 120.5}\n{"year": 2020, "sales": 135}\n{"year": 2021, "sales": 150}\n'
    [block] = find_data(text)
    assert block.format == "jsonl"
    cells = _cells(text)
    assert cells["[1].sales"] == ("135", "sales", "", "2020")
    assert cells["[2].year"] == ("2021", "year", "", "")  # a year is a value too (not its own row label)
    assert len(set(_records(text).values())) == 3
    assert [path for path in cells if path.endswith("sales")] == ["[0].sales", "[1].sales", "[2].sales"]


# -- digits in keys and identifiers ------------------------------------------------------------------------------


def test_digits_in_keys_and_identifiers_are_no_figures():
    text = '{"FG3_PCT": 35.5, "rain": {"3h": 0.4}, "id": 802, "team_id": 1610612737, "qtr1": 28}'
    numbers = [(m.start(), m.end()) for m in re.finditer(r"\d+(?:\.\d+)?", text)]
    assert [(text[a:b], key) for (a, b), key in zip(numbers, in_keys(text, numbers))] == [
        ("3", True),  # FG3_PCT
        ("35.5", False),
        ("3", True),  # rain.3h
        ("0.4", False),
        ("802", True),  # an identifier
        ("1610612737", True),  # *_id
        ("1", True),  # qtr1
        ("28", False),
    ]
    assert in_keys(text, [_at(text, "35")]) == [False]  # a part of a value is in the value


def test_the_pool_drops_key_digits_from_the_figures():
    from nash_metric.numbers import extract_numbers
    from nash_metric.pipeline.pool import TextPool

    text = '{"FG3_PCT": 35.5, "id": 802, "pts": 27, "rain": {"3h": 0.4}}'
    assert [text[m.start:m.end] for m in extract_numbers(text)] == ["35.5", "802", "27", "3h", "0.4"]
    pool = TextPool.build([text])
    assert [text[m.start:m.end] for m in pool.mentions[text]] == ["35.5", "27", "0.4"]
    prose = "Rain in 3 h: 0.4 mm, station id 802."  # no data: every number is read
    assert [prose[m.start:m.end] for m in TextPool.build([prose]).mentions[prose]] == ["3", "0.4", "802"]
    assert [text[m.start:m.end] for m in TextPool.build([text], "paper").mentions[text]][:2] == ["35.5", "802"]


# -- keys as words -----------------------------------------------------------------------------------------------


# Expansions through KEY_WORDS itself (its words change as the vocabulary grows); the splitting is what is tested.
@pytest.mark.parametrize("key,words", [
    ("wind_speed", "wind speed"),
    ("FG3_PCT", f"{KEY_WORDS['fg3']} {KEY_WORDS['pct']}"),  # "fg3" is an entry: not "fg" + "3"
    ("ramGb", f"{KEY_WORDS['ram']} {KEY_WORDS['gb']}"),  # camelCase
    ("homeScore.period1", "home score period 1"),  # a path, camelCase, a trailing digit
    ("TEAM-PTS_QTR1", f"team {KEY_WORDS['pts']} {KEY_WORDS['qtr1']}"),
    ("main.temp", f"main {KEY_WORDS['temp']}"),
    ("list[0].main.temp", f"list 0 main {KEY_WORDS['temp']}"),
    ("Fixed Price", "fixed price"),  # a header written as words stays as it is, lower-cased
    ("", ""),
])
def test_keys_read_as_words(key, words):
    assert key_words(key) == words.lower()


def test_a_glossary_entry_wins_whole_key_first_then_part():
    glossary = {"FG3_PCT": "three point percentage", "qtr1": "opening quarter", "temp": "warmth"}
    assert key_words("FG3_PCT", glossary) == "three point percentage"
    # the whole-key entry is for "FG3_PCT" (or its lower case), not for another spelling
    assert key_words("FG3-PCT", glossary) == f"{KEY_WORDS['fg3']} {KEY_WORDS['pct']}"
    assert key_words("TEAM-PTS_QTR1", glossary) == f"team {KEY_WORDS['pts']} opening quarter"
    assert key_words("main.temp", glossary) == "main warmth"
    assert key_words("main.temp", {"main.temp": "Air Temperature"}) == "air temperature"


# -- the glossary file and option ---------------------------------------------------------------------------------


def test_glossary_files(tmp_path):
    as_json = tmp_path / "g.json"
    as_json.write_text('{"FG3_PCT": "three point percentage", "reb": "boards"}', encoding="utf-8")
    assert dict(read_glossary(as_json)) == {"FG3_PCT": "three point percentage", "reb": "boards"}
    lines = tmp_path / "g.txt"
    lines.write_text("# keys of the box score\nFG3_PCT: three point percentage  # a comment\n\n"
                     "reb\tboards\nwind_deg: wind direction: degrees\n", encoding="utf-8")
    assert dict(read_glossary(lines)) == {"FG3_PCT": "three point percentage", "reb": "boards",
                                          "wind_deg": "wind direction: degrees"}


@pytest.mark.parametrize("content,message", [
    ("a: b\nno separator here\n", r"g\.txt, line 2: expected 'key: words', got 'no separator here'"),
    ("a: b\n# c\n: nothing before\n", r"g\.txt, line 3: expected 'key: words'"),
    ("a:\n", r"g\.txt, line 1: expected 'key: words', got 'a:'"),
    ('{"a": 1}', r"g\.txt: each entry must map a key to words \(a string\); not so for 'a'"),
    ('{"a": "b",}', r"g\.txt: not a JSON object of key -> words"),
])
def test_a_malformed_glossary_file_names_the_line(tmp_path, content, message):
    path = tmp_path / "g.txt"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        read_glossary(path)


def test_the_glossary_option_takes_a_mapping_or_a_file(tmp_path):
    assert NASHConfig().glossary is None and check_glossary(None) is None
    config = NASHConfig(glossary={"reb": "boards"})
    assert dict(config.glossary) == {"reb": "boards"}
    path = tmp_path / "g.txt"
    path.write_text("reb: boards\n", encoding="utf-8")
    assert dict(NASHConfig(glossary=str(path)).glossary) == {"reb": "boards"}
    assert dict(NASHConfig(glossary=path).glossary) == {"reb": "boards"}  # a PathLike
    # by content: the same entries give the same digest whatever their order or source
    assert NASHConfig(glossary=path).digest() == config.digest() != NASHConfig().digest()
    assert NASHConfig(glossary={"reb": "rebounds"}).digest() != config.digest()
    assert config.model_digest() == NASHConfig().model_digest()  # the loaded model is shared


@pytest.mark.parametrize("value,error,match", [
    (3, OptionTypeError, "glossary: a glossary is a mapping of key -> words or a file's path, got int"),
    ({"reb": 3}, OptionTypeError, "glossary: a glossary maps a key"),
    ({1: "one"}, OptionTypeError, "glossary: a glossary maps a key"),
    (["reb"], OptionTypeError, "got list"),
    ("/no/such/glossary.txt", OptionError, "glossary: glossary file '/no/such/glossary.txt' not found"),
])
def test_a_bad_glossary_option_is_named(value, error, match):
    with pytest.raises(error, match=match) as raised:
        NASHConfig(glossary=value)
    assert raised.value.options == ("glossary",)
    assert (error is OptionTypeError) == isinstance(raised.value, TypeError)


def test_a_malformed_glossary_file_is_an_option_error(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("just words\n", encoding="utf-8")
    with pytest.raises(OptionError, match=r"glossary: .*g\.txt, line 1: expected 'key: words'"):
        NASHConfig(glossary=str(path))


@pytest.mark.parametrize("command", ["score", "check"])
def test_glossary_is_a_flag_of_score_and_check(command, tmp_path):
    from nash_metric.cli import build_parser, config_from_args

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices[command]
    [flag] = [a for a in sub._actions if a.dest == "glossary"]
    assert flag.option_strings == ["--glossary"] and flag.metavar == "GLOSSARY"
    assert "words for the keys" in flag.help.lower()
    path = tmp_path / "g.txt"
    path.write_text("reb: boards\n", encoding="utf-8")
    args = sub.parse_args(["--glossary", str(path)] + (["--source", "a", "--text", "b"] if command == "check" else []))
    assert isinstance(args, argparse.Namespace) and dict(config_from_args(args).glossary) == {"reb": "boards"}


def test_the_echo_holds_the_glossary_and_the_hashcode_moves_with_it(tiny_scorer):
    plain = tiny_scorer.echo
    assert plain["glossary"] is None
    with_glossary = tiny_scorer.with_options(glossary={"b2": "storage", "a1": "memory"})
    echoed = with_glossary.echo["glossary"]
    assert type(echoed) is dict and echoed == {"a1": "memory", "b2": "storage"}
    assert list(echoed) == ["a1", "b2"]  # sorted: the same entries echo alike
    assert with_glossary.hashcode != tiny_scorer.hashcode
    assert tiny_scorer.with_options(glossary={"a1": "memory", "b2": "storage"}).hashcode == with_glossary.hashcode
    assert tiny_scorer.with_options(glossary={"a1": "memory"}).hashcode != with_glossary.hashcode


def test_a_glossary_changes_what_a_key_binds(tiny_scorer):
    """A key the built-in words do not read ("b2") named by the glossary: "256 GB of storage" is then bound to the
    storage column, not to the one its value stands in."""
    from nash_metric.verdicts.spec import MISPLACED, SUPPORTED

    source, text = '{"a1": 16, "b2": 256}', "It has 256 GB of storage."
    [[plain]] = tiny_scorer.score([text], [source]).figure_verdicts
    [[named]] = tiny_scorer.with_options(glossary={"a1": "storage", "b2": "memory"}).score(
        [text], [source]).figure_verdicts
    assert (plain["verdict"], plain["found"]["cell"]["path"]) == (SUPPORTED, "b2")
    assert (named["verdict"], named["reference"]["cell"]["path"]) == (MISPLACED, "a1")


def test_a_hyphenated_word_names_a_snake_case_key(tiny_scorer):
    from nash_metric.verdicts.spec import SUPPORTED

    # "feels-like" names feels_like (words "feel like"), not temp, whose words share only "temperature"
    source = "{'list': [{'dt_txt': '2024-01-04 07:00:00', 'main': {'temp': 5.75, 'feels_like': 3.91}}, " \
             "{'dt_txt': '2024-01-04 10:00:00', 'main': {'temp': 3.91, 'feels_like': 1.2}}]}"
    [[figure]] = tiny_scorer.score(["Expect a feels-like temperature of 1.2°C."], [source]).figure_verdicts
    assert (figure["verdict"], figure["found"]["cell"]["path"]) == (SUPPORTED, "list[1].main.feels_like")
