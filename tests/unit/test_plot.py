"""The alignment heat map shared by the Space, `NASH.plot` and `nash explain --plot` (nash_metric.reports.plot)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from nash_metric.reports.plot import (
    CELL_COLOURS,
    CELL_MARKS,
    MATCH_LEGEND,
    NO_ALIGNMENT,
    PLOT_BUDGET,
    VERDICT_COLOURS,
    PlotBudget,
    alignment_heatmap,
    check_figure_path,
    explanation_figure,
    has_alignment,
    save_figure,
    top_by_cosine,
)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _mention(text: str, start: int, scored: bool = True) -> dict:
    return {"text": text, "start": start, "end": start + len(text), "value": 1.0, "kind": "quantity",
            "unit": None, "error": None, "period": None, "scored": scored}


def _row(source: int, target: int | None, valid: bool) -> dict:
    return {"source": source, "target": target, "cosine": 0.5, "valid": valid}


def _info(mentions_a: list[dict], mentions_b: list[dict], matrix, a_to_b=(), b_to_a=(), numeric=0.35) -> dict:
    """The keys of a `NASH.explain` dict that the figure reads."""
    return {
        "mentions": {"a": mentions_a, "b": mentions_b},
        "similarity_matrix": matrix,
        "threshold": 0.4,
        "alignments": {"a_to_b": list(a_to_b), "b_to_a": list(b_to_a)},
        "scores": {"nash": 0.8125, "text": 0.9, "numeric": numeric},
    }


@pytest.fixture
def pair_info() -> dict:
    """A: 4%, 2019 (unscored), 30 mn; B: 40%, 31 mn, 7 — matrix rows/columns are the scored mentions only."""
    a = [_mention("4%", 12), _mention("2019", 20, scored=False), _mention("30 mn", 30)]
    b = [_mention("40%", 12), _mention("31 mn", 20), _mention("7", 40)]
    matrix = [[0.9, 0.1, 0.2], [0.3, 0.8, 0.35]]
    a_to_b = [_row(0, 0, True), _row(2, 1, False)]  # A3 -> B2 is a best match below tau
    b_to_a = [_row(0, 0, True), _row(1, 2, True), _row(2, 2, False)]  # B3 -> A3 rejected too
    return _info(a, b, matrix, a_to_b, b_to_a)


def _image_axes(fig: Figure):
    return [ax for ax in fig.axes if ax.get_images()]


def test_the_heat_map_has_the_matrix_labels_and_scores(pair_info):
    fig = explanation_figure(pair_info)
    assert isinstance(fig, Figure) and has_alignment(pair_info)
    (ax,) = _image_axes(fig)
    assert ax.get_images()[0].get_array().shape == (2, 3)
    # Numbered by position in the text, as the Space's badges are: the unscored 2019 is A2, so 30 mn is A3.
    assert [t.get_text() for t in ax.get_yticklabels()] == ["A1: 4%", "A3: 30 mn"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["B1: 40%", "B2: 31 mn", "B3: 7"]
    title = fig.get_suptitle()
    assert "NASH = 0.812" in title and "S_num = 0.350" in title and "τ = 0.4000" in title


def test_accepted_boxes_and_rejected_crosses_are_counted(pair_info):
    (ax,) = _image_axes(explanation_figure(pair_info))
    boxes = [p for p in ax.patches if isinstance(p, Rectangle)]
    assert sum(p.get_linestyle() == "solid" for p in boxes) == 1  # A1 -> B1
    assert sum(p.get_linestyle() == "--" for p in boxes) == 2  # B1 -> A1, B2 -> A3
    crosses = [t for t in ax.texts if t.get_text() == "×"]
    assert len(crosses) == 2  # A3 -> B2 and B3 -> A3, in different cells


def test_a_cell_rejected_both_ways_gets_one_cross():
    info = _info([_mention("4%", 0)], [_mention("9 kg", 0)], [[0.1]], [_row(0, 0, False)], [_row(0, 0, False)])
    (ax,) = _image_axes(explanation_figure(info))
    assert [t.get_text() for t in ax.texts].count("×") == 1 and not ax.patches


@pytest.mark.parametrize(
    ("mentions_a", "mentions_b", "numeric"),
    [([], [], 1.0), ([_mention("4%", 5)], [], 0.0), ([_mention("2019", 5, scored=False)], [_mention("3", 0)], 0.0)],
)
def test_nothing_to_align_still_gives_a_figure(mentions_a, mentions_b, numeric):
    info = _info(mentions_a, mentions_b, [], numeric=numeric)
    assert not has_alignment(info)
    fig = explanation_figure(info)
    assert isinstance(fig, Figure) and not fig.axes
    text = "\n".join(t.get_text() for t in fig.texts)
    assert NO_ALIGNMENT in text and f"S_num = {numeric:.3f}" in text
    for side, mentions in (("A", mentions_a), ("B", mentions_b)):
        assert all(m["text"] in text for m in mentions)
        assert (f"Text {side}: no numbers" in text) == (not mentions)


@pytest.mark.parametrize("suffix", [".png", ".PNG"])
def test_save_figure_writes_a_png(pair_info, tmp_path, suffix):
    from matplotlib.image import imread

    path = save_figure(explanation_figure(pair_info), tmp_path / f"map{suffix}")
    assert path == tmp_path / f"map{suffix}"
    assert path.read_bytes()[:8] == PNG_SIGNATURE
    height, width, _ = imread(path, format="png").shape
    assert height > 0 and width > 0


def test_save_figure_writes_svg_and_pdf_by_suffix(pair_info, tmp_path):
    fig = explanation_figure(pair_info)
    assert b"<svg" in save_figure(fig, str(tmp_path / "map.svg")).read_bytes()[:500]
    assert save_figure(fig, tmp_path / "map.pdf").read_bytes()[:5] == b"%PDF-"
    no_alignment = explanation_figure(_info([], [], [], numeric=1.0))
    assert save_figure(no_alignment, tmp_path / "none.png").read_bytes()[:8] == PNG_SIGNATURE


@pytest.mark.parametrize("name", ["map.jpg", "map", "map.png.txt"])
def test_save_figure_refuses_other_suffixes(pair_info, tmp_path, name):
    with pytest.raises(ValueError, match=r"\.png, \.svg, \.pdf") as error:
        save_figure(explanation_figure(pair_info), tmp_path / name)
    assert name in str(error.value) and not (tmp_path / name).exists()
    with pytest.raises(ValueError, match=r"\.png, \.svg, \.pdf"):
        check_figure_path(tmp_path / name)  # what a CLI checks before it loads a model


def test_save_figure_refuses_a_missing_folder(pair_info, tmp_path):
    target = tmp_path / "missing" / "map.png"
    with pytest.raises(ValueError, match="does not exist"):
        save_figure(explanation_figure(pair_info), target)
    assert not target.parent.exists()  # never created silently
    with pytest.raises(ValueError, match="does not exist"):
        check_figure_path(target)
    assert check_figure_path(tmp_path / "ok.SVG") == tmp_path / "ok.SVG"


def _judged(mention: dict, verdict: str, found: int | None = None, match: int | None = None) -> dict:
    """`mention` with its verdict as explain writes it: `found` and `match` index B's mentions."""
    return dict(mention, verdict=verdict, found=None if found is None else {"index": found},
                context_match=None if match is None else {"index": match, "cosine": 0.5})


