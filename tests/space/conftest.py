"""The Space's fixture: the Gradio app served on a loopback port."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def space_url():
    """The Gradio Space served on a free loopback port for the module's tests, then closed."""
    import socket

    from nash_metric.space import CSS, build_demo

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    demo = build_demo().queue()
    demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, inbrowser=False, css=CSS,
                quiet=True)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        demo.close()
