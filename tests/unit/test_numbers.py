"""Tests for nash_metric.numbers: extraction rules, masking, malformed input, real data, properties."""

from __future__ import annotations

import csv
import json
import math
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nash_metric.numbers import MASK_TOKEN, NumericMention, extract_numbers, mask_numbers, resolve_overlaps
from nash_metric.numbers.english import digit_mentions
from nash_metric.numbers.written import written_mentions


def _english(text: str) -> list[NumericMention]:
    """The English readers alone (digits + written words, overlaps resolved): the table documents its rules, while
    ``extract_numbers`` also runs the calendar reader, whose whole-date mentions win longer spans."""
    return resolve_overlaps(digit_mentions(text) + written_mentions(text))


def _triples(text: str) -> list[tuple[str, float | None, str, str | None]]:
    return [(m.text, m.value, m.kind, m.unit) for m in _english(text)]


# (text, expected [(mention text, value, kind, unit), ...])
CASES = [
    # paper formats
    ("Sales rose 5.2 % to EUR 205.5 mn", [("5.2 %", 5.2, "percentage", "%"),
                                          ("EUR 205.5 mn", 205500000.0, "monetary", "EUR")]),
    ("Revenue increased by 4%.", [("4%", 4.0, "percentage", "%")]),
    ("It fell by 3.56% to .26", [("3.56%", 3.56, "percentage", "%"), (".26", 0.26, "quantity", None)]),
    ("P/E of 3,035 and 1,234,567.89", [("3,035", 3035.0, "quantity", None),
                                       ("1,234,567.89", 1234567.89, "quantity", None)]),
    ("a change of -3 and +2.5 and −7", [("-3", -3.0, "quantity", None), ("+2.5", 2.5, "quantity", None),
                                         ("−7", -7.0, "quantity", None)]),
    ("$5 €6 £7 ¥8 US$ 9 HK$10", [("$5", 5.0, "monetary", "USD"), ("€6", 6.0, "monetary", "EUR"),
                                  ("£7", 7.0, "monetary", "GBP"), ("¥8", 8.0, "monetary", "JPY"),
                                  ("US$ 9", 9.0, "monetary", "USD"), ("HK$10", 10.0, "monetary", "HKD")]),
    ("100 USD, CNY 7 and RMB 3", [("100 USD", 100.0, "monetary", "USD"), ("CNY 7", 7.0, "monetary", "CNY"),
                                   ("RMB 3", 3.0, "monetary", "CNY")]),
    ("-$5 and $-5", [("-$5", -5.0, "monetary", "USD"), ("$-5", -5.0, "monetary", "USD")]),
    ("cut by 25 bps or 10bp or 5 basis points", [("25 bps", 25.0, "percentage", "bp"),
                                                  ("10bp", 10.0, "percentage", "bp"),
                                                  ("5 basis points", 5.0, "percentage", "bp")]),
    ("$5k, 3.2m, 1.5bn, 3.2M, $3M", [("$5k", 5000.0, "monetary", "USD"), ("3.2m", 3200000.0, "quantity", None),
                                     ("1.5bn", 1500000000.0, "quantity", None),
                                     ("3.2M", 3200000.0, "quantity", None), ("$3M", 3000000.0, "monetary", "USD")]),
    # scale words
    ("2 thousand, 3 million, 4 mln, 5 billion, 6 bln, 7 trillion, 8 tn",
     [("2 thousand", 2e3, "quantity", None), ("3 million", 3e6, "quantity", None),
      ("4 mln", 4e6, "quantity", None), ("5 billion", 5e9, "quantity", None), ("6 bln", 6e9, "quantity", None),
      ("7 trillion", 7e12, "quantity", None), ("8 tn", 8e12, "quantity", None)]),
    ("1.1 mn", [("1.1 mn", 1100000.0, "quantity", None)]),  # Decimal arithmetic: no 1100000.0000000002
    # percent words
    ("8 percentage, 8 percent, 8 per cent, 8 pct, 7.9 pc, 2.5 percentage points",
     [("8 percentage", 8.0, "percentage", "%"), ("8 percent", 8.0, "percentage", "%"),
      ("8 per cent", 8.0, "percentage", "%"), ("8 pct", 8.0, "percentage", "%"),
      ("7.9 pc", 7.9, "percentage", "%"), ("2.5 percentage points", 2.5, "percentage", "%")]),
    # accounting negatives
    ("net (1.2) and (1,234) and ($1.2m)", [("1.2", -1.2, "quantity", None), ("1,234", -1234.0, "quantity", None),
                                            ("$1.2m", -1200000.0, "monetary", "USD")]),
    ("see (1) in (2009) at (5 %)", [("1", 1.0, "quantity", None), ("2009", 2009.0, "temporal", None),
                                     ("5 %", 5.0, "percentage", "%")]),
    ("profit EUR 5.2 mn ( EUR 3.1 mn )", [("EUR 5.2 mn", 5.2e6, "monetary", "EUR"),
                                           ("EUR 3.1 mn", 3.1e6, "monetary", "EUR")]),
    # written numbers
    ("twenty-four companies", [("twenty-four", 24.0, "quantity", None)]),
    ("two hundred and five stores", [("two hundred and five", 205.0, "quantity", None)]),
    ("three million euros", [("three million euros", 3e6, "monetary", "EUR")]),
    ("Twenty-Four percent and a hundred", [("Twenty-Four percent", 24.0, "percentage", "%"),
                                            ("a hundred", 100.0, "quantity", None)]),
    ("one of the best, no one, a one-off", []),
    ("one percent, one million, one euro", [("one percent", 1.0, "percentage", "%"),
                                             ("one million", 1e6, "quantity", None),
                                             ("one euro", 1.0, "monetary", "EUR")]),
    # Financial PhraseBank tokenised forms
    ("rose 16 % to reach EUR74 .8 m , while", [("16 %", 16.0, "percentage", "%"),
                                                ("EUR74 .8 m", 74800000.0, "monetary", "EUR")]),
    ("EUR1 = USD1 .4", [("EUR1", 1.0, "monetary", "EUR"), ("USD1 .4", 1.4, "monetary", "USD")]),
    ("USD 1.3 bn and 2.5 mln euro", [("USD 1.3 bn", 1.3e9, "monetary", "USD"),
                                      ("2.5 mln euro", 2.5e6, "monetary", "EUR")]),
    ("EUR131m and EUR 27mn", [("EUR131m", 131e6, "monetary", "EUR"), ("EUR 27mn", 27e6, "monetary", "EUR")]),
    ("euro3 .33 and x20ac 402 million", [("euro3 .33", 3.33, "monetary", "EUR"),
                                         ("x20ac 402 million", 402e6, "monetary", "EUR")]),
    ("EUR 37,7 mn and 5,19 per cent", [("EUR 37,7 mn", 37.7e6, "monetary", "EUR"),
                                        ("5,19 per cent", 5.19, "percentage", "%")]),
    ("2 000 people", [("2 000", 2000.0, "quantity", None)]),
    ("7 million litas", [("7 million litas", 7e6, "monetary", "LTL")]),
    # ranges: the hyphen is not a minus sign
    ("in 2009-2010", [("2009", 2009.0, "temporal", None), ("2010", 2010.0, "temporal", None)]),
    ("5-10%", [("5", 5.0, "percentage", "%"), ("10%", 10.0, "percentage", "%")]),
    ("EUR 0.8-1 .2 billion", [("EUR 0.8", 0.8e9, "monetary", "EUR"), ("1 .2 billion", 1.2e9, "monetary", "EUR")]),
    ("$ 1.98 mln-1 .56 mln euro", [("$ 1.98 mln", 1.98e6, "monetary", "USD"),
                                    ("1 .56 mln euro", 1.56e6, "monetary", "EUR")]),
    # temporal
    ("Q3 2010", [("3", 3.0, "temporal", None), ("2010", 2010.0, "temporal", None)]),
    ("FY2010 and H1 2009", [("2010", 2010.0, "temporal", None), ("1", 1.0, "temporal", None),
                            ("2009", 2009.0, "temporal", None)]),
    ("March 5, 2010", [("5", 5.0, "temporal", None), ("2010", 2010.0, "temporal", None)]),
    ("5 March 2010", [("5", 5.0, "temporal", None), ("2010", 2010.0, "temporal", None)]),
    ("2010-03-05", [("2010", 2010.0, "temporal", None), ("03", 3.0, "temporal", None),
                    ("05", 5.0, "temporal", None)]),
    ("05/03/2010", [("05", 5.0, "temporal", None), ("03", 3.0, "temporal", None),
                    ("2010", 2010.0, "temporal", None)]),
    ("RELEASE 28.02.2008 AT 09.30", [("28", 28.0, "temporal", None), ("02", 2.0, "temporal", None),
                                     ("2008", 2008.0, "temporal", None), ("09", 9.0, "temporal", None),
                                     ("30", 30.0, "temporal", None)]),
    ("at 10:30, at 9 am, 3pm", [("10", 10.0, "temporal", None), ("30", 30.0, "temporal", None),
                                ("9", 9.0, "temporal", None), ("3", 3.0, "temporal", None)]),
    ("the 1990s and mid-2010", [("1990s", 1990.0, "temporal", None), ("2010", 2010.0, "temporal", None)]),
    ("2000 employees, about 2000 units, in 2000", [("2000", 2000.0, "quantity", None),
                                                    ("2000", 2000.0, "quantity", None),
                                                    ("2000", 2000.0, "temporal", None)]),
    ("its 2009 results", [("2009", 2009.0, "temporal", None)]),
    # ordinals, identifiers
    ("3rd and 21st, 5th March", [("3rd", 3.0, "quantity", None), ("21st", 21.0, "quantity", None),
                                 ("5th", 5.0, "temporal", None)]),
    # "3M", "5K" alone scale and "800dwt" is 800 dwt (tests/unit/test_number_formats.py)
    ("COVID-19, A4, 3G, 5G, MP3, Nokia N95, TEM1V, 10-K, 3M Company, 3M's, Phase 2B, NOK1V, iGen3", []),
    # exponents and powers
    ("1e308 10^30 1.5e-30 10**6 1.5 x 10^6", [("1e308", 1e308, "quantity", None), ("10^30", 1e30, "quantity", None),
                                             ("1.5e-30", 1.5e-30, "quantity", None),
                                             ("10**6", 1e6, "quantity", None),
                                             ("1.5 x 10^6", 1.5e6, "quantity", None)]),
    # Chinese text: digits need no ASCII boundary next to CJK characters
    ("营收增长12.5%至", [("12.5%", 12.5, "percentage", "%")]),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_extraction_table(text: str, expected: list[tuple]) -> None:
    assert _triples(text) == expected
    for m in _english(text):
        assert text[m.start:m.end] == m.text
        assert m.error is None


def test_api_example_spans() -> None:
    assert extract_numbers("Sales rose 5.2 % to EUR 205.5 mn") == [
        NumericMention(text="5.2 %", start=11, end=16, value=5.2, kind="percentage", unit="%"),
        NumericMention(text="EUR 205.5 mn", start=20, end=32, value=205500000.0, kind="monetary", unit="EUR"),
    ]


@pytest.mark.parametrize(("text", "reason"), [
    ("1e400", "overflows"), ("1" * 400, "overflows"), ("1e-400", "underflows"), ("10^99999999", "out of range"),
    ("1.2.3", "more than one decimal point"), ("1,23,4", "not thousands separators"),
    ("2009,2010", "not thousands separators"),
])
def test_malformed_and_overflow_are_reported(text: str, reason: str) -> None:
    (m,) = extract_numbers(f"value {text} here")
    assert m.text == text and m.value is None and reason in (m.error or "")
    assert mask_numbers(f"value {text} here")[0] == f"value {MASK_TOKEN} here"


def test_huge_integer_beyond_int_str_limit() -> None:
    (m,) = extract_numbers("x " + "9" * 6000)
    assert m.value is None and "overflows" in (m.error or "")


def test_mask_numbers() -> None:
    masked, mentions = mask_numbers("Sales rose 5.2 % to EUR 205.5 mn in 2010 .")
    assert masked == "Sales rose [NUM] to [NUM] in [NUM] ."
    assert len(mentions) == 3
    assert mask_numbers("no numbers") == ("no numbers", [])
    assert mask_numbers("a 5 b", mask="<n>")[0] == "a <n> b"
    given_mentions = extract_numbers("x 5 y 6")[1:]
    assert mask_numbers("x 5 y 6", given_mentions)[0] == "x 5 y [NUM]"
    with pytest.raises(ValueError, match="overlaps or is not in the text"):
        mask_numbers("x 5", [NumericMention("7", 2, 3, 7.0, "quantity")])


def test_type_errors_and_serialisation() -> None:
    for bad in (None, 5, b"5 %", ["5"]):
        with pytest.raises(TypeError, match=type(bad).__name__):
            extract_numbers(bad)  # type: ignore[arg-type]
    d = extract_numbers("USD 1.3 bn and 1e400")
    assert json.loads(json.dumps([m.to_dict() for m in d]))[1]["value"] is None
    assert extract_numbers("") == []


def test_english_reader_finds_digits_next_to_cjk() -> None:
    # No ASCII word boundary is needed next to CJK characters; the Chinese reader then widens "3" to "3億元".
    assert [(m.text, m.value, m.kind, m.unit) for m in digit_mentions("营收增长12.5%至3億元")] == [
        ("12.5%", 12.5, "percentage", "%"), ("3", 3.0, "quantity", None)]
    assert [(m.text, m.value, m.kind, m.unit) for m in extract_numbers("营收增长12.5%至3億元")] == [
        ("12.5%", 12.5, "percentage", "%"), ("3億元", 3e8, "monetary", "CNY")]


def test_resolve_overlaps_longest_then_start_then_list_order() -> None:
    def q(text: str, start: int) -> NumericMention:
        return NumericMention(text, start, start + len(text), None, "quantity")

    short, long, other = q("3", 0), q("3億元", 0), q("5", 4)
    assert resolve_overlaps([short, other, long]) == [long, other]  # longest span wins
    left, right = q("12", 0), q("23", 1)
    assert resolve_overlaps([right, left]) == [left]  # equal length: the earlier start wins
    first, second = q("12", 0), NumericMention("12", 0, 2, 12.0, "quantity")
    assert resolve_overlaps([first, second]) == [first]  # same span: the earlier in the list wins
    assert resolve_overlaps([second, first]) == [second]
    touching = [q("5", 2), q("12", 0)]
    assert resolve_overlaps(touching) == [touching[1], touching[0]]  # adjacent spans do not overlap
    assert resolve_overlaps([]) == []


def test_numbers_modules_have_no_import_cycle() -> None:
    import ast
    import importlib

    def imports(name: str) -> tuple[set[str], set[str]]:
        """(relative modules, top-level absolute modules) imported by ``nash_metric.numbers.<name>``."""
        path = Path(importlib.import_module(f"nash_metric.numbers.{name}").__file__)
        nodes = list(ast.walk(ast.parse(path.read_text(encoding="utf-8"))))
        relative = {n.module or "" for n in nodes if isinstance(n, ast.ImportFrom) and n.level}
        absolute = {a.name.split(".")[0] for n in nodes if isinstance(n, ast.Import) for a in n.names}
        absolute |= {n.module.split(".")[0] for n in nodes if isinstance(n, ast.ImportFrom) and not n.level}
        return relative, absolute

    assert imports("mention") == (set(), {"__future__", "collections", "dataclasses"})  # leaves: stdlib only
    assert imports("normalize") == (set(), {"__future__", "re", "unicodedata"})
    # the words of every reader are the vocabulary's ("vocabulary.en", "vocabulary.zh": plain data)
    assert imports("lexicon")[0] == {"vocabulary.en"}  # characters and patterns only
    assert imports("numerals")[0] == {"lexicon", "common.validation", "vocabulary.en"}  # messages cut the input
    assert imports("reading")[0] == {"lexicon", "mention", "normalize", "numerals", "vocabulary.en"}
    # the digit reader asks the one date grammar (calendar) what a date's numerals are
    assert imports("english")[0] == {"calendar", "lexicon", "mention", "numerals", "reading", "vocabulary.en"}
    assert imports("written")[0] == {"lexicon", "mention", "reading", "vocabulary.en"}
    assert imports("chinese")[0] == {"mention", "common.validation", "vocabulary.zh"}
    assert imports("periods")[0] == set()
    assert imports("paper")[0] == {"mention"}
    assert imports("calendar")[0] == {"mention", "periods", "vocabulary.en"}
    # extract also reads the reader names from the (torch-free) config
    assert imports("extract")[0] == {"calendar", "chinese", "config", "english", "mention", "normalize", "paper",
                                     "written"}


def test_financial_phrasebank_invariants(data_paths) -> None:
    phrasebank = data_paths.require("phrasebank")
    with phrasebank.open(encoding="latin-1", newline="") as f:  # the file has a few non-UTF-8 bytes
        sentences = [row["content"] for row in csv.DictReader(f)]
    assert len(sentences) == 4846
    with_digit = with_mention = 0
    for s in sentences:
        mentions = extract_numbers(s)
        prev_end = -1
        for m in mentions:
            assert s[m.start:m.end] == m.text and m.start >= prev_end and m.end > m.start
            assert (m.value is not None and math.isfinite(m.value)) or (m.value is None and m.error)
            assert m.kind in ("quantity", "percentage", "monetary", "temporal")
            prev_end = m.end
        assert mask_numbers(s)[0].count(MASK_TOKEN) == len(mentions)
        if re.search(r"[0-9]", s):
            with_digit += 1
            with_mention += bool(mentions)
    # measured 2532 / 2584 = 0.980; the misses are identifiers such as 3G, N8, TIK1V, IPv6.
    assert with_mention / with_digit >= 0.97


_PIECES = ["EUR ", " mn", " million", "twenty", " one ", "Q", "bps", "营", "x10^", "[NUM]"]
_ALPHABET = st.sampled_from([*"0123456789.,-+ %$€()eEkmbKMB:/", *_PIECES])


@settings(max_examples=300, deadline=None)
@given(st.lists(_ALPHABET, max_size=40).map("".join) | st.text(max_size=60))
def test_property_mask_count_and_finite(text: str) -> None:
    mentions = extract_numbers(text)
    masked, _ = mask_numbers(text, mentions)
    assert masked.count(MASK_TOKEN) == len(mentions)  # a literal [NUM] in the text is escaped
    prev_end = -1
    for m in mentions:
        assert text[m.start:m.end] == m.text and m.start >= prev_end
        assert (m.value is not None and math.isfinite(m.value)) or (m.value is None and m.error)
        prev_end = m.end


@pytest.mark.parametrize(("text", "found"), [
    ("3) The document examines the decision.", []),  # SummEdits' numbered rewrites
    ("2. Revenue rose 5%.", ["5%"]),
    ("Agenda:\n12: budget of $3 million", ["$3 million"]),
    ("Up 3. Then down.", ["3"]),  # not at the start of a line
    ("(1) million", ["(1) million"]),  # an accounting negative: a scale after the parentheses
])
def test_list_labels_opening_a_line_are_not_numbers(text, found):
    assert [m.text for m in extract_numbers(text)] == found
