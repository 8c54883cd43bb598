"""What a figure in running text is bound to: the noun it quantifies, the period its clause states, the direction
of change its own verb or sign gives, and whether it counts things or is an amount per unit.

The support verdict's `misplaced` and `contradicted` need positive structural evidence (docs: "Figures against a
source"): word overlap and vector similarity are too noisy to overrule a value the source states verbatim. These
readings are rule-based, linear in the text and need no model:

* **Subject.** The content words of the figure's clause (split at punctuation and clause words such as "while",
  "and", "compared with"), without verbs of change or reporting, scale and currency words: in "Revenue of 100M grew
  20% while costs of 80M grew 25%", 20% is bound to {revenue} and 25% to {cost} (the paper's Appendix E).
* **Period.** A year written before every figure of its sentence ("In 2023, ...") scopes the whole sentence; a year
  after a figure binds to the nearest figure ("$185 million in 2023, compared with $160 million in 2022").
* **Direction.** +1 or -1 when the figure is a change: a verb of change right before it ("grew 20%", "fell by
  7.5%", "up 3%"), a change noun right after it ("a 5% decline"), or a sign on a percent ("-24.3%", "(24.3)%").
  Other words do not count: "increased from $5M to $6M" gives the levels no direction.
* **Counted.** A number followed by a noun of things ("2,477 hospitals", "5,078 people") is a count, never an
  amount of money at some scale.
* **Per unit.** "$2.41 per share", "EPS of $2.41", "$15/hour": an amount per unit, never a rival of a total.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..numbers.lexicon import COUNT_NOUNS, CURRENCY_WORDS
from ..numbers.mention import NumericMention

__all__ = ["DURATIONS", "FALL", "RISE", "SENTENCE_END", "WINDOW", "WORD", "Binding", "cell_direction",
           "change_sign", "prose_bindings", "stem", "subject_words", "year_of"]

RISE = ("rose", "rise", "rises", "rising", "risen", "grew", "grow", "grows", "growing", "grown", "increased",
        "increase", "increases", "increasing", "up", "gained", "gain", "gains", "climbed", "climb", "jumped",
        "jump", "improved", "improve", "expanded", "expand", "advanced", "surged", "soared", "higher", "added",
        "boosted", "raised", "accelerated")
FALL = ("fell", "fall", "falls", "falling", "fallen", "declined", "decline", "declines", "declining",
        "decreased", "decrease", "decreases", "decreasing", "down", "dropped", "drop", "drops", "lost", "slipped",
        "slid", "contracted", "contract", "shrank", "shrunk", "reduced", "lower", "lowered", "cut", "plunged",
        "tumbled", "sank", "eased", "weakened", "deteriorated")
_DIRECTION = {**dict.fromkeys(RISE, 1), **dict.fromkeys(FALL, -1)}
# Nouns of change after the figure ("a 5% increase", "20% growth", "3% lower").
_AFTER = {"increase": 1, "rise": 1, "growth": 1, "gain": 1, "higher": 1, "improvement": 1, "jump": 1, "up": 1,
          "decrease": -1, "decline": -1, "drop": -1, "fall": -1, "lower": -1, "reduction": -1, "loss": -1,
          "down": -1}
# What may stand between a verb of change and its figure: "grew by 20%", "rose about 5%", "fell nearly 7.5%".
_BETWEEN = frozenset(("by", "about", "approximately", "approx", "around", "roughly", "nearly", "almost", "some",
                      "over", "more", "than", "less", "just", "an", "a", "another", "further", "sharply",
                      "significantly", "slightly", "modestly", "strongly"))
# Nouns of change that name a table's column ("Increase (Decrease)", "Change"): a subject, unlike the verbs.
_NOUNS = frozenset(("increase", "decrease", "decline", "gain", "loss", "drop", "rise", "fall", "growth", "change",
                    "reduction", "improvement"))
# Verbs of change, reporting and linking, and the words of a figure's own unit: never its subject.
_NOT_SUBJECT = frozenset((*(w for w in (*RISE, *FALL) if w not in _NOUNS), "yield", "yielding", "yielded",
                          "reach", "reached", "reaching",
                          "totaled", "totalled", "totaling", "amount", "amounted", "stood", "stand",
                          "came", "come", "report", "reported", "post", "posted", "record", "recorded", "deliver",
                          "delivered", "generate", "generated", "generating", "result", "resulted", "resulting",
                          "compare", "compared", "comparing", "versus", "respectively", "approximately", "roughly",
                          "nearly", "almost", "around", "some", "million", "billion", "thousand", "trillion", "mn",
                          "bn", "percent", "percentage", "point", "basi", "bps", "bp", "dollar", "euro", "pound",
                          "usd", "eur", "gbp", "rmb", "cent", "period", "expect", "expected", "see", "saw", "said",
                          "say", "says", "note", "noted", "mainly", "primarily", "approx", "further", "another",
                          "approximate"))
_CLAUSE = re.compile(r"[,;:()\[\]–—]|\s-\s|\b(?:while|whereas|but|and|compared|versus|vs|against|which|"
                     r"although|though|whilst)\b", re.IGNORECASE)
WORD = re.compile(r"[A-Za-z][A-Za-z'&-]*")  # a word, as the binding and `words` read it
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[^a-z0-9])|\n\s*\n|\n(?=\s*[-*•|])")
_PER_UNIT = re.compile(r"\s*(?:per|a|an|each|/)\s*(?:diluted\s+|basic\s+|common\s+|ordinary\s+)?"
                       r"(?:share|unit|hour|hr|day|week|month|year|person|employee|head|capita|ton|tonne|barrel|"
                       r"boe|mwh|kwh|user|subscriber|customer|store|sqft|square)\b", re.IGNORECASE)
_PER_UNIT_SUBJECT = frozenset(("eps", "dps", "arpu"))  # "per share" said as a name
_YEAR = re.compile(r"^(?:FY)?(\d{4})")
_NOT_COUNTED = frozenset(("is", "was", "has", "as", "thus", "plus", "versus", "across", "less", "unless", "its",
                          "this", "dollars", "euros", "pounds", "francs", "yen", "points", "basis", "percent",
                          "millions", "billions", "thousands", "times", "shares", "units", "bucks", "quid",
                          *CURRENCY_WORDS))
_COUNTED = COUNT_NOUNS - frozenset(("points", "times", "shares", "units"))
# Content words each side of a figure within its clause: the window of the first context step (chosen on the
# SummEdits dev domains and FilingClaims' tune half), kept; `words.WINDOW` is this one.
WINDOW = 8
_BACK = 3  # figures a subjectless figure looks back over for its subject (bounded: a long sentence stays linear)
# The nouns of a length of time: "20 years" and "20 minutes" are different figures, "25 countries" is no duration.
DURATIONS = frozenset(("second", "minute", "hour", "day", "week", "month", "quarter", "year", "decade", "century"))


@dataclass(frozen=True)
class Binding:
    """What one figure in running text is bound to (see the module doc)."""

    subject: frozenset[str]
    year: int | None
    direction: int  # +1 a rise, -1 a fall, 0 not stated as a change
    counted: str | None  # the noun a count counts ("hospital" in "2,477 hospitals"), None for any other figure
    per_unit: bool
    years: frozenset[int] = frozenset()  # every year its sentence names: the periods of a change it may state


@functools.lru_cache(maxsize=1 << 16)  # a corpus repeats its words: every context reads each one again
def stem(word: str) -> str:
    """A crude stem: lower case, a possessive and a plural's "s" dropped."""
    word = word.lower().removesuffix("'s").strip("'-&")
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def subject_words(text: str, stop: frozenset[str]) -> frozenset[str]:
    """The content words of `text` that can name what a figure quantifies (stems, `stop` and verbs left out)."""
    return _subjects((m.group() for m in WORD.finditer(text)), stop)


