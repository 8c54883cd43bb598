"""The tiny BERT's weights come from a seeded numpy draw, not from transformers' or torch's initialisation."""

from __future__ import annotations

import hashlib

import torch
from safetensors.torch import load_file
from transformers import BertConfig, BertModel

# sha256 over the sorted (name, float32 bytes) of the tiny BERT's weights (tests/conftest.py:tiny_model_dir).
TINY_WEIGHTS = "155cc8f518aa7b931f50442ae462d6c53fdc30735612694d0501d82fea10f344"


def digest(state: dict) -> str:
    h = hashlib.sha256()
    for name, tensor in sorted(state.items()):
        if tensor.is_floating_point():
            h.update(name.encode())
            h.update(tensor.to(torch.float32).contiguous().numpy().tobytes())
    return h.hexdigest()


def test_the_tiny_weights_do_not_depend_on_torchs_seed(seeded_state) -> None:
    config = BertConfig(vocab_size=50, hidden_size=8, num_hidden_layers=1, num_attention_heads=2, intermediate_size=16)
    drawn = []
    for torch_seed in (0, 1):
        torch.manual_seed(torch_seed)
        drawn.append(digest(seeded_state(BertModel(config).state_dict(), seed=0)))
    assert drawn[0] == drawn[1]
    assert digest(seeded_state(BertModel(config).state_dict(), seed=1)) != drawn[0]


def test_the_tiny_model_on_disk_has_the_pinned_weights(tiny_model_dir) -> None:
    assert digest(load_file(tiny_model_dir / "model.safetensors")) == TINY_WEIGHTS
