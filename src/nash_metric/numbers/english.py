"""The English/financial reader: numeric mentions written with digits or as English words.

``digit_mentions(text)`` is one left-to-right pass with precompiled regexes over digit tokens;
``written_mentions(text)`` is one over written English numbers. Both read ``normalize_digits(text)`` (digits
of other scripts as ASCII, one character for one) with zero-width characters (U+200B/C/D, U+2060, U+FEFF)
and soft hyphens taken out, and map spans back to ``text``: ``5\\u200b000`` is one mention 5000 over all
five characters. Their candidates may overlap each other (and other readers'); ``numbers.extract`` resolves
overlaps with ``mention.resolve_overlaps`` ("longest span wins"; ties: earlier start, then reader order).

Rules (each one is tested in tests/unit/test_numbers.py or tests/unit/test_number_formats.py):

* Span: ``text[start:end] == mention.text`` and covers currency + sign + number + scale + unit
  (``"EUR 205.5 mn"``, ``"$5k"``, ``"5.2 %"``, ``"25 bps"``, ``"2.5 mln euro"``, ``"5kg"``): all of it is masked.
* Value: a finite float with the scale applied (``EUR 205.5 mn`` -> 205500000.0, computed in ``Decimal`` so
  ``1.1 mn`` is exactly 1100000.0); percentages and basis points keep their own number (``5.2 %`` -> 5.2,
  ``25 bps`` -> 25.0). Never NaN/inf, never a guess: malformed tokens (``1.2.3``, ``1,23,4``), overflow
  (``1e400``, a 400-digit integer), underflow (``1e-400``) and ambiguous grouping (below) are still mentions,
  with ``value=None`` and ``error`` saying why, so they are masked, never aligned, and reported.
* Numbers: integers, decimals, leading-dot decimals (``.26``), scientific and power forms (``1.5e-30``,
  ``10^30``, ``10**6``, ``1.5 x 10^6``), the Financial PhraseBank tokenisation ``74 .8`` (an integer, one
  space, a leading-dot fraction = one decimal, 74.8), and a decimal comma when one comma is followed by one
  or two digits (``37,7 mn``, ``5,19 per cent``). Two-comma groupings that are not thousands (``1,23,4``)
  and several points (``1.2.3``) are malformed. Indian scales ``lakh``/``crore`` and ``Rs`` (INR) are read.
* Grouping: commas (``3,035``, ``1,234,567.89``), a single space between 3-digit groups (``2 000 people``,
  at most 6 groups), apostrophes ``'`` and ``’`` (``1'000'000``, ``CHF 1'250'000``), and the European
  dots with a decimal comma (``1.234.567,89`` -> 1234567.89, ``1.234,5`` -> 1234.5, ``1.234.567``). A single
  group ``1.500`` / ``1,500`` is ambiguous; the text's own convention decides: a text that also writes an
  unambiguous European number (``1.234,5``, ``1.234.567``) reads ``1.500`` as 1500 and ``1,500`` as 1.5; one
  that also writes an unambiguous English number (``1,234.5``, ``1,234,567``) reads them as 1.5 and 1500; a
  text with both gets ``value=None`` and an ``error``. With no evidence, ``1,500`` is 1500, and ``1.500`` is
  1500 when it ends in a zero before a count noun of indivisible things (``1.500 employees``: nobody writes
  a decimal count with a trailing zero), else the decimal 1.5 (``EUR 1.500``, ``1.375 %``, and EmbedNum's
  three-decimal ``714.369 people``). A leading zero (``0.500``) is always a decimal.
* Fractions: a proper fraction with a usual denominator (2-6, 8, 10, 12, 16, 32, 64, 100) is one number
  (``1/2`` -> 0.5, ``3/4`` -> 0.75, ``2 1/2`` -> 2.5); others stay two numbers (``24/7``, ``9/11``), and
  numeric dates are dates (``12/31/2019``, ``03/2010``). Vulgar fraction characters: ``¾`` -> 0.75,
  ``⅓`` -> 1/3, ``1½`` and ``2 ½`` -> 1.5 and 2.5.
* Signs: ``-``, ``+``, ``−`` (U+2212), ``–`` (en dash), ``‐`` and ``‑`` (U+2010/2011 hyphens) and the word
  ``minus`` (``minus 5``, ``minus five``) count as a sign only where they cannot be a range or an operator,
  i.e. not right after a digit or letter (``2009-2010``, ``5–10%``, ``32.7-34.9`` are two positive mentions
  each; ``10 minus 3`` is two positive numbers). In a range the first number takes the second's unit,
  currency and scale when it has none (``5-10%`` -> 5 % and 10 %; the authors' toolkit reads ``32.7-34.9``
  as 32.7 and -34.9, we read a range as two numbers). The connector between the two bounds (dash, ``to``,
  ``between … and``) is no word of the text: the full reader's text channel drops it with the numbers
  (``extract.range_connectors``), so ``5-10%`` and ``5 to 10%`` leave the same text.
* Accounting negatives: ``(1.2)``, ``(1,234)``, ``($1.2m)`` are negative when tight parentheses hold just
  the mention and it is an amount (decimal point, thousands separator or currency); the span is the inside.
  A currency before the parentheses or a scale, percent or currency after them joins the mention, which is
  then negative whatever its digits, and its span includes the parentheses: ``(3.5) million`` -> -3,500,000,
  ``EUR (1.2) million`` -> -1.2e6 EUR, ``$(0.15)`` -> -0.15 USD, ``(0.5) %`` and ``(48.3)%`` -> -0.5 % and
  -48.3 %. Not negative: ``(1)`` (a list label), ``(2009)`` (a year), ``(5 %)`` (a percentage), fractions,
  parentheses right after another amount (``EUR 1.2bn (EUR 1.1bn)``: the prior-period comparative, 1.1e9),
  and Financial PhraseBank's spaced ``( EUR 3.1 mn )`` (also a comparative): spaced parentheses never negate.
* Scale: ``thousand``/``k``, ``million``/``mn``/``mln``/``mio``/``m``/``MM``, ``billion``/``bn``/``bln``/``b``,
  ``trillion``/``tn``/``trn``, ``hundred``. A glued single letter ``k``/``m``/``b`` scales in either case
  (``3.2m``, ``100M``, ``2M``, ``1K`` -> 1e8, 2e6, 1e3), except that after a label word (``Phase 2B``,
  ``Item 1B``, ``Rule 10b``) it is an identifier, and so is an upper-case letter on an integer before a
  company word or possessive (``3M Company``, ``3M's``) or on a year-like integer (``options 2004B``).
  Glued ``mm`` is million next to a currency (``$5mm``), else millimetres. A *spaced* single letter
  (``EUR74 .8 m``) scales only with a currency, since ``5 m`` is usually metres.
* Physical units glued to the number (``5kg``, ``10km``, ``20MW``, ``3.5t``, ``100ml``, ``25°C``, ``3x``,
  ``800dwt``; case-sensitive list ``_UNITS``): value 5.0, ``unit`` the unit's spelling (``"kg"``, ``"MW"``),
  kind ``"quantity"``. Spaced units (``5 kg``) stay text, the number alone is the mention.
* Percent: ``%``, ``percent``, ``per cent``, ``pct``, ``pc``, ``percentage`` (EmbedNum's ``8 percentage``),
  ``percentage point(s)`` -> unit ``"%"``; ``bp``/``bps``/``basis point(s)`` -> unit ``"bp"``.
* Currency: symbols (``$``->USD, ``US$``, ``€``->EUR, ``£``->GBP, ``¥``->JPY (also the yuan's sign; JPY is
  its common reading in English text), ``₹``, ``₩``, ``₽``, ``A$``, ``C$``, ``HK$``, ``S$``), ISO codes
  before or after the number, glued or spaced (``EUR74``, ``USD 1.3 bn``, ``5 EUR``, ``100USD``), ``RMB``->CNY,
  the words euro(s), dollar(s)->USD, yen, yuan, renminbi, sterling, kronor/kronur/kroner/krona/kroons,
  roubles/rubles, rupees, litas, lats, lei after the number (``mln euro``), ``euro`` glued before it
  (``euro3 .33``), and ``x20ac``, Financial PhraseBank's broken rendering of ``€``. Lower-case codes count
  next to a number (``0.33 eur``, ``5 usd``, ``usd 5``) except those that are common words or names in
  lower case: ``try``, ``php``, ``rub``, ``eek``, ``lvl`` (``cad`` counts). A number followed by a
  currency is money, never a clock time (``at 0.33 eur``).
* Written numbers, parsed by a small left-to-right grammar (linear in the text): ``twenty-four``,
  ``two hundred and five``, ``three million``, ``a hundred``, ``nineteen hundred``, ``two thousand million``;
  scale words must decrease (``two million three thousand``), a run that breaks the grammar is split
  (``twenty twenty`` -> 20, 20). A bare scale word (``several hundred``, ``millions``) is not a number. A lone
  ``one`` is a number only when a unit follows (``one percent``, ``one million``, ``one euro``) or ``minus``
  precedes: ``one of the``, ``no one``, ``one-off`` are not. Ordinal words (``second``, ``twenty-first``)
  are never numbers.
* List labels: one or two digits opening a line and followed by ``)``, ``.`` or ``:`` and a space (``3) The
  document ...``, ``2. Revenue ...``) number a list item, not a quantity, and are not mentions.
* Identifiers: digits glued to letters are not mentions (``COVID-19``, ``A4``, ``5G``, ``MP3``, ``N95``,
  ``TEM1V``, ``10-K``, ``3M Company``, the ticker ``NOK1V``: a unit never follows a glued currency code),
  except currency codes (``EUR74``), scale/percent/bp suffixes, units, ordinals (``3rd``, ``21st`` -> value
  3/21, kind quantity), decades (``1990s``) and period prefixes (``Q3``, ``H1``, ``FY2010``). A hyphen
  after a word makes an identifier too, except after time words (``mid-2010``).
* Temporal (one mention per numeral, since magnitude similarity is per number): a bare integer 1900-2100
  (no sign, separator, unit or currency) is a year unless a count noun follows (``2000 employees``) or an
  approximation word precedes (``about 2000``); decades; the number after ``Q``/``H``/``FY``; day numbers
  next to a month name (``March 5, 2010``, ``5 March 2010``); numeric dates (``2010-03-05``, ``05/03/2010``,
  ``28.02.2008``, ``03/2010``); clock times (``10:30``, ``09.30`` after "at", ``9 am``; am/pm stay text).
  Values are the numerals as written (``05`` -> 5.0). (``numbers.calendar`` reads whole dates as one
  mention with a longer span, which wins the overlap.)
* kinds: "monetary" (a currency is present) > "percentage" (%/bp) > "temporal" > "quantity".
* Other scripts: digits of any script (full-width ``１２３``, Arabic-Indic ``١٢٣``, Devanagari, …) read as
  their ASCII digits (``normalize_digits``); digits need no ASCII word boundary next to CJK characters
  (``营收增长12.5%至3億元`` yields 12.5 %); Chinese numerals are left to ``numbers.chinese``.
* Linear time: every regex is precompiled with bounded or unambiguous repetition, each runs once per
  position, and the written-number grammar reads each word once (100,000 characters in well under a second).
"""

