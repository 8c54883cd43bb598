"""Rescaling with a random-pair baseline: the formula by hand, the fitting recipe, files and refusals."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from nash_metric.calibration.rescale import RESCALED_FIELDS, RescaleBaseline, fit_rescale_baseline, shipped_baselines
from nash_metric.calibration.threshold import random_pairs
from nash_metric.pipeline.output import SCORE_FIELDS, NASHOutput

FITTED = {"model": "m", "backend": "token", "num_layers": 2, "dtype": "float32", "numbers": "full",
          "comparisons": False, "bertscore_idf": False, "threshold": 0.0, "idf": "uniform", "text_channel": "one-pass"}
CONFIG = {**FITTED, "threshold_source": "given", "idf_source": "uniform"}


def _baseline(b: float = 0.8, **fitted) -> RescaleBaseline:
    return RescaleBaseline({name: b for name in RESCALED_FIELDS}, {**FITTED, **fitted}, source="test")


def test_rescaling_is_s_minus_b_over_one_minus_b_on_nash_text_and_baseline_only():
    values = {name: 0.5 + k / 100 for k, name in enumerate(RESCALED_FIELDS)}
    baseline = RescaleBaseline(values, FITTED)
    raw = NASHOutput(**{name: np.array([0.9, 1.0]) for name in SCORE_FIELDS}, config={}, hashcode="h")
    out = baseline.apply(raw)
    for name in SCORE_FIELDS:
        if name in RESCALED_FIELDS:
            b = values[name]
            np.testing.assert_allclose(getattr(out, name), [(0.9 - b) / (1 - b), 1.0], err_msg=name)
        else:  # S_num and alpha are never rescaled
            np.testing.assert_array_equal(getattr(out, name), getattr(raw, name), err_msg=name)
    assert out.rescale is baseline
    back = baseline.undo(out)
    for name in SCORE_FIELDS:
        np.testing.assert_allclose(getattr(back, name), getattr(raw, name), atol=1e-15)
    assert back.rescale is None


@pytest.mark.parametrize("bad", [1.0, 1.5, float("nan"), "0.3", True])
def test_a_baseline_that_cannot_rescale_is_refused(bad):
    values = {name: 0.5 for name in RESCALED_FIELDS}
    values["text_recall"] = bad
    with pytest.raises(ValueError, match="text_recall"):
        RescaleBaseline(values, FITTED)


def test_a_missing_field_is_named():
    with pytest.raises(ValueError, match="nash_recall"):
        RescaleBaseline({name: 0.5 for name in RESCALED_FIELDS if name != "nash_recall"}, FITTED)


def test_file_round_trip_and_malformed_files(tmp_path):
    baseline = _baseline(0.25)
    path = baseline.save(tmp_path / "b.json")
    again = RescaleBaseline.load(path)
    assert dict(again.values) == dict(baseline.values) and again.digest == baseline.digest
    (tmp_path / "not.json").write_text("{oops")
    with pytest.raises(ValueError, match="not a JSON file"):
        RescaleBaseline.load(tmp_path / "not.json")
    (tmp_path / "idf.json").write_text(json.dumps({"n_documents": 3, "df": {}}))
    with pytest.raises(ValueError, match="not a file written by `nash fit-baseline`"):
        RescaleBaseline.load(tmp_path / "idf.json")
    with pytest.raises(FileNotFoundError, match=r"missing\.json"):
        RescaleBaseline.load(tmp_path / "missing.json")


def test_another_models_baseline_is_refused_other_options_warn():
    with pytest.raises(ValueError, match=r"num_layers=3 \(this scorer: 2\).*nash fit-baseline"):
        _baseline(num_layers=3).check(CONFIG)
    with pytest.warns(UserWarning, match=r"threshold=0.5 \(this scorer: 0.0\)"):
        _baseline(threshold=0.5).check(CONFIG)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _baseline(threshold=0.5).check(CONFIG, options_fixed=False)  # tau not fixed yet: only the model counts
        _baseline().check(CONFIG)  # same options: silent


def test_a_baseline_fitted_with_the_other_text_channel_warns():
    with pytest.warns(UserWarning, match=r"text_channel='two-pass' \(this scorer: 'one-pass'\)"):
        _baseline(text_channel="two-pass").check(CONFIG)
    # a file from before 0.4.0.dev1 names no text channel: it was fitted with two passes
    before = RescaleBaseline(dict(_baseline().values), {k: v for k, v in FITTED.items() if k != "text_channel"},
                             source="test")
    with pytest.warns(UserWarning, match=r"text_channel='two-pass' \(this scorer: 'one-pass'\)"):
        before.check(CONFIG)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        before.check({**CONFIG, "text_channel": "two-pass"})


def test_shipped_baselines_load_and_cover_both_backends_of_the_embedded_model():
    shipped = [RescaleBaseline.load(p) for p in shipped_baselines()]
    keys = {(b.fitted["model"], b.fitted["backend"]) for b in shipped}
    assert keys == {("sentence-transformers/all-MiniLM-L6-v2", "sentence"),
                    ("sentence-transformers/all-MiniLM-L6-v2", "token")}
    for b in shipped:
        assert b.recipe["pairs"] == 10_000 and b.recipe["seed"] == 0
        assert 0 < b.values["baseline"] < 1 and 0 < b.values["nash"] < 1
        if b.fitted["backend"] == "sentence":  # a symmetric cosine: P = R = F
            assert b.values["baseline_precision"] == b.values["baseline_recall"] == b.values["baseline"]


def test_random_pairs_are_seeded_and_never_pair_a_sentence_with_itself():
    first, second = random_pairs(5, 1000, seed=7)
    assert (first != second).all() and set(first) == set(range(5)) and set(second) == set(range(5))
    again = random_pairs(5, 1000, seed=7)
    assert (again[0] == first).all() and (again[1] == second).all()
    assert not (random_pairs(5, 1000, seed=8)[0] == first).all()


SENTENCES = [f"Company {chr(65 + k)} reported revenue of {3 * k + 1}.{k} million in quarter {k % 4 + 1}, "
             f"{'up' if k % 2 else 'down'} {k + 2}% on the year." for k in range(26)]


def test_fitted_baseline_maps_its_random_pairs_to_mean_zero_and_identical_texts_to_one(tiny_scorer, tmp_path):
    fitted = fit_rescale_baseline(tiny_scorer, SENTENCES, n_pairs=60, seed=1)
    assert fitted.recipe["sentences"] == 26 and fitted.recipe["pairs"] == 60
    path = fitted.save(tmp_path / "b.json")
    rescaled = tiny_scorer.with_options(rescale_with_baseline=True, baseline_path=str(path), baseline=True)
    texts = sorted(SENTENCES)
    first, second = random_pairs(len(texts), 60, seed=1)
    out = rescaled.score([texts[i] for i in first], [texts[j] for j in second])
    for name in RESCALED_FIELDS:
        assert float(np.mean(getattr(out, name))) == pytest.approx(0.0, abs=1e-9), name
    same = rescaled.score(SENTENCES[:3], SENTENCES[:3])
    for name in RESCALED_FIELDS:
        np.testing.assert_allclose(getattr(same, name), 1.0, atol=1e-6, err_msg=name)
    assert "_rescaled" in out.hashcode and out.config["rescale_baseline"] == fitted.digest
    assert out.hashcode != tiny_scorer.score(SENTENCES[:1], SENTENCES[1:2]).hashcode
    # The map is increasing: rankings and the reference kept among several do not move.
    plain = tiny_scorer.score([texts[i] for i in first], [texts[j] for j in second])
    assert (np.argsort(plain.nash, kind="stable") == np.argsort(out.nash, kind="stable")).all()


def test_explain_keeps_the_raw_arithmetic_and_reports_the_rescaled_scores(tiny_scorer, tmp_path):
    path = fit_rescale_baseline(tiny_scorer, SENTENCES, n_pairs=40, seed=0).save(tmp_path / "b.json")
    rescaled = tiny_scorer.with_options(rescale_with_baseline=True, baseline_path=str(path))
    info = rescaled.explain(SENTENCES[0], SENTENCES[1])
    s, r = info["scores"], info["rescaled"]
    assert s["nash"] == pytest.approx(info["alpha"] * s["text"] + (1 - info["alpha"]) * s["numeric"], abs=1e-9)
    b = r["baseline_values"]["nash"]
    assert r["nash"] == pytest.approx((s["nash"] - b) / (1 - b))
    assert r["nash"] == pytest.approx(float(rescaled.score([SENTENCES[0]], [SENTENCES[1]]).nash[0]))
    assert tiny_scorer.explain(SENTENCES[0], SENTENCES[1])["rescaled"] is None


def test_rescaling_options_are_checked_before_any_model_loads(tiny_model_dir, tmp_path):
    from nash_metric import NASH, NASHConfig

    with pytest.raises(ValueError, match="rescale_with_baseline is off"):
        NASHConfig(baseline_path="b.json")
    with pytest.raises(ValueError, match=r"no baseline ships for model=.*nash fit-baseline"):
        NASH(model=str(tiny_model_dir), backend="token", threshold=0.0, device="cpu", rescale_with_baseline=True)


def test_fitting_refuses_a_corpus_whose_random_pairs_all_score_one(tiny_scorer):
    alike = [f"Revenue rose {k}% in {2000 + k}." for k in range(30)]  # one text once the numbers are masked
    with pytest.raises(ValueError, match=r"average 1 on text.*varied corpus"):
        fit_rescale_baseline(tiny_scorer, alike, n_pairs=20)


def test_fitting_needs_enough_distinct_sentences(tiny_scorer):
    with pytest.raises(ValueError, match="at least 20 distinct"):
        fit_rescale_baseline(tiny_scorer, SENTENCES[:5] * 10, n_pairs=10)
    with pytest.raises(ValueError, match="n_pairs"):
        fit_rescale_baseline(tiny_scorer, SENTENCES, n_pairs=0)
    with pytest.raises(TypeError, match=r"sentences\[26\] is None"):  # refused, not silently dropped
        fit_rescale_baseline(tiny_scorer, [*SENTENCES, None], n_pairs=10)
