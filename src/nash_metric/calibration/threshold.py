"""Data-driven alignment threshold: tau = mu + sigma (docs/method.md §1.5).

mu and sigma are the mean and standard deviation of the context cosine between the numbers of
randomly paired sentences: what an alignment between *unrelated* numbers looks like. Pairs are
drawn with a seeded generator over the sorted distinct sentences, so the result depends on the set
of sentences, not their order.

A calibration needs at least `MIN_CALIBRATION_SENTENCES` sentences with a scorable number: below that,
mu and sigma describe a handful of sentence pairs, not "unrelated numbers" (2 sentences give sigma ~ 1e-7).
"""

from __future__ import annotations

import hashlib
import heapq
import numbers
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from importlib import resources
from typing import Protocol

import numpy as np

from ..backbone.models import ResolvedModel, default_threshold
from ..common.defaults import AUTO_CALIBRATION_TEXTS, CALIBRATION_PAIRS, MIN_CALIBRATION_SENTENCES
from ..common.validation import check_texts


class MentionEncoder(Protocol):
    """What calibration needs of a scorer (a `NASH`): the context vectors of each text's numbers."""

    def mention_vectors(self, texts: Sequence[str], show_progress: bool = False) -> list[np.ndarray]: ...

BUILTIN_CORPUS = "calibration_sentences.txt"


class TooFewNumbersError(ValueError):
    """A calibration corpus with fewer sentences holding a scorable number than the stated minimum."""

    def __init__(self, message: str, found: int, distinct: int, minimum: int):
        super().__init__(message)
        self.found, self.distinct, self.minimum = found, distinct, minimum


@dataclass(frozen=True)
class Calibration:
    mu: float
    sigma: float
    tau: float
    n_sentences: int  # sentences with at least one scorable number
    n_pairs: int
    n_cosines: int
    seed: int
    corpus: str  # what was read: "builtin", "auto: ...", or the file and column of `corpus.sentences.calibrate_file`

    def as_dict(self) -> dict[str, float | int | str]:
        return asdict(self)

    def sweep(self) -> dict[str, float]:
        """The paper's Appendix B grid: mu-2sigma .. mu+2sigma."""
        return {f"mu{k:+d}sigma" if k else "mu": self.mu + k * self.sigma for k in (-2, -1, 0, 1, 2)}


def check_n_pairs(n_pairs: object, name: str = "n_pairs") -> int:
    """`n_pairs` as an int, or a ValueError naming it: a count of random pairs must be a positive integer."""
    if isinstance(n_pairs, bool) or not isinstance(n_pairs, numbers.Integral) or n_pairs < 1:
        raise ValueError(f"{name} must be a positive integer (random sentence pairs to draw), got {n_pairs!r}")
    return int(n_pairs)


def check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    return int(seed)


def too_few_message(found: int, distinct: int, minimum: int, corpus: str) -> str:
    """Why a corpus cannot calibrate tau, and what to do about it."""
    return (f"{corpus}: {found} of {distinct} distinct sentences have a scorable number; calibrating tau = mu + sigma "
            f"needs at least {minimum} (fewer give a noise estimate): add sentences with numbers, or pass a fixed "
            "threshold")


