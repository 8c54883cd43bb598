"""Default NASH scores must not drift: saved values from all-MiniLM-L6-v2, both backbones, both number
readers (the default full reader and the paper reader).

Regenerate deliberately (after a reviewed change to the paper-faithful score) with
`python tests/integration/test_regression.py`.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from nash_metric.blank import BlankTextWarning

SAVED = Path(__file__).with_name("data") / "default_scores.json"
PAIRS = [
    ("Revenue increased by 4%.", "Revenue increased by 3.56%."),
    ("Revenue increased by 4%.", "Revenue increased by 40%."),
    ("Operating profit rose to EUR 13.1 mn from EUR 8.7 mn.", "Operating profit rose to EUR 8.7 mn from EUR 13.1 mn."),
    ("Which stocks have a P/E ratio above 200?", "Stock ABC has a P/E ratio of 180."),
    ("Sales in Q3 2010 were 1,200 units.", "Sales in the third quarter of 2010 were 1,250 units."),
    ("The company has no debt.", "The firm carries no borrowings."),
    ("Net sales rose 5.2 % to EUR 205.5 mn.", "Net sales were flat."),
    ("Revenue rose 4% and profit 10%.", "Revenue rose 4%."),  # unequal counts: precision and recall differ
    ("The dividend was $0.15 per share.", "The dividend of $0.13 per share was paid on 2 March 2023."),
    ("Growth of 5–10% expected.", "Growth of 5 to 10% expected."),  # one range, two spellings
    ("", "Revenue rose 4%."),  # a blank prediction scores 0, as in bert-score
]
FIELDS = ("nash", "nash_precision", "nash_recall", "text", "text_precision", "text_recall", "numeric",
          "numeric_precision", "numeric_recall", "numeric_support", "alpha", "baseline", "baseline_precision",
          "baseline_recall")


def compute(scorer) -> dict[str, list[float]]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BlankTextWarning)
        out = scorer.score([a for a, _ in PAIRS], [b for _, b in PAIRS])
    return {f: getattr(out, f).tolist() for f in FIELDS}


@pytest.mark.slow
@pytest.mark.parametrize("reader", ["full", "paper"])
@pytest.mark.parametrize("backend", ["sentence", "token"])
def test_default_scores_are_unchanged(backend, reader, minilm_sentence, minilm_token):
    scorer = (minilm_sentence if backend == "sentence" else minilm_token).with_options(numbers=reader)
    saved = json.loads(SAVED.read_text())[reader][backend]
    now = compute(scorer)
    for field in FIELDS:
        np.testing.assert_allclose(now[field], saved[field], atol=1e-5, err_msg=f"{backend} {field}")


if __name__ == "__main__":
    from nash_metric import NASH

    scorers = {b: NASH(backend=b, device="cpu") for b in ("sentence", "token")}
    SAVED.write_text(json.dumps({r: {b: compute(s.with_options(numbers=r)) for b, s in scorers.items()}
                                 for r in ("full", "paper")}, indent=1))
    sys.exit(0)
