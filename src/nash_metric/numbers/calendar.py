"""Calendar expressions: the one date/period grammar of the project (the scorer's reader and NumFinE's builder).

``calendar_mentions(text)`` returns every date, month, quarter, half, fiscal year and time of day of ``text``
as ONE ``NumericMention`` whose span covers the whole expression: kind ``"temporal"``, unit None, ``period``
its calendar meaning (``numbers.periods``) and ``value`` = ``periods.period_value(period)``. ``find_calendar``
returns the same expressions as objects that NumFinE's builder shifts and writes back in the same surface
form (``DateExpression.shifted``, ``ClockTime.with_hour``), so variants, distances and the scorer agree.

Forms (period of the example in brackets):

* Full dates (day): ``December 31, 2019``, ``Dec. 31, 2019``, ``Dec 31 2019``, ``December 31st, 2019``,
  ``31 December 2019``, ``31st of December, 2019``, the Financial PhraseBank's ``January 4 , 2008``
  (all ``2019-12-31``); ISO ``2019-12-31`` (also ``2019/12/31``); numeric ``12/31/2019``, ``31/12/2019``,
  ``31.12.2019``, ``31-12-2019``: dots and dashes are read day-first, slashes month-first, unless a field
  above 12 decides (``31/12/2019`` is day-first). Numeric dates need a 4-digit year.
* Dates without a year (day): ``December 31``, ``Dec. 31st``, ``31 December``, ``31st of December``
  (``--12-31``); shifted in a stand-in year (2001, or 2004 for February 29).
* Months: ``March 2020``, ``Mar. 2020``, ``March, 2020``, ``03/2020`` (``2020-03``). A month after another
  month and a hyphen (``January-June 2008``, a range) is left alone (its year is a bare year).
* Quarters: ``Q4 2019``, ``Q4, 2019``, ``Q4 of 2019``, ``Q4-2019``, ``Q4 '19``, ``4Q19``, ``4Q 2019``,
  ``4Q2019``, ``fourth quarter of 2019``, ``fourth-quarter 2019``, ``4th quarter 2019`` (``2019-Q4``).
* Halves: ``H1 2023``, ``H1 of 2023``, ``1H23``, ``1H 2023``, ``first half of 2023``, ``first-half 2023``,
  ``1st half 2023`` (``2023-H1``).
* Fiscal quarters and halves: ``Q4 FY2019``, ``Q4 FY19``, ``Q4 fiscal 2019``, ``fourth quarter of fiscal
  2019``, ``third quarter of fiscal year 2019``, ``H1 FY23`` are read as the quarter (half) of the year
  named (``2019-Q4``): fiscal calendars differ by company, and a consistent reading is what distances need.
* Quarters and halves without a year: ``Q3``, ``third quarter``, ``third-quarter``, ``3rd quarter``, ``H1``,
  ``first half`` (``--Q3``, ``--H1``; ``numbers.periods``: the year is usually stated elsewhere). Not
  when glued to a word or hyphen (``H1N1``, ``H2O``, ``H1-B``, ``half-hour``), before a 4-digit number
  (``Q4 2101``: an unread year), or before "of" that names no year (``first half of the game``; ``first half
  of the year``, ``of last year`` are read, as ``first half``).
* Intervals ended on a day: ``three months ended September 30, 2020`` (``P3M/2020-09-30``, named
  ``2020-Q3``), ``six months ended June 30, 2020`` (``P6M/...``, ``2020-H1``), ``nine months ended ...``
  (``P9M/...``, the year to date), ``twelve months``/``year``/``fiscal year ended December 31, 2019``
  (``P12M/...``, the year); also ``3``/``12``, ``three-month period``, ``quarter`` and ``second quarter``,
  ``13``/``26``/``39``/``52``/``53 weeks`` (as 3, 6, 9, 12 months), ``ending``, ``ended on``, day-first
  dates and dates without a year (``P3M/--03-31``). One mention: the number of months is no quantity.
  Plurals (``years ended December 31, 2019 and 2018``) and lists (``three and nine months ended``) name
  several periods and are left to the date and numbers inside them. The date is the field a shift moves.
* Fiscal years: ``fiscal 2019``, ``Fiscal Year 2019``, ``fiscal year 2019``, ``fiscal-year 2019``,
  ``FY2019``, ``FY 2019``, ``FY19``, ``FY'19``, ``F2019`` (``FY2019``; ``F19`` is not read: a model name).
  Plural ``fiscal years 2019 and 2018`` is not one fiscal year (each year is a bare year); ``FY2019/20``
  and ``fiscal 2019-20`` (split years) are not read.
* Clock times: ``10:30`` (``T10:30``), ``10:30:15`` (seconds dropped: ``T10:30``), ``9 am``, ``9 a.m.``
  (``T09:00``), ``9:45 p.m.``, ``9.45 pm`` (``T21:45``), ``12 am`` (``T00:00``), and a dotted time after a
  date's year and "at" (PhraseBank's ``RELEASE 28.02.2008 AT 09.30``). A bare number is no time: ``hh:mm``
  needs two minute digits; ``h.mm`` elsewhere needs am/pm ("closed at 22.70" is a price), ``h`` always
  does; 24-hour times are 0-23, 12-hour 1-12.

Not read here as one expression: bare years (``in 2019``; ``numbers.english`` marks them temporal and
``numbers.extract`` gives them the period ``"2019"``), ``3Q``/``1H`` without a year, decades,
``2017/18``, year-month ``2016-02`` (often an identifier such as ``ASU 2016-02``), two-digit numeric years
(``12/31/19``), year-first quarters (``fiscal 2019 second quarter`` reads ``fiscal 2019``), weekdays,
seasons.

Rules: month names are capitalised (``December``, ``Dec.``) or all capitals (``DECEMBER``, ``SEPT.``, as
PhraseBank headers write them); full names, three-letter forms and ``Sept``, abbreviations with or without a
dot; so the verb "may" is no month. Years are 1900-2100 (``YEAR_RANGE``, the project's one year range).
Two-digit years follow the POSIX ``%y`` pivot (``TWO_DIGIT_PIVOT``): 00-68 -> 2000-2068, 69-99 ->
1969-1999. Calendar-invalid dates (``February 30, 2009``, ``February 29, 2019``) are not dates. Overlapping
candidates resolve as ``mention.resolve_overlaps`` does: the longest span wins (``December 31, 2019`` over
``December 31``), ties by earlier start, then by the order of ``_PATTERNS``. Linear time: every pattern is
precompiled, has bounded repetition and runs once over the text; overlaps are resolved with an occupancy map.

The digit reader (``numbers.english``) reads the numerals of a date one at a time and asks this module what
they are: ``date_numerals`` (``2010-03-05``, ``12/31/19``, ``10:30``), ``dotted_time_numerals`` (``at 09.30``),
``month_name_before`` / ``month_name_after`` (a day next to a month name), ``ampm_after``,
``period_prefix_before`` (``Q3``, ``FY2010``), ``is_decade`` and ``is_year``. That view is looser than the
whole expressions (see the "numerals" section below); a whole expression, where there is one, wins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from ..vocabulary.en import MONTH_NAMES, ORDINAL_SUFFIXES, ORDINAL_WORDS, SPAN_MONTHS, SPAN_WEEKS
from .mention import NumericMention
from .periods import period_value

__all__ = [
    "HEADER_CELL_YEARS",
    "LABEL_YEARS",
    "NO_YEAR_LEAP_REFERENCE",
    "NO_YEAR_REFERENCE",
    "TWO_DIGIT_PIVOT",
    "YEAR_RANGE",
    "ClockTime",
    "DateExpression",
    "ampm_after",
    "calendar_mentions",
    "date_numerals",
    "dotted_time_numerals",
    "find_calendar",
    "is_decade",
    "is_year",
    "month_name_after",
    "month_name_before",
    "period_prefix_before",
    "two_digit_year",
    "year_pattern",
]

# The project's one year range: the years a date may have and a bare four-digit integer may name.
YEAR_RANGE = (1900, 2100)
# Narrower ranges inside it, where a four-digit number in a table is taken for a year with no other sign of one (a
# month, "fiscal", a date's form): kept as first chosen, so that no reading changes. Both are whole decades
# (`year_pattern`).
# - The years a table's header or row label names ("2019", `context.words`): the year its cells are stated for,
#   and no subject word. A label's number outside them is more often a code or an account ("Account 1920").
LABEL_YEARS = (1950, 2049)
# - A whole cell that is a year ("2019", `context.table_grid`): a header in a table's leading rows, not a figure.
#   Narrower still: a body cell's "1985" or "2045" is more often a figure than a column's year.
HEADER_CELL_YEARS = (1990, 2039)
TWO_DIGIT_PIVOT = 69  # "FY68" -> 2068, "FY69" -> 1969 (POSIX strptime %y)
NO_YEAR_REFERENCE = 2001  # a non-leap year stands in when a date has no year
NO_YEAR_LEAP_REFERENCE = 2004  # ... unless it is February 29

_FULL = {m: i for i, m in enumerate(MONTH_NAMES, 1)}
_ABBR = {m[:3]: i for i, m in enumerate(MONTH_NAMES, 1) if m != "May"} | {"Sept": 9}
_MONTH_NUMBER = _FULL | {m.upper(): i for m, i in _FULL.items()} | _ABBR | {m.upper(): i for m, i in _ABBR.items()}
_FULL_ALT = "|".join(sorted(set(_FULL) | {m.upper() for m in _FULL}, key=len, reverse=True))
_ABBR_ALT = "|".join(sorted(set(_ABBR) | {m.upper() for m in _ABBR}, key=len, reverse=True))
_MON_DOT = rf"(?P<mon>(?:{_FULL_ALT})|(?:{_ABBR_ALT})\.?)(?![A-Za-z])"  # "Dec." keeps its dot
_MON = rf"(?P<mon>{_FULL_ALT}|{_ABBR_ALT})(?![A-Za-z])"  # last word of an expression: a dot may end the sentence
_ORD = "|".join(ORDINAL_SUFFIXES)  # st|nd|rd|th
_DAY = rf"(?P<day>[0-3]?[0-9])(?P<ord>{_ORD})?"
# The four digits of a year in YEAR_RANGE's centuries (19xx-21xx); `is_year` checks the range itself.
_CENTURIES = "|".join(str(c) for c in range(YEAR_RANGE[0] // 100, YEAR_RANGE[1] // 100 + 1))  # 19|20|21
_YEAR = rf"(?P<year>(?:{_CENTURIES})[0-9]{{2}})"
_COMMA = r"(?:\s?,\s?|\s)"  # "31, 2019", "31 2019", PhraseBank "4 , 2008"
_B = r"(?<![\w.,])"  # nothing glued before a leading digit or month name
_BL = r"(?<![A-Za-z0-9])"
_BN = r"(?<![\w.,/-])"  # numeric forms: not inside a longer numeric token
_E = r"(?![\w]|[.,/][0-9])"  # nothing glued after
_EN = r"(?![\w]|[.,/-][0-9])"
_FISCAL = r"(?i:fiscal)(?:[\s-](?i:year))?\s"  # "fiscal ", "fiscal year ", "fiscal-year "
# the year of a quarter or half: "2019", "FY2019", "fiscal 2019", "fiscal year 2019", "FY19", "'19"
_PERIOD_YEAR = rf"(?:(?:FY\s?|{_FISCAL})?{_YEAR}|FY\s?'?(?P<yy>[0-9]{{2}})|'(?P<ay>[0-9]{{2}}))"
_PERIOD_SEP = r"(?:\s?,\s?|\s(?:(?i:of)\s)?(?:(?i:the)\s)?|[-/]|(?=FY|'))"
_QUARTER_ORDINALS = "|".join(ORDINAL_WORDS[:4])  # first|second|third|fourth
_QWORD = rf"(?P<qw>(?i:{_QUARTER_ORDINALS})|1st|2nd|3rd|4th)"
_HWORD = r"(?P<hw>(?i:" + "|".join(ORDINAL_WORDS[:2]) + r")|1st|2nd)"
_ORDINAL_WORDS = {w: i for i, w in enumerate(ORDINAL_WORDS[:4], 1)}  # "first" -> 1 ... "fourth" -> 4
# a year-less date is not the head of a dated one: "February 29, 2019" is invalid, not "February 29"
_NO_YEAR_AFTER = r"(?!" + _COMMA + r"[0-9]{4}(?![0-9]))"
# A year-less quarter or half in words is a calendar one unless "of" names something else ("first half of the
# game"): "of" may be followed only by a year ("of the year", "of last year", "of fiscal 2019" read whole).
_OF_A_YEAR = (r"(?!\s(?i:of)\s(?!(?i:(?:(?:the|this|that|last|next|its|our|their|the\scurrent|the\sprevious)\s)?"
              r"(?:fiscal\s)?(?:year|fiscal)\b)|[0-9']))")
_NOT_A_WORD_AFTER = r"(?![\w-])"  # "half-hour", "quarter-final", "H1N1", "H1-B"
# nor the head of a quarter whose year is out of range or unread ("Q4 2101")
_NO_PERIOD_YEAR_AFTER = r"(?!\s?,?\s(?:(?i:of)\s)?'?[0-9]{4}(?![0-9]))"
# An interval ended on a day ("three months ended September 30, 2020"): its length in months by the words that
# say it (module doc). Plural periods ("years ended", "quarters ended") name several and are left alone.
_SPAN_WORDS = SPAN_MONTHS | SPAN_WEEKS
_SPAN = (r"(?P<span>(?i:(?P<n>" + "|".join(SPAN_MONTHS) + r")(?:\smonths|-month\speriod)"
         r"|(?P<w>" + "|".join(SPAN_WEEKS) + r")(?:\sweeks|-week\speriod)"
         r"|(?:(?:" + _QUARTER_ORDINALS + r"|1st|2nd|3rd|4th)[\s-])?(?:fiscal\s)?(?P<unit>year|quarter)))"
         r"\s(?i:ended|ending)\s(?:(?i:on)\s)?")
_ENDED = r"(?<![A-Za-z-])" + _SPAN
_ALONE_END = _NOT_A_WORD_AFTER + r"(?![.,/][0-9])" + _NO_PERIOD_YEAR_AFTER  # "Q3" alone: not "Q3.5", "Q4 2101"
_SPAN_LIST_BEFORE = re.compile(r"(?i:three|six|nine|twelve|thirteen|[0-9]+)\s(?:and|or|&)\s\Z")

# (form, granularity, pattern); the list order breaks ties between equally long overlapping matches.
_PATTERNS: list[tuple[str, str, re.Pattern[str]]] = [
    ("mdy", "day", re.compile(_B + _MON_DOT + r"\s" + _DAY + _COMMA + _YEAR + _E)),
    ("dmy", "day", re.compile(_B + _DAY + r"\s(?:of\s)?" + _MON_DOT + _COMMA + _YEAR + _E)),
    ("iso", "day", re.compile(_BN + _YEAR + r"(?P<sep>[-/])(?P<mnum>[0-9]{1,2})(?P=sep)(?P<day>[0-9]{1,2})" + _EN)),
    ("numeric", "day", re.compile(_BN + r"(?P<a>[0-9]{1,2})(?P<sep>[./-])(?P<b>[0-9]{1,2})(?P=sep)" + _YEAR + _EN)),
    ("quarter_words", "quarter", re.compile(
        r"(?<![A-Za-z])" + _QWORD + r"[\s-](?i:quarter)" + _PERIOD_SEP + _PERIOD_YEAR + _E)),
    ("half_words", "half", re.compile(r"(?<![A-Za-z])" + _HWORD + r"[\s-](?i:half)" + _PERIOD_SEP + _PERIOD_YEAR + _E)),
    ("quarter", "quarter", re.compile(_BL + r"Q(?P<q>[1-4])" + _PERIOD_SEP + _PERIOD_YEAR + _E)),
    ("half", "half", re.compile(_BL + r"H(?P<h>[12])" + _PERIOD_SEP + _PERIOD_YEAR + _E)),
    ("ended_mdy", "day", re.compile(_ENDED + _MON_DOT + r"\s" + _DAY + _COMMA + _YEAR + _E)),
    ("ended_dmy", "day", re.compile(_ENDED + _DAY + r"\s(?:of\s)?" + _MON_DOT + _COMMA + _YEAR + _E)),
    ("ended_md", "day", re.compile(_ENDED + _MON_DOT + r"\s" + _DAY + _E + _NO_YEAR_AFTER)),
    ("ended_dm", "day", re.compile(_ENDED + _DAY + r"\s(?:of\s)?" + _MON + _NO_YEAR_AFTER)),
    ("quarter_compact", "quarter", re.compile(
        _B + r"(?P<q>[1-4])Q(?:\s?" + _YEAR + r"|(?P<yy>[0-9]{2})|\s?'(?P<ay>[0-9]{2}))" + _E)),
    ("half_compact", "half", re.compile(
        _B + r"(?P<h>[12])H(?:\s?" + _YEAR + r"|(?P<yy>[0-9]{2})|\s?'(?P<ay>[0-9]{2}))" + _E)),
    ("my", "month", re.compile(_B + _MON_DOT + _COMMA + _YEAR + _E)),
    ("mnum_y", "month", re.compile(_BN + r"(?P<mnum>[0-9]{1,2})/" + _YEAR + _EN)),
    ("fiscal", "year", re.compile(r"(?<![A-Za-z])" + _FISCAL + _YEAR + _EN)),
    ("fy", "year", re.compile(_BL + r"FY\s?(?:" + _YEAR + r"|'?(?P<yy>[0-9]{2}))" + _EN)),
    ("f", "year", re.compile(_BL + r"F" + _YEAR + _EN)),  # "F2020" (four digits only: "F20" is a model name)
    ("quarter_words_alone", "quarter", re.compile(
        r"(?<![A-Za-z])" + _QWORD + r"[\s-](?i:quarter)" + _NOT_A_WORD_AFTER + _OF_A_YEAR
        + _NO_PERIOD_YEAR_AFTER)),
    ("half_words_alone", "half", re.compile(
        r"(?<![A-Za-z])" + _HWORD + r"[\s-](?i:half)" + _NOT_A_WORD_AFTER + _OF_A_YEAR
        + _NO_PERIOD_YEAR_AFTER)),
    ("quarter_alone", "quarter", re.compile(_BL + r"Q(?P<q>[1-4])" + _ALONE_END)),
    ("half_alone", "half", re.compile(_BL + r"H(?P<h>[12])" + _ALONE_END)),
    ("md", "day", re.compile(_B + _MON_DOT + r"\s" + _DAY + _E + _NO_YEAR_AFTER)),
    ("dm", "day", re.compile(_B + _DAY + r"\s(?:of\s)?" + _MON + _NO_YEAR_AFTER)),
]
# What each pattern cannot match without (`_present`): a text without it skips the pattern's scan (25 scans of
# every text were most of what reading its calendar cost). Forms not named are always scanned.
_NEEDS = {
    **dict.fromkeys(("mdy", "dmy", "my", "md", "dm"), "month"),
    **dict.fromkeys(("ended_mdy", "ended_dmy", "ended_md", "ended_dm"), "ended"),
    **dict.fromkeys(("quarter_words", "quarter_words_alone"), "quarter"),
    **dict.fromkeys(("half_words", "half_words_alone"), "half"),
    **dict.fromkeys(("quarter", "quarter_alone", "quarter_compact"), "Q"),
    **dict.fromkeys(("half", "half_alone", "half_compact"), "H"),
    "fiscal": "fiscal", "fy": "FY", "f": "F", "mnum_y": "/",
}
# Month names are matched as written, capitalised or in capitals ("March", "MAR"): each starts with one of these.
_MONTH_STEMS = tuple(sorted({s for m in MONTH_NAMES for s in (m[:3], m[:3].upper())}))
_MONTH_FORMS = ("mdy", "my", "md")
_MONTH_RANGE_BEFORE = re.compile(rf"(?:{_FULL_ALT}|{_ABBR_ALT})\.?\s?[-–]\s?\Z")
_DAY_BEFORE = re.compile(rf"(?<![\w.,])[0-9]{{1,2}}(?:{_ORD})?\s(?:of\s)?\Z")  # "31 June 2019" is no month
_CLOCK = re.compile(
    r"(?<![\w.:,/])(?P<hour>[0-9]{1,2})(?:(?P<sep>[:.])(?P<min>[0-5][0-9])(?::(?P<sec>[0-5][0-9]))?)?"
    r"(?:\s?(?P<ampm>[aApP]\.?[mM]\.?)(?![A-Za-z])|(?=\s|$|[,;)\-–]|\.(?![0-9])))"
)
_CLOCK_ORDER = len(_PATTERNS)
# "RELEASE 28.02.2008 AT 09.30", "5 December 2006 at 15.45": a dotted time without am/pm only after a date's
# year and "at" (elsewhere "at 22.70" is a price)
_DATED_AT_BEFORE = re.compile(r"(?<![0-9])[0-9]{4}\s?,?\s(?i:at)\s\Z")


def two_digit_year(yy: int) -> int:
    """The year a two-digit year stands for (pivot ``TWO_DIGIT_PIVOT``)."""
    return (1900 if yy >= TWO_DIGIT_PIVOT else 2000) + yy


def year_pattern(years: tuple[int, int]) -> str:
    """A regex alternation of the four-digit numbers in ``years``, a range of whole decades (first year ending in
    0, last in 9): ``(1950, 2049)`` -> ``19[5-9]\\d|20[0-4]\\d``."""
    low, high = years
    assert low % 10 == 0 and high % 10 == 9 and 1000 <= low <= high <= 9999, years
    parts = []
    for century in range(low // 100, high // 100 + 1):
        first, last = max(low, century * 100) // 10 % 10, min(high, century * 100 + 99) // 10 % 10
        parts.append(f"{century}{first if first == last else f'[{first}-{last}]'}\\d")
    return "|".join(parts)


def is_year(number: float) -> bool:
    """Whether ``number`` lies in ``YEAR_RANGE``, the years a date may have and a bare integer may name."""
    return YEAR_RANGE[0] <= number <= YEAR_RANGE[1]


@dataclass(frozen=True)
class DateExpression:
    """A date, month, quarter, half or fiscal year. ``fields`` are (name, start, end) spans relative to
    ``text`` of the parts a shift rewrites; ``when`` is the first day of the period (in a stand-in year when
    ``has_year`` is False)."""

    start: int
    end: int
    text: str
    form: str
    granularity: str  # "day" | "month" | "quarter" | "half" | "year"
    when: date
    has_year: bool
    fields: tuple[tuple[str, int, int], ...]
    zero_pad: bool = False  # numeric day/month fields keep two digits ("05.03.2009", "31.12.2019", ISO)
    fiscal: bool = False  # a fiscal year ("FY2019")
    span_months: int = 0  # an interval ended on the day ``when`` ("three months ended ..."): its length

    @property
    def period(self) -> str:
        return _period(self.when, self.granularity, self.has_year, self.fiscal, self.span_months)

    @property
    def value(self) -> float:
        return period_value(self.period)

    def moved(self, amount: int) -> date:
        """The start of the period ``amount`` units (days, months, quarters, halves, years) away."""
        if self.granularity == "day":
            return self.when + timedelta(days=amount)
        step = {"month": 1, "quarter": 3, "half": 6, "year": 12}[self.granularity]
        months = self.when.year * 12 + self.when.month - 1 + amount * step
        return date(months // 12, months % 12 + 1, 1)

    def shifted(self, amount: int) -> tuple[str, str]:
        """The expression moved by ``amount`` units of its granularity, in the same surface form, and its
        period. (A two-digit year may leave the pivot's century: callers re-read the text to check.)"""
        new = self.moved(amount)
        out = self.text
        for name, s, e in sorted(self.fields, key=lambda f: -f[1]):
            out = out[:s] + _render_field(name, self.text[s:e], new, self.zero_pad) + out[e:]
        return out, _period(new, self.granularity, self.has_year, self.fiscal, self.span_months)

    def mention(self) -> NumericMention:
        return NumericMention(self.text, self.start, self.end, self.value, "temporal", None, None, self.period)


@dataclass(frozen=True)
class ClockTime:
    """A time of day; NumFinE varies only the hour. ``hour_span`` is relative to ``text``."""

    start: int
    end: int
    text: str
    hour: int  # as written (1-12 on a 12-hour clock)
    minute: int
    twelve_hour: bool
    pm: bool
    hour_span: tuple[int, int]

    @property
    def period(self) -> str:
        return self.period_at(self.hour)

    @property
    def value(self) -> float:
        return period_value(self.period)

    def period_at(self, hour: int) -> str:
        """The period of this time with the written hour ``hour``."""
        h24 = (hour % 12 + (12 if self.pm else 0)) if self.twelve_hour else hour
        return f"T{h24:02d}:{self.minute:02d}"

    def with_hour(self, hour: int) -> str:
        s, e = self.hour_span
        old = self.text[s:e]
        new = str(hour).zfill(len(old)) if old.startswith("0") else str(hour)
        return self.text[:s] + new + self.text[e:]

    def mention(self) -> NumericMention:
        return NumericMention(self.text, self.start, self.end, self.value, "temporal", None, None, self.period)


# ------------------------------------------------------------------------------------------ rendering
def _period(when: date, granularity: str, has_year: bool, fiscal: bool, span_months: int = 0) -> str:
    if span_months:
        return f"P{span_months}M/{_period(when, granularity, has_year, fiscal)}"
    if granularity == "day":
        return f"{when.year:04d}-{when.month:02d}-{when.day:02d}" if has_year else f"--{when.month:02d}-{when.day:02d}"
    if granularity == "month":
        return f"{when.year:04d}-{when.month:02d}" if has_year else f"--{when.month:02d}"
    year = f"{when.year:04d}" if has_year else "-"
    if granularity == "quarter":
        return f"{year}-Q{(when.month - 1) // 3 + 1}"
    if granularity == "half":
        return f"{year}-H{(when.month - 1) // 6 + 1}"
    return f"FY{when.year:04d}" if fiscal else f"{when.year:04d}"


def _render_field(name: str, old: str, new: date, zero_pad: bool) -> str:
    if name == "mon":
        dot = old.endswith(".")
        word = old.rstrip(".")
        full = MONTH_NAMES[new.month - 1]
        if word.title() in _FULL:  # "December", "DECEMBER", "May"
            out = full
        else:
            out = "Sept" if word.title() == "Sept" and new.month == 9 else ("May" if new.month == 5 else full[:3])
            out += "." if dot and out != full else ""
        return out.upper() if word.isupper() and len(word) > 1 else out
    if name == "ord":
        return _ordinal_suffix(new.day)
    if name == "year":
        return str(new.year)
    if name == "yy":
        return f"{new.year % 100:02d}"
    if name == "q":
        return str((new.month - 1) // 3 + 1)
    if name == "h":
        return str((new.month - 1) // 6 + 1)
    if name in ("qw", "hw"):
        n = (new.month - 1) // 3 + 1 if name == "qw" else (new.month - 1) // 6 + 1
        if old[:1].isdigit():
            return f"{n}{_ordinal_suffix(n)}"
        word = next(w for w, i in _ORDINAL_WORDS.items() if i == n)
        return word.upper() if old.isupper() else word.capitalize() if old[:1].isupper() else word
    number = new.day if name == "day" else new.month
    return f"{number:02d}" if zero_pad else str(number)


def _ordinal_suffix(n: int) -> str:
    if 11 <= n % 100 <= 13:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


# ------------------------------------------------------------------------------------------ reading
def _make_date(text: str, m: re.Match[str], form: str, granularity: str) -> DateExpression | None:
    if form in _MONTH_FORMS and _MONTH_RANGE_BEFORE.search(text, max(0, m.start() - 14), m.start()):
        return None  # "January-June 2008": a range of months
    if form == "my" and _DAY_BEFORE.search(text, max(0, m.start() - 8), m.start()):
        return None  # the tail of an invalid date
    if m.groupdict().get("span") and _SPAN_LIST_BEFORE.search(text, max(0, m.start() - 16), m.start()):
        return None  # "three and nine months ended ...": two intervals, one date
    fields: list[tuple[str, int, int]] = []
    g = m.groupdict()
    month, day = _month_and_day(m, g, form, fields)
    year, has_year = _year(m, g, (month, day), fields)
    if has_year and not is_year(year):
        return None
    try:
        when = date(year, month, day)
    except ValueError:
        return None
    start = m.start()
    rel = tuple(sorted((name, s - start, e - start) for name, s, e in fields))
    return DateExpression(start, m.end(), m.group(), form, granularity, when, has_year, rel,
                          _zero_padded(text, m, form, fields), fiscal=form in ("fiscal", "fy", "f"),
                          span_months=_span_months(m))


def _span_months(m: re.Match[str]) -> int:
    """The length in months of an interval match ("three months", "13 weeks", "fiscal year"; module doc), else 0."""
    if not m.groupdict().get("span"):
        return 0
    count = m["n"] or m["w"]
    return _SPAN_WORDS[count.lower()] if count else {"year": 12, "quarter": 3}[m["unit"].lower()]


def _month_and_day(m: re.Match[str], g: dict[str, str | None], form: str,
                   fields: list[tuple[str, int, int]]) -> tuple[int, int]:
    """The month and day (1 where none is written) of a date match; appends the fields a shift rewrites."""
    if form == "numeric":  # dots and dashes are day-first, slashes month-first, unless a field above 12 decides
        a, b = int(m["a"]), int(m["b"])
        day_first = m["sep"] != "/" if (a <= 12 and b <= 12) else a > 12
        day_key, mon_key = ("a", "b") if day_first else ("b", "a")
        fields += [("day", *m.span(day_key)), ("mnum", *m.span(mon_key))]
        return int(m[mon_key]), int(m[day_key])
    if not g.get("day"):
        return _first_month(m, g, fields), 1
    fields.append(("day", *m.span("day")))
    if g.get("ord"):
        fields.append(("ord", *m.span("ord")))
    return _first_month(m, g, fields), int(g["day"])


def _first_month(m: re.Match[str], g: dict[str, str | None], fields: list[tuple[str, int, int]]) -> int:
    """The first month of the period a date match names (a fiscal year's: 1); appends its field."""
    key = next((k for k in ("mon", "mnum", "q", "qw", "h", "hw") if g.get(k)), None)
    if key is None:
        return 1
    fields.append((key, *m.span(key)))
    if key == "mon":
        return _MONTH_NUMBER[g["mon"].rstrip(".")]
    if key == "mnum":
        return int(g["mnum"])
    months = 3 if key[0] == "q" else 6  # a quarter's or a half's
    return months * (_ordinal_number(g[key]) - 1) + 1


def _year(m: re.Match[str], g: dict[str, str | None], month_day: tuple[int, int],
          fields: list[tuple[str, int, int]]) -> tuple[int, bool]:
    """The year of a date match (`g`: its groupdict) and whether it is written (else a stand-in year); appends its
    field."""
    if g.get("year"):
        fields.append(("year", *m.span("year")))
        return int(g["year"]), True
    yy_key = "yy" if g.get("yy") else "ay" if g.get("ay") else None
    if yy_key:
        fields.append(("yy", *m.span(yy_key)))
        return two_digit_year(int(g[yy_key])), True
    return (NO_YEAR_LEAP_REFERENCE if month_day == (2, 29) else NO_YEAR_REFERENCE), False


def _zero_padded(text: str, m: re.Match[str], form: str, fields: list[tuple[str, int, int]]) -> bool:
    """Whether shifts write the day and month with two digits: a field written "05", or two 2-digit fields in
    ISO or dotted/dashed form ("31.12.2019")."""
    numeric = [text[s:e] for name, s, e in fields if name in ("day", "mnum")]
    return any(f.startswith("0") for f in numeric) or (
        (form == "iso" or (form == "numeric" and m["sep"] != "/")) and all(len(f) == 2 for f in numeric))


def _ordinal_number(word: str) -> int:
    return int(word[0]) if word[0].isdigit() else _ORDINAL_WORDS[word.lower()]


def _make_clock(text: str, m: re.Match[str]) -> ClockTime | None:
    hour = int(m["hour"])
    twelve = m["ampm"] is not None
    if not twelve and m["min"] is None:
        return None  # a bare number is no time
    if not twelve and m["sep"] == "." and not _DATED_AT_BEFORE.search(text, max(0, m.start() - 12), m.start()):
        return None  # "10.30" without am/pm is a decimal unless a date and "at" precede it
    if (twelve and not 1 <= hour <= 12) or hour > 23:
        return None
    text = m.group()
    s = m.start("hour") - m.start()
    pm = twelve and m["ampm"][0] in "pP"
    return ClockTime(m.start(), m.end(), text, hour, int(m["min"] or 0), twelve, pm, (s, s + len(m["hour"])))


def find_calendar(text: str) -> list[DateExpression | ClockTime]:
    """Every calendar expression of ``text`` (dates, months, quarters, halves, fiscal years, clock times),
    non-overlapping, sorted by start (rules: module doc)."""
    candidates: list[tuple[int, int, int, DateExpression | ClockTime]] = []
    present = _present(text)
    for order, (form, granularity, pattern) in enumerate(_PATTERNS):
        if not present.get(_NEEDS.get(form), True):
            continue
        for m in pattern.finditer(text):
            found = _make_date(text, m, form, granularity)
            if found is not None:
                candidates.append((-(found.end - found.start), found.start, order, found))
    for m in _CLOCK.finditer(text):
        clock = _make_clock(text, m)
        if clock is not None:
            candidates.append((-(clock.end - clock.start), clock.start, _CLOCK_ORDER, clock))
    if not candidates:
        return []
    candidates.sort(key=lambda c: c[:3])
    taken = bytearray(len(text))
    kept: list[DateExpression | ClockTime] = []
    for _, start, _, found in candidates:
        if taken.find(1, start, found.end) < 0:
            taken[start:found.end] = b"\x01" * (found.end - start)
            kept.append(found)
    return sorted(kept, key=lambda x: x.start)


def _present(text: str) -> dict[str, bool]:
    """Which of the substrings `_NEEDS` names `text` holds (month names as written, words in any case)."""
    low = text.lower()
    month = any(m in text for m in _MONTH_STEMS)
    return {"month": month, "ended": month and "end" in low, "quarter": "quarter" in low, "half": "half" in low,
            "fiscal": "fiscal" in low, "Q": "Q" in text, "H": "H" in text, "FY": "FY" in text, "F": "F" in text,
            "/": "/" in text}


def calendar_mentions(text: str) -> list[NumericMention]:
    """Every calendar expression of ``text`` as one temporal mention with its ``period``, sorted, non-overlapping."""
    return [x.mention() for x in find_calendar(text)]


# ------------------------------------------------------------------------------------------ numerals
# What the digit reader (numbers.english) asks about the numerals it reads one at a time. This view is
# looser than the whole expressions above: "12/31/19" (a two-digit year), "2019-02-30" (no calendar date),
# "2150-01-01" (a year outside YEAR_RANGE) and "at 10.30" (a dotted time with no date before it) still make
# one temporal number per numeral, each scored by its magnitude. Where a whole expression is read, its
# mention is longer and wins the overlap (mention.resolve_overlaps), so the two views never compete.
_MONTH_NAME = "|".join(sorted(_FULL | _ABBR, key=len, reverse=True))  # capitalised only ("may" is a verb)
_MONTH_NAME_BEFORE = re.compile(rf"(?<![A-Za-z])(?:{_MONTH_NAME})\.?\s\Z")
_MONTH_NAME_AFTER = re.compile(rf"(?:{_ORD})?\s(?:of\s)?(?:{_MONTH_NAME})\b")
# Looser twins of _CLOCK's am/pm and of _DATED_AT_BEFORE (no final dot needed; "at" with no year before it):
# merging them would change what either view reads.
_AMPM_AFTER = re.compile(r"\s?(?i:a\.m\.|p\.m\.|am\b|pm\b)")
_PERIOD_PREFIX = re.compile(r"(?<![A-Za-z])(?:[QH]|FY ?)\Z")
_NUMERIC_DATE = re.compile(
    r"(?P<a>[0-9]{4})-(?P<b>[0-9]{1,2})-(?P<c>[0-9]{1,2})(?![0-9])"  # 2010-03-05
    r"|(?P<d>[0-9]{1,4})(?P<sep>[./-])(?P<e>[0-9]{1,2})(?P=sep)(?P<f>[0-9]{4}|[0-9]{2})(?![0-9]|\.[0-9])"
    r"|(?P<g>[0-9]{1,2})/(?P<h>[0-9]{4})(?![0-9])"  # 03/2010
    r"|(?P<hh>[01]?[0-9]|2[0-3]):(?P<mm>[0-5][0-9])(?::(?P<ss>[0-5][0-9]))?(?![0-9])"  # 10:30
)
_NUMERAL_GROUPS = ("a", "b", "c", "d", "e", "f", "g", "h", "hh", "mm", "ss")
_DOTTED_TIME = re.compile(r"(?P<hh>[01][0-9]|2[0-3]|[0-9])\.(?P<mm>[0-5][0-9])(?![0-9])")
_AT_BEFORE = re.compile(r"(?<![A-Za-z])(?i:at)\s\Z")


def date_numerals(text: str, start: int) -> tuple[int, list[tuple[int, int]]] | None:
    """The numerals of a numeric date or clock time written from ``start`` (``2010-03-05``, ``2010/03/05``,
    ``05/03/2010``, ``12/31/19``, ``03/2010``, ``10:30:15``): where it ends and their spans, or None."""
    m = _NUMERIC_DATE.match(text, start)
    if m is None or not _numeral_fields_fit(m):
        return None
    return m.end(), [m.span(group) for group in _NUMERAL_GROUPS if m[group] is not None]


def _numeral_fields_fit(d: re.Match[str]) -> bool:
    """Whether each numeral of a numeric date is in its field's range (a month 1-12, a day 1-31)."""
    if d["a"]:
        return 1 <= int(d["b"]) <= 12 and 1 <= int(d["c"]) <= 31
    if d["d"]:
        a, b, c = int(d["d"]), int(d["e"]), d["f"]
        if len(d["d"]) == 4:  # 2010/03/05
            return 1 <= b <= 12 and 1 <= int(c) <= 31 and len(c) == 2
        return ((1 <= a <= 31 and 1 <= b <= 12) or (1 <= a <= 12 and 1 <= b <= 31)) and (
            len(c) == 4 or d["sep"] != ".")
    if d["g"]:
        return 1 <= int(d["g"]) <= 12 and is_year(int(d["h"]))
    return True  # hh:mm is checked by the pattern itself


def dotted_time_numerals(text: str, start: int, end: int) -> list[tuple[int, int]] | None:
    """The hour and minute of ``h.mm`` filling ``text[start:end]`` right after "at" (``at 09.30``): their
    spans, or None. (Elsewhere ``h.mm`` is a decimal.)"""
    if start < 3 or text[start - 2] not in "tT" or not _AT_BEFORE.search(text, max(0, start - 4), start):
        return None
    m = _DOTTED_TIME.fullmatch(text, start, end)
    return None if m is None else [m.span("hh"), m.span("mm")]


def month_name_before(text: str, pos: int) -> bool:
    """Whether a month name (an abbreviation with or without its dot) and one space end at ``pos``
    (``March 5``, ``Dec. 5``)."""
    return _MONTH_NAME_BEFORE.search(text, max(0, pos - 11), pos) is not None


def month_name_after(text: str, pos: int) -> bool:
    """Whether a month name follows ``pos`` after one space, an ordinal suffix and "of" allowed between
    (``5 March``, ``5th of March``)."""
    return _MONTH_NAME_AFTER.match(text, pos) is not None


def ampm_after(text: str, pos: int) -> bool:
    """Whether ``am``, ``pm``, ``a.m.`` or ``p.m.`` follows ``pos``, glued or after one space."""
    return _AMPM_AFTER.match(text, pos) is not None


def period_prefix_before(text: str, pos: int) -> bool:
    """Whether ``Q``, ``H`` or ``FY`` ends at ``pos`` (FY also with one space): the number there is a
    quarter's, a half's or a fiscal year's (``Q3``, ``H1``, ``FY2010``, ``FY 10``)."""
    return _PERIOD_PREFIX.search(text, max(0, pos - 4), pos) is not None


def is_decade(digits: str) -> bool:
    """Whether ``digits`` before a glued "s" name a decade: four digits without a leading zero up to the year
    range's end (``1990s``), or two ending in 0 (``90s``)."""
    if len(digits) == 4:
        return digits[0] != "0" and int(digits) <= YEAR_RANGE[1]
    return len(digits) == 2 and digits.endswith("0")
