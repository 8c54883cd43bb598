"""One user cannot freeze the Space: refused and slow models, oversized uploads, the time budget and a small
load test, all through HTTP and gradio_client against servers in this process (pytest -s prints latencies)."""

from __future__ import annotations

import csv
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from nash_metric.config import DEFAULT_MODEL
from nash_metric.space import SpaceLimits

PAIR = ("Revenue rose 4% to EUR 30 mn.", "Revenue rose 40% to EUR 31 mn.")
# Long number-word text (1,500 characters), the slow kind of input a tester's 245-pair file held.
LONG = " ".join(f"In year {2000 + i} sales were twenty-{i % 9 + 1} point {i} million, up {i}.{i} %."
                for i in range(40))[:1500]


def _client(url):
    from gradio_client import Client

    return Client(url, verbose=False)


def _compare(client, model=DEFAULT_MODEL, backend="sentence"):
    return client.predict(*PAIR, model, backend, True, 0.0, api_name="/compare")[0]


def _timed(fn, *args):
    started = time.monotonic()
    out = fn(*args)
    return out, time.monotonic() - started


def _batch(client, path, model=DEFAULT_MODEL, backend="sentence"):
    from gradio_client import handle_file

    return client.predict(handle_file(str(path)), model, backend, True, 0.0, api_name="/batch")


def _big_upload(url, size=30_000_000):
    import requests

    return requests.post(f"{url}gradio_api/upload", files={"files": ("big.csv", b"a,b\n" + b"x" * size)}, timeout=60)


def _files(folder):
    return {p: p.stat().st_size for p in folder.rglob("*") if p.is_file()} if folder.exists() else {}


def test_an_oversized_upload_is_refused_before_it_is_stored(serve_space, tmp_path, monkeypatch):
    upload_dir = tmp_path / "gradio"
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(upload_dir))  # read when the app is created
    with serve_space(SpaceLimits(max_file_bytes=1_000_000)) as (url, demo):
        assert demo.server_app.uploaded_file_dir == str(upload_dir)
        response = _big_upload(url)
        assert response.status_code == 413, response.text
        assert "maximum allowed size of 1000000 bytes" in response.text
        assert not [p for p, size in _files(upload_dir).items() if size > 1_000_000]
        import requests

        small = requests.post(f"{url}gradio_api/upload", files={"files": ("ok.csv", b"a,b\nx 1,y 2\n")}, timeout=10)
        assert small.status_code == 200 and sum(_files(upload_dir).values()) < 1_000  # only the small file


@pytest.fixture(scope="module")
def tiny_space(serve_space, tiny_model_dir):
    """A Space serving the tiny model with a 0.5 s budget; the model is loaded beforehand (same process)."""
    from nash_metric.space import scorers

    model = str(tiny_model_dir)
    scorer = scorers.get_scorer(model, "token")
    scorers.bertscore_f1(scorer, ["a 1"], ["b 2"])
    with serve_space(SpaceLimits(allowed_models=(model,), request_seconds=0.5)) as (url, _):
        yield url, model


def test_a_batch_stops_at_its_budget_and_the_server_keeps_answering(tiny_space, tmp_path):
    url, model = tiny_space
    path = tmp_path / "long.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([("a", "b"), *[(f"{LONG} {i}", f"{LONG[:-100]} {i + 1}") for i in range(300)]])
    client = _client(url)
    (summary, table, download), seconds = _timed(_batch, client, path, model, "token")
    assert "stopped after" in summary and "of 300 pairs: this Space allows 0.5 s per request" in summary
    assert "nash score --pairs FILE" in summary
    done = len(table["data"]) if table else 0
    print(f"\nbatch with a 0.5 s budget: {done} of 300 pairs in {seconds:.2f} s (round trip)")
    assert done < 300 and f"stopped after {done} of 300" in summary
    if done:  # the pairs scored so far can still be downloaded, marked as partial
        with open(download, encoding="utf-8") as fh:
            assert "partial" in download and len(list(csv.reader(fh))) == done + 1
    assert seconds < 10, seconds
    cards = _compare(client, model, "token")
    assert 'data-metric="NASH"' in cards, cards  # the next request is served as usual