def _subjects(words: Iterable[str], stop: frozenset[str]) -> frozenset[str]:
    """`subject_words` of words already read with `WORD`."""
    return frozenset(w for w in map(stem, words) if len(w) > 1 and w not in stop and w not in _NOT_SUBJECT)


def prose_bindings(text: str, mentions: Sequence[NumericMention], stop: frozenset[str]) -> list[Binding]:
    """The `Binding` of each of `mentions` (found in `text`, sorted by start), read from running text."""
    bounds = [0, *(m.end() for m in SENTENCE_END.finditer(text)), len(text)]
    inside = _inside(mentions)
    cuts = sorted({0, len(text), *(c for m in _CLAUSE.finditer(text) if not inside(m.start())
                                   for c in (m.start(), m.end()))})
    spans = [_clause(bounds, cuts, m) for m in mentions]
    years = _years(mentions, spans)
    named: dict[int, set[int]] = {}
    for m, span in zip(mentions, spans):
        if (year := year_of(m)) is not None:
            named.setdefault(span[0], set()).add(year)
    out = []
    for k, (mention, (low, _, clause_high)) in enumerate(zip(mentions, spans)):
        after = _first_words(text, mention.end, _next_start(mentions, k, clause_high))
        subject = _subject_before(text, mentions, k, low, stop) | _subjects(after, stop)
        for j in range(k - 1, max(-1, k - 1 - _BACK), -1):  # "Revenue of 100M grew 20%": 20% is revenue's too
            if subject or mentions[j].end <= low:
                break
            subject = _subject_before(text, mentions, j, low, stop)
        out.append(Binding(subject, years[k], _direction(text, mention, low), _counted(text, mention),
                           _per_unit(text, mention, subject), frozenset(named.get(low, ()))))
    return out


