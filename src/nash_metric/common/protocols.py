"""Evaluation protocols shared by the benchmarks (NumFinE, EmbedNum, NQuAD).

Every function takes plain similarity scores (any metric, higher = more similar) and gold
information, so it works for a baseline, for NASH, or for any other scorer.

Conventions, chosen so that a metric that cannot tell candidates apart gets no credit:

* pairwise decisions are strict: a tie (equal similarity) counts as wrong;
* ranking metrics break ties pessimistically: a relevant candidate tied with an irrelevant one
  is ranked below it;
* Kendall τ_b is scipy's variant ``"b"``; a list with constant scores (or constant distances) has
  no defined τ_b, and counts as 0 by default (``undefined="zero"``) or is left out (``"skip"``).
  The number of such lists is always reported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np
from scipy.stats import kendalltau

from .bootstrap import percentile_intervals

ArrayLike = Sequence[float] | np.ndarray


def _vector(name: str, values: ArrayLike) -> np.ndarray:
    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim != 1:
        raise ValueError(f"{name}: expected a 1-d sequence of scores, got shape {arr.shape}")
    bad = np.flatnonzero(~np.isfinite(arr))
    if bad.size:
        raise ValueError(f"{name}: non-finite score at index {int(bad[0])} ({arr[bad[0]]})")
    return arr


def _same_length(**arrays: np.ndarray) -> int:
    lengths = {name: len(a) for name, a in arrays.items()}
    if len(set(lengths.values())) != 1:
        raise ValueError(f"length mismatch: {lengths}")
    n = next(iter(lengths.values()))
    if n == 0:
        raise ValueError(f"empty input: {', '.join(lengths)}")
    return n


def pairwise_accuracy(higher: ArrayLike, lower: ArrayLike) -> float:
    """Share of items where ``higher[i] > lower[i]`` strictly (the gold says it should be)."""
    hi, lo = _vector("higher", higher), _vector("lower", lower)
    _same_length(higher=hi, lower=lo)
    return float(np.mean(hi > lo))


def triplet_accuracy(sim_positive: ArrayLike, sim_negative: ArrayLike) -> float:
    """Triplet protocol: accuracy of ``sim(anchor, positive) > sim(anchor, negative)``."""
    return pairwise_accuracy(sim_positive, sim_negative)


def crosspair_accuracy(sim_a: ArrayLike, sim_b: ArrayLike, labels: Sequence[int] | np.ndarray) -> float:
    """Cross-pair protocol: label 0 means pair a deviates less and should score higher, 1 means pair b."""
    a, b = _vector("sim_a", sim_a), _vector("sim_b", sim_b)
    y = np.asarray(labels)
    _same_length(sim_a=a, sim_b=b, labels=y)
    bad = np.flatnonzero((y != 0) & (y != 1))
    if bad.size:
        raise ValueError(f"labels: expected 0 or 1, got {y[bad[0]]!r} at index {int(bad[0])}")
    correct = np.where(y == 0, a > b, b > a)
    return float(np.mean(correct))


def kendall_tau_b(scores: ArrayLike, distances: ArrayLike) -> float:
    """τ_b between the ranking by similarity (high first) and by gold distance (small first).

    Returns NaN when it is undefined (constant scores or constant distances).
    """
    s, d = _vector("scores", scores), _vector("distances", distances)
    if _same_length(scores=s, distances=d) < 2:
        raise ValueError("kendall_tau_b needs at least 2 candidates")
    if np.all(s == s[0]) or np.all(d == d[0]):
        return float("nan")
    # Similarity should fall as distance grows: correlate scores with negated distances.
    return float(kendalltau(s, -d, variant="b").statistic)


def exact_order_accuracy(score_lists: Sequence[ArrayLike], gold_orders: Sequence[Sequence[int]]) -> float:
    """Share of lists whose similarities fall strictly along the gold order (indices, most similar first).

    A tie anywhere along the order counts as wrong, as a tie does in the pairwise protocols.
    """
    if len(score_lists) != len(gold_orders):
        raise ValueError(f"length mismatch: {len(score_lists)} score lists, {len(gold_orders)} gold orders")
    if not score_lists:
        raise ValueError("empty input: no lists")
    correct = 0
    for i, (scores, order) in enumerate(zip(score_lists, gold_orders, strict=True)):
        s = _vector(f"list {i}", scores)
        if sorted(order) != list(range(len(s))):
            raise ValueError(f"list {i}: gold order {list(order)} is not an order of indices 0..{len(s) - 1}")
        correct += bool(np.all(np.diff(s[np.asarray(order, dtype=np.int64)]) < 0))
    return correct / len(score_lists)


@dataclass(frozen=True)
class ListwiseResult:
    mean: float
    n: int
    n_undefined: int
    undefined: str

    def as_dict(self) -> dict:
        return asdict(self)


def mean_kendall_tau_b(score_lists: Sequence[ArrayLike], distance_lists: Sequence[ArrayLike],
                       undefined: str = "zero") -> ListwiseResult:
    """Listwise protocol: mean τ_b over lists; ``undefined`` is ``"zero"`` or ``"skip"`` (see module doc)."""
    if undefined not in ("zero", "skip"):
        raise ValueError(f"undefined must be 'zero' or 'skip', got {undefined!r}")
    if len(score_lists) != len(distance_lists):
        raise ValueError(f"length mismatch: {len(score_lists)} score lists, "
                         f"{len(distance_lists)} distance lists")
    if not score_lists:
        raise ValueError("empty input: no lists")
    taus = []
    for i, (s, d) in enumerate(zip(score_lists, distance_lists, strict=True)):
        try:
            taus.append(kendall_tau_b(s, d))
        except ValueError as exc:
            raise ValueError(f"list {i}: {exc}") from None
    arr = np.asarray(taus)
    nan = np.isnan(arr)
    if undefined == "zero":
        mean = float(np.where(nan, 0.0, arr).mean())
    else:
        mean = float(arr[~nan].mean()) if (~nan).any() else float("nan")
    return ListwiseResult(mean=mean, n=len(arr), n_undefined=int(nan.sum()), undefined=undefined)


def precision_at_k(scores: Sequence[ArrayLike], relevant: Sequence[Sequence[int]], k: int) -> float:
    """Mean over lists of |top-k ∩ relevant| / k; the top k is taken with ties broken against relevance."""
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    if len(scores) != len(relevant):
        raise ValueError(f"length mismatch: {len(scores)} score lists, {len(relevant)} relevance sets")
    values = []
    for i, (row, rel) in enumerate(zip(scores, relevant, strict=True)):
        s = _vector(f"scores[{i}]", row)
        if k > len(s):
            raise ValueError(f"scores[{i}]: k={k} exceeds the {len(s)} candidates")
        is_rel = np.zeros(len(s), dtype=bool)
        for j in rel:
            if not 0 <= j < len(s):
                raise ValueError(f"relevant[{i}] contains {j}, outside 0..{len(s) - 1}")
            is_rel[j] = True
        # Sort by score descending, irrelevant first among equals (lexsort: last key is primary).
        order = np.lexsort((is_rel, -s))
        values.append(is_rel[order[:k]].sum() / k)
    return float(np.mean(values))


def bootstrap_ci(correct: ArrayLike, n_resamples: int = 1000, confidence: float = 0.95,
                 seed: int = 0) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of per-item outcomes (seeded; `bootstrap.py`, as the summary)."""
    x = _vector("correct", correct)
    if x.size == 0:
        raise ValueError("empty input: correct")
    return percentile_intervals([x], n_resamples, confidence, seed)[0]
