"""Tests for nash_metric.numbers.calendar: every form with its period, span and value; shifting; linear time."""

from __future__ import annotations

import itertools

import pytest

from nash_metric.numbers import extract_numbers
from nash_metric.numbers.calendar import (
    YEAR_RANGE,
    ClockTime,
    DateExpression,
    ampm_after,
    calendar_mentions,
    date_numerals,
    dotted_time_numerals,
    find_calendar,
    is_decade,
    is_year,
    month_name_after,
    month_name_before,
    period_prefix_before,
    two_digit_year,
)
from nash_metric.numbers.periods import period_distance_days, period_value

# (text, [(mention text, period), ...]): every mention is temporal, unit None, value = period_value(period)
CASES = [
    # full dates
    ("as of December 31, 2019 .", [("December 31, 2019", "2019-12-31")]),
    ("on 31 December 2019 the", [("31 December 2019", "2019-12-31")]),
    ("Dec. 31, 2019", [("Dec. 31, 2019", "2019-12-31")]),
    ("Dec 31 2019", [("Dec 31 2019", "2019-12-31")]),
    ("December 31st, 2019", [("December 31st, 2019", "2019-12-31")]),
    ("the 31st of December, 2019", [("31st of December, 2019", "2019-12-31")]),
    ("Sept. 5, 2019", [("Sept. 5, 2019", "2019-09-05")]),
    ("DECEMBER 31, 2019", [("DECEMBER 31, 2019", "2019-12-31")]),
    ("RELEASE SEPT. 24 , 2007 at 13:30", [("SEPT. 24 , 2007", "2007-09-24"), ("13:30", "T13:30")]),
    ("report for January 4 , 2008 and", [("January 4 , 2008", "2008-01-04")]),  # PhraseBank tokenisation
    ("on 2019-12-31 .", [("2019-12-31", "2019-12-31")]),
    ("on 2019/12/31 .", [("2019/12/31", "2019-12-31")]),
    ("on 12/31/2019 .", [("12/31/2019", "2019-12-31")]),
    ("on 31/12/2019 .", [("31/12/2019", "2019-12-31")]),
    ("on 31.12.2019 .", [("31.12.2019", "2019-12-31")]),
    ("on 05/03/2009 and 05.03.2009", [("05/03/2009", "2009-05-03"), ("05.03.2009", "2009-03-05")]),
    ("on 05-03-2009", [("05-03-2009", "2009-03-05")]),
    ("February 29, 2020", [("February 29, 2020", "2020-02-29")]),
    # dates without a year
    ("as of December 31 and June 30", [("December 31", "--12-31"), ("June 30", "--06-30")]),
    ("paid on 31 December ; ", [("31 December", "--12-31")]),
    ("paid on 5 May.", [("5 May", "--05-05")]),  # the sentence's full stop is not part of the date
    ("the 5th of March", [("5th of March", "--03-05")]),
    # months
    ("in March 2020 .", [("March 2020", "2020-03")]),
    ("in Mar. 2020 .", [("Mar. 2020", "2020-03")]),
    ("in May 2019 , sales", [("May 2019", "2019-05")]),
    ("in 03/2010 .", [("03/2010", "2010-03")]),
    # quarters
    ("in Q4 2019 .", [("Q4 2019", "2019-Q4")]),
    ("in Q4\u00a02019 .", [("Q4\u00a02019", "2019-Q4")]),
    ("in Q4, 2019", [("Q4, 2019", "2019-Q4")]),
    ("in Q4 of 2019", [("Q4 of 2019", "2019-Q4")]),
    ("in Q1-2010", [("Q1-2010", "2010-Q1")]),
    ("in Q2 '08 .", [("Q2 '08", "2008-Q2")]),
    ("in 4Q19 .", [("4Q19", "2019-Q4")]),
    ("in 4Q 2019 .", [("4Q 2019", "2019-Q4")]),
    ("in 4Q2019 .", [("4Q2019", "2019-Q4")]),
    ("in Q4 FY2019", [("Q4 FY2019", "2019-Q4")]),
    ("in Q4 FY19", [("Q4 FY19", "2019-Q4")]),
    ("in Q4 fiscal 2019", [("Q4 fiscal 2019", "2019-Q4")]),
    ("in the fourth quarter of 2019 .", [("fourth quarter of 2019", "2019-Q4")]),
    ("in the Fourth Quarter of 2019", [("Fourth Quarter of 2019", "2019-Q4")]),
    ("fourth-quarter 2019 results", [("fourth-quarter 2019", "2019-Q4")]),
    ("the 4th quarter 2019", [("4th quarter 2019", "2019-Q4")]),
    ("third quarter of fiscal 2019", [("third quarter of fiscal 2019", "2019-Q3")]),
    ("first quarter of the fiscal year 2017", [("first quarter of the fiscal year 2017", "2017-Q1")]),
    # halves
    ("in H1 2023 .", [("H1 2023", "2023-H1")]),
    ("in H2 of 2023", [("H2 of 2023", "2023-H2")]),
    ("in 1H23 .", [("1H23", "2023-H1")]),
    ("in 2H 2023 .", [("2H 2023", "2023-H2")]),
    ("in the first half of 2023 .", [("first half of 2023", "2023-H1")]),
    ("first-half 2023 sales", [("first-half 2023", "2023-H1")]),
    ("the second half of fiscal 2019", [("second half of fiscal 2019", "2019-H2")]),
    ("in H1 FY23", [("H1 FY23", "2023-H1")]),
    # fiscal years
    ("in fiscal 2019 .", [("fiscal 2019", "FY2019")]),
    ("Fiscal 2019 sales", [("Fiscal 2019", "FY2019")]),
    ("in fiscal year 2019 .", [("fiscal year 2019", "FY2019")]),
    ("in Fiscal Year 2018 .", [("Fiscal Year 2018", "FY2018")]),
    ("in FY19 .", [("FY19", "FY2019")]),
    ("in FY 2019 .", [("FY 2019", "FY2019")]),
    ("in FY2019 .", [("FY2019", "FY2019")]),
    ("in FY'19 .", [("FY'19", "FY2019")]),
    ("from FY68 to FY69", [("FY68", "FY2068"), ("FY69", "FY1969")]),  # the two-digit pivot
    ("for fiscal 2019, 2018 and 2017", [("fiscal 2019", "FY2019")]),  # the other years are bare years
    # clock times
    ("at 10:30 local time", [("10:30", "T10:30")]),
    ("at 10:30:15 local time", [("10:30:15", "T10:30")]),
    ("at 09:05 .", [("09:05", "T09:05")]),
    ("at 9 am .", [("9 am", "T09:00")]),
    ("at 9 a.m. Helsinki time", [("9 a.m.", "T09:00")]),
    ("at 10 a.m .", [("10 a.m", "T10:00")]),  # PhraseBank tokenisation
    ("at 9:45 p.m. ;", [("9:45 p.m.", "T21:45")]),
    ("at 8.30 a.m. ;", [("8.30 a.m.", "T08:30")]),
    ("at 4:50 PM ;", [("4:50 PM", "T16:50")]),
    ("RELEASE 28.02.2008 AT 09.30 Kesko", [("28.02.2008", "2008-02-28"), ("09.30", "T09:30")]),
    ("Release 5 December 2006 at 15.45 EUR", [("5 December 2006", "2006-12-05"), ("15.45", "T15:45")]),
    ("at 12 pm and 12 am", [("12 pm", "T12:00"), ("12 am", "T00:00")]),
    ("from 10:30-11:00 .", [("10:30", "T10:30"), ("11:00", "T11:00")]),
    # several in one sentence
    ("Held on April 23, 2010 at 10:00 ; paid 5 May ; Q3 2010 and FY19 .",
     [("April 23, 2010", "2010-04-23"), ("10:00", "T10:00"), ("5 May", "--05-05"), ("Q3 2010", "2010-Q3"),
      ("FY19", "FY2019")]),
    ("Q3 results", [("Q3", "--Q3")]),  # a quarter without a year (issue 29; was not read)
]

