"""What the verdict compares of every mention: its written precision, unit family, context and binding, stacked
into arrays once per call (each text's rows read once, `text_keys`, and laid out by `stack_keys`), so that the
verdict's matrices need no Python per cell.

The score's number channel reads two of these (`family`, `strict`: which figures are of one kind,
`pipeline.alignment.kinds_fit`); everything else is the verdict's.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..common.glossary import Glossary
from ..context.binding import DURATIONS
from ..context.keys import NO_GLOSSARY
from ..context.words import CellLabel, Context, mention_contexts
from ..numbers.comparisons import Constraint, find_constraints
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
    (`numbers.precision.WrittenPrecision` and `context.words.Context`, stacked). Built by `stack_keys` alone."""

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
    bounded: np.ndarray  # [M] bool: stated as a one-sided bound ("more than 3", "at least 20": `numbers.comparisons`)


@dataclass(frozen=True)
class TextKeys:
    """One text's rows of `SupportKeys` (its scorable mentions in order), as `text_keys` reads them: what
    `stack_keys` lays out at the text's place in a call's table. Tuples, not arrays: a text has few rows, and a
    call's rows are laid out field by field in one pass. Never changed once made (`pipeline.pool.KEYS` keeps it
    for the next call that meets the text)."""

    values: tuple[float, ...]
    tolerance: tuple[float, ...]
    rounding: tuple[float, ...]
    families: tuple[str | None, ...]  # coded over the whole call (`stack_keys`)
    strict: tuple[bool, ...]  # of its written family alone (a percent cell's added in `stack_keys`)
    clock: tuple[bool, ...]
    labels: tuple[Label, ...]
    contexts: tuple[Context, ...]
    scaled: tuple[bool, ...]
    judged: tuple[bool, ...]
    money: tuple[bool, ...]
    partner: tuple[int, ...]  # the other bound of a range as a row of this text (-1: none)
    percent: tuple[bool, ...]
    table_scale: tuple[float, ...]
    year: tuple[float, ...]
    direction: tuple[int, ...]
    counted: tuple[bool, ...]
    per_unit: tuple[bool, ...]
    cell: tuple[bool, ...]
    nouns: tuple[str | None, ...]  # coded over the whole call
    timed: tuple[bool, ...]
    headed: tuple[bool, ...]
    bounded: tuple[bool, ...]


def text_keys(text: str, scorable: Sequence[NumericMention], glossary: Glossary | None = None) -> TextKeys:
    """The keys of one text's scorable mentions, in order; `glossary`: a user's words for data keys and table
    headers."""
    contexts = mention_contexts(text, scorable, glossary or NO_GLOSSARY)
    written = [written_precision(text, mention) for mention in scorable]
    families = tuple(w.family for w in written)
    partner = [-1] * len(scorable)
    ends = {m.end: k for k, m in enumerate(scorable)}
    starts = {m.start: k for k, m in enumerate(scorable)}
    for a_end, b_start in range_connectors(text, scorable):
        partner[ends[a_end]], partner[starts[b_start]] = starts[b_start], ends[a_end]
    nouns = tuple(c.counted for c in contexts)
    bounded = {c.mention_index for c in find_constraints(text, scorable) if _a_bound(c)}
    return TextKeys(
        values=tuple(w.value for w in written),
        tolerance=tuple(w.tolerance for w in written),
        rounding=tuple(w.rounding for w in written),
        families=families,
        strict=tuple(f in STRICT_FAMILIES for f in families),
        clock=tuple(f == TIME for f in families),
        labels=tuple((m.text, m.start, m.end, float(m.value), c.label) for m, c in zip(scorable, contexts)),
        contexts=tuple(contexts),
        scaled=tuple(_states_a_scale(m) for m in scorable),
        judged=tuple(not _a_count(m) for m in scorable),
        money=tuple(m.kind == "monetary" for m in scorable),
        partner=tuple(partner),
        # A table states a cell's percent in its header, its row label or a cell of its own ("| 12.5 | % |").
        percent=tuple(bool(c.percent) for c in contexts),
        table_scale=tuple(c.scale if c.scale else np.nan for c in contexts),
        year=tuple(c.year if c.year is not None else np.nan for c in contexts),
        direction=tuple(c.direction for c in contexts),
        counted=tuple(n is not None for n in nouns),
        per_unit=tuple(bool(c.per_unit) for c in contexts),
        cell=tuple(bool(c.cell) for c in contexts),
        nouns=nouns,
        timed=tuple(n in DURATIONS for n in nouns),
        headed=tuple(bool(c.headed) for c in contexts),
        bounded=tuple(k in bounded for k in range(len(scorable))),
    )


