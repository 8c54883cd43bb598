"""``nash bench rotowire | quintd | tabfact``: read a set, score every text in one call, tabulate.

Each entry point takes a NASH scorer (or a factory ``f(**overrides) -> NASH``) and the set's folder (default
``../shared/data/<name>``, `defaults.data_folder`), reads it (`rotowire`, `quintd`, `tabfact`), scores it
(`scoring.score_texts`) and returns the result envelope: the scorer's configuration and hashcode, what was read
(paths, sha256, counts) and the tables (`scoring.group_tables`); `report` prints them.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from ..registry import ScorerSource, scorer_factory
from .defaults import DEFAULT_RENDER, DEFAULT_TEXT_FORM, DEFAULT_WRONG, SpanType, data_folder
from .quintd import quintd_texts, read_quintd
from .rotowire import read_rotowire, rotowire_texts
from .scoring import Scored, Text, group_tables, score_texts, tally, text_labels
from .tabfact import STATEMENTS, read_tabfact, tabfact_texts

FIELDS = {
    "figures": "every figure of the scorer's figure_verdicts; wrong = it overlaps a span marked wrong",
    "texts": "wrong = a wrong figure; right = a figure and none wrong (a label of its own where the set gives one)",
    "verdict": "flagged = a verdict that does not count as supported (verdicts.spec.SUPPORTING)",
    "value_anywhere": "flagged = a digit string (of the figure / of the text) stated nowhere in the source",
    "ba": "balanced accuracy: (share of wrong units flagged + share of right units not flagged) / 2",
    "flagged_right": "share of the right units flagged",
    "recall_wrong": "share of the wrong units flagged",
    "spans": "recall: wrong spans a flagged figure overlaps / wrong spans; precision: flagged figures on a wrong "
             "span / flagged figures",
}


def _check_limit(limit: int | None) -> None:
    if limit is not None and limit < 1:
        raise ValueError(f"--limit must be a positive integer, got {limit}")


def _run(scorer: ScorerSource, texts: list[Text], show_progress: bool) -> tuple[Any, Scored]:
    nash = scorer_factory(scorer)()
    return nash, score_texts(nash, texts, show_progress)


def _envelope(name: str, nash: Any, config: dict[str, Any], results: dict[str, Any]) -> dict[str, Any]:
    from ...common.reporting import result_envelope

    return result_envelope(name, {**nash.echo, "hashcode": nash.hashcode, **config}, results)


def evaluate_rotowire(scorer: ScorerSource, data: str | Path | None = None, *, limit: int | None = None,
                      show_progress: bool = True, render: str = DEFAULT_RENDER,
                      text: str = DEFAULT_TEXT_FORM) -> dict[str, Any]:
    """``nash bench rotowire``: every figure of the shared task's texts against its game's box score (``render``:
    tables or json), labelled by the NUMBER errors; ``text``: the detokenised or the tokenised text."""
    _check_limit(limit)
    info, games = read_rotowire(data_folder("rotowire", data), limit)
    texts, placement = rotowire_texts(games, render, text)
    if show_progress:
        print(f"Rotowire from {info['path']}: {len(texts)} texts, {placement['number_errors']} NUMBER errors; "
              f"source {render}, text {text}", file=sys.stderr)
    nash, scored = _run(scorer, texts, show_progress)
    results = {"fields": FIELDS, "scoring": scored.info, "placement": placement, "tables": group_tables(scored)}
    return _envelope("rotowire", nash, {"data": info, "limit": limit, "render": render, "text": text}, results)


def evaluate_quintd(scorer: ScorerSource, data: str | Path | None = None, *, limit: int | None = None,
                    wrong: tuple[SpanType, ...] = DEFAULT_WRONG, show_progress: bool = True) -> dict[str, Any]:
    """``nash bench quintd``: every figure of the annotated outputs against its prompt, labelled by the spans of
    the types ``wrong`` (by default Incorrect and Not checkable), per domain and over all (``limit``: the first N
    annotated outputs of each domain)."""
    _check_limit(limit)
    info, outputs = read_quintd(data_folder("quintd", data), limit, wrong)
    texts = quintd_texts(outputs)
    if show_progress:
        print(f"quintd from {info['path']}: {len(texts)} annotated outputs", file=sys.stderr)
    nash, scored = _run(scorer, texts, show_progress)
    results = {"fields": FIELDS, "scoring": scored.info, "tables": group_tables(scored)}
    return _envelope("quintd", nash, {"data": info, "limit": limit, "wrong": list(wrong)}, results)


def evaluate_tabfact(scorer: ScorerSource, data: str | Path | None = None, *, limit: int | None = None,
                     show_progress: bool = True) -> dict[str, Any]:
    """``nash bench tabfact``: each pair's entailed (right) and refuted (wrong) statement against its table as a
    Markdown table (``limit``: the first N pairs)."""
    _check_limit(limit)
    given = data is not None and Path(data).is_file()  # pairs.jsonl itself, or its folder
    info, pairs = read_tabfact(Path(data) if given else data_folder("tabfact", data), limit)
    texts = tabfact_texts(pairs)
    if show_progress:
        print(f"TabFact from {info['path']}: {len(pairs)} pairs, {len(texts)} claims", file=sys.stderr)
    nash, scored = _run(scorer, texts, show_progress)
    counts = [0] * len(texts)
    for f in scored.figures:
        counts[f.text] += 1
    labels = text_labels(scored)
    results = {
        "fields": FIELDS, "scoring": scored.info, "tables": group_tables(scored, units=("texts",)),
        "claims_without_figures": {name: sum(1 for k, n in enumerate(counts) if n == 0 and labels[k] == label)
                                   for name, label in (("right", 1), ("wrong", 0))},
        "verdicts_by_label": {statement: tally([f.verdict for f in scored.figures if labels[f.text] == 1 - k])
                              for k, statement in enumerate(STATEMENTS)},
    }
    return _envelope("tabfact", nash, {"data": info, "limit": limit}, results)
