"""One-call functional entry point, with a cached scorer per configuration (as torchmetrics' functional API)."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, Protocol

from .config import NASHConfig, with_option_signature
from .pipeline.output import NASHOutput

_P = inspect.Parameter
_CACHE_SIZE = 4


@lru_cache(maxsize=_CACHE_SIZE)
def cached_scorer(config: NASHConfig):
    """The loaded scorer for `config`, kept for the last few configurations."""
    from .scorer import NASH

    return NASH(config)


if TYPE_CHECKING:
    from .scorer import NASH

    _Options = ParamSpec("_Options")

    class _Scoring(Protocol[_Options]):
        """`nash_score` as type checkers see it: the pairs, then the options `NASH.__init__` declares for them."""

        def __call__(
            self,
            predictions: Sequence[str],
            references: Sequence[str] | Sequence[Sequence[str]],
            show_progress: bool = False,
            *args: _Options.args,
            **options: _Options.kwargs,
        ) -> NASHOutput: ...

    def _options_of(
        init: Callable[Concatenate[NASH, NASHConfig | None, _Options], None],
    ) -> Callable[[Callable[..., NASHOutput]], _Scoring[_Options]]: ...

    _takes_options = _options_of(NASH.__init__)  # one typed declaration of the options, NASH's
else:
    _takes_options = with_option_signature(
        before=[_P("predictions", _P.POSITIONAL_OR_KEYWORD), _P("references", _P.POSITIONAL_OR_KEYWORD)],
        after=[_P("show_progress", _P.KEYWORD_ONLY, default=False)],
    )


@_takes_options
def nash_score(
    predictions: Sequence[str],
    references: Sequence[str] | Sequence[Sequence[str]],
    show_progress: bool = False,
    **options: Any,
) -> NASHOutput:
    """`NASH(**options).score(predictions, references)`, reusing the loaded model across calls.

    The last few configurations' scorers stay loaded (keyed by the whole `NASHConfig`).
    """
    return cached_scorer(NASHConfig.from_options(**options)).score(predictions, references, show_progress)