from __future__ import annotations

import decimal
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from unicodedata import numeric

from .mention import NumericMention
from .normalize import normalize_digits

__all__ = ["digit_mentions", "written_mentions"]


# ---------------------------------------------------------------- lexicon
def _words(s: str) -> frozenset[str]:
    return frozenset(s.split())


_CODES = {c: c for c in _words(
    "USD EUR GBP JPY CNY SEK NOK DKK CHF RUB INR HKD AUD CAD SGD KRW PLN LVL LTL EEK ISK BRL MXN ZAR TRY NZD "
    "CZK HUF TWD THB MYR IDR PHP SAR AED ILS UAH RON"
)}
_CODES["RMB"] = "CNY"
# Lower-case codes count next to a number ("0.33 eur", "usd 5"), except those that are common words.
_LOWER_CODES = {c.lower(): v for c, v in _CODES.items()}
for _w in ("try", "php", "rub", "eek", "lvl"):
    del _LOWER_CODES[_w]
_CODES["Rs"] = "INR"
_ANY_CODE = _CODES | _LOWER_CODES
_SYMBOLS = {"$": "USD", "US$": "USD", "A$": "AUD", "C$": "CAD", "HK$": "HKD", "S$": "SGD", "€": "EUR",
            "£": "GBP", "¥": "JPY", "₹": "INR", "₩": "KRW", "₽": "RUB", "x20ac": "EUR"}
