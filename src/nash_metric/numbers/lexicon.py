"""The English reader's characters and precompiled patterns, which the digit pass (``numbers.english``), the
written-number grammar (``numbers.written``) and what they share (``numbers.reading``, ``numbers.numerals``)
match with. Their words (currency codes and words, scales, units, count nouns, number words) are the
vocabulary's (``vocabulary.en``); a pattern that is an alternation of words is built from its word list.

Constants and patterns only, no logic. The date and time patterns (month names, am/pm, ``Q``/``H``/``FY``,
the year range) belong to the one date grammar, ``numbers.calendar``. Every pattern has bounded or
unambiguous repetition, so each runs in linear time (rules: ``numbers.english``'s docstring).
"""

from __future__ import annotations

import re
from fractions import Fraction
from unicodedata import numeric

from ..vocabulary.en import (
    ANY_CODE,
    CURRENCY_WORDS,
    NUMBER_WORDS,
    SCALE_ABBREVIATIONS,
    SCALE_WORDS,
    SYMBOLS,
    TENS_WORDS,
)

# ---------------------------------------------------------------- characters
HYPHENS = "-‐‑–"  # hyphen-minus, U+2010 hyphen, U+2011 non-breaking hyphen, en dash
SIGNS = "-+−–‐‑"
SIGN_AFTER = "([{=:;,/'\"$€£¥₹₩₽"  # a sign may follow a space, these characters, or the text start
VULGAR = {c: Fraction(numeric(c)).limit_denominator(10) for c in "¼½¾⅐⅑⅒⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞↉"}
FRACTION_DENS = frozenset((2, 3, 4, 5, 6, 8, 10, 12, 16, 32, 64, 100))
INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad"  # zero-width space/non-joiner/joiner, word joiner, BOM, SHY
_NUMBER_ALT = "|".join(NUMBER_WORDS)  # zero|one|...|nineteen
_TENS_ALT = "|".join(TENS_WORDS)
_SCALES_ALT = "|".join(SCALE_WORDS)

# ---------------------------------------------------------------- patterns
_ANY_CODE_ALT = "|".join(sorted(ANY_CODE, key=len, reverse=True))
_SYM_ALT = "|".join(re.escape(s) for s in sorted(SYMBOLS, key=len, reverse=True))
_CUR_WORD_ALT = "|".join(sorted(CURRENCY_WORDS, key=len, reverse=True))
_VULGAR_CLASS = "[" + "".join(VULGAR) + "]"
_END = r"(?![A-Za-z0-9])"  # ASCII-only boundary, so CJK neighbours never block a match

# Bounded repetition where a failed tail would make the engine retry every group: {1,6} space groups.
CORE = re.compile(
    r"(?P<body>[0-9]{1,3}(?:[ \u00a0\u202f][0-9]{3}){1,6}(?![0-9]|[.,][0-9]{3})(?:\.[0-9]+)?"  # 2 000 / 386 328.6
    r"|[0-9]{1,3}(?:['’][0-9]{3})+(?![0-9])(?:\.[0-9]+)?"  # Swiss 1'250'000
    r"|[0-9]+(?:[.,][0-9]+)*|\.[0-9]+(?:[.,][0-9]+)*|" + _VULGAR_CLASS + r")"
    r"(?:(?<=[0-9])[ \u00a0]?(?P<vfrac>" + _VULGAR_CLASS + r"))?"  # 1½, 2 ½
    r"(?:(?P<tokfrac> \.[0-9]+)(?![0-9]|[.,][0-9]))?"  # PhraseBank "74 .8"
    r"(?:[eE](?P<exp>[-+−]?[0-9]+)(?![A-Za-z0-9])"
    r"|\s?(?:\^|\*\*)\s?(?P<pow>[-+−]?[0-9]+)"
    r"|\s?[x×]\s?10\s?(?:\^|\*\*)\s?(?P<sci>[-+−]?[0-9]+))?"
)
GROUP_SEP = re.compile(r"[ \u00a0\u202f'’]")
STRICT = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?|[0-9]+(?:\.[0-9]+)?|\.[0-9]+")
EUROPEAN = re.compile(r"[0-9]{1,3}(?:\.[0-9]{3})+(?:,[0-9]+)?")  # 1.234.567,89 (single 1.234 is ambiguous)
AMBIGUOUS = re.compile(r"[1-9][0-9]{0,2}[.,][0-9]{3}")  # 1.500 / 1,500: thousands or decimals?
EU_FORM = re.compile(r"(?<![0-9.,])[0-9]{1,3}(?:\.[0-9]{3})+,[0-9]|(?<![0-9.,])[0-9]{1,3}(?:\.[0-9]{3}){2,}"
                     r"(?![0-9]|[.,][0-9])")
