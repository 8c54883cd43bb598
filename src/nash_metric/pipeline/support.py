"""Numeric support: a verdict for every figure of the prediction, and the share its reference supports.

NASH's number channel grades how close two figures are, which is right for ranking near-paraphrases but hides
a wrong figure: $0.13 against $0.15 scores 0.98. A user asking "did the model state figures its reference (a
summary, or the whole source) does not support?" needs a verdict per figure. It is decided in two steps:

1. **Value.** The figure's candidates are the reference numbers that agree with it at the precision it was
   written with, in a fitting family (`numbers.precision`, `alignment.value_support`: rounding, hedges, percent
   vs points, currencies and units, calendar periods). A bare reference number may stand at a scale its text
   states elsewhere: a table's caption ("in millions") gives its cells that scale, and a figure written with a
   scale word ("$1.2 billion") agrees with a reference number written without one ("1,234"; `SCALES`). No
   candidate: the figure is **unsupported**, its value is stated nowhere.
2. **Context.** Among the reference numbers of a fitting family (`rivals`), each is scored by how well its
   context fits the figure's (`context_scores`): the words they share (weighted by how rare each is among the
   reference's figures; a table cell's words are its row label, section and column headers), whether they are
   stated for the same year (+) or different ones (-), and the backbone cosine of their mention vectors. The
   figure is **supported** unless a reference number of another value fits its context better than every
   candidate by more than a margin (`ContextWeights`): then it is **misplaced**, its value stated only where it
   means something else (last year's column, another segment). A calendar period is never misplaced.

Both steps read the pair alone, so a reference summary and a long source are judged alike, with no mode switch,
and the verdict does not depend on the batch. tau does not gate it: the context step compares the candidates
with the other numbers instead of holding one cosine to a fixed bar (README, "Figures against a source", has
the measurements). A stated condition (comparison-aware mode) does not make a figure supported: the verdict is
about values. A figure the reference implies but does not state (a sum, a change) is unsupported.

The rule of earlier versions, where only the argmax-aligned number decides (`verdict="argmax"`: ``supported``,
``unsupported`` when its value differs, ``unmatched`` when its cosine is below tau), is kept for the ablation.

``numeric_support`` is the share of the prediction's figures that are supported, 1.0 when it states none;
``figure_verdicts`` lists every figure with its verdict, ``unsupported_numbers`` the ones not supported.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

import numpy as np

from ..context.words import Context, mention_contexts
from ..numbers.precision import PERCENT, POINTS, TIME, written_precision
from .alignment import Alignment, Matches, MentionTable, SupportKeys, value_support
from .pool import TextPool

SUPPORTED, MISPLACED, UNSUPPORTED, UNMATCHED = "supported", "misplaced", "unsupported", "unmatched"
VERDICTS = (SUPPORTED, MISPLACED, UNSUPPORTED)  # the verdicts of the default rule, in code order
ARGMAX_VERDICTS = (SUPPORTED, UNSUPPORTED, UNMATCHED)  # verdict="argmax"
_STRICT = (PERCENT, POINTS, TIME)


@dataclass(frozen=True)
class ContextWeights:
    """The context score's weights and the margin a misplaced figure needs. Chosen on dev data only (SummEdits'
    five dev domains, the tuning half of FilingClaims): `perf/verdict_ablation.py` measures every choice."""

    period: float = 0.5  # same year +period, another year -period
    cosine: float = 0.5  # times the backbone cosine of the two mention vectors
    margin: float = 0.25  # misplaced: another value's context fits better than every candidate's by more


CONTEXT_WEIGHTS = ContextWeights()
SMALL_COUNT = 12  # written in words up to "twelve": a count (`_a_count`)
SCALES = (1e3, 1e6, 1e9)  # the scales a bare reference number may stand at, for a figure written with a scale word


class NumberRef(TypedDict):
    """A number of the reference: its text, span and value."""

    text: str
    start: int
    end: int
    value: float


class FigureVerdict(TypedDict):
    """One figure of the prediction and its verdict (an entry of `figure_verdicts` and `unsupported_numbers`).

    `found`: where its value is stated (supported, misplaced; None when unsupported). `reference`: the reference
    number it is compared with: its value's place when supported, the number of another value that fits its
    context better when misplaced, the closest in context when unsupported (None when the reference states no
    number). `cosine`: the backbone cosine of the figure and `reference`. README, "The support verdict".
    """

    text: str
    start: int
    end: int
    value: float
    verdict: str
    found: NumberRef | None
    reference: NumberRef | None
    cosine: float | None


# -- what each mention brings ----------------------------------------------------------------------------------


def support_keys(pool: TextPool, table: MentionTable, **precision: Any) -> SupportKeys:
    """The written precision, unit family and context of every row of `table` (built by `pool.mention_table`);
    `precision` goes to `written_precision` (its ablation switches)."""
    size = len(table.values)
    values, tolerance = np.zeros(size), np.zeros(size)
    families: list[str | None] = [None] * size
    labels: list[tuple[str, int, int, float]] = [("", 0, 0, 0.0)] * size
    contexts: list[Context | None] = [None] * size
    scaled, judged = np.zeros(size, bool), np.ones(size, bool)
    for text in pool.mentions:
        start = int(table.offsets[pool.ids[text]])
        scorable = [pool.mentions[text][i] for i in pool.scorable[text]]
        for row, (mention, context) in enumerate(zip(scorable, mention_contexts(text, scorable)), start=start):
            written = written_precision(text, mention, **precision)
            values[row], tolerance[row], families[row] = written.value, written.tolerance, written.family
            labels[row] = (mention.text, mention.start, mention.end, float(mention.value))
            contexts[row], scaled[row], judged[row] = context, _states_a_scale(mention), not _a_count(mention)
    codes = {name: k for k, name in enumerate(sorted({f for f in families if f is not None}))}
    family = np.array([codes[f] if f is not None else -1 for f in families], np.int64)
    # A table states a cell's percent in its header, its row label or a cell of its own ("| 12.5 | % |").
    percent = np.array([c is not None and c.percent for c in contexts], bool)
    if percent.any():
        codes.setdefault(PERCENT, len(codes))
        family = np.where(percent & (family < 0), codes[PERCENT], family)
    return SupportKeys(
        values=values,
        tolerance=tolerance,
        family=family,
        strict=np.array([f in _STRICT for f in families], bool) | percent,
        labels=labels,
        contexts=contexts,
        scaled=scaled,
        table_scale=np.array([c.scale if c is not None and c.scale else np.nan for c in contexts], np.float64),
        clock=np.array([f == TIME for f in families], bool),
        judged=judged,
    )


def _a_count(mention: Any) -> bool:
    """A small count written in words ("two friends", "three options"): a summary infers it more often than it
    copies it, and a source rarely states it, so the verdict does not judge it (it still supports a figure)."""
    return (mention.kind == "quantity" and mention.unit is None and mention.period is None
            and not any(ch.isdigit() for ch in mention.text) and abs(float(mention.value)) <= SMALL_COUNT)


def _states_a_scale(mention: Any) -> bool:
    """Whether the mention's own words scale it ("$1.2 billion", "5bn"): its value is not its digits'."""
    if mention.kind not in ("quantity", "monetary") or mention.period is not None:
        return False
    digits = "".join(ch for ch in mention.text if ch.isdigit() or ch == ".")
    try:
        return abs(float(digits.strip(".") or "nan") - abs(float(mention.value))) > 1e-9 * abs(float(mention.value))
    except ValueError:
        return False


# -- step 1: value ---------------------------------------------------------------------------------------------


def value_agreement(mentions: MentionTable, ia: np.ndarray, ib: np.ndarray) -> np.ndarray:
    """[m, n] whether reference mention ib[j] states the value of figure ia[i]: as written, at its table's scale,
    or (a bare number, for a figure with a scale word) at one of `SCALES`."""
    keys = mentions.support
    agree = value_support(mentions, ia, ib, unsigned=True)
    bare = ~keys.scaled[ib] & ~keys.strict[ib] & np.isnan(keys.table_scale[ib])
    if mentions.calendar is not None:
        bare &= mentions.calendar.level[ib] < 0
    in_scaled_table = ~np.isnan(keys.table_scale[ib])
    if in_scaled_table.any():
        agree |= value_support(mentions, ia, ib, b_values=keys.values * np.nan_to_num(keys.table_scale, nan=1.0),
                               unsigned=True)
    if bare.any() and keys.scaled[ia].any():
        for scale in SCALES:
            agree |= value_support(mentions, ia, ib, b_values=keys.values * scale, unsigned=True) & bare[None, :] \
                & keys.scaled[ia][:, None]
    if keys.clock[ia].any():  # "Let's make it 7." supports "at 7 pm": a plain number as the hour of a time
        hours = keys.values[ia][:, None]
        plain = (keys.family[ib] < 0) & ~keys.strict[ib]
        if mentions.calendar is not None:
            plain &= mentions.calendar.level[ib] < 0
        hour12 = np.where(hours % 12 == 0, 12, hours % 12)
        agree |= keys.clock[ia][:, None] & plain[None, :] & (keys.values[ib][None, :] == hour12)
    return agree


def rivals(mentions: MentionTable, ia: np.ndarray, ib: np.ndarray) -> np.ndarray:
    """[m, n] whether reference mention ib[j] could state what figure ia[i] states, whatever its value: the same
    family (a number without a unit fits any but a strict one), and a calendar period only for a period (a year
    stated beside an amount is not a rival of the amount)."""
    keys = mentions.support
    fa, fb = keys.family[ia][:, None], keys.family[ib][None, :]
    fits = (fa == fb) | (fa < 0) & ~keys.strict[ib][None, :] | (fb < 0) & ~keys.strict[ia][:, None]
    if mentions.calendar is None:
        return fits
    level = mentions.calendar.level
    return fits & ((level[ia] >= 0)[:, None] == (level[ib] >= 0)[None, :])


# -- step 2: context -------------------------------------------------------------------------------------------


def context_scores(keys: SupportKeys, ia: np.ndarray, ib: np.ndarray, cosine: np.ndarray,
                   weights: ContextWeights = CONTEXT_WEIGHTS) -> np.ndarray:
    """[m, n] how well reference mention ib[j]'s context fits figure ia[i]'s: shared words (each weighted by its
    inverse frequency among the reference's figures, as a share of the figure's words the reference uses), plus
    `weights.period` for the same year (minus for another), plus `weights.cosine` times the backbone cosine."""
    words = _shared_words(keys, ia, ib)
    year_a = np.array([_year(keys.contexts[i]) for i in ia], np.float64)[:, None]
    year_b = np.array([_year(keys.contexts[j]) for j in ib], np.float64)[None, :]
    both = ~np.isnan(year_a) & ~np.isnan(year_b)
    period = np.where(both, np.where(year_a == year_b, 1.0, -1.0), 0.0)
    return words + weights.period * period + weights.cosine * cosine


def _shared_words(keys: SupportKeys, ia: np.ndarray, ib: np.ndarray) -> np.ndarray:
    """[m, n] the idf-weighted share of figure ia[i]'s words that reference mention ib[j]'s context holds (over
    the words some reference context holds). Plain set arithmetic: a pair has few figures and short contexts."""
    words_b = [_words(keys.contexts[j]) for j in ib]
    frequency: dict[str, int] = {}
    for words in words_b:
        for w in words:
            frequency[w] = frequency.get(w, 0) + 1
    out = np.zeros((len(ia), len(ib)))
    if not frequency:
        return out
    idf = {w: math.log1p(len(ib) / f) for w, f in frequency.items()}
    for row, i in enumerate(ia):
        known = {w: idf[w] for w in _words(keys.contexts[i]) if w in idf}
        total = sum(known.values())
        if total:
            out[row] = [sum(known[w] for w in words & known.keys()) / total for words in words_b]
    return out


def _words(context: Context | None) -> frozenset[str]:
    return context.words if context is not None else frozenset()


def _year(context: Context | None) -> float:
    return float(context.year) if context is not None and context.year is not None else np.nan


# -- the verdicts ----------------------------------------------------------------------------------------------


def pair_verdicts(mentions: MentionTable, a: slice, b: slice, weights: ContextWeights = CONTEXT_WEIGHTS
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The verdicts of one pair's figures (table rows `a`) against its reference (rows `b`): per figure, the code
    (`VERDICTS` order), the reference row where its value was found (-1: none), the reference row it is compared
    with and their cosine."""
    ia, ib = np.arange(a.start, a.stop), np.arange(b.start, b.stop)
    m = len(ia)
    if len(ib) == 0:
        return np.full(m, 2, np.int8), np.full(m, -1), np.full(m, -1), np.full(m, np.nan)
    cosine = mentions.vectors[a] @ mentions.vectors[b].T
    agree = value_agreement(mentions, ia, ib)
    fits = rivals(mentions, ia, ib) | agree
    score = np.where(fits, context_scores(mentions.support, ia, ib, cosine, weights), -np.inf)
    rows = np.arange(m)
    found = np.where(agree, score, -np.inf).argmax(axis=1)
    other = np.where(fits & ~agree, score, -np.inf)
    has_value, has_other = agree.any(axis=1), (fits & ~agree).any(axis=1)
    # A calendar period is where the other figures stand, not a quantity stated for something: never misplaced.
    quantity = mentions.calendar.level[ia] < 0 if mentions.calendar is not None else np.ones(m, bool)
    misplaced = quantity & has_value & has_other & (
        other.max(axis=1) - np.where(has_value, score[rows, found], 0.0) > weights.margin)
    code = np.where(has_value, np.where(misplaced, 1, 0), 2).astype(np.int8)
    # What the figure is compared with: its value's place when supported, the better-fitting other number when
    # misplaced, else the closest in context (by cosine when no number of its family is there).
    closest = np.where(fits.any(axis=1), score.argmax(axis=1), cosine.argmax(axis=1))
    compared = np.select([code == 0, code == 1], [found, other.argmax(axis=1)], closest)
    return (code, np.where(has_value, found + b.start, -1), compared + b.start, cosine[rows, compared])


