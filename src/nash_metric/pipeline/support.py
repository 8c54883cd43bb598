"""Numeric support: a verdict for every number of the prediction, and the share its reference supports.

NASH's number channel grades how close two figures are, which is right for ranking near-paraphrases but hides
a wrong figure: $0.13 against $0.15 scores 0.98. A user asking "did the model state figures its reference does
not support?" needs a yes or no per figure. Each scorable number of the prediction gets one verdict:

* ``supported``: the reference number it aligns with (its argmax match, cosine >= tau, as in S_num) has the
  same value at the precision the prediction wrote it with, a fitting unit, and for dates the same period
  (`numbers.precision`, `alignment.value_support`);
* ``unsupported``: it aligns, but that number's value differs beyond its written precision;
* ``unmatched``: no number of the reference aligns with it (or the reference has none).

Only the aligned number counts, not any number of equal value elsewhere in the reference: in a source
document the same figure often appears in another context ("2024", "$1.5 billion"), and an edit that moves
a figure there is still wrong. On the SummEdits dev domains, accepting any aligned number of equal value
instead separates edits worse against the document (ROC AUC 0.885 vs 0.905, README). A stated condition
(comparison-aware mode) does not make a number supported: the verdict is about values.

``numeric_support`` is the share of the prediction's numbers that are supported, 1.0 when it states none.
A number the reference does not state but implies (a sum, a difference, a growth rate computed from two
figures) is unsupported here: the verdict checks what is written, not arithmetic.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..numbers.precision import PERCENT, POINTS, TIME, written_precision
from .alignment import Alignment, Matches, MentionTable, SupportKeys
from .pool import TextPool

SUPPORTED, UNSUPPORTED, UNMATCHED = "supported", "unsupported", "unmatched"
VERDICTS = (SUPPORTED, UNSUPPORTED, UNMATCHED)
_STRICT = (PERCENT, POINTS, TIME)


def support_keys(pool: TextPool, table: MentionTable, **precision: Any) -> SupportKeys:
    """The written precision and unit family of every row of `table` (built by `pool.mention_table`);
    `precision` goes to `written_precision` (its ablation switches)."""
    size = len(table.values)
    values, tolerance = np.zeros(size), np.zeros(size)
    families: list[str | None] = [None] * size
    labels: list[tuple[str, int, int, float]] = [("", 0, 0, 0.0)] * size
    for text in pool.mentions:
        start = int(table.offsets[pool.ids[text]])
        for row, i in enumerate(pool.scorable[text], start=start):
            mention = pool.mentions[text][i]
            written = written_precision(text, mention, **precision)
            values[row], tolerance[row], families[row] = written.value, written.tolerance, written.family
            labels[row] = (mention.text, mention.start, mention.end, float(mention.value))
    codes = {name: k for k, name in enumerate(sorted({f for f in families if f is not None}))}
    return SupportKeys(
        values=values,
        tolerance=tolerance,
        family=np.array([codes[f] if f is not None else -1 for f in families], np.int64),
        strict=np.array([f in _STRICT for f in families], bool),
        labels=labels,
    )


def verdict_codes(matches: Matches, tau: float, rows: Any = slice(None)) -> np.ndarray:
    """Per match row of one direction (the source side's numbers; all rows or `rows`): 0 supported,
    1 unsupported, 2 unmatched (`VERDICTS` order)."""
    aligned = matches.cosine[rows] >= tau
    return np.where(aligned, np.where(matches.supported[rows], 0, 1), 2).astype(np.int8)


def numeric_support(alignment: Alignment, tau: float, codes: np.ndarray | None = None) -> np.ndarray:
    """Per aligned pair (a = prediction): the share of a's numbers that b supports; 1.0 when a has none.
    `codes`: the a->b verdict codes at `tau`, when the caller has them already."""
    codes = verdict_codes(alignment.a_to_b, tau) if codes is None else codes
    supported = np.bincount(alignment.a_to_b.pair, weights=codes == 0, minlength=len(alignment.n_a))
    with np.errstate(invalid="ignore", divide="ignore"):
        share = supported / alignment.n_a
    return np.where(alignment.n_a == 0, 1.0, share)  # b without numbers: no row, so 0 supported


def unsupported_numbers(
    alignment: Alignment, tau: float, codes: np.ndarray | None = None
) -> list[list[dict[str, Any]]]:
    """Per aligned pair: the prediction's numbers whose verdict is not `supported`, in text order.

    Each entry: text, start, end, value, verdict, and for an unsupported number the reference number it was compared
    with (its argmax match: text, start, end, value) and their cosine; an unmatched one names none. `codes`: as
    in `numeric_support`.
    """
    if alignment.first_a is None:
        raise ValueError("this alignment carries no mention labels: score with NASH to get unsupported numbers")
    matches = alignment.a_to_b
    codes = verdict_codes(matches, tau) if codes is None else codes
    out: list[list[dict[str, Any]]] = [[] for _ in range(len(alignment.n_a))]
    by_pair: dict[int, dict[int, int]] = {}
    for row in np.nonzero(codes != 0)[0]:
        by_pair.setdefault(int(matches.pair[row]), {})[int(matches.source[row])] = int(row)
    for pair in np.nonzero(alignment.n_a > 0)[0]:
        pair = int(pair)
        if alignment.n_b[pair] > 0 and pair not in by_pair:
            continue  # every number supported
        rows = by_pair.get(pair, {})
        for source in range(int(alignment.n_a[pair])):
            if alignment.n_b[pair] > 0 and source not in rows:
                continue
            out[pair].append(_entry(alignment, pair, source, rows.get(source), codes))
    return out


def _entry(alignment: Alignment, pair: int, source: int, row: int | None, codes: np.ndarray) -> dict[str, Any]:
    text, start, end, value = alignment.labels[int(alignment.first_a[pair]) + source]
    entry: dict[str, Any] = {"text": text, "start": start, "end": end, "value": value, "verdict": UNMATCHED,
                             "reference": None, "cosine": None}
    if row is None:
        return entry
    matches = alignment.a_to_b
    entry["cosine"] = float(matches.cosine[row])
    if codes[row] == 1:
        ref_text, ref_start, ref_end, ref_value = alignment.labels[int(alignment.first_b[pair] + matches.target[row])]
        entry["verdict"] = UNSUPPORTED
        entry["reference"] = {"text": ref_text, "start": ref_start, "end": ref_end, "value": ref_value}
    return entry


def support_fields(alignment: Alignment, tau: float, pair_index: np.ndarray) -> dict[str, Any]:
    """`numeric_support` and `unsupported_numbers` of each input pair (row `pair_index[k]` of `alignment`)."""
    codes = verdict_codes(alignment.a_to_b, tau)
    per_row = unsupported_numbers(alignment, tau, codes)
    return {"numeric_support": numeric_support(alignment, tau, codes)[pair_index],
            "unsupported_numbers": [per_row[row] for row in pair_index.tolist()]}
