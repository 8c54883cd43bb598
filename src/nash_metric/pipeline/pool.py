"""Modal separation for a whole call (docs/method.md §1.1): the distinct texts, their numbers, what each channel reads.

A scoring call encodes each distinct text once: the originals (for the baseline and the number vectors)
and their text-channel forms (for S_text) are pooled, deduplicated and sorted, so that every batch, and
so every float, is independent of input order. What is read of a text (its numbers, forms and verdict keys) is a
function of the text, kept by content for the next chunk or call that meets it (`READINGS`, `KEYS`).

Each text has two derived forms. ``masked`` puts the token ``[NUM]`` in place of each number: the α weights
count it. ``channel`` is what the text channel encodes: with the full reader (the default) the text without its
numbers, because the backbone does not know the placeholder: BERT splits ``[NUM]`` into four word pieces that
always match each other, which lifts S_text of every pair with numbers on both sides whatever the numbers are
(STS-B dev Spearman, docs/benchmarks/stsb.md). The paper reader (``numbers="paper"``) encodes the masked form, as
the paper does.

A range is two mentions (``numbers.english``), and with the full reader its connector goes with them
(``numbers.extract.range_connectors``): ``5-10%``, ``5 – 10%``, ``5 to 10%`` all leave ``Growth of expected.``
in the text channel and ``Growth of [NUM] [NUM] expected.`` for α, so a number written another way never
leaves a stray dash or "to" behind. The paper reader keeps the connector, as the toolkit does.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..backbone.encoders import Encoding, Span
from ..backbone.text_cache import TextCache
from ..common.glossary import Glossary
from ..common.validation import check_pairs, check_reference_lists
from ..context.table_data import in_keys
from ..context.table_delimited import fields_apart
from ..numbers import NumericMention, extract_numbers
from ..numbers.extract import range_connectors, reader_text
from ..numbers.mention import mask_spans
from ..numbers.periods import CalendarKeys
from ..verdicts.keys import SupportKeys, TextKeys, stack_keys, text_keys
from .alignment import MentionTable

_GAP = re.compile(r"[ \t]+(?=[,.;:!?)\]]|$)|(?<=[(\[])[ \t]+|(?<=[ \t])[ \t]+")
NO_SUBTOKEN = "no sub-token of this mention in the encoded text"
# One pass: a mention's vector also averages the states of this many words on either side of it. There the
# words cannot see the numbers, so the two texts' words around one slot read alike and a figure aligns to the
# figure in its slot, not to another of its kind in the same sentence ("$3.0 million and $1.2 million").
# Chosen leave-one-build-out on NumFinE's two dev builds, STS-B dev kept (docs/scoring/text-channel.md,
# `perf/context_words.py`).
CONTEXT_WORDS = 2


@dataclass(frozen=True)
class _Reading:
    """One text as a reader reads it (`TextPool.build`): every mention found, the indices of those with a value,
    the masked text, the text channel's form and the spans it leaves out."""

    mentions: tuple[NumericMention, ...]
    scorable: tuple[int, ...]
    masked: str
    channel: str
    left_out: tuple[Span, ...]
    widened: tuple[Span, ...]  # the vector spans of its valued mentions with one pass (`TextPool.vector_spans`)


# What was read of a text, by content, for the next chunk or call that meets it (`text_cache`): its reading by
# (reader, text), its verdict keys by (reader, text, its scorable mentions' indices, the glossary).
READINGS: TextCache[_Reading] = TextCache()
KEYS: TextCache[TextKeys] = TextCache()


