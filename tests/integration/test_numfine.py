"""NumFinE: readers, categories, formats, variants, protocols, publication, CLI; the committed sample."""

from __future__ import annotations

import itertools
import json
import math
import re
import warnings
from datetime import date
from decimal import Decimal

import numpy as np
import pytest

from nash_metric.benchmarks.numfine.build import build_from_file, build_numfine
from nash_metric.benchmarks.numfine.evaluation import pool_pairs, protocol_metrics
from nash_metric.benchmarks.numfine.formats import SurfaceFormat
from nash_metric.benchmarks.numfine.publish import write_numfine
from nash_metric.benchmarks.numfine.rules import find_targets
from nash_metric.benchmarks.numfine.tables import CONFIGS, CROSSPAIR_MIN_RATIO, crosspair_distance
from nash_metric.common.io import InputFileError
from nash_metric.corpus.sentences import read_sentences
from nash_metric.numbers import extract_numbers
from nash_metric.numbers.calendar import ClockTime, DateExpression, find_calendar
from nash_metric.numbers.periods import period_distance_days, period_value

# variant rules of calendar targets (distances in days, `period_distance_days`); bare years are "date_years"
CALENDAR_RULES = ("date_days", "date_months", "date_quarters", "date_halves", "date_fiscal_years")


@pytest.fixture(scope="module")
def units(data_paths) -> list[dict]:
    import pandas as pd

    return pd.read_parquet(data_paths.dataset("numfine") / "data" / "units").to_dict("records")


@pytest.fixture(scope="module")
def built(data_paths):
    return build_from_file(data_paths.dataset("numfine") / "source" / "sentences.txt")


# ------------------------------------------------------------------------------------------ readers

def test_read_sentences_formats(tmp_path):
    (tmp_path / "a.txt").write_text("First one.\n\n  Second one.  \n", encoding="utf-8")
    assert read_sentences(tmp_path / "a.txt") == ["First one.", "Second one."]
    (tmp_path / "b.csv").write_text('id,text\n1,"Sales, up 5 %"\n2,Costs fell\n', encoding="utf-8")
    assert read_sentences(tmp_path / "b.csv") == ["Sales, up 5 %", "Costs fell"]
    assert read_sentences(tmp_path / "b.csv", column="id") == ["1", "2"]
    (tmp_path / "c.jsonl").write_text('{"sentence": "A 5 % rise"}\n\n{"sentence": "B"}\n', encoding="utf-8")
    assert read_sentences(tmp_path / "c.jsonl") == ["A 5 % rise", "B"]
    # Financial PhraseBank layout: no header, label,sentence
    (tmp_path / "fpb.csv").write_text('neutral,"Sales were EUR 5 mn ."\npositive,Profit rose 3 % .\n', encoding="utf-8")
    assert read_sentences(tmp_path / "fpb.csv") == ["Sales were EUR 5 mn .", "Profit rose 3 % ."]


