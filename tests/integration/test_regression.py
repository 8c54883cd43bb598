"""Default NASH scores must not drift: saved values from all-MiniLM-L6-v2, both backbones, both number
readers (the default full reader and the paper reader).

Regenerate deliberately (after a reviewed change to the paper-faithful score) with
`python tests/integration/test_regression.py`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

SAVED = Path(__file__).with_name("data") / "default_scores.json"
PAIRS = [
    ("Revenue increased by 4%.", "Revenue increased by 3.56%."),
    ("Revenue increased by 4%.", "Revenue increased by 40%."),
    ("Operating profit rose to EUR 13.1 mn from EUR 8.7 mn.", "Operating profit rose to EUR 8.7 mn from EUR 13.1 mn."),
    ("Which stocks have a P/E ratio above 200?", "Stock ABC has a P/E ratio of 180."),
    ("Sales in Q3 2010 were 1,200 units.", "Sales in the third quarter of 2010 were 1,250 units."),
    ("The company has no debt.", "The firm carries no borrowings."),
    ("Net sales rose 5.2 % to EUR 205.5 mn.", "Net sales were flat."),
]  # (an empty text is refused now, see validation.py, so it is no longer a case here)
FIELDS = ("nash", "text", "numeric", "alpha", "baseline")


def compute(scorer) -> dict[str, list[float]]:
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
