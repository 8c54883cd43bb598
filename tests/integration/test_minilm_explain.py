"""The real embedded model's support verdicts (all-MiniLM-L6-v2), as the heat map draws them (nash_metric.reports.plot)
and `nash explain` writes them (nash_metric.reports.explain_text).

The drawing and the text themselves are unit-tested on hand-made explanations and the tiny random model
(tests/unit/test_plot.py, tests/unit/test_explain_text.py).
"""

from __future__ import annotations

import pytest

from nash_metric.cli.score import support_line
from nash_metric.reports.explain_text import figure_verdicts, render_explanation
from nash_metric.reports.plot import VERDICT_COLOURS, explanation_figure

pytestmark = pytest.mark.slow

# The dividend changed (0.15 -> 0.13), the debt figure kept ($25 billion): one unsupported figure, one supported.
DIVIDEND = ("The company raised its dividend to $0.15 per share and cut net debt below $25 billion.",
            "The dividend of $0.13 per share was kept; net debt was $25 billion after a $3 billion bond.")
SUMMARY = "numeric support 0.50: 1 of 2 figures of A supported by B (1 unsupported)"
# A figure the table states, but in the 2018 column: misplaced (its context, row "Revenue" and 2019, fits 1,452.4).
TABLE = "| | 2019 | 2018 |\n|---|---|---|\n| Revenue | 1,452.4 | 1,146.2 |"
MISPLACED_CLAIM = "Revenue was 1,146.2 in 2019."


def test_the_heat_map_marks_the_changed_figure_unsupported(minilm_sentence):
    fig = explanation_figure(minilm_sentence.explain(*DIVIDEND))
    (ax,) = [ax for ax in fig.axes if ax.get_images()]
    assert [(t.get_text(), t.get_color()) for t in ax.get_yticklabels()] == [
        ("A1: $0.15 ✗", VERDICT_COLOURS["unsupported"]), ("A2: $25 billion ✓", VERDICT_COLOURS["supported"])]
    assert SUMMARY in fig.get_suptitle()


def test_the_verdict_table_flags_the_changed_figure(minilm_sentence):
    info = minilm_sentence.explain(*DIVIDEND)
    assert [(e["index"], e["verdict"], e["found"], e["reference"]) for e in figure_verdicts(info)] == [
        (0, "unsupported", None, 0), (1, "supported", 1, 1)]
    lines = render_explanation(info).splitlines()
    first = lines.index(SUMMARY)
    block = lines[first : next((i for i in range(first, len(lines)) if not lines[i].strip()), len(lines))]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in block[3:5]]
    assert [row[:3] for row in rows] == [
        ["$0.15 (=0.15)", "✗ UNSUPPORTED", "stated nowhere; closest in context: $0.13 (=0.13)"],
        ["$25 billion (=2.5e+10)", "✓ supported", "$25 billion (=2.5e+10)"]]
    assert float(rows[0][3]) == pytest.approx(info["mentions"]["a"][0]["context_match"]["cosine"], abs=1e-4)
    assert block[-1].startswith("✓ supported: ")


def test_a_misplaced_figure_in_a_table(minilm_sentence):
    """Explain, the heat map and the support line all say: found at B4 (1,146.2), its context fits B3 (1,452.4)."""
    info = minilm_sentence.explain(MISPLACED_CLAIM, TABLE)
    assert [(e["verdict"], e["found"], e["reference"]) for e in figure_verdicts(info)] == [
        ("misplaced", 3, 2), ("supported", 0, 0)]  # B's mentions: 2019, 2018, 1,452.4, 1,146.2
    assert "| 1,146.2 (=1146.2) | ↷ MISPLACED | found at 1,146.2 (=1146.2), but A's binding fits 1,452.4 (=1452.4)" \
        in render_explanation(info)
    fig = explanation_figure(info)
    (ax,) = [ax for ax in fig.axes if ax.get_images()]
    assert [(t.get_text(), t.get_color()) for t in ax.get_yticklabels()] == [
        ("A1: 1,146.2 ↷", VERDICT_COLOURS["misplaced"]), ("A2: 2019 ✓", VERDICT_COLOURS["supported"])]
    marks = sorted((t.get_text(), round(t.get_position()[0]), round(t.get_position()[1])) for t in ax.texts
                   if t.get_text() in ("✓", "↷", "◎", "✗"))
    assert marks == [("↷", 3, 0), ("◎", 2, 0), ("✓", 0, 1)]
    out = minilm_sentence.score([MISPLACED_CLAIM], [TABLE])
    assert support_line(out.numeric_support[0], out.unsupported_numbers[0]) == (
        "numeric support 0.00; not supported: 1,146.2 (misplaced: found at 1,146.2, but A's binding fits 1,452.4)")


def test_the_argmax_rule_still_calls_it_supported(minilm_sentence):
    """verdict="argmax" (the ablation): only the aligned number decides. With two passes 1,146.2 aligns with 1,146.2
    and 2019 with 2019: both supported. With one pass (the default) 1,146.2 aligns with the 2019 cell and 2019 with
    2018: both unsupported, whatever the table states."""
    from nash_metric import NASH

    info = NASH(backend="sentence", device="cpu", verdict="argmax").explain(MISPLACED_CLAIM, TABLE)
    # B's numbers in order: 2019, 2018, 1,452.4, 1,146.2
    assert [(e["verdict"], e["reference"]) for e in figure_verdicts(info)] == [("unsupported", 2), ("unsupported", 1)]
    info = NASH(backend="sentence", device="cpu", verdict="argmax", text_channel="two-pass").explain(
        MISPLACED_CLAIM, TABLE)
    assert [e["verdict"] for e in figure_verdicts(info)] == ["supported", "supported"]
    assert "A's figures: ✓ supported (B's aligned number" in explanation_figure(info).get_supxlabel().replace("\n", " ")
