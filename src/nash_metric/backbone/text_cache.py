"""What is read of a text, kept by the text's content for the next chunk or call that meets the same text: its
tokens (`encoders`), its numbers, their contexts and written precision (`pipeline.pool`). A source that many claims
cite is read once, not once per chunk.

Bounded twice, least recently used first out: at most `ENTRIES` texts and `CHARACTERS` characters of them (a long
source's readings are the large ones). A reading is a function of its key alone, and what it holds is never
changed after it is made, so a hit gives exactly what a fresh reading would.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")

ENTRIES = 8192  # texts: four chunks of 1,024 distinct pairs
CHARACTERS = 4_000_000  # a 10-K filing is about 300,000
_ALL: weakref.WeakSet[TextCache] = weakref.WeakSet()  # every cache of the process, for `clear_all`


def clear_all() -> None:
    """Forget every text read before, in every cache (a benchmark's cold call)."""
    for cache in list(_ALL):
        cache.clear()


class TextCache(Generic[V]):
    """A bounded LRU of readings by key (the text and whatever else its reading depends on)."""

    def __init__(self, entries: int = ENTRIES, characters: int = CHARACTERS) -> None:
        self.entries, self.characters = entries, characters
        self._items: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()
        _ALL.add(self)

    def find(self, key: Hashable) -> V | None:
        """The reading kept under `key`, or None."""
        with self._lock:
            found = self._items.get(key)
            if found is None:
                return None
            self._items.move_to_end(key)
            return found[0]

    def keep(self, key: Hashable, text: str, value: V) -> None:
        """Keep `value`, the reading of `key` (whose text is `text`), evicting the least recently used beyond the
        bounds; a text longer than the whole budget is not kept."""
        if len(text) > self.characters:
            return
        with self._lock:
            if key not in self._items:
                self._items[key] = (value, len(text))
                self._size += len(text)
            while len(self._items) > self.entries or self._size > self.characters:
                self._size -= self._items.popitem(last=False)[1][1]

    def get(self, key: Hashable, text: str, read: Callable[[], V]) -> V:
        """The reading of `key`: kept, or `read()` and kept. Read outside the lock, so one thread's long text holds
        up no other; two threads reading one text both read it (the same result)."""
        found = self.find(key)
        if found is None:
            found = read()
            self.keep(key, text, found)
        return found

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._size = 0

    def __len__(self) -> int:
        return len(self._items)
