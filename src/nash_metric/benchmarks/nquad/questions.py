"""NQuAD's question-level release (``NQuAD_train.json`` / ``NQuAD_test.json``, also SemEval-2024 NumEval task 2),
read into the rows of ``construction.features()``.

Each file is a JSON list of records with ``news_article`` (the paragraphs), ``question_stem`` (the headline with
``___`` for the numeral), ``answer_options`` (4 numerals, strings or numbers), ``ans`` (0-based index of the right
option, an integer or a digit string), ``target_num`` (the answer as written, may differ in form: ``五`` vs ``5``)
and ``sentences_containing_the_numeral_in_answer_options`` (one sentence list per option). One record, one row:

* ``article_id``: the first 12 hex digits of sha1(json.dumps(news_article, ensure_ascii=False)); ``id`` is
  ``<article_id>-<k>``, k the record's index among its article's records (train file first, then test, each in
  file order; a left-out record keeps its index, so ids do not move when the reading rules change); no date;
* ``headline``: the stripped stem with the blank (3 or more ``_``) filled by the answer option as written;
  ``stem``: the blank replaced by ``MASK``; ``target``: ``target_num`` as written;
* values: ``text.mentions`` on the option alone, else the Chinese reader on the whole option (``mentions``
  leaves a bare ``五`` alone: out of context one character is too often not a number); ``target_kind`` is the
  kind the reader sees at the blank of the headline (``35`` before ``%`` is a percentage);
* ``option_sentences``: each option's sentences joined into one text with ``。``, none added after a sentence
  that already ends in sentence punctuation (the release's sentences mostly lack their final ``。``);
  ``option_sentence_lists`` keeps the lists as released.

A question is left out, and counted in the build report's ``skipped``, when an option or ``target_num`` has no
numeric value, when the options are not 4 distinct values, or when ``target_num`` disagrees by value with the
answer option (``五`` and ``5`` agree). A malformed record is an error naming the file, the record index and the
field.

Sources (``gather_sources``): files and folders. A ``.json`` file whose records carry ``question_stem`` or
``answer_options`` is question-level; anything else goes to the article readers (``.source``), and one build
takes one kind. A folder takes its question-level ``*.json`` files and prints on stderr what it took and skipped.
One question-level file given alone is split by article like our own construction; with several files or a
folder, each file's name gives its split (``train`` or ``test`` in the name, one file per split).
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ...common.io import read_json
from ...numbers.chinese import parse_chinese_number
from .defaults import MASK, N_OPTIONS, RELEASE_LAYOUT, SPLITS
from .source import QUESTION_MARKERS
from .text import avg_option_diff, ends_sentence, mention_at, mentions, value_key

SENTENCES_FIELD = "sentences_containing_the_numeral_in_answer_options"
FIELDS = ("news_article", "question_stem", "answer_options", "ans", "target_num", SENTENCES_FIELD)
BLANK = re.compile(r"_{3,}")
_ANSWERS = f"0..{N_OPTIONS - 1}"


@dataclass(frozen=True)
class ReleaseFile:
    path: Path
    records: tuple[Any, ...]
    split: str | None = None  # from the file's name, when the release is split by name


@dataclass(frozen=True)
class Release:
    files: tuple[ReleaseFile, ...]  # train then test when split by name
    split_by_name: bool
    given: tuple[str, ...]  # the sources as given, for the report and the card


@dataclass(frozen=True)
class Sources:
    """What ``--source`` named: the question-level release, or else one article file."""

    release: Release | None
    article: Path | None


@dataclass(frozen=True)
class Question:
    """One validated record of the release; ``where`` is ``"<file> record <i>"``."""

    paragraphs: tuple[str, ...]
    stem: str  # stripped, one blank
    options: tuple[str, ...]
    answer: int
    target: str
    sentences: tuple[tuple[str, ...], ...]
    where: str


@dataclass(frozen=True)
class ReleaseRows:
    rows: tuple[tuple[dict[str, Any], ...], ...]  # the kept rows of each file
    skipped: Counter
    questions_read: int
    article_ids: tuple[str, ...]  # every article read, kept or not


# ------------------------------------------------------------------------------------------------ sources

def gather_sources(sources: Sequence[str | Path]) -> Sources:
    """Classify ``sources`` (files or folders); a mix of question-level and article-level files is an error."""
    if not sources:
        raise ValueError("no --source given")
    files: list[ReleaseFile] = []
    articles: list[Path] = []
    for source in map(Path, sources):
        if source.is_dir():
            files.extend(_folder_files(source))
        elif (records := question_records(source)) is not None:
            files.append(ReleaseFile(source, records))
        else:
            articles.append(source)
    if files and articles:
        raise ValueError(f"--source mixes question-level files ({_names(f.path for f in files)}) with article-level "
                         f"ones ({_names(articles)}): build from one kind")
    if not files:
        if len(articles) != 1:
            raise ValueError(f"give one article-level --source (raw .jsonl or article-level .json), got "
                             f"{len(articles)}: {_names(articles)}")
        return Sources(None, articles[0])
    by_name = len(files) > 1 or any(Path(s).is_dir() for s in sources)
    release = Release(named_splits(files) if by_name else tuple(files), by_name, tuple(map(str, sources)))
    return Sources(release, None)


def question_records(path: Path) -> tuple[Any, ...] | None:
    """The records of a question-level ``.json`` file (a list with a record holding ``question_stem`` or
    ``answer_options``), else None. Invalid JSON is an error (file and line)."""
    if path.suffix.lower() != ".json" or not path.is_file():
        return None
    data = read_json(path)
    if isinstance(data, list) and any(isinstance(r, dict) and not r.keys().isdisjoint(QUESTION_MARKERS)
                                      for r in data):
        return tuple(data)
    return None


def _folder_files(folder: Path) -> list[ReleaseFile]:
    """The question-level ``*.json`` files of ``folder``; what it took and skipped (and why) go to stderr."""
    taken: list[ReleaseFile] = []
    skipped: list[str] = []
    for path in sorted(folder.iterdir()):
        if path.is_dir() or path.suffix.lower() != ".json":
            skipped.append(f"{path.name} ({'a folder' if path.is_dir() else 'not a .json file'})")
        elif (records := question_records(path)) is None:
            skipped.append(f"{path.name} (not question-level: no record with {' or '.join(QUESTION_MARKERS)})")
        else:
            taken.append(ReleaseFile(path, records))
    print(f"NQuAD {folder}: took {', '.join(f.path.name for f in taken) or 'no file'}", file=sys.stderr)
    if skipped:
        print(f"NQuAD {folder}: skipped {', '.join(skipped)}", file=sys.stderr)
    if not taken:
        raise ValueError(f"{folder}: no question-level .json file (records with {' or '.join(QUESTION_MARKERS)})")
    return taken


def split_of(path: Path) -> str:
    """``train`` or ``test``: the one of them the file's name (without suffix) contains, case-insensitive."""
    found = [s for s in SPLITS if s in path.stem.lower()]
    if len(found) != 1:
        says = "both 'train' and 'test'" if found else "neither 'train' nor 'test'"
        raise ValueError(f"{path}: its name holds {says}; with several question-level files (or a folder), each "
                         "file's name gives its split (e.g. NQuAD_train.json, NQuAD_test.json)")
    return found[0]


