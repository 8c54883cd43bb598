"""Sources of any size: a text longer than the window assembled window by window (the same mention vectors and
scores as the whole stitched text, no token states kept), tokenized in pieces (the same tokens), its verdicts in
blocks (the same verdicts), and `nash check`'s limit and progress bar."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
import torch
from random_tokens import random_tokens

from nash_metric.backbone import encoders, windows
from nash_metric.backbone.encoders import Encoder
from nash_metric.backbone.windows import (
    LongText,
    StreamPooling,
    batch_mention_vectors,
    pooling_modes,
    tokenize_in_pieces,
)
from nash_metric.cli import main

FILLER = "The market was calm and trading was light across the region. "
SOURCE = FILLER * 6 + "Revenue rose 4% to $120.5 million in 2019, and costs fell 2.5% to 80 million. " + FILLER * 3


def _stitched(enc: Encoder, text: str) -> torch.Tensor:
    """The previous code path: every window encoded, each token's state taken from the window whose centre is
    nearest (the earlier one on a tie), the special tokens of the first and last windows around them."""
    ids = enc.tokenize(text).ids
    starts = enc.window_starts(len(ids))
    lead = len(enc.prefix)
    with torch.inference_mode():
        states = [enc.forward(*enc.pad([enc.window_ids(ids, s)]))[0].float() for s in starts]
    owner = [min(range(len(starts)), key=lambda k: (abs(t - (starts[k] + (enc.window - 1) / 2)), k))
             for t in range(len(ids))]
    content = torch.stack([states[k][lead + t - starts[k]] for t, k in enumerate(owner)])
    return torch.cat([states[0][:lead], content, states[-1][lead + enc.window :]])


def _alone(content: torch.Tensor, offsets, spans) -> tuple[np.ndarray, np.ndarray]:
    """The mention vectors of one text's content states, as a batch of one gathers them."""
    return batch_mention_vectors(content[None].numpy(), 0, [np.asarray(offsets)], [spans])[0]


def _spans(text: str) -> list[tuple[int, int]]:
    from nash_metric.pipeline.pool import TextPool

    pool = TextPool.build([text])
    return pool.spans()[pool.texts.index(text)]


@pytest.mark.parametrize("scorer", ["tiny_scorer", "tiny_sentence_scorer"])
def test_a_text_just_over_one_window_gets_the_mention_vectors_of_the_stitched_text(scorer, request):
    enc = request.getfixturevalue(scorer).encoder
    spans = _spans(SOURCE)
    (got,) = enc.encode([SOURCE], [spans])
    assert got.n_windows > 1 and len(spans) == 5
    full = _stitched(enc, SOURCE)
    lead = len(enc.prefix)
    offsets = enc.tokenize(SOURCE).offsets
    expected, has = _alone(full[lead : lead + got.n_tokens], offsets, spans)
    np.testing.assert_array_equal(got.mention_vectors, expected)  # bit for bit
    assert got.mention_has_tokens.tolist() == has.tolist() == [True] * 5
    if got.states is not None:  # the token backend keeps every token state: BERTScore reads them all
        np.testing.assert_array_equal(got.states.numpy(), torch.nn.functional.normalize(full, dim=-1).numpy())


def test_a_long_text_is_pooled_window_by_window_as_the_model_pools_it_whole(tiny_sentence_scorer, monkeypatch):
    enc = tiny_sentence_scorer.encoder
    spans = _spans(SOURCE)
    (whole,) = enc.encode([SOURCE], [spans])  # up to STITCHED_TOKENS: the model's pooling of the stitched states
    np.testing.assert_allclose(whole.pooled.numpy(), torch.nn.functional.normalize(
        enc._pool_stitched(_stitched(enc, SOURCE), np.ones(whole.n_tokens + 2, bool)), dim=-1).numpy(), atol=1e-6)
    left_out = [[spans[1]]]
    (whole,) = enc.encode([SOURCE], [spans], left_out=left_out)  # number-blind, pooled over the stitched states
    built: list[LongText] = []
    make = enc._long_text
    monkeypatch.setattr(encoders, "STITCHED_TOKENS", 0)
    monkeypatch.setattr(enc, "_long_text", lambda *a: built.append(make(*a)) or built[-1])
    (summed,) = enc.encode([SOURCE], [spans], left_out=left_out)
    (text,) = built
    # Nothing per token is kept: no states, and of the mention buffer at most what the last window left.
    assert text.pooling is not None and not text.keep_all and text.parts == [] and summed.states is None
    assert text._mentions.buffer is None or len(text._mentions.buffer) <= enc.window
    np.testing.assert_array_equal(summed.mention_vectors, whole.mention_vectors)
    np.testing.assert_allclose(summed.pooled.numpy(), whole.pooled.numpy(), atol=1e-6)
    monkeypatch.setattr(encoders, "STITCHED_TOKENS", 10**9)
    (stitched,) = enc.encode([SOURCE], [spans], left_out=left_out)
    np.testing.assert_allclose(summed.channel_pooled.numpy(), stitched.channel_pooled.numpy(), atol=1e-6)
    assert not np.allclose(summed.channel_pooled.numpy(), summed.pooled.numpy(), atol=1e-4)


