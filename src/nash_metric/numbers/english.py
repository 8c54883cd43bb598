"""The English/financial digit reader: numeric mentions written with digits.

``digit_mentions(text)`` is one left-to-right pass over the digit tokens of the text (``lexicon.CORE``), each
read by a short pipeline of stages, one function each: what is glued before it (``_glued_before``), numeric
dates and times (``_date_numerals``, asking ``numbers.calendar``), its value (``_read_number``,
``numbers.numerals``), sign and currency before it, suffix and spaced unit after it, a currency after it,
accounting parentheses, its kind, and a range with the number before it. Written English numbers are
``numbers.written``'s; both read the text as ``reading.read_mentions`` prepares it (digits of other scripts
as ASCII, zero-width characters read through); the patterns are ``numbers.lexicon``'s, the words
``vocabulary.en``'s.
Candidates may overlap other readers'; ``numbers.extract`` resolves overlaps with
``mention.resolve_overlaps`` ("longest span wins"; ties: earlier start, then reader order).

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
  (``1/2`` -> 0.5, ``3/4`` -> 0.75, ``2 1/2`` -> 2.5, a bond's ``16/32``); others stay two numbers (``24/7``,
  ``9/11``), and numeric dates are dates (``12/31/2019``, ``03/2010``). A slash list is the alternatives
  specs write, one number each, never a fraction: a pair before a unit not in lowest terms (``4/6GB``,
  ``8/12 GB``; ``1/4W`` is a quarter watt) and every pair of a longer list (``3/4/6 GB``); its numbers take
  the unit glued after the last (``4/6GB`` -> 4 GB and 6 GB, ``30/60/120fps``). Vulgar fraction characters:
  ``¾`` -> 0.75, ``⅓`` -> 1/3, ``1½`` and ``2 ½`` -> 1.5 and 2.5.
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
  ``800dwt``; case-sensitive list ``vocabulary.en.UNITS``): value 5.0, ``unit`` the unit's spelling (``"kg"``,
  ``"MW"``), kind ``"quantity"``. Spaced units (``5 kg``) stay text, the number alone is the mention. A video
  resolution's lines before a glued ``p`` (``1080p``, ``720p@30fps``; ``vocabulary.en.VIDEO_LINES``) read
  as the lines, unit ``"p"``; ``4K`` is 4000, as any glued scale letter.
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
* Written numbers (``twenty-four``, ``a hundred``): ``numbers.written``.
* List labels: one or two digits opening a line and followed by ``)``, ``.`` or ``:`` and a space (``3) The
  document ...``, ``2. Revenue ...``) number a list item, not a quantity, and are not mentions.
* Identifiers: digits glued to letters are not mentions (``COVID-19``, ``A4``, ``5G``, ``MP3``, ``N95``,
  ``TEM1V``, ``10-K``, ``3M Company``, the ticker ``NOK1V``: a unit never follows a glued currency code),
  except currency codes (``EUR74``), scale/percent/bp suffixes, units, ordinals (``3rd``, ``21st`` -> value
  3/21, kind quantity), decades (``1990s``) and period prefixes (``Q3``, ``H1``, ``FY2010``). A hyphen
  after a word makes an identifier too, except after time words (``mid-2010``). A space-grouped tail after
  an identifier's digits is a number of its own (``LTE Cat4 150/50 Mbps`` states 150 and 50) unless it opens
  with a zero (``in2 020``). A dimension
  glued with ``x`` is a number per side (``1080x1920``, ``1x3.3 GHz``, ``10x20x30``), unless both sides are
  one digit (``4x4``, a drive) or a side opens with a zero (``0x1F``); no side is a year (``1920x1080``).
* Temporal (one mention per numeral, since magnitude similarity is per number): a bare integer in
  ``calendar.YEAR_RANGE`` (no sign, separator, unit or currency) is a year unless a count noun follows
  (``2000 employees``) or an approximation word precedes (``about 2000``); decades; the number after
  ``Q``/``H``/``FY``; day numbers next to a month name (``March 5, 2010``, ``5 March 2010``); numeric dates
  (``2010-03-05``, ``05/03/2010``, ``28.02.2008``, ``03/2010``); clock times (``10:30``, ``09.30`` after "at",
  ``9 am``; am/pm stay text). Values are the numerals as written (``05`` -> 5.0). What is a date, a month
  name or a time is ``numbers.calendar``'s to say (its "numerals" section); it also reads whole dates as one
  mention with a longer span, which wins the overlap.
* kinds: "monetary" (a currency is present) > "percentage" (%/bp) > "temporal" > "quantity".
* Other scripts: digits of any script (full-width ``１２３``, Arabic-Indic ``١٢٣``, Devanagari, …) read as
  their ASCII digits (``normalize_digits``); digits need no ASCII word boundary next to CJK characters
  (``营收增长12.5%至3億元`` yields 12.5 %); Chinese numerals are left to ``numbers.chinese``.
* Linear time: every regex is precompiled with bounded or unambiguous repetition and each runs once per
  position (100,000 characters in well under a second).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from math import gcd

from ..vocabulary.en import (
    ANY_CODE,
    APPROX_WORDS,
    BASIS_POINT_SUFFIXES,
    CODES,
    COUNT_NOUNS,
    HYPHEN_TIME_WORDS,
    ORDINAL_SUFFIXES,
    PERCENT_SUFFIXES,
    SCALE_EXPONENTS,
    UNITS,
    VIDEO_LINES,
)
from .calendar import (
    ampm_after,
    date_numerals,
    dotted_time_numerals,
    is_decade,
    is_year,
    month_name_after,
    month_name_before,
    period_prefix_before,
)
from .lexicon import (
    ALNUM_RUN,
    COMPANY_AFTER,
    CORE,
    FORM_CODE,
    FRACTION,
    FRACTION_DENS,
    HYPHENS,
    LABEL_BEFORE,
    NEXT_WORD,
    PCT_AFTER_SCALE,
    PREV_WORD,
    SUFFIX,
    UNIT_AFTER,
    VULGAR,
    WORD_BEFORE,
)
from .mention import NumericMention
from .numerals import fraction_decimal, parse_numeral
from .reading import Candidate, currency_after, currency_before, percent_unit, read_mentions, sign_before

__all__ = ["digit_mentions"]

_Resume = int | None  # where the search resumes when a stage finds the token is no mention; None: read on


def digit_mentions(text: str) -> list[NumericMention]:
    """Mentions written with digits, in text order (rules: module doc)."""
    return read_mentions(text, _digit_candidates)


@dataclass
class _Token:
    """A digit token being read: its numeral ``m`` (``s``..``e``; ``e`` moves past a fraction's tail) and what
    the stages find around it; ``start``..``end`` is the mention's span so far."""

    m: re.Match[str]
    s: int
    e: int
    start: int
    end: int
    plain: bool  # digits only
    period: bool = False  # a date's or period's numeral ("Q3", "March 5th", "1990s")
    fraction: bool = False  # "1/2", "2 1/2"
    cur: str | None = None
    unit: str | None = None  # "%", "bp" or a physical unit; the currency is ``cur``
    number: Decimal | None = None
    exp: int = 0
    negative: bool = False
    error: str | None = None

    @classmethod
    def of(cls, m: re.Match[str]) -> _Token:
        return cls(m, m.start(), m.end(), m.start(), m.end(), m.group().isdigit())


def _digit_candidates(text: str) -> list[Candidate]:
    out: list[Candidate] = []
    conv: list[str | None] = []  # the text's grouping convention, filled on first need
    pos = 0
    while (m := CORE.search(text, pos)) is not None:
        pos = _read_token(text, _Token.of(m), out, conv)
    return out


def _read_token(text: str, tok: _Token, out: list[Candidate], conv: list[str | None]) -> int:
    """Read one digit token into ``out`` (no candidate, one, or one per numeral of a date); return where the
    search resumes."""
    if (resume := _glued_before(text, tok)) is not None:
        return resume
    if tok.plain and _list_label(text, tok.s, tok.e):
        return tok.e
    if (dated := _date_numerals(text, tok)) is not None:
        numerals, resume = dated
        out += numerals
        return resume
    _read_number(text, tok, conv)
    _sign_and_currency_before(text, tok)
    if (resume := _after(text, tok)) is not None:
        return resume
    _currency_after(text, tok)
    _accounting_negative(text, tok, out[-1] if out else None)
    cand = Candidate(tok.start, tok.end, tok.number, _kind(text, tok), tok.cur or tok.unit, tok.exp, tok.negative,
                     tok.error)
    if out and cand.start - out[-1].end <= 3:
        _propagate_range(text, out[-1], cand)
        _share_list_unit(text, out, cand)
    out.append(cand)
    return tok.end


# ---------------------------------------------------------------- stages, in reading order
def _glued_before(text: str, tok: _Token) -> _Resume:
    """What is glued before the numeral: a currency code (``EUR74``, ``euro3``) or a period prefix (``Q3``,
    ``FY2010``) joins it; other letters make it an identifier (``A4``, ``COVID-19``), except a time word or
    scale before a hyphen (``mid-2010``, ``mln-42``); a digit before it is the tail of a token already read."""
    s = tok.s
    prev = text[s - 1] if s else ""
    if prev == "x" and _dimension_x(text, s - 1):  # "1080x1920": the second side of a dimension
        return None
    if _is_letter(prev) or prev == "_":
        word = WORD_BEFORE.search(text, max(0, s - 8), s)
        w = word.group(1) if word else ""
        whole = word is not None and not (word.start() and _is_letter(text[word.start() - 1]))
        if whole and (w in CODES or w.lower() == "euro" or w == "x20ac"):
            tok.cur, tok.start = CODES.get(w, "EUR"), word.start()
        elif tok.plain and period_prefix_before(text, s):
            tok.period = True
        else:
            return _identifier_end(text, _glued_end(tok))
    elif prev and prev in HYPHENS and s >= 2 and _is_letter(text[s - 2]):
        word = PREV_WORD.search(text, max(0, s - 12), s - 1)
        # "mid-2010" is a date and "mln-42 .3 mln" a range; "COVID-19" and "A-380" are identifiers
        if not (word and (word.group(1).lower() in HYPHEN_TIME_WORDS or word.group(1) in SCALE_EXPONENTS
                          or word.group(1) in (*PERCENT_SUFFIXES, *BASIS_POINT_SUFFIXES))):
            return _identifier_end(text, _glued_end(tok))
    elif prev.isdigit() or prev in VULGAR:  # e.g. the tail of a rejected token; "½½" is no number
        return tok.e
    return None


def _list_label(text: str, start: int, end: int) -> bool:
    """"3) The document ...", "2. Revenue ...": one or two digits opening a line, then ")" or "." and a space."""
    line = text.rfind("\n", 0, start) + 1
    return (end - start <= 2 and not text[line:start].strip() and text[end:end + 1] in ").:"
            and text[end + 1:end + 2].isspace())


def _date_numerals(text: str, tok: _Token) -> tuple[list[Candidate], int] | None:
    """A numeric date or clock time (``2010-03-05``, ``12/31/19``, ``10:30``, ``at 09.30``): one temporal
    candidate per numeral, valued as written, and where the search resumes."""
    s, e = tok.s, tok.e
    dated = None
    if not tok.period and tok.cur is None and (text[e:e + 1] in ("/", "-", ":", ".") or "." in tok.m.group()):
        dated = date_numerals(text, s)
    if dated is not None:
        end, spans = dated
    else:
        found = dotted_time_numerals(text, s, e)
        if not found or currency_after(text, e) is not None or UNIT_AFTER.match(text, e):
            return None  # "at 10.30 EUR", "at 5.25 million": amounts
        end, spans = e, found
    return [Candidate(a, b, Decimal(text[a:b]), "temporal", None) for a, b in spans], end


def _read_number(text: str, tok: _Token, conv: list[str | None]) -> None:
    """The numeral's value: a proper fraction with a usual denominator (``1/2``, ``2 1/2``; ``9/11`` and
    ``24/7`` stay two numbers) unless it is a slash list (``4/6GB``), else the token's digits
    (``numerals.parse_numeral``)."""
    s, e = tok.s, tok.e
    frac = None
    if tok.plain and not tok.period and e + 1 < len(text) and (
            text[e] == "/" or (text[e] in " \u00a0" and text[e + 1].isdigit())):
        frac = FRACTION.match(text, s)
    if (frac and 0 < int(frac["num"]) < int(frac["den"]) and int(frac["den"]) in FRACTION_DENS
            and not _slash_list(text, s, frac)):
        tok.number = fraction_decimal(Fraction(int(frac["num"]), int(frac["den"])) + int(frac["whole"] or 0))
        tok.e, tok.plain, tok.fraction = frac.end(), False, True
    else:
        tok.number, tok.exp, tok.error = parse_numeral(tok.m, text, conv)
    tok.end = tok.e


def _slash_list(text: str, start: int, frac: re.Match[str]) -> bool:
    """Whether a slash pair lists alternatives, as specs write them (``4/6GB``, ``3/4/6 GB``): a fraction stands
    alone and, before a unit, in lowest terms, so ``4/6GB`` and the ``4/6`` of ``3/4/6`` are two figures each;
    ``16/32`` is a bond's price move in 32nds and ``1/4W`` a quarter watt."""
    if start >= 2 and text[start - 1] == "/" and text[start - 2].isdigit():
        return True
    unit = _UNIT_WORD.match(text, frac.end())
    return unit is not None and unit.group(1) in UNITS and gcd(int(frac["num"]), int(frac["den"])) > 1


def _sign_and_currency_before(text: str, tok: _Token) -> None:
    """A sign (``-5``, ``minus 5``) and a currency (``$5``, ``EUR -5``, ``-$5``) before the numeral join it,
    unless a glued code already did (``EUR74``)."""
    if tok.cur is not None:
        return
    if sign := sign_before(text, tok.start):
        tok.negative, tok.start = sign
    if before := currency_before(text, tok.start):
        tok.cur, tok.start = before
        if not tok.negative and (sign := sign_before(text, tok.start)):
            tok.negative, tok.start = sign


def _after(text: str, tok: _Token) -> _Resume:
    """What follows the numeral: glued letters (``_glued_suffix``), an identifier's tail (``5G``, ``10-K``),
    or a spaced percent, bp or scale (``5 %``, ``2.5 mln``; a single letter only with a currency: ``EUR 5 m``,
    since ``5 m`` is usually metres)."""
    e, n = tok.e, len(text)
    if text[e:e + 1] == "x" and _dimension_x(text, e):  # "1080x1920": the first side ends at the x
        return None
    glued = SUFFIX.match(text, e) if e < n and (text[e].isalpha() or text[e] == "°") else None
    if glued and not ampm_after(text, e):
        return _glued_suffix(text, tok, glued)
    if e < n and ((_is_letter(text[e]) and not ampm_after(text, e))
                  or (text[e] in "-–" and FORM_CODE.match(text, e))):
        return _identifier_end(text, e)
    nxt = text[e:e + 2].lstrip()[:1]
    if (nxt.isalpha() or nxt in ("%", "％")) and (spaced := _spaced_unit(text, e, tok.cur)):
        tok.end, tok.unit, scale = spaced
        tok.exp += scale
        pct = PCT_AFTER_SCALE.match(text, tok.end) if scale else None
        if pct:  # rare "5 million %": still a percentage
            tok.unit, tok.end = percent_unit(pct), pct.end()
    return None


def _glued_suffix(text: str, tok: _Token, glued: re.Match[str]) -> _Resume:
    """Letters glued after the numeral: percent or bp (``5pct``), a scale (``3.2m``, ``$5mm``), an ordinal
    (``3rd``; a day next to a month name), a decade (``1990s``), a unit (``5kg``) or a currency code
    (``100USD``); anything else makes an identifier (``5G``, ``MP3``)."""
    suf = glued.group()
    low = suf.lower()
    if low in PERCENT_SUFFIXES:
        tok.unit = "%"
    elif low in BASIS_POINT_SUFFIXES:
        tok.unit = "bp"
    elif _glued_scale(text, tok, suf, glued.end()):
        tok.exp += SCALE_EXPONENTS.get(low, 6)
    elif low in ORDINAL_SUFFIXES and tok.plain and tok.cur is None and not tok.negative:
        if month_name_before(text, tok.s) or month_name_after(text, glued.end()):
            tok.period = True
    elif suf == "s" and tok.plain and tok.cur is None and is_decade(tok.m["body"]):
        tok.period = True
    elif suf == "p" and tok.plain and tok.cur is None and int(tok.m.group()) in VIDEO_LINES:  # "1080p"
        tok.unit = "p"
    elif suf in UNITS and tok.cur is None:  # "NOK1V" (a ticker) is no volt
        tok.unit = UNITS[suf]
    elif suf in ANY_CODE and tok.cur is None:
        tok.cur = ANY_CODE[suf]
    else:  # "5G", "MP3" (the digit is glued to letters): an identifier
        return _identifier_end(text, tok.e)
    tok.end = glued.end()
    return None


def _glued_scale(text: str, tok: _Token, suf: str, suffix_end: int) -> bool:
    """Whether glued letters are a scale (``3.2m``, ``100M``, ``2bn``, ``$5mm``): a single letter on an integer
    is an identifier after a label word (``Phase 2B``) and, upper-case, before a company word (``3M Company``)
    or on a year (``options 2004B``)."""
    if not (suf.lower() in SCALE_EXPONENTS or suf == "MM" or (suf == "mm" and tok.cur)):
        return False
    if len(suf) != 1 or not tok.plain:
        return True
    if LABEL_BEFORE.search(text, max(0, tok.start - 12), tok.start):
        return False
    return not (suf.isupper() and (COMPANY_AFTER.match(text, suffix_end)
                                   or (tok.e - tok.s == 4 and is_year(int(tok.m.group())))))


def _spaced_unit(text: str, pos: int, cur: str | None) -> tuple[int, str | None, int] | None:
    """(end, unit, scale exponent) of a percent, bp or scale word after ``pos`` (a single letter k/m/b only
    with a currency), or None."""
    after = UNIT_AFTER.match(text, pos)
    if after is None or (after["letter"] is not None and cur is None):
        return None
    if after["pct"] or after["bp"]:
        return after.end(), percent_unit(after), 0
    return after.end(), None, SCALE_EXPONENTS[(after["scale"] or after["letter"]).lower()]


def _currency_after(text: str, tok: _Token) -> None:
    """A currency code or word after the number (``5 EUR``, ``2.5 mln euro``) joins it."""
    if tok.cur is None and tok.unit is None and text[tok.end:tok.end + 2].lstrip()[:1].isalpha() and (
            after := currency_after(text, tok.end)):
        tok.cur, tok.end = after


def _accounting_negative(text: str, tok: _Token, prev: Candidate | None) -> None:
    """Tight parentheses around an amount make it negative (``(1.2)``, ``($1.2m)``); a currency before them or
    a scale, percent or currency after them joins the mention (``EUR (1.2) million``). After another amount
    they hold the prior-period comparative (``EUR 1.2bn (EUR 1.1bn)``), not a negative."""
    start, end = tok.start, tok.end
    if (tok.negative or tok.unit in ("%", "bp") or not start or end >= len(text) or text[start - 1] != "("
            or text[end] != ")"):
        return
    if prev and prev.kind != "temporal" and start - 1 - prev.end <= 3 and text[prev.end:start - 1].isspace():
        return
    lp = start - 1
    if tok.cur is None and (before := currency_before(text, lp)):
        tok.cur, lp = before
    rp = _after_parentheses(text, tok, end + 1)
    if (lp, rp) != (start - 1, end + 1):
        tok.negative, tok.start, tok.end = True, lp, rp
    elif not tok.fraction and ("," in tok.m["body"] or "." in tok.m.group() or tok.m["vfrac"] is not None
                               or tok.cur):  # "(1)" is a list label
        tok.negative = True


def _after_parentheses(text: str, tok: _Token, rp: int) -> int:
    """A scale, percent or currency after the closing parenthesis (``(3.5) million``, ``(48.3)%``) joins the
    number; returns the mention's new end."""
    nxt = text[rp:rp + 2].lstrip()[:1]
    spaced = _spaced_unit(text, rp, tok.cur) if tok.unit is None and (nxt.isalpha() or nxt in ("%", "％")) else None
    if spaced and (spaced[1] is not None or tok.exp == 0):
        rp, tok.unit, scale = spaced
        tok.exp += scale
    if tok.cur is None and tok.unit is None and nxt.isalpha() and (after := currency_after(text, rp)):
        tok.cur, rp = after
    return rp


def _kind(text: str, tok: _Token) -> str:
    """"monetary" (a currency) > "percentage" (%/bp) > "temporal" > "quantity"."""
    if tok.cur:
        return "monetary"
    if tok.unit in ("%", "bp"):
        return "percentage"
    if tok.period or (tok.plain and len(tok.m.group()) <= 4 and tok.end == tok.e and not tok.negative
                      and tok.unit is None and _temporal_integer(text, tok.s, tok.e, int(tok.m.group()))):
        return "temporal"
    return "quantity"


def _propagate_range(text: str, a: Candidate, b: Candidate) -> None:
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


def _share_list_unit(text: str, out: list[Candidate], cand: Candidate) -> None:
    """``4/6GB``, ``30/60/120fps``: the alternatives of a slash list are in the unit written after the last."""
    if cand.kind != "quantity" or cand.unit is None:
        return
    nxt = cand
    for prev in reversed(out):
        if text[prev.end:nxt.start] != "/" or prev.kind != "quantity" or prev.unit is not None or prev.exp:
            return
        prev.unit, nxt = cand.unit, prev


# ---------------------------------------------------------------- helpers
def _is_letter(ch: str) -> bool:
    # Latin/Greek/Cyrillic letters glue an identifier; CJK and kana do not (they have no spaces).
    return ch.isalpha() and ord(ch) < 0x2E80


def _identifier_end(text: str, end: int) -> int:
    """Where the glued token an identifier's digits belong to ends (``5G``, ``TEM1V``): the search resumes there."""
    return ALNUM_RUN.match(text, end).end()


def _glued_end(tok: _Token) -> int:
    """Where the digits glued to an identifier's letters end: a space-grouped tail is a number of its own
    (``LTE Cat4 150/50 Mbps`` states 150, no 4,150) unless it opens with a zero, as only a group does (the
    ``in2 020`` of a broken "in 2020")."""
    space = _SPACE_GROUP.search(tok.m["body"])
    if space is None or tok.m["body"][space.end()] == "0":
        return tok.e
    return tok.s + space.start()


def _dimension_x(text: str, i: int) -> bool:
    """Whether the ``x`` at ``i`` joins the sides of a dimension written glued (``1080x1920``, ``1x3.3 GHz``,
    ``4x100 m``, ``10x20x30``): a number each side, neither led by a zero (``0x1F`` is hex) nor both of one
    digit (``4x4`` names a drive, ``5x5`` a model)."""
    before = _SIDE_BEFORE.search(text, max(0, i - 16), i)
    after = _SIDE_AFTER.match(text, i + 1)
    return before is not None and after is not None and len(before.group()) + len(after.group()) > 2


_SIDE_BEFORE = re.compile(r"(?:(?<![A-Za-z0-9.,])|(?<=[0-9]x))[1-9][0-9]*(?:\.[0-9]+)?\Z")  # 10x20x30
_SIDE_AFTER = re.compile(r"[1-9][0-9]*(?:\.[0-9]+)?")
_SPACE_GROUP = re.compile(r"[ \u00a0\u202f]")
_UNIT_WORD = re.compile(r"[ \u00a0]?([A-Za-zµμ°][A-Za-z0-9µμ°²³]*)")  # "4/6GB", "8/12 GB"
_DIMENSION_BEFORE = re.compile(r"\d\s*[x×]\s*$")
_DIMENSION_AFTER = re.compile(r"\s*[x×]\s*\d")


def _temporal_integer(text: str, s: int, e: int, value: int) -> bool:
    """A bare integer that is a year, a day next to a month name, or an hour before am/pm."""
    if e - s == 4 and is_year(value):
        return _year_context(text, s, e)
    # cheap character checks first: most integers have no month name or am/pm next to them
    after = text[e:e + 2].lstrip()[:1]
    if 1 <= value <= 31:
        before = text[s - 2] if s >= 2 else ""
        if (before.isalpha() or before == ".") and month_name_before(text, s):
            return True
        if after.isalpha() and month_name_after(text, e):
            return True
    return 1 <= value <= 12 and after in ("a", "p", "A", "P") and ampm_after(text, e)


def _year_context(text: str, start: int, end: int) -> bool:
    nxt = NEXT_WORD.match(text, end)
    if nxt and nxt.group(1).lower() in COUNT_NOUNS:
        return False
    if _DIMENSION_BEFORE.search(text, max(0, start - 8), start) or _DIMENSION_AFTER.match(text, end):
        return False  # "1080 x 1920", "1920x1080": a dimension, no year
    prev = PREV_WORD.search(text, max(0, start - 20), start)
    return not (prev and prev.group(1).lower() in APPROX_WORDS)
