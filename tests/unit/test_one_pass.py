"""The one-pass text channel (`text_channel="one-pass"`): one forward pass per text, in which the words cannot
attend to the numbers (a 4-D additive mask, the words' positions counted without the numbers) and the numbers read
every token.

Checked against hand computations on the model itself: the words' states are those of the text without its
numbers encoded alone (token and sentence backbones), a number changes no word's state, a word changes the
numbers' vectors, SDPA and eager attention agree, no second pass runs unless the baseline is asked for, and the
baseline is then the plain pass's.
"""

from __future__ import annotations

import random
import re

import numpy as np
import pytest
import torch

from nash_metric import NASH, NASHConfig
from nash_metric.backbone.encoders import channel_view, position_offset
from nash_metric.pipeline.pool import CONTEXT_WORDS, TextPool, _with_words

PAIRS = [
    ("Revenue rose 4% to $3.2 million in 2019.", "Revenue rose 40% to $3.5 million in 2019."),
    ("Sales grew 5-10% this year.", "Sales grew between 5 and 10 % this year."),
    ("No figures at all here.", "Nothing numeric either."),
    ("4%", "Revenue rose 4%."),  # a text that is all number: its text channel is empty
]
PREDS, REFS = [a for a, _ in PAIRS], [b for _, b in PAIRS]


@pytest.fixture(scope="module")
def blind(tiny_scorer):
    """The tiny token scorer reading its text channel from the one number-blind pass."""
    return tiny_scorer.with_options(text_channel="one-pass")


def _channel_states(scorer: NASH, text: str) -> torch.Tensor:
    """The states the one-pass text channel keeps of `text` (its words and special tokens)."""
    left_out = TextPool.build([text], "full", one_pass=True).left_out[text]
    return channel_view(scorer.encoder.encode([text], [[]], left_out=[left_out])[0]).states


def test_the_words_states_are_those_of_the_text_without_its_numbers(blind):
    """`Revenue rose in to in .` encoded alone gives the very states the words of the full text get in one pass."""
    for text in (PAIRS[0][0], PAIRS[1][1]):
        without = TextPool.build([text], "full").channel[text]
        alone = blind.encoder.encode([without], [[]])[0]
        kept = _channel_states(blind, text)
        assert kept.shape == alone.states.shape, (text, without)
        torch.testing.assert_close(kept, alone.states, atol=1e-5, rtol=0)


def test_no_number_reaches_a_word_but_every_word_reaches_the_numbers(blind):
    a, b = PAIRS[0]  # the same words, other numbers
    torch.testing.assert_close(_channel_states(blind, a), _channel_states(blind, b), atol=1e-6, rtol=0)
    out = blind.score([a], [b])
    assert out.text[0] == pytest.approx(1.0, abs=1e-6)  # S_text cannot see the numbers
    spans = [[(13, 15)], [(13, 15)]]  # "4%" in two texts that differ in a word only
    texts = ["Revenue rose 4% to $3.2 million in 2019.", "Revenue fell 4% to $3.2 million in 2019."]
    left_out = [TextPool.build([t], "full", one_pass=True).left_out[t] for t in texts]
    first, second = blind.encoder.encode(texts, spans, left_out=left_out)
    assert texts[0][13:15] == texts[1][13:15] == "4%"
    # "4%" read "rose" in one, "fell" in the other (far beyond float noise, on the tiny random model too)
    assert np.abs(first.mention_vectors[0] - second.mention_vectors[0]).max() > 1e-4


def test_sentence_channel_is_the_models_embedding_of_the_text_without_its_numbers(tiny_sentence_scorer):
    a, b = PAIRS[0]
    scorer = tiny_sentence_scorer.with_options(text_channel="one-pass")
    model = scorer.encoder.model
    pool = TextPool.build([a, b], "full")
    alone = torch.nn.functional.normalize(model.encode([pool.channel[a], pool.channel[b]], convert_to_tensor=True),
                                          dim=-1)
    expected = float(alone[0] @ alone[1])
    assert scorer.score([a], [b]).text[0] == pytest.approx(expected, abs=1e-5)


