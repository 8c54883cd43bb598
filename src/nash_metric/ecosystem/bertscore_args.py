"""bert-score's `compute` arguments, as `evaluate.load("bertscore")` takes them, read as NASH options: the
evaluate module (`metrics/nash`) drops in for evaluate's bertscore with only the name changed.

* bert-score's call implies bert-score's backbone: a call with any of bert-score's own arguments (`lang`,
  `idf=True/False`, `all_layers`, `nthreads`, `use_fast_tokenizer`: `bertscore_call`) and no `backend` scores with
  the token backend, as bert-score does (BERTScore over token states of the model's layer), so that `precision`,
  `recall` and `f1` mean what bert-score's do (the sentence backbone's cosine is symmetric: P = R = F). A call
  without them keeps NASH's defaults (`backend='auto'`: the sentence backbone for a sentence-transformers model).
  `num_layers` selects the token backend already (NASHConfig). The arguments NASH shares (`model_type`, `batch_size`,
  `device`, `rescale_with_baseline`, `baseline_path`, `verbose`) say nothing about the backbone on their own.
* `lang` picks the default model for English (all-MiniLM-L6-v2, embedded, with its own tau; bert-score's default
  for English, roberta-large, is `model_type='roberta-large'`); another language must name its model
  (`model_type=`), since the default model is English. With `model_type` given, `lang` says nothing more.
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
TOKEN = "token"  # bert-score's backbone
RESULT_KEYS = {"precision": "nash_precision", "recall": "nash_recall", "f1": "nash"}


def bertscore_options(options: Mapping[str, Any], model_given: bool) -> tuple[dict[str, Any], list[str]]:
    """NASH options from `options` as evaluate's bertscore takes them (`model_given`: `model_type` was passed),
    and the notes to tell the caller (arguments accepted and ignored). bert-score's own arguments without a
    `backend` choose the token backend (module docstring). A ValueError in one line for what NASH cannot do:
    another language without a model, `all_layers=True`, `idf=True` on `backend='sentence'`."""
    out = {name: value for name, value in options.items() if name not in ARGUMENTS}
    bertscore_idf = options.get("idf") if isinstance(options.get("idf"), bool) else None  # not NASH's mixing idf
    if bertscore_call(options) and options.get("backend") is None:
        out["backend"] = TOKEN
    elif bertscore_idf and options.get("backend") == "sentence":
        raise ValueError("idf=True (bert-score's IDF-weighted BERTScore) needs the token backend, but "
                         "backend='sentence' was given: pass backend='token', or no backend (bert-score's arguments "
                         "then score with the token backend); NASH's IDF mixing weights are idf='references' (or an "
                         "IDF file, a list of sentences or a dict)")
    lang = options.get("lang")
    if lang is not None and not model_given and str(lang).lower() not in ENGLISH:
        raise ValueError(f"lang={lang!r}: NASH's default model ({DEFAULT_MODEL}) is English; pass model_type= a "
                         f"model for this language (e.g. model_type='bert-base-multilingual-cased')")
    if options.get("all_layers"):
        raise ValueError("all_layers=True is not supported: NASH scores one layer (num_layers=N chooses it)")
    if bertscore_idf is not None:  # bert-score's switch, not NASH's mixing weights
        out["bertscore_idf"] = out.pop("idf")
    notes = [f"{name}={options[name]!r} is bert-score's and is ignored by NASH" for name in IGNORED
             if name in options]
    return out, notes


def bertscore_call(options: Mapping[str, Any]) -> bool:
    """Whether `options` hold an argument that only bert-score's `compute` takes (`idf` as a bool among them): the
    call is bert-score's, and implies its token backbone."""
    return any(options.get(name) is not None for name in ARGUMENTS) or isinstance(options.get("idf"), bool)


def bertscore_keys(result: Mapping[str, Any]) -> dict[str, Any]:
    """bert-score's result keys (`precision`, `recall`, `f1`) from NASH's fields, as lists."""
    return {key: list(result[field]) for key, field in RESULT_KEYS.items()}
