# Copyright 2026 The nash-metric developers.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
"""NASH: numerically aware semantic similarity, as an `evaluate` metric (a thin wrapper over nash_metric)."""

# evaluate scans this file line by line for imports (one import per line) and checks that each
# library is installed; the `From:` comment gives the pip name it suggests when `nash_metric` is missing.
from __future__ import annotations

import inspect
import textwrap
import warnings
from typing import Any

import datasets
import evaluate
import numpy as np

from nash_metric import NASH, NASHConfig  # From: nash-metric
from nash_metric.common.citations import BERTSCORE_BIBTEX, NASH_BIBTEX  # From: nash-metric
from nash_metric.common.validation import check_reference_lists  # From: nash-metric
from nash_metric.config import check_option_names, options_docstring, options_signature  # From: nash-metric
from nash_metric.ecosystem.bertscore_args import ARGUMENTS, bertscore_keys, bertscore_options  # From: nash-metric
from nash_metric.functional import cached_scorer  # From: nash-metric
from nash_metric.reports.method import METHOD_STEPS, METHOD_SUMMARY  # From: nash-metric

_CITATION = f"{NASH_BIBTEX}\n{BERTSCORE_BIBTEX}\n"  # one copy of each entry, in nash_metric.common.citations

_DESCRIPTION = f"{METHOD_SUMMARY}\n{METHOD_STEPS}"  # the method text, written once in nash_metric.reports.method

# The options' names, defaults and docs come from `NASHConfig` (one declaration for the library, the CLI and
# this module), with the model under bertscore's name `model_type`.
_RENAME = {"model": "model_type"}


def _options_card(indent: str = "    ") -> str:
    """The generated 'Args' entries of the options, wrapped for the card."""
    return "\n".join(
        textwrap.fill(line, width=110, initial_indent=indent, subsequent_indent=indent * 2, break_on_hyphens=False)
        for line in options_docstring(indent="", rename=_RENAME).splitlines()
    )


_KWARGS_DESCRIPTION = (
    """
Scores each prediction against one or more references with NASH.

Args:
    predictions (list of str): candidate sentences.
    references (list of str, or list of list of str): reference sentences, one str or one non-empty list of
        str per prediction (not a mix); with several references per prediction, every (prediction, reference)
        pair is scored in one batch and the reference with the highest NASH is kept (the first on ties; all
        returned fields come from that reference).
    An empty or blank ("   ") prediction or reference is scored, as in bert-score: 0 on every score field
    (alpha 1.0), empty against empty included, with one warning per call giving the count; None or a
    non-string is a TypeError naming its index.
"""
    + _options_card()
    + """
    verbose (default False): show a progress bar.
    bert-score's arguments, so that this module drops in for evaluate.load("bertscore"): lang (None, or
        'en': the default model; another language needs model_type=), idf=True/False (bert-score's IDF
        weighting: bertscore_idf), nthreads and use_fast_tokenizer (accepted and ignored, with a warning),
        all_layers (only False). A call with any of them and no backend scores with the token backend, as
        bert-score does (precision, recall and f1 are then BERTScore-style P, R and F), still on the default
        model unless model_type names another; idf=True with backend='sentence' is a ValueError.

Returns:
    nash (list of float): NASH score per prediction, in [-1, 1].
    nash_precision, nash_recall (list of float): NASH of the channels' precisions, and of their recalls.
    text_similarity (list of float): S_text, the backbone score on the pair without its numbers.
    text_precision, text_recall (list of float): BERTScore P and R of that pair (token backbone; the
        sentence backbone's cosine is symmetric: both equal text_similarity).
    numeric_similarity (list of float): S_num, the magnitude similarity of the aligned numbers, the mean of:
    numeric_precision, numeric_recall (list of float): as bert-score's P and R: the mean over the prediction's
        numbers of their match's magnitude similarity (falls when the prediction states figures the reference
        lacks or contradicts), and the mean over the reference's numbers (falls when figures are left out).
    numeric_support (list of float): the share of the prediction's figures that the reference supports (its
        value stated at the precision written, bound to nothing the prediction contradicts) or computes; 1.0
        when the prediction states none.
    figure_verdicts (list of list of dict): per prediction, every figure with text, start, end, value, verdict
        ('supported'; 'computed': stated nowhere, but a derivation of reference numbers bound to what it
        states gives its value, and it counts as supported; 'misplaced': its value is stated only for another
        period, row or subject; 'unsupported': stated nowhere; 'contradicted': stated as a change in the other
        direction), found (where its value is stated, with its table cell's labels, or None), reference (the
        number it is compared with, or None), cosine, basis (what decided a misplaced or contradicted figure, or
        None), derivation (how the reference numbers give a computed figure's value, "(62.4 − 50.2) / 50.2 =
        24.3%", or an unsupported one's closest derivation; else None), operands (the reference numbers of
        derivation, or None) and role ('period': a calendar period that places a figure of its sentence, counted
        in numeric_support only when not supported; 'figure' otherwise).
    unsupported_numbers (list of list of dict): per prediction, the figure_verdicts entries neither supported
        nor computed.
    alpha (list of float): text weight alpha = W_text / (W_text + W_num); 1.0 when there are no numbers.
    baseline (list of float, with baseline=True only): the backbone score on the original pair (BERTScore F1
        or cosine); with text_channel='one-pass' it costs one more forward pass.
    baseline_precision, baseline_recall (list of float, with baseline=True only): its P and R, as
        bert_score.score returns them.
    With rescale_with_baseline=True the nash*, text_* and baseline* fields are (s - b) / (1 - b).
    best_reference (list of int, with lists of references only): the index of the reference kept.
    precision, recall, f1 (list of float): bert-score's keys: NASH's nash_precision, nash_recall and nash.
    hashcode (str): names everything that determines the scores (model, backbone, layer, tau value, IDF,
        options, versions), for reproducibility.
    Empty predictions and references give empty lists (and the hashcode).

Examples:

    >>> nash = evaluate.load("metrics/nash")
    >>> results = nash.compute(
    ...     predictions=["Revenue increased by 4%.", "Revenue increased by 4%."],
    ...     references=["Revenue increased by 3.56%.", "Revenue increased by 40%."],
    ... )
    >>> results["nash"][0] > results["nash"][1]
    True
"""
)