_CURRENCY_WORDS = {"euro": "EUR", "euros": "EUR", "dollar": "USD", "dollars": "USD", "yen": "JPY",
                   "yuan": "CNY", "renminbi": "CNY", "sterling": "GBP", "kronor": "SEK", "kronur": "ISK",
                   "kroner": "NOK", "krona": "SEK", "kroons": "EEK", "roubles": "RUB", "rubles": "RUB",
                   "rupees": "INR", "litas": "LTL", "lats": "LVL", "lei": "RON"}
_SCALE_EXP = {"hundred": 2, "thousand": 3, "k": 3, "million": 6, "mn": 6, "mln": 6, "mio": 6, "m": 6,
              "billion": 9, "bn": 9, "bln": 9, "b": 9, "trillion": 12, "tn": 12, "trn": 12,
              "lakh": 5, "crore": 7}
# Physical units glued to a number ("5kg", "20MW"), case-sensitive (MW megawatt, mW would be milliwatt),
# mapped to one spelling. "m" is million (a scale), never metres; "mm" is million only next to a currency.
_UNITS = {u: u for u in _words(
    "mg g kg t kt Mt Gt lb lbs oz dwt TEU mm cm km ft nm µm m2 m3 km2 m² m³ km² ha sqm sqft ml cl l bbl boe mcf "
    "gal cc W kW MW GW TW Wh kWh MWh GWh TWh kV V mAh Hz kHz MHz GHz kB KB MB GB TB PB kbps Mbps Gbps mph kph "
    "ms sec min mins h hr hrs yr yrs x °C °F ° tCO2 tCO2e ktCO2e MtCO2e"
)} | {"μm": "µm", "mw": "MW", "kw": "kW", "gw": "GW", "kwh": "kWh", "mwh": "MWh", "gwh": "GWh", "KG": "kg",
      "Kg": "kg", "KM": "km", "mL": "ml", "mt": "t", "MT": "t", "tonnes": "t", "Mbit": "Mbps"}
_MONTHS = ("January|February|March|April|May|June|July|August|September|October|November|December|"
           "Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec")
# A bare 1900-2100 integer followed by one of these counts things rather than naming a year.
_COUNT_NOUNS = _words(
    "employees people persons workers staff jobs positions personnel members units shares tonnes tons "
    "metres meters square cubic kilometres kilometers km hectares barrels cars vehicles trucks stores shops "
    "outlets restaurants customers clients users subscribers households homes apartments flats rooms beds "
    "sites locations branches companies firms machines aircraft planes ships vessels phones handsets devices "
    "pieces items products contracts patients students children copies titles kg kilograms mw megawatts "
    "points times")
# ... and of these, "1.500 employees" can only be 1500: nobody counts 1.5 employees.
_DISCRETE_NOUNS = _COUNT_NOUNS - _words(
    "tonnes tons metres meters square cubic kilometres kilometers km hectares barrels kg kilograms mw megawatts "
    "points times")
_APPROX_WORDS = _words("about approximately approx nearly almost around some roughly over than exactly")
_HYPHEN_TIME_WORDS = _words("mid end early late pre post start year fiscal calendar full")
_HYPHENS = "-‐‑–"  # hyphen-minus, U+2010 hyphen, U+2011 non-breaking hyphen, en dash
_SIGNS = "-+−–‐‑"
_SIGN_AFTER = "([{=:;,/'\"$€£¥₹₩₽"  # a sign may follow a space, these characters, or the text start
_VULGAR = {c: Fraction(numeric(c)).limit_denominator(10) for c in "¼½¾⅐⅑⅒⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞↉"}
_FRACTION_DENS = frozenset((2, 3, 4, 5, 6, 8, 10, 12, 16, 32, 64, 100))
_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad"  # zero-width space/non-joiner/joiner, word joiner, BOM, SHY
_NUMBER_WORDS = ("zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
                 "fifteen|sixteen|seventeen|eighteen|nineteen")
_TENS_W = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
_SCALES_W = "hundred|thousand|million|billion|trillion"

# ---------------------------------------------------------------- regexes
_ANY_CODE_ALT = "|".join(sorted(_ANY_CODE, key=len, reverse=True))
_SYM_ALT = "|".join(re.escape(s) for s in sorted(_SYMBOLS, key=len, reverse=True))
_CUR_WORD_ALT = "|".join(sorted(_CURRENCY_WORDS, key=len, reverse=True))
_VULGAR_CLASS = "[" + "".join(_VULGAR) + "]"
_END = r"(?![A-Za-z0-9])"  # ASCII-only boundary, so CJK neighbours never block a match

# Bounded repetition where a failed tail would make the engine retry every group: {1,6} space groups.
_CORE = re.compile(
    r"(?P<body>[0-9]{1,3}(?:[ \u00a0\u202f][0-9]{3}){1,6}(?![0-9]|[.,][0-9]{3})(?:\.[0-9]+)?"  # 2 000 / 386 328.6
    r"|[0-9]{1,3}(?:['’][0-9]{3})+(?![0-9])(?:\.[0-9]+)?"  # Swiss 1'250'000
    r"|[0-9]+(?:[.,][0-9]+)*|\.[0-9]+(?:[.,][0-9]+)*|" + _VULGAR_CLASS + r")"
    r"(?:(?<=[0-9])[ \u00a0]?(?P<vfrac>" + _VULGAR_CLASS + r"))?"  # 1½, 2 ½
    r"(?:(?P<tokfrac> \.[0-9]+)(?![0-9]|[.,][0-9]))?"  # PhraseBank "74 .8"
    r"(?:[eE](?P<exp>[-+−]?[0-9]+)(?![A-Za-z0-9])"
    r"|\s?(?:\^|\*\*)\s?(?P<pow>[-+−]?[0-9]+)"
    r"|\s?[x×]\s?10\s?(?:\^|\*\*)\s?(?P<sci>[-+−]?[0-9]+))?"
)
_GROUP_SEP = re.compile(r"[ \u00a0\u202f'’]")
_STRICT = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?|[0-9]+(?:\.[0-9]+)?|\.[0-9]+")
_EUROPEAN = re.compile(r"[0-9]{1,3}(?:\.[0-9]{3})+(?:,[0-9]+)?")  # 1.234.567,89 (single 1.234 is ambiguous)
_AMBIGUOUS = re.compile(r"[1-9][0-9]{0,2}[.,][0-9]{3}")  # 1.500 / 1,500: thousands or decimals?
_EU_FORM = re.compile(r"(?<![0-9.,])[0-9]{1,3}(?:\.[0-9]{3})+,[0-9]|(?<![0-9.,])[0-9]{1,3}(?:\.[0-9]{3}){2,}"
                      r"(?![0-9]|[.,][0-9])")
