"""The `nash` command in a user's hands: every user error is one `nash: error:` line and exit 2, fast.

Run as a subprocess, as a user runs it, so the exit status, stderr and the time to fail are the real ones.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import pytest

from nash_metric import cli
from nash_metric.cli.serve import SPACE_LIMIT_FLAGS


def nash(*argv: str, env: dict[str, str] | None = None, timeout: float = 60) -> tuple[int, str, float]:
    """Exit status, stderr and seconds of `nash ARGV`."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "nash_metric", *argv], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})
    return done.returncode, done.stderr, time.perf_counter() - start


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "error:" in line]


def assert_one_error(stderr: str, *needles: str) -> None:
    lines = error_lines(stderr)
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr, stderr
    for needle in needles:
        assert needle in lines[0], lines[0]


def assert_usage_error(stderr: str, command: str, *needles: str) -> None:
    """A usage error: the one error line, then where the usage is; never argparse's usage block."""
    assert_one_error(stderr, *needles)
    lines = stderr.splitlines()
    assert len(lines) == 2 and lines[0].startswith("nash: error: ") and lines[1] == f"see {command} --help", stderr


@pytest.mark.parametrize("offline", ["1", "0"])
def test_unknown_model_fails_fast_with_one_line(offline):
    """Offline, or online with the hub unreachable (these machines), an uncached hub id fails before retries."""
    code, err, seconds = nash("score", "--model", "no-such-org/no-such-model", "a 1", "b 2",
                              env={"HF_HUB_OFFLINE": offline}, timeout=60)
    assert code == 2 and seconds < 20, (code, seconds, err)
    assert_one_error(err, "nash: error:", "'no-such-org/no-such-model'", "not in the Hugging Face cache")


@pytest.mark.parametrize(
    ("argv", "needles"),
    [
        (["app", "--port", "99999"], ["argument --port", "between 1 and 65535", "99999"]),
        (["app", "--port", "http"], ["argument --port", "expected an integer"]),
        (["calibrate", "--sentences", "x.txt", "--pairs", "0"], ["argument --pairs", "at least 1"]),
        (["calibrate", "--sentences", "x.txt", "--pairs", "-3"], ["argument --pairs", "at least 1, got -3"]),
        (["score", "a", "b", "--threshold", "abc"], ["argument --threshold", "cosine in [-1, 1] or 'auto'", "'abc'"]),
        (["score", "a 1", "a 2", "--threshold", "7"], ["argument --threshold", "cosine in [-1, 1] or 'auto'", "'7'"]),
        (["score", "a", "b", "--batch-size", "0"], ["--batch-size must be a positive integer"]),
        (["score", "a", "b", "--rescale-with-baseline", "--no-rescale-with-baseline", "--baseline-path", "b.json"],
         ["--baseline-path='b.json' given but --rescale-with-baseline is off"]),
        (["score", "a", "b", "--numbers", "paper", "--text-channel", "one-pass"],  # every option the message names
         ["--numbers='paper' reproduces", "--text-channel='one-pass' is for the full reader (--numbers='full')"]),
        (["score", "only one"], ["only one text given ('only one')", "give two texts"]),
        (["score", "a", "b", "--model", "   "], ["got '   '"]),  # a blank text echoed as typed
        (["fit-idf", "--corpus", "c.txt", "--output", "idf.json", "--numbers", "digits"],
         ["argument --numbers", "'digits'", "'full', 'paper'"]),
        (["bench", "nquad", "--data", "x", "--limit", "0"], ["argument --limit", "at least 1"]),
        (["bench", "numfine", "--data", "x", "--alignment-rows", "-1"], ["argument --alignment-rows", "at least 0"]),
        (["build-data", "nquad", "--source", "x", "--out", "y", "--test-fraction", "1.5"],
         ["argument --test-fraction", "(0, 1)"]),
        (["build-data", "embednum1k", "--out", "y", "--configs", "a9"], ["argument --configs", "'a9'"]),
        # a bench's outputs are checked as they are parsed, before its data is read or its model loads
        (["bench", "stsb", "--data", "x", "--output", "/proc/nash/r.json"],
         ["argument --output", "/proc/nash/r.json: cannot write there", "'/proc/nash' does not exist"]),
        (["bench", "numfine", "--data", "x", "--plot", "r.gif"], ["argument --plot", "suffix must be one of"]),
    ],
)
def test_bad_option_values_are_usage_errors(argv, needles):
    code, err, _ = nash(*argv)
    assert code == 2
    command = argv[:2] if argv[0] in ("bench", "build-data") else argv[:1]  # the (sub)command whose help it names
    assert_usage_error(err, " ".join(["nash", *command]), *needles)


