"""The config echo and the hashcode follow NASHConfig: every option declares whether it changes scores
(`option(scores=...)`), and exactly those are echoed and digested.

The tests iterate over the config's fields, so an option added without an entry here fails them.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from nash_metric.calibration.rescale import RESCALED_FIELDS, RescaleBaseline, fitted_options
from nash_metric.config import option_names, score_options, scorer_options
from nash_metric.pipeline.echo import PROVENANCE, RESOLVERS, hashcode, score_determinants

VERSIONS = {"nash_metric", "transformers"}
A = ["Revenue increased by 4% in 2019.", "No numbers here.", "Costs fell 1.2 million.", "Shares above 200 rose.",
     "Two friends met.",  # a count in words: judged only by verdict="argmax"
     "It has 256 GB of storage."]  # against data whose keys only a glossary reads
B = ["Revenue increased by 40% in 2019.", "Nothing numeric.", "Costs fell.", "Shares of ABC at 180 rose.",
     "Friends met.", '{"a1": 16, "b2": 256}']


def _perturbed_copy(source: Path, target: Path) -> Path:
    """The tiny model with noise on its weights: another model."""
    import torch
    from transformers import BertModel

    shutil.copytree(source, target)
    model = BertModel.from_pretrained(source)
    torch.manual_seed(1)
    with torch.no_grad():
        for weight in model.parameters():
            weight.add_(0.1 * torch.randn_like(weight))
    model.save_pretrained(target)
    return target


@pytest.fixture(scope="module")
def changes(tiny_model_dir, tiny_scorer, tmp_path_factory) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """Per option, two sets of changes to the tiny scorer that differ in that option alone (baseline_path only
    counts with rescaling on, and the tiny model has no shipped baseline: rescaling on needs a path)."""
    folder = tmp_path_factory.mktemp("hashcode")
    other = _perturbed_copy(tiny_model_dir, folder / "other")
    fitted = fitted_options(tiny_scorer.echo)
    paths = [str(RescaleBaseline(dict.fromkeys(RESCALED_FIELDS, b), fitted).save(folder / f"{b}.json"))
             for b in (0.1, 0.2)]
    rescaled = {"rescale_with_baseline": True, "baseline_path": paths[0]}
    return {
        "model": ({}, {"model": str(other)}),
        "backend": ({}, {"backend": "sentence"}),
        "num_layers": ({}, {"num_layers": 1}),
        "threshold": ({}, {"threshold": 0.9}),  # the "200" / "180" match (cosine 0.84) falls below it
        "idf": ({}, {"idf": {"[NUM]": 2.0, "revenue": 3.0}}),
        "device": ({"device": "cpu"}, {"device": None}),
        "batch_size": ({}, {"batch_size": 2}),
        "dtype": ({}, {"dtype": "bfloat16"}),
        "chunk_size": ({}, {"chunk_size": 1}),
        "workers": ({}, {"workers": 1}),
        "comparisons": ({}, {"comparisons": True}),
        "numbers": ({}, {"numbers": "paper"}),
        "text_channel": ({}, {"text_channel": "two-pass"}),
        "baseline": ({}, {"baseline": True}),
        "verdict": ({}, {"verdict": "argmax"}),
        "bertscore_idf": ({}, {"bertscore_idf": True}),
        "rescale_with_baseline": ({}, rescaled),
        "baseline_path": (rescaled, {**rescaled, "baseline_path": paths[1]}),
        # "b2" read as "memory", "a1" as "storage": the 256 is then bound to another key (misplaced)
        "glossary": ({}, {"glossary": {"a1": "storage", "b2": "memory"}}),
    }


def test_every_option_is_echoed_resolved_or_as_given_or_is_declared_score_neutral(tiny_scorer):
    echo, expected = tiny_scorer.echo, set(VERSIONS)
    assert set(RESOLVERS) <= set(score_options()), "a resolver for an option that is not declared to change scores"
    for spec in scorer_options():
        if spec.name in RESOLVERS:
            resolver = RESOLVERS[spec.name]
            expected |= {resolver.key, *([resolver.key + PROVENANCE] if resolver.source else [])}
        elif spec.scores:
            assert echo[spec.name] == getattr(tiny_scorer.config, spec.name), spec.name
            expected.add(spec.name)
        else:
            assert spec.name not in echo, spec.name
    assert set(echo) == expected


def test_the_hashcode_digests_every_entry_of_the_echo_but_provenance(tiny_scorer):
    echo = tiny_scorer.echo
    determinants = score_determinants(echo)
    assert set(determinants) == {key for key in echo if not key.endswith(PROVENANCE)} and set(determinants) >= VERSIONS
    for key in echo:
        changed = hashcode({**echo, key: "something else"})
        assert (changed != hashcode(echo)) == (key in determinants), key


@pytest.mark.parametrize("name", option_names())
def test_an_option_moves_the_hashcode_exactly_when_it_is_declared_to_change_scores(tiny_scorer, changes, name):
    assert set(changes) == set(option_names()), "give every option a change in the `changes` fixture"
    before, after = (tiny_scorer.with_options(**change) for change in changes[name])
    assert getattr(before.config, name) != getattr(after.config, name)
    first, second = before.score(A, B), after.score(A, B)
    # The pairs show every score-changing option at work, so an option declared neutral that is not fails here.
    moved = [f for f in set(first.fields) & set(second.fields)  # the baseline's fields: with baseline=True
             if not np.allclose(getattr(first, f), getattr(second, f), rtol=0, atol=1e-6)]
    # The figures' context cosines too: the text channel's pass gives the numbers their vectors.
    cosines = [np.array([v["cosine"] for pair in out.figure_verdicts for v in pair], float) for out in (first, second)]
    if len(cosines[0]) == len(cosines[1]) and not np.allclose(*cosines, rtol=0, atol=1e-6, equal_nan=True):
        moved.append("figure_verdicts cosine")
    assert bool(moved) == (name in score_options()), f"{name} moved {moved or 'no score'}"
    assert (before.hashcode != after.hashcode) == (name in score_options())
    assert first.hashcode == before.hashcode and second.hashcode == after.hashcode