def named_splits(files: Sequence[ReleaseFile]) -> tuple[ReleaseFile, ...]:
    """One file per split, as their names say (train first)."""
    by_split: dict[str, ReleaseFile] = {}
    for f in files:
        split = split_of(f.path)
        if split in by_split:
            raise ValueError(f"two question-level files for the {split} split: {by_split[split].path} and {f.path}")
        by_split[split] = replace(f, split=split)
    for split in SPLITS:
        if split not in by_split:
            raise ValueError(f"no question-level file for the {split} split (a name holding {split!r}) among "
                             f"{_names(f.path for f in files)}: both splits are published")
    return tuple(by_split[s] for s in SPLITS)


def _names(paths) -> str:
    return ", ".join(str(p) for p in paths)


# ------------------------------------------------------------------------------------------------ records

def read_question(record: Any, where: str) -> Question:
    """``record`` validated; ValueError naming ``where`` and the field otherwise."""
    if not isinstance(record, dict):
        raise ValueError(f"{where}: expected a question object, got {type(record).__name__}")
    missing = [f for f in FIELDS if f not in record]
    if missing:
        raise ValueError(f"{where}: missing field{'s' if len(missing) > 1 else ''} {', '.join(map(repr, missing))}; "
                         f"fields are {sorted(record)}")
    options = _options(record["answer_options"], where)
    return Question(paragraphs=_paragraphs(record["news_article"], where), stem=_stem(record["question_stem"], where),
                    options=options, answer=_answer(record["ans"], where),
                    target=_numeral(record["target_num"], f"{where}: field 'target_num'"),
                    sentences=_sentence_lists(record[SENTENCES_FIELD], options, where), where=where)


