"""The one cache of loaded models in a process: `nash_score`, the evaluate module, the Space and the bert-score
scorers all keep what they load in `MODELS`, under one policy whose knobs the Space turns (`configure`).

A key is (model, part): the parts of one model (its backbones, its scorers under other options, its bert-score
scorer) load separately but are kept, counted and evicted together. One load per key, never under a lock other
models wait on. A load runs in the caller's thread (`background=False`: the library's calls, whose errors reach
the caller as they are) or in its own daemon thread behind a future (the Space's requests), so

- the registry lock is held only to look up or insert a slot, never during a load;
- a request waits for its own model at most for its remaining budget (`timeout`), then gets `ModelLoading`
  while the load goes on in the background (a hung hub download cannot hold a queue worker forever);
- a failed load is remembered for `error_seconds` only: long enough that a user retrying a bad id does not
  start a new round of hub retries on every click, short enough that a transient network error heals;
- at most `capacity` models stay loaded (least recently used evicted first); `pinned` models (the default)
  are evicted last, and only when the capacity is 1;
- at most `max_loading` models load at once besides the pinned ones, so hostile ids cannot pile up threads.

The library's policy: 4 models, none pinned, failures not remembered, no cap on loads. The Space's: its
operator's capacity, the default model pinned, failures remembered 30 s, 2 loads at once (`space.scorers`).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Collection
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")


class ModelLoading(TimeoutError):
    """The model is still loading in the background; the same request can be sent again later."""


class ModelBusy(OSError):
    """Too many other models are loading right now."""


class ModelLoadFailed(OSError):
    """The load failed (the message is the loader's); remembered for `error_seconds`."""


@dataclass
class _Slot:
    counts: bool  # whether a successful load makes the model count against the capacity
    started: float
    future: Future = field(default_factory=Future)
    ok: bool = False
    failed_at: float | None = None

    @property
    def pending(self) -> bool:
        return not self.ok and self.failed_at is None


class ModelCache:
    def __init__(self, capacity: int = 4, pinned: Collection[str] = (), error_seconds: float = 0.0,
                 max_loading: int | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity = capacity
        self.pinned = frozenset(pinned)
        self.error_seconds = error_seconds
        self.max_loading = max_loading
        self._clock = clock
        self._lock = threading.Lock()
        self._models: OrderedDict[str, dict[str, _Slot]] = OrderedDict()  # least recently used first

    def configure(self, *, capacity: int | None = None, pinned: Collection[str] | None = None,
                  error_seconds: float | None = None, max_loading: int | None = None) -> None:
        """Change the policy (the options given); models beyond a smaller capacity are evicted now."""
        with self._lock:
            self.capacity = self.capacity if capacity is None else capacity
            self.pinned = self.pinned if pinned is None else frozenset(pinned)
            self.error_seconds = self.error_seconds if error_seconds is None else error_seconds
            self.max_loading = self.max_loading if max_loading is None else max_loading
            self._evict(keep=None)

    def get(self, key: tuple[str, str], load: Callable[[], T], timeout: float | None = None,
            counts: bool = True, background: bool = True) -> T:
        """The value loaded for `key`, loading it once if needed: in the background (waiting at most `timeout`), or
        with `background=False` in this thread, whose errors then propagate unchanged."""
        name, part = key
        with self._lock:
            now = self._clock()
            self._prune(now)
            slots = self._models.setdefault(name, {})
            self._models.move_to_end(name)
            slot, mine = slots.get(part), False
            if slot is None:
                self._check_room(name, slots)
                slot, mine = _Slot(counts, now), True
                slots[part] = slot
                if background:
                    threading.Thread(target=self._run, args=(name, slot, load), daemon=True,
                                     name=f"nash-load-{name}-{part}").start()
        if mine and not background:
            self._run(name, slot, load)
            if slot.failed_at is not None:
                raise slot.future.exception()  # this thread's own load: its error as it is
        try:
            return slot.future.result(timeout=timeout)
        except FutureTimeout:
            raise ModelLoading(f"model {name!r} is still loading ({self._clock() - slot.started:.0f} s so far); "
                               "try again in a minute.") from None
        except Exception as exc:  # a fresh exception per waiter: the stored one is shared between threads
            raise ModelLoadFailed(str(exc)) from None

    def loaded(self) -> list[str]:
        """Models that count against the capacity, least recently used first."""
        with self._lock:
            return [n for n, slots in self._models.items() if any(s.ok and s.counts for s in slots.values())]

    def _check_room(self, name: str, slots: dict[str, _Slot]) -> None:
        """ModelBusy when `max_loading` other models are loading (never for a pinned one). Under the lock."""
        if self.max_loading is None or name in self.pinned:
            return
        loading = {n for n, s in self._models.items() if n != name and any(x.pending for x in s.values())}
        if len(loading - self.pinned) >= self.max_loading:
            if not slots:
                del self._models[name]
            raise ModelBusy(f"{len(loading)} other models are loading right now; try {name!r} again in a minute.")

    def _run(self, name: str, slot: _Slot, load: Callable[[], Any]) -> None:
        try:
            value = load()
        except BaseException as exc:  # handed to every waiter, never lost (an interrupt too: no slot stays pending)
            with self._lock:
                slot.failed_at = self._clock()
            slot.future.set_exception(exc)
            return
        with self._lock:
            slot.ok = True
            self._evict(keep=name)
        slot.future.set_result(value)

    def _prune(self, now: float) -> None:
        """Forget failures older than `error_seconds` (then a new request retries the load)."""
        for name in list(self._models):
            slots = self._models[name]
            for part in [p for p, s in slots.items() if s.failed_at is not None
                         and now - s.failed_at >= self.error_seconds]:
                del slots[part]
            if not slots:
                del self._models[name]

    def _evict(self, keep: str | None) -> None:
        counted = [n for n, slots in self._models.items() if any(s.ok and s.counts for s in slots.values())]
        excess = len(counted) - self.capacity
        # Least recently used first, pinned ones never (plain LRU with room for one); never one still loading.
        order = counted if self.capacity < 2 else [n for n in counted if n not in self.pinned]
        for name in order:
            if excess <= 0:
                break
            if name == keep or any(s.pending for s in self._models[name].values()):
                continue
            del self._models[name]  # requests still holding the model finish with it; then it is freed
            excess -= 1


MODELS = ModelCache()  # the process's one cache (the library's policy; the Space reconfigures it)
