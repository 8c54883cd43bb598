"""Evaluation protocols, each checked by hand on a tiny case."""

from __future__ import annotations

import math

import numpy as np
import pytest

from nash_metric.common.protocols import (
    bootstrap_ci,
    crosspair_accuracy,
    exact_order_accuracy,
    kendall_tau_b,
    mean_kendall_tau_b,
    pairwise_accuracy,
    precision_at_k,
    triplet_accuracy,
)


def test_triplet_accuracy_counts_ties_as_wrong():
    # correct, wrong, tie -> 1/3
    assert triplet_accuracy([0.9, 0.5, 0.7], [0.8, 0.6, 0.7]) == pytest.approx(1 / 3)
    assert pairwise_accuracy([2, 3], [1, 1]) == 1.0


def test_crosspair_accuracy_reads_the_label():
    # label 0: a should score higher; label 1: b should. Cases: right, right, tie (wrong), wrong.
    acc = crosspair_accuracy([0.9, 0.2, 0.5, 0.9], [0.1, 0.8, 0.5, 0.1], [0, 1, 0, 1])
    assert acc == pytest.approx(2 / 4)


def test_kendall_tau_b_direction_and_ties():
    d = [1.0, 2.0, 3.0]
    assert kendall_tau_b([0.9, 0.5, 0.1], d) == pytest.approx(1.0)  # most similar = closest
    assert kendall_tau_b([0.1, 0.5, 0.9], d) == pytest.approx(-1.0)
    # scores [1, 1, 0]: one pair tied in scores, two concordant: tau_b = 2 / sqrt((3-1) * 3)
    assert kendall_tau_b([1.0, 1.0, 0.0], d) == pytest.approx(2 / math.sqrt(6))
    assert math.isnan(kendall_tau_b([0.5, 0.5, 0.5], d))


def test_mean_kendall_tau_b_undefined_lists():
    lists = [[0.9, 0.5, 0.1], [0.3, 0.3, 0.3]]
    dists = [[1, 2, 3], [1, 2, 3]]
    zero = mean_kendall_tau_b(lists, dists)
    assert (zero.mean, zero.n, zero.n_undefined) == (pytest.approx(0.5), 2, 1)
    assert mean_kendall_tau_b(lists, dists, undefined="skip").mean == pytest.approx(1.0)
    with pytest.raises(ValueError, match="list 1"):
        mean_kendall_tau_b([[1, 2, 3], [1]], [[1, 2, 3], [1]])


def test_precision_at_k():
    scores = [[0.9, 0.8, 0.1, 0.0], [0.5, 0.5, 0.5, 0.5]]
    relevant = [{0, 2}, {1}]
    # list 0: top-2 = {0, 1} -> 1/2; list 1: all tied, irrelevant ranked first -> 0/2
    assert precision_at_k(scores, relevant, 2) == pytest.approx(0.25)
    with pytest.raises(ValueError, match="exceeds"):
        precision_at_k(scores, relevant, 5)


def test_errors_name_what_and_where():
    with pytest.raises(ValueError, match="length mismatch"):
        triplet_accuracy([1, 2], [1])
    with pytest.raises(ValueError, match="index 1"):
        triplet_accuracy([1.0, float("nan")], [0.0, 0.0])
    with pytest.raises(ValueError, match="labels"):
        crosspair_accuracy([1], [0], [2])
    with pytest.raises(ValueError, match="empty"):
        triplet_accuracy([], [])


def test_bootstrap_ci_is_seeded():
    x = np.array([1, 0, 1, 1, 0, 1, 1, 1, 0, 1], dtype=float)
    lo, hi = bootstrap_ci(x, seed=3)
    assert (lo, hi) == bootstrap_ci(x, seed=3)
    assert lo <= x.mean() <= hi


def test_exact_order_accuracy_needs_a_strict_fall_along_the_gold_order():
    scores = [[0.2, 0.9, 0.5], [0.2, 0.9, 0.5], [0.5, 0.9, 0.5]]
    orders = [[1, 2, 0], [1, 0, 2], [1, 0, 2]]  # right; wrong; a tie along the order (counted wrong)
    assert exact_order_accuracy(scores, orders) == pytest.approx(1 / 3)
    with pytest.raises(ValueError, match=r"list 0: gold order \[0, 0, 1\] is not an order of indices 0\.\.2"):
        exact_order_accuracy(scores[:1], [[0, 0, 1]])
    with pytest.raises(ValueError, match="length mismatch"):
        exact_order_accuracy(scores, orders[:2])
