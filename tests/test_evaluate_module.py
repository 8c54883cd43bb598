"""The `evaluate` metric module in metrics/nash: loading, validation, multi-reference, caching, card."""

from __future__ import annotations

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

METRIC_DIR = Path(__file__).resolve().parents[1] / "metrics" / "nash"
FIELDS = ("nash", "text_similarity", "numeric_similarity", "alpha", "baseline")
OUTPUT_FIELDS = {
    "nash": "nash",
    "text_similarity": "text",
    "numeric_similarity": "numeric",
    "alpha": "alpha",
    "baseline": "baseline",
}


def load_metric() -> evaluate.EvaluationModule:
    return evaluate.load(str(METRIC_DIR))


class FakeNASH:
    """Stands in for the engine in the wrapper tests: scores are a known function of the texts."""

    built: ClassVar[list[FakeNASH]] = []

    def __init__(self, model: str, **config: Any) -> None:
        self.config = {"model": model, **config}
        self.hashcode = f"fake|{model}|tau={config.get('threshold')}"
        self.calls: list[tuple[list[str], list[str]]] = []
        self.model_handle = object()  # stands for the loaded weights
        FakeNASH.built.append(self)

    def score(self, predictions: list[str], references: list[str], show_progress: bool = False) -> Any:
        self.calls.append((list(predictions), list(references)))
        nash = np.array([len(r) / 100 for r in references], dtype=np.float64)
        return SimpleNamespace(
            nash=nash,
            text=nash + 0.1,
            numeric=nash + 0.2,
            alpha=nash + 0.3,
            baseline=nash + 0.4,
            hashcode=self.hashcode,
        )

    def with_threshold(self, threshold: float | str) -> FakeNASH:
        # as the engine: same loaded model, another tau; not counted in `built` (no model load)
        other = object.__new__(FakeNASH)
        other.__dict__.update(self.__dict__, calls=[])
        other.config = {**self.config, "threshold": threshold}
        other.hashcode = f"{self.hashcode.rsplit('|', 1)[0]}|tau={threshold}"
        return other


@pytest.fixture
def fake_metric(monkeypatch: pytest.MonkeyPatch) -> evaluate.EvaluationModule:
    metric = load_metric()
    FakeNASH.built = []
    # The module evaluate imported from its cache dir looks NASH up at call time.
    monkeypatch.setattr(sys.modules[type(metric).__module__], "NASH", FakeNASH)
    return metric


# ---------------------------------------------------------------- module, card, files (no model)


def test_module_loads_with_both_feature_formats() -> None:
    metric = load_metric()
    assert metric.name == "nash"
    assert len(metric.features) == 2
    refs_types = {type(f["references"]).__name__ for f in metric.features}
    assert refs_types == {"Value", "List"} or refs_types == {"Value", "Sequence"}
    assert "NASH" in metric.info.citation and "BERTScore" in metric.info.citation


def test_import_scanner_sees_every_library() -> None:
    # evaluate checks each scanned import is installed; a combined `import a, b` line would be misread.
    imports = get_imports(str(METRIC_DIR / "nash.py"))
    hints = {name: pip_name for kind, name, pip_name, _ in imports if kind == "library"}
    assert {"datasets", "evaluate", "numpy", "nash_metric"} <= set(hints)
    assert all("," not in name for name in hints)
    assert hints["nash_metric"] == "nash-metric"  # the pip name evaluate suggests when it is missing


def test_card_has_space_header_and_sections() -> None:
    text = (METRIC_DIR / "README.md").read_text(encoding="utf-8")
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
    requirements = (METRIC_DIR / "requirements.txt").read_text().split()
    assert {r.split(">")[0].split("=")[0] for r in requirements} >= {"nash-metric", "evaluate", "gradio"}


def test_widget_builds_with_current_gradio() -> None:
    gr = pytest.importorskip("gradio")
    sys.path.insert(0, str(METRIC_DIR))
    try:
        import app  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(METRIC_DIR))
    widget = app.build_widget(app.load_module())
    assert isinstance(widget, gr.Interface)
    assert widget.title == "Metric: nash"


# ---------------------------------------------------------------- input validation (no model)


