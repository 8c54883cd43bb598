"""Mention vectors: the mean state of the sub-tokens overlapping each span, gathered in one vectorised step for a
whole batch of texts."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from random_tokens import random_tokens

from nash_metric.backbone.windows import batch_mention_vectors


def _by_loop(content: torch.Tensor, offsets: list[tuple[int, int]], spans: list[tuple[int, int]]):
    off = np.asarray(offsets).reshape(-1, 2)
    out = []
    for start, end in spans:
        rows = np.nonzero((off[:, 0] < end) & (off[:, 1] > start) & (off[:, 1] > off[:, 0]))[0]
        out.append(torch.nn.functional.normalize(content[rows].mean(0), dim=-1).numpy() if rows.size else None)
    return out


def _texts(rng: np.random.Generator, count: int, first_trial: int):
    """Random tokenisations (gaps, zero-width tokens, now and then one out of order) and spans (across tokens, in
    gaps), one per text."""
    out = []
    for trial in range(first_trial, first_trial + count):
        n = int(rng.integers(1, 40))
        offsets, spans = random_tokens(rng, n, trial, spans=int(rng.integers(0, 6)), longest=5, reach=5)
        out.append((np.asarray(offsets, np.int64).reshape(-1, 2), [(int(a), int(b)) for a, b in spans]))
    return out


@pytest.mark.parametrize("seed", range(5))
def test_gathering_equals_the_mean_of_each_spans_tokens(seed):
    rng = np.random.default_rng(seed)
    for offsets, spans in _texts(rng, 60, 0):
        content = torch.randn(len(offsets), 8)
        ((vectors, has),) = batch_mention_vectors(content[None].numpy(), 0, [offsets], [spans])
        for m, expected in enumerate(_by_loop(content, offsets.tolist(), spans)):
            assert has[m] == (expected is not None)
            if expected is not None:
                np.testing.assert_allclose(vectors[m], expected, atol=1e-6)
            else:
                assert not vectors[m].any()


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("in_order", [True, False])
def test_a_batch_gathers_what_each_of_its_texts_gathers_alone(seed, in_order):
    """Texts laid end to end in one segmented sum, at their rows of a padded batch after a lead of special tokens
    (and, where a text's tokens are out of order, one text at a time): each gets exactly its own vectors."""
    rng = np.random.default_rng(seed)
    texts = [t for t in _texts(rng, 40, 100 * seed) if in_order or len(t[0]) > 2]
    if in_order:
        texts = [(o, s) for o, s in texts if (o[1:] >= o[:-1]).all()]
    else:
        offsets = texts[0][0].copy()
        offsets[0] = offsets[:, 1].max() + 1, offsets[:, 1].max() + 2  # a first token after the others
        texts[0] = (offsets, texts[0][1])
    lead, width = 2, 2 + max(len(o) for o, _ in texts) + 3
    states = np.random.default_rng(seed).standard_normal((len(texts), width, 8)).astype(np.float32)
    together = batch_mention_vectors(states, lead, [o for o, _ in texts], [s for _, s in texts])
    for row, (offsets, spans) in enumerate(texts):
        alone = batch_mention_vectors(states[row : row + 1, lead : lead + len(offsets)], 0, [offsets], [spans])[0]
        np.testing.assert_array_equal(together[row][0], alone[0])
        np.testing.assert_array_equal(together[row][1], alone[1])
        assert len(together[row][0]) == len(spans)
    assert sum(len(v) for v, _ in together) == sum(len(s) for _, s in texts)
