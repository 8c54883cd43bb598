"""A user's glossary: keys and headers of their data mapped to the words a text writes for them ("FG3_PCT": "three
point percentage"), read from a file or given as a mapping (`NASHConfig.glossary`; `context.keys` reads it)."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .io import read_utf8

__all__ = ["Glossary", "check_glossary", "read_glossary"]

Glossary = Mapping[str, str]


def read_glossary(path: str | os.PathLike[str]) -> Glossary:
    """A glossary file: a JSON object of key -> words, or lines `key: words` / `key<TAB>words` (`#` comments).
    Raises ValueError naming the line of a malformed entry."""
    text = read_utf8(path)  # a binary or UTF-16 file named as such
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}: not a JSON object of key -> words ({error})") from None
        bad = [k for k, v in data.items() if not isinstance(v, str)] if isinstance(data, dict) else ["(not an object)"]
        if bad:
            raise ValueError(f"{path}: each entry must map a key to words (a string); not so for {bad[0]!r}")
        return dict(data)
    entries: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        key, sep, words = line.partition("\t") if "\t" in line else line.partition(":")
        if not sep or not key.strip() or not words.strip():
            raise ValueError(f"{path}, line {number}: expected 'key: words', got {line!r}")
        entries[key.strip()] = words.strip()
    return entries


def check_glossary(value: Any) -> Glossary | None:
    """A glossary option as a plain dict (a config stays picklable, as with `idf`): None, a mapping of str to str,
    or the path of a glossary file.
    Raises ValueError / TypeError saying which entry is wrong."""
    if value is None:
        return None
    if isinstance(value, (str, os.PathLike)):
        if Path(value).is_dir():
            raise ValueError(f"glossary file {os.fspath(value)!r} is a folder, not a file; pass one of its files")
        if not Path(value).is_file():
            raise ValueError(f"glossary file {os.fspath(value)!r} not found")
        return read_glossary(value)
    if not isinstance(value, Mapping):
        raise TypeError(f"a glossary is a mapping of key -> words or a file's path, got {type(value).__name__}")
    bad = next(((k, v) for k, v in value.items() if not isinstance(k, str) or not isinstance(v, str)), None)
    if bad is not None:
        raise TypeError(f"a glossary maps a key (str) to words (str); got {bad[0]!r}: {bad[1]!r}")
    return dict(value)
