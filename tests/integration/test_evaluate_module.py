"""The `evaluate` metric module in metrics/nash: loading, validation, multi-reference, caching, card."""

from __future__ import annotations

import inspect
import os
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

import evaluate
import numpy as np
import pytest
import yaml
from evaluate.loading import get_imports
from packaging.requirements import Requirement

from nash_metric import NASH
from nash_metric.common.blank import BlankCount, BlankTextWarning
from nash_metric.common.validation import check_reference_lists
from nash_metric.config import NASHConfig, model_bound_options, option_default, option_names, scorer_options
from nash_metric.ecosystem.bertscore_args import ARGUMENTS as BERTSCORE_ARGUMENTS
from nash_metric.ecosystem.bertscore_args import bertscore_options
from nash_metric.pipeline.fitted import Fitted
from nash_metric.pipeline.output import PUBLIC_FIELDS, SCORE_FIELDS, public_fields

FIELDS = public_fields(baseline=False)  # every score, with its precision and recall (the baseline: on request)
OUTPUT_FIELDS = {public: attr for public, attr in zip(PUBLIC_FIELDS, SCORE_FIELDS) if public in FIELDS}


def load_metric(metric_dir: Path) -> evaluate.EvaluationModule:
    return evaluate.load(str(metric_dir))


@pytest.fixture
def metric_module(data_paths, fresh_model_cache) -> evaluate.EvaluationModule:
    """The `evaluate` module of metrics/nash, freshly loaded: no scorer cached yet."""
    return load_metric(data_paths.metric_dir)


@pytest.fixture
def tiny_module_options(tiny_model_dir) -> dict[str, Any]:
    """The module's options for the tiny BERT, as `tiny_scorer` is built: token backend, tau 0, CPU."""
    return {"model_type": str(tiny_model_dir), "backend": "token", "threshold": 0.0, "device": "cpu"}


def config_of(module_options: dict[str, Any], **changes: Any) -> NASHConfig:
    """The NASHConfig of the module's options (`model_type` is the config's `model`), with `changes`."""
    options = {("model" if name == "model_type" else name): value for name, value in module_options.items()}
    return NASHConfig(**options).replace(**changes)


@pytest.fixture
def scorers_built(monkeypatch: pytest.MonkeyPatch) -> list[NASH]:
    """Every NASH that loads its model during the test, in order: the real `NASH.__init__`, recorded (a scorer
    derived from a loaded one, `NASH(fitted)`, loads nothing and is not listed)."""
    built: list[NASH] = []
    init = NASH.__init__

    def recording_init(self: NASH, *args: Any, **kwargs: Any) -> None:
        if not (args and isinstance(args[0], Fitted)):
            built.append(self)
        init(self, *args, **kwargs)

    monkeypatch.setattr(NASH, "__init__", recording_init)
    return built


@pytest.fixture
def score_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[NASH, list, list]]:
    """Every `NASH.score` call during the test: (scorer, predictions, references); the real method still scores."""
    calls: list[tuple[NASH, list, list]] = []
    score = NASH.score

    def recording_score(self: NASH, predictions: Any, references: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append((self, list(predictions), list(references)))
        return score(self, predictions, references, *args, **kwargs)

    monkeypatch.setattr(NASH, "score", recording_score)
    return calls


# ---------------------------------------------------------------- module, card, files (no model)


def test_module_loads_with_both_feature_formats(data_paths) -> None:
    metric = load_metric(data_paths.metric_dir)
    assert metric.name == "nash"
    assert len(metric.features) == 2
    refs_types = {type(f["references"]).__name__ for f in metric.features}
    assert refs_types == {"Value", "List"} or refs_types == {"Value", "Sequence"}
    assert "NASH" in metric.info.citation and "BERTScore" in metric.info.citation


def test_import_scanner_sees_every_library(data_paths) -> None:
    # evaluate checks each scanned import is installed; a combined `import a, b` line would be misread.
    imports = get_imports(str(data_paths.metric_dir / "nash.py"))
    hints = {name: pip_name for kind, name, pip_name, _ in imports if kind == "library"}
    assert {"datasets", "evaluate", "numpy", "nash_metric"} <= set(hints)
    assert all("," not in name for name in hints)
    assert hints["nash_metric"] == "nash-metric"  # the pip name evaluate suggests when it is missing


def test_card_has_space_header_and_sections(data_paths) -> None:
    text = (data_paths.metric_dir / "README.md").read_text(encoding="utf-8")
    header = yaml.safe_load(text.split("---")[1])
    assert header["sdk"] == "gradio" and header["app_file"] == "app.py" and header["pinned"] is False
    assert {"evaluate", "metric"} <= set(header["tags"])
    for key in ("title", "emoji", "colorFrom", "colorTo", "sdk_version", "description"):
        assert header[key], key
    for section in (
        "## Metric description",
        "## How to use",
        "### Inputs",
        "## Output values",
        "## Examples",
        "## Limitations and bias",
        "## Citation",
    ):
        assert section in text, section
    assert "huang-etal-2026-nash" in text and "bert-score" in text
    lines = (data_paths.metric_dir / "requirements.txt").read_text().splitlines()
    names = {Requirement(line).name for line in lines if line.strip() and not line.startswith(("#", "-"))}
    assert names >= {"nash-metric", "evaluate", "gradio"}


def test_widget_builds_with_current_gradio(data_paths) -> None:
    gr = pytest.importorskip("gradio")
    sys.path.insert(0, str(data_paths.metric_dir))
    try:
        import app  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(data_paths.metric_dir))
    widget = app.build_widget(app.load_module())
    assert isinstance(widget, gr.Interface)
    assert widget.title == "Metric: nash"


