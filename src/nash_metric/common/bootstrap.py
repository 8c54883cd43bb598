"""Percentile bootstrap intervals of means: the corpus summary's and the benchmarks' (`protocols.bootstrap_ci`).

Every column is resampled with the same indices, drawn from one generator seeded with ``seed``. Indices are drawn
at most `BLOCK` at a time, so memory stays bounded whatever the number of items: a block holds several whole
resamples or, past `BLOCK` items, part of one. numpy's generator yields bounded integers one after another, so the
block size never changes the indices drawn, only how many are held at once (past `BLOCK` items a resample's mean
is the sum of its blocks' sums over n: the same up to rounding).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

BLOCK = 8_000_000  # indices held at once (64 MB of int64)


def percentile_intervals(columns: Sequence[np.ndarray], n_resamples: int = 1000, confidence: float = 0.95,
                         seed: int = 0) -> list[tuple[float, float]]:
    """(low, high) of each column's mean: percentiles of its means over `n_resamples` resamples of the items.

    ``columns`` are 1-D float arrays of one non-zero length; every column is resampled with the same indices.
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie strictly between 0 and 1, got {confidence}")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be at least 1, got {n_resamples}")
    means = _resampled_means(columns, n_resamples, np.random.default_rng(seed))
    tail = (1 - confidence) / 2
    return [(float(lo), float(hi)) for lo, hi in np.quantile(means, [tail, 1 - tail], axis=1).T]


def _resampled_means(columns: Sequence[np.ndarray], n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """Each column's mean over each resample of the item indices, shape (columns, resamples)."""
    n = len(columns[0])
    means = np.empty((len(columns), n_resamples))
    if n <= BLOCK:
        per_block = max(1, BLOCK // n)
        for start in range(0, n_resamples, per_block):
            stop = min(start + per_block, n_resamples)
            index = rng.integers(0, n, size=(stop - start, n))
            for row, column in enumerate(columns):
                means[row, start:stop] = column.take(index).mean(axis=1)  # take: faster than column[index]
        return means
    for resample in range(n_resamples):
        sums = np.zeros(len(columns))
        for start in range(0, n, BLOCK):
            index = rng.integers(0, n, size=min(BLOCK, n - start))
            sums += [column.take(index).sum() for column in columns]
        means[:, resample] = sums / n
    return means
