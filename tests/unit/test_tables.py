"""Tables in a source read as tables: every numeric cell with its row label, column headers, section and scale.

The fixtures are filing tables written by hand in the four formats (markdown pipes, HTML, TSV/CSV,
whitespace-aligned plain text); each expected header, label and span is read off the fixture by eye.
"""

from __future__ import annotations

import pytest

from nash_metric.context.tables import Cell, Table, cell_at, find_tables, row_text, scale_of


def _only(text: str) -> Table:
    tables = find_tables(text)
    assert len(tables) == 1, [(t.format, text[t.start:t.end]) for t in tables]
    return tables[0]


def _cell(text: str, table: Table, value: str, nth: int = 0) -> Cell:
    """The `nth` cell whose text is exactly `value` (so a test names the cell it means by what it shows)."""
    found = [c for c in table.cells if text[c.start:c.end] == value]
    assert len(found) > nth, (value, [text[c.start:c.end] for c in table.cells])
    return found[nth]


def _texts(text: str, table: Table) -> list[str]:
    return [text[c.start:c.end] for c in table.cells]


# ---------------------------------------------------------------- markdown

FIXED_PRICE = """Sales by contract type were as follows ($ in millions):

| | | Years Ended September 30, | |
|---|---|---|---|
| | 2019 | 2018 | 2017 |
| Fixed Price | $ | 1,452.4 | $ | 1,146.2 | $ | 1,036.9 |
| Other | | 44.1 | | 56.7 | | 70.8 |
| Total sales | $ | 1,496.5 | $ | 1,202.9 | $ | 1,107.7 |

Fixed Price sales rose in 2019.
"""


def test_markdown_dollar_cells_multi_row_header_and_caption_scale():
    table = _only(FIXED_PRICE)
    assert table.format == "markdown"
    assert FIXED_PRICE[table.start:table.end].startswith("| | | Years Ended")
    assert FIXED_PRICE[table.start:table.end].endswith("$ | 1,107.7 |")
    assert table.caption == "Sales by contract type were as follows ($ in millions):"
    assert table.scale == 1e6
    # The `$` cells are gaps, not columns: nine figures on three logical columns under three years.
    assert _texts(FIXED_PRICE, table) == ["1,452.4", "1,146.2", "1,036.9", "44.1", "56.7", "70.8",
                                          "1,496.5", "1,202.9", "1,107.7"]
    cell = _cell(FIXED_PRICE, table, "1,146.2")
    assert (cell.row, cell.column, cell.row_label, cell.section) == (0, 2, "Fixed Price", "")
    assert cell.headers == ("Years Ended September 30,", "2018")  # the spanning header, then the year
    assert _cell(FIXED_PRICE, table, "1,452.4").headers == ("Years Ended September 30,", "2019")
    assert _cell(FIXED_PRICE, table, "1,107.7").headers[-1] == "2017"
    assert _cell(FIXED_PRICE, table, "56.7").row_label == "Other"
    assert row_text(cell) == "Fixed Price Years Ended September 30, 2018"


def test_markdown_header_with_the_same_dollar_gaps_and_no_rule_line():
    text = ("| | | 2019 | | 2018 |\n"
            "| Fixed Price | $ | 1,452.4 | $ | 1,146.2 |\n"
            "| Other | | 44.1 | | 56.7 |\n")
    table = _only(text)
    assert table.scale is None and table.caption == ""
    assert [(text[c.start:c.end], c.headers, c.row) for c in table.cells] == [
        ("1,452.4", ("2019",), 0), ("1,146.2", ("2018",), 0), ("44.1", ("2019",), 1), ("56.7", ("2018",), 1)]


def test_markdown_year_over_the_dollar_gap_moves_to_its_figure():
    # "2019" written above the `$` column (as a colspan flattened to its first cell) names the figure beside it.
    text = "| | 2019 | | 2018 | |\n|---|---|---|---|---|\n| Revenue | $ | 10 | $ | 9 |\n| Cost | | 4 | | 3 |\n"
    table = _only(text)
    assert [c.headers for c in table.cells] == [("2019",), ("2018",), ("2019",), ("2018",)]


def test_markdown_negatives_dashes_sections_and_a_unit_row():
    text = """| | 2019 | 2018 |
|---|---|---|
| | % | % |
| Revenue: | | |
| Product | 12.5 | (3.1) |
| Services | — | $(53) |
| Operating expenses: | | |
| Total | (1,234) | - |
"""
    table = _only(text)
    # "—" and "-" hold no digit: no cell; the "%" row is a header line (a unit), not a body row.
    assert _texts(text, table) == ["12.5", "(3.1)", "$(53)", "(1,234)"]
    product, services, total = (_cell(text, table, v) for v in ("(3.1)", "$(53)", "(1,234)"))
    assert product.headers == ("2018", "%") and product.section == "Revenue:" and product.row_label == "Product"
    assert services.row_label == "Services" and services.section == "Revenue:"
    assert total.section == "Operating expenses:" and total.headers == ("2019", "%")
    assert (product.row, services.row, total.row) == (1, 2, 4)  # section rows count as body rows


