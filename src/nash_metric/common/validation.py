"""Input checks that say what is wrong and where: one contract for the library, the evaluate module and the CLI.

- not a list (None, a single string, a number): TypeError;
- an item that is None or not a string: TypeError naming its index;
- an empty or whitespace-only string is a text like any other: it is scored, 0 on every channel, and the
  scoring call warns once with the count (`blank.py`), as bert-score does; refusing it would let one empty
  generation stop the evaluation of a whole corpus;
- predictions and references of different lengths: ValueError with both lengths;
- no pairs at all: not an error; the result is empty (with its hashcode);
- a message that echoes an input cuts it to about `ECHO_CHARS` characters (`cut`, `echoed`): a 200,000-digit
  number stays a short line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

ECHO_CHARS = 80  # of an input a message echoes


def cut(text: str, limit: int = ECHO_CHARS) -> str:
    """`text` cut to at most `limit` characters, "…" marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def echoed(text: str, limit: int = ECHO_CHARS) -> str:
    """`text` as a message quotes it: its repr, cut to at most `limit` characters."""
    return cut(repr(text), limit)


def check_texts(values: Any, name: str) -> list[str]:
    """A list of strings, or an error naming the first offending index."""
    if isinstance(values, str):
        raise TypeError(f"{name} must be a list of strings, got a single string; wrap it as [{name[:-1]}]")
    if values is None or (not isinstance(values, Sequence) and not hasattr(values, "__iter__")):
        raise TypeError(f"{name} must be a list of strings, got {type(values).__name__}")
    return [_check_text(text, f"{name}[{i}]") for i, text in enumerate(values)]


def _check_text(text: Any, where: str) -> str:
    if text is None:
        raise TypeError(f"{where} is None; expected a string")
    if not isinstance(text, str):
        raise TypeError(f"{where} is {type(text).__name__} ({text!r:.60}); expected a string")
    return text


def check_pairs(predictions: Any, references: Any) -> tuple[list[str], list[str]]:
    preds = check_texts(predictions, "predictions")
    refs = check_texts(references, "references")
    if len(preds) != len(refs):
        raise ValueError(f"predictions has {len(preds)} items but references has {len(refs)}; they must pair up")
    return preds, refs


def check_reference_lists(predictions: Any, references: Any) -> list[list[str]]:
    """One non-empty list of reference strings per prediction, or an error naming the offending index.

    `references` holds one str per prediction, or one non-empty list (tuple, array) of str per prediction;
    the first entry decides which, and a mix is an error. Empty inputs give an empty list.
    """
    preds = check_texts(predictions, "predictions")
    if references is None or isinstance(references, (str, bytes, Mapping)) or not hasattr(references, "__iter__"):
        raise TypeError(
            f"references must be a list of strings or a list of lists of strings, got {type(references).__name__}"
        )
    refs = list(references)
    if len(preds) != len(refs):
        raise ValueError(f"predictions has {len(preds)} items but references has {len(refs)}; they must pair up")
    grouped: list[list[str]] = []
    for i, entry in enumerate(refs):
        if entry is None:
            raise TypeError(f"references[{i}] is None; expected a string or a list of strings")
        if not isinstance(entry, str) and (
            isinstance(entry, (bytes, Mapping)) or not (isinstance(entry, Sequence) or hasattr(entry, "__array__"))
        ):
            raise TypeError(f"references[{i}] must be a str or a list of str, got {type(entry).__name__}")
        if isinstance(entry, str) != isinstance(refs[0], str):
            raise TypeError(
                f"references[{i}] is a {_kind(entry)} but references[0] is a {_kind(refs[0])}: "
                "give one str or one list of str per prediction, not a mix"
            )
        if isinstance(entry, str):
            grouped.append([_check_text(entry, f"references[{i}]")])
            continue
        texts = check_texts(entry, f"references[{i}]")
        if not texts:
            raise ValueError(f"references[{i}] is an empty list; give at least one reference per prediction")
        grouped.append(texts)
    return grouped


def _kind(entry: Any) -> str:
    return "str" if isinstance(entry, str) else "list"
