"""Outputs are written whole or not at all (`common.atomic`): a failed or interrupted run leaves an existing file
as it was, and no temporary file behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from nash_metric.common.atomic import partial_path, write_text
from nash_metric.common.reporting import write_json
from nash_metric.corpus.rows import RowWriter

OLD = '{"index": 0, "nash": 0.5}\n'


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".parquet"])
def test_a_failed_run_leaves_the_existing_rows(tmp_path, suffix):
    path = tmp_path / f"rows{suffix}"
    path.write_bytes(OLD.encode())
    with pytest.raises(RuntimeError), RowWriter(path, ["index", "nash"]) as writer:
        writer.write({"index": [0, 1], "nash": [0.1, 0.2]})
        raise RuntimeError("the scorer failed")
    assert path.read_bytes() == OLD.encode()
    assert list(tmp_path.iterdir()) == [path]  # no partial file left


def test_a_finished_run_replaces_the_file(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_text(OLD, encoding="utf-8")
    with RowWriter(path, ["index", "nash"]) as writer:
        writer.write({"index": [0], "nash": [0.75]})
        assert path.read_text(encoding="utf-8") == OLD  # nothing replaced before the end
    assert [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] == [{"index": 0, "nash": 0.75}]


def test_json_and_text_writers_are_whole_or_nothing(tmp_path):
    path = tmp_path / "result.json"
    write_json(path, {"a": 1})
    with pytest.raises(TypeError):
        write_json(path, {"a": object()})  # fails while serialising
    assert json.loads(path.read_text(encoding="utf-8")) == {"a": 1}
    assert write_text(path, "x").read_text(encoding="utf-8") == "x"
    assert not partial_path(path).exists()


@pytest.mark.slow  # a subprocess that loads a model and is interrupted while scoring
def test_ctrl_c_during_nash_score_keeps_the_existing_output(tmp_path, tiny_model_dir):
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("".join(json.dumps({"prediction": f"Revenue rose {k}% in {2000 + k % 20}.",
                                         "reference": f"Revenue rose {k + 1}%."}) + "\n" for k in range(20000)),
                     encoding="utf-8")
    out = tmp_path / "existing.jsonl"
    out.write_text(OLD, encoding="utf-8")
    run = subprocess.Popen([sys.executable, "-m", "nash_metric", "score", "--pairs", str(pairs), "--output", str(out),
                            "--chunk-size", "16", "--quiet", "--model", str(tiny_model_dir), "--backend", "token",
                            "--device", "cpu"], stderr=subprocess.PIPE, text=True,
                           env={**os.environ, "HF_HUB_OFFLINE": "1"})
    partial = partial_path(out).with_name(f".{out.name}.{run.pid}.partial")
    deadline = time.monotonic() + 120
    while not (partial.exists() and partial.stat().st_size) and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)  # until the first rows are written to the temporary file
    assert run.poll() is None, "the run ended before it could be interrupted"
    run.send_signal(signal.SIGINT)
    _, stderr = run.communicate(timeout=60)
    assert run.returncode == 130
    assert "interrupted" in stderr and "as it was" in stderr
    assert out.read_text(encoding="utf-8") == OLD
    assert not partial.exists()


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the dropped one, as Python drops it
def test_a_swallowed_ctrl_c_is_raised_again_between_chunks():
    """A KeyboardInterrupt raised inside a finaliser is dropped by Python; `check_interrupt` raises it again."""
    import gc

    from nash_metric.common.interrupt import check_interrupt, interruptible

    class Finaliser:
        def __del__(self):
            os.kill(os.getpid(), signal.SIGINT)  # the handler raises here, inside __del__: Python drops it

    with interruptible():
        Finaliser()
        gc.collect()
        with pytest.raises(KeyboardInterrupt):
            check_interrupt()
    check_interrupt()  # outside a command: nothing pending
