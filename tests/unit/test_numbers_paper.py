"""The paper reader (``numbers="paper"``): the authors' toolkit's scope and readings, and where we refuse."""

from __future__ import annotations

import itertools

import pytest

from nash_metric.numbers import extract_numbers, mask_numbers
from nash_metric.numbers.paper import paper_mentions


def read(text: str) -> list[tuple[str, float | None]]:
    return [(m.text, m.value) for m in extract_numbers(text, reader="paper")]


@pytest.mark.parametrize(("text", "expected"), [
    ("rose 4% to $1.5m", [("4%", 4.0), ("$1.5m", 1.5e6)]),
    ("25bps and 3bp", [("25bps", 25.0), ("3bp", 3.0)]),
    ("1,234,567.89 units", [("1,234,567.89", 1234567.89)]),
    (".26 and -5 and +7", [(".26", 0.26), ("-5", -5.0), ("+7", 7.0)]),
    ("£5K, €2B, ¥3", [("£5K", 5000.0), ("€2B", 2e9), ("¥3", 3.0)]),
    ("the 3rd and 21st", [("3rd", 3.0), ("21st", 21.0)]),
    # the toolkit's quirks, kept so that both read the same numbers
    ("1.5 million", [("1.5", 1.5)]),  # scale words are not read
    ("5.2 %", [("5.2", 5.2)]),  # a spaced unit is not part of the number
    ("range 60-70", [("60", 60.0), ("-70", -70.0)]),  # no left boundary: the hyphen is a sign
    ("COVID-19", [("-19", -19.0)]),
    ("December 31, 2019", [("31", 31.0), ("2019", 2019.0)]),  # a date is several numbers
    ("twenty-four", []),  # no written numbers
    ("-.5", [(".5", 0.5)]),  # a leading-dot decimal takes no sign
])
def test_paper_scope(text: str, expected: list) -> None:
    assert read(text) == expected


@pytest.mark.parametrize(("text", "reason"), [
    ("1.2.3", "more than one decimal point"),  # the toolkit: 1.2 and 0.3
    ("1e400", "scientific notation"),  # the toolkit: 400
    ("2.5E-3", "scientific notation"),
    ("9" * 400, "overflows"),
    (".02.2011", "more than one decimal point"),  # a leading-dot token with two points (PhraseBank): no crash
])
def test_paper_reader_refuses_what_it_would_misread(text: str, reason: str) -> None:
    (m,) = paper_mentions(f"x {text} y")
    assert m.text == text and m.value is None and reason in (m.error or "")


def test_paper_mentions_are_consistent_and_maskable() -> None:
    text = "Sales of $5.2m rose 4% (from 3,000) vs -.5 and 1.2.3."
    mentions = extract_numbers(text, reader="paper")
    assert all(text[m.start:m.end] == m.text for m in mentions)
    assert all(a.end <= b.start for a, b in itertools.pairwise(mentions))
    assert mask_numbers(text, reader="paper")[0] == "Sales of [NUM] rose [NUM] (from [NUM]) vs -[NUM] and [NUM]."


def test_unknown_reader() -> None:
    with pytest.raises(ValueError, match="unknown number reader 'toolkit'"):
        extract_numbers("5", reader="toolkit")
