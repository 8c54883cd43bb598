"""`nash explain`'s text: the support verdict of each figure of A (the prediction), and the P/R labels.

On the tiny random model: what is checked here does not depend on the alignment the model gives. The real
model's verdicts are checked in tests/integration/test_minilm_explain.py.
"""

from __future__ import annotations

import pytest

from nash_metric.reports.explain_text import figure_verdicts, render_explanation, support_summary

DIVIDEND = ("The company raised its dividend to $0.15 per share and cut net debt below $25 billion.",
            "The dividend of $0.13 per share was kept; net debt was $25 billion after a $3 billion bond.")


def test_precision_is_labelled_a_to_b(tiny_scorer):
    info = tiny_scorer.explain(*DIVIDEND)
    (row,) = [line for line in render_explanation(info).splitlines() if line.startswith("| S_num")]
    assert "P = A->B, R = B->A" in row
    precision = float(row.split("|")[2])
    assert precision == pytest.approx(info["scores"]["numeric_a_to_b"], abs=1e-4)  # the mean over A's numbers


@pytest.mark.parametrize(("a", "b", "summary", "marks"), [
    ("Revenue rose 4% in 2019.", "Sales went up.", "numeric support 0.00: 0 of 2 figures of A supported by B "
     "(2 unmatched)", ["∅ UNMATCHED", "∅ UNMATCHED"]),
    ("Sales went up.", "Revenue rose 4% in 2019.", "numeric support 1.00: A states no figures", []),
])
def test_numbers_on_one_side(tiny_scorer, a, b, summary, marks):
    info = tiny_scorer.explain(a, b)
    text = render_explanation(info)
    assert support_summary(info) == summary and summary in text.splitlines()
    assert [line.split("|")[2].strip() for line in text.splitlines() if "UNMATCHED" in line] == marks
    if marks:
        assert text.count("– (B has no numbers)") == len(marks)


def test_an_explanation_without_verdicts_renders_as_before(tiny_scorer):
    info = tiny_scorer.explain("Sales were EUR 5 mn in 2010.", "Sales were EUR 7 mn in 2011.")
    for r in info["alignments"]["a_to_b"]:
        r.pop("verdict"), r.pop("supported_by")
    del info["scores"]["numeric_support"]
    assert figure_verdicts(info) == [] and "numeric support" not in render_explanation(info)
