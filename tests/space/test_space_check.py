"""The Space's Check figures tab: the generated text cut into verdict segments, the table of places, the source's
own length limit and time estimate, the opening example; and the Compare heat map's title drawn whole."""

from __future__ import annotations

import re

import pytest
from number_refs import number_ref

from nash_metric.reports.figure_rows import figure_rows
from nash_metric.space.budget import Deadline, OverBudget, SourceSpeed
from nash_metric.space.limits import MAX_CHARS, MAX_SOURCE_CHARS, MAX_SOURCE_INPUT, SpaceLimits, source_part
from nash_metric.space.render import check_summary_html, figure_table, verdict_segments

MODEL = "sentence-transformers/all-MiniLM-L6-v2"


def _handlers(model_dir):
    from nash_metric.space.handlers import SpaceHandlers

    return SpaceHandlers(SpaceLimits(allowed_models=(str(model_dir),)))


def _highlighted(html: str) -> tuple[list[tuple[str, str]], str]:
    """The (figure, verdict) of each highlight of `marked_text_html`'s HTML, and the text it shows."""
    from html import unescape

    body = re.search(r'<div class="nash-text" data-testid="marked-text">(.*)</div></div>$', html, re.S).group(1)
    marks = re.findall(r'<mark class="nash-hl nash-[a-z]+" data-verdict="([a-z]+)" title="[^"]*">([^<]*)</mark>', body)
    return [(unescape(text), verdict) for verdict, text in marks], unescape(re.sub(r"<[^>]+>", "", body))


def _figure(text, needle, verdict):
    start = text.index(needle)
    return {"text": needle, "start": start, "end": start + len(needle), "value": 0.0, "verdict": verdict,
            "found": None, "reference": None, "cosine": None}


def test_a_contradicted_figure_shows_its_mark_colour_and_basis():
    from nash_metric.space.render import CHECK_COLOURS, support_html

    source = "Revenue improved by 24.3% year over year."
    text = "Revenue decreased 24.3%."
    figure = _figure(text, "24.3%", "contradicted")
    at = source.index("24.3%")
    figure["found"] = figure["reference"] = {"text": "24.3%", "start": at, "end": at + 5, "value": 24.3, "cell": None}
    figure["basis"] = "direction: the source states a rise"
    assert figure_table(figure_rows(source, [figure])) == [
        ["24.3%", "⇅ contradicted", "line 1: Revenue improved by [24.3%] year over year.",
         "direction: the source states a rise"]]
    assert verdict_segments(text, [figure])[1] == ("24.3%", "contradicted")
    assert len(set(CHECK_COLOURS.values())) == len(CHECK_COLOURS)  # one colour a verdict
    html = support_html(0.0, "numeric support 0.00", [{"text": "24.3%", "start": figure["start"]}],
                        {0: figure})
    assert 'data-verdict="contradicted"' in html and "⇅ 24.3%" in html and "other direction" in html


GROWTH = "(62.4 − 50.2) / 50.2 = 24.3%"


