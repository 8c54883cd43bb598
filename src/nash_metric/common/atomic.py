"""Files written whole or not at all: every output goes to a temporary file beside its target and is renamed
over it only on success, so an interrupted or failed run (Ctrl-C, an error, a full disk) leaves an existing
output as it was. The rename is atomic on one file system (`os.replace`), and the temporary file sits in the
target's own folder so that it is on the same one.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

PARTIAL = ".partial"  # the temporary file's suffix: ".rows.jsonl.1234.partial" beside "rows.jsonl"


def partial_path(path: str | os.PathLike[str]) -> Path:
    """Where `path` is written before it is complete: a hidden file beside it, named by this process."""
    path = Path(path)
    return path.with_name(f".{path.name}.{os.getpid()}{PARTIAL}")


@contextlib.contextmanager
def replacing(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A temporary path to write `path`'s content to; on success it replaces `path`, on any exception (Ctrl-C
    included) it is removed and `path` is left as it was."""
    path = Path(path)
    partial = partial_path(path)
    try:
        yield partial
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    os.replace(partial, path)


def write_text(path: str | os.PathLike[str], text: str) -> Path:
    """`Path.write_text` (UTF-8), whole or not at all."""
    with replacing(path) as partial:
        partial.write_text(text, encoding="utf-8")
    return Path(path)
