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
    figure_note,
    figure_verdicts,
    render_explanation,
    support_summary,
    support_table,
    verdict_rule,
)
from nash_metric.verdicts.spec import MARKS, RULE_VERDICTS, VERDICT_HELP

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
    # The year places the misplaced figure: supported, it is not counted (the figure alone scores 0, not 0.5).
    summary = ("numeric support 0.00: 0 of 1 figure of A supported by B (1 misplaced); 1 supported period that "
               "places a figure, not counted")
    assert support_summary(info) == summary and summary in text.splitlines()
    rows = _verdict_rows(text)
    assert [row[:3] for row in rows] == [
        ["1,146.2 (=1146.2)", "↷ MISPLACED",
         "found at 1,146.2 (=1146.2), but A's binding fits 1,452.4 (=1452.4) (period: 2018, not 2019)"],
        ["2019 (=2019)", "✓ supported", "2019 (=2019)"]]
    assert float(rows[0][3]) == pytest.approx(figure["context_match"]["cosine"], abs=1e-4)
    legend = ("✓ supported: B states its value, and nothing B binds it to contradicts A · ↷ misplaced: B states its "
              "value, but only for another period, row or subject · ✗ unsupported: B states its value nowhere, and "
              "no derivation of its bound numbers gives it · ⇅ contradicted: B states its value as a change in the "
              "other direction · Σ computed: B implies it: a change, sum, share, ratio or average of numbers bound "
              "to what A states")
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


GROWTH = "(62.4 − 50.2) / 50.2 = 24.3%"


@pytest.mark.parametrize(("verdict", "reference", "derivation", "note"), [
    ("computed", "62.4", GROWTH, f"computed: {GROWTH}"),
    ("computed", None, None, "computed from B's numbers"),
    ("unsupported", "4%", GROWTH, f"stated nowhere; closest in context: 4%; closest derivation: {GROWTH}"),
    ("unsupported", None, GROWTH, f"stated nowhere; closest derivation: {GROWTH}"),
    ("unsupported", None, None, "stated nowhere; B has no number of its kind"),
    ("misplaced", "1,452.4", GROWTH, "found at 1,146.2, but A's binding fits 1,452.4"),  # no derivation to show
])
def test_what_b_says_about_a_computed_figure_or_the_closest_derivation(verdict, reference, derivation, note):
    found = "1,146.2" if verdict == "misplaced" else None
    assert figure_note(verdict, found, reference, "context", derivation) == note


def _number(text: str, start: int, value: float, **extra) -> dict:
    return {"text": text, "start": start, "end": start + len(text), "value": value, "kind": "quantity", "unit": None,
            "scored": True, **extra}


def _derived_info() -> dict:
    """An explain dict as `explanation.py` writes it, by hand: 24.3% computed from B's 62.4 and 50.2, 30% unsupported
    (its closest derivation gives 24.3%), 2019 supported; a computed figure counts as supported."""
    b = [_number("62.4", 20, 62.4), _number("50.2", 30, 50.2), _number("2019", 10, 2019.0)]
    located = lambda i: {"index": i, **{k: b[i][k] for k in ("text", "start", "end", "value")}}  # noqa: E731
    a = [_number("24.3%", 12, 24.3, verdict="computed", found=None, context_match={**located(0), "cosine": 0.61},
                 basis=None, derivation=GROWTH, operands=[located(0), located(1)]),
         _number("2019", 21, 2019.0, verdict="supported", found=located(2), context_match={**located(2), "cosine": 0.9},
                 basis=None, derivation=None, operands=None),
         _number("30%", 40, 30.0, verdict="unsupported", found=None, context_match={**located(0), "cosine": 0.4},
                 basis=None, derivation=GROWTH, operands=[located(0), located(1)])]
    return {"mentions": {"a": a, "b": b}, "scores": {"numeric_support": 2 / 3}, "config": {"verdict": "context"}}


