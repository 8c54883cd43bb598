"""Periods in running text (issue 29, item 4): intervals ended on a day, quarters and halves without a year,
fiscal years; how their periods compare and when one supports another. Expected values are worked by hand."""

from __future__ import annotations

import numpy as np
import pytest

from nash_metric.numbers import extract_numbers
from nash_metric.numbers.calendar import find_calendar
from nash_metric.numbers.periods import (
    CalendarKeys,
    granularity,
    parse_period,
    period_distance_days,
    period_value,
    periods_agree,
)


def _read(text: str) -> list[tuple[str, str | None]]:
    return [(m.text, m.period) for m in extract_numbers(text)]


@pytest.mark.parametrize(("text", "expected"), [
    ("for the three months ended September 30, 2020 .",
     [("three months ended September 30, 2020", "P3M/2020-09-30")]),
    ("six months ended June 30, 2020", [("six months ended June 30, 2020", "P6M/2020-06-30")]),
    ("nine months ended September 30, 2020", [("nine months ended September 30, 2020", "P9M/2020-09-30")]),
    ("twelve months ended December 31, 2019", [("twelve months ended December 31, 2019", "P12M/2019-12-31")]),
    ("for the year ended December 31, 2019,", [("year ended December 31, 2019", "P12M/2019-12-31")]),
    ("the fiscal year ended June 30, 2019", [("fiscal year ended June 30, 2019", "P12M/2019-06-30")]),
    ("Year Ended 31 December 2019", [("Year Ended 31 December 2019", "P12M/2019-12-31")]),
    ("the 3 months ending Dec. 31, 2019", [("3 months ending Dec. 31, 2019", "P3M/2019-12-31")]),
    ("the three-month period ended March 31, 2010", [("three-month period ended March 31, 2010", "P3M/2010-03-31")]),
    ("the 13 weeks ended September 28, 2019", [("13 weeks ended September 28, 2019", "P3M/2019-09-28")]),
    ("the second quarter ended June 30, 2020", [("second quarter ended June 30, 2020", "P3M/2020-06-30")]),
    ("the quarter ended March 31 .", [("quarter ended March 31", "P3M/--03-31")]),
])
def test_an_interval_ended_on_a_day_is_one_mention(text, expected):
    mentions = extract_numbers(text)
    assert [(m.text, m.period) for m in mentions] == expected
    assert all(m.kind == "temporal" and m.value == period_value(m.period) for m in mentions)


@pytest.mark.parametrize(("text", "expected"), [
    ("three months", [("three", None)]),  # no "ended": a quantity
    ("three months later, on September 30, 2020", [("three", None), ("September 30, 2020", "2020-09-30")]),
    # plurals and lists name several periods: the date and the numbers inside stay as they were
    ("for the years ended December 31, 2019 and 2018",
     [("December 31, 2019", "2019-12-31"), ("2018", "2018")]),
    ("the three and nine months ended September 30, 2020",
     [("three", None), ("nine", None), ("September 30, 2020", "2020-09-30")]),
])
def test_what_is_not_one_interval(text, expected):
    assert _read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("until the end of Q2", [("Q2", "--Q2")]),
    ("Q3 results", [("Q3", "--Q3")]),
    ("H1 sales rose", [("H1", "--H1")]),
    ("in the fourth quarter", [("fourth quarter", "--Q4")]),
    ("third-quarter earnings", [("third-quarter", "--Q3")]),
    ("the 1st quarter", [("1st quarter", "--Q1")]),
    ("in the second half .", [("second half", "--H2")]),
    ("the first half of the year", [("first half", "--H1")]),
    ("in Q3 and Q4 2019", [("Q3", "--Q3"), ("Q4 2019", "2019-Q4")]),
    # with a year it stays one mention
    ("Q2 2020", [("Q2 2020", "2020-Q2")]),
    ("the third quarter of 2020", [("third quarter of 2020", "2020-Q3")]),
    # not halves or quarters
    ("the H1N1 virus and H2O", []),
    ("an H1-B visa", []),
    ("the first half of the game", []),
    ("a half-hour", []),
])
def test_a_quarter_or_half_without_a_year(text, expected):
    assert _read(text) == expected


def test_a_yearless_quarter_is_not_the_number_it_holds():
    (m,) = extract_numbers("until the end of Q2")
    assert (m.kind, m.period, m.value) == ("temporal", "--Q2", 91.0)  # Apr 1 is day 91 of the reference year
    assert granularity("--Q2") == "quarter" and parse_period("--H2").month == 7


@pytest.mark.parametrize("text", ["fiscal 2020", "FY20", "FY2020", "FY 2020", "fiscal year 2020", "Fiscal Year 2020",
                                  "fiscal-year 2020", "F2020", "FY'20"])
def test_fiscal_years(text):
    assert _read(f"in {text} .") == [(text, "FY2020")]


def test_two_digit_f_is_no_fiscal_year():
    assert _read("the F20 camera") == []


