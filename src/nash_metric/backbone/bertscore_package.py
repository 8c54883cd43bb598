"""The `bert-score` package as a reference baseline, on the same model and layer as a NASH scorer.

The Space and the EmbedNum-1K benchmark show BERTScore from the package itself (not our
re-implementation) beside NASH; both load and score through the functions here. The scorers are kept in the
process's model cache (`backbone.cache.MODELS`) under their model, so they are evicted with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..common.blank import blank_pairs
from . import cache
from .models import ResolvedModel, default_num_layers


def load_package_scorer(model_path: str, num_layers: int, device: str) -> Any:
    """A `bert_score.BERTScorer` on this model path and layer (uncached)."""
    import bert_score

    return bert_score.BERTScorer(model_type=model_path, num_layers=num_layers, device=device)


def package_f1(scorer: Any, candidates: Sequence[str], references: Sequence[str], batch_size: int = 64) -> np.ndarray:
    """BERTScore F1 per pair from a loaded `BERTScorer`, as float64.

    A pair with a blank candidate or reference gets 0 without asking the package: bert-score's own rule ("Empty
    candidate sentence detected; setting raw BERTscores to 0"), which its 0.3.x cannot reach under transformers 5
    (it crashes on an empty string), and the score NASH gives such a pair (`blank.py`).
    """
    blank = blank_pairs(candidates, references)
    f1 = np.zeros(len(blank), dtype=np.float64)
    keep = np.flatnonzero(~blank)
    if len(keep):
        _, _, scored = scorer.score([candidates[i] for i in keep], [references[i] for i in keep], batch_size=batch_size)
        f1[keep] = scored.numpy().astype(np.float64)
    return f1


def cache_key(resolved: ResolvedModel, num_layers: int, device: str) -> tuple[str, str]:
    """Where a `BERTScorer` lives in the model cache: under its model, so that it is evicted with it."""
    return resolved.name, f"bertscore-{num_layers}-{device}"


def bert_score_layer(resolved: ResolvedModel, num_layers: int | None) -> int:
    """The layer bert-score uses for this model: the given one, else its per-model table, else the last."""
    if num_layers is not None:
        return int(num_layers)
    from transformers import AutoConfig

    return default_num_layers(resolved, int(AutoConfig.from_pretrained(resolved.path).num_hidden_layers))


def package_bertscore_f1(
    candidates: Sequence[str],
    references: Sequence[str],
    resolved: ResolvedModel,
    num_layers: int | None = None,
    device: str = "cpu",
    batch_size: int = 64,
) -> tuple[np.ndarray, dict[str, Any]]:
    """BERTScore F1 per pair from `bert_score.BERTScorer`, and the settings used (model, path, layer)."""
    layer = bert_score_layer(resolved, num_layers)
    scorer = cache.MODELS.get(cache_key(resolved, layer, str(device)),
                        lambda: load_package_scorer(resolved.path, layer, str(device)), background=False)
    return package_f1(scorer, candidates, references, batch_size), {
        "model": resolved.name, "path": resolved.path, "num_layers": layer}
