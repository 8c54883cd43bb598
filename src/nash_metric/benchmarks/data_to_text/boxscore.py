"""A Rotowire record's box score as the source a user would give: two Markdown tables with readable headers, or the
record's JSON.

``tables``: the team lines (home team first) and the players (home team's first, each team's in the record's
order), every value as the record holds it; a player who did not play has ``N/A`` in every column, as the record
has. ``json``: ``{"home_line": ..., "vis_line": ..., "box_score": ...}`` of the record, as one line of JSON.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .defaults import RENDERS

TEAM_COLUMNS = (
    ("Team", "TEAM-NAME"), ("City", "TEAM-CITY"), ("Wins", "TEAM-WINS"), ("Losses", "TEAM-LOSSES"),
    ("Points", "TEAM-PTS"), ("1st quarter points", "TEAM-PTS_QTR1"), ("2nd quarter points", "TEAM-PTS_QTR2"),
    ("3rd quarter points", "TEAM-PTS_QTR3"), ("4th quarter points", "TEAM-PTS_QTR4"), ("FG%", "TEAM-FG_PCT"),
    ("3P%", "TEAM-FG3_PCT"), ("FT%", "TEAM-FT_PCT"), ("Rebounds", "TEAM-REB"), ("Assists", "TEAM-AST"),
    ("Turnovers", "TEAM-TOV"),
)
PLAYER_TEAM = "Team"  # the players' column filled from the team lines ("Boston Celtics"), not a box-score column
PLAYER_COLUMNS = (
    ("Player", "PLAYER_NAME"), (PLAYER_TEAM, "TEAM_CITY"), ("Minutes", "MIN"), ("Points", "PTS"),
    ("Field goals made", "FGM"), ("Field goals attempted", "FGA"), ("FG%", "FG_PCT"),
    ("Three-pointers made", "FG3M"), ("Three-pointers attempted", "FG3A"), ("3P%", "FG3_PCT"),
    ("Free throws made", "FTM"), ("Free throws attempted", "FTA"), ("FT%", "FT_PCT"),
    ("Offensive rebounds", "OREB"), ("Defensive rebounds", "DREB"), ("Rebounds", "REB"), ("Assists", "AST"),
    ("Steals", "STL"), ("Blocks", "BLK"), ("Turnovers", "TO"), ("Personal fouls", "PF"),
)
LINES = ("home_line", "vis_line")


def _cell(value: Any) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ").strip()


def _table(headers: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    return "\n".join([*lines, *("| " + " | ".join(_cell(v) for v in row) + " |" for row in rows)])


def _field(where: str, record: Mapping[str, Any], name: str) -> Any:
    if not isinstance(record, Mapping):
        raise ValueError(f"field {where!r} must be an object, got {type(record).__name__}")
    if name not in record:
        raise ValueError(f"field {where!r} has no {name!r}; it has {sorted(record)}")
    return record[name]


def check_record(record: Mapping[str, Any]) -> None:
    """A ValueError naming the first field the renderings need and ``record`` lacks (or holds in another shape)."""
    for line in LINES:
        for _, key in TEAM_COLUMNS:
            _field(line, _field("record", record, line), key)
    box = _field("record", record, "box_score")
    players = _field("box_score", box, "PLAYER_NAME")
    if not isinstance(players, Mapping) or not players:
        raise ValueError("field 'box_score.PLAYER_NAME' must be a non-empty object of player index -> name")
    for _, key in PLAYER_COLUMNS:
        column = _field("box_score", box, key)
        for index in players:
            _field(f"box_score.{key}", column, index)


def _order(index: str) -> tuple[int, str]:
    return (int(index), index) if index.isdigit() else (1 << 30, index)


def team_table(record: Mapping[str, Any]) -> str:
    """The team lines as a Markdown table, the home team first."""
    return _table([h for h, _ in TEAM_COLUMNS], [[record[line][key] for _, key in TEAM_COLUMNS] for line in LINES])


def player_table(record: Mapping[str, Any]) -> str:
    """The players as a Markdown table: the home team's, then the visitors', each in the record's index order. A
    player's team is its city and name from the team lines ("Boston Celtics"); its city alone when both teams
    have that city."""
    lines = [record[line] for line in LINES]
    teams = {line["TEAM-CITY"]: f"{line['TEAM-CITY']} {line['TEAM-NAME']}" for line in lines}
    shared = lines[0]["TEAM-CITY"] == lines[1]["TEAM-CITY"]
    box = record["box_score"]
    home = lines[0]["TEAM-CITY"]
    indices = sorted(box["PLAYER_NAME"], key=lambda i: (box["TEAM_CITY"][i] != home, _order(i)))
    rows = []
    for index in indices:
        row = []
        for header, key in PLAYER_COLUMNS:
            value = box[key][index]
            row.append(teams.get(value, value) if header == PLAYER_TEAM and not shared else value)
        rows.append(row)
    return _table([h for h, _ in PLAYER_COLUMNS], rows)


def render_box_score(record: Mapping[str, Any], render: str) -> str:
    """The source of one game: ``tables`` (team lines, then players) or ``json``."""
    if render not in RENDERS:
        raise ValueError(f"render must be one of {', '.join(RENDERS)}, got {render!r}")
    check_record(record)
    if render == "json":
        return json.dumps({name: record[name] for name in (*LINES, "box_score")}, ensure_ascii=False)
    return f"Team totals\n\n{team_table(record)}\n\nPlayers\n\n{player_table(record)}\n"
