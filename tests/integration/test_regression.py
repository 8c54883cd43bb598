"""NASH's outputs must not drift: every field of `NASHOutput.to_dict()` on fixed pairs, saved from the embedded
all-MiniLM-L6-v2, both backbones, in several configurations.

Pinned per configuration: every score with its precision and recall (nash, text, numeric, baseline), alpha,
numeric_support, unsupported_numbers, unscored, best_reference (lists of references), the configuration echo and
the hashcode. The package and transformers versions in the echo and the hashcode are left out (`normalised`), so
that a version bump alone does not fail the pins; what they change in the hashcode is checked by recomputing it.

Regenerate deliberately (after a reviewed change to the scores) with `python tests/integration/test_regression.py`.
"""

from __future__ import annotations

import json
import math
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

from nash_metric.common.blank import BlankTextWarning
from nash_metric.pipeline.echo import hashcode
from nash_metric.pipeline.output import PUBLIC_FIELDS

SAVED = Path(__file__).with_name("data") / "regression_pins.json"
TOLERANCE = 1e-5  # absolute, on every float: scores, cosines, values, tau
PAIRS = [
    ("Revenue increased by 4%.", "Revenue increased by 3.56%."),
    ("Revenue increased by 4%.", "Revenue increased by 40%."),
    ("Operating profit rose to EUR 13.1 mn from EUR 8.7 mn.", "Operating profit rose to EUR 8.7 mn from EUR 13.1 mn."),
    ("Which stocks have a P/E ratio above 200?", "Stock ABC has a P/E ratio of 180."),  # a condition: comparisons
    ("Sales in Q3 2010 were 1,200 units.", "Sales in the third quarter of 2010 were 1,250 units."),
    ("The company has no debt.", "The firm carries no borrowings."),
    ("Net sales rose 5.2 % to EUR 205.5 mn.", "Net sales were flat."),  # figures B does not state: unmatched
    ("Revenue rose 4% and profit 10%.", "Revenue rose 4%."),  # unequal counts: precision and recall differ
    ("The dividend was $0.15 per share.", "The dividend of $0.13 per share was paid on 2 March 2023."),
    ("Growth of 5–10% expected.", "Growth of 5 to 10% expected."),  # one range, two spellings
    ("", "Revenue rose 4%."),  # a blank prediction scores 0, as in bert-score
    ("Revenue rose 4% on 1.2.3 units.", "Revenue rose 4%."),  # a mention with no value: unscored
    ("Fixed Price sales were 1,146.2 in 2019.",  # the 2018 cell's value stated for 2019: misplaced
     "| | 2019 | 2018 |\n|---|---|---|\n| Fixed Price | 1,452.4 | 1,146.2 |"),
    ("Fixed Price sales grew 26.7% in 2019.",  # (1,452.4 - 1,146.2) / 1,146.2: computed, with its derivation
     "| | 2019 | 2018 |\n|---|---|---|\n| Fixed Price | 1,452.4 | 1,146.2 |"),
]
# Several references per prediction: the best one is kept (best_reference), with its unscored mentions.
MULTI_PREDICTIONS = ["Revenue increased by 4%.", "Net sales rose to EUR 205.5 mn.", "Shipments of 1.2.3 units rose 5%."]
MULTI_REFERENCES = [
    ["Revenue increased by 40%.", "Revenue increased by 3.56%.", "Revenue fell by 4%."],
    ["Net sales rose to EUR 20 mn.", "Net sales rose to EUR 205 mn."],
    ["Shipments rose 5%."],
]
# name -> (backend, options besides the defaults, lists of references?)
CONFIGURATIONS: dict[str, tuple[str, dict[str, Any], bool]] = {
    "sentence": ("sentence", {}, False),
    "token": ("token", {}, False),
    "sentence-paper-reader": ("sentence", {"numbers": "paper"}, False),
    "token-paper-reader": ("token", {"numbers": "paper"}, False),
    "sentence-two-pass": ("sentence", {"text_channel": "two-pass"}, False),
    "token-two-pass": ("token", {"text_channel": "two-pass"}, False),
    "token-comparisons-idf-tau-0.5": (
        "token", {"comparisons": True, "idf": "references", "bertscore_idf": True, "threshold": 0.5}, False),
    "sentence-rescaled": ("sentence", {"rescale_with_baseline": True}, False),
    "sentence-argmax-verdict": ("sentence", {"verdict": "argmax"}, False),
    "token-rescaled": ("token", {"rescale_with_baseline": True}, False),
    "sentence-multi-reference": ("sentence", {}, True),
    "token-multi-reference": ("token", {}, True),
}
VERSIONS = {"nash_metric": "<version>", "transformers": "<version>"}  # left out of the pins


