"""The per-request time budget. Threads cannot be killed, so handlers check it between bounded steps."""

from __future__ import annotations

import time
from collections.abc import Callable

LOCAL_HINT = "run `nash score --pairs FILE` locally for large files"
# A heat map's cost: building its artists in the handler, then rendering and encoding them (gradio's WebP, after the
# handler returns), about linear in the cells drawn, each with its cosine as text. Measured by perf/plot_budget.py:
# 40 x 30 cells with their marks in about 5 s on 2 idle CPU cores (a dense 2,000-character pair), more when busy.
DRAW_SECONDS_FIXED, DRAW_SECONDS_PER_CELL = 0.5, 5e-3


class OverBudget(TimeoutError):
    """A request ran out of its time budget; the message says how far it got."""


class Deadline:
    """A request's budget, started when the handler starts (queue time does not count)."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self._clock = clock
        self._start = clock()

    def elapsed(self) -> float:
        return self._clock() - self._start

    def remaining(self) -> float:
        return max(0.0, self.seconds - self.elapsed())

    def expired(self) -> bool:
        return self.elapsed() >= self.seconds

    def check(self, step: str) -> None:
        """Raise `OverBudget` naming the step that could not start in time."""
        if self.expired():
            raise OverBudget(f"stopped before {step}: {self.allowance()}.")

    def allowance(self) -> str:
        return f"this Space allows {self.seconds:g} s per request"


def drawing_seconds(cells: int) -> float:
    """About how long a heat map of `cells` drawn cells takes to reach the page (`DRAW_SECONDS_PER_CELL`)."""
    return DRAW_SECONDS_FIXED + cells * DRAW_SECONDS_PER_CELL


def next_chunk(remaining: float, seconds_per_pair: float | None, first: int, largest: int) -> int:
    """Pairs to score next: `first` until the speed is known, then as many as fit the time left (0: stop).

    Sizing by the measured speed keeps a request within about one pair of its budget, not one chunk.
    """
    if remaining <= 0:
        return 0
    if seconds_per_pair is None:
        return first
    if seconds_per_pair > remaining:
        return 0
    return max(1, min(largest, int(remaining / max(seconds_per_pair, 1e-6))))


class SourceSpeed:
    """How fast this server checks a long source, per model: a check scores its source in one step that cannot
    be stopped, so a request estimates that step before starting it and refuses what would overrun its budget.

    The encoding of the source dominates and grows with its length, so the time is estimated as characters times
    the seconds per character last measured on a source of at least `LEARN_FROM` characters (a shorter one is
    mostly fixed cost); until then, `PRIOR` (measured: all-MiniLM-L6-v2 on 2 CPU cores, 30 KB in about 32 s).
    """

    LEARN_FROM = 5_000
    PRIOR = 1.1e-3  # seconds per character

    def __init__(self) -> None:
        self._rate: dict[str, float] = {}

    def estimate(self, model: str, chars: int) -> float:
        return chars * self._rate.get(model, self.PRIOR)

    def record(self, model: str, chars: int, seconds: float) -> None:
        if chars >= self.LEARN_FROM:
            self._rate[model] = seconds / chars

    def check(self, model: str, chars: int, deadline: Deadline) -> None:
        """Raise `OverBudget` when a source of `chars` characters would take longer than the time left."""
        seconds = self.estimate(model, chars)
        if chars >= self.LEARN_FROM and seconds > deadline.remaining():
            raise OverBudget(f"this source ({chars:,} characters) would take about {seconds:.0f} s to check here; "
                             f"{deadline.allowance()}: shorten it, or run `nash check --source FILE --text FILE` "
                             "locally.")
