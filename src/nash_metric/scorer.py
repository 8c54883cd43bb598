"""The NASH scorer: text channel without the numbers, number channel on aligned mentions, IDF mixing.

`NASH._score` reads top to bottom as the method (DESIGN §1), one named function per step:

0. reading               `read_texts`                   (pool.py; other scripts' digits as ASCII, full reader)
1. modal separation      `TextPool.build`               (pool.py; numbers/ finds and masks the numbers)
2. encoding              `Encoder.encode`               (encoders.py; one forward pass per distinct text)
3. mention vectors       `TextPool.mention_table`       (mean sub-token state of each number)
4. text channel          `text_similarity`              (similarity.py; S_text without numbers, baseline on originals)
5. alignment             `align_numbers`                (alignment.py; directional argmax)
6. tau gate, magnitude   `Matches.accepted`, `value_similarity` (magnitude; calendar distance for periods)
7. S_num                 `numeric_similarity`          (per direction: the mean over that side's numbers)
7b. numeric support      `support_fields`               (support.py; a verdict per number of the prediction)
8. weights and alpha     `pair_alphas`                  (weighting.py; every token 1, or an IDF table)
9. mixing                `mix`                          (output.mixed: F, precision and recall)
9b. blank texts          `zero_blank_pairs`             (blank.py; a blank prediction or reference scores 0)
10. rescaling (optional)  `RescaleBaseline.apply`        (rescale.py; (s - b) / (1 - b), as bert-score)

One forward pass per distinct text (originals and text-channel forms pooled and deduplicated) yields both the
baseline and the contextual number vectors, so every result carries its own side-by-side comparison. With
`text_channel="one-pass"` the text-channel forms are not encoded: S_text is read from the originals' pass
without the numbers' tokens (encoders.channel_view), one forward pass per text in all.

`score` runs `_score` on chunks of `chunk_size` pairs and drops each chunk's encodings, so memory stays flat.
What a whole corpus decides (tau for threshold='auto', the table for idf='references', bert-score's IDF) is
fixed once by `for_corpus` before the first chunk; everything else is a function of the pair alone, so a
chunk, a shard or a process scores each pair exactly as one call over the whole corpus would.
"""

from __future__ import annotations

import copy
import ctypes
import functools
import hashlib
import heapq
import inspect
import itertools
import os
import sys
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import torch
from tqdm.auto import tqdm

from .backbone.encoders import Encoding, channel_view, load_encoder
from .backbone.models import check_available, choose_backend, default_threshold, resolve_model
from .backbone.similarity import PRF, BertScoreIDF, text_similarity
from .calibration.rescale import RescaleBaseline, load_rescale
from .calibration.threshold import MIN_CALIBRATION_SENTENCES, Calibration, builtin_sentences, tau_from_vectors
from .common.validation import check_pairs, check_reference_lists, check_texts
from .config import NASHConfig, model_bound_options, score_options, with_option_signature
from .numbers import extract_numbers
from .pipeline.alignment import align_numbers
from .pipeline.blank import BlankCount, blank_pairs, count_blank, zero_blank_pairs
from .pipeline.output import PROVENANCE, NASHOutput, hashcode, mixed, support_fields
from .pipeline.pool import TextPool, read_texts, valued
from .pipeline.support import support_keys
from .pipeline.weighting import REFERENCES, fit_idf, load_idf, pair_alphas
from .reports.explanation import ScoredCall, explain_pairs

if TYPE_CHECKING:
    from matplotlib.figure import Figure

_P = inspect.Parameter
AUTO_CALIBRATION_TEXTS = 2000  # threshold='auto': distinct texts of a corpus that its tau is calibrated on
_SELF_AND_CONFIG = [_P("self", _P.POSITIONAL_ONLY), _P("config", _P.POSITIONAL_OR_KEYWORD, default=None)]


