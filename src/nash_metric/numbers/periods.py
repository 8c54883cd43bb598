"""Calendar periods: what a temporal mention means, and the calendar distance NASH scores it by.

A date, month, quarter, half, fiscal year or bare year is one mention whose ``period`` is an ISO-8601-style
string; a time of day has a period too but is compared by value (decimal hours), like any number:

===============  ==========  =============================================
``2019-12-31``   day         "December 31, 2019", "2019-12-31", "12/31/2019"
``--12-31``      day         "December 31" (no year)
``2019-12``      month       "December 2019"
``--12``         month       "December" with a day-less, year-less context
``2019-Q4``      quarter     "Q4 2019", "4Q19"
``--Q4``         quarter     "Q4", "the fourth quarter" (no year)
``2019-H1``      half        "H1 2019", "1H19"
``--H1``         half        "H1", "first half" (no year)
``2019``         year        "in 2019"
``FY2019``       year        "fiscal 2019", "FY19"
``P3M/2020-09-30``  quarter  "three months ended September 30, 2020"
``T21:45``       time        "9:45 p.m."
===============  ==========  =============================================

An interval ``P{n}M/{end}`` (ISO 8601's duration/end form; n is 3, 6, 9 or 12, the end a day, with or without
a year) is a span of n months ended that day. It names the calendar period it stands for (its granularity
and keys): a quarter (3 months) or half (6) by its midpoint, so that a 52/53-week or a retailer's quarter
ended "September 28" or "October 31" is Q3 and one ended "January 2, 2021" is 2020-Q4; a year (12 months)
and the year to date (9 months) by the calendar year the span ends in, the usual naming of a fiscal year
("fiscal year ended June 30, 2019" is fiscal 2019; retailers whose year ends in January name it otherwise).
It keeps its end day: two intervals of the same length are the days between their ends apart (the shifted
end of "year ended December 31, 2019" is as far as the shifted date was before the interval was read).

Distance (``CalendarKeys.distance``): two periods are compared at the coarser of their granularities (a year
against a full date compares years, a quarter against a date compares quarters), as the days between the
starts of the periods that contain them; when either has no year, by the circular day-of-year distance
(so "December 31" and "January 2" are 2 days apart); two intervals of the same length by their ends.
Similarity is ``1 / (1 + days / DAY_SCALE)``: the
paper's magnitude form with a fixed normaliser, since a calendar has no natural zero (``N(v,u)`` would
make 2019 vs 2020 near-identical). ``DAY_SCALE`` is half a year, so that a year apart scores 1/3, the
floor that magnitude similarity gives two same-sign amounts however far apart: a quarter apart scores 0.67,
a month 0.86, a day 0.995. Measured on NumFinE's temporal units from annual reports (``perf/calendar_scale.py``,
docs/benchmarks/numfine.md): 182.5 days does at least as well as 30 and 91 on every protocol
(cross-pair 0.831 vs 0.775 at 30 days, listwise 0.884 vs 0.869); 7 days ranks triplets slightly better but
cross-pairs far worse (0.673); 365 scores a little higher but would put a year apart at 0.5, as close as
amounts a factor 3 apart.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import date, timedelta

import numpy as np

__all__ = [
    "CALENDAR_GRANULARITIES",
    "DAY_SCALE",
    "INTERVAL_MONTHS",
    "CalendarKeys",
    "Period",
    "calendar_similarity",
    "granularity",
    "parse_period",
    "period_distance_days",
    "period_value",
    "periods_agree",
]

CALENDAR_GRANULARITIES = ("day", "month", "quarter", "half", "year")  # finest first
DAY_SCALE = 182.5  # days: a year apart scores 1/3 (module doc)
_YEAR_DAYS = 365.0
_REFERENCE_YEAR = 2001  # a non-leap year places year-less periods (Feb 29 is read as Feb 28 there)

INTERVAL_MONTHS = {3: "quarter", 6: "half", 9: "year", 12: "year"}  # an interval's length -> what it names
_INTERVAL = re.compile(r"P(?P<n>3|6|9|12)M/(?P<end>.+)")
_FORMS = [
    ("day", re.compile(r"(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})")),
    ("day", re.compile(r"--(?P<m>\d{2})-(?P<d>\d{2})")),
    ("month", re.compile(r"(?P<y>\d{4})-(?P<m>\d{2})")),
    ("month", re.compile(r"--(?P<m>\d{2})")),
    ("quarter", re.compile(r"(?:(?P<y>\d{4})|-)-Q(?P<q>[1-4])")),
    ("half", re.compile(r"(?:(?P<y>\d{4})|-)-H(?P<h>[12])")),
    ("year", re.compile(r"(?:FY)?(?P<y>\d{4})")),
    ("time", re.compile(r"T(?P<hh>[01]\d|2[0-3]):(?P<mm>[0-5]\d)")),
]


@dataclass(frozen=True)
class Period:
    """A parsed period: its granularity, year (None when not written) and first month and day. An interval
    (``span_months`` > 0) is the period it names, and its ``end`` day (in the stand-in year when year-less)."""

    granularity: str
    year: int | None
    month: int = 1
    day: int = 1
    minutes: int = 0  # time of day only
    span_months: int = 0  # an interval's length
    end: date | None = None  # an interval's last day

    def start(self, at: str) -> date:
        """The first day of the period at granularity ``at`` (this one or a coarser one) containing it."""
        month = {"day": self.month, "month": self.month, "quarter": (self.month - 1) // 3 * 3 + 1,
                 "half": (self.month - 1) // 6 * 6 + 1, "year": 1}[at]
        day = self.day if at == "day" else 1
        if self.year is None:
            return date(_REFERENCE_YEAR, month, min(day, 28) if month == 2 else day)
        return date(self.year, month, day)


def parse_period(period: str) -> Period:
    """Parse a period string; ValueError when it is not one of the forms above or not a calendar date."""
    interval = _INTERVAL.fullmatch(period)
    if interval is not None:
        return _parse_interval(int(interval["n"]), interval["end"], period)
    for name, pattern in _FORMS:
        m = pattern.fullmatch(period)
        if m is None:
            continue
        g = m.groupdict()
        if name == "time":
            return Period("time", None, minutes=int(g["hh"]) * 60 + int(g["mm"]))
        year = int(g["y"]) if g.get("y") else None
        month = int(g["m"]) if g.get("m") else 1
        if g.get("q"):
            month = 3 * int(g["q"]) - 2
        if g.get("h"):
            month = 6 * int(g["h"]) - 5
        out = Period(name, year, month, int(g["d"]) if g.get("d") else 1)
        try:  # calendar-valid (Feb 29 only in leap years when the year is written)
            date(year or 2004, month, out.day)
        except ValueError:
            raise ValueError(f"{period!r} is not a calendar date") from None
        return out
    raise ValueError(f"{period!r} is not a period string (e.g. '2019-12-31', '2019-Q4', 'FY2019', 'T10:30')")


def _parse_interval(months: int, end: str, period: str) -> Period:
    """The period an interval of ``months`` ended ``end`` names (module doc), with its length and end."""
    last = parse_period(end)
    if last.granularity != "day":
        raise ValueError(f"{period!r}: an interval ends on a day, not {end!r}")
    end_day = last.start("day")
    named = INTERVAL_MONTHS[months]
    if named == "year":
        return Period("year", last.year, span_months=months, end=end_day)
    middle = end_day - timedelta(days=round(months * _YEAR_DAYS / 24))
    first = (middle.month - 1) // months * months + 1
    year = None if last.year is None else middle.year
    return Period(named, year, first, span_months=months, end=end_day)


def _interval_start(p: Period) -> date:
    """The first day of an interval: the day after its end, ``span_months`` earlier (clamped to the month)."""
    after = p.end + timedelta(days=1)
    months = after.year * 12 + after.month - 1 - p.span_months
    year, month = divmod(months, 12)
    return date(year, month + 1, min(after.day, 28))


def granularity(period: str) -> str:
    """"day", "month", "quarter", "half", "year" or "time"."""
    return parse_period(period).granularity


def period_value(period: str) -> float:
    """The number a period stands for: decimal hours for a time; the decimal year of its start
    (2019-07-01 -> 2019.496; an interval's own first day) with a year; the day of the reference year (1-365)
    without one."""
    p = parse_period(period)
    if p.granularity == "time":
        return p.minutes / 60
    start = _interval_start(p) if p.span_months else p.start(p.granularity)
    day_of_year = start.timetuple().tm_yday
    if p.year is None:
        return float(day_of_year)
    days = 366 if start.year % 4 == 0 and (start.year % 100 or start.year % 400 == 0) else 365
    return start.year + (day_of_year - 1) / days


def _day_of_reference_year(day: date) -> int:
    """0-based day of ``day``'s month and day in the reference year (Feb 29 as Feb 28)."""
    return date(_REFERENCE_YEAR, day.month, min(day.day, 28) if day.month == 2 else day.day).timetuple().tm_yday - 1


# A call's mentions repeat few periods ("2009" in many texts), and most have none.
@functools.lru_cache(maxsize=4096)
def _keys(period: str | None) -> tuple[int, bool, tuple[float, ...], tuple[float, ...], int, float, float]:
    """(granularity index or -1, has a year, start ordinals, start days-of-year per granularity, interval
    length in months (0: none), its end's ordinal and day of the reference year (NaN: none)).

    For each granularity at least as coarse as the period's own, the start of the period containing it
    (NaN for finer ones); times and non-calendar mentions get index -1.
    """
    ordinals = [np.nan] * len(CALENDAR_GRANULARITIES)
    day_of_year = [np.nan] * len(CALENDAR_GRANULARITIES)
    p = parse_period(period) if period else None
    if p is None or p.granularity == "time":
        return -1, False, tuple(ordinals), tuple(day_of_year), 0, np.nan, np.nan
    level = CALENDAR_GRANULARITIES.index(p.granularity)
    for g in range(level, len(CALENDAR_GRANULARITIES)):
        start = p.start(CALENDAR_GRANULARITIES[g])
        ordinals[g] = start.toordinal()
        day_of_year[g] = _day_of_reference_year(start)
    if p.end is None:
        return level, p.year is not None, tuple(ordinals), tuple(day_of_year), 0, np.nan, np.nan
    return (level, p.year is not None, tuple(ordinals), tuple(day_of_year), p.span_months, p.end.toordinal(),
            _day_of_reference_year(p.end))


@dataclass
class CalendarKeys:
    """The calendar keys of many mentions, stacked (row i is mention i); level -1 marks a non-calendar one."""

    level: np.ndarray  # [M] int: index into CALENDAR_GRANULARITIES
    has_year: np.ndarray  # [M] bool
    ordinals: np.ndarray  # [M, G] start of the period containing the mention, per granularity
    day_of_year: np.ndarray  # [M, G] the same start as a day of the reference year
    span: np.ndarray  # [M] int: an interval's length in months, 0 for any other period
    end: np.ndarray  # [M, 2] an interval's last day: ordinal, day of the reference year (NaN: none)

    @classmethod
    def of(cls, periods: list[str | None]) -> CalendarKeys:
        keys = [_keys(p) for p in periods]
        width = len(CALENDAR_GRANULARITIES)
        return cls(
            level=np.array([k[0] for k in keys], np.int64),
            has_year=np.array([k[1] for k in keys], bool),
            ordinals=np.array([k[2] for k in keys], np.float64).reshape(-1, width),
            day_of_year=np.array([k[3] for k in keys], np.float64).reshape(-1, width),
            span=np.array([k[4] for k in keys], np.int64),
            end=np.array([k[5:] for k in keys], np.float64).reshape(-1, 2),
        )

    def distance(self, ia: np.ndarray, ib: np.ndarray) -> np.ndarray:
        """Days between mentions ia[..., :, None] and ib[..., None, :] at the coarser of their granularities
        (circular day-of-year distance when either has no year), or between the ends of two intervals of the
        same length; NaN unless both are calendar periods."""
        a, b = ia[..., :, None], ib[..., None, :]
        level_a, level_b = self.level[a], self.level[b]
        both = (level_a >= 0) & (level_b >= 0)
        coarse = np.where(both, np.maximum(level_a, level_b), 0)

        def at_coarse(keys: np.ndarray, rows: np.ndarray) -> np.ndarray:
            # One gather from the flat keys, rows broadcast against columns: no [..., m, n, G] copy of the keys.
            return keys.reshape(-1)[rows * keys.shape[1] + coarse]

        with_years = self.has_year[a] & self.has_year[b]
        days = _apart(at_coarse(self.ordinals, a), at_coarse(self.ordinals, b),
                      at_coarse(self.day_of_year, a), at_coarse(self.day_of_year, b), with_years)
        same_span = (self.span[a] > 0) & (self.span[a] == self.span[b])
        if same_span.any():
            ends = _apart(self.end[a, 0], self.end[b, 0], self.end[a, 1], self.end[b, 1], with_years)
            days = np.where(same_span, ends, days)
        return np.where(both, days, np.nan)

    def agree(self, ia: np.ndarray, ib: np.ndarray) -> np.ndarray:
        """Whether mentions ia[..., :, None] and ib[..., None, :] name the same period as far as both state it:
        0 days apart (``distance``), except that a period without a year states nothing about a year, so it
        neither supports nor is supported by a year ("Q3" vs "2020"; "Q3" vs "Q3 2020" agree, "Q2" does not).
        Two intervals of the same length agree by their ends. False unless both are calendar periods."""
        a, b = ia[..., :, None], ib[..., None, :]
        year = CALENDAR_GRANULARITIES.index("year")
        by_year = np.maximum(self.level[a], self.level[b]) == year
        yearless = ~(self.has_year[a] & self.has_year[b])
        same_span = (self.span[a] > 0) & (self.span[a] == self.span[b])
        return (self.distance(ia, ib) == 0) & ~(by_year & yearless & ~same_span)


def _apart(ord_a: np.ndarray, ord_b: np.ndarray, doy_a: np.ndarray, doy_b: np.ndarray,
           with_years: np.ndarray) -> np.ndarray:
    """Days between two days: exact where both have a year, else the circular day-of-year distance."""
    around = np.abs(doy_a - doy_b)
    return np.where(with_years, np.abs(ord_a - ord_b), np.minimum(around, _YEAR_DAYS - around))


def calendar_similarity(days: np.ndarray | float) -> np.ndarray:
    """1 / (1 + days / DAY_SCALE)."""
    return 1.0 / (1.0 + np.asarray(days, dtype=np.float64) / DAY_SCALE)


def period_distance_days(a: str, b: str) -> float:
    """The calendar distance of two period strings in days (what the scorer and NumFinE's builder use)."""
    keys = CalendarKeys.of([a, b])
    if (keys.level < 0).any():
        raise ValueError(f"{a!r} and {b!r} are not both calendar periods (times compare by value)")
    return float(keys.distance(np.array([0]), np.array([1]))[0, 0])


def periods_agree(a: str, b: str) -> bool:
    """``CalendarKeys.agree`` for two period strings: whether ``b`` states the period ``a`` names (symmetric)."""
    keys = CalendarKeys.of([a, b])
    return bool(keys.agree(np.array([0]), np.array([1]))[0, 0])
