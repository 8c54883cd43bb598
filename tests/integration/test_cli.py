"""The `nash` command: score, explain, calibrate and its error messages (tiny model, fast)."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from dataclasses import replace

import pytest

from nash_metric.cli import build_parser, main
from nash_metric.cli.options import add_config_arguments
from nash_metric.cli.parser import one_line
from nash_metric.config import option_spec


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_score_prints_baseline_and_channels(capsys, tiny_model_dir):
    code, out, _ = run(capsys, "score", "Revenue rose 4%.", "Revenue rose 40%.", "--model", str(tiny_model_dir),
                       "--backend", "token", "--threshold", "0.2", "--baseline")
    assert code == 0
    for label in ("baseline (BERTScore F1)", "NASH", "S_text", "S_num", "alpha", "tau=0.2000", "hashcode=",
                  "| precision | recall | F"):
        assert label in out
    # The support line names the figure of A its reference does not support (at tau 0.2 on the tiny model the
    # two numbers align: unsupported, with B's figure).
    assert "numeric support 0.00; not supported: 4% (B says 40%)" in out
    # Without --baseline the backbone's own score is not computed (one forward pass), and not shown.
    code, out, _ = run(capsys, "score", "Revenue rose 4%.", "Revenue rose 40%.", "--model", str(tiny_model_dir),
                       "--backend", "token", "--threshold", "0.2")
    assert code == 0 and "baseline (" not in out and "| NASH" in out


def test_fit_baseline_then_score_rescaled(capsys, tmp_path, tiny_model_dir):
    corpus = tmp_path / "corpus.txt"
    words = ["revenue", "profit", "costs", "sales", "margin"]
    corpus.write_text("".join(f"{words[k % 5].title()} of unit {chr(65 + k)} {'rose' if k % 2 else 'fell'} {k}% "
                              f"in {2000 + k}.\n" for k in range(25)))
    model = ["--model", str(tiny_model_dir), "--backend", "token", "--threshold", "0.2"]
    code, out, _ = run(capsys, "fit-baseline", "--corpus", str(corpus), "--pairs", "40", "--seed", "2",
                       "--output", str(tmp_path / "b.json"), "--quiet", *model)
    assert code == 0 and "40 random pairs of 25 distinct sentences, seed 2" in out and "| nash " in out
    recipe = json.loads((tmp_path / "b.json").read_text())["recipe"]
    assert recipe["corpus"][0]["file"] == "corpus.txt" and len(recipe["corpus"][0]["sha256"]) == 64
    same = "Profit of unit B rose 1% in 2001."
    code, out, _ = run(capsys, "score", same, same, "--rescale-with-baseline", "--baseline-path",
                       str(tmp_path / "b.json"), *model)
    assert code == 0 and "(rescaled with baseline)" in out and "_rescaled_" in out
    assert re.search(r"\| NASH +\| 1\.0000 +\| 1\.0000 \| 1\.0000 \|", out)  # identical texts rescale to 1


def test_rescaling_errors_are_one_line_before_any_model_loads(capsys, tmp_path, tiny_model_dir):
    with pytest.raises(SystemExit) as exited:  # a usage error: the options contradict each other
        main(["score", "a", "b", "--model", str(tiny_model_dir), "--baseline-path", "b.json"])
    assert exited.value.code == 2 and "--rescale-with-baseline is off" in capsys.readouterr().err
    code, _, err = run(capsys, "score", "a", "b", "--model", str(tiny_model_dir), "--backend", "token",
                       "--rescale-with-baseline")
    assert code == 2 and "no baseline ships" in err and "nash fit-baseline" in err
    (tmp_path / "few.txt").write_text("One.\nTwo.\n")
    code, _, err = run(capsys, "fit-baseline", "--corpus", str(tmp_path / "few.txt"), "--output",
                       str(tmp_path / "b.json"), "--model", str(tiny_model_dir), "--backend", "token", "--quiet")
    assert code == 2 and "at least 20 distinct" in err


def test_explain_plot_writes_a_png(capsys, tmp_path, tiny_model_dir):
    figure = tmp_path / "alignment.png"
    code, out, err = run(capsys, "explain", "Sales were EUR 5 mn in 2010.", "Sales were EUR 7 mn in 2011.",
                         "--model", str(tiny_model_dir), "--backend", "token", "--threshold", "0", "--plot",
                         str(figure))
    assert code == 0 and f"wrote {figure}" in err and "alignment A -> B" in out
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, _, err = run(capsys, "explain", "a 1", "b 2", "--model", str(tiny_model_dir), "--plot",
                       str(tmp_path / "no" / "such" / "dir.png"))
    assert code == 2 and "does not exist" in err


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
    assert exited.value.code == 2
    assert capsys.readouterr().err == ("nash: error: argument --threshold: expected a cosine in [-1, 1] or 'auto' "
                                       "(leave --threshold out for the model's default), got 'high'\n"
                                       "see nash score --help\n")
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    code, _, err = run(capsys, "calibrate", "--sentences", str(empty), "--model", str(tiny_model_dir),
                       "--backend", "token")
    assert code == 2 and "empty" in err


def test_module_entry_point_matches_console_script():
    out = subprocess.run([sys.executable, "-m", "nash_metric", "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("nash-metric ")


def test_boolean_options_take_a_no_flag_whatever_their_default():
    parser = argparse.ArgumentParser()
    add_config_arguments(parser, [replace(option_spec("comparisons"), name="on_by_default", default=True)])
    assert parser.parse_args([]).on_by_default is True
    assert parser.parse_args(["--no-on-by-default"]).on_by_default is False
    assert parser.parse_args(["--on-by-default"]).on_by_default is True
    score = ["score", "a", "b"]
    assert build_parser().parse_args([*score, "--comparisons", "--no-comparisons"]).comparisons is False
    assert build_parser().parse_args([*score, "--bertscore-idf"]).bertscore_idf is True


def test_fit_idf_numbers_is_the_numbers_option():
    from nash_metric.config import NUMBER_READERS, option_default

    action = next(a for a in build_parser()._subparsers._group_actions[0].choices["fit-idf"]._actions
                  if a.dest == "numbers")
    assert action.default == option_default("numbers") and tuple(action.choices) == NUMBER_READERS


def test_messages_are_one_line_with_texts_as_given():
    assert one_line(ValueError("model must be a hub id, got '   '\n  (see --model)")) == (
        "model must be a hub id, got '   ' (see --model)")
    assert one_line(KeyError("unknown benchmark 'x'")) == "unknown benchmark 'x'"


def test_one_text_is_named_as_the_only_one(capsys):
    assert main(["score", "   "]) == 2
    assert capsys.readouterr().err == ("nash: error: only one text given ('   '); give two texts to compare: "
                                       "nash score A B\nsee nash score --help\n")


def test_explain_plot_path_is_checked_and_named_before_the_model_loads(capsys, tmp_path, monkeypatch):
    import nash_metric.cli.explain as explain_cli

    monkeypatch.setattr(explain_cli, "scorer_from_args", lambda args: pytest.fail("the model loaded"))
    for path, why in (("/proc/nash_x.png", "cannot write there: No such file or directory"),
                      (str(tmp_path / "no" / "x.png"), "does not exist"),
                      (str(tmp_path / "x.gif"), "the suffix must be one of .png, .svg, .pdf")):
        code, _, err = run(capsys, "explain", "a 1", "b 2", "--plot", path)
        assert code == 2 and err.startswith(f"nash: error: --plot {path}: ") and why in err, err


def test_bench_numfine_runs_the_configs_named(capsys, tmp_path, tiny_model_dir, data_paths):
    sample = str(data_paths.dataset("numfine"))
    model = ["--model", str(tiny_model_dir), "--backend", "token", "--device", "cpu"]
    out = tmp_path / "result.json"
    code, printed, err = run(capsys, "bench", "numfine", "--data", sample, "--configs", "triplet_hard", "--limit",
                             "4", "--no-alignment-check", "--output", str(out), *model)
    assert code == 0, err
    results = json.loads(out.read_text())["results"]
    assert results["configs"] == {"triplet_hard": "triplet"} and results["rows"] == {"triplet_hard": 4}
    assert "Triplet hard (acc)" in printed and "Listwise" not in printed
    code, _, err = run(capsys, "bench", "numfine", "--data", sample, "--configs", "listwise", "triplet_hrad", *model)
    assert code == 2 and err == (f"nash: error: unknown NumFinE config 'triplet_hrad'; the configs of {sample} are "
                                 "triplet_easy, triplet_medium, triplet_hard, listwise, crosspair\n")
