"""The Chinese reader: numeric mentions of Chinese text (simplified and traditional).

``extract_chinese_numbers`` finds Arabic and full-width digits, ``%``/``％``, ``百分之…``, Chinese numerals
with scale characters (十 百 千 万/萬 亿/億 兆), mixed forms (``2.5萬``, ``12萬5千``, ``3億元``), decimals
with 点/點, currencies (元 美元 港元 人民币/人民幣 …), years (``2023年``), months and days.
``numbers.extract.extract_numbers`` merges these with the English reader's (``resolve_overlaps``).

When a run of Chinese numeral characters counts as a number (a bare ``一`` in 一些/统一/一致 must not):

1. it holds an Arabic digit; or
2. it is introduced by 第 / 负 / a currency, sits in a fraction (百分之…, 三分之一), or is followed by a
   unit or measure word (%, 元, 年, 月, 日, 季度, 倍, 个, 家, 名, 股, …); or
3. it has at least two characters, one of them a digit (零…九/两), and is not a bare two-digit pair
   (三四, 三一 in 三一重工): 十二, 两万, 一千零五, 二〇二三 count;
4. runs made only of scale characters (百 千 万 亿) need a currency or percentage after them (千万元),
   except 十 with a unit (十家);
5. a few words are never numbers whatever follows: 万一, 千万 as an adverb (千万不要), 十分 "very",
   一成不变, 千千万万, 三三两两, 一五一十, and 一 after 上/下/同/唯/统/单/逐/之 (上一次, 统一, 之一).
6. 千/兆 before a physical unit are SI prefixes (千瓦, 千克, 兆瓦), not scale characters.

Values: scale characters multiply (3億元 = 3e8, unit CNY); 兆 is 10^12 (its financial-news sense, not
the SI "mega"); 成 is tenths (三成 = 30 %); 個百分點 gives unit ``pp``. Approximate ranges (三四十, 七八个),
vague quantities (数百万) and malformed digits (1.2.3) are reported with ``value=None`` and an ``error``.
A date 3月5日 gives two temporal mentions (3月, 5日); spans include their unit characters.
"""

from __future__ import annotations

import itertools
import math
import re
from decimal import Decimal

from ..common.validation import echoed
from ..vocabulary.zh import (
    CURRENCY_PREFIXES,
    CURRENCY_SUFFIXES,
    DIGIT_VALUE,
    DIGITS,
    FULLWIDTH_DIGITS,
    FULLWIDTH_SIGNS,
    KILO_UNITS,
    MEASURE_WORDS,
    MEGA_UNITS,
    PERCENT_DENOMINATORS,
    PERCENT_SUFFIXES,
    SCALES,
    TO_SIMPLIFIED,
)
from .mention import NumericMention

__all__ = ["extract_chinese_numbers", "normalize_zh", "parse_chinese_number"]

# One-to-one character normalisation, so offsets in the normalised text equal offsets in the input.
_TRANSLATE = str.maketrans({**FULLWIDTH_DIGITS, **FULLWIDTH_SIGNS, **TO_SIMPLIFIED})

_AR = r"[0-9]+(?:,[0-9]{3}(?![0-9]))*(?:\.[0-9]+)?"
_CN_RUN = rf"(?:[{DIGITS}{SCALES}]|点(?=[{DIGITS}]))+"
# A numeral run: Arabic or Chinese start; Arabic digits may resume only between scales (12万5千, 3亿5000万).
# 千/兆 before a physical unit are SI prefixes (千瓦 kW, 千克 kg, 兆瓦 MW), not scales: 3500亿千瓦时 = 3500亿 kWh.
_SCALE = rf"(?:[十百万亿]|千(?![{KILO_UNITS}])|兆(?![{MEGA_UNITS}]))"
_RUN = re.compile(
    rf"(?:{_AR}|[{DIGITS}]|{_SCALE})(?:[{DIGITS}]|{_SCALE}|点(?=[{DIGITS}])|(?<=[{SCALES}]){_AR}(?={_SCALE}))*"
)
_FRACTION = re.compile(
    rf"(?P<neg>负)?(?P<den>{_AR}|[{DIGITS}{SCALES}]+)分之(?P<sign>负)?(?P<num>{_AR}|{_CN_RUN})"
)
# Words whose numeral characters are not numbers (rule 5); blanked before matching.
_STOPWORDS = re.compile(
    rf"(?<![0-9{DIGITS}])万一(?![十百千万亿])|(?<![0-9{DIGITS}{SCALES}])千万(?=[不别要莫勿得记])|十分(?![钟之])|一成不变|千千万万|三三两两|一五一十"
    r"|(?:[上下同唯统单逐]|(?<!分)之)一(?![十百千万亿])"
)