def _paragraphs(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or not all(isinstance(p, str) for p in value):
        raise ValueError(f"{where}: field 'news_article' must be a non-empty list of strings (the paragraphs), "
                         f"got {_describe(value)}")
    return tuple(value)


def _stem(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{where}: field 'question_stem' must be a string, got {_describe(value)}")
    blanks = len(BLANK.findall(value))
    if blanks != 1:
        raise ValueError(f"{where}: field 'question_stem' must hold one '___' blank, found {blanks}: {value.strip()!r}")
    return value.strip()


def _options(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) != N_OPTIONS:
        got = f"{len(value)} entries" if isinstance(value, list) else _describe(value)
        raise ValueError(f"{where}: field 'answer_options' must be a list of {N_OPTIONS} options, got {got}")
    return tuple(_numeral(v, f"{where}: field 'answer_options' entry {j}") for j, v in enumerate(value))


def _numeral(value: Any, what: str) -> str:
    """A numeral as written: a non-empty string (stripped), or a number (``str``ed, as some copies store them)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, str) and value.strip():
        return value.strip()
    raise ValueError(f"{what} must be a non-empty string or a number, got {value!r}")


def _answer(value: Any, where: str) -> int:
    if isinstance(value, str) and re.fullmatch(r"\s*[0-9]+\s*", value):
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{where}: field 'ans' must be an integer in {_ANSWERS}, got {value!r}")
    if not 0 <= value < N_OPTIONS:
        raise ValueError(f"{where}: field 'ans' is {value}, outside {_ANSWERS} (the index of the right option)")
    return value


def _sentence_lists(value: Any, options: tuple[str, ...], where: str) -> tuple[tuple[str, ...], ...]:
    what = f"{where}: field {SENTENCES_FIELD!r}"
    if not isinstance(value, list) or len(value) != N_OPTIONS:
        got = f"{len(value)} entries" if isinstance(value, list) else _describe(value)
        raise ValueError(f"{what} must hold one sentence list per option ({N_OPTIONS}), got {got}")
    for j, sentences in enumerate(value):
        if not isinstance(sentences, list) or not all(isinstance(s, str) for s in sentences):
            raise ValueError(f"{what} entry {j} must be a list of strings, got {_describe(sentences)}")
        if not any(s.strip() for s in sentences):
            raise ValueError(f"{what} entry {j} (option {options[j]!r}) is empty: each option needs its sentences")
    return tuple(tuple(s) for s in value)


def _describe(value: Any) -> str:
    if isinstance(value, list):
        odd = next((x for x in value if not isinstance(x, str)), None)
        return "an empty list" if not value else f"a list holding {type(odd).__name__} {odd!r}"
    return f"{type(value).__name__} {value!r}"[:80]


# ------------------------------------------------------------------------------------------------ rows

def numeral_value(text: str) -> float | None:
    """The value of a numeral written alone (``5``, ``2.50``, ``五``, ``三成``, ``1,200``): the one mention
    ``mentions`` finds; a single Chinese numeral character, which ``mentions`` leaves alone out of context (a
    bare 一 is too often no number), by the Chinese reader. None otherwise (``数百``, ``三四``: no one value)."""
    found = mentions(text)
    if found:
        return float(found[0].value) if len(found) == 1 and found[0].value is not None else None
    if len(text) != 1:
        return None
    try:
        return parse_chinese_number(text)
    except ValueError:
        return None


def join_sentences(sentences: Sequence[str]) -> str:
    """One text of an option's sentences: ``。`` between two, unless the first already ends a sentence."""
    text = ""
    for sentence in filter(None, (s.strip() for s in sentences)):
        text += ("" if not text or ends_sentence(text) else "。") + sentence
    return text


def article_id(paragraphs: Sequence[str]) -> str:
    return hashlib.sha1(json.dumps(list(paragraphs), ensure_ascii=False).encode("utf-8")).hexdigest()[:12]


def left_out(values: Sequence[float | None], target: float | None, answer: int) -> str | None:
    """Why a question cannot be kept (its ``skipped`` reason), or None."""
    if any(v is None for v in values):
        return "question: an option has no numeric value"
    if len({value_key(v) for v in values}) != N_OPTIONS:
        return f"question: options are not {N_OPTIONS} distinct values"
    if target is None:
        return "question: target_num has no numeric value"
    if value_key(target) != value_key(values[answer]):
        return "question: target_num disagrees by value with the answer option"
    return None


def question_row(q: Question, aid: str, k: int, skipped: Counter) -> dict[str, Any] | None:
    """The row of one question (the schema of ``construction.features``), or None when left out (counted)."""
    values = [numeral_value(o) for o in q.options]
    target = numeral_value(q.target)
    if reason := left_out(values, target, q.answer):
        skipped[reason] += 1
        return None
    blank, answer = BLANK.search(q.stem), q.options[q.answer]
    headline = q.stem[: blank.start()] + answer + q.stem[blank.end():]
    seen = mention_at(headline, blank.start(), blank.start() + len(answer))
    alone = [m for m in mentions(answer) if m.value is not None]
    return {
        "id": f"{aid}-{k}", "article_id": aid, "date": "", "headline": headline,
        "stem": q.stem[: blank.start()] + MASK + q.stem[blank.end():],
        "target": q.target, "target_value": target,
        "target_kind": seen.kind if seen else alone[0].kind if alone else "quantity",
        "options": list(q.options), "option_values": values,
        "option_sentences": [join_sentences(s) for s in q.sentences],
        "option_sentence_lists": [list(s) for s in q.sentences],
        "answer": q.answer, "exact": value_key(target) == value_key(values[q.answer]),
        "avg_option_diff": avg_option_diff(values, q.answer),
    }


def read_release(files: Sequence[ReleaseFile]) -> ReleaseRows:
    """Every record of ``files`` validated, then the kept rows of each file and the left-out counts."""
    skipped: Counter = Counter()
    per_article: Counter = Counter()  # records read so far per article: the next k
    rows: list[tuple[dict[str, Any], ...]] = []
    for f in files:
        questions = [read_question(r, f"{f.path} record {i}") for i, r in enumerate(f.records)]
        kept = []
        for q in questions:
            aid = article_id(q.paragraphs)
            row = question_row(q, aid, per_article[aid], skipped)
            per_article[aid] += 1
            kept.extend([row] if row else [])
        rows.append(tuple(kept))
    return ReleaseRows(tuple(rows), skipped, per_article.total(), tuple(per_article))


def release_report(release: Release, read: ReleaseRows, splits: dict[str, list[dict]]) -> dict[str, Any]:
    """The build report's fields of a release build: layout, sources, files per split, questions read/kept."""
    if release.split_by_name:
        files = {f.split: [str(f.path)] for f in release.files}
    else:
        files = {s: [str(release.files[0].path)] for s in SPLITS}
    ids = {s: {r["article_id"] for r in rows} for s, rows in splits.items()}
    return {"source_layout": RELEASE_LAYOUT, "source": list(release.given), "files": files,
            "split_by": "file name" if release.split_by_name else "article (seeded, as our construction)",
            "questions_read": read.questions_read, "questions_kept": sum(map(len, splits.values())),
            "articles_in_both_splits": len(ids["train"] & ids["test"])}
