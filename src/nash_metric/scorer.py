"""`NASH`, the front class: options in, a frozen `Fitted` built once, the pipeline (`pipeline/steps.py`) run on it.

Text channel without the numbers, number channel on aligned mentions, IDF mixing (docs/method.md §1). Nothing here
computes a score: `score`, `iter_score`, `explain` and `plot` hand chunks of pairs to `pipeline.steps`;
`with_options` and `for_corpus` return a new front over a new `Fitted` (`pipeline/fitted.py`).
"""

from __future__ import annotations

import functools
import inspect
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .common.blank import BlankCount, count_blank
from .config import (
    Backend,
    Dtype,
    NASHConfig,
    NumberReader,
    TextChannel,
    Verdict,
    model_bound_options,
    with_option_signature,
)
from .pipeline import fitted as fitting
from .pipeline.echo import echo, hashcode
from .pipeline.output import NASHOutput
from .pipeline.pool import read_pairs
from .pipeline.steps import score_chunk, score_pairs, score_stream

if TYPE_CHECKING:
    import numpy as np
    from matplotlib.figure import Figure

    from .reports.plot import PlotBudget

_P = inspect.Parameter
_SELF_AND_CONFIG = [_P("self", _P.POSITIONAL_ONLY), _P("config", _P.POSITIONAL_OR_KEYWORD, default=None)]


def _fitted_property(name: str, doc: str) -> property:
    return property(lambda self: getattr(self._fitted, name), doc=doc)


