"""The Space's scorers: one loaded NASH per (model, backend), the tau each request uses, and the baselines.

Free of gradio, so the tau rules can be tested without a server. A request either takes the loaded
scorer's own tau (the model's default, or the one calibrated for it on the built-in corpus) or, when
the user set tau explicitly, a scorer derived with `with_options(threshold=...)` that shares the model.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from ..baselines import package_bertscore_f1
from ..config import DEFAULT_MODEL
from ..models import choose_backend, is_sentence_transformer, resolve_model
from ..scorer import NASH

DEVICE = "cpu"

_lock = threading.Lock()
_scorers: dict[tuple[str, str], NASH] = {}


def get_scorer(model: str, backend: str) -> NASH:
    """One loaded scorer per (model, backend), shared by all requests; tau is the model's own."""
    resolved = resolve_model((model or "").strip() or DEFAULT_MODEL)
    key = (resolved.name, choose_backend(backend, resolved))  # "auto" shares the scorer it resolves to
    with _lock:
        if key not in _scorers:
            _scorers[key] = NASH(model=key[0], backend=key[1], device=DEVICE)
        return _scorers[key]


def scorer_for(model: str, backend: str, use_model_tau: bool, tau: float | None) -> NASH:
    """The scorer a request uses: the model's own tau, or the user's `tau` (same loaded model)."""
    scorer = get_scorer(model, backend)
    if use_model_tau:
        return scorer
    if tau is None:
        raise ValueError("Set τ with the slider, or tick “use the model's τ”.")
    return scorer.with_options(threshold=float(tau))


def bertscore_f1(scorer: NASH, candidates: Sequence[str], references: Sequence[str]) -> list[float]:
    """BERTScore F1 from the `bert-score` package on the scorer's own model and layer."""
    f1, _ = package_bertscore_f1(
        candidates, references, resolved=scorer.resolved, num_layers=scorer.num_layers, device=DEVICE
    )
    return f1.tolist()


def embedding_cosine(model: str, a: Sequence[str], b: Sequence[str]) -> list[float] | None:
    """Cosine of pooled sentence embeddings, for sentence-transformers models; None otherwise."""
    if not is_sentence_transformer(resolve_model((model or "").strip() or DEFAULT_MODEL)):
        return None
    return get_scorer(model, "sentence").score(list(a), list(b)).baseline.tolist()
