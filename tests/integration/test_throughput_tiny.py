"""perf/throughput.py --tiny-model on a few pairs: it runs, and reports NASH's time (cold and warm) over the bare
forward pass and over bert-score's, and the step shares with --profile."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "perf" / "throughput.py"


@pytest.mark.slow  # builds the tiny model, calibrates its tau and loads bert-score: ~30 s on 2 cores
def test_tiny_model_throughput_reports_its_ratios(data_paths, tmp_path, embedded_model):
    pytest.importorskip("bert_score")
    data_paths.require("phrasebank")
    report = tmp_path / "tiny.json"
    proc = subprocess.run([sys.executable, str(SCRIPT), "--tiny-model", "--pairs", "20", "--repeats", "1", "--profile",
                           "--output", str(report)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    assert "NASH (cold) time / bare pass" in proc.stdout and "NASH (warm) / bert-score" in proc.stdout
    results = json.loads(report.read_text())["results"]
    assert results["pairs"] == 20 and results["model"]["hidden_size"] == 64
    assert set(results["seconds"]) == {"nash_token", "nash_token_warm", "bert_score", "bare_forward",
                                       "bare_forward_tokenized"}
    assert all(ratio > 0 for key, ratio in results.items() if key.endswith(("bare_forward", "tokenized", "bert_score")))
    assert set(results["profile"]) == {"cold", "warm"} and "support verdicts" in results["profile"]["cold"]
