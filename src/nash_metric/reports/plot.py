"""Alignment heat map of one pair: context cosine between the numbers of A (rows) and B (columns).

One implementation for the Space (Compare tab), `NASH.plot` and `nash explain --plot`: `explanation_figure`
draws it from a `NASH.explain` dict, `save_figure` writes it by suffix.

Built on ``matplotlib.figure.Figure`` (no pyplot state), so concurrent requests never share a figure, and no
GUI backend is ever selected. Import this module lazily: `import nash_metric` must stay free of matplotlib.
Labels fall back to a CJK font when one is installed (Debian `fonts-noto-cjk`), so 3億元 is not drawn as boxes.
Each row (a number of A, the prediction) carries its support verdict (`verdicts/decide.py`): ✓ supported
(green), Σ computed (teal), ↷ misplaced (orange), ⇅ contradicted (purple), ✗ unsupported (red), and under the
argmax rule ∅ unmatched (grey). Cells say where: ✓ the number of B that supports it; Σ each number of B a
computed figure is derived from; for a misplaced figure ↷ where B states its value and ◎ the number bound to what
A states; ⇅ where B states a contradicted change; ✗ the number of B closest in context to an unsupported figure
(argmax rule: its aligned one).
Titles and the legend are wrapped to the figure's width, so that a narrow map (one column) shows them whole.

A map has a size limit, `PLOT_BUDGET` (`PlotBudget`: cells drawn, pixels a side and in all): a matrix within it is
drawn whole; a larger one (a 25 KB filing has ~1,800 figures a side: 3 million cells, which matplotlib cannot
draw in any reasonable time or memory) shows the rows and columns `top_by_cosine` keeps, and its title says how
many it left out. The work past the budget is numpy over the matrix, never a Python loop over its cells.
"""

from __future__ import annotations

import functools
import os
import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib import font_manager
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from ..verdicts.spec import (
    MARKS,
    RULE_VERDICTS,
    SPEC,
    SPECS,
    VERDICT_COLOURS,
    VERDICT_HELP,
    Rule,
    supports,
)
from .explain_text import figure_verdicts, support_summary, verdict_rule

__all__ = [
    "CJK_FAMILIES",
    "FIGURE_SUFFIXES",
    "NO_ALIGNMENT",
    "PLOT_BUDGET",
    "PlotBudget",
    "alignment_heatmap",
    "check_figure_path",
    "explanation_figure",
    "has_alignment",
    "label_fonts",
    "left_out_note",
    "save_figure",
    "top_by_cosine",
]

CJK_FAMILIES = ("Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Sans CJK TC", "WenQuanYi Zen Hei",
                "Droid Sans Fallback")
FIGURE_SUFFIXES = (".png", ".svg", ".pdf")
PNG_DPI = 150
PAD_INCHES = 0.1  # around a saved figure (bbox "tight")
NO_ALIGNMENT = "No alignment to show: numbers on at most one side (S_num = 1 or 0 by definition)"
MAX_LISTED = 12  # mentions listed per side on the no-alignment figure
NO_ALIGNMENT_WIDTH = 7.2  # inches of text on the no-alignment figure (which is a little wider)
# A cell mark: the number of B bound to what a figure states, for a verdict whose reference is that number
# (`VerdictSpec.bound`: misplaced), in that verdict's colour.
CONTEXT, CONTEXT_MARK = "context", "◎"


def _cell_marks() -> dict[str, str]:
    """Each verdict that marks cells (`VerdictSpec.cells`) with its mark, ◎ (`CONTEXT`) after the one that binds."""
    marks = {}
    for s in SPECS:
        if s.cells:
            marks[s.name] = s.mark
        if s.bound:
            marks[CONTEXT] = CONTEXT_MARK
    return marks


