"""Hugging Face Space entry point: the NASH vs BERTScore demo from the `nash-metric` package."""

from nash_metric.space import launch

if __name__ == "__main__":
    # On a Space, gradio reads the host and port from GRADIO_SERVER_NAME / GRADIO_SERVER_PORT.
    launch(host=None, port=None)
