"""Rotowire, the accuracy shared task's training texts (Thomson & Reiter, 2021): reading, and the wrong spans.

**Data** (a folder): ``games.csv`` (one generated summary a row: ``TEXT_ID``, ``GENERATED_TEXT`` tokenised and
joined by spaces, ``DETOKENIZED_GENERATED_TEXT``), ``texts/<TEXT_ID>.txt`` (the tokenised text the gold errors
index; ``GENERATED_TEXT`` when the file is missing), ``shared_task.jsonl`` (the game of each text:
``shared_task_text_id``, ``box_score``, ``home_line``, ``vis_line``) and ``gsml.csv`` (every error a person found:
``TEXT_ID`` as ``S001.txt``, ``DOC_TOKEN_START`` and ``DOC_TOKEN_END``, 1-based and inclusive, ``TOKENS``,
``TYPE``). A malformed row fails as ``FILE:LINE: ...``, naming the field.

**Labels.** The wrong spans of a text are its ``NUMBER`` errors; a number not marked is correct. Token indices
become character spans of the text scored: the detokenised text when every token is found in it in order
(`spans.locate_tokens`: whitespace free, a few punctuation characters that no token holds skipped, as the ``.`` of
``DJ. Augustin``), else the tokenised text, whose tokens are where its spaces say; the result counts both.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .boxscore import render_box_score
from .defaults import DEFAULT_RENDER, DEFAULT_TEXT_FORM, TEXT_FORMS
from .scoring import Text
from .spans import Span, locate_tokens, token_range, token_spans

GAMES, GOLD, RECORDS, TEXTS = "games.csv", "gsml.csv", "shared_task.jsonl", "texts"
GAME_COLUMNS = ("TEXT_ID", "GENERATED_TEXT", "DETOKENIZED_GENERATED_TEXT")
GOLD_COLUMNS = ("TEXT_ID", "TOKENS", "DOC_TOKEN_START", "DOC_TOKEN_END", "TYPE")
WRONG_TYPE = "NUMBER"  # the error type whose spans count as wrong figures
_DIGIT = re.compile(r"\d")


@dataclass(frozen=True)
class GoldError:
    """One error of ``gsml.csv`` (``line``: its line there): its tokens (1-based, inclusive) and type."""

    line: int
    text_id: str
    first: int
    last: int
    tokens: str
    type: str
    correction: str = ""


@dataclass(frozen=True)
class Game:
    """One generated summary: its tokens, its two texts, its game's record and its gold errors."""

    text_id: str
    tokenized: str
    detokenized: str
    record: dict[str, Any]
    errors: tuple[GoldError, ...]

    @property
    def tokens(self) -> list[str]:
        return self.tokenized.split()

    @property
    def wrong_errors(self) -> tuple[GoldError, ...]:
        return tuple(e for e in self.errors if e.type == WRONG_TYPE)


# -- reading ------------------------------------------------------------------------------------------------


def _csv(path: Path, columns: tuple[str, ...]) -> tuple[str, list[tuple[int, dict[str, str]]]]:
    from ...common.io import InputFileError, read_text
    from ...corpus.records import csv_header, csv_records, csv_rows, text_lines

    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file")
    text = read_text(path)
    rows = csv_rows(path, text_lines(text), ",")
    header = csv_header(path, rows)
    if missing := [c for c in columns if c not in header.names]:
        raise InputFileError(path, header.line, f"missing column(s) {', '.join(missing)}; the header has "
                                                f"{', '.join(header.names)}")
    return text, list(csv_records(path, rows, header, ","))


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _records(path: Path) -> tuple[str, dict[str, tuple[int, dict[str, Any]]]]:
    """The game records of ``shared_task.jsonl`` by text id, each with its line."""
    from ...common.io import InputFileError, read_text
    from ...corpus.records import jsonl_records, string_field, text_lines

    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file")
    text = read_text(path)
    records: dict[str, tuple[int, dict[str, Any]]] = {}
    for number, record in jsonl_records(path, text_lines(text)):
        text_id = string_field(path, number, record, "shared_task_text_id")
        if text_id in records:
            raise InputFileError(path, number, f"field 'shared_task_text_id': {text_id!r} is also on line "
                                               f"{records[text_id][0]}")
        try:
            render_box_score(record, DEFAULT_RENDER)  # every field the renderings read, checked now
        except ValueError as exc:
            raise InputFileError(path, number, str(exc)) from None
        records[text_id] = (number, record)
    return text, records


def _token_index(path: Path, number: int, row: dict[str, str], name: str) -> int:
    from ...common.io import InputFileError

    value = row[name].strip()
    if not value.isdigit() or int(value) < 1:
        raise InputFileError(path, number, f"field {name!r} must be a token index (1-based), got {row[name]!r}")
    return int(value)


