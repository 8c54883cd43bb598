"""The Space's fixtures: the Gradio app served in-process on a loopback port, with chosen limits."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator

import pytest


@contextlib.contextmanager
def served(limits=None) -> Iterator[tuple[str, object]]:
    """(url, demo) of the Space served with `limits` (default: SpaceLimits()) until the block ends."""
    from nash_metric.space import SpaceLimits, serve

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    demo = serve(limits or SpaceLimits(), host="127.0.0.1", port=port, prevent_thread_lock=True, quiet=True)
    try:
        yield f"http://127.0.0.1:{port}/", demo
    finally:
        demo.close()


@pytest.fixture(scope="session")
def serve_space():
    """`served` itself, for tests that start servers with their own limits."""
    return served


@pytest.fixture(scope="session")
def long_source() -> tuple[str, str]:
    """(source, its last line): the Check figures example filing, then text without figures past the limit of one
    request (`MAX_SOURCE_CHARS`), then a last line whose 12,345 only the rest of the source holds."""
    from nash_metric.space.app import CHECK_SOURCE
    from nash_metric.space.limits import MAX_SOURCE_CHARS

    head = CHECK_SOURCE + "\n\n"
    filler = "Management discussed the outlook for each segment and the markets it serves.\n"
    tail = "The company employed 12,345 people at the end of 2020.\n"
    return head + filler * ((MAX_SOURCE_CHARS - len(head)) // len(filler) + 40) + tail, tail


@pytest.fixture(scope="module")
def space_url():
    """The Gradio Space with the default limits, for the module's tests."""
    with served() as (url, _):
        yield url
