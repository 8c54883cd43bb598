"""`NASH.explain`: every step of one pair's score as a JSON-serialisable dict.

Everything is read from the scoring call itself (the same mentions, the same argmax matches, the same
tau gate and alpha, the same figure verdicts): nothing is computed a second time, so the explanation cannot
disagree with the score.

Each mention of A (the prediction) carries its support verdict (`verdicts/decide.py`, under the scorer's rule:
`config["verdict"]`): ``verdict`` (None for a mention the verdict does not judge: unscored, or a small count
written in words), ``found`` (the mention of B that states its value, or None), ``context_match`` (the mention
of B it is compared with, with their ``cosine``, or None), ``basis`` (what decided a misplaced or
contradicted figure, else None), ``derivation`` (for a computed figure, how B's numbers give its value, "(62.4 −
50.2) / 50.2 = 24.3%"; for an unsupported one, the closest derivation of its bound numbers, if any; else None)
``operands`` (the numbers of B in ``derivation``, in its order, or None) and ``role`` ("period" for a period that
places a figure of its sentence, which ``numeric_support`` counts only when it is not supported; else "figure");
``found``, ``context_match`` and
each operand give the ``index`` into ``mentions["b"]`` with its text, span and value. Each A->B alignment row
repeats the verdict, and ``supported_by`` (index into ``mentions["b"]``) where B states its value (None for a
computed figure, which no one number of B states).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..pipeline.alignment import Matches
from ..pipeline.output import NASHOutput
from ..pipeline.pool import TextPool
from ..pipeline.steps import ScoredCall
from ..verdicts.spec import supports

NO_VERDICT: dict[str, Any] = {"verdict": None, "found": None, "context_match": None, "basis": None,
                              "derivation": None, "operands": None, "role": None}


def explain_pairs(call: ScoredCall, predictions: list[str], references: list[str]) -> list[dict[str, Any]]:
    alignment = call.output.alignment
    rows_ab, rows_ba = _rows_by_pair(alignment.a_to_b), _rows_by_pair(alignment.b_to_a)
    out = []
    for k, (a, b) in enumerate(zip(predictions, references)):
        row = int(call.output.pair_index[k])
        figures = call.output.figure_verdicts[k] if call.output.figure_verdicts else []
        verdicts = _verdicts_by_mention(call.pool, a, b, figures)
        matches = (
            _match_rows(call, alignment.a_to_b, rows_ab.get(row, ()), a, b, verdicts=verdicts),
            _match_rows(call, alignment.b_to_a, rows_ba.get(row, ()), b, a),
        )
        n_a, n_b = len(call.pool.scorable[a]), len(call.pool.scorable[b])
        cosines = alignment.cosines.get(row, np.zeros((n_a, n_b)))
        out.append(_explain_pair(call, k, a, b, matches, cosines, verdicts))
    return out


def _verdicts_by_mention(pool: TextPool, a: str, b: str, entries: Sequence[Mapping[str, Any]]
                         ) -> dict[int, dict[str, Any]]:
    """Index into A's mentions -> its verdict, where its value was found, its context match and the operands of its
    derivation (indices into B's mentions), from the scored call's `figure_verdicts` (support.FigureVerdict,
    located by span)."""
    in_a = {(m.start, m.end): i for i, m in enumerate(pool.mentions[a])}
    in_b = {(m.start, m.end): i for i, m in enumerate(pool.mentions[b])}
    out = {}
    for e in entries:
        match = _located(in_b, e["reference"])
        if match is not None:
            match["cosine"] = e["cosine"]
        operands = e.get("operands")
        out[in_a[e["start"], e["end"]]] = {
            "verdict": e["verdict"], "found": _located(in_b, e["found"]), "context_match": match,
            "basis": e.get("basis"), "derivation": e.get("derivation"),
            "operands": None if operands is None else [_located(in_b, o) for o in operands],
            "role": e.get("role", "figure")}
    return out


def _located(index: Mapping[tuple[int, int], int], number: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if number is None:
        return None
    return {"index": index[number["start"], number["end"]], **number}


def _rows_by_pair(matches: Matches) -> dict[int, np.ndarray]:
    order = np.argsort(matches.pair, kind="stable")
    pairs, starts = np.unique(matches.pair[order], return_index=True)
    return {int(p): rows for p, rows in zip(pairs, np.split(order, starts[1:]))}


def _match_rows(call: ScoredCall, matches: Matches, rows, source: str, target: str,
                verdicts: Mapping[int, Mapping[str, Any]] | None = None) -> list[dict[str, Any]]:
    """One entry per scorable mention of `source`: its match in `target` and whether the gate let it count.

    With `verdicts` (the prediction's side), each entry also holds its support verdict and ``supported_by``, the
    mention of `target` that supports it.
    """
    src, dst = call.pool.scorable[source], call.pool.scorable[target]
    if not dst:
        entries = [{"source": i, "target": None, "cosine": None, "valid": False,
                    "status": "no numbers on the other side", "magnitude_similarity": None, "similarity_used": None,
                    "contribution": 0.0} for i in src]
    else:
        rows = np.asarray(rows, dtype=np.int64)
        accepted = matches.accepted(call.tau)[rows]
        entries = [_match_row(call, matches, r, valid, src, dst) for r, valid in zip(rows.tolist(), accepted.tolist())]
    if verdicts is not None:
        for entry in entries:
            v = verdicts.get(entry["source"], NO_VERDICT)
            supported = supports(v["verdict"]) and v["found"] is not None
            entry.update(verdict=v["verdict"], supported_by=v["found"]["index"] if supported else None)
    return entries


def _match_row(call: ScoredCall, matches: Matches, r: int, valid: bool, src: list[int], dst: list[int]
               ) -> dict[str, Any]:
    cosine, by_condition = float(matches.cosine[r]), bool(matches.by_condition[r])
    status = "accepted" if cosine >= call.tau else "rejected: cosine below tau"
    if by_condition:
        status = "accepted: scored by a stated condition"
    elif matches.other_kind[r]:
        status += "; another kind of figure (scores 0)"  # percent vs points, two currencies, a date vs a count
    return {
        "source": src[matches.source[r]],
        "target": dst[matches.target[r]],
        "cosine": cosine,
        "valid": valid,
        "status": status,
        "magnitude_similarity": float(matches.magnitude[r]),
        "similarity_used": float(matches.similarity[r]),
        "contribution": float(matches.similarity[r]) if valid else 0.0,
    }


def _explain_pair(call: ScoredCall, k: int, a: str, b: str, matches, cosines: np.ndarray,
                  verdicts: Mapping[int, Mapping[str, Any]]) -> dict[str, Any]:
    pool, out = call.pool, call.raw
    ia, ib = pool.scorable[a], pool.scorable[b]
    w_text, w_num = call.idf.masses(pool.masked[a], pool.masked[b])
    info: dict[str, Any] = {
        "texts": {"a": a, "b": b},
        "mentions": {
            "a": [dict(m.to_dict(), scored=i in ia, **verdicts.get(i, NO_VERDICT))
                  for i, m in enumerate(pool.mentions[a])],
            "b": [dict(m.to_dict(), scored=i in ib) for i, m in enumerate(pool.mentions[b])],
        },
        "masked": {"a": pool.masked[a], "b": pool.masked[b]},
        "text_channel": {"a": pool.channel[a], "b": pool.channel[b]},
        "windows": {"a": call.encodings[pool.ids[a]].n_windows, "b": call.encodings[pool.ids[b]].n_windows},
        "similarity_matrix": cosines.tolist(),
        "threshold": call.tau,
        "alignments": {"a_to_b": matches[0], "b_to_a": matches[1]},
        "idf": {"w_text": w_text, "w_num": w_num, "source": call.idf.source},
        "alpha": float(out.alpha[k]),
        # Before any rescaling, so that the arithmetic above adds up; "rescaled" holds what `score` returns.
        "scores": {
            **{name: float(getattr(out, name)[k]) for name in out.fields if name != "alpha"},  # baseline: on request
            "numeric_a_to_b": float(call.number_scores.a_to_b[k]),
            "numeric_b_to_a": float(call.number_scores.b_to_a[k]),
            "baseline_name": call.backbone_name,
        },
        "rescaled": _rescaled(call.output, k),
        "unsupported_numbers": call.output.unsupported_numbers[k] if call.output.unsupported_numbers else [],
        "figure_verdicts": call.output.figure_verdicts[k] if call.output.figure_verdicts else [],
        "unscored": pool.unscored([a], [b]),
        "config": out.config,
        "hashcode": out.hashcode,
    }
    if call.comparisons:
        info["constraints"] = {"a": _constraints(pool, a), "b": _constraints(pool, b)}
    return info


def _rescaled(out: NASHOutput, k: int) -> dict[str, Any] | None:
    """The rescaled scores of pair k with the b of each, or None when the scorer does not rescale."""
    if out.rescale is None:
        return None
    from ..calibration.rescale import RESCALED_FIELDS

    return {"source": out.rescale.source, "baseline_values": dict(out.rescale.values),
            **{name: float(getattr(out, name)[k]) for name in RESCALED_FIELDS if getattr(out, name) is not None}}


def _constraints(pool: TextPool, text: str) -> list[dict[str, Any]]:
    """The conditions a text states, indexed into its full mention list (find_constraints sees scorable ones)."""
    from ..numbers.comparisons import find_constraints

    kept = pool.scorable[text]
    out = []
    for c in find_constraints(text, [pool.mentions[text][i] for i in kept]):
        d = c.to_dict()
        d["mention_index"] = kept[c.mention_index]
        if d.get("other_index") is not None:
            d["other_index"] = kept[d["other_index"]]
        out.append(d)
    return out