# ---------------------------------------------------------------- input validation (no model)


BAD_INPUTS = [
    (["a", "b"], ["a"], ValueError, "predictions has 2 items but references has 1"),
    ("a text", "a text", TypeError, "predictions must be a list"),
    (["a"], None, TypeError, "references must be a list"),
    (["a", None], ["a", "b"], TypeError, r"predictions\[1\] is None"),
    (["a", 3], ["a", "b"], TypeError, r"predictions\[1\] is int"),
    (["a", "b"], ["a", None], TypeError, r"references\[1\] is None"),
    (["a", "b"], [["a"], []], ValueError, r"references\[1\] is an empty list"),
    (["a", "b"], [["a"], ["b", None]], TypeError, r"references\[1\]\[1\] is None"),
    (["a", "b"], [["a"], ["b", 3]], TypeError, r"references\[1\]\[1\] is int"),
    (["a", "b"], [["a"], "b"], TypeError, r"references\[1\] is a str but references\[0\] is a list"),
    (["a", "b"], ["a", ["b"]], TypeError, r"references\[1\] is a list but references\[0\] is a str"),
    (["a"], [3], TypeError, r"references\[0\] must be a str or a list of str"),
    (["", None], ["a", "b"], TypeError, r"predictions\[1\] is None"),  # a blank text is fine, None is not
]


@pytest.mark.parametrize(("predictions", "references", "error", "match"), BAD_INPUTS)
def test_bad_input_names_the_problem(
    metric_module: evaluate.EvaluationModule, scorers_built: list[NASH], predictions: Any, references: Any,
    error: type, match: str,
) -> None:
    with pytest.raises(error, match=match) as raised:
        metric_module.compute(predictions=predictions, references=references)
    assert scorers_built == []  # rejected before any scorer (model) is built
    # one check for the library and the module: the same fault is the same error, word for word
    with pytest.raises(error) as direct:
        check_reference_lists(predictions, references)
    assert str(raised.value) == str(direct.value)


def test_empty_input_gives_empty_result(
    metric_module: evaluate.EvaluationModule, tiny_module_options: dict[str, Any], tiny_scorer: NASH
) -> None:
    # as the library (`NASH.score([], [])`): empty lists, with the configuration's hashcode
    out = metric_module.compute(predictions=[], references=[], **tiny_module_options)
    assert {field: out[field] for field in FIELDS} == {field: [] for field in FIELDS}
    assert out["hashcode"] == metric_module.cached_scorer.hashcode == tiny_scorer.hashcode
    scored = metric_module.compute(predictions=["Revenue rose 4%."], references=[["Revenue rose 5%."]],
                                   **tiny_module_options)
    assert scored["nash"] == pytest.approx(tiny_scorer.score(["Revenue rose 4%."], ["Revenue rose 5%."]).nash.tolist())


