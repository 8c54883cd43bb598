"""Alignment heat map: context cosine between the numbers of A (rows) and B (columns).

Built on ``matplotlib.figure.Figure`` (no pyplot state), so concurrent requests never share a figure.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle


def _label(side: str, i: int, text: str, width: int = 16) -> str:
    text = " ".join(text.split())
    return f"{side}{i + 1}: {text if len(text) <= width else text[: width - 1] + '…'}"


def alignment_heatmap(
    mentions_a: Sequence[str],
    mentions_b: Sequence[str],
    similarity: Sequence[Sequence[float]],
    tau: float,
    accepted_ab: Iterable[tuple[int, int]] = (),
    accepted_ba: Iterable[tuple[int, int]] = (),
    rejected: Iterable[tuple[int, int]] = (),
) -> Figure:
    """``accepted_ab`` holds (i, j) for A_i → B_j, ``accepted_ba`` holds (j, i) for B_j → A_i;
    ``rejected`` holds (i, j) cells that were a best match in some direction but fell below τ."""
    sim = np.asarray(similarity, dtype=float).reshape(len(mentions_a), len(mentions_b))
    n_a, n_b = sim.shape
    fig = Figure(figsize=(max(4.8, 1.3 * n_b + 3.2), max(2.6, 0.6 * n_a + 1.9)), dpi=100, layout="constrained")
    ax = fig.add_subplot()
    # Diverging around tau: blue cells pass the gate, red ones are rejected.
    lo, hi = min(float(sim.min()), tau - 1e-3), max(float(sim.max()), tau + 1e-3)
    norm = TwoSlopeNorm(vcenter=tau, vmin=min(lo, -1.0), vmax=max(hi, 1.0))
    image = ax.imshow(sim, cmap="RdBu", norm=norm)
    cbar = fig.colorbar(image, ax=ax, shrink=0.9)
    cbar.ax.axhline(tau, color="black", linewidth=2)
    cbar.set_label(f"context cosine (τ = {tau:.4f})")
    for i in range(n_a):
        for j in range(n_b):
            ax.text(j, i, f"{sim[i, j]:.3f}", ha="center", va="center", fontsize=9,
                    color="white" if abs(float(norm(sim[i, j])) - 0.5) > 0.3 else "black")
    # Accepted matches: solid box for A→B, dashed inner box for B→A.
    for i, j in accepted_ab:
        ax.add_patch(Rectangle((j - 0.48, i - 0.48), 0.96, 0.96, fill=False, edgecolor="#111", linewidth=2.5))
    for j, i in accepted_ba:
        ax.add_patch(Rectangle((j - 0.38, i - 0.38), 0.76, 0.76, fill=False, edgecolor="#f59e0b",
                               linewidth=2, linestyle="--"))
    for i, j in rejected:
        ax.text(j + 0.36, i - 0.3, "×", ha="center", va="center", fontsize=13, color="#7f1d1d")
    ax.set_xticks(range(n_b), [_label("B", j, t) for j, t in enumerate(mentions_b)], parse_math=False,
                  rotation=20 if n_b > 2 else 0, ha="right" if n_b > 2 else "center")
    ax.set_yticks(range(n_a), [_label("A", i, t) for i, t in enumerate(mentions_a)], parse_math=False)
    ax.set_title("accepted: solid = A→B, dashed = B→A; × = best match below τ", fontsize=9)
    return fig
