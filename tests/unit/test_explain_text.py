"""`nash explain`'s text: the support verdict of each figure of A (the prediction), and the P/R labels."""

from __future__ import annotations

import pytest

from nash_metric.explain_text import figure_verdicts, render_explanation, support_summary

DIVIDEND = ("The company raised its dividend to $0.15 per share and cut net debt below $25 billion.",
            "The dividend of $0.13 per share was kept; net debt was $25 billion after a $3 billion bond.")


def _lines(text: str, start: str) -> list[str]:
    """The lines of `text` from the first one starting with `start` up to the next blank line."""
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(start))
    end = next((i for i in range(first, len(lines)) if not lines[i].strip()), len(lines))
    return lines[first:end]


@pytest.mark.slow
def test_the_verdict_table_flags_the_changed_figure(minilm_sentence):
    info = minilm_sentence.explain(*DIVIDEND)
    assert [(e["index"], e["verdict"], e["reference"]) for e in figure_verdicts(info)] == [
        (0, "unsupported", 0), (1, "supported", 1)]
    block = _lines(render_explanation(info), "numeric support")
    assert block[0] == "numeric support 0.50: 1 of 2 figures of A supported by B (1 unsupported)"
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in block[3:5]]
    assert [row[:3] for row in rows] == [["$0.15 (=0.15)", "✗ UNSUPPORTED", "$0.13 (=0.13)"],
                                         ["$25 billion (=2.5e+10)", "✓ supported", "$25 billion (=2.5e+10)"]]
    assert float(rows[0][3]) == pytest.approx(info["alignments"]["a_to_b"][0]["cosine"], abs=1e-4)
    assert block[-1].startswith("✓ supported: ")


@pytest.mark.slow
def test_precision_is_labelled_a_to_b(minilm_sentence):
    info = minilm_sentence.explain(*DIVIDEND)
    (row,) = [line for line in render_explanation(info).splitlines() if line.startswith("| S_num")]
    assert "P = A->B, R = B->A" in row
    precision = float(row.split("|")[2])
    assert precision == pytest.approx(info["scores"]["numeric_a_to_b"], abs=1e-4)  # the mean over A's numbers


@pytest.mark.slow
@pytest.mark.parametrize(("a", "b", "summary", "marks"), [
    ("Revenue rose 4% in 2019.", "Sales went up.", "numeric support 0.00: 0 of 2 figures of A supported by B "
     "(2 unmatched)", ["∅ UNMATCHED", "∅ UNMATCHED"]),
    ("Sales went up.", "Revenue rose 4% in 2019.", "numeric support 1.00: A states no figures", []),
])
def test_numbers_on_one_side(minilm_sentence, a, b, summary, marks):
    info = minilm_sentence.explain(a, b)
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
