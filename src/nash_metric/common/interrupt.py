"""Ctrl-C that a long run cannot lose.

Python raises KeyboardInterrupt wherever the main thread is when SIGINT arrives. Raised inside a finaliser (a
`__del__`, a weakref callback, the garbage collector), it is printed as "Exception ignored" and dropped, and the
run goes on to the end. While the CLI runs a command (`interruptible`), SIGINT is also remembered, and a long loop
calls `check_interrupt` between its steps (a chunk of pairs), which raises it again.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

_pending = threading.Event()


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """SIGINT raises KeyboardInterrupt as usual, and is remembered for `check_interrupt` (main thread only: elsewhere
    Python takes no signal handler, and this does nothing)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: object) -> None:
        _pending.set()
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, handler)
    _pending.clear()
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        _pending.clear()


def check_interrupt() -> None:
    """Raise KeyboardInterrupt if SIGINT came during `interruptible` (whether or not it was raised already)."""
    if _pending.is_set():
        raise KeyboardInterrupt