def test_blank_texts_are_scored_zero_with_the_engines_warning(
    metric_module: evaluate.EvaluationModule, tiny_module_options: dict[str, Any]
) -> None:
    with pytest.warns(BlankTextWarning) as caught:
        out = metric_module.compute(predictions=["", "Revenue rose 4%.", "  ", "Costs fell 2%."],
                                    references=["Revenue rose 4%.", "", "\t", "Costs fell 3%."], **tiny_module_options)
    assert [str(w.message) for w in caught if w.category is BlankTextWarning] == [BlankCount(2, 2, 0).message()]
    for field in FIELDS:
        expected = {"alpha": 1.0, "numeric_support": None}.get(field, 0.0)
        if expected is not None:
            assert out[field][:3] == [expected] * 3, field
    assert out["nash"][3] > 0
    metric_module.add_batch(predictions=["", "a"], references=[["x", " "], ["y"]])  # add and add_batch take them too
    metric_module.add(prediction="b", reference=[""])
    with pytest.warns(BlankTextWarning, match=r"3 blank texts \(1 prediction, 2 references\)"):
        listed = metric_module.compute(**tiny_module_options)
    assert listed["nash"][0] == listed["nash"][2] == 0.0 and listed["best_reference"] == [0, 0, 0]


def test_add_checks_each_example(
    metric_module: evaluate.EvaluationModule, tiny_module_options: dict[str, Any], tiny_scorer: NASH
) -> None:
    with pytest.raises(ValueError, match=r"references\[0\] is an empty list"):
        metric_module.add(prediction="a", reference=[])
    metric_module.add(prediction="Revenue rose 4%.", reference=["Revenue rose 40%.", "Revenue rose 4%."])
    with pytest.raises(TypeError, match=r"references\[0\]\[1\] is int"):
        metric_module.add(prediction="b", reference=["y", 3])  # evaluate would quote every reference: '"y"'
    metric_module.add_batch(predictions=["Costs fell 2%."], references=[["Costs fell 3%."]])
    expected = tiny_scorer.score(["Revenue rose 4%.", "Costs fell 2%."],
                                 [["Revenue rose 40%.", "Revenue rose 4%."], ["Costs fell 3%."]])
    out = metric_module.compute(**tiny_module_options)
    assert out["nash"] == pytest.approx(expected.nash.tolist()) and out["best_reference"] == [1, 0]


def test_add_batch_rejects_a_mixed_batch(
    metric_module: evaluate.EvaluationModule, tiny_module_options: dict[str, Any], tiny_scorer: NASH
) -> None:
    with pytest.raises(TypeError, match=r"references\[1\] is a str but references\[0\] is a list"):
        metric_module.add_batch(predictions=["a", "b"], references=[["x"], "yz"])
    metric_module.add_batch(predictions=["a", "b"], references=["x", "yz"])
    assert metric_module.compute(**tiny_module_options)["nash"] == pytest.approx(
        tiny_scorer.score(["a", "b"], ["x", "yz"]).nash.tolist())