class NASH:
    """Numerically Aware Scoring Heuristic over a token-level or sentence-level backbone.

    `NASH(model=..., backend=..., ...)` or `NASH(config)` with a `NASHConfig`; keyword options override the
    config's. The model is loaded once; `with_options` derives scorers that share it.
    """

    if TYPE_CHECKING:  # what type checkers and IDEs see: NASHConfig's options (tests/unit/test_api.py checks them)

        def __init__(
            self,
            config: NASHConfig | None = None,
            *,
            model: str = "sentence-transformers/all-MiniLM-L6-v2",
            backend: str = "auto",
            num_layers: int | None = None,
            threshold: float | str | None = None,
            idf: Mapping[str, float] | Sequence[str] | str | os.PathLike[str] = "uniform",
            device: str | None = None,
            batch_size: int = 64,
            dtype: str = "float32",
            chunk_size: int = 1024,
            comparisons: bool = False,
            numbers: str = "full",
            text_channel: str = "auto",
            bertscore_idf: bool = False,
            rescale_with_baseline: bool = False,
            baseline_path: str | None = None,
        ) -> None: ...

    else:  # **options: NASH(config, batch_size=8) overrides batch_size alone, and a misspelt option gets a hint

        @with_option_signature(before=_SELF_AND_CONFIG)
        def __init__(self, config: NASHConfig | None = None, **options: Any) -> None:
            self._load(NASHConfig.from_options(config, **options))

    def _load(self, options: NASHConfig) -> None:
        """Resolve and load the model the options name, then set up what the other options decide."""
        self.options = options
        self.resolved = resolve_model(self.options.model)
        check_available(self.resolved)
        self.backend = choose_backend(self.options.backend, self.resolved, self.options.num_layers)
        self.device = torch_device(self.options.device)
        self.encoder = load_encoder(
            self.resolved, self.backend, self.options.num_layers, self.device, self.options.batch_size,
            self.options.dtype,
        )
        self.num_layers = self.encoder.num_layers
        self.baseline_name = "BERTScore F1" if self.backend == "token" else "cosine"
        self.calibration: Calibration | None = None
        self._apply_scoring_options()

    def _apply_scoring_options(self) -> None:
        """Set up what the options that do not touch the model decide: IDF, tau and the rescale baseline."""
        if self.options.bertscore_idf and self.backend != "token":
            raise ValueError("bertscore_idf applies to the token backend only")
        self.rescale: RescaleBaseline | None = None  # loaded last: it is checked against the rest of the config
        self.idf = load_idf(self.options.idf, self.options.numbers)  # None: fitted per corpus (for_corpus)
        self.bertscore_idf: tuple[BertScoreIDF, BertScoreIDF] | None = None  # likewise
        threshold = self.options.threshold
        if threshold == "auto":
            self.threshold_source, self._tau = "auto", None
        elif threshold is not None:
            self.threshold_source, self._tau = "given", threshold
        elif (fixed := default_threshold(self.resolved, self.num_layers)) is not None:
            self.threshold_source, self._tau = "model default", fixed
        else:
            if self.calibration is None or self.calibration.corpus != "builtin":
                self.calibration = tau_from_vectors(self.mention_vectors(builtin_sentences()), corpus="builtin")
            self.threshold_source, self._tau = "calibrated on the built-in corpus", self.calibration.tau
        self.rescale = load_rescale(self.options.rescale_with_baseline, self.options.baseline_path, self.config)
        self._check_rescale()

    def _check_rescale(self) -> None:
        """Once tau and the IDF are fixed: warn when the rescale baseline was fitted under other options."""
        if self.rescale is not None and self.corpus_fixed:
            self.rescale.check(self.config)

    # -- configuration ------------------------------------------------------------------------------
    @property
    def threshold(self) -> float | None:
        """tau; None when each corpus calibrates its own ("auto")."""
        return self._tau

    @property
    def config(self) -> dict[str, Any]:
        """The configuration echo: every option that can change a score, resolved as `RESOLVERS` says (the model
        source, backend, layer, tau, ...) or as given, then the versions; the hashcode digests it (output.py)."""
        import transformers

        from ._version import __version__

        echo: dict[str, Any] = {}
        for name in score_options():
            resolver = RESOLVERS.get(name)
            echo.update(resolver.entries(self) if resolver else {name: getattr(self.options, name)})
        return {**echo, "nash_metric": __version__, "transformers": transformers.__version__}

    @property
    def hashcode(self) -> str:
        return hashcode(self.config)

    def with_options(self, **changes: Any) -> NASH:
        """A scorer with some options changed; it shares this one's model unless a model-bound option changed."""
        options = self.options.replace(**changes)
        if any(getattr(options, name) != getattr(self.options, name) for name in model_bound_options()):
            return NASH(options)
        other = copy.copy(self)
        other.options = options
        other._apply_scoring_options()
        return other

    # -- scoring -------------------------------------------------------------------------------------
    def score(
        self,
        predictions: Sequence[str],
        references: Sequence[str] | Sequence[Sequence[str]],
        show_progress: bool = False,
    ) -> NASHOutput:
        """NASH of each (prediction, reference) pair, with S_text, S_num, alpha and the baseline.

        `references` holds one str per prediction, or one list of str per prediction: then every pair is
        scored and the reference with the highest NASH is kept (`best_reference` says which). The pairs are
        scored in chunks of `chunk_size` whose encodings are dropped as they finish, so memory stays flat;
        under the defaults a pair scores the same alone or inside any larger call. A blank ("", "   ")
        prediction or reference scores 0 on every channel, as in bert-score, with one `BlankTextWarning` per
        call giving the count (`blank.py`).
        """
        preds, refs, groups = self._flat_pairs(predictions, references)
        if not preds:
            return NASHOutput.empty(self.config)
        scorer = self.for_corpus(preds, refs, show_progress=show_progress)
        chunk = self.options.chunk_size
        blocks = ((preds[i : i + chunk], refs[i : i + chunk]) for i in range(0, len(preds), chunk))
        parts = list(scorer._score_chunks(blocks, show_progress, total=len(preds)))
        out = NASHOutput.concat(parts)
        count_blank(preds, refs, groups).warn(stacklevel=2)
        return out.best_of(groups) if groups is not None else out

    def iter_score(
        self, pairs: Iterable[tuple[str, str]], show_progress: bool = False, total: int | None = None
    ) -> Iterator[NASHOutput]:
        """Score a stream of (prediction, reference) pairs, yielding one `NASHOutput` per `chunk_size` pairs.

        For inputs too large to hold (a file read line by line, a `datasets.Dataset`): only one chunk is held
        at a time, and `unscored` indices count from the start of the stream. What a corpus decides
        (threshold='auto', idf='references') cannot be fixed from a stream: fix it first with `for_corpus`
        on the whole corpus (or on a sample of it), or pass a tau and an IDF file. Blank texts score 0, with one
        `BlankTextWarning` for the whole stream when it ends or is closed (`blank.py`).
        """
        if not self.corpus_fixed:
            raise ValueError(
                "iter_score needs a fixed tau and IDF, but threshold='auto', idf='references' and bertscore_idf "
                "are decided by the whole corpus: call scorer.for_corpus(predictions, references) first, or pass "
                "a number as threshold and an IDF file from `nash fit-idf` as idf"
            )
        chunk = self.options.chunk_size
        iterator = iter(pairs)
        blank = [BlankCount()]  # blank texts of the stream so far: one warning when the stream ends or is closed

        def blocks() -> Iterator[tuple[list[str], list[str]]]:
            seen = 0
            while block := list(itertools.islice(iterator, chunk)):
                for k, pair in enumerate(block):
                    if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                        raise TypeError(f"pairs[{seen + k}] must be a (prediction, reference) pair, got {pair!r:.80}")
                preds, refs = self._read(*check_pairs([a for a, _ in block], [b for _, b in block]))
                blank[0] += count_blank(preds, refs, offset=seen)
                seen += len(block)
                yield preds, refs

        try:
            yield from self._score_chunks(blocks(), show_progress, total)
        finally:
            blank[0].warn(stacklevel=2)

    def _score_chunks(
        self, blocks: Iterable[tuple[list[str], list[str]]], show_progress: bool, total: int | None
    ) -> Iterator[NASHOutput]:
        """`_score` each block of read pairs in turn, freeing its encodings; unscored indices count from the start."""
        chunk, seen = self.options.chunk_size, 0
        one_chunk = total is not None and total <= chunk  # then the encoder's own bar is the one to show
        with tqdm(total=total, desc="NASH", unit="pair", disable=not show_progress or one_chunk) as bar:
            for preds, refs in blocks:
                out = self._score(preds, refs, show_progress and one_chunk).output
                release_freed_memory()
                if seen:
                    out = replace(out, unscored=[{**u, "index": u["index"] + seen} for u in out.unscored])
                seen += len(preds)
                bar.update(len(preds))
                yield out

    def for_corpus(
        self,
        predictions: Sequence[str] | Callable[[], Iterable[tuple[Sequence[str], Sequence[Any]]]],
        references: Sequence[str] | Sequence[Sequence[str]] | None = None,
        show_progress: bool = False,
    ) -> NASH:
        """This scorer with what a corpus decides fixed: tau for threshold='auto', the table for idf='references',
        bert-score's IDF for bertscore_idf.

        Called once per corpus (`score` does it), so the chunks, shards and processes of one corpus share one
        tau and one IDF. 'auto' calibrates on up to `AUTO_CALIBRATION_TEXTS` distinct texts picked by a hash of
        their content (not their position), so the choice does not depend on order or sharding.

        A corpus too large to hold is passed as a function returning its (predictions, references) chunks
        (`pair_files.PairSource.chunks`) in place of the two lists: one pass over the chunks gathers what the
        options need, holding one chunk's texts and the bounded sample, digests and counts of the statistics; no
        pass is made when nothing is left to decide.
        """
        if self.corpus_fixed:
            return self
        if callable(predictions) != (references is None):
            raise TypeError("for_corpus takes predictions and references, or one function returning their chunks")
        chunks = predictions if callable(predictions) else functools.partial(iter, [(predictions, references)])
        other = copy.copy(self)
        calibrate, fit_bertscore = other._tau is None, self.options.bertscore_idf and self.bertscore_idf is None
        sample: list[str] = []  # calibration_sample of the chunks so far: sample(A + B) = sample(sample(A) + B)
        bertscore_df: tuple[Counter[int], Counter[int]] = (Counter(), Counter())  # the originals, the text channel
        bertscore_documents = [0, 0]

        def read_references() -> Iterator[str]:
            """Every reference in the reader's view, chunk by chunk; each chunk also feeds tau's sample and
            bert-score's document frequencies (one document per reference, so the chunks' counts add up)."""
            for chunk_predictions, chunk_references in chunks():
                preds, refs, _ = self._flat_pairs(chunk_predictions, chunk_references)
                if calibrate:
                    sample[:] = calibration_sample([*sample, *preds, *refs])
                if fit_bertscore:
                    for k, fitted in enumerate(self._fit_bertscore_idf(refs)):
                        bertscore_df[k].update(fitted.df)
                        bertscore_documents[k] += fitted.n_documents
                yield from refs

        references_read = read_references()
        if other.idf is None:
            other.idf = fit_idf(references_read, self.options.numbers, source=REFERENCES)
        else:
            for _ in references_read:  # the pass the sample or bert-score's IDF still needs
                pass
        if fit_bertscore:
            other.bertscore_idf = (BertScoreIDF(bertscore_df[0], bertscore_documents[0]),
                                   BertScoreIDF(bertscore_df[1], bertscore_documents[1]))
        if calibrate:
            vectors = self.mention_vectors(sample, show_progress=show_progress)
            found = sum(1 for v in vectors if len(v))
            if found >= MIN_CALIBRATION_SENTENCES:
                other.calibration = tau_from_vectors(vectors, corpus=f"auto: {len(sample)} texts of the corpus")
                other._tau, other.threshold_source = other.calibration.tau, other.calibration.corpus
            else:
                self._auto_fallback(other, found, len(sample))
        other._check_rescale()
        return other

    def _auto_fallback(self, other: NASH, found: int, distinct: int) -> None:
        """threshold='auto' on a corpus too small to calibrate: use the tau threshold=None gives, and say so.

        mu + sigma over a handful of texts is noise (calibration.MIN_CALIBRATION_SENTENCES); the model's own tau
        is a stated, reproducible choice, so a single pair still scores.
        """
        # Cached per options (copies made by with_options inherit the attribute): the built-in corpus is encoded
        # once per scorer, not once per call.
        options, cached = getattr(self, "_fallback_tau", (None, None))
        if cached is None or options != self.options:
            fixed = self.with_options(threshold=None)
            cached = (fixed._tau, fixed.calibration, fixed.threshold_source)
            self._fallback_tau = (self.options, cached)
        other._tau, other.calibration, source = cached
        other.threshold_source = (f"auto: {found} of {distinct} texts with a scorable number "
                                  f"(< {MIN_CALIBRATION_SENTENCES}); fell back to tau ({source})")
        warnings.warn(f"threshold='auto': {other.threshold_source} = {other._tau:.4f}; pass a corpus with at least "
                      f"{MIN_CALIBRATION_SENTENCES} texts with numbers, or a number as threshold", stacklevel=4)

    @property
    def corpus_fixed(self) -> bool:
        """Whether nothing is left for a corpus to decide: tau, the mixing IDF and bert-score's IDF are fixed."""
        bertscore_fixed = self.bertscore_idf is not None or not self.options.bertscore_idf
        return self._tau is not None and self.idf is not None and bertscore_fixed

    def explain(self, a: str, b: str) -> dict[str, Any]:
        """Every step of one pair's score as a JSON-serialisable dict."""
        return self.explain_batch([a], [b])[0]

    def explain_batch(self, predictions: Sequence[str], references: Sequence[str]) -> list[dict[str, Any]]:
        """`explain` for many pairs, sharing one scoring call."""
        preds, refs = self._read(*check_pairs(predictions, references))
        if not preds:
            return []
        explained = explain_pairs(self.for_corpus(preds, refs)._score(preds, refs, keep_cosines=True), preds, refs)
        count_blank(preds, refs).warn(stacklevel=2)
        return explained

    def plot(self, a: str, b: str, path: str | os.PathLike[str] | None = None) -> Figure:
        """The alignment heat map of one pair (the Space's figure): context cosine between the numbers of a (rows)
        and b (columns), accepted matches boxed, best matches below tau crossed, each number of a marked with its
        support verdict (supported, unsupported, unmatched); written to `path` (.png, .svg or .pdf) when given.
        Pairs with numbers on at most one side get a figure saying so."""
        from .reports.plot import check_figure_path, explanation_figure, save_figure

        if path is not None:
            check_figure_path(path)  # before scoring: a bad path should not cost a forward pass
        figure = explanation_figure(self.explain(a, b))
        if path is not None:
            save_figure(figure, path)
        return figure

    def mention_vectors(self, texts: Sequence[str], show_progress: bool = False) -> list[np.ndarray]:
        """Context vectors [M, H] of the scorable numbers of each text (as used for alignment)."""
        texts = read_texts(check_texts(texts, "texts"), self.options.numbers)
        mentions = {t: extract_numbers(t, self.options.numbers) for t in set(texts)}
        spans = [[(mentions[t][i].start, mentions[t][i].end) for i in valued(mentions[t])] for t in texts]
        encodings = self.encoder.encode(texts, spans, show_progress=show_progress)
        return [e.mention_vectors[e.mention_has_tokens] for e in encodings]

    def _read(self, preds: list[str], refs: list[str]) -> tuple[list[str], list[str]]:
        """The texts as the number reader reads them, which is also what the encoder sees."""
        return read_texts(preds, self.options.numbers), read_texts(refs, self.options.numbers)

    def _flat_pairs(
        self, predictions: Sequence[str], references: Sequence[str] | Sequence[Sequence[str]]
    ) -> tuple[list[str], list[str], list[int] | None]:
        """Every (prediction, reference) pair in the reader's view, and the group sizes with several references."""
        if isinstance(references, Sequence) and len(references) and not isinstance(references[0], str):
            grouped = check_reference_lists(predictions, references)
            preds = [p for p, refs in zip(predictions, grouped) for _ in refs]
            return *self._read(preds, [r for refs in grouped for r in refs]), [len(refs) for refs in grouped]
        return *self._read(*check_pairs(predictions, references)), None

    # -- the method, step by step ---------------------------------------------------------------------
    def _score(
        self, preds: list[str], refs: list[str], show_progress: bool = False, keep_cosines: bool = False
    ) -> ScoredCall:
        """One chunk of a corpus whose tau and IDF are fixed (`for_corpus`); its encodings die with the call."""
        assert self.corpus_fixed, "fix what the corpus decides with for_corpus first"
        tau, idf = self._tau, self.idf
        # 1-3. Modal separation, one forward pass per distinct text, the context vector of every number.
        # With text_channel='one-pass' the text channel is read from the originals' pass (no second one).
        pool = TextPool.build([*preds, *refs], self.options.numbers, one_pass=self.options.one_pass)
        encodings = self.encoder.encode(
            pool.texts, pool.spans(), show_progress=show_progress, left_out=pool.left_out_spans()
        )
        mentions = pool.mention_table(encodings)
        mentions.support = support_keys(pool, mentions)

        # 4. Text channel on the pairs without their numbers, and the baseline on the originals (P, R, F1).
        baseline = self._text_similarity(encodings, pool, pool.original_ids(preds), pool.original_ids(refs), False)
        channel = [channel_view(e) for e in encodings] if pool.one_pass else encodings
        s_text = self._text_similarity(channel, pool, pool.channel_ids(preds), pool.channel_ids(refs), True)

        # 5-7. Number channel: each distinct pair aligned once, gated at tau, scored by magnitude.
        pairs, pair_index = np.unique(
            np.stack([pool.original_ids(preds), pool.original_ids(refs)], 1), axis=0, return_inverse=True
        )
        pair_index = pair_index.reshape(-1)
        conditions = self._condition_scores(pool, pairs) if self.options.comparisons else None
        alignment = align_numbers(mentions, pairs[:, 0], pairs[:, 1], conditions, keep_cosines=keep_cosines)
        numbers = alignment.numeric_similarity(tau).map(lambda s: s[pair_index])
        # 7b. A verdict for every number of the prediction: supported by the reference at its written precision?
        support = support_fields(alignment, tau, pair_index)

        # 8-9. alpha from the weights of words and [NUM] tokens; NASH = alpha S_text + (1 - alpha) S_num, and
        # likewise its precision and recall from the channels' precisions and recalls.
        alpha = pair_alphas(idf, [pool.masked[t] for t in preds], [pool.masked[t] for t in refs])

        config = self.config
        blank = blank_pairs(preds, refs)
        raw = NASHOutput(
            **mixed(alpha, s_text.f1, s_text.precision, s_text.recall, numbers),
            **support,
            text=s_text.f1,
            text_precision=s_text.precision,
            text_recall=s_text.recall,
            alpha=alpha,
            baseline=baseline.f1,
            baseline_precision=baseline.precision,
            baseline_recall=baseline.recall,
            config=config,
            hashcode=hashcode(config),
            unscored=pool.unscored(preds, refs),
            alignment=alignment,
            pair_index=pair_index,
            blank=blank,
        )
        # A blank prediction or reference scores 0 on every channel, alpha 1, as bert-score (blank.py).
        raw = zero_blank_pairs(raw, blank)
        if blank.any():
            numbers = numbers.map(lambda s: np.where(blank, 0.0, s))  # what `explain` shows
        # 10. Optional: rescale with a random-pair baseline, (s - b) / (1 - b), as bert-score does (a blank
        # pair's raw 0 too, as bert-score rescales an empty candidate's 0).
        output = self.rescale.apply(raw) if self.rescale is not None else raw
        return ScoredCall(pool, encodings, tau, idf, output, raw, numbers, self.options.comparisons,
                          self.baseline_name, mentions)

    def _fit_bertscore_idf(self, references: Sequence[str]) -> tuple[BertScoreIDF, BertScoreIDF]:
        """bert-score's IDF over every reference of the corpus, for the originals and for the text channel."""
        pool = TextPool.build(references, self.options.numbers)
        affixes = self.encoder.prefix + self.encoder.suffix

        def ids(text: str) -> list[int]:
            return self.encoder.tokenize(text).ids + affixes

        return (
            BertScoreIDF.fit(ids(r) for r in references),
            BertScoreIDF.fit(ids(pool.channel[r]) for r in references),
        )

    def _text_similarity(
        self, encodings: list[Encoding], pool: TextPool, xs: np.ndarray, ys: np.ndarray, channel: bool
    ) -> PRF:
        """The backbone metric of text pairs (xs[k], ys[k]): the text channel's forms or the originals."""
        weights = self.bertscore_idf[channel].weights(encodings) if self.options.bertscore_idf else None
        return text_similarity(
            encodings,
            xs,
            ys,
            self.backend,
            empty=np.array([not t.strip() or (channel and e.channel_empty) for t, e in zip(pool.texts, encodings)]),
            token_weights=weights,
            device=self.device,
            batch_size=max(1, self.options.batch_size * 4),
        )

    @staticmethod
    def _condition_scores(pool: TextPool, pairs: np.ndarray) -> dict[int, np.ndarray]:
        """Comparison-aware mode: per aligned pair, how each number satisfies a condition the other text states."""
        from .numbers.comparisons import constraint_matrix

        out = {}
        for k, (x, y) in enumerate(pairs):
            a, b = pool.texts[x], pool.texts[y]
            ma = [pool.mentions[a][i] for i in pool.scorable[a]]
            mb = [pool.mentions[b][i] for i in pool.scorable[b]]
            if ma and mb:
                scores = constraint_matrix(a, ma, b, mb)
                if not np.isnan(scores).all():
                    out[k] = scores
        return out


