"""Data-driven alignment threshold: tau = mu + sigma (DESIGN §1.5).

mu and sigma are the mean and standard deviation of the context cosine between the numbers of
randomly paired sentences: what an alignment between *unrelated* numbers looks like. Pairs are
drawn with a seeded generator over the sorted distinct sentences, so the result depends on the set
of sentences, not their order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from importlib import resources
from typing import Protocol

import numpy as np

from .validation import check_texts


class MentionEncoder(Protocol):
    """What calibration needs of a scorer (a `NASH`): the context vectors of each text's numbers."""

    def mention_vectors(self, texts: Sequence[str], show_progress: bool = False) -> list[np.ndarray]: ...

BUILTIN_CORPUS = "calibration_sentences.txt"


@dataclass(frozen=True)
class Calibration:
    mu: float
    sigma: float
    tau: float
    n_sentences: int  # sentences with at least one scorable number
    n_pairs: int
    n_cosines: int
    seed: int
    corpus: str

    def as_dict(self) -> dict[str, float | int | str]:
        return asdict(self)

    def sweep(self) -> dict[str, float]:
        """The paper's Appendix B grid: mu-2sigma .. mu+2sigma."""
        return {f"mu{k:+d}sigma" if k else "mu": self.mu + k * self.sigma for k in (-2, -1, 0, 1, 2)}


def tau_from_vectors(
    vectors: Sequence[np.ndarray], n_pairs: int = 2000, seed: int = 0, corpus: str = "given"
) -> Calibration:
    """mu + sigma of all mention-to-mention cosines over `n_pairs` random pairs of distinct texts."""
    usable = [v for v in vectors if len(v)]
    if len(usable) < 2:
        raise ValueError(f"calibration needs at least 2 sentences with a number, got {len(usable)}")
    rng = np.random.default_rng(seed)
    first = rng.integers(0, len(usable), size=n_pairs)
    second = (first + rng.integers(1, len(usable), size=n_pairs)) % len(usable)  # never the same sentence
    cosines = np.concatenate([(usable[i] @ usable[j].T).ravel() for i, j in zip(first, second)])
    mu, sigma = float(cosines.mean()), float(cosines.std())
    return Calibration(
        mu=mu,
        sigma=sigma,
        tau=mu + sigma,
        n_sentences=len(usable),
        n_pairs=int(n_pairs),
        n_cosines=int(cosines.size),
        seed=seed,
        corpus=corpus,
    )


def calibrate_threshold(
    scorer: MentionEncoder,
    sentences: Sequence[str],
    n_pairs: int = 2000,
    seed: int = 0,
    show_progress: bool = False,
    corpus: str = "given",
) -> Calibration:
    """Calibrate tau for `scorer`'s model on `sentences` (encoded once each)."""
    texts = sorted(set(check_texts(sentences, "sentences")))
    return tau_from_vectors(scorer.mention_vectors(texts, show_progress=show_progress), n_pairs, seed, corpus)


def builtin_sentences() -> list[str]:
    """Our own calibration corpus: varied sentences with numbers, shipped with the package."""
    text = resources.files(__package__).joinpath("resources", BUILTIN_CORPUS).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
