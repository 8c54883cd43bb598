"""Every (text, source) pair scored once, each figure labelled by the human spans it overlaps, and the metrics.

**Units.** A *figure* is an entry of the scorer's ``figure_verdicts`` for a text (its character span in the text
and its verdict). It is *wrong* when its span overlaps a span a person marked wrong (Rotowire: a NUMBER error;
quintd: an Incorrect span), else *right*. The verdict *flags* it when its verdict does not count as supported
(`verdicts.spec.supports`: supported and computed count). A *text* is wrong when it has a wrong figure and right
when it has a figure and no wrong one; a text without figures is left out of the text unit and counted. A text
with a label of its own (TabFact: entailed 1, refuted 0) keeps it, figures or not; the verdict flags a text when it
flags one of its figures.

**The value-anywhere check (V)**, beside every verdict metric at the same unit (`benchmarks.value_anywhere`): a
figure is flagged when a digit string inside its span (list labels of the text blanked) has a value the source
states nowhere; a text when one of its digit strings does (`value_anywhere`).

**Metrics**, per group (domain) and over all: the share of right units flagged, the share of wrong units flagged
(recall of wrong ones) and their balanced accuracy, BA = (recall of wrong + (1 − share of right flagged)) / 2, None
when a class is missing. Over the wrong spans themselves (the accuracy shared task's measures): recall = wrong spans
that at least one flagged figure overlaps / wrong spans; precision = flagged figures that overlap a wrong span /
flagged figures.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...verdicts.spec import SPECS, supports
from ..claims import by_source
from ..summedits.metrics import balanced_accuracy
from ..value_anywhere import blank_list_labels, digit_values, value_anywhere
from .spans import Span, overlaps, overlaps_any

ALL = "all"


@dataclass(frozen=True)
class Text:
    """One generated text, its source, and what a person marked: the wrong spans that count, or its own label."""

    id: str
    group: str
    prediction: str
    source: str
    wrong: tuple[Span, ...] = ()
    label: int | None = None  # 1 right, 0 wrong (TabFact); None: from its figures


@dataclass(frozen=True)
class Figure:
    """One figure of a text (``text``: its index): its span, its verdict, the two checks and its label."""

    text: int
    start: int
    end: int
    figure: str
    verdict: str
    flagged: bool  # by the verdict: not supported
    value_flagged: bool  # by the value-anywhere check: a digit string of it stated nowhere in the source
    wrong: bool  # overlaps a wrong span


@dataclass(frozen=True)
class Scored:
    """The figures of every text, and per text what the two checks say of it whole."""

    texts: tuple[Text, ...]
    figures: tuple[Figure, ...]
    value_flagged: np.ndarray  # per text: value_anywhere(prediction, source) is False
    info: dict[str, Any]


# -- scoring ------------------------------------------------------------------------------------------------


def _figure_verdicts(out: Any, pairs: int) -> list[list[dict[str, Any]]]:
    every = getattr(out, "figure_verdicts", None)
    if every is None:
        raise AttributeError("the scorer's output has no 'figure_verdicts': these benchmarks need a NASH that "
                             "reports every figure's verdict")
    if len(every) != pairs:
        raise ValueError(f"the scorer gave figure verdicts for {len(every)} of {pairs} pairs")
    for k, entries in enumerate(every):
        if not isinstance(entries, list) or not all(isinstance(e, dict) and {"start", "end", "verdict"} <= set(e)
                                                    for e in entries):
            raise ValueError(f"pair {k}: figure_verdicts must be a list of dicts with start, end and verdict, got "
                             f"{entries!r:.80}")
    return every


def _figures(k: int, text: Text, entries: list[dict[str, Any]]) -> list[Figure]:
    blanked = blank_list_labels(text.prediction)
    stated = set(digit_values(text.source, skip_list_labels=False))
    out = []
    for e in entries:
        start, end = int(e["start"]), int(e["end"])
        found = digit_values(blanked[start:end], skip_list_labels=False)
        out.append(Figure(k, start, end, str(e.get("text", text.prediction[start:end])), str(e["verdict"]),
                          not supports(str(e["verdict"])), any(v not in stated for v in found),
                          overlaps_any((start, end), text.wrong)))
    return out


def score_texts(scorer: Any, texts: Sequence[Text], show_progress: bool = True) -> Scored:
    """Every text scored against its source in one call (each distinct pair once, ordered by source so that a
    chunk encodes a source once), its figures labelled and checked."""
    order, position, sources = by_source((t.prediction, t.source) for t in texts)
    if show_progress:
        print(f"  {len(texts)} texts, {len(order)} distinct (text, source) pairs, {sources} sources; "
              f"model {scorer.echo['model']} ({scorer.echo['backend']})", file=sys.stderr)
    out = scorer.score([p for p, _ in order], [s for _, s in order], show_progress=show_progress)
    every = _figure_verdicts(out, len(order)) if order else []
    figures = [f for k, t in enumerate(texts) for f in _figures(k, t, every[position[(t.prediction, t.source)]])]
    value_flagged = np.array([not value_anywhere(t.prediction, t.source) for t in texts], bool)
    info = {"texts": len(texts), "distinct_pairs": len(order), "sources": sources,
            "figures": len(figures), "threshold": getattr(out, "config", {}).get("threshold")}
    return Scored(tuple(texts), tuple(figures), value_flagged, info)


# -- metrics ------------------------------------------------------------------------------------------------


def rates(wrong: np.ndarray, flagged: np.ndarray) -> dict[str, float | None]:
    """Of units labelled ``wrong`` (True) or right, with a check's ``flagged``: the share of right units flagged, the
    recall of wrong ones and BA (label 1 = right, predicted right = not flagged); None where a class is missing."""
    wrong, flagged = np.asarray(wrong, bool), np.asarray(flagged, bool)
    right = ~wrong
    return {"ba": balanced_accuracy(right.astype(int), ~flagged),
            "flagged_right": float(flagged[right].mean()) if right.any() else None,
            "recall_wrong": float(flagged[wrong].mean()) if wrong.any() else None}


def tally(verdicts: Sequence[str]) -> dict[str, int]:
    """Counts per verdict, in the spec's order (any verdict the spec does not name after them)."""
    counts = Counter(verdicts)
    names = [s.name for s in SPECS if s.name in counts] + sorted(v for v in counts if v not in {s.name for s in SPECS})
    return {name: counts[name] for name in names}


