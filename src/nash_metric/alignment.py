"""Number channel: align mentions by context, score aligned values by magnitude (DESIGN §1.3).

Every mention v of one text picks the mention u* of the other text with the highest context
cosine (a directional argmax: several v may pick the same u). The match counts when that cosine
is at least tau and contributes the magnitude similarity 1 / (1 + |v-u| / N(v,u)),
N(v,u) = 1 + (|v|+|u|)/2. S(a->b) = sum of valid contributions / |V_b|, capped at 1 because the
many-to-one argmax can exceed |V_b| when a holds more numbers than b; S_num is the mean of both
directions; no numbers on either side -> 1, numbers on one side only -> 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def magnitude_similarity(v: np.ndarray | float, u: np.ndarray | float) -> np.ndarray:
    """1 / (1 + |v-u| / (1 + (|v|+|u|)/2)), computed on halves so that no finite input overflows."""
    v = np.asarray(v, dtype=np.float64)
    u = np.asarray(u, dtype=np.float64)
    diff = np.abs(v / 2 - u / 2)
    norm = 0.5 + np.abs(v) / 4 + np.abs(u) / 4
    return 1.0 / (1.0 + diff / norm)


@dataclass
class Alignments:
    """The argmax alignment of every mention, both directions, for a list of pairs.

    Stored as flat arrays so that S_num can be recomputed at any tau without re-encoding.
    `ab_*` holds one row per mention of the first text (aligned into the second), `ba_*` the reverse.
    """

    n_a: np.ndarray  # [P] scorable mentions in the first text
    n_b: np.ndarray  # [P]
    ab_pair: np.ndarray
    ab_cos: np.ndarray
    ab_sim: np.ndarray
    ba_pair: np.ndarray
    ba_cos: np.ndarray
    ba_sim: np.ndarray
    ab_forced: np.ndarray  # the match is scored by a stated constraint: it counts whatever tau says
    ba_forced: np.ndarray

    def numeric(self, tau: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(S_num, S(a->b), S(b->a)) per pair at threshold tau."""
        p = len(self.n_a)
        keep_ab = (self.ab_cos >= tau) | self.ab_forced
        keep_ba = (self.ba_cos >= tau) | self.ba_forced
        sum_ab = np.bincount(self.ab_pair, weights=self.ab_sim * keep_ab, minlength=p)
        sum_ba = np.bincount(self.ba_pair, weights=self.ba_sim * keep_ba, minlength=p)
        with np.errstate(invalid="ignore", divide="ignore"):
            s_ab = np.minimum(1.0, sum_ab / self.n_b)
            s_ba = np.minimum(1.0, sum_ba / self.n_a)
        both = (self.n_a > 0) & (self.n_b > 0)
        none = (self.n_a == 0) & (self.n_b == 0)
        s_ab = np.where(both, s_ab, np.where(none, 1.0, 0.0))
        s_ba = np.where(both, s_ba, np.where(none, 1.0, 0.0))
        return (s_ab + s_ba) / 2, s_ab, s_ba


def align_pairs(
    vectors: np.ndarray,
    values: np.ndarray,
    offsets: np.ndarray,
    counts: np.ndarray,
    pairs_a: np.ndarray,
    pairs_b: np.ndarray,
    overrides: dict[int, np.ndarray] | None = None,
    chunk: int = 2048,
) -> Alignments:
    """Vectorised alignment of many pairs.

    `vectors` [M, H] (L2-normalised) and `values` [M] stack the scorable mentions of all texts;
    text t owns rows offsets[t] : offsets[t] + counts[t]. Pair k is (pairs_a[k], pairs_b[k]).
    `overrides[k]` optionally replaces pair k's magnitude-similarity matrix (comparison-aware mode:
    NaN entries keep the magnitude similarity). An overridden entry scores a number against a condition
    the other text states ("above 200"), which itself links the two numbers: such a match counts even
    when its context cosine is below tau.
    """
    n_pairs = len(pairs_a)
    parts: dict[str, list[np.ndarray]] = {
        k: [] for k in ("ab_pair", "ab_cos", "ab_sim", "ab_forced", "ba_pair", "ba_cos", "ba_sim", "ba_forced")
    }
    for start in range(0, n_pairs, chunk):
        ka = pairs_a[start : start + chunk]
        kb = pairs_b[start : start + chunk]
        ma, mb = counts[ka], counts[kb]
        has = (ma > 0) & (mb > 0)
        if not has.any():
            continue
        rows = np.nonzero(has)[0]
        ka, kb, ma, mb = ka[rows], kb[rows], ma[rows], mb[rows]
        width_a, width_b = int(ma.max()), int(mb.max())
        ia, mask_a = _gather_index(offsets[ka], ma, width_a)
        ib, mask_b = _gather_index(offsets[kb], mb, width_b)
        va, vb = vectors[ia] * mask_a[..., None], vectors[ib] * mask_b[..., None]
        cos = np.einsum("pih,pjh->pij", va, vb)
        valid = mask_a[:, :, None] & mask_b[:, None, :]
        cos = np.where(valid, cos, -np.inf)
        sim = magnitude_similarity(values[ia][:, :, None], values[ib][:, None, :])
        forced = np.zeros(sim.shape, dtype=bool)
        if overrides:
            for local, k in enumerate(rows + start):
                if k in overrides:
                    m = overrides[k]
                    block = sim[local, : m.shape[0], : m.shape[1]]
                    sim[local, : m.shape[0], : m.shape[1]] = np.where(np.isnan(m), block, m)
                    forced[local, : m.shape[0], : m.shape[1]] = ~np.isnan(m)
        pair_ids = rows + start
        # a -> b: each mention of a picks its best b mention; b -> a likewise.
        p_idx, i_idx = np.nonzero(mask_a)
        ab = (p_idx, i_idx, cos.argmax(axis=2)[p_idx, i_idx])
        p_idx, j_idx = np.nonzero(mask_b)
        ba = (p_idx, cos.argmax(axis=1)[p_idx, j_idx], j_idx)
        for key, chosen in (("ab", ab), ("ba", ba)):
            parts[f"{key}_pair"].append(pair_ids[chosen[0]])
            parts[f"{key}_cos"].append(cos[chosen])
            parts[f"{key}_sim"].append(sim[chosen])
            parts[f"{key}_forced"].append(forced[chosen])
    empty = {"pair": np.int64, "cos": np.float64, "sim": np.float64, "forced": bool}
    flat = {k: np.concatenate(v) if v else np.zeros(0, empty[k[3:]]) for k, v in parts.items()}
    return Alignments(n_a=counts[pairs_a].astype(np.float64), n_b=counts[pairs_b].astype(np.float64), **flat)


def _gather_index(offsets: np.ndarray, counts: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    cols = np.arange(width)[None, :]
    mask = cols < counts[:, None]
    index = np.where(mask, offsets[:, None] + cols, 0)
    return index, mask