@pytest.mark.parametrize("backend", ["token", "sentence"])
def test_one_pass_reads_s_text_as_the_two_pass_channel_does(tiny_model_dir, backend):
    """Where the text without its numbers tokenizes as the full text's words (all pairs here), the two text
    channels agree to float rounding."""
    two = NASH(model=str(tiny_model_dir), backend=backend, threshold=0.0, device="cpu")
    one = two.with_options(text_channel="one-pass")
    x, y = one.score(PREDS, REFS), two.score(PREDS, REFS)
    for field in ("text", "text_precision", "text_recall", "alpha"):
        np.testing.assert_allclose(getattr(x, field), getattr(y, field), atol=1e-5, err_msg=field)
    assert x.text[3] == 0.0  # "4%" leaves nothing to compare: empty against a non-empty text, as bert-score


VARIANTS = ["Revenue rose 4% to $3.2 million in 2019.", "Revenue rose 40% to $3.5 million in 2019.",
            "Revenue rose 12.75% to $0.9 million in 2019.", "Revenue rose 4% to $3.2 million in 2020.",
            "Revenue rose four percent to $3.2m in 2019.", "Costs rose 4% to $3.2 million in 2019."]


@pytest.mark.parametrize("scorer_name", ["tiny_scorer", "tiny_sentence_scorer"])
def test_texts_that_differ_only_in_their_numbers_share_a_row_and_read_as_their_own_passes(scorer_name, request,
                                                                                         monkeypatch):
    """Variant packing (`backbone/variants.py`): texts with the same words get, from one row, the states, mention
    vectors and poolings their own rows give, to float rounding; texts with other words keep their own rows."""
    encoder = request.getfixturevalue(scorer_name).with_options(text_channel="one-pass").encoder
    pool = TextPool.build(VARIANTS, "full", one_pass=True)
    spans = [[(m.start, m.end) for m in pool.mentions[t]] for t in VARIANTS]
    left_out = [pool.left_out[t] for t in VARIANTS]
    rows: list[int] = []
    forward = encoder.forward
    monkeypatch.setattr(encoder, "forward", lambda ids, *rest: rows.append(ids.shape[0]) or forward(ids, *rest))
    packed = encoder.encode(VARIANTS, spans, left_out=left_out)
    assert sum(rows) < len(VARIANTS)  # the first four share their words: one row
    monkeypatch.setattr(encoder, "pack_variants", False)
    rows.clear()
    alone = encoder.encode(VARIANTS, spans, left_out=left_out)
    assert sum(rows) == len(VARIANTS)
    for text, a, b in zip(VARIANTS, packed, alone):
        np.testing.assert_allclose(a.mention_vectors, b.mention_vectors, atol=1e-5, err_msg=text)
        np.testing.assert_array_equal(a.channel_keep, b.channel_keep)
        for field in ("states", "pooled", "channel_pooled"):
            if getattr(b, field) is not None:
                torch.testing.assert_close(getattr(a, field), getattr(b, field), atol=1e-5, rtol=0)


def test_sdpa_and_eager_attention_agree_on_the_number_blind_mask(tiny_model_dir):
    scorers = {}
    for implementation in ("sdpa", "eager"):
        scorer = NASH(model=str(tiny_model_dir), backend="token", threshold=0.0, device="cpu", batch_size=3,
                      text_channel="one-pass")
        scorer.encoder.model.set_attn_implementation(implementation)
        scorers[implementation] = scorer.score(PREDS, REFS)
    for field in ("text", "numeric", "nash"):
        np.testing.assert_allclose(getattr(scorers["sdpa"], field), getattr(scorers["eager"], field), atol=1e-5)


