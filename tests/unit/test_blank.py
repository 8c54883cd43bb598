"""Blank texts ("", "   ") are scored, not refused: 0 on every channel, alpha 1, one warning with the count."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

from nash_metric import NASH
from nash_metric.calibration.rescale import RESCALED_FIELDS, fit_rescale_baseline
from nash_metric.common.blank import (
    ZEROED_FIELDS,
    BlankCount,
    BlankTextWarning,
    blank_pairs,
    count_blank,
    count_blank_corpus,
    zero_blank_pairs,
)
from nash_metric.functional import nash_score
from nash_metric.pipeline.output import SCORE_FIELDS, NASHOutput
from nash_metric.pipeline.weighting import IDF, fit_idf, pair_alphas
from nash_metric.reports.explain_text import render_explanation

FULL = ("Revenue rose 4% to EUR 5 mn.", "Revenue rose 40% to EUR 5 mn.")  # a pair of non-blank texts
PREDS = ["", "   ", "Revenue rose 4%.", "", "\n\t", FULL[0]]
REFS = ["", "Revenue rose 4%.", "  \n", "No numbers here.", "Costs fell.", FULL[1]]
BLANK_ROWS = [0, 1, 2, 3, 4]


def _blank_warnings(caught) -> list[str]:
    return [str(w.message) for w in caught if issubclass(w.category, BlankTextWarning)]


def _score(scorer, preds, refs, **kwargs):
    """Scores with the baseline too (baseline=True): a blank pair zeroes it as well."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = scorer.with_options(baseline=True).score(preds, refs, **kwargs)
    return out, _blank_warnings(caught)


# ---------------------------------------------------------------------------------------- the rule (no model)


def test_blank_pairs_and_counts():
    assert blank_pairs(PREDS, REFS).tolist() == [True, True, True, True, True, False]
    assert blank_pairs(["a", "\u3000"], ["b", "c"]).tolist() == [False, True]  # str.strip() decides
    assert blank_pairs(["4%", "\u200b"], ["4%", "x"]).tolist() == [False, False]  # numbers only: not blank
    count = count_blank(PREDS, REFS)
    assert (count.predictions, count.references, count.texts, count.first) == (4, 2, 6, 0)
    assert count_blank(["a", "b"], ["c", "d"]) == BlankCount()
    # groups: a prediction with several references is one prediction; indices are prediction indices
    grouped = count_blank(["a", "a", "", ""], ["x", " ", "y", "z"], groups=[2, 2], offset=10)
    assert (grouped.predictions, grouped.references, grouped.first) == (1, 1, 10)
    assert count_blank_corpus(["a", ""], [["x", " "], ["y", "z"]]) == BlankCount(1, 1, 0)
    assert count_blank_corpus(["a", "b"], ["x", ""]) == BlankCount(0, 1, 1)
    assert BlankCount(1, 0, 7) + BlankCount(0, 2, 3) == BlankCount(1, 2, 3)
    assert BlankCount(1, 0, 7) + BlankCount() == BlankCount(1, 0, 7)


def test_warning_message_names_the_counts_and_the_first_pair():
    assert BlankCount(2, 1, 17).message().startswith(
        "3 blank texts (2 predictions, 1 reference) scored 0 on every channel, as bert-score does")
    assert BlankCount(1, 0, 4).message().endswith("first at pair index 4")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        BlankCount().warn()
    assert caught == []  # nothing blank: no warning


def test_zeroing_sets_every_score_field_but_alpha_and_support():
    n = 3
    fields = {name: np.full(n, 0.7) for name in SCORE_FIELDS}
    out = NASHOutput(**fields, config={}, hashcode="h")
    zeroed = zero_blank_pairs(out, np.array([False, True, False]))
    for name in SCORE_FIELDS:
        expected = {"alpha": 1.0, "numeric_support": 0.7}.get(name, 0.0)
        assert getattr(zeroed, name).tolist() == [0.7, expected, 0.7], name
    assert set(ZEROED_FIELDS) == set(SCORE_FIELDS) - {"alpha", "numeric_support"}
    assert zero_blank_pairs(out, np.zeros(n, bool)) is out and zero_blank_pairs(out, None) is out


def test_alpha_of_a_blank_text_is_one_not_nan():
    for idf in (IDF.uniform_weights(), fit_idf(["Revenue rose 4%.", ""]), IDF.from_dict({"[NUM]": 2.0})):
        alphas = pair_alphas(idf, ["", "   ", "[NUM]"], ["", "[NUM] rose", ""])
        assert not np.isnan(alphas).any()
        assert alphas[0] == 1.0 and alphas[2] == 0.0  # no token at all: 1 (all text); numbers only: 0