_EN_FORM = re.compile(r"(?<![0-9.,])[0-9]{1,3}(?:,[0-9]{3})+\.[0-9]|(?<![0-9.,])[0-9]{1,3}(?:,[0-9]{3}){2,}"
                      r"(?![0-9]|[.,][0-9])")
_DECIMAL_COMMA = re.compile(r"[0-9]+,[0-9]{1,2}")  # "37,7", "5,19 per cent": never a thousands group
_FRACTION = re.compile(r"(?:(?P<whole>[0-9]{1,3})[ \u00a0])?(?P<num>[0-9]{1,2})/(?P<den>[0-9]{1,3})"
                       r"(?![0-9/]|[.,][0-9])")
_WORD_BEFORE = re.compile(r"([A-Za-z$]+)\Z")
_ALNUM_RUN = re.compile(r"[A-Za-z0-9]*(?: \.[0-9]+)?")
_PERIOD_PREFIX = re.compile(r"(?<![A-Za-z])(?:(?P<q>[QH])|FY ?)\Z")
_PREFIX_CUR = re.compile(rf"(?:(?<![A-Za-z0-9])(?P<code>{_ANY_CODE_ALT}|x20ac|[Ee]uro)|(?P<sym>{_SYM_ALT}))"
                         r"\s?\Z")
_SUFFIX = re.compile(r"[A-Za-zµμ°][A-Za-z0-9µμ°²³]*")  # the letters glued after a number: "kg", "M", "th"
_LABEL_BEFORE = re.compile(  # "Phase 2B", "Item 1B", "Rule 10b": a glued letter after a label is no scale
    r"(?<![A-Za-z])(?i:phase|tier|class|series|type|stage|level|grade|form|schedule|item|note|part|section|rule"
    r"|article|chapter|figure|fig|table|appendix|exhibit|model|version|room|gate|route|block|building|floor"
    r"|zone|lot|round)\.?\s\Z")
_COMPANY_AFTER = re.compile(  # "3M Company", "3M's"
    r"['’]s(?![A-Za-z])|\s+(?:Company|Co|Corp|Corporation|Inc|Ltd|plc|PLC|Group|AG|SA|NV)(?![A-Za-z])")
_PERCENT = r"[%％]|(?i:per\s?cent|percent(?:age)?(?:\s+points?)?|pct)\b|pc\b"
_BP = r"(?i:basis\s+points?|bps?)\b"
_SCALE_WORD = r"(?i:hundred|thousand|million|billion|trillion|mn|mln|mio|bn|bln|tn|trn|lakh|crore)\b"
_UNIT_AFTER = re.compile(
    rf"\s?(?:(?P<pct>{_PERCENT})|(?P<bp>{_BP})|(?P<scale>{_SCALE_WORD})|(?P<letter>[kmbKMB]){_END})")
_CUR_AFTER = re.compile(rf"\s?(?:(?P<code>{_ANY_CODE_ALT})|(?P<word>(?i:{_CUR_WORD_ALT})))" + _END)
_PCT_AFTER_SCALE = re.compile(rf"\s?(?:(?P<pct>{_PERCENT})|(?P<bp>{_BP}))")
_RANGE_BEFORE = re.compile(r"[0-9%]\s+[-–‐‑]\s?\Z|[0-9%]\s?[–‐‑]\s?\Z")
_MINUS_WORD = re.compile(r"(?<![A-Za-z])(?i:minus)\s+\Z")
_OPERAND_BEFORE = re.compile(  # "10 minus 3", "five minus two": a binary minus, not a sign
    rf"(?:[0-9%)]|(?<![A-Za-z])(?i:{_NUMBER_WORDS}|{_TENS_W}|{_SCALES_W}|percent))\s*\Z")
_FORM_CODE = re.compile(r"[-–][A-Z](?![A-Za-z0-9])")  # SEC forms 10-K, 8-K, 20-F are identifiers
_PREV_WORD = re.compile(r"([A-Za-z]+)[\s,]*\Z")
_NEXT_WORD = re.compile(r"\s([A-Za-z]+)")
_MONTH_BEFORE = re.compile(rf"(?<![A-Za-z])(?:{_MONTHS})\.?\s\Z")
_MONTH_AFTER = re.compile(rf"(?:st|nd|rd|th)?\s(?:of\s)?(?:{_MONTHS})\b")
_AMPM_AFTER = re.compile(r"\s?(?i:a\.m\.|p\.m\.|am\b|pm\b)")
_AT_BEFORE = re.compile(r"(?<![A-Za-z])(?i:at)\s\Z")
_DATE = re.compile(
    r"(?P<a>[0-9]{4})-(?P<b>[0-9]{1,2})-(?P<c>[0-9]{1,2})(?![0-9])"  # ISO
    r"|(?P<d>[0-9]{1,4})(?P<sep>[./-])(?P<e>[0-9]{1,2})(?P=sep)(?P<f>[0-9]{4}|[0-9]{2})(?![0-9]|\.[0-9])"
    r"|(?P<g>[0-9]{1,2})/(?P<h>[0-9]{4})(?![0-9])"  # 03/2010
    r"|(?P<hh>[01]?[0-9]|2[0-3]):(?P<mm>[0-5][0-9])(?::(?P<ss>[0-5][0-9]))?(?![0-9])"  # 10:30
)
_DOT_TIME = re.compile(r"(?P<hh>[01][0-9]|2[0-3]|[0-9])\.(?P<mm>[0-5][0-9])(?![0-9])")
_INVISIBLE_RE = re.compile(f"[{_INVISIBLE}]")