def normalised(output) -> dict[str, Any]:
    """`output.to_dict()` with the versions in its configuration echo, and so in its hashcode, replaced by VERSIONS."""
    data = output.to_dict()
    assert set(VERSIONS) <= set(data["config"])
    data["config"] = {**data["config"], **VERSIONS}
    data["hashcode"] = hashcode(data["config"])
    return data


def compute(scorer, multi_reference: bool) -> dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BlankTextWarning)
        if multi_reference:
            out = scorer.score(MULTI_PREDICTIONS, MULTI_REFERENCES)
        else:
            out = scorer.score([a for a, _ in PAIRS], [b for _, b in PAIRS])
    assert out.hashcode == hashcode(out.config)  # so the normalised hashcode stands for this one
    return normalised(out)


def assert_matches(now: Any, saved: Any, where: str) -> None:
    """`now` equals `saved` to the letter, but for floats (within TOLERANCE); `where` names the place that differs."""
    if isinstance(saved, dict):
        assert isinstance(now, dict) and set(now) == set(saved), f"{where}: keys {sorted(now)} != {sorted(saved)}"
        for key, value in saved.items():
            assert_matches(now[key], value, f"{where}.{key}")
    elif isinstance(saved, list):
        assert isinstance(now, list) and len(now) == len(saved), f"{where}: {now!r} != {saved!r}"
        for k, (a, b) in enumerate(zip(now, saved)):
            assert_matches(a, b, f"{where}[{k}]")
    elif isinstance(saved, float) and not isinstance(now, bool) and isinstance(now, (int, float)):
        assert math.isclose(now, saved, rel_tol=0.0, abs_tol=TOLERANCE), f"{where}: {now!r} != {saved!r}"
    else:
        assert type(now) is type(saved) and now == saved, f"{where}: {now!r} != {saved!r}"


def scorer_for(name: str, minilm_sentence, minilm_token):
    backend, options, _ = CONFIGURATIONS[name]
    return (minilm_sentence if backend == "sentence" else minilm_token).with_options(**options)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CONFIGURATIONS))
def test_every_output_field_is_unchanged(name, minilm_sentence, minilm_token):
    saved = json.loads(SAVED.read_text(encoding="utf-8"))[name]
    now = compute(scorer_for(name, minilm_sentence, minilm_token), CONFIGURATIONS[name][2])
    assert set(PUBLIC_FIELDS) <= set(saved)  # every score field is pinned
    assert_matches(now, saved, name)


def test_the_pins_cover_every_configuration_and_output_field():
    saved = json.loads(SAVED.read_text(encoding="utf-8"))
    assert list(saved) == list(CONFIGURATIONS)
    fields = {*PUBLIC_FIELDS, "unsupported_numbers", "config", "hashcode", "unscored"}
    for name, (_, _, multi_reference) in CONFIGURATIONS.items():
        assert set(saved[name]) == fields | ({"best_reference"} if multi_reference else set()), name
    # the pairs reach every kind of entry: an unsupported and a misplaced figure (an unmatched one under the
    # argmax rule), an unscored mention
    def verdicts(name: str) -> set[str]:
        return {e["verdict"] for entries in saved[name]["unsupported_numbers"] for e in entries}

    assert verdicts("token") == {"unsupported", "misplaced"} and saved["token"]["unscored"]
    assert "unmatched" in verdicts("sentence-argmax-verdict")
    assert saved["token-multi-reference"]["unscored"] and saved["token-multi-reference"]["best_reference"] == [1, 1, 0]


if __name__ == "__main__":
    from nash_metric import NASH

    # with the baseline, as conftest's minilm scorers
    scorers = {backend: NASH(backend=backend, device="cpu", baseline=True) for backend in ("sentence", "token")}
    pins = {name: compute(scorer_for(name, scorers["sentence"], scorers["token"]), multi_reference)
            for name, (_, _, multi_reference) in CONFIGURATIONS.items()}
    SAVED.write_text(json.dumps(pins, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    sys.exit(0)