def test_a_computed_figure_shows_its_mark_colour_and_derivation():
    from nash_metric.space.render import CHECK_COLOURS, CSS
    from nash_metric.verdicts.spec import VERDICT_COLOURS

    source = "| | 2019 | 2018 |\n|---|---|---|\n| Revenue | 62.4 | 50.2 |\n"
    text = "Revenue grew 24.3% in 2019 and 30% in 2020 <b>&</b>."
    at = lambda needle: number_ref(source, needle, float(needle))  # noqa: E731
    computed = {**_figure(text, "24.3%", "computed"), "reference": at("62.4"), "derivation": GROWTH,
                "operands": [at("62.4"), at("50.2")]}
    closest = {**_figure(text, "30%", "unsupported"), "reference": at("62.4"),
               "derivation": '<script>"(62.4 − 50.2) / 50.2 = 24.3%', "operands": [at("62.4"), at("50.2")]}
    assert figure_table(figure_rows(source, [computed, closest])) == [
        ["24.3%", "Σ computed", f"computed: {GROWTH}",
         "62.4 · line 3 (Revenue · 2019): | Revenue | [62.4] | 50.2 | · "
         "50.2 · line 3 (Revenue · 2018): | Revenue | 62.4 | [50.2] |"],
        ["30%", "✗ unsupported", "nowhere in the source",
         '62.4 · line 3 (Revenue · 2019): | Revenue | [62.4] | 50.2 | · closest derivation: <script>"(62.4 − 50.2) / '
         '50.2 = 24.3%'],  # gr.Dataframe shows a str cell as text
    ]
    assert verdict_segments(text, [computed, closest])[1] == ("24.3%", "computed")
    assert CHECK_COLOURS["computed"] == VERDICT_COLOURS["computed"] and len(set(CHECK_COLOURS.values())) == len(
        CHECK_COLOURS)
    assert ".nash-num.nash-computed" in CSS and ".nash-flagged.nash-computed" in CSS
    html = check_summary_html(0.5, [closest, computed])
    assert 'data-computed="1"' in html and 'data-unsupported="1"' in html
    assert "numeric support 0.50: 0 supported, 0 misplaced, 1 unsupported, 0 contradicted, 1 computed (2 figures)" \
        in html
    title = f"computed: the reference implies it: {GROWTH}"
    assert (f'<span class="nash-flagged nash-computed" data-verdict="computed" title="{title}">Σ 24.3% ({title})'
            "</span>") in html
    # Every figure that is not supported is named too, with its verdict: the line named only the computed one.
    assert html.count("nash-flagged") == 2
    assert html.index("Σ 24.3%") < html.index("✗ 30% (unsupported: the reference says 62.4; closest derivation: "
                                              "&lt;script&gt;") and "<script>" not in html  # in text order, escaped


def test_the_compare_tab_marks_a_computed_figure_and_shows_derivations_on_hover():
    from nash_metric.space.render import highlight_numbers, support_html

    text = "Revenue grew 24.3% and 30%."
    mentions = [{"text": "24.3%", "start": 13, "end": 18, "value": 24.3, "kind": "percentage"},
                {"text": "30%", "start": 23, "end": 26, "value": 30.0, "kind": "percentage"}]
    reference = {"text": "62.4", "start": 0, "end": 4, "value": 62.4}
    verdicts = {0: {"verdict": "computed", "reference": reference, "derivation": GROWTH},
                1: {"verdict": "unsupported", "reference": reference, "derivation": '50.2 / 62.4 = 0.8"<i>'}}
    html = highlight_numbers(text, mentions, "A", verdicts)
    titles = re.findall(r'<mark class="([^"]*)" data-verdict="([a-z]+)" title="([^"]*)">', html)
    assert titles == [
        ("nash-num nash-percentage nash-computed", "computed",
         f"value 24.3 · percentage · computed: the reference implies it: {GROWTH}"),
        ("nash-num nash-percentage nash-unsupported", "unsupported",
         "value 30 · percentage · unsupported: the reference says 62.4; closest derivation: 50.2 / 62.4 = "
         "0.8&quot;&lt;i&gt;")]
    assert '<span class="nash-flag" aria-hidden="true">Σ</span>' in html  # its own visible mark
    support = support_html(0.5, "numeric support 0.50", mentions, verdicts)
    assert "nash-computed" not in support  # supported: not among the figures the reference lacks
    assert "closest derivation: 50.2 / 62.4 = 0.8&quot;&lt;i&gt;" in support and "<i>" not in support


