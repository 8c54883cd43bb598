"""Reading texts in worker processes (option `workers`): their numbers, forms and verdict keys, the Python work
around the forward pass that a GPU leaves to the CPU (docs/throughput.md).

A chunk's distinct texts that `pool.READINGS` does not hold yet are read in a `concurrent.futures` process pool,
a few dozen texts a task, and kept by content in `READINGS` and `KEYS`, exactly as `TextPool.build` and
`TextPool.support_keys` would read them in this process: a reading is a function of its text, so the scores
are the same with any number of workers. While the next chunk is read, the current one is encoded and judged
(`steps.score_blocks`). The pool of each size is made once per process and kept; a pool whose worker died (an
interrupt) is dropped, and its texts are read in this process, as they are in a daemonic process (a pool's own
worker, `datasets.map(num_proc=...)`), which may start none.

Workers are forked where the platform forks (Linux): they start at once, with the library already imported.
Elsewhere they are spawned, and each imports the library on its first task.
"""

from __future__ import annotations

import functools
import gc
import multiprocessing
import sys
import warnings
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from ..common.glossary import Glossary
from ..verdicts.keys import TextKeys
from .pool import KEYS, READINGS, _Reading, keys_key, read_whole

TASK_CHARACTERS = 20_000  # the texts of a task at most: tasks few enough that sending them costs little
_POOLS: dict[int, ProcessPoolExecutor] = {}

Read = tuple[str, _Reading, TextKeys | None]


def _read_many(texts: Sequence[str], reader: str, glossary: Glossary | None) -> list[Read]:
    return [(text, *read_whole(text, reader, glossary)) for text in texts]


def _pool(workers: int) -> ProcessPoolExecutor:
    if workers not in _POOLS:
        context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
        # A forked worker's collector leaves what it inherited alone (`gc.freeze`): collecting it would copy every
        # page of the scorer's memory into the worker.
        _POOLS[workers] = ProcessPoolExecutor(workers, mp_context=context, initializer=gc.freeze)
    return _POOLS[workers]


@functools.cache
def _warn_daemonic() -> None:
    warnings.warn("workers: this process is a pool's own worker (daemonic), which may start no process of its "
                  "own; its texts are read in it", RuntimeWarning, stacklevel=4)


class Ahead:
    """The reading of some texts under way in the pool; `wait` keeps them where the scoring call finds them."""

    def __init__(self, futures: list[Future[list[Read]]], tasks: list[list[str]], reader: str,
                 glossary: Glossary | None, workers: int) -> None:
        self.futures, self.tasks, self.reader, self.glossary, self.workers = futures, tasks, reader, glossary, workers

    def wait(self) -> None:
        for future, task in zip(self.futures, self.tasks):
            try:
                read = future.result()
            except BrokenProcessPool:  # a worker died (an interrupt): this process reads, a later call makes a pool
                _POOLS.pop(self.workers, None)
                read = _read_many(task, self.reader, self.glossary)
            for text, reading, keys in read:
                READINGS.keep((self.reader, text), text, reading)
                if keys is not None:
                    KEYS.keep(keys_key(self.reader, text, reading.scorable, self.glossary), text, keys)


def read_ahead(texts: Sequence[str], reader: str, glossary: Glossary | None, workers: int) -> Ahead:
    """Start reading those of `texts` (in the reader's view) that no earlier call read, in `workers` processes."""
    new = sorted({t for t in texts if READINGS.find((reader, t)) is None})
    # Tasks of at most `TASK_CHARACTERS`, and a few for each worker however short the chunk.
    limit = min(TASK_CHARACTERS, max(1, sum(map(len, new)) // (4 * workers)))
    tasks: list[list[str]] = []
    size = limit
    for text in new:
        if size >= limit:
            tasks.append([])
            size = 0
        tasks[-1].append(text)
        size += len(text)
    if multiprocessing.current_process().daemon:  # a pool's own worker (datasets.map) may start no process
        _warn_daemonic()
        return _read_here(tasks, reader, glossary, workers)
    try:
        pool = _pool(workers)
        futures = [pool.submit(_read_many, task, reader, glossary) for task in tasks]
    except BrokenProcessPool:
        _POOLS.pop(workers, None)
        return _read_here(tasks, reader, glossary, workers)
    return Ahead(futures, tasks, reader, glossary, workers)


def _read_here(tasks: list[list[str]], reader: str, glossary: Glossary | None, workers: int) -> Ahead:
    """The tasks read in this process, as done futures: `Ahead.wait` keeps them as it keeps a worker's."""
    futures: list[Future[list[Read]]] = []
    for task in tasks:
        done: Future[list[Read]] = Future()
        done.set_result(_read_many(task, reader, glossary))
        futures.append(done)
    return Ahead(futures, tasks, reader, glossary, workers)
