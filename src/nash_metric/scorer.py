"""`NASH`, the front class: options in, a frozen `Fitted` built once, the pipeline (`pipeline/steps.py`) run on it.

Text channel without the numbers, number channel on aligned mentions, IDF mixing (DESIGN §1). Nothing here
computes a score: `score`, `iter_score`, `explain` and `plot` hand chunks of pairs to `pipeline.steps`;
`with_options` and `for_corpus` return a new front over a new `Fitted` (`pipeline/fitted.py`).
"""

from __future__ import annotations

import functools
import inspect
import itertools
import os
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .config import Backend, Dtype, NASHConfig, NumberReader, TextChannel, model_bound_options, with_option_signature
from .pipeline import fitted as fitting
from .pipeline.blank import BlankCount, count_blank
from .pipeline.echo import echo, hashcode
from .pipeline.output import NASHOutput
from .pipeline.pool import read_pairs
from .pipeline.steps import score_blocks, score_chunk, stream_blocks

if TYPE_CHECKING:
    import numpy as np
    from matplotlib.figure import Figure

_P = inspect.Parameter
_SELF_AND_CONFIG = [_P("self", _P.POSITIONAL_ONLY), _P("config", _P.POSITIONAL_OR_KEYWORD, default=None)]


def _fitted_property(name: str, doc: str) -> property:
    return property(lambda self: getattr(self._fitted, name), doc=doc)


