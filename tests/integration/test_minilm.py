"""Must-shows on the real embedded model (all-MiniLM-L6-v2)."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from nash_metric import NASH, calibrate_threshold

pytestmark = pytest.mark.slow

ANCHOR = "Revenue increased by 4%."
CLOSE = "Revenue increased by 3.56%."
FAR = "Revenue increased by 40%."


@pytest.mark.parametrize("backend", ["sentence", "token"])
def test_paper_example_nash_fixes_the_ranking(backend, minilm_sentence, minilm_token):
    scorer = minilm_sentence if backend == "sentence" else minilm_token
    out = scorer.score([ANCHOR, ANCHOR], [CLOSE, FAR])
    assert out.baseline[1] > out.baseline[0], "the baseline is numerically blind: it prefers 40%"
    assert out.nash[0] > out.nash[1], "NASH prefers 3.56%"
    assert scorer.threshold == pytest.approx(0.3763)


def phrasebank_pairs(path, n):
    with open(path, encoding="latin-1") as fh:
        rows = [r[1] for r in csv.reader(fh)]
    return rows[:n], rows[n : 2 * n]


@pytest.mark.parametrize("layer,idf", [(6, False), (3, True)])
def test_token_backbone_equals_bert_score_package(data_paths, layer, idf):
    """Precision, recall and F1 of the baseline and of the text channel are bert-score's, to 1e-4."""
    bert_score = pytest.importorskip("bert_score")
    from nash_metric.backbone.models import embedded_model_dir

    cands, refs = phrasebank_pairs(data_paths.require("phrasebank"), 40)
    cands.append(ANCHOR)
    refs.append(FAR)

    def package(c, r):
        # batch_size=1: bert-score's batched padding lets a padded 0 win a max when every real similarity of a
        # token is negative; unpadded it computes greedy matching exactly, which is what we compare with.
        prf = bert_score.score(c, r, model_type=str(embedded_model_dir()), num_layers=layer, idf=idf, batch_size=1)
        return [t.numpy() for t in prf]

    scorer = NASH(backend="token", num_layers=layer, bertscore_idf=idf, device="cpu", baseline=True)
    ours = scorer.score(cands, refs)
    for name, expected in zip(("baseline_precision", "baseline_recall", "baseline"), package(cands, refs)):
        np.testing.assert_allclose(getattr(ours, name), expected, atol=1e-4, err_msg=name)
    assert np.abs(ours.baseline_precision - ours.baseline_recall).max() > 0.01, "P and R must be told apart"
    # S_text is BERTScore on the number-free forms of the text channel.
    forms = [info["text_channel"] for info in scorer.explain_batch(cands, refs)]
    assert any(f["a"] != c for f, c in zip(forms, cands)), "some pairs must have numbers masked"
    channel = package([f["a"] for f in forms], [f["b"] for f in forms])
    for name, expected in zip(("text_precision", "text_recall", "text"), channel):
        np.testing.assert_allclose(getattr(ours, name), expected, atol=1e-4, err_msg=name)


def test_rescaled_token_baseline_equals_bert_score_rescaling(data_paths, minilm_token, tmp_path):
    """With the same b, our rescaled P/R/F are bert-score's `rescale_with_baseline` ones."""
    bert_score = pytest.importorskip("bert_score")
    from nash_metric.backbone.models import embedded_model_dir
    from nash_metric.calibration.rescale import fit_rescale_baseline

    sentences = data_paths.require("annual_reports").read_text(encoding="utf-8").splitlines()[:120]
    fitted = fit_rescale_baseline(minilm_token, sentences, n_pairs=150, seed=3)
    fitted.save(tmp_path / "baseline.json")
    b = fitted.values
    layers = minilm_token.num_layers
    rows = ["LAYER,P,R,F"] + [f"{k},{b['baseline_precision']},{b['baseline_recall']},{b['baseline']}"
                              for k in range(layers + 1)]
    (tmp_path / "baseline.csv").write_text("\n".join(rows) + "\n")

    cands, refs = phrasebank_pairs(data_paths.require("phrasebank"), 15)
    expected = bert_score.score(cands, refs, model_type=str(embedded_model_dir()), num_layers=layers, lang="en",
                                rescale_with_baseline=True, baseline_path=str(tmp_path / "baseline.csv"),
                                batch_size=1)
    ours = minilm_token.with_options(rescale_with_baseline=True, baseline_path=str(tmp_path / "baseline.json"))
    out = ours.score(cands, refs)
    for name, values in zip(("baseline_precision", "baseline_recall", "baseline"), expected):
        np.testing.assert_allclose(getattr(out, name), values.numpy(), atol=1e-4, err_msg=name)
    assert out.baseline.min() < 0.5, "rescaled scores spread out of the raw 0.8-0.95 band"


