"""The real embedded model's support verdicts (all-MiniLM-L6-v2), as the heat map draws them (nash_metric.reports.plot)
and `nash explain` writes them (nash_metric.reports.explain_text).

The drawing and the text themselves are unit-tested on hand-made explanations and the tiny random model
(tests/unit/test_plot.py, tests/unit/test_explain_text.py).
"""

from __future__ import annotations

import pytest

from nash_metric.reports.explain_text import figure_verdicts, render_explanation
from nash_metric.reports.plot import VERDICT_COLOURS, explanation_figure

pytestmark = pytest.mark.slow

# The dividend changed (0.15 -> 0.13), the debt figure kept ($25 billion): one unsupported figure, one supported.
DIVIDEND = ("The company raised its dividend to $0.15 per share and cut net debt below $25 billion.",
            "The dividend of $0.13 per share was kept; net debt was $25 billion after a $3 billion bond.")
SUMMARY = "numeric support 0.50: 1 of 2 figures of A supported by B (1 unsupported)"


def test_the_heat_map_marks_the_changed_figure_unsupported(minilm_sentence):
    fig = explanation_figure(minilm_sentence.explain(*DIVIDEND))
    (ax,) = [ax for ax in fig.axes if ax.get_images()]
    assert [(t.get_text(), t.get_color()) for t in ax.get_yticklabels()] == [
        ("A1: $0.15 ✗", VERDICT_COLOURS["unsupported"]), ("A2: $25 billion ✓", VERDICT_COLOURS["supported"])]
    assert SUMMARY in fig.get_suptitle()


def test_the_verdict_table_flags_the_changed_figure(minilm_sentence):
    info = minilm_sentence.explain(*DIVIDEND)
    assert [(e["index"], e["verdict"], e["reference"]) for e in figure_verdicts(info)] == [
        (0, "unsupported", 0), (1, "supported", 1)]
    lines = render_explanation(info).splitlines()
    first = lines.index(SUMMARY)
    block = lines[first : next((i for i in range(first, len(lines)) if not lines[i].strip()), len(lines))]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in block[3:5]]
    assert [row[:3] for row in rows] == [["$0.15 (=0.15)", "✗ UNSUPPORTED", "$0.13 (=0.13)"],
                                         ["$25 billion (=2.5e+10)", "✓ supported", "$25 billion (=2.5e+10)"]]
    assert float(rows[0][3]) == pytest.approx(info["alignments"]["a_to_b"][0]["cosine"], abs=1e-4)
    assert block[-1].startswith("✓ supported: ")
