"""Pairs of blocks of different sizes (m x n cells each) batched for one padded product per batch.

The number channel's cosine matrices (`alignment.align_numbers`) and BERTScore's token similarities
(`similarity.bertscore`) both pad the pairs of a batch to its largest; sorting by size and cutting on a budget
keeps one large pair from padding all the small ones beside it.
"""

from __future__ import annotations

import numpy as np

SMALL_BATCH = 1 << 16  # padded cells below which a batch ignores the padding bound (too small to matter)


def size_batches(
    rows: np.ndarray,
    cols: np.ndarray,
    budget: int,
    *,
    max_pairs: int | None = None,
    per_pair: int = 0,
    max_padding: float | None = None,
    eligible: np.ndarray | None = None,
) -> list[np.ndarray]:
    """Indices of the pairs (`eligible` ones only, when given), sorted by (rows, cols) and cut into batches.

    A batch closes before it would hold more than `max_pairs` pairs, cost more than `budget` (its padded cells, plus
    `per_pair` x (rows + cols) for each pair: gathered vectors), or, with `max_padding`, pad to more than that many
    times its real cells (batches under `SMALL_BATCH` cells excepted).
    """
    batches: list[np.ndarray] = []
    current: list[int] = []
    top_rows = top_cols = real = 0
    for k in np.lexsort((cols, rows)):
        if eligible is not None and not eligible[k]:
            continue
        rk, ck = int(rows[k]), int(cols[k])
        wide, tall = max(top_rows, rk), max(top_cols, ck)
        size = len(current) + 1
        cells = size * wide * tall
        full = max_pairs is not None and len(current) == max_pairs
        costly = cells + size * (wide + tall) * per_pair > budget
        padded = max_padding is not None and cells > max_padding * (real + rk * ck) and cells > SMALL_BATCH
        if current and (full or costly or padded):
            batches.append(np.array(current))
            current, wide, tall, real = [], rk, ck, 0
        current.append(int(k))
        top_rows, top_cols, real = wide, tall, real + rk * ck
    if current:
        batches.append(np.array(current))
    return batches