@dataclass(frozen=True)
class Resolver:
    """How the echo states an option whose resolved form, not its spelling, decides the scores."""

    key: str  # its key in the echo
    value: Callable[[NASH], Any]  # what decides the scores (the hashcode digests it)
    source: Callable[[NASH], Any] | None = None  # where that came from, echoed as `<key>_source` (not digested)

    def entries(self, scorer: NASH) -> dict[str, Any]:
        provenance = {self.key + PROVENANCE: self.source(scorer)} if self.source else {}
        return {self.key: self.value(scorer), **provenance}


# The score-changing options echoed in a resolved form; every other one is echoed as given (test_hashcode).
RESOLVERS: dict[str, Resolver] = {
    "model": Resolver("model", lambda s: s.resolved.name, lambda s: s.resolved.source),
    "backend": Resolver("backend", lambda s: s.backend),
    "num_layers": Resolver("num_layers", lambda s: s.num_layers),
    "threshold": Resolver("threshold", lambda s: "auto" if s.threshold is None else s.threshold,
                          lambda s: s.threshold_source),
    "idf": Resolver("idf", lambda s: s.idf.digest if s.idf else REFERENCES,
                    lambda s: s.idf.source if s.idf else REFERENCES),
    "text_channel": Resolver("text_channel", lambda s: "one-pass" if s.options.one_pass else "two-pass"),
    "baseline_path": Resolver("rescale_baseline", lambda s: s.rescale.digest if s.rescale else None,
                              lambda s: s.rescale.source if s.rescale else None),
}