def _gold(path: Path, tokens: dict[str, list[str]]) -> tuple[str, list[GoldError]]:
    """Every error of ``gsml.csv``, checked against the tokens of its text."""
    from ...common.io import InputFileError

    text, rows = _csv(path, GOLD_COLUMNS)
    errors = []
    for number, row in rows:
        text_id = row["TEXT_ID"].strip().removesuffix(".txt")
        if text_id not in tokens:
            raise InputFileError(path, number, f"field 'TEXT_ID': {row['TEXT_ID']!r} is no text of {GAMES}")
        first, last = (_token_index(path, number, row, name) for name in ("DOC_TOKEN_START", "DOC_TOKEN_END"))
        words = tokens[text_id]
        if not first <= last <= len(words):
            raise InputFileError(path, number, f"tokens {first}..{last} are not within the {len(words)} tokens of "
                                               f"{text_id}")
        if row["TOKENS"].split() != words[first - 1:last]:
            raise InputFileError(path, number, f"field 'TOKENS' {row['TOKENS']!r} is not tokens {first}..{last} of "
                                               f"{text_id}: {' '.join(words[first - 1:last])!r}")
        if not row["TYPE"].strip():
            raise InputFileError(path, number, "field 'TYPE' is empty")
        errors.append(GoldError(number, text_id, first, last, row["TOKENS"], row["TYPE"].strip(),
                                row.get("CORRECTION", "")))
    return text, errors


def _tokenized(folder: Path, text_id: str, row: dict[str, str]) -> str:
    from ...common.io import read_text

    path = folder / TEXTS / f"{text_id}.txt"
    return read_text(path).strip() if path.is_file() else row["GENERATED_TEXT"].strip()


def read_rotowire(folder: str | Path, limit: int | None = None) -> tuple[dict[str, Any], list[Game]]:
    """The games of a shared-task folder (``limit``: the first N of ``games.csv``; every row is checked) and what
    was read."""
    from ...common.io import InputFileError

    folder = Path(folder)
    games_text, rows = _csv(folder / GAMES, GAME_COLUMNS)
    records_text, records = _records(folder / RECORDS)
    seen: dict[str, int] = {}
    tokens: dict[str, list[str]] = {}
    texts: dict[str, tuple[str, str]] = {}
    for number, row in rows:
        text_id = row["TEXT_ID"].strip()
        if not text_id or text_id in seen:
            raise InputFileError(folder / GAMES, number, f"field 'TEXT_ID' {text_id!r} is empty or also on line "
                                                         f"{seen.get(text_id)}")
        if text_id not in records:
            raise InputFileError(folder / GAMES, number, f"{text_id}: no record in {RECORDS} "
                                                         "(field 'shared_task_text_id')")
        seen[text_id] = number
        texts[text_id] = (_tokenized(folder, text_id, row), row["DETOKENIZED_GENERATED_TEXT"])
        tokens[text_id] = texts[text_id][0].split()
    if not texts:
        raise InputFileError(folder / GAMES, None, "no games")
    gold_text, errors = _gold(folder / GOLD, tokens)
    by_text: dict[str, list[GoldError]] = {}
    for e in errors:
        by_text.setdefault(e.text_id, []).append(e)
    games = [Game(t, texts[t][0], texts[t][1], records[t][1], tuple(by_text.get(t, ()))) for t in texts]
    shas = {GAMES: _sha(games_text), RECORDS: _sha(records_text), GOLD: _sha(gold_text)}
    info = {"path": str(folder), "sha256": shas,
            "texts_in_file": len(games), "texts_used": min(len(games), limit or len(games)),
            "errors_by_type": dict(Counter(e.type for e in errors).most_common())}
    return info, games[:limit] if limit is not None else games


# -- labels -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Placed:
    """A game's text as scored: which form, the character span of each token there, and the skipped characters."""

    form: str
    text: str
    spans: list[Span]
    skipped: int = 0
    fallback: str | None = None  # why the detokenised text was not used


def place(game: Game, form: str = DEFAULT_TEXT_FORM) -> Placed:
    """The text of ``game`` in ``form`` with its tokens located; the tokenised text when the detokenised one does
    not hold the tokens in order."""
    if form not in TEXT_FORMS:
        raise ValueError(f"text form must be one of {', '.join(TEXT_FORMS)}, got {form!r}")
    tokens = game.tokens
    if form == "detokenized":
        found = locate_tokens(tokens, game.detokenized)
        if found.spans is not None:
            return Placed(form, game.detokenized, found.spans, found.skipped)
        fallback = found.failure
    else:
        fallback = None
    return Placed("tokenized", game.tokenized, token_spans(game.tokenized), 0, fallback)


def wrong_spans(game: Game, placed: Placed) -> tuple[Span, ...]:
    """The character spans of the game's NUMBER errors in its placed text."""
    return tuple(token_range(placed.spans, e.first - 1, e.last - 1) for e in game.wrong_errors)


def rotowire_texts(games: list[Game], render: str = DEFAULT_RENDER, form: str = DEFAULT_TEXT_FORM
                   ) -> tuple[list[Text], dict[str, Any]]:
    """Each game as a text to score (its placed text, its box score rendered, its NUMBER errors as wrong spans), and
    how the texts were placed."""
    texts, forms, fallbacks, skipped = [], Counter(), {}, 0
    for game in games:
        placed = place(game, form)
        forms[placed.form] += 1
        skipped += placed.skipped
        if placed.fallback:
            fallbacks[game.text_id] = placed.fallback
        texts.append(Text(game.text_id, "", placed.text, render_box_score(game.record, render),
                          wrong_spans(game, placed)))
    wrong = [e for g in games for e in g.wrong_errors]
    info = {"text_form": form, "texts_by_form": dict(forms), "fallbacks": fallbacks, "skipped_characters": skipped,
            "render": render, "number_errors": len(wrong),
            "number_errors_spelled_out": sum(1 for e in wrong if not _DIGIT.search(e.tokens))}
    return texts, info
