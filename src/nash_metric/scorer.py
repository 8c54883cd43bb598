"""The NASH scorer: text channel without the numbers, number channel on aligned mentions, IDF mixing.

`NASH._score` reads top to bottom as the method (DESIGN §1), one named function per step:

0. reading               `read_texts`                   (pool.py; other scripts' digits as ASCII, full reader)
1. modal separation      `TextPool.build`               (pool.py; numbers/ finds and masks the numbers)
2. encoding              `Encoder.encode`               (encoders.py; one forward pass per distinct text)
3. mention vectors       `TextPool.mention_table`       (mean sub-token state of each number)
4. text channel          `text_similarity`              (similarity.py; S_text without numbers, baseline on originals)
5. alignment             `align_numbers`                (alignment.py; directional argmax)
6. tau gate, magnitude   `Matches.accepted`, `value_similarity` (magnitude; calendar distance for periods)
7. S_num                 `numeric_similarity`
8. IDF masses and alpha  `pair_alphas`                  (weighting.py)
9. mixing                `mix`

One forward pass per distinct text (originals and text-channel forms pooled and deduplicated) yields both the
baseline and the contextual number vectors, so every result carries its own side-by-side comparison.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from .alignment import NumberScores, align_numbers
from .calibration import Calibration, builtin_sentences, tau_from_vectors
from .config import NASHConfig, model_bound_options, with_option_signature
from .encoders import Encoding, load_encoder
from .explanation import ScoredCall, explain_pairs
from .models import choose_backend, default_threshold, resolve_model
from .numbers import extract_numbers
from .output import NASHOutput, hashcode
from .pool import TextPool, read_texts, valued
from .similarity import bertscore_idf_weights, text_similarity
from .validation import check_pairs, check_texts
from .weighting import IDF, load_idf, mix, pair_alphas

_P = inspect.Parameter
_SELF_AND_CONFIG = [_P("self", _P.POSITIONAL_ONLY), _P("config", _P.POSITIONAL_OR_KEYWORD, default=None)]


class NASH:
    """Numerically Aware Scoring Heuristic over a token-level or sentence-level backbone.

    `NASH(model=..., backend=..., ...)` or `NASH(config)` with a `NASHConfig`; keyword options override the
    config's. The model is loaded once; `with_options` derives scorers that share it.
    """

    @with_option_signature(before=_SELF_AND_CONFIG)
    def __init__(self, config: NASHConfig | None = None, **options: Any) -> None:
        self.options = NASHConfig.from_options(config, **options)
        self.resolved = resolve_model(self.options.model)
        self.backend = choose_backend(self.options.backend, self.resolved)
        self.device = torch_device(self.options.device)
        self.encoder = load_encoder(
            self.resolved, self.backend, self.options.num_layers, self.device, self.options.batch_size
        )
        self.num_layers = self.encoder.num_layers
        self.baseline_name = "BERTScore F1" if self.backend == "token" else "cosine"
        self.calibration: Calibration | None = None
        self._apply_scoring_options()

    def _apply_scoring_options(self) -> None:
        """Set up what the options that do not touch the model decide: IDF and tau."""
        if self.options.bertscore_idf and self.backend != "token":
            raise ValueError("bertscore_idf applies to the token backend only")
        self.idf = load_idf(self.options.idf, self.options.numbers)
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

    # -- configuration ------------------------------------------------------------------------------
    @property
    def threshold(self) -> float | None:
        """tau; None when it is calibrated anew on each call ("auto")."""
        return self._tau

    @property
    def config(self) -> dict[str, Any]:
        """The configuration echo: what was resolved (model source, backend, layer, tau), with versions."""
        import transformers

        from ._version import __version__

        return {
            "model": self.resolved.name,
            "model_source": self.resolved.source,
            "backend": self.backend,
            "num_layers": self.num_layers,
            "threshold": self._tau if self._tau is not None else "auto",
            "threshold_source": self.threshold_source,
            "idf": self.idf.source if self.idf else "references",
            "numbers": self.options.numbers,
            "comparisons": self.options.comparisons,
            "bertscore_idf": self.options.bertscore_idf,
            "nash_metric": __version__,
            "transformers": transformers.__version__,
        }

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

    def with_threshold(self, threshold: float | str | None) -> NASH:
        """A scorer sharing this one's model, with another tau."""
        return self.with_options(threshold=threshold)

    # -- scoring -------------------------------------------------------------------------------------
    def score(self, predictions: Sequence[str], references: Sequence[str], show_progress: bool = False) -> NASHOutput:
        """NASH of each (prediction, reference) pair, with S_text, S_num, alpha and the baseline."""
        preds, refs = self._read(*check_pairs(predictions, references))
        if not preds:
            empty, config = np.zeros(0), self.config
            return NASHOutput(empty, empty, empty, empty, empty, config=config, hashcode=hashcode(config))
        return self._score(preds, refs, show_progress).output

    def explain(self, a: str, b: str) -> dict[str, Any]:
        """Every step of one pair's score as a JSON-serialisable dict."""
        return self.explain_batch([a], [b])[0]

    def explain_batch(self, predictions: Sequence[str], references: Sequence[str]) -> list[dict[str, Any]]:
        """`explain` for many pairs, sharing one scoring call."""
        preds, refs = self._read(*check_pairs(predictions, references))
        if not preds:
            return []
        return explain_pairs(self._score(preds, refs, keep_cosines=True), preds, refs)

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

    # -- the method, step by step ---------------------------------------------------------------------
    def _score(
        self, preds: list[str], refs: list[str], show_progress: bool = False, keep_cosines: bool = False
    ) -> ScoredCall:
        # 1-3. Modal separation, one forward pass per distinct text, the context vector of every number.
        pool = TextPool.build([*preds, *refs], self.options.numbers)
        encodings = self.encoder.encode(pool.texts, pool.spans(), show_progress=show_progress)
        mentions = pool.mention_table(encodings)
        tau = self._tau
        if tau is None:  # "auto": mu + sigma over this call's own numbers
            vectors = [mentions.vectors[mentions.of(pool.ids[t])] for t in pool.mentions]
            tau = tau_from_vectors(vectors, corpus="call").tau

        # 4. Text channel on the masked pairs, and the baseline on the original pairs.
        baseline = self._text_similarity(encodings, pool, pool.original_ids(preds), pool.original_ids(refs))
        s_text = self._text_similarity(encodings, pool, pool.channel_ids(preds), pool.channel_ids(refs))

        # 5-7. Number channel: each distinct pair aligned once, gated at tau, scored by magnitude.
        pairs, pair_index = np.unique(
            np.stack([pool.original_ids(preds), pool.original_ids(refs)], 1), axis=0, return_inverse=True
        )
        pair_index = pair_index.reshape(-1)
        conditions = self._condition_scores(pool, pairs) if self.options.comparisons else None
        alignment = align_numbers(mentions, pairs[:, 0], pairs[:, 1], conditions, keep_cosines=keep_cosines)
        numbers = NumberScores(*(s[pair_index] for s in alignment.numeric_similarity(tau)))

        # 8-9. alpha from the IDF masses of words and [NUM] tokens; NASH = alpha S_text + (1 - alpha) S_num.
        idf = self.idf or IDF.from_masked((pool.masked[r] for r in refs), source="references")
        alpha = pair_alphas(idf, [pool.masked[t] for t in preds], [pool.masked[t] for t in refs])

        config = {**self.config, "threshold": tau}
        output = NASHOutput(
            nash=mix(alpha, s_text, numbers.s_num),
            text=s_text,
            numeric=numbers.s_num,
            alpha=alpha,
            baseline=baseline,
            config=config,
            hashcode=hashcode({**config, "threshold": self.config["threshold"]}),
            unscored=pool.unscored(preds, refs),
            alignment=alignment,
            pair_index=pair_index,
        )
        return ScoredCall(pool, encodings, tau, idf, output, numbers, self.options.comparisons, self.baseline_name)

    def _text_similarity(self, encodings: list[Encoding], pool: TextPool, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """The backbone metric of text pairs (xs[k], ys[k]); bert-score's IDF comes from the `ys` side."""
        weights = bertscore_idf_weights(encodings, ys.tolist()) if self.options.bertscore_idf else None
        return text_similarity(
            encodings,
            xs,
            ys,
            self.backend,
            empty=np.array([not t.strip() for t in pool.texts]),
            token_weights=weights,
            device=self.device,
            batch_size=max(1, self.options.batch_size * 4),
        )

    @staticmethod
    def _condition_scores(pool: TextPool, pairs: np.ndarray) -> dict[int, np.ndarray]:
        """Comparison-aware mode: per aligned pair, how each number satisfies a condition the other text states."""
        from .comparisons import constraint_matrix

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