def random_pairs(n: int, n_pairs: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """`n_pairs` index pairs (i, j) into n >= 2 items, uniform with i != j, drawn with numpy's default_rng(seed)."""
    rng = np.random.default_rng(seed)
    first = rng.integers(0, n, size=n_pairs)
    second = (first + rng.integers(1, n, size=n_pairs)) % n  # never the same item
    return first, second


def tau_from_vectors(
    vectors: Sequence[np.ndarray],
    n_pairs: int = CALIBRATION_PAIRS,
    seed: int = 0,
    corpus: str = "given",
    min_sentences: int = MIN_CALIBRATION_SENTENCES,
) -> Calibration:
    """mu + sigma of all mention-to-mention cosines over `n_pairs` random pairs of distinct texts.

    Raises `TooFewNumbersError` when fewer than `min_sentences` (at least 2) texts have a number.
    """
    n_pairs, seed = check_n_pairs(n_pairs), check_seed(seed)
    if isinstance(min_sentences, bool) or not isinstance(min_sentences, numbers.Integral) or min_sentences < 2:
        raise ValueError(f"min_sentences must be an integer >= 2 (a pair of distinct sentences), got {min_sentences!r}")
    usable = [v for v in vectors if len(v)]
    if len(usable) < min_sentences:
        message = too_few_message(len(usable), len(vectors), min_sentences, corpus)
        raise TooFewNumbersError(message, len(usable), len(vectors), min_sentences)
    first, second = random_pairs(len(usable), n_pairs, seed)
    cosines = np.concatenate([(usable[i] @ usable[j].T).ravel() for i, j in zip(first, second)])
    mu, sigma = float(cosines.mean()), float(cosines.std())
    return Calibration(
        mu=mu,
        sigma=sigma,
        tau=mu + sigma,
        n_sentences=len(usable),
        n_pairs=n_pairs,
        n_cosines=int(cosines.size),
        seed=seed,
        corpus=corpus,
    )


def calibrate_threshold(
    scorer: MentionEncoder,
    sentences: Sequence[str],
    n_pairs: int = CALIBRATION_PAIRS,
    seed: int = 0,
    show_progress: bool = False,
    corpus: str = "given",
) -> Calibration:
    """Calibrate tau for `scorer`'s model on `sentences` (encoded once each)."""
    check_n_pairs(n_pairs)
    check_seed(seed)  # before encoding: a bad option should not cost a forward pass
    texts = sorted(set(check_texts(sentences, "sentences")))
    return tau_from_vectors(scorer.mention_vectors(texts, show_progress=show_progress), n_pairs, seed, corpus)


def builtin_sentences() -> list[str]:
    """Our own calibration corpus: varied sentences with numbers, shipped with the package."""
    text = resources.files("nash_metric").joinpath("resources", BUILTIN_CORPUS).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


# -- which tau a scorer uses ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TauChoice:
    tau: float | None  # None: each corpus decides (threshold='auto')
    source: str  # where it came from: "given", "model default", "calibrated on the built-in corpus", "auto", ...
    calibration: Calibration | None = None  # the calibration that gave it, if one did


def choose_tau(threshold: float | str | None, model: ResolvedModel, layer: int,
               builtin: Callable[[], Calibration]) -> TauChoice:
    """The threshold option resolved: 'auto' (left to each corpus), a given tau, the model's default, else
    mu + sigma on the built-in corpus (`builtin`, called only then)."""
    if threshold == "auto":
        return TauChoice(None, "auto")
    if threshold is not None:
        return TauChoice(float(threshold), "given")
    if (fixed := default_threshold(model, layer)) is not None:
        return TauChoice(fixed, "model default")
    calibration = builtin()
    return TauChoice(calibration.tau, "calibrated on the built-in corpus", calibration)


def calibration_sample(texts: Iterable[str], limit: int = AUTO_CALIBRATION_TEXTS) -> list[str]:
    """Up to `limit` distinct texts, those of smallest sha1 digest of their content, sorted: order and shards do not
    matter. A stream holds at most `limit` texts, and sample(A + B) = sample(sample(A) + B), so a corpus too large
    to hold is sampled chunk by chunk."""
    kept: dict[bytes, str] = {}  # digest -> text: the `limit` smallest digests so far
    largest: list[tuple[int, bytes]] = []  # the kept digests as a max-heap (negated), to evict the largest
    for text in texts:
        digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).digest()
        if digest in kept:
            continue
        if len(kept) < limit:
            heapq.heappush(largest, (-int.from_bytes(digest, "big"), digest))
        elif largest and digest < largest[0][1]:
            del kept[heapq.heapreplace(largest, (-int.from_bytes(digest, "big"), digest))[1]]
        else:
            continue
        kept[digest] = text
    return sorted(kept.values())
