"""`nash bench rotowire | quintd | tabfact` (`benchmarks/data_to_text/`): the readers and their errors, tokens located
in a detokenised text, labels by overlap, the metrics against hand computation, the tables; on tiny folders this file
writes and a fake scorer. The last test runs each benchmark on ../shared/data with the real model (slow)."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from nash_metric.benchmarks import registry
from nash_metric.benchmarks.data_to_text import boxscore, defaults, quintd, rotowire, scoring, spans, tabfact
from nash_metric.benchmarks.data_to_text.evaluation import evaluate_quintd, evaluate_rotowire, evaluate_tabfact
from nash_metric.benchmarks.data_to_text.report import quintd_markdown, rotowire_markdown, tabfact_markdown
from nash_metric.common.io import InputFileError
from nash_metric.verdicts.spec import SUPPORTED, SUPPORTING, UNSUPPORTED

# -- fixtures written here ------------------------------------------------------------------------------------

TOKENIZED = "The Celtics ( 32 - 18 ) beat the Lakers 113 - 107 . DJ Augustin scored six points ."
DETOKENIZED = "The Celtics (32-18) beat the Lakers 113-107. DJ. Augustin scored six points."
# tokens (1-based): The 1, Celtics 2, ( 3, 32 4, - 5, 18 6, ) 7, beat 8, the 9, Lakers 10, 113 11, - 12, 107 13,
# . 14, DJ 15, Augustin 16, scored 17, six 18, points 19, . 20
GOLD = [("S001.txt", "18", 6, 6, "NUMBER"), ("S001.txt", "Lakers", 10, 10, "NAME"),
        ("S001.txt", "six", 18, 18, "NUMBER"), ("S002.txt", "9", 4, 4, "NUMBER")]
GAMES_HEADER = ["TEXT_ID", "HOME_NAME", "VIS_NAME", "GENERATED_TEXT", "DETOKENIZED_GENERATED_TEXT"]
GSML_HEADER = ["TEXT_ID", "SENTENCE_ID", "TOKENS", "DOC_TOKEN_START", "DOC_TOKEN_END", "TYPE", "CORRECTION"]


def _line(city: str, name: str, points: str) -> dict[str, str]:
    keys = dict.fromkeys((key for _, key in boxscore.TEAM_COLUMNS), "10")
    return {**keys, "TEAM-CITY": city, "TEAM-NAME": name, "TEAM-PTS": points, "TEAM-WINS": "32", "TEAM-LOSSES": "18"}


def game_record(text_id: str) -> dict:
    players = {"0": ("Isaiah Thomas", "Boston", "38", "29"), "1": ("Lou Williams", "Los Angeles", "23", "21"),
               "2": ("Jordan Mickey", "Boston", "N/A", "N/A")}
    box = {key: {i: "N/A" if p[2] == "N/A" else "4" for i, p in players.items()} for _, key in boxscore.PLAYER_COLUMNS}
    box["PLAYER_NAME"] = {i: p[0] for i, p in players.items()}
    box["TEAM_CITY"] = {i: p[1] for i, p in players.items()}
    box["MIN"] = {i: p[2] for i, p in players.items()}
    box["PTS"] = {i: p[3] for i, p in players.items()}
    return {"shared_task_text_id": text_id, "home_line": _line("Boston", "Celtics", "113"),
            "vis_line": _line("Los Angeles", "Lakers", "107"), "box_score": box}


def _csv(path: Path, header: list[str], rows: list[list]) -> None:
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n")
    writer.writerows([header, *rows])
    path.write_text(out.getvalue(), encoding="utf-8")


def write_rotowire(folder: Path, gold: list[tuple] = GOLD) -> Path:
    (folder / "texts").mkdir(parents=True)
    second = "Lou Williams scored 9 points ."
    games = [["S001", "Celtics", "Lakers", TOKENIZED, DETOKENIZED],
             ["S002", "Celtics", "Lakers", second, "Lou Williams netted 9 points."]]  # a changed word: no alignment
    _csv(folder / "games.csv", GAMES_HEADER, games)
    for text_id, tokenized, *_ in (row[0:1] + row[3:] for row in games):
        (folder / "texts" / f"{text_id}.txt").write_text(tokenized + "\n", encoding="utf-8")
    _csv(folder / "gsml.csv", GSML_HEADER, [[t, 1, tok, a, b, kind, ""] for t, tok, a, b, kind in gold])
    (folder / "shared_task.jsonl").write_text("".join(json.dumps(game_record(t)) + "\n" for t in ("S001", "S002")),
                                              encoding="utf-8")
    return folder


PROMPT = "Based on the given data:\n```\n{'name': 'X1', 'weight': '205 g', 'battery': 5000}\n```\nWrite a text."


def write_quintd(folder: Path, extra_record: dict | None = None) -> Path:
    for domain, outputs in (("gsmarena", [(PROMPT, "The X1 weighs 205 g and has a 6000 mAh battery."),
                                          (PROMPT, "The X1 has a 5000 mAh battery.")]),
                            ("wikidata", [("Based on:\n```\nX1\n---\n- inception: 2001\n```", "X1 began in 2001.")])):
        (folder / "outputs" / domain).mkdir(parents=True)
        payload = {"dataset": domain, "model": "m1", "generated": [{"in": i, "out": o} for i, o in outputs]}
        (folder / "outputs" / domain / "m1.json").write_text(json.dumps(payload), encoding="utf-8")
    (folder / "annotations" / "human").mkdir(parents=True)
    text = "The X1 weighs 205 g and has a 6000 mAh battery."
    first = {"dataset": "gsmarena", "model": "m1", "table_idx": 0, "annotations": [
        {"type": 0, "text": "6000 mAh", "start": text.index("6000")},
        {"type": 1, "text": "The X1", "start": 0}]}
    second = {"dataset": "gsmarena", "model": "m1", "table_idx": 0, "annotations": [
        {"type": 0, "text": "205 g", "start": text.index("205")}]}
    third = {"dataset": "wikidata", "model": "m1", "table_idx": 0, "annotations": []}
    records = [first, third] + ([extra_record] if extra_record else [])
    (folder / "annotations" / "human" / "a.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records),
                                                              encoding="utf-8")
    (folder / "annotations" / "human" / "b.jsonl").write_text(json.dumps(second) + "\n", encoding="utf-8")
    return folder


TABLE = "player#points#team\r\nann#12#blue\r\nbo|b#7#red\r\n"


def write_tabfact(folder: Path, records: list[dict] | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    records = records or [{"table_file": "1.csv", "table": TABLE, "entailed": "ann scored 12 points",
                           "refuted": "ann scored 13 points"},
                          {"table_file": "2.csv", "table": "a#b\nx#1\n", "entailed": "x has 1", "refuted": "x has 2"}]
    (folder / "pairs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return folder


class FakeScorer:
    """Every digit run (with thousands commas and decimals) is a figure: supported when the source holds the same
    digits, else unsupported. Records the calls it gets."""

    hashcode = "fake-hashcode"

    def __init__(self) -> None:
        self.echo = {"model": "fake", "backend": "none"}
        self.calls: list[int] = []

    def score(self, predictions, references, show_progress=False):
        self.calls.append(len(predictions))
        figures = []
        for p, r in zip(predictions, references):
            stated = set(re.findall(r"\d[\d,]*(?:\.\d+)?", r))
            figures.append([{"text": m.group(), "start": m.start(), "end": m.end(),
                             "verdict": SUPPORTED if m.group() in stated else UNSUPPORTED}
                            for m in re.finditer(r"\d[\d,]*(?:\.\d+)?", p)])
        return SimpleNamespace(figure_verdicts=figures, config={"threshold": None})


@pytest.fixture
def fake():
    return FakeScorer()


# -- spans ----------------------------------------------------------------------------------------------------


def test_tokens_are_found_in_the_detokenised_text_with_a_stray_full_stop():
    tokens = TOKENIZED.split()
    found = spans.locate_tokens(tokens, DETOKENIZED)
    assert found.failure is None and found.skipped == 1  # the "." of "DJ."
    assert [DETOKENIZED[a:b] for a, b in found.spans] == tokens
    assert spans.token_range(found.spans, 3, 5) == (DETOKENIZED.index("32"), DETOKENIZED.index("18") + 2)


@pytest.mark.parametrize("text, why", [("The Celtics (32-18) beat the Heat 113-107.", "token 10 'Lakers'"),
                                       ("The Celtics (32-18) beat the Lakers 113-107. DJ Augustin scored six "
                                        "points. And more", "text left after the last token")])
def test_a_changed_or_extra_word_fails_the_alignment(text, why):
    found = spans.locate_tokens(TOKENIZED.split(), text)
    assert found.spans is None and why in found.failure


def test_token_spans_and_overlap():
    assert spans.token_spans("a  bb c") == [(0, 1), (3, 5), (6, 7)]
    assert spans.overlaps((0, 2), (1, 3)) and not spans.overlaps((0, 2), (2, 4))
    assert spans.overlaps_any((5, 6), [(0, 1), (5, 9)]) and not spans.overlaps_any((5, 6), [])


# -- Rotowire -------------------------------------------------------------------------------------------------


def test_rotowire_reads_games_gold_errors_and_records(tmp_path):
    info, games = rotowire.read_rotowire(write_rotowire(tmp_path / "rw"))
    assert [g.text_id for g in games] == ["S001", "S002"] and info["texts_used"] == 2
    assert info["errors_by_type"] == {"NUMBER": 3, "NAME": 1} and set(info["sha256"]) == {
        "games.csv", "shared_task.jsonl", "gsml.csv"}
    first = games[0]
    assert first.tokenized == TOKENIZED and first.detokenized == DETOKENIZED
    assert [(e.tokens, e.first, e.line) for e in first.wrong_errors] == [("18", 6, 2), ("six", 18, 4)]
    assert rotowire.read_rotowire(tmp_path / "rw", limit=1)[1] == games[:1]


def test_rotowire_number_errors_become_spans_of_the_detokenised_text_else_the_tokenised(tmp_path):
    _, games = rotowire.read_rotowire(write_rotowire(tmp_path / "rw"))
    texts, info = rotowire.rotowire_texts(games)
    assert [DETOKENIZED[a:b] for a, b in texts[0].wrong] == ["18", "six"] and texts[0].prediction == DETOKENIZED
    assert texts[1].prediction == "Lou Williams scored 9 points ."  # S002's detokenised text changed a word
    assert [texts[1].prediction[a:b] for a, b in texts[1].wrong] == ["9"]
    assert info["texts_by_form"] == {"detokenized": 1, "tokenized": 1} and "S002" in info["fallbacks"]
    assert info["skipped_characters"] == 1 and info["number_errors"] == 3 and info["number_errors_spelled_out"] == 1
    tokenized, _ = rotowire.rotowire_texts(games, form="tokenized")
    assert [TOKENIZED[a:b] for a, b in tokenized[0].wrong] == ["18", "six"]


@pytest.mark.parametrize("change, message", [
    (lambda f: _csv(f / "gsml.csv", GSML_HEADER, [["S001.txt", 1, "19", 6, 6, "NUMBER", ""]]),
     r"gsml\.csv:2: field 'TOKENS' '19' is not tokens 6\.\.6 of S001: '18'"),
    (lambda f: _csv(f / "gsml.csv", GSML_HEADER, [["S001.txt", 1, "18", "six", 6, "NUMBER", ""]]),
     r"gsml\.csv:2: field 'DOC_TOKEN_START' must be a token index"),
    (lambda f: _csv(f / "gsml.csv", GSML_HEADER, [["S001.txt", 1, "18", 6, 99, "NUMBER", ""]]),
     r"gsml\.csv:2: tokens 6\.\.99 are not within the 20 tokens of S001"),
    (lambda f: _csv(f / "gsml.csv", GSML_HEADER, [["S009.txt", 1, "18", 6, 6, "NUMBER", ""]]),
     r"gsml\.csv:2: field 'TEXT_ID': 'S009.txt' is no text of games\.csv"),
    (lambda f: _csv(f / "games.csv", GAMES_HEADER[:-1], [["S001", "a", "b", TOKENIZED]]),
     r"games\.csv:1: missing column\(s\) DETOKENIZED_GENERATED_TEXT"),
    (lambda f: (f / "shared_task.jsonl").write_text(json.dumps(game_record("S001")) + "\n", encoding="utf-8"),
     r"games\.csv:3: S002: no record in shared_task\.jsonl"),
    (lambda f: (f / "shared_task.jsonl").write_text(
        json.dumps({**game_record("S001"), "home_line": {"TEAM-NAME": "Celtics"}}) + "\n", encoding="utf-8"),
     r"shared_task\.jsonl:1: field 'home_line' has no 'TEAM-CITY'"),
    (lambda f: (f / "shared_task.jsonl").write_text("{not json\n", encoding="utf-8"),
     r"shared_task\.jsonl:1: invalid JSON"),
])
def test_rotowire_malformed_files_fail_at_their_line(tmp_path, change, message):
    folder = write_rotowire(tmp_path / "rw")
    change(folder)
    with pytest.raises(InputFileError, match=message):
        rotowire.read_rotowire(folder)


def test_the_box_score_as_two_tables_with_readable_headers():
    source = boxscore.render_box_score(game_record("S001"), "tables")
    lines = source.splitlines()
    assert lines[0] == "Team totals" and lines[2].startswith("| Team | City | Wins | Losses | Points | 1st quarter")
    assert lines[4].startswith("| Celtics | Boston | 32 | 18 | 113 |")  # the home team first
    players = lines[lines.index("Players") + 2:]
    assert players[0].startswith("| Player | Team | Minutes | Points | Field goals made | Field goals attempted |")
    assert players[2].startswith("| Isaiah Thomas | Boston Celtics | 38 | 29 |")
    assert players[3].startswith("| Jordan Mickey | Boston Celtics | N/A | N/A |")  # did not play: N/A throughout
    assert players[4].startswith("| Lou Williams | Los Angeles Lakers | 23 | 21 |")  # the visitors after
    assert players[1] == "|" + "|".join(["---"] * len(boxscore.PLAYER_COLUMNS)) + "|"
    assert all(len(row.split(" | ")) == len(boxscore.PLAYER_COLUMNS) for row in players[:1] + players[2:])


def test_the_box_score_as_json_and_a_bad_render():
    record = game_record("S001")
    assert json.loads(boxscore.render_box_score(record, "json")) == {k: record[k] for k in ("home_line", "vis_line",
                                                                                           "box_score")}
    with pytest.raises(ValueError, match="render must be one of tables, json"):
        boxscore.render_box_score(record, "html")


# -- quintd ---------------------------------------------------------------------------------------------------


def test_quintd_reads_annotated_outputs_and_unions_the_wrong_spans(tmp_path):
    info, outputs = quintd.read_quintd(write_quintd(tmp_path / "q"))
    assert [(o.domain, o.model, o.index, o.records) for o in outputs] == [("gsmarena", "m1", 0, 2),
                                                                           ("wikidata", "m1", 0, 1)]
    text = outputs[0].text
    # both records' spans, Incorrect and Not checkable; Incorrect alone when asked
    assert [text[a:b] for a, b in outputs[0].wrong] == ["The X1", "205 g", "6000 mAh"]
    _, incorrect = quintd.read_quintd(tmp_path / "q", wrong=("incorrect",))
    assert [text[a:b] for a, b in incorrect[0].wrong] == ["205 g", "6000 mAh"]
    assert info["wrong_span_types"] == ["incorrect", "not-checkable"]
    with pytest.raises(ValueError, match="wrong must name one or more of incorrect, not-checkable, misleading"):
        quintd.read_quintd(tmp_path / "q", wrong=("wrong",))
    assert outputs[1].wrong == () and info["annotated_outputs"] == 2 and info["outputs"] == 3
    assert info["outputs_with_several_records"] == 1
    texts = quintd.quintd_texts(outputs)
    assert texts[0].source == PROMPT and texts[0].group == "gsmarena" and texts[0].id == "gsmarena/m1/0"
    extra = {"dataset": "gsmarena", "model": "m1", "table_idx": 1, "annotations": []}
    _, limited = quintd.read_quintd(write_quintd(tmp_path / "q2", extra), limit=1)
    assert [(o.domain, o.index) for o in limited] == [("gsmarena", 0), ("wikidata", 0)]  # first N per domain


@pytest.mark.parametrize("record, message", [
    ({"dataset": "gsmarena", "model": "m1", "table_idx": 1,
      "annotations": [{"type": 0, "text": "6000", "start": 0}]},
     r"a\.jsonl:3: annotations\[0\]: field 'text' '6000' is not the output's text at start 0"),
    ({"dataset": "gsmarena", "model": "m1", "table_idx": 7, "annotations": []},
     r"a\.jsonl:3: field 'table_idx' 7 is outside the 2 outputs of gsmarena/m1"),
    ({"dataset": "gsmarena", "model": "m9", "table_idx": 0, "annotations": []},
     r"a\.jsonl:3: no outputs for dataset 'gsmarena', model 'm9'"),
    ({"dataset": "gsmarena", "model": "m1", "table_idx": 0, "annotations": [{"type": "0", "text": "x", "start": 0}]},
     r"a\.jsonl:3: annotations\[0\]: field 'type' must be an integer"),
    ({"model": "m1", "table_idx": 0, "annotations": []}, r"a\.jsonl:3: missing field 'dataset'"),
])
def test_quintd_malformed_annotations_fail_at_their_line(tmp_path, record, message):
    with pytest.raises(InputFileError, match=message):
        quintd.read_quintd(write_quintd(tmp_path / "q", record))


def test_quintd_malformed_outputs_fail_naming_the_file(tmp_path):
    folder = write_quintd(tmp_path / "q")
    (folder / "outputs" / "wikidata" / "m1.json").write_text('{"generated": [{"in": "x"}]}', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"wikidata/m1\.json: generated\[0\]: field 'out' must be a string"):
        quintd.read_quintd(folder)
    (folder / "outputs" / "wikidata" / "m1.json").write_text('{"generated": [\n', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"m1\.json:2: not valid JSON"):
        quintd.read_quintd(folder)


# -- TabFact --------------------------------------------------------------------------------------------------


def test_tabfact_tables_become_markdown_and_each_pair_two_claims(tmp_path):
    assert tabfact.markdown_table(TABLE) == ("| player | points | team |\n|---|---|---|\n| ann | 12 | blue |\n"
                                             "| bo\\|b | 7 | red |\n")
    info, pairs = tabfact.read_tabfact(write_tabfact(tmp_path / "t"))
    assert info["pairs_in_file"] == 2 and [p.line for p in pairs] == [1, 2]
    texts = tabfact.tabfact_texts(pairs)
    assert [(t.prediction, t.label) for t in texts[:2]] == [("ann scored 12 points", 1), ("ann scored 13 points", 0)]
    assert texts[0].source == texts[1].source == tabfact.markdown_table(TABLE)
    assert tabfact.read_tabfact(tmp_path / "t" / "pairs.jsonl", limit=1)[1] == pairs[:1]


@pytest.mark.parametrize("record, message", [
    ({"table_file": "1.csv", "table": TABLE, "entailed": "a 1"}, r"pairs\.jsonl:2: missing field 'refuted'"),
    ({"table_file": "1.csv", "table": "a#b\r\n", "entailed": "a 1", "refuted": "a 2"},
     r"pairs\.jsonl:2: field 'table' must hold a header line and at least one row"),
    ({"table_file": "1.csv", "table": TABLE, "entailed": "a 1", "refuted": 2},
     r"pairs\.jsonl:2: field 'refuted' must be a string"),
])
def test_tabfact_malformed_lines_fail_at_their_line(tmp_path, record, message):
    good = {"table_file": "0.csv", "table": TABLE, "entailed": "ann 12", "refuted": "ann 13"}
    with pytest.raises(InputFileError, match=message):
        tabfact.read_tabfact(write_tabfact(tmp_path / "t", [good, record]))


# -- metrics, by hand -----------------------------------------------------------------------------------------


def _figure(text, start, end, flagged, value_flagged, wrong):
    return scoring.Figure(text, start, end, "9", UNSUPPORTED if flagged else SUPPORTED, flagged, value_flagged, wrong)


def hand_scored() -> scoring.Scored:
    """Text 0: wrong span (0, 2); text 1: wrong spans (0, 3), (20, 25); text 2: no figure; text 3: one right figure.
    Figures (text, span, verdict flags, V flags, wrong): A (0, 0-2, yes, no, wrong), B (0, 5-7, yes, no, right),
    C (0, 10-12, no, yes, right), D (1, 0-1, no, yes, wrong), E (1, 1-3, yes, no, wrong), F (1, 8-9, no, no, right),
    G (3, 0-1, no, no, right)."""
    texts = (scoring.Text("t0", "a", "x", "y", ((0, 2),)), scoring.Text("t1", "a", "x", "y", ((0, 3), (20, 25))),
             scoring.Text("t2", "b", "x", "y"), scoring.Text("t3", "b", "x", "y"))
    figures = (_figure(0, 0, 2, True, False, True), _figure(0, 5, 7, True, False, False),
               _figure(0, 10, 12, False, True, False), _figure(1, 0, 1, False, True, True),
               _figure(1, 1, 3, True, False, True), _figure(1, 8, 9, False, False, False),
               _figure(3, 0, 1, False, False, False))
    return scoring.Scored(texts, figures, np.array([True, False, True, False]), {})


def test_the_figure_unit_by_hand():
    cell = scoring.figure_cell(hand_scored().figures)
    assert (cell["right"], cell["wrong"]) == (4, 3)
    # verdict: right flagged B of B, C, F, G; wrong flagged A, E of A, D, E
    assert cell["verdict"] == pytest.approx({"flagged_right": 1 / 4, "recall_wrong": 2 / 3,
                                             "ba": (2 / 3 + 3 / 4) / 2})
    # V: right flagged C; wrong flagged D
    assert cell["value_anywhere"] == pytest.approx({"flagged_right": 1 / 4, "recall_wrong": 1 / 3,
                                                    "ba": (1 / 3 + 3 / 4) / 2})
    assert cell["verdicts_right"] == {SUPPORTED: 3, UNSUPPORTED: 1} and cell["verdicts_wrong"] == {SUPPORTED: 1,
                                                                                                   UNSUPPORTED: 2}


def test_the_text_unit_and_the_spans_by_hand():
    scored = hand_scored()
    assert scoring.text_labels(scored).tolist() == [0, 0, -1, 1]
    cell = scoring.text_cell(scored, np.ones(4, bool))
    assert (cell["right"], cell["wrong"], cell["without_figures"], cell["left_out"]) == (1, 2, 1, 1)
    assert cell["verdict"] == {"flagged_right": 0.0, "recall_wrong": 1.0, "ba": 1.0}  # t0 (A, B), t1 (E) flagged
    assert cell["value_anywhere"] == {"flagged_right": 0.0, "recall_wrong": 0.5, "ba": 0.75}  # t0 only
    found = scoring.span_cell(scored, np.ones(4, bool))
    assert (found["spans"], found["spans_with_a_figure"]) == (3, 2)  # (20, 25) of t1 has no figure
    assert found["verdict"] == pytest.approx({"flagged_figures": 3, "spans_found": 2, "flags_on_wrong": 2,
                                              "recall": 2 / 3, "precision": 2 / 3})
    assert found["value_anywhere"] == pytest.approx({"flagged_figures": 2, "spans_found": 1, "flags_on_wrong": 1,
                                                     "recall": 1 / 3, "precision": 1 / 2})
    tables = scoring.group_tables(scored)
    assert list(tables) == ["a", "b", scoring.ALL] and tables["b"]["texts"]["right"] == 1
    assert tables["a"]["figures"]["wrong"] == 3 and tables["b"]["spans"]["spans"] == 0


def test_a_missing_class_gives_no_ba():
    assert scoring.rates(np.array([True, True]), np.array([True, False])) == {
        "ba": None, "flagged_right": None, "recall_wrong": 0.5}
    assert set(SUPPORTING) >= {SUPPORTED}


def test_scoring_calls_the_scorer_once_and_checks_each_figure_by_value(fake):
    texts = [scoring.Text("a", "", "1. Sales were 1,146.2 and 7.50 and 9.", "1146.2 and 7.5"),
             scoring.Text("b", "", "Up 9.", "1146.2 and 7.5", ((3, 4),)),
             scoring.Text("c", "", "Up 9.", "1146.2 and 7.5")]  # the same pair as b: scored once
    scored = scoring.score_texts(fake, texts, show_progress=False)
    assert fake.calls == [2] and scored.info["distinct_pairs"] == 2 and scored.info["figures"] == 6
    first = [(f.figure, f.flagged, f.value_flagged) for f in scored.figures if f.text == 0]
    # "1." is a list label: no digit string to look up; "1,146.2" is 1146.2, "7.50" is 7.5
    assert first == [("1", True, False), ("1,146.2", True, False), ("7.50", True, False), ("9", True, True)]
    assert [f.wrong for f in scored.figures if f.text == 1] == [True]
    assert scored.value_flagged.tolist() == [True, True, True]


def test_a_scorer_without_figure_verdicts_is_refused():
    class Bare(FakeScorer):
        def score(self, predictions, references, show_progress=False):
            return SimpleNamespace(config={})

    with pytest.raises(AttributeError, match="no 'figure_verdicts'"):
        scoring.score_texts(Bare(), [scoring.Text("a", "", "1", "1")], show_progress=False)


# -- the three benchmarks end to end, fake scorer ----------------------------------------------------------------


def test_rotowire_end_to_end(tmp_path, fake):
    result = evaluate_rotowire(lambda **_: fake, write_rotowire(tmp_path / "rw"), show_progress=False)
    assert result["benchmark"] == "rotowire" and result["config"]["hashcode"] == "fake-hashcode"
    assert result["config"]["render"] == "tables" and fake.calls == [2]
    res = result["results"]
    figures = res["tables"][scoring.ALL]["figures"]
    # S001: 32, 18 (wrong), 113, 107 (the fake supports what the tables state: 32, 18, 113, 107); S002: 9 (wrong)
    assert (figures["right"], figures["wrong"]) == (3, 2)
    assert res["tables"][scoring.ALL]["spans"]["spans"] == 3  # "six" too, which no figure overlaps
    text = rotowire_markdown(result)
    assert "Text scored: detokenized asked; texts by form scored: detokenized 1, tokenized 1" in text
    assert "Source: the box score as two Markdown tables" in text and re.search(r"^\| figures +\| 3/2 ", text, re.M)
    as_json = evaluate_rotowire(lambda **_: fake, tmp_path / "rw", render="json", text="tokenized",
                                show_progress=False)
    assert "the record's JSON" in rotowire_markdown(as_json)
    assert as_json["results"]["placement"]["texts_by_form"] == {"tokenized": 2}


def test_quintd_end_to_end(tmp_path, fake):
    folder = write_quintd(tmp_path / "q")
    default = evaluate_quintd(lambda **_: fake, folder, show_progress=False)
    # X1's 1 sits in a Not checkable span: wrong by default
    assert (default["results"]["tables"]["gsmarena"]["figures"]["right"], default["config"]["wrong"]) == (
        0, ["incorrect", "not-checkable"])
    assert "Incorrect or Not checkable spans (all domains)" in quintd_markdown(default)
    result = evaluate_quintd(lambda **_: fake, folder, wrong=("incorrect",), show_progress=False)
    tables = result["results"]["tables"]
    assert list(tables) == ["gsmarena", "wikidata", scoring.ALL]
    # gsmarena/0: X1's 1 (right), 205 (wrong), 6000 (wrong, unsupported); wikidata/0: 2001 (right)
    assert (tables["gsmarena"]["figures"]["right"], tables["gsmarena"]["figures"]["wrong"]) == (1, 2)
    assert tables["gsmarena"]["figures"]["verdict"]["recall_wrong"] == 0.5
    assert (tables[scoring.ALL]["texts"]["right"], tables[scoring.ALL]["texts"]["wrong"]) == (1, 1)
    text = quintd_markdown(result)
    assert re.search(r"^\| gsmarena · figures +\| 1/2 ", text, re.MULTILINE) and "2 of 2 annotated outputs" in text


def test_tabfact_end_to_end(tmp_path, fake):
    result = evaluate_tabfact(lambda **_: fake, write_tabfact(tmp_path / "t"), show_progress=False)
    res = result["results"]
    cell = res["tables"][scoring.ALL]["texts"]
    assert (cell["right"], cell["wrong"]) == (2, 2)
    assert cell["verdict"] == {"ba": 1.0, "flagged_right": 0.0, "recall_wrong": 1.0}
    assert res["verdicts_by_label"] == {"entailed": {SUPPORTED: 2}, "refuted": {UNSUPPORTED: 2}}
    assert res["claims_without_figures"] == {"right": 0, "wrong": 0} and "figures" not in res["tables"][scoring.ALL]
    assert re.search(r"^\| claims +\| 2/2 +\| 1\.000 ", tabfact_markdown(result), re.MULTILINE)
    by_file = evaluate_tabfact(lambda **_: fake, tmp_path / "t" / "pairs.jsonl", limit=1, show_progress=False)
    assert by_file["results"]["tables"][scoring.ALL]["texts"]["texts"] == 2


def test_a_missing_folder_and_a_bad_limit_are_said(tmp_path, fake):
    with pytest.raises(FileNotFoundError, match=r"nowhere: no such folder; give --data DIR"):
        evaluate_quintd(lambda **_: fake, tmp_path / "nowhere", show_progress=False)
    with pytest.raises(ValueError, match="--limit must be a positive integer"):
        evaluate_tabfact(lambda **_: fake, tmp_path, limit=0, show_progress=False)
    assert defaults.default_data("rotowire") == Path("..", "shared", "data", "rotowire")


def test_the_cli_flags_are_the_benchmarks_choices():
    from nash_metric.cli import build_parser

    parser = build_parser()
    bench = next(a for a in parser._actions if a.dest == "command").choices["bench"]
    choices = next(a for a in bench._actions if a.dest == "benchmark").choices
    rotowire_flags = {a.dest: a for a in choices["rotowire"]._actions}
    assert rotowire_flags["render"].choices is defaults.RENDERS and rotowire_flags["render"].default == "tables"
    assert rotowire_flags["text"].choices is defaults.TEXT_FORMS
    for name in ("quintd", "tabfact"):
        assert {"data", "limit", "output", "model"} <= {a.dest for a in choices[name]._actions}
    wrong = next(a for a in choices["quintd"]._actions if a.dest == "wrong")
    assert wrong.choices is defaults.SPAN_TYPES and wrong.default == list(defaults.DEFAULT_WRONG)


# -- the real data, the real model ---------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("name", ["rotowire", "quintd", "tabfact"])
def test_each_benchmark_on_the_shared_data(name, data_paths, minilm_sentence):
    folder = data_paths.shared / name
    if not folder.is_dir():
        pytest.skip(f"{name} not found at {folder} (../shared/data is mounted beside the repo in CI)")
    bench = registry[name]
    result = bench.evaluate(minilm_sentence, folder, limit=2, show_progress=False)
    assert result["benchmark"] == name and result["config"]["hashcode"] == minilm_sentence.hashcode
    tables = result["results"]["tables"]
    for cells in tables.values():
        for cell in cells.values():
            for check in ("verdict", "value_anywhere"):
                for measure in ("ba", "flagged_right", "recall_wrong", "recall", "precision"):
                    value = cell[check].get(measure)
                    assert value is None or 0.0 <= value <= 1.0, (name, measure, cell)
    assert result["results"]["scoring"]["figures"] > 0
    assert "| unit " in bench.markdown(result)