def context_verdicts(mentions: MentionTable, pairs: Sequence[tuple[int, int]],
                     weights: ContextWeights = CONTEXT_WEIGHTS) -> list[list[FigureVerdict]]:
    """Per aligned pair (the text ids `pairs[k]` of prediction and reference), every figure with its verdict."""
    out: list[list[FigureVerdict]] = []
    for text_a, text_b in pairs:
        a, b = mentions.of(text_a), mentions.of(text_b)
        code, found, compared, cosine = pair_verdicts(mentions, a, b, weights)
        judged = mentions.support.judged[a]
        out.append([_entry(mentions.support.labels, a.start + i, VERDICTS[code[i]], found[i], compared[i],
                           cosine[i]) for i in range(len(code)) if judged[i]])
    return out


def _entry(labels: list[tuple[str, int, int, float]], row: int, verdict: str, found: int, compared: int,
           cosine: float) -> FigureVerdict:
    text, start, end, value = labels[row]
    return FigureVerdict(text=text, start=start, end=end, value=value, verdict=verdict,
                         found=_ref(labels, found), reference=_ref(labels, compared),
                         cosine=None if compared < 0 else float(cosine))


def _ref(labels: list[tuple[str, int, int, float]], row: int) -> NumberRef | None:
    if row < 0:
        return None
    text, start, end, value = labels[int(row)]
    return NumberRef(text=text, start=start, end=end, value=value)