def figure_cell(figures: Sequence[Figure]) -> dict[str, Any]:
    """The figure unit over ``figures``: counts, the two checks' rates, the verdicts of right and wrong figures."""
    wrong = np.array([f.wrong for f in figures], bool)
    return {"right": int((~wrong).sum()), "wrong": int(wrong.sum()),
            "verdict": rates(wrong, np.array([f.flagged for f in figures], bool)),
            "value_anywhere": rates(wrong, np.array([f.value_flagged for f in figures], bool)),
            "verdicts_right": tally([f.verdict for f in figures if not f.wrong]),
            "verdicts_wrong": tally([f.verdict for f in figures if f.wrong])}


def text_labels(scored: Scored) -> np.ndarray:
    """Per text: 1 right, 0 wrong, -1 left out (no label of its own and no figure)."""
    labels = np.full(len(scored.texts), -1, np.int64)
    for f in scored.figures:
        labels[f.text] = 0 if f.wrong or labels[f.text] == 0 else 1
    for k, t in enumerate(scored.texts):
        if t.label is not None:
            labels[k] = t.label
    return labels


def text_cell(scored: Scored, keep: np.ndarray) -> dict[str, Any]:
    """The text unit over the texts ``keep``: counts (the texts left out without figures too) and both checks."""
    labels = text_labels(scored)
    counts = np.bincount([f.text for f in scored.figures], minlength=len(scored.texts))
    flagged = np.zeros(len(scored.texts), bool)
    for f in scored.figures:
        flagged[f.text] |= f.flagged
    inside = keep & (labels >= 0)
    wrong = labels[inside] == 0
    return {"texts": int(keep.sum()), "right": int((~wrong).sum()), "wrong": int(wrong.sum()),
            "without_figures": int((keep & (counts == 0)).sum()),
            "left_out": int((keep & (labels < 0)).sum()),
            "verdict": rates(wrong, flagged[inside]),
            "value_anywhere": rates(wrong, scored.value_flagged[inside])}


def _by_text(figures: Sequence[Figure]) -> dict[int, list[Figure]]:
    out: dict[int, list[Figure]] = {}
    for f in figures:
        out.setdefault(f.text, []).append(f)
    return out


def _found(spans: Sequence[tuple[int, Span]], figures: Sequence[Figure]) -> int:
    """How many of the spans at least one of ``figures`` overlaps (in the span's own text)."""
    by_text = _by_text(figures)
    return sum(1 for k, span in spans if any(overlaps(span, (f.start, f.end)) for f in by_text.get(k, ())))


def _span_check(spans: Sequence[tuple[int, Span]], figures: Sequence[Figure], flagged: str) -> dict[str, Any]:
    chosen = [f for f in figures if getattr(f, flagged)]
    found, true_flags = _found(spans, chosen), sum(1 for f in chosen if f.wrong)
    return {"flagged_figures": len(chosen), "spans_found": found, "flags_on_wrong": true_flags,
            "recall": found / len(spans) if spans else None,
            "precision": true_flags / len(chosen) if chosen else None}


def span_cell(scored: Scored, keep: np.ndarray) -> dict[str, Any]:
    """Over the wrong spans of the texts ``keep``: how many a figure overlaps at all, and per check the recall of
    the spans and the precision of its flags."""
    spans = [(k, span) for k, t in enumerate(scored.texts) if keep[k] for span in t.wrong]
    figures = [f for f in scored.figures if keep[f.text]]
    return {"spans": len(spans), "spans_with_a_figure": _found(spans, figures),
            "verdict": _span_check(spans, figures, "flagged"),
            "value_anywhere": _span_check(spans, figures, "value_flagged")}


UNITS = ("figures", "texts", "spans")


def group_tables(scored: Scored, units: Sequence[str] = UNITS) -> dict[str, dict[str, Any]]:
    """Per group (in order of appearance; only when there are several) and over all (`ALL`): the figure unit, the
    text unit and the span measures, those of ``units``."""
    groups = list(dict.fromkeys(t.group for t in scored.texts))
    member = np.array([t.group for t in scored.texts], dtype=object)
    masks = {g: member == g for g in groups} if len(groups) > 1 else {}
    masks[ALL] = np.ones(len(scored.texts), bool)
    out = {}
    for name, keep in masks.items():
        cell: dict[str, Any] = {}
        if "figures" in units:
            cell["figures"] = figure_cell([f for f in scored.figures if keep[f.text]])
        if "texts" in units:
            cell["texts"] = text_cell(scored, keep)
        if "spans" in units:
            cell["spans"] = span_cell(scored, keep)
        out[name] = cell
    return out
