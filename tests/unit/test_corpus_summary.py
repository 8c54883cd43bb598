"""The corpus summary: means with bootstrap intervals over the same resampled pairs, and its Markdown."""

from __future__ import annotations

import numpy as np
import pytest

from nash_metric.common.protocols import bootstrap_ci
from nash_metric.corpus.summary import SUMMARY_FIELDS, corpus_summary, summary_markdown


def _columns(n: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    return {name: rng.random(n) for name in SUMMARY_FIELDS}


def test_summary_of_a_constant_and_a_two_valued_column():
    n = 200
    columns = {"nash": np.full(n, 0.7), "alpha": np.tile([0.0, 1.0], n // 2)}
    summary = corpus_summary(columns, n_unscored=3, hashcode="h", fields=("nash", "alpha"), n_resamples=500, seed=1)
    assert summary["pairs"] == n and summary["unscored_numbers"] == 3 and summary["hashcode"] == "h"
    assert summary["bootstrap"] == {"resamples": 500, "seed": 1, "confidence": 0.95}
    const = summary["fields"]["nash"]
    assert const["low"] == const["mean"] == const["high"] == np.full(n, 0.7).mean()
    two = summary["fields"]["alpha"]
    assert two["mean"] == 0.5
    assert 0.0 <= two["low"] < two["mean"] < two["high"] <= 1.0
    # the standard error is 0.5/sqrt(200) ≈ 0.035: a 95% interval is about ±0.07
    assert 0.03 < two["mean"] - two["low"] < 0.11 and 0.03 < two["high"] - two["mean"] < 0.11


def test_summary_is_deterministic_per_seed_and_shares_draws():
    rng = np.random.default_rng(0)
    columns = _columns(50, rng)
    columns["baseline"] = columns["nash"].copy()
    first = corpus_summary(columns, n_unscored=0, hashcode="h", n_resamples=200, seed=7)
    assert first == corpus_summary(columns, n_unscored=0, hashcode="h", n_resamples=200, seed=7)
    assert first["fields"]["baseline"] == first["fields"]["nash"]  # the same resampled pairs for every field
    other = corpus_summary(columns, n_unscored=0, hashcode="h", n_resamples=200, seed=8)
    assert other["fields"]["nash"]["mean"] == first["fields"]["nash"]["mean"]
    assert other["fields"]["nash"]["low"] != first["fields"]["nash"]["low"]


def test_summary_edge_cases():
    one = corpus_summary({"nash": np.array([0.25])}, n_unscored=0, hashcode="h", fields=("nash",))
    assert one["fields"]["nash"] == {"mean": 0.25, "low": 0.25, "high": 0.25}
    with pytest.raises(ValueError, match="no pairs"):
        corpus_summary({"nash": np.array([])}, n_unscored=0, hashcode="h", fields=("nash",))
    with pytest.raises(ValueError, match=r"no column \['alpha'\]"):
        corpus_summary({"nash": np.ones(3)}, n_unscored=0, hashcode="h", fields=("nash", "alpha"))
    with pytest.raises(ValueError, match="equal length"):
        corpus_summary({"nash": np.ones(3), "alpha": np.ones(2)}, n_unscored=0, hashcode="h", fields=("nash", "alpha"))
    with pytest.raises(ValueError, match="confidence"):
        corpus_summary({"nash": np.ones(3)}, n_unscored=0, hashcode="h", fields=("nash",), confidence=1.0)


def test_summary_markdown_table():
    summary = corpus_summary({"nash": np.full(4, 0.5), "alpha": np.full(4, 0.25)}, n_unscored=2, hashcode="abc",
                             fields=("nash", "alpha"))
    assert summary_markdown(summary) == (
        "| field | mean | 95% CI |\n|---|---:|:---:|\n| nash | 0.5000 | 0.5000–0.5000 |\n"
        "| alpha | 0.2500 | 0.2500–0.2500 |\n\npairs: 4 · empty predictions: 0 · unscored numbers: 2 · "
        "hashcode: `abc`\n"
    )


def test_empty_predictions_stand_beside_the_support_mean():
    # Two of four predictions are blank: their support is 1.0 by definition, which the mean alone would hide.
    columns = {"nash": np.array([0.5, 0.5, 0.0, 0.0]), "numeric_support": np.array([0.0, 0.5, 1.0, 1.0])}
    summary = corpus_summary(columns, n_unscored=0, hashcode="h", fields=("nash", "numeric_support"),
                             empty_predictions=2)
    assert summary["empty_predictions"] == 2
    assert summary["fields"]["numeric_support"]["mean"] == 0.625
    assert summary["fields"]["numeric_support"]["empty_predictions"] == 2
    assert "empty_predictions" not in summary["fields"]["nash"]
    text = summary_markdown(summary)
    assert "| numeric_support (2 empty predictions at 1.0) | 0.6250 |" in text and "empty predictions: 2 ·" in text
    assert corpus_summary(columns, n_unscored=0, hashcode="h", fields=("nash", "numeric_support")
                          )["fields"]["numeric_support"]["empty_predictions"] == 0
    with pytest.raises(ValueError, match="empty_predictions must be between 0 and the 4 pairs, got 5"):
        corpus_summary(columns, n_unscored=0, hashcode="h", fields=("nash",), empty_predictions=5)


def test_the_benchmarks_interval_is_the_summarys():
    x = np.random.default_rng(4).random(300)
    for seed in (0, 5):
        stats = corpus_summary({"nash": x}, n_unscored=0, hashcode="h", fields=("nash",), seed=seed)["fields"]["nash"]
        assert bootstrap_ci(x, seed=seed) == (stats["low"], stats["high"])