@dataclass
class TextPool:
    texts: list[str]  # distinct originals and text-channel forms, sorted; a text's id is its index here
    ids: dict[str, int]
    mentions: dict[str, list[NumericMention]]  # original text -> every mention found
    scorable: dict[str, list[int]]  # original text -> indices of the mentions in the number channel
    masked: dict[str, str]  # original text -> masked text (with [NUM]: what the α weights count)
    channel: dict[str, str]  # original text -> what the text channel encodes
    left_out: dict[str, list[Span]]  # original text -> the spans the text channel leaves out (numbers, connectors)
    one_pass: bool = False  # the text channel is read from the originals' pass: no text-channel form is pooled
    glossary: Glossary | None = None  # a user's words for data keys and table headers (`context.keys`)
    widened: dict[str, tuple[Span, ...]] = field(default_factory=dict)  # original -> its reading's one-pass spans
    reader: str = "full"  # the number reader that found `mentions`

    @classmethod
    def build(cls, originals: Sequence[str], reader: str = "full", one_pass: bool = False,
              glossary: Glossary | None = None) -> TextPool:
        """Find and mask the numbers of each distinct text; mentions without a value are never masked.

        ``originals`` are already in the reader's view (``read_texts``), so the encoder sees what was read. With
        ``one_pass`` only the originals are pooled: the encoder reads the text channel from their pass, leaving
        out the tokens of ``left_out``.
        """
        distinct = sorted(set(originals))
        readings = {t: READINGS.get((reader, t), t, functools.partial(_read, t, reader)) for t in distinct}
        channel = {t: r.channel for t, r in readings.items()}
        texts = sorted(set(distinct) if one_pass else set(distinct) | set(channel.values()))
        # Lists of the pool's own: a reading is shared with later calls (`READINGS`).
        return cls(texts, {t: i for i, t in enumerate(texts)}, {t: list(r.mentions) for t, r in readings.items()},
                   {t: list(r.scorable) for t, r in readings.items()}, {t: r.masked for t, r in readings.items()},
                   channel, {t: list(r.left_out) for t, r in readings.items()}, one_pass, glossary,
                   {t: r.widened for t, r in readings.items()}, reader)

    def original_ids(self, texts: Sequence[str]) -> np.ndarray:
        return np.array([self.ids[t] for t in texts], np.int64)

    def channel_ids(self, texts: Sequence[str]) -> np.ndarray:
        """Ids of the texts' text-channel forms (one pass: of the originals, read without their numbers)."""
        if self.one_pass:
            return self.original_ids(texts)
        return np.array([self.ids[self.channel[t]] for t in texts], np.int64)

    def spans(self) -> list[list[Span]]:
        """Per pooled text, the spans whose token states make its mentions' vectors (`vector_spans`; text-channel
        forms have none)."""
        return [self.vector_spans(t) if t in self.mentions else [] for t in self.texts]

    def left_out_spans(self) -> list[list[Span]] | None:
        """One pass: per pooled text, the spans its text channel leaves out; None with two passes."""
        return [self.left_out[t] for t in self.texts] if self.one_pass else None

    def vector_spans(self, text: str) -> list[Span]:
        """Per scorable mention of an original, the characters whose token states make its vector: the mention
        itself; with one pass, also `CONTEXT_WORDS` words on either side of it (whose states there are those of the
        text without its numbers), up to the mentions beside it ("5–10%": "5–" and "–10%")."""
        spans = self.mention_spans(text)
        if not self.one_pass:
            return spans
        read = self.widened.get(text, ())
        if len(read) == len(spans):  # as read (`_read`): every mention with a value is still scorable
            return list(read)
        return _widened(text, self.mentions[text], spans)

    def mention_spans(self, text: str) -> list[Span]:
        """The spans of an original's scorable mentions."""
        return [(self.mentions[text][i].start, self.mentions[text][i].end) for i in self.scorable[text]]

    def mention_table(self, encodings: Sequence[Encoding]) -> MentionTable:
        """Stack the context vectors and values of every scorable mention.

        A mention with no sub-token in the encoded text cannot be placed: it leaves the number channel here
        and is reported by `unscored`. The vectors move into the table: each encoding's `mention_vectors` is
        left empty, so a long source's vectors are not held twice.
        """
        hidden = encodings[0].mention_vectors.shape[1] if encodings else 1
        dtype = np.result_type(*(e.mention_vectors.dtype for e in encodings)) if encodings else np.float32
        values, periods, blocks, ids, counts = [], [], [], [], []
        for text in self.mentions:
            enc = encodings[self.ids[text]]
            placed = enc.mention_has_tokens
            if not placed.all():
                self.scorable[text] = [i for i, ok in zip(self.scorable[text], placed.tolist()) if ok]
            if self.scorable[text]:
                values.extend(self.mentions[text][i].value for i in self.scorable[text])
                periods.extend(self.mentions[text][i].period for i in self.scorable[text])
                ids.append(self.ids[text])
                counts.append(len(self.scorable[text]))
                blocks.append(enc.mention_vectors if placed.all() else enc.mention_vectors[placed])
            enc.mention_vectors = np.zeros((0, hidden), enc.mention_vectors.dtype)
        # Text t owns rows offsets[t] : offsets[t] + counts[t], in the order of `self.mentions`.
        offsets, sizes = np.zeros(len(self.texts), np.int64), np.zeros(len(self.texts), np.int64)
        offsets[ids], sizes[ids] = np.cumsum(counts, dtype=np.int64) - counts, counts
        total = int(sum(counts))
        vectors = np.empty((total, hidden), dtype)
        if blocks:
            np.concatenate(blocks, out=vectors)
        return MentionTable(
            vectors=vectors,
            values=np.asarray(values, dtype=np.float64),
            offsets=offsets,
            counts=sizes,
            calendar=CalendarKeys.of(periods) if any(periods) else None,
            support=self.support_keys(offsets, total),
        )

    def support_keys(self, offsets: np.ndarray, size: int) -> SupportKeys:
        """What the verdict compares of the `size` rows of a mention table whose text t starts at row
        `offsets[t]` (`verdicts.keys`): each text's keys read once, or kept from a call before (`KEYS`)."""
        parts = []
        for text, kept in self.scorable.items():
            if kept:  # the reader's mentions of a text are a function of the two (`READINGS`)
                read = functools.partial(text_keys, text, [self.mentions[text][i] for i in kept], self.glossary)
                key = keys_key(self.reader, text, kept, self.glossary)
                parts.append((KEYS.get(key, text, read), int(offsets[self.ids[text]])))
        return stack_keys(parts, size)

    def unscored(self, predictions: Sequence[str], references: Sequence[str]) -> list[dict[str, Any]]:
        """Every mention left out of the number channel, with the pair index, side and reason."""
        out = []
        for k, pair in enumerate(zip(predictions, references)):
            for side, text in zip(("prediction", "reference"), pair):
                kept = set(self.scorable[text])
                for i, m in enumerate(self.mentions[text]):
                    if i not in kept:
                        reason = m.error or NO_SUBTOKEN
                        out.append(
                            {"index": k, "side": side, "text": m.text, "start": m.start, "end": m.end, "reason": reason}
                        )
        return out


