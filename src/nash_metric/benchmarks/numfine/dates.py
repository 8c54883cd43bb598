"""Date and clock-time grammar for NumFinE targets: find them, shift them, write them back.

A date is one target even when it holds several numerals ("March 5, 2009"). Recognised forms:
``March 5, 2009`` / ``5 March 2009`` / ``5th of March, 2009`` (day precision), ``March 5`` /
``5 March`` (no year), ``2009-03-05`` (ISO), ``05.03.2009`` / ``3/5/2009`` (numeric: dots are read
day-first, slashes month-first unless a field above 12 decides), ``March 2009`` (month precision).
Month names must be capitalised (so the verb "may" is no date); full names, three-letter forms and
"Sept" are accepted, with or without a dot. Calendar-invalid matches ("February 30") are not dates.
Clock times: ``10:30``, ``9 am``, ``9:45 p.m.``; the hour is the target.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta

MONTHS = [calendar.month_name[i] for i in range(1, 13)]
_ABBR = {m[:3]: i for i, m in enumerate(MONTHS, 1)} | {"Sept": 9}
_FULL = {m: i for i, m in enumerate(MONTHS, 1)}
_MON = (r"(?P<mon>(?:" + "|".join(sorted(set(_FULL) | set(_ABBR), key=len, reverse=True)) + r")\.?)")
_MON = _MON + r"(?![A-Za-z])"
_DAY = r"(?P<day>\d{1,2})(?P<ord>st|nd|rd|th)?"
_YEAR = r"(?P<year>\d{4})"
_B = r"(?<![\w.,])"  # no glued digits/letters before
_E = r"(?![\w]|[.,]\d)"  # no glued digits/letters after

# (form, precision, regex); tried in order, longer forms first; matches may not overlap.
_PATTERNS: list[tuple[str, str, re.Pattern[str]]] = [
    # "\s?,?\s+" also takes the tokenised "January 4 , 2008" of the Financial PhraseBank.
    ("mdy", "day", re.compile(_B + _MON + r"\s+" + _DAY + r"\s?,?\s+" + _YEAR + _E)),
    ("dmy", "day", re.compile(_B + _DAY + r"\s+(?:of\s+)?" + _MON + r"\s?,?\s+" + _YEAR + _E)),
    ("iso", "day", re.compile(_B + r"(?P<year>\d{4})-(?P<mnum>\d{2})-(?P<day>\d{2})" + _E)),
    ("numeric", "day", re.compile(_B + r"(?P<a>\d{1,2})(?P<sep>[./])(?P<b>\d{1,2})(?P=sep)" + _YEAR + _E)),
    ("my", "month", re.compile(_B + _MON + r"\s?,?\s+" + _YEAR + _E)),
    ("md", "day", re.compile(_B + _MON + r"\s+" + _DAY + _E)),
    ("dm", "day", re.compile(_B + _DAY + r"\s+(?:of\s+)?" + _MON)),
]
_CLOCK = re.compile(
    r"(?<![\w.:,])(?P<hour>\d{1,2})(?::(?P<min>[0-5]\d))?(?:\s?(?P<ampm>[ap]\.?m\.?)(?![A-Za-z])|(?=\s|$|[,;)]|\.(?!\d)))",
    re.IGNORECASE,
)
_EPOCH = date(1970, 1, 1)
NO_YEAR_REFERENCE = 2001  # a non-leap year stands in when a date has no year
NO_YEAR_LEAP_REFERENCE = 2004  # ... unless it is February 29


@dataclass(frozen=True)
class DateTarget:
    """A date mention: ``fields`` are (name, start, end) spans relative to the target text."""

    start: int
    end: int
    text: str
    form: str
    precision: str  # "day" | "month"
    when: date
    has_year: bool
    fields: tuple[tuple[str, int, int], ...]
    zero_pad: bool = False  # ISO dates, or any numeric field written with a leading zero ("05.03.2009")

    @property
    def value(self) -> float:
        """Days since 1970-01-01 (day precision) or months since year 0 (month precision)."""
        return _date_value(self.when, self.precision)

    def shifted(self, amount: int) -> tuple[str, float]:
        """The target text after moving ``amount`` days (or months) and its new value."""
        if self.precision == "day":
            new = self.when + timedelta(days=amount)
        else:
            months = self.when.year * 12 + self.when.month - 1 + amount
            new = date(months // 12, months % 12 + 1, 1)
        out = self.text
        for name, s, e in sorted(self.fields, key=lambda f: -f[1]):
            out = out[:s] + _render_field(name, self.text[s:e], new, self.zero_pad) + out[e:]
        return out, _date_value(new, self.precision)


def _date_value(when: date, precision: str) -> float:
    return float((when - _EPOCH).days) if precision == "day" else float(when.year * 12 + when.month - 1)


def _render_field(name: str, old: str, new: date, zero_pad: bool) -> str:
    if name == "mon":
        dot = old.endswith(".")
        word = old.rstrip(".")
        full = MONTHS[new.month - 1]
        if word in _FULL:
            out = full
        else:
            out = "Sept" if word == "Sept" and new.month == 9 else full[:3]
            out += "." if dot and out != full else ""
        return out.upper() if word.isupper() and len(word) > 1 and not word.istitle() else out
    if name == "ord":
        return _ordinal_suffix(new.day)
    if name == "year":
        return str(new.year)
    number = new.day if name == "day" else new.month
    return f"{number:02d}" if zero_pad else str(number)


def _ordinal_suffix(day: int) -> str:
    if 11 <= day % 100 <= 13:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def _month_number(token: str) -> int:
    word = token.rstrip(".")
    return _FULL.get(word) or _ABBR[word]


def find_dates(sentence: str) -> list[DateTarget]:
    """Every calendar-valid date in ``sentence``, non-overlapping, in order."""
    taken: list[tuple[int, int]] = []
    found: list[DateTarget] = []
    for form, precision, pattern in _PATTERNS:
        for m in pattern.finditer(sentence):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            target = _make_date(sentence, m, form, precision)
            if target is not None:
                taken.append((m.start(), m.end()))
                found.append(target)
    return sorted(found, key=lambda t: t.start)


def _make_date(sentence: str, m: re.Match[str], form: str, precision: str) -> DateTarget | None:
    gd = m.groupdict()
    fields: list[tuple[str, int, int]] = []
    if form == "numeric":
        a, b = int(gd["a"]), int(gd["b"])
        day_first = gd["sep"] == "." if (a <= 12 and b <= 12) else a > 12
        day_key, mon_key = ("a", "b") if day_first else ("b", "a")
        day, month = int(gd[day_key]), int(gd[mon_key])
        fields += [("day", *m.span(day_key)), ("mnum", *m.span(mon_key))]
    else:
        month = _month_number(gd["mon"]) if gd.get("mon") else int(gd["mnum"])
        fields.append(("mon", *m.span("mon")) if gd.get("mon") else ("mnum", *m.span("mnum")))
        day = int(gd["day"]) if gd.get("day") else 1
        if gd.get("day"):
            fields.append(("day", *m.span("day")))
        if gd.get("ord"):
            fields.append(("ord", *m.span("ord")))
    has_year = bool(gd.get("year"))
    if has_year:
        year = int(gd["year"])
        fields.append(("year", *m.span("year")))
    else:
        year = NO_YEAR_LEAP_REFERENCE if (month, day) == (2, 29) else NO_YEAR_REFERENCE
    try:
        when = date(year, month, day)
    except ValueError:
        return None
    if has_year and not 1900 <= year <= 2100:
        return None
    rel = tuple((name, s - m.start(), e - m.start()) for name, s, e in fields)
    zero_pad = form == "iso" or any(sentence[s:e].startswith("0") for name, s, e in fields if name in ("day", "mnum"))
    return DateTarget(m.start(), m.end(), m.group(), form, precision, when, has_year, rel, zero_pad)


@dataclass(frozen=True)
class ClockTarget:
    """A clock time; only the hour changes. ``hour_span`` is relative to the target text."""

    start: int
    end: int
    text: str
    hour: int
    twelve_hour: bool
    hour_span: tuple[int, int]

    def with_hour(self, hour: int) -> str:
        s, e = self.hour_span
        old = self.text[s:e]
        new = str(hour).zfill(len(old)) if old.startswith("0") else str(hour)
        return self.text[:s] + new + self.text[e:]


def find_clock_times(sentence: str) -> list[ClockTarget]:
    """``10:30``, ``9 am``, ``9:45 p.m.``; a bare number is no clock time."""
    out = []
    for m in _CLOCK.finditer(sentence):
        if not (m["min"] or m["ampm"]):
            continue
        hour = int(m["hour"])
        twelve = bool(m["ampm"])
        if (twelve and not 1 <= hour <= 12) or hour > 23:
            continue
        s = m.start("hour") - m.start()
        out.append(ClockTarget(m.start(), m.end(), m.group().rstrip(), hour, twelve, (s, s + len(m["hour"]))))
    return out
