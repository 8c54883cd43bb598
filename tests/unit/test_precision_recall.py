"""Precision and recall of every channel, against hand computations (no real model needed)."""

from __future__ import annotations

import numpy as np
import pytest

from nash_metric.pipeline.alignment import MentionTable, NumberScores, align_numbers, magnitude_similarity
from nash_metric.pipeline.mixing import mixed
from nash_metric.pipeline.output import PUBLIC_FIELDS, SCORE_FIELDS, NASHOutput


def _unit(*rows):
    m = np.array(rows, dtype=np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def test_number_precision_and_recall_follow_bert_score_with_unequal_counts():
    # Text 0 (prediction) holds 4 and 10, text 1 (reference) holds 4 only: the prediction adds a number.
    vectors = _unit([1, 0], [0, 1], [1, 0])
    table = MentionTable(vectors, np.array([4.0, 10.0, 4.0]), np.array([0, 2]), np.array([2, 1]))
    added = align_numbers(table, np.array([0]), np.array([1])).numeric_similarity(0.5)
    dropped = align_numbers(table, np.array([1]), np.array([0])).numeric_similarity(0.5)  # roles swapped
    fields = mixed(np.array([0.5]), np.array([1.0]), np.array([1.0]), np.array([1.0]), added)
    # Precision: the mean over the prediction's 2 numbers: 4 -> 4 counts 1, 10 has cosine 0 < tau: (1 + 0) / 2.
    assert fields["numeric_precision"][0] == pytest.approx(0.5)
    # Recall: the mean over the reference's 1 number: its 4 finds the prediction's 4.
    assert fields["numeric_recall"][0] == pytest.approx(1.0)
    assert fields["numeric"][0] == pytest.approx(0.75)
    swapped = mixed(np.array([0.5]), np.array([1.0]), np.array([1.0]), np.array([1.0]), dropped)
    assert (swapped["numeric_precision"][0], swapped["numeric_recall"][0]) == pytest.approx((1.0, 0.5))


def test_each_direction_is_a_mean_over_its_own_numbers_never_above_one():
    # Prediction "5 and 5" against reference "5 and 7" (all contexts alike): both 5s find the 5, so the
    # precision is 1; the reference's 7 also picks a 5, at magnitude 1 / (1 + 2 / 7), so the recall is
    # (1 + 7/9) / 2, not 1 (dividing by the other side's count, as the paper prints, gives 1 here).
    table = MentionTable(_unit([1, 0], [1, 0], [1, 0], [1, 0]), np.array([5.0, 5.0, 5.0, 7.0]),
                         np.array([0, 2]), np.array([2, 2]))
    scores = align_numbers(table, np.array([0]), np.array([1])).numeric_similarity(0.5)
    assert scores.a_to_b[0] == pytest.approx(1.0)
    assert scores.b_to_a[0] == pytest.approx((1 + 1 / (1 + 2 / 7)) / 2)
    # Prediction with 1 number against a reference with 6 of the same: precision 1, recall 1 (each of the
    # reference's numbers finds it); one wrong figure among two in the prediction halves the precision.
    table = MentionTable(_unit(*[[1, 0]] * 8), np.array([0.15, 25.0, *[0.13] * 4, 25.0, 3.0]),
                         np.array([0, 2]), np.array([2, 6]))
    scores = align_numbers(table, np.array([0]), np.array([1])).numeric_similarity(0.5)
    assert 0 < scores.a_to_b[0] < 1 and 0 < scores.b_to_a[0] <= 1


def test_nash_precision_and_recall_mix_each_channel_with_the_same_alpha():
    alpha = np.array([0.75, 0.2])
    text, text_p, text_r = np.array([0.9, 0.5]), np.array([0.8, 0.4]), np.array([1.0, 0.6])
    numbers = NumberScores(s_num=np.array([0.6, 0.3]), a_to_b=np.array([0.7, 0.1]), b_to_a=np.array([0.5, 0.5]))
    out = mixed(alpha, text, text_p, text_r, numbers)
    np.testing.assert_allclose(out["nash"], [0.75 * 0.9 + 0.25 * 0.6, 0.2 * 0.5 + 0.8 * 0.3])
    # a_to_b (the prediction's numbers) is the precision, b_to_a the recall.
    np.testing.assert_allclose(out["nash_precision"], [0.75 * 0.8 + 0.25 * 0.7, 0.2 * 0.4 + 0.8 * 0.1])
    np.testing.assert_allclose(out["nash_recall"], [0.75 * 1.0 + 0.25 * 0.5, 0.2 * 0.6 + 0.8 * 0.5])


def _output(n: int, seed: int = 0) -> NASHOutput:
    rng = np.random.default_rng(seed)
    return NASHOutput(**{name: rng.random(n) for name in SCORE_FIELDS}, config={}, hashcode="h")


def test_best_reference_keeps_every_field_of_the_same_pair():
    out = _output(5)
    out.nash[:] = [0.1, 0.9, 0.3, 0.2, 0.8]
    best = out.best_of([3, 2])
    assert best.best_reference.tolist() == [1, 1]
    for name in SCORE_FIELDS:
        assert getattr(best, name).tolist() == getattr(out, name)[[1, 4]].tolist(), name


def test_columns_name_every_field_once_in_public_order():
    out = _output(3)
    assert list(out.columns()) == list(PUBLIC_FIELDS)
    assert out.columns()["text_precision"] is out.text_precision
    assert NASHOutput.empty({"threshold": 0.5, "model": "m", "num_layers": 1, "backend": "token", "idf": "uniform",
                             "comparisons": False, "nash_metric": "0", "transformers": "0"}).nash.shape == (0,)


def test_at_threshold_recomputes_number_precision_and_recall():
    vectors = _unit([1, 0], [0.6, 0.8], [1, 0])
    table = MentionTable(vectors, np.array([4.0, 10.0, 4.0]), np.array([0, 2]), np.array([2, 1]))
    alignment = align_numbers(table, np.array([0]), np.array([1]))
    numbers = alignment.numeric_similarity(0.9)
    one = np.ones(1)
    out = NASHOutput(**mixed(np.array([0.5]), one, one, one, numbers), text=one, text_precision=one, text_recall=one,
                     numeric_support=one,
                     alpha=np.array([0.5]), baseline=one, baseline_precision=one, baseline_recall=one,
                     config={"threshold": 0.9, "model": "m", "num_layers": 1, "backend": "token", "idf": "uniform",
                             "comparisons": False, "nash_metric": "0", "transformers": "0"},
                     hashcode="h", alignment=alignment, pair_index=np.array([0]))
    lower = out.at_threshold(0.5)  # the prediction's 10 -> 4 match (cosine 0.6) now counts in the precision
    assert lower.numeric_precision[0] == pytest.approx((1 + float(magnitude_similarity(10, 4))) / 2)
    assert lower.numeric_recall[0] == pytest.approx(1.0)
    assert lower.nash_precision[0] == pytest.approx(0.5 + 0.5 * lower.numeric_precision[0])
    assert lower.config["threshold"] == 0.5 and lower.hashcode != out.hashcode
