"""`nash explain`'s text and `nash score`'s support line: the support verdict of each figure of A (the prediction),
read from the scoring call's `figure_verdicts`, and the P/R labels.

On the tiny random model: in the table below the verdict is decided by the table's row label and column header
(the context's words and period), which the tiny model reads as MiniLM does; the real model's verdicts are
checked in tests/integration/test_minilm_explain.py.
"""

from __future__ import annotations

import pytest

from nash_metric.cli.score import support_line
from nash_metric.reports.explain_text import (
    MARKS,
    RULE_VERDICTS,
    VERDICT_HELP,
    figure_note,
    figure_verdicts,
    render_explanation,
    support_summary,
    verdict_rule,
)

DIVIDEND = ("The company raised its dividend to $0.15 per share and cut net debt below $25 billion.",
            "The dividend of $0.13 per share was kept; net debt was $25 billion after a $3 billion bond.")
# 1,146.2 is in the table, but in the 2018 column: misplaced; 2019 is stated (a column header): supported.
TABLE = "| | 2019 | 2018 |\n|---|---|---|\n| Revenue | 1,452.4 | 1,146.2 |"
MISPLACED_CLAIM = "Revenue was 1,146.2 in 2019."


@pytest.fixture(scope="module")
def tiny_argmax_scorer(tiny_model_dir):
    """`tiny_scorer` under the argmax rule of earlier versions."""
    from nash_metric import NASH

    return NASH(model=str(tiny_model_dir), backend="token", threshold=0.0, device="cpu", verdict="argmax")


def _verdict_rows(text: str) -> list[list[str]]:
    """The rows of the verdict table in `nash explain`'s text: [number of A, verdict, in B, cosine]."""
    lines = text.splitlines()
    first = next(k for k, line in enumerate(lines) if line.startswith("| number of A"))
    rows = []
    for line in lines[first + 2:]:  # after the header and its rule
        if not line.startswith("|"):
            return rows
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_precision_is_labelled_a_to_b(tiny_scorer):
    info = tiny_scorer.explain(*DIVIDEND)
    (row,) = [line for line in render_explanation(info).splitlines() if line.startswith("| S_num")]
    assert "P = A->B, R = B->A" in row
    precision = float(row.split("|")[2])
    assert precision == pytest.approx(info["scores"]["numeric_a_to_b"], abs=1e-4)  # the mean over A's numbers


def test_the_explanation_reads_the_verdicts_of_the_score(tiny_scorer):
    """Each mention of A carries the verdict `score` gave it, where its value was found and its context match."""
    pairs = [(MISPLACED_CLAIM, TABLE), DIVIDEND, ("Revenue rose 4% in 2019.", "Sales went up.")]
    out = tiny_scorer.score([a for a, _ in pairs], [b for _, b in pairs])
    for (a, b), entries in zip(pairs, out.figure_verdicts):
        info = tiny_scorer.explain(a, b)
        judged = [m for m in info["mentions"]["a"] if m["verdict"] is not None]
        assert [(m["start"], m["verdict"]) for m in judged] == [(e["start"], e["verdict"]) for e in entries]
        for m, e in zip(judged, entries):
            for key, number in (("found", e["found"]), ("context_match", e["reference"])):
                if number is None:
                    assert m[key] is None
                    continue
                b_mention = info["mentions"]["b"][m[key]["index"]]
                assert (b_mention["start"], b_mention["end"]) == (number["start"], number["end"])
                assert m[key]["text"] == number["text"] == b[number["start"]:number["end"]]
        # one pair encoded alone vs three padded together: the cosine may differ in its last float32 bits
        assert [{**v, "cosine": None} for v in info["figure_verdicts"]] == [{**e, "cosine": None} for e in entries]
        assert [v["cosine"] for v in info["figure_verdicts"]] == pytest.approx([e["cosine"] for e in entries],
                                                                               abs=1e-6)
        # The alignment rows keep their keys: the verdict again, and the number of B that supports it.
        for row in info["alignments"]["a_to_b"]:
            mention = info["mentions"]["a"][row["source"]]
            assert row["verdict"] == mention["verdict"]
            assert row["supported_by"] == (mention["found"]["index"] if mention["verdict"] == "supported" else None)


def test_a_misplaced_figure_says_where_its_value_was_found_and_what_its_context_fits(tiny_scorer):
    info = tiny_scorer.explain(MISPLACED_CLAIM, TABLE)
    figure, year = (m for m in info["mentions"]["a"] if m["verdict"] is not None)
    assert (figure["text"], figure["verdict"]) == ("1,146.2", "misplaced")
    assert figure["found"]["start"] == TABLE.index("1,146.2") and figure["context_match"]["text"] == "1,452.4"
    assert (year["verdict"], year["found"]["start"]) == ("supported", TABLE.index("2019"))
    text = render_explanation(info)
    summary = "numeric support 0.50: 1 of 2 figures of A supported by B (1 misplaced)"
    assert support_summary(info) == summary and summary in text.splitlines()
    rows = _verdict_rows(text)
    assert [row[:3] for row in rows] == [
        ["1,146.2 (=1146.2)", "↷ MISPLACED",
         "found at 1,146.2 (=1146.2), but A's binding fits 1,452.4 (=1452.4) (period: 2018, not 2019)"],
        ["2019 (=2019)", "✓ supported", "2019 (=2019)"]]
    assert float(rows[0][3]) == pytest.approx(figure["context_match"]["cosine"], abs=1e-4)
    legend = ("✓ supported: B states its value, and nothing B binds it to contradicts A · ↷ misplaced: B states its "
              "value, but only for another period, row or subject · ✗ unsupported: B states its value nowhere · "
              "⇅ contradicted: B states its value as a change in the other direction")
    assert legend in text.splitlines()