def test_evaluate_alone_would_corrupt_mixed_references(
    metric_module: evaluate.EvaluationModule, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Why the module overrides `add_batch`/`add`: evaluate's own encoding turns bad rows into valid-looking data.

    If this starts failing, evaluate validates by itself and the two overrides in nash.py can go.
    """
    seen: dict[str, Any] = {}
    monkeypatch.setattr(metric_module, "_compute", lambda predictions, references: seen.update(refs=references) or {})
    evaluate.EvaluationModule.add_batch(metric_module, predictions=["a", "b"], references=[["x"], "yz"])
    evaluate.EvaluationModule.compute(metric_module)
    assert seen["refs"] == [["x"], ["y", "z"]]  # the stray string, split into characters
    evaluate.EvaluationModule.add_batch(metric_module, predictions=["a", "b"], references=[["x"], ["y", 3]])
    evaluate.EvaluationModule.compute(metric_module)
    assert seen["refs"] == [['"x"'], ['"y"', "3"]]  # every reference JSON-quoted


# ---------------------------------------------------------------- wrapper logic (tiny model, the real NASH spied on)


def test_multi_reference_keeps_best_in_one_call(
    metric_module: evaluate.EvaluationModule, tiny_module_options: dict[str, Any], tiny_scorer: NASH,
    score_calls: list,
) -> None:
    predictions = ["Revenue rose 4%.", "Costs fell 2% to EUR 5 mn."]
    references = [["Revenue rose 40%.", "Revenue rose 4%.", "Revenue fell 4%."], ["Costs fell 3% to EUR 7 mn."]]
    out = metric_module.compute(predictions=predictions, references=references, **tiny_module_options)
    # one call with every pair: the engine scores them in one batch and keeps the best reference of each prediction
    assert [(preds, refs) for _, preds, refs in score_calls] == [(predictions, references)]
    assert out["best_reference"] == [1, 0]  # the reference equal to the prediction wins
    flat = tiny_scorer.score([p for p, refs in zip(predictions, references) for _ in refs],
                             [r for refs in references for r in refs])
    for field, attr in OUTPUT_FIELDS.items():  # every field comes from the reference that won on NASH
        assert out[field] == pytest.approx(getattr(flat, attr)[[1, 3]].tolist(), abs=1e-12), field
    assert out["unsupported_numbers"] == [flat.unsupported_numbers[1], flat.unsupported_numbers[3]]
    assert all(type(v) is float for field in FIELDS for v in out[field])
    assert out["hashcode"] == tiny_scorer.hashcode


def test_first_reference_wins_ties(
    metric_module: evaluate.EvaluationModule, tiny_module_options: dict[str, Any]
) -> None:
    same = "Revenue rose 4%."
    out = metric_module.compute(predictions=[same, same], references=[[same, same], ["Costs fell.", same, same]],
                                **tiny_module_options)
    assert out["nash"][0] == out["nash"][1] == pytest.approx(1.0)
    assert out["best_reference"] == [0, 1]  # of equal scores, the first reference


def test_scorer_cached_by_config_digest(
    metric_module: evaluate.EvaluationModule, tiny_module_options: dict[str, Any], scorers_built: list[NASH],
    score_calls: list,
) -> None:
    def compute(**changes: Any) -> dict[str, Any]:
        options = {**tiny_module_options, **changes}
        return metric_module.compute(predictions=["Revenue rose 4%."], references=["Revenue rose 5%."], **options)

    first = compute()
    cached = metric_module.cached_scorer
    assert cached.config == config_of(tiny_module_options)
    compute(verbose=True)  # not part of the configuration
    assert metric_module.cached_scorer is cached and scorers_built == [cached]
    assert [scorer for scorer, *_ in score_calls] == [cached, cached]

    # the same options (as equal values, not the same objects) give the same scorer object
    compute(threshold=0.5, idf={"revenue": 1.0, "[NUM]": 2.0})
    tuned = metric_module.cached_scorer
    compute(idf={"[NUM]": 2.0, "revenue": 1.0}, threshold=0.5)
    assert metric_module.cached_scorer is tuned
    assert tuned.config.digest() == config_of(tiny_module_options, threshold=0.5,
                                               idf={"revenue": 1.0, "[NUM]": 2.0}).digest()

    # options that do not touch the model (tau, idf, comparisons, bertscore_idf) keep the loaded model
    changes = {"threshold": 0.7, "idf": {"revenue": 3.0, "[NUM]": 1.0}, "comparisons": True, "bertscore_idf": True}
    retuned = compute(**changes)
    assert metric_module.cached_scorer is not tuned and scorers_built == [cached]
    assert metric_module.cached_scorer.encoder is cached.encoder
    assert metric_module.cached_scorer.config == config_of(tiny_module_options, **changes)
    assert retuned["hashcode"] != first["hashcode"]

    # a model-bound option (the model, its layer, device, batch size, backend, dtype) loads a new one
    compute(num_layers=1)
    assert len(scorers_built) == 2 and metric_module.cached_scorer is scorers_built[1]
    assert metric_module.cached_scorer.config == config_of(tiny_module_options, num_layers=1)
    compute(num_layers=1, batch_size=8)
    assert len(scorers_built) == 3
    with pytest.warns(UserWarning, match="threshold='auto'"):  # one pair is too few to calibrate on
        compute(num_layers=1, batch_size=8, threshold="auto")
    assert len(scorers_built) == 3 and metric_module.cached_scorer.encoder is scorers_built[2].encoder


# ---------------------------------------------------------------- options: generated from NASHConfig (no model)

MODULE_OPTIONS = tuple("model_type" if name == "model" else name for name in option_names())


def test_compute_takes_the_config_options(
    metric_module: evaluate.EvaluationModule, tiny_module_options: dict[str, Any]
) -> None:
    params = dict(inspect.signature(metric_module._compute).parameters)
    assert list(params) == ["predictions", "references", *MODULE_OPTIONS, "verbose", *BERTSCORE_ARGUMENTS]
    for name in option_names():
        assert params["model_type" if name == "model" else name].default == option_default(name)
    assert params["verbose"].default is False
    # every option reaches the scorer's config
    metric_module.compute(predictions=["a"], references=["b"], num_layers=1, comparisons=True, **tiny_module_options)
    assert metric_module.cached_scorer.config == config_of(tiny_module_options, num_layers=1, comparisons=True)


@pytest.mark.parametrize(("option", "hint"), [("tau", None), ("model", "model_type"), ("treshold", "threshold")])
def test_unknown_option_is_a_type_error(
    metric_module: evaluate.EvaluationModule, scorers_built: list[NASH], option: str, hint: str | None
) -> None:
    with pytest.raises(TypeError, match=f"unknown NASH option '{option}'") as raised:
        metric_module.compute(predictions=["a"], references=["b"], **{option: 1})
    if hint:
        assert f"did you mean '{hint}'" in str(raised.value)
    assert scorers_built == []


def test_card_and_docstring_list_every_option(data_paths) -> None:
    metric = load_metric(data_paths.metric_dir)
    card = (data_paths.metric_dir / "README.md").read_text(encoding="utf-8")
    for name in (*MODULE_OPTIONS, "verbose"):
        assert f"    {name} (default " in metric.inputs_description, name
        assert f"- **{name}**" in card, name
    assert "- **model**" not in card
    flat = " ".join(card.split())
    for option in scorer_options():  # the card's text is the config's, so the two cannot drift apart
        name = "model_type" if option.name == "model" else option.name
        assert " ".join(f"- **{name}** (default `{option.default!r}`): {option.doc}".split()) in flat, name
    model_bound = [("model_type" if name == "model" else name) for name in model_bound_options()]
    assert f"({', '.join(f'`{name}`' for name in model_bound)})" in " ".join(card.split())  # the caching note


# ---------------------------------------------------------------- real model (all-MiniLM-L6-v2)

PREDICTIONS = [
    "Revenue increased by 4%.",
    "Revenue increased by 4%.",
    "Operating profit rose to EUR 13.1 mn from EUR 8.7 mn.",
    "The board approved the merger.",
]
REFERENCES = [
    "Revenue increased by 3.56%.",
    "Revenue increased by 40%.",
    "Operating profit rose to EUR 13.5 mn from EUR 8.7 mn.",
    "The merger was approved by the board.",
]


@pytest.fixture(scope="module")
def minilm_metric(data_paths) -> evaluate.EvaluationModule:
    """The module with its default options: it loads the embedded all-MiniLM-L6-v2 (sentence backend) and keeps it
    for the module's tests; `minilm_sentence` is the engine on the same model, the reference for its scores."""
    return load_metric(data_paths.metric_dir)


@pytest.mark.slow
def test_compute_equals_engine(minilm_metric: evaluate.EvaluationModule, minilm_sentence: NASH) -> None:
    out = minilm_metric.compute(predictions=PREDICTIONS, references=REFERENCES, baseline=True)
    expected = minilm_sentence.score(PREDICTIONS, REFERENCES)  # the fixture asks for the baseline too
    for field, attr in zip(PUBLIC_FIELDS, SCORE_FIELDS):
        assert out[field] == pytest.approx(getattr(expected, attr).tolist(), abs=1e-6), field
        assert all(type(v) is float for v in out[field])
    assert out["hashcode"] == minilm_sentence.hashcode == minilm_metric.cached_scorer.hashcode
    assert out["nash"][0] > out["nash"][1]  # 3.56% is closer to 4% than 40% is
    assert out["baseline"][0] < out["baseline"][1]  # the plain cosine gets it wrong (as the card says)
    assert out["alpha"][3] == 1.0 and out["nash"][3] == pytest.approx(out["text_similarity"][3], abs=1e-12)
    # The figures the reference does not support, as the engine lists them: 4% against 3.56% or 40% is unsupported.
    assert out["unsupported_numbers"] == expected.unsupported_numbers
    assert [[e["verdict"] for e in entries] for entries in out["unsupported_numbers"][:2]] == [["unsupported"]] * 2
    assert out["numeric_support"][:2] == [0.0, 0.0] and out["numeric_support"][3] == 1.0  # no figure: nothing wrong

    # the same pairs given as one-element reference lists score the same, with the same cached scorer
    cached = minilm_metric.cached_scorer
    listed = minilm_metric.compute(predictions=PREDICTIONS, references=[[r] for r in REFERENCES], baseline=True)
    assert minilm_metric.cached_scorer is cached
    for field in FIELDS:
        assert listed[field] == pytest.approx(out[field], abs=1e-6)


@pytest.mark.slow
def test_multi_reference_matches_engine_best(minilm_metric: evaluate.EvaluationModule, minilm_sentence: NASH) -> None:
    predictions = ["Revenue increased by 4%.", "Net sales rose to EUR 205.5 mn."]
    references = [
        ["Revenue increased by 40%.", "Revenue increased by 3.56%.", "Revenue fell by 4%."],
        ["Net sales rose to EUR 20 mn.", "Net sales rose to EUR 205 mn."],
    ]
    out = minilm_metric.compute(predictions=predictions, references=references)
    flat_preds = [p for p, refs in zip(predictions, references, strict=True) for _ in refs]
    flat_refs = [r for refs in references for r in refs]
    expected = minilm_sentence.score(flat_preds, flat_refs)
    assert out["best_reference"] == [1, 1]  # 3.56% among (40%, 3.56%, fell 4%); EUR 205 mn among (20, 205)
    for i, (lo, hi) in enumerate([(0, 3), (3, 5)]):
        best = lo + int(np.argmax(expected.nash[lo:hi]))
        for field, attr in OUTPUT_FIELDS.items():
            assert out[field][i] == pytest.approx(float(getattr(expected, attr)[best]), abs=1e-6), field
    assert out["nash"][1] == pytest.approx(float(expected.nash[4]), abs=1e-6)  # EUR 205 mn beats EUR 20 mn


@pytest.mark.slow
def test_hashcode_follows_threshold(minilm_metric: evaluate.EvaluationModule) -> None:
    default = minilm_metric.compute(predictions=PREDICTIONS[:1], references=REFERENCES[:1])
    cached = minilm_metric.cached_scorer
    stricter = minilm_metric.compute(predictions=PREDICTIONS[:1], references=REFERENCES[:1], threshold=0.99)
    assert minilm_metric.cached_scorer is not cached
    assert stricter["hashcode"] != default["hashcode"]
    assert minilm_metric.cached_scorer.echo["threshold"] == pytest.approx(0.99)
    assert minilm_metric.cached_scorer.encoder is cached.encoder  # a new tau keeps the loaded model


@pytest.mark.slow
def test_empty_input_with_the_real_model(minilm_metric: evaluate.EvaluationModule, minilm_sentence: NASH) -> None:
    out = minilm_metric.compute(predictions=[], references=[])
    assert {field: out[field] for field in FIELDS} == {field: [] for field in FIELDS}
    assert out["hashcode"] == minilm_sentence.hashcode  # the default configuration


@pytest.mark.slow
def test_drops_in_for_evaluates_bertscore(data_paths, fresh_model_cache) -> None:
    # evaluate's bertscore usage example (metrics/bertscore), unchanged but for the module's name
    predictions = ["hello there", "general kenobi"]
    references = ["hello there", "general kenobi"]
    bertscore = evaluate.load(str(data_paths.metric_dir))
    results = bertscore.compute(predictions=predictions, references=references, lang="en")
    assert [round(v, 2) for v in results["f1"]] == [1.0, 1.0]
    assert {"precision", "recall", "f1", "hashcode"} <= set(results)
    assert results["precision"] == results["nash_precision"] and results["recall"] == results["nash_recall"]
    assert results["f1"] == results["nash"]


@pytest.mark.slow
def test_bertscore_arguments(minilm_metric: evaluate.EvaluationModule) -> None:
    texts = {"predictions": ["Revenue rose 4%."], "references": ["Revenue rose 3.56%."]}
    with pytest.warns(UserWarning, match="nthreads=4 is bert-score's and is ignored"):
        ignored = minilm_metric.compute(**texts, nthreads=4, use_fast_tokenizer=False, all_layers=False)
    plain = minilm_metric.compute(**texts, backend="token")  # bert-score's arguments imply its token backbone
    assert ignored["nash"] == plain["nash"] and ignored["hashcode"] == plain["hashcode"]
    with pytest.raises(ValueError, match=r"lang='de'.*model_type="):
        minilm_metric.compute(**texts, lang="de")
    with pytest.raises(ValueError, match="all_layers=True is not supported"):
        minilm_metric.compute(**texts, all_layers=True)
    weighted = minilm_metric.compute(**texts, idf=True, backend="token")
    assert weighted["hashcode"] != minilm_metric.compute(**texts, backend="token")["hashcode"]  # bertscore_idf


@pytest.mark.parametrize(("options", "expected"), [
    ({}, {}),  # NASH's own call: NASH's defaults (backend 'auto')
    ({"batch_size": 8, "device": "cpu", "rescale_with_baseline": True}, {"batch_size": 8, "device": "cpu",
                                                                       "rescale_with_baseline": True}),
    ({"idf": "references"}, {"idf": "references"}),  # NASH's mixing weights, not bert-score's switch
    ({"lang": "en"}, {"backend": "token"}),
    ({"idf": True}, {"backend": "token", "bertscore_idf": True}),
    ({"idf": False, "lang": "en"}, {"backend": "token", "bertscore_idf": False}),
    ({"nthreads": 4}, {"backend": "token"}),
    ({"lang": "en", "backend": "sentence"}, {"backend": "sentence"}),  # an explicit backend is kept
    ({"idf": True, "backend": "auto"}, {"backend": "auto", "bertscore_idf": True}),
    ({"lang": None, "num_layers": 4}, {"num_layers": 4}),  # lang=None says nothing; a layer selects 'token' itself
])
def test_bertscore_arguments_choose_the_token_backend(options: dict[str, Any], expected: dict[str, Any]) -> None:
    assert bertscore_options(options, model_given=False)[0] == expected


def test_bertscore_idf_on_an_explicit_sentence_backend_names_the_argument() -> None:
    with pytest.raises(ValueError, match=r"^idf=True \(bert-score's IDF-weighted BERTScore\) needs the token backend, "
                                         r"but backend='sentence' was given: pass backend='token'"):
        bertscore_options({"idf": True, "backend": "sentence", "lang": "en"}, model_given=False)


# Pairs whose texts differ beyond their numbers, so that BERTScore's P and R differ
BERTSCORE_PREDICTIONS = ["Revenue rose 4% to EUR 13.1 mn.", "The board approved the merger.",
                         "Net sales rose 5% in 2024."]
BERTSCORE_REFERENCES = ["Revenue rose 3.56% to EUR 13.5 mn in 2024.", "The merger was approved by the board.",
                        "Net sales grew 5% in 2024, driven by exports."]


@pytest.mark.slow
def test_bertscore_call_with_idf_scores_as_the_token_backend(minilm_metric: evaluate.EvaluationModule,
                                                             minilm_sentence: NASH) -> None:
    """Issue 56: `idf=True` with `lang="en"` (evaluate's bertscore call) runs, on bert-score's token backbone."""
    texts = {"predictions": BERTSCORE_PREDICTIONS, "references": BERTSCORE_REFERENCES}
    out = minilm_metric.compute(**texts, lang="en", idf=True)
    direct = NASH(backend="token", bertscore_idf=True, device="cpu")
    expected = direct.score(BERTSCORE_PREDICTIONS, BERTSCORE_REFERENCES)
    for field in FIELDS:
        assert out[field] == pytest.approx(getattr(expected, OUTPUT_FIELDS[field]).tolist(), abs=1e-6), field
    assert out["precision"] == out["nash_precision"] and out["recall"] == out["nash_recall"]
    assert out["f1"] == out["nash"]
    assert out["hashcode"] == direct.hashcode and "_token_" in out["hashcode"]
    # BERTScore's P and R, unequal as the texts differ (the sentence backbone's cosine gives P = R = F)
    for p, r, f in zip(out["precision"], out["recall"], out["f1"], strict=True):
        assert abs(p - r) > 1e-3 and min(p, r) < f < max(p, r), (p, r, f)
    for p, r in zip(out["text_precision"], out["text_recall"], strict=True):
        assert abs(p - r) > 1e-3
    # IDF off scores otherwise on the same backbone; NASH's own call keeps its defaults and their hashcode
    unweighted = minilm_metric.compute(**texts, lang="en")
    assert "_token_" in unweighted["hashcode"] and unweighted["hashcode"] != out["hashcode"]
    assert unweighted["f1"] != pytest.approx(out["f1"], abs=1e-4)
    plain = minilm_metric.compute(**texts)
    assert plain["hashcode"] == minilm_sentence.hashcode
    assert plain["text_precision"] == plain["text_recall"] == plain["text_similarity"]
    with pytest.raises(ValueError, match=r"idf=True .*backend='sentence' was given"):
        minilm_metric.compute(**texts, lang="en", idf=True, backend="sentence")