def test_long_texts_score_as_before_and_short_ones_alike(tiny_sentence_scorer, monkeypatch):
    claims = ["Revenue rose 4% to $120.5 million in 2019.", "Costs fell 2.5% to 80 million."]
    scorer = tiny_sentence_scorer.with_options(baseline=True)
    before = scorer.score(claims, [SOURCE] * 2)
    monkeypatch.setattr(encoders, "STITCHED_TOKENS", 0)
    after = scorer.score(claims, [SOURCE] * 2)
    for field in ("nash", "text", "numeric", "baseline", "numeric_support"):
        np.testing.assert_allclose(getattr(after, field), getattr(before, field), atol=1e-6)
    assert after.figure_verdicts == before.figure_verdicts


@pytest.mark.parametrize("seed", range(4))
def test_mention_sums_of_runs_are_the_whole_texts_bit_for_bit(seed):
    """Runs of tokens in order, mentions across runs, tokens of no mention, zero-width and out-of-order tokens."""
    rng = np.random.default_rng(seed)
    for trial in range(40):
        n = int(rng.integers(10, 80))
        offsets, spans = random_tokens(rng, n, trial, spans=6, longest=7, reach=3)
        content = torch.randn(n, 8)
        expected, has = _alone(content, offsets, spans)
        cuts = np.unique(np.concatenate([[0, n], rng.integers(1, n, int(rng.integers(1, 6)))]))
        sums = windows._MentionSums(offsets, spans)
        for a, b in itertools.pairwise(cuts):
            sums.add(content[a:b].numpy(), int(a), int(b))
        vectors, placed = sums.result()
        np.testing.assert_array_equal(vectors, expected)
        assert placed.tolist() == has.tolist()