def test_batch_reports_extra_columns_and_neutralises_formulas(serve_space, tmp_path, tiny_model_dir):
    from nash_metric.space import scorers

    model = str(tiny_model_dir)
    scorers.bertscore_f1(scorers.get_scorer(model, "token"), ["a 1"], ["b 2"])
    path = tmp_path / "cells.csv"
    path.write_text("id,a,b,note\n1,=1+1,+cmd 2,x\n2,-2+3,@SUM(A1),y\n3,Revenue rose 4%,Revenue rose 5%,z\n")
    with serve_space(SpaceLimits(allowed_models=(model,))) as (url, _):
        summary, table, download = _batch(_client(url), path, model, "token")
    assert "3 pairs" in summary and "ignored columns: id, note" in summary, summary
    assert [row[0] for row in table["data"]] == ["=1+1", "-2+3", "Revenue rose 4%"]  # the table shows them as is
    with open(download, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    assert [r[:2] for r in rows[1:]] == [["'=1+1", "'+cmd 2"], ["'-2+3", "'@SUM(A1)"],
                                         ["Revenue rose 4%", "Revenue rose 5%"]]
    assert rows[0][-2:] == ["numeric_support", "unsupported_figures"]
    assert all(isinstance(float(v), float) for r in rows[1:] for v in r[2:-1])  # scores stay numbers
    assert all(not cell or cell.startswith(("✗", "↷", "⇅", "∅")) for *_, cell in rows[1:])  # a mark first: no formula


def test_batch_downloads_are_removed_after_download_seconds(serve_space, tmp_path, tiny_model_dir, monkeypatch):
    """Ten Batch runs left ten nash_batch_*.csv files in the temp folder for good: a public Space fills its disk.
    Now the CSV written for a download is removed at once, and gradio's copy (and the upload) once it is
    `download_seconds` old."""
    import tempfile

    from nash_metric.space import scorers

    model = str(tiny_model_dir)
    scorers.bertscore_f1(scorers.get_scorer(model, "token"), ["a 1"], ["b 2"])
    gradio_dir, system_tmp = tmp_path / "gradio", tmp_path / "tmp"
    system_tmp.mkdir()
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(gradio_dir))  # read when the app is created
    monkeypatch.setattr(tempfile, "tempdir", str(system_tmp))  # where a download was written, and left
    path = tmp_path / "pairs.csv"
    path.write_text("a,b\nRevenue rose 4%,Revenue rose 5%\n")
    with serve_space(SpaceLimits(allowed_models=(model,), download_seconds=1)) as (url, demo):
        assert demo.delete_cache == (1, 1)
        summary, _, download = _batch(_client(url), path, model, "token")
        assert "1 pairs" in summary and download, summary
        assert not list(system_tmp.rglob("nash_batch_*.csv"))  # the file written for gradio is gone at once
        served = list(gradio_dir.rglob("nash_batch_*.csv"))
        assert len(served) == 1, served  # gradio's copy: the one it serves
        deadline = time.monotonic() + 15
        while served[0].exists() and time.monotonic() < deadline:
            time.sleep(0.25)
        assert not served[0].exists(), "gradio's delete_cache did not remove the download"
        assert not list(gradio_dir.rglob("*.csv"))  # the upload too


@pytest.mark.slow
def test_a_refused_model_does_not_hold_up_the_default_model(serve_space):
    with serve_space() as (url, _):
        user, hostile = _client(url), _client(url)
        _compare(user)  # warm: the default model is loaded once per process
        with ThreadPoolExecutor(1) as pool:
            refusals = pool.submit(lambda: [_timed(_compare, hostile, "no-such-org/no-such-model", "auto")
                                            for _ in range(5)])
            cards, seconds = _timed(_compare, user)
            refused = refusals.result()
    print(f"\ndefault-model Compare beside refused models: {seconds:.2f} s; refusals "
          + ", ".join(f"{s:.2f}" for _, s in refused) + " s")
    assert 'data-metric="NASH"' in cards and seconds < 10
    for html, s in refused:
        assert "not available on this Space" in html and "NASH_SPACE_ALLOW_MODELS" in html and s < 5