_LATIN_BEFORE = re.compile(r"[0-9A-Za-z_.)]")
_MALFORMED_TAIL = re.compile(r"(?:\.[0-9]+)+")
_LATIN_AFTER = re.compile(r"[A-Za-z]")
# A number before 年 is a year from 1000 to 2999: 年 says it is one, so the range is wider than the one a bare
# number must fall in (`numbers.calendar.YEAR_RANGE`, 1900-2100), and kept so.
_NIAN_YEARS = (1000, 2999)


def normalize_zh(text: str) -> str:
    """Full-width digits/signs to ASCII, traditional numeral and currency characters to simplified (1:1)."""
    return text.translate(_TRANSLATE)


def parse_chinese_number(text: str) -> float:
    """Value of a numeral run such as ``三十五``, ``2.5万``, ``12万5千``, ``1.5万亿``, ``三点五``, ``3兆``.

    Raises ValueError on anything that is not one well-formed number.
    """
    s = normalize_zh(text).replace(",", "")
    if not s:
        raise ValueError("empty numeral")
    if "兆" in s:  # cn2an has no 兆: split it off (10^12).
        head, _, tail = s.partition("兆")
        value = Decimal(str(parse_chinese_number(head))) * Decimal(10) ** 12 if head else Decimal(10) ** 12
        if tail:
            value += Decimal(str(parse_chinese_number(tail)))
        return _finite(float(value), text)
    # A decimal coefficient before trailing big scales (1.5万亿, 一点五亿, 十二点五万): cn2an refuses these.
    m = re.fullmatch(rf"(?P<coef>[0-9]+\.[0-9]+|[{DIGITS}{SCALES}]+点[{DIGITS}]+)(?P<scales>[万亿]+)", s)
    if m:
        exponent = sum(4 if c == "万" else 8 for c in m["scales"])
        coef = Decimal(m["coef"]) if m["coef"][0].isdigit() else Decimal(str(_cn2an(m["coef"], text)))
        return _finite(float(coef * Decimal(10) ** exponent), text)
    if re.fullmatch(r"[0-9]+(?:\.[0-9]+)?", s):
        return _finite(float(Decimal(s)), text)
    return _finite(float(_cn2an(s, text)), text)


def _cn2an(s: str, original: str) -> int | float:
    import cn2an

    if re.search(r"[0-9]\.[0-9]+\.", s):
        raise ValueError(f"malformed number {echoed(original)}")
    try:
        return cn2an.cn2an(s, "smart")
    except (ValueError, KeyError, IndexError) as exc:
        raise ValueError(f"cannot parse Chinese numeral {echoed(original)}") from exc


def _finite(value: float, original: str) -> float:
    if not math.isfinite(value):
        raise ValueError(f"number {echoed(original)} overflows float")
    return value


def _has_approximate_pair(run: str) -> bool:
    """Adjacent consecutive digits (三四, 七八, 两三) mark an approximate range, not one number."""
    for a, b in itertools.pairwise(run):
        da, db = DIGIT_VALUE.get(a), DIGIT_VALUE.get(b)
        if da is not None and db is not None and da != 0 and db == da + 1:
            return True
    return False


def _startswith_any(text: str, pos: int, options) -> tuple[str, str] | None:
    for word, code in options:
        if text.startswith(word, pos):
            return word, code
    return None


def _endswith_any(text: str, pos: int, options) -> tuple[str, str] | None:
    for word, code in options:
        if text.endswith(word, 0, pos):
            return word, code
    return None


def extract_chinese_numbers(text: str) -> list[NumericMention]:
    """Numeric mentions of Chinese (or mixed) text, sorted by start and non-overlapping."""
    if not isinstance(text, str):
        raise TypeError(f"extract_chinese_numbers expects str, got {type(text).__name__}")
    norm = normalize_zh(text)
    work = _STOPWORDS.sub(lambda m: "_" * len(m.group()), norm)
    mentions: list[NumericMention] = []

    for m in _FRACTION.finditer(work):
        mentions.append(_fraction_mention(text, m))
        work = work[: m.start()] + "_" * (m.end() - m.start()) + work[m.end():]

    for m in _RUN.finditer(work):
        mention = _run_mention(text, norm, m.start(), m.end())
        if mention is not None:
            mentions.append(mention)
    mentions.sort(key=lambda x: x.start)
    # Prefix/suffix extension can make neighbours touch (3月5日 never overlaps, but be safe): keep the first.
    out: list[NumericMention] = []
    for x in mentions:
        if not out or x.start >= out[-1].end:
            out.append(x)
    return out


