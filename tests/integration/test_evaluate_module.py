"""The `evaluate` metric module in metrics/nash: loading, validation, multi-reference, caching, card."""

from __future__ import annotations

import copy
import inspect
import os
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

import evaluate
import numpy as np
import pytest
import yaml
from evaluate.loading import get_imports
from packaging.requirements import Requirement

from nash_metric.config import NASHConfig, model_bound_options, option_default, option_names, scorer_options
from nash_metric.output import PUBLIC_FIELDS, SCORE_FIELDS
from nash_metric.validation import check_reference_lists

FIELDS = PUBLIC_FIELDS  # every score, with its precision and recall
OUTPUT_FIELDS = dict(zip(PUBLIC_FIELDS, SCORE_FIELDS))  # result name -> NASHOutput attribute


def load_metric(metric_dir: Path) -> evaluate.EvaluationModule:
    return evaluate.load(str(metric_dir))


class FakeNASH:
    """Stands in for the engine in the wrapper tests: scores are a known function of the texts."""

    built: ClassVar[list[FakeNASH]] = []

    def __init__(self, config: NASHConfig | None = None, **options: Any) -> None:
        self.options = NASHConfig.from_options(config, **options)
        self.calls: list[tuple[list[str], list[str]]] = []
        self.model_handle = object()  # stands for the loaded weights
        FakeNASH.built.append(self)

    @property
    def hashcode(self) -> str:
        return f"fake|{self.options.model}|{self.options.digest()}"

    def score(self, predictions: list[str], references: list[Any], show_progress: bool = False) -> Any:
        from nash_metric.output import NASHOutput

        groups = None if all(isinstance(r, str) for r in references) else [len(r) for r in references]
        if groups is not None:  # as the engine: every pair in one batch, then the best reference per prediction
            predictions = [p for p, refs in zip(predictions, references) for _ in refs]
            references = [r for refs in references for r in refs]
        self.calls.append((list(predictions), list(references)))
        nash = np.array([len(r) / 100 for r in references], dtype=np.float64)
        marked = np.array(["*" in r for r in references], dtype=np.float64) / 1000  # tells tied pairs apart
        fields = {name: nash + k / 1000 for k, name in enumerate(SCORE_FIELDS)}
        fields.update(nash=nash, text=nash + 0.1, numeric=nash + 0.2, alpha=nash + 0.3, baseline=nash + 0.4 + marked)
        out = NASHOutput(**fields, config={}, hashcode=self.hashcode)
        return out.best_of(groups) if groups is not None else out

    def with_options(self, **changes: Any) -> FakeNASH:
        # as the engine: the same loaded model unless a model-bound option changed (then built, i.e. loaded)
        options = self.options.replace(**changes)
        if options.model_digest() != self.options.model_digest():
            return FakeNASH(options)
        other = copy.copy(self)
        other.options, other.calls = options, []
        return other


@pytest.fixture
def fake_metric(monkeypatch: pytest.MonkeyPatch, data_paths) -> evaluate.EvaluationModule:
    metric = load_metric(data_paths.metric_dir)
    FakeNASH.built = []
    # The module evaluate imported from its cache dir looks NASH up at call time.
    monkeypatch.setattr(sys.modules[type(metric).__module__], "NASH", FakeNASH)
    return metric


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
    fake_metric: evaluate.EvaluationModule, predictions: Any, references: Any, error: type, match: str
) -> None:
    with pytest.raises(error, match=match) as raised:
        fake_metric.compute(predictions=predictions, references=references)
    assert FakeNASH.built == []  # rejected before any scorer (model) is built
    # one check for the library and the module: the same fault is the same error, word for word
    with pytest.raises(error) as direct:
        check_reference_lists(predictions, references)
    assert str(raised.value) == str(direct.value)


def test_empty_input_gives_empty_result(fake_metric: evaluate.EvaluationModule) -> None:
    # as the library (`NASH.score([], [])`): empty lists, with the configuration's hashcode
    out = fake_metric.compute(predictions=[], references=[])
    assert {field: out[field] for field in FIELDS} == {field: [] for field in FIELDS}
    assert out["hashcode"] == fake_metric.cached_scorer.hashcode
    assert fake_metric.compute(predictions=["a"], references=[["bb"]])["nash"] == pytest.approx([0.02])


