"""The metrics of a field on human labels: ROC AUC, balanced accuracy and the threshold that maximises it."""

from __future__ import annotations

import numpy as np

FIELDS = {
    "cosine": "baseline of a sentence-backbone NASH (cosine of pooled embeddings)",
    "bertscore_f1": "baseline of a token-backbone NASH (BERTScore F1)",
    "nash": "NASH of the scorer given",
    "s_num": "S_num (numeric) of the scorer given",
    "numeric_precision": "numeric_precision of the scorer given",
    "numeric_support": "share of the summary's numbers supported by the reference (1.0 when it states none)",
    "verdict": "1.0 when the scorer flags none of the summary's figures (any verdict class), else 0.0 (binary: no "
               "threshold)",
    "value_anywhere_share": "share of the summary's digit strings whose value the reference states anywhere "
                            "(benchmarks.value_anywhere, from the texts; 1.0 when it states none)",
    "value_anywhere": "1.0 when the reference states every digit string of the summary somewhere, else 0.0 "
                      "(binary)",
    "verdict_unsupported": "1.0 unless a figure of the summary is flagged 'unsupported' (binary)",
    "verdict_misplaced": "1.0 unless a figure of the summary is flagged 'misplaced' (binary)",
    "verdict_contradicted": "1.0 unless a figure of the summary is flagged 'contradicted' (binary)",
    "verdict_computed": "1.0 unless a figure of the summary is 'computed': stated nowhere in the reference, but "
                        "given by a derivation of its numbers (binary; counted as supported, never flagged)",
}
BINARY_FIELDS = ("verdict", "value_anywhere", "verdict_unsupported", "verdict_misplaced", "verdict_contradicted",
                 "verdict_computed")


def roc_auc(y: np.ndarray, scores: np.ndarray) -> float | None:
    """ROC AUC with label 1 positive; None unless both classes are present."""
    from sklearn.metrics import roc_auc_score

    y = np.asarray(y)
    if not ((y == 1).any() and (y == 0).any()):
        return None
    return float(roc_auc_score(y, np.asarray(scores, dtype=float)))


def balanced_accuracy(y: np.ndarray, predicted: np.ndarray) -> float | None:
    """Mean of the recall of each class; ``predicted`` is True for consistent. None unless both are present."""
    y, predicted = np.asarray(y), np.asarray(predicted, dtype=bool)
    pos, neg = y == 1, y == 0
    if not (pos.any() and neg.any()):
        return None
    return float((predicted[pos].mean() + (~predicted[neg]).mean()) / 2)


def best_threshold(y: np.ndarray, scores: np.ndarray) -> float | None:
    """The ``t`` (predict consistent when score >= t) maximising balanced accuracy on (y, scores).

    Candidates: the lowest score (everything consistent, BA 0.5) and the midpoints between consecutive distinct
    scores; the lowest candidate wins ties. None unless both classes are present.
    """
    y, scores = np.asarray(y), np.asarray(scores, dtype=float)
    pos, neg = np.sort(scores[y == 1]), np.sort(scores[y == 0])
    if not (len(pos) and len(neg)):
        return None
    values = np.unique(scores)
    candidates = np.concatenate([values[:1], values[:-1] + (values[1:] - values[:-1]) / 2])
    tpr = 1.0 - np.searchsorted(pos, candidates, side="left") / len(pos)
    tnr = np.searchsorted(neg, candidates, side="left") / len(neg)
    return float(candidates[int(np.argmax((tpr + tnr) / 2))])


def predicted_consistent(field: str, scores: np.ndarray, threshold: float | None) -> np.ndarray | None:
    if field in BINARY_FIELDS:
        return np.asarray(scores) >= 0.5
    return None if threshold is None else np.asarray(scores) >= threshold