def _with_verdicts(info: dict, rule: str, *verdicts: tuple) -> dict:
    """`info` with A's mentions judged: one (verdict, found, match) per mention (None: not judged)."""
    a = [m if v is None else _judged(m, *v) for m, v in zip(info["mentions"]["a"], verdicts)]
    scores = dict(info["scores"], numeric_support=0.5)
    return dict(info, mentions={"a": a, "b": info["mentions"]["b"]}, scores=scores, config={"verdict": rule})


def _rows(fig: Figure) -> list[tuple[str, str]]:
    (ax,) = _image_axes(fig)
    return [(t.get_text(), t.get_color()) for t in ax.get_yticklabels()]


def _cell_marks(fig: Figure) -> list[tuple[str, int, int]]:
    """The verdict marks drawn in cells: (mark, column, row)."""
    (ax,) = _image_axes(fig)
    return sorted((t.get_text(), round(t.get_position()[0]), round(t.get_position()[1])) for t in ax.texts
                  if t.get_text() in CELL_MARKS.values())


def test_each_row_of_a_carries_its_verdict_argmax_rule(pair_info):
    """A1 = 4% supported by B1; A3 = 30 mn unmatched (its best match, B2, is below tau), then unsupported."""
    info = _with_verdicts(pair_info, "argmax", ("supported", 0, 0), None, ("unmatched",))
    fig = explanation_figure(info)
    assert _rows(fig) == [("A1: 4% ✓", VERDICT_COLOURS["supported"]), ("A3: 30 mn ∅", VERDICT_COLOURS["unmatched"])]
    assert "numeric support 0.50: 1 of 2 figures of A supported by B (1 unmatched)" in fig.get_suptitle()
    legend = fig.get_supxlabel().replace("\n", " ")
    assert "✗ unsupported (B's aligned number states another value)" in legend and "∅ unmatched" in legend
    assert "misplaced" not in legend
    # The supporting number of B is marked in its cell (row A1, column B1); an unmatched row marks no cell.
    assert _cell_marks(fig) == [("✓", 0, 0)]
    unsupported = _with_verdicts(pair_info, "argmax", ("supported", 0, 0), None, ("unsupported", None, 1))
    fig = explanation_figure(unsupported)
    assert [t for t, _ in _rows(fig)] == ["A1: 4% ✓", "A3: 30 mn ✗"]
    assert _rows(fig)[1][1] == VERDICT_COLOURS["unsupported"]
    assert _cell_marks(fig) == [("✓", 0, 0), ("✗", 1, 1)]  # B2 (column 1) is what A3 (row 1) is compared with