def test_bad_input_files_name_file_and_line(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("label,content\nneutral,fine\nneutral\nneutral,also fine\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"bad\.csv:3: expected 2 fields"):
        read_sentences(bad)
    multi = tmp_path / "multi.csv"  # a quoted field spanning lines: the error points at the record's first line
    multi.write_text('label,content\nneutral,"two\nlines"\nneutral,\n', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"multi\.csv:4: empty 'content' field"):
        read_sentences(multi)
    js = tmp_path / "bad.jsonl"
    js.write_text('{"text": "ok"}\n{"text": 5}\n', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"bad\.jsonl:2: field 'text' must be a string"):
        read_sentences(js)
    js.write_text('{"text": "ok"}\n{oops\n', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"bad\.jsonl:2: invalid JSON"):
        read_sentences(js)
    with pytest.raises(InputFileError, match="no column 'sentence'"):
        read_sentences(bad, column="sentence")
    with pytest.raises(FileNotFoundError, match=r"missing\.txt"):
        read_sentences(tmp_path / "missing.txt")


def test_cli_build_reports_the_bad_line(tmp_path, capsys):
    from nash_metric.cli import main

    src = tmp_path / "src.jsonl"
    src.write_text('{"sentence": "Sales rose 5 % ."}\n{"headline": "no sentence field"}\n', encoding="utf-8")
    assert main(["build-data", "numfine", "--source", str(src), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "src.jsonl:2: missing field 'sentence'" in err


def test_latin1_fallback_warns_with_the_line(tmp_path):
    f = tmp_path / "l1.txt"
    f.write_bytes("ok\nTel\u00d1o\n".encode("latin-1"))
    with pytest.warns(UnicodeWarning, match=r"l1\.txt:2"):
        assert read_sentences(f)[1] == "Tel\u00d1o"


# ------------------------------------------------------------------------------- formats and grammar

@pytest.mark.parametrize(("text", "value", "new", "expected"), [
    ("5.2 %", 5.2, "10.4", "10.4 %"),
    ("EUR 205.5 mn", 205.5e6, "99.95", "EUR 100.0 mn"),  # banker's rounding to one decimal
    ("EUR74 .8 m", 74.8e6, "81.26", "EUR81 .3 m"),  # Financial PhraseBank spacing kept
    ("100,000", 1e5, "1234567", "1,234,567"),
    (".26", 0.26, "0.5", ".50"),
    ("$1,250 million", 1.25e9, "980", "$980 million"),
    ("EUR 37,7 mn", 37.7e6, "40.04", "EUR 40,0 mn"),  # decimal comma, chosen because the value says so
    ("119 850", 119850.0, "1000000", "1 000 000"),  # space as thousands separator
    ("x20ac 23.89", 23.89, "7", "x20ac 7.00"),  # the euro sign as the PhraseBank writes it
])
def test_surface_format_round_trip(text, value, new, expected):
    fmt = SurfaceFormat.parse(text, value)
    assert fmt.render(fmt.core) == text
    assert fmt.render(Decimal(new)) == expected


def test_surface_format_rejects_what_it_cannot_read():
    with pytest.raises(ValueError, match="unsupported number format"):
        SurfaceFormat.parse("1.2.3")
    with pytest.raises(ValueError, match="reads as"):
        SurfaceFormat.parse("EUR 5 mn", 7e6)


def test_dates_and_clock_times():
    s = "Held on April 23, 2010 at 10:00 ; paid 5 May ; report for January 4 , 2008 and 30.09.2013 ."
    found = {d.text: d for d in find_calendar(s) if isinstance(d, DateExpression)}
    assert set(found) == {"April 23, 2010", "5 May", "January 4 , 2008", "30.09.2013"}
    assert found["30.09.2013"].when == date(2013, 9, 30)
    assert found["April 23, 2010"].shifted(8) == ("May 1, 2010", "2010-05-01")
    assert [c.text for c in find_calendar(s) if isinstance(c, ClockTime)] == ["10:00"]
    assert find_calendar("February 30, 2009 may rise") == []  # not calendar-valid; "may" is a verb


def test_calendar_targets_are_whole_expressions():
    s = "Sales in Q4 2019 and FY19 rose , as of December 31, 2019 , from the first half of 2018 at 9 am ."
    targets, skipped = find_targets(s, extract_numbers(s))
    got = {t.text: (t.category, t.rule, t.delta_unit, t.period) for t in targets}
    assert got == {"Q4 2019": ("temporal", "date_quarters", "days", "2019-Q4"),
                   "FY19": ("temporal", "date_fiscal_years", "days", "FY2019"),
                   "December 31, 2019": ("temporal", "date_days", "days", "2019-12-31"),
                   "first half of 2018": ("temporal", "date_halves", "days", "2018-H1"),
                   "9 am": ("temporal", "time", "hours", "T09:00")}
    assert not skipped


# What find_targets reads each target of a sentence as: sentence | target | category | subcategory.
CATEGORIES = """
Net sales rose 12.5 % to EUR 205.5 mn .            | 12.5 %            | percentage     | relative
Net sales rose 12.5 % to EUR 205.5 mn .            | EUR 205.5 mn      | monetary       | money
The company holds a 51 % stake in the venture .    | 51 %              | percentage     | absolute
The stock dropped $2.15 to $43.80 .                | $2.15             | monetary       | change
Traders placed a stop loss at $27.40 .             | $27.40            | monetary       | stop loss
The meeting is on April 23, 2010 .                 | April 23, 2010    | temporal       | date
Results for 2009 improved .                        | 2009              | temporal       | date
The contract runs for 18 months .                  | 18                | temporal       | time
The stock's RSI stood at 72 .                      | 72                | indicator      | indicator
Deliveries of the Nokia 6300 start soon .          | 6300              | product number | product number
It grants options at a strike price of EUR 2.80 .  | EUR 2.80          | option         | exercise price
The call options expire on December 19, 2014 .     | December 19, 2014 | option         | maturity date
The plant employs 2,100 people .                   | 2,100             | quantity       | quantity
"""


@pytest.mark.parametrize(("sentence", "target", "category", "subcategory"),
                         [[cell.strip() for cell in row.split("|")] for row in CATEGORIES.strip().splitlines()])
def test_categories(sentence, target, category, subcategory):
    targets, skipped = find_targets(sentence, extract_numbers(sentence))
    got = {t.text: (t.category, t.subcategory) for t in targets}
    assert got[target] == (category, subcategory), got
    assert not skipped


# ------------------------------------------------------------------------------ the committed sample

def test_sample_is_reproducible_from_source(units, built):
    rebuilt = sorted(built.units, key=lambda u: u["unit_id"])
    assert [u["unit_id"] for u in units] == [u["unit_id"] for u in rebuilt]
    for old, new in zip(units, rebuilt, strict=True):
        assert list(old["variants"]) == new["variants"]
        assert np.allclose(old["distances"], new["distances"])


def test_every_category_is_covered(units):
    assert {u["category"] for u in units} == {"temporal", "monetary", "percentage", "quantity", "product number",
                                              "indicator", "option"}


def test_variant_counts_and_only_the_target_changes(units):
    for u in units:
        variants, targets, dist = list(u["variants"]), list(u["variant_targets"]), list(u["distances"])
        assert len(variants) == len(targets) == len(dist) == 9
        assert len(set(variants)) == 9 and u["sentence"] not in variants
        assert dist == sorted(dist) and dist[0] > 0
        assert all(b - a > 1e-9 * b for a, b in itertools.pairwise(dist))  # strict gold order, no float ties
        s, e = u["target_start"], u["target_end"]
        assert u["sentence"][s:e] == u["target"]
        for v, t in zip(variants, targets, strict=True):
            assert v == u["sentence"][:s] + t + u["sentence"][e:]
        if u["rule"] in CALENDAR_RULES or u["rule"] == "date_years":  # distances are calendar days
            anchor = _period(u["rule"], u["target"])
            for t, value, d in zip(targets, u["variant_values"], dist, strict=True):
                assert d == period_distance_days(anchor, _period(u["rule"], t))
                assert value == pytest.approx(period_value(_period(u["rule"], t)))
            continue
        for value, d in zip(u["variant_values"], dist, strict=True):
            assert abs(value - u["target_value"]) == pytest.approx(d)


def _period(rule: str, text: str) -> str:
    if rule == "date_years":
        return text
    (x,) = find_calendar(text)
    assert x.text == text
    return x.period


def test_formats_preserved(units):
    numeric = [u for u in units if u["rule"] not in CALENDAR_RULES and u["delta_unit"] != "hours"]
    assert numeric
    for u in numeric:
        if not re.search(r"\d", u["target"]):
            assert all(re.fullmatch(r"[A-Za-z -]+", t) for t in u["variant_targets"])  # words stay words
            continue
        orig = SurfaceFormat.parse(u["target"], u["target_value"])
        for t, value in zip(u["variant_targets"], u["variant_values"], strict=True):
            new = SurfaceFormat.parse(t, value)
            assert (new.prefix, new.suffix, new.decimals, new.gap) == (orig.prefix, orig.suffix, orig.decimals,
                                                                       orig.gap), (u["target"], t)
            if orig.grouped and new.core >= 1000:
                assert new.grouped, (u["target"], t)
    spaced = [u for u in units if u["target"].endswith(" %")]
    assert spaced and all(t.endswith(" %") for u in spaced for t in u["variant_targets"])


# the largest calendar distance of each rule, in days: ±30 days, ±12 months, ±8 quarters, ±6 halves, ±10 years
MAX_DAYS = {"date_days": 30, "date_months": 366, "date_quarters": 731, "date_halves": 1097,
            "date_fiscal_years": 3653, "date_years": 3653}


def _check_calendar_units(units):
    for u in units:
        if u["rule"] not in MAX_DAYS:
            continue
        anchor = find_calendar(u["target"])[0] if u["rule"] != "date_years" else None
        for t, d in zip(u["variant_targets"], u["distances"], strict=True):
            if anchor is not None:
                parsed = find_calendar(t)
                assert len(parsed) == 1 and parsed[0].text == t, t  # a calendar-valid date ...
                assert parsed[0].form == anchor.form, (u["target"], t)  # ... in the same form
            else:
                assert re.fullmatch(r"\d{4}", t)
            assert 1 <= d <= MAX_DAYS[u["rule"]], (u["target"], t, d)


def test_dates_valid_and_within_rule(units):
    assert {"date_days", "date_months", "date_quarters", "date_years"} <= {u["rule"] for u in units}
    _check_calendar_units(units)


def test_quarter_half_and_fiscal_year_variants_keep_their_form():
    sentences = ["Revenue rose in Q4 2019 .", "EBITDA improved in 4Q19 .", "Sales fell in FY19 .",
                 "Net sales for fiscal year 2019 rose .", "Results for the fourth quarter of fiscal 2019 improved .",
                 "Margins widened in H1 2023 .", "Profit rose in the first half of 2023 .", "Sales rose in 2H19 .",
                 "As of December 31, 2019 , debt was low .", "Sales in March 2020 fell .", "Revenue in 2019 grew .",
                 "The meeting starts at 9:45 p.m. today ."]
    build = build_numfine(sentences)
    units = {u["target"]: u for u in build.units}
    forms = {"Q4 2019": r"Q[1-4] \d{4}", "4Q19": r"[1-4]Q\d{2}", "FY19": r"FY\d{2}",
             "fiscal year 2019": r"fiscal year \d{4}", "H1 2023": r"H[12] \d{4}", "2H19": r"[12]H\d{2}",
             "fourth quarter of fiscal 2019": r"(first|second|third|fourth) quarter of fiscal \d{4}",
             "first half of 2023": r"(first|second) half of \d{4}", "2019": r"\d{4}"}
    for target, pattern in forms.items():
        u = units[target]
        assert u["delta_unit"] == "days" and u["category"] == "temporal"
        assert all(re.fullmatch(pattern, t) for t in u["variant_targets"]), u["variant_targets"]
    assert units["Q4 2019"]["rule"] == "date_quarters" and units["FY19"]["rule"] == "date_fiscal_years"
    assert units["H1 2023"]["rule"] == "date_halves" and units["2019"]["rule"] == "date_years"
    for u in build.units:  # |Δ| is exactly the calendar distance the scorer uses
        if u["rule"] in MAX_DAYS:
            anchor = _period(u["rule"], u["target"])
            assert u["distances"] == [period_distance_days(anchor, _period(u["rule"], t)) for t in u["variant_targets"]]
    _check_calendar_units(build.units)
    q = units["Q4 2019"]
    assert q["target_value"] == period_value("2019-Q4")
    assert dict(zip(q["variant_targets"], q["distances"], strict=True)).get("Q3 2019") in (None, 92.0)
    clock = units["9:45 p.m."]  # clock times keep the hour rule; distances in hours on a 24-hour clock
    assert clock["delta_unit"] == "hours" and clock["target_value"] == 21.75
    for t, d in zip(clock["variant_targets"], clock["distances"], strict=True):
        hour = int(t.split(":")[0])
        assert d == abs((hour % 12 + 12) - 21)


def test_plausibility(units):
    for u in units:
        vals = u["variant_values"]
        if u["subcategory"] == "absolute":
            assert all(0 < v <= 100 for v in vals)
        if u["category"] in ("quantity", "monetary", "product number") and u["target_value"] > 0:
            assert all(v > 0 for v in vals)
        if u["delta_unit"] == "hours":
            assert all(0 <= v <= 23 for v in vals)


def test_gold_orderings_in_protocol_configs(units, data_paths):
    import pandas as pd

    sample = data_paths.dataset("numfine")
    by_id = {u["unit_id"]: u for u in units}
    tables = {c: pd.read_parquet(sample / "data" / c).to_dict("records") for c in CONFIGS}
    for config, neg in (("triplet_easy", 8), ("triplet_medium", 4), ("triplet_hard", 1)):
        assert len(tables[config]) == len(units)
        for r in tables[config]:
            u = by_id[r["unit_id"]]
            assert r["anchor"] == u["sentence"] and r["positive"] == u["variants"][0]
            assert r["negative"] == u["variants"][neg]
            assert r["distance_positive"] < r["distance_negative"]
    for r in tables["listwise"]:
        u = by_id[r["unit_id"]]
        assert sorted(zip(r["distances"], r["variants"], strict=True)) == list(zip(u["distances"], u["variants"],
                                                                                   strict=True))
    labels = []
    for r in tables["crosspair"]:
        a, b = by_id[r["unit_id"]], by_id[r["unit_id_b"]]
        assert a["category"] == b["category"] == r["category"]
        assert r["sentence_a1"] == a["sentence"] and r["sentence_a2"] in list(a["variants"])
        ia = list(a["variants"]).index(r["sentence_a2"])
        assert r["distance_a"] == pytest.approx(crosspair_distance(a, ia))
        assert r["label"] == (0 if r["distance_a"] < r["distance_b"] else 1)
        lo, hi = sorted((r["distance_a"], r["distance_b"]))
        assert hi >= CROSSPAIR_MIN_RATIO * lo
        labels.append(r["label"])
    assert 0 < sum(labels) < len(labels)  # both labels occur


def test_build_is_order_independent_and_seeded(built, data_paths):
    source = data_paths.dataset("numfine") / "source" / "sentences.txt"
    sentences = read_sentences(source)
    shuffled = build_numfine(list(reversed(sentences)))
    assert {u["unit_id"]: u["variants"] for u in shuffled.units} == {u["unit_id"]: u["variants"] for u in built.units}
    assert shuffled.tables["crosspair"] == built.tables["crosspair"]
    other = build_numfine(sentences, seed=1)
    assert [u["variants"] for u in other.units] != [u["variants"] for u in built.units]


def test_build_report_accounts_for_every_target(built):
    r = built.report
    for cat, st in r["categories"].items():
        assert st["targets"] == st["kept"] + sum(st["dropped"].values()), cat
        assert st["kept"] == sum(st["subcategories"].values())
    assert r["totals"]["kept"] == len(built.units) == r["rows"]["units"]
    assert r["sentences"]["read"] == 55


def test_published_folder_loads_all_configs(data_paths):
    from datasets import load_dataset

    sample = data_paths.dataset("numfine")
    assert (sample / "numfine_builder.py").is_file()  # the builder sits in the folder and does not break loading
    for config in CONFIGS:
        ds = load_dataset(str(sample), config, split="test")
        assert ds.num_rows > 0
        assert {"unit_id", "category", "subcategory", "target"} <= set(ds.column_names)


def test_write_and_reload_roundtrip(tmp_path, built):
    from datasets import load_dataset

    out = write_numfine(built, tmp_path / "nf", {"license": "apache-2.0"})
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "config_name: crosspair" in card and "| temporal |" in card
    report = json.loads((out / "build_report.json").read_text(encoding="utf-8"))
    assert report["rows"]["triplet_hard"] == len(built.units)
    hard = load_dataset(str(out), "triplet_hard", split="test")
    assert hard.num_rows == len(built.units)


# ------------------------------------------------------------------------------ released data, metrics

def test_protocol_metrics_on_a_hand_made_pool():
    tables = {
        "triplet_easy": [{"anchor": "A", "positive": "A1", "negative": "A9"}],
        "triplet_medium": [{"anchor": "A", "positive": "A1", "negative": "A5"}],
        "triplet_hard": [{"anchor": "A", "positive": "A1", "negative": "A2"}],
        "listwise": [{"anchor": "A", "variants": ["A5", "A1", "A9", "A2"], "distances": [5.0, 1.0, 9.0, 2.0]}],
        "crosspair": [{"sentence_a1": "A", "sentence_a2": "A1", "sentence_b1": "A", "sentence_b2": "A9",
                       "label": 0}],
    }
    pool, idx = pool_pairs(tables)
    assert len(pool.index) == 4  # the triplet and cross-pair pairs are all listwise pairs
    sim = {"A1": 0.9, "A2": 0.95, "A5": 0.5, "A9": 0.1}  # hard triplet wrong, everything else right
    scores = np.array([sim[p] for p in pool.predictions])
    m = protocol_metrics(scores, idx)
    assert (m["triplet_easy"], m["triplet_medium"], m["triplet_hard"], m["crosspair"]) == (1.0, 1.0, 0.0, 1.0)
    assert m["listwise"] == pytest.approx(4 / 6)  # 5 concordant, 1 discordant pair of 6


def test_financial_phrasebank_reads_and_builds(tmp_path, data_paths):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnicodeWarning)  # the release is Latin-1
        sentences = read_sentences(data_paths.require("phrasebank"))
    assert len(sentences) == 4846
    build = build_numfine(sentences[:400], source="fpb[:400]")
    assert build.report["totals"]["kept"] > 100
    assert all(len(u["variants"]) == 9 for u in build.units)


@pytest.mark.slow
def test_bench_on_the_sample_with_minilm(data_paths):
    from nash_metric import NASH
    from nash_metric.benchmarks.numfine.evaluation import load_tables, run_numfine

    sample = data_paths.dataset("numfine")
    tables = load_tables(sample, limit=40)
    res = run_numfine(NASH(backend="sentence"), tables, threshold_sweep=True, alignment_rows=10,
                      show_progress=False)
    assert res["nash"]["listwise"] > res["base"]["listwise"]
    assert res["nash"]["triplet_hard"] > res["base"]["triplet_hard"]
    assert [s["setting"] for s in res["threshold_sweep"]] == ["mu-2sigma", "mu-1sigma", "mu", "mu+1sigma",
                                                               "mu+2sigma"]
    assert res["alignment"]["applicable"] > 0 and 0 <= res["alignment"]["both"] <= 1
    assert all(math.isfinite(res[k][c]) for k in ("base", "nash") for c in ("triplet_easy", "crosspair"))


def test_cli_build_writes_a_loadable_folder(tmp_path, capsys):
    from datasets import load_dataset

    from nash_metric.cli import main

    src = tmp_path / "src.txt"
    src.write_text("Net sales rose 12.5 % to EUR 205.5 mn in 2009 .\nThe plant employs 2,100 people .\n",
                   encoding="utf-8")
    out = tmp_path / "out"
    assert main(["build-data", "numfine", "--source", str(src), "--out", str(out), "--seed", "3"]) == 0
    printed = capsys.readouterr().out
    assert "| percentage" in printed and "triplet_hard" in printed
    report = json.loads((out / "build_report.json").read_text(encoding="utf-8"))
    assert report["seed"] == 3 and report["totals"]["kept"] == report["rows"]["units"] > 0
    assert load_dataset(str(out), "listwise", split="test").num_rows == report["rows"]["listwise"]


def test_builder_class_generates_a_config(tmp_path, monkeypatch, data_paths):
    sample = data_paths.dataset("numfine")
    monkeypatch.syspath_prepend(str(sample))  # as a user would: the builder imported from its folder
    import numfine_builder as module

    builder = module.NumFinEBuilder(config_name="triplet_hard", cache_dir=str(tmp_path / "cache"))
    builder.download_and_prepare()
    ds = builder.as_dataset(split="test")
    import pandas as pd

    committed = pd.read_parquet(sample / "data" / "triplet_hard").to_dict("records")
    assert ds.to_list() == committed


def test_load_tables_errors(tmp_path, data_paths):
    from nash_metric.benchmarks.numfine.evaluation import load_tables

    sample = data_paths.dataset("numfine")
    (tmp_path / "x.csv").write_text("a\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"x\.csv: a released NumFinE file is \.json"):
        load_tables(tmp_path / "x.csv")
    with pytest.raises(ValueError, match=r"no README\.md .*skipped x\.csv \(not \.json or \.jsonl\)"):
        load_tables(tmp_path)
    with pytest.raises(ValueError, match="--limit"):
        load_tables(sample, limit=0)
    assert len(load_tables(sample, limit=5)["listwise"]) == 5


@pytest.mark.slow
def test_annual_report_dates_rank_by_calendar_distance(data_paths, minilm_sentence):
    """Issue 10's must-show on real filing text, in small: temporal units of the annual-report build."""
    from nash_metric.benchmarks.numfine.evaluation import run_numfine

    built = build_from_file(data_paths.require("annual_reports"))
    tables = {name: [r for r in rows if r["category"] == "temporal"][:150] for name, rows in built.tables.items()}
    assert len(tables["triplet_hard"]) == 150
    paper = run_numfine(minilm_sentence.with_options(numbers="paper"), tables, alignment_rows=0, show_progress=False)
    full = run_numfine(minilm_sentence, tables, alignment_rows=0, show_progress=False)
    assert full["nash"]["triplet_hard"] >= 0.90 > paper["nash"]["triplet_hard"]
    assert full["nash"]["triplet_hard"] > full["base"]["triplet_hard"]
    assert full["nash"]["listwise"] > paper["nash"]["listwise"]