@functools.cache
def _libc() -> ctypes.CDLL | None:
    try:
        return ctypes.CDLL("libc.so.6") if sys.platform.startswith("linux") else None
    except OSError:  # not glibc (e.g. musl)
        return None


def release_freed_memory() -> None:
    """Hand the memory a finished chunk freed back to the OS.

    glibc keeps freed heap pages for reuse, and the varying sizes of each chunk's tensors fragment them, so
    without this RSS creeps up chunk after chunk although no Python object is kept (`perf/scale.py`).
    """
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)


def calibration_sample(texts: Iterable[str], limit: int = AUTO_CALIBRATION_TEXTS) -> list[str]:
    """Up to `limit` distinct texts, those of smallest sha1 digest of their content, sorted: order and shards do not
    matter. A stream holds at most `limit` texts, and sample(A + B) = sample(sample(A) + B), so a corpus too large
    to hold is sampled chunk by chunk."""
    kept: dict[bytes, str] = {}  # digest -> text: the `limit` smallest digests so far
    largest: list[tuple[int, bytes]] = []  # the kept digests as a max-heap (negated), to evict the largest
    for text in texts:
        digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).digest()
        if digest in kept:
            continue
        if len(kept) < limit:
            heapq.heappush(largest, (-int.from_bytes(digest, "big"), digest))
        elif largest and digest < largest[0][1]:
            del kept[heapq.heapreplace(largest, (-int.from_bytes(digest, "big"), digest))[1]]
        else:
            continue
        kept[digest] = text
    return sorted(kept.values())


def torch_device(device: str | torch.device | None) -> torch.device:
    """The requested device, or CUDA when available; a clear error for unknown or unavailable devices."""
    if device is None:
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        dev = torch.device(device)
    except (RuntimeError, TypeError) as exc:
        raise ValueError(f"unknown device {device!r}: {exc}") from None
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"device {device!r} requested but CUDA is not available on this machine")
    return dev