def _a_bound(constraint: Constraint) -> bool:
    """A one-sided bound ("more than 3"); "between 4 and 10" is a range, and "a maximum of 3.62" names an extreme:
    each is judged as such (`aggregates.extreme`)."""
    cue = constraint.cue.lower()
    return constraint.other_index is None and "maximum" not in cue and "minimum" not in cue


def stack_keys(parts: Sequence[tuple[TextKeys, int]], size: int) -> SupportKeys:
    """The keys of `size` table rows from each text's (`text_keys`) and the table row of its first; a row no text
    covers keeps a mention's defaults (no value, no context)."""
    parts = [(keys, start) for keys, start in parts if len(keys.values)]
    rows = np.concatenate([np.arange(start, start + len(keys.values)) for keys, start in parts]) if parts \
        else np.zeros(0, np.int64)

    def laid(name: str, fill: object, dtype: type) -> np.ndarray:
        out = np.full(size, fill, dtype)
        out[rows] = np.fromiter(itertools.chain.from_iterable(getattr(keys, name) for keys, _ in parts), dtype,
                                len(rows))
        return out

    def listed(name: str, fill: object) -> list:
        out = [fill] * size
        for keys, start in parts:
            out[start : start + len(keys.values)] = getattr(keys, name)
        return out

    families: list[str | None] = listed("families", None)
    codes = {name: k for k, name in enumerate(sorted({f for f in families if f is not None}))}
    family = np.array([codes[f] if f is not None else -1 for f in families], np.int64)
    percent = laid("percent", False, bool)
    if percent.any():
        codes.setdefault(PERCENT, len(codes))
        family = np.where(percent & (family < 0), codes[PERCENT], family)
    nouns: list[str | None] = listed("nouns", None)
    noun_codes = {n: k for k, n in enumerate(sorted({n for n in nouns if n is not None}))}
    partner = laid("partner", -1, np.int64)
    partner[rows] = np.where(partner[rows] >= 0, partner[rows] + (rows - _local(parts)), -1)
    return SupportKeys(
        values=laid("values", 0.0, np.float64),
        tolerance=laid("tolerance", 0.0, np.float64),
        rounding=laid("rounding", 0.0, np.float64),
        family=family,
        strict=laid("strict", False, bool) | percent,
        percent=family == codes.get(PERCENT, -2),
        points=family == codes.get(POINTS, -2),
        clock=laid("clock", False, bool),
        labels=listed("labels", ("", 0, 0, 0.0, None)),
        contexts=listed("contexts", None),  # every row is read: each table row is a scorable mention
        scaled=laid("scaled", False, bool),
        table_scale=laid("table_scale", np.nan, np.float64),
        judged=laid("judged", True, bool),
        year=laid("year", np.nan, np.float64),
        direction=laid("direction", 0, np.int8),
        counted=laid("counted", False, bool),
        per_unit=laid("per_unit", False, bool),
        money=laid("money", False, bool),
        partner=partner,
        cell=laid("cell", False, bool),
        noun=np.array([noun_codes.get(n, -1) for n in nouns], np.int64),
        timed=laid("timed", False, bool),
        headed=laid("headed", False, bool),
        bounded=laid("bounded", False, bool),
    )


def _local(parts: Sequence[tuple[TextKeys, int]]) -> np.ndarray:
    """Each laid row's place within its own text (0, 1, ... per text), in `stack_keys`'s row order."""
    sizes = np.array([len(keys.values) for keys, _ in parts], np.int64)
    return np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)


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