NOT_CALENDAR = [
    "February 30, 2009 may rise",  # calendar-invalid; "may" is a verb
    "February 29, 2019",
    "31 June 2019",
    "sales may 2019",
    "in 2019 .",  # bare years belong to the digit reader
    "in 1899 and December 5, 1850 and Q4 2101",  # years outside 1900-2100
    "13/13/2019 and 32.01.2019",
    "Q5 2019 and Q0 2019 and H3 2019 and 5Q19",
    "Q400 and A4 and 3G",
    "ASU 2016-02",  # year-month with a hyphen is an identifier
    "fiscal years 2019 and 2018",
    "FY2019/20 and fiscal 2019-20",
    "in January-June 2008",  # a range of months: the year is a bare year
    "10.30 and 2:1 and 25:00 and 13 pm and 0 am",
    "shares closed at 22.70 eur and at 9.30 today",  # a dotted time needs am/pm, or a date before "at"
    "5 amendments at 9 amps",
    "H1N1 and H2O and H1-B and the first half of the game and a half-hour",  # no calendar halves (issue 29)
]


def _pairs(text: str) -> list[tuple[str, str]]:
    return [(m.text, m.period) for m in calendar_mentions(text)]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_forms(text, expected):
    mentions = calendar_mentions(text)
    assert [(m.text, m.period) for m in mentions] == expected
    for m in mentions:
        assert text[m.start:m.end] == m.text
        assert (m.kind, m.unit, m.error) == ("temporal", None, None)
        assert m.value == period_value(m.period)


