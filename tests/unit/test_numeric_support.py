"""The support verdict, rule by rule, on the real number reader (no model: the k-th numbers of the two texts
align with each other, so the verdict is decided by the values alone, or by tau for `unmatched`)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from nash_metric.numbers import extract_numbers
from nash_metric.numbers.precision import written_precision
from nash_metric.pipeline.alignment import align_numbers
from nash_metric.pipeline.pool import TextPool
from nash_metric.pipeline.support import numeric_support, support_keys, unsupported_numbers


def _verdicts(prediction: str, reference: str, tau: float = 0.5, cosine: float = 1.0):
    """numeric_support and unsupported numbers of one pair whose k-th numbers align with each other, at cosine
    `cosine`, and with nothing else (cosine 0)."""
    pool = TextPool.build([prediction, reference])
    sine = np.sqrt(1 - cosine**2)

    def vector(text: str, k: int) -> np.ndarray:
        out = np.zeros(16, np.float32)
        if text == reference:
            out[k], out[8 + k] = cosine, sine
        else:
            out[k] = 1.0
        return out

    encodings = [SimpleNamespace(mention_has_tokens=np.ones(len(spans), bool),
                                 mention_vectors=np.array([vector(text, k) for k in range(len(spans))]).reshape(-1, 16))
                 for text, spans in zip(pool.texts, pool.spans())]
    table = pool.mention_table(encodings)
    table.support = support_keys(pool, table)
    alignment = align_numbers(table, pool.original_ids([prediction]), pool.original_ids([reference]))
    return float(numeric_support(alignment, tau)[0]), unsupported_numbers(alignment, tau)[0]


def _supported(prediction: str, reference: str) -> bool:
    support, _ = _verdicts(prediction, reference)
    return support == 1.0


@pytest.mark.parametrize(("prediction", "reference"), [
    ("Revenue was $1.2 billion.", "Revenue was $1,234 million."),  # rounded to the written 0.1 billion
    ("Growth was 25%.", "Growth was 24.6%."),  # 25 covers [24.5, 25.5]
    ("Growth was about 25%.", "Growth was 24.1%."),  # a hedge widens it to [24, 26]
    ("Sales rose in Q2 2019.", "Sales rose in the second quarter of 2019."),  # the same calendar period
    ("It happened in 2019.", "It happened on December 31, 2019."),  # compared at the coarser granularity
    ("Rates rose 50 bps.", "Rates rose 0.5 percentage points."),  # basis points are hundredths of a point
    ("Debt fell to 25 billion.", "Debt fell to $25 billion."),  # a unitless number fits a stated currency
    ("The fee was EUR 5 million.", "The fee was EUR 5,000,000."),  # scale words applied before comparing
    ("They met at 7 pm.", "They met at 7:00 PM."),
])
def test_supported(prediction, reference):
    assert _supported(prediction, reference)


@pytest.mark.parametrize(("prediction", "reference"), [
    ("The dividend was $0.15 per share.", "The dividend was $0.13 per share."),  # beyond the written 0.01
    ("Debt was 26 billion.", "Debt was 25 billion."),
    ("Growth was 25%.", "Growth was 24.4%."),  # outside [24.5, 25.5]
    ("Growth was about 25%.", "Growth was 23.9%."),  # outside the hedged [24, 26]
    ("Revenue was $1.2 million.", "Revenue was $1.2 billion."),  # another scale
    ("Revenue was $1,234 million.", "Revenue was $1.2 billion."),  # the prediction's precision decides
    ("Funds of $2 billion moved.", "Funds of $1.8 billion moved."),  # more than 5% away, however rounded
    ("The cap is 1%.", "The cap is 0.5%."),  # the rounding interval is open: 0.5 is not within 1 +- 0.5
    ("The margin rose 2%.", "The margin rose 2 percentage points."),  # percent is not percentage points
    ("The fee was EUR 5 million.", "The fee was $5 million."),  # another currency
    ("Sales rose in Q2 2019.", "Sales rose in Q3 2019."),
    ("They met at 8 pm.", "They met at 7 pm."),
])
def test_unsupported(prediction, reference):
    support, entries = _verdicts(prediction, reference)
    assert support == 0.0
    assert [e["verdict"] for e in entries] == ["unsupported"]
    ref = entries[0]["reference"]
    assert reference[ref["start"]:ref["end"]] == ref["text"]  # the reference number it was compared with


def test_unmatched_when_no_reference_number_aligns_or_there_is_none():
    support, entries = _verdicts("Profit was 5 million.", "Profit reached 5 million.", tau=0.5, cosine=0.2)
    assert support == 0.0 and entries[0]["verdict"] == "unmatched" and entries[0]["reference"] is None
    support, entries = _verdicts("Profit was 5 million.", "Profit rose.")
    assert support == 0.0 and [e["verdict"] for e in entries] == ["unmatched"]
    assert entries[0]["text"] == "5 million" and (entries[0]["start"], entries[0]["end"]) == (11, 20)


def test_support_is_the_share_of_supported_numbers_and_one_without_any():
    support, entries = _verdicts("It paid $0.15 and owed $25 billion.", "It paid $0.13 and owed $25 billion.")
    assert support == 0.5 and [e["text"] for e in entries] == ["$0.15"]
    assert _verdicts("No figures here.", "Revenue was $3 million.") == (1.0, [])


def test_only_the_aligned_number_decides_not_an_equal_value_elsewhere():
    # The prediction's 2024 aligns by context with the reference's 2023; the reference's 2024 elsewhere has a
    # lower cosine: the figure is unsupported, and the entry names 2023 as what it was compared with.
    prediction, reference = "Sales guided for 2024.", "Sales guided for 2023; a loan is due in 2024."
    pool = TextPool.build([prediction, reference])
    vectors = {prediction: [[1.0, 0.0]], reference: [[1.0, 0.0], [0.6, 0.8]]}
    encodings = [SimpleNamespace(mention_has_tokens=np.ones(len(spans), bool),
                                 mention_vectors=np.array(vectors.get(text, []), np.float32).reshape(-1, 2))
                 for text, spans in zip(pool.texts, pool.spans())]
    table = pool.mention_table(encodings)
    table.support = support_keys(pool, table)
    alignment = align_numbers(table, pool.original_ids([prediction]), pool.original_ids([reference]))
    [entry] = unsupported_numbers(alignment, 0.5)[0]
    assert entry["verdict"] == "unsupported" and entry["reference"]["text"] == "2023"
    assert numeric_support(alignment, 0.5)[0] == 0.0


def test_written_precision_of_scaled_and_written_numbers():
    def tolerance(text: str) -> float:
        return written_precision(text, extract_numbers(text)[0]).tolerance

    assert tolerance("$1.2 billion") == pytest.approx(0.05e9)
    assert tolerance("$1,234 million") == pytest.approx(0.5e6)
    assert tolerance("$0.13") == pytest.approx(0.005)
    assert tolerance("EUR74 .8 m") == pytest.approx(0.05e6)  # Financial PhraseBank's split decimal
    assert tolerance("three million") == pytest.approx(0.05 * 3e6)  # half a million, capped at 5%
    assert tolerance("roughly 25 billion") == pytest.approx(1e9)
