"""Text-channel similarities: BERTScore greedy matching and cosine of pooled embeddings.

`text_similarity` is the backbone metric of docs/method.md §1.2: on the pairs' text-channel forms (without their
numbers; `pool.TextPool.channel`) it is S_text, on the original pairs it is the baseline that every result
carries. It returns precision, recall and F1 as bert-score does; the cosine of pooled embeddings is symmetric, so
there precision = recall = F1 = cosine.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
import torch

from ..common.batching import size_batches

if TYPE_CHECKING:
    from .encoders import Encoding

TokenWeights = Callable[[int], np.ndarray]


class PRF(NamedTuple):
    """Precision, recall and F1 per pair (bert-score's P, R, F): precision reads the prediction's side."""

    precision: np.ndarray
    recall: np.ndarray
    f1: np.ndarray


def text_similarity(
    encodings: Sequence[Encoding],
    xs: np.ndarray,
    ys: np.ndarray,
    backend: str,
    empty: np.ndarray,
    token_weights: TokenWeights | None = None,
    device: torch.device | None = None,
    batch_size: int = 256,
) -> PRF:
    """S_base of each text pair (xs[k], ys[k]) (ids into `encodings`), each distinct pair computed once.

    backend "sentence": cosine of pooled embeddings (P = R = F1); "token": BERTScore P, R, F1 with
    `token_weights(id)`, precision over the tokens of xs (the predictions).
    `empty[id]` marks texts with nothing to compare: two empty texts score 1, one empty text 0.
    """
    pairs, inverse = np.unique(np.stack([xs, ys], 1), axis=0, return_inverse=True)
    if backend == "sentence":
        values = cosine([encodings[i].pooled for i in pairs[:, 0]], [encodings[i].pooled for i in pairs[:, 1]])
        prf = (values, values, values)
    else:
        weight = token_weights or uniform_token_weights(encodings)
        prf = bertscore(
            [encodings[i].states for i in pairs[:, 0]],
            [encodings[i].states for i in pairs[:, 1]],
            [weight(i) for i in pairs[:, 0]],
            [weight(i) for i in pairs[:, 1]],
            device or torch.device("cpu"),
            batch_size=batch_size,
        )
    ea, eb = empty[pairs[:, 0]], empty[pairs[:, 1]]
    inverse = inverse.reshape(-1)
    return PRF(*(np.clip(np.where(ea & eb, 1.0, np.where(ea | eb, 0.0, v)), -1.0, 1.0)[inverse] for v in prf))


def uniform_token_weights(encodings: Sequence[Encoding]) -> TokenWeights:
    """BERTScore without IDF: every content token weighs 1, special tokens 0."""
    return lambda i: (~encodings[i].special).astype(np.float32)


@dataclass(frozen=True)
class BertScoreIDF:
    """bert-score's IDF over a corpus of references: one document per reference, repeats included."""

    df: Mapping[int, int]
    n_documents: int

    @classmethod
    def fit(cls, token_ids: Iterable[Sequence[int]]) -> BertScoreIDF:
        df: Counter[int] = Counter()
        n = 0
        for ids in token_ids:
            df.update(set(ids))
            n += 1
        return cls(df, n)

    def weights(self, encodings: Sequence[Encoding]) -> TokenWeights:
        """idf = ln((M+1)/(df+1)) per token of each text, 0 for special tokens."""
        m, df = self.n_documents, self.df

        def weight(i: int) -> np.ndarray:
            e = encodings[i]
            w = np.array([math.log((m + 1) / (df.get(t, 0) + 1)) for t in e.token_ids.tolist()], np.float32)
            w[e.special] = 0.0
            return w

        return weight


def bertscore(
    hyps: Sequence[torch.Tensor],
    refs: Sequence[torch.Tensor],
    hyp_weights: Sequence[np.ndarray],
    ref_weights: Sequence[np.ndarray],
    device: torch.device,
    batch_size: int = 256,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """BERTScore (P, R, F1) of each (hyp, ref) pair, as the `bert-score` package computes it.

    States are L2-normalised token states [T, H]; weights are per-token (IDF or 1, 0 for special
    tokens) and are normalised per sentence. Each token is matched to its most similar token of the
    other side (greedy), padding excluded.

    Pairs are batched by length (at most `batch_size`, and `SIMILARITY_CELLS` padded similarities), so a long
    text never pads the short ones beside it; a pair beyond the budget alone runs in blocks of its hyp tokens.
    """
    n = len(hyps)
    p_out, r_out = np.zeros(n), np.zeros(n)
    lengths = np.array([[h.shape[0] for h in hyps], [r.shape[0] for r in refs]], np.int64)
    for rows in size_batches(lengths[0], lengths[1], SIMILARITY_CELLS, max_pairs=batch_size):
        h, hm = _pad([hyps[k] for k in rows], device)
        r, rm = _pad([refs[k] for k in rows], device)
        hw = _pad_weights([hyp_weights[k] for k in rows], h.shape[1], device)
        rw = _pad_weights([ref_weights[k] for k in rows], r.shape[1], device)
        word_p, word_r = _greedy(h, hm, r, rm, SIMILARITY_CELLS)
        p_out[rows] = ((word_p * hw).sum(1) / hw.sum(1)).double().cpu().numpy()
        r_out[rows] = ((word_r * rw).sum(1) / rw.sum(1)).double().cpu().numpy()
    with np.errstate(invalid="ignore", divide="ignore"):
        f_out = 2 * p_out * r_out / (p_out + r_out)
    return p_out, r_out, np.nan_to_num(f_out, nan=0.0)


# Token similarities [B, Th, Tr] of one greedy-matching step (float32: 16 MB), padding included.
SIMILARITY_CELLS = 1 << 22


def _greedy(
    h: torch.Tensor, hm: torch.Tensor, r: torch.Tensor, rm: torch.Tensor, budget: int
) -> tuple[torch.Tensor, torch.Tensor]:
    """Every hyp token's best cosine in its ref [B, Th] and every ref token's in its hyp [B, Tr], 0 on padding.
    One pair beyond `budget` similarities (no padding then) runs in blocks of hyp tokens, a running max for R."""
    if len(h) == 1 and h.shape[1] * r.shape[1] > budget:
        step = max(1, budget // r.shape[1])
        word_p, word_r = [], torch.full((1, r.shape[1]), float("-inf"), dtype=r.dtype, device=r.device)
        for start in range(0, h.shape[1], step):
            sim = torch.bmm(h[:, start : start + step], r.transpose(1, 2))
            word_p.append(sim.max(dim=2).values)
            word_r = torch.maximum(word_r, sim.max(dim=1).values)
        return torch.cat(word_p, 1), word_r
    sim = torch.bmm(h, r.transpose(1, 2)).masked_fill_(~(hm[:, :, None] & rm[:, None, :]), float("-inf"))
    return sim.max(dim=2).values.masked_fill(~hm, 0.0), sim.max(dim=1).values.masked_fill(~rm, 0.0)


def cosine(a: Sequence[torch.Tensor], b: Sequence[torch.Tensor]) -> np.ndarray:
    """Row-wise cosine of L2-normalised embeddings."""
    if not len(a):
        return np.zeros(0)
    return (torch.stack(list(a)).double() * torch.stack(list(b)).double()).sum(-1).numpy()


def _pad(states: Sequence[torch.Tensor], device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
    """[B, T, H] states zero-padded, and [B, T] which rows are real (one copy: a row at a time costs more on CPU)."""
    lengths = torch.tensor([s.shape[0] for s in states])
    out = torch.nn.utils.rnn.pad_sequence(list(states), batch_first=True)
    mask = torch.arange(out.shape[1])[None, :] < lengths[:, None]
    return out.to(device), mask.to(device)


def _pad_weights(weights: Sequence[np.ndarray], width: int, device: torch.device) -> torch.Tensor:
    out = np.zeros((len(weights), width), dtype=np.float32)
    for i, w in enumerate(weights):
        out[i, : len(w)] = w
    return torch.from_numpy(out).to(device)
