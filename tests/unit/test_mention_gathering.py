"""Mention vectors: the mean state of the sub-tokens overlapping each span, gathered in one vectorised step."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from random_tokens import random_tokens

from nash_metric.backbone.encoders import Encoder


def _by_loop(content: torch.Tensor, offsets: list[tuple[int, int]], spans: list[tuple[int, int]]):
    off = np.asarray(offsets).reshape(-1, 2)
    out = []
    for start, end in spans:
        rows = np.nonzero((off[:, 0] < end) & (off[:, 1] > start) & (off[:, 1] > off[:, 0]))[0]
        out.append(torch.nn.functional.normalize(content[rows].mean(0), dim=-1).numpy() if rows.size else None)
    return out


@pytest.mark.parametrize("seed", range(5))
def test_gathering_equals_the_mean_of_each_spans_tokens(seed):
    """Random tokenisations (gaps, zero-width tokens, one out of order) and spans (across tokens, in gaps)."""
    rng = np.random.default_rng(seed)
    for trial in range(60):
        n = int(rng.integers(1, 40))
        offsets, spans = random_tokens(rng, n, trial, spans=int(rng.integers(0, 6)), longest=5, reach=5)
        offsets = [(int(a), int(b)) for a, b in offsets]
        content = torch.randn(n, 8)
        vectors, has = Encoder._mention_vectors(content, offsets, spans)
        for m, expected in enumerate(_by_loop(content, offsets, spans)):
            assert has[m] == (expected is not None)
            if expected is not None:
                np.testing.assert_allclose(vectors[m], expected, atol=1e-6)
            else:
                assert not vectors[m].any()
