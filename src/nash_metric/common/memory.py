"""Handing the heap a finished chunk freed back to the OS (glibc only; elsewhere a no-op)."""

from __future__ import annotations

import ctypes
import functools
import sys


@functools.cache
def _libc() -> ctypes.CDLL | None:
    try:
        return ctypes.CDLL("libc.so.6") if sys.platform.startswith("linux") else None
    except OSError:  # not glibc (e.g. musl)
        return None


def release_freed_memory() -> None:
    """Hand the memory a finished chunk freed back to the OS.

    glibc keeps freed heap pages for reuse, and the varying sizes of each chunk's tensors fragment them, so
    without this RSS creeps up chunk after chunk although no Python object is kept (`perf/scale.py`).
    """
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)
