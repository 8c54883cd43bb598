"""`nash score` on files of pairs, `nash fit-idf`, 2-process torchrun, evaluate's distributed mode (tiny model)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from nash_metric import NASH
from nash_metric.cli import main
from nash_metric.corpus.rows import read_rows
from nash_metric.pipeline.output import public_fields

PAIRS = [
    ("Revenue increased by 4%.", "Revenue increased by 3.56%."),
    ("Revenue increased by 4%.", "Revenue increased by 40%."),
    ("Net profit was EUR 5.1 mn on December 31, 2019.", "Net profit was EUR 4.9 mn at the end of 2019."),
    ("No numbers here.", "None at all."),
    ("Shares fell 1.2.3 points.", "Shares fell 2 points."),
    ("Costs rose 7% in Q4 2019.", "Costs fell 7% in Q3 2019."),
    ("The firm hired 250 people.", "The firm hired 260 people."),
]
COLUMNS = ["index", *public_fields(baseline=False), "unsupported", "unsupported_numbers", "unscored"]


@pytest.fixture
def pairs_file(tmp_path):
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps({"prediction": a, "reference": b}) + "\n" for a, b in PAIRS))
    return path


def _rounded(entries):
    """Verdict entries with every float rounded to 5 decimals."""
    if isinstance(entries, dict):
        return {k: _rounded(v) for k, v in entries.items()}
    if isinstance(entries, list):
        return [_rounded(v) for v in entries]
    return round(entries, 5) if isinstance(entries, float) else entries


def model_args(tiny_model_dir):
    return ["--model", str(tiny_model_dir), "--backend", "token", "--device", "cpu"]


def test_pairs_file_gives_one_row_per_pair_in_order(capsys, tmp_path, tiny_model_dir, pairs_file):
    out_path = tmp_path / "out.csv"
    code = main(["score", "--pairs", str(pairs_file), "--output", str(out_path), "--summary",
                 str(tmp_path / "summary.json"), "--chunk-size", "3", "--quiet", *model_args(tiny_model_dir)])
    captured = capsys.readouterr()
    assert code == 0
    rows = read_rows(out_path)
    assert list(rows) == COLUMNS and rows["index"] == list(range(len(PAIRS)))
    expected = NASH(model=str(tiny_model_dir), backend="token", device="cpu").score(*zip(*PAIRS))
    np.testing.assert_allclose(rows["nash"], expected.nash, atol=1e-9)
    assert rows["unscored"] == [0, 0, 0, 0, 1, 0, 0]  # "1.2.3" has no value: counted on its row
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["pairs"] == len(PAIRS) and summary["unscored_numbers"] == 1
    assert summary["hashcode"] == expected.hashcode and summary["config"]["idf"] == "uniform"
    mean = summary["fields"]["nash"]
    assert mean["mean"] == pytest.approx(expected.nash.mean()) and mean["low"] <= mean["mean"] <= mean["high"]
    assert "| nash |" in captured.out and "'1.2.3' (pair 4, prediction)" in captured.err
    # Each prediction's figures that the reference does not support: counted, listed with spans, summarised.
    assert rows["unsupported"] == [len(u) for u in expected.unsupported_numbers]
    listed = [json.loads(cell) for cell in rows["unsupported_numbers"]]
    # Cosines to float noise: the file was scored in chunks of 3, `expected` in one batch (docs/corpus.md)
    assert _rounded(listed) == _rounded(json.loads(json.dumps(expected.unsupported_numbers)))
    assert all(PAIRS[k][0][e["start"]:e["end"]] == e["text"] for k, entries in enumerate(listed) for e in entries)
    rate = summary["fields"]["pairs_with_unsupported_numbers"]
    assert rate["mean"] == pytest.approx(np.mean([len(u) > 0 for u in expected.unsupported_numbers]))
    assert summary["fields"]["numeric_support"]["mean"] == pytest.approx(expected.numeric_support.mean())


def test_candidates_and_several_reference_files_keep_the_best(capsys, tmp_path, tiny_model_dir):
    cands, refs1, refs2 = (tmp_path / name for name in ("c.txt", "r1.txt", "r2.txt"))
    cands.write_text("Revenue increased by 4%.\nThe firm hired 250 people.\n")
    refs1.write_text("Revenue increased by 40%.\nThe firm hired 260 people.\n")
    refs2.write_text("Revenue increased by 3.56%.\nThe firm hired 9000 people.\n")
    out_path = tmp_path / "out.jsonl"
    code = main(["score", "--candidates", str(cands), "--references", str(refs1), str(refs2), "--output",
                 str(out_path), "--quiet", *model_args(tiny_model_dir)])
    capsys.readouterr()
    assert code == 0
    rows = read_rows(out_path)
    scorer = NASH(model=str(tiny_model_dir), backend="token", device="cpu")
    first = scorer.score(["Revenue increased by 4%."] * 2, ["Revenue increased by 40%.", "Revenue increased by 3.56%."])
    assert rows["best_reference"][0] == int(np.argmax(first.nash))
    assert rows["nash"][0] == pytest.approx(first.nash.max())


@pytest.mark.parametrize(
    "argv,message",
    [
        (["--pairs", "missing.jsonl"], "no such file"),
        (["A", "B", "--pairs", "x.jsonl"], "not both"),
        (["--candidates", "c.txt"], "--candidates and --references go together"),
        (["A", "B", "--output", "o.jsonl"], "--output applies to files of pairs"),
        ([], "nothing to score"),
        (["--candidates", "c.txt", "--references", "r.txt", "--output", "o.xlsx"], "--output o.xlsx: unsupported"),
    ],
)
def test_file_errors_are_one_clear_line(capsys, tiny_model_dir, argv, message):
    assert main(["score", *argv, *model_args(tiny_model_dir)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_bad_row_is_located(capsys, tmp_path, tiny_model_dir):
    path = tmp_path / "pairs.csv"
    path.write_text('prediction,reference\n"a 1",b 2\n"c 3",d,e\n')
    assert main(["score", "--pairs", str(path), *model_args(tiny_model_dir)]) == 2
    assert "pairs.csv:3: expected 2 fields" in capsys.readouterr().err


def _nash_cli(*argv: str) -> subprocess.CompletedProcess:
    """`nash ARGV` as a subprocess: its warnings reach stderr as a user sees them (pytest records in-process ones)."""
    return subprocess.run([sys.executable, "-m", "nash_metric", *argv], capture_output=True, text=True, timeout=300)


@pytest.mark.slow  # a subprocess that loads a model: ~4.5 s
def test_blank_cell_is_scored_zero_and_named_by_line(tmp_path, tiny_model_dir):
    path = tmp_path / "pairs.csv"
    path.write_text('prediction,reference\n"Revenue rose 4%.",Revenue rose 5%.\n,"Costs fell 2%."\n'
                    '"Costs fell 2%.",  \n')
    out_path = tmp_path / "out.csv"
    done = _nash_cli("score", "--pairs", str(path), "--output", str(out_path), "--quiet", "--threshold", "0",
                     *model_args(tiny_model_dir))
    assert done.returncode == 0, done.stderr
    warned = [line for line in done.stderr.splitlines() if line.startswith("nash: warning:")]
    assert warned == [
        f"nash: warning: {path}:3: blank 'prediction' field, scored 0 as bert-score does",
        f"nash: warning: {path}:4: blank 'reference' field, scored 0 as bert-score does",
        "nash: warning: 2 blank texts (1 prediction, 1 reference) scored 0 on every channel, as bert-score does; "
        "first at pair index 1",  # one for the corpus, not one per chunk
    ], done.stderr
    assert "Traceback" not in done.stderr
    rows = read_rows(out_path)
    assert rows["index"] == [0, 1, 2] and rows["nash"][0] > 0
    for field in public_fields(baseline=False):
        if field not in ("alpha", "numeric_support"):
            assert rows[field][1:] == [0.0, 0.0], field
    assert rows["alpha"][1:] == [1.0, 1.0]


def test_blank_line_of_a_candidates_file_is_kept_and_scored_zero(capsys, tmp_path, tiny_model_dir):
    from nash_metric.common.blank import BlankTextWarning

    cands, refs = tmp_path / "c.txt", tmp_path / "r.txt"
    cands.write_text("Revenue rose 4%.\n\nCosts fell 2%.\n")
    refs.write_text("Revenue rose 5%.\nProfit rose.\nCosts fell 3%.\n")
    out_path = tmp_path / "out.jsonl"
    with pytest.warns(BlankTextWarning) as caught:
        code = main(["score", "--candidates", str(cands), "--references", str(refs), "--output", str(out_path),
                     "--quiet", "--chunk-size", "2", *model_args(tiny_model_dir)])
    capsys.readouterr()
    assert code == 0
    messages = [str(w.message) for w in caught if w.category is BlankTextWarning]
    assert messages == [f"{cands}:2: blank line, scored 0 as bert-score does",
                        "1 blank text (1 prediction, 0 references) scored 0 on every channel, as bert-score does; "
                        "first at pair index 1"]
    rows = read_rows(out_path)
    assert rows["nash"][1] == 0.0 and rows["alpha"][1] == 1.0 and rows["nash"][0] > 0 and rows["nash"][2] > 0


def test_fit_idf_once_then_score_with_it(capsys, tmp_path, tiny_model_dir, pairs_file):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(b for _, b in PAIRS) + "\n")
    idf_path = tmp_path / "idf.json"
    assert main(["fit-idf", "--corpus", str(corpus), "--output", str(idf_path)]) == 0
    saved = json.loads(idf_path.read_text())
    # "...by 3.56%." and "...by 40%." mask alike: one document.
    assert saved["n_documents"] == len(PAIRS) - 1 and saved["numbers"] == "full" and "[NUM]" in saved["df"]
    out_path = tmp_path / "out.jsonl"
    assert main(["score", "--pairs", str(pairs_file), "--output", str(out_path), "--idf", str(idf_path), "--quiet",
                 *model_args(tiny_model_dir)]) == 0
    # The fitted file scores as the references' IDF of this very corpus does, and is named by its digest.
    by_refs = NASH(model=str(tiny_model_dir), backend="token", device="cpu", idf="references").score(*zip(*PAIRS))
    np.testing.assert_allclose(read_rows(out_path)["alpha"], by_refs.alpha, atol=1e-12)
    assert f"idf={saved['digest']}" in capsys.readouterr().out


LAUNCHERS = {
    "torchrun": [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2"],
    # --multi_gpu is accelerate's torch.distributed launcher; without a GPU the ranks run on CPU (gloo).
    "accelerate": [sys.executable, "-m", "accelerate.commands.launch", "--multi_gpu", "--num_processes", "2",
                   "--num_machines", "1", "--mixed_precision", "no", "--dynamo_backend", "no"],
}


@pytest.mark.slow  # two launched processes and one plain one: ~10-20 s
@pytest.mark.parametrize("launcher", sorted(LAUNCHERS))
def test_two_processes_equal_one_process(tmp_path, tiny_model_dir, pairs_file, launcher):
    single, double = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    base = ["-m", "nash_metric", "score", "--pairs", str(pairs_file), "--quiet", "--chunk-size", "2",
            *model_args(tiny_model_dir), "--threshold", "auto", "--summary", str(tmp_path / "summary.json")]
    env = {**os.environ, "OMP_NUM_THREADS": "1", "HF_HUB_OFFLINE": "1"}
    subprocess.run([sys.executable, *base, "--output", str(single)], check=True, env=env, capture_output=True)
    run = subprocess.run([*LAUNCHERS[launcher], *base, "--output", str(double)], env=env, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    one, two = read_rows(single), read_rows(double)
    assert two["index"] == list(range(len(PAIRS))) and list(two) == list(one)
    for column in COLUMNS:
        if column == "unsupported_numbers":  # lists of entries: the same figures, spans and verdicts
            def strip(entries):  # cosines compared to 1e-6 like every score
                assert all(isinstance(row, list) for row in entries)
                return ([[{**e, "cosine": None} for e in row] for row in entries],
                        [e["cosine"] or 0.0 for row in entries for e in row])
            assert strip(two[column])[0] == strip(one[column])[0]
            np.testing.assert_allclose(strip(two[column])[1], strip(one[column])[1], atol=1e-6)
        else:
            np.testing.assert_allclose(two[column], one[column], atol=1e-6, err_msg=column)
    assert run.stdout.count("| nash |") == 1  # rank 0 reports, once
    assert json.loads((tmp_path / "summary.json").read_text())["processes"] == 2


EVALUATE_WORKER = textwrap.dedent(
    """
    import json, sys
    import evaluate
    rank, metric_dir, model, cache, out = sys.argv[1:]
    pairs = json.loads(sys.stdin.read())
    metric = evaluate.load(metric_dir, num_process=2, process_id=int(rank), experiment_id="nash-test",
                           cache_dir=cache)
    mine = pairs[int(rank)::2]
    metric.add_batch(predictions=[a for a, _ in mine], references=[b for _, b in mine])
    result = metric.compute(model_type=model, backend="token", device="cpu")
    json.dump(result, open(out, "w"))
    """
)


@pytest.mark.slow  # two evaluate worker processes: ~20 s
def test_evaluate_distributed_mode_equals_one_process(tmp_path, tiny_model_dir, data_paths):
    env = {**os.environ, "OMP_NUM_THREADS": "1", "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    procs = [
        subprocess.Popen([sys.executable, "-c", EVALUATE_WORKER, str(rank), str(data_paths.metric_dir),
                          str(tiny_model_dir), str(tmp_path / "cache"), str(tmp_path / f"r{rank}.json")],
                         stdin=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
        for rank in (0, 1)
    ]
    for proc in procs:
        proc.stdin.write(json.dumps(PAIRS))
        proc.stdin.close()
    for proc in procs:
        assert proc.wait(timeout=300) == 0, proc.stderr.read()[-3000:]
    main_result = json.loads((tmp_path / "r0.json").read_text())
    assert json.loads((tmp_path / "r1.json").read_text()) is None
    # evaluate gathers process 0's examples, then process 1's.
    order = [*PAIRS[0::2], *PAIRS[1::2]]
    expected = NASH(model=str(tiny_model_dir), backend="token", device="cpu").score(*zip(*order))
    np.testing.assert_allclose(main_result["nash"], expected.nash, atol=1e-6)
    assert main_result["hashcode"] == expected.hashcode


# -- outputs checked before the model loads ------------------------------------------------------------------


@pytest.fixture
def no_model(monkeypatch):
    """`nash score` must not build a scorer: one that tries fails the test."""
    import nash_metric.cli.score as score_cli

    built: list[str] = []

    def refuse(*args, **kwargs):
        built.append("scorer")
        raise AssertionError("the scorer was built before the outputs were checked")

    monkeypatch.setattr(score_cli, "scorer_from_args", refuse)
    return built


@pytest.mark.parametrize("flag,path,why", [
    ("--output", "/proc/nash_x/y.jsonl", "the folder '/proc/nash_x' does not exist"),
    ("--output", "/proc/nash_o.jsonl", "No such file or directory"),  # /proc takes no new file, even as root
    ("--summary", "/proc/nash_x.json", "No such file or directory"),
    ("--summary", "/sys/nash_x.json", "Permission denied"),
    ("--output", "DIR", "it is a folder"),
    ("--output", "FILE/x.jsonl", "is not a folder"),
])
def test_unwritable_outputs_fail_before_the_model_loads(capsys, tmp_path, pairs_file, no_model, flag, path, why):
    (tmp_path / "folder.jsonl").mkdir()
    path = path.replace("DIR", str(tmp_path / "folder.jsonl")).replace("FILE", str(pairs_file))
    other = ["--summary", str(tmp_path / "s.json")] if flag == "--output" else ["--output", str(tmp_path / "o.jsonl")]
    assert main(["score", "--pairs", str(pairs_file), flag, path, *other, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"nash: error: {flag} {path}: cannot write there: ") and why in err, err
    assert no_model == [] and not (tmp_path / "o.jsonl").exists() and not (tmp_path / "s.json").exists()


def test_output_checks_leave_files_as_they_were(capsys, tmp_path, pairs_file, no_model):
    before = sorted(p.name for p in tmp_path.iterdir())
    kept = tmp_path / "old.jsonl"
    kept.write_text("an earlier run\n")
    # The output exists and is writable (not truncated by its check); the summary cannot be written.
    assert main(["score", "--pairs", str(pairs_file), "--output", str(kept), "--summary", "/proc/nash_s.json"]) == 2
    assert "--summary /proc/nash_s.json: cannot write there" in capsys.readouterr().err
    assert kept.read_text() == "an earlier run\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*before, "old.jsonl"])  # no probe left behind
    # An output that is an input, or the summary that is the output, would be overwritten.
    assert main(["score", "--pairs", str(pairs_file), "--output", str(pairs_file)]) == 2
    assert f"--output {pairs_file} is also --pairs: it would be overwritten" in capsys.readouterr().err
    assert main(["score", "--pairs", str(pairs_file), "--output", str(kept), "--summary", str(kept)]) == 2
    assert f"--summary {kept} is also --output" in capsys.readouterr().err
    refs = [tmp_path / "r1.txt", tmp_path / "r2.csv"]  # one text a line, whatever the suffix
    for path in (tmp_path / "c.txt", *refs):
        path.write_text("Revenue rose 4%.\n")
    assert main(["score", "--candidates", str(tmp_path / "c.txt"), "--references", *map(str, refs), "--output",
                 str(refs[1])]) == 2
    assert f"--output {refs[1]} is also --references" in capsys.readouterr().err
    assert refs[1].read_text() == "Revenue rose 4%.\n"
    assert main(["score", "--pairs", str(pairs_file), "--output", str(tmp_path / "o.xlsx")]) == 2
    assert "--output " + str(tmp_path / "o.xlsx") + ": unsupported format; use one of .jsonl" in capsys.readouterr().err
    assert no_model == [] and kept.read_text() == "an earlier run\n"


def test_only_rank_0_checks_the_outputs(capsys, tmp_path, pairs_file, monkeypatch):
    from nash_metric.cli.score import check_outputs

    args = build_args(["score", "--pairs", str(pairs_file), "--output", "/proc/nash_x/y.jsonl"])
    monkeypatch.setenv("WORLD_SIZE", "2")
    monkeypatch.setenv("RANK", "1")
    check_outputs(args)  # rank 1 writes nothing: another node may not even see rank 0's folder
    monkeypatch.setenv("RANK", "0")
    with pytest.raises(ValueError, match=r"--output /proc/nash_x/y\.jsonl: cannot write there"):
        check_outputs(args)


def build_args(argv):
    from nash_metric.cli import build_parser

    return build_parser().parse_args(argv)


# -- rows: unsupported_numbers as lists ----------------------------------------------------------------------

ENTRY_KEYS = ["text", "start", "end", "value", "verdict", "found", "reference", "cosine", "basis", "derivation",
              "operands", "role"]


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_unsupported_numbers_are_lists_of_entries(capsys, tmp_path, tiny_model_dir, pairs_file, suffix):
    out_path = tmp_path / f"out{suffix}"
    assert main(["score", "--pairs", str(pairs_file), "--output", str(out_path), "--chunk-size", "3", "--quiet",
                 "--threshold", "0", *model_args(tiny_model_dir)]) == 0
    capsys.readouterr()
    expected = NASH(model=str(tiny_model_dir), backend="token", device="cpu", threshold=0).score(*zip(*PAIRS))
    rows = read_rows(out_path)
    listed = rows["unsupported_numbers"]
    assert all(isinstance(row, list) for row in listed) and any(listed)
    assert all(list(entry) == ENTRY_KEYS for row in listed for entry in row)
    assert [[{**e, "cosine": None} for e in row] for row in listed] == \
        [[{**e, "cosine": None} for e in row] for row in expected.unsupported_numbers]
    np.testing.assert_allclose([e["cosine"] or 0 for row in listed for e in row],
                               [e["cosine"] or 0 for row in expected.unsupported_numbers for e in row], atol=1e-6)
    if suffix == ".jsonl":
        first = json.loads(out_path.read_text().splitlines()[0])
        assert isinstance(first["unsupported_numbers"], list)  # not a JSON string inside the JSON object
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        kind = pq.read_schema(out_path).field("unsupported_numbers").type
        assert pa.types.is_list(kind) and pa.types.is_struct(kind.value_type)
        assert [kind.value_type.field(k).name for k in range(kind.value_type.num_fields)] == ENTRY_KEYS
        assert pa.types.is_struct(kind.value_type.field("found").type)
        operands = kind.value_type.field("operands").type
        assert pa.types.is_list(operands) and operands.value_type == kind.value_type.field("found").type


# -- the summary counts empty predictions --------------------------------------------------------------------


def test_summary_counts_empty_predictions(capsys, tmp_path, tiny_model_dir):
    from nash_metric.common.blank import BlankTextWarning

    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps({"prediction": a, "reference": b}) + "\n" for a, b in
                            [*PAIRS[:3], ("", "Revenue rose 4%."), ("  ", "Costs fell 2%.")]))
    with pytest.warns(BlankTextWarning):
        code = main(["score", "--pairs", str(path), "--summary", str(tmp_path / "s.json"), "--quiet",
                     *model_args(tiny_model_dir)])
    out = capsys.readouterr().out
    assert code == 0
    summary = json.loads((tmp_path / "s.json").read_text())
    assert summary["empty_predictions"] == 2 and summary["fields"]["numeric_support"]["empty_predictions"] == 2
    assert "| numeric_support (2 empty predictions at 1.0) |" in out and "empty predictions: 2" in out


# -- progress per encoded batch ------------------------------------------------------------------------------


def _recording_tqdm(module, monkeypatch) -> list[int]:
    """Patch `module.tqdm` with a bar that records every update."""
    updates: list[int] = []

    class Recorder(module.tqdm):
        def update(self, n=1):
            updates.append(n)
            return super().update(n)

    monkeypatch.setattr(module, "tqdm", Recorder)
    return updates


@pytest.mark.parametrize("several_references", [False, True])
def test_the_corpus_bar_moves_per_batch_and_scores_stay_the_same(tmp_path, tiny_model_dir, monkeypatch,
                                                                  several_references):
    from nash_metric.corpus import scoring
    from nash_metric.corpus.pair_files import open_pairs

    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps({"prediction": a, "reference": [b, a] if several_references else b}) + "\n"
                            for a, b in PAIRS))
    scorer = NASH(model=str(tiny_model_dir), backend="token", device="cpu", chunk_size=4, batch_size=2)
    quiet, shown = tmp_path / "quiet.jsonl", tmp_path / "shown.jsonl"
    scoring.score_corpus(scorer, open_pairs(path, "prediction", "reference"), quiet, show_progress=False)
    updates = _recording_tqdm(scoring, monkeypatch)
    scoring.score_corpus(scorer, open_pairs(path, "prediction", "reference"), shown, show_progress=True)
    chunks = -(-len(PAIRS) // 4)
    assert sum(updates) == len(PAIRS) and all(n > 0 for n in updates)  # ends at the rows, never back
    assert len(updates) > 2 * chunks, updates  # several moves a chunk: one per encoded batch
    assert quiet.read_bytes() == shown.read_bytes()  # scores bit for bit as without a bar


def test_the_score_bar_moves_per_batch(tiny_model_dir, monkeypatch):
    from nash_metric.pipeline import steps

    scorer = NASH(model=str(tiny_model_dir), backend="token", device="cpu", chunk_size=4, batch_size=2)
    quiet = scorer.score(*zip(*PAIRS))
    updates = _recording_tqdm(steps, monkeypatch)
    shown = scorer.score(*zip(*PAIRS), show_progress=True)
    assert sum(updates) == len(PAIRS) and len(updates) > 2 * 2 and all(n > 0 for n in updates)
    assert shown.nash.tobytes() == quiet.nash.tobytes()


# -- messages name the command line's flags ------------------------------------------------------------------


def test_the_latin1_warning_names_the_flag_on_the_command_line(capsys, tmp_path, tiny_model_dir, monkeypatch):
    import warnings

    from nash_metric.corpus.pair_files import open_pairs

    path = tmp_path / "pairs.csv"
    path.write_bytes("prediction,reference\nCafé rose 4%.,Café rose 5%.\n".encode("latin-1"))
    with pytest.warns(UnicodeWarning, match="pass encoding= to choose another"):  # the API names its keyword
        open_pairs(path, "prediction", "reference")
    shown: list[str] = []
    monkeypatch.setattr(warnings, "showwarning", lambda message, category, *rest, **kw: shown.append(
        warnings.formatwarning(message, category, *rest)))
    assert main(["score", "--pairs", str(path), "--quiet", *model_args(tiny_model_dir)]) == 0
    capsys.readouterr()
    latin = [line for line in shown if "Latin-1" in line]
    assert latin and "pass --encoding to choose another" in latin[0] and "encoding=" not in latin[0], shown
    assert main(["score", "--pairs", str(path), "--encoding", "no-such-codec", *model_args(tiny_model_dir)]) == 2
    assert "unknown encoding 'no-such-codec'; give --encoding a codec name" in capsys.readouterr().err


def test_keyword_hints_become_the_commands_flags():
    from nash_metric.cli.running import as_flags

    parser = build_args(["score", "a", "b"]).command_parser
    assert as_flags("pass encoding= to choose another", parser) == "pass --encoding to choose another"
    assert as_flags("(pass prediction_column=/reference_column=)", parser) == \
        "(pass --prediction-column/--reference-column)"
    assert as_flags("pass column= or threshold='auto' (a=b)", parser) == "pass column= or threshold='auto' (a=b)"
    assert as_flags("chunk_size= and batch_size=.", parser) == "--chunk-size and --batch-size."
    assert as_flags("pass encoding=", None) == "pass encoding="