# -- the argmax rule of earlier versions (verdict="argmax") ----------------------------------------------------


def verdict_codes(matches: Matches, tau: float, rows: Any = slice(None)) -> np.ndarray:
    """Argmax rule, per match row of one direction (all rows or `rows`): 0 supported, 1 unsupported, 2 unmatched
    (`ARGMAX_VERDICTS` order)."""
    aligned = matches.cosine[rows] >= tau
    return np.where(aligned, np.where(matches.supported[rows], 0, 1), 2).astype(np.int8)


def argmax_verdicts(alignment: Alignment, tau: float) -> list[list[FigureVerdict]]:
    """Argmax rule: per aligned pair, every figure of the prediction with its verdict."""
    if alignment.first_a is None:
        raise ValueError("this alignment carries no mention labels: score with NASH to get figure verdicts")
    matches = alignment.a_to_b
    codes = verdict_codes(matches, tau)
    rows = {(int(p), int(s)): r for r, (p, s) in enumerate(zip(matches.pair, matches.source))}
    out: list[list[FigureVerdict]] = []
    for pair in range(len(alignment.n_a)):
        entries = []
        for source in range(int(alignment.n_a[pair])):
            row = rows.get((pair, source))
            label = int(alignment.first_a[pair]) + source
            if row is None or codes[row] == 2:
                entries.append(_entry(alignment.labels, label, UNMATCHED, -1, -1, np.nan))
                continue
            target = int(alignment.first_b[pair] + matches.target[row])
            verdict = ARGMAX_VERDICTS[codes[row]]
            entries.append(_entry(alignment.labels, label, verdict, target if codes[row] == 0 else -1, target,
                                  float(matches.cosine[row])))
        out.append(entries)
    return out


# -- the fields ------------------------------------------------------------------------------------------------


def support_fields(verdicts: list[list[FigureVerdict]], pair_index: np.ndarray) -> dict[str, Any]:
    """`numeric_support`, `figure_verdicts` and `unsupported_numbers` of each input pair (row `pair_index[k]`
    of the per-pair `verdicts`)."""
    share = np.array([sum(e["verdict"] == SUPPORTED for e in v) / len(v) if v else 1.0 for v in verdicts])
    chosen = [verdicts[row] for row in pair_index.tolist()]
    return {"numeric_support": share[pair_index] if len(share) else np.zeros(len(pair_index)),
            "figure_verdicts": chosen,
            "unsupported_numbers": [[e for e in v if e["verdict"] != SUPPORTED] for v in chosen]}
