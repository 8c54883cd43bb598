"""Random tokenisations for the tests of mention gathering: tokens with gaps and zero-width ones, one token out
of order every fifth trial (a special or odd token), and character spans across them."""

from __future__ import annotations

import numpy as np


def random_tokens(rng: np.random.Generator, n: int, trial: int, *, spans: int, longest: int, reach: int
                  ) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """(offsets [n, 2], spans): `spans` spans of 1 to `longest` characters, starting up to `reach` past the last
    token."""
    widths = rng.integers(0, 4, n)
    starts = np.cumsum(rng.integers(0, 3, n)) + np.concatenate([[0], np.cumsum(widths)[:-1]])
    offsets = np.stack([starts, starts + widths], 1)
    if trial % 5 == 0:
        offsets[int(rng.integers(0, n))] = (0, 0)  # a special or odd token: offsets out of order
    begins = rng.integers(0, int(starts[-1]) + reach, spans)
    return offsets, sorted((int(a), int(a) + int(rng.integers(1, longest + 1))) for a in begins)