def _fraction_mention(text: str, m: re.Match) -> NumericMention:
    den, num = m["den"], m["num"]
    span = text[m.start(): m.end()]
    value: float | None
    error = None
    try:
        numerator = parse_chinese_number(num) * (-1 if m["sign"] else 1) * (-1 if m["neg"] else 1)
        if den in PERCENT_DENOMINATORS:  # 百分之 / 千分之 / 万分之: percentages
            value = numerator / PERCENT_DENOMINATORS[den]
            return NumericMention(span, m.start(), m.end(), value, "percentage", "%")
        denominator = parse_chinese_number(den)
        if denominator == 0:
            raise ValueError(f"zero denominator in {span!r}")
        value = numerator / denominator
    except ValueError as exc:
        value, error = None, str(exc)
    kind, unit = ("percentage", "%") if den in PERCENT_DENOMINATORS else ("quantity", None)
    return NumericMention(span, m.start(), m.end(), value, kind, unit, error)


def _run_mention(text: str, norm: str, start: int, end: int) -> NumericMention | None:
    run = norm[start:end]
    arabic = any(c.isdigit() for c in run)
    if arabic and (_LATIN_BEFORE.match(norm[start - 1: start]) or _LATIN_AFTER.match(norm[end: end + 1])):
        return None  # part of a code such as 5G, A50, H1N1: not ours to judge
    before = norm[max(0, start - 8): start]
    # Suffix: percentage, currency, dates; measure words only support acceptance.
    kind, unit, new_end, factor = "quantity", None, end, 1.0
    if hit := _startswith_any(norm, end, PERCENT_SUFFIXES):
        kind, unit, new_end = "percentage", hit[1], end + len(hit[0])
    elif norm.startswith("成", end) and not arabic:
        kind, unit, new_end, factor = "percentage", "%", end + 1, 10.0
    elif hit := _startswith_any(norm, end, CURRENCY_SUFFIXES):
        kind, unit, new_end = "monetary", hit[1], end + len(hit[0])
    elif norm.startswith("倍", end):
        unit, new_end = "x", end + 1
    measured = new_end > end or any(norm.startswith(w, end + k) for k in (0, 1) for w in MEASURE_WORDS
                                     if k == 0 or norm[end: end + 1] in "多余来")
    # Prefix: sign, currency, 第, vague 数/几.
    new_start, sign = start, 1
    signed = arabic and before[-1:] in ("-", "+") and not _LATIN_BEFORE.match(before[-2:-1])
    if before.endswith("负") or signed:
        sign = -1 if before[-1] in "负-" else 1
        new_start -= 1
    hit = _endswith_any(norm, new_start, CURRENCY_PREFIXES)
    if hit and ((kind == "quantity" and unit is None) or (kind == "monetary" and unit == hit[1])):
        kind, unit, new_start = "monetary", hit[1], new_start - len(hit[0])  # 人民币3亿元: one mention
    ordinal = before.endswith("第")
    vague = before.endswith(("数", "几"))

    if not arabic and not _accept_chinese_run(run, measured or ordinal or new_start < start, kind, unit):
        return None

    value: float | None = None
    error = None
    if malformed := _MALFORMED_TAIL.match(norm, end):
        new_end = malformed.end()
        error = f"malformed number {echoed(text[new_start:new_end])}"
    elif vague:
        new_start -= 1
        error = f"vague quantity {before[-1] + run!r} has no single value"
    elif _has_approximate_pair(run) and not (len(run) >= 3 and all(c in DIGIT_VALUE for c in run)):
        error = f"approximate range {run!r} has no single value"
    else:
        try:
            value = sign * factor * parse_chinese_number(run)
        except ValueError as exc:
            error = str(exc)
    if error is None and kind == "quantity" and value is not None:
        kind, unit, new_end = _temporal(norm, run, end, value, kind, unit, new_end)
    if kind == "quantity" and ordinal and unit is None:
        unit = "ordinal"
    return NumericMention(text[new_start:new_end], new_start, new_end, value, kind, unit, error)


def _accept_chinese_run(run: str, triggered: bool, kind: str, unit: str | None) -> bool:
    has_digit = any(c in DIGIT_VALUE for c in run)
    if not has_digit:  # rule 4
        return kind in ("monetary", "percentage") or (run == "十" and triggered)
    if triggered:  # rule 2
        return True
    bare_pair = len(run) == 2 and all(c in DIGIT_VALUE for c in run)
    return len(run) >= 2 and not bare_pair  # rule 3


def _temporal(norm: str, run: str, end: int, value: float, kind: str, unit: str | None, new_end: int):
    """2023年 / 二〇二三年 (year), 3月 (month), 5日/5号 (day), 一季度 (quarter): kind temporal, unit kept."""
    integral = value == int(value) and value >= 0
    nxt = norm[end: end + 2]
    if nxt.startswith("年") and integral and _NIAN_YEARS[0] <= value <= _NIAN_YEARS[1]:
        return "temporal", "year", end + 1
    if nxt.startswith("月") and integral and 1 <= value <= 12:
        return "temporal", "month", end + 1
    if nxt[:1] in ("日", "号") and integral and 1 <= value <= 31:
        return "temporal", "day", end + 1
    if nxt == "季度" and integral and 1 <= value <= 4:
        return "temporal", "quarter", end + 2
    return kind, unit, new_end