def test_a_misplaced_figure_marks_where_its_value_is_and_what_its_context_fits(pair_info):
    """A3 = 30 mn misplaced: its value is B2's (column 1), its context fits B3's (column 2)."""
    info = _with_verdicts(pair_info, "context", ("supported", 0, 0), None, ("misplaced", 1, 2))
    fig = explanation_figure(info)
    assert _rows(fig) == [("A1: 4% ✓", VERDICT_COLOURS["supported"]), ("A3: 30 mn ↷", VERDICT_COLOURS["misplaced"])]
    assert "numeric support 0.50: 1 of 2 figures of A supported by B (1 misplaced)" in fig.get_suptitle()
    assert _cell_marks(fig) == [("↷", 1, 1), ("◎", 2, 1), ("✓", 0, 0)]
    (ax,) = _image_axes(fig)
    colours = {t.get_text(): t.get_color() for t in ax.texts if t.get_text() in ("↷", "◎")}
    assert colours == {"↷": VERDICT_COLOURS["misplaced"], "◎": VERDICT_COLOURS["misplaced"]}
    legend = fig.get_supxlabel().replace("\n", " ")
    for words in ("↷ misplaced (B states its value, but only for another period, row or subject)",
                  "✗ unsupported (B states its value nowhere, and no derivation of its bound numbers gives it)",
                  "↷ where B states a misplaced figure's value",
                  "◎ the number bound to what it states"):
        assert words in legend
    assert "∅" not in legend
    # Unsupported under this rule: ✗ on the number of B closest in context; none when B has none of its kind.
    info = _with_verdicts(pair_info, "context", ("unsupported", None, 2), None, ("unsupported",))
    assert _cell_marks(explanation_figure(info)) == [("✗", 2, 0)]


