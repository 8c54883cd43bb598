"""FilingClaims: the table reader, the three kinds right by construction, the forms, the split by table, the build's
determinism, and `nash bench filing-claims` end to end on the tiny model (hand-made TAT-QA-shaped contexts)."""

from __future__ import annotations

import json
import random
import re
from decimal import Decimal
from pathlib import Path

import pytest
from tatqa_records import question as _question

from nash_metric.benchmarks import registry
from nash_metric.benchmarks.filing_claims.build import build, build_rows, context_rows, read_source, split_of
from nash_metric.benchmarks.filing_claims.defaults import FORMS, SPLIT_CHOICES
from nash_metric.benchmarks.filing_claims.figures import SourceNumbers, agrees, core_place, perturbed
from nash_metric.benchmarks.filing_claims.questions import question_sentence
from nash_metric.benchmarks.filing_claims.render import render_source
from nash_metric.benchmarks.filing_claims.table import read_figure, read_table
from nash_metric.benchmarks.value_anywhere import digit_values
from nash_metric.common.io import InputFileError

SALES = {
    "table": {"uid": "sales", "table": [
        ["", "", "Years Ended September 30,", ""],
        ["", "2019", "2018", "2017"],
        ["Fixed Price", "$  1,452.4", "$  1,146.2", "$  1,036.9"],
        ["Other", "44.1", "56.7", "70.8"],
        ["Total sales", "$1,496.5", "$1,202.9", "$1,107.7"],
    ]},
    "paragraphs": [{"uid": "p2", "order": 2, "text": "The table below presents net sales by contract type (in "
                    "millions):"},
                   {"uid": "p1", "order": 1, "text": "Sales by Contract Type: substantially all are fixed-price."}],
    "questions": [
        _question("q1", "What is the amount of total sales in 2019?", ["$1,496.5"], scale="million"),
        _question("q2", "What is the change in Other in 2019 from 2018?", -12.6, derivation="44.1-56.7",
                  scale="million"),
        _question("q3", "What are the contract types?", ["fixed-price type"], answer_from="text"),
        _question("q4", "Which years are shown in the table?", ["2019", "2018", "2017"]),
    ],
}
BALANCE = {
    "table": {"uid": "balance", "table": [
        ["($ in thousands)", "", ""],
        ["", "December 31, 2019", "December 31, 2018"],
        ["Revenue", "$ 12,491", "$ 9,587"],
        ["Net loss", "(228)", "(1,310)"],
        ["Other", "5", "7"],
        ["Gross margin", "41.2%", "39.8%"],
        ["Other", "3", "4"],  # a label that repeats names no one row: no claim about it
    ]},
    "paragraphs": [{"uid": "p", "order": 1, "text": "Revenue rose on 30 new contracts."}],
    "questions": [],
}


def _copies(n: int) -> list[dict]:
    return [{**SALES, "table": {**SALES["table"], "uid": f"sales-{k}"}} for k in range(n)]


# -- reading a table ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("cell", "expected"), [
    ("$  1,452.4", ("$", "1,452.4", "", False, Decimal("1452.4"))),
    ("$(5,625)", ("$", "5,625", "paren", False, Decimal("-5625"))),
    ("(228)", ("", "228", "paren", False, Decimal("-228"))),
    ("−136", ("", "136", "minus", False, Decimal("-136"))),
    ("-5%", ("", "5", "minus", True, Decimal("-5"))),
    ("85.9 %", ("", "85.9", "", True, Decimal("85.9"))),
    ("2019", None), ("—", None), ("NM", None), ("", None), ("(228", None), ("12 months", None),
])
def test_a_cell_is_read_as_printed(cell, expected):
    figure = read_figure(cell)
    got = None if figure is None else (figure.currency, figure.core, figure.negative, figure.percent, figure.value)
    assert got == expected


def test_the_header_labels_and_scale_of_a_table():
    sales, balance = read_table(SALES), read_table(BALANCE)
    assert sales.header_rows == 2 and sales.headers == {1: "2019", 2: "2018", 3: "2017"}
    assert sales.labels == {2: "Fixed Price", 3: "Other", 4: "Total sales"}
    assert (sales.scale, sales.scale_source) == ("million", "paragraphs")
    assert len(sales.figures) == 9 and sales.row_currency(2) == "$" and sales.row_currency(3) == ""
    assert balance.headers == {1: "December 31, 2019", 2: "December 31, 2018"}  # the scale note is no header
    assert set(balance.labels.values()) == {"Revenue", "Net loss", "Gross margin"}  # "Other" twice: neither
    assert (balance.scale, balance.scale_source) == ("thousand", "table")
    assert balance.row_scale(2) == "thousand" and balance.row_scale(5) == ""  # a margin is not in thousands