def test_a_computed_figure_counts_as_supported_and_shows_its_derivation():
    info = _derived_info()
    entries = figure_verdicts(info)
    assert [(e["index"], e["verdict"], e["derivation"], e["operands"]) for e in entries] == [
        (0, "computed", GROWTH, [0, 1]), (1, "supported", None, None), (2, "unsupported", GROWTH, [0, 1])]
    assert entries[0]["found"] is None and entries[0]["reference"] == 0
    assert support_summary(info) == ("numeric support 0.67: 2 of 3 figures of A supported by B, 1 of them computed "
                                      "(1 unsupported)")
    rows = support_table(info).splitlines()[2:]
    assert [[cell.strip() for cell in row.strip("|").split("|")][:3] for row in rows] == [
        ["24.3% (=24.3)", "Σ computed", f"computed: {GROWTH}"],
        ["2019 (=2019)", "✓ supported", "2019 (=2019)"],
        ["30% (=30)", "✗ UNSUPPORTED",
         f"stated nowhere; closest in context: 62.4 (=62.4); closest derivation: {GROWTH}"]]
    del info["scores"]["numeric_support"]  # the share from the counts: computed among the supported
    assert support_summary(info).startswith("numeric support 0.67: ")
    info["mentions"]["a"][2].update(verdict="computed", derivation="50.2 / 62.4 × 100 = 80.4%")
    assert support_summary(info) == "numeric support 1.00: 3 of 3 figures of A supported by B, 2 of them computed"


def test_an_explain_dict_from_before_derivations_reads_them_as_none():
    info = _derived_info()
    for m in info["mentions"]["a"]:
        del m["derivation"], m["operands"]
    assert [(e["derivation"], e["operands"]) for e in figure_verdicts(info)] == [(None, None)] * 3
    assert "computed from B's numbers" in support_table(info)


def test_the_explanation_locates_the_operands_of_a_derivation_in_b():
    from types import SimpleNamespace

    from nash_metric.reports.explanation import NO_VERDICT, _verdicts_by_mention

    a, b = "Revenue grew 24.3% in 2019; 30% later.", "| | 2019 | 2018 |\n| Revenue | 62.4 | 50.2 |"
    span = lambda text, needle: SimpleNamespace(start=text.index(needle), end=text.index(needle) + len(needle))  # noqa: E731
    ref = lambda needle: {"text": needle, "start": b.index(needle), "end": b.index(needle) + len(needle),  # noqa: E731
                          "value": float(needle)}
    pool = SimpleNamespace(mentions={a: [span(a, "24.3%"), span(a, "2019"), span(a, "30%")],
                                     b: [span(b, "2019"), span(b, "2018"), span(b, "62.4"), span(b, "50.2")]})
    entry = lambda needle, verdict, derivation, operands: {  # noqa: E731
        "text": needle, "start": a.index(needle), "end": a.index(needle) + len(needle), "value": 0.0,
        "verdict": verdict, "found": None, "reference": ref("62.4"), "cosine": 0.5, "basis": None,
        "derivation": derivation, "operands": operands}
    verdicts = _verdicts_by_mention(pool, a, b, [
        entry("24.3%", "computed", GROWTH, [ref("62.4"), ref("50.2")]),
        {k: v for k, v in entry("30%", "unsupported", None, None).items() if k not in ("derivation", "operands")}])
    assert verdicts[0]["derivation"] == GROWTH
    assert [(o["index"], o["text"]) for o in verdicts[0]["operands"]] == [(2, "62.4"), (3, "50.2")]
    assert (verdicts[2]["derivation"], verdicts[2]["operands"]) == (None, None)  # an entry without the keys
    assert 1 not in verdicts and set(NO_VERDICT) == set(verdicts[0])


def test_every_verdict_has_a_mark_and_help_under_its_rule():
    from nash_metric.verdicts import argmax, decide

    assert RULE_VERDICTS == {"context": decide.VERDICTS, "argmax": argmax.ARGMAX_VERDICTS}
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
    closest = {**_entry("30%", "unsupported", None, "4%"), "derivation": GROWTH}
    assert support_line(0.5, [closest]) == (
        f"numeric support 0.50; not supported: 30% (B says 4%; closest derivation: {GROWTH})")


def test_the_support_line_of_a_scored_misplaced_figure(tiny_scorer):
    out = tiny_scorer.score([MISPLACED_CLAIM], [TABLE])
    assert support_line(out.numeric_support[0], out.unsupported_numbers[0]) == (
        "numeric support 0.00; not supported: 1,146.2 (misplaced: found at 1,146.2, but A's binding fits 1,452.4)")
