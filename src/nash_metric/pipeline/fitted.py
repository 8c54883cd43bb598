"""`Fitted`: what the options and the corpus decide, fixed once and frozen.

`load(config)` loads the model the options name; `configure(fitted, config)` applies the options that do not
touch the model (IDF, tau, the rescale baseline) to a loaded one; `fit_corpus` fixes what a corpus decides (tau
for threshold='auto', the IDF table for idf='references', bert-score's IDF). Each returns a new `Fitted`; none
changes the one it is given, so scorers derived from one model share it safely.
"""

from __future__ import annotations

import warnings
import weakref
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
import torch

from ..backbone.encoders import Encoder, load_encoder, torch_device
from ..backbone.models import ResolvedModel, check_available, choose_backend, resolve_model
from ..backbone.similarity import BertScoreIDF
from ..calibration.rescale import RescaleBaseline, load_rescale
from ..calibration.threshold import (
    MIN_CALIBRATION_SENTENCES,
    Calibration,
    builtin_sentences,
    calibration_sample,
    choose_tau,
    tau_from_vectors,
)
from ..common.validation import check_texts
from ..config import NASHConfig
from .echo import echo
from .pool import TextPool, read_pairs, read_texts
from .weighting import IDF, REFERENCES, fit_idf, load_idf

Backbone = Literal["token", "sentence"]
Chunks = Callable[[], Iterable[tuple[Sequence[str], Sequence[Any]]]]  # a corpus as a function returning its chunks


@dataclass(frozen=True)
class Fitted:
    """A loaded model under one set of options, with everything they and the corpus decide."""

    config: NASHConfig
    model: ResolvedModel
    backend: Backbone
    device: torch.device
    encoder: Encoder
    tau: float | None = None  # None: each corpus calibrates its own (threshold='auto'), `fit_corpus`
    tau_source: str = "auto"
    calibration: Calibration | None = None  # the calibration tau came from, if one did
    idf: IDF | None = None  # None: fitted on each corpus's references (idf='references')
    bertscore_idf: tuple[BertScoreIDF, BertScoreIDF] | None = None  # the originals', the text channel's
    rescale: RescaleBaseline | None = None

    @property
    def num_layers(self) -> int:
        return self.encoder.num_layers

    @property
    def backbone_name(self) -> str:
        """What the backbone score is called: BERTScore F1 (token backbone) or cosine (sentence backbone)."""
        return "BERTScore F1" if self.backend == "token" else "cosine"

    @property
    def corpus_fixed(self) -> bool:
        """Whether nothing is left for a corpus to decide: tau, the mixing IDF and bert-score's IDF are fixed."""
        bertscore_fixed = self.bertscore_idf is not None or not self.config.bertscore_idf
        return self.tau is not None and self.idf is not None and bertscore_fixed


def load(config: NASHConfig) -> Fitted:
    """Resolve and load the model `config` names, then apply its other options."""
    model = resolve_model(config.model)
    check_available(model)
    backend = choose_backend(config.backend, model, config.num_layers)
    device = torch_device(config.device)
    encoder = load_encoder(model, backend, config.num_layers, device, config.batch_size, config.dtype)
    return configure(Fitted(config, model, backend, device, encoder), config)


def configure(fitted: Fitted, config: NASHConfig) -> Fitted:
    """`fitted`'s model under `config` (whose model-bound options are `fitted`'s): IDF, tau, the rescale baseline."""
    if config.bertscore_idf and fitted.backend != "token":
        raise ValueError(f"bertscore_idf=True (bert-score's idf=True) weighs BERTScore's tokens, so it needs the token "
                         f"backend, but backend={config.backend!r} gives the sentence backend for {fitted.model.name}: "
                         "pass backend='token'")
    base = replace(fitted, config=config, tau=None, tau_source="auto", calibration=None,
                   idf=load_idf(config.idf, config.numbers), bertscore_idf=None, rescale=None)
    choice = choose_tau(config.threshold, base.model, base.num_layers, lambda: builtin_calibration(base))
    unscaled = replace(base, tau=choice.tau, tau_source=choice.source, calibration=choice.calibration)
    # Loaded last: a baseline is checked against the rest of the configuration.
    fixed = replace(unscaled, rescale=load_rescale(config.rescale_with_baseline, config.baseline_path, echo(unscaled)))
    return _checked_rescale(fixed)


def _checked_rescale(fitted: Fitted) -> Fitted:
    """Once tau and the IDF are fixed: warn when the rescale baseline was fitted under other options."""
    if fitted.rescale is not None and fitted.corpus_fixed:
        fitted.rescale.check(echo(fitted))
    return fitted


# Per loaded encoder and number reader: tau on the built-in corpus, calibrated once (not per derived scorer).
_BUILTIN: weakref.WeakKeyDictionary[Encoder, dict[str, Calibration]] = weakref.WeakKeyDictionary()


def builtin_calibration(fitted: Fitted) -> Calibration:
    """tau = mu + sigma on the built-in corpus, for this model and number reader."""
    per_reader = _BUILTIN.setdefault(fitted.encoder, {})
    if fitted.config.numbers not in per_reader:
        vectors = mention_vectors(fitted, builtin_sentences())
        per_reader[fitted.config.numbers] = tau_from_vectors(vectors, corpus="builtin")
    return per_reader[fitted.config.numbers]