def test_note_columns_unit_headers_and_footnote_markers_are_not_read_as_figures_or_names():
    context = {"table": {"uid": "uk", "table": [
        ["", "", "2019 $’000", "2018 $’000"],
        ["", "Note", "", ""],
        ["Investments (1)", "3", "1,216.0", "1,212.9"],
        ["Debtors", "4", "415.9", "440.7"],
    ]}, "paragraphs": [], "questions": []}
    table = read_table(context)
    assert table.headers == {1: "Note", 2: "2019", 3: "2018"} and set(table.figures) == {(2, 2), (2, 3), (3, 2), (3, 3)}
    assert table.labels[2] == "Investments" and (table.scale, table.scale_source) == ("thousand", "table")


# -- the values of the wrong claims -------------------------------------------------------------------------


def test_agreement_at_written_precision():
    assert agrees(Decimal("1450"), Decimal("1452.4"))  # 1,452.4 is 1,450 at tens
    assert agrees(Decimal("7.50"), Decimal("7.5")) and agrees(Decimal("-228"), Decimal("228"))
    assert not agrees(Decimal("98.2"), Decimal("98.3")) and not agrees(Decimal("1452.4"), Decimal("1452.5"))


def test_a_perturbed_value_is_a_number_of_the_source_nowhere():
    source = SourceNumbers.of(["1,452.4 1,146.2 1,036.9 44.1 56.7 70.8 2019 2018 2017 1,500"])
    figure = read_figure("$1,452.4")
    for seed in range(50):
        wrong = perturbed(figure, random.Random(seed), source)
        assert wrong is not None and wrong.currency == "$" and wrong.decimals == 1
        assert not any(agrees(wrong.value, v) for v in source.values)
        one_digit = len(wrong.core) == len(figure.core) and sum(a != b for a, b in zip(wrong.core, figure.core)) == 1
        assert one_digit or abs(wrong.value / figure.value - 1) <= Decimal("0.15")


# -- claims right by construction ---------------------------------------------------------------------------


def _table_values(context: dict) -> dict[tuple[int, int], Decimal]:
    """The test's own reading of the body cells: every digit string after the two header rows, by position."""
    values = {}
    for r, row in enumerate(context["table"]["table"][2:], start=2):
        for c, cell in enumerate(row[1:], start=1):
            found = re.findall(r"\d[\d,]*\.?\d*", cell)
            if found:
                values[(r, c)] = Decimal(found[0].replace(",", ""))
    return values


def _stated(figure: str) -> Decimal:
    return Decimal(re.search(r"\d[\d,]*\.?\d*", figure).group().replace(",", ""))


@pytest.mark.parametrize("context", [SALES, BALANCE], ids=["sales", "balance"])
def test_every_kind_is_right_by_construction(context):
    rows, _ = context_rows(context, seed=3, cells_per_table=20)
    values = _table_values(context)
    source_numbers = set(digit_values(rows[0]["source"], skip_list_labels=False))
    templates = [r for r in rows if r["group"] == "template" and r["form"] == "markdown"]
    assert {r["kind"] for r in templates} == {"supported", "misplaced", "unsupported"}
    for row in templates:
        cell, stated = tuple(row["cell"]), _stated(row["figure"])
        assert row["figure"] in row["claim"] and row["label"] == int(row["kind"] == "supported")
        if row["kind"] == "supported":
            assert stated == values[cell] and tuple(row["value_cell"]) == cell
        elif row["kind"] == "misplaced":  # another cell's value, of the same row or column, that the table holds
            other = tuple(row["value_cell"])
            assert other != cell and (other[0] == cell[0]) != (other[1] == cell[1])
            assert stated == values[other] and stated != values[cell] and stated in source_numbers
        else:  # a value stated nowhere: not in the table, not in the paragraphs
            written = core_place(re.search(r"\d[\d,]*\.?\d*", row["figure"]).group())
            assert stated not in source_numbers and not any(agrees(stated, v, written) for v in source_numbers)


def test_kinds_are_balanced_per_cell_and_share_a_template():
    rows, tally = context_rows(SALES, seed=0, cells_per_table=2)
    templates = [r for r in rows if r["group"] == "template" and r["form"] == "text"]
    assert tally["cells used"] == 2 and len(templates) == 6
    for cell in {tuple(r["cell"]) for r in templates}:
        claims = [r["claim"] for r in templates if tuple(r["cell"]) == cell]
        figures = [r["figure"] for r in templates if tuple(r["cell"]) == cell]
        assert len(claims) == 3 and len({c.replace(f, "{V}") for c, f in zip(claims, figures)}) == 1


