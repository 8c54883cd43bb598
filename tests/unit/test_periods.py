"""Calendar periods: parsing, values, the calendar distance and its similarity, by hand computation."""

from __future__ import annotations

import numpy as np
import pytest

from nash_metric.numbers.periods import (
    DAY_SCALE,
    CalendarKeys,
    calendar_similarity,
    granularity,
    parse_period,
    period_distance_days,
    period_value,
)
from nash_metric.pipeline.alignment import MentionTable, value_similarity


@pytest.mark.parametrize(("a", "b", "days"), [
    ("2019-12-31", "2020-01-02", 2),  # across a year end
    ("2019-12-31", "2019-12-01", 30),
    ("2020-02-28", "2020-03-01", 2),  # 2020 is a leap year
    ("--12-31", "--01-02", 2),  # year-less: circular day of year
    ("--12-31", "--12-01", 30),
    ("2019-12-31", "--12-30", 1),  # one side year-less: day of year
    ("2019-12", "2020-01", 31),
    ("2019-Q4", "2020-Q1", 92),  # Oct 1 -> Jan 1
    ("2019-Q4", "2017-Q4", 730),
    ("2019-H1", "2019-H2", 181),
    ("2019", "2020", 365),
    ("2019", "2019-12-31", 0),  # mixed granularity: compared at the coarser one (years)
    ("2020", "2019-12-31", 365),
    ("2019-Q4", "2019-11-15", 0),
    ("2019-Q4", "2020-01-15", 92),
    ("FY2019", "2019", 0),
    ("FY2019", "FY2018", 365),
])
def test_calendar_distance_by_hand(a: str, b: str, days: int) -> None:
    assert period_distance_days(a, b) == days
    assert period_distance_days(b, a) == days


def test_similarity_is_the_magnitude_form_with_a_fixed_scale() -> None:
    assert DAY_SCALE == 182.5
    assert calendar_similarity(0) == 1.0
    assert calendar_similarity(365) == pytest.approx(1 / 3)  # a year apart: magnitude similarity's floor
    assert calendar_similarity(2) == pytest.approx(1 / (1 + 2 / 182.5))
    assert calendar_similarity(91.25) == pytest.approx(2 / 3)
    # the orderings
    assert calendar_similarity(period_distance_days("2019-12-31", "2020-01-02")) > calendar_similarity(
        period_distance_days("--12-31", "--12-01"))
    assert calendar_similarity(period_distance_days("2019-Q4", "2020-Q1")) > calendar_similarity(
        period_distance_days("2019-Q4", "2017-Q4"))


def test_parse_and_values() -> None:
    assert granularity("2019-12-31") == "day" and granularity("--12") == "month"
    assert granularity("2019-H2") == "half" and granularity("FY2019") == "year" and granularity("T09:45") == "time"
    assert period_value("2019-01-01") == 2019.0
    assert period_value("2019-07-01") == pytest.approx(2019 + 181 / 365)
    assert period_value("2020-07-01") == pytest.approx(2020 + 182 / 366)
    assert period_value("2019-Q4") == pytest.approx(2019 + 273 / 365)
    assert period_value("T21:45") == 21.75
    assert period_value("--12-31") == 365.0
    assert parse_period("--02-29").day == 29  # a year-less Feb 29 exists
    for bad in ("2019-02-29", "2019-13", "2019-Q5", "T24:00", "19-12-31", "December 2019", ""):
        with pytest.raises(ValueError):
            parse_period(bad)
    with pytest.raises(ValueError, match="not both calendar periods"):
        period_distance_days("T10:00", "2019")


def test_value_similarity_uses_the_calendar_only_between_two_periods() -> None:
    periods = ["2019-12-31", "2020-01-02", None, "T10:30"]
    values = np.array([period_value("2019-12-31"), period_value("2020-01-02"), 2019.0, 10.5])
    table = MentionTable(np.zeros((4, 2), np.float32), values, np.zeros(1, np.int64), np.array([4]),
                         CalendarKeys.of(periods))
    sim = value_similarity(table, np.array([[0, 2, 3]]), np.array([[1, 2, 3]]))[0]
    assert sim[0, 0] == pytest.approx(1 / (1 + 2 / 182.5))  # two dates: by days
    magnitude = 1 / (1 + abs(values[0] - 2019.0) / (1 + (values[0] + 2019.0) / 2))
    assert sim[0, 1] == pytest.approx(magnitude)  # a date and a plain number: by value
    assert sim[2, 2] == pytest.approx(1.0)  # a time and a time: by value (decimal hours)
