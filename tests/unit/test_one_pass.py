"""The one-pass text channel (`text_channel="one-pass"`): S_text read from the originals' forward pass.

Checked against hand computations on the encoder's own outputs: BERTScore over the states of the tokens outside
the numbers (token backbone), the model's pooling over those tokens (sentence backbone), for short texts and for
texts longer than the window; and that no second pass runs.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from nash_metric import NASH, NASHConfig
from nash_metric.backbone.encoders import channel_view
from nash_metric.backbone.similarity import bertscore
from nash_metric.pipeline.pool import TextPool

PAIRS = [
    ("Revenue rose 4% to $3.2 million in 2019.", "Revenue rose 40% to $3.5 million in 2019."),
    ("Sales grew 5-10% this year.", "Sales grew between 5 and 10 % this year."),
    ("No figures at all here.", "Nothing numeric either."),
    ("4%", "Revenue rose 4%."),  # a text that is all number: its text channel is empty
]


@pytest.fixture(scope="module")
def tiny_one_pass_scorer(tiny_model_dir):
    return NASH(model=str(tiny_model_dir), backend="token", threshold=0.0, device="cpu", text_channel="one-pass")


def _channel_prf(scorer: NASH, a: str, b: str) -> tuple[float, float, float]:
    """BERTScore of the two texts' states with the tokens of their numbers (and range connectors) removed."""
    pool = TextPool.build([a, b], "full", one_pass=True)
    enc = scorer.encoder
    states, weights = [], []
    for text in (a, b):
        tok = enc.tokenize(text)
        e = enc.encode([text], [[]])[0]
        drop = np.zeros(len(tok.ids), bool)
        for start, end in pool.left_out[text]:
            drop |= np.array([s < end and t > start for s, t in tok.offsets], bool)
        keep = np.concatenate([[True] * len(enc.prefix), ~drop, [True] * len(enc.suffix)])
        states.append(e.states[torch.from_numpy(keep)])
        weights.append((~e.special[keep]).astype(np.float32))
    if not weights[0].any() or not weights[1].any():
        empty = float(weights[0].any() == weights[1].any())
        return empty, empty, empty
    p, r, f = bertscore([states[0]], [states[1]], [weights[0]], [weights[1]], torch.device("cpu"))
    return float(p[0]), float(r[0]), float(f[0])


def test_token_channel_is_bertscore_over_the_tokens_outside_the_numbers(tiny_one_pass_scorer):
    out = tiny_one_pass_scorer.score([a for a, _ in PAIRS], [b for _, b in PAIRS])
    for k, (a, b) in enumerate(PAIRS):
        p, r, f = _channel_prf(tiny_one_pass_scorer, a, b)
        assert out.text_precision[k] == pytest.approx(p, abs=1e-6)
        assert out.text_recall[k] == pytest.approx(r, abs=1e-6)
        assert out.text[k] == pytest.approx(f, abs=1e-6)
    assert out.text[3] == 0.0  # "4%" leaves nothing to compare: empty against a non-empty text, as bert-score


def test_one_pass_keeps_the_baseline_and_the_number_channel(tiny_model_dir, tiny_one_pass_scorer):
    """Only S_text (and so NASH) moves: the baseline and every number field come from the same first pass."""
    two = tiny_one_pass_scorer.with_options(text_channel="two-pass")
    preds, refs = [a for a, _ in PAIRS], [b for _, b in PAIRS]
    x, y = tiny_one_pass_scorer.score(preds, refs), two.score(preds, refs)
    for field in ("baseline", "baseline_precision", "numeric", "numeric_precision", "numeric_support", "alpha"):
        np.testing.assert_allclose(getattr(x, field), getattr(y, field), atol=1e-6, err_msg=field)
    assert x.text[2] == pytest.approx(x.baseline[2], abs=1e-6)  # no numbers: the channel is the text itself
    # Same words: two passes read identical texts (S_text 1); in one pass the words' states saw other numbers.
    assert y.text[0] == pytest.approx(1.0) and x.text[0] < 1.0 - 1e-7


def test_one_pass_encodes_each_distinct_text_once(tiny_one_pass_scorer, monkeypatch):
    encoder, seen = tiny_one_pass_scorer.encoder, []
    forward = encoder.forward

    def counting(ids, mask):
        seen.append(int(ids.shape[0]))
        return forward(ids, mask)

    monkeypatch.setattr(encoder, "forward", counting)
    preds, refs = [a for a, _ in PAIRS], [b for _, b in PAIRS]
    tiny_one_pass_scorer.score(preds, refs)
    assert sum(seen) == len(set(preds + refs))  # short texts: one window each, no text encoded twice
    seen.clear()
    tiny_one_pass_scorer.with_options(text_channel="two-pass").score(preds, refs)
    assert sum(seen) > len(set(preds + refs))  # the second pass over the texts without their numbers


def test_long_texts_channel_is_read_over_the_stitched_windows(tiny_one_pass_scorer):
    """Past the 64-token window of the tiny model: the kept rows cover every window's tokens."""
    long = " ".join(f"Segment {i} reported revenue of ${i}.5 million and margin of {i % 7}%." for i in range(20))
    left_out = TextPool.build([long], one_pass=True).left_out[long]
    e = tiny_one_pass_scorer.encoder.encode([long], [[]], left_out=[left_out])[0]
    assert e.n_windows > 1
    view = channel_view(e)
    assert view.states.shape[0] == int(e.channel_keep.sum()) < e.states.shape[0]
    encoder = tiny_one_pass_scorer.encoder
    assert not view.special[len(encoder.prefix):-len(encoder.suffix)].any()


def test_the_option_is_declared_once_and_named_in_the_hashcode(tiny_one_pass_scorer):
    assert NASHConfig().text_channel == "auto" and not NASHConfig().one_pass
    assert "_onepass" in tiny_one_pass_scorer.hashcode and tiny_one_pass_scorer.echo["text_channel"] == "one-pass"
    two = tiny_one_pass_scorer.with_options(text_channel="two-pass")
    assert "_onepass" not in two.hashcode
    assert two.hashcode == tiny_one_pass_scorer.with_options(text_channel="auto").hashcode
    with pytest.raises(ValueError, match="paper"):
        NASHConfig(numbers="paper", text_channel="one-pass")
    with pytest.raises(ValueError, match="text_channel"):
        NASHConfig(text_channel="three-pass")


def test_sentence_channel_is_the_models_mean_pooling_over_the_tokens_outside_the_numbers(tiny_sentence_scorer):
    scorer = tiny_sentence_scorer.with_options(text_channel="one-pass")
    model, (a, b) = scorer.encoder.model, PAIRS[0]
    pool = TextPool.build([a, b], one_pass=True)

    def by_hand(text: str) -> torch.Tensor:
        features = model.tokenize([text])
        with torch.inference_mode():
            states = model[0](dict(features))["token_embeddings"][0]
        offsets = scorer.encoder.tokenize(text).offsets
        keep = [not any(s < end and t > start for start, end in pool.left_out[text]) for s, t in offsets]
        rows = torch.tensor([True, *keep, True])  # [CLS] and [SEP] stay, as in the text without its numbers
        return torch.nn.functional.normalize(states[rows].mean(0), dim=-1)

    expected = float(by_hand(a) @ by_hand(b))
    assert scorer.score([a], [b]).text[0] == pytest.approx(expected, abs=1e-5)