def _subject_before(text: str, mentions: Sequence[NumericMention], k: int, low: int, stop: frozenset[str]
                    ) -> frozenset[str]:
    """The subject words between the figure before mention k (or its sentence's start) and mention k."""
    start = max(low, mentions[k - 1].end if k > 0 else low)
    return _subjects(_last_words(text, start, mentions[k].start), stop)


def _clause(bounds: list[int], cuts: list[int], mention: NumericMention) -> tuple[int, int, int]:
    """(sentence start, clause start, clause end) of a mention."""
    low, high = _around(bounds, mention.start)
    after = bisect_left(cuts, mention.end)
    return (low, max(low, cuts[bisect_right(cuts, mention.start) - 1]),
            min(high, cuts[after] if after < len(cuts) else high))


def _inside(mentions: Sequence[NumericMention]) -> Callable[[int], bool]:
    """Whether a position falls inside a mention's span ("(24.3)%": its parenthesis is no clause break)."""
    starts = [m.start for m in mentions]

    def test(position: int) -> bool:
        k = bisect_right(starts, position) - 1
        return k >= 0 and mentions[k].start <= position < mentions[k].end
    return test


def _next_start(mentions: Sequence[NumericMention], k: int, high: int) -> int:
    # The words after a figure stop at the next figure: "20M profit", not the next figure's words.
    return mentions[k + 1].start if k + 1 < len(mentions) and mentions[k + 1].start < high else high


def _last_words(text: str, low: int, high: int) -> list[str]:
    return [m.group() for m in WORD.finditer(text, low, high)][-WINDOW:]


def _first_words(text: str, low: int, high: int) -> list[str]:
    out = []
    for m in WORD.finditer(text, low, high):
        out.append(m.group())
        if len(out) == WINDOW:
            break
    return out


def _around(bounds: list[int], position: int) -> tuple[int, int]:
    k = bisect_right(bounds, position) - 1
    return bounds[max(0, k)], bounds[min(len(bounds) - 1, k + 1)]


def year_of(mention: NumericMention) -> int | None:
    """The year a calendar mention names ("2019", "2019-Q4", "FY2019"), None for any other."""
    if mention.period is None:
        return None
    found = _YEAR.match(mention.period)
    return int(found.group(1)) if found else None