def test_port_in_use_is_one_line():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code, err, seconds = nash("app", "--port", str(port))
    assert code == 2 and seconds < 20
    assert_one_error(err, f"--port {port}", "cannot listen there", "choose another --port")


@pytest.mark.slow  # loads the embedded all-MiniLM-L6-v2 before reading the IDF file
def test_unreadable_idf_file_names_the_file(tmp_path):
    binary = tmp_path / "idf.bin"
    binary.write_bytes(bytes(range(256)) * 8)
    code, err, _ = nash("score", "Revenue rose 4%.", "Revenue rose 5%.", "--idf", str(binary))
    assert code == 2
    assert_one_error(err, "idf.bin")


@pytest.mark.slow  # a subprocess that loads a model: ~4.5 s
def test_empty_text_is_scored_zero_with_one_warning_line(tiny_model_dir):
    done = subprocess.run([sys.executable, "-m", "nash_metric", "score", "", "Revenue rose 5%.", "--model",
                           str(tiny_model_dir), "--backend", "token", "--threshold", "0", "--device", "cpu"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    warned = [line for line in done.stderr.splitlines() if line.startswith("nash: warning:")]
    assert warned == ["nash: warning: 1 blank text (1 prediction, 0 references) scored 0 on every channel, as "
                      "bert-score does; first at pair index 0"], done.stderr
    assert "Traceback" not in done.stderr and not error_lines(done.stderr)
    nash_row = next(line for line in done.stdout.splitlines() if line.startswith("| NASH "))
    assert [cell.strip() for cell in nash_row.split("|")[2:5]] == ["0.0000"] * 3 and "alpha=1.0000" in done.stdout


def test_internal_error_exit_1_and_traceback_only_with_debug(monkeypatch, capsys):
    def broken(args):
        raise RuntimeError("boom")

    parser = cli.build_parser()
    monkeypatch.setattr(cli, "build_parser", lambda: parser)
    parser._subparsers._group_actions[0].choices["explain"].set_defaults(func=broken)
    assert cli.main(["explain", "a", "b"]) == 1
    err = capsys.readouterr().err
    assert "internal error (RuntimeError: boom)" in err and "--debug" in err and "Traceback" not in err
    with pytest.raises(RuntimeError, match="boom"):
        cli.main(["explain", "a", "b", "--debug"])


def test_app_flags_cover_every_space_limit():
    from dataclasses import fields

    from nash_metric.space.limits import SpaceLimits

    assert set(SPACE_LIMIT_FLAGS) == {f.name for f in fields(SpaceLimits)}


def test_bad_space_variable_is_one_line():
    code, err, _ = nash("app", "--port", "1", env={"NASH_SPACE_MAX_MODELS": "many"})
    assert code == 2
    assert_one_error(err, "NASH_SPACE_MAX_MODELS='many'", "expected an integer")


@pytest.mark.slow  # a subprocess that loads a model: ~4.5 s
def test_app_serves_with_the_limits_given_as_flags():
    """`nash app` with limit flags: the served page states them (the Space's own tests cover enforcement)."""
    import urllib.request

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "nash_metric", "app", "--port", str(port), "--request-seconds",
                               "7", "--allow-model", "acme/finance-encoder", "--max-queue", "5"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline, config = time.monotonic() + 90, None
        while time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/config", timeout=5) as response:
                    config = response.read().decode()
                break
            except OSError:
                time.sleep(0.5)
        assert config is not None, server.stderr.read() if server.poll() is not None else "no answer in 90 s"
        assert "7 s per request" in config and "acme/finance-encoder" in config and "at most 5 waiting" in config
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.mark.slow  # a subprocess that loads a model: ~4.5 s
def test_a_reader_that_leaves_early_stops_the_command_quietly(tiny_model_dir):
    """`nash score ... | head -1`: no error line when the pipe closes, exit status 141 as for SIGPIPE."""
    reader = subprocess.Popen([sys.executable, "-m", "nash_metric", "score", "Revenue rose 4%.", "Revenue rose 40%.",
                               "--model", str(tiny_model_dir), "--backend", "token"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    reader.stdout.close()  # the reader is gone before the table is printed
    _, stderr = reader.communicate(timeout=120)
    assert reader.returncode == 141 and b"error" not in stderr, stderr.decode()


# An image, a program, UTF-16 without a byte-order mark and a folder, where a command reads text (issue 56)
PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06\x00\x00\x00\x1f\xf3\xffa"
       b"\x00\x00\x00\x1aIDATx\x9cc\xfc\xff\x9f\x81\x04\xc0\x02\x8c\x0c\x0c\x0c\x8c\x1a0j\xc0\xa8\x01\x00\x9e\xa3\x05"
       b"\x0e\x00\x00\x00\x00IEND\xaeB`\x82")
ELF = b"\x7fELF\x02\x01\x01\x00" + bytes(8) + b"\x02\x00>\x00\x01\x00\x00\x00" + bytes(range(256)) * 4
BINARY = "it looks like a binary file (e.g. an image or a program), not text"
UTF16 = "it looks like UTF-16 without a byte-order mark: pass --encoding utf-16-le (or utf-16-be)"
INPUTS = {"image.png": PNG, "program": ELF, "pairs.csv": PNG, "wide.txt": "Revenue rose 4%.\n".encode("utf-16-le"),
          "wide.csv": "prediction,reference\nUp 4%.,Up 3%.\n".encode("utf-16-le"), "text.txt": b"Revenue rose 4%.\n"}


@pytest.mark.parametrize(("argv", "needles"), [
    (["check", "--source", "image.png", "--text", "text.txt"], ["image.png:3: binary or not text", BINARY]),
    (["check", "--source", "program", "--text", "text.txt"], ["program:1: binary or not text", BINARY]),
    (["check", "--source", "wide.txt", "--text", "text.txt"], ["wide.txt:1: binary or not text", UTF16]),
    (["check", "--source", "text.txt", "--text", "image.png"], ["image.png:3:", BINARY]),
    (["score", "--pairs", "pairs.csv"], ["pairs.csv:3:", BINARY]),
    (["score", "--pairs", "wide.csv"], ["wide.csv:1:", UTF16]),
    (["score", "--candidates", "program", "--references", "text.txt"], ["program:1:", BINARY]),
    (["score", "--candidates", "text.txt", "--references", "wide.txt"], ["wide.txt:1:", UTF16]),
    (["score", "--pairs", "."], [": is a folder, not a file; pass one of the files in it"]),
    (["score", "--candidates", "text.txt", "--references", "sub"], ["sub: is a folder, not a file"]),
    (["fit-idf", "--corpus", "image.png", "--output", "idf.json"], ["image.png:3:", BINARY]),
    (["calibrate", "--sentences", "sub"], ["sub: is a folder, not a file"]),
])
def test_binary_utf16_and_folder_inputs_are_named(tmp_path, monkeypatch, argv, needles):
    for name, content in INPUTS.items():
        (tmp_path / name).write_bytes(content)
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path)
    code, err, seconds = nash(*argv)
    assert code == 2 and seconds < 30, (code, seconds, err)
    assert_one_error(err, *needles)
    assert BINARY not in err if UTF16 in needles else UTF16 not in err  # never the other file's hint


@pytest.mark.parametrize("value", [".", "sub"])
def test_a_folder_as_source_says_it_is_a_folder(tmp_path, monkeypatch, value):
    (tmp_path / "sub").mkdir()
    (tmp_path / "text.txt").write_bytes(INPUTS["text.txt"])
    monkeypatch.chdir(tmp_path)
    code, err, _ = nash("check", "--source", value, "--text", "text.txt")
    assert code == 2
    assert_usage_error(err, "nash check", f"--source: '{value}' is a folder, not a file (pass one of its files, or "
                                          "- to read stdin)")
    assert "no such file" not in err
