"""The English/financial reader: numeric mentions written with digits or as English words.

``digit_mentions(text)`` is one left-to-right pass with precompiled regexes over digit tokens;
``written_mentions(text)`` is one over written English numbers. Their candidates may overlap each other
(and the Chinese reader's); ``numbers.extract.extract_numbers`` runs them and resolves overlaps with
``mention.resolve_overlaps`` ("longest span wins"; ties: earlier start, then the digit reading).

Rules (each one is tested in tests/unit/test_numbers.py):

* Span: ``text[start:end] == mention.text`` and covers currency + sign + number + scale + unit
  (``"EUR 205.5 mn"``, ``"$5k"``, ``"5.2 %"``, ``"25 bps"``, ``"2.5 mln euro"``): the whole span is masked.
* Value: a finite float with the scale applied (``EUR 205.5 mn`` -> 205500000.0, computed in ``Decimal`` so
  ``1.1 mn`` is exactly 1100000.0); percentages and basis points keep their own number (``5.2 %`` -> 5.2,
  ``25 bps`` -> 25.0). Never NaN/inf: malformed tokens (``1.2.3``, ``1,23,4``), overflow (``1e400``, a
  400-digit integer) and underflow (``1e-400``) are still mentions, with ``value=None`` and ``error`` saying
  why, so they are masked, never aligned, and reported.
* Numbers: integers, decimals, leading-dot decimals (``.26``), thousands separators (``3,035``,
  ``1,234,567.89``, and a single space between 3-digit groups as in ``2 000 people``), scientific and power
  forms (``1.5e-30``, ``10^30``, ``10**6``, ``1.5 x 10^6``), the Financial PhraseBank tokenisation
  ``74 .8`` (an integer, one space, a leading-dot fraction = one decimal, 74.8), and a decimal comma when one
  comma is followed by one or two digits (``37,7 mn``, ``5,19 per cent``; three digits are a thousands group).
  Two-comma groupings that are not thousands (``1,23,4``) and several points (``1.2.3``) are malformed.
  Fractions (``3/4``) are two numbers; Indian scales ``lakh``/``crore`` and ``Rs`` (INR) are read.
* Signs: ``-``, ``+``, ``−`` count as a sign only where they cannot be a range hyphen, i.e. not right after a
  digit or letter: ``2009-2010`` and ``5-10%`` are two mentions each. In a hyphen range the first number takes
  the second's unit, currency and scale when it has none (``5-10%`` -> 5 % and 10 %).
* Accounting negatives: ``(1.2)``, ``(1,234)``, ``($1.2m)`` are negative when the tight parentheses hold just
  the mention and it is an amount (decimal point, thousands separator or currency). ``(1)`` is a list label,
  ``(2009)`` a year, ``(5 %)`` a percentage; Financial PhraseBank's spaced ``( EUR 3.1 mn )`` gives the
  prior-period figure, not a negative, so spaced parentheses never negate.
* Scale: ``thousand``/``k``, ``million``/``mn``/``mln``/``mio``/``m``, ``billion``/``bn``/``bln``/``b``,
  ``trillion``/``tn``/``trn``, ``hundred``. Glued lowercase ``k``/``m``/``b`` always scale (``3.2m``); glued
  upper case (``3.2M``) only on a decimal or with a currency (``3M``, ``5K`` stay identifiers); a *spaced*
  single letter (``EUR74 .8 m``) only with a currency, since ``5 m`` is usually metres.
* Percent: ``%``, ``percent``, ``per cent``, ``pct``, ``pc``, ``percentage`` (EmbedNum's ``8 percentage``),
  ``percentage point(s)`` -> unit ``"%"``; ``bp``/``bps``/``basis point(s)`` -> unit ``"bp"``.
* Currency: symbols (``$``->USD, ``US$``, ``€``->EUR, ``£``->GBP, ``¥``->JPY (also the yuan's sign; JPY is
  its common reading in English text), ``₹``, ``₩``, ``₽``, ``A$``, ``C$``, ``HK$``, ``S$``), ISO codes
  before or after the number, glued or spaced (``EUR74``, ``USD 1.3 bn``, ``5 EUR``), ``RMB``->CNY, the
  words euro(s), dollar(s)->USD, yen, yuan, renminbi, sterling, kronor/kronur/kroner/krona/kroons, roubles/
  rubles, rupees, litas, lats, lei after the number (``mln euro``), ``euro`` glued before it (``euro3 .33``),
  and ``x20ac``, Financial PhraseBank's broken rendering of ``€``.
* Written numbers (text2num): ``twenty-four``, ``two hundred and five``, ``three million``, ``a hundred``.
  A lone ``one`` is a number only when a unit follows (``one percent``, ``one million``, ``one euro``):
  ``one of the``, ``no one``, ``one-off`` are not. Ordinal words (``second``) are never numbers.
* Identifiers: digits glued to letters are not mentions (``COVID-19``, ``A4``, ``3G``, ``MP3``, ``N95``,
  ``TEM1V``, ``10-K``, ``800dwt``), except currency codes (``EUR74``), scale/percent/bp suffixes, ordinals
  (``3rd``, ``21st`` -> value 3/21, kind quantity), decades (``1990s``) and period prefixes (``Q3``, ``H1``,
  ``FY2010``). A hyphen after a word makes an identifier too, except after time words (``mid-2010``).
* Temporal (one mention per numeral, since magnitude similarity is per number): a bare integer 1900-2100
  (no sign, separator, unit or currency) is a year unless a count noun follows (``2000 employees``) or an
  approximation word precedes (``about 2000``); decades; the number after ``Q``/``H``/``FY``; day numbers
  next to a month name (``March 5, 2010``, ``5 March 2010``); numeric dates (``2010-03-05``, ``05/03/2010``,
  ``28.02.2008``, ``03/2010``); clock times (``10:30``, ``09.30`` after "at", ``9 am``; am/pm stay text).
  Values are the numerals as written (``05`` -> 5.0).
* kinds: "monetary" (a currency is present) > "percentage" (%/bp) > "temporal" > "quantity".
* Chinese: digits need no ASCII word boundary next to CJK characters (``营收增长12.5%至3億元`` yields 12.5 %);
  full-width digits and Chinese numerals are left to ``numbers.chinese``, which ``extract_numbers`` also runs
  on text containing CJK characters.
"""

