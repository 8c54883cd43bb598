"""The verdict broken down by class: which kind of flagged figure does the work of telling edits apart.

The scorer's ``unsupported_numbers`` lists, per pair, each figure whose verdict does not count as supported, with
that verdict (``unsupported``, ``misplaced``, ...). The classes are read from the entries, not from a fixed list, so
a scorer that adds or retires one needs no change here. A ``computed`` figure (no reference number states its
value, but a derivation of reference numbers gives it) counts as supported, so it is not flagged: it is read from
the scorer's ``figure_verdicts`` and counted beside the flagged classes, never in their shares. Four binary
fields name a class each (consistent unless the summary has a figure of that class; for ``verdict_computed`` a
figure the reference only implies); the breakdown counts, per label, the rows with at least one figure of each
class and each flagged class's share of the flagged figures.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from ...verdicts.spec import DERIVED, RULE_VERDICTS, UNSUPPORTED, supports

# The classes with a binary field, from the spec: the default rule's flagged verdicts (unsupported, the scorer's
# plain "not supported", first), then the derived ones (`verdicts.spec.DERIVED`).
CLASSES = tuple(dict.fromkeys([UNSUPPORTED, *(v for v in RULE_VERDICTS["context"] if not supports(v)), *DERIVED]))
# binary field -> the verdict class that makes it 0.0 (inconsistent)
CLASS_FIELDS = {f"verdict_{verdict}": verdict for verdict in CLASSES}
LABELS = {1: "consistent", 0: "inconsistent"}


def entry_classes(unsupported: Sequence[Sequence[dict[str, Any]]],
                  figures: Sequence[Sequence[dict[str, Any]]] | None = None) -> list[tuple[str, ...]]:
    """Per pair, the verdict of each flagged figure, in the scorer's order, then one ``computed`` per computed
    figure of ``figures`` (the scorer's ``figure_verdicts``; None: a scorer that lists none, so none)."""
    out = []
    for pair, entries in enumerate(unsupported):
        classes = []
        for k, entry in enumerate(entries):
            verdict = entry.get("verdict") if isinstance(entry, dict) else None
            if not isinstance(verdict, str):
                raise ValueError(f"the scorer's unsupported_numbers[{pair}][{k}] has no verdict (a string): {entry!r}")
            classes.append(verdict)
        if figures is not None:
            classes += [entry["verdict"] for entry in figures[pair] if isinstance(entry, dict)
                        and entry.get("verdict") in DERIVED]
        out.append(tuple(classes))
    return out


def flagged(found: tuple[str, ...]) -> bool:
    """Whether a pair has a flagged figure: one whose verdict does not count as supported."""
    return any(not supports(v) for v in found)


def class_fields(classes: Sequence[tuple[str, ...]]) -> dict[str, np.ndarray]:
    """The binary per-class fields: 1.0 unless the pair has a flagged figure of that class."""
    return {field: np.array([0.0 if verdict in found else 1.0 for found in classes])
            for field, verdict in CLASS_FIELDS.items()}


def _cell(classes: Sequence[tuple[str, ...]], names: Sequence[str]) -> dict[str, Any]:
    figures = Counter(v for found in classes for v in found)
    n_flagged = sum(n for v, n in figures.items() if not supports(v))
    return {
        "rows": len(classes),
        "rows_flagged": sum(1 for found in classes if flagged(found)),
        "figures_flagged": n_flagged,
        "classes": {name: {"rows": sum(1 for found in classes if name in found), "figures": figures[name],
                           "share_of_flagged": figures[name] / n_flagged if n_flagged and not supports(name)
                           else None} for name in names},
    }


def breakdown(classes: Sequence[tuple[str, ...]], y: np.ndarray, groups: dict[str, np.ndarray]
              ) -> dict[str, dict[str, dict[str, Any]]]:
    """Per group and label (``consistent``/``inconsistent``) of one subset (``y``: 1, 0, -1 outside): the rows,
    those with a flagged figure, and per class the rows with at least one figure of it and its share of the
    flagged figures (None for ``computed``, which is not flagged). Every cell names every class seen in
    ``classes`` (sorted), so tables line up."""
    names = sorted({v for found in classes for v in found})
    return {group: {LABELS[label]: _cell([classes[k] for k in np.nonzero(member & (y == label))[0]], names)
                    for label in (1, 0)} for group, member in groups.items()}