def test_one_pass_encodes_each_distinct_text_once_and_the_baseline_adds_one_plain_pass(blind, monkeypatch):
    encoder, seen = blind.encoder, []
    forward = encoder.forward

    def counting(ids, mask, positions=None):
        seen.append((int(ids.shape[0]), mask.dim()))
        return forward(ids, mask, positions)

    monkeypatch.setattr(encoder, "forward", counting)
    distinct = len(set(PREDS + REFS))
    out = blind.score(PREDS, REFS)
    assert out.baseline is None and "baseline" not in out.columns()
    # One number-blind pass each; the two texts with the same words (PAIRS[0]) share one row (`variants`).
    assert sum(n for n, _ in seen) == distinct - 1 and {d for _, d in seen} == {4}
    seen.clear()
    with_base = blind.with_options(baseline=True).score(PREDS, REFS)
    assert sum(n for n, d in seen if d == 2) == distinct  # and one plain pass each for the baseline
    np.testing.assert_array_equal(with_base.nash, out.nash)  # which changes no score
    seen.clear()
    blind.with_options(text_channel="two-pass", baseline=True).score(PREDS, REFS)
    assert sum(n for n, _ in seen) > distinct and {d for _, d in seen} == {2}  # the texts without numbers apart


def test_the_baseline_is_the_backbones_plain_score(blind):
    """baseline=True: BERTScore F1 of the originals as a plain pass gives it, whichever text channel."""
    one = blind.with_options(baseline=True).score(PREDS, REFS)
    two = blind.with_options(baseline=True, text_channel="two-pass").score(PREDS, REFS)
    for field in ("baseline", "baseline_precision", "baseline_recall"):
        np.testing.assert_allclose(getattr(one, field), getattr(two, field), atol=1e-6, err_msg=field)
    assert one.baseline[2] == pytest.approx(one.text[2], abs=1e-6)  # no numbers: the channel is the text itself


def test_long_texts_are_read_number_blind_window_by_window(blind):
    """Past the 64-token window of the tiny model: the kept rows cover every window's tokens, and no number
    reaches them (two texts that differ in their numbers only keep the same states)."""
    texts = [" ".join(f"Segment {i} reported revenue of ${i + k}.5 million and margin of {i % 7 + k}%."
                      for i in range(20)) for k in (0, 3)]
    first, second = (_channel_states(blind, t) for t in texts)
    left_out = TextPool.build([texts[0]], one_pass=True).left_out[texts[0]]
    e = blind.encoder.encode([texts[0]], [[]], left_out=[left_out])[0]
    assert e.n_windows > 1 and first.shape[0] == int(e.channel_keep.sum()) < e.states.shape[0]
    torch.testing.assert_close(first, second, atol=1e-5, rtol=0)


def test_position_ids_start_where_the_model_starts_them():
    from transformers import BertConfig, BertModel, RobertaConfig, RobertaModel

    small = {"hidden_size": 8, "num_hidden_layers": 1, "num_attention_heads": 2, "intermediate_size": 16,
             "vocab_size": 50, "max_position_embeddings": 40}
    assert position_offset(BertModel(BertConfig(**small))) == 0
    assert position_offset(RobertaModel(RobertaConfig(**small, pad_token_id=1))) == 2  # padding index + 1
    assert position_offset(None) is None


def test_the_option_is_declared_once_and_named_in_the_hashcode(tiny_scorer, blind):
    assert NASHConfig().text_channel == "auto" and NASHConfig().one_pass and not NASHConfig().baseline
    assert not NASHConfig(numbers="paper").one_pass  # the paper's reader keeps its masked second pass
    assert tiny_scorer.echo["text_channel"] == "one-pass" and "pass" not in tiny_scorer.hashcode  # the default
    two = tiny_scorer.with_options(text_channel="two-pass")
    assert "_twopass" in two.hashcode and two.echo["text_channel"] == "two-pass"
    paper = tiny_scorer.with_options(numbers="paper")  # always two passes: `_paper` says it
    assert paper.echo["text_channel"] == "two-pass" and "_twopass" not in paper.hashcode
    assert blind.hashcode == tiny_scorer.hashcode
    assert blind.with_options(baseline=True).hashcode == blind.hashcode  # it changes no score
    with pytest.raises(ValueError, match="paper"):
        NASHConfig(numbers="paper", text_channel="one-pass")
    with pytest.raises(ValueError, match="text_channel"):
        NASHConfig(text_channel="three-pass")


