"""The Space's safety rules without a server: limits, the model allow-list, the model registry, the time
budget, the formula-safe CSV, extra columns and the Rank wording."""

from __future__ import annotations

import csv
import threading
import time
from pathlib import Path

import pytest

from nash_metric.backbone.cache import ModelBusy, ModelCache, ModelLoadFailed, ModelLoading
from nash_metric.config import DEFAULT_MODEL
from nash_metric.space.allow import ModelRefused, allowed_model, is_cached_hub_model
from nash_metric.space.batch_files import BatchFileError, parse_pairs, write_csv
from nash_metric.space.budget import Deadline, OverBudget, next_chunk
from nash_metric.space.limits import SpaceLimits
from nash_metric.space.render import ranking_html

# -- limits ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("field,value", [("max_loaded_models", 0), ("request_seconds", 0), ("concurrency", -1),
                                         ("max_queue", 1.5), ("max_file_bytes", True), ("request_seconds", "nan"),
                                         ("allowed_models", "one-string"), ("allow_any_model", "yes"),
                                         ("download_seconds", 0), ("download_seconds", float("inf"))])
def test_bad_limits_name_the_field(field, value):
    with pytest.raises(ValueError, match=f"^{field} must"):
        SpaceLimits(**{field: value})


def test_limits_from_env():
    env = {"NASH_SPACE_ALLOW_MODELS": "org/a, /models/b ,", "NASH_SPACE_ALLOW_ANY_MODEL": "0",
           "NASH_SPACE_MAX_MODELS": "3", "NASH_SPACE_REQUEST_SECONDS": "12.5", "NASH_SPACE_CONCURRENCY": "2",
           "NASH_SPACE_MAX_QUEUE": "8", "NASH_SPACE_MAX_FILE_BYTES": "2_000_000",
           "NASH_SPACE_DOWNLOAD_SECONDS": "90"}
    assert SpaceLimits.from_env(env) == SpaceLimits(("org/a", "/models/b"), False, 3, 12.5, 2, 8, 2_000_000, 90.0)
    assert SpaceLimits.from_env({}) == SpaceLimits()
    with pytest.raises(ValueError, match="NASH_SPACE_MAX_MODELS='two': expected an integer"):
        SpaceLimits.from_env({"NASH_SPACE_MAX_MODELS": "two"})
    with pytest.raises(ValueError, match="NASH_SPACE_REQUEST_SECONDS: request_seconds must be a positive"):
        SpaceLimits.from_env({"NASH_SPACE_REQUEST_SECONDS": "-1"})
    with pytest.raises(ValueError, match="NASH_SPACE_ALLOW_ANY_MODEL='maybe'"):
        SpaceLimits.from_env({"NASH_SPACE_ALLOW_ANY_MODEL": "maybe"})


def test_downloads_are_kept_for_download_seconds():
    from nash_metric.space.limits import limits_lines

    assert SpaceLimits().delete_cache == (600, 3600)  # gradio looks every 10 minutes for files an hour old
    assert SpaceLimits(download_seconds=1).delete_cache == (1, 1)
    assert SpaceLimits(download_seconds=90.5).delete_cache == (22, 91)
    assert "**Downloads**: a Batch CSV (and an upload) is removed from the server 1 hour after it was written." \
        in limits_lines(SpaceLimits(), DEFAULT_MODEL)
    assert "removed from the server 90 s after" in " ".join(limits_lines(SpaceLimits(download_seconds=90), "m"))
    assert "removed from the server 30 minutes after" in " ".join(
        limits_lines(SpaceLimits(download_seconds=1800), "m"))


def test_a_download_leaves_no_file_of_its_own(tmp_path):
    """Served, the CSV goes into gradio's cache (which `delete_cache` empties); the file written for it is gone."""
    from nash_metric.space.batch_files import Downloads

    handed = []

    def cache(path):  # what gradio's move_resource_to_block_cache does: copy into its cache, return the copy
        handed.append(path)
        copy = tmp_path / "cache" / "h" / path.rsplit("/", 1)[-1]
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(Path(path).read_bytes())
        return str(copy)

    served = Downloads(cache).write(["a", "b", "nash"], [["=x", "y", 0.5]], prefix="nash_batch_partial_")
    assert served.startswith(str(tmp_path / "cache")) and "partial" in served
    assert Path(served).read_text(encoding="utf-8").splitlines() == ["a,b,nash", "'=x,y,0.5"]
    assert not Path(handed[0]).exists() and not Path(handed[0]).parent.exists()  # removed at once


# -- allow-list -----------------------------------------------------------------------------------------