from __future__ import annotations

import decimal
import math
import re
from dataclasses import dataclass
from decimal import Decimal

from text_to_num import text2num

from .mention import NumericMention

__all__ = ["digit_mentions", "written_mentions"]


# ---------------------------------------------------------------- lexicon
def _words(s: str) -> frozenset[str]:
    return frozenset(s.split())


_CODES = {c: c for c in _words(
    "USD EUR GBP JPY CNY SEK NOK DKK CHF RUB INR HKD AUD CAD SGD KRW PLN LVL LTL EEK ISK BRL MXN ZAR TRY NZD "
    "CZK HUF TWD THB MYR IDR PHP SAR AED ILS UAH RON"
)}
_CODES["RMB"] = "CNY"
_CODES["Rs"] = "INR"
_SYMBOLS = {"$": "USD", "US$": "USD", "A$": "AUD", "C$": "CAD", "HK$": "HKD", "S$": "SGD", "€": "EUR",
            "£": "GBP", "¥": "JPY", "₹": "INR", "₩": "KRW", "₽": "RUB", "x20ac": "EUR"}
_CURRENCY_WORDS = {"euro": "EUR", "euros": "EUR", "dollar": "USD", "dollars": "USD", "yen": "JPY",
                   "yuan": "CNY", "renminbi": "CNY", "sterling": "GBP", "kronor": "SEK", "kronur": "ISK",
                   "kroner": "NOK", "krona": "SEK", "kroons": "EEK", "roubles": "RUB", "rubles": "RUB",
                   "rupees": "INR", "litas": "LTL", "lats": "LVL", "lei": "RON"}