@pytest.mark.slow
def test_a_slow_failing_load_does_not_hold_up_other_models(serve_space, monkeypatch):
    from nash_metric.space import scorers

    slow, entered, release, calls = "slow-org/slow-model", threading.Event(), threading.Event(), []
    real = scorers.load_scorer

    def loader(model, backend):
        if model != slow:
            return real(model, backend)
        calls.append(model)
        entered.set()
        release.wait(30)
        raise OSError(f"could not load model {model!r} (test loader)")

    monkeypatch.setattr(scorers, "load_scorer", loader)
    limits = SpaceLimits(allow_any_model=True, concurrency=2, request_seconds=25)
    with serve_space(limits) as (url, _):
        user, hostile = _client(url), _client(url)
        _compare(user)
        with ThreadPoolExecutor(2) as pool:
            stuck = pool.submit(_compare, hostile, slow, "token")
            tau = pool.submit(lambda: hostile.predict(slow, "token", True, api_name="/tau"))
            assert entered.wait(20)
            cards, seconds = _timed(_compare, user)  # while the slow load holds its own key
            release.set()
            failed = stuck.result(timeout=30)
            tau_info = tau.result(timeout=30)["info"]
        again, again_s = _timed(_compare, hostile, slow, "token")
    print(f"\ndefault-model Compare during a slow load: {seconds:.2f} s; the failure again: {again_s:.2f} s")
    assert 'data-metric="NASH"' in cards and seconds < 10
    assert "nash-error" in failed and "test loader" in failed and "test loader" in tau_info
    assert "test loader" in again and len(calls) == 1  # the failure is remembered briefly: no second load


@pytest.mark.slow
def test_rank_says_when_only_the_order_below_the_top_changed(serve_space):
    with serve_space() as (url, _):
        html = _client(url).predict("Revenue increased by 4%.", "Revenue increased by 4%.\n"
                                    "Revenue increased by 3.56%.\nRevenue increased by 40%.", DEFAULT_MODEL, "token",
                                    True, 0.0, api_name="/rank")
    assert 'data-change="below-top"' in html and "Same top candidate; the order below it differs." in html


@pytest.mark.slow
def test_load_four_users_beside_a_hostile_one(serve_space, tmp_path):
    """4 users Compare on the default model for ~12 s while one client sends refused models, 30 MB uploads and
    over-budget batches; every user request must finish within 10 s."""
    big_batch = tmp_path / "big.csv"
    with open(big_batch, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([("a", "b"), *[(f"{LONG[:900]} {i}", f"{LONG[:850]} {i + 1}") for i in range(500)]])
    assert big_batch.stat().st_size < 1_000_000
    with serve_space(SpaceLimits(request_seconds=4)) as (url, _):
        users, hostile = [_client(url) for _ in range(4)], _client(url)
        _compare(users[0])
        stop, latencies, hostile_log = threading.Event(), [[] for _ in users], []

        def use(k):
            while not stop.is_set():
                cards, seconds = _timed(_compare, users[k])
                assert 'data-metric="NASH"' in cards, cards
                latencies[k].append(seconds)

        def attack():
            while not stop.is_set():
                hostile_log.append(("refused", _timed(_compare, hostile, "no-such-org/no-such-model", "auto")[1]))
                hostile_log.append(("30 MB", _timed(_big_upload, url)[1]))
                summary, seconds = _timed(_batch, hostile, big_batch)
                assert "stopped after" in summary[0], summary[0]
                hostile_log.append(("batch", seconds))

        with ThreadPoolExecutor(5) as pool:
            futures = [pool.submit(use, k) for k in range(4)] + [pool.submit(attack)]
            time.sleep(12)
            stop.set()
            for f in futures:
                f.result(timeout=30)
    flat = [s for user in latencies for s in user]
    print(f"\nload test: {len(flat)} user Compares, latency max {max(flat):.2f} s, "
          f"median {sorted(flat)[len(flat) // 2]:.2f} s; hostile: "
          + ", ".join(f"{what} {s:.1f} s" for what, s in hostile_log))
    assert all(latencies) and max(flat) < 10
