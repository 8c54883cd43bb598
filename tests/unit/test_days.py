"""The day a figure is stated for and the days a record's label names (`context.days`), by hand."""

from __future__ import annotations

from nash_metric.context.days import named_day, names_a_day, row_days
from nash_metric.vocabulary.en import DAY_NAMES, MONTH_NAMES


def test_the_last_day_named_before_a_figure():
    text = "Over five days in Oslo. On January 4th, light rain. On Thursday it clears, and 6 January is cold."
    assert named_day(text, 0, text.index("light")) == "01-04"
    assert named_day(text, 0, text.index("it clears")) == "thu"
    assert named_day(text, 0, len(text)) == "01-06"
    assert named_day(text, 0, text.index("January")) is None  # nothing named before it
    assert named_day("On Feb. 30 and Jan 5", 0, 20) == "01-05"
    assert named_day("on the 3rd of March", 0, 19) == "03-03"


def test_a_row_label_names_its_date_and_weekday():
    assert row_days("Oslo · 2024-03-01 06:00:00") == {"03-01", "fri"}  # 1 March 2024 was a Friday
    assert row_days("2024-02-30 00:00") == frozenset()  # no such day
    assert row_days("Celtics Boston") == frozenset()


def test_a_text_that_names_no_day_is_not_searched():
    """`names_a_day` lets `mention_contexts` skip `named_day` in a text without a month's or weekday's letters: every
    name, in any case (a long s folds to s), holds them."""
    for name in (*MONTH_NAMES, *DAY_NAMES, "Sept.", "ſept"):
        assert all(names_a_day(f"On {written} 5") for written in (name, name.upper(), name.lower())), name
    assert not names_a_day("Revenue rose 5% to EUR 3 million.") and named_day("Revenue rose 5%", 0, 15) is None
