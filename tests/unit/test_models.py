"""Model resolution: the backbone 'auto' picks, and failing fast on a hub id that cannot load."""

from __future__ import annotations

import time

import pytest

from nash_metric.backbone.models import ResolvedModel, check_available, choose_backend


@pytest.fixture
def sentence_model(tmp_path) -> ResolvedModel:
    (tmp_path / "config.json").write_text("{}")
    (tmp_path / "modules.json").write_text("[]")  # what makes a folder a sentence-transformers model
    return ResolvedModel(str(tmp_path), str(tmp_path), "local")


def test_auto_picks_sentence_for_sentence_transformers(sentence_model):
    assert choose_backend("auto", sentence_model) == "sentence"
    assert choose_backend("token", sentence_model) == "token"


def test_a_layer_implies_the_token_backbone_under_auto(sentence_model):
    # The docs show `--num-layers 6` without `--backend token`; a layer only means something to token.
    assert choose_backend("auto", sentence_model, num_layers=6) == "token"
    assert choose_backend("sentence", sentence_model, num_layers=6) == "sentence"  # explicit wins (encoder refuses)


def test_uncached_hub_id_fails_fast_offline(monkeypatch):
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    start = time.perf_counter()
    with pytest.raises(OSError, match=r"'no-such-org/no-such-model'.*not in the Hugging Face cache.*HF_HUB_OFFLINE"):
        check_available(ResolvedModel("no-such-org/no-such-model", "no-such-org/no-such-model", "hub"))
    assert time.perf_counter() - start < 5


def test_local_models_need_no_probe(sentence_model, monkeypatch):
    from huggingface_hub import constants, utils

    def no_network():
        raise AssertionError("a local model must not probe the hub")

    monkeypatch.setattr(utils, "get_session", no_network)
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)  # a hub id would now fail: a local one must not
    assert sentence_model.source != "hub" and check_available(sentence_model) is None


def test_the_layer_table_is_bert_scores():
    """The core install ships bert-score's layer table instead of the package; the copy must stay its table."""
    from nash_metric.backbone.models import bertscore_layers, default_num_layers

    utils = pytest.importorskip("bert_score.utils")
    assert bertscore_layers() == utils.model2layers
    assert default_num_layers(ResolvedModel("roberta-large", "roberta-large", "hub"), 24) == 17
    assert default_num_layers(ResolvedModel("my/model", "my/model", "hub"), 7) == 7
