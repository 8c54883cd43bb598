"""The public API on a tiny random BERT: nash_score, NASHOutput.to_dict, NASH(config), with_options."""

from __future__ import annotations

import json

import numpy as np
import pytest

from nash_metric import NASH, NASHConfig, nash_score
from nash_metric.output import PUBLIC_FIELDS

A = ["Revenue increased by 4%.", "Revenue increased by 4%.", "No numbers here."]
B = ["Revenue increased by 3.56%.", "Revenue increased by 40%.", "Nothing numeric."]


@pytest.fixture
def tiny(tiny_model_dir):
    return {"model": str(tiny_model_dir), "backend": "token", "threshold": 0.0}


def test_nash_score_equals_the_class_and_reuses_the_scorer(tiny):
    out = nash_score(A, B, **tiny)
    np.testing.assert_array_equal(out.nash, NASH(**tiny).score(A, B).nash)
    again = nash_score(A, B, **tiny)
    np.testing.assert_array_equal(again.nash, out.nash)
    from nash_metric.functional import cached_scorer

    assert cached_scorer.cache_info().hits >= 1  # the second call did not load the model again


def test_nash_score_rejects_unknown_options(tiny):
    with pytest.raises(TypeError, match="unknown NASH option 'layers'"):
        nash_score(A, B, layers=2, **tiny)


def test_to_dict_is_json_with_every_field(tiny):
    out = nash_score(A, B, **tiny)
    data = json.loads(json.dumps(out.to_dict()))
    assert set(data) == {*PUBLIC_FIELDS, "unsupported_numbers", "config", "hashcode", "unscored"}
    assert len(data["unsupported_numbers"]) == len(A)
    for k, entries in enumerate(data["unsupported_numbers"]):  # one entry per figure of A that is not supported
        assert all(A[k][e["start"]:e["end"]] == e["text"] for e in entries)
    assert data["nash"] == out.nash.tolist() and data["hashcode"] == out.hashcode
    assert data["config"]["backend"] == "token" and data["config"]["threshold"] == 0.0
    # The mix holds row by row in the serialised form too.
    for k in range(len(A)):
        mixed = data["alpha"][k] * data["text_similarity"][k] + (1 - data["alpha"][k]) * data["numeric_similarity"][k]
        assert data["nash"][k] == pytest.approx(mixed)
        for part in ("precision", "recall"):
            mixed = data["alpha"][k] * data[f"text_{part}"][k] + (1 - data["alpha"][k]) * data[f"numeric_{part}"][k]
            assert data[f"nash_{part}"][k] == pytest.approx(mixed)


def test_nash_score_with_several_references_keeps_the_best_and_says_which(tiny):
    candidates = [["Revenue increased by 40%.", "Revenue increased by 4%.", "Costs fell."], [B[0]]]
    out = nash_score(A[:2], candidates, **tiny)
    singles = [nash_score([a] * len(refs), refs, **tiny).nash for a, refs in zip(A[:2], candidates)]
    assert out.best_reference.tolist() == [int(np.argmax(s)) for s in singles]
    assert out.best_reference[0] == 1  # the identical reference wins
    np.testing.assert_allclose(out.nash, [s.max() for s in singles], atol=1e-9)


def test_config_object_and_keyword_options_agree(tiny):
    scorer = NASH(NASHConfig(**tiny), comparisons=True)
    assert scorer.options == NASHConfig(**tiny, comparisons=True)
    assert scorer.config["comparisons"] is True


def test_with_options_shares_the_model_unless_a_model_option_changes(tiny):
    scorer = NASH(**tiny)
    strict = scorer.with_options(threshold=0.9, comparisons=True)
    assert strict.encoder is scorer.encoder and strict.threshold == 0.9 and scorer.threshold == 0.0
    other = scorer.with_options(batch_size=3)
    assert other.encoder is not scorer.encoder and other.options.batch_size == 3
    np.testing.assert_allclose(other.score(A, B).nash, scorer.score(A, B).nash, atol=1e-6)