def _fake_hub_cache(root, repo_id):
    """The layout huggingface_hub writes: models--org--name/{refs/main, snapshots/<commit>/config.json}."""
    repo = root / f"models--{repo_id.replace('/', '--')}"
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text("abc123")
    (repo / "snapshots" / "abc123").mkdir(parents=True)
    (repo / "snapshots" / "abc123" / "config.json").write_text("{}")


def test_default_operator_and_cached_models_are_allowed(tmp_path):
    _fake_hub_cache(tmp_path, "cached-org/cached-model")
    limits = SpaceLimits(allowed_models=("/srv/models/mine", "org/listed"))
    cache = str(tmp_path)
    assert allowed_model("", limits, cache) == DEFAULT_MODEL
    assert allowed_model("all-MiniLM-L6-v2", limits, cache) == DEFAULT_MODEL
    assert allowed_model(" org/listed ", limits, cache) == "org/listed"
    assert allowed_model("/srv/models/./mine/", limits, cache) == "/srv/models/mine"  # the operator's spelling
    assert is_cached_hub_model("cached-org/cached-model", cache)
    assert allowed_model("cached-org/cached-model", limits, cache) == "cached-org/cached-model"
    assert allowed_model("anything/else", SpaceLimits(allow_any_model=True), cache) == "anything/else"


@pytest.mark.parametrize("name", ["no-such-org/no-such-model", "/etc", "/no/such/dir", "../models", "~/x",
                                  "org/../../etc", "a" * 500])
def test_other_models_are_refused_without_probing_paths(tmp_path, name):
    with pytest.raises(ModelRefused) as err:
        allowed_model(name, SpaceLimits(allowed_models=("/srv/models/mine",)), str(tmp_path))
    message = str(err.value)
    assert "\n" not in message and "exist" not in message  # one line; never says whether a path exists
    assert "not a valid" in message or ("not available on this Space" in message
                                         and "NASH_SPACE_ALLOW_MODELS" in message and "--allow-model" in message)


def test_existing_and_missing_paths_get_the_same_refusal(tmp_path):
    limits = SpaceLimits()
    (tmp_path / "real").mkdir()
    real = str(allowed_model_error(str(tmp_path / "real"), limits))
    missing = str(allowed_model_error(str(tmp_path / "nope"), limits))
    assert real.replace("real", "X") == missing.replace("nope", "X")


def allowed_model_error(name, limits):
    with pytest.raises(ModelRefused) as err:
        allowed_model(name, limits)
    return err.value


# -- registry -------------------------------------------------------------------------------------------


def test_a_slow_load_blocks_only_its_own_model():
    registry = ModelCache(capacity=2)
    release = threading.Event()
    registry.get(("fast", "x"), lambda: "fast model", timeout=5)
    started = time.monotonic()
    with pytest.raises(ModelLoading, match="'slow' is still loading"):
        registry.get(("slow", "x"), lambda: release.wait(10) and "slow model", timeout=0.2)
    assert time.monotonic() - started < 2  # the waiter gave up at its budget; the load goes on
    assert registry.get(("fast", "x"), lambda: "reloaded", timeout=0.1) == "fast model"
    release.set()
    assert registry.get(("slow", "x"), lambda: "not called", timeout=5) == "slow model"  # one load per key


def test_failures_are_remembered_briefly_then_retried():
    now = [0.0]
    registry = ModelCache(error_seconds=30, clock=lambda: now[0])
    calls = []

    def broken():
        calls.append(1)
        raise OSError("hub unreachable")

    for _ in range(3):
        with pytest.raises(ModelLoadFailed, match="hub unreachable"):
            registry.get(("bad", "x"), broken, timeout=5)
    assert len(calls) == 1 and registry.loaded() == []
    now[0] = 31.0
    assert registry.get(("bad", "x"), lambda: "healed", timeout=5) == "healed"


def test_lru_keeps_the_pinned_default_and_evicts_the_least_recent():
    registry = ModelCache(capacity=2, pinned={"default"})
    for name in ("default", "a", "b"):
        registry.get((name, "x"), lambda name=name: name, timeout=5)
        registry.get((name, "bert"), lambda name=name: name + "-bert", timeout=5)  # parts of one model
    assert registry.loaded() == ["default", "b"]
    registry.get(("a", "x"), lambda: "a again", timeout=5)
    assert registry.loaded() == ["default", "a"]
    registry.configure(capacity=1)
    assert registry.loaded() == ["a"]  # with room for one, the pinned model goes too