# A run of number words; _parse_written splits it into numbers. Longest alternatives first (eighty before
# eight), so the engine never backtracks across words.
_TEENS_W = "eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen"
_NUMWORD = rf"(?:{_TENS_W}|{_TEENS_W}|{_NUMBER_WORDS}|{_SCALES_W})"
_WRITTEN = re.compile(
    rf"(?i)(?<![A-Za-z])(?:a\s+(?={_SCALES_W}))?{_NUMWORD}(?:(?:\s+and\s+|[\s-]+){_NUMWORD})*(?![A-Za-z])"
)
_ORDINAL_TAIL = re.compile(r"-(?i:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)\b")
_WORD_RE = re.compile(r"[A-Za-z]+")
# word -> (category, value): u 1-9, t 10-19, z zero, x tens, h hundred, s thousand and up, & "and", a "a"
_W = ({w: ("u", i) for i, w in enumerate(_NUMBER_WORDS.split("|")[1:10], 1)}
      | {w: ("t", i) for i, w in enumerate(_NUMBER_WORDS.split("|")[10:], 10)}
      | {w: ("x", 10 * i) for i, w in enumerate(_TENS_W.split("|"), 2)}
      | {"zero": ("z", 0), "hundred": ("h", 100), "thousand": ("s", 10**3), "million": ("s", 10**6),
         "billion": ("s", 10**9), "trillion": ("s", 10**12), "and": ("&", 0), "a": ("a", 1)})

_DEC_CTX = decimal.Context(prec=60, Emax=10**6, Emin=-(10**6),
                           traps=[decimal.Overflow, decimal.InvalidOperation])


@dataclass
class _Cand:
    """A mention under construction (the digit pass needs the scale for range propagation)."""

    start: int
    end: int
    number: Decimal | None
    kind: str
    unit: str | None
    exp: int = 0
    negative: bool = False
    error: str | None = None


# ---------------------------------------------------------------- helpers
def _to_float(number: Decimal | None, exp: int, negative: bool, raw: str) -> tuple[float | None, str | None]:
    if number is None:
        return None, None
    try:
        d = _DEC_CTX.multiply(number, _DEC_CTX.power(Decimal(10), exp)) if exp else number
    except (decimal.Overflow, decimal.InvalidOperation):
        return None, f"{raw!r} is out of range"
    value = float(-d if negative else d)
    if not math.isfinite(value):
        return None, f"{raw!r} overflows a float"
    if value == 0.0 and d != 0:
        return None, f"{raw!r} underflows a float"
    return value, None


def _frac(f: Fraction) -> Decimal:
    return _DEC_CTX.divide(Decimal(f.numerator), Decimal(f.denominator))


def _parse_body(m: re.Match[str], text: str, conv: list[str | None]) -> tuple[Decimal | None, int, str | None]:
    """Decimal mantissa, power-of-ten exponent, error; the power form ``b^p`` is folded into the mantissa."""
    body = m["body"]
    if body.isdigit() and m.end() == m.end("body"):  # the common case: a plain integer
        return Decimal(body), 0, None
    if body in _VULGAR:
        return _frac(_VULGAR[body]), 0, None
    if _GROUP_SEP.search(body):
        body = _GROUP_SEP.sub("", body)
    elif m["tokfrac"]:
        body += m["tokfrac"].strip()
    if _DECIMAL_COMMA.fullmatch(body):
        body = body.replace(",", ".")
    elif not m["tokfrac"] and _AMBIGUOUS.fullmatch(body):
        body, error = _ambiguous(body, text, m.end(), conv)
        if error:
            return None, 0, error
    elif _STRICT.fullmatch(body):
        body = body.replace(",", "")
    elif _EUROPEAN.fullmatch(body):
        body = body.replace(".", "").replace(",", ".")
    else:
        why = "digit groups are not thousands separators" if "," in body else "more than one decimal point"
        return None, 0, f"malformed number {m.group()!r}: {why}"
    mantissa = Decimal(body)
    if m["vfrac"]:
        if not body.isdigit():
            return None, 0, f"malformed number {m.group()!r}: a fraction after a decimal"
        mantissa += _frac(_VULGAR[m["vfrac"]])
    exp = 0
    for grp in ("exp", "sci"):
        if m[grp] is not None:
            raw = m[grp].replace("−", "-")
            if len(raw.lstrip("+-")) > 7:
                return None, 0, f"{m.group()!r} is out of range"
            exp = int(raw)
    if m["pow"] is not None:
        raw = m["pow"].replace("−", "-")
        try:
            if len(raw.lstrip("+-")) > 7:
                raise decimal.Overflow
            mantissa = _DEC_CTX.power(mantissa, int(raw))
        except (decimal.Overflow, decimal.InvalidOperation, ZeroDivisionError):
            return None, 0, f"{m.group()!r} is out of range"
    return mantissa, exp, None


def _ambiguous(body: str, text: str, end: int, conv: list[str | None]) -> tuple[str, str | None]:
    """``1.500`` / ``1,500`` as a Python number string: the text's own convention decides, then the noun."""
    if not conv:  # computed once per text, on the first ambiguous number
        eu, en = _EU_FORM.search(text) is not None, _EN_FORM.search(text) is not None
        conv.append("mixed" if eu and en else "eu" if eu else "en" if en else None)
    if conv[0] == "mixed":
        return body, f"ambiguous grouping {body!r}: the text writes numbers both as 1,234.5 and as 1.234,5"
    if body[-4] == ",":
        return body.replace(",", "." if conv[0] == "eu" else ""), None
    if conv[0] == "eu":
        return body.replace(".", ""), None
    if conv[0] is None:
        nxt = _NEXT_WORD.match(text, end)
        # "1.500 employees": a count written with a trailing zero; "714.369 people" stays a decimal
        if nxt and nxt.group(1).lower() in _DISCRETE_NOUNS and body.endswith("0"):
            return body.replace(".", ""), None
    return body, None


def _is_letter(ch: str) -> bool:
    # Latin/Greek/Cyrillic letters glue an identifier; CJK and kana do not (they have no spaces).
    return ch.isalpha() and ord(ch) < 0x2E80