def test_blank_texts_are_scored_zero_with_the_engines_warning(data_paths, tiny_model_dir) -> None:
    from nash_metric.blank import BlankCount, BlankTextWarning

    metric = load_metric(data_paths.metric_dir)
    options = {"model_type": str(tiny_model_dir), "backend": "token", "threshold": 0.0, "device": "cpu"}
    with pytest.warns(BlankTextWarning) as caught:
        out = metric.compute(predictions=["", "Revenue rose 4%.", "  ", "Costs fell 2%."],
                             references=["Revenue rose 4%.", "", "\t", "Costs fell 3%."], **options)
    assert [str(w.message) for w in caught if w.category is BlankTextWarning] == [BlankCount(2, 2, 0).message()]
    for field in FIELDS:
        expected = {"alpha": 1.0, "numeric_support": None}.get(field, 0.0)
        if expected is not None:
            assert out[field][:3] == [expected] * 3, field
    assert out["nash"][3] > 0
    metric.add_batch(predictions=["", "a"], references=[["x", " "], ["y"]])  # add and add_batch take them too
    metric.add(prediction="b", reference=[""])
    with pytest.warns(BlankTextWarning, match=r"3 blank texts \(1 prediction, 2 references\)"):
        listed = metric.compute(**options)
    assert listed["nash"][0] == listed["nash"][2] == 0.0 and listed["best_reference"] == [0, 0, 0]


def test_add_checks_each_example(fake_metric: evaluate.EvaluationModule) -> None:
    with pytest.raises(ValueError, match=r"references\[0\] is an empty list"):
        fake_metric.add(prediction="a", reference=[])
    fake_metric.add(prediction="a", reference=["bb", "b"])
    with pytest.raises(TypeError, match=r"references\[0\]\[1\] is int"):
        fake_metric.add(prediction="b", reference=["y", 3])  # evaluate would quote every reference: '"y"'
    fake_metric.add_batch(predictions=["c"], references=[["dddd"]])
    assert fake_metric.compute()["nash"] == pytest.approx([0.02, 0.04])


def test_add_batch_rejects_a_mixed_batch(fake_metric: evaluate.EvaluationModule) -> None:
    with pytest.raises(TypeError, match=r"references\[1\] is a str but references\[0\] is a list"):
        fake_metric.add_batch(predictions=["a", "b"], references=[["x"], "yz"])
    fake_metric.add_batch(predictions=["a", "b"], references=["x", "yz"])
    assert fake_metric.compute()["nash"] == pytest.approx([0.01, 0.02])


