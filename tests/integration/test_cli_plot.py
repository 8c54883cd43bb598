"""`nash explain --plot`: the explanation is printed before the figure is drawn, so a figure that cannot be drawn
never costs the scores (tiny model, fast). The size of a large pair's map: tests/unit/test_plot.py and
perf/plot_budget.py."""

from __future__ import annotations

import json

import pytest

from nash_metric.cli import main

PAIR = ("Sales were EUR 5 mn in 2010.", "Sales were EUR 7 mn in 2011.")


@pytest.mark.parametrize(("error", "code"), [(ValueError("cannot draw"), 2), (MemoryError("out of memory"), 1)])
@pytest.mark.parametrize("as_json", [False, True])
def test_a_figure_that_fails_leaves_the_explanation(capsys, monkeypatch, tmp_path, tiny_model_dir, error, code,
                                                    as_json):
    import nash_metric.reports.plot as plot

    def broken(*_args, **_kwargs):
        raise error

    monkeypatch.setattr(plot, "explanation_figure", broken)
    figure = tmp_path / "map.png"
    argv = ["explain", *PAIR, "--model", str(tiny_model_dir), "--backend", "token", "--plot", str(figure)]
    assert main(argv + (["--json"] if as_json else [])) == code
    out, err = capsys.readouterr()
    if as_json:
        assert json.loads(out)["scores"]["nash"] > 0
    else:
        assert "alignment A -> B" in out
    assert f"the heat map was not written to {figure} ({type(error).__name__}: {error})" in err
    assert "the explanation above is complete" in err and "wrote" not in err and not figure.exists()