_SCALE_EXP = {"hundred": 2, "thousand": 3, "k": 3, "million": 6, "mn": 6, "mln": 6, "mio": 6, "m": 6,
              "billion": 9, "bn": 9, "bln": 9, "b": 9, "trillion": 12, "tn": 12, "trn": 12,
              "lakh": 5, "crore": 7}
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
_APPROX_WORDS = _words("about approximately approx nearly almost around some roughly over than exactly")
_HYPHEN_TIME_WORDS = _words("mid end early late pre post start year fiscal calendar full")

# ---------------------------------------------------------------- regexes
_CODE_ALT = "|".join(sorted(_CODES, key=len, reverse=True))
_SYM_ALT = "|".join(re.escape(s) for s in sorted(_SYMBOLS, key=len, reverse=True))
_CUR_WORD_ALT = "|".join(sorted(_CURRENCY_WORDS, key=len, reverse=True))
_END = r"(?![A-Za-z0-9])"  # ASCII-only boundary, so CJK neighbours never block a match

_CORE = re.compile(
    r"(?P<body>[0-9]{1,3}(?:[ \u00a0\u202f][0-9]{3})+(?![0-9]|[.,][0-9]{3})(?:\.[0-9]+)?"  # 2 000 / 386 328.6
    r"|[0-9]+(?:[.,][0-9]+)*|\.[0-9]+(?:[.,][0-9]+)*)"
    r"(?:(?P<tokfrac> \.[0-9]+)(?![0-9]|[.,][0-9]))?"  # PhraseBank "74 .8"
    r"(?:[eE](?P<exp>[-+−]?[0-9]+)(?![A-Za-z0-9])"
    r"|\s?(?:\^|\*\*)\s?(?P<pow>[-+−]?[0-9]+)"
    r"|\s?[x×]\s?10\s?(?:\^|\*\*)\s?(?P<sci>[-+−]?[0-9]+))?"
)
_STRICT = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?|[0-9]+(?:\.[0-9]+)?|\.[0-9]+")
_DECIMAL_COMMA = re.compile(r"[0-9]+,[0-9]{1,2}")  # "37,7", "5,19 per cent": never a thousands group
_WORD_BEFORE = re.compile(r"([A-Za-z$]+)\Z")
_ALNUM_RUN = re.compile(r"[A-Za-z0-9]*(?: \.[0-9]+)?")
_PERIOD_PREFIX = re.compile(r"(?<![A-Za-z])(?:(?P<q>[QH])|FY ?)\Z")
_PREFIX_CUR = re.compile(rf"(?:(?<![A-Za-z0-9])(?P<code>{_CODE_ALT}|x20ac|[Ee]uro)|(?P<sym>{_SYM_ALT}))"
                         r"\s?\Z")
_GLUED = re.compile(r"(?P<suf>%|bps|bp|million|billion|thousand|trillion|mn|mln|bn|bln|tn|trn|percent|pct|pc"
                    r"|k|m|b|K|M|B|st|nd|rd|th|s)" + _END)
_PERCENT = r"[%％]|(?i:per\s?cent|percent(?:age)?(?:\s+points?)?|pct)\b|pc\b"
_BP = r"(?i:basis\s+points?|bps?)\b"
_SCALE_WORD = r"(?i:hundred|thousand|million|billion|trillion|mn|mln|mio|bn|bln|tn|trn|lakh|crore)\b"
_UNIT_AFTER = re.compile(
    rf"\s?(?:(?P<pct>{_PERCENT})|(?P<bp>{_BP})|(?P<scale>{_SCALE_WORD})|(?P<letter>[kmbKMB]){_END})")
_CUR_AFTER = re.compile(rf"\s?(?:(?P<code>{_CODE_ALT})|(?P<word>(?i:{_CUR_WORD_ALT})))" + _END)
_PCT_AFTER_SCALE = re.compile(rf"\s?(?:(?P<pct>{_PERCENT})|(?P<bp>{_BP}))")
_SIGN_BEFORE = re.compile(r"(?:\A|(?<=[\s(\[{=:;,/'\"$€£¥₹₩₽]))[-+−]\Z")
_RANGE_BEFORE = re.compile(r"[0-9%]\s+[-–]\s?\Z|[0-9%]\s?–\s?\Z")
_FORM_CODE = re.compile(r"-[A-Z](?![A-Za-z0-9])")  # SEC forms 10-K, 8-K, 20-F are identifiers
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

