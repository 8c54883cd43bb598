"""Hugging Face Space entry point: the NASH vs BERTScore demo from the `nash-metric` package.

Limits come from Space variables (NASH_SPACE_ALLOW_MODELS, NASH_SPACE_REQUEST_SECONDS, ...; see README.md).
"""

import sys

from nash_metric.space import SpaceLimits, launch

if __name__ == "__main__":
    try:
        limits = SpaceLimits.from_env()
    except ValueError as err:  # a mistyped Space variable: one line in the logs, not a traceback
        sys.exit(f"nash space: {err}")
    # On a Space, gradio reads the host and port from GRADIO_SERVER_NAME / GRADIO_SERVER_PORT.
    launch(host=None, port=None, limits=limits)
