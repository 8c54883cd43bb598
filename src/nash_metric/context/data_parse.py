"""Data written as text, parsed with the span of every value: JSON, the Python-repr form that LLM prompts often
hold (single quotes, ``None``/``True``, tuples), and JSON Lines.

`json.loads` keeps no offsets, and a figure's verdict must point at the characters that state it, so this is a
small recursive-descent reader of both grammars. It yields a tree of `Node`s whose scalars carry their span in the
original text (a string's span is inside its quotes). Linear in the text; nesting is bounded (`MAX_DEPTH`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

__all__ = ["MAX_DEPTH", "DataError", "Node", "parse_data", "parse_lines"]

MAX_DEPTH = 64  # nesting deeper than this is not data a text states figures from
NodeKind = Literal["object", "list", "number", "string", "literal"]

_SPACE = re.compile(r"\s*")
_NUMBER = re.compile(r"-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
_LITERALS = ("true", "false", "null", "True", "False", "None", "NaN", "Infinity", "-Infinity", "nan", "inf")
_LITERAL = re.compile("|".join(sorted((re.escape(w) for w in _LITERALS), key=len, reverse=True)) + r"(?![\w])")
_BARE_KEY = re.compile(r"[A-Za-z_$][\w$-]*")  # a key without quotes (JavaScript-style data in a prompt)
_CLOSE = {"{": "}", "[": "]", "(": ")"}


class DataError(ValueError):
    """The text is not data of the kind asked for; `position` is where reading stopped."""

    def __init__(self, message: str, text: str, position: int) -> None:
        line = text.count("\n", 0, position) + 1
        column = position - (text.rfind("\n", 0, position) + 1) + 1
        super().__init__(f"{message} at line {line}, column {column}")
        self.position = position


@dataclass(frozen=True)
class Node:
    """A value of the data. An object's `items` are (key, node) in order; a list's are (index, node). A scalar's
    `start:end` is the span of what it states (inside a string's quotes)."""

    kind: NodeKind
    start: int
    end: int
    items: tuple[tuple[str | int, Node], ...] = ()
    text: str = ""  # a scalar as written (a string unescaped)


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text

    def space(self, at: int) -> int:
        return _SPACE.match(self.text, at).end()  # type: ignore[union-attr]  # `\s*` always matches

    def value(self, at: int, depth: int) -> tuple[Node, int]:
        if depth > MAX_DEPTH:
            raise DataError(f"nesting deeper than {MAX_DEPTH}", self.text, at)
        at = self.space(at)
        if at >= len(self.text):
            raise DataError("a value was expected", self.text, at)
        ch = self.text[at]
        if ch in "{[(":
            return self.container(at, depth)
        if ch in "\"'":
            return self.string(at)
        match = _NUMBER.match(self.text, at)
        if match and not self.text[match.end():match.end() + 1].isalnum():
            return Node("number", at, match.end(), text=match.group()), match.end()
        match = _LITERAL.match(self.text, at)
        if match:
            return Node("literal", at, match.end(), text=match.group()), match.end()
        raise DataError(f"unexpected {ch!r}", self.text, at)

    def container(self, at: int, depth: int) -> tuple[Node, int]:
        first, opening = at, self.text[at]
        closing, is_object = _CLOSE[opening], opening == "{"
        items: list[tuple[str | int, Node]] = []
        at = self.space(at + 1)
        while True:
            if at < len(self.text) and self.text[at] == closing:
                break
            if is_object:
                key, at = self.key(at)
                at = self.space(at)
                if at >= len(self.text) or self.text[at] != ":":
                    raise DataError("':' was expected after a key", self.text, at)
                node, at = self.value(at + 1, depth + 1)
                items.append((key, node))
            else:
                node, at = self.value(at, depth + 1)
                items.append((len(items), node))
            at = self.space(at)
            if at < len(self.text) and self.text[at] == ",":
                at = self.space(at + 1)
                continue
            if at >= len(self.text) or self.text[at] != closing:
                raise DataError(f"',' or {closing!r} was expected", self.text, at)
            break
        return Node("object" if is_object else "list", first, at + 1, tuple(items)), at + 1

    def key(self, at: int) -> tuple[str, int]:
        if at < len(self.text) and self.text[at] in "\"'":
            node, end = self.string(at)
            return node.text, end
        match = _NUMBER.match(self.text, at) or _BARE_KEY.match(self.text, at)
        if not match:
            raise DataError("a key was expected", self.text, at)
        return match.group(), match.end()

    def string(self, at: int) -> tuple[Node, int]:
        quote = self.text[at]
        k = at + 1
        parts: list[str] = []
        while True:
            end = self.text.find(quote, k)
            slash = self.text.find("\\", k, end if end >= 0 else None)
            if end < 0:
                raise DataError("a string is not closed", self.text, at)
            if slash < 0:
                parts.append(self.text[k:end])
                break
            parts.append(self.text[k:slash])
            parts.append(_escape(self.text, slash))
            k = slash + (2 if self.text[slash + 1:slash + 2] not in ("x", "u") else
                         4 if self.text[slash + 1] == "x" else 6)
        content = "".join(parts)
        if "\n" in self.text[at:end]:  # a line end as written; an escaped "\\n" in it is a string's own
            raise DataError("a string runs over a line end", self.text, at)
        return Node("string", at + 1, end, text=content), end + 1


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "/": "/", "\\": "\\", '"': '"', "'": "'"}


def _escape(text: str, slash: int) -> str:
    code = text[slash + 1:slash + 2]
    if code == "x":
        return chr(int(text[slash + 2:slash + 4], 16)) if re.fullmatch(r"[0-9a-fA-F]{2}", text[slash + 2:slash + 4]) \
            else ""
    if code == "u":
        digits = text[slash + 2:slash + 6]
        return chr(int(digits, 16)) if re.fullmatch(r"[0-9a-fA-F]{4}", digits) else ""
    return _ESCAPES.get(code, code)


def parse_data(text: str, start: int = 0, end: int | None = None) -> tuple[Node, int]:
    """The value (JSON or Python repr) that starts at `start` (after white space), and where it ends. Raises
    `DataError` where the text stops being data."""
    reader = _Reader(text if end is None else text[:end])
    return _parse(reader, start)


def _parse(reader: _Reader, start: int) -> tuple[Node, int]:
    return reader.value(start, 0)


def parse_lines(text: str, start: int, end: int) -> Node:
    """JSON Lines between `start` and `end`: every non-blank line one object, as a list of them."""
    reader = _Reader(text[:end])
    items: list[tuple[str | int, Node]] = []
    at = start
    while at < end:
        line_end = text.find("\n", at, end)
        line_end = end if line_end < 0 else line_end
        if text[at:line_end].strip():
            node, stop = _parse(reader, at)
            if node.kind != "object" or text[stop:line_end].strip():
                raise DataError("each line of JSON Lines must be one object", text, stop)
            items.append((len(items), node))
        at = line_end + 1
    return Node("list", start, end, tuple(items))
