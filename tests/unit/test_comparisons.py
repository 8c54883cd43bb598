"""Comparison-aware numeric channel: cue detection, soft satisfaction (hand-computed), constraint matrix."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from nash_metric.numbers import NumericMention, extract_numbers
from nash_metric.numbers.comparisons import (
    MARGIN,
    NEGATE,
    WIDTH,
    Constraint,
    constraint_matrix,
    find_constraints,
    relative_margin,
    satisfaction,
)


def constraints(text: str) -> list[tuple]:
    return [(c.op, c.low, c.high, c.cue) for c in find_constraints(text, extract_numbers(text))]


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


@pytest.mark.parametrize(("text", "op", "cue"), [
    ("Which stocks have a P/E ratio above 200?", ">", "above"),
    ("funds with over 200 holdings", ">", "over"),
    ("revenue of more than 200", ">", "more than"),
    ("a margin greater than 20%", ">", "greater than"),
    ("yields higher than 4.5%", ">", "higher than"),
    ("debt that exceeds 300", ">", "exceeds"),
    ("a beta exceeding 1.2", ">", "exceeding"),
    ("at least 30 branches", ">=", "at least"),
    ("no less than 12 analysts", ">=", "no less than"),
    ("P/E ≥ 15", ">=", "≥"),
    ("P/E >= 15", ">=", ">="),
    ("P/E > 15", ">", ">"),
    ("a price below $50", "<", "below"),
    ("under 5 employees", "<", "under"),
    ("less than 3.5%", "<", "less than"),
    ("a ratio lower than 0.8", "<", "lower than"),
    ("fewer than 10 stores", "<", "fewer than"),
    ("at most 7 analysts", "<=", "at most"),
    ("no more than 1.5%", "<=", "no more than"),
    ("P/E ≤ 15", "<=", "≤"),
    ("P/E < 15", "<", "<"),
    ("a market share of 20% or more", ">=", "or more"),
    ("priced at $12 or less", "<=", "or less"),
])
def test_cues(text, op, cue):
    (found,) = find_constraints(text, extract_numbers(text))
    assert (found.op, found.cue) == (op, cue)
    assert text[found.start:found.end] == cue
    threshold = extract_numbers(text)[found.mention_index].value
    assert (found.low if op in (">", ">=") else found.high) == threshold


def test_a_cue_counts_only_in_the_window_before_its_mention():
    # A cue within the look-behind window, one that straddles its start, and none: each mention is searched only
    # when a cue lies in its window, and the window alone decides.
    far = "more than " + "x" * 75 + " 200"  # "more than" straddles the start of the 80-character window before "200"
    assert constraints(far) == []  # searched, but it is not right before the number: no constraint
    near = "a rise of 5%, then " + "word " * 20 + "above 200 and 300 or more"
    assert constraints(near) == [(">", 200.0, None, "above"), (">=", 300.0, None, "or more")]
    assert constraints("between 4 and 10 and " + "word " * 30 + "7") == [("between", 4.0, 10.0, "between")]


@pytest.mark.parametrize(("text", "op"), [
    ("not above 200", "<="), ("not more than 200", "<="), ("is not over 200", "<="),
    ("does not exceed EUR 300", "<="), ("never exceeded 40", "<="), ("didn't exceed 40", "<="),
    ("not below 5", ">="), ("not less than 5", ">="), ("not at least 5", "<"), ("not at most 5", ">"),
])
def test_negations_fold_into_the_complementary_operator(text, op):
    assert [c[0] for c in constraints(text)] == [op]


def test_between_and_not_between():
    (c,) = find_constraints(t := "revenue between $5 million and $10 million", extract_numbers(t))
    assert (c.op, c.low, c.high, c.mention_index, c.other_index) == ("between", 5e6, 1e7, 0, 1)
    (c,) = find_constraints(t := "a P/E not between 30 and 10", extract_numbers(t))
    # Bounds are ordered whatever the writing order; mention_index is the lower bound's mention.
    assert (c.op, c.low, c.high, c.mention_index, c.other_index, c.cue) == ("not_between", 10, 30, 1, 0, "not between")


@pytest.mark.parametrize("text", [
    "Revenue grew over the last 5 years.",  # cue not adjacent to the number
    "Turnover 200 was reported.",  # "over" inside a word
    "Sales rose 5.2 % to EUR 205.5 mn.",  # no cue at all
    "The stock above the 200 mark.",
])
def test_no_constraint_without_an_adjacent_cue(text):
    assert constraints(text) == []


def test_unparseable_mentions_carry_no_constraint():
    bad = NumericMention("1.2.3", 6, 11, None, "quantity", error="malformed number '1.2.3'")
    assert find_constraints("above 1.2.3", [bad]) == []


def test_satisfaction_hand_computed():
    c = Constraint(0, ">", 200.0, None, "above", 0, 5)
    # At the threshold: sigma(-MARGIN / WIDTH) = sigma(-2) for strict, sigma(+2) for inclusive.
    assert satisfaction(c, 200.0) == pytest.approx(0.11920292, abs=1e-8)
    assert satisfaction(Constraint(0, ">=", 200.0, None, "at least", 0, 8), 200.0) == pytest.approx(0.88079708)
    # 202 vs 200: m = 2 / 201 = 0.0099502..., (m - 0.01) / 0.005 = -0.0099502 -> 0.4975125.
    assert satisfaction(c, 202.0) == pytest.approx(0.49751247, abs=1e-7)
    # 220 vs 200: m = 20 / 210, logit = (0.0952381 - 0.01) / 0.005 = 17.047619.
    assert satisfaction(c, 220.0) == pytest.approx(sigmoid(17.047619), abs=1e-9)
    assert satisfaction(c, 180.0) == pytest.approx(sigmoid((-20 / 190 - 0.01) / 0.005), rel=1e-9)
    assert satisfaction(c, 180.0) < 1e-9
    below = Constraint(0, "<", None, 200.0, "below", 0, 5)
    at_least = Constraint(0, ">=", 200.0, None, "", 0, 0)
    assert satisfaction(below, 180.0) == pytest.approx(1 - satisfaction(at_least, 180.0))
    # Zero threshold and zero value: margin 0, the equality score.
    assert satisfaction(Constraint(0, ">", 0.0, None, "", 0, 0), 0.0) == pytest.approx(sigmoid(-MARGIN / WIDTH))


def test_between_satisfaction_hand_computed():
    c = Constraint(0, "between", 3.0, 7.0, "between", 0, 7, other_index=1)
    assert satisfaction(c, 5.0) == pytest.approx(1.0, abs=1e-12)
    assert satisfaction(c, 3.0) == pytest.approx(0.88079708)  # inclusive bound
    assert satisfaction(c, 10.0) < 1e-12
    out = Constraint(0, "not_between", 3.0, 7.0, "not between", 0, 11, other_index=1)
    assert satisfaction(out, 3.0) == pytest.approx(0.11920292)
    assert satisfaction(out, 10.0) == pytest.approx(1.0)


def test_satisfaction_rejects_bad_input():
    with pytest.raises(ValueError, match="finite"):
        satisfaction(Constraint(0, ">", 1.0, None, "", 0, 0), float("nan"))
    with pytest.raises(ValueError, match="unknown constraint op"):
        satisfaction(Constraint(0, "~", 1.0, None, "", 0, 0), 1.0)
    with pytest.raises(ValueError, match="lacks its bound"):
        satisfaction(Constraint(0, ">", None, None, "", 3, 8), 1.0)


finite = st.floats(min_value=-1e12, max_value=1e12, allow_nan=False)


@given(op=st.sampled_from(list(NEGATE)), t=finite, t2=finite, v=finite)
def test_negation_is_the_complement(op, t, t2, v):
    def bounds(o: str) -> tuple:
        return {">": (t, None), ">=": (t, None), "<": (None, t), "<=": (None, t)}.get(o, (min(t, t2), max(t, t2)))

    a = Constraint(0, op, *bounds(op), "", 0, 0)
    b = Constraint(0, NEGATE[op], *bounds(NEGATE[op]), "", 0, 0)
    assert satisfaction(a, v) + satisfaction(b, v) == pytest.approx(1.0, abs=1e-9)


@given(t=st.floats(min_value=1e-3, max_value=1e6), v1=finite, v2=finite)
def test_lower_bound_is_monotone_in_the_value(t, v1, v2):
    c = Constraint(0, ">", t, None, "", 0, 0)
    lo, hi = sorted((v1, v2))
    assert satisfaction(c, lo) <= satisfaction(c, hi) + 1e-12


@given(t=st.integers(2, 999), frac=st.floats(0.03, 0.9), exp=st.sampled_from([-30, -3, 0, 3, 30]))
def test_scale_free(t, frac, exp):
    # "above 0.0000...2" behaves like "above 2": the margin is relative. Beyond the 1 % margin
    # (3 % here) a value is on the satisfying side of 0.5 at any scale.
    s, d = 10.0 ** exp, t * frac
    assert relative_margin((t + d) * s, t * s) == pytest.approx(relative_margin(t + d, t), rel=1e-9)
    c = Constraint(0, ">", t * s, None, "", 0, 0)
    assert satisfaction(c, (t + d) * s) > 0.5 > satisfaction(c, (t - d) * s)


def test_constraint_matrix_orientation_and_nan():
    a = "Which stocks trade above 200 with 5 analysts?"
    b = "ABC trades at 220 and DEF at 180."
    ma, mb = extract_numbers(a), extract_numbers(b)
    m = constraint_matrix(a, ma, b, mb)
    assert m.shape == (2, 2)
    assert m[0, 0] == pytest.approx(satisfaction(find_constraints(a, ma)[0], 220.0))
    assert m[0, 0] > 0.999 and m[0, 1] < 1e-6
    assert np.isnan(m[1]).all()  # "5 analysts" states no constraint
    # Swapping the texts transposes the matrix (the constraint may sit on either side).
    np.testing.assert_array_equal(constraint_matrix(b, mb, a, ma), m.T)


def test_constraint_matrix_both_sides_constrained():
    def cm(a, b):
        return constraint_matrix(a, extract_numbers(a), b, extract_numbers(b))

    assert cm("above 200", "below 200")[0, 0] == 0.0  # opposite conditions
    assert np.isnan(cm("above 200", "at least 210")[0, 0])  # same side: compared by magnitude
    assert cm("between 3 and 7", "not between 3 and 7").tolist() == [[0.0, 0.0], [0.0, 0.0]]
    assert cm("no numbers", "above 3").shape == (0, 1)
    assert np.isnan(cm("plain 3", "plain 4")).all()


def test_constraint_to_dict_roundtrip():
    (c,) = find_constraints(t := "at least 30", extract_numbers(t))
    d = c.to_dict()
    assert d == {"mention_index": 0, "op": ">=", "low": 30.0, "high": None, "cue": "at least", "start": 0, "end": 8,
                 "other_index": None}
    assert Constraint(**d) == c


def test_skipping_the_cue_scan_of_a_text_without_a_cue_word_changes_nothing(monkeypatch):
    """`find_constraints` scans for cues only where `_CUE_HINT` finds a word every cue holds: every cue phrase, in
    any case, holds one, and texts with a hint word and no cue read as when every text is scanned."""
    from nash_metric.numbers import comparisons

    phrases = [c.replace("(?:a )?", "a ").replace("(?:", "").replace(")", "").replace("|", " ").replace("?", "")
               for cues in comparisons._PREFIX_CUES.values() for c in cues] + ["between"]
    for phrase in phrases:
        for written in (phrase, phrase.upper(), phrase.title()):
            assert comparisons._CUE_HINT.search(written), written
    texts = [*(f"Sales were {phrase} 5 units." for phrase in phrases), "Sales rose 5 units or more, UP TO 7 units.",
             "The group's turnover was 5 and its overall margin 7%.", "Sales were 5 units."]
    hinted = [find_constraints(t, extract_numbers(t)) for t in texts]
    monkeypatch.setattr(comparisons, "_CUE_HINT", re.compile(""))
    assert [find_constraints(t, extract_numbers(t)) for t in texts] == hinted
    assert sum(map(bool, hinted)) > len(phrases) // 2, "the texts must state constraints"