def keys_key(reader: str, text: str, kept: Sequence[int], glossary: Glossary | None) -> tuple:
    """What a text's verdict keys are kept under in `KEYS`: they depend on these alone."""
    return reader, text, tuple(kept), None if not glossary else tuple(sorted(glossary.items()))


def read_whole(text: str, reader: str, glossary: Glossary | None) -> tuple[_Reading, TextKeys | None]:
    """All that is read of a text before its forward pass: its reading and the verdict keys of its scorable
    mentions (None without any), as `TextPool.build` and `support_keys` read them (`read_ahead`)."""
    reading = _read(text, reader)
    scorable = [reading.mentions[i] for i in reading.scorable]
    return reading, text_keys(text, scorable, glossary) if scorable else None


def _widened(text: str, mentions: Sequence[NumericMention], spans: Sequence[Span]) -> list[Span]:
    """`spans` (of some of `mentions`, all of `text`'s) each with `CONTEXT_WORDS` words on either side, up to the
    mentions beside it (`TextPool.vector_spans`)."""
    bounds = sorted((m.start, m.end) for m in mentions)
    starts = [a for a, _ in bounds]
    reach = list(itertools.accumulate((b for _, b in bounds), max))  # the furthest end up to each mention
    out = []
    for span in spans:
        k = bisect.bisect_left(starts, span[0])
        low = reach[k - 1] if k else 0
        high = starts[k + 1] if k + 1 < len(starts) else len(text)
        out.append(_with_words(text, span, CONTEXT_WORDS, min(low, span[0]), max(high, span[1])))
    return out


def _with_words(text: str, span: Span, words: int, low: int = 0, high: int | None = None) -> Span:
    """`span` widened to take in what is glued to it ("($") and up to `words` whitespace-delimited words on either
    side, within `low`..`high` and 200 characters."""
    start, end = span
    high = len(text) if high is None else high
    lo = max(low, start - 200)
    first = _first_word(text, lo, start, words)
    if start > lo and text[start - 1] == "\n":  # as `(?:\S+\s+){0,n}\S*$` reads it: "$" holds before a last "\n"
        first = min(first, _first_word(text, lo, start - 1, words))
    last = _words_after(words).match(text, end, min(high, end + 200))
    return (first, last.end() if last else end)


