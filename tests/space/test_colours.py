"""One colour key: each verdict has one colour (`verdicts.spec.VERDICT_COLOURS`) in Compare, Check figures and the
heat map, and the number kinds' badges never take a verdict's colour; labels set in capitals keep α."""

from __future__ import annotations

import colorsys
import re

import pytest

from nash_metric.space.render import CHECK_COLOURS, CSS, KIND_COLOURS, VERDICT_LINES, caps, colour_key_html, text_panel
from nash_metric.verdicts.spec import MARKS, RULE_VERDICTS, VERDICT_COLOURS

HEX = re.compile(r"#[0-9a-fA-F]{6}\b")


def hls(colour: str) -> tuple[float, float, float]:
    """(hue in degrees, lightness, saturation) of a #rrggbb colour."""
    hue, lightness, saturation = colorsys.rgb_to_hls(*(int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)))
    return hue * 360, lightness, saturation


def css_rules() -> list[tuple[set[str], list[str]]]:
    """(the nash-* classes a rule's selector names, the #colours of its body) of each rule of the stylesheet."""
    return [(set(re.findall(r"\.nash-([a-z]+)", selector)), HEX.findall(body))
            for selector, body in re.findall(r"([^{}]+)\{([^}]*)\}", CSS)]


def test_every_verdict_has_one_colour_of_its_own():
    assert set(VERDICT_COLOURS) == set(MARKS)  # every verdict of both rules
    assert len({c.lower() for c in VERDICT_COLOURS.values()}) == len(VERDICT_COLOURS)


@pytest.mark.parametrize("kind", sorted(KIND_COLOURS))
def test_kind_colours_are_disjoint_from_verdict_colours(kind):
    """A kind's fill is another colour than every verdict's, and not one that reads as it: a hue at least 30° away
    from each saturated verdict colour, or far lighter than a grey one. An unsupported dollar figure was filled
    green in Compare, the colour of "supported" in Check figures."""
    k_hue, k_light, k_sat = hls(KIND_COLOURS[kind])
    for verdict, colour in VERDICT_COLOURS.items():
        assert KIND_COLOURS[kind].lower() != colour.lower()
        v_hue, v_light, v_sat = hls(colour)
        if k_sat >= 0.4 and v_sat >= 0.4:
            distance = abs(k_hue - v_hue) % 360
            assert min(distance, 360 - distance) >= 30, (kind, verdict)
        else:
            assert abs(k_light - v_light) >= 0.25, (kind, verdict)


def test_the_space_and_the_heat_map_use_the_one_key():
    from nash_metric.reports import plot

    assert plot.VERDICT_COLOURS is VERDICT_COLOURS  # the heat map's row labels and cell marks
    assert plot.CELL_COLOURS["context"] == VERDICT_COLOURS["misplaced"]
    assert {v: VERDICT_COLOURS[v] for v in RULE_VERDICTS["context"]} == CHECK_COLOURS  # Check figures' highlights
    assert set(VERDICT_LINES) == set(VERDICT_COLOURS)
    seen = set()
    for classes, colours in css_rules():
        verdicts, kinds = classes & set(VERDICT_COLOURS), classes & set(KIND_COLOURS)
        if verdicts:  # Compare's outlines, underlines and marks, and the key's swatches: the verdict's colour only
            assert len(verdicts) == 1 and colours and set(colours) == {VERDICT_COLOURS[verdicts.pop()]}, classes
            seen |= classes
        if kinds:  # a kind's badge: its fill only
            assert not verdicts and colours == [KIND_COLOURS[kinds.pop()]], classes
            assert not set(colours) & set(VERDICT_COLOURS.values())
    assert set(VERDICT_COLOURS) <= seen


def test_the_check_tab_highlights_with_the_key():
    """Check figures' highlights are the page's own HTML (gr.HighlightedText spaced them apart), each verdict's tint
    and underline in its colour, under the colour key."""
    from nash_metric.space.app import build_demo
    from nash_metric.space.limits import SpaceLimits
    from nash_metric.space.render import marked_text_html

    config = build_demo(SpaceLimits()).get_config_file()
    marked = next(c for c in config["components"] if c.get("props", {}).get("elem_id") == "check-marked")
    assert marked["type"] == "html"
    for verdict, colour in CHECK_COLOURS.items():
        rule = re.search(rf"\.nash-hl\.nash-{verdict} \{{([^}}]*)\}}", CSS)
        assert rule and HEX.findall(rule.group(1)) == [colour, colour], verdict  # tint and underline
    html = marked_text_html("Sales rose 5% in 2019.", [{"text": "5%", "start": 11, "end": 13, "verdict": "supported",
                                                       "reference": None}])
    assert 'data-testid="colour-key"' in html and "verdicts (highlight):" in html and "number kinds" not in html


def test_the_colour_key_shows_each_verdict_and_kind():
    html = colour_key_html()
    for verdict in RULE_VERDICTS["context"]:
        assert f'<span class="nash-key-verdict nash-{verdict}" data-verdict="{verdict}">' in html
        assert f"{MARKS[verdict]} {verdict}" in html
    for kind in ("percentage", "monetary", "quantity", "temporal"):
        assert f'<mark class="nash-num nash-{kind}" data-kind="{kind}">{kind}</mark>' in html
    assert "unmatched" not in html and "∅ unmatched" in colour_key_html(RULE_VERDICTS["argmax"])


def test_labels_in_capitals_keep_greek_letters():
    """The stylesheet sets captions in capitals: capital α is Α, which reads as A ("MASKED (WHAT Α COUNTS)")."""
    assert caps("masked (what α counts):") == 'masked (what <span class="nash-keep-case">α</span> counts):'
    assert caps("<b>τ & αβ</b>") == ('&lt;b&gt;<span class="nash-keep-case">τ</span> &amp; '
                                     '<span class="nash-keep-case">αβ</span>&lt;/b&gt;')
    assert ".nash-keep-case { text-transform: none; }" in CSS
    assert 'what <span class="nash-keep-case">α</span> counts' in text_panel("A", "x 1", [], "x [NUM]", "A")


def test_table_headers_do_not_break_inside_words():
    assert 'th[role="columnheader"] .header { word-break: normal; overflow-wrap: normal; hyphens: none; }' in CSS
    from nash_metric.space.handlers import BATCH_HEADER, BATCH_LABELS, batch_labels

    assert BATCH_HEADER[-2:] == ["numeric_support", "unsupported_figures"]
    # Wrap between words, never inside one; "baseline" says what it is, by the backbone that scored the batch.
    baseline = BATCH_HEADER.index("baseline")
    assert batch_labels("sentence") == BATCH_LABELS and BATCH_LABELS[baseline] == "embedding cosine"
    assert batch_labels("token")[baseline] == "backbone token F1"
    for labels in (batch_labels("sentence"), batch_labels("token")):
        assert [h for k, h in enumerate(labels) if k != baseline] == [
            h.replace("_", " ") for k, h in enumerate(BATCH_HEADER) if k != baseline]
