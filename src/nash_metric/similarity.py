"""Text-channel similarities: BERTScore greedy matching and cosine of pooled embeddings."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch


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
    """
    n = len(hyps)
    p_out, r_out = np.zeros(n), np.zeros(n)
    for b in range(0, n, batch_size):
        sl = slice(b, min(n, b + batch_size))
        h, hm = _pad(hyps[sl], device)
        r, rm = _pad(refs[sl], device)
        hw = _pad_weights(hyp_weights[sl], h.shape[1], device)
        rw = _pad_weights(ref_weights[sl], r.shape[1], device)
        sim = torch.bmm(h, r.transpose(1, 2))
        sim = sim.masked_fill(~(hm[:, :, None] & rm[:, None, :]), float("-inf"))
        word_p = sim.max(dim=2).values.masked_fill(~hm, 0.0)
        word_r = sim.max(dim=1).values.masked_fill(~rm, 0.0)
        p_out[sl] = ((word_p * hw).sum(1) / hw.sum(1)).double().cpu().numpy()
        r_out[sl] = ((word_r * rw).sum(1) / rw.sum(1)).double().cpu().numpy()
    with np.errstate(invalid="ignore", divide="ignore"):
        f_out = 2 * p_out * r_out / (p_out + r_out)
    return p_out, r_out, np.nan_to_num(f_out, nan=0.0)


def cosine(a: Sequence[torch.Tensor], b: Sequence[torch.Tensor]) -> np.ndarray:
    """Row-wise cosine of L2-normalised embeddings."""
    if not len(a):
        return np.zeros(0)
    return (torch.stack(list(a)).double() * torch.stack(list(b)).double()).sum(-1).numpy()


def _pad(states: Sequence[torch.Tensor], device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
    width = max(s.shape[0] for s in states)
    out = torch.zeros(len(states), width, states[0].shape[1])
    mask = torch.zeros(len(states), width, dtype=torch.bool)
    for i, s in enumerate(states):
        out[i, : s.shape[0]] = s
        mask[i, : s.shape[0]] = True
    return out.to(device), mask.to(device)


def _pad_weights(weights: Sequence[np.ndarray], width: int, device: torch.device) -> torch.Tensor:
    out = torch.zeros(len(weights), width, dtype=torch.float32)
    for i, w in enumerate(weights):
        out[i, : len(w)] = torch.as_tensor(w, dtype=torch.float32)
    return out.to(device)