@pytest.mark.parametrize(("rule", "verdict"), [("context", "unsupported"), ("argmax", "unmatched")])
def test_numbers_against_none_in_b(tiny_scorer, tiny_argmax_scorer, rule, verdict):
    scorer = tiny_scorer if rule == "context" else tiny_argmax_scorer
    info = scorer.explain("Revenue rose 4% in 2019.", "Sales went up.")
    text = render_explanation(info)
    assert verdict_rule(info) == rule
    summary = f"numeric support 0.00: 0 of 2 figures of A supported by B (2 {verdict})"
    assert support_summary(info) == summary and summary in text.splitlines()
    assert [row[1:3] for row in _verdict_rows(text)] == [[f"{MARKS[verdict]} {verdict.upper()}",
                                                          "– (B has no numbers)"]] * 2


def test_a_text_without_numbers_is_supported(tiny_scorer):
    info = tiny_scorer.explain("Sales went up.", "Revenue rose 4% in 2019.")
    assert support_summary(info) == "numeric support 1.00: A states no figures"
    assert figure_verdicts(info) == [] and "| number of A" not in render_explanation(info)


def test_the_argmax_rule_shows_its_own_verdicts_and_legend(tiny_argmax_scorer):
    info = tiny_argmax_scorer.explain(*DIVIDEND)
    assert {e["verdict"] for e in figure_verdicts(info)} <= set(RULE_VERDICTS["argmax"])
    text = render_explanation(info)
    assert "✗ unsupported: B's aligned number states another value" in text and "misplaced" not in text


def test_an_explanation_without_verdicts_renders_as_before(tiny_scorer):
    info = tiny_scorer.explain("Sales were EUR 5 mn in 2010.", "Sales were EUR 7 mn in 2011.")
    for m in info["mentions"]["a"]:
        m.update(verdict=None, found=None, context_match=None)
    del info["scores"]["numeric_support"]
    assert figure_verdicts(info) == [] and "numeric support" not in render_explanation(info)


@pytest.mark.parametrize(("verdict", "found", "reference", "rule", "note"), [
    ("supported", "4%", "4%", "context", "4%"),
    ("misplaced", "1,146.2", "1,452.4", "context", "found at 1,146.2, but A's binding fits 1,452.4"),
    ("unsupported", None, "4%", "context", "stated nowhere; closest in context: 4%"),
    ("unsupported", None, None, "context", "stated nowhere; B has no number of its kind"),
    ("unsupported", None, "4%", "argmax", "aligned with 4%, another value"),
    ("unmatched", None, None, "argmax", "nothing in B aligns"),
])
def test_what_b_says_about_a_figure(verdict, found, reference, rule, note):
    assert figure_note(verdict, found, reference, rule) == note


def test_every_verdict_has_a_mark_and_help_under_its_rule():
    from nash_metric.pipeline import support

    assert RULE_VERDICTS == {"context": support.VERDICTS, "argmax": support.ARGMAX_VERDICTS}
    assert all(set(VERDICT_HELP[rule]) == set(verdicts) <= set(MARKS) for rule, verdicts in RULE_VERDICTS.items())


def _entry(text: str, verdict: str, found: str | None, reference: str | None) -> dict:
    number = {"start": 0, "end": 1, "value": 1.0}
    return {"text": text, "verdict": verdict, "found": found and dict(number, text=found),
            "reference": reference and dict(number, text=reference)}


def test_the_support_line_of_nash_score():
    assert support_line(1.0, []) == "numeric support 1.00: every figure of A is supported by B"
    entries = [_entry("10%", "unsupported", None, "4%"), _entry("1,146.2", "misplaced", "1,146.2", "1,452.4"),
               _entry("7", "unsupported", None, None), _entry("3", "unmatched", None, None)]
    assert support_line(0.2, entries) == (
        "numeric support 0.20; not supported: 10% (B says 4%); 1,146.2 (misplaced: found at 1,146.2, but A's "
        "binding fits 1,452.4); 7 (stated nowhere in B); 3 (nothing in B aligns)")


def test_the_support_line_of_a_scored_misplaced_figure(tiny_scorer):
    out = tiny_scorer.score([MISPLACED_CLAIM], [TABLE])
    assert support_line(out.numeric_support[0], out.unsupported_numbers[0]) == (
        "numeric support 0.50; not supported: 1,146.2 (misplaced: found at 1,146.2, but A's binding fits 1,452.4)")