def test_too_many_loads_at_once_are_refused():
    registry = ModelCache(max_loading=1, pinned={"default"})
    release = threading.Event()
    with pytest.raises(ModelLoading):
        registry.get(("slow", "x"), lambda: release.wait(10), timeout=0.05)
    with pytest.raises(ModelBusy, match="other models are loading"):
        registry.get(("other", "x"), lambda: "other", timeout=1)
    assert registry.get(("default", "x"), lambda: "default", timeout=5) == "default"  # never crowded out
    release.set()


# -- time budget ----------------------------------------------------------------------------------------


def test_deadline_and_chunk_sizes():
    now = [0.0]
    deadline = Deadline(10, clock=lambda: now[0])
    deadline.check("scoring")
    assert next_chunk(deadline.remaining(), None, 4, 32) == 4
    assert next_chunk(deadline.remaining(), 0.5, 4, 32) == 20  # as many as fit
    assert next_chunk(deadline.remaining(), 0.01, 4, 32) == 32
    now[0] = 9.9
    assert next_chunk(deadline.remaining(), 0.5, 4, 32) == 0  # one more pair would overrun
    now[0] = 10.0
    with pytest.raises(OverBudget, match="stopped before BERTScore: this Space allows 10 s per request"):
        deadline.check("BERTScore")


# -- files ----------------------------------------------------------------------------------------------


def test_csv_export_neutralises_formulas_and_keeps_numbers(tmp_path):
    texts = ["=1+1", "+cmd", "-2+3", "@SUM(A1)", "\tx", "\rx", "plain 4%"]
    path = write_csv(["a", "b", "nash"], [[t, "ok", -0.25] for t in texts])
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))[1:]
    assert [r[0] for r in rows] == ["'=1+1", "'+cmd", "'-2+3", "'@SUM(A1)", "'\tx", "'\rx", "plain 4%"]
    assert all(r[2] == "-0.25" for r in rows)  # a negative score stays a number


def test_extra_columns_are_reported_and_ragged_rows_refused(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("id,a,b,note\n1,x 1,y 2,hi\n")
    parsed = parse_pairs(path)
    assert parsed.pairs == [("x 1", "y 2")] and parsed.ignored == ("id", "note")
    path.write_text("a,b\nx 1,y 2\nx 3,y 4,surprise\n")
    # The command line reader's message (the Space shares it), with its hint for the usual cause.
    with pytest.raises(BatchFileError, match=r"^p\.csv:3: expected 2 fields \(a, b\), got 3; quote a text that "
                                             "contains a comma$"):
        parse_pairs(path)
    jsonl = tmp_path / "p.jsonl"
    jsonl.write_text('{"a": "x", "b": "y", "id": 1}\n{"a": "x", "b": "y", "src": "z"}\n')
    assert parse_pairs(jsonl).ignored == ("id", "src")


def test_upload_size_is_checked_again_in_the_handler(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("a,b\n" + "x 1,y 2\n" * 200)
    with pytest.raises(BatchFileError, match=r"file is 1\.6 kB; the limit is 1 kB"):
        parse_pairs(path, max_bytes=1000)


# -- rank wording ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("bert,nash,change,sentence", [
    ([0.9, 0.8, 0.7], [0.9, 0.7, 0.8], "below-top", "Same top candidate; the order below it differs."),
    ([0.9, 0.8, 0.7], [0.7, 0.8, 0.9], "top", "NASH puts a different candidate first."),
    ([0.9, 0.8, 0.7], [0.6, 0.5, 0.4], "none", "Same order."),
])
def test_rank_verdict_says_what_changed(bert, nash, change, sentence):
    html = ranking_html("anchor", ["c1", "c2", "c3"], bert, nash)
    assert f'data-change="{change}"' in html and sentence in html and "The order changed" not in html


def test_the_space_readme_states_every_limit_and_keeps_its_header(data_paths):
    from nash_metric.space.limits import ENV_NAMES

    readme = (data_paths.repo / "spaces_app" / "README.md").read_text(encoding="utf-8")
    header = readme.split("---")[1]
    assert "sdk: gradio" in header and "sdk_version: 6.31.0" in header and "app_file: app.py" in header
    assert all(f"`{var}" in readme for var in ENV_NAMES.values())


def test_heat_map_labels_fall_back_to_a_cjk_font_when_one_is_installed():
    import shutil
    import subprocess

    from nash_metric.reports.plot import CJK_FAMILIES, label_fonts

    if not shutil.which("fc-list") or not subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True,
                                                         text=True).stdout.strip():
        pytest.skip("no CJK font installed (scripts/install_browser.sh installs fonts-noto-cjk)")
    assert label_fonts()[0] == "DejaVu Sans" and len(label_fonts()) == 2 and label_fonts()[1] in CJK_FAMILIES
