"""Corpus-scale scoring on the tiny model: batch-independent defaults, chunks, streams, one tau and IDF per corpus."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from nash_metric import NASH
from nash_metric.calibration.threshold import calibration_sample
from nash_metric.corpus.pair_files import PairCorpus
from nash_metric.corpus.scoring import SHOWN_UNSCORED, Unscored
from nash_metric.numbers.extract import masked_for_scoring
from nash_metric.pipeline.output import SCORE_FIELDS, NASHOutput, public_fields
from nash_metric.pipeline.weighting import IDF, fit_idf

PAIRS = [
    ("Revenue increased by 4%.", "Revenue increased by 3.56%."),
    ("Revenue increased by 4%.", "Revenue increased by 40%."),
    ("Net profit was EUR 5.1 mn on December 31, 2019.", "Net profit was EUR 4.9 mn at the end of 2019."),
    ("The board approved the merger.", "The merger was approved."),
    ("Headcount reached 12 engineers.", "Nothing numeric here."),
    ("Shares fell 1.2.3 points.", "Shares fell 2 points."),  # "1.2.3" has no value: reported, not scored
    ("The plant hired 250 people in 2019 and 300 in 2020.", "The plant hired 260 people in 2019."),
    ("Costs rose 7% in Q4 2019.", "Costs fell 7% in Q3 2019."),
    ("Revenue increased by 4%.", "Revenue increased by 3.56%."),  # a repeat
]
PREDS, REFS = [a for a, _ in PAIRS], [b for _, b in PAIRS]
# threshold='auto' calibrates only on 20+ texts with a number (else it falls back to the default tau): a corpus
# large enough that the tests below exercise the calibration itself.
CORPUS = PAIRS + [(f"Sales rose {i}% to EUR {3 * i} mn in {2000 + i}.", f"Sales rose {i + 1}% in {2001 + i}.")
                  for i in range(1, 12)]
CORPUS_PREDS, CORPUS_REFS = [a for a, _ in CORPUS], [b for _, b in CORPUS]
FIELDS = SCORE_FIELDS


def assert_same_scores(a: NASHOutput, b: NASHOutput, atol: float = 1e-6) -> None:
    assert a.fields == b.fields
    for name in a.fields:
        np.testing.assert_allclose(getattr(a, name), getattr(b, name), atol=atol, err_msg=name)


def test_default_scores_depend_on_the_pair_alone(tiny_default_scorer):
    together = tiny_default_scorer.score(PREDS, REFS)
    for k, (a, b) in enumerate(PAIRS):
        alone = tiny_default_scorer.score([a], [b])
        for name in together.fields:
            assert getattr(alone, name)[0] == pytest.approx(getattr(together, name)[k], abs=1e-6), (k, name)
        assert alone.hashcode == together.hashcode


def test_uniform_alpha_is_the_share_of_word_tokens(tiny_default_scorer):
    # "revenue increased by" + [NUM] on each side: 6 words against 2 numbers.
    assert tiny_default_scorer.score([PAIRS[0][0]], [PAIRS[0][1]]).alpha[0] == pytest.approx(6 / 8)
    assert tiny_default_scorer.echo["idf"] == tiny_default_scorer.echo["idf_source"] == "uniform"


def test_chunks_do_not_change_scores_and_bound_what_is_encoded(tiny_model_dir, tiny_default_scorer, monkeypatch):
    whole = tiny_default_scorer.score(PREDS, REFS)
    small = tiny_default_scorer.with_options(chunk_size=2)
    seen: list[int] = []
    encode = small.encoder.encode
    monkeypatch.setattr(small.encoder, "encode", lambda t, *a, **k: seen.append(len(t)) or encode(t, *a, **k))
    chunked = small.score(PREDS, REFS)
    assert_same_scores(whole, chunked)
    # A chunk of 2 pairs holds at most 4 originals and their 4 text-channel forms.
    assert len(seen) == 5 and max(seen) <= 8
    assert chunked.unscored == whole.unscored and any(u["index"] == 5 for u in chunked.unscored)
    np.testing.assert_allclose(chunked.at_threshold(0.9).nash, whole.at_threshold(0.9).nash, atol=1e-6)
    assert chunked.hashcode == whole.hashcode  # chunk_size does not determine scores


def test_iter_score_streams_chunks_equal_to_score(tiny_default_scorer):
    stream = tiny_default_scorer.with_options(chunk_size=4)
    parts = list(stream.iter_score(iter(PAIRS)))
    assert [len(p) for p in parts] == [4, 4, 1]
    whole = tiny_default_scorer.score(PREDS, REFS)
    assert_same_scores(NASHOutput.concat(parts), whole)
    assert [u["index"] for p in parts for u in p.unscored] == [u["index"] for u in whole.unscored]
    assert NASHOutput.concat(parts).unscored == whole.unscored
    with pytest.raises(TypeError, match=r"pairs\[1\] must be a \(prediction, reference\) pair"):
        list(stream.iter_score([("a", "b"), "c"]))


def test_corpus_decided_options_are_fixed_once_per_corpus(tiny_default_scorer):
    preds, refs = CORPUS_PREDS, CORPUS_REFS
    for options in ({"threshold": "auto"}, {"idf": "references"}, {"bertscore_idf": True}):
        corpus_scorer = tiny_default_scorer.with_options(**options)
        whole = corpus_scorer.score(preds, refs)
        chunked = corpus_scorer.with_options(chunk_size=2).score(preds, refs)
        assert_same_scores(whole, chunked)
        assert whole.hashcode == chunked.hashcode
        reordered = corpus_scorer.with_options(chunk_size=3).score(preds[::-1], refs[::-1])
        flipped = {n: None if getattr(reordered, n) is None else getattr(reordered, n)[::-1] for n in FIELDS}
        assert_same_scores(whole, NASHOutput(**flipped, config={}, hashcode=""))
        with pytest.raises(ValueError, match="for_corpus"):
            next(corpus_scorer.iter_score(CORPUS))
        fixed = corpus_scorer.for_corpus(preds, refs)
        assert_same_scores(NASHOutput.concat(list(fixed.iter_score(CORPUS))), whole)


def test_references_idf_depends_on_the_call_and_says_so(tiny_default_scorer):
    refs_idf = tiny_default_scorer.with_options(idf="references")
    alone = refs_idf.score([PAIRS[1][0]], [PAIRS[1][1]])
    inside = refs_idf.score(PREDS, REFS)
    assert alone.alpha[0] == pytest.approx(6 / 8)  # one document: every df is 1, so uniform
    assert inside.alpha[1] != pytest.approx(alone.alpha[0])
    assert alone.config["idf_source"] == "references" and alone.config["idf"] != inside.config["idf"]
    assert alone.hashcode != inside.hashcode  # the fitted table is named


def test_auto_threshold_is_echoed_and_named_in_the_hashcode(tiny_default_scorer):
    out = tiny_default_scorer.with_options(threshold="auto").score(CORPUS_PREDS, CORPUS_REFS)
    tau = out.config["threshold"]
    assert isinstance(tau, float) and out.config["threshold_source"].startswith("auto:")
    assert "fell back" not in out.config["threshold_source"] and tau != tiny_default_scorer.threshold  # calibrated here
    assert f"tau={tau:.4f}" in out.hashcode


def test_hashcode_names_the_value_of_tau_not_how_it_was_given(tiny_default_scorer):
    given = tiny_default_scorer.with_options(threshold=tiny_default_scorer.threshold)
    assert given.echo["threshold_source"] != tiny_default_scorer.echo["threshold_source"]
    assert given.hashcode == tiny_default_scorer.hashcode
    assert tiny_default_scorer.with_options(threshold=0.5).hashcode != tiny_default_scorer.hashcode
    # None is the default, uniform
    assert tiny_default_scorer.with_options(idf=None).hashcode == tiny_default_scorer.hashcode


def test_several_references_keep_the_best(tiny_default_scorer):
    preds = [PAIRS[0][0], PAIRS[2][0]]
    refs = [[PAIRS[1][1], PAIRS[0][1]], [PAIRS[2][1], "Nothing numeric here.", PAIRS[2][1]]]
    out = tiny_default_scorer.score(preds, refs)
    singles = [tiny_default_scorer.score([p] * len(rs), rs).nash for p, rs in zip(preds, refs)]
    assert out.best_reference.tolist() == [int(np.argmax(s)) for s in singles]
    np.testing.assert_allclose(out.nash, [s.max() for s in singles], atol=1e-6)
    np.testing.assert_allclose(out.nash, out.alpha * out.text + (1 - out.alpha) * out.numeric, atol=1e-9)
    assert out.to_dict()["best_reference"] == out.best_reference.tolist()
    with pytest.raises(ValueError, match=r"references\[1\] is an empty list"):
        tiny_default_scorer.score(preds, [["x"], []])


def test_half_precision_option_is_checked_and_named(tiny_model_dir, tiny_default_scorer):
    with pytest.raises(ValueError, match="unknown dtype"):
        NASH(model=str(tiny_model_dir), backend="token", dtype="float8")
    half = NASH(model=str(tiny_model_dir), backend="token", device="cpu", dtype="bfloat16",
                threshold=tiny_default_scorer.threshold)
    out = half.score(PREDS[:3], REFS[:3])
    assert "_bfloat16_" in out.hashcode and out.hashcode != tiny_default_scorer.hashcode
    np.testing.assert_allclose(out.nash, tiny_default_scorer.score(PREDS[:3], REFS[:3]).nash, atol=0.05)


def test_dataset_map_with_rank_pipeline(tiny_model_dir, tiny_default_scorer):
    """The `datasets.Dataset.map(batched=True, with_rank=True)` recipe of docs/corpus.md, on one process."""
    from datasets import Dataset

    scorers: dict[str, NASH] = {}

    def score_batch(batch, rank):
        device = "cpu"  # on a GPU box: f"cuda:{(rank or 0) % torch.cuda.device_count()}"
        if device not in scorers:
            scorers[device] = NASH(model=str(tiny_model_dir), backend="token", device=device)
        return scorers[device].score(batch["prediction"], batch["reference"]).columns()

    ds = Dataset.from_dict({"prediction": PREDS, "reference": REFS})
    scored = ds.map(score_batch, batched=True, batch_size=4, with_rank=True)
    np.testing.assert_allclose(scored["nash"], tiny_default_scorer.score(PREDS, REFS).nash, atol=1e-6)
    assert scored.column_names == ["prediction", "reference", *public_fields(baseline=False)]


def test_for_corpus_from_chunks_fixes_what_the_lists_fix(tiny_default_scorer):
    """A corpus given as a function returning its chunks (a file read chunk by chunk) gets the same tau and IDFs."""
    passes: list[int] = []

    def chunks_of(corpus: PairCorpus, size: int):
        def read():
            passes.append(size)
            return corpus.chunks(size)
        return read

    multi_refs = [[r, a] for a, r in CORPUS]
    for options in ({"threshold": "auto"}, {"idf": "references"}, {"bertscore_idf": True},
                    {"threshold": "auto", "idf": "references", "bertscore_idf": True}):
        corpus_scorer = tiny_default_scorer.with_options(**options)
        for refs in (CORPUS_REFS, multi_refs):
            whole = corpus_scorer.for_corpus(CORPUS_PREDS, refs)
            for size in (1, 3, 100):
                passes.clear()
                streamed = corpus_scorer.for_corpus(chunks_of(PairCorpus(CORPUS_PREDS, refs, []), size))
                assert passes == [size]  # one pass, whatever the options need
                assert streamed.config == whole.config, (options, size)  # tau, its source, the IDF's digest
                assert streamed.bertscore_idf == whole.bertscore_idf
                assert streamed.idf == whole.idf
    passes.clear()
    corpus = chunks_of(PairCorpus(CORPUS_PREDS, CORPUS_REFS, []), 2)
    assert tiny_default_scorer.for_corpus(corpus) is tiny_default_scorer
    assert passes == []  # nothing left to decide: no pass over the texts
    with pytest.raises(TypeError, match="one function returning their chunks"):
        tiny_default_scorer.with_options(threshold="auto").for_corpus(CORPUS_PREDS)


def test_calibration_sample_streams_the_same_choice():
    texts = [f"Sales rose {k % 700}% in {k % 13}." for k in range(3000)]

    def whole(limit: int) -> list[str]:  # the choice made with every distinct text in hand
        distinct = sorted(set(texts), key=lambda t: hashlib.sha1(t.encode()).digest())
        return sorted(distinct[:limit])

    for limit in (1, 50, 700, 5000):
        assert calibration_sample(iter(texts), limit) == whole(limit)
        merged: list[str] = []
        for start in range(0, len(texts), 97):  # chunk by chunk, as for_corpus samples a file
            merged = calibration_sample([*merged, *texts[start:start + 97]], limit)
        assert merged == whole(limit)
    assert calibration_sample(["lone \ud800 surrogate", "x"], 1) in (["x"], ["lone \ud800 surrogate"])


def test_fit_idf_on_a_stream_is_the_table_of_its_distinct_masked_sentences():
    texts = [*CORPUS_PREDS, *CORPUS_REFS, *CORPUS_REFS]
    streamed = fit_idf(iter(texts))
    assert streamed == IDF.from_masked({masked_for_scoring(t, "full") for t in texts})
    assert streamed.n_documents == len({masked_for_scoring(t, "full") for t in texts}) < len(texts)


def test_unscored_mentions_keep_the_first_few_and_count_all():
    items = [{"index": k, "side": "prediction", "text": "1.2.3", "reason": "malformed"} for k in range(25)]
    shards = [Unscored(), Unscored(), Unscored()]
    for shard, part in zip(shards, (items[:4], items[4:4], items[4:])):
        for k in range(0, len(part), 3):
            shard.add(part[k:k + 3])
    assert [len(s.shown) for s in shards] == [4, 0, SHOWN_UNSCORED] and shards[2].count == 21
    merged = Unscored.merged(shards)
    assert merged.shown == items[:SHOWN_UNSCORED] and merged.count == 25