def test_a_contradicted_figure_marks_where_its_value_is_stated_as_the_other_change(pair_info):
    info = _with_verdicts(pair_info, "context", ("contradicted", 0, 0), None, ("supported", 1, 1))
    fig = explanation_figure(info)
    assert _rows(fig)[0] == ("A1: 4% ⇅", VERDICT_COLOURS["contradicted"])
    assert ("⇅", 0, 0) in _cell_marks(fig)
    assert "⇅ contradicted (B states its value as a change in the other direction)" in fig.get_supxlabel().replace(
        "\n", " ")


def test_a_computed_figure_marks_the_numbers_it_is_derived_from(pair_info):
    """A1 = 4% computed from B1 and B3 (a supported verdict: teal, not bold); A3 unsupported with a closest
    derivation (which the map does not draw: ✗ on its closest number only)."""
    info = _with_verdicts(pair_info, "context", ("computed", None, 0), None, ("unsupported", None, 1))
    info["mentions"]["a"][0].update(derivation="40% × 7 = 2.8%", operands=[{"index": 0}, {"index": 2}])
    info["mentions"]["a"][2].update(derivation="31 mn − 7 = 24 mn", operands=[{"index": 1}, {"index": 2}])
    fig = explanation_figure(info)
    assert _rows(fig) == [("A1: 4% Σ", VERDICT_COLOURS["computed"]), ("A3: 30 mn ✗", VERDICT_COLOURS["unsupported"])]
    (ax,) = _image_axes(fig)
    assert [t.get_fontweight() for t in ax.get_yticklabels()] == ["normal", "bold"]
    assert _cell_marks(fig) == [("Σ", 0, 0), ("Σ", 2, 0), ("✗", 1, 1)]
    assert {t.get_color() for t in ax.texts if t.get_text() == "Σ"} == {CELL_COLOURS["computed"]}
    assert len(set(VERDICT_COLOURS.values())) == len(VERDICT_COLOURS)  # one colour a verdict
    assert ("numeric support 0.50: 1 of 2 figures of A supported by B, 1 of them computed (1 unsupported)"
            in fig.get_suptitle().replace("\n", " "))
    legend = fig.get_supxlabel().replace("\n", " ")
    assert "Σ computed (B implies it: a change, sum, share, ratio or average" in legend
    assert "Σ each number of B a computed figure is derived from" in legend


def test_an_explanation_without_verdicts_draws_no_marks(pair_info):
    fig = explanation_figure(pair_info)  # an explain dict from before the verdicts: labels as they were
    assert [text for text, _ in _rows(fig)] == ["A1: 4%", "A3: 30 mn"]
    assert "numeric support" not in fig.get_suptitle() and "A's figures" not in fig.get_supxlabel()
    assert fig.get_supxlabel().replace("\n", " ") == MATCH_LEGEND


@pytest.mark.parametrize(("rule", "verdict", "help_text"), [
    ("argmax", "unmatched", "∅ = no number of B aligns"), ("context", "unsupported", "✗ = B states its value nowhere")])
def test_numbers_of_a_against_none_in_b(rule, verdict, help_text):
    a = [_mention("4%", 5), _mention("2019", 12)]
    rows = [{"source": 0, "target": None, "valid": False}, {"source": 1, "target": None, "valid": False}]
    info = _with_verdicts(_info(a, [], [], rows, numeric=0.0), rule, (verdict,), (verdict,))
    info["scores"]["numeric_support"] = 0.0
    text = " ".join(" ".join(t.get_text() for t in explanation_figure(info).texts).split())
    assert f"numeric support 0.00: 0 of 2 figures of A supported by B (2 {verdict}); {help_text}" in text
    mark = "∅" if verdict == "unmatched" else "✗"
    assert f"A1: 4% {mark} · A2: 2019 {mark}" in text and "Text B: no numbers" in text
    info = _info([], [_mention("3", 0)], [], numeric=0.0)
    info["scores"]["numeric_support"] = 1.0
    text = "\n".join(t.get_text() for t in explanation_figure(info).texts)
    assert "numeric support 1.00: A states no figures" in text


