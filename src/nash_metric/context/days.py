"""The day a figure is stated for, and the days a record's row label names: a forecast's "On January 6th, ..."
against the records of `2024-01-06 ...`, "on Thursday" against the records of a Thursday.

A day is a key: "01-06" (a month and day) or "thu" (a weekday). A figure's day is the last one named in its
sentence before it, else in the sentence before (a forecast's "January 4th will see ... The wind ..."); a row's
days are those of every ISO or written date in its label, with the weekday a full date falls on.
"""

from __future__ import annotations

import datetime
import re

from ..vocabulary.en import DAY_NAMES, MONTH_NAMES

__all__ = ["named_day", "names_a_day", "row_days"]

_MONTH = {name.lower()[:3]: k for k, name in enumerate(MONTH_NAMES, start=1)}
_MONTHS = "|".join(rf"{name[:3]}(?:{name[3:]})?\.?" for name in MONTH_NAMES)
_ORDINAL = r"(\d{1,2})(?:st|nd|rd|th)?\b"
_WRITTEN = re.compile(rf"\b(?:({_MONTHS})\s+{_ORDINAL}|{_ORDINAL}\s+(?:of\s+)?({_MONTHS}))"
                      rf"|\b({'|'.join(DAY_NAMES)})s?\b", re.IGNORECASE)
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
# What every match of `_WRITTEN` holds, case-folded: a month's first three letters or a weekday's "day".
_DAY_HINTS = (*(name[:3].casefold() for name in MONTH_NAMES), "day")


def _key(month: str, day: str) -> str | None:
    number = _MONTH.get(month.lower()[:3])
    return f"{number:02d}-{int(day):02d}" if number and 1 <= int(day) <= 31 else None


def names_a_day(text: str) -> bool:
    """Whether `text` may name a day at all: `named_day` finds none in a text without a `_DAY_HINTS` (most)."""
    folded = text.casefold()
    return any(hint in folded for hint in _DAY_HINTS)


def named_day(text: str, low: int, position: int) -> str | None:
    """The last day named in `text[low:position]`, as a key, or None."""
    found = None
    for match in _WRITTEN.finditer(text, low, position):
        month_first, day_first, day_after, month_after, weekday = match.groups()
        if weekday:
            found = weekday.lower()[:3]
        else:
            found = _key(month_first, day_first) if month_first else _key(month_after, day_after) or found
    return found


def row_days(label: str) -> frozenset[str]:
    """The days a row label names: "2024-01-06 14:00:00" -> {"01-06", "sat"}."""
    days = set()
    for year, month, day in _ISO.findall(label):
        try:
            date = datetime.date(int(year), int(month), int(day))
        except ValueError:
            continue
        days |= {f"{date.month:02d}-{date.day:02d}", DAY_NAMES[date.weekday()].lower()[:3]}
    return frozenset(days)