def test_segments_keep_every_character_once_and_label_each_figure():
    text = "Sales <b>rose</b> 5% to $1.2 bn & more"
    verdicts = [_figure(text, "$1.2 bn", "misplaced"), _figure(text, "5%", "supported")]  # any order
    assert verdict_segments(text, verdicts) == [("Sales <b>rose</b> ", None), ("5%", "supported"), (" to ", None),
                                                ("$1.2 bn", "misplaced"), (" & more", None)]
    assert verdict_segments("7 up", [_figure("7 up", "7", "unsupported")]) == [("7", "unsupported"), (" up", None)]
    bad = {**_figure(text, "5%", "supported"), "end": len(text) + 5}  # never drop or repeat text for a bad span
    assert "".join(s for s, _ in verdict_segments(text, [bad])) == text


def test_table_rows_say_where_and_what_fits():
    source = "| Segment | 2019 | 2018 |\n|---|---|---|\n| Consumer | 812.7 | 790.3 |\n"
    text = "Consumer sales were 790.3 in 2019 and 12 elsewhere."
    figure = _figure(text, "790.3", "misplaced")
    figure["found"] = number_ref(source, "790.3", 790.3)
    figure["reference"] = number_ref(source, "812.7", 812.7)
    figure["basis"] = "period: 2018, not 2019"
    lost = _figure(text, "12", "unsupported")
    assert figure_table(figure_rows(source, [figure, lost])) == [
        ["790.3", "↷ misplaced", "line 3 (Consumer · 2018): | Consumer | 812.7 | [790.3] |",
         "period: 2018, not 2019 · 812.7 · line 3 (Consumer · 2019): | Consumer | [812.7] | 790.3 |"],
        ["12", "✗ unsupported", "nowhere in the source", ""],
    ]
    html = check_summary_html(0.0, [figure, lost])
    assert 'data-support="0.0"' in html and 'data-misplaced="1"' in html and 'data-unsupported="1"' in html
    assert "numeric support 0.00: 0 supported, 1 misplaced, 1 unsupported, 0 contradicted, 0 computed (2 figures)" \
        in html
    assert 'data-computed="0"' in html and "nash-computed" not in html
    named = re.findall(r'<span class="nash-flagged nash-([a-z]+)" data-verdict="[a-z]+" title="[^"]*">([^<]*)</span>',
                       html)
    assert named == [
        ("misplaced", "↷ 790.3 (misplaced: the reference states this value for another period, row or subject; what "
                      "the prediction binds it to states 812.7)"),
        ("unsupported", "✗ 12 (unsupported: no aligned number in the reference)")]


def test_the_marked_text_reads_as_written():
    """Each figure highlighted by its verdict, hover saying why, and not one character added or dropped: the
    highlights were spaced apart ("in  2023  .")."""
    from html import unescape

    from nash_metric.space.render import marked_text_html

    text = "Sales <b>rose</b> 5% in 2023, to $1.2 bn &\n  more."
    five, bn = _figure(text, "5%", "supported"), _figure(text, "$1.2 bn", "unsupported")
    bn["reference"] = {"text": '$1.1 bn"<i>', "start": 0, "end": 5, "value": 1.1}
    html = marked_text_html(text, [bn, five])
    body = re.search(r'<div class="nash-text" data-testid="marked-text">(.*)</div></div>$', html, re.S).group(1)
    assert unescape(re.sub(r"<[^>]+>", "", body)) == text  # the text exactly, its spaces and line break kept
    assert _highlighted(html)[1] == text and "<b>" not in body and "<i>" not in html
    assert re.findall(r'<mark class="nash-hl nash-([a-z]+)" data-verdict="[a-z]+" title="([^"]*)">([^<]*)</mark>',
                      body) == [("supported", "✓ supported: no aligned number in the reference", "5%"),
                                ("unsupported", "✗ unsupported: the reference says $1.1 bn&quot;&lt;i&gt;", "$1.2 bn")]


