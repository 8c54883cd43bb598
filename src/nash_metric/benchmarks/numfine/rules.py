"""NumFinE targets: FinNum category by transparent rules, variant rules and plausibility checks.

Categories and subcategories (FinNum, Chen et al. 2018) and how a target gets them, first rule wins
(``CATEGORY_RULES``, rendered as a table on the dataset card).

Variant rules and plausibility checks: ``RULES_SUMMARY`` below (rendered on the dataset card).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from decimal import Decimal

from ...numbers.calendar import YEAR_RANGE, ClockTime, DateExpression, find_calendar
from ...numbers.periods import period_distance_days, period_value
from .formats import SurfaceFormat, WordFormat, scale_of

CATEGORIES: dict[str, tuple[str, ...]] = {
    "temporal": ("date", "time"),
    "monetary": ("money", "quote", "change", "forecast", "buy price", "sell price", "support or resistance",
                 "stop loss"),
    "percentage": ("relative", "absolute"),
    "quantity": ("quantity",),
    "product number": ("product number",),
    "indicator": ("indicator",),
    "option": ("exercise price", "maturity date"),
}

RULES_SUMMARY = """\
Variant rules (docs/method.md §2.1): day-precision dates ±1..30 days; times: base 0 → [1,60], ≤12 → [1,12],
<60 → [1,60], else ×[0.8,1.2]; monetary and percentage ×[0.5,2.0]; quantity ≤5 → ×[0.25,4.0], else
×[0.5,2.0]; product number, indicator, option exercise price ×[0.33,3.0]; option maturity date ±30
days. Our extension for coarser calendar periods, which the paper's rule does not cover: months ±1..12
months, quarters ±1..8 quarters, halves ±1..6 halves, fiscal years and bare years ±1..10 years, each
rewritten in its own surface form ("Q4 2019" → "Q2 2020", "4Q19" → "2Q20", "FY19" → "FY21",
"fourth quarter of fiscal 2019" → "second quarter of fiscal 2020"). Every calendar variant's distance is
the calendar distance NASH scores, in days (`numbers.periods.period_distance_days`: days between the
periods' starts at the coarser granularity; year-less dates by circular day-of-year distance), so
|Δ| of a quarter is 90-92 days per quarter and of a year 365-366 days per year. Clock times keep the
hour rule; their distance is in hours (24-hour clock). New values are rounded to the written precision.

Plausibility (replaces the paper's LLM filter): calendar variants are calendar-valid, read back by the
calendar grammar as the same period (two-digit years within the pivot's century) and have a year in
1900-2100 (bare years 1500-2100); clock hours within 1-12 (am/pm) or 0-23; durations, counts, prices and
product numbers > 0; absolute percentages in (0, 100]; relative decreases at most 100 %; relative
increases at most 1000 %; bounded indicators (RSI, stochastics, Williams %R) within 0-100.
"""

# a bare 4-digit number in this range can be a year (if its context says so: "since 1850"): the calendar's
# YEAR_RANGE, reaching below it for the older years that financial text names in a temporal context
YEARS = (1500, YEAR_RANGE[1])

# (category, subcategories, rule) in the order the rules are tried.
CATEGORY_RULES: list[tuple[str, str, str]] = [
    ("temporal", "date, time",
     "the calendar grammar (`nash_metric.numbers.calendar`, the scorer's own): a date, month, quarter, half or "
     "fiscal year is one date target, a clock time one time target; a number before a time unit (\"3 years\", "
     "\"90-day\") is a time; a 4-digit year 1500-2100 in temporal context is a date; Q1-Q4 / H1-H2 without a "
     "year are dates"),
    ("option", "exercise price, maturity date",
     "an option cue (option, call, put, warrant, strike, exercise) before a price; a calendar date after "
     "\"expire\"/\"maturity\" in a sentence with an option cue"),
    ("indicator", "indicator", "a technical-indicator cue (RSI, MACD, moving average, P/E, ...) next to the number"),
    ("percentage", "relative, absolute",
     "`%`, percent, bp; relative when a change word (rose, fell, by, up, growth, ...) precedes it"),
    ("monetary", "money, quote, change, forecast, buy price, sell price, support or resistance, stop loss",
     "a currency code, symbol or word; the subcategory from cue words before the number"),
    ("product number", "product number", "a bare integer right after a capitalised name or \"model/series/version\""),
    ("quantity", "quantity", "everything else"),
]

_WORD = re.compile(r"[A-Za-z][A-Za-z/&'-]*|[%$€£¥]|\d[\d.,]*|\S")
_TIME_UNIT = re.compile(
    r"^\s?-?\s?(?P<unit>second|minute|hour|day|week|month|year|quarter|decade)s?(?![A-Za-z])", re.IGNORECASE)
_PERCENT_AFTER = re.compile(r"^\s?-?\s?(percentage points?|basis points?|percent|per cent|pct|bps?)(?![A-Za-z])",
                            re.IGNORECASE)
# "& euro ;" is how the euro sign survives in the Financial PhraseBank.
_CURRENCY_BEFORE = re.compile(r"(?:&\s?euro\s?;|\b(?:euros?|dollars?))\s*$", re.IGNORECASE)
_CURRENCY_AFTER = re.compile(
    r"^\s?(euros?|dollars?|cents?|pence|pounds? sterling|kronor|kroner|krona|yen|yuan|roubles?|rubles?|francs?)"
    r"(?![A-Za-z])", re.IGNORECASE)
_CHANGE_WORDS = {
    "rose", "rise", "rises", "risen", "rising", "increase", "increased", "increases", "increasing", "grew", "grow",
    "grows", "growth", "growing", "up", "gain", "gained", "gains", "jumped", "jump", "climbed", "climb", "surged",
    "soared", "improved", "improve", "advanced", "added", "raised", "raise", "higher", "boosted", "fell", "fall",
    "falls", "fallen", "falling", "decrease", "decreased", "decreases", "declined", "decline", "declines", "down",
    "dropped", "drop", "drops", "slipped", "slid", "lost", "loss", "losses", "cut", "cuts", "lower", "lowered",
    "shrank", "plunged", "plummeted", "tumbled", "sank", "eased", "weakened", "by", "change", "changed",
}
_DECREASE_WORDS = {
    "fell", "fall", "falls", "fallen", "falling", "decrease", "decreased", "decreases", "declined", "decline",
    "declines", "down", "dropped", "drop", "drops", "slipped", "slid", "lost", "loss", "losses", "cut", "cuts",
    "lower", "lowered", "shrank", "plunged", "plummeted", "tumbled", "sank", "eased", "weakened", "reduced",
    "reduction",
}
_MONETARY_CUES: list[tuple[str, set[str]]] = [
    ("stop loss", {"stop", "stop-loss", "stoploss"}),
    ("support or resistance", {"support", "resistance"}),
    ("buy price", {"buy", "bought", "buying", "purchased", "entry", "long"}),
    ("sell price", {"sell", "sold", "selling", "exit", "short", "shorted", "shorting"}),
    ("forecast", {"expects", "expected", "expect", "forecast", "forecasts", "estimate", "estimated", "estimates",
                  "guidance", "outlook", "projected", "anticipates", "predicts", "will", "would", "budget",
                  "budgeted", "plans", "planned", "targets"}),
    ("quote", {"quote", "quoted", "closed", "closing", "opened", "opening", "trading", "traded", "priced", "price",
               "shares", "stock", "high", "low"}),
]
_OPTION_CUES = {"option", "options", "call", "calls", "put", "puts", "warrant", "warrants", "strike", "exercise",
                "exercisable"}
_MATURITY_CUES = {"expire", "expires", "expiring", "expiry", "expiration", "maturity", "matures", "maturing"}
_INDICATOR_CUES = {"rsi", "macd", "stochastic", "stochastics", "ema", "sma", "ma", "p/e", "pe", "beta",
                   "bollinger", "adx", "cci", "momentum", "williams", "fibonacci", "moving", "average"}
_BOUNDED_INDICATORS = {"rsi", "stochastic", "stochastics", "williams"}
_YEAR_STRONG_LEFT = {"since", "fiscal", "fy", "during", "until", "till", "year", "end", "mid", "early", "late",
                     "summer", "spring", "autumn", "fall", "winter", "q1", "q2", "q3", "q4", "h1", "h2", "before",
                     "after", "between", "through", "calendar", "half", "quarter", "first-half", "second-half"}
_YEAR_WEAK_LEFT = {"in", "of", "by", "from", "to", "for", "and", "or", "the", "-", "–", "on", "at"}
_YEAR_RIGHT_OK = {"and", "to", "as", "when", "compared", "versus", "vs", "was", "were", "is", "will", "the", "it",
                  "its", "they", "we", "he", "she", "net", "sales", "operating", "results", "figures", "levels",
                  "level", "financial", "fiscal", "period", "onwards", "on", "in", "at", "from", "with", "but",
                  "while", "a", "an", "has", "had", "have", "totalled", "totaled", "amounted", "reached"}
_PRODUCT_LEFT = {"model", "models", "series", "version", "type", "generation", "no", "no.", "number", "mark",
                 "class", "release"}
_NOT_NAMES = {"The", "In", "A", "An", "At", "On", "By", "For", "Of", "To", "And", "Some", "About", "Over", "Under",
              "With", "From", "Since", "During", "Only", "Also", "All", "Its", "It", "This", "That", "These",
              "Those", "Approximately", "Around", "Nearly", "Almost", "Up", "Down", "Total", "Top",
              "Q", "H", "FY", "EUR", "USD", "SEK", "Inc", "Oyj", "Plc", "Ltd", "Corp"}


@dataclass(frozen=True)
class Variant:
    target_text: str
    value: float
    distance: float
    period: str | None = None  # calendar variants and valid clock times: the period the scorer reads


@dataclass
class Target:
    """One (sentence, numeral) target, with what its variants need."""

    start: int
    end: int
    text: str
    category: str
    subcategory: str
    form: str  # number | date (any calendar period) | clock
    rule: str
    delta_unit: str
    value: float
    fmt: SurfaceFormat | WordFormat | None = None
    sign: int = 1
    multiplier: Decimal = Decimal(1)
    date: DateExpression | None = None
    clock: ClockTime | None = None
    checks: dict = field(default_factory=dict)

    @property
    def relative(self) -> bool:
        """Crosspair deviation is relative (|Δ|/|v|) for magnitudes, absolute for dates and times."""
        return self.delta_unit == "value"

    @property
    def period(self) -> str | None:
        """The calendar period of a calendar target, a bare year or a clock time (None for other numbers)."""
        if self.date is not None:
            return self.date.period
        if self.clock is not None:
            return self.clock.period
        return f"{int(self.fmt.core):04d}" if self.rule == "date_years" and self.fmt is not None else None


@dataclass(frozen=True)
class Skipped:
    text: str
    start: int
    kind: str  # "unscorable" (the extractor gives no value) or "format" (written form not understood)
    reason: str


def _words(text: str) -> list[str]:
    return _WORD.findall(text)


def find_targets(sentence: str, mentions: list) -> tuple[list[Target], list[Skipped]]:
    """Every usable numeral of ``sentence`` as a Target, and the mentions that could not be used (with why).

    ``mentions`` are ``nash_metric.numbers.extract_numbers(sentence)``. Calendar expressions come from the
    scorer's own grammar (``numbers.calendar.find_calendar``): each is one target, and the numerals inside it
    are part of that target. An expression that a longer mention overlaps is left to that mention (the
    extractor keeps the longest span, so the scorer would not read it as a date either).
    """
    targets: list[Target] = []
    skipped: list[Skipped] = []
    spans: list[tuple[int, int]] = []
    for x in find_calendar(sentence):
        if any(m.start < x.end and x.start < m.end and m.end - m.start > x.end - x.start for m in mentions):
            continue
        if isinstance(x, ClockTime):
            targets.append(Target(x.start, x.end, x.text, "temporal", "time", "clock", "time", "hours", x.value,
                                  clock=x, checks={"clock": "12h" if x.twelve_hour else "24h"}))
        else:
            left = [w.lower() for w in _words(sentence[: x.start])[-6:]]
            option = bool(set(left) & _MATURITY_CUES) and bool(set(_words(sentence.lower())) & _OPTION_CUES)
            targets.append(Target(x.start, x.end, x.text, "option" if option else "temporal",
                                  "maturity date" if option else "date", "date", _CALENDAR_RULES[x.granularity],
                                  "days", x.value, date=x))
        spans.append((x.start, x.end))
    for m in mentions:
        if any(m.start < e and s < m.end for s, e in spans):
            continue  # part of a date or clock time
        if m.value is None:
            skipped.append(Skipped(m.text, m.start, "unscorable", m.error or "the extractor gives no value"))
            continue
        try:
            targets.append(_number_target(sentence, m))
        except ValueError as exc:
            skipped.append(Skipped(m.text, m.start, "format", str(exc)))
    return sorted(targets, key=lambda t: t.start), skipped


def _number_target(sentence: str, m) -> Target:
    digits = re.search(r"\d", m.text)
    fmt = SurfaceFormat.parse(m.text, m.value) if digits else WordFormat.parse(m.text, m.value)
    sign = -1 if m.value < 0 else 1
    multiplier = scale_of(fmt.core, m.value)
    if multiplier is None:  # the value must be the written digits times a scale word's power of ten
        raise ValueError(f"value {m.value} does not match the written {m.text!r}")
    value = float(sign * fmt.core * multiplier)
    category, subcategory, rule, unit, checks = categorise(sentence, m, fmt)
    return Target(m.start, m.end, m.text, category, subcategory, "number", rule, unit, value, fmt=fmt, sign=sign,
                  multiplier=multiplier, checks=checks)


def categorise(sentence: str, m, fmt: SurfaceFormat | WordFormat) -> tuple[str, str, str, str, dict]:
    """(category, subcategory, variant rule, delta unit, plausibility checks) of a numeric mention."""
    before, after = sentence[: m.start], sentence[m.end :]
    left = [w.lower() for w in _words(before)[-6:]]
    left_raw = _words(before)[-1:]
    right = [w.lower() for w in _words(after)[:3]]
    near = set(left) | set(right[:2])
    pct = m.kind == "percentage" or m.unit == "%" or bool(_PERCENT_AFTER.match(after))
    money = (m.kind == "monetary" or (m.unit not in (None, "%")) or bool(_CURRENCY_AFTER.match(after))
             or bool(_CURRENCY_BEFORE.search(before)))
    plain_int = fmt.decimals == 0 and not fmt.grouped and fmt.prefix.strip() in ("", "-", "+") \
        and not fmt.suffix.strip() and m.unit is None
    after_day = re.match(r"^\s?-?\s?day moving average", after, re.IGNORECASE)

    if set(left) & _OPTION_CUES and (money or plain_int) and not pct:
        return "option", "exercise price", "x0.33-3", "value", {"positive": True}
    if (near & _INDICATOR_CUES and not money) or after_day:
        bounded = bool(near & _BOUNDED_INDICATORS) or (pct and not after_day)
        return "indicator", "indicator", "x0.33-3", "value", {"positive": True, "max": 100.0 if bounded else None}
    change = _change_word(left, right)
    if pct:
        if change or m.value < 0:
            decrease = change in _DECREASE_WORDS or m.value < 0
            return "percentage", "relative", "x0.5-2", "value", {"max_abs": 100.0 if decrease else 1000.0}
        return "percentage", "absolute", "x0.5-2", "value", {"positive": True, "max": 100.0}
    if money:
        sub = "change" if change else _monetary_subcategory(left)
        return "monetary", sub, "x0.5-2", "value", {"positive": m.value > 0}
    period = re.search(r"(?<![A-Za-z])([QH])$", before)
    if period and plain_int:  # Q1..Q4, H1..H2: a period index (too few values for 9 variants; counted as dropped)
        return "temporal", "date", "period_q" if period[1] == "Q" else "period_h", "periods", {}
    unit = _TIME_UNIT.match(after)
    if unit:
        return "temporal", "time", "time", unit["unit"].lower() + "s", {"positive": True}
    if plain_int and len(m.text.strip("+-")) == 4 and YEARS[0] <= m.value <= YEARS[1] and (
            m.kind == "temporal" or _year_context(left, right, after)):
        return "temporal", "date", "date_years", "days", {"min": float(YEARS[0]), "max": float(YEARS[1])}
    if plain_int and m.value > 0 and (
        (left and left[-1] in _PRODUCT_LEFT)
        or (left_raw and left_raw[0][:1].isupper() and left_raw[0] not in _NOT_NAMES and len(left_raw[0]) > 1
            and not _is_sentence_start(before))
    ):
        return "product number", "product number", "x0.33-3", "value", {"positive": True}
    return "quantity", "quantity", "quantity", "value", {"positive": True}


def _is_sentence_start(before: str) -> bool:
    """True when the capitalised word before the number opens the sentence (so it is no name)."""
    return len(_words(before)) <= 1


def _year_context(left: list[str], right: list[str], after: str) -> bool:
    if left and left[-1] in _YEAR_STRONG_LEFT:
        return True
    stripped = after.lstrip()
    if not stripped or stripped[0] in ",.;:)'\"" or stripped.startswith(("-", "–", "/")):
        return True
    nxt = right[0] if right else ""
    if nxt in _YEAR_RIGHT_OK or (right and _words(after)[0][:1].isupper()):
        return bool(left) and (left[-1] in _YEAR_WEAK_LEFT or left[-1] in _YEAR_STRONG_LEFT)
    return False


_FILLERS = {"of", "about", "around", "nearly", "almost", "some", "approximately", "roughly", "a", "an", "just",
            "over", "more", "than", "less", "only", "another", "further", "additional"}
_CHANGE_AFTER = {"increase", "decrease", "rise", "drop", "decline", "growth", "gain", "fall", "jump", "cut", "loss",
                 "improvement", "reduction", "higher", "lower", "up", "down", "more", "less"}


def _change_word(left: list[str], right: list[str]) -> str:
    """The change word that makes the number a change ("rose 5 %", "up by $2", "a 5 % drop"), or ""."""
    words = [w for w in left if w not in _FILLERS]
    if words and words[-1] == "by":
        return next((w for w in reversed(words[:-1]) if w in _CHANGE_WORDS), "by")
    if words and words[-1] in _CHANGE_WORDS:
        return words[-1]
    return next((w for w in right[:2] if w in _CHANGE_AFTER), "")


def _monetary_subcategory(left: list[str]) -> str:
    window = set(left)
    if "target" in window and "price" in window:  # an analyst's price target is a forecast
        return "forecast"
    for name, cues in _MONETARY_CUES:
        if window & cues:
            return name
    return "money"


# --------------------------------------------------------------------------------------------- variants

_FACTORS = {"x0.5-2": (0.5, 2.0), "x0.33-3": (0.33, 3.0), "x0.8-1.2": (0.8, 1.2)}
# calendar granularity -> variant rule; rule -> the largest shift, in units of the granularity
_CALENDAR_RULES = {"day": "date_days", "month": "date_months", "quarter": "date_quarters", "half": "date_halves",
                   "year": "date_fiscal_years"}
CALENDAR_SHIFTS = {"date_days": 30, "date_months": 12, "date_quarters": 8, "date_halves": 6,
                   "date_fiscal_years": 10, "date_years": 10}


def _shift(rule: str, rng: random.Random) -> int:
    span = CALENDAR_SHIFTS[rule]
    return rng.choice([d for d in range(-span, span + 1) if d != 0])


def draw_variant(target: Target, rng: random.Random) -> Variant:
    """One random variant of ``target`` by its category rule (not yet checked for plausibility).

    A calendar variant's distance is ``period_distance_days`` between the target's and the variant's period:
    the calendar distance the scorer uses, in days.
    """
    if target.form == "date":
        assert target.date is not None
        text, period = target.date.shifted(_shift(target.rule, rng))
        return Variant(text, period_value(period), period_distance_days(target.date.period, period), period)
    if target.form == "clock":
        clock = target.clock
        assert clock is not None
        hour = int(_time_rule(Decimal(clock.hour), rng, 0))
        if not (1 <= hour <= 12 if clock.twelve_hour else 0 <= hour <= 23):  # implausible: no period
            return Variant(clock.with_hour(hour), float(hour), float(abs(hour - clock.hour)))
        period = clock.period_at(hour)
        value = period_value(period)
        return Variant(clock.with_hour(hour), value, abs(value - target.value), period)
    assert target.fmt is not None
    core = target.fmt.core
    if target.rule == "date_years":  # a bare year 1500-2100, written as it was
        new = core + _shift(target.rule, rng)
        period = f"{int(new):04d}"
        return Variant(target.fmt.render(new), float(new), period_distance_days(target.period, period), period)
    if target.rule in ("period_q", "period_h"):
        new = Decimal(rng.randint(1, 4 if target.rule == "period_q" else 2))
    elif target.rule == "time":
        new = _time_rule(core, rng, target.fmt.decimals)
    elif target.rule == "quantity":
        lo, hi = (0.25, 4.0) if core <= 5 else (0.5, 2.0)
        new = core * Decimal(repr(rng.uniform(lo, hi)))
    else:
        lo, hi = _FACTORS[target.rule]
        new = core * Decimal(repr(rng.uniform(lo, hi)))
    new = target.fmt.quantize(max(new, Decimal(0)))
    value = float(target.sign * new * target.multiplier)
    # |Δ| in exact decimal arithmetic: 5.3 and 5.1 around 5.2 must tie exactly, not differ in the last bit
    distance = float(abs(new - core) * target.multiplier)
    return Variant(target.fmt.render(new), value, distance)


def _time_rule(base: Decimal, rng: random.Random, decimals: int) -> Decimal:
    if base == 0:
        return Decimal(rng.randint(1, 60))
    if base <= 12:
        return Decimal(rng.randint(1, 12))
    if base < 60:
        return Decimal(rng.randint(1, 60))
    return base * Decimal(repr(rng.uniform(0.8, 1.2)))


def implausible(target: Target, variant: Variant) -> str | None:
    """Why ``variant`` is implausible for ``target``, or None if it is fine."""
    c = target.checks
    v = variant.value
    if target.form == "clock":
        return None if variant.period is not None else f"hour {v:g} outside the {c.get('clock')} clock"
    if target.form == "date":
        # calendar-valid by construction; it must also read back as the same period ("FY68" + 1 = "FY69" is 1969)
        found = find_calendar(variant.target_text)
        if len(found) != 1 or found[0].text != variant.target_text or found[0].period != variant.period:
            return f"{variant.target_text!r} does not read back as {variant.period}"
        return None
    magnitude = abs(v)
    if c.get("positive") and v <= 0:
        return f"{target.category} must be positive, got {v:g}"
    if "min" in c and v < c["min"]:
        return f"{v:g} below {c['min']:g}"
    if c.get("max") is not None and v > c["max"]:
        return f"{v:g} above {c['max']:g}"
    if "max_abs" in c and magnitude > c["max_abs"]:
        return f"|{v:g}| above {c['max_abs']:g}"
    if v == 0 and target.value != 0:
        return "rounds to zero"
    return None