_UNITS_W = ("zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
            "sixteen|seventeen|eighteen|nineteen")
_TENS_W = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
_SCALES_W = "hundred|thousand|million|billion|trillion"
_NUMWORD = rf"(?:{_TENS_W}|{_UNITS_W}|{_SCALES_W})"
_WRITTEN = re.compile(
    rf"(?i)(?<![A-Za-z])(?:a\s+(?={_SCALES_W}))?{_NUMWORD}(?:(?:\s+and\s+|[\s-]+){_NUMWORD})*(?![A-Za-z])"
)

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


def _parse_body(m: re.Match[str]) -> tuple[Decimal | None, int, str | None]:
    """Decimal mantissa, power-of-ten exponent, error; the power form ``b^p`` is folded into the mantissa."""
    body = m["body"]
    if " " in body or "\u00a0" in body or "\u202f" in body:
        body = re.sub(r"[ \u00a0\u202f]", "", body)
    elif m["tokfrac"]:
        body += m["tokfrac"].strip()
    if _DECIMAL_COMMA.fullmatch(body):
        body = body.replace(",", ".")
    elif not _STRICT.fullmatch(body):
        why = "digit groups are not thousands separators" if "," in body else "more than one decimal point"
        return None, 0, f"malformed number {m.group()!r}: {why}"
    mantissa = Decimal(body.replace(",", ""))
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


def _is_letter(ch: str) -> bool:
    # Latin/Greek/Cyrillic letters glue an identifier; CJK and kana do not (they have no spaces).
    return ch.isalpha() and ord(ch) < 0x2E80


def _temporal_integer(text: str, s: int, e: int, value: int) -> bool:
    """A bare integer that is a year, a day next to a month name, or an hour before am/pm."""
    if e - s == 4 and 1900 <= value <= 2100:
        return _year_context(text, s, e)
    if 1 <= value <= 31 and (_MONTH_BEFORE.search(text, max(0, s - 11), s) or _MONTH_AFTER.match(text, e)):
        return True
    return 1 <= value <= 12 and _AMPM_AFTER.match(text, e) is not None


def _year_context(text: str, start: int, end: int) -> bool:
    nxt = _NEXT_WORD.match(text, end)
    if nxt and nxt.group(1).lower() in _COUNT_NOUNS:
        return False
    prev = _PREV_WORD.search(text, max(0, start - 20), start)
    return not (prev and prev.group(1).lower() in _APPROX_WORDS)


