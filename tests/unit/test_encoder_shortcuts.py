"""The encoder's shortcuts give what the plain way gives: the fast tokenizer called directly, the layers after the
one read left out, and a batch's states normalised at once."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from nash_metric import NASH

TEXTS = ["Revenue rose 4% to $3.2 million in 2019.", "", "Ünïcode — and 12,345.67 units", "a " * 40]


@pytest.fixture(scope="module")
def one_layer(tiny_model_dir):
    """The tiny 2-layer BERT read at layer 1."""
    return NASH(model=str(tiny_model_dir), backend="token", num_layers=1, threshold=0.0, device="cpu")


def test_the_direct_tokenizer_call_equals_the_wrapper(tiny_scorer):
    encoder = tiny_scorer.encoder
    direct = encoder._tokenize(TEXTS)
    wrapped = encoder.tokenizer(TEXTS, add_special_tokens=False, return_offsets_mapping=True, truncation=False,
                                verbose=False)
    assert [ids.tolist() for ids, _ in direct] == wrapped["input_ids"]
    assert [[tuple(o) for o in offsets.tolist()] for _, offsets in direct] == [
        [tuple(o) for o in offsets] for offsets in wrapped["offset_mapping"]]


def test_a_tokenizer_that_truncates_goes_through_the_wrapper(tiny_model_dir):
    """A tokenizer.json may carry a truncation setting; the wrapper (truncation=False) lifts it, the direct call
    would not: such a tokenizer is read through the wrapper, so no token is lost."""
    scorer = NASH(model=str(tiny_model_dir), backend="token", threshold=0.0, device="cpu")
    scorer.encoder.tokenizer._tokenizer.enable_truncation(max_length=4)
    (ids, offsets), = scorer.encoder._tokenize(["one two three four five six seven"])
    assert len(ids) == len(offsets) == 7


def test_the_layers_after_the_one_read_are_left_out(one_layer, tiny_model_dir):
    from transformers import AutoModel

    assert len(one_layer.encoder.model.encoder.layer) == 1
    full = AutoModel.from_pretrained(tiny_model_dir).eval()
    assert len(full.encoder.layer) == 2
    ids, mask = one_layer.encoder.pad([[*one_layer.encoder.prefix, 2000, 2001, 2002, *one_layer.encoder.suffix]])
    with torch.inference_mode():
        expected = full(input_ids=ids, attention_mask=mask, output_hidden_states=True).hidden_states[1]
        torch.testing.assert_close(one_layer.encoder.forward(ids, mask), expected, atol=1e-6, rtol=0)


def test_every_layer_is_kept_at_the_last_layer(tiny_scorer):
    assert len(tiny_scorer.encoder.model.encoder.layer) == 2


def test_a_batch_normalised_at_once_equals_each_text_normalised_alone(tiny_scorer):
    """Each text's token states are the unit rows of its own forward pass, whatever else shares its batch."""
    texts = [t for t in TEXTS if t]
    together = tiny_scorer.encoder.encode(texts, [[] for _ in texts])
    for text, enc in zip(texts, together):
        alone = tiny_scorer.encoder.encode([text], [[]])[0]
        np.testing.assert_allclose(enc.states.numpy(), alone.states.numpy(), atol=1e-5)
        np.testing.assert_allclose(np.linalg.norm(enc.states.numpy(), axis=1), 1.0, atol=1e-5)