def test_markdown_spanning_group_headers_apply_to_the_columns_under_them():
    text = """| | Domestic | | International | |
|---|---|---|---|---|
| | 2019 | 2018 | 2019 | 2018 |
| Discount rate | 4.00% | 3.75% | 1.90% | 2.80% |
"""
    table = _only(text)
    assert [c.headers for c in table.cells] == [("Domestic", "2019"), ("Domestic", "2018"),
                                                ("International", "2019"), ("International", "2018")]


def test_markdown_title_row_states_the_scale_and_leading_labels_are_not_headers():
    text = """| ($ in thousands) | | |
|---|---|---|
| At December 31: | 2019 | 2018 |
| Transportation Solutions: | | |
| Automotive | 5,686 | 6,092 |
"""
    table = _only(text)
    assert table.scale == 1e3
    auto = _cell(text, table, "6,092")
    assert auto.headers == ("2018",) and auto.section == "Transportation Solutions:" and auto.row == 1


def test_markdown_year_label_column_and_per_share_scale():
    text = """(in millions, except per share data)

| Year | Operating leases | Finance leases |
|---|---|---|
| 2021 | $138 | $6 |
| 2022 | 135 | 6 |
"""
    table = _only(text)
    assert table.scale == 1e6  # "except per share" does not cancel the scale
    cell = _cell(text, table, "135")
    assert (cell.row_label, cell.headers, cell.column) == ("2022", ("Operating leases",), 1)
    year = _cell(text, table, "2021")  # a year in the label column is a cell too, labelled by itself
    assert (year.column, year.row_label) == (0, "2021")


# ---------------------------------------------------------------- HTML

HTML = """<p>Assumptions used (in thousands):</p>
<table>
  <caption>Net periodic cost</caption>
  <thead><tr><th></th><th colspan="2">Domestic</th><th colspan="2">International</th></tr>
  <tr><th></th><th>2019</th><th>2018</th><th>2019</th><th>2018</th></tr></thead>
  <tr><td>Discount&nbsp;rate</td><td>4.00%</td><td>3.75%</td><td>1.90%</td><td>2.80%</td></tr>
  <tr><td>Service cost:</td><td></td><td></td><td></td><td></td></tr>
  <tr><td>R&amp;D staff</td><td><b>$</b> 1,234</td><td>(567)</td><td>&#8212;</td><td>  8 </td></tr>
</table>
<p>After the table.</p>"""


def test_html_colspan_thead_entities_and_spans_into_the_original_text():
    table = _only(HTML)
    assert table.format == "html"
    assert HTML[table.start:table.end].startswith("<table>") and HTML[table.start:table.end].endswith("</table>")
    assert table.caption == "Assumptions used (in thousands):"
    assert table.scale == 1e3
    # Spans point at the text in the source: from the `$` in <b> to the figure after the tag, one cell.
    assert _texts(HTML, table) == ["4.00%", "3.75%", "1.90%", "2.80%", "$</b> 1,234", "(567)", "8"]
    rate = _cell(HTML, table, "1.90%")
    assert rate.headers == ("International", "2019") and rate.row_label == "Discount rate"
    cost = _cell(HTML, table, "(567)")
    assert (cost.row_label, cost.section, cost.headers) == ("R&D staff", "Service cost:", ("Domestic", "2018"))
    assert _cell(HTML, table, "8").headers == ("International", "2018")


def test_html_caption_element_states_a_scale_and_rows_without_thead():
    text = ("<table><caption>Segment revenue ($ in millions)</caption>"
            "<tr><td></td><td>2019</td><td>2018</td></tr>"
            "<tr><td>Cloud</td><td>5,058</td><td>4,345</td></tr></table>")
    table = _only(text)
    assert table.scale == 1e6
    assert [(text[c.start:c.end], c.headers) for c in table.cells] == [("5,058", ("2019",)), ("4,345", ("2018",))]


def test_a_pipe_line_inside_html_is_not_read_twice():
    text = "<table><tr><td>| a | 1 |</td></tr>\n<tr><td>| b | 2 |</td></tr></table>"
    assert [t.format for t in find_tables(text)] == ["html"]


# ---------------------------------------------------------------- delimited

