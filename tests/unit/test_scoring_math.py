"""Every formula of docs/method.md §1 against a hand computation (no model needed)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import torch

from nash_metric.backbone.similarity import bertscore
from nash_metric.calibration.threshold import tau_from_vectors
from nash_metric.pipeline.alignment import MentionTable, align_numbers, magnitude_similarity, numeric_similarity
from nash_metric.pipeline.mixing import mix
from nash_metric.pipeline.weighting import IDF, alpha_from_masses, mixing_tokens, pair_alphas


def align(vectors, values, offsets, counts, pairs_a, pairs_b):
    table = MentionTable(vectors, np.asarray(values, float), np.asarray(offsets), np.asarray(counts))
    return align_numbers(table, np.asarray(pairs_a), np.asarray(pairs_b), keep_cosines=True)


def hand_magnitude(v: float, u: float) -> float:
    return 1 / (1 + abs(v - u) / (1 + (abs(v) + abs(u)) / 2))


@pytest.mark.parametrize("v,u", [(4, 3.56), (4, 40), (0, 0), (-5, 5), (1e6, 1.1e6), (0.001, 0.002), (7, 7)])
def test_magnitude_similarity_matches_formula(v, u):
    assert magnitude_similarity(v, u) == pytest.approx(hand_magnitude(v, u), abs=1e-12)
    assert magnitude_similarity(v, u) == pytest.approx(magnitude_similarity(u, v))


def test_magnitude_similarity_extreme_values_stay_finite():
    # |v - u| and |v| + |u| overflow float64 here; the halved form must not.
    assert magnitude_similarity(1e308, -1e308) == pytest.approx(1 / 3)
    assert magnitude_similarity(1.7e308, 1.7e308) == 1.0
    # Same sign: the similarity saturates at 1/3 however far apart; opposite signs can reach 0.
    assert float(magnitude_similarity(1e30, 1e-30)) == pytest.approx(hand_magnitude(1e30, 1e-30))
    assert float(magnitude_similarity(1e30, 1e-30)) == pytest.approx(1 / 3, abs=1e-12)
    assert float(magnitude_similarity(1e30, -1e30)) == pytest.approx(1 / 3)
    assert float(magnitude_similarity(1.0, -1.0)) == pytest.approx(0.5)


def _unit(*rows):
    m = np.array(rows, dtype=np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def test_two_number_pair_by_hand():
    # Text a: values 4 and 100; text b: values 3.5 and 90. Context vectors chosen so that
    # a0 -> b0 (cos 0.8), a1 -> b1 (cos 0.6), b0 -> a0, b1 -> a1; tau = 0.7 rejects the second match.
    a = _unit([1, 0, 0], [0, 1, 0])
    b = _unit([0.8, 0.6, 0], [0, 0.6, 0.8])
    vectors = np.concatenate([a, b])
    values = np.array([4, 100, 3.5, 90], dtype=float)
    al = align(vectors, values, [0, 2], [2, 2], [0], [1])
    cos = a @ b.T  # [[0.8, 0], [0.6, 0.6]]: a1 ties b0/b1 at 0.6 -> first index wins (argmax)
    assert cos[1, 0] == pytest.approx(cos[1, 1])
    np.testing.assert_allclose(al.cosines[0], cos, atol=1e-6)
    # The named matches: a0 -> b0, a1 -> b0 (tie), b0 -> a0, b1 -> a1; only cos >= tau passes the gate.
    assert al.a_to_b.source.tolist() == [0, 1] and al.a_to_b.target.tolist() == [0, 0]
    assert al.b_to_a.source.tolist() == [0, 1] and al.b_to_a.target.tolist() == [0, 1]
    assert al.a_to_b.accepted(0.7).tolist() == [True, False]
    np.testing.assert_allclose(al.a_to_b.magnitude, [hand_magnitude(4, 3.5), hand_magnitude(100, 3.5)])
    s_num, s_ab, s_ba = numeric_similarity(al, 0.7)
    # a -> b: a0 -> b0 valid (0.8), a1 -> b0 invalid (0.6 < 0.7). b -> a: b0 -> a0 valid, b1 -> a1 invalid.
    ab = hand_magnitude(4, 3.5) / 2
    ba = hand_magnitude(3.5, 4) / 2
    assert s_ab[0] == pytest.approx(ab, abs=1e-6)
    assert s_ba[0] == pytest.approx(ba, abs=1e-6)
    assert s_num[0] == pytest.approx((ab + ba) / 2, abs=1e-6)
    # At tau = 0.5 the a1 match counts too, but it aligned to b0 (value 3.5), not b1.
    s_num = al.numeric_similarity(0.5).s_num
    expected_ab = (hand_magnitude(4, 3.5) + hand_magnitude(100, 3.5)) / 2
    expected_ba = (hand_magnitude(3.5, 4) + hand_magnitude(90, 100)) / 2
    assert s_num[0] == pytest.approx((expected_ab + expected_ba) / 2, abs=1e-6)


def test_edge_cases_no_numbers_and_one_sided():
    vectors = _unit([1, 0], [0, 1])
    values = np.array([5.0, 6.0])
    offsets, counts = np.array([0, 0, 1]), np.array([0, 1, 1])  # text 0 has no numbers
    al = align(vectors, values, offsets, counts, [0, 0, 1, 2], [0, 1, 0, 2])
    s_num = al.numeric_similarity(0.3).s_num
    assert s_num.tolist() == [1.0, 0.0, 0.0, 1.0]


def test_many_to_one_alignment_is_a_mean_over_the_source_side():
    # Three mentions of a (5, 5, 7) all pick the single mention of b (5): S(a->b) is the mean of their three
    # contributions over |V_a| = 3, no cap needed; b's one mention finds a 5, so S(b->a) = 1 / |V_b| = 1.
    vectors = _unit([1, 0], [1, 0.01], [1, 0.02], [1, 0])
    values = np.array([5.0, 5.0, 7.0, 5.0])
    al = align(vectors, values, [0, 3], [3, 1], [0], [1])
    s_num, s_ab, s_ba = al.numeric_similarity(0.5)
    m = 1 / (1 + 2 / (1 + 6))  # magnitude similarity of 7 and 5: N = 1 + (7 + 5) / 2
    assert s_ab[0] == pytest.approx((1 + 1 + m) / 3) and s_ba[0] == pytest.approx(1.0)
    assert s_num[0] == pytest.approx(((1 + 1 + m) / 3 + 1) / 2)


def test_idf_weights_and_alpha_by_hand():
    corpus = ["revenue rose [NUM]", "revenue fell", "profit rose [NUM] to [NUM]", "revenue fell"]
    idf = IDF.from_masked(corpus)
    assert idf.n_documents == 3  # the repeated sentence counts once
    w = lambda df: math.log(4 / (df + 1)) + 1  # noqa: E731
    assert idf.weight("revenue") == pytest.approx(w(2))
    assert idf.weight("[NUM]") == pytest.approx(w(2))
    assert idf.weight("unseen") == pytest.approx(w(0))
    w_text, w_num = idf.masses("Revenue rose [NUM].", "Profit rose [NUM].")
    assert w_text == pytest.approx(w(2) + w(2) + w(1) + w(2))
    assert w_num == pytest.approx(2 * w(2))
    assert alpha_from_masses(w_text, w_num) == pytest.approx(w_text / (w_text + w_num))
    assert alpha_from_masses(0.0, 0.0) == 1.0
    alphas = pair_alphas(idf, ["Revenue rose [NUM].", "a"], ["Profit rose [NUM].", "b"])
    assert alphas.tolist() == [pytest.approx(w_text / (w_text + w_num)), 1.0]


def test_mix_is_the_alpha_weighted_sum_clipped():
    alpha, text, num = np.array([0.75, 1.0, 0.5]), np.array([1.0, 0.3, 1.0]), np.array([0.3898, 0.0, 1.0])
    np.testing.assert_allclose(mix(alpha, text, num), [0.75 + 0.25 * 0.3898, 0.3, 1.0])
    assert mix(np.array([0.5]), np.array([1.5]), np.array([1.5]))[0] == 1.0


def test_mixing_tokens_split_words_numbers_and_chinese():
    assert mixing_tokens("Sales rose [NUM], to EUR [NUM]!") == ["sales", "rose", "[NUM]", "to", "eur", "[NUM]"]
    assert mixing_tokens("营收增长[NUM]") == ["营", "收", "增", "长", "[NUM]"]


def test_idf_json_round_trip_and_errors(tmp_path):
    idf = IDF.from_masked(["a [NUM] b", "a c"])
    loaded = IDF.load(idf.save(tmp_path / "idf.json"))
    assert loaded.weight("a") == idf.weight("a") and loaded.weight("[NUM]") == idf.weight("[NUM]")
    fixed = IDF.load(IDF.from_dict({"revenue": 2.0, "[NUM]": 1.5}).save(tmp_path / "fixed.json"))
    assert fixed.weight("Revenue".lower()) == 2.0 and fixed.weight("other") == 2.0
    (tmp_path / "bad.json").write_text('{"df": {"a": 1},\n "n_documents": }')
    with pytest.raises(ValueError, match="line 2"):
        IDF.load(tmp_path / "bad.json")
    (tmp_path / "shape.json").write_text(json.dumps([1, 2]))
    with pytest.raises(ValueError, match="expected an object"):
        IDF.load(tmp_path / "shape.json")
    with pytest.raises(ValueError, match=r"\[NUM\]"):
        IDF.from_dict({"a": 1.0})
    with pytest.raises(ValueError, match="finite"):
        IDF.from_dict({"a": float("nan"), "[NUM]": 1.0})


def test_bertscore_greedy_matching_by_hand():
    # hyp tokens h0, h1; ref tokens r0, r1, r2 (all unit vectors); weights 1 except a special token (0).
    h = torch.tensor([[1.0, 0.0], [0.6, 0.8]])
    r = torch.tensor([[0.0, 1.0], [0.8, 0.6], [1.0, 0.0]])
    hw, rw = np.array([1.0, 1.0]), np.array([1.0, 1.0, 0.0])
    p, rr, f = bertscore([h], [r], [hw], [rw], torch.device("cpu"))
    sim = (h @ r.T).numpy()
    p_hand = sim.max(1).mean()
    r_hand = sim.max(0)[:2].mean()
    assert p[0] == pytest.approx(p_hand, abs=1e-6) and rr[0] == pytest.approx(r_hand, abs=1e-6)
    assert f[0] == pytest.approx(2 * p_hand * r_hand / (p_hand + r_hand), abs=1e-6)


def test_bertscore_padding_never_wins_a_max():
    # All similarities negative: a padded zero must not be picked (bert-score's batched quirk).
    h1 = torch.tensor([[1.0, 0.0]])
    r1 = torch.tensor([[-1.0, 0.0]])
    h2 = torch.tensor([[1.0, 0.0], [0.0, 1.0], [0.0, -1.0]])
    r2 = torch.tensor([[0.0, 1.0], [1.0, 0.0], [0.6, 0.8]])
    ones = lambda n: np.ones(n)  # noqa: E731
    p, _, _ = bertscore([h1, h2], [r1, r2], [ones(1), ones(3)], [ones(1), ones(3)], torch.device("cpu"))
    assert p[0] == pytest.approx(-1.0)


def test_tau_from_vectors_is_mean_plus_std_and_seeded():
    rng = np.random.default_rng(1)
    vecs = [(lambda m: m / np.linalg.norm(m, axis=1, keepdims=True))(rng.normal(size=(k, 4))) for k in (1, 2, 3, 1)]
    # min_sentences=2: four vectors keep the hand computation below short (the default minimum is 20).
    cal = tau_from_vectors([*vecs, np.zeros((0, 4))], n_pairs=50, seed=3, min_sentences=2)
    again = tau_from_vectors(vecs, n_pairs=50, seed=3, min_sentences=2)
    assert cal.tau == again.tau and cal.n_sentences == 4
    # Recompute by hand with the same generator.
    g = np.random.default_rng(3)
    first = g.integers(0, 4, size=50)
    second = (first + g.integers(1, 4, size=50)) % 4
    cos = np.concatenate([(vecs[i] @ vecs[j].T).ravel() for i, j in zip(first, second)])
    assert cal.mu == pytest.approx(cos.mean()) and cal.sigma == pytest.approx(cos.std())
    assert cal.tau == pytest.approx(cos.mean() + cos.std())
    assert set(cal.sweep()) == {"mu-2sigma", "mu-1sigma", "mu", "mu+1sigma", "mu+2sigma"}
    with pytest.raises(ValueError, match="1 of 1 distinct sentences have a scorable number"):
        tau_from_vectors([vecs[0]], min_sentences=2)
