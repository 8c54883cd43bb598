"""The alignment heat map shared by the Space, `NASH.plot` and `nash explain --plot` (nash_metric.reports.plot)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from nash_metric.reports.plot import (
    NO_ALIGNMENT,
    VERDICT_COLOURS,
    check_figure_path,
    explanation_figure,
    has_alignment,
    save_figure,
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


def _verdict(row: dict, verdict: str, supported_by: int | None = None) -> dict:
    return dict(row, verdict=verdict, supported_by=supported_by)


@pytest.fixture
def verdict_info(pair_info) -> dict:
    """`pair_info` as explain now writes it: A1 = 4% supported by B1, A3 = 30 mn unmatched (its best match, B2, is
    below tau); then A3 flipped to unsupported (compared with B2) to test both marks."""
    a_to_b = [_verdict(pair_info["alignments"]["a_to_b"][0], "supported", 0),
              _verdict(pair_info["alignments"]["a_to_b"][1], "unmatched")]
    info = dict(pair_info, alignments={"a_to_b": a_to_b, "b_to_a": pair_info["alignments"]["b_to_a"]})
    info["scores"] = dict(pair_info["scores"], numeric_support=0.5)
    return info


def _rows(fig: Figure) -> list[tuple[str, str]]:
    (ax,) = _image_axes(fig)
    return [(t.get_text(), t.get_color()) for t in ax.get_yticklabels()]


def test_each_row_of_a_carries_its_verdict(verdict_info):
    fig = explanation_figure(verdict_info)
    assert _rows(fig) == [("A1: 4% ✓", VERDICT_COLOURS["supported"]), ("A3: 30 mn ∅", VERDICT_COLOURS["unmatched"])]
    assert "numeric support 0.50: 1 of 2 figures of A supported by B (1 unmatched)" in fig.get_suptitle()
    assert "✗ unsupported" in fig.get_supxlabel() and "∅ unmatched" in fig.get_supxlabel()
    (ax,) = _image_axes(fig)
    # The supporting number of B is marked in its cell (row A1, column B1); an unmatched row marks no cell.
    assert [(t.get_text(), round(t.get_position()[1])) for t in ax.texts if t.get_text() in ("✓", "✗")] == [("✓", 0)]
    unsupported = dict(verdict_info)
    unsupported["alignments"] = dict(verdict_info["alignments"], a_to_b=[
        verdict_info["alignments"]["a_to_b"][0], _verdict(_row(2, 1, True), "unsupported")])
    (ax,) = _image_axes(explanation_figure(unsupported))
    assert [t.get_text() for t in ax.get_yticklabels()] == ["A1: 4% ✓", "A3: 30 mn ✗"]
    assert ax.get_yticklabels()[1].get_color() == VERDICT_COLOURS["unsupported"]
    marked = sorted((t.get_text(), round(t.get_position()[0]), round(t.get_position()[1])) for t in ax.texts
                    if t.get_text() in ("✓", "✗"))
    assert marked == [("✓", 0, 0), ("✗", 1, 1)]  # B2 (column 1) is what A3 (row 1) contradicts


def test_an_explanation_without_verdicts_draws_no_marks(pair_info):
    fig = explanation_figure(pair_info)  # an explain dict from before the verdicts: labels as they were
    assert [text for text, _ in _rows(fig)] == ["A1: 4%", "A3: 30 mn"]
    assert "numeric support" not in fig.get_suptitle() and not fig.get_supxlabel()


def test_numbers_of_a_against_none_in_b_are_all_unmatched():
    a = [_mention("4%", 5), _mention("2019", 12)]
    info = _info(a, [], [], [_verdict({"source": 0, "target": None, "valid": False}, "unmatched"),
                             _verdict({"source": 1, "target": None, "valid": False}, "unmatched")], numeric=0.0)
    info["scores"]["numeric_support"] = 0.0
    text = "\n".join(t.get_text() for t in explanation_figure(info).texts)
    assert "numeric support 0.00: 0 of 2 figures of A supported by B (2 unmatched)" in text
    assert "A1: 4% ∅ · A2: 2019 ∅" in text and "Text B: no numbers" in text
    info = _info([], [_mention("3", 0)], [], numeric=0.0)
    info["scores"]["numeric_support"] = 1.0
    text = "\n".join(t.get_text() for t in explanation_figure(info).texts)
    assert "numeric support 1.00: A states no figures" in text


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