def _trained(pre_tokenizer: str):
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    sentences = [SOURCE, "Net sales rose 17% in 2019 to $1,452.4 million.", "Profit — up 4 ‘per cent’ — was €3.1m."]
    if pre_tokenizer == "metaspace":
        tok = Tokenizer(models.Unigram())
        tok.pre_tokenizer = pre_tokenizers.Metaspace()
        tok.train_from_iterator(sentences, trainers.UnigramTrainer(vocab_size=200, unk_token="<unk>",
                                                                    special_tokens=["<unk>"]))
        return PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>")
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=pre_tokenizer == "bytelevel-prefix")
    tok.train_from_iterator(sentences, trainers.BpeTrainer(vocab_size=300,
                                                           initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    return PreTrainedTokenizerFast(tokenizer_object=tok)


@pytest.mark.parametrize("kind", ["wordpiece", "bytelevel", "bytelevel-prefix", "metaspace"])
def test_a_long_text_tokenized_in_pieces_gets_the_tokens_of_one_call(kind, tiny_scorer):
    tokenizer = tiny_scorer.encoder.tokenizer if kind == "wordpiece" else _trained(kind)

    def tokenize(text: str) -> tuple[np.ndarray, np.ndarray]:
        enc = tokenizer([text], add_special_tokens=False, return_offsets_mapping=True, verbose=False)
        return np.asarray(enc["input_ids"][0]), np.asarray(enc["offset_mapping"][0]).reshape(-1, 2)

    text = ("Profit — up 4 ‘per cent’ — was €3.1m.\n\n| Segment | 2019 |\n|---|---|\n| Industrial | 1,452.4 |\n"
            + SOURCE) * 6
    calls: list[int] = []

    def counted(piece: str) -> tuple[np.ndarray, np.ndarray]:
        calls.append(len(piece))
        return tokenize(piece)

    ids, offsets = tokenize_in_pieces(counted, text, piece=500, overlap=120)
    expected_ids, expected_offsets = tokenize(text)
    np.testing.assert_array_equal(ids, expected_ids)
    np.testing.assert_array_equal(offsets, expected_offsets)
    assert max(calls) == 500 and len(calls) > len(text) // 500  # in pieces, never the whole text at once


def test_a_run_without_token_boundaries_is_tokenized_whole(tiny_scorer):
    tokenizer = tiny_scorer.encoder.tokenizer
    text = "word " * 50 + "x" * 400 + " word" * 50

    def tokenize(piece: str) -> tuple[np.ndarray, np.ndarray]:
        enc = tokenizer([piece], add_special_tokens=False, return_offsets_mapping=True, verbose=False)
        return np.asarray(enc["input_ids"][0]), np.asarray(enc["offset_mapping"][0]).reshape(-1, 2)

    calls: list[int] = []
    ids, offsets = tokenize_in_pieces(lambda piece: calls.append(len(piece)) or tokenize(piece), text, piece=300,
                                      overlap=150)
    assert calls[-1] == len(text)  # no token both pieces read alike: one call on the whole text
    np.testing.assert_array_equal(ids, tokenize(text)[0])
    np.testing.assert_array_equal(offsets, tokenize(text)[1])


@pytest.mark.parametrize("mode", ["mean", "max", "cls", "lasttoken", "mean_sqrt_len_tokens", ("cls", "mean")])
def test_pooling_summed_in_pieces_is_sentence_transformers_pooling(mode):
    from sentence_transformers.models import Pooling

    pooling = Pooling(16, pooling_mode=mode) if isinstance(mode, str) else Pooling(16, pooling_mode="cls")
    if not isinstance(mode, str):  # two modes: the newest release takes a tuple, the older ones flags
        if hasattr(pooling, "pooling_mode_mean_tokens"):
            pooling.pooling_mode_mean_tokens = True
        else:
            pooling = Pooling(16, pooling_mode=mode)
    modes = pooling_modes([pooling])
    assert modes is not None and set(modes) == ({mode} if isinstance(mode, str) else set(mode))
    states = torch.randn(11, 16, generator=torch.Generator().manual_seed(0))
    mask = np.array([1, 1, 0, 1, 1, 1, 0, 0, 1, 1, 1], bool)
    whole = pooling({"token_embeddings": states[None], "attention_mask": torch.from_numpy(mask)[None].long()})
    summed = StreamPooling(modes)
    for a, b in ((0, 3), (3, 4), (4, 11)):
        summed.add(states[a:b], mask[a:b])
    np.testing.assert_allclose(summed.vector().numpy(), whole["sentence_embedding"][0].numpy(), atol=1e-6)


def test_only_poolings_that_add_up_are_summed():
    from sentence_transformers.models import Normalize, Pooling

    assert pooling_modes([Pooling(16, pooling_mode="mean"), Normalize()]) == ("mean",)
    assert pooling_modes([Pooling(16, pooling_mode="weightedmean")]) is None
    assert pooling_modes([Pooling(16, pooling_mode="mean"), torch.nn.Identity()]) is None
    assert pooling_modes([torch.nn.Identity()]) is None


def test_cpu_batches_hold_a_token_budget_and_a_long_texts_windows_their_own(tiny_scorer, monkeypatch):
    enc = tiny_scorer.encoder  # 64-token windows: CPU_BATCH_TOKENS // 64 of them a batch
    cap = encoders.CPU_BATCH_TOKENS // 64
    of_long, lengths = [True] * (cap + 3) + [False] * 70, [64] * (cap + 3) + [8] * 70
    batches = enc._batches(of_long, lengths)
    assert batches[:2] == [(0, cap), (cap, 3)]  # the long text's windows alone, at most CPU_BATCH_TOKENS tokens
    assert batches[2:] == [(cap + 3, enc.batch_size), (cap + 3 + enc.batch_size, 70 - enc.batch_size)]
    # Sentences: `batch_size` of them, and on CPU at most CPU_SHORT_BATCH_TOKENS tokens (the longest first).
    short = encoders.CPU_SHORT_BATCH_TOKENS // 60
    assert short < enc.batch_size
    assert enc._batches([False] * 90, [60] * 90) == [(0, short), (short, short), (2 * short, 90 - 2 * short)]
    monkeypatch.setattr(enc, "device", torch.device("cuda"))
    assert enc._batches(of_long, lengths)[0] == (0, enc.batch_size)
    assert enc._batches([False] * 90, [60] * 90)[0] == (0, enc.batch_size)


def test_verdicts_in_blocks_of_figures_are_the_verdicts_of_one_block(tiny_sentence_scorer, monkeypatch):
    from nash_metric.verdicts import value

    source = ("Net sales by contract type ($ in millions):\n| | 2019 | 2018 |\n|---|---|---|\n"
              "| Fixed Price | $ 1,452.4 | $ 1,146.2 |\n| Cost Plus | 800.1 | 700.2 |\n\n" + SOURCE)
    claims = ["Fixed Price sales were $1,146.2 million in 2019. Fixed Price sales grew 26.7% in 2019. Cost Plus sales "
              "were $800.1 million in 2019. Costs fell 2.5% to 80 million, and revenue was $99 million."]
    whole = tiny_sentence_scorer.score(claims, [source])
    monkeypatch.setattr(value, "VERDICT_CELLS", 1)  # one figure a block
    blocks = tiny_sentence_scorer.score(claims, [source])
    # The same verdicts, places and derivations; a cosine of a block of one row comes out of another BLAS kernel.
    drop = lambda verdicts: [{k: v for k, v in e.items() if k != "cosine"} for e in verdicts[0]]  # noqa: E731
    assert drop(blocks.figure_verdicts) == drop(whole.figure_verdicts)
    np.testing.assert_allclose([e["cosine"] for e in blocks.figure_verdicts[0]],
                               [e["cosine"] for e in whole.figure_verdicts[0]], atol=1e-6)
    assert {e["verdict"] for e in whole.figure_verdicts[0]} >= {"supported", "misplaced", "computed"}


# -- nash check: a limit, and a bar for a long source -------------------------------------------------------------


def test_a_source_over_the_limit_is_one_line_before_the_model_loads(tmp_path, capsys):
    source, text = tmp_path / "source.md", tmp_path / "text.txt"
    source.write_text("x1 " * 349_526, encoding="utf-8")  # 1,048,578 characters
    text.write_text("Revenue was $5 million.", encoding="utf-8")
    code = main(["check", "--source", str(source), "--text", str(text), "--max-source-chars", "500000",
                 "--model", "/no/such/model"])
    err = capsys.readouterr().err
    assert code == 2 and err == ("nash: error: --source: 1,048,578 characters, over --max-source-chars 500000; "
                                 "raise it or cut the source\n")
    lines = tmp_path / "checks.jsonl"
    lines.write_text(json.dumps({"source": "Revenue was $5 million.", "text": "It was $5 million."}) + "\n"
                     + json.dumps({"source": "y " * 30, "text": "It was 5."}) + "\n", encoding="utf-8")
    assert main(["check", "--jsonl", str(lines), "--max-source-chars", "50", "--model", "/no/such/model"]) == 2
    assert capsys.readouterr().err == (f"nash: error: {lines}:2: source: 60 characters, over --max-source-chars 50; "
                                       "raise it or cut the source\n")
    with pytest.raises(SystemExit):
        main(["check", "--source", str(source), "--text", str(text), "--max-source-chars", "0"])
    assert "--max-source-chars: must be at least 1, got 0" in capsys.readouterr().err


@pytest.mark.parametrize("quiet", [False, True])
def test_a_long_source_shows_a_bar_on_stderr_unless_quiet(tmp_path, tiny_model_dir, capsys, monkeypatch, quiet):
    from nash_metric.cli import check

    monkeypatch.setattr(check, "LONG_SOURCE", 500)
    source, text = tmp_path / "source.md", tmp_path / "text.txt"
    source.write_text(SOURCE, encoding="utf-8")
    text.write_text("Revenue rose 4% to $120.5 million in 2019.", encoding="utf-8")
    argv = ["check", "--source", str(source), "--text", str(text), "--model", str(tiny_model_dir), "--device", "cpu",
            *(["--quiet"] if quiet else [])]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert "numeric support" in out and "window" not in out
    assert (f"encoding {len(SOURCE):,} characters" in err and "window" in err) != quiet
    monkeypatch.setattr(check, "LONG_SOURCE", len(SOURCE) + 1)  # a short source: no bar
    assert main(argv[: len(argv) - quiet]) == 0
    assert "window" not in capsys.readouterr().err


def test_the_bar_hears_each_batch(tiny_sentence_scorer):
    heard: list[tuple[int, int]] = []
    tiny_sentence_scorer.score(["Revenue rose 4%."], [SOURCE], progress=lambda done, of: heard.append((done, of)))
    assert heard and heard[-1][0] == heard[-1][1] and all(of == heard[0][1] for _, of in heard)
    assert [done for done, _ in heard] == sorted({done for done, _ in heard})


def test_tokens_are_arrays(tiny_scorer):
    tok = tiny_scorer.encoder.tokenize("Revenue rose 4%.")
    assert tok.ids.dtype == np.int64 and tok.offsets.shape == (len(tok.ids), 2)
