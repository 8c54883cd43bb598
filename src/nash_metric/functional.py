"""One-call functional entry point, with a cached scorer per configuration (as torchmetrics' functional API)."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from .config import NASHConfig, with_option_signature
from .output import NASHOutput

_P = inspect.Parameter
_CACHE_SIZE = 4


@lru_cache(maxsize=_CACHE_SIZE)
def cached_scorer(config: NASHConfig):
    """The loaded scorer for `config`, kept for the last few configurations."""
    from .scorer import NASH

    return NASH(config)


@with_option_signature(
    before=[_P("predictions", _P.POSITIONAL_OR_KEYWORD), _P("references", _P.POSITIONAL_OR_KEYWORD)],
    after=[_P("show_progress", _P.KEYWORD_ONLY, default=False)],
)
def nash_score(
    predictions: Sequence[str], references: Sequence[str], show_progress: bool = False, **options: Any
) -> NASHOutput:
    """`NASH(**options).score(predictions, references)`, reusing the loaded model across calls.

    The last few configurations' scorers stay loaded (keyed by the whole `NASHConfig`).
    """
    return cached_scorer(NASHConfig.from_options(**options)).score(predictions, references, show_progress)