def test_csv_block_with_quoted_thousands():
    text = """Segment results (in millions)
Segment,2019,2018
Automotive,"5,686","6,092"
Industrial,"3,954",(1234)
"""
    table = _only(text)
    assert table.format == "delimited" and table.scale == 1e6
    assert table.caption == "Segment results (in millions)"
    assert [(text[c.start:c.end], c.row_label, c.headers) for c in table.cells] == [
        ("5,686", "Automotive", ("2019",)), ("6,092", "Automotive", ("2018",)),
        ("3,954", "Industrial", ("2019",)), ("(1234)", "Industrial", ("2018",))]


def test_tsv_block():
    text = "Note 4.\n\n\t2019\t2018\nRevenue\t1,000\t900\nCost of sales\t(400)\t(350)\n"
    table = _only(text)
    assert table.format == "delimited"
    cost = _cell(text, table, "(350)")
    assert (cost.row_label, cost.headers, cost.row, cost.column) == ("Cost of sales", ("2018",), 1, 2)


# ---------------------------------------------------------------- plain-text columns

FILING = """Item 7. Management's Discussion

                         FISCAL DATA (Thousands)

                                       Years Ended September 30,
                                   2019          2018          2017
                                 --------      --------      --------
Revenue:
  Fixed Price                    $1,452.4      $1,146.2      $  1,036.9
  Other                              44.1          56.7            70.8
                                 --------      --------      --------
Total sales                      $1,496.5      $1,202.9      $  1,107.7

Sales grew in fiscal 2019.
"""


def test_plain_text_columns_with_header_lines_sections_and_a_title_scale():
    table = _only(FILING)
    assert table.format == "columns"
    assert table.caption == "FISCAL DATA (Thousands)" and table.scale == 1e3
    assert FILING[table.start:table.end].lstrip().startswith("Years Ended September 30,")
    assert FILING[table.start:table.end].endswith("1,107.7")
    # "$  1,036.9": the lone `$` belongs to the figure; its span is the figure's.
    assert _texts(FILING, table) == ["$1,452.4", "$1,146.2", "1,036.9", "44.1", "56.7", "70.8",
                                     "$1,496.5", "$1,202.9", "1,107.7"]
    other = _cell(FILING, table, "56.7")
    assert (other.row_label, other.section, other.column) == ("Other", "Revenue:", 2)
    assert other.headers == ("Years Ended September 30,", "2018")
    assert _cell(FILING, table, "1,107.7").headers == ("Years Ended September 30,", "2017")
    assert _cell(FILING, table, "$1,496.5").row_label == "Total sales"


def test_plain_text_header_goes_to_the_column_it_overlaps_most():
    text = """(Dollars in millions)     As Reported   Without Adoption   Effect
Accounts receivable               $708               $657      $51
Total assets                   $15,938            $15,824     $114
"""
    table = _only(text)
    assert table.scale == 1e6
    assert [c.headers for c in table.cells[:3]] == [("As Reported",), ("Without Adoption",), ("Effect",)]


# ---------------------------------------------------------------- scale

@pytest.mark.parametrize(("caption", "scale"), [
    ("(in thousands)", 1e3),
    ("(Thousands)", 1e3),
    ("Amounts in $000s", 1e3),
    ("RMB'000", 1e3),
    ("in 000s", 1e3),
    ("$ in millions", 1e6),
    ("(In millions, except per share data)", 1e6),
    ("Dollars in Millions", 1e6),
    ("2019 €m", 1e6),
    ("(millions)", 1e6),
    ("in billions of U.S. dollars", 1e9),
    ("Thousands of U.S. dollars", 1e3),
    ("Revenue rose to $5 million in 2019", None),  # a figure in prose states no scale
    ("We serve millions of customers", None),
    ("Income statement expense", None),
])
def test_scale_of(caption: str, scale: float | None):
    assert scale_of(caption) == scale


def test_the_earliest_scale_statement_wins():
    assert scale_of("(in millions, except shares in thousands)") == 1e6


# ---------------------------------------------------------------- prose is not a table

@pytest.mark.parametrize("text", [
    "In 2019, revenue rose 5%, driven by pricing, while costs fell 3%.\nIn 2018, revenue fell 2%, and costs rose.\n",
    "Revenue was $1,234 million, up from $1,100 million.\nCosts were $567 million, up from $500 million.\n",
    "The totals were 1,234,567 and 2,345,678 units\nagainst 3,456,789 and 4,567,890 units a year before\n",
    "Revenue rose.  Costs fell 5%.\n",
    "- Revenue grew  12%\n- Costs fell  3%\n- Margin rose  2%\n",
    "1) Revenue  $5.2 billion\n2) Margin  12.5%\n",
    "Revenue  5\nCosts were down  3\n",  # two figures, not aligned: no column
    "a | b\n",  # one pipe line
    "| Note | See page 4 |\n",
])
def test_prose_and_lists_are_not_tables(text: str):
    assert find_tables(text) == ()