def _outside(fig: Figure) -> list[str]:
    """The texts of `fig` that reach past its left or right edge when drawn as the Space shows it (no bbox
    "tight")."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    texts = [fig._suptitle, fig._supxlabel, *fig.texts]
    for ax in fig.axes:
        texts += [*ax.get_yticklabels(), *ax.get_xticklabels(), ax.title, ax.yaxis.label]
    width = fig.bbox.width
    boxes = {t.get_text(): t.get_window_extent(renderer) for t in texts if t is not None and t.get_text()}
    return [text for text, box in boxes.items() if box.x0 < -1 or box.x1 > width + 1]


@pytest.mark.parametrize("n_b", [1, 2, 6])
def test_titles_and_legend_fit_the_figure_width(n_b):
    """The Space's Compare tab cut a one-column map's title on the left ("ımeric support 0.00: 0 of 1 figure…")."""
    b = [_mention(f"{k + 1}.5 mn", 10 * k) for k in range(n_b)]
    info = _with_verdicts(_info([_mention("4%", 0)], b, [[0.2] * n_b], [_row(0, 0, True)]), "context",
                          ("misplaced", 0, n_b - 1))
    info["scores"]["numeric_support"] = 0.0
    fig = explanation_figure(info)
    assert "0 of 1 figure of A supported by B" in fig.get_suptitle().replace("\n", " ")
    assert _outside(fig) == []
    long_lists = _info([_mention(f"{k}.25 million euros", 30 * k) for k in range(20)], [], [], numeric=0.0)
    long_lists["scores"]["numeric_support"] = 1.0
    assert _outside(explanation_figure(long_lists)) == []


def test_matplotlib_is_loaded_only_for_plotting():
    code = (
        "import sys, nash_metric\nprint('matplotlib' in sys.modules)\n"
        "import nash_metric.reports.plot\nprint(sorted(m for m in ('gradio', 'matplotlib.pyplot') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[:2] == ["False", "[]"]


def test_an_explanation_is_drawn_and_saved(tiny_scorer, tmp_path):
    info = tiny_scorer.explain("Revenue rose 4% in 2019.", "Revenue rose 40% in 2019.")
    fig = explanation_figure(info)
    (ax,) = _image_axes(fig)
    rows = sum(m["scored"] for m in info["mentions"]["a"])
    assert ax.get_images()[0].get_array().shape == (rows, sum(m["scored"] for m in info["mentions"]["b"]))
    assert f"τ = {tiny_scorer.threshold:.4f}" in fig.get_suptitle()
    assert save_figure(fig, tmp_path / "explain.png").read_bytes()[:8] == PNG_SIGNATURE


# -- the plot budget: a large matrix is cut to the rows and columns with the highest cosines, and says so ---------


def _cell_texts(fig: Figure) -> list[str]:
    (ax,) = _image_axes(fig)
    return [t.get_text() for t in ax.texts if t.get_text()[:1] in "-0123456789"]


def _big_map(n_a: int, n_b: int, budget: PlotBudget = PLOT_BUDGET) -> Figure:
    sim = np.random.default_rng(0).uniform(-0.3, 0.9, (n_a, n_b))
    accepted = [(i, int(sim[i].argmax())) for i in range(n_a) if sim[i].max() >= 0.4]
    return alignment_heatmap([f"A{i + 1}: {i}.5 mn" for i in range(n_a)], [f"B{j + 1}: {j}%" for j in range(n_b)],
                             sim, 0.4, accepted, title="NASH = 0.5", budget=budget)


def test_a_large_matrix_is_cut_to_the_budget_and_says_how_much_it_left_out():
    """500 x 400 cosines: 200,000 cells, drawn as the default budget's 40 x 30 (one text per drawn cell)."""
    fig = _big_map(500, 400)
    (ax,) = _image_axes(fig)
    assert ax.get_images()[0].get_array().shape == (PLOT_BUDGET.rows, PLOT_BUDGET.columns) == (40, 30)
    assert len(_cell_texts(fig)) == 40 * 30 and len(ax.get_yticklabels()) == 40 and len(ax.get_xticklabels()) == 30
    title = " ".join(fig.get_suptitle().split())
    assert title.startswith("NASH = 0.5")
    assert "showing 40 of 500 numbers of A and 30 of 400 of B" in title
    assert "460 rows and 370 columns left out" in title and "flagged, then top by cosine" in title
    width, height = fig.get_size_inches()
    assert PLOT_BUDGET.fits(width, height)
    assert max(width, height) * PLOT_BUDGET.dpi < 16383 / 2  # WebP's limit a side, with room to spare
    boxes = [p for p in ax.patches if isinstance(p, Rectangle)]
    assert boxes and all(0 <= p.get_x() + 0.48 < 30 and 0 <= p.get_y() + 0.48 < 40 for p in boxes)


