"""One-call functional entry point (as torchmetrics' functional API), over the process's one model cache."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, Protocol

from .config import NASHConfig, with_option_signature
from .pipeline.output import NASHOutput

_P = inspect.Parameter


def cached_scorer(config: NASHConfig) -> NASH:
    """The scorer for `config` from the process's model cache (`backbone.cache.MODELS`), shared by `nash_score`,
    the evaluate module and the Space: the same options reuse it; options that do not touch the model derive one
    sharing its loaded model (`with_options`); other model-bound options load a model of their own."""
    from .backbone import cache
    from .scorer import NASH

    model = f"{config.model} [{config.model_digest()}]"  # one loaded model: evicted with every scorer on it
    base = cache.MODELS.get((model, "nash"), lambda: NASH(config), background=False)
    if base.fitted.config == config:
        return base
    return cache.MODELS.get((model, f"nash {config.digest()}"), lambda: base.with_options(**config.to_kwargs()),
                            background=False)


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

    The scorers stay loaded in the process's model cache (`cached_scorer`): the last few models, LRU.

    Args:
        predictions: The texts scored.
        references: One reference (str), or one list of candidate references, per prediction; with lists the one
            with the highest NASH is kept (`best_reference`).
        show_progress: Show a progress bar on stderr.
        **options: Any option of `NASHConfig` by name, as `NASH(...)` takes them: the reference's
            [options table](#nash-options) lists every one with its default and doc.

    Returns:
        The scores of each pair, the verdicts of the prediction's figures, the configuration echo and its hashcode
            (`NASHOutput`, as `NASH.score` returns it).

    Raises:
        TypeError: An option name that is not one of `NASHConfig`'s, or a text that is not a str.
        ValueError: An option value that is not valid, or predictions and references of different lengths.
    """
    return cached_scorer(NASHConfig.from_options(**options)).score(predictions, references, show_progress)
