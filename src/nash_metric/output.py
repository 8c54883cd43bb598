"""`NASHOutput`: the per-pair scores of one call, their configuration echo and hashcode."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .alignment import Alignment
from .config import check_threshold
from .weighting import mix

_SCORE_FIELDS = ("nash", "text", "numeric", "alpha", "baseline")
PUBLIC_FIELDS = ("nash", "text_similarity", "numeric_similarity", "alpha", "baseline")


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
    best_reference: np.ndarray | None = None  # with several references per prediction: the index of the one kept

    def __len__(self) -> int:
        return len(self.nash)

    @classmethod
    def concat(cls, parts: Sequence[NASHOutput]) -> NASHOutput:
        """The outputs of consecutive chunks of one corpus as one output.

        The chunks' `unscored` indices already count from the start of the corpus, as `iter_score` yields them.
        """
        if len(parts) == 1:
            return parts[0]
        unscored = [item for p in parts for item in p.unscored]
        alignment, pair_index = None, None
        if all(p.alignment is not None for p in parts):
            alignment, rows = Alignment.concat([p.alignment for p in parts])
            pair_index = np.concatenate([p.pair_index + r for p, r in zip(parts, rows)])
        stacked = {name: np.concatenate([getattr(p, name) for p in parts]) for name in _SCORE_FIELDS}
        return cls(**stacked, config=parts[0].config, hashcode=parts[0].hashcode, unscored=unscored,
                   alignment=alignment, pair_index=pair_index)

    def best_of(self, group_sizes: Sequence[int]) -> NASHOutput:
        """Per prediction, the reference with the highest NASH among its consecutive `group_sizes` rows.

        The first one wins ties; every field comes from that same pair, so nash = alpha text + (1 - alpha)
        numeric still holds row by row. `best_reference` says which reference was kept.
        """
        starts = np.cumsum([0, *group_sizes[:-1]]).astype(np.int64)
        best = np.array([s + int(np.argmax(self.nash[s : s + n])) for s, n in zip(starts, group_sizes)], np.int64)
        kept = {int(row): k for k, row in enumerate(best)}
        unscored = [
            {**item, "index": kept[item["index"]], "reference": int(item["index"] - starts[kept[item["index"]]])}
            for item in self.unscored
            if item["index"] in kept
        ]
        return replace(
            self, **{name: getattr(self, name)[best] for name in _SCORE_FIELDS}, unscored=unscored,
            pair_index=None if self.pair_index is None else self.pair_index[best], best_reference=best - starts,
        )

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

    def columns(self) -> dict[str, np.ndarray]:
        """The per-pair fields under their public names (the evaluate module's, and the output files')."""
        out = {public: getattr(self, name) for name, public in zip(_SCORE_FIELDS, PUBLIC_FIELDS)}
        if self.best_reference is not None:
            out["best_reference"] = self.best_reference
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable scores (the evaluate module's field names), config echo and hashcode."""
        return {
            **{name: values.tolist() for name, values in self.columns().items()},
            "config": self.config,
            "hashcode": self.hashcode,
            "unscored": self.unscored,
        }


# What determines a score. The hashcode is built from these alone, so that two results with one hashcode were
# scored alike however the options were spelled: the default tau given or not, the hub id or the embedded copy
# of a model, an IDF table passed as a file or as the corpus it was fitted on.
SCORE_DETERMINANTS = (
    "model", "backend", "num_layers", "dtype", "threshold", "idf", "numbers", "comparisons", "bertscore_idf",
    "nash_metric", "transformers",
)


def hashcode(config: Mapping[str, Any]) -> str:
    """Readable prefix as evaluate's bertscore hashcode, plus a digest of everything that determines the scores."""
    tau = config["threshold"]
    tau_s = f"{tau:.4f}" if isinstance(tau, float) else str(tau)
    digest = hashlib.sha1(repr([(k, config.get(k)) for k in SCORE_DETERMINANTS]).encode()).hexdigest()[:8]
    dtype = config.get("dtype", "float32")
    return (
        f"{config['model']}_L{config['num_layers']}_{config['backend']}_tau={tau_s}_idf={config['idf']}"
        f"{'_cmp' if config['comparisons'] else ''}{'_paper' if config.get('numbers') == 'paper' else ''}"
        f"{'' if dtype == 'float32' else '_' + dtype}_version={config['nash_metric']}"
        f"(hug_trans={config['transformers']})_{digest}"
    )