def test_question_claims_state_table_answers_and_leave_computed_ones_out():
    rows, tally = context_rows(SALES, seed=0)
    questions = [r for r in rows if r["group"] == "question" and r["form"] == "html"]
    supported = next(r for r in questions if r["kind"] == "supported")
    wrong = next(r for r in questions if r["kind"] == "misplaced")
    assert supported["claim"] == "The amount of total sales in 2019 was $1,496.5 million." and supported["label"] == 1
    values = _table_values(SALES)
    assert wrong["label"] == 0 and tuple(wrong["value_cell"]) != (4, 1)
    assert _stated(wrong["figure"]) == values[tuple(wrong["value_cell"])] != Decimal("1496.5")
    assert wrong["claim"] == f"The amount of total sales in 2019 was {wrong['figure']}."
    assert tally["questions: computed from the table (arithmetic ones: group computed)"] == 1
    assert tally["questions: not answered from the table"] == 1
    assert tally["questions skipped: an answer is not a figure"] == 1  # years are not figures
    assert tally["questions used"] == 1


def test_question_sentences():
    assert question_sentence("What was the Interest income in 2019 and 2018 respectively?", ["$1", "$2"]) == (
        "The Interest income in 2019 and 2018 respectively were $1 and $2.")
    assert question_sentence("How many shares were sold?", ["5"]) == "How many shares were sold: 5."


# -- forms --------------------------------------------------------------------------------------------------


def test_each_form_renders_the_table_then_the_paragraphs():
    table, paragraphs = read_table(SALES), ["First.", "Second."]
    markdown = render_source(table, paragraphs, "markdown")
    lines = markdown.splitlines()
    assert lines[0] == "|  |  |  |  | Years Ended September 30, |  |  |" and lines[1] == "|---|---|---|---|---|---|---|"
    assert lines[2] == "|  |  | 2019 |  | 2018 |  | 2017 |"  # the second header row kept, as a row
    assert "| Fixed Price | $ | 1,452.4 | $ | 1,146.2 | $ | 1,036.9 |" in lines  # `$` in a cell of its own
    assert "| Other |  | 44.1 |  | 56.7 |  | 70.8 |" in lines
    html = render_source(table, paragraphs, "html")
    assert "<th>2019</th>" in html and "<td>Fixed Price</td><td>$ 1,452.4</td>" in html and "<th>Other" not in html
    text = render_source(table, paragraphs, "text").splitlines()
    assert text[2].startswith("Fixed Price   ") and text[2].endswith("   $ 1,036.9") and text[3].endswith(" 70.8")
    assert len({len(line) for line in text[1:5]}) == 1  # figures right-aligned in columns
    for form in FORMS:
        assert render_source(table, paragraphs, form).endswith("\n\nFirst.\n\nSecond.")


def test_paragraphs_follow_their_order():
    rows, _ = context_rows(SALES)
    assert rows[0]["source"].endswith("Sales by Contract Type: substantially all are fixed-price.\n\nThe table below "
                                      "presents net sales by contract type (in millions):")


# -- the build ----------------------------------------------------------------------------------------------


def test_the_build_is_deterministic_for_a_seed():
    contexts = [SALES, BALANCE, *_copies(3)]
    first, report = build_rows(contexts, seed=0)
    again, _ = build_rows(contexts, seed=0)
    assert first == again and report["rows"] == len(first)
    others = [build_rows(contexts, seed=s)[0] for s in (1, 2, 3)]
    assert any(o != first for o in others)
    alone, _ = context_rows(BALANCE, seed=0)
    assert [r for r in first if r["table"] == "balance"] == alone  # a table's claims ignore the other tables


def test_the_split_is_by_table_and_kept_across_claim_seeds():
    contexts = _copies(40)
    rows, report = build_rows(contexts, seed=0, cells_per_table=1)
    halves: dict[str, set[str]] = {}
    for row in rows:
        halves.setdefault(row["table"], set()).add(row["split"])
    assert all(len(s) == 1 for s in halves.values())  # no table in both halves
    assert {next(iter(s)) for s in halves.values()} == {"tune", "report"}
    assert sum(report["tables"].values()) == 40
    reseeded, _ = build_rows(contexts, seed=7, cells_per_table=1)
    assert {r["table"]: r["split"] for r in reseeded} == {t: next(iter(s)) for t, s in halves.items()}
    assert {split_of(f"sales-{k}", 1) for k in range(40)} == {"tune", "report"}
    assert [split_of(f"sales-{k}", 1) for k in range(40)] != [split_of(f"sales-{k}") for k in range(40)]


def _source_file(tmp_path: Path, contexts: list) -> Path:
    path = tmp_path / "tatqa.json"
    path.write_text(json.dumps(contexts), encoding="utf-8")
    return path