class NASH:
    """Numerically Aware Scoring Heuristic over a token-level or sentence-level backbone.

    `NASH(model=..., backend=..., ...)` or `NASH(config)` with a `NASHConfig`; keyword options override the
    config's. The model is loaded once; `with_options` derives scorers that share it.

    Args:
        config: The options as a `NASHConfig` (None: its defaults), or a `Fitted` state, wrapped as it is (it takes
            no further options).
        **options: Any option of `NASHConfig` by name (`model`, `backend`, `threshold`, `idf`, `batch_size`, ...),
            overriding the config's: the reference's [options table](#nash-options) lists every one with its default
            and doc.

    Raises:
        TypeError: An option name that is not one of `NASHConfig`'s (the message suggests the closest), or options
            given with a `Fitted` state.
        ValueError: An option value that is not valid, or options that do not go together (`OptionError`, whose
            message names them).
    """

    if TYPE_CHECKING:  # what type checkers and IDEs see: NASHConfig's options (tests/unit/test_api.py checks them)

        def __init__(
            self,
            config: NASHConfig | fitting.Fitted | None = None,
            *,
            model: str = "sentence-transformers/all-MiniLM-L6-v2",
            backend: Backend = "auto",
            num_layers: int | None = None,
            threshold: float | str | None = None,
            idf: Mapping[str, float] | Sequence[str] | str | os.PathLike[str] = "uniform",
            device: str | None = None,
            batch_size: int = 64,
            dtype: Dtype = "float32",
            chunk_size: int = 1024,
            workers: int = 0,
            comparisons: bool = False,
            numbers: NumberReader = "full",
            text_channel: TextChannel = "auto",
            baseline: bool = False,
            verdict: Verdict = "context",
            bertscore_idf: bool = False,
            rescale_with_baseline: bool = False,
            baseline_path: str | None = None,
            glossary: Mapping[str, str] | str | os.PathLike[str] | None = None,
        ) -> None: ...

    else:  # **options: NASH(config, batch_size=8) overrides batch_size alone, and a misspelt option gets a hint

        @with_option_signature(before=_SELF_AND_CONFIG)
        def __init__(self, config: NASHConfig | fitting.Fitted | None = None, **options: Any) -> None:
            if isinstance(config, fitting.Fitted) and options:
                raise TypeError("NASH(fitted) takes no options; derive a scorer with with_options(...)")
            is_fitted = isinstance(config, fitting.Fitted)
            self._fitted = config if is_fitted else fitting.load(NASHConfig.from_options(config, **options))

    # -- what the options and the corpus decided -----------------------------------------------------------
    fitted = property(lambda self: self._fitted, doc="The frozen state: model, tau, IDF, rescale baseline.")
    threshold = _fitted_property("tau", "tau; None when each corpus calibrates its own ('auto').")
    threshold_source = _fitted_property("tau_source", "Where tau came from (given, model default, calibrated).")
    calibration = _fitted_property("calibration", "The `Calibration` tau came from, if one did.")
    resolved = _fitted_property("model", "The resolved model (`ResolvedModel`: name, path, source).")
    backend = _fitted_property("backend", "'token' or 'sentence'.")
    num_layers = _fitted_property("num_layers", "The layer whose states are read.")
    device = _fitted_property("device", "The torch device.")
    encoder = _fitted_property("encoder", "The loaded backbone.")
    backbone_name = _fitted_property("backbone_name", "What the backbone score is: 'BERTScore F1' or 'cosine'.")
    idf = _fitted_property("idf", "The mixing `IDF`; None while each corpus fits its own (idf='references').")
    bertscore_idf = _fitted_property("bertscore_idf", "bert-score's IDF (originals, text channel), once fitted.")
    rescale = _fitted_property("rescale", "The `RescaleBaseline` scores are rescaled by, if any.")
    corpus_fixed = _fitted_property("corpus_fixed", "Whether tau, the IDF and bert-score's IDF are all fixed.")

    @property
    def config(self) -> NASHConfig:
        """The options (`NASHConfig`); the resolved ones, as a dict, are `echo`."""
        return self._fitted.config

    @property
    def echo(self) -> dict[str, Any]:
        """The configuration echo: every option that can change a score, resolved (the model source, backend,
        layer, tau, ...) or as given, then the versions (`pipeline/echo.py`); the hashcode digests it."""
        return echo(self._fitted)

    @property
    def hashcode(self) -> str:
        return hashcode(self.echo)

    def with_options(self, **changes: Any) -> NASH:
        """A scorer with some options changed; it shares this one's model unless a model-bound option changed.

        Args:
            **changes: Options of `NASHConfig` by name, with their new values; the others stay as they are.

        Returns:
            A new `NASH`; this one is left as it is.

        Raises:
            TypeError: An option name that is not one of `NASHConfig`'s.
            ValueError: An option value that is not valid.
        """
        config = self._fitted.config.replace(**changes)
        if any(getattr(config, name) != getattr(self._fitted.config, name) for name in model_bound_options()):
            return NASH(config)
        return NASH(fitting.configure(self._fitted, config))

    def for_corpus(self, predictions: Sequence[str] | fitting.Chunks,
                   references: Sequence[str] | Sequence[Sequence[str]] | None = None,
                   show_progress: bool = False) -> NASH:
        """This scorer with what a corpus decides fixed (tau for 'auto', the IDF for 'references', bert-score's IDF),
        once per corpus, so its chunks, shards and processes share them (`pipeline.fitted.fit_corpus`). A corpus too
        large to hold is passed as a function returning its (predictions, references) chunks.

        Args:
            predictions: The corpus's predictions, or a function returning its (predictions, references) chunks
                (then without `references`).
            references: One reference, or one list of references, per prediction.
            show_progress: Show a progress bar while the corpus is read.

        Returns:
            A scorer with what the corpus decides fixed; this one when nothing was left to fix.

        Raises:
            TypeError: Both a function and references, or neither.
        """
        if callable(predictions) != (references is None):
            raise TypeError("for_corpus takes predictions and references, or one function returning their chunks")
        chunks = predictions if callable(predictions) else functools.partial(iter, [(predictions, references)])
        fitted = fitting.fit_corpus(self._fitted, chunks, show_progress)
        return self if fitted is self._fitted else NASH(fitted)

    # -- scoring -----------------------------------------------------------------------------------------------
    def score(self, predictions: Sequence[str], references: Sequence[str] | Sequence[Sequence[str]],
              show_progress: bool = False, *, progress: Callable[[int, int], object] | None = None) -> NASHOutput:
        """NASH of each (prediction, reference) pair, with S_text, S_num, alpha and the backbone score.

        `references` holds one str, or one list of str, per prediction: with lists the reference with the highest
        NASH is kept (`best_reference`). Scored in chunks of `chunk_size`, so memory stays flat and a pair scores
        the same alone or in any larger call. A blank text scores 0, as in bert-score, with one `BlankTextWarning`.
        `progress` hears `(windows encoded, windows in all)` of the chunk being scored after each forward pass (a
        caller's own progress bar: a long source is most of the work, in windows of the model's length).

        Args:
            predictions: The texts scored (for a figure check, the generated texts).
            references: One reference (str), or one list of candidate references, per prediction (for a figure
                check, the sources).
            show_progress: Show a progress bar on stderr.
            progress: Called with `(windows encoded, windows in all)` after each forward pass.

        Returns:
            The scores of each prediction, the verdicts of its figures, the configuration echo and its hashcode
                (`NASHOutput`, one row per prediction); an empty output when there are no predictions.

        Raises:
            ValueError: Predictions and references of different lengths.
            TypeError: A text that is not a str (the message gives its index).
        """
        preds, refs, groups = read_pairs(predictions, references, self._fitted.config.numbers)
        if not preds:
            return NASHOutput.empty(self.echo, self.config.baseline)
        out = score_pairs(self.for_corpus(preds, refs, show_progress=show_progress)._fitted, preds, refs, show_progress,
                          on_batch=progress)
        count_blank(preds, refs, groups).warn(stacklevel=2)
        return out.best_of(groups) if groups is not None else out

    def iter_score(self, pairs: Iterable[tuple[str, str]], show_progress: bool = False,
                   total: int | None = None) -> Iterator[NASHOutput]:
        """Score a stream of (prediction, reference) pairs, one `NASHOutput` per `chunk_size` pairs, one chunk held
        at a time (`unscored` indices count from the stream's start). What a corpus decides must be fixed first
        (`for_corpus`, or a tau and an IDF file). One `BlankTextWarning` for the whole stream.

        Args:
            pairs: (prediction, reference) pairs, read one chunk at a time.
            show_progress: Show a progress bar on stderr.
            total: The number of pairs, if known, for the progress bar.

        Yields:
            One `NASHOutput` per chunk of `chunk_size` pairs (the last one shorter).

        Raises:
            ValueError: What the corpus decides (threshold='auto', idf='references', bertscore_idf) is not fixed:
                call `for_corpus` first (raised when the first chunk is asked for).
            TypeError: An item of the stream that is not a (prediction, reference) pair.
        """
        blank = BlankCount()
        try:
            for out, count in score_stream(self._fitted, pairs, show_progress, total):
                blank += count
                yield out
        finally:
            blank.warn(stacklevel=2)

    def explain(self, a: str, b: str) -> dict[str, Any]:
        """Every step of one pair's score as a JSON-serialisable dict.

        Args:
            a: The prediction.
            b: The reference (or source).

        Returns:
            The texts, their number mentions and masked texts, the context cosines and tau, the alignments both
                ways, the weights and alpha, the scores, the verdict of each of a's figures (`figure_verdicts`), the
                configuration echo and its hashcode (what `nash explain --json` prints).
        """
        return self.explain_batch([a], [b])[0]

    def explain_batch(self, predictions: Sequence[str], references: Sequence[str]) -> list[dict[str, Any]]:
        """`explain` for many pairs, sharing one scoring call.

        Args:
            predictions: The predictions.
            references: One reference per prediction.

        Returns:
            One `explain` dict per pair; an empty list when there are no pairs.
        """
        from .reports.explanation import explain_pairs

        preds, refs, _ = read_pairs(predictions, references, self._fitted.config.numbers)
        if not preds:
            return []
        call = score_chunk(self.for_corpus(preds, refs)._fitted, preds, refs, keep_cosines=True)
        count_blank(preds, refs).warn(stacklevel=2)
        return explain_pairs(call, preds, refs)

    def plot(self, a: str, b: str, path: str | os.PathLike[str] | None = None, *,
             budget: PlotBudget | None = None) -> Figure:
        """The alignment heat map of one pair (the Space's figure), written to `path` (.png, .svg, .pdf) if given:
        the context cosine between the numbers of a (rows) and b (columns), accepted matches boxed, best matches
        below tau crossed, each number of a marked with its support verdict (`reports/plot.py`). A pair with more
        numbers than `budget` (default `reports.plot.PLOT_BUDGET`: 40 x 30) shows those with the highest cosines,
        and its title says how many it left out.

        Args:
            a: The prediction (the heat map's rows).
            b: The reference or source (its columns).
            path: Where to write the figure (.png, .svg or .pdf); None writes nothing.
            budget: The most numbers of a and of b shown (`reports.plot.PlotBudget`).

        Returns:
            The matplotlib figure.

        Raises:
            ModuleNotFoundError: matplotlib is not installed (`MissingExtraError`, naming the `plot` extra and the
                pip command that installs it).
        """
        from .common.extras import require

        require("plot", "NASH.plot")
        from .reports.plot import PLOT_BUDGET, pair_figure

        return pair_figure(self.explain, a, b, path, budget or PLOT_BUDGET)

    def mention_vectors(self, texts: Sequence[str], show_progress: bool = False) -> list[np.ndarray]:
        """Context vectors [M, H] of the scorable numbers of each text (as used for alignment).

        Args:
            texts: The texts.
            show_progress: Show a progress bar on stderr.

        Returns:
            One array per text, a row per number (M) of the backbone's hidden size (H).
        """
        return fitting.mention_vectors(self._fitted, texts, show_progress)