def test_sentence_baseline_is_the_models_own_cosine(minilm_sentence):
    st_model = minilm_sentence.encoder.model
    a, b = [ANCHOR, "Profit fell to EUR 3.1 mn."], [FAR, "Operating profit rose to EUR 9.9 mn in 2009."]
    emb_a = st_model.encode(a, normalize_embeddings=True)
    emb_b = st_model.encode(b, normalize_embeddings=True)
    out = minilm_sentence.score(a, b)
    np.testing.assert_allclose(out.baseline, (emb_a * emb_b).sum(1), atol=1e-5)


def test_batch_sizes_1_7_64_give_identical_scores(data_paths):
    cands, refs = phrasebank_pairs(data_paths.require("phrasebank"), 30)
    results = [NASH(backend="sentence", batch_size=b, device="cpu", baseline=True).score(cands, refs)
               for b in (1, 7, 64)]
    for other in results[1:]:
        np.testing.assert_allclose(other.nash, results[0].nash, atol=1e-6)
        np.testing.assert_allclose(other.baseline, results[0].baseline, atol=1e-6)


def test_numbers_past_the_256_token_window_are_scored(minilm_sentence):
    filler = "The board discussed strategy, staffing, governance and the outlook for the coming period. " * 25
    a, b = filler + "Revenue rose 4%.", filler + "Revenue rose 40%."
    info = minilm_sentence.explain(a, b)
    assert info["windows"]["a"] >= 2
    assert info["alignments"]["a_to_b"][0]["status"] == "accepted"
    assert info["scores"]["numeric"] == pytest.approx(1 / (1 + 36 / 23))


def test_calibrated_threshold_on_phrasebank_is_sensible(minilm_sentence, data_paths):
    cands, _ = phrasebank_pairs(data_paths.require("phrasebank"), 300)
    cal = calibrate_threshold(minilm_sentence, cands, n_pairs=500, seed=0)
    again = calibrate_threshold(minilm_sentence, list(reversed(cands)), n_pairs=500, seed=0)
    assert cal.tau == again.tau  # depends on the set of sentences, not their order
    assert 0.0 < cal.mu < cal.tau < 1.0 and cal.n_sentences > 50


@pytest.mark.parametrize("backend", ["sentence", "token"])
def test_a_pair_scores_the_same_alone_or_inside_any_call(backend, minilm_sentence, minilm_token, data_paths):
    """Under the defaults a pair's score is a function of the pair alone: no call-level IDF, no per-call tau."""
    scorer = minilm_sentence if backend == "sentence" else minilm_token
    preds, refs = phrasebank_pairs(data_paths.require("phrasebank"), 150)
    preds, refs = [ANCHOR, ANCHOR, *preds], [CLOSE, FAR, *refs]
    together = scorer.score(preds, refs)
    chunked = scorer.with_options(chunk_size=37).score(preds[::-1], refs[::-1])
    for name in ("nash", "text", "numeric", "alpha", "baseline"):
        np.testing.assert_allclose(getattr(chunked, name)[::-1], getattr(together, name), atol=1e-6, err_msg=name)
    for k in (0, 1, 2, 50, 151):
        alone = scorer.score([preds[k]], [refs[k]])
        assert alone.nash[0] == pytest.approx(together.nash[k], abs=1e-6)
        assert alone.alpha[0] == together.alpha[k] and alone.hashcode == together.hashcode
    assert scorer.with_options(threshold=0.3763).hashcode == together.hashcode  # the default tau, given or not
    if backend == "sentence":  # the paper's example, as the README and the toolkit give it
        assert together.nash[:2] == pytest.approx([0.9789, 0.8475], abs=1e-4)


@pytest.mark.parametrize("backend", ["sentence", "token"])
def test_shipped_rescale_baseline_maps_identical_texts_to_one(backend, minilm_sentence, minilm_token):
    scorer = (minilm_sentence if backend == "sentence" else minilm_token).with_options(rescale_with_baseline=True)
    assert scorer.echo["rescale_baseline_source"] == f"shipped:all-MiniLM-L6-v2.{backend}.json"
    out = scorer.score([CLOSE, ANCHOR], [CLOSE, FAR])
    for name in ("nash", "text", "baseline", "nash_precision", "baseline_recall"):
        assert getattr(out, name)[0] == pytest.approx(1.0, abs=1e-6), name
    raw = scorer.with_options(rescale_with_baseline=False).score([ANCHOR], [FAR])
    b = scorer.rescale.values["baseline"]
    assert out.baseline[1] == pytest.approx((raw.baseline[0] - b) / (1 - b))