def test_build_writes_claims_format_rows_and_a_report(tmp_path):
    out = tmp_path / "fc" / "claims.jsonl"
    report = build(out, source=_source_file(tmp_path, [SALES, BALANCE, *_copies(6)]), seed=0)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == report["rows"] and Path(report["build_report"]).is_file()
    row = json.loads(lines[0])
    assert {"id", "source", "claim", "label", "kind", "group", "form", "split", "table"} <= set(row)
    assert len({json.loads(line)["id"] for line in lines}) == len(lines)
    assert "questions used" in registry["filing-claims"].build_markdown(report)


@pytest.mark.parametrize(("payload", "message"), [
    ({"table": {}}, "expected a non-empty JSON list"),
    ([{"table": {"uid": "t"}}], r"context 0: field 'table.table'"),
    ([{"table": {"uid": 5, "table": [["a", "1"]]}}], r"context 0: field 'table.uid'"),
])
def test_a_bad_source_fails_with_where(tmp_path, payload, message):
    with pytest.raises(InputFileError, match=message):
        read_source(_source_file(tmp_path, payload))


# -- evaluation ---------------------------------------------------------------------------------------------


def test_bench_filing_claims_end_to_end_on_the_tiny_model(tmp_path, tiny_scorer):
    out = tmp_path / "claims.jsonl"
    build(out, source=_source_file(tmp_path, [SALES, BALANCE, *_copies(6)]), cells_per_table=1)
    result = registry["filing-claims"].evaluate(tiny_scorer, out, split="both", limit=2, show_progress=False)
    splits = result["results"]["splits"]
    assert set(splits) == {"tune", "report"} and all(s["tables"] <= 2 for s in splits.values())
    cell = splits["report"]["all_forms"]["kind"]["misplaced"]
    assert {"numeric_support_auc", "verdict_ba", "value_anywhere_share_auc", "value_anywhere_ba"} <= set(cell)
    assert cell["value_anywhere_ba"] == 0.5  # every misplaced value is in the table: the check passes them all
    assert set(splits["tune"]["forms"]) == set(FORMS)
    text = registry["filing-claims"].markdown(result)
    assert "### Split report" in text and "html · kind unsupported vs label 1" in text
    assert result["config"]["data"]["kind"] == "build" and result["config"]["split"] == "both"


def test_a_claims_file_that_is_not_a_build_is_refused(tmp_path):
    path = tmp_path / "plain.jsonl"
    path.write_text(json.dumps({"source": "s 1", "claim": "c 1", "label": 1}) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"plain.jsonl:1: field 'form' missing"):
        registry["filing-claims"].evaluate(lambda **_: None, path, show_progress=False)


def test_the_cli_builds_and_benches(tmp_path, tiny_model_dir, capsys):
    from nash_metric.cli import main

    source, out = _source_file(tmp_path, [SALES, BALANCE]), tmp_path / "claims.jsonl"
    assert main(["build-data", "filing-claims", "--source", str(source), "--out", str(out), "--seed", "2"]) == 0
    assert "questions used" in capsys.readouterr().out
    result = tmp_path / "result.json"
    code = main(["bench", "filing-claims", "--data", str(out), "--split", "both", "--output", str(result),
                 "--model", str(tiny_model_dir), "--backend", "token", "--threshold", "0"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert json.loads(result.read_text(encoding="utf-8"))["benchmark"] == "filing-claims"
    assert main(["bench", "filing-claims", "--data", str(out), "--source", str(source)]) == 2
    assert "give --data (a build) or --source" in capsys.readouterr().err


def test_the_cli_takes_its_choices_from_the_benchmark():
    from nash_metric.cli import build_parser

    parser = build_parser()
    bench = next(a for a in parser._actions if a.dest == "command").choices["bench"]
    sub = next(a for a in bench._actions if a.dest == "benchmark").choices["filing-claims"]
    assert next(a for a in sub._actions if a.dest == "split").choices is SPLIT_CHOICES


def test_the_cli_defaults_are_the_entry_points_defaults():
    import inspect

    from nash_metric.cli import build_parser

    parser = build_parser()

    def flags(command: str) -> dict:
        group = next(a for a in parser._actions if a.dest == "command").choices[command]
        sub = next(a for a in group._actions if a.dest in ("benchmark", "dataset")).choices["filing-claims"]
        return {a.dest: a.default for a in sub._actions}

    benchmark = registry["filing-claims"]
    for command, entry in (("bench", benchmark.evaluate), ("build-data", benchmark.build)):
        defaults = flags(command)
        parameters = inspect.signature(entry).parameters
        for name in ("seed", "split_seed", "cells_per_table", *(("split",) if command == "bench" else ())):
            assert defaults[name] == parameters[name].default, (command, name)
