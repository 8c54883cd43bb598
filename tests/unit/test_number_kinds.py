"""Figures of different kinds in the number channel (issue 31): the one compatibility check (`kinds_fit`) that the
support verdict uses also zeroes the magnitude of a match between incompatible kinds, with the full reader only."""

from __future__ import annotations

import numpy as np
import pytest

from nash_metric.pipeline.alignment import align_numbers, kinds_fit, magnitude_similarity, value_similarity

# (a, b, fit): one figure each, read by the full reader.
CASES = [
    ("Sales rose 2%.", "Sales rose 2 percentage points.", False),
    ("Revenue was EUR 5 mn.", "Revenue was USD 5 mn.", False),
    ("Margin was 25%.", "Margin was 25.", False),  # a plain number never fits a percent
    ("The plant opened on 16 February.", "The plant has 16 staff.", False),  # a day is not a count
    ("The shop opens at 3 pm.", "The shop has 15 doors.", False),  # a time of day (15 h) fits only a time
    ("Profit was $5 million.", "Profit was 5 million.", True),  # the currency may be said elsewhere
    ("Costs fell 50 bp.", "Costs fell 0.5 percentage points.", True),  # basis points are points
    ("The plant opened in 2019.", "The plant has 2019 workers.", True),  # a bare year may be the number
    ("Sales peaked in Q4 2019.", "Sales peaked in 2019.", True),  # two periods: the calendar compares them
    ("Sales rose 2%.", "Sales rose 3%.", True),
]


@pytest.mark.parametrize(("a", "b", "fit"), CASES)
def test_kinds_fit_is_symmetric_and_rules_the_magnitude(a, b, fit, one_figure_pair):
    _, table, ia, ib = one_figure_pair(a, b)
    assert bool(kinds_fit(table, ia, ib)[0, 0]) is fit
    assert bool(kinds_fit(table, ib, ia)[0, 0]) is fit
    with_kinds = float(value_similarity(table, ia, ib)[0, 0])
    magnitude_only = float(value_similarity(table, ia, ib, kinds=False)[0, 0])
    assert with_kinds == (magnitude_only if fit else 0.0)
    if not fit:
        assert magnitude_only > 0.5, "the paper's magnitude rule rates them close: the case tests something"


@pytest.mark.parametrize("kinds", [True, False])
def test_alignment_scores_another_kind_zero_only_with_kinds(kinds, one_figure_pair):
    pool, table, _, _ = one_figure_pair("Sales rose 2%.", "Sales rose 2 percentage points.")
    ids = pool.original_ids(["Sales rose 2%.", "Sales rose 2 percentage points."])
    alignment = align_numbers(table, ids[:1], ids[1:], kinds=kinds)
    scores = alignment.numeric_similarity(0.5)
    assert alignment.a_to_b.other_kind.tolist() == [kinds]
    assert alignment.b_to_a.other_kind.tolist() == [kinds]
    assert float(scores.s_num[0]) == (0.0 if kinds else 1.0)  # 2 and 2: magnitude 1 without the kinds rule


def test_a_condition_still_scores_its_number(one_figure_pair):
    """A stated condition links its number whatever the kinds (comparison-aware mode reads the cue itself)."""
    pool, table, _, _ = one_figure_pair("Sales rose 2%.", "Sales rose 2 percentage points.")
    ids = pool.original_ids(["Sales rose 2%.", "Sales rose 2 percentage points."])
    alignment = align_numbers(table, ids[:1], ids[1:], conditions={0: np.array([[0.75]])})
    assert alignment.a_to_b.similarity.tolist() == [0.75]
    assert alignment.a_to_b.magnitude.tolist() == [0.0]


def test_magnitude_unchanged_for_one_kind(one_figure_pair):
    _, table, ia, ib = one_figure_pair("Revenue increased by 4%.", "Revenue increased by 3.56%.")
    assert float(value_similarity(table, ia, ib)[0, 0]) == pytest.approx(float(magnitude_similarity(4.0, 3.56)))


@pytest.mark.parametrize(("text", "families"), [
    ("Growth of 5 to 10% expected.", ["%", "%"]),  # a word joins the range as a dash does
    ("Growth of 5–10% expected.", ["%", "%"]),
    ("Growth between 5 and 10% expected.", ["%", "%"]),
    ("Margins rose 2 to 3 percentage points.", ["points", "points"]),
    ("Margins rose 2% to 3 percentage points.", ["%", "points"]),  # its own percent sign wins
    ("Spreads fell 20 to 30 bp.", ["points", "points"]),
    ("Revenue of 5 and profit of 7% were reported.", [None, "%"]),  # a list, not a range
])
def test_a_range_reads_both_bounds_as_one_kind(text, families):
    from nash_metric.numbers import extract_numbers
    from nash_metric.numbers.precision import written_precision

    assert [written_precision(text, m).family for m in extract_numbers(text)] == families
