"""A range's connector goes with its two mentions: no "-", "–" or "to" is left behind in the text channel."""

from __future__ import annotations

import pytest

from nash_metric.numbers import extract_numbers
from nash_metric.numbers.extract import masked_for_scoring, range_connectors
from nash_metric.numbers.mention import mask_spans
from nash_metric.pipeline.pool import TextPool

GROWTH = ["Growth of 5–10% expected.", "Growth of 5-10% expected.", "Growth of 5 to 10% expected.",
          "Growth of 5 – 10% expected.", "Growth of 5 - 10% expected.", "Growth of 5—10% expected.",
          "Growth of 5~10% expected.", "Growth of 5 through 10% expected."]


def _forms(texts: list[str], reader: str = "full") -> list[tuple[str, str]]:
    pool = TextPool.build(texts, reader)
    return [(pool.channel[t], pool.masked[t]) for t in texts]


def test_every_way_of_writing_a_range_gives_one_channel_and_one_masked_form():
    assert set(_forms(GROWTH)) == {("Growth of expected.", "Growth of [NUM] [NUM] expected.")}


def test_the_connector_goes_but_the_two_mentions_and_their_values_stay():
    for text in GROWTH:
        ms = extract_numbers(text)
        assert [m.value for m in ms] == [5.0, 10.0]
        assert [text[m.start:m.end] for m in ms] == [m.text for m in ms]
        assert TextPool.build([text]).mentions[text] == ms


@pytest.mark.parametrize(("texts", "channel", "masked"), [
    (["from 5 to 10% a year", "from 5-10% a year"], "from a year", "from [NUM] [NUM] a year"),
    (["between 5 and 10%", "between 5 and 10 %", "between 5% and 10%", "between 5 – 10%"],
     "between", "between [NUM] [NUM]"),
    (["costs of $5-$10 million.", "costs of $5 to $10 million.", "costs of $5 to 10 million."],
     "costs of.", "costs of [NUM] [NUM]."),
    (["in 2019–2021 ,", "in 2019-2021 ,", "in 2019 to 2021 ,", "in 2019 through 2021 ,"], "in,", "in [NUM] [NUM] ,"),
    (["fiscal 2019-20 sales"], "fiscal sales", "fiscal [NUM] [NUM] sales"),
    (["a 3-2 win"], "a win", "a [NUM] [NUM] win"),  # a score: the hyphen between two numbers is a joiner too
    (["from -5 to -10%"], "from", "from [NUM] [NUM]"),
    (["five to ten percent more"], "more", "[NUM] [NUM] more"),
])
def test_range_forms(texts, channel, masked):
    assert set(_forms(texts)) == {(channel, masked)}


@pytest.mark.parametrize(("text", "channel"), [
    ("revenue of 5 and profit of 7", "revenue of and profit of"),
    ("sold 5 and bought 7", "sold and bought"),
    ("5 and 7 people", "and people"),  # a list, not a range: no "between"
    ("rose 18.5 % to EUR 167.8 mn", "rose to"),  # a percentage then an amount: two quantities
    ("increased $8.6 million to $24.9 million", "increased to"),  # a change, not a range
    ("fell by 2.2 % to 24.2 %", "fell by to"),
    ("in 2009 to 15 %", "in to"),  # a year and a percentage
    ("Nov 9 , 2009 - Four companies", "- companies"),  # a spaced dash between a date and a count
    ("-5 degrees", "degrees"),  # a sign, not a connector
    ("10 minus 3", "minus"),
])
def test_words_that_are_no_range_connector_stay(text, channel):
    ms = extract_numbers(text)
    assert range_connectors(text, ms) == []
    assert _forms([text]) == [(channel, mask_spans(text, ms)[0])]


def test_a_valueless_mention_keeps_its_neighbours_connectors():
    text = "from 1.2.3 to 10%"  # 1.2.3 is malformed: reported, never masked, so "to" stays
    assert [m.value for m in extract_numbers(text)] == [None, 10.0]
    assert _forms([text]) == [("from 1.2.3 to", "from 1.2.3 to [NUM]")]


def test_the_paper_reader_keeps_the_connector():
    forms = _forms(["Growth of 5-10% expected.", "Growth of 5 to 10% expected."], reader="paper")
    assert forms == [("Growth of [NUM][NUM] expected.",) * 2,  # the toolkit reads 5 and -10%
                     ("Growth of [NUM] to [NUM] expected.",) * 2]


def test_the_idf_corpus_sees_what_the_mixing_weight_counts():
    for text in [*GROWTH, "between 5 and 10%", "revenue of 5 and profit of 7"]:
        assert masked_for_scoring(text) == TextPool.build([text]).masked[text]
    assert masked_for_scoring("between 5 and 10%", reader="paper") == "between [NUM] and [NUM]"


def test_range_connectors_and_mask_spans():
    text = "between 5 and 10% or 7 to 9"
    ms = extract_numbers(text)
    assert [text[s:e] for s, e in range_connectors(text, ms)] == [" and ", " to "]
    assert mask_spans(text, ms, connectors=range_connectors(text, ms))[0] == "between [NUM] [NUM] or [NUM] [NUM]"
    with pytest.raises(ValueError, match="connector"):
        mask_spans(text, ms, connectors=[(8, 10)])  # overlaps the mention "5"


def test_identical_text_channels_score_exactly_one(tiny_scorer):
    result = tiny_scorer.score(["Growth of 5–10% expected."], ["Growth of 5 to 10% expected."])
    assert result.text[0] == 1.0  # one encoded text: exactly 1, no float noise