def test_the_heat_map_key_and_the_batch_key():
    """The heat map's key: a colour scale white at tau, the boxes, A's marks and the cells' marks, in three rows; the
    Batch key: each mark the unsupported figures column can hold, by its verdict's name."""
    from nash_metric.reports.plot import CELL_HELP
    from nash_metric.space.render import batch_key_html, heat_map_key_html
    from nash_metric.verdicts.spec import RULE_VERDICTS, SPEC

    key = heat_map_key_html(0.5, "context", CELL_HELP["context"])
    assert key.count('<div class="nash-key') == 3  # a few lines, not a paragraph
    assert "τ = 0.5000" in key and 'style="left: 75.0%"' in key  # tau's tick: 0.5 on the −1..1 bar
    assert all(f'data-verdict="{v}"' in key for v in RULE_VERDICTS["context"])
    assert "in a cell:</span> ✓ the number of B that supports it;" in key
    assert "∅ unmatched" in heat_map_key_html(0.3, "argmax", CELL_HELP["argmax"])
    batch = batch_key_html()
    for verdict in ("misplaced", "unsupported", "contradicted"):
        assert f'data-verdict="{verdict}">{SPEC[verdict].label}</span>' in batch
    assert "✓ supported and Σ computed figures count as supported and are not listed" in batch


def test_a_long_source_is_estimated_before_it_is_scored():
    ticks = iter([0.0, 50.0])  # the request starts, then 50 s have gone by (model loading) when the check asks
    deadline = Deadline(60.0, clock=lambda: next(ticks))
    speed = SourceSpeed()
    with pytest.raises(OverBudget, match=r"this source \(30,000 characters\) would take about 33 s to check here; "
                                         r"this Space allows 60 s per request"):
        speed.check("m", 30_000, deadline)  # the prior: 1.1 ms a character
    roomy = Deadline(60.0, clock=lambda: 0.0)
    speed.check("m", 30_000, roomy)  # 33 s of 60: goes ahead
    speed.record("m", 1_000, 30.0)  # a short source is mostly fixed cost: not learnt from
    assert speed.estimate("m", 30_000) == pytest.approx(33.0)
    speed.record("m", 20_000, 50.0)  # 2.5 ms a character on this server
    with pytest.raises(OverBudget, match="about 75 s"):
        speed.check("m", 30_000, roomy)
    assert speed.estimate("other model", 30_000) == pytest.approx(33.0)  # learnt per model
    speed.check("m", 4_000, Deadline(1.0, clock=lambda: 0.0))  # a short source is never refused up front


def test_the_check_tab_judges_the_opening_example(tiny_model_dir):
    from nash_metric.space.app import CHECK_SOURCE, CHECK_TEXT

    model = str(tiny_model_dir)
    h = _handlers(model)
    summary, marked, table, next_part = h.check_example(CHECK_SOURCE, CHECK_TEXT, model, "token", False, 0.5)
    assert "nash-error" not in summary and 'data-testid="source-cut"' not in summary, summary
    assert next_part["visible"] is False  # the source is checked whole: no next part
    # The value step decides $0.55 whatever the model; the year decides $790.3 million (812.7 in the 2019 column
    # fits it by 1.0 more than 790.3 in the 2018 column, against a margin of 0.25).
    highlights, shown = _highlighted(marked)
    assert highlights == [("2019", "supported"), ("$1,452.4 million", "supported"), ("$790.3 million", "misplaced"),
                          ("$0.55", "unsupported")]
    assert shown == CHECK_TEXT
    # The summary names each figure that is not supported, with its verdict (it named only computed ones).
    line = re.sub(r"<[^>]+>", "", summary)
    assert line.endswith("(3 figures; 1 supported period that places a figure, not counted) · ↷ $790.3 million "
                         "(misplaced: the reference states this value for another "
                         "period, row or subject; what the prediction binds it to states 812.7) · ✗ $0.55 "
                         "(unsupported: the reference says $0.52)"), line
    assert [row[1] for row in table] == ["✓ supported", "✓ supported", "↷ misplaced", "✗ unsupported"]
    assert table[1][2] == "line 9 (Industrial · 2019): | Industrial | [$ 1,452.4] | $ 1,146.2 |"
    assert table[2][2] == "line 10 (Consumer · 2018): | Consumer | 812.7 | [790.3] |"
    assert table[3][2] == "nowhere in the source"
    assert 'data-support="0.3333333333333333"' in summary  # the year places $1,452.4 million: not counted
    assert ("1 supported, 1 misplaced, 1 unsupported, 0 contradicted, 0 computed (3 figures; 1 supported period "
            "that places a figure, not counted)") in summary
    again = h.check_example(CHECK_SOURCE, CHECK_TEXT, model, "token", False, 0.5)
    assert again[0] is summary  # the opening example is scored once, then kept


