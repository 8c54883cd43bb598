"""The `nash` command: score, explain, calibrate and its error messages (tiny model, fast)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from nash_metric.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_score_prints_baseline_and_channels(capsys, tiny_model_dir):
    code, out, _ = run(capsys, "score", "Revenue rose 4%.", "Revenue rose 40%.", "--model", str(tiny_model_dir),
                       "--backend", "token", "--threshold", "0.2")
    assert code == 0
    for label in ("baseline (BERTScore F1)", "NASH", "S_text", "S_num", "alpha", "tau=0.2000", "hashcode="):
        assert label in out


def test_explain_json_is_complete(capsys, tiny_model_dir):
    code, out, _ = run(capsys, "explain", "Sales were EUR 5 mn in 2010.", "Sales were EUR 7 mn in 2011.",
                       "--model", str(tiny_model_dir), "--backend", "token", "--json")
    info = json.loads(out)
    assert code == 0 and info["masked"]["a"] == "Sales were [NUM] in [NUM]."
    assert {"alignments", "similarity_matrix", "idf", "alpha", "scores", "threshold"} <= set(info)


def test_explain_text_reports_unscored_numbers(capsys, tiny_model_dir):
    code, out, _ = run(capsys, "explain", "Version 1.2.3 sold 5 units.", "It sold 6 units.",
                       "--model", str(tiny_model_dir), "--backend", "token", "--threshold", "0")
    assert code == 0 and "unscored: '1.2.3'" in out and "alignment A -> B" in out


def test_calibrate_reads_a_sentence_file(capsys, tmp_path, tiny_model_dir):
    path = tmp_path / "s.txt"  # calibration needs MIN_CALIBRATION_SENTENCES (20) sentences with numbers
    path.write_text("".join(f"Revenue rose {k}% in {2000 + k}.\nProfit fell to EUR {k} mn.\n" for k in range(12)))
    code, out, _ = run(capsys, "calibrate", "--sentences", str(path), "--pairs", "50",
                       "--model", str(tiny_model_dir), "--backend", "token")
    result = json.loads(out[out.index("{"):])
    assert code == 0 and result["tau"] == pytest.approx(result["mu"] + result["sigma"])


def test_errors_are_one_clear_line(capsys, tiny_model_dir, tmp_path):
    code, _, err = run(capsys, "score", "a", "b", "--model", str(tmp_path / "nowhere" / "model"))
    assert code == 2 and err.startswith("nash: error:") and "does not exist" in err
    with pytest.raises(SystemExit) as exited:  # a usage error: argparse names the flag and exits 2
        main(["score", "a", "b", "--model", str(tiny_model_dir), "--threshold", "high"])
    assert exited.value.code == 2 and "argument --threshold: invalid threshold value: 'high'" in capsys.readouterr().err
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    code, _, err = run(capsys, "calibrate", "--sentences", str(empty), "--model", str(tiny_model_dir),
                       "--backend", "token")
    assert code == 2 and "empty" in err


def test_module_entry_point_matches_console_script():
    out = subprocess.run([sys.executable, "-m", "nash_metric", "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("nash-metric ")