def _years(mentions: Sequence[NumericMention], spans: Sequence[tuple[int, int, int]]) -> list[int | None]:
    """Each figure's year: the year written after it in its clause ("$185 million in 2023, compared with $160
    million in 2022"), else the year its sentence names before its figures ("In 2023, revenue was $5 million and
    costs were $3 million") when it names only one: years listed before their figures ("in 2019 and 2018 were
    $5 and $4 million", "... respectively") are not each one figure's."""
    by_clause: dict[tuple[int, int], list[int]] = {}
    for k, m in enumerate(mentions):
        if m.period is None:
            by_clause.setdefault(spans[k][1:], []).append(k)
    bound: dict[int, set[int]] = {}
    scoping: dict[int, set[int]] = {}
    for y, m in enumerate(mentions):
        year = year_of(m)
        if year is None:
            continue
        prior = [k for k in by_clause.get(spans[y][1:], []) if mentions[k].end <= m.start]
        (bound.setdefault(prior[-1], set()) if prior else scoping.setdefault(spans[y][0], set())).add(year)
    out: list[int | None] = [None] * len(mentions)
    for k, m in enumerate(mentions):
        own = bound.get(k) or scoping.get(spans[k][0], set())
        if m.period is None and len(own) == 1:
            out[k] = next(iter(own))
    return out


def _direction(text: str, mention: NumericMention, low: int) -> int:
    """+1 / -1 when the figure is stated as a change (its own verb, change noun or sign), else 0."""
    raw = mention.text.lstrip()
    if mention.kind == "percentage" or (mention.unit or "") in ("%", "bp"):
        if raw.startswith(("-", "−", "(")):
            return -1
        if raw.startswith("+"):
            return 1
    words = [m.group().lower() for m in WORD.finditer(text, max(low, mention.start - 60), mention.start)]
    for word in reversed(words[-4:]):
        if word in _DIRECTION:
            return _DIRECTION[word]
        if word not in _BETWEEN:
            break
    after = _word_after(text, mention, 2)
    return _AFTER.get(after, 0) if after else 0


def _counted(text: str, mention: NumericMention) -> str | None:
    """The noun of things a number counts ("2,477 hospitals": "hospital"), None when it is no count."""
    if mention.kind not in ("quantity",) or mention.unit is not None:
        return None
    word = _word_after(text, mention, 1)
    if word is None:
        return None
    if stem(word) in DURATIONS or word in _COUNTED or (len(word) > 3 and word.endswith("s") and not
                                                        word.endswith("ss") and word not in _NOT_COUNTED):
        return stem(word)
    return None


def _word_after(text: str, mention: NumericMention, spaces: int) -> str | None:
    """The word right after a mention, lower-cased, when at most `spaces` whitespace characters come between."""
    gap = len(text[mention.end:mention.end + spaces + 1]) - len(text[mention.end:mention.end + spaces + 1].lstrip())
    found = WORD.match(text, mention.end + gap) if gap <= spaces else None
    return found.group().lower() if found else None


def _per_unit(text: str, mention: NumericMention, subject: frozenset[str]) -> bool:
    return bool(_PER_UNIT.match(text, mention.end)) or bool(subject & _PER_UNIT_SUBJECT)


# Nouns that name a change as a figure's subject ("the increase in revenue was $5 million"): a rise, a fall, or
# either, by the figure's own sign ("the change in costs was -6.7%", "increase/(decrease)").
_RISE_NOUNS = frozenset(("increase", "growth", "rise", "improvement"))
_FALL_NOUNS = frozenset(("decrease", "decline", "drop", "fall", "reduction"))
_EITHER_NOUNS = frozenset(("change", "variance", "movement"))


def change_sign(subject: frozenset[str]) -> int | None:
    """How a figure's subject names a change: +1 a rise ("increase"), -1 a fall ("decrease"), 0 a change of
    either sign ("change", or both nouns: "increase/(decrease)"), None when it names no change."""
    rise, fall = bool(subject & _RISE_NOUNS), bool(subject & _FALL_NOUNS)
    if rise != fall:
        return 1 if rise else -1
    return 0 if rise or subject & _EITHER_NOUNS else None


def cell_direction(text: str, mention: NumericMention) -> int:
    """A table cell's direction: the sign of a percent ("(24.3)%", "-3.1 %") or a change noun right after it in
    its cell ("5% increase"); the words before a cell are another cell's."""
    return _direction(text, mention, mention.start)