def _compute_signature() -> inspect.Signature:
    """`_compute`'s signature as seen by `inspect`: the config's options (model as model_type) and verbose."""
    P = inspect.Parameter
    signature = options_signature(
        before=[P(name, P.POSITIONAL_OR_KEYWORD) for name in ("self", "predictions", "references")],
        after=[P("verbose", P.KEYWORD_ONLY, default=False, annotation=bool),
               *(P(name, P.KEYWORD_ONLY, default=None) for name in ARGUMENTS)],
    )
    return signature.replace(
        parameters=[p.replace(name=_RENAME.get(p.name, p.name)) for p in signature.parameters.values()]
    )


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Nash(evaluate.Metric):
    """NASH as an `evaluate` metric; the scorer (and its model) is cached across `compute` calls."""

    def _info(self) -> evaluate.MetricInfo:
        text = datasets.Value("string", id="sequence")
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            homepage="https://aclanthology.org/2026.findings-acl.1119/",
            inputs_description=_KWARGS_DESCRIPTION,
            # Lists of references first: the widget builds its input from the first set (JSON cells, which
            # also take a single quoted string).
            features=[
                datasets.Features({"predictions": text, "references": datasets.Sequence(text, id="references")}),
                datasets.Features({"predictions": text, "references": text}),
            ],
            codebase_urls=["https://github.com/Tiiiger/bert_score"],
            reference_urls=[
                "https://aclanthology.org/2026.findings-acl.1119/",
                "https://arxiv.org/abs/1904.09675",
            ],
        )

    # Why `add_batch` and `add` check their inputs before evaluate encodes them (evaluate 0.4.6, datasets 5.x):
    # evaluate picks the Arrow format from the first row and type-checks only that row, so a later plain
    # string among lists of references is split into characters ("yz" -> ["y", "z"]), a later list among
    # strings is stringified ("['yz']"), and a non-string inside a list of references turns every reference
    # of the column into a JSON-quoted string ('x' -> '"x"'). The corrupted data is well-typed by the time
    # `_compute` sees it, and evaluate has no validation hook, so only these two overrides can catch it.
    # They only validate (the same function `_compute` uses); evaluate then encodes and stores the data.
    def add_batch(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> None:
        """Add a batch of predictions and references (one str or one list of str per prediction)."""
        check_reference_lists(predictions, references)
        super().add_batch(predictions=predictions, references=references, **kwargs)

    def add(self, *, prediction: Any = None, reference: Any = None, **kwargs: Any) -> None:
        """Add one prediction and its reference (a str or a list of str)."""
        check_reference_lists([prediction], [reference])
        super().add(prediction=prediction, reference=reference, **kwargs)

    def _infer_feature_from_batch(self, batch: dict[str, Any]) -> datasets.Features:
        # evaluate reads the format off the first row, which an empty call does not have (IndexError). No row
        # is written, so either format does; the library scores empty inputs as empty, and so does this module.
        if not any(len(column) for column in batch.values()):
            return self.features[-1]
        return super()._infer_feature_from_batch(batch)

    def _scorer(self, config: NASHConfig) -> NASH:
        """The scorer for `config` from the process's model cache (`nash_metric.functional.cached_scorer`): the same
        options reuse it; a change to options that are not model-bound (`nash_metric.config.model_bound_options()`)
        derives a scorer sharing the loaded model; a change to a model-bound one loads anew. `cached_scorer` is
        the last call's."""
        self.cached_scorer = cached_scorer(config)
        return self.cached_scorer

    def _compute(
        self,
        predictions: list[str],
        references: list[str] | list[list[str]],
        model_type: str | None = None,
        verbose: bool = False,
        **options: Any,
    ) -> dict[str, Any]:
        check_option_names(options, extra=("verbose", *ARGUMENTS), rename=_RENAME)
        options, notes = bertscore_options(options, model_given=model_type is not None)
        for note in notes:
            warnings.warn(note, UserWarning, stacklevel=2)
        if model_type is not None:
            options["model"] = model_type
        config = NASHConfig.from_options(**options)
        check_reference_lists(predictions, references)  # before any model is loaded
        scorer = self._scorer(config)

        # With lists of references the engine scores every pair in one batch and keeps the best per prediction.
        out = scorer.score(predictions, references, show_progress=verbose)
        result: dict[str, Any] = {name: np.asarray(v).tolist() for name, v in out.columns().items()}
        result["figure_verdicts"] = out.figure_verdicts
        result["unsupported_numbers"] = out.unsupported_numbers
        result.update(bertscore_keys(result))
        result["hashcode"] = str(out.hashcode)
        return result

    _compute.__signature__ = _compute_signature()  # type: ignore[attr-defined]