def mention_vectors(fitted: Fitted, texts: Sequence[str], show_progress: bool = False) -> list[np.ndarray]:
    """Context vectors [M, H] of the scorable numbers of each text, from the pass that scoring reads them from
    (the number-blind one with `text_channel="one-pass"`), so that tau is calibrated on the vectors it gates."""
    reader = fitted.config.numbers
    texts = read_texts(check_texts(texts, "texts"), reader)
    pool = TextPool.build(texts, reader, one_pass=fitted.config.one_pass, glossary=fitted.config.glossary)
    distinct = sorted(set(texts))
    left_out = [pool.left_out[t] for t in distinct] if pool.one_pass else None
    encodings = fitted.encoder.encode(distinct, [pool.vector_spans(t) for t in distinct], show_progress=show_progress,
                                      left_out=left_out)
    vectors = {t: e.mention_vectors[e.mention_has_tokens] for t, e in zip(distinct, encodings)}
    return [vectors[t] for t in texts]


# -- what a corpus decides ----------------------------------------------------------------------------------


def fit_corpus(fitted: Fitted, chunks: Chunks, show_progress: bool = False) -> Fitted:
    """`fitted` with what the corpus decides fixed, from one pass over its chunks (none when nothing is left).

    'auto' calibrates on up to `AUTO_CALIBRATION_TEXTS` distinct texts picked by a hash of their content (not their
    position), so the choice does not depend on order or sharding.
    """
    if fitted.corpus_fixed:
        return fitted
    corpus = _CorpusPass(fitted, calibrate=fitted.tau is None,
                         bertscore=fitted.config.bertscore_idf and fitted.bertscore_idf is None)
    references = corpus.references(chunks())
    if fitted.idf is None:
        idf = fit_idf(references, fitted.config.numbers, source=REFERENCES)
    else:
        idf = fitted.idf
        for _ in references:  # the pass the sample or bert-score's IDF still needs
            pass
    out = replace(fitted, idf=idf, bertscore_idf=corpus.bertscore_idf() if corpus.bertscore else fitted.bertscore_idf)
    if corpus.calibrate:
        out = _auto_tau(out, corpus.sample, show_progress)
    return _checked_rescale(out)


class _CorpusPass:
    """One pass over a corpus's chunks: its references (for the IDF), tau's hash sample and bert-score's document
    frequencies (one document per reference, so the chunks' counts add up). Holds one chunk's texts at a time."""

    def __init__(self, fitted: Fitted, calibrate: bool, bertscore: bool) -> None:
        self.fitted, self.calibrate, self.bertscore = fitted, calibrate, bertscore
        self.sample: list[str] = []  # calibration_sample of the chunks so far: sample(A + B) = sample(sample(A) + B)
        self.df: tuple[Counter[int], Counter[int]] = (Counter(), Counter())  # the originals, the text channel
        self.documents = [0, 0]

    def references(self, chunks: Iterable[tuple[Sequence[str], Sequence[Any]]]) -> Iterator[str]:
        for chunk_predictions, chunk_references in chunks:
            preds, refs, _ = read_pairs(chunk_predictions, chunk_references, self.fitted.config.numbers)
            if self.calibrate:
                self.sample = calibration_sample([*self.sample, *preds, *refs])
            if self.bertscore:
                for k, fitted in enumerate(bertscore_document_frequencies(self.fitted, refs)):
                    self.df[k].update(fitted.df)
                    self.documents[k] += fitted.n_documents
            yield from refs

    def bertscore_idf(self) -> tuple[BertScoreIDF, BertScoreIDF]:
        return BertScoreIDF(self.df[0], self.documents[0]), BertScoreIDF(self.df[1], self.documents[1])


def bertscore_document_frequencies(fitted: Fitted, references: Sequence[str]) -> tuple[BertScoreIDF, BertScoreIDF]:
    """bert-score's IDF over references, for the originals and for the text channel."""
    pool = TextPool.build(references, fitted.config.numbers, glossary=fitted.config.glossary)
    encoder = fitted.encoder
    affixes = encoder.prefix + encoder.suffix
    return (BertScoreIDF.fit(encoder.tokenize(r).ids.tolist() + affixes for r in references),
            BertScoreIDF.fit(encoder.tokenize(pool.channel[r]).ids.tolist() + affixes for r in references))


def _auto_tau(fitted: Fitted, sample: list[str], show_progress: bool) -> Fitted:
    """threshold='auto': tau = mu + sigma on the corpus's sample; on a corpus too small to calibrate, the tau
    threshold=None gives, with a warning (mu + sigma over a handful of texts is noise; the model's own tau is a
    stated, reproducible choice, so a single pair still scores)."""
    vectors = mention_vectors(fitted, sample, show_progress=show_progress)
    found = sum(1 for v in vectors if len(v))
    if found >= MIN_CALIBRATION_SENTENCES:
        calibration = tau_from_vectors(vectors, corpus=f"auto: {len(sample)} texts of the corpus")
        return replace(fitted, tau=calibration.tau, tau_source=calibration.corpus, calibration=calibration)
    choice = choose_tau(None, fitted.model, fitted.num_layers, lambda: builtin_calibration(fitted))
    source = (f"auto: {found} of {len(sample)} texts with a scorable number (< {MIN_CALIBRATION_SENTENCES}); "
              f"fell back to tau ({choice.source})")
    warnings.warn(f"threshold='auto': {source} = {choice.tau:.4f}; pass a corpus with at least "
                  f"{MIN_CALIBRATION_SENTENCES} texts with numbers, or a number as threshold", stacklevel=5)
    return replace(fitted, tau=choice.tau, tau_source=source, calibration=choice.calibration)