@pytest.mark.parametrize("text", NOT_CALENDAR)
def test_not_calendar(text):
    assert _pairs(text) == []


def test_values_and_spans():
    (m,) = calendar_mentions("As of December 31, 2019, the")
    assert (m.start, m.end) == (6, 23)
    assert m.value == pytest.approx(2019 + 364 / 365)
    assert calendar_mentions("Q3 2019")[0].value == pytest.approx(2019 + 181 / 365)
    assert calendar_mentions("FY19")[0].value == 2019.0
    assert calendar_mentions("9:45 p.m.")[0].value == 21.75
    assert calendar_mentions("December 31")[0].value == 365.0  # day of the stand-in year


def test_two_digit_pivot():
    assert [two_digit_year(y) for y in (0, 19, 68, 69, 99)] == [2000, 2019, 2068, 1969, 1999]


def test_longest_span_wins_and_results_are_sorted():
    text = "Between 5 March 2009 and the fourth quarter of fiscal 2019 at 9 am"
    found = find_calendar(text)
    assert [x.text for x in found] == ["5 March 2009", "fourth quarter of fiscal 2019", "9 am"]
    assert [x.start for x in found] == sorted(x.start for x in found)
    assert [type(x) for x in found] == [DateExpression, DateExpression, ClockTime]


