"""The one-pass text channel (the default, `text_channel="one-pass"`): one forward pass per text, in which the
words cannot attend to the numbers (a 4-D additive mask, positions counted without the numbers) and the numbers
read every token.

Checked against hand computations on the model itself: the words' states are those of the text without its
numbers encoded alone (token and sentence backbones), a number changes no word's state, a word changes the
numbers' vectors, SDPA and eager attention agree, no second pass runs unless the baseline is asked for, and the
baseline is then the plain pass's.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from nash_metric import NASH, NASHConfig
from nash_metric.backbone.encoders import channel_view, position_offset
from nash_metric.pipeline.pool import TextPool

PAIRS = [
    ("Revenue rose 4% to $3.2 million in 2019.", "Revenue rose 40% to $3.5 million in 2019."),
    ("Sales grew 5-10% this year.", "Sales grew between 5 and 10 % this year."),
    ("No figures at all here.", "Nothing numeric either."),
    ("4%", "Revenue rose 4%."),  # a text that is all number: its text channel is empty
]
PREDS, REFS = [a for a, _ in PAIRS], [b for _, b in PAIRS]


def _channel_states(scorer: NASH, text: str) -> torch.Tensor:
    """The states the one-pass text channel keeps of `text` (its words and special tokens)."""
    left_out = TextPool.build([text], "full", one_pass=True).left_out[text]
    return channel_view(scorer.encoder.encode([text], [[]], left_out=[left_out])[0]).states


def test_the_words_states_are_those_of_the_text_without_its_numbers(tiny_scorer):
    """`Revenue rose in to in .` encoded alone gives the very states the words of the full text get in one pass."""
    for text in (PAIRS[0][0], PAIRS[1][1]):
        without = TextPool.build([text], "full").channel[text]
        alone = tiny_scorer.encoder.encode([without], [[]])[0]
        kept = _channel_states(tiny_scorer, text)
        assert kept.shape == alone.states.shape, (text, without)
        torch.testing.assert_close(kept, alone.states, atol=1e-5, rtol=0)


def test_no_number_reaches_a_word_but_every_word_reaches_the_numbers(tiny_scorer):
    a, b = PAIRS[0]  # the same words, other numbers
    torch.testing.assert_close(_channel_states(tiny_scorer, a), _channel_states(tiny_scorer, b), atol=1e-6, rtol=0)
    out = tiny_scorer.score([a], [b])
    assert out.text[0] == pytest.approx(1.0, abs=1e-6)  # S_text cannot see the numbers
    spans = [[(13, 15)], [(13, 15)]]  # "4%" in two texts that differ in a word only
    texts = ["Revenue rose 4% to $3.2 million in 2019.", "Revenue fell 4% to $3.2 million in 2019."]
    left_out = [TextPool.build([t], "full", one_pass=True).left_out[t] for t in texts]
    first, second = tiny_scorer.encoder.encode(texts, spans, left_out=left_out)
    assert texts[0][13:15] == texts[1][13:15] == "4%"
    # "4%" read "rose" in one, "fell" in the other (far beyond float noise, on the tiny random model too)
    assert np.abs(first.mention_vectors[0] - second.mention_vectors[0]).max() > 1e-4


def test_sentence_channel_is_the_models_embedding_of_the_text_without_its_numbers(tiny_sentence_scorer):
    a, b = PAIRS[0]
    model = tiny_sentence_scorer.encoder.model
    pool = TextPool.build([a, b], "full")
    alone = torch.nn.functional.normalize(model.encode([pool.channel[a], pool.channel[b]], convert_to_tensor=True),
                                          dim=-1)
    expected = float(alone[0] @ alone[1])
    assert tiny_sentence_scorer.score([a], [b]).text[0] == pytest.approx(expected, abs=1e-5)


@pytest.mark.parametrize("backend", ["token", "sentence"])
def test_one_pass_reads_s_text_as_the_two_pass_channel_does(tiny_model_dir, backend):
    """Where the text without its numbers tokenizes as the full text's words (all pairs here), the two text
    channels agree to float rounding."""
    one = NASH(model=str(tiny_model_dir), backend=backend, threshold=0.0, device="cpu")
    two = one.with_options(text_channel="two-pass")
    x, y = one.score(PREDS, REFS), two.score(PREDS, REFS)
    for field in ("text", "text_precision", "text_recall", "alpha"):
        np.testing.assert_allclose(getattr(x, field), getattr(y, field), atol=1e-5, err_msg=field)
    assert x.text[3] == 0.0  # "4%" leaves nothing to compare: empty against a non-empty text, as bert-score


def test_sdpa_and_eager_attention_agree_on_the_number_blind_mask(tiny_model_dir):
    scorers = {}
    for implementation in ("sdpa", "eager"):
        scorer = NASH(model=str(tiny_model_dir), backend="token", threshold=0.0, device="cpu", batch_size=3)
        scorer.encoder.model.set_attn_implementation(implementation)
        scorers[implementation] = scorer.score(PREDS, REFS)
    for field in ("text", "numeric", "nash"):
        np.testing.assert_allclose(getattr(scorers["sdpa"], field), getattr(scorers["eager"], field), atol=1e-5)


def test_one_pass_encodes_each_distinct_text_once_and_the_baseline_adds_one_plain_pass(tiny_scorer, monkeypatch):
    encoder, seen = tiny_scorer.encoder, []
    forward = encoder.forward

    def counting(ids, mask, positions=None):
        seen.append((int(ids.shape[0]), mask.dim()))
        return forward(ids, mask, positions)

    monkeypatch.setattr(encoder, "forward", counting)
    distinct = len(set(PREDS + REFS))
    out = tiny_scorer.score(PREDS, REFS)
    assert out.baseline is None and "baseline" not in out.columns()
    assert sum(n for n, _ in seen) == distinct and {d for _, d in seen} == {4}  # one number-blind pass each
    seen.clear()
    with_base = tiny_scorer.with_options(baseline=True).score(PREDS, REFS)
    assert sum(n for n, d in seen if d == 2) == distinct  # and one plain pass each for the baseline
    np.testing.assert_array_equal(with_base.nash, out.nash)  # which changes no score
    seen.clear()
    tiny_scorer.with_options(text_channel="two-pass", baseline=True).score(PREDS, REFS)
    assert sum(n for n, _ in seen) > distinct and {d for _, d in seen} == {2}  # the texts without numbers apart


def test_the_baseline_is_the_backbones_plain_score(tiny_scorer):
    """baseline=True: BERTScore F1 of the originals as a plain pass gives it, whichever text channel."""
    one = tiny_scorer.with_options(baseline=True).score(PREDS, REFS)
    two = tiny_scorer.with_options(baseline=True, text_channel="two-pass").score(PREDS, REFS)
    for field in ("baseline", "baseline_precision", "baseline_recall"):
        np.testing.assert_allclose(getattr(one, field), getattr(two, field), atol=1e-6, err_msg=field)
    assert one.baseline[2] == pytest.approx(one.text[2], abs=1e-6)  # no numbers: the channel is the text itself


def test_long_texts_are_read_number_blind_window_by_window(tiny_scorer):
    """Past the 64-token window of the tiny model: the kept rows cover every window's tokens, and no number
    reaches them (two texts that differ in their numbers only keep the same states)."""
    texts = [" ".join(f"Segment {i} reported revenue of ${i + k}.5 million and margin of {i % 7 + k}%."
                      for i in range(20)) for k in (0, 3)]
    first, second = (_channel_states(tiny_scorer, t) for t in texts)
    left_out = TextPool.build([texts[0]], one_pass=True).left_out[texts[0]]
    e = tiny_scorer.encoder.encode([texts[0]], [[]], left_out=[left_out])[0]
    assert e.n_windows > 1 and first.shape[0] == int(e.channel_keep.sum()) < e.states.shape[0]
    torch.testing.assert_close(first, second, atol=1e-5, rtol=0)


def test_position_ids_start_where_the_model_starts_them():
    from transformers import BertConfig, BertModel, RobertaConfig, RobertaModel

    small = {"hidden_size": 8, "num_hidden_layers": 1, "num_attention_heads": 2, "intermediate_size": 16,
             "vocab_size": 50, "max_position_embeddings": 40}
    assert position_offset(BertModel(BertConfig(**small))) == 0
    assert position_offset(RobertaModel(RobertaConfig(**small, pad_token_id=1))) == 2  # padding index + 1
    assert position_offset(None) is None


def test_the_option_is_declared_once_and_named_in_the_hashcode(tiny_scorer):
    assert NASHConfig().text_channel == "auto" and NASHConfig().one_pass and not NASHConfig().baseline
    assert not NASHConfig(numbers="paper").one_pass  # the paper's reader keeps its masked second pass
    assert tiny_scorer.echo["text_channel"] == "one-pass" and "_twopass" not in tiny_scorer.hashcode
    two = tiny_scorer.with_options(text_channel="two-pass")
    assert "_twopass" in two.hashcode and two.echo["text_channel"] == "two-pass"
    assert tiny_scorer.with_options(text_channel="one-pass").hashcode == tiny_scorer.hashcode
    assert tiny_scorer.with_options(baseline=True).hashcode == tiny_scorer.hashcode  # it changes no score
    with pytest.raises(ValueError, match="paper"):
        NASHConfig(numbers="paper", text_channel="one-pass")
    with pytest.raises(ValueError, match="text_channel"):
        NASHConfig(text_channel="three-pass")
