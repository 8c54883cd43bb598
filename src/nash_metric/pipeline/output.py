"""`NASHOutput`: the per-pair scores of one call, their configuration echo and hashcode."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from ..common.blank import zero_blank_pairs
from ..config import check_threshold
from ..verdicts.argmax import argmax_verdicts
from ..verdicts.decide import support_fields
from .alignment import Alignment, NumberScores
from .echo import hashcode
from .mixing import mixed

if TYPE_CHECKING:
    from ..calibration.rescale import RescaleBaseline

# Every per-pair score, in the order of the public names (the evaluate module's results and the output files).
# Precision and recall follow bert-score: precision reads the prediction's side (a prediction that adds what the
# reference lacks loses precision), recall the reference's (a prediction that leaves facts out loses recall).
SCORE_FIELDS = (
    "nash", "nash_precision", "nash_recall", "text", "text_precision", "text_recall",
    "numeric", "numeric_precision", "numeric_recall", "numeric_support", "alpha", "baseline", "baseline_precision",
    "baseline_recall",
)
# The backbone's own score of the original pair: computed on request (`baseline=True`), else None.
BASELINE_FIELDS = ("baseline", "baseline_precision", "baseline_recall")
PUBLIC_FIELDS = (
    "nash", "nash_precision", "nash_recall", "text_similarity", "text_precision", "text_recall",
    "numeric_similarity", "numeric_precision", "numeric_recall", "numeric_support", "alpha", "baseline",
    "baseline_precision", "baseline_recall",
)


def public_fields(baseline: bool) -> tuple[str, ...]:
    """The public score fields of a scorer's output: `PUBLIC_FIELDS`, less the baseline's unless it is asked for."""
    return PUBLIC_FIELDS if baseline else tuple(f for f in PUBLIC_FIELDS if f not in BASELINE_FIELDS)


@dataclass
class NASHOutput:
    """Scores of each (prediction, reference) pair, float64 arrays of equal length.

    Each channel comes as F (or its mean) with its precision and recall: `baseline` and `text` are BERTScore
    F1 on the token backbone (P = R = F = cosine on the sentence backbone); `numeric` is the mean of the two
    directional number scores, `numeric_precision` = S(prediction -> reference), the mean over the prediction's
    numbers of what their matches contribute, and `numeric_recall` = S(reference -> prediction), the mean over
    the reference's numbers, as bert-score's P and R; `nash_precision` and `nash_recall` mix the precisions and
    the recalls with the same alpha. `numeric_support` is the share of the prediction's numbers that the
    reference supports at their written precision or implies by a derivation of bound numbers (`computed`; 1.0
    when it states none), and `unsupported_numbers` lists the others (`verdicts`). With `rescale_with_baseline`,
    the nash, text and baseline fields are rescaled (s - b) / (1 - b) (`rescale`); the number fields and alpha
    never are.

    Attributes:
        nash: NASH of each pair, alpha * text + (1 - alpha) * numeric (then rescaled, with `rescale_with_baseline`).
        nash_precision: NASH with the precisions mixed (the prediction's side).
        nash_recall: NASH with the recalls mixed (the reference's side).
        text: S_text, the backbone metric on the pair without its numbers (the text channel); public name
            `text_similarity`.
        text_precision: The text channel's precision.
        text_recall: The text channel's recall.
        numeric: S_num, the mean of the two directional number scores; public name `numeric_similarity`.
        numeric_precision: S(prediction -> reference).
        numeric_recall: S(reference -> prediction).
        numeric_support: The share of the prediction's numbers that the reference supports or implies (1.0 when it
            states none).
        alpha: The weight of the text channel in each pair's NASH.
        baseline: The backbone metric on the original pair (BERTScore F1 or cosine); None unless the scorer was
            built with `baseline=True`.
        baseline_precision: The baseline's precision (None as `baseline`).
        baseline_recall: The baseline's recall (None as `baseline`).
        config: The configuration echo: every option that can change a score, resolved, and the versions.
        hashcode: The digest of `config`, naming the configuration in a report.
        unscored: Every number left out of the number channel: the pair's `index`, its `side`, `text`, `start`,
            `end` and the `reason`.
        unsupported_numbers: Per pair, the prediction's figures whose verdict is neither `supported` nor
            `computed` (entries of the same form as `figure_verdicts`).
        figure_verdicts: Per pair, every figure of the prediction with its verdict (`FigureVerdict` entries).
        alignment: The number alignments of the call, kept so that `at_threshold` rescores without encoding.
        pair_index: Per input pair, its row of `alignment`.
        best_reference: With several references per prediction, the index of the one kept; else None.
        rescale: The baseline the scores were rescaled by (`rescale_with_baseline`), else None.
        blank: Per pair, whether its prediction or reference is blank (such a pair scores 0).
    """

    nash: np.ndarray
    nash_precision: np.ndarray
    nash_recall: np.ndarray
    text: np.ndarray  # S_text: backbone metric on the pair without its numbers (the text channel)
    text_precision: np.ndarray
    text_recall: np.ndarray
    numeric: np.ndarray  # S_num
    numeric_precision: np.ndarray
    numeric_recall: np.ndarray
    numeric_support: np.ndarray  # share of the prediction's numbers the reference supports (verdicts/)
    alpha: np.ndarray  # weight of the text channel
    baseline: np.ndarray | None  # backbone metric on the original pair (BERTScore F1 or cosine), on request
    baseline_precision: np.ndarray | None
    baseline_recall: np.ndarray | None
    config: dict[str, Any]
    hashcode: str
    unscored: list[dict[str, Any]] = field(default_factory=list)
    # Per pair, the prediction's numbers whose verdict is neither `supported` nor `computed`
    # (verdicts.decide.support_fields).
    unsupported_numbers: list[list[dict[str, Any]]] = field(default_factory=list)
    # Per pair, every figure of the prediction with its verdict (verdicts.decide.FigureVerdict).
    figure_verdicts: list[list[dict[str, Any]]] = field(default_factory=list)
    alignment: Alignment | None = field(default=None, repr=False)
    pair_index: np.ndarray | None = field(default=None, repr=False)  # input pair -> row of `alignment`
    best_reference: np.ndarray | None = None  # with several references per prediction: the index of the one kept
    rescale: RescaleBaseline | None = field(default=None, repr=False)  # the baseline the scores were rescaled by
    blank: np.ndarray | None = field(default=None, repr=False)  # per pair: a blank text, scored 0 (blank.py)

    @classmethod
    def empty(cls, config: dict[str, Any], baseline: bool = False) -> NASHOutput:
        """The output of no pairs (with the baseline's fields when the scorer computes it)."""
        fields = {name: None if name in BASELINE_FIELDS and not baseline else np.zeros(0) for name in SCORE_FIELDS}
        return cls(**fields, config=config, hashcode=hashcode(config))

    def __len__(self) -> int:
        return len(self.nash)

    @property
    def fields(self) -> tuple[str, ...]:
        """The score fields this output holds: `SCORE_FIELDS`, less the baseline's when it was not asked for."""
        return SCORE_FIELDS if self.baseline is not None else tuple(f for f in SCORE_FIELDS
                                                                   if f not in BASELINE_FIELDS)

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
        stacked = {name: np.concatenate([getattr(p, name) for p in parts]) if name in parts[0].fields else None
                   for name in SCORE_FIELDS}
        unsupported = [entries for p in parts for entries in p.unsupported_numbers]
        verdicts = [entries for p in parts for entries in p.figure_verdicts]
        blank = None
        if any(p.blank is not None for p in parts):
            blank = np.concatenate([p.blank if p.blank is not None else np.zeros(len(p), bool) for p in parts])
        return cls(**stacked, config=parts[0].config, hashcode=parts[0].hashcode, unscored=unscored,
                   unsupported_numbers=unsupported, figure_verdicts=verdicts, alignment=alignment,
                   pair_index=pair_index, rescale=parts[0].rescale, blank=blank)

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
            self, **{name: getattr(self, name)[best] for name in self.fields}, unscored=unscored,
            unsupported_numbers=[self.unsupported_numbers[k] for k in best] if self.unsupported_numbers else [],
            figure_verdicts=[self.figure_verdicts[k] for k in best] if self.figure_verdicts else [],
            pair_index=None if self.pair_index is None else self.pair_index[best], best_reference=best - starts,
            blank=None if self.blank is None else self.blank[best],
        )

    def at_threshold(self, tau: float) -> NASHOutput:
        """The same pairs rescored at another tau, without encoding anything again."""
        tau = check_threshold(tau)
        raw = self.rescale.undo(self) if self.rescale is not None else self
        numbers = NumberScores(s_num=raw.numeric, a_to_b=raw.numeric_precision, b_to_a=raw.numeric_recall)
        support = {}
        if self.alignment is not None:
            numbers = self.alignment.numeric_similarity(tau).map(lambda s: s[self.pair_index])
            if self.alignment.first_a is not None and self.config.get("verdict") == "argmax":
                support = support_fields(argmax_verdicts(self.alignment, tau), self.pair_index)
        config = {**self.config, "threshold": tau, "threshold_source": "given"}
        out = replace(raw, **mixed(raw.alpha, raw.text, raw.text_precision, raw.text_recall, numbers), **support,
                      config=config, hashcode=hashcode(config))
        out = zero_blank_pairs(out, self.blank)  # a blank pair stays 0 at every tau
        if self.rescale is None:
            return out
        self.rescale.check(config)  # NASH's b was fitted at one tau: say so when rescoring at another
        return self.rescale.apply(out)

    def columns(self) -> dict[str, np.ndarray]:
        """The per-pair fields under their public names (the evaluate module's, and the output files')."""
        out = {public: getattr(self, name) for name, public in zip(SCORE_FIELDS, PUBLIC_FIELDS) if name in self.fields}
        if self.best_reference is not None:
            out["best_reference"] = self.best_reference
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable scores (the evaluate module's field names), config echo and hashcode."""
        return {
            **{name: values.tolist() for name, values in self.columns().items()},
            "unsupported_numbers": self.unsupported_numbers,
            "config": self.config,
            "hashcode": self.hashcode,
            "unscored": self.unscored,
        }