def test_tau_is_calibrated_on_the_vectors_scoring_reads(tiny_scorer, blind):
    """`mention_vectors` (what `nash calibrate` and threshold='auto' read) comes from the scoring pass: the number-blind
    one with one pass, the plain one with two."""
    tiny_scorer = tiny_scorer.with_options(text_channel="two-pass")
    text = PAIRS[0][0]
    pool = TextPool.build([text], "full", one_pass=True)
    number_blind = blind.encoder.encode([text], [pool.vector_spans(text)], left_out=[pool.left_out[text]])[0]
    number_blind = number_blind.mention_vectors
    plain = tiny_scorer.encoder.encode([text], [pool.mention_spans(text)])[0].mention_vectors
    np.testing.assert_allclose(blind.mention_vectors([text, text])[1], number_blind, atol=1e-6)
    np.testing.assert_allclose(tiny_scorer.mention_vectors([text])[0], plain, atol=1e-6)
    assert np.abs(number_blind - plain).max() > 1e-4


def test_the_words_before_a_mention_are_those_of_the_regex_reading():
    """`_with_words` finds the words before a span without a regex search from every position; it keeps the
    reading of `(?:\\S+\\s+){0,n}\\S*$` searched in the 200 characters before it, where "$" also holds before a last
    newline (random texts of words, spaces of several kinds and newlines)."""
    rng = random.Random(7)
    alphabet = "ab x.\t\n\u00a0\u2003\r"
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        start = rng.randint(0, len(text))
        end, words, low = rng.randint(start, len(text)), rng.randint(0, 3), rng.randint(0, start)
        first = re.compile(rf"(?:\S+\s+){{0,{words}}}\S*$").search(text, max(low, start - 200), start)
        last = re.compile(rf"\S*(?:\s+\S+){{0,{words}}}").match(text, end, len(text))
        expected = (first.start() if first else start, last.end() if last else end)
        assert _with_words(text, (start, end), words, low) == expected, (text, start, end, words, low)
    long = "word " * 100 + "\n"
    for start in range(len(long)):
        first = re.compile(r"(?:\S+\s+){0,2}\S*$").search(long, max(0, start - 200), start)
        assert _with_words(long, (start, start), 2)[0] == (first.start() if first else start)


def test_with_one_pass_a_mention_vector_takes_in_the_words_on_either_side():
    """The characters whose token states make a mention's vector (`TextPool.vector_spans`): with one pass the mention,
    what is glued to it and `CONTEXT_WORDS` words on either side; with two passes the mention alone."""
    text = "Costs were ($3.0 million) and $1.2 million in 2019.\n| Fixed | 1,146.2 |"
    one, two = (TextPool.build([text], "full", one_pass=flag) for flag in (True, False))
    mentions = ["$3.0 million", "$1.2 million", "2019", "1,146.2"]
    assert [text[a:b] for a, b in two.vector_spans(text)] == mentions
    widened = {1: ["were ($3.0 million) and", "and $1.2 million in", "in 2019.\n|", "| 1,146.2 |"],
               2: ["Costs were ($3.0 million) and $1.2", "million) and $1.2 million in 2019.",
                   "million in 2019.\n| Fixed", "Fixed | 1,146.2 |"]}
    for words, expected in widened.items():
        assert [text[slice(*_with_words(text, (text.index(m), text.index(m) + len(m)), words))]
                for m in mentions] == expected
    # up to the mentions beside it: a range's bounds do not share their words
    assert CONTEXT_WORDS == 2
    assert [text[a:b] for a, b in one.vector_spans(text)] == [
        "Costs were ($3.0 million) and", ") and $1.2 million in", "in 2019.\n| Fixed", "Fixed | 1,146.2 |"]
    grows = "Growth of 5–10% expected."
    assert [grows[a:b] for a, b in TextPool.build([grows], one_pass=True).vector_spans(grows)] == [
        "Growth of 5–", "–10% expected."]
    assert TextPool.build(["4%"], one_pass=True).vector_spans("4%") == [(0, 2)]
