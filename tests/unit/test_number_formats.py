"""Number formats of real annual-report and everyday text (english.py and written.py rules; normalize.py; the
mask escape).

Each case states its expected value, or the ``error`` of a mention that cannot be valued. Tables run the
English reader alone (``_english``), whose rules they document; the end-to-end checks run ``extract_numbers``.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from text_to_num import text2num

from nash_metric.numbers import MASK_TOKEN, NumericMention, extract_numbers, mask_numbers, resolve_overlaps
from nash_metric.numbers.english import digit_mentions
from nash_metric.numbers.extract import reader_text
from nash_metric.numbers.mention import mask_spans
from nash_metric.numbers.normalize import decode_escapes, normalize_digits
from nash_metric.numbers.written import written_mentions
from nash_metric.pipeline import weighting


def _english(text: str) -> list[NumericMention]:
    return resolve_overlaps(digit_mentions(text) + written_mentions(text))


def _rows(mentions: list[NumericMention]) -> list[tuple]:
    return [(m.text, m.value, m.kind, m.unit) for m in mentions]


def _check_invariants(text: str, mentions: list[NumericMention]) -> None:
    prev_end = -1
    for m in mentions:
        assert text[m.start:m.end] == m.text and m.start >= prev_end and m.end > m.start
        assert (m.value is not None and math.isfinite(m.value)) or (m.value is None and m.error)
        prev_end = m.end


APPENDIX_E = "Revenue of 100M grew 20% while costs of 80M grew 25%, yielding 20M profit."

# (text, expected [(mention text, value, kind, unit), ...])
CASES = [
    # glued upper-case scale letters on integers; identifiers the reader can tell
    (APPENDIX_E, [("100M", 1e8, "quantity", None), ("20%", 20.0, "percentage", "%"),
                  ("80M", 8e7, "quantity", None), ("25%", 25.0, "percentage", "%"), ("20M", 2e7, "quantity", None)]),
    ("2M, 1K, 1k, 2.5M, 3M, 5K and 4B", [("2M", 2e6, "quantity", None), ("1K", 1e3, "quantity", None),
                                        ("1k", 1e3, "quantity", None), ("2.5M", 2.5e6, "quantity", None),
                                        ("3M", 3e6, "quantity", None), ("5K", 5e3, "quantity", None),
                                        ("4B", 4e9, "quantity", None)]),
    ("3M Company and 3M's and 3M’s results", []),
    ("5G, A4, MP3, COVID-19, 10-K, Phase 2B, Item 1B, Rule 10b, stock options 2004B, HEL: NOK1V", []),
    ("$5mm and 5MM", [("$5mm", 5e6, "monetary", "USD"), ("5MM", 5e6, "quantity", None)]),
    # glued physical units: the number's value, the unit recorded, kind quantity
    ("5kg, 10km, 20MW, 3.5t, 100ml, 12mn", [("5kg", 5.0, "quantity", "kg"), ("10km", 10.0, "quantity", "km"),
                                           ("20MW", 20.0, "quantity", "MW"), ("3.5t", 3.5, "quantity", "t"),
                                           ("100ml", 100.0, "quantity", "ml"), ("12mn", 12e6, "quantity", None)]),
    ("5mm, 25°C, 3.5x, 8GB, 800dwt, 20mw", [("5mm", 5.0, "quantity", "mm"), ("25°C", 25.0, "quantity", "°C"),
                                           ("3.5x", 3.5, "quantity", "x"), ("8GB", 8.0, "quantity", "GB"),
                                           ("800dwt", 800.0, "quantity", "dwt"), ("20mw", 20.0, "quantity", "MW")]),
    ("a Sigma 10-20mm lens", [("10", 10.0, "quantity", "mm"), ("20mm", 20.0, "quantity", "mm")]),
    ("5 kg", [("5", 5.0, "quantity", None)]),  # a spaced unit stays text
    ("100USD and 4x4", [("100USD", 100.0, "monetary", "USD")]),
    # a year-like number in a dimension or counting pixels is no year
    ("1080 x 1920 pixels", [("1080", 1080.0, "quantity", None), ("1920", 1920.0, "quantity", None)]),
    ("1920 x 1080 and 1920x1080", [("1920", 1920.0, "quantity", None), ("1080", 1080.0, "quantity", None),
                                   ("1920", 1920.0, "quantity", None), ("1080", 1080.0, "quantity", None)]),
    # a dimension glued with x is a number per side; two single digits name a thing, a leading 0 is hex
    ("1080x1920 pixels", [("1080", 1080.0, "quantity", None), ("1920", 1920.0, "quantity", None)]),
    ("1x3.3 GHz, 10x20x30 cm, 4x4, 5x5, 0x1F", [("1", 1.0, "quantity", None), ("3.3", 3.3, "quantity", None),
                                               ("10", 10.0, "quantity", None), ("20", 20.0, "quantity", None),
                                               ("30", 30.0, "quantity", None)]),
    # a video's frame rate and resolution: 1080p its lines, 4K a glued scale letter, 30p no resolution
    ("Video 1080p@30fps, 4K@60fps", [("1080p", 1080.0, "quantity", "p"), ("30fps", 30.0, "quantity", "fps"),
                                     ("4K", 4000.0, "quantity", None), ("60fps", 60.0, "quantity", "fps")]),
    ("720p video, 30p and 50p", [("720p", 720.0, "quantity", "p")]),
    # a space-grouped tail after an identifier is a number of its own, no 4,150
    ("LTE Cat4 150/50 Mbps", [("150", 150.0, "quantity", None), ("50", 50.0, "quantity", None)]),
    ("to expire in2 020, 2020", [("2020", 2020.0, "temporal", None)]),  # "2 020" is one number, broken
    ("a 2000 pixels wide image in 2019", [("2000", 2000.0, "quantity", None), ("2019", 2019.0, "temporal", None)]),
    # accounting negatives with scale, unit or currency
    ("(3.5) million", [("(3.5) million", -3.5e6, "quantity", None)]),
    ("EUR (1.2) million", [("EUR (1.2) million", -1.2e6, "monetary", "EUR")]),
    ("$(0.15)", [("$(0.15)", -0.15, "monetary", "USD")]),
    ("(0.5) %", [("(0.5) %", -0.5, "percentage", "%")]),
    ("compared to (48.3)% for", [("(48.3)%", -48.3, "percentage", "%")]),
    ("was $(9.8) million (2018: $6.6 million)", [("$(9.8) million", -9.8e6, "monetary", "USD"),
                                                 ("2018", 2018.0, "temporal", None),
                                                 ("$6.6 million", 6.6e6, "monetary", "USD")]),
    ("(1.2) million euros", [("(1.2) million euros", -1.2e6, "monetary", "EUR")]),
    ("of £1.7m (2017/18: £(8.1m))", [("£1.7m", 1.7e6, "monetary", "GBP"), ("2017", 2017.0, "temporal", None),
                                     ("18", 18.0, "quantity", None), ("£(8.1m)", -8.1e6, "monetary", "GBP")]),
    ("(1) million", [("(1) million", -1e6, "quantity", None)]),
    # ... but a comparative after an amount is the prior-period figure
    ("EUR 1.2bn (EUR 1.1bn)", [("EUR 1.2bn", 1.2e9, "monetary", "EUR"), ("EUR 1.1bn", 1.1e9, "monetary", "EUR")]),
    ("sales 5.2 (4.8)", [("5.2", 5.2, "quantity", None), ("4.8", 4.8, "quantity", None)]),
    ("(1.2) (3.4)", [("1.2", -1.2, "quantity", None), ("3.4", -3.4, "quantity", None)]),
    ("in 2019 (1.2)", [("2019", 2019.0, "temporal", None), ("1.2", -1.2, "quantity", None)]),
    ("profit EUR 5.2 mn ( EUR 3.1 mn )", [("EUR 5.2 mn", 5.2e6, "monetary", "EUR"),
                                           ("EUR 3.1 mn", 3.1e6, "monetary", "EUR")]),
    ("see (1) and (2)m and (1/2)", [("1", 1.0, "quantity", None), ("2", 2.0, "quantity", None),
                                     ("1/2", 0.5, "quantity", None)]),
    # a number followed by a currency is money, not a clock time; lower-case codes
    ("came in at 0.33 eur", [("0.33 eur", 0.33, "monetary", "EUR")]),
    ("5 usd, usd 5, 7 cad and 9.48 usd per barrel", [("5 usd", 5.0, "monetary", "USD"),
                                                     ("usd 5", 5.0, "monetary", "USD"),
                                                     ("7 cad", 7.0, "monetary", "CAD"),
                                                     ("9.48 usd", 9.48, "monetary", "USD")]),
    ("try 5 times, 3 php scripts, rub 2 in", [("5", 5.0, "quantity", None), ("3", 3.0, "quantity", None),
                                              ("2", 2.0, "quantity", None)]),
    ("at 9.30 and at 10.58 am", [("9", 9.0, "temporal", None), ("30", 30.0, "temporal", None),
                                 ("10", 10.0, "temporal", None), ("58", 58.0, "temporal", None)]),
    # signs
    ("fell –5", [("–5", -5.0, "quantity", None)]),
    ("fell ‐5", [("‐5", -5.0, "quantity", None)]),
    ("fell −5", [("−5", -5.0, "quantity", None)]),
    ("it was minus 5", [("minus 5", -5.0, "quantity", None)]),
    ("minus 5% and (minus $5)", [("minus 5%", -5.0, "percentage", "%"), ("minus $5", -5.0, "monetary", "USD")]),
    ("minus five degrees, minus one", [("minus five", -5.0, "quantity", None), ("minus one", -1.0, "quantity", None)]),
    ("10 minus 3, five minus three", [("10", 10.0, "quantity", None), ("3", 3.0, "quantity", None),
                                      ("five", 5.0, "quantity", None), ("three", 3.0, "quantity", None)]),
    # ranges stay ranges: two positive mentions, the first taking the second's unit and scale
    ("5–10%", [("5", 5.0, "percentage", "%"), ("10%", 10.0, "percentage", "%")]),
    ("2009–2010", [("2009", 2009.0, "temporal", None), ("2010", 2010.0, "temporal", None)]),
    ("32.7-34.9", [("32.7", 32.7, "quantity", None), ("34.9", 34.9, "quantity", None)]),
    ("5 – 10 and 5‐10", [("5", 5.0, "quantity", None), ("10", 10.0, "quantity", None),
                         ("5", 5.0, "quantity", None), ("10", 10.0, "quantity", None)]),
    ("EUR 2–3 bn", [("EUR 2", 2e9, "monetary", "EUR"), ("3 bn", 3e9, "monetary", "EUR")]),
    # grouping
    ("1'000'000 and CHF 1'250'000", [("1'000'000", 1e6, "quantity", None),
                                     ("CHF 1'250'000", 1.25e6, "monetary", "CHF")]),
    ("1’000’000 and 1'250.50", [("1’000’000", 1e6, "quantity", None), ("1'250.50", 1250.5, "quantity", None)]),
    ("1.234.567,89", [("1.234.567,89", 1234567.89, "quantity", None)]),
    ("1.234,5", [("1.234,5", 1234.5, "quantity", None)]),
    ("1.234.567", [("1.234.567", 1234567.0, "quantity", None)]),
    # the ambiguous single group: the text's convention, then a count noun with a trailing zero, then decimal
    ("1.500 units", [("1.500", 1500.0, "quantity", None)]),
    ("a total of 486.969 shares", [("486.969", 486.969, "quantity", None)]),  # no trailing zero: decimal
    ("employs 714.369 people", [("714.369", 714.369, "quantity", None)]),  # EmbedNum's b3 format
    ("EUR 1.500 and 1.375 %", [("EUR 1.500", 1.5, "monetary", "EUR"), ("1.375 %", 1.375, "percentage", "%")]),
    ("1.500 tonnes", [("1.500", 1.5, "quantity", None)]),
    ("0.500 units", [("0.500", 0.5, "quantity", None)]),
    ("1.500 and 1,500 of 1.234,5", [("1.500", 1500.0, "quantity", None), ("1,500", 1.5, "quantity", None),
                                    ("1.234,5", 1234.5, "quantity", None)]),
    ("1.500 units of 1,234.5", [("1.500", 1.5, "quantity", None), ("1,234.5", 1234.5, "quantity", None)]),
    ("1,500 units", [("1,500", 1500.0, "quantity", None)]),
    # fractions
    ("1/2 and 3/4", [("1/2", 0.5, "quantity", None), ("3/4", 0.75, "quantity", None)]),
    ("2 1/2 years", [("2 1/2", 2.5, "quantity", None)]),
    ("¾ ½ ⅓ ⅛", [("¾", 0.75, "quantity", None), ("½", 0.5, "quantity", None),
                 ("⅓", 1 / 3, "quantity", None), ("⅛", 0.125, "quantity", None)]),
    ("1½ and 2 ½ hours", [("1½", 1.5, "quantity", None), ("2 ½", 2.5, "quantity", None)]),
    ("fell 5/32 to 1/2%", [("5/32", 0.15625, "quantity", None), ("1/2%", 0.5, "percentage", "%")]),
    ("24/7 and 9/11", [("24", 24.0, "quantity", None), ("7", 7.0, "quantity", None),
                       ("9", 9.0, "quantity", None), ("11", 11.0, "quantity", None)]),
    # a slash list is a spec's alternatives, one number each, in the unit glued after the last
    ("RAM 4/6GB", [("4", 4.0, "quantity", "GB"), ("6GB", 6.0, "quantity", "GB")]),
    ("3/4/6 GB RAM", [("3", 3.0, "quantity", None), ("4", 4.0, "quantity", None), ("6", 6.0, "quantity", None)]),
    ("8/12 GB and 8/128GB", [("8", 8.0, "quantity", None), ("12", 12.0, "quantity", None),
                             ("8", 8.0, "quantity", "GB"), ("128GB", 128.0, "quantity", "GB")]),
    ("4K@24/30/60fps", [("4K", 4000.0, "quantity", None), ("24", 24.0, "quantity", "fps"),
                        ("30", 30.0, "quantity", "fps"), ("60fps", 60.0, "quantity", "fps")]),
    ("1/4W and 1/2 kg", [("1/4W", 0.25, "quantity", "W"), ("1/2", 0.5, "quantity", None)]),  # lowest terms
    ("lost 16/32, rated 5/10", [("16/32", 0.5, "quantity", None), ("5/10", 0.5, "quantity", None)]),  # no unit
    ("12/31/2019 and 03/2010", [("12", 12.0, "temporal", None), ("31", 31.0, "temporal", None),
                                ("2019", 2019.0, "temporal", None), ("03", 3.0, "temporal", None),
                                ("2010", 2010.0, "temporal", None)]),
    # written numbers: their values; bare scale words and ordinals are not numbers
    ("twenty-four, two hundred and five, three million, a hundred, one percent",
     [("twenty-four", 24.0, "quantity", None), ("two hundred and five", 205.0, "quantity", None),
      ("three million", 3e6, "quantity", None), ("a hundred", 100.0, "quantity", None),
      ("one percent", 1.0, "percentage", "%")]),
    ("nineteen hundred, two thousand million, one million two hundred thousand and five",
     [("nineteen hundred", 1900.0, "quantity", None), ("two thousand million", 2e9, "quantity", None),
      ("one million two hundred thousand and five", 1200005.0, "quantity", None)]),
    ("one trillion, twenty twenty", [("one trillion", 1e12, "quantity", None), ("twenty", 20.0, "quantity", None),
                                        ("twenty", 20.0, "quantity", None)]),
    ("several hundred people, a few billion years, parts per million, millions", []),
    ("the twenty-first century", []),
    ("two hundred and", [("two hundred", 200.0, "quantity", None)]),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_format_table(text: str, expected: list[tuple]) -> None:
    mentions = _english(text)
    assert _rows(mentions) == expected
    _check_invariants(text, mentions)
    assert all(m.error is None for m in mentions)


def test_appendix_e_sentence_end_to_end() -> None:
    assert _rows(extract_numbers(APPENDIX_E)) == CASES[0][1]
    assert mask_numbers(APPENDIX_E)[0] == ("Revenue of [NUM] grew [NUM] while costs of [NUM] grew [NUM], "
                                           "yielding [NUM] profit.")


def test_ambiguous_grouping_is_reported_not_guessed() -> None:
    text = "1.500 units, 1.234,5 and 1,234.5"  # both conventions in one text
    first = _english(text)[0]
    assert (first.text, first.value) == ("1.500", None) and "ambiguous grouping" in (first.error or "")
    assert [m.value for m in _english(text)[1:]] == [1234.5, 1234.5]
    (m,) = [m for m in extract_numbers(text) if m.text == "1.500"]
    assert m.value is None and m.error


# What the spec notation reads as, end to end: (text, value, kind, unit, start, end) per mention.
@pytest.mark.parametrize(("text", "expected"), [
    ("RAM 4/6GB", [("4", 4.0, "quantity", "GB", 4, 5), ("6GB", 6.0, "quantity", "GB", 6, 9)]),
    ("3/4/6 GB RAM", [("3", 3.0, "quantity", None, 0, 1), ("4", 4.0, "quantity", None, 2, 3),
                      ("6", 6.0, "quantity", None, 4, 5)]),
    ("Video 1080p@30fps, 4K@60fps", [("1080p", 1080.0, "quantity", "p", 6, 11),
                                     ("30fps", 30.0, "quantity", "fps", 12, 17),
                                     ("4K", 4000.0, "quantity", None, 19, 21),
                                     ("60fps", 60.0, "quantity", "fps", 22, 27)]),
    ("1080x1920 pixels", [("1080", 1080.0, "quantity", None, 0, 4), ("1920", 1920.0, "quantity", None, 5, 9)]),
    ("1080 x 1920 pixels", [("1080", 1080.0, "quantity", None, 0, 4), ("1920", 1920.0, "quantity", None, 7, 11)]),
    # real fractions, dates, round-the-clock and scores read as they did
    ("1/2 of the 3/4", [("1/2", 0.5, "quantity", None, 0, 3), ("3/4", 0.75, "quantity", None, 11, 14)]),
    ("open 24/7, won 4-2", [("24", 24.0, "quantity", None, 5, 7), ("7", 7.0, "quantity", None, 8, 9),
                            ("4", 4.0, "quantity", None, 15, 16), ("2", 2.0, "quantity", None, 17, 18)]),
    ("on 4/6/2023", [("4/6/2023", pytest.approx(2023.26, abs=0.01), "temporal", None, 3, 11)]),
])
def test_spec_notation_is_read_as_specs_mean_it(text: str, expected: list[tuple]) -> None:
    mentions = extract_numbers(text)
    assert [(m.text, m.value, m.kind, m.unit, m.start, m.end) for m in mentions] == expected
    _check_invariants(text, mentions)


def test_spans_cover_the_whole_mention() -> None:
    text = "costs of EUR (1.2) million fell"
    (m,) = _english(text)
    assert (m.start, m.end) == (9, 26) and text[m.start:m.end] == "EUR (1.2) million"
    assert mask_numbers(text)[0] == "costs of [NUM] fell"


# ---------------------------------------------------------------- other scripts, invisible characters
@pytest.mark.parametrize(("raw", "ascii_"), [
    ("１２３．５％", "123.5%"), ("٣٫٥٪", "3.5%"), ("١٬٢٣٤", "1,234"), ("۱۲۳", "123"), ("१२३", "123"),
    ("৩", "3"), ("๓", "3"), ("𝟏𝟐", "12"), ("＄５", "$5"), ("－３", "-3"), ("＋３", "+3"), ("￥５", "¥5"),
    ("３，５家", "3，5家"), ("二〇二三年。", "二〇二三年。"), ("m² ½", "m² ½"), ("5\u200b000", "5\u200b000"),
])
def test_normalize_digits(raw: str, ascii_: str) -> None:
    assert normalize_digits(raw) == ascii_
    assert len(normalize_digits(raw)) == len(raw)


# Data written as text keeps its escapes: Python's repr of a price with a thin space, JSON with ensure_ascii.
@pytest.mark.parametrize(("raw", "read", "numbers"), [
    ("'€\\u20091,849.42 / $\\u2009899.99'", "'      €1,849.42 /       $899.99'", [("€1,849.42", 1849.42, "EUR"),
                                                                              ("$899.99", 899.99, "USD")]),
    ('"\\u20ac12 and 25\\u00b0C"', '"     €12 and 25°     C"', [("€12", 12.0, "EUR"), ("25°", 25.0, "°")]),
    ("'AF\\n0.08 MP'", "'AF  0.08 MP'", [("0.08", 0.08, None)]),  # was "n0.08": a word, no number
    ("{'name': '\\xa0'}", "{'name': '    '}", []),
    ('"say \\u0022 5"', '"say        5"', [("5", 5.0, None)]),  # a quote would end the string around it
    ("C:\\\\new 5", "C:\\\\new 5", [("5", 5.0, None)]),  # an escaped backslash escapes nothing
    # JSON escapes an emoji as a surrogate pair: no character alone, and no UTF-8 encoder takes one
    ('"\\ud83d\\ude00 5 stars"', '"             5 stars"', [("5", 5.0, None)]),
])
def test_escapes_of_data_written_as_text_are_read_as_their_characters(raw: str, read: str, numbers: list) -> None:
    assert decode_escapes(raw) == read == reader_text(raw)
    assert len(read) == len(raw)
    read.encode("utf-8")  # what the tokenizer and every output file take
    assert [(m.text, m.value, m.unit) for m in extract_numbers(read)] == numbers
    assert reader_text(raw, "paper") == raw  # the paper's reader reads as the toolkit does


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(categories=["Nd", "No", "Po", "Sc", "Zs", "Ll"]), max_size=40))
def test_normalize_digits_is_one_for_one(text: str) -> None:
    out = normalize_digits(text)
    assert len(out) == len(text)
    for a, b in zip(text, out):
        assert a == b or a.isdecimal() or b in "%$.,+-¥£"
        if a.isdecimal():
            assert b in "0123456789" and int(b) == int(a)


@pytest.mark.parametrize(("text", "expected"), [
    ("１２３．５％", [("１２３．５％", 123.5, "percentage", "%")]),
    ("٣٫٥٪ and ١٬٢٣٤", [("٣٫٥٪", 3.5, "percentage", "%"), ("١٬٢٣٤", 1234.0, "quantity", None)]),
    ("۱۲۳ and १२३", [("۱۲۳", 123.0, "quantity", None), ("१२३", 123.0, "quantity", None)]),
])
def test_digits_of_other_scripts_are_read(text: str, expected: list[tuple]) -> None:
    assert _rows(digit_mentions(text)) == expected  # the reader normalises by itself
    assert _rows(digit_mentions(normalize_digits(text))) == [(normalize_digits(t), *rest) for t, *rest in expected]
    assert _rows(extract_numbers(text)) == expected  # spans index the original text


@pytest.mark.parametrize("ch", ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"])
def test_invisible_characters_do_not_split_a_number(ch: str) -> None:
    text = f"sold 5{ch}000 units"
    for mentions in (_english(text), extract_numbers(text)):
        assert _rows(mentions) == [(f"5{ch}000", 5000.0, "quantity", None)]
        assert (mentions[0].start, mentions[0].end) == (5, 10)
    assert mask_numbers(text)[0] == "sold [NUM] units"
    assert _rows(_english(f"EUR{ch}5 and 1{ch},{ch}234")) == [(f"EUR{ch}5", 5.0, "monetary", "EUR"),
                                                              (f"1{ch},{ch}234", 1234.0, "quantity", None)]


# ---------------------------------------------------------------- the mask token in the input text
def test_literal_mask_token_is_escaped() -> None:
    text = "the [NUM] token and [[NUM]] cost 5 %"
    masked, mentions = mask_numbers(text)
    assert masked == "the (NUM) token and [(NUM)] cost [NUM]"
    assert masked.count(MASK_TOKEN) == len(mentions) == 1
    assert mask_spans("[NUM]", []) == ("(NUM)", [])
    assert mask_spans("a <n> 5", [NumericMention("5", 6, 7, 5.0, "quantity")], mask="<n>")[0] == "a (n) <n>"
    assert mask_spans("x NUM y", [], mask="NUM")[0] == "x (NU) y"  # a mask made of letters only


def test_literal_mask_token_leaves_alpha_at_one() -> None:
    a, b = "Replace [NUM] with the value.", "The template keeps [NUM] here."
    masked_a, masked_b = mask_numbers(a)[0], mask_numbers(b)[0]
    assert MASK_TOKEN not in masked_a + masked_b
    assert MASK_TOKEN not in weighting.mixing_tokens(masked_a) + weighting.mixing_tokens(masked_b)
    idf = weighting.IDF.from_masked([masked_a, masked_b])
    assert idf.masses(masked_a, masked_b)[1] == 0.0
    assert weighting.pair_alphas(idf, [masked_a], [masked_b])[0] == 1.0
    corpus_idf = weighting.load_idf([a, b, "Revenue rose 4%."])
    assert weighting.alpha_from_masses(*corpus_idf.masses(masked_a, masked_b)) == 1.0


# ---------------------------------------------------------------- written numbers agree with text2num
_NUMBER_WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
                 "thirteen", "fifteen", "nineteen", "twenty", "thirty", "forty", "ninety", "hundred", "thousand",
                 "million", "billion"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_NUMBER_WORDS), min_size=1, max_size=8))
@example(["ten", "million", "billion", "one"])  # past 2**53, where float arithmetic would round
def test_written_values_agree_with_text2num(words: list[str]) -> None:
    # Where the grammar reads the whole run as one number and text2num accepts it, the values agree.
    text = " ".join(words)
    mentions = [m for m in written_mentions(text) if m.text != "one"]
    if len(mentions) == 1 and mentions[0].text == text:
        try:
            expected = text2num(text, "en")
        except ValueError:
            return
        # A mention's value is a float (the reader's contract), so it agrees with text2num's exact integer as
        # that integer's nearest float: "ten million billion one" is 10**16 + 1, which a float holds as 1e16.
        assert mentions[0].value == float(expected)


# ---------------------------------------------------------------- properties and linear time
_PIECES = ["EUR ", " mn", " million", "M", "kg", "(", ")", "–", "‐", "−", "minus ", "'", "’", "/", "½", "¾",
           "\u200b", "١", "１", "％", " eur", "[NUM]", "1.234", ",5", "twenty", " hundred", " and ", "a "]
_ALPHABET = st.sampled_from([*"0123456789.,-+ %$€()eEkmbKMB:/", *_PIECES])


@settings(max_examples=300, deadline=None)
@given(st.lists(_ALPHABET, max_size=40).map("".join))
def test_property_new_formats_keep_the_invariants(text: str) -> None:
    _check_invariants(text, _english(text))
    mentions = extract_numbers(text)
    _check_invariants(text, mentions)
    assert mask_numbers(text, mentions)[0].count(MASK_TOKEN) == len(mentions)


_N = 100_000


def _repeat(piece: str) -> str:
    return (piece * (_N // len(piece) + 1))[:_N]


_LONG_FEW = {  # long inputs that hold few mentions
    "digit run": "1" * _N,
    "separator run": _repeat("1,"),
    "dot run": _repeat("1."),
    "dots": _repeat(". "),
    "unbalanced parentheses": _repeat("(")[: _N // 2] + "1" + _repeat(")")[: _N // 2],
    "lone ones": _repeat("one "),
    "bare scale words": _repeat("hundred thousand million "),
    "minus run": _repeat("minus "),
    "hyphen run": "one" + _repeat(" - "),
    "invisible run": _repeat("5\u200b"),
    "vulgar fraction run": _repeat("½"),
}
_LONG_MANY = {  # ... and long inputs with tens of thousands of mentions
    "number words": _repeat("twenty-four two hundred and five three million a hundred one percent seventeen "),
    "number-word run": _repeat("one two three four five six seven eight nine ten "),
    "parenthesised": _repeat("(1)"),
    "bad space groups": "1" + _repeat(" 111")[: _N - 10] + ",111",
    "spaced digits": _repeat("1 "),
    "fractions and ranges": _repeat("1/2-3/4 "),
    "vulgar fractions": _repeat("½ "),
    "formats": _repeat("EUR (1.2) million 5kg 1/2 ½ –5 1'000 1.234,5 at 0.33 eur 100M 2009–2010 "),
}


@pytest.mark.parametrize("name", [*_LONG_FEW, *_LONG_MANY])
def test_english_reader_is_linear(name: str, assert_linear) -> None:
    assert_linear(lambda text: (digit_mentions(text), written_mentions(text)), {**_LONG_FEW, **_LONG_MANY}[name])


@pytest.mark.parametrize("name", [*_LONG_FEW, *_LONG_MANY])
def test_extract_numbers_is_linear(name: str, assert_linear) -> None:
    assert_linear(extract_numbers, {**_LONG_FEW, **_LONG_MANY}[name])
