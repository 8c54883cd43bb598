"""The one bootstrap: the draws of one (resamples, items) index array, whatever the block size."""

from __future__ import annotations

import numpy as np
import pytest

from nash_metric.common import bootstrap
from nash_metric.common.bootstrap import percentile_intervals


def _one_draw(x: np.ndarray, n_resamples: int, confidence: float, seed: int) -> tuple[float, float]:
    """The interval from every resample's indices drawn at once (what the blocks must reproduce)."""
    index = np.random.default_rng(seed).integers(0, len(x), size=(n_resamples, len(x)))
    tail = (1 - confidence) / 2
    low, high = np.quantile(x[index].mean(axis=1), [tail, 1 - tail])
    return float(low), float(high)


@pytest.mark.parametrize("block", [8_000_000, 1000, 401, 400])
def test_blocks_of_whole_resamples_give_the_draws_of_one(monkeypatch, block):
    monkeypatch.setattr(bootstrap, "BLOCK", block)
    x = np.random.default_rng(2).random(400)
    for seed, confidence in ((0, 0.95), (9, 0.9)):
        assert percentile_intervals([x], 300, confidence, seed) == [_one_draw(x, 300, confidence, seed)]


def test_a_resample_split_over_blocks_draws_the_same_pairs(monkeypatch):
    columns = [np.random.default_rng(3).random(400), np.random.default_rng(4).random(400)]
    whole = percentile_intervals(columns, 300)
    monkeypatch.setattr(bootstrap, "BLOCK", 150)  # each resample's 400 indices in blocks of 150, 150, 100
    split = percentile_intervals(columns, 300)
    np.testing.assert_allclose(split, whole, rtol=1e-12)  # sums / n instead of means: rounding only


def test_every_column_is_resampled_with_the_same_indices():
    x = np.random.default_rng(5).random(50)
    low_x, low_shifted = (low for low, _ in percentile_intervals([x, x + 1.0], 200, seed=1))
    assert low_shifted == pytest.approx(low_x + 1.0, abs=1e-12)


def test_arguments_are_checked():
    with pytest.raises(ValueError, match="confidence"):
        percentile_intervals([np.ones(3)], confidence=1.0)
    with pytest.raises(ValueError, match="n_resamples"):
        percentile_intervals([np.ones(3)], n_resamples=0)