# -------------------------------------------------------------------------------------- scoring (tiny BERT)


def test_blank_pairs_score_zero_with_alpha_one_and_one_warning(tiny_scorer):
    out, caught = _score(tiny_scorer, PREDS, REFS)
    for name in ZEROED_FIELDS:
        assert getattr(out, name)[BLANK_ROWS].tolist() == [0.0] * len(BLANK_ROWS), name
    assert out.alpha[BLANK_ROWS].tolist() == [1.0] * len(BLANK_ROWS)
    assert not np.isnan(np.stack([getattr(out, name) for name in SCORE_FIELDS])).any()
    # numeric_support is the engine's: an empty prediction states no unsupported figure; a prediction with a
    # number against an empty reference does
    assert out.numeric_support[[0, 1, 3]].tolist() == [1.0, 1.0, 1.0] and out.numeric_support[2] == 0.0
    assert caught == ["6 blank texts (4 predictions, 2 references) scored 0 on every channel, as bert-score does; "
                      "first at pair index 0"]
    # the non-blank pair scores exactly as it does alone, and alone it warns nothing
    alone, none = _score(tiny_scorer, [FULL[0]], [FULL[1]])
    assert none == []
    for name in SCORE_FIELDS:
        assert getattr(out, name)[5] == getattr(alone, name)[0], name


@pytest.mark.parametrize(("pred", "ref", "counts"), [
    ("", "Revenue rose 4%.", "1 blank text (1 prediction, 0 references)"),
    ("Revenue rose 4%.", "   ", "1 blank text (0 predictions, 1 reference)"),
    ("", "", "2 blank texts (1 prediction, 1 reference)"),
    (" \n ", "\t", "2 blank texts (1 prediction, 1 reference)"),
])
def test_each_kind_of_blank_pair(tiny_scorer, pred, ref, counts):
    out, caught = _score(tiny_scorer, ["Costs fell 2%.", pred], ["Costs fell 3%.", ref])
    assert [getattr(out, name)[1] for name in ZEROED_FIELDS] == [0.0] * len(ZEROED_FIELDS)
    assert out.alpha[1] == 1.0 and out.nash[0] > 0
    assert len(caught) == 1 and caught[0].startswith(counts) and caught[0].endswith("first at pair index 1")


def test_empty_against_empty_is_zero_not_one(tiny_scorer):
    out, _ = _score(tiny_scorer, ["", "4%"], ["", "4%"])
    assert out.nash[0] == out.text[0] == out.baseline[0] == out.numeric[0] == 0.0
    # a text made only of numbers is not blank: its empty text-channel form still matches the other's
    assert out.text[1] == 1.0 and out.nash[1] == pytest.approx(1.0)


def test_none_and_non_strings_are_still_type_errors_naming_the_index(tiny_scorer):
    with pytest.raises(TypeError, match=r"predictions\[1\] is None"):
        tiny_scorer.score(["", None], ["a", "b"])
    with pytest.raises(TypeError, match=r"references\[0\]\[1\] is int"):
        tiny_scorer.score([""], [["", 3]])


def test_several_references_with_a_blank_one(tiny_scorer):
    out, caught = _score(tiny_scorer, ["Revenue rose 4%.", ""], [["   ", "Revenue rose 5%."], ["x", "y"]])
    assert out.best_reference.tolist() == [1, 0] and out.nash[0] > 0
    assert out.nash[1] == 0.0 and out.alpha[1] == 1.0
    assert caught == [BlankCount(1, 1, 0).message()]  # the blank prediction counted once, not per reference


def test_iter_score_warns_once_per_stream_with_stream_indices(tiny_scorer):
    scorer = tiny_scorer.with_options(chunk_size=2)
    pairs = [("Costs fell 2%.", "Costs fell 3%."), ("a", "b"), ("c", "d"), ("", "e"), ("f", " "), ("", "")]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parts = list(scorer.iter_score(iter(pairs)))
    assert len(parts) == 3
    assert _blank_warnings(caught) == [BlankCount(2, 2, 3).message()]  # one for the stream, indices from its start
    out = NASHOutput.concat(parts)
    assert out.nash[3:].tolist() == [0.0, 0.0, 0.0] and out.alpha[3:].tolist() == [1.0, 1.0, 1.0]
    whole, _ = _score(scorer, *map(list, zip(*pairs)))
    np.testing.assert_array_equal(out.nash, whole.nash)
    # a stream left early still says what it saw
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        stream = scorer.iter_score(iter(pairs))
        next(stream), next(stream)
        stream.close()
    assert _blank_warnings(caught) == [BlankCount(1, 0, 3).message()]


