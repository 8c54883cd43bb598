"""`NASHOutput`: the per-pair scores of one call, their configuration echo and hashcode."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .alignment import Alignment
from .config import check_threshold
from .weighting import mix


@dataclass
class NASHOutput:
    """Scores of each (prediction, reference) pair, float64 arrays of equal length."""

    nash: np.ndarray
    text: np.ndarray  # S_text: backbone metric on the masked pair
    numeric: np.ndarray  # S_num
    alpha: np.ndarray  # weight of the text channel
    baseline: np.ndarray  # backbone metric on the unmasked pair (BERTScore F1 or cosine)
    config: dict[str, Any]
    hashcode: str
    unscored: list[dict[str, Any]] = field(default_factory=list)
    alignment: Alignment | None = field(default=None, repr=False)
    pair_index: np.ndarray | None = field(default=None, repr=False)  # input pair -> row of `alignment`

    def __len__(self) -> int:
        return len(self.nash)

    def at_threshold(self, tau: float) -> NASHOutput:
        """The same pairs rescored at another tau, without encoding anything again."""
        tau = check_threshold(tau)
        numeric = self.numeric
        if self.alignment is not None:
            numeric = self.alignment.numeric_similarity(tau).s_num[self.pair_index]
        config = {**self.config, "threshold": tau, "threshold_source": "given"}
        return replace(
            self, numeric=numeric, nash=mix(self.alpha, self.text, numeric), config=config, hashcode=hashcode(config)
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable scores (the evaluate module's field names), config echo and hashcode."""
        return {
            "nash": self.nash.tolist(),
            "text_similarity": self.text.tolist(),
            "numeric_similarity": self.numeric.tolist(),
            "alpha": self.alpha.tolist(),
            "baseline": self.baseline.tolist(),
            "config": self.config,
            "hashcode": self.hashcode,
            "unscored": self.unscored,
        }


def hashcode(config: Mapping[str, Any]) -> str:
    """Readable prefix as evaluate's bertscore hashcode, plus a digest of the whole configuration echo."""
    tau = config["threshold"]
    tau_s = f"{tau:.4f}" if isinstance(tau, float) else str(tau)
    digest = hashlib.sha1(repr(sorted(config.items())).encode()).hexdigest()[:8]
    return (
        f"{config['model']}_L{config['num_layers']}_{config['backend']}_tau={tau_s}_idf={config['idf']}"
        f"{'_cmp' if config['comparisons'] else ''}{'_paper' if config.get('numbers') == 'paper' else ''}"
        f"_version={config['nash_metric']}"
        f"(hug_trans={config['transformers']})_{digest}"
    )