def test_a_matrix_within_the_budget_is_drawn_whole(pair_info):
    fig = explanation_figure(pair_info)
    (ax,) = _image_axes(fig)
    assert ax.get_images()[0].get_array().shape == (2, 3) and len(_cell_texts(fig)) == 6
    assert "showing" not in fig.get_suptitle() and "left out" not in fig.get_suptitle()
    fig = _big_map(40, 30)  # exactly the budget: whole, no note
    assert _image_axes(fig)[0].get_images()[0].get_array().shape == (40, 30)
    assert "left out" not in fig.get_suptitle()
    assert "41 numbers of A and 30 of 30 of B" in _big_map(41, 30).get_suptitle().replace("\n", " ")


def test_top_by_cosine_keeps_the_strongest_rows_and_their_matches():
    sim = np.array([[0.95, 0.94, 0.10, 0.10, 0.00],   # row max 0.95
                    [0.20, 0.30, 0.90, 0.10, 0.00],   # 0.90
                    [0.10, 0.10, 0.10, 0.50, 0.00],   # 0.50
                    [0.00, 0.00, 0.00, 0.20, 0.92],   # 0.92
                    [0.50, 0.10, 0.10, 0.10, 0.50]])  # 0.50, a tie with row 2: the earlier row wins
    rows, columns = top_by_cosine(sim, 3, 3)
    assert rows.tolist() == [0, 1, 3]  # the highest row maxima, in the text's order
    assert columns.tolist() == [0, 1, 4]  # highest cosine with a kept row: 0.95, 0.94, 0.92 (not column 2's 0.90)
    # Marked cells (accepted matches, verdict marks) of kept rows come first: row 1's match, column 2, is shown.
    rows, columns = top_by_cosine(sim, 3, 3, marked=[(0, 0), (1, 2), (3, 4), (2, 3)])  # (2, 3): row 2 is not kept
    assert rows.tolist() == [0, 1, 3] and columns.tolist() == [0, 2, 4]
    rows, columns = top_by_cosine(sim, 4, 2)
    assert rows.tolist() == [0, 1, 2, 3] and columns.tolist() == [0, 1]
    rows, columns = top_by_cosine(sim, 9, 9)  # within the budget: everything
    assert rows.tolist() == columns.tolist() == [0, 1, 2, 3, 4]
    # Figures the verdict flags come first, whatever their cosine: row 4 (0.50) displaces row 1 (0.90).
    rows, _ = top_by_cosine(sim, 3, 3, flagged=np.array([False, False, False, False, True]))
    assert rows.tolist() == [0, 3, 4]