def _sign(text: str, start: int) -> tuple[bool, int] | None:
    """(negative, sign start) for a sign right before ``start``: ``-5``, ``–5``, ``−5``, ``+5``, ``minus 5``;
    None for a range hyphen (``5 - 10``), a binary minus (``10 minus 3``) or no sign."""
    ch = text[start - 1] if start else ""
    if ch and ch in _SIGNS:
        before = text[start - 2] if start >= 2 else " "
        if (before.isspace() or before in _SIGN_AFTER) and not _RANGE_BEFORE.search(text, max(0, start - 4), start):
            return ch != "+", start - 1
    elif ch.isspace() and start >= 6 and text[start - 2] in "sS\t \u00a0":
        word = _MINUS_WORD.search(text, max(0, start - 12), start)
        if word and not _OPERAND_BEFORE.search(text, max(0, word.start() - 12), word.start()):
            return True, word.start()
    return None


def _cur_before(text: str, start: int) -> bool:
    """Whether a currency may end right before ``start`` (a cheap test before ``_PREFIX_CUR``)."""
    ch = text[start - 1] if start else ""
    if ch.isspace() and start >= 2:
        ch = text[start - 2]
    return ch.isalpha() or ch in "$€£¥₹₩₽"


def _currency(c: re.Match[str]) -> str:
    code = c["code"] or ""
    return _ANY_CODE.get(code) or _SYMBOLS.get(c["sym"] or code, "EUR")


def _temporal_integer(text: str, s: int, e: int, value: int) -> bool:
    """A bare integer that is a year, a day next to a month name, or an hour before am/pm."""
    if e - s == 4 and 1900 <= value <= 2100:
        return _year_context(text, s, e)
    # cheap character checks first: most integers have no month name or am/pm next to them
    after = text[e:e + 2].lstrip()[:1]
    if 1 <= value <= 31:
        before = text[s - 2] if s >= 2 else ""
        if (before.isalpha() or before == ".") and _MONTH_BEFORE.search(
                text, max(0, s - 11), s):
            return True
        if after.isalpha() and _MONTH_AFTER.match(text, e):
            return True
    return 1 <= value <= 12 and after in ("a", "p", "A", "P") and _AMPM_AFTER.match(text, e) is not None


def _year_context(text: str, start: int, end: int) -> bool:
    nxt = _NEXT_WORD.match(text, end)
    if nxt and nxt.group(1).lower() in _COUNT_NOUNS:
        return False
    prev = _PREV_WORD.search(text, max(0, start - 20), start)
    return not (prev and prev.group(1).lower() in _APPROX_WORDS)