class NASH:
    """Numerically Aware Scoring Heuristic over a token-level or sentence-level backbone.

    `NASH(model=..., backend=..., ...)` or `NASH(config)` with a `NASHConfig`; keyword options override the
    config's. The model is loaded once; `with_options` derives scorers that share it.
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
            comparisons: bool = False,
            numbers: NumberReader = "full",
            text_channel: TextChannel = "auto",
            bertscore_idf: bool = False,
            rescale_with_baseline: bool = False,
            baseline_path: str | None = None,
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
    corpus_fixed = _fitted_property("corpus_fixed", "Whether tau, the IDF and bert-score's IDF are all fixed.")

    @property
    def config(self) -> NASHConfig:
        """The options (`NASHConfig`). Until 0.4, reading it as a dict reads the echo, with a DeprecationWarning."""
        return _ConfigAndEcho.of(self._fitted)

    @property
    def options(self) -> NASHConfig:
        warnings.warn("NASH.options is NASH.config since 0.3; the old name goes in 0.4", DeprecationWarning, 2)
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
        """A scorer with some options changed; it shares this one's model unless a model-bound option changed."""
        config = self._fitted.config.replace(**changes)
        if any(getattr(config, name) != getattr(self._fitted.config, name) for name in model_bound_options()):
            return NASH(config)
        return NASH(fitting.configure(self._fitted, config))

    def for_corpus(self, predictions: Sequence[str] | fitting.Chunks,
                   references: Sequence[str] | Sequence[Sequence[str]] | None = None,
                   show_progress: bool = False) -> NASH:
        """This scorer with what a corpus decides fixed: tau for threshold='auto', the table for idf='references',
        bert-score's IDF for bertscore_idf (`pipeline.fitted.fit_corpus`).

        Called once per corpus (`score` does it), so the chunks, shards and processes of one corpus share one tau
        and one IDF. A corpus too large to hold is passed as a function returning its (predictions, references)
        chunks (`PairSource.chunks`) in place of the two lists: one pass over them gathers what the options need.
        """
        if callable(predictions) != (references is None):
            raise TypeError("for_corpus takes predictions and references, or one function returning their chunks")
        chunks = predictions if callable(predictions) else functools.partial(iter, [(predictions, references)])
        fitted = fitting.fit_corpus(self._fitted, chunks, show_progress)
        return self if fitted is self._fitted else NASH(fitted)

    # -- scoring -----------------------------------------------------------------------------------------------
    def score(self, predictions: Sequence[str], references: Sequence[str] | Sequence[Sequence[str]],
              show_progress: bool = False) -> NASHOutput:
        """NASH of each (prediction, reference) pair, with S_text, S_num, alpha and the backbone score.

        `references` holds one str per prediction, or one list of str per prediction: then every pair is scored
        and the reference with the highest NASH is kept (`best_reference` says which). Pairs are scored in chunks
        of `chunk_size` whose encodings are dropped as they finish, so memory stays flat; a pair scores the same
        alone or inside any larger call. A blank prediction or reference scores 0 on every channel, as in
        bert-score, with one `BlankTextWarning` per call giving the count (`pipeline/blank.py`).
        """
        preds, refs, groups = read_pairs(predictions, references, self._fitted.config.numbers)
        if not preds:
            return NASHOutput.empty(self.echo)
        fitted = self.for_corpus(preds, refs, show_progress=show_progress)._fitted
        size = fitted.config.chunk_size
        blocks = ((preds[i : i + size], refs[i : i + size]) for i in range(0, len(preds), size))
        out = NASHOutput.concat(list(score_blocks(fitted, blocks, show_progress, total=len(preds))))
        count_blank(preds, refs, groups).warn(stacklevel=2)
        return out.best_of(groups) if groups is not None else out

    def iter_score(self, pairs: Iterable[tuple[str, str]], show_progress: bool = False,
                   total: int | None = None) -> Iterator[NASHOutput]:
        """Score a stream of (prediction, reference) pairs, yielding one `NASHOutput` per `chunk_size` pairs.

        Only one chunk is held at a time, and `unscored` indices count from the start of the stream. What a corpus
        decides (threshold='auto', idf='references') cannot be fixed from a stream: fix it first with `for_corpus`
        on the whole corpus (or a sample), or pass a tau and an IDF file. Blank texts score 0, with one
        `BlankTextWarning` for the whole stream when it ends or is closed.
        """
        if not self.corpus_fixed:
            raise ValueError(
                "iter_score needs a fixed tau and IDF, but threshold='auto', idf='references' and bertscore_idf "
                "are decided by the whole corpus: call scorer.for_corpus(predictions, references) first, or pass "
                "a number as threshold and an IDF file from `nash fit-idf` as idf"
            )
        config, blank = self._fitted.config, BlankCount()
        # One output per block, in order: each block's blank count is taken as its output is yielded.
        blocks, counts = itertools.tee(stream_blocks(pairs, config.chunk_size, config.numbers))
        try:
            outputs = score_blocks(self._fitted, (block for block, _ in blocks), show_progress, total)
            for out, (_, count) in zip(outputs, counts):
                blank += count
                yield out
        finally:
            blank.warn(stacklevel=2)

    def explain(self, a: str, b: str) -> dict[str, Any]:
        """Every step of one pair's score as a JSON-serialisable dict."""
        return self.explain_batch([a], [b])[0]

    def explain_batch(self, predictions: Sequence[str], references: Sequence[str]) -> list[dict[str, Any]]:
        """`explain` for many pairs, sharing one scoring call."""
        from .reports.explanation import explain_pairs

        preds, refs, _ = read_pairs(predictions, references, self._fitted.config.numbers)
        if not preds:
            return []
        call = score_chunk(self.for_corpus(preds, refs)._fitted, preds, refs, keep_cosines=True)
        count_blank(preds, refs).warn(stacklevel=2)
        return explain_pairs(call, preds, refs)

    def plot(self, a: str, b: str, path: str | os.PathLike[str] | None = None) -> Figure:
        """The alignment heat map of one pair (the Space's figure), written to `path` (.png, .svg, .pdf) if given:
        the context cosine between the numbers of a (rows) and b (columns), accepted matches boxed, best matches
        below tau crossed, each number of a marked with its support verdict (`reports/plot.py`)."""
        from .reports.plot import check_figure_path, explanation_figure, save_figure

        if path is not None:
            check_figure_path(path)  # before scoring: a bad path should not cost a forward pass
        figure = explanation_figure(self.explain(a, b))
        if path is not None:
            save_figure(figure, path)
        return figure

    def mention_vectors(self, texts: Sequence[str], show_progress: bool = False) -> list[np.ndarray]:
        """Context vectors [M, H] of the scorable numbers of each text (as used for alignment)."""
        return fitting.mention_vectors(self._fitted, texts, show_progress)


class _ConfigAndEcho(NASHConfig):
    """`NASH.config` until 0.4: the `NASHConfig`, whose dict reads (0.2.0's `NASH.config` was the echo) still
    return the echo, with a DeprecationWarning. Equal to, and hashed as, the plain `NASHConfig`."""

    @classmethod
    def of(cls, fitted: fitting.Fitted) -> _ConfigAndEcho:
        config = cls(**fitted.config.to_kwargs())
        object.__setattr__(config, "_fitted", fitted)
        return config

    def _echo(self) -> dict[str, Any]:
        warnings.warn("NASH.config is the NASHConfig since 0.3; read the echo as NASH.echo (dict reads of "
                      "NASH.config go in 0.4)", DeprecationWarning, stacklevel=3)
        return echo(self._fitted)

    def __getitem__(self, key: str) -> Any:
        return self._echo()[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self._echo().get(key, default)

    def keys(self) -> Any:
        return self._echo().keys()

    def items(self) -> Any:
        return self._echo().items()

    def values(self) -> Any:
        return self._echo().values()

    def __iter__(self) -> Iterator[str]:
        return iter(self._echo())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NASHConfig) and self.to_kwargs() == other.to_kwargs()

    __hash__ = NASHConfig.__hash__