@pytest.mark.parametrize(("text", "amount", "shifted", "period"), [
    ("December 31, 2019", 2, "January 2, 2020", "2020-01-02"),
    ("Dec. 31, 2019", 2, "Jan. 2, 2020", "2020-01-02"),
    ("December 31st, 2019", 1, "January 1st, 2020", "2020-01-01"),
    ("April 23, 2010", 8, "May 1, 2010", "2010-05-01"),
    ("Apr. 23, 2010", 8, "May 1, 2010", "2010-05-01"),
    ("DECEMBER 31, 2019", -30, "DECEMBER 1, 2019", "2019-12-01"),
    ("Aug. 30, 2019", 6, "Sep. 5, 2019", "2019-09-05"),
    ("Sept. 5, 2019", -6, "Aug. 30, 2019", "2019-08-30"),
    ("SEPT. 24, 2007", 10, "OCT. 4, 2007", "2007-10-04"),
    ("DEC 31, 2007", -4, "DEC 27, 2007", "2007-12-27"),
    ("31 December 2019", 1, "1 January 2020", "2020-01-01"),
    ("2019-12-31", 1, "2020-01-01", "2020-01-01"),
    ("12/31/2019", 2, "1/2/2020", "2020-01-02"),
    ("31.12.2019", 1, "01.01.2020", "2020-01-01"),
    ("December 31", 1, "January 1", "--01-01"),
    ("February 29", 1, "March 1", "--03-01"),
    ("March 2020", -3, "December 2019", "2019-12"),
    ("03/2010", 10, "01/2011", "2011-01"),
    ("Q4 2019", 2, "Q2 2020", "2020-Q2"),
    ("Q4 of 2019", -8, "Q4 of 2017", "2017-Q4"),
    ("Q2 '08", -3, "Q3 '07", "2007-Q3"),
    ("4Q19", 2, "2Q20", "2020-Q2"),
    ("Q4 FY19", 1, "Q1 FY20", "2020-Q1"),
    ("fourth quarter of fiscal 2019", 2, "second quarter of fiscal 2020", "2020-Q2"),
    ("Fourth Quarter of 2019", -1, "Third Quarter of 2019", "2019-Q3"),
    ("4th quarter 2019", -2, "2nd quarter 2019", "2019-Q2"),
    ("H1 2023", -1, "H2 2022", "2022-H2"),
    ("1H23", 1, "2H23", "2023-H2"),
    ("first half of 2023", 3, "second half of 2024", "2024-H2"),
    ("FY19", 2, "FY21", "FY2021"),
    ("FY09", 1, "FY10", "FY2010"),
    ("FY 2019", -10, "FY 2009", "FY2009"),
    ("Fiscal Year 2019", 1, "Fiscal Year 2020", "FY2020"),
])
def test_shifting_keeps_the_surface_form(text, amount, shifted, period):
    (x,) = find_calendar(text)
    assert isinstance(x, DateExpression)
    assert x.shifted(amount) == (shifted, period)
    (back,) = find_calendar(shifted)  # the variant reads back as the period it claims (NumFinE's check)
    assert (back.text, back.period) == (shifted, period)


def test_clock_hours():
    (c,) = find_calendar("at 9:45 p.m. ;")
    assert isinstance(c, ClockTime)
    assert (c.hour, c.minute, c.twelve_hour, c.period) == (9, 45, True, "T21:45")
    assert c.with_hour(3) == "3:45 p.m." and c.period_at(3) == "T15:45" and c.period_at(12) == "T12:45"
    (c,) = find_calendar("at 09:30 .")
    assert isinstance(c, ClockTime)
    assert c.with_hour(7) == "07:30" and c.period_at(7) == "T07:30"


def test_the_extractor_reads_a_date_as_one_mention():
    """The scorer's reader and this grammar agree: one mention per calendar expression, with its period."""
    text = "Net sales for December 31, 2019 rose 5 % from Q4 2018 and FY19 levels ."
    got = [(m.text, m.period) for m in extract_numbers(text) if m.kind == "temporal"]
    assert got == [("December 31, 2019", "2019-12-31"), ("Q4 2018", "2018-Q4"), ("FY19", "FY2019")]
    assert period_distance_days("2019-12-31", "2020-01-02") == 2
    assert period_distance_days("--12-31", "--01-02") == 2


