"""Alignment heat map: context cosine between the numbers of A (rows) and B (columns).

Built on ``matplotlib.figure.Figure`` (no pyplot state), so concurrent requests never share a figure.
Labels fall back to a CJK font when one is installed (Debian `fonts-noto-cjk`), so 3億元 is not drawn as boxes.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

import numpy as np
from matplotlib import font_manager
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

CJK_FAMILIES = ("Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Sans CJK TC", "WenQuanYi Zen Hei",
                "Droid Sans Fallback")


@functools.cache
def label_fonts() -> tuple[str, ...]:
    """DejaVu Sans, then the first CJK family installed (matplotlib falls back glyph by glyph)."""
    manager = font_manager.fontManager
    known = {f.name for f in manager.ttflist}
    if not known.intersection(CJK_FAMILIES):  # installed after matplotlib cached its font list
        for path in font_manager.findSystemFonts():
            if "CJK" in path or "wqy" in path.lower() or "DroidSansFallback" in path:
                try:
                    manager.addfont(path)
                except (OSError, RuntimeError, ValueError):
                    continue
        known = {f.name for f in manager.ttflist}
    return ("DejaVu Sans", *[f for f in CJK_FAMILIES if f in known][:1])


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
    fonts = list(label_fonts())
    ax.set_xticks(range(n_b), [_label("B", j, t) for j, t in enumerate(mentions_b)], parse_math=False,
                  rotation=20 if n_b > 2 else 0, ha="right" if n_b > 2 else "center", fontfamily=fonts)
    ax.set_yticks(range(n_a), [_label("A", i, t) for i, t in enumerate(mentions_a)], parse_math=False,
                  fontfamily=fonts)
    ax.set_title("accepted: solid = A→B, dashed = B→A; × = best match below τ", fontsize=9)
    return fig