def test_a_cut_map_keeps_the_numbers_labels_and_marks_of_what_it_shows():
    sim = np.array([[0.1, 0.2, 0.3], [0.9, 0.1, 0.2], [0.2, 0.1, 0.8]])
    fig = alignment_heatmap(["A1: 4%", "A2: 30 mn", "A3: 7"], ["B1: 40%", "B2: 31 mn", "B3: 7"], sim, 0.4,
                            accepted_ab=[(1, 0), (2, 2)], accepted_ba=[(0, 1), (2, 2)], rejected=[(0, 2)],
                            verdicts=["unsupported", "supported", "supported"],
                            references=[(1, 0, "supported"), (2, 2, "supported"), (0, 2, "unsupported")],
                            budget=PlotBudget(rows=2, columns=2))
    (ax,) = _image_axes(fig)
    # A1 is flagged (✗): kept first though its best cosine is 0.3; then A2, the strongest of the others
    assert [t.get_text() for t in ax.get_yticklabels()] == ["A1: 4% ✗", "A2: 30 mn ✓"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["B1: 40%", "B3: 7"]  # their marked cells' columns
    assert np.allclose(ax.get_images()[0].get_array(), [[0.1, 0.3], [0.9, 0.2]])
    solid = sorted((round(p.get_x() + 0.48), round(p.get_y() + 0.48)) for p in ax.patches
                   if p.get_linestyle() == "solid")
    assert solid == [(0, 1)]  # (column, row) in the drawn block: A2 -> B1; A3 -> B3 is on a row left out
    assert _cell_marks(fig) == [("✓", 0, 1), ("✗", 1, 0)]  # B1 supports A2; B3 is what A1 is compared with
    assert "×" in [t.get_text() for t in ax.texts]  # A1 -> B3 fell below tau
    assert "showing 2 of 3 numbers of A and 2 of 3 of B" in fig.get_suptitle().replace("\n", " ")


def test_the_pixel_budget_cuts_rows_and_holds_in_the_saved_file(tmp_path):
    from matplotlib.image import imread

    budget = PlotBudget(rows=500, columns=400, side_pixels=1500, pixels=1_200_000)
    fig = _big_map(60, 50, budget)
    (ax,) = _image_axes(fig)
    n_rows, n_columns = ax.get_images()[0].get_array().shape
    assert n_columns == 5  # (1500 / 150 - 0.2 - 3.2) / 1.3: columns of 1.3 inches beside 3.2 of labels and padding
    assert 1 <= n_rows < 20 and budget.fits(*fig.get_size_inches())
    assert f"showing {n_rows} of 60 numbers of A and 5 of 50 of B" in " ".join(fig.get_suptitle().split())
    height, width, _ = imread(save_figure(fig, tmp_path / "cut.png"), format="png").shape
    assert max(height, width) <= 1500 and height * width <= 1_200_000


@pytest.mark.parametrize("field", ["rows", "columns", "side_pixels", "pixels"])
@pytest.mark.parametrize("value", [0, 2.5, True])
def test_a_budget_counts_in_positive_integers(field, value):
    with pytest.raises(ValueError, match=rf"PlotBudget\.{field} must be a positive integer"):
        PlotBudget(**{field: value})
    with pytest.raises(ValueError, match=r"PlotBudget\.dpi must be a positive number"):
        PlotBudget(dpi=0)
    assert PlotBudget(dpi=72.5).dpi == 72.5


def test_the_budget_reaches_explanation_figure_and_nash_plot(pair_info, tiny_scorer):
    fig = explanation_figure(pair_info, PlotBudget(rows=1, columns=1))
    assert _image_axes(fig)[0].get_images()[0].get_array().shape == (1, 1)
    assert "1 rows and 2 columns left out" in fig.get_suptitle().replace("\n", " ")
    fig = tiny_scorer.plot("Sales were 4, 5 and 6 mn in 2019.", "Sales were 4, 5 and 7 mn in 2019.",
                           budget=PlotBudget(rows=2, columns=2))
    assert _image_axes(fig)[0].get_images()[0].get_array().shape == (2, 2)
    assert "showing 2 of 4 numbers of A and 2 of 4 of B" in fig.get_suptitle().replace("\n", " ")
