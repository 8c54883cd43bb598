"""Step 9, the NASH mix: NASH = alpha S_text + (1 - alpha) S_num, and likewise its precision and recall."""

from __future__ import annotations

import numpy as np

from .alignment import NumberScores


def mix(alpha: np.ndarray, s_text: np.ndarray, s_num: np.ndarray) -> np.ndarray:
    """NASH = alpha * S_text + (1 - alpha) * S_num, clipped to [-1, 1]."""
    return np.clip(alpha * s_text + (1 - alpha) * s_num, -1.0, 1.0)


def mixed(alpha: np.ndarray, text: np.ndarray, text_precision: np.ndarray, text_recall: np.ndarray,
          numbers: NumberScores) -> dict[str, np.ndarray]:
    """The number channel's fields and NASH's F, precision and recall: each text score mixed with its number score.

    S(a -> b) is the mean over the prediction's numbers of what their matches contribute, so it falls when the
    prediction states figures the reference lacks: it is the precision; S(b -> a), the mean over the reference's
    numbers, falls when the prediction leaves them out: the recall.
    """
    precision, recall = numbers.a_to_b, numbers.b_to_a
    return {
        "numeric": numbers.s_num, "numeric_precision": precision, "numeric_recall": recall,
        "nash": mix(alpha, text, numbers.s_num),
        "nash_precision": mix(alpha, text_precision, precision),
        "nash_recall": mix(alpha, text_recall, recall),
    }
