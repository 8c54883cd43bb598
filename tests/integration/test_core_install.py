"""The lean core in a clean venv: torch, then the built wheel with no extra but the embedded model, give a working
`nash score` and `nash check` without the packages the extras bring, and a benchmark command names its extra.

About two minutes (a fresh venv, torch and the core's dependencies from the machine's package index).
scripts/install_size.py measures the same install (package counts, import times: docs/install.md).
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from nash_metric.ecosystem.export import build_wheel

ROOT = Path(__file__).resolve().parents[2]
TORCH_SPEC = os.environ.get("TORCH_SPEC", "torch==2.13.0")  # the Makefile's
NOT_IN_CORE = {"datasets", "evaluate", "pandas", "matplotlib", "bert-score", "pyarrow", "gradio", "textdistance",
               "num2words", "text2num"}


def _run(command: list[str], **options) -> subprocess.CompletedProcess:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": ""}
    return subprocess.run(command, capture_output=True, text=True, env=env, check=False, **options)


@pytest.fixture(scope="module")
def core_venv(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("core")
    wheel = build_wheel(ROOT, folder)
    venv = folder / "venv"
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    for command in ([sys.executable, "-m", "venv", str(venv)], [*pip, *shlex.split(TORCH_SPEC)],
                    [*pip, f"{wheel}[offline]"]):
        done = _run(command)
        assert done.returncode == 0, f"{shlex.join(command)}: {done.stderr[-2000:]}"
    return venv


@pytest.mark.slow  # a clean venv: torch and the core's dependencies installed with pip
def test_the_core_install_scores_and_checks_without_the_extras(core_venv, tmp_path):
    listed = json.loads(_run([str(core_venv / "bin" / "python"), "-m", "pip", "list", "--format=json"]).stdout)
    names = {item["name"].lower().replace("_", "-") for item in listed}
    assert "nash-metric" in names and "torch" in names and not names & NOT_IN_CORE, sorted(names & NOT_IN_CORE)
    nash = str(core_venv / "bin" / "nash")
    score = _run([nash, "score", "Revenue increased by 4%.", "Revenue increased by 3.56%."])
    assert score.returncode == 0, score.stderr[-2000:]
    assert "numeric support 0.00; not supported: 4% (B says 3.56%)" in score.stdout
    (tmp_path / "source.txt").write_text("Revenue rose 4% to $5.2 million in 2023.\n", encoding="utf-8")
    (tmp_path / "text.txt").write_text("Revenue rose 4% in 2023.\n", encoding="utf-8")
    check = _run([nash, "check", "--source", str(tmp_path / "source.txt"), "--text", str(tmp_path / "text.txt")])
    assert check.returncode == 0, check.stderr[-2000:]
    # "2023" places the 4%: supported, it is not counted (`FigureVerdict.role`).
    assert "numeric support 1.00: 1 supported" in check.stdout and "1 supported period" in check.stdout
    bench = _run([nash, "bench", "numfine", "--data", str(tmp_path)])
    assert (bench.returncode, bench.stderr) == (
        2, "nash: error: nash bench numfine needs the bench extra: pip install 'nash-metric[bench]'\n")
