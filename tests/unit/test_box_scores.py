"""A box score as two markdown tables (team lines and players), the way `nash bench rotowire` renders one, and the
rules of data that bind a summary's figures to its cells: a pair with a noun after it ("4-7 FG"), a noun that
names a column of another table than the value's ("5 wins"), and the operands of a computed figure in the column
its noun names. Hand-written; each rule is checked on and off, so each assertion can fail."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from nash_metric.context.keys import key_words
from nash_metric.context.words import _attribute
from nash_metric.pipeline.pool import TextPool
from nash_metric.verdicts.decide import context_verdicts
from nash_metric.verdicts.rules import RULE
from nash_metric.verdicts.spec import SUPPORTING

HEADERS = ("Player", "Team", "Minutes", "Points", "Field goals made", "Field goals attempted", "FG%",
           "Three-pointers made", "Three-pointers attempted", "Free throws made", "Free throws attempted",
           "Defensive rebounds", "Rebounds", "Assists")
PLAYERS = (("Paul Smith", "Atlanta Hawks", 31, 11, 4, 7, 57, 2, 3, 1, 2, 7, 7, 5),
           ("Joe Brown", "Utah Jazz", 28, 16, 6, 12, 50, 1, 4, 3, 3, 2, 3, 8),
           ("Dan White", "Atlanta Hawks", 22, 9, 4, 8, 50, 0, 1, 1, 1, 1, 2, 3))
BOX = ("Team totals\n\n| Team | City | Wins | Losses | Points | Rebounds |\n|---|---|---|---|---|---|\n"
       "| Hawks | Atlanta | 7 | 4 | 102 | 44 |\n| Jazz | Utah | 9 | 3 | 96 | 29 |\n\nPlayers\n\n"
       + "".join(f"| {' | '.join(map(str, line))} |\n" for line in (HEADERS, ("---",) * len(HEADERS), *PLAYERS)))


def _verdicts(prediction: str, source: str = BOX, rule=RULE) -> dict[str, dict]:
    """The figure verdicts of one pair by the figure's text (no model: every cosine is equal)."""
    pool = TextPool.build([prediction, source])
    encodings = [SimpleNamespace(mention_has_tokens=np.ones(len(spans), bool),
                                 mention_vectors=np.ones((len(spans), 16), np.float32)) for spans in pool.spans()]
    table = pool.mention_table(encodings)
    ids = pool.original_ids([prediction])[0], pool.original_ids([source])[0]
    return {e["text"]: e for e in context_verdicts(table, [ids], rule)[0]}


@pytest.mark.parametrize(("after", "words"), [
    (" FG, 4-5 FT)", {"field", "goal"}),  # an abbreviation in capitals reads as a key does
    (" 3Pt, 1-2 FT)", {"three", "point"}),  # one that starts with a digit too
    (" FT)", {"free", "throw"}),
    (" points and 7 rebounds", {"point"}),
    (" 2nd quarter", set()),  # a word that starts with a digit and is no abbreviation is no attribute
])
def test_the_noun_after_a_figure_reads_abbreviations(after, words):
    assert _attribute(after, 0, len(after)) == words


def test_a_percent_sign_in_a_header_reads_percent():
    assert key_words("FG%") == "field goals percent"
    assert key_words("3P%") == "three point percent"
    assert key_words("% change") == "percent change"


def test_a_pair_with_a_noun_is_stated_for_one_entity_and_its_noun_names_the_columns():
    shipped = _verdicts("Paul Smith finished with 11 points (4-7 FG, 2-3 3Pt, 1-2 FT).")
    assert all(shipped[f]["verdict"] in SUPPORTING for f in ("4", "7", "2", "3", "1")), shipped
    assert shipped["7"]["found"]["cell"]["column"] == "Field goals attempted"


def test_a_pairs_number_under_another_column_of_its_row_is_misplaced():
    text = "Paul Smith finished with 11 points (5-7 FG)."  # he made 4 shots; 5 are his assists
    entry = _verdicts(text)["5"]
    assert entry["verdict"] == "misplaced"
    assert entry["reference"]["cell"]["row"] == "Paul Smith Atlanta Hawks"
    assert entry["reference"]["cell"]["column"].startswith("Field goals")
    # Without the rule the first number of a pair takes no noun and names no row: any 5 of the box score states it.
    assert _verdicts(text, rule=replace(RULE, pairs=False))["5"]["verdict"] in SUPPORTING


def test_a_score_line_is_stated_for_either_team_its_sentence_names():
    # The Jazz's 96 in "102-96": the clause's subject names the Hawks by more words, the sentence both teams.
    text = "The Jazz lost to the Atlanta Hawks 102-96."
    shipped = _verdicts(text)
    assert all(shipped[f]["verdict"] in SUPPORTING for f in ("102", "96")), shipped
    assert shipped["96"]["found"]["cell"]["row"] == "Jazz Utah"
    # Without the rule the pair's rows are those its subject names most: the Hawks' line, where 96 is not.
    off = _verdicts(text, rule=replace(RULE, pairs=False))["96"]
    assert (off["verdict"], off["basis"]) == ("misplaced", "row: Jazz Utah, not the one named")
    assert _verdicts("The Jazz lost to the Atlanta Hawks 102-99.")["99"]["verdict"] not in SUPPORTING


def test_a_noun_naming_a_column_of_another_table_binds_there():
    text = "The Hawks came into the game with 5 wins."  # the Hawks' wins are 7; a Hawk's assists are 5
    assert _verdicts(text)["5"]["verdict"] == "misplaced"
    assert _verdicts(text, rule=replace(RULE, any_table=False))["5"]["verdict"] in SUPPORTING


def test_a_computed_figures_operands_stand_in_the_column_its_noun_names():
    text = "Paul Smith has combined for 14 rebounds over his last two games."  # 7 defensive + 7 rebounds
    assert _verdicts(text)["14"]["verdict"] == "unsupported"
    off = _verdicts(text, rule=replace(RULE, operand_columns=False))["14"]
    assert off["verdict"] == "computed" and off["derivation"] == "7 + 7 = 14"


def test_a_number_in_words_in_a_header_is_no_value_of_the_table():
    # "Three-pointers made" holds a "Three": it supported every "three" of a summary, wherever the cells said.
    shipped = _verdicts("Paul Smith added three assists.")  # he had 5
    assert shipped["three"]["verdict"] not in SUPPORTING
    assert _verdicts("Dan White added three assists.")["three"]["verdict"] in SUPPORTING  # he had 3


def test_the_switches_are_named_in_the_echo():
    assert {"pairs", "any_table", "operand_columns"} <= set(RULE.describe()[len("context("):].split(",")[0].split("+"))
