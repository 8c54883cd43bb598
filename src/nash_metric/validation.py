"""Input checks that say what is wrong and where."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def check_texts(values: Any, name: str) -> list[str]:
    """A list of strings, or an error naming the first offending index."""
    if isinstance(values, str):
        raise TypeError(f"{name} must be a list of strings, got a single string; wrap it as [{name[:-1]}]")
    if values is None or (not isinstance(values, Sequence) and not hasattr(values, "__iter__")):
        raise TypeError(f"{name} must be a list of strings, got {type(values).__name__}")
    texts = list(values)
    for i, text in enumerate(texts):
        if text is None:
            raise ValueError(f"{name}[{i}] is None; expected a string")
        if not isinstance(text, str):
            raise TypeError(f"{name}[{i}] is {type(text).__name__} ({text!r:.60}); expected a string")
    return texts


def check_pairs(predictions: Any, references: Any) -> tuple[list[str], list[str]]:
    preds = check_texts(predictions, "predictions")
    refs = check_texts(references, "references")
    if len(preds) != len(refs):
        raise ValueError(f"predictions has {len(preds)} items but references has {len(refs)}; they must pair up")
    return preds, refs
