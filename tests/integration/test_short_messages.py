"""A message that echoes an input cuts it (`common.validation.cut`): a 200,000-digit number stays a short line."""

from __future__ import annotations

from nash_metric.cli import main
from nash_metric.cli.parser import MESSAGE_CHARS, one_line
from nash_metric.common.validation import ECHO_CHARS, cut, echoed


def test_cut_and_echoed():
    assert cut("short") == "short"
    assert cut("x" * 200) == "x" * (ECHO_CHARS - 1) + "…" and len(cut("x" * 200)) == ECHO_CHARS
    assert echoed("abc") == "'abc'" and len(echoed("9" * 10**6)) == ECHO_CHARS
    assert len(one_line("y" * 10**6)) == MESSAGE_CHARS


def test_no_line_of_nash_check_and_score_is_long(tmp_path, capsys, tiny_model_dir):
    source, text = tmp_path / "source.txt", tmp_path / "text.txt"
    source.write_text("Revenue was 5 dollars.", encoding="utf-8")
    text.write_text("Revenue was " + "9" * 200_000 + " dollars, up 4%.", encoding="utf-8")
    model = ["--model", str(tiny_model_dir), "--backend", "token", "--device", "cpu"]
    assert main(["check", "--source", str(source), "--text", str(text), *model]) == 0
    assert main(["score", "--candidates", str(text), "--references", str(source), "--quiet", *model]) == 0
    out, err = capsys.readouterr()
    assert "overflows a float" in err  # the number is reported, cut
    assert max(len(line) for line in (out + err).splitlines()) < 2000
