"""Compare's answer survives its heat map: a drawing that fails, a budget too short to draw it, or one spent by
scoring, still returns NASH's scores, the texts and the table, with a line naming what was left out and why."""

from __future__ import annotations

import re

import numpy as np
import pytest

from nash_metric.space import handlers as handlers_module
from nash_metric.space.handlers import SpaceHandlers
from nash_metric.space.limits import SpaceLimits

PAIR = ("Revenue rose 4% to 30 mn in 2019.", "Revenue rose 40% to 31 mn in 2019.")


@pytest.fixture(scope="module")
def tiny(tiny_model_dir) -> str:
    """The tiny model, loaded beforehand (with its bert-score scorer) so that no request waits for a load."""
    from nash_metric.space import scorers

    model = str(tiny_model_dir)
    scorers.bertscore_f1(scorers.get_scorer(model, "token"), ["a 1"], ["b 2"])
    return model


def _compare(model: str, request_seconds: float = 60.0):
    limits = SpaceLimits(allowed_models=(model,), request_seconds=request_seconds)
    return SpaceHandlers(limits).compare(*PAIR, model, "token", False, 0.5)


def _card(cards: str, name: str) -> str:
    found = re.search(rf'data-metric="{re.escape(name)}"><div class="nash-card-name">[^<]*</div>'
                      r'<div class="nash-card-value">([^<]*)</div>', cards)
    assert found, cards
    return found.group(1)


def _assert_scored(cards: str, panels: str, table: list) -> None:
    assert "nash-error" not in cards, cards
    assert re.fullmatch(r"0\.\d{4}|1\.0000", _card(cards, "NASH")) and re.fullmatch(r"0\.\d{4}|1\.0000",
                                                                                      _card(cards, "S_num"))
    assert 'data-testid="text-B"' in panels and "nash-num" in panels
    assert [row[1] for row in table][:2] == ["4%", "30 mn"]


def test_a_drawing_that_fails_leaves_the_scores(tiny, monkeypatch):
    def broken(*_args, **_kwargs):
        raise RuntimeError("no room for the\nfigure")

    monkeypatch.setattr(handlers_module, "explanation_figure", broken)
    cards, panels, figure, key, table = _compare(tiny)
    _assert_scored(cards, panels, table)
    assert figure is None and key == ""  # no key without a map
    assert "The heat map could not be drawn (RuntimeError: no room for the figure); the scores, texts and table are " \
           "complete." in panels
    assert _card(cards, "BERTScore F1") != "–"  # the baselines were in time


def test_a_map_that_would_overrun_the_time_left_is_left_out_and_says_so(tiny, monkeypatch):
    monkeypatch.setattr(handlers_module, "drawing_seconds", lambda cells: 1e6 + cells)
    cards, panels, figure, key, table = _compare(tiny)
    _assert_scored(cards, panels, table)
    assert figure is None and key == ""
    assert re.search(r"The heat map was left out: drawing its 9 cells takes about 1000009 s and this request has "
                     r"\d+ s left \(this Space allows 60 s per request\)\.", panels), panels
    assert "nash explain A B --plot map.png" in panels


def test_a_budget_spent_by_scoring_still_returns_nash_scores(tiny):
    """A budget of 1 ms runs out during NASH's scoring, which cannot be stopped: the baselines and the map are left
    out, each with its reason, and NASH's scores come back."""
    cards, panels, figure, key, table = _compare(tiny, request_seconds=0.001)
    _assert_scored(cards, panels, table)
    assert _card(cards, "BERTScore F1") == _card(cards, "Embedding cosine") == "–"
    assert "BERTScore and the embedding cosine were left out: scoring with NASH took the whole time allowed (this " \
           "Space allows 0.001 s per request)." in cards
    assert figure is None and key == "" and "The heat map was left out" in panels


def test_with_time_to_draw_the_map_comes_back(tiny):
    cards, panels, figure, key, table = _compare(tiny)
    _assert_scored(cards, panels, table)
    assert figure is not None and "heat map" not in panels
    assert [t.get_text() for t in figure.axes[0].get_yticklabels()][:2] == ["A1: 4% ✗", "A2: 30 mn ✗"]
    # The legend is the page's key under the map, not the figure's footer (12 centred lines on a narrow map).
    assert not figure.get_supxlabel() and 'data-testid="heat-map-key"' in key and "τ = 0.5000" in key


def _dense_text(rng: np.random.Generator, chars: int) -> str:
    """Financial clauses with random figures, about one figure per 14 characters (a filing's table as text)."""
    items = ("Revenue", "Net income", "EBITDA", "Net debt", "Capex", "Dividends", "Inventories", "Staff costs")
    parts: list[str] = []
    while sum(len(p) + 1 for p in parts) < chars:
        a, b, p, m = rng.uniform(10, 9000), rng.uniform(10, 9000), rng.uniform(0.1, 40), rng.uniform(1, 60)
        parts.append(f"{items[rng.integers(len(items))]}: {a:,.0f} | {b:,.0f} | {p:.1f}% | {m:.1f}%.")
    return " ".join(parts)[:chars].rsplit(" ", 1)[0]


@pytest.mark.slow
def test_two_dense_texts_at_the_length_limit_get_scores_and_a_cut_map():
    """The issue's case: two 2,000-character texts dense with figures (~140 a side) drew a 140 x 140 map that
    ran 107 s and failed WebP's 16,383-pixel limit, and the page lost its scores. Time and size: perf/plot_budget.py."""
    from nash_metric.config import DEFAULT_MODEL
    from nash_metric.reports.plot import PLOT_BUDGET
    from nash_metric.space.limits import MAX_CHARS

    rng = np.random.default_rng(0)
    a, b = _dense_text(rng, MAX_CHARS), _dense_text(rng, MAX_CHARS)
    cards, panels, figure, key, table = SpaceHandlers(SpaceLimits()).compare(a, b, DEFAULT_MODEL, "sentence", True,
                                                                             0.0)
    assert "nash-error" not in cards and _card(cards, "BERTScore F1") != "–", cards
    assert figure is not None and "heat map" not in panels and 'data-testid="heat-map-key"' in key
    n_a = sum(row[0] == "A → B" for row in table)
    assert n_a > 100
    assert figure.axes[0].get_images()[0].get_array().shape == (PLOT_BUDGET.rows, PLOT_BUDGET.columns)
    assert f"showing {PLOT_BUDGET.rows} of {n_a} numbers of A" in " ".join(figure.get_suptitle().split())
    assert max(figure.get_size_inches() * figure.dpi) < 16383
    import gradio as gr

    assert gr.Plot().postprocess(figure).plot.startswith("data:image/webp;base64,")  # the encoding that failed


def test_the_largest_map_leaves_most_of_the_default_budget_to_scoring():
    """The plot budget bounds the drawing whatever the pair: its worst case is a small share of a request."""
    from nash_metric.reports.plot import PLOT_BUDGET
    from nash_metric.space.budget import drawing_seconds

    worst = drawing_seconds(PLOT_BUDGET.cells(10**6, 10**6))
    assert worst == drawing_seconds(PLOT_BUDGET.rows * PLOT_BUDGET.columns)
    assert worst < SpaceLimits().request_seconds / 5