def test_a_table_among_prose_keeps_the_prose_out():
    text = "Revenue rose 5%, to $1,234 million.\n\n" + FIXED_PRICE + "\nCosts, at $567 million, fell 2%.\n"
    table = _only(text)
    assert text[table.start:table.end] == FIXED_PRICE[FIXED_PRICE.index("| |"):FIXED_PRICE.index("\n\nFixed")]


# ---------------------------------------------------------------- lookup

def test_cell_at_finds_the_cell_holding_a_span_and_nothing_else():
    text = FIXED_PRICE + "\n" + FILING
    tables = find_tables(text)
    assert [t.format for t in tables] == ["markdown", "columns"]
    start = text.index("1,146.2")
    found = cell_at(tables, start, start + len("1,146.2"))
    assert found is not None and found[0] is tables[0] and found[1].headers[-1] == "2018"
    assert cell_at(tables, start + 2, start + 5)[1] == found[1]  # a span inside the cell
    assert cell_at(tables, start - 3, start + 7) is None  # runs past the cell
    prose = text.index("Fixed Price sales rose")
    assert cell_at(tables, prose, prose + 5) is None
    assert cell_at(tables, 0, 1) is None and cell_at((), 0, 1) is None
    later = text.index("$1,202.9")
    assert cell_at(tables, later, later + 8)[0] is tables[1]
    with pytest.raises(ValueError, match="start 5 is after its end 4"):
        cell_at(tables, 5, 4)


@pytest.mark.parametrize("text", [FIXED_PRICE, HTML, FILING])
def test_cells_are_in_text_order(text: str):
    cells = _only(text).cells
    assert [c.start for c in cells] == sorted(c.start for c in cells)
    assert all(c.start < c.end for c in cells)


def test_find_tables_refuses_a_non_string():
    with pytest.raises(TypeError, match="got bytes"):
        find_tables(b"| a | 1 |")  # type: ignore[arg-type]


def test_row_text_joins_section_label_and_headers():
    cell = Cell(0, 1, 0, 1, "  Fixed\nPrice ", ("Years Ended", "2019"), "Revenue:")
    assert row_text(cell) == "Revenue: Fixed Price Years Ended 2019"


def test_html_cells_left_open_close_at_the_next_cell_or_row():
    text = "<TABLE>\n<TR><TD><TD>2019<TD>2018\n<TR><TD>Revenue<TD>1,000<TD>900\n</TABLE>"
    table = _only(text)
    assert [(text[c.start:c.end], c.row_label, c.headers) for c in table.cells] == [
        ("1,000", "Revenue", ("2019",)), ("900", "Revenue", ("2018",))]


def test_two_tables_apart_and_a_long_caption_keeps_its_last_200_characters():
    intro = "Our results. " * 30
    first = "| | 2019 |\n|---|---|\n| Revenue | 10 |\n"
    text = f"{intro}\n{first}\nMeanwhile, costs were as follows.\n\n| | 2018 |\n|---|---|\n| Cost | 4 |\n"
    one, two = find_tables(text)
    assert len(one.caption) <= 200 and one.caption.endswith("Our results.") and intro.strip().endswith(one.caption)
    assert two.caption == "Meanwhile, costs were as follows."
    assert (_cell(text, one, "10").headers, _cell(text, two, "4").headers) == (("2019",), ("2018",))


def test_plain_text_long_section_label_stays_inside_the_table():
    text = """                                                      2019          2018
Net loss                                         $(265,511)    $(164,787)
Adjustments to reconcile net loss to net cash provided by operating activities:
Depreciation and amortization                       102,839       104,112
"""
    table = _only(text)
    cell = _cell(text, table, "104,112")
    assert cell.headers == ("2018",) and cell.row_label == "Depreciation and amortization"
    assert cell.section.startswith("Adjustments to reconcile") and cell.row == 2


@pytest.mark.parametrize("text", ["<table></table>", "|---|---|\n|---|---|\n", "<table><tr><td></td></tr></table>",
                                  "| |\n| |\n"])
def test_empty_tables_have_no_cells(text: str):
    assert [t.cells for t in find_tables(text)] == [()]


def test_a_row_without_a_label_keeps_its_cells_of_words_as_its_record():
    text = ("| pos | yacht | loa | skipper |\n|---|---|---|---|\n| 1 | wild oats xi | 30.00 | mark richards |\n"
            "| 2 | reichel pugh 55 | 16.80 | - |\n")
    (table,) = find_tables(text)
    assert {c.row: c.record for c in table.cells} == {0: "wild oats xi mark richards", 1: "reichel pugh 55"}
    assert {c.row_label for c in table.cells} == {""}
    labelled = find_tables("| team | pts | city |\n|---|---|---|\n| Bulls | 101 | Chicago |\n")[0]
    assert [c.record for c in labelled.cells] == [""]  # a row with a label is named by it alone