def test_linear_time_on_adversarial_text(assert_linear):
    pieces = ["December 31, 2019 ", "31 December ", "Q4 FY19 ", "1/2/3/4/5/2019 ", "4Q 4Q 4Q ", "12:30:1 ",
              "fourth quarter of the fiscal year ", "May May 1 2 3 ", "FY FY'1 ", "1H2H1H ", "31.12.20 ",
              "9 a.m.p.m. ", "January-June-July 2008 ", "0" * 40 + " ", "1 " * 30, "-" * 20]
    text = "".join(pieces)
    text = (text * (100_000 // len(text) + 1))[:100_000]
    assert_linear(calendar_mentions, text)
    found = calendar_mentions(text)
    assert found and all(a.end <= b.start for a, b in itertools.pairwise(found))
    for worst in ("1" * 100_000, " " * 100_000, "Q" * 100_000, "December " * 11_000, "1 of " * 20_000):
        assert_linear(calendar_mentions, worst)


@pytest.mark.parametrize(("text", "numerals"), [
    ("12/31/19", ["12", "31", "19"]),  # a two-digit numeric year: no whole date
    ("2019-02-30", ["2019", "02", "30"]),  # no calendar date
    ("2150-01-01", ["2150", "01", "01"]),  # a year outside YEAR_RANGE
    ("10:30:15", ["10", "30", "15"]),  # a whole clock time too (it wins the overlap)
])
def test_the_numeral_view_of_numeric_dates(text, numerals):
    """The digit reader asks this grammar for the numerals of a numeric date; the view is looser than the
    whole expressions, and each numeral stays a temporal number where no whole expression is read."""
    end, spans = date_numerals(text, 0)
    assert end == len(text) and [text[a:b] for a, b in spans] == numerals
    if not find_calendar(text):
        assert [(m.text, m.kind) for m in extract_numbers(text)] == [(n, "temporal") for n in numerals]
    assert date_numerals("13/13/2019", 0) is None and date_numerals("2019/03/2019", 0) is None


def test_the_numeral_view_of_times_months_and_decades():
    assert dotted_time_numerals("at 09.30", 3, 8) == [(3, 5), (6, 8)]
    assert dotted_time_numerals("of 09.30", 3, 8) is None  # elsewhere h.mm is a decimal
    assert month_name_before("on March 5", 9) and month_name_before("Dec. 5", 5)
    assert not month_name_before("may 5", 4)  # the verb
    assert month_name_after("5th of March", 1) and month_name_after("5 March", 1) and not month_name_after("5 may", 1)
    assert ampm_after("9 a.m.", 1) and ampm_after("9pm", 1) and not ampm_after("9 amber", 1)
    assert period_prefix_before("Q3", 1) and period_prefix_before("FY 10", 3) and not period_prefix_before("AQ3", 2)
    assert [is_decade(d) for d in ("1990", "90", "0990", "2200", "95")] == [True, True, False, False, False]
    assert is_year(YEAR_RANGE[0]) and is_year(YEAR_RANGE[1]) and not is_year(YEAR_RANGE[1] + 1)


def test_skipping_a_pattern_whose_substring_is_absent_changes_nothing(monkeypatch):
    """`find_calendar` scans only the patterns whose required substring (`_NEEDS`) a text holds: the same result as
    scanning every pattern, on every case above and on texts that hold a needle in another case or inside a word
    (a month name as written: capitalised or in capitals)."""
    from nash_metric.numbers import calendar

    assert set(calendar._NEEDS) <= {form for form, _, _ in calendar._PATTERNS}
    texts = [t for t, _ in CASES] + NOT_CALENDAR + [
        "MARKET share in march 2019", "SALES IN MARCH 2019 and SEPT. 5, 2019",
        "q3 2019 and Q3 2019", "the FIRST HALF of 2019", "fy19, FY19 and fiscal 2019",
        "three months ENDED September 30, 2020", "at 10.30 on 5 December 2006 at 15.45", "03/2010 and 2010/03/05",
    ]
    skipped = [find_calendar(t) for t in texts]
    monkeypatch.setattr(calendar, "_NEEDS", {})
    assert [find_calendar(t) for t in texts] == skipped
    assert any(skipped), "the texts must hold calendar expressions"