# ---------------------------------------------------------------- digit pass
def _digit_candidates(text: str) -> list[_Cand]:
    out: list[_Cand] = []
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
        unit: str | None = None
        if _is_letter(prev) or prev == "_":
            word = _WORD_BEFORE.search(text, max(0, s - 8), s)
            w = word.group(1) if word else ""
            whole = word is not None and not (word.start() and _is_letter(text[word.start() - 1]))
            if whole and (w in _CODES or w.lower() == "euro" or w == "x20ac"):
                unit, start = _CODES.get(w, "EUR"), word.start()
            elif _PERIOD_PREFIX.search(text, max(0, s - 4), s) and m.group().isdigit():
                period = True
            else:  # identifier: skip the whole glued token
                pos = _ALNUM_RUN.match(text, e).end()
                continue
        elif prev in "-‐‑" and s >= 2 and _is_letter(text[s - 2]):
            word = _PREV_WORD.search(text, max(0, s - 12), s - 1)
            # "mid-2010" is a date and "mln-42 .3 mln" a range; "COVID-19" and "A-380" are identifiers
            if not (word and (word.group(1).lower() in _HYPHEN_TIME_WORDS or word.group(1) in _SCALE_EXP
                              or word.group(1) in ("pct", "pc", "percent", "bp", "bps"))):
                pos = _ALNUM_RUN.match(text, e).end()
                continue
        elif prev.isdigit():  # e.g. the tail of a rejected token
            continue

        # numeric dates and clock times: one temporal mention per numeral
        date = _DATE.match(text, s) if not period and unit is None else None
        if date and _valid_date(date):
            for grp in ("a", "b", "c", "d", "e", "f", "g", "h", "hh", "mm", "ss"):
                if date[grp] is not None:
                    gs, ge = date.span(grp)
                    out.append(_Cand(gs, ge, Decimal(date[grp]), "temporal", None))
            pos = date.end()
            continue
        if _AT_BEFORE.search(text, max(0, s - 4), s):
            dot = _DOT_TIME.fullmatch(text, s, e)
            if dot and not _CUR_AFTER.match(text, e) and not _UNIT_AFTER.match(text, e):
                for grp in ("hh", "mm"):
                    out.append(_Cand(*dot.span(grp), Decimal(dot[grp]), "temporal", None))
                continue

        number, exp, error = _parse_body(m)
        negative = False
        if unit is None:
            sign = _SIGN_BEFORE.search(text, max(0, start - 2), start)
            if sign and not _RANGE_BEFORE.search(text, max(0, start - 4), start):
                negative, start = sign.group() != "+", sign.start()
            cur = _PREFIX_CUR.search(text, max(0, start - 7), start)
            if cur:
                unit = _CODES.get(cur["code"] or "") or _SYMBOLS.get(cur["sym"] or cur["code"] or "", "EUR")
                start = cur.start()
                if not negative:
                    sign = _SIGN_BEFORE.search(text, max(0, start - 2), start)
                    if sign and not _RANGE_BEFORE.search(text, max(0, start - 4), start):
                        negative, start = sign.group() != "+", sign.start()

        kind = "quantity"
        end = e
        has_fraction = "." in m.group()
        glued = _GLUED.match(text, e)
        if glued:
            suf = glued["suf"]
            is_int = m["body"].isdigit() and not m["tokfrac"] and m.lastindex == 1
            if suf in ("%", "pc", "percent", "pct"):
                kind, unit, end = "percentage" if unit is None else kind, unit or "%", glued.end()
            elif suf in ("bp", "bps"):
                kind, unit, end = "percentage" if unit is None else kind, unit or "bp", glued.end()
            elif suf.lower() in _SCALE_EXP and (
                    suf.islower() or len(suf) > 1 or has_fraction or unit is not None):
                exp += _SCALE_EXP[suf.lower()]
                end = glued.end()
            elif suf in ("st", "nd", "rd", "th") and is_int and unit is None and not negative:
                end = glued.end()
                if _MONTH_BEFORE.search(text, max(0, s - 11), s) or _MONTH_AFTER.match(text, end):
                    kind = "temporal"
            elif suf == "s" and is_int and unit is None and (
                    (len(m["body"]) == 4 and 1000 <= int(m["body"]) <= 2100)
                    or (len(m["body"]) == 2 and m["body"].endswith("0"))):
                kind, end = "temporal", glued.end()
            else:
                pos = _ALNUM_RUN.match(text, e).end()
                continue
        elif (e < n and _is_letter(text[e]) and not _AMPM_AFTER.match(text, e)) or _FORM_CODE.match(text, e):
            pos = _ALNUM_RUN.match(text, e).end()
            continue
        else:
            after = _UNIT_AFTER.match(text, e)
            # a spaced single letter (k/m/b) is a scale only next to a currency: "5 m" is usually metres
            if after and (after["letter"] is None or unit is not None):
                end = after.end()
                if after["pct"] or after["bp"]:
                    if unit is None:
                        kind, unit = "percentage", "%" if after["pct"] else "bp"
                else:
                    exp += _SCALE_EXP[(after["scale"] or after["letter"]).lower()]
                    pct = _PCT_AFTER_SCALE.match(text, end)  # rare "5 million %": still a percentage
                    if pct and unit is None:
                        kind, unit, end = "percentage", "%" if pct["pct"] else "bp", pct.end()
        if unit is None:
            cur_after = _CUR_AFTER.match(text, end)
            if cur_after:
                unit = _CODES.get(cur_after["code"] or "") or _CURRENCY_WORDS[cur_after["word"].lower()]
                end = cur_after.end()
        if unit not in (None, "%", "bp"):
            kind = "monetary"

        # accounting negative: tight parentheses around just this mention, and it is an amount
        if (not negative and kind in ("monetary", "quantity") and start and end < n
                and text[start - 1] == "(" and text[end] == ")"
                and ("," in m["body"] or has_fraction or kind == "monetary")):
            negative = True
        bare = m.group().isdigit() and len(m.group()) <= 4 and end == e and not negative
        if kind == "quantity" and (period or (bare and _temporal_integer(text, s, e, int(m.group())))):
            kind = "temporal"

        cand = _Cand(start, end, number, kind, unit, exp, negative, error)
        if out:
            _propagate_range(text, out[-1], cand)
        out.append(cand)
        pos = max(pos, end)
    return out


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
    if gap.strip() not in ("-", "–") or len(gap) > 3:
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
    elif b.unit is None and a.unit not in (None, "%", "bp"):  # "EUR 0.8-1 .2 billion": both are EUR
        b.unit, b.kind = a.unit, a.kind
    if a.exp == 0 and b.exp:
        a.exp = b.exp