def test_the_source_takes_a_real_filing_and_the_compare_limit_stays(tiny_model_dir):
    from nash_metric.space.app import CHECK_SOURCE

    model = str(tiny_model_dir)
    h = _handlers(model)
    assert MAX_SOURCE_CHARS >= 30_000 and MAX_CHARS == 2_000
    paragraph = CHECK_SOURCE + "\n\n"
    source = paragraph * (30_000 // len(paragraph) + 1)
    summary, marked, _, next_part = h.check(source, "Consumer net sales were $790.3 million in 2019.", model,
                                            "token", False, 0.5)
    assert len(source) >= 30_000 and "nash-error" not in summary, summary
    assert 'data-testid="source-cut"' not in summary and next_part["visible"] is False  # checked whole
    assert [v for _, v in _highlighted(marked)[0]] == ["misplaced", "supported"]
    too_long = "x 1. " * (MAX_SOURCE_INPUT // 5 + 1)
    summary, *rest = h.check(too_long, "x 1", model, "token", False, 0.5)
    assert f"Source has {len(too_long):,} characters; this Space takes at most {MAX_SOURCE_INPUT:,}" in summary
    assert "`nash check --source FILE --text FILE` has no limit" in summary and rest[-1]["visible"] is False
    summary, *_ = h.check("x 1", "x 1 " * 600, model, "token", False, 0.5)
    assert "Generated text has 2,400 characters; the limit here is 2,000." in summary
    cards, *_ = h.compare("x 1 " * 600, "x 1", model, "token", False, 0.5)
    assert "Text A has 2,400 characters; the limit here is 2,000." in cards


def test_a_source_over_the_limit_is_checked_part_by_part_and_says_so(tiny_model_dir, long_source):
    """Nothing is cut silently: the notice says which characters were checked and how to check the rest; a figure
    stated only in the rest is "not in the part checked", never "nowhere in the source"."""
    model = str(tiny_model_dir)
    h = _handlers(model)
    source, tail = long_source
    text = "Industrial net sales were $1,452.4 million in 2019; 12,345 people worked there."
    first = source_part(source)
    assert first.cut and first.end < MAX_SOURCE_CHARS and source[first.end - 1] == "\n"  # cut at a line break
    summary, _, table, next_part = h.check(source, text, model, "token", False, 0.5)
    assert "nash-error" not in summary, summary
    assert (f'data-testid="source-cut" data-first="1" data-last="{first.end}" data-total="{len(source)}"'
            in summary)
    assert f"Source cut: checked characters 1–{first.end:,} of {len(source):,}" in summary
    assert f"Check the rest with &quot;Check the next part&quot; (from character {first.end + 1:,})" in summary
    assert "<code>nash check --source FILE --text FILE</code> (no limit)" in summary
    rows = {row[0]: row for row in table}
    assert rows["12,345"][2] == "not in the part checked"  # its value stands in the rest
    assert rows["$1,452.4 million"][2].startswith("line 9 (Industrial · 2019)")
    assert next_part["visible"] is True
    assert "nowhere in the source" not in str(table)

    summary, _, table, next_part = h.check(source, text, model, "token", False, 0.5, first.end + 1)
    rest = source_part(source, first.end + 1)
    assert not rest.next_first and rest.end == len(source)
    assert f"Source cut: checked characters {first.end + 1:,}–{len(source):,} of {len(source):,}" in summary
    assert "This is the last part" in summary and next_part["visible"] is False
    rows = {row[0]: row for row in table}
    line = source.count("\n", 0, source.index(tail)) + 1  # the source's line, not the part's
    assert rows["12,345"][2] == f"line {line}: The company employed [12,345] people at the end of 2020."
    assert rows["$1,452.4 million"][2] == "not in the part checked"
    summary, *_ = h.check(source, text, model, "token", False, 0.5, len(source) + 1)
    assert f"Check from character {len(source) + 1:,}: the source has {len(source):,} characters." in summary


def test_parts_end_at_a_line_break_and_the_next_part_button_goes_on(long_source):
    from nash_metric.space.app import next_part

    source = "a 1 b\n" * 10
    part = source_part(source, 1, limit=16)
    assert (part.text, part.start, part.end, part.next_first, part.lines_before) == ("a 1 b\na 1 b\n", 0, 12, 13, 0)
    part = source_part(source, 13, limit=16)
    assert (part.start, part.end, part.lines_before) == (12, 24, 2)
    assert source_part("x" * 40, 1, limit=16).end == 16  # no break in its second half: cut at the limit
    assert source_part("words " * 10, 1, limit=16).text == "words words "  # else at a space
    whole = source_part(source)
    assert not whole.cut and whole.next_first is None and whole.text == source
    long, _ = long_source
    assert next_part(long, 1) == source_part(long).next_first
    assert next_part(long, source_part(long).next_first) == 1  # past the last part: from the start
    assert next_part("short", 99) == 1
    for bad in (0, -3, 1.5, True):
        with pytest.raises(ValueError, match="Check from character"):
            source_part(source, bad)


def test_the_demo_has_the_tab_and_its_endpoint():
    from nash_metric.space.app import build_demo

    demo = build_demo(SpaceLimits())
    config = demo.get_config_file()
    labels = [c.get("props", {}).get("label") for c in config["components"]]
    assert "Check figures" in labels
    assert "check" in [d.get("api_name") for d in config["dependencies"]]


def test_the_compare_heat_map_title_is_drawn_whole(tiny_model_dir):
    """gradio saves the figure at its own size: a title wider than the figure was cut on both sides."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text

    model = str(tiny_model_dir)
    _, _, figure, _, _ = _handlers(model).compare("Which stocks have a P/E ratio above 200?",
                                                  "Stock ABC has a P/E ratio of 180.", model, "token", False, 0.5)
    renderer = FigureCanvasAgg(figure).get_renderer()
    figure.draw_without_rendering()
    title = figure.get_suptitle()
    assert re.search(r"numeric support \d\.\d\d", title), title
    box = next(t for t in figure.findobj(Text) if t.get_text() == title).get_window_extent(renderer)
    assert box.x0 >= 0 and box.x1 <= figure.bbox.width, (box, figure.bbox.width)


@pytest.mark.slow
def test_minilm_reports_the_examples_misplaced_figure_as_misplaced():
    from nash_metric.space.app import CHECK_SOURCE, CHECK_TEXT
    from nash_metric.space.handlers import SpaceHandlers

    summary, marked, table, _ = SpaceHandlers(SpaceLimits()).check(CHECK_SOURCE, CHECK_TEXT, MODEL, "auto", True,
                                                                   0.0)
    assert "nash-error" not in summary, summary
    assert _highlighted(marked)[0] == [("2019", "supported"), ("$1,452.4 million", "supported"),
                                       ("$790.3 million", "misplaced"), ("$0.55", "unsupported")]
    # what decided, and the number bound to what the text states: Consumer's 2019 cell
    assert table[2][3] == ("period: 2018, not 2019 · 812.7 · line 10 (Consumer · 2019): | Consumer | [812.7] | "
                           "790.3 |")


def test_a_data_source_shows_its_records_as_a_table_with_the_bound_cells_outlined(monkeypatch):
    """A JSON source's records under the summary: a record a row, a key path a column, each value as written and
    escaped (a key or value with markup stays text), a value a verdict points at outlined in its colour, and a
    note of the records and columns left out past the limits."""
    import json

    from nash_metric.space import render
    from nash_metric.space.render import CSS, data_view_html
    from nash_metric.verdicts.spec import VERDICT_COLOURS

    records = [{"dt": i, "main": {"temp": 3.5 + i, "<script>k": f"{i} <script>alert(1)</script>"}} for i in range(3)]
    source = "Forecast:\n" + json.dumps({"city": "Oslo", "list": records})
    text = "It will be 4.5 degrees."
    figure = _figure(text, "4.5", "misplaced")
    at = source.index("4.5")
    figure["found"] = {"text": "4.5", "start": at, "end": at + 3, "value": 4.5, "cell": None}
    view = data_view_html(source, [figure])
    assert view.startswith('<details class="nash-data-view" data-testid="data-view" data-records="3"><summary>'
                           "Data: 3 records</summary>")
    heads = re.findall(r'<th scope="col">(.*?)</th>', view)
    assert heads == ["record", "dt", "main.temp", "main.&lt;script&gt;k"]
    rows = re.findall(r'<tr><th scope="row">(.*?)</th>(.*?)</tr>', view)
    assert [label for label, _ in rows] == ["Oslo (list[0])", "Oslo (list[1])", "Oslo (list[2])"]
    assert re.findall(r"<td[^>]*>(.*?)</td>", rows[0][1]) == ["0", "3.5", "0 &lt;script&gt;alert(1)&lt;/script&gt;"]
    assert "<script" not in view and 'data-testid="data-cut"' not in view
    bound = re.findall(r'<td [^>]*data-verdict="([a-z]+)"[^>]*>(.*?)</td>', view)
    assert bound == [("misplaced", "4.5")]  # the one cell the verdict's `found` points at
    assert 'class="nash-data-cell nash-misplaced"' in view
    assert f".nash-data-cell.nash-misplaced {{ outline: 2px solid {VERDICT_COLOURS['misplaced']};" in CSS
    assert data_view_html("Revenue was 4.5 million.", [figure]) == ""  # no data: no view

    monkeypatch.setattr(render, "MAX_DATA_RECORDS", 2)
    monkeypatch.setattr(render, "MAX_DATA_COLUMNS", 1)
    cut = data_view_html(source, [figure])
    assert "Data: 3 records" in cut and len(re.findall(r'<th scope="row">', cut)) == 2
    assert re.findall(r'<th scope="col">(.*?)</th>', cut) == ["record", "dt"]
    assert re.search(r'data-testid="data-cut">Left out: 1 record and 2 columns \(', cut)


def test_the_check_tab_shows_a_data_source_under_its_summary(tiny_model_dir):
    """`check` of a JSON source: the summary ends with its records (`data_view_html`), the figure's value outlined;
    a source written as text gets no data view."""
    model = str(tiny_model_dir)
    h = _handlers(model)
    source = '{"city": "Oslo", "list": [{"dt": "Mon", "temp": 3.5}, {"dt": "Tue", "temp": 4.5}]}'
    summary, *_ = h.check(source, "On Tue the temperature is 4.5.", model, "token", False, 0.5)
    assert "nash-error" not in summary and 'data-testid="data-view"' in summary, summary
    assert re.search(r'<td data-path="list\[1\]\.temp" class="nash-data-cell nash-[a-z]+" data-verdict=', summary)
    summary, *_ = h.check("The temperature on Tue is 4.5.", "On Tue the temperature is 4.5.", model, "token", False,
                          0.5)
    assert "nash-error" not in summary and 'data-testid="data-view"' not in summary