def test_evaluate_alone_would_corrupt_mixed_references(
    fake_metric: evaluate.EvaluationModule, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Why the module overrides `add_batch`/`add`: evaluate's own encoding turns bad rows into valid-looking data.

    If this starts failing, evaluate validates by itself and the two overrides in nash.py can go.
    """
    seen: dict[str, Any] = {}
    monkeypatch.setattr(fake_metric, "_compute", lambda predictions, references: seen.update(refs=references) or {})
    evaluate.EvaluationModule.add_batch(fake_metric, predictions=["a", "b"], references=[["x"], "yz"])
    evaluate.EvaluationModule.compute(fake_metric)
    assert seen["refs"] == [["x"], ["y", "z"]]  # the stray string, split into characters
    evaluate.EvaluationModule.add_batch(fake_metric, predictions=["a", "b"], references=[["x"], ["y", 3]])
    evaluate.EvaluationModule.compute(fake_metric)
    assert seen["refs"] == [['"x"'], ['"y"', "3"]]  # every reference JSON-quoted


# ---------------------------------------------------------------- wrapper logic (engine stood in)


def test_multi_reference_keeps_best_in_one_call(fake_metric: evaluate.EvaluationModule) -> None:
    out = fake_metric.compute(predictions=["p0", "p1"], references=[["xx", "xxxxx", "x"], ["yyy"]])
    (scorer,) = FakeNASH.built
    assert scorer.calls == [(["p0", "p0", "p0", "p1"], ["xx", "xxxxx", "x", "yyy"])]  # one flat batch
    assert out["nash"] == pytest.approx([0.05, 0.03])
    # every field comes from the reference that won on NASH
    assert out["text_similarity"] == pytest.approx([0.15, 0.13])
    assert out["baseline"] == pytest.approx([0.45, 0.43])
    assert out["best_reference"] == [1, 0]
    assert all(type(v) is float for field in FIELDS for v in out[field])
    assert out["hashcode"] == scorer.hashcode


def test_first_reference_wins_ties(fake_metric: evaluate.EvaluationModule) -> None:
    out = fake_metric.compute(predictions=["p0", "p1"], references=[["a*", "bb"], ["cc", "d*"]])
    assert out["nash"] == pytest.approx([0.02, 0.02])
    assert out["baseline"] == pytest.approx([0.421, 0.42])  # the marked reference only where it comes first


def test_scorer_cached_by_config_digest(fake_metric: evaluate.EvaluationModule) -> None:
    data = {"predictions": ["a"], "references": ["b"]}
    first = fake_metric.compute(**data)
    cached = fake_metric.cached_scorer
    assert cached.options == NASHConfig()
    fake_metric.compute(**data, verbose=True)  # not part of the configuration
    assert fake_metric.cached_scorer is cached and len(FakeNASH.built) == 1
    assert cached.calls == [(["a"], ["b"]), (["a"], ["b"])]

    # the same options (as equal values, not the same objects) give the same scorer object
    fake_metric.compute(**data, threshold=0.5, idf={"b": 1.0, "[NUM]": 2.0})
    tuned = fake_metric.cached_scorer
    fake_metric.compute(**data, idf={"[NUM]": 2.0, "b": 1.0}, threshold=0.5)
    assert fake_metric.cached_scorer is tuned
    assert tuned.options.digest() == NASHConfig(threshold=0.5, idf={"b": 1.0, "[NUM]": 2.0}).digest()

    # options that do not touch the model (tau, idf, comparisons, bertscore_idf) keep the loaded model
    retuned = fake_metric.compute(**data, threshold=0.7, idf={"b": 3.0}, comparisons=True, bertscore_idf=True)
    assert fake_metric.cached_scorer is not tuned and len(FakeNASH.built) == 1
    assert fake_metric.cached_scorer.model_handle is cached.model_handle
    assert fake_metric.cached_scorer.options == NASHConfig(
        threshold=0.7, idf={"b": 3.0}, comparisons=True, bertscore_idf=True
    )
    assert retuned["hashcode"] != first["hashcode"]

    # a model-bound option (the model, its layer, device, batch size, backend) loads a new one
    fake_metric.compute(**data, model_type="bert-base-uncased", backend="token")
    assert len(FakeNASH.built) == 2
    assert fake_metric.cached_scorer.options == NASHConfig(model="bert-base-uncased", backend="token")
    fake_metric.compute(**data, model_type="bert-base-uncased", backend="token", batch_size=8)
    assert len(FakeNASH.built) == 3
    fake_metric.compute(**data, model_type="bert-base-uncased", backend="token", batch_size=8, threshold="auto")
    assert len(FakeNASH.built) == 3


# ---------------------------------------------------------------- options: generated from NASHConfig (no model)

MODULE_OPTIONS = tuple("model_type" if name == "model" else name for name in option_names())


def test_compute_takes_the_config_options(fake_metric: evaluate.EvaluationModule) -> None:
    params = dict(inspect.signature(fake_metric._compute).parameters)
    assert list(params) == ["predictions", "references", *MODULE_OPTIONS, "verbose"]
    for name in option_names():
        assert params["model_type" if name == "model" else name].default == option_default(name)
    assert params["verbose"].default is False
    # every option reaches the scorer's config
    fake_metric.compute(predictions=["a"], references=["b"], num_layers=3, device="cpu", comparisons=True)
    assert fake_metric.cached_scorer.options == NASHConfig(num_layers=3, device="cpu", comparisons=True)


@pytest.mark.parametrize(("option", "hint"), [("tau", None), ("model", "model_type"), ("treshold", "threshold")])
def test_unknown_option_is_a_type_error(fake_metric: evaluate.EvaluationModule, option: str, hint: str | None) -> None:
    with pytest.raises(TypeError, match=f"unknown NASH option '{option}'") as raised:
        fake_metric.compute(predictions=["a"], references=["b"], **{option: 1})
    if hint:
        assert f"did you mean '{hint}'" in str(raised.value)
    assert FakeNASH.built == []


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
def real(data_paths) -> SimpleNamespace:
    from nash_metric import NASH

    metric = load_metric(data_paths.metric_dir)
    return SimpleNamespace(metric=metric, scorer=NASH(model="sentence-transformers/all-MiniLM-L6-v2"))


@pytest.mark.slow
def test_compute_equals_engine(real: SimpleNamespace) -> None:
    out = real.metric.compute(predictions=PREDICTIONS, references=REFERENCES)
    expected = real.scorer.score(PREDICTIONS, REFERENCES)
    for field, attr in OUTPUT_FIELDS.items():
        assert out[field] == pytest.approx(getattr(expected, attr).tolist(), abs=1e-6), field
        assert all(type(v) is float for v in out[field])
    assert out["hashcode"] == real.scorer.hashcode == real.metric.cached_scorer.hashcode
    assert out["nash"][0] > out["nash"][1]  # 3.56% is closer to 4% than 40% is
    assert out["baseline"][0] < out["baseline"][1]  # the plain cosine gets it wrong (as the card says)
    assert out["alpha"][3] == 1.0 and out["nash"][3] == pytest.approx(out["text_similarity"][3], abs=1e-12)
    # The figures the reference does not support, as the engine lists them: 4% against 3.56% or 40% is unsupported.
    assert out["unsupported_numbers"] == expected.unsupported_numbers
    assert [[e["verdict"] for e in entries] for entries in out["unsupported_numbers"][:2]] == [["unsupported"]] * 2
    assert out["numeric_support"][:2] == [0.0, 0.0] and out["numeric_support"][3] == 1.0  # no figure: nothing wrong

    # the same pairs given as one-element reference lists score the same, with the same cached scorer
    cached = real.metric.cached_scorer
    listed = real.metric.compute(predictions=PREDICTIONS, references=[[r] for r in REFERENCES])
    assert real.metric.cached_scorer is cached
    for field in FIELDS:
        assert listed[field] == pytest.approx(out[field], abs=1e-6)


@pytest.mark.slow
def test_multi_reference_matches_engine_best(real: SimpleNamespace) -> None:
    predictions = ["Revenue increased by 4%.", "Net sales rose to EUR 205.5 mn."]
    references = [
        ["Revenue increased by 40%.", "Revenue increased by 3.56%.", "Revenue fell by 4%."],
        ["Net sales rose to EUR 20 mn.", "Net sales rose to EUR 205 mn."],
    ]
    out = real.metric.compute(predictions=predictions, references=references)
    flat_preds = [p for p, refs in zip(predictions, references, strict=True) for _ in refs]
    flat_refs = [r for refs in references for r in refs]
    expected = real.scorer.score(flat_preds, flat_refs)
    assert out["best_reference"] == [1, 1]  # 3.56% among (40%, 3.56%, fell 4%); EUR 205 mn among (20, 205)
    for i, (lo, hi) in enumerate([(0, 3), (3, 5)]):
        best = lo + int(np.argmax(expected.nash[lo:hi]))
        for field, attr in OUTPUT_FIELDS.items():
            assert out[field][i] == pytest.approx(float(getattr(expected, attr)[best]), abs=1e-6), field
    assert out["nash"][1] == pytest.approx(float(expected.nash[4]), abs=1e-6)  # EUR 205 mn beats EUR 20 mn


@pytest.mark.slow
def test_hashcode_follows_threshold(real: SimpleNamespace) -> None:
    default = real.metric.compute(predictions=PREDICTIONS[:1], references=REFERENCES[:1])
    cached = real.metric.cached_scorer
    stricter = real.metric.compute(predictions=PREDICTIONS[:1], references=REFERENCES[:1], threshold=0.99)
    assert real.metric.cached_scorer is not cached
    assert stricter["hashcode"] != default["hashcode"]
    assert real.metric.cached_scorer.config["threshold"] == pytest.approx(0.99)
    assert real.metric.cached_scorer.encoder is cached.encoder  # a new tau keeps the loaded model


@pytest.mark.slow
def test_empty_input_with_the_real_model(real: SimpleNamespace) -> None:
    out = real.metric.compute(predictions=[], references=[])
    assert {field: out[field] for field in FIELDS} == {field: [] for field in FIELDS}
    assert out["hashcode"] == real.scorer.hashcode  # the default configuration
