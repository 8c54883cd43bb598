"""Texts read by worker processes (option `workers`, `pipeline.read_ahead`): what a worker reads is kept as this
process would read it, so every output field is the same with any number of workers, chunked or streamed."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest

from nash_metric import NASHConfig
from nash_metric.backbone.text_cache import clear_all
from nash_metric.config import OptionError
from nash_metric.pipeline import pool as pool_module
from nash_metric.pipeline import read_ahead
from nash_metric.pipeline.pool import KEYS, READINGS, TextPool, keys_key
from nash_metric.verdicts.keys import text_keys

PREDICTIONS = [
    "Revenue rose 4% to $3.2 million in 2019, from $2.9 million.",
    "Growth of 5–10% expected in Q3 2020.",
    "Operating profit fell to EUR 8.7 mn from EUR 13.1 mn; 2,477 hospitals took part.",
    "",
    "No figures here.",
    '{"city": "Oslo", "forecast": [{"temp": 9.1}, {"temp": 8.4}]}',
]
REFERENCES = [
    "Revenue grew 4% to $3.2 million in 2019 from $2.9 million a year earlier.",
    "| | 2019 | 2018 |\n|---|---|---|\n| Fixed Price | 1,452.4 | 1,146.2 |",
    "Operating profit was EUR 8.7 mn, against EUR 13.1 mn.",
    "Sales were 12 units.",
    "Nothing here either.",
    "Oslo will peak at 9.1 degrees.",
]


def _same(a: tuple, b: tuple) -> bool:
    return len(a) == len(b) and all(x == y or (x != x and y != y) for x, y in zip(a, b))


def _fields(out):
    return (out.nash, out.text, out.numeric, out.alpha, out.numeric_support, out.figure_verdicts, out.unscored)


def test_a_worker_keeps_what_this_process_would_read():
    clear_all()
    texts = [*PREDICTIONS, *REFERENCES]
    read_ahead.read_ahead(texts, "full", None, 2).wait()
    for text in set(texts):
        reading = READINGS.find(("full", text))
        assert reading == pool_module._read(text, "full")
        if reading.scorable:
            scorable = [reading.mentions[i] for i in reading.scorable]
            kept, fresh = KEYS.find(keys_key("full", text, reading.scorable, None)), text_keys(text, scorable)
            for field in fields(fresh):  # NaN (no year, no table scale) is kept as NaN
                assert _same(getattr(kept, field.name), getattr(fresh, field.name)), field.name
    clear_all()


def test_a_pool_built_after_reading_ahead_reads_nothing_again(monkeypatch):
    clear_all()
    read_ahead.read_ahead(PREDICTIONS, "full", None, 1).wait()
    monkeypatch.setattr(pool_module, "extract_numbers", lambda *_: pytest.fail("a text read ahead was read again"))
    TextPool.build(PREDICTIONS)
    clear_all()


@pytest.mark.filterwarnings("ignore::nash_metric.common.blank.BlankTextWarning")
@pytest.mark.parametrize("chunk_size", [2, 1024])
def test_workers_change_no_output_field(tiny_scorer, chunk_size):
    alone = tiny_scorer.with_options(chunk_size=chunk_size)
    clear_all()
    expected = alone.score(PREDICTIONS, REFERENCES)
    clear_all()
    got = alone.with_options(workers=2).score(PREDICTIONS, REFERENCES)
    for a, b in zip(_fields(expected), _fields(got)):
        assert (np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b)
    clear_all()
    streamed = list(alone.with_options(workers=2).iter_score(zip(PREDICTIONS, REFERENCES)))
    assert np.array_equal(np.concatenate([o.nash for o in streamed]), expected.nash)


def test_a_broken_pool_is_read_in_this_process(monkeypatch):
    class Broken:
        def submit(self, *_args, **_kwargs):
            raise read_ahead.BrokenProcessPool("a worker died")

    clear_all()
    monkeypatch.setitem(read_ahead._POOLS, 3, Broken())
    read_ahead.read_ahead(PREDICTIONS[:2], "full", None, 3).wait()
    assert 3 not in read_ahead._POOLS
    assert READINGS.find(("full", PREDICTIONS[0])) == pool_module._read(PREDICTIONS[0], "full")
    clear_all()


@pytest.mark.parametrize("workers", [-1, 1.5, "2"])
def test_workers_must_be_a_count(workers):
    with pytest.raises(OptionError, match="workers"):
        NASHConfig(workers=workers)


def test_a_daemonic_process_reads_in_itself_with_a_warning(monkeypatch):
    import multiprocessing

    clear_all()
    read_ahead._warn_daemonic.cache_clear()
    monkeypatch.setattr(multiprocessing.current_process(), "daemon", True)
    with pytest.warns(RuntimeWarning, match="daemonic"):
        read_ahead.read_ahead(PREDICTIONS[:1], "full", None, 2).wait()
    assert READINGS.find(("full", PREDICTIONS[0])) == pool_module._read(PREDICTIONS[0], "full")
    clear_all()