CELL_MARKS = _cell_marks()
CELL_COLOURS = {**VERDICT_COLOURS, CONTEXT: next(s.colour for s in SPECS if s.bound)}
CELL_HELP: dict[Rule, str] = {
    "context": "in a cell: ✓ the number of B that supports it; Σ each number of B a computed figure is derived "
               "from; ↷ where B states a misplaced figure's value, ◎ the number bound to what it states; ⇅ where B "
               "states a contradicted change; ✗ the number closest in context to an unsupported figure",
    "argmax": "in a cell: the number of B that supports (✓) or contradicts (✗) it",
}
MATCH_LEGEND = "accepted: solid box = A→B, dashed = B→A; × = best match below τ"
TITLE_SIZE, LEGEND_SIZE = 10.0, 8.5
CHAR_WIDTH = 0.62  # of a DejaVu Sans character, in ems, a little over its mean: wrapped lines fit the width

Cell = tuple[int, int]


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


def _label(side: str, number: int, text: str, width: int = 16) -> str:
    text = " ".join(text.split())
    return f"{side}{number}: {text if len(text) <= width else text[: width - 1] + '…'}"


# -- the heat map from its parts ------------------------------------------------------------------------


@dataclass(frozen=True)
class PlotBudget:
    """How much of an alignment matrix a heat map draws: at most `rows` numbers of A and `columns` of B, in a figure
    of at most `side_pixels` a side and `pixels` in all at `dpi` (the highest it is written at: `PNG_DPI`).

    Each drawn cell carries its cosine as text, which is what costs matplotlib time and memory (a few ms a cell drawn
    and encoded on 2 CPU cores), so the cells are bounded, not just the pixels. The default, 40 x 30 cells, is a
    42 x 26-inch figure: a PNG of about 4,800 x 3,900 pixels (bbox "tight" at 150 dpi), the Space's WebP 4,220 x
    2,570 (100 dpi), well under WebP's 16,383 a side; it draws in seconds (perf/plot_budget.py). At least one row
    and one column are always drawn.
    """

    rows: int = 40
    columns: int = 30
    side_pixels: int = 8_000
    pixels: int = 30_000_000
    dpi: float = PNG_DPI

    def __post_init__(self) -> None:
        for name in ("rows", "columns", "side_pixels", "pixels", "dpi"):
            value = getattr(self, name)
            kinds = (int, float) if name == "dpi" else int
            if isinstance(value, bool) or not isinstance(value, kinds) or not value > 0:
                raise ValueError(f"PlotBudget.{name} must be a positive {'number' if name == 'dpi' else 'integer'}, "
                                 f"got {value!r}")

    def cells(self, n_a: int, n_b: int) -> int:
        """At most how many cells a map of an `n_a` x `n_b` matrix draws under this budget."""
        return min(n_a, self.rows) * min(n_b, self.columns)

    def fits(self, width: float, height: float) -> bool:
        """Whether a figure of `width` x `height` inches, saved with its padding, is within the pixel budget."""
        w, h = (width + 2 * PAD_INCHES) * self.dpi, (height + 2 * PAD_INCHES) * self.dpi
        return max(w, h) <= self.side_pixels and w * h <= self.pixels


PLOT_BUDGET = PlotBudget()  # NASH.plot, `nash explain --plot` and the Space's Compare tab


def _map_width(n_b: int) -> float:
    """Inches: a column is wide enough for its rotated label and its cell's text."""
    return max(4.8, 1.3 * n_b + 3.2)


def _map_height(n_a: int, text_height: float) -> float:
    return max(1.6, 0.6 * n_a + 0.9) + text_height


