"""What the verdict compares of every mention: its written precision, unit family, context and binding, stacked
into arrays once per call (`read_keys`), so that the verdict's matrices need no Python per cell.

The score's number channel reads two of these (`family`, `strict`: which figures are of one kind,
`pipeline.alignment.kinds_fit`); everything else is the verdict's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..common.glossary import Glossary
from ..context.binding import DURATIONS
from ..context.keys import NO_GLOSSARY
from ..context.words import CellLabel, Context, mention_contexts
from ..numbers.extract import range_connectors
from ..numbers.mention import NumericMention
from ..numbers.precision import PERCENT, POINTS, TIME, written_precision

# The families that fit only themselves: percent, percentage points, time of day.
STRICT_FAMILIES = (PERCENT, POINTS, TIME)
SMALL_COUNT = 12  # written in words up to "twelve": a count (`_a_count`)
SCALED = 1e-9  # a value further than this share from its digits' is scaled by its own words (`_states_a_scale`)

# (text, start, end, value, its table cell's labels or None) of a mention, for reports
Label = tuple[str, int, int, float, CellLabel | None]


@dataclass(frozen=True)
class SupportKeys:
    """Per mention (a row of the call's `MentionTable`), what the support verdict compares
    (`numbers.precision.WrittenPrecision` and `context.words.Context`, stacked). Built by `read_keys` alone."""

    values: np.ndarray  # [M] comparable value (basis points in percentage points)
    tolerance: np.ndarray  # [M] half a unit of the last written digit (a whole unit when hedged)
    # [M] half a unit of the last written digit (a whole one when hedged), without `tolerance`'s relative cap: a
    # computed "grew 3%" is 2.78% rounded, as its writer rounds (`derivations`).
    rounding: np.ndarray
    family: np.ndarray  # [M] int: -1 fits any unit but a strict one; equal codes fit each other
    strict: np.ndarray  # [M] bool: percent, percentage points, time of day: only their own family fits
    # Its family by name, for the derivations of computed figures: a percent (a cell its table gives as one
    # included), percentage points.
    percent: np.ndarray
    points: np.ndarray
    clock: np.ndarray  # [M] bool: a time of day
    labels: list[Label]  # [M] (text, start, end, value, cell labels) of each mention, for reports
    contexts: list[Context]  # [M] what each mention means where it stands
    scaled: np.ndarray  # [M] bool: its own words scale it ("$1.2 billion")
    table_scale: np.ndarray  # [M] its table's scale ("in millions": 1e6), NaN outside a scaled table
    judged: np.ndarray  # [M] bool: a figure the verdict judges (not a small count written in words)
    # What each mention is bound to (`context.binding`): the year its clause or column states (NaN: none), the
    # direction of a change it states (+1, -1, 0), whether it counts things, is an amount per unit or of money,
    # and the row of the other bound of its range (-1: not a range).
    year: np.ndarray
    direction: np.ndarray
    counted: np.ndarray
    per_unit: np.ndarray
    money: np.ndarray
    partner: np.ndarray
    # A table cell; the noun a count counts (a code, -1: none) and whether that noun is a length of time.
    cell: np.ndarray
    noun: np.ndarray
    timed: np.ndarray
    headed: np.ndarray  # [M] bool: a number in words in a table's header or label ("Three-pointers"): states nothing


def read_keys(texts: Iterable[tuple[str, Sequence[NumericMention], int]], size: int,
              glossary: Glossary | None = None) -> SupportKeys:
    """The keys of `size` table rows: each (text, its scorable mentions in order, the table row of the first);
    `glossary`: a user's words for data keys and table headers."""
    values, tolerance, rounding = np.zeros(size), np.zeros(size), np.zeros(size)
    families: list[str | None] = [None] * size
    labels: list[Label] = [("", 0, 0, 0.0, None)] * size
    contexts: list[Context | None] = [None] * size
    scaled, judged, money = np.zeros(size, bool), np.ones(size, bool), np.zeros(size, bool)
    partner = np.full(size, -1, np.int64)
    for text, scorable, start in texts:
        contexts_here = mention_contexts(text, scorable, glossary or NO_GLOSSARY)
        for row, (mention, context) in enumerate(zip(scorable, contexts_here), start=start):
            written = written_precision(text, mention)
            values[row], tolerance[row], families[row] = written.value, written.tolerance, written.family
            rounding[row] = written.rounding
            labels[row] = (mention.text, mention.start, mention.end, float(mention.value), context.label)
            contexts[row], scaled[row], judged[row] = context, _states_a_scale(mention), not _a_count(mention)
            money[row] = mention.kind == "monetary"
        ends = {m.end: start + k for k, m in enumerate(scorable)}
        starts = {m.start: start + k for k, m in enumerate(scorable)}
        for a_end, b_start in range_connectors(text, scorable):
            partner[ends[a_end]], partner[starts[b_start]] = starts[b_start], ends[a_end]
    codes = {name: k for k, name in enumerate(sorted({f for f in families if f is not None}))}
    family = np.array([codes[f] if f is not None else -1 for f in families], np.int64)
    # A table states a cell's percent in its header, its row label or a cell of its own ("| 12.5 | % |").
    percent = np.array([c is not None and c.percent for c in contexts], bool)
    if percent.any():
        codes.setdefault(PERCENT, len(codes))
        family = np.where(percent & (family < 0), codes[PERCENT], family)
    nouns = [c.counted if c is not None else None for c in contexts]
    noun_codes = {n: k for k, n in enumerate(sorted({n for n in nouns if n is not None}))}
    return SupportKeys(
        values=values,
        tolerance=tolerance,
        rounding=rounding,
        family=family,
        strict=np.array([f in STRICT_FAMILIES for f in families], bool) | percent,
        percent=family == codes.get(PERCENT, -2),
        points=family == codes.get(POINTS, -2),
        clock=np.array([f == TIME for f in families], bool),
        labels=labels,
        contexts=contexts,  # type: ignore[arg-type]  # every row is read: each table row is a scorable mention
        scaled=scaled,
        table_scale=np.array([c.scale if c is not None and c.scale else np.nan for c in contexts], np.float64),
        judged=judged,
        year=np.array([c.year if c is not None and c.year is not None else np.nan for c in contexts], np.float64),
        direction=np.array([c.direction if c is not None else 0 for c in contexts], np.int8),
        counted=np.array([c is not None and c.counted is not None for c in contexts], bool),
        per_unit=np.array([c is not None and c.per_unit for c in contexts], bool),
        money=money,
        partner=partner,
        cell=np.array([c is not None and c.cell for c in contexts], bool),
        noun=np.array([noun_codes.get(n, -1) for n in nouns], np.int64),
        timed=np.array([n in DURATIONS for n in nouns], bool),
        headed=np.array([c is not None and c.headed for c in contexts], bool),
    )


def _a_count(mention: NumericMention) -> bool:
    """A small count written in words ("two friends", "three options"): a summary infers it more often than it
    copies it, and a source rarely states it, so the verdict does not judge it (it still supports a figure)."""
    return (mention.kind == "quantity" and mention.unit is None and mention.period is None
            and not any(ch.isdigit() for ch in mention.text) and abs(float(mention.value)) <= SMALL_COUNT)


def _states_a_scale(mention: NumericMention) -> bool:
    """Whether the mention's own words scale it ("$1.2 billion", "5bn"): its value is not its digits'."""
    if mention.kind not in ("quantity", "monetary") or mention.period is not None:
        return False
    digits = "".join(ch for ch in mention.text if ch.isdigit() or ch == ".")
    try:
        return abs(float(digits.strip(".") or "nan") - abs(float(mention.value))) > SCALED * abs(float(mention.value))
    except ValueError:
        return False
