"""NASHConfig: one declaration of every option, its validation, identity and generated CLI flags."""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from nash_metric.cli import add_config_arguments, config_from_args
from nash_metric.config import DEFAULT_MODEL, NASHConfig, model_bound_options, option_names, options_docstring


def test_defaults_and_option_names():
    config = NASHConfig()
    assert config.model == DEFAULT_MODEL and config.backend == "auto" and config.threshold is None
    assert option_names() == tuple(f.name for f in dataclasses.fields(NASHConfig))
    assert set(model_bound_options()) == {"model", "backend", "num_layers", "device", "batch_size", "dtype"}
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.backend = "token"  # type: ignore[misc]


@pytest.mark.parametrize(
    "options,error,match",
    [
        ({"backend": "bogus"}, ValueError, "unknown backend 'bogus'"),
        ({"threshold": 1.5}, ValueError, r"threshold must be a cosine in \[-1, 1\]"),
        ({"threshold": "high"}, ValueError, "threshold"),
        ({"threshold": True}, ValueError, "threshold"),
        ({"batch_size": 0}, ValueError, "batch_size must be a positive integer"),
        ({"num_layers": 2.5}, TypeError, "num_layers must be an integer"),
        ({"comparisons": "yes"}, TypeError, "comparisons must be True or False"),
        ({"model": ""}, ValueError, "model must be a hub id or a local path"),
        ({"layers": 6}, TypeError, "unknown NASH option 'layers'; did you mean 'num_layers'"),
    ],
)
def test_bad_options_are_explained(options, error, match):
    with pytest.raises(error, match=match):
        NASHConfig.from_options(**options)


def test_values_are_normalised():
    from pathlib import Path

    config = NASHConfig(model=Path("/models/x"), threshold=0)  # type: ignore[arg-type]
    assert config.model == "/models/x" and config.threshold == 0.0 and isinstance(config.threshold, float)


def test_replace_and_digest():
    base = NASHConfig(threshold=0.4)
    assert base.replace(threshold=0.5).threshold == 0.5 and base.threshold == 0.4
    assert base.digest() == NASHConfig(threshold=0.4).digest() != base.replace(threshold=0.5).digest()
    # Only model-bound options move the model digest.
    assert base.model_digest() == base.replace(threshold=0.5, comparisons=True).model_digest()
    assert base.model_digest() != base.replace(backend="token").model_digest()
    # IDF dicts and corpora are hashed by content (and make the config hashable).
    a, b = NASHConfig(idf={"[NUM]": 1.0, "x": 2.0}), NASHConfig(idf={"x": 2.0, "[NUM]": 1.0})
    assert a.digest() == b.digest() and hash(a) == hash(b) and a == b
    assert NASHConfig(idf=["a", "b"]).digest() != NASHConfig(idf=["a", "c"]).digest()


def test_cli_flags_are_generated_from_the_config():
    parser = argparse.ArgumentParser()
    add_config_arguments(parser)
    flags = {a.dest: a.option_strings[0] for a in parser._actions if a.option_strings and a.dest != "help"}
    assert flags == {name: "--" + name.replace("_", "-") for name in option_names()}
    args = parser.parse_args(["--num-layers", "4", "--threshold", "auto", "--comparisons", "--backend", "token"])
    config = config_from_args(args, batch_size=8)
    assert (config.num_layers, config.threshold, config.comparisons, config.backend, config.batch_size) == (
        4,
        "auto",
        True,
        "token",
        8,
    )
    assert config_from_args(parser.parse_args(["--threshold", "0.25"])).threshold == 0.25
    with pytest.raises(SystemExit):
        parser.parse_args(["--threshold", "abc"])


def test_docstring_lists_every_option():
    text = options_docstring(rename={"model": "model_type"})
    assert "model_type (default" in text and "    model (default" not in text
    for name in option_names():
        if name != "model":
            assert f"{name} (default" in text


def test_an_option_error_names_its_options_for_each_front_end():
    from nash_metric.config import OptionError, OptionTypeError

    with pytest.raises(OptionError) as bad:
        NASHConfig(numbers="paper", text_channel="one-pass")
    assert bad.value.options == ("numbers", "text_channel", "numbers")
    assert str(bad.value).startswith("numbers='paper' reproduces") and "text_channel='one-pass'" in str(bad.value)
    spelled = bad.value.spelled(lambda name: "--" + name.replace("_", "-"))
    assert spelled.startswith("--numbers='paper'") and "--text-channel='one-pass'" in spelled
    with pytest.raises(OptionTypeError, match="num_layers must be an integer") as typed:
        NASHConfig(num_layers="six")
    assert isinstance(typed.value, TypeError) and isinstance(typed.value, ValueError)