@pytest.mark.parametrize(
    ("predictions", "references", "error", "match"),
    [
        (["a", "b"], ["a"], ValueError, "same length, got 2 and 1"),
        ([], [], ValueError, "empty"),
        ("a text", "a text", TypeError, "predictions must be a list"),
        (["a"], None, TypeError, "references must be a list"),
        (["a", None], ["a", "b"], TypeError, r"predictions\[1\] must be a str"),
        (["a", "b"], ["a", None], TypeError, r"references\[1\]"),
        (["a", "b"], [["a"], []], ValueError, r"references\[1\] is an empty list"),
        (["a", "b"], [["a"], ["b", None]], TypeError, r"references\[1\]\[1\] must be a str"),
        (["a", "b"], [["a"], "b"], TypeError, r"references\[1\] is a str but references\[0\] is a list"),
        (["a"], [3], TypeError, r"references\[0\] must be a str or a list of str"),
    ],
)
def test_bad_input_names_the_problem(
    fake_metric: evaluate.EvaluationModule, predictions: Any, references: Any, error: type, match: str
) -> None:
    with pytest.raises(error, match=match):
        fake_metric.compute(predictions=predictions, references=references)
    assert FakeNASH.built == []  # rejected before any scorer (model) is built


def test_add_checks_each_example(fake_metric: evaluate.EvaluationModule) -> None:
    with pytest.raises(ValueError, match=r"references\[0\] is an empty list"):
        fake_metric.add(prediction="a", reference=[])
    fake_metric.add(prediction="a", reference=["bb", "b"])
    fake_metric.add_batch(predictions=["c"], references=[["dddd"]])
    assert fake_metric.compute()["nash"] == pytest.approx([0.02, 0.04])


# ---------------------------------------------------------------- wrapper logic (engine stood in)


def test_multi_reference_keeps_best_in_one_call(fake_metric: evaluate.EvaluationModule) -> None:
    out = fake_metric.compute(predictions=["p0", "p1"], references=[["xx", "xxxxx", "x"], ["yyy"]])
    (scorer,) = FakeNASH.built
    assert scorer.calls == [(["p0", "p0", "p0", "p1"], ["xx", "xxxxx", "x", "yyy"])]  # one flat batch
    assert out["nash"] == pytest.approx([0.05, 0.03])
    # every field comes from the reference that won on NASH
    assert out["text_similarity"] == pytest.approx([0.15, 0.13])
    assert out["baseline"] == pytest.approx([0.45, 0.43])
    assert all(type(v) is float for field in FIELDS for v in out[field])
    assert out["hashcode"] == scorer.hashcode


def test_scorer_cached_by_configuration(fake_metric: evaluate.EvaluationModule) -> None:
    data = {"predictions": ["a"], "references": ["b"]}
    first = fake_metric.compute(**data)
    cached = fake_metric.cached_scorer
    fake_metric.compute(**data, verbose=True)  # not part of the configuration
    assert fake_metric.cached_scorer is cached and len(FakeNASH.built) == 1
    assert cached.calls == [(["a"], ["b"]), (["a"], ["b"])]

    # a new tau alone keeps the loaded model
    retuned = fake_metric.compute(**data, threshold=0.5)
    assert fake_metric.cached_scorer is not cached and len(FakeNASH.built) == 1
    assert fake_metric.cached_scorer.model_handle is cached.model_handle
    assert retuned["hashcode"] != first["hashcode"]

    # anything else builds (and loads) a new scorer with the whole configuration
    fake_metric.compute(**data, threshold=0.5, idf={"a": 1.0}, bertscore_idf=True)
    assert len(FakeNASH.built) == 2
    assert fake_metric.cached_scorer.config == {
        "model": "sentence-transformers/all-MiniLM-L6-v2",
        "backend": "auto",
        "num_layers": None,
        "threshold": 0.5,
        "idf": {"a": 1.0},
        "batch_size": 64,
        "device": None,
        "comparisons": False,
        "bertscore_idf": True,
    }
    fake_metric.compute(**data, threshold=0.5, idf={"a": 2.0}, bertscore_idf=True)  # another idf dict
    assert len(FakeNASH.built) == 3
    fake_metric.compute(**data, threshold=0.5, idf={"a": 2.0}, bertscore_idf=True)
    assert len(FakeNASH.built) == 3


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
def real() -> SimpleNamespace:
    from nash_metric import NASH

    metric = load_metric()
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