def test_nash_score_and_explain_accept_blank_texts(tiny_model_dir):
    with pytest.warns(BlankTextWarning, match=r"1 blank text \(0 predictions, 1 reference\)") as caught:
        out = nash_score(["Revenue rose 4%."], [""], model=str(tiny_model_dir), backend="token", threshold=0.0,
                         device="cpu")
    assert len(_blank_warnings(caught)) == 1
    assert out.nash.tolist() == [0.0] and out.alpha.tolist() == [1.0]
    scorer = NASH(model=str(tiny_model_dir), backend="token", threshold=0.0, device="cpu", baseline=True)
    with pytest.warns(BlankTextWarning, match="1 blank text"):
        info = scorer.explain("", "Revenue rose 4%.")
    assert info["alpha"] == 1.0
    assert {name: info["scores"][name] for name in ZEROED_FIELDS} == dict.fromkeys(ZEROED_FIELDS, 0.0)
    assert info["scores"]["numeric_a_to_b"] == info["scores"]["numeric_b_to_a"] == 0.0
    assert "A is blank: every score is 0 and alpha 1, as bert-score scores an empty text" in render_explanation(info)


def test_at_threshold_keeps_blank_pairs_at_zero(tiny_scorer):
    out, _ = _score(tiny_scorer, ["", "Revenue rose 4%.", "Costs fell 2%."], ["No numbers.", "", "Costs fell 3%."])
    again = out.at_threshold(0.5)
    for name in ZEROED_FIELDS:
        assert getattr(again, name)[:2].tolist() == [0.0, 0.0], name
    assert again.alpha[:2].tolist() == [1.0, 1.0]
    # the mask follows the rows through concat and best_of: rows (b, b), (n, b), (b, n) keep b, n, n
    merged = NASHOutput.concat([out, out]).best_of([2, 2, 2])
    assert merged.blank.tolist() == [True, False, False] and merged.best_reference.tolist() == [0, 0, 1]
    assert merged.at_threshold(0.5).nash[0] == 0.0


def test_rescaled_blank_pairs_read_as_bert_score_rescales_a_raw_zero(tiny_scorer, tmp_path):
    sentences = [f"Company {chr(65 + k)} reported revenue of {k + 1}.{k} million, up {k + 2}%." for k in range(24)]
    with warnings.catch_warnings():
        warnings.simplefilter("error", BlankTextWarning)  # blank sentences are left out of the recipe, not paired
        fitted = fit_rescale_baseline(tiny_scorer, [*sentences, "", "   "], n_pairs=40, seed=0)
    assert fitted.recipe["sentences"] == 24
    rescaled = tiny_scorer.with_options(rescale_with_baseline=True, baseline_path=str(fitted.save(tmp_path / "b.json")))
    out, caught = _score(rescaled, ["", sentences[0]], [sentences[1], sentences[0]])
    assert len(caught) == 1
    for name in RESCALED_FIELDS:  # bert-score: raw 0, then (0 - b) / (1 - b)
        b = fitted.values[name]
        assert getattr(out, name)[0] == pytest.approx(-b / (1 - b), abs=1e-12), name
    assert out.numeric[0] == 0.0 and out.alpha[0] == 1.0  # never rescaled
    assert out.nash[1] == pytest.approx(1.0)


def test_corpus_options_survive_blank_texts(tiny_model_dir):
    base = NASH(model=str(tiny_model_dir), backend="token", device="cpu")
    preds, refs = ["", "Revenue rose 4%.", "   "], ["Revenue rose 5%.", "", "No numbers."]
    for options in ({"threshold": "auto"}, {"threshold": 0.0, "idf": "references"},
                    {"threshold": 0.0, "bertscore_idf": True}):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = base.with_options(**options).score(preds, refs)
        assert out.nash.tolist() == [0.0, 0.0, 0.0] and out.alpha.tolist() == [1.0, 1.0, 1.0], options
        assert not [w for w in caught if issubclass(w.category, RuntimeWarning)], options
        assert len(_blank_warnings(caught)) == 1
    vectors = base.mention_vectors(["", "  ", "Revenue rose 4%."])
    assert [len(v) for v in vectors] == [0, 0, 1]


def test_sentence_backend_scores_blank_texts_without_noise(tiny_sentence_scorer):
    out, caught = _score(tiny_sentence_scorer, ["", "   ", "Revenue rose 4%."],
                         ["Revenue rose 4%.", "", "Revenue rose 4%."])
    assert out.nash[:2].tolist() == [0.0, 0.0] and out.baseline[:2].tolist() == [0.0, 0.0]
    assert out.nash[2] == pytest.approx(1.0)
    assert len(caught) == 1 and re.match(r"3 blank texts \(2 predictions, 1 reference\)", caught[0])
