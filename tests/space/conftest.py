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


@pytest.fixture(scope="module")
def space_url():
    """The Gradio Space with the default limits, for the module's tests."""
    with served() as (url, _):
        yield url