# ---------------------------------------------------------------- digit pass
def _digit_candidates(text: str) -> list[_Cand]:
    out: list[_Cand] = []
    conv: list[str | None] = []  # the text's grouping convention, filled on first need
    pos = 0
    n = len(text)
    while pos < n:
        m = _CORE.search(text, pos)
        if m is None:
            break
        s, e = m.start(), m.end()
        pos = e
        prev = text[s - 1] if s else ""
        period = False
        start = s
        cur: str | None = None
        if _is_letter(prev) or prev == "_":
            word = _WORD_BEFORE.search(text, max(0, s - 8), s)
            w = word.group(1) if word else ""
            whole = word is not None and not (word.start() and _is_letter(text[word.start() - 1]))
            if whole and (w in _CODES or w.lower() == "euro" or w == "x20ac"):
                cur, start = _CODES.get(w, "EUR"), word.start()
            elif _PERIOD_PREFIX.search(text, max(0, s - 4), s) and m.group().isdigit():
                period = True
            else:  # identifier: skip the whole glued token
                pos = _ALNUM_RUN.match(text, e).end()
                continue
        elif prev and prev in _HYPHENS and s >= 2 and _is_letter(text[s - 2]):
            word = _PREV_WORD.search(text, max(0, s - 12), s - 1)
            # "mid-2010" is a date and "mln-42 .3 mln" a range; "COVID-19" and "A-380" are identifiers
            if not (word and (word.group(1).lower() in _HYPHEN_TIME_WORDS or word.group(1) in _SCALE_EXP
                              or word.group(1) in ("pct", "pc", "percent", "bp", "bps"))):
                pos = _ALNUM_RUN.match(text, e).end()
                continue
        elif prev.isdigit() or prev in _VULGAR:  # e.g. the tail of a rejected token; "½½" is no number
            continue

        plain = m.group().isdigit()
        if plain and _list_label(text, s, e):
            continue
        # numeric dates and clock times: one temporal mention per numeral
        date = (_DATE.match(text, s) if not period and cur is None
                and (text[e:e + 1] in ("/", "-", ":", ".") or "." in m.group()) else None)
        if date and _valid_date(date):
            for grp in ("a", "b", "c", "d", "e", "f", "g", "h", "hh", "mm", "ss"):
                if date[grp] is not None:
                    gs, ge = date.span(grp)
                    out.append(_Cand(gs, ge, Decimal(date[grp]), "temporal", None))
            pos = date.end()
            continue
        if s >= 3 and text[s - 2] in "tT" and _AT_BEFORE.search(text, max(0, s - 4), s):
            dot = _DOT_TIME.fullmatch(text, s, e)
            if dot and not _CUR_AFTER.match(text, e) and not _UNIT_AFTER.match(text, e):
                for grp in ("hh", "mm"):
                    out.append(_Cand(*dot.span(grp), Decimal(dot[grp]), "temporal", None))
                continue

        # fractions: 1/2, 2 1/2 (proper, with a usual denominator: 9/11 and 24/7 stay two numbers)
        frac = None
        if plain and not period and e + 1 < n and (text[e] == "/" or (text[e] in " \u00a0" and text[e + 1].isdigit())):
            frac = _FRACTION.match(text, s)
            if frac and not (0 < int(frac["num"]) < int(frac["den"]) and int(frac["den"]) in _FRACTION_DENS):
                frac = None
        if frac:
            number: Decimal | None = _frac(Fraction(int(frac["num"]), int(frac["den"])) + int(frac["whole"] or 0))
            exp, error, e, plain = 0, None, frac.end(), False
            pos = e
        else:
            number, exp, error = _parse_body(m, text, conv)
        has_fraction = "." in m.group() or m["vfrac"] is not None or frac is not None

        negative = False
        if cur is None:
            sign = _sign(text, start)
            if sign:
                negative, start = sign
            c = _PREFIX_CUR.search(text, max(0, start - 7), start) if _cur_before(text, start) else None
            if c:
                cur, start = _currency(c), c.start()
                if not negative and (sign := _sign(text, start)):
                    negative, start = sign

        unit: str | None = None  # "%", "bp" or a physical unit; the currency is `cur`
        end = e
        tok = _SUFFIX.match(text, e) if e < n and (text[e].isalpha() or text[e] == "°") else None
        if tok and not _AMPM_AFTER.match(text, e):
            suf = tok.group()
            low = suf.lower()
            if low in ("percent", "pct", "pc"):
                unit = "%"
            elif low in ("bp", "bps"):
                unit = "bp"
            elif (low in _SCALE_EXP or suf == "MM" or (suf == "mm" and cur)) and not (
                    len(suf) == 1 and plain and (
                        _LABEL_BEFORE.search(text, max(0, start - 12), start)
                        or (suf.isupper() and (_COMPANY_AFTER.match(text, tok.end())
                                               or (e - s == 4 and 1900 <= int(m.group()) <= 2100))))):
                exp += _SCALE_EXP.get(low, 6)
            elif low in ("st", "nd", "rd", "th") and plain and cur is None and not negative:
                if _MONTH_BEFORE.search(text, max(0, s - 11), s) or _MONTH_AFTER.match(text, tok.end()):
                    period = True
            elif suf == "s" and plain and cur is None and (
                    (len(m["body"]) == 4 and 1000 <= int(m["body"]) <= 2100)
                    or (len(m["body"]) == 2 and m["body"].endswith("0"))):
                period = True
            elif suf in _UNITS and cur is None:  # "NOK1V" (a ticker) is no volt
                unit = _UNITS[suf]
            elif suf in _ANY_CODE and cur is None:
                cur = _ANY_CODE[suf]
            else:  # "5G", "MP3" (the digit is glued to letters): an identifier
                pos = _ALNUM_RUN.match(text, e).end()
                continue
            end = tok.end()
        elif e < n and ((_is_letter(text[e]) and not _AMPM_AFTER.match(text, e))
                        or (text[e] in "-–" and _FORM_CODE.match(text, e))):
            pos = _ALNUM_RUN.match(text, e).end()
            continue
        elif (nxt := text[e:e + 2].lstrip()[:1]).isalpha() or nxt in ("%", "％"):
            after = _UNIT_AFTER.match(text, e)
            # a spaced single letter (k/m/b) is a scale only next to a currency: "5 m" is usually metres
            if after and (after["letter"] is None or cur is not None):
                end = after.end()
                if after["pct"] or after["bp"]:
                    unit = "%" if after["pct"] else "bp"
                else:
                    exp += _SCALE_EXP[(after["scale"] or after["letter"]).lower()]
                    pct = _PCT_AFTER_SCALE.match(text, end)  # rare "5 million %": still a percentage
                    if pct:
                        unit, end = "%" if pct["pct"] else "bp", pct.end()
        if cur is None and unit is None and text[end:end + 2].lstrip()[:1].isalpha() and (
                cur_after := _CUR_AFTER.match(text, end)):
            cur = _currency(cur_after) if cur_after["code"] else _CURRENCY_WORDS[cur_after["word"].lower()]
            end = cur_after.end()

        # accounting negatives: tight parentheses around the mention; a currency before them or a scale,
        # percent or currency after them joins the mention ("EUR (1.2) million"). After another amount
        # they hold the prior-period comparative ("EUR 1.2bn (EUR 1.1bn)"), not a negative.
        if (not negative and unit not in ("%", "bp") and start and end < n and text[start - 1] == "("
                and text[end] == ")"
                and not (out and out[-1].kind != "temporal" and start - 1 - out[-1].end <= 3
                         and text[out[-1].end:start - 1].isspace())):
            lp, rp = start - 1, end + 1
            if cur is None and _cur_before(text, lp) and (c := _PREFIX_CUR.search(text, max(0, lp - 7), lp)):
                cur, lp = _currency(c), c.start()
            nxt = text[rp:rp + 2].lstrip()[:1]
            if (unit is None and (nxt.isalpha() or nxt in ("%", "％")) and (after := _UNIT_AFTER.match(text, rp))
                    and (after["letter"] is None or cur) and (after["pct"] or after["bp"] or exp == 0)):
                rp = after.end()
                if after["pct"] or after["bp"]:
                    unit = "%" if after["pct"] else "bp"
                else:
                    exp = _SCALE_EXP[(after["scale"] or after["letter"]).lower()]
            if cur is None and unit is None and nxt.isalpha() and (cur_after := _CUR_AFTER.match(text, rp)):
                cur = _currency(cur_after) if cur_after["code"] else _CURRENCY_WORDS[cur_after["word"].lower()]
                rp = cur_after.end()
            if (lp, rp) != (start - 1, end + 1):
                negative, start, end = True, lp, rp
            elif not frac and ("," in m["body"] or has_fraction or cur):  # "(1)" is a list label
                negative = True

        kind = "monetary" if cur else "percentage" if unit in ("%", "bp") else "quantity"
        if kind == "quantity" and (period or (
                plain and len(m.group()) <= 4 and end == e and not negative and unit is None
                and _temporal_integer(text, s, e, int(m.group())))):
            kind = "temporal"
        cand = _Cand(start, end, number, kind, cur or unit, exp, negative, error)
        if out and start - out[-1].end <= 3:
            _propagate_range(text, out[-1], cand)
        out.append(cand)
        pos = max(pos, end)
    return out


def _list_label(text: str, start: int, end: int) -> bool:
    """"3) The document ...", "2. Revenue ...": one or two digits opening a line, then ")" or "." and a space."""
    line = text.rfind("\n", 0, start) + 1
    return (end - start <= 2 and not text[line:start].strip() and text[end:end + 1] in ").:"
            and text[end + 1:end + 2].isspace())


def _valid_date(d: re.Match[str]) -> bool:
    if d["a"]:
        return 1 <= int(d["b"]) <= 12 and 1 <= int(d["c"]) <= 31
    if d["d"]:
        a, b, c = int(d["d"]), int(d["e"]), d["f"]
        if len(d["d"]) == 4:  # 2010/03/05
            return 1 <= b <= 12 and 1 <= int(c) <= 31 and len(c) == 2
        return ((1 <= a <= 31 and 1 <= b <= 12) or (1 <= a <= 12 and 1 <= b <= 31)) and (
            len(c) == 4 or d["sep"] != ".")
    if d["g"]:
        return 1 <= int(d["g"]) <= 12 and 1900 <= int(d["h"]) <= 2100
    return True  # hh:mm is validated by the regex itself