# ---------------------------------------------------------------- written numbers
def _written_candidates(text: str) -> list[_Cand]:
    out: list[_Cand] = []
    for m in _WRITTEN.finditer(text):
        for start, end, value in _parse_written(m):
            unit: str | None = None
            kind = "quantity"
            after = _PCT_AFTER_SCALE.match(text, end)
            cur = None if after else _CUR_AFTER.match(text, end)
            if after:
                kind, unit, end = "percentage", "%" if after["pct"] else "bp", after.end()
            elif cur:
                unit = _CODES.get(cur["code"] or "") or _CURRENCY_WORDS[cur["word"].lower()]
                kind, end = "monetary", cur.end()
            elif text[start:end].lower() == "one":
                continue  # lone "one" is a pronoun or article ("one of the") unless a unit follows
            before = _PREFIX_CUR.search(text, max(0, start - 7), start) if unit is None else None
            if before:
                unit = _CODES.get(before["code"] or "") or _SYMBOLS.get(before["sym"] or "", "EUR")
                kind, start = "monetary", before.start()
            out.append(_Cand(start, end, Decimal(value), kind, unit))
    return out


def _parse_written(m: re.Match[str]) -> list[tuple[int, int, int]]:
    """Split a run of number words into the longest phrases text2num accepts: (start, end, value)."""
    words = [(w.start() + m.start(), w.end() + m.start(), w.group().lower())
             for w in re.finditer(r"[A-Za-z]+", m.group())]
    out: list[tuple[int, int, int]] = []
    i = 0
    while i < len(words):
        for j in range(len(words), i, -1):
            if words[j - 1][2] in ("and", "a"):
                continue
            phrase = " ".join(w for _, _, w in words[i:j])
            if phrase.startswith("a "):
                phrase = "one" + phrase[1:]
            try:
                value = text2num(phrase, "en")
            except ValueError:
                continue
            out.append((words[i][0], words[j - 1][1], value))
            i = j
            break
        else:
            i += 1
    return out


# ---------------------------------------------------------------- public API
def digit_mentions(text: str) -> list[NumericMention]:
    """Mentions written with digits, in text order (rules: module doc)."""
    return [_finish(text, c) for c in _digit_candidates(text)]


def written_mentions(text: str) -> list[NumericMention]:
    """Mentions written as English words (``twenty-four``, ``a hundred``), in text order."""
    return [_finish(text, c) for c in _written_candidates(text)]


def _finish(text: str, c: _Cand) -> NumericMention:
    raw = text[c.start:c.end]
    value, error = _to_float(c.number, c.exp, c.negative, raw)
    return NumericMention(raw, c.start, c.end, value, c.kind, c.unit, c.error or error)
