"""Small pairs are judged many at once (`decide.small_pair_verdicts`: the value step in padded numpy over a block of
pairs, the binding only for figures whose value is found) to the very verdicts `pair_verdicts` gives each pair
alone: codes, places, compared numbers, cosines, bases and derivations."""

from __future__ import annotations

import numpy as np
import pytest

from nash_metric.backbone.text_cache import clear_all
from nash_metric.pipeline.pool import TextPool
from nash_metric.verdicts import value
from nash_metric.verdicts.decide import Code, Reference, pair_verdicts, small_pair_verdicts, source_index
from nash_metric.verdicts.rules import RULE

TABLE = "| | 2019 | 2018 |\n|---|---|---|\n| Fixed Price | 1,452.4 | 1,146.2 |\n| Total | 2,001.0 | 1,700.5 |"
TEXTS = [
    "Fixed Price sales were 1,146.2 in 2019.",  # the 2018 cell's value stated for 2019: misplaced
    "Fixed Price sales grew 26.7% in 2019.",  # (1,452.4 - 1,146.2) / 1,146.2: computed
    "Fixed Price sales were 1,452.4 in 2019, the highest.",
    TABLE,
    "Revenue rose 4% to $3.2 million in 2019, from $2.9 million in 2018.",
    "Revenue fell 4% to $3.2 million in 2019.",
    "Revenue rose 40% to $3.5 million in 2019.",
    "Operating profit rose to EUR 13.1 mn from EUR 8.7 mn.",
    "Operating profit rose to EUR 8.7 mn from EUR 13.1 mn, and 2,477 hospitals took part.",
    "Growth of 5-10% expected in Q3 2020.",
    "Growth of 5 to 10 % expected in the third quarter of 2020.",
    "Net sales were $1.2 billion, or 1,234 million, up 3 points.",
    "The dividend was $0.15 per share, paid on 2 March 2023.",
    "He died 20 years ago; about 20 minutes later, he signed 25 deals.",
    "No figures here.",
]


@pytest.fixture(scope="module")
def table():
    clear_all()
    pool = TextPool.build(TEXTS)
    rng = np.random.default_rng(55)

    class Encoding:  # what `mention_table` reads: seeded unit vectors, so that cosines differ
        def __init__(self, spans: list) -> None:
            vectors = rng.standard_normal((len(spans), 16)).astype(np.float32)
            self.mention_vectors = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
            self.mention_has_tokens = np.ones(len(spans), bool)

    return pool, pool.mention_table([Encoding(spans) for spans in pool.spans()])


@pytest.mark.parametrize("cells", [value.VERDICT_CELLS, 64])
def test_small_pairs_judged_together_get_the_verdicts_each_gets_alone(table, cells, monkeypatch):
    monkeypatch.setattr(value, "VERDICT_CELLS", cells)
    pool, mentions = table
    ids = pool.original_ids(TEXTS)
    spans = [(mentions.of(a), mentions.of(b)) for a in ids for b in ids]
    references = [Reference(mentions, b) if b.stop > b.start else None for _, b in spans]
    indexes = [source_index(mentions, np.arange(b.start, b.stop)) for _, b in spans]
    together = small_pair_verdicts(mentions, spans, references, indexes, RULE)
    assert together and len(together) < len(spans)  # pairs without figures or numbers are no small pairs
    codes = set()
    for k, batched in together.items():
        a, b = spans[k]
        alone = pair_verdicts(mentions, a, b, RULE, source_index(mentions, np.arange(b.start, b.stop)),
                              Reference(mentions, b))
        for field in ("code", "found", "compared", "cosine"):
            np.testing.assert_array_equal(getattr(batched, field), getattr(alone, field), err_msg=f"{k} {field}")
            assert getattr(batched, field).dtype == getattr(alone, field).dtype
        assert [str(x) for x in batched.basis] == [str(x) for x in alone.basis]
        assert [None if d is None else d.text for d in batched.derivation] == \
            [None if d is None else d.text for d in alone.derivation]
        codes |= set(alone.code.tolist())
    assert codes == set(Code)  # every verdict is among them
