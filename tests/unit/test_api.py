"""The public API on a tiny random BERT: nash_score, NASHOutput.to_dict, NASH(config), with_options."""

from __future__ import annotations

import ast
import inspect
import json

import numpy as np
import pytest

import nash_metric.scorer
from nash_metric import NASH, NASHConfig, nash_score
from nash_metric.config import scorer_options
from nash_metric.pipeline.output import public_fields

A = ["Revenue increased by 4%.", "Revenue increased by 4%.", "No numbers here."]
B = ["Revenue increased by 3.56%.", "Revenue increased by 40%.", "Nothing numeric."]


@pytest.fixture
def tiny_options(tiny_model_dir):
    return {"model": str(tiny_model_dir), "backend": "token", "threshold": 0.0}


def test_nash_score_equals_the_class_and_reuses_the_scorer(tiny_options, fresh_model_cache):
    from nash_metric.functional import cached_scorer

    out = nash_score(A, B, **tiny_options)
    np.testing.assert_array_equal(out.nash, NASH(**tiny_options).score(A, B).nash)
    again = nash_score(A, B, **tiny_options)
    np.testing.assert_array_equal(again.nash, out.nash)
    config = NASHConfig(**tiny_options)
    loaded = cached_scorer(config)
    assert cached_scorer(config) is loaded
    assert fresh_model_cache.loaded() == [f"{config.model} [{config.model_digest()}]"]
    # options that leave the model alone derive a scorer on the same loaded model; a model-bound one loads anew
    derived = cached_scorer(config.replace(threshold=0.5))
    assert derived.encoder is loaded.encoder and derived.threshold == 0.5 and len(fresh_model_cache.loaded()) == 1
    assert cached_scorer(config.replace(batch_size=8)).encoder is not loaded.encoder
    assert len(fresh_model_cache.loaded()) == 2


def test_nash_score_rejects_unknown_options(tiny_options):
    with pytest.raises(TypeError, match="unknown NASH option 'layers'; did you mean 'num_layers'"):
        nash_score(A, B, layers=2, **tiny_options)
    with pytest.raises(TypeError, match="unknown NASH option 'layers'; did you mean 'num_layers'"):
        NASH(NASHConfig(**tiny_options), layers=2)


def _typed_init() -> ast.FunctionDef:
    """`NASH.__init__` as type checkers and IDEs read it: the declaration under `if TYPE_CHECKING:` in the class."""
    tree = ast.parse(inspect.getsource(nash_metric.scorer))
    nash = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "NASH")
    typed = next(n for n in nash.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING")
    return next(n for n in typed.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")


def test_the_typed_signature_declares_the_config_options():
    """Names, order, annotations and defaults of NASHConfig (`nash_score` takes its options from this declaration)."""
    init, specs = _typed_init(), scorer_options()
    expected = "\n".join(f"{s.name}: {s.annotation} = {s.default!r}," for s in specs)
    declared = [(p.arg, ast.unparse(p.annotation), ast.literal_eval(d))
                for p, d in zip(init.args.kwonlyargs, init.args.kw_defaults)]
    assert declared == [(s.name, ast.unparse(ast.parse(s.annotation, mode="eval")), s.default) for s in specs], (
        f"NASH.__init__'s typed declaration must list, after `config`:\n{expected}")
    assert [type(default) for *_, default in declared] == [type(s.default) for s in specs]
    assert [a.arg for a in init.args.args] == ["self", "config"] and ast.literal_eval(init.args.defaults[0]) is None


def test_to_dict_is_json_with_every_field(tiny_options):
    out = nash_score(A, B, **tiny_options)
    data = json.loads(json.dumps(out.to_dict()))
    assert set(data) == {*public_fields(baseline=False), "unsupported_numbers", "config", "hashcode", "unscored"}
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


def test_nash_score_with_several_references_keeps_the_best_and_says_which(tiny_options):
    candidates = [["Revenue increased by 40%.", "Revenue increased by 4%.", "Costs fell."], [B[0]]]
    out = nash_score(A[:2], candidates, **tiny_options)
    singles = [nash_score([a] * len(refs), refs, **tiny_options).nash for a, refs in zip(A[:2], candidates)]
    assert out.best_reference.tolist() == [int(np.argmax(s)) for s in singles]
    assert out.best_reference[0] == 1  # the identical reference wins
    np.testing.assert_allclose(out.nash, [s.max() for s in singles], atol=1e-9)


def test_config_object_and_keyword_options_agree(tiny_options):
    scorer = NASH(NASHConfig(**tiny_options, batch_size=16), comparisons=True)
    assert scorer.config == NASHConfig(**tiny_options, batch_size=16, comparisons=True)  # the keyword overrides alone
    assert scorer.echo["comparisons"] is True


def test_with_options_shares_the_model_unless_a_model_option_changes(tiny_options):
    scorer = NASH(**tiny_options)
    strict = scorer.with_options(threshold=0.9, comparisons=True)
    assert strict.encoder is scorer.encoder and strict.threshold == 0.9 and scorer.threshold == 0.0
    other = scorer.with_options(batch_size=3)
    assert other.encoder is not scorer.encoder and other.config.batch_size == 3
    np.testing.assert_allclose(other.score(A, B).nash, scorer.score(A, B).nash, atol=1e-6)


@pytest.mark.parametrize("old", ["nash_metric.output", "nash_metric.export", "nash_metric.pair_files",
                                 "nash_metric.common.moved"])
def test_the_0_2_0_deep_imports_are_gone(old):
    import importlib

    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(old)


def test_the_0_2_0_names_are_gone():
    import nash_metric.calibration
    import nash_metric.corpus
    import nash_metric.scorer

    assert not hasattr(NASH, "options")
    for module, name in ((nash_metric.scorer, "RESOLVERS"), (nash_metric.calibration, "calibrate_threshold"),
                         (nash_metric.corpus, "score_corpus")):
        with pytest.raises(AttributeError):
            getattr(module, name)
