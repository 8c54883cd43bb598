"""NQuAD inputs: raw news articles (JSONL) or an article-level JSON release, read with file:line errors.

Raw articles, ``.jsonl``: one JSON object per line with ``headline`` and ``content`` (non-empty strings)
and optional ``id`` (string or integer; default ``L<line>``) and ``date`` (string). Other fields are
ignored. Blank lines are skipped; anything else that is not such an object is an error naming the line.

Released JSON, ``.json``: a list of article objects, an object ``{"data": [...]}``, or an object keyed by
article id. Each article's fields may use any of these names (first present wins):

* headline: ``headline``, ``title``, ``news_title``
* content: ``content``, ``body``, ``article``, ``news_article``, ``text``
* id: ``id``, ``news_id``, ``article_id`` (default: the key, else ``R<index>``)
* date: ``date``, ``time``, ``publish_time``

The aliases cover the article-level layouts we know of. A question-level record (``question_stem`` or
``answer_options``: the authors' NQuAD_train/test.json) is not an article: ``.questions`` reads those files, and
``nash build-data nquad --source`` sends them there. Errors name the record index (JSON) or line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...common.io import InputFileError, read_json, read_text
from ...corpus.records import jsonl_records, text_lines

HEADLINE_FIELDS = ("headline", "title", "news_title")
CONTENT_FIELDS = ("content", "body", "article", "news_article", "text")
ID_FIELDS = ("id", "news_id", "article_id")
DATE_FIELDS = ("date", "time", "publish_time")
QUESTION_MARKERS = ("question_stem", "answer_options")  # the fields that make a record question-level


@dataclass(frozen=True)
class Article:
    id: str
    headline: str
    content: str
    date: str | None
    where: str  # "file:line" or "file record i", for messages


def read_articles(path: str | Path) -> list[Article]:
    """Articles of a ``.jsonl`` (raw) or ``.json`` (release) file; ids must be unique."""
    path = Path(path)
    if path.suffix.lower() == ".jsonl":
        articles = list(_read_jsonl(path))
    elif path.suffix.lower() == ".json":
        articles = list(_read_release(path))
    else:
        raise InputFileError(path, None, f"unsupported suffix {path.suffix!r}: use .jsonl (raw articles, one "
                             "JSON object a line) or .json (article-level release)")
    if not articles:
        raise InputFileError(path, None, "no articles found")
    seen: dict[str, str] = {}
    for a in articles:
        if a.id in seen:
            raise ValueError(f"{a.where}: duplicate article id {a.id!r} (first at {seen[a.id]})")
        seen[a.id] = a.where
    return articles


def _read_jsonl(path: Path):
    for number, record in jsonl_records(path, text_lines(read_text(path))):
        where = f"{path}:{number}"
        yield _article(record, where, ("headline",), ("content",), ("id",), ("date",), default_id=f"L{number}")


def _read_release(path: Path):
    data = read_json(path)
    if isinstance(data, dict) and isinstance(data.get("data"), list):
        data = data["data"]
    if isinstance(data, dict):
        items = [(str(k), v) for k, v in data.items()]
    elif isinstance(data, list):
        items = [(None, v) for v in data]
    else:
        raise InputFileError(path, None, f"expected a list or an object of articles, got {type(data).__name__}")
    for i, (key, record) in enumerate(items):
        where = f"{path} record {i}" + (f" (key {key!r})" if key is not None else "")
        if not isinstance(record, dict):
            raise ValueError(f"{where}: expected an article object, got {type(record).__name__}")
        if any(f in record for f in QUESTION_MARKERS):
            raise ValueError(f"{where}: a question-level record (has {' or '.join(QUESTION_MARKERS)}), not an "
                             "article: give the file to `nash build-data nquad --source` (read by nquad.questions)")
        yield _article(record, where, HEADLINE_FIELDS, CONTENT_FIELDS, ID_FIELDS, DATE_FIELDS,
                       default_id=key if key is not None else f"R{i}")


def _article(record: dict[str, Any], where: str, headline_fields, content_fields, id_fields, date_fields,
             default_id: str) -> Article:
    headline = _text_field(record, where, headline_fields, required=True)
    content = _text_field(record, where, content_fields, required=True)
    date = _text_field(record, where, date_fields, required=False)
    raw_id = next((record[f] for f in id_fields if f in record), default_id)
    if isinstance(raw_id, bool) or not isinstance(raw_id, (str, int)) or not str(raw_id).strip():
        raise ValueError(f"{where}: field {id_fields[0]!r} must be a non-empty string or integer, got {raw_id!r}")
    return Article(str(raw_id).strip(), headline, content, date, where)


def _text_field(record: dict[str, Any], where: str, names: tuple[str, ...], required: bool) -> str | None:
    name = next((f for f in names if f in record), None)
    if name is None:
        if required:
            accepted = " or ".join(repr(n) for n in names)
            raise ValueError(f"{where}: missing field {accepted}; fields are {sorted(record)}")
        return None
    value = record[name]
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise ValueError(f"{where}: field {name!r} must be a string, got {type(value).__name__}")
    if not value.strip():
        if required:
            raise ValueError(f"{where}: empty {name!r} field")
        return None
    return value.strip()
