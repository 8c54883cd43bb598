"""Issue 10's must-shows on the real embedded model: numbers as readers mean them, and the paper switch."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow

BACKENDS = ["sentence", "token"]


def scorer_for(backend, minilm_sentence, minilm_token):
    return minilm_sentence if backend == "sentence" else minilm_token


@pytest.mark.parametrize("backend", BACKENDS)
def test_dates_rank_by_calendar_distance(backend, minilm_sentence, minilm_token):
    scorer = scorer_for(backend, minilm_sentence, minilm_token)
    out = scorer.score(
        ["The notes were repaid on December 31, 2019.", "The notes were repaid on December 31.",
         "Revenue grew in Q4 2019.", "Revenue grew in Q4 2019."],
        ["The notes were repaid on January 2, 2020.", "The notes were repaid on December 1.",
         "Revenue grew in Q1 2020.", "Revenue grew in Q4 2017."],
    )
    assert out.nash[0] > out.nash[1], "2 days apart must score closer than 30 days apart"
    assert out.nash[2] > out.nash[3], "adjacent quarters must score closer than two years apart"
    # each date is one mention, and the number channel compares days
    assert out.numeric[0] == pytest.approx(1 / (1 + 2 / 182.5))
    assert out.numeric[1] == pytest.approx(1 / (1 + 30 / 182.5))


@pytest.mark.parametrize("backend", BACKENDS)
def test_spellings_of_one_value_score_as_equal(backend, minilm_sentence, minilm_token):
    scorer = scorer_for(backend, minilm_sentence, minilm_token)
    out = scorer.score(["Sales reached 1K units.", "The fund holds １２３ shares.", "Revenue of 100M grew 20%."],
                       ["Sales reached 1k units.", "The fund holds 123 shares.", "Revenue of 100m grew 20%."])
    assert (out.nash >= 0.99).all(), out.nash
    assert (out.numeric == 1.0).all()


def test_full_width_digits_match_their_ascii_value_not_another(minilm_sentence):
    out = minilm_sentence.score(["The fund holds １２３ shares."] * 2, ["The fund holds 123 shares.",
                                                                      "The fund holds ９９９ shares."])
    assert out.nash[0] > out.nash[1]


def test_a_literal_mask_token_in_the_input_is_only_text(minilm_sentence):
    out = minilm_sentence.score(["The [NUM] placeholder is documented."], ["The [NUM] placeholder is described."])
    assert out.alpha[0] == 1.0 and out.numeric[0] == 1.0 and not out.unscored


def test_paper_switch_reads_as_the_paper_and_echoes_it(minilm_sentence):
    paper = minilm_sentence.with_options(numbers="paper")
    assert paper.encoder is minilm_sentence.encoder  # no model reload for a reader change
    a, b = ["Results as of December 31, 2019."], ["Results as of January 2, 2020."]
    full_info, paper_info = minilm_sentence.explain(a[0], b[0]), paper.explain(a[0], b[0])
    assert [m["text"] for m in full_info["mentions"]["a"]] == ["December 31, 2019"]
    assert [m["text"] for m in paper_info["mentions"]["a"]] == ["31", "2019"]
    assert paper_info["masked"]["a"] == paper_info["text_channel"]["a"] == "Results as of December [NUM], [NUM]."
    assert full_info["text_channel"]["a"] == "Results as of."
    assert paper.config.numbers == "paper" and paper.hashcode != minilm_sentence.hashcode


def test_numbers_left_out_of_the_text_channel_keep_general_semantics(minilm_sentence):
    # two texts that differ only in their numbers have the same text channel, S_text = 1, whether the numbers
    # are left out (the full reader) or masked (the paper reader); only the number channel tells them apart
    out = minilm_sentence.score(["Five people were hurt."], ["Two people were hurt."])
    paper = minilm_sentence.with_options(numbers="paper").score(["5 people were hurt."], ["2 people were hurt."])
    assert out.text[0] == pytest.approx(1.0, abs=1e-6) and paper.text[0] == pytest.approx(1.0, abs=1e-6)
    assert out.nash[0] < 1.0 and paper.nash[0] < 1.0
