"""One-call functional entry point, with a cached scorer per configuration."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from .scorer import NASH, NASHOutput


@lru_cache(maxsize=4)
def _cached_scorer(
    model: str,
    backend: str,
    num_layers: int | None,
    threshold: Any,
    device: str | None,
    batch_size: int,
    comparisons: bool,
) -> NASH:
    return NASH(
        model=model,
        backend=backend,
        num_layers=num_layers,
        threshold=threshold,
        device=device,
        batch_size=batch_size,
        comparisons=comparisons,
    )


def nash_score(
    predictions: Sequence[str],
    references: Sequence[str],
    model: str = "sentence-transformers/all-MiniLM-L6-v2",
    backend: str = "auto",
    num_layers: int | None = None,
    threshold: float | str | None = None,
    device: str | None = None,
    batch_size: int = 64,
    comparisons: bool = False,
) -> NASHOutput:
    """`NASH(...).score(predictions, references)`, reusing the loaded model across calls."""
    scorer = _cached_scorer(str(model), backend, num_layers, threshold, device, batch_size, comparisons)
    return scorer.score(predictions, references)
