"""The vocabulary (`nash_metric.vocabulary`): one spelling of each word list, derived sets equal to the sets the
readers used before they were derived (spelled out here once), and the year ranges of the readers."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from nash_metric.vocabulary import en, zh

# The sets as each reader spelled them before the vocabulary derived them from its base sets.
OLD_HEDGES = {"about", "approximately", "approx.", "approx", "around", "roughly", "nearly", "almost", "some",
              "circa", "ca.", "close to", "an estimated", "estimated", "~", "≈", "just over", "just under"}
OLD_APPROX_WORDS = {"about", "approximately", "approx", "nearly", "almost", "around", "some", "roughly", "over",
                    "than", "exactly"}
OLD_BETWEEN = {"by", "about", "approximately", "approx", "around", "roughly", "nearly", "almost", "some", "over",
               "more", "than", "less", "just", "an", "a", "another", "further", "sharply", "significantly",
               "slightly", "modestly", "strongly"}
OLD_NOUNS = {"increase", "decrease", "decline", "gain", "loss", "drop", "rise", "fall", "growth", "change",
             "reduction", "improvement"}
OLD_AFTER = {"increase": 1, "rise": 1, "growth": 1, "gain": 1, "higher": 1, "improvement": 1, "jump": 1, "up": 1,
             "decrease": -1, "decline": -1, "drop": -1, "fall": -1, "lower": -1, "reduction": -1, "loss": -1,
             "down": -1}
OLD_NOT_SUBJECT_WORDS = {
    "yield", "yielding", "yielded", "reach", "reached", "reaching", "totaled", "totalled", "totaling", "amount",
    "amounted", "stood", "stand", "came", "come", "report", "reported", "post", "posted", "record", "recorded",
    "deliver", "delivered", "generate", "generated", "generating", "result", "resulted", "resulting", "compare",
    "compared", "comparing", "versus", "respectively", "approximately", "roughly", "nearly", "almost", "around",
    "some", "million", "billion", "thousand", "trillion", "mn", "bn", "percent", "percentage", "point", "basi",
    "bps", "bp", "dollar", "euro", "pound", "usd", "eur", "gbp", "rmb", "cent", "period", "expect", "expected",
    "see", "saw", "said", "say", "says", "note", "noted", "mainly", "primarily", "approx", "further", "another",
    "approximate"}
OLD_NOT_COUNTED_WORDS = {"is", "was", "has", "as", "thus", "plus", "versus", "across", "less", "unless", "its",
                         "this", "dollars", "euros", "pounds", "francs", "yen", "points", "basis", "percent",
                         "millions", "billions", "thousands", "times", "shares", "units", "bucks", "quid"}
OLD_DISCRETE_REMOVED = {"tonnes", "tons", "metres", "meters", "square", "cubic", "kilometres", "kilometers", "km",
                        "hectares", "barrels", "kg", "kilograms", "mw", "megawatts", "points", "times"}


def test_the_hedge_sets_derive_from_one_base():
    assert set(en.HEDGES) == OLD_HEDGES and len(en.HEDGES) == len(OLD_HEDGES)
    assert en.APPROX_WORDS == OLD_APPROX_WORDS
    assert en.CHANGE_GAP_WORDS == OLD_BETWEEN
    assert set(en.HEDGES) >= en.HEDGE_WORDS and en.HEDGE_WORDS <= en.APPROX_WORDS <= en.CHANGE_GAP_WORDS | {"exactly"}


def test_the_change_words_derive_from_the_noun_sets():
    assert en.CHANGE_NOUNS == OLD_NOUNS
    assert en.DIRECTION_AFTER == OLD_AFTER
    assert {**dict.fromkeys(en.RISE, 1), **dict.fromkeys(en.FALL, -1)} == en.DIRECTION_BEFORE
    assert {"increase", "growth", "rise", "improvement"} == en.RISE_NOUNS
    assert {"decrease", "decline", "drop", "fall", "reduction"} == en.FALL_NOUNS
    assert {"change", "variance", "movement"} == en.EITHER_NOUNS
    assert not en.RISE_NOUNS & en.FALL_NOUNS and not set(en.RISE) & set(en.FALL)


def test_subject_and_count_words():
    change_verbs = {w for w in (*en.RISE, *en.FALL) if w not in OLD_NOUNS}
    prior_year = {w for phrase in en.PRIOR_YEAR_PHRASES for w in phrase.split()}  # "a year earlier" is no subject
    assert OLD_NOT_SUBJECT_WORDS | change_verbs | prior_year == en.NOT_SUBJECT_WORDS
    assert OLD_NOT_COUNTED_WORDS | set(en.CURRENCY_WORDS) == en.NOT_COUNTED_WORDS
    assert en.COUNT_NOUNS - {"points", "times", "shares", "units"} == en.COUNTED_NOUNS
    assert en.DISCRETE_NOUNS == en.COUNT_NOUNS - OLD_DISCRETE_REMOVED and en.MEASURE_NOUNS <= en.COUNT_NOUNS
    assert en.STOP_WORDS - {"total"} == en.SUBJECT_STOP_WORDS


def test_the_scale_words_derive_from_one_map():
    assert list(en.SCALE_NAMES.items()) == [(1e3, "thousand"), (1e6, "million"), (1e9, "billion")]  # in order
    assert en.SCALE_LETTERS == ("k", "m", "b")
    assert en.SCALE_ABBREVIATIONS == ("mn", "mln", "mio", "bn", "bln", "tn", "trn", "lakh", "crore")
    assert set(en.SCALE_WORDS) | set(en.SCALE_LETTERS) | set(en.SCALE_ABBREVIATIONS) == set(en.SCALE_EXPONENTS)
    assert en.CELL_SCALES == ("k", "m", "mn", "bn", "thousand", "million", "billion")


def test_the_operation_words_are_those_of_the_derivations():
    assert {"total", "combined", "sum", "together", "aggregate", "altogether", "overall"} == en.SUM_WORDS
    assert {"average", "averaged", "averaging", "mean", "avg"} == en.AVERAGE_WORDS  # "averaged $12,450 million"
    assert {"share", "percentage", "proportion", "portion", "accounted", "account", "represented", "represent",
            "comprised", "comprise", "made"} == en.SHARE_WORDS
    assert {"ratio", "time", "fold", "multiple"} == en.RATIO_WORDS
    assert {"difference", "gap", "spread"} == en.DIFFERENCE_WORDS
    assert {"more", "less", "higher", "lower", "exceed", "exceeded", "greater", "smaller"} == en.COMPARED_WORDS


def test_currency_codes():
    assert en.CODES["RMB"] == "CNY" and en.CODES["Rs"] == "INR" and "rs" not in en.ANY_CODE
    assert en.ANY_CODE["rmb"] == "CNY" and en.ANY_CODE["cad"] == "CAD"
    assert not set(en.CODE_WORDS) & set(en.ANY_CODE) and {c.upper() for c in en.CODE_WORDS} <= set(en.CODES)


def test_the_patterns_built_from_word_lists_are_unchanged():
    from nash_metric.context import binding, table_grid, tables
    from nash_metric.numbers import calendar, lexicon, written

    assert re.search(r"\(\?i:hundred\|thousand\|million\|billion\|trillion\|mn\|mln\|mio\|bn\|bln\|tn\|trn\|lakh"
                     r"\|crore\)", lexicon.UNIT_AFTER.pattern)
    assert "(?i:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|" \
           "fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|" \
           "hundred|thousand|million|billion|trillion|percent)" in lexicon.OPERAND_BEFORE.pattern
    assert written._ORDINAL_TAIL.pattern == r"-(?i:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)\b"
    assert binding._PER_UNIT.pattern == (
        r"\s*(?:per|a|an|each|/)\s*(?:diluted\s+|basic\s+|common\s+|ordinary\s+)?"
        r"(?:share|unit|hour|hr|day|week|month|year|person|employee|head|capita|ton|tonne|barrel|"
        r"boe|mwh|kwh|user|subscriber|customer|store|sqft|square)\b")
    assert binding._CLAUSE.pattern == (r"[,;:()\[\]–—]|\s-\s|\b(?:while|whereas|but|and|compared|versus|vs|against|"
                                       r"which|although|though|whilst)\b")
    assert "(?:x|bps|pts?|k|m|mn|bn|thousand|million|billion)" in table_grid._NUMBER.pattern
    assert "(thousand|million|billion)s?" in tables._SCALES[0][0].pattern
    assert calendar._YEAR == r"(?P<year>(?:19|20|21)[0-9]{2})"
    assert calendar._DAY == r"(?P<day>[0-3]?[0-9])(?P<ord>st|nd|rd|th)?"
    assert "(?P<n>three|six|nine|twelve|3|6|9|12)" in calendar._SPAN
    assert "(?P<w>thirteen|twenty-six|thirty-nine|fifty-two|fifty-three|13|26|39|52|53)" in calendar._SPAN


def test_one_year_range_and_the_narrower_ones_inside_it():
    from nash_metric.context import table_grid, words
    from nash_metric.numbers.calendar import HEADER_CELL_YEARS, LABEL_YEARS, YEAR_RANGE, is_year, year_pattern

    assert YEAR_RANGE == (1900, 2100)
    for low, high in (LABEL_YEARS, HEADER_CELL_YEARS):
        assert YEAR_RANGE[0] <= low <= high <= YEAR_RANGE[1]
    assert year_pattern(LABEL_YEARS) == r"19[5-9]\d|20[0-4]\d"
    assert year_pattern(HEADER_CELL_YEARS) == r"199\d|20[0-3]\d"
    numbers = [f"{n:04d}" for n in range(10000)]
    assert [n for n in numbers if words._YEAR.fullmatch(n)] == [str(y) for y in range(1950, 2050)]
    assert [n for n in numbers if table_grid.is_year(n)] == [str(y) for y in range(1990, 2040)]
    assert [n for n in numbers if is_year(int(n))] == [str(y) for y in range(1900, 2101)]
    with pytest.raises(AssertionError):
        year_pattern((1955, 2049))  # whole decades only


def test_the_chinese_tables():
    assert {c: i for i, c in enumerate("零一二三四五六七八九")} | {"〇": 0, "两": 2} == zh.DIGIT_VALUE
    assert set(zh.DIGIT_VALUE) == set(zh.DIGITS)
    assert zh.PERCENT_DENOMINATORS == {"百": 1, "千": 10, "万": 100} and set(zh.PERCENT_DENOMINATORS) <= set(zh.SCALES)
    assert all(len(a) >= len(b) for (a, _), (b, _) in zip(zh.PERCENT_SUFFIXES, zh.PERCENT_SUFFIXES[1:]))


def test_the_vocabulary_imports_nothing():
    """Plain data: no module of nash_metric, no third-party package."""
    for path in Path(en.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        modules |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        assert modules <= {"__future__"}, (path.name, modules)
