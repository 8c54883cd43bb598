"""What is read of a text is kept by its content (`backbone.text_cache`): a text met again, in the next chunk or
call, is read as it was the first time, and nothing a call does to its pool changes what the next call gets."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest

from nash_metric.backbone import text_cache
from nash_metric.backbone.text_cache import TextCache, clear_all
from nash_metric.pipeline import pool as pool_module
from nash_metric.pipeline.pool import TextPool
from nash_metric.verdicts.keys import stack_keys, text_keys

TEXTS = [
    "Revenue rose 4% to $3.2 million in 2019, from $2.9 million.",
    "Growth of 5–10% expected in Q3 2020.",
    "| | 2019 | 2018 |\n|---|---|---|\n| Fixed Price | 1,452.4 | 1,146.2 |",
    "Operating profit fell to EUR 8.7 mn from EUR 13.1 mn; 2,477 hospitals took part.",
    "No figures here.",
]


def test_the_least_recently_used_text_leaves_first():
    cache: TextCache[int] = TextCache(entries=2, characters=100)
    cache.keep("a", "a", 1)
    cache.keep("b", "b", 2)
    assert cache.find("a") == 1  # "a" used again: "b" is now the oldest
    cache.keep("c", "c", 3)
    assert (cache.find("a"), cache.find("b"), cache.find("c")) == (1, None, 3)


def test_the_cache_holds_at_most_its_characters_and_never_a_text_beyond_them():
    cache: TextCache[int] = TextCache(entries=10, characters=10)
    cache.keep("long", "x" * 11, 1)
    assert cache.find("long") is None and len(cache) == 0
    for k in range(4):
        cache.keep(k, "x" * 4, k)
    assert len(cache) == 2 and cache.find(3) == 3 and cache.find(0) is None


def test_get_reads_a_text_once():
    cache: TextCache[str] = TextCache()
    reads = []
    for _ in range(3):
        assert cache.get(("full", "t"), "t", lambda: reads.append(1) or "read") == "read"
    assert reads == [1]


def test_clear_all_empties_every_cache():
    caches = [TextCache(), TextCache()]
    for cache in caches:
        cache.keep("t", "t", 1)
    clear_all()
    assert all(len(cache) == 0 for cache in caches)
    assert text_cache.ENTRIES > 0 and text_cache.CHARACTERS > 0


@pytest.mark.parametrize("reader, one_pass", [("full", True), ("full", False), ("paper", False)])
def test_a_pool_built_again_from_kept_readings_is_the_same(reader, one_pass, monkeypatch):
    clear_all()
    cold = TextPool.build(TEXTS, reader, one_pass=one_pass)
    monkeypatch.setattr(pool_module, "extract_numbers", lambda *_: pytest.fail("a kept text was read again"))
    warm = TextPool.build(TEXTS, reader, one_pass=one_pass)
    assert warm == cold
    assert [warm.vector_spans(t) for t in TEXTS] == [cold.vector_spans(t) for t in TEXTS]


def test_what_a_call_does_to_its_pool_stays_in_that_pool():
    clear_all()
    first = TextPool.build(TEXTS)
    first.scorable[TEXTS[0]].clear()
    first.mentions[TEXTS[0]].clear()
    first.left_out[TEXTS[0]].clear()
    again = TextPool.build(TEXTS)
    assert again.scorable[TEXTS[0]] and again.mentions[TEXTS[0]] and again.left_out[TEXTS[0]]


def _table(pool: TextPool, placed: dict[str, np.ndarray] | None = None):
    encodings = [SimpleEncoding(spans, (placed or {}).get(text)) for text, spans in zip(pool.texts, pool.spans())]
    return pool.mention_table(encodings)


class SimpleEncoding:
    """What `mention_table` reads of an encoding: a vector and whether it has tokens, per mention."""

    def __init__(self, spans: list, placed: np.ndarray | None = None) -> None:
        self.mention_has_tokens = np.ones(len(spans), bool) if placed is None else placed
        self.mention_vectors = np.arange(8 * len(spans), dtype=np.float32).reshape(-1, 8)


def _same_keys(a, b) -> None:
    for field in fields(a):
        x, y = getattr(a, field.name), getattr(b, field.name)
        if isinstance(x, np.ndarray):
            np.testing.assert_array_equal(x, y, err_msg=field.name)
        else:
            assert x == y, field.name


def test_the_verdict_keys_of_kept_texts_are_those_read_anew():
    clear_all()
    cold = _table(TextPool.build(TEXTS))
    warm = _table(TextPool.build(list(reversed(TEXTS))))  # the same texts, kept: the same table
    _same_keys(cold.support, warm.support)
    np.testing.assert_array_equal(cold.vectors, warm.vectors)
    # Among other texts a kept text's rows move, and its keys with them.
    pool = TextPool.build(["A 2% rise.", *TEXTS, "Sales of 1,200 units, up 3% from 2018."])
    mixed = _table(pool)
    for text in TEXTS:
        a, b = cold.of(TextPool.build(TEXTS).ids[text]), mixed.of(pool.ids[text])
        for name in ("values", "tolerance", "rounding", "year", "direction", "strict", "scaled", "judged"):
            np.testing.assert_array_equal(getattr(cold.support, name)[a], getattr(mixed.support, name)[b])
        assert cold.support.contexts[a] == mixed.support.contexts[b]
        assert cold.support.labels[a] == mixed.support.labels[b]
        np.testing.assert_array_equal(_local(cold.support.partner[a], a.start),
                                      _local(mixed.support.partner[b], b.start))


def _local(partner: np.ndarray, start: int) -> np.ndarray:
    """A range's other bound as a row of its own text (-1: none)."""
    return np.where(partner >= 0, partner - start, -1)


def test_a_mention_without_tokens_leaves_the_keys_of_its_text():
    """Its text's keys are read again without it (a context reads the mentions beside it)."""
    clear_all()
    text = TEXTS[0]
    full = _table(TextPool.build([text]))
    placed = np.ones(len(full.values), bool)
    placed[1] = False
    pool = TextPool.build([text])
    partial = _table(pool, {text: placed})
    assert len(partial.values) == len(full.values) - 1
    kept = [pool.mentions[text][i] for i in pool.scorable[text]]
    _same_keys(partial.support, stack_keys([(text_keys(text, kept), 0)], len(kept)))


def test_tokens_of_a_text_met_before_are_the_same_and_read_only(tiny_scorer):
    encoder = tiny_scorer.encoder
    clear_all()
    cold = encoder.tokenize_batch(TEXTS)
    warm = encoder.tokenize_batch(list(reversed(TEXTS)))[::-1]
    for a, b in zip(cold, warm):
        np.testing.assert_array_equal(a.ids, b.ids)
        np.testing.assert_array_equal(a.offsets, b.offsets)
        assert not b.ids.flags.writeable and not b.offsets.flags.writeable
