"""The Space's scorers: loaded NASH models and bert-score scorers in the process's model cache (`backbone.cache`,
under the Space's policy), and the tau a request uses.

Free of gradio, so the tau and loading rules can be tested without a server. A request either takes the
loaded scorer's own tau (the model's default, or the one calibrated for it on the built-in corpus) or, when
the user set tau explicitly, a scorer derived with `with_options(threshold=...)` that shares the model.
Which models a request may name is decided before this module (`allow.allowed_model`).

`load_scorer` and `load_bertscorer` are looked up at call time, so a test can put a slow loader in their
place and watch the Space's locking rather than a real download.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..backbone import cache
from ..backbone.bertscore_package import bert_score_layer, cache_key, load_package_scorer, package_f1
from ..backbone.models import EMBEDDED_ALIASES, choose_backend, resolve_model
from ..config import BACKENDS, DEFAULT_MODEL
from ..scorer import NASH

DEVICE = "cpu"
BERTSCORE_BATCH = 64
# The Space's policy of the one model cache: demos served from one process share their models (the last demo
# built sets the capacity); the default model is pinned, a failed load remembered for 30 s, two loads at once.
REMEMBER_FAILURES_SECONDS = 30.0
MAX_LOADING = 2


def configure(max_loaded_models: int) -> None:
    cache.MODELS.configure(capacity=max_loaded_models, pinned={DEFAULT_MODEL}, error_seconds=REMEMBER_FAILURES_SECONDS,
                     max_loading=MAX_LOADING)


def load_scorer(model: str, backend: str) -> NASH:
    # The Space shows the backbone's own score beside NASH: its scorers always compute it.
    return NASH(model=model, backend=backend, device=DEVICE, baseline=True)


def load_bertscorer(model_path: str, layer: int) -> Any:
    return load_package_scorer(model_path, layer, DEVICE)


def _name(model: str | None) -> str:
    name = (model or "").strip()
    return DEFAULT_MODEL if not name or name in EMBEDDED_ALIASES else name


def _kind(name: str, timeout: float | None) -> str:
    """'sentence' or 'token' for backend 'auto' (asks the hub for hub ids, so it loads in the background too)."""
    return cache.MODELS.get((name, "auto"), lambda: choose_backend("auto", resolve_model(name)), timeout, counts=False)


def get_scorer(model: str | None, backend: str, timeout: float | None = None) -> NASH:
    """The loaded scorer of (model, backend), shared by all requests; tau is the model's own.

    Waits at most `timeout` seconds for a load (`backbone.cache.ModelLoading` after that; the load goes on).
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")
    name = _name(model)
    concrete = _kind(name, timeout) if backend == "auto" else backend
    return cache.MODELS.get((name, concrete), lambda: load_scorer(name, concrete), timeout)


def scorer_for(model: str | None, backend: str, use_model_tau: bool, tau: float | None,
               timeout: float | None = None) -> NASH:
    """The scorer a request uses: the model's own tau, or the user's `tau` (same loaded model)."""
    scorer = get_scorer(model, backend, timeout)
    if use_model_tau:
        return scorer
    if tau is None:
        raise ValueError("Set τ with the slider, or tick “use the model's τ”.")
    return scorer.with_options(threshold=float(tau))


def bertscore_f1(scorer: NASH, candidates: Sequence[str], references: Sequence[str],
                 timeout: float | None = None) -> list[float]:
    """BERTScore F1 from the `bert-score` package on the scorer's own model and layer.

    The bert-score scorer lives in the cache under the same model, so it is evicted with it.
    """
    layer = bert_score_layer(scorer.resolved, scorer.num_layers)
    path = scorer.resolved.path
    bert = cache.MODELS.get(cache_key(scorer.resolved, layer, DEVICE), lambda: load_bertscorer(path, layer), timeout)
    return package_f1(bert, candidates, references, BERTSCORE_BATCH).tolist()


def embedding_cosine(model: str | None, a: Sequence[str], b: Sequence[str],
                     timeout: float | None = None) -> list[float] | None:
    """Cosine of pooled sentence embeddings, for sentence-transformers models; None otherwise."""
    if _kind(_name(model), timeout) != "sentence":
        return None
    return get_scorer(model, "sentence", timeout).score(list(a), list(b)).baseline.tolist()