def _first_word(text: str, lo: int, stop: int, words: int) -> int:
    r"""Where the words before `stop` begin: the run of non-space glued to `stop` and `words` runs before it (the
    leftmost match of `(?:\S+\s+){0,words}\S*$` in text[lo:stop]), read as one match over the reversed slice,
    not a regex search from every position."""
    back = _words_after(words).match(text[lo:stop][::-1])
    return stop - back.end()


@functools.cache
def _words_after(words: int) -> re.Pattern[str]:
    return re.compile(rf"\S*(?:\s+\S+){{0,{words}}}")


def _without(text: str, mentions: Sequence[NumericMention], connectors: Sequence[Span] = ()) -> str:
    """``text`` with the mentions and range connectors left out (one space where a gap would glue two
    words; no space before closing punctuation)."""
    if not mentions:
        return text
    parts, pos = [], 0
    for start, end in sorted([(m.start, m.end) for m in mentions] + list(connectors)):
        parts += [text[pos:start], " "]
        pos = end
    return _GAP.sub("", "".join(parts) + text[pos:]).strip()


def read_texts(texts: Sequence[str], reader: str) -> list[str]:
    """The texts as the reader reads them and the encoder sees them (other scripts' digits as ASCII)."""
    return [reader_text(t, reader) for t in texts]


def read_pairs(
    predictions: Sequence[str], references: Sequence[str] | Sequence[Sequence[str]], reader: str
) -> tuple[list[str], list[str], list[int] | None]:
    """Every (prediction, reference) pair, checked and in the reader's view, and the group sizes with several
    references per prediction (None with one)."""
    if isinstance(references, Sequence) and len(references) and not isinstance(references[0], str):
        grouped = check_reference_lists(predictions, references)
        preds = [p for p, refs in zip(predictions, grouped) for _ in refs]
        refs = [r for refs in grouped for r in refs]
        return read_texts(preds, reader), read_texts(refs, reader), [len(refs) for refs in grouped]
    return *read_flat_pairs(predictions, references, reader), None


def read_flat_pairs(predictions: Sequence[str], references: Sequence[str], reader: str) -> tuple[list[str], list[str]]:
    """One reference per prediction, checked (index-precise errors) and in the reader's view."""
    preds, refs = check_pairs(predictions, references)
    return read_texts(preds, reader), read_texts(refs, reader)


def _figures(text: str, mentions: list[NumericMention]) -> list[NumericMention]:
    """The mentions that are figures of the text: in data, a digit in a key or an identifier is none."""
    keys = in_keys(text, [(m.start, m.end) for m in mentions]) if mentions else []
    return [m for m, key in zip(mentions, keys) if not key] if any(keys) else mentions


def valued(mentions: Sequence[NumericMention]) -> list[int]:
    """Indices of the mentions that carry a value (the others are reported, never scored)."""
    return [i for i, m in enumerate(mentions) if m.value is not None]


def _read(text: str, reader: str) -> _Reading:
    """Find and mask the numbers of one text; mentions without a value are never masked."""
    # A CSV block's field commas are not thousands separators ("North,812,790"): the full reader reads its
    # fields apart (same spans); the paper reader reads as the toolkit does.
    # Data's keys and identifiers state no figure ("FG3_PCT", "id": 802); the paper's reader reads as written.
    mentions = _figures(text, extract_numbers(fields_apart(text), reader)) if reader == "full" \
        else extract_numbers(text, reader)
    scorable = valued(mentions)
    ms = [mentions[i] for i in scorable]
    spans = [(m.start, m.end) for m in ms]
    widened = tuple(_widened(text, mentions, spans))
    if reader == "paper":  # the paper's mask, encoded as written; the connector stays, as in the toolkit
        masked = mask_spans(text, ms)[0]
        return _Reading(tuple(mentions), tuple(scorable), masked, masked, tuple(spans), widened)
    joins = range_connectors(text, ms)
    return _Reading(tuple(mentions), tuple(scorable), mask_spans(text, ms, connectors=joins)[0],
                    _without(text, ms, joins), tuple(sorted(spans + list(joins))), widened)
