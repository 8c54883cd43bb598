"""perf/scale.py on tiny sizes: its report fields, and a seeded corpus that is byte-stable and prefix-stable."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "perf" / "scale.py"


def scale(*args: object) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    return proc


def generate(workdir: Path, *sizes: int, seed: int = 0) -> dict[int, bytes]:
    report = workdir / "corpus.json"
    scale("--generate-only", "--sizes", *sizes, "--seed", seed, "--workdir", workdir, "--output", report)
    return {c["pairs"]: Path(c["path"]).read_bytes() for c in json.loads(report.read_text())["corpus"]}


def test_scale_corpus_is_deterministic_and_prefix_stable(data_paths, tmp_path):
    data_paths.require("phrasebank")
    data_paths.require("annual_reports")
    both = generate(tmp_path / "both", 200, 400)  # one pass writes both files
    alone_400, alone_200 = generate(tmp_path / "a", 400)[400], generate(tmp_path / "b", 200)[200]
    assert both[400] == alone_400 and both[200] == alone_200
    assert b"".join(alone_400.splitlines(keepends=True)[:200]) == alone_200
    assert len(alone_400.splitlines()) == 400
    assert generate(tmp_path / "seed1", 200, seed=1)[200] != alone_200


@pytest.mark.slow  # three `nash score` subprocesses: ~1 min on 2 cores
def test_scale_benchmark_reports_tiny_model_runs(data_paths, tmp_path, embedded_model):
    data_paths.require("phrasebank")
    data_paths.require("annual_reports")
    report = tmp_path / "scale.json"
    scale("--sizes", 200, 400, "--tiny-model", "--procs", 1, "--no-warmup", "--workdir", tmp_path / "work",
          "--output", report)
    result = json.loads(report.read_text())
    assert result["errors"] == []
    assert result["tiny_model"] and "NOT the real model's" in result["model"]
    assert result["threshold"].startswith("0.3 ")
    assert [r["pairs"] for r in result["runs"]] == [200, 400]
    for r in [*result["startup"], *result["runs"]]:
        assert r["rows_checked"] == r["pairs"]
        assert r["peak_rss_mib"] > 100 and r["pairs_per_s"] > 0
        assert 0 < r["first_row_s"] < r["wall_s"] and not r["first_row_at_exit"]
    assert all(r["pairs_per_s_net"] is None or r["pairs_per_s_net"] > 0 for r in result["runs"])
    (growth,) = result["rss_growth"]
    assert (growth["smallest"], growth["largest"]) == (200, 400) and growth["peak_rss_ratio"] > 0
    assert not list((tmp_path / "work").glob("out_*"))  # checked outputs are deleted
