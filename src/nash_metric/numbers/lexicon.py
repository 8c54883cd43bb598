"""The English reader's lexicon: currency codes, symbols and words, scales, units, count nouns, signs, number
words, and the precompiled patterns the digit pass (``numbers.english``), the written-number grammar
(``numbers.written``) and what they share (``numbers.reading``, ``numbers.numerals``) match with.

Constants and patterns only, no logic. The date and time vocabulary (month names, am/pm, ``Q``/``H``/``FY``,
the year range) belongs to the one date grammar, ``numbers.calendar``. Every pattern has bounded or
unambiguous repetition, so each runs in linear time (rules: ``numbers.english``'s docstring).
"""

from __future__ import annotations

import re
from fractions import Fraction
from unicodedata import numeric


# ---------------------------------------------------------------- words
def _words(s: str) -> frozenset[str]:
    return frozenset(s.split())


CODES = {c: c for c in _words(
    "USD EUR GBP JPY CNY SEK NOK DKK CHF RUB INR HKD AUD CAD SGD KRW PLN LVL LTL EEK ISK BRL MXN ZAR TRY NZD "
    "CZK HUF TWD THB MYR IDR PHP SAR AED ILS UAH RON"
)}
CODES["RMB"] = "CNY"
# Lower-case codes count next to a number ("0.33 eur", "usd 5"), except those that are common words.
_LOWER_CODES = {c.lower(): v for c, v in CODES.items()}
for _w in ("try", "php", "rub", "eek", "lvl"):
    del _LOWER_CODES[_w]
CODES["Rs"] = "INR"
ANY_CODE = CODES | _LOWER_CODES
SYMBOLS = {"$": "USD", "US$": "USD", "A$": "AUD", "C$": "CAD", "HK$": "HKD", "S$": "SGD", "€": "EUR",
           "£": "GBP", "¥": "JPY", "₹": "INR", "₩": "KRW", "₽": "RUB", "x20ac": "EUR"}
CURRENCY_WORDS = {"euro": "EUR", "euros": "EUR", "dollar": "USD", "dollars": "USD", "yen": "JPY",
                  "yuan": "CNY", "renminbi": "CNY", "sterling": "GBP", "kronor": "SEK", "kronur": "ISK",
                  "kroner": "NOK", "krona": "SEK", "kroons": "EEK", "roubles": "RUB", "rubles": "RUB",
                  "rupees": "INR", "litas": "LTL", "lats": "LVL", "lei": "RON"}
SCALE_EXP = {"hundred": 2, "thousand": 3, "k": 3, "million": 6, "mn": 6, "mln": 6, "mio": 6, "m": 6,
             "billion": 9, "bn": 9, "bln": 9, "b": 9, "trillion": 12, "tn": 12, "trn": 12,
             "lakh": 5, "crore": 7}
# Physical units glued to a number ("5kg", "20MW"), case-sensitive (MW megawatt, mW would be milliwatt),
# mapped to one spelling. "m" is million (a scale), never metres; "mm" is million only next to a currency.
UNITS = {u: u for u in _words(
    "mg g kg t kt Mt Gt lb lbs oz dwt TEU mm cm km ft nm µm m2 m3 km2 m² m³ km² ha sqm sqft ml cl l bbl boe mcf "
    "gal cc W kW MW GW TW Wh kWh MWh GWh TWh kV V mAh Hz kHz MHz GHz kB KB MB GB TB PB kbps Mbps Gbps mph kph "
    "ms sec min mins h hr hrs yr yrs x °C °F ° tCO2 tCO2e ktCO2e MtCO2e"
)} | {"μm": "µm", "mw": "MW", "kw": "kW", "gw": "GW", "kwh": "kWh", "mwh": "MWh", "gwh": "GWh", "KG": "kg",
      "Kg": "kg", "KM": "km", "mL": "ml", "mt": "t", "MT": "t", "tonnes": "t", "Mbit": "Mbps"}
# A bare integer in the year range followed by one of these counts things rather than naming a year.
COUNT_NOUNS = _words(
    "employees people persons workers staff jobs positions personnel members units shares tonnes tons "
    "metres meters square cubic kilometres kilometers km hectares barrels cars vehicles trucks stores shops "
    "outlets restaurants customers clients users subscribers households homes apartments flats rooms beds "
    "sites locations branches companies firms machines aircraft planes ships vessels phones handsets devices "
    "pieces items products contracts patients students children copies titles kg kilograms mw megawatts "
    "points times")
# ... and of these, "1.500 employees" can only be 1500: nobody counts 1.5 employees.
DISCRETE_NOUNS = COUNT_NOUNS - _words(
    "tonnes tons metres meters square cubic kilometres kilometers km hectares barrels kg kilograms mw megawatts "
    "points times")
APPROX_WORDS = _words("about approximately approx nearly almost around some roughly over than exactly")
HYPHEN_TIME_WORDS = _words("mid end early late pre post start year fiscal calendar full")
HYPHENS = "-‐‑–"  # hyphen-minus, U+2010 hyphen, U+2011 non-breaking hyphen, en dash
SIGNS = "-+−–‐‑"
SIGN_AFTER = "([{=:;,/'\"$€£¥₹₩₽"  # a sign may follow a space, these characters, or the text start
VULGAR = {c: Fraction(numeric(c)).limit_denominator(10) for c in "¼½¾⅐⅑⅒⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞↉"}
FRACTION_DENS = frozenset((2, 3, 4, 5, 6, 8, 10, 12, 16, 32, 64, 100))
INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad"  # zero-width space/non-joiner/joiner, word joiner, BOM, SHY
NUMBER_WORDS = ("zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
                "fifteen|sixteen|seventeen|eighteen|nineteen")
TENS_W = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
SCALES_W = "hundred|thousand|million|billion|trillion"

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
_SCALE_WORD = r"(?i:hundred|thousand|million|billion|trillion|mn|mln|mio|bn|bln|tn|trn|lakh|crore)\b"
UNIT_AFTER = re.compile(
    rf"\s?(?:(?P<pct>{_PERCENT})|(?P<bp>{_BP})|(?P<scale>{_SCALE_WORD})|(?P<letter>[kmbKMB]){_END})")
CUR_AFTER = re.compile(rf"\s?(?:(?P<code>{_ANY_CODE_ALT})|(?P<word>(?i:{_CUR_WORD_ALT})))" + _END)
PCT_AFTER_SCALE = re.compile(rf"\s?(?:(?P<pct>{_PERCENT})|(?P<bp>{_BP}))")
RANGE_BEFORE = re.compile(r"[0-9%]\s+[-–‐‑]\s?\Z|[0-9%]\s?[–‐‑]\s?\Z")
MINUS_WORD = re.compile(r"(?<![A-Za-z])(?i:minus)\s+\Z")
OPERAND_BEFORE = re.compile(  # "10 minus 3", "five minus two": a binary minus, not a sign
    rf"(?:[0-9%)]|(?<![A-Za-z])(?i:{NUMBER_WORDS}|{TENS_W}|{SCALES_W}|percent))\s*\Z")
FORM_CODE = re.compile(r"[-–][A-Z](?![A-Za-z0-9])")  # SEC forms 10-K, 8-K, 20-F are identifiers
PREV_WORD = re.compile(r"([A-Za-z]+)[\s,]*\Z")
NEXT_WORD = re.compile(r"\s([A-Za-z]+)")
INVISIBLE_RE = re.compile(f"[{INVISIBLE}]")