def top_by_cosine(sim: np.ndarray, rows: int, columns: int, marked: Iterable[Cell] = (),
                  flagged: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The (rows, columns) of `sim` that a cut heat map keeps, each ascending (the texts' order).

    Rows: first the `flagged` numbers of A (those the verdict does not support: what a reader looks for), then
    those with the highest cosine, i.e. with the strongest best match (an accepted A→B match when it passes τ, so
    a map cut this way shows the accepted matches next). Columns: first those holding
    a `marked` cell (i, j) of a kept row (its accepted match, the numbers its verdict marks), then the others;
    within each group by their highest cosine with a kept row. Ties go to the earlier number. Vectorised: a
    1,800 x 1,800 matrix costs milliseconds, and nothing past the kept block is ever drawn.
    """
    n_a, n_b = sim.shape
    first = np.zeros(n_a, dtype=bool) if flagged is None else np.asarray(flagged, dtype=bool)
    keep = np.arange(n_a) if rows >= n_a else np.sort(np.lexsort((np.arange(n_a), -sim.max(axis=1), ~first))[:rows])
    if columns >= n_b:
        return keep, np.arange(n_b)
    kept = np.zeros(n_a, dtype=bool)
    kept[keep] = True
    cells = np.asarray(list(marked), dtype=int).reshape(-1, 2)
    in_block = np.zeros(n_b, dtype=bool)
    in_block[cells[kept[cells[:, 0]], 1]] = True
    order = np.lexsort((np.arange(n_b), -sim[keep].max(axis=0), ~in_block))
    return keep, np.sort(order[:columns])


def left_out_note(rows: int, n_a: int, columns: int, n_b: int) -> str:
    """What a cut map says of itself (its last title line)."""
    return (f"showing {rows:,} of {n_a:,} numbers of A and {columns:,} of {n_b:,} of B (the plot budget; flagged, "
            f"then top by cosine): {n_a - rows:,} rows and {n_b - columns:,} columns left out")


@dataclass(frozen=True)
class _Layout:
    """The drawn block's size and its wrapped texts."""

    rows: int
    columns: int
    title: str
    legend: str
    size: tuple[float, float]


def _layout(n_a: int, n_b: int, title: str, legend: str, budget: PlotBudget) -> _Layout:
    """How many rows and columns fit `budget`, and the figure they make (titles wrapped to its width)."""
    # Titles and footer wrapped to the figure's width: the Space shows the figure as drawn, where a line wider
    # than the figure is cut off at both ends (bbox "tight" in `save_figure` only helps files). The matches'
    # legend is in the footer, not the axes' title, for the same reason: a narrow map has narrow axes.
    wide = int((budget.side_pixels / budget.dpi - 2 * PAD_INCHES - 3.2) / 1.3)
    columns = max(1, min(n_b, budget.columns, wide))
    width, rows = _map_width(columns), min(n_a, budget.rows)
    while True:
        cut = rows < n_a or columns < n_b
        lines = "\n".join(filter(None, [title, left_out_note(rows, n_a, columns, n_b) if cut else ""]))
        top = _wrapped(lines, width, TITLE_SIZE) if lines else ""
        foot = _wrapped(legend, width, LEGEND_SIZE) if legend else ""
        text_height = ((foot.count("\n") + 1) * LEGEND_SIZE * 1.25 / 72 if foot else 0) + \
            (top.count("\n") + 1) * TITLE_SIZE * 1.3 / 72
        height = _map_height(rows, text_height)
        if rows == 1 or budget.fits(width, height):
            return _Layout(rows, columns, top, foot, (width, height))
        tall = min(budget.side_pixels / budget.dpi, budget.pixels / budget.dpi ** 2 / width)
        rows = max(1, min(rows - 1, int((tall - 0.9 - text_height) / 0.6)))


def alignment_heatmap(
    labels_a: Sequence[str],
    labels_b: Sequence[str],
    similarity: Sequence[Sequence[float]] | np.ndarray,
    tau: float,
    accepted_ab: Iterable[Cell] = (),
    accepted_ba: Iterable[Cell] = (),
    rejected: Iterable[Cell] = (),
    title: str = "",
    verdicts: Sequence[str | None] = (),
    references: Iterable[tuple[int, int, str]] = (),
    rule: Rule = "context",
    budget: PlotBudget = PLOT_BUDGET,
    legend: bool = True,
) -> Figure:
    """The heat map of a ``len(labels_a) x len(labels_b)`` cosine matrix, diverging around ``tau``.

    ``accepted_ab`` holds (i, j) for A_i → B_j, ``accepted_ba`` holds (j, i) for B_j → A_i;
    ``rejected`` holds (i, j) cells that were a best match in some direction but fell below τ.
    ``verdicts`` holds the support verdict of each row (None: none), appended to its label as a mark in the
    verdict's colour; ``references`` holds (i, j, mark), a key of `CELL_MARKS`: B_j supports A_i (supported),
    is an operand of the derivation that gives its value (computed), states its value for another period, row or
    subject (misplaced), is the number bound to what A states (context), states its value as the other change
    (contradicted), or is the number it is compared with (unsupported). ``rule`` (`verdict_rule`) picks the legend;
    ``legend=False`` leaves it out, for a page that shows it beside the figure (the Space: wrapped to a narrow map,
    it took 12 centred lines).

    A matrix within ``budget`` (`PlotBudget`) is drawn whole. A larger one is cut to the rows and columns
    `top_by_cosine` keeps (figures the verdict flags, then accepted matches and verdict marks), and its title says
    how many of each it left out (`left_out_note`): a map is never cut silently. Labels keep their numbers (A17,
    B3), so the gaps show.
    """
    sim = np.asarray(similarity, dtype=float).reshape(len(labels_a), len(labels_b))
    n_a, n_b = sim.shape
    accepted_ab, references = list(accepted_ab), list(references)
    verdicts = [*verdicts, *[None] * (n_a - len(verdicts))]
    footer = MATCH_LEGEND + (f"\n{heatmap_legend(rule)}" if any(v in MARKS for v in verdicts) else "")
    fit = _layout(n_a, n_b, title, footer if legend else "", budget)
    flagged = np.array([v in MARKS and not supports(v) for v in verdicts], dtype=bool)
    rows, columns = top_by_cosine(sim, fit.rows, fit.columns, [*accepted_ab, *((i, j) for i, j, _ in references)],
                                  flagged)
    ra = {int(r): k for k, r in enumerate(rows)}
    cb = {int(c): k for k, c in enumerate(columns)}
    fig = Figure(figsize=fit.size, dpi=100, layout="constrained")
    ax = fig.add_subplot()
    _draw_cells(fig, ax, sim[np.ix_(rows, columns)], tau)
    _mark_matches(ax, [(ra[i], cb[j]) for i, j in accepted_ab if i in ra and j in cb],
                  [(cb[j], ra[i]) for j, i in accepted_ba if i in ra and j in cb],
                  [(ra[i], cb[j]) for i, j in rejected if i in ra and j in cb],
                  [(ra[i], cb[j], mark) for i, j, mark in references if i in ra and j in cb])
    _label_axes(ax, [labels_a[r] for r in rows], [labels_b[c] for c in columns], [verdicts[r] for r in rows])
    if fit.legend:
        fig.supxlabel(fit.legend, fontsize=LEGEND_SIZE, color="#333")
    if fit.title:
        fig.suptitle(fit.title, fontsize=TITLE_SIZE)
    return fig


def _draw_cells(fig: Figure, ax: Any, sim: np.ndarray, tau: float) -> None:
    """The cosines as colours diverging around tau (blue cells pass the gate, red ones are rejected) and as text."""
    lo, hi = min(float(sim.min()), tau - 1e-3), max(float(sim.max()), tau + 1e-3)
    norm = TwoSlopeNorm(vcenter=tau, vmin=min(lo, -1.0), vmax=max(hi, 1.0))
    image = ax.imshow(sim, cmap="RdBu", norm=norm)
    cbar = fig.colorbar(image, ax=ax, shrink=0.9)
    cbar.ax.axhline(tau, color="black", linewidth=2)
    cbar.set_label(f"context cosine\n(τ = {tau:.4f})")  # two lines: a short map leaves a short bar
    dark = np.abs(np.asarray(norm(sim), dtype=float) - 0.5) > 0.3
    for (i, j), value in np.ndenumerate(sim):  # within the budget: at most its rows x columns
        ax.text(j, i, f"{value:.3f}", ha="center", va="center", fontsize=9, color="white" if dark[i, j] else "black")


def _label_axes(ax: Any, labels_a: Sequence[str], labels_b: Sequence[str], verdicts: Sequence[str | None]) -> None:
    """B's numbers under the columns; A's on the rows, each ending with its verdict's mark in its colour."""
    n_a, n_b = len(labels_a), len(labels_b)
    fonts = list(label_fonts())
    marks = [f" {MARKS[v]}" if v in MARKS else "" for v in verdicts] + [""] * (n_a - len(verdicts))
    ax.set_xticks(range(n_b), list(labels_b), parse_math=False,
                  rotation=20 if n_b > 2 else 0, ha="right" if n_b > 2 else "center", fontfamily=fonts)
    ax.set_yticks(range(n_a), [label + mark for label, mark in zip(labels_a, marks)], parse_math=False,
                  fontfamily=fonts)
    for tick, verdict in zip(ax.get_yticklabels(), verdicts):
        if verdict in VERDICT_COLOURS:
            tick.set_color(VERDICT_COLOURS[verdict])
            tick.set_fontweight("normal" if supports(verdict) else "bold")


def heatmap_legend(rule: Rule) -> str:
    """The heat map's footer: what each verdict's mark means under `rule`, and the marks in the cells."""
    marks = " · ".join(f"{SPEC[v].label} ({VERDICT_HELP[rule][v]})" for v in RULE_VERDICTS[rule])
    return f"A's figures: {marks}; {CELL_HELP[rule]}"


def _wrapped(text: str, inches: float, fontsize: float, indent: str = "") -> str:
    """`text`, each line wrapped to `inches` at `fontsize` (continuation lines indented by `indent`)."""
    width = max(20, int(inches * 72 / (CHAR_WIDTH * fontsize)))
    return "\n".join(part for line in text.split("\n")
                     for part in textwrap.wrap(line, width, subsequent_indent=indent) or [""])


def _mark_matches(ax: Any, accepted_ab: Iterable[Cell], accepted_ba: Iterable[Cell], rejected: Iterable[Cell],
                  references: Iterable[tuple[int, int, str]]) -> None:
    """Boxes on the accepted matches, crosses on rejected best matches, and each support verdict's cell marks."""
    # Accepted matches: solid box for A→B, dashed inner box for B→A.
    for i, j in accepted_ab:
        ax.add_patch(Rectangle((j - 0.48, i - 0.48), 0.96, 0.96, fill=False, edgecolor="#111", linewidth=2.5))
    for j, i in accepted_ba:
        ax.add_patch(Rectangle((j - 0.38, i - 0.38), 0.76, 0.76, fill=False, edgecolor="#f59e0b",
                               linewidth=2, linestyle="--"))
    for i, j in rejected:
        ax.text(j + 0.36, i - 0.3, "×", ha="center", va="center", fontsize=13, color="#7f1d1d")
    # What B says about a number of A (`CELL_MARKS`), in the cell's lower left corner.
    for i, j, mark in references:
        ax.text(j - 0.34, i + 0.3, CELL_MARKS[mark], ha="center", va="center", fontsize=11, fontweight="bold",
                color=CELL_COLOURS[mark],
                bbox={"boxstyle": "circle,pad=0.12", "facecolor": "white", "edgecolor": "none", "alpha": 0.85})


# -- the heat map from a `NASH.explain` dict ------------------------------------------------------------


def _scored_rows(mentions: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    """Full mention index -> row of the similarity matrix (which holds scored mentions only)."""
    return {i: k for k, i in enumerate(i for i, m in enumerate(mentions) if m["scored"])}


def _badges(mentions: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    """Full mention index -> its 1-based number by position in the text, as the Space's badges number it."""
    order = sorted(range(len(mentions)), key=lambda i: int(mentions[i].get("start", i)))
    return {i: k + 1 for k, i in enumerate(order)}


def has_alignment(info: Mapping[str, Any]) -> bool:
    """Whether both texts have scored numbers, i.e. there is a matrix to draw."""
    return all(any(m["scored"] for m in info["mentions"][side]) for side in ("a", "b"))


def _scores_line(info: Mapping[str, Any]) -> str:
    s = info["scores"]
    return f"NASH = {s['nash']:.3f} · S_num = {s['numeric']:.3f} · τ = {info['threshold']:.4f}"


def _has_verdicts(info: Mapping[str, Any]) -> bool:
    return "numeric_support" in info["scores"] or any(m.get("verdict") for m in info["mentions"]["a"])


def _title(info: Mapping[str, Any]) -> str:
    """The scores line, and the numeric support of A's figures under it when the dict has verdicts."""
    return _scores_line(info) + (f"\n{support_summary(info)}" if _has_verdicts(info) else "")


def _verdict_marks(info: Mapping[str, Any]) -> tuple[list[str | None], list[tuple[int, int, str]]]:
    """The verdict of each matrix row (A's scored numbers) and the (i, j, mark) cells of `CELL_MARKS`."""
    pa, pb = _scored_rows(info["mentions"]["a"]), _scored_rows(info["mentions"]["b"])
    rows: list[str | None] = [None] * len(pa)
    cells = []
    for e in figure_verdicts(info):
        if e["index"] not in pa:
            continue
        i = pa[e["index"]]
        rows[i] = e["verdict"]
        cells += [(i, pb[j], mark) for j, mark in _marked(e) if j is not None and j in pb]
    return rows, cells


def _marked(entry: Mapping[str, Any]) -> list[tuple[int | None, str]]:
    """The (B's mention index, mark) cells of one figure: those its spec's `cells` point at, with its mark (each
    operand once), then, for a verdict that binds (`VerdictSpec.bound`), its reference with ◎ (`CONTEXT`)."""
    spec = SPEC.get(entry["verdict"])
    if spec is None:
        return []
    out: list[tuple[int | None, str]] = []
    for pointer in spec.cells:
        at = entry.get(pointer) if pointer == "operands" else (entry[pointer],)
        out += [(j, spec.name) for j in dict.fromkeys(at or ())]
    return out + ([(entry["reference"], CONTEXT)] if spec.bound else [])


def _cells(info: Mapping[str, Any]) -> tuple[list[Cell], list[Cell], list[Cell]]:
    """The accepted A→B (i, j), accepted B→A (j, i) and rejected (i, j) cells, in matrix rows and columns."""
    pa, pb = _scored_rows(info["mentions"]["a"]), _scored_rows(info["mentions"]["b"])
    al = info["alignments"]
    accepted_ab = [(pa[r["source"]], pb[r["target"]]) for r in al["a_to_b"] if r["valid"]]
    accepted_ba = [(pb[r["source"]], pa[r["target"]]) for r in al["b_to_a"] if r["valid"]]
    # A best match that fell below tau: crossed out, so the gate's effect is visible on the map.
    rejected = {(pa[r["source"]], pb[r["target"]]) for r in al["a_to_b"] if r["target"] is not None and not r["valid"]}
    rejected |= {(pa[r["target"]], pb[r["source"]]) for r in al["b_to_a"] if r["target"] is not None and not r["valid"]}
    return accepted_ab, accepted_ba, sorted(rejected)  # a cell rejected both ways gets one cross


def _axis_labels(mentions: Sequence[Mapping[str, Any]], side: str) -> list[str]:
    badges = _badges(mentions)
    return [_label(side, badges[i], m["text"]) for i, m in enumerate(mentions) if m["scored"]]


def explanation_figure(info: Mapping[str, Any], budget: PlotBudget = PLOT_BUDGET, legend: bool = True) -> Figure:
    """The figure of one ``NASH.explain(a, b)`` dict: always a Figure, so a caller always gets a file.

    With scored numbers on both sides, the alignment heat map titled with NASH, S_num, τ and the numeric
    support, each of A's numbers marked with its verdict, cut to `budget` (and saying so) when it holds more;
    otherwise a small figure saying there is nothing to align, with the scores and each text's numbers (A's with
    their verdicts: all unmatched when B has none). ``legend=False``: the heat map without its footer legend.
    """
    if not has_alignment(info):
        return _no_alignment_figure(info)
    ma, mb = info["mentions"]["a"], info["mentions"]["b"]
    verdicts, references = _verdict_marks(info)
    return alignment_heatmap(_axis_labels(ma, "A"), _axis_labels(mb, "B"), info["similarity_matrix"],
                             info["threshold"], *_cells(info), title=_title(info), verdicts=verdicts,
                             references=references, rule=verdict_rule(info), budget=budget, legend=legend)


def _mentions_line(mentions: Sequence[Mapping[str, Any]], side: str, verdicts: Mapping[int, str] | None = None) -> str:
    if not mentions:
        return f"Text {side}: no numbers"
    badges = _badges(mentions)
    verdicts = verdicts or {}
    shown = sorted(range(len(mentions)), key=badges.__getitem__)[:MAX_LISTED]
    parts = [_label(side, badges[i], mentions[i]["text"]) + ("" if mentions[i]["scored"] else " (unscored)")
             + (f" {MARKS[verdicts[i]]}" if i in verdicts else "") for i in shown]
    more = len(mentions) - len(shown)
    return f"Text {side}: " + " · ".join(parts) + (f" · … and {more} more" if more else "")


def _no_alignment_figure(info: Mapping[str, Any]) -> Figure:
    lines = [NO_ALIGNMENT, _scores_line(info)]
    verdicts = {e["index"]: e["verdict"] for e in figure_verdicts(info)}
    if _has_verdicts(info):
        rule = verdict_rule(info)
        shown = [v for v in RULE_VERDICTS[rule] if v in verdicts.values()]
        summary = support_summary(info) + "".join(f"; {MARKS[v]} = {VERDICT_HELP[rule][v]}" for v in shown)
        lines += _wrapped(summary, NO_ALIGNMENT_WIDTH, 10, "    ").split("\n")
    for side in ("a", "b"):
        line = _mentions_line(info["mentions"][side], side.upper(), verdicts if side == "a" else None)
        lines += _wrapped(line, NO_ALIGNMENT_WIDTH, 10, "    ").split("\n")
    fig = Figure(figsize=(NO_ALIGNMENT_WIDTH / 0.96, 0.3 * len(lines) + 0.3), dpi=100)
    fonts = list(label_fonts())
    step = 1 / (len(lines) + 1)
    for k, line in enumerate(lines):
        fig.text(0.02, 1 - (k + 1) * step, line, ha="left", va="center", fontsize=10, parse_math=False,
                 fontfamily=fonts, fontweight="bold" if k == 0 else "normal")
    return fig


# -- writing --------------------------------------------------------------------------------------------


def check_figure_path(path: str | os.PathLike[str]) -> Path:
    """``path`` as `save_figure` will write it; ValueError for a suffix other than .png/.svg/.pdf or a
    parent folder that does not exist (a typo in a path should not silently create folders).

    Cheap and model-free, so a CLI can refuse a bad path before it loads a model.
    """
    out = Path(path).expanduser()
    refused = f"cannot write a figure to {str(out)!r}"
    if out.suffix.lower() not in FIGURE_SUFFIXES:
        raise ValueError(f"{refused}: the suffix must be one of {', '.join(FIGURE_SUFFIXES)}")
    if not out.parent.is_dir():
        raise ValueError(f"{refused}: the folder {str(out.parent)!r} does not exist")
    return out


def save_figure(figure: Figure, path: str | os.PathLike[str]) -> Path:
    """Write ``figure`` in the format the suffix names (.png at 150 dpi, .svg, .pdf); returns the path written.

    Refuses what `check_figure_path` refuses, with the same ValueError.
    """
    from ..common.atomic import replacing

    out = check_figure_path(path)
    with replacing(out) as partial:  # whole or not at all: an interrupted run keeps an existing image
        # bbox "tight" keeps long labels and the no-alignment text inside the saved image.
        figure.savefig(partial, format=out.suffix.lower()[1:], dpi=PNG_DPI, bbox_inches="tight",
                       pad_inches=PAD_INCHES)
    return out


def pair_figure(explain: Callable[[str, str], dict[str, Any]], a: str, b: str,
                path: str | os.PathLike[str] | None = None, budget: PlotBudget = PLOT_BUDGET) -> Figure:
    """`NASH.plot`: the heat map of `explain(a, b)` within `budget`, written to `path` when given (checked before
    scoring: a bad path should not cost a forward pass)."""
    if path is not None:
        check_figure_path(path)
    figure = explanation_figure(explain(a, b), budget)
    if path is not None:
        save_figure(figure, path)
    return figure
