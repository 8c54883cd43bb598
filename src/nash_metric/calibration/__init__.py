"""What is fitted on sentences rather than given: tau and the rescale baseline.

    threshold  tau = mu + sigma over random sentence pairs; which tau a scorer uses (`choose_tau`);
               the hash sample threshold='auto' calibrates on
    rescale    (s - b) / (1 - b) with a random-pair baseline, as bert-score's rescale_with_baseline

`nash_metric.calibration.<name>` for a name of `threshold` still works for one release (0.2.0's module).
"""

from __future__ import annotations

from typing import Any

from ..common.moved import moved_name


def __getattr__(name: str) -> Any:
    return moved_name(__name__, name)