@pytest.mark.parametrize(("a", "b", "days"), [
    ("P3M/2020-09-30", "2020-Q3", 0),  # the quarter it names
    ("P3M/2020-09-30", "2020-Q2", 91),  # Jul 1 - Apr 1
    ("P3M/2020-09-28", "2020-Q3", 0),  # a 52/53-week quarter ended near the quarter's end
    ("P3M/2021-01-02", "2020-Q4", 0),  # named by its midpoint, Nov 17, 2020
    ("P6M/2020-06-30", "2020-H1", 0),
    ("P12M/2019-12-31", "FY2019", 0),
    ("P12M/2019-06-30", "2019", 0),  # a fiscal year is named by the year it ends in
    ("P12M/2019-06-30", "2018", 365),
    ("P9M/2020-09-30", "2020", 0),  # the year to date
    # two intervals of one length: the days between their ends, as the dates alone were before
    ("P3M/2020-09-30", "P3M/2020-10-14", 14),
    ("P12M/2019-12-31", "P12M/2020-01-20", 20),
    ("P12M/2019-12-31", "P12M/--12-05", 26),  # one end without a year: day of year
    # lengths differ: compared as the periods they name, at the coarser granularity
    ("P3M/2020-09-30", "P12M/2020-12-31", 0),
    ("P3M/2020-09-30", "P6M/2020-06-30", 182),  # H2 vs H1 2020
    # a yearless quarter or half: circular day of year
    ("--Q3", "2020-Q3", 0),
    ("--Q2", "2020-Q3", 91),
    ("--Q4", "2020-Q1", 92),  # Oct 1 -> Jan 1 across the year end
    ("--H1", "2020-Q2", 0),
])
def test_distances_by_hand(a, b, days):
    assert period_distance_days(a, b) == days
    assert period_distance_days(b, a) == days


@pytest.mark.parametrize(("a", "b", "agree"), [
    ("--Q3", "2020-Q3", True),  # the source names the quarter; the year is stated elsewhere
    ("--Q2", "2020-Q3", False),
    ("--Q3", "2020", False),  # a yearless period says nothing about a year
    ("--Q3", "--Q3", True),
    ("--Q3", "2020-09-15", True),  # compared at the quarter
    ("P3M/2020-09-30", "2020-Q3", True),
    ("P3M/--09-30", "2020-Q3", True),
    ("P12M/--06-30", "2019", False),
    ("P12M/--06-30", "P12M/2019-06-30", True),  # same length: by the ends
    ("P12M/2019-12-31", "P12M/2019-12-05", False),
    ("2020-Q3", "2020", True),  # unchanged: a year and its quarter are 0 days apart at the year
    ("2019-12-31", "--12-31", True),
])
def test_periods_agree(a, b, agree):
    assert periods_agree(a, b) is agree
    assert periods_agree(b, a) is agree


def test_agree_broadcasts_like_distance():
    keys = CalendarKeys.of(["--Q3", "2020-Q3", "2020-Q2", "2020", None])
    got = keys.agree(np.array([[0, 1]]), np.array([[1, 2, 3, 4]]))
    assert got.shape == (1, 2, 4)
    assert got[0].tolist() == [[True, False, False, False], [True, False, True, False]]


def test_interval_values_and_names():
    assert period_value("P3M/2020-09-30") == period_value("2020-Q3")  # it starts on Jul 1
    assert period_value("P12M/2019-06-30") == period_value("2018-07-01")
    assert parse_period("P3M/2021-01-02").year == 2020
    for bad in ("P4M/2020-09-30", "P3M/2020-09", "P3M/2020-02-30"):
        with pytest.raises(ValueError):
            parse_period(bad)


def test_numfine_shifts_keep_the_interval_form():
    (x,) = find_calendar("for the year ended December 31, 2019 .")
    assert x.granularity == "day"  # the end day is what a shift moves
    assert x.shifted(1) == ("year ended January 1, 2020", "P12M/2020-01-01")
    assert period_distance_days(x.period, "P12M/2020-01-01") == 1
    (q,) = find_calendar("until the end of Q2")
    assert q.shifted(3) == ("Q1", "--Q1")  # a yearless quarter wraps around the year


@pytest.mark.parametrize(("prediction", "reference", "supported"), [
    ("Revenue rose in Q3 2020.", "Revenue rose in the third quarter.", True),
    ("Revenue rose in Q3 2020.", "Revenue rose in the second quarter.", False),
    ("Revenue rose in Q3 2020.", "Revenue rose in the three months ended September 30, 2020.", True),
    ("Revenue rose in fiscal 2019.", "Revenue rose in the year ended December 31, 2019.", True),
    ("Revenue rose in H1 2020.", "Revenue rose in the six months ended June 30, 2020.", True),
    ("Revenue rose in Q3 2020.", "Revenue rose in the three months ended June 30, 2020.", False),
])
def test_the_verdict_reads_periods_in_words(prediction, reference, supported, one_figure_pair):
    """`alignment.value_support` of the one figure of ``reference`` for the one figure of ``prediction``."""
    from nash_metric.pipeline.alignment import value_support

    _, table, ia, ib = one_figure_pair(prediction, reference)
    assert bool(value_support(table, ia, ib)[0, 0]) is supported
