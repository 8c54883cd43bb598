"""bert-score's `compute` arguments, as `evaluate.load("bertscore")` takes them, read as NASH options: the
evaluate module (`metrics/nash`) drops in for evaluate's bertscore with only the name changed.

* `lang` picks the default model for English; another language must name its model (`model_type=`), since the
  default model, all-MiniLM-L6-v2, is English. With `model_type` given, `lang` says nothing more.
* `model_type`, `num_layers`, `batch_size`, `device`, `rescale_with_baseline`, `baseline_path` and `verbose` are
  NASH's own options under the same names. `idf=True/False` is bert-score's (IDF-weighted BERTScore in the text
  channel: NASH's `bertscore_idf`); a string, list or dict is NASH's `idf` (the mixing weights).
* `nthreads` and `use_fast_tokenizer` are accepted and ignored, with a note; `all_layers=True` is refused.
* The result carries bert-score's keys too: `precision`, `recall` and `f1` are NASH's P, R and F
  (`nash_precision`, `nash_recall`, `nash`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..common.defaults import DEFAULT_MODEL

ENGLISH = frozenset(("en", "en-us", "en-gb", "eng", "english"))
IGNORED = ("nthreads", "use_fast_tokenizer")  # bert-score's knobs NASH has no use for
ARGUMENTS = ("lang", "all_layers", *IGNORED)  # bert-score's arguments that are not NASH options
RESULT_KEYS = {"precision": "nash_precision", "recall": "nash_recall", "f1": "nash"}


def bertscore_options(options: Mapping[str, Any], model_given: bool) -> tuple[dict[str, Any], list[str]]:
    """NASH options from `options` as evaluate's bertscore takes them (`model_given`: `model_type` was passed),
    and the notes to tell the caller (arguments accepted and ignored). A ValueError in one line for what NASH
    cannot do: another language without a model, `all_layers=True`."""
    out = {name: value for name, value in options.items() if name not in ARGUMENTS}
    lang = options.get("lang")
    if lang is not None and not model_given and str(lang).lower() not in ENGLISH:
        raise ValueError(f"lang={lang!r}: NASH's default model ({DEFAULT_MODEL}) is English; pass model_type= a "
                         f"model for this language (e.g. model_type='bert-base-multilingual-cased')")
    if options.get("all_layers"):
        raise ValueError("all_layers=True is not supported: NASH scores one layer (num_layers=N chooses it)")
    if isinstance(options.get("idf"), bool):  # bert-score's switch, not NASH's mixing weights
        out["bertscore_idf"] = out.pop("idf")
    notes = [f"{name}={options[name]!r} is bert-score's and is ignored by NASH" for name in IGNORED
             if name in options]
    return out, notes


def bertscore_keys(result: Mapping[str, Any]) -> dict[str, Any]:
    """bert-score's result keys (`precision`, `recall`, `f1`) from NASH's fields, as lists."""
    return {key: list(result[field]) for key, field in RESULT_KEYS.items()}