EN_FORM = re.compile(r"(?<![0-9.,])[0-9]{1,3}(?:,[0-9]{3})+\.[0-9]|(?<![0-9.,])[0-9]{1,3}(?:,[0-9]{3}){2,}"
                     r"(?![0-9]|[.,][0-9])")
DECIMAL_COMMA = re.compile(r"[0-9]+,[0-9]{1,2}")  # "37,7", "5,19 per cent": never a thousands group
FRACTION = re.compile(r"(?:(?P<whole>[0-9]{1,3})[ \u00a0])?(?P<num>[0-9]{1,2})/(?P<den>[0-9]{1,3})"
                      r"(?![0-9/]|[.,][0-9])")
WORD_BEFORE = re.compile(r"([A-Za-z$]+)\Z")
ALNUM_RUN = re.compile(r"[A-Za-z0-9]*(?: \.[0-9]+)?")
PREFIX_CUR = re.compile(rf"(?:(?<![A-Za-z0-9])(?P<code>{_ANY_CODE_ALT}|x20ac|[Ee]uro)|(?P<sym>{_SYM_ALT}))"
                        r"\s?\Z")
SUFFIX = re.compile(r"[A-Za-zµμ°][A-Za-z0-9µμ°²³]*")  # the letters glued after a number: "kg", "M", "th"
LABEL_BEFORE = re.compile(  # "Phase 2B", "Item 1B", "Rule 10b": a glued letter after a label is no scale
    r"(?<![A-Za-z])(?i:phase|tier|class|series|type|stage|level|grade|form|schedule|item|note|part|section|rule"
    r"|article|chapter|figure|fig|table|appendix|exhibit|model|version|room|gate|route|block|building|floor"
    r"|zone|lot|round)\.?\s\Z")
COMPANY_AFTER = re.compile(  # "3M Company", "3M's"
    r"['’]s(?![A-Za-z])|\s+(?:Company|Co|Corp|Corporation|Inc|Ltd|plc|PLC|Group|AG|SA|NV)(?![A-Za-z])")
_PERCENT = r"[%％]|(?i:per\s?cent|percent(?:age)?(?:\s+points?)?|pct)\b|pc\b"
_BP = r"(?i:basis\s+points?|bps?)\b"
_SCALE_WORD = r"(?i:" + "|".join((*SCALE_WORDS, *SCALE_ABBREVIATIONS)) + r")\b"
UNIT_AFTER = re.compile(
    rf"\s?(?:(?P<pct>{_PERCENT})|(?P<bp>{_BP})|(?P<scale>{_SCALE_WORD})|(?P<letter>[kmbKMB]){_END})")
CUR_AFTER = re.compile(rf"\s?(?:(?P<code>{_ANY_CODE_ALT})|(?P<word>(?i:{_CUR_WORD_ALT})))" + _END)
PCT_AFTER_SCALE = re.compile(rf"\s?(?:(?P<pct>{_PERCENT})|(?P<bp>{_BP}))")
RANGE_BEFORE = re.compile(r"[0-9%]\s+[-–‐‑]\s?\Z|[0-9%]\s?[–‐‑]\s?\Z")
MINUS_WORD = re.compile(r"(?<![A-Za-z])(?i:minus)\s+\Z")
OPERAND_BEFORE = re.compile(  # "10 minus 3", "five minus two": a binary minus, not a sign
    rf"(?:[0-9%)]|(?<![A-Za-z])(?i:{_NUMBER_ALT}|{_TENS_ALT}|{_SCALES_ALT}|percent))\s*\Z")
FORM_CODE = re.compile(r"[-–][A-Z](?![A-Za-z0-9])")  # SEC forms 10-K, 8-K, 20-F are identifiers
PREV_WORD = re.compile(r"([A-Za-z]+)[\s,]*\Z")
NEXT_WORD = re.compile(r"\s([A-Za-z]+)")
INVISIBLE_RE = re.compile(f"[{INVISIBLE}]")
