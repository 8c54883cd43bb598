"""The encoder's per-text steps done once for a batch of texts give what each text gets alone: the tokens its text
channel keeps (`windows.kept_tokens`), the padded ids and mask (`Encoder.pad`), and the states its channel view
reads (`channel_view`, gathered with the batch's)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from nash_metric.backbone.encoders import channel_view
from nash_metric.backbone.windows import kept_tokens, overlaps
from nash_metric.pipeline.pool import TextPool


def _alone(offsets: np.ndarray, spans: list[tuple[int, int]]) -> np.ndarray:
    keep = np.ones(len(offsets), bool)
    if spans and len(offsets):
        keep[overlaps(offsets, spans)[1]] = False
    return keep


def _offsets(rng: np.random.Generator, n: int) -> np.ndarray:
    """Tokens in text order (some of zero width), as a tokenizer gives them."""
    lengths, gaps = rng.integers(0, 5, n), rng.integers(0, 3, n)
    ends = np.cumsum(lengths + gaps)
    return np.stack([ends - lengths, ends], 1).astype(np.int64)


@pytest.mark.parametrize("seed", range(5))
def test_kept_tokens_of_many_texts_are_each_texts_own(seed):
    rng = np.random.default_rng(seed)
    offsets = [_offsets(rng, int(rng.integers(0, 12))) for _ in range(30)]
    spans = [[(int(a), int(a + rng.integers(0, 6))) for a in sorted(rng.integers(0, 40, int(rng.integers(0, 4))))]
             for _ in offsets]
    if seed == 0:  # a text whose tokens are out of order: each text is read alone
        offsets[3] = np.array([[5, 8], [0, 3], [9, 12]], np.int64)
    for keep, o, s in zip(kept_tokens(offsets, spans), offsets, spans, strict=True):
        np.testing.assert_array_equal(keep, _alone(o, s))
    assert kept_tokens([], []) == []


def test_pad_lays_out_each_row_as_written(tiny_scorer):
    encoder = tiny_scorer.encoder
    seqs = [[101, 5, 6, 102], [101, 102], [101, 7, 8, 9, 10, 102]]
    ids, mask = encoder.pad(seqs)
    assert ids.dtype == mask.dtype == torch.long
    for row, seq in enumerate(seqs):
        assert ids[row, : len(seq)].tolist() == seq and set(ids[row, len(seq) :].tolist()) <= {encoder.pad_id}
        assert mask[row].tolist() == [1] * len(seq) + [0] * (ids.shape[1] - len(seq))


def test_a_channel_view_reads_the_states_its_text_keeps(tiny_scorer):
    texts = ["Revenue rose 4% to $3.2 million in 2019.", "Sales grew 5-10% this year.", "No figures at all here.",
             "4%", "Operating profit rose to EUR 13.1 mn from EUR 8.7 mn, up 51 %."]
    pool = TextPool.build(texts, one_pass=True)
    encodings = tiny_scorer.encoder.encode(pool.texts, pool.spans(), left_out=pool.left_out_spans())
    assert any(e.channel_states is not None for e in encodings)
    for enc in encodings:
        view = channel_view(enc)
        keep = enc.channel_keep
        expected = enc.states.index_select(0, torch.from_numpy(np.flatnonzero(keep))) if not keep.all() else enc.states
        torch.testing.assert_close(view.states, expected, atol=0, rtol=0)
        np.testing.assert_array_equal(view.token_ids, enc.token_ids[keep])
        assert view.channel_states is None