def _propagate_range(text: str, a: _Cand, b: _Cand) -> None:
    """``5-10%`` / ``EUR 0.8-1 .2 billion``: the first number shares the second's unit and scale."""
    gap = text[a.end:b.start]
    if len(gap) > 3 or gap.strip() not in ("-", "–", "‐", "‑"):
        return
    if (a.kind == "temporal") != (b.kind == "temporal"):  # "1-9/2007", "5-10 March": both ends are dates
        other = b if a.kind == "temporal" else a
        if other.kind == "quantity" and other.unit is None and other.exp == 0 and not other.negative:
            other.kind = "temporal"
        return
    if a.kind == "temporal":
        return
    if a.unit is None and b.unit is not None:
        a.unit, a.kind = b.unit, b.kind
    elif b.unit is None and a.kind == "monetary":  # "EUR 0.8-1 .2 billion": both are EUR
        b.unit, b.kind = a.unit, a.kind
    if a.exp == 0 and b.exp:
        a.exp = b.exp


# ---------------------------------------------------------------- written numbers
def _written_candidates(text: str) -> list[_Cand]:
    out: list[_Cand] = []
    for m in _WRITTEN.finditer(text):
        phrases = _parse_written(text, m)
        if phrases and phrases[-1][1] == m.end() and _ORDINAL_TAIL.match(text, m.end()):
            phrases.pop()  # "twenty-first" is an ordinal
        for start, end, value in phrases:
            unit: str | None = None
            kind = "quantity"
            after = _PCT_AFTER_SCALE.match(text, end)
            cur = None if after else _CUR_AFTER.match(text, end)
            if after:
                kind, unit, end = "percentage", "%" if after["pct"] else "bp", after.end()
            elif cur:
                unit = _currency(cur) if cur["code"] else _CURRENCY_WORDS[cur["word"].lower()]
                kind, end = "monetary", cur.end()
            sign = _sign(text, start)
            negative = sign is not None and text[sign[1]] in "mM"  # "minus five"; "-five" is rare, left alone
            if negative:
                start = sign[1]
            elif unit is None and text[start:end].lower() == "one":
                continue  # lone "one" is a pronoun or article ("one of the") unless a unit follows
            before = _PREFIX_CUR.search(text, max(0, start - 7), start) if unit is None else None
            if before:
                unit, kind, start = _currency(before), "monetary", before.start()
            out.append(_Cand(start, end, Decimal(value), kind, unit, negative=negative))
    return out


class _Phrase:
    """A written number read left to right: ``total`` (closed scale groups) + ``hundreds`` + ``small``."""

    __slots__ = ("amp", "end", "hundreds", "last", "small", "start", "top", "total")

    def __init__(self, start: int, end: int, cat: str, value: int) -> None:
        self.start, self.end, self.last, self.amp = start, end, cat, False
        self.total = self.hundreds = self.top = 0  # top: the last scale word; scales must decrease
        self.small = value

    def add(self, cat: str, value: int, end: int) -> bool:
        """Take the next word if the phrase stays a number; False ends the phrase before it (and a pending
        "and")."""
        last = self.last
        if cat in "utx" and (self.amp or last in "hs" or (cat == "u" and last == "x")):
            self.small = self.small + value if last == "x" else value
        elif self.amp:
            return False
        elif cat == "h" and last in "utxa" and not self.hundreds and (self.small < 10 or not self.top):  # 1900
            self.hundreds, self.small = self.small * 100, 0
        elif cat == "s" and last in "utxha" and (not self.top or value < self.top):
            self.total += (self.hundreds + self.small) * value
            self.hundreds = self.small = 0
            self.top = value
        elif cat == "s" and last == "s" and value > self.top and self.total < value:  # "two thousand million"
            self.total *= value
            self.top = value
        elif cat == "&" and last in "hs":
            self.amp = True
            return True
        else:
            return False
        self.last, self.end, self.amp = cat, end, False
        return True

    def result(self) -> tuple[int, int, int] | None:
        return None if self.last == "a" else (self.start, self.end, self.total + self.hundreds + self.small)


def _parse_written(text: str, m: re.Match[str]) -> list[tuple[int, int, int]]:
    """Split a run of number words into the longest numbers, left to right in one pass: (start, end, value).
    A phrase starts with a digit word, a tens word, zero or "a" (``a hundred``); a bare scale word
    (``several hundred``) is not a number."""
    out: list[tuple[int, int, int]] = []
    phrase: _Phrase | None = None
    for w in _WORD_RE.finditer(text, m.start(), m.end()):
        cat, value = _W[w.group().lower()]
        if phrase is not None and phrase.add(cat, value, w.end()):
            continue
        if phrase is not None and (res := phrase.result()):
            out.append(res)
        phrase = _Phrase(w.start(), w.end(), cat, value) if cat in "utxza" else None
    if phrase is not None and (res := phrase.result()):
        out.append(res)
    return out


# ---------------------------------------------------------------- public API
def _prepare(text: str) -> tuple[str, list[int] | None]:
    """The text the passes read: digits normalised (one for one) and invisible characters removed; with the
    position in ``text`` of each kept character when some were removed."""
    work = normalize_digits(text)
    if not _INVISIBLE_RE.search(work):
        return work, None
    keep = [i for i, ch in enumerate(work) if ch not in _INVISIBLE]
    return "".join(work[i] for i in keep), keep


def _read(text: str, candidates: Callable[[str], list[_Cand]]) -> list[NumericMention]:
    work, keep = _prepare(text)
    out = []
    for c in candidates(work):
        if keep is not None:  # spans back to the input: "5\u200b000" is one mention over all five characters
            c.start, c.end = keep[c.start], keep[c.end - 1] + 1
        out.append(_finish(text, c))
    return out


def digit_mentions(text: str) -> list[NumericMention]:
    """Mentions written with digits, in text order (rules: module doc)."""
    return _read(text, _digit_candidates)


def written_mentions(text: str) -> list[NumericMention]:
    """Mentions written as English words (``twenty-four``, ``a hundred``), in text order."""
    return _read(text, _written_candidates)


def _finish(text: str, c: _Cand) -> NumericMention:
    raw = text[c.start:c.end]
    value, error = _to_float(c.number, c.exp, c.negative, raw)
    return NumericMention(raw, c.start, c.end, value, c.kind, c.unit, c.error or error)
