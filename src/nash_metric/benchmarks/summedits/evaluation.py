r"""SummEdits: does a score notice a wrong figure? Human labels, per domain (Laban et al., 2023).

**Data.** One JSON file per domain, ``summedits_<domain>.json``: a list of rows with ``doc`` (source excerpt),
``original_summary`` (verified consistent with the doc), ``summary`` (an edit of it, or the original itself),
``label`` (1 consistent, 0 inconsistent, by annotators) and optionally ``id``, ``edit_types`` (list of str) and
``split``. ``data`` is a folder (every ``summedits_*.json`` in it) or explicit files; the domain is the part of
the file name after ``summedits_``. Nothing here knows the domains of the release: held-out domains of the same
format run with the same code. A malformed row fails with its file, row index (0-based) and field.

**Reference modes.** ``original``: the summary is scored against ``original_summary`` (reference-based use);
``doc``: against ``doc`` (source-grounded use). Each distinct (summary, reference) pair is scored once per scorer.

**Subsets.** Defined without NASH's number reader, so the benchmark does not grade NASH by its own reading:
``numerals(text)`` is the multiset of the digit tokens (``\d+`` with ``.``, ``,``, ``:`` or ``/`` groups) that are
not part of an identifier (glued to letters, directly or across a hyphen: "COVID-19", "SARS-CoV-2", "4D",
"49ers"; a scale, ordinal or clock suffix is allowed: "5bn", "26th", "7pm"), with thousands commas removed (a
comma followed by exactly three digits: "3,035" -> "3035"). An edit that renames "SARS-CoV-2" changes a name, not
a figure; a list label that opens the text or a line ("5) The email ...", "2. ", "(3) ") numbers an item and is
skipped, by the value-anywhere check's rule. A row is an *edit* when
``summary != original_summary``; rows that are not edits are left out of both subsets (their count is reported).

* ``figure_edits_vs_consistent``: positives are the consistent edits (label 1); negatives are the *figure
  edits*: label 0 and ``numerals(summary) - numerals(original_summary)`` non-empty (the edit states a figure
  the original summary does not);
* ``all_edits``: every edit, label 1 against label 0.

**Fields**, each a per-row consistency score (higher = more consistent):
``cosine`` (baseline of a sentence-backbone NASH: cosine of pooled embeddings), ``bertscore_f1`` (baseline of a
token-backbone NASH: BERTScore F1), and from the scorer given: ``nash``, ``s_num`` (``numeric``),
``numeric_precision``, ``numeric_support`` (share of the summary's numbers its reference supports),
``verdict`` (1.0 when the scorer flags none of the summary's figures, else 0.0; a computed figure is not flagged)
and one binary field per verdict class, ``verdict_unsupported``, ``verdict_misplaced``, ``verdict_contradicted``
(1.0 unless a figure of that class is flagged) and ``verdict_computed`` (1.0 unless a figure of the summary is
computed: stated nowhere in the reference, but given by a derivation of its numbers); from the texts alone, the
value-anywhere check (`benchmarks.value_anywhere`): ``value_anywhere_share`` (share of the summary's digit
strings whose value the reference states anywhere) and ``value_anywhere`` (1.0 when all are).

**Verdict classes**, per reference mode, subset, group and label: the rows with a flagged figure, and per verdict
class (read from the scorer's ``unsupported_numbers`` entries, not from a fixed list, and ``computed`` from its
``figure_verdicts``) the rows with at least one figure of it and its share of the flagged figures (`verdicts`;
None for ``computed``, which is not flagged).

**Metrics**, per domain and overall (every row of every domain pooled), per reference mode and subset: ROC AUC
(label 1 = consistent; None where a class is missing) and balanced accuracy (BA). The binary fields (the verdicts,
``value_anywhere``) predict consistent at 1, no threshold. A continuous field predicts consistent when
``score >= t``, with one ``t`` per (field, reference mode, subset): the candidate (a midpoint between consecutive
distinct scores, or the lowest score) that maximises BA on all rows of the run pooled (the lowest such on ties),
never per domain, and applied to every domain; or, with ``thresholds=``, the ones recorded by an earlier result (e.g.
of the dev domains), so held-out domains are judged with thresholds fixed beforehand. A continuous field such a file
does not record (it predates the field) gets no threshold and no BA there, and is named in ``threshold_source``.
"""

from __future__ import annotations

import hashlib
import json
import sys
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..registry import ScorerSource, scorer_factory, with_baseline
from ..value_anywhere import value_anywhere_share
from .data import NUMERALS_DEFINITION, OVERALL, SUBSETS, SummEditsRow, counts, read_summedits, subset_labels
from .defaults import DEFAULT_REFERENCE, REFERENCE_CHOICES, REFERENCE_MODES
from .metrics import BINARY_FIELDS, FIELDS, balanced_accuracy, best_threshold, predicted_consistent, roc_auc
from .verdicts import CLASS_FIELDS, breakdown, class_fields, entry_classes, flagged

# -- scoring ------------------------------------------------------------------------------------------------


@dataclass
class _Scorers:
    nash: Any  # the scorer given: nash, s_num, numeric_precision, numeric_support, verdict
    sentence: Any  # cosine
    token: Any  # bertscore_f1


def _scorers(scorer: ScorerSource) -> _Scorers:
    factory = scorer_factory(scorer)
    nash = factory()
    backend = nash.echo["backend"]
    # The other backbone drops what only fits the scorer given (a layer, IDF BERTScore, a rescale file).
    sentence = nash if backend == "sentence" else factory(backend="sentence", num_layers=None, bertscore_idf=False,
                                                          baseline_path=None)
    token = nash if backend == "token" else factory(backend="token", baseline_path=None)
    return _Scorers(nash, sentence, token)


def _output_field(out: Any, name: str) -> Any:
    if not hasattr(out, name):
        raise AttributeError(f"the scorer's output has no {name!r}: SummEdits needs a NASH that reports "
                             "numeric_support and unsupported_numbers")
    return getattr(out, name)


def _fields_of(role: str, out: Any) -> tuple[dict[str, np.ndarray], list[tuple[str, ...]] | None]:
    """The fields one scorer's output gives in ``role``, and (for the NASH role) each pair's verdict classes."""
    if role == "sentence":
        return {"cosine": np.asarray(out.baseline, dtype=float)}, None
    if role == "token":
        return {"bertscore_f1": np.asarray(out.baseline, dtype=float)}, None
    unsupported = _output_field(out, "unsupported_numbers")
    if len(unsupported) != len(out.nash):
        raise ValueError(f"the scorer listed unsupported numbers for {len(unsupported)} of {len(out.nash)} pairs")
    figures = getattr(out, "figure_verdicts", None)  # for the computed figures, which are not flagged
    if figures is not None and len(figures) != len(out.nash):
        raise ValueError(f"the scorer listed figure verdicts for {len(figures)} of {len(out.nash)} pairs")
    classes = entry_classes(unsupported, figures)
    return {
        "nash": np.asarray(out.nash, dtype=float),
        "s_num": np.asarray(out.numeric, dtype=float),
        "numeric_precision": np.asarray(out.numeric_precision, dtype=float),
        "numeric_support": np.asarray(_output_field(out, "numeric_support"), dtype=float),
        "verdict": np.array([0.0 if flagged(found) else 1.0 for found in classes]),
        **class_fields(classes),
    }, classes


def _value_anywhere_fields(preds: Sequence[str], refs: Sequence[str]) -> dict[str, np.ndarray]:
    share = np.array([value_anywhere_share(p, r) for p, r in zip(preds, refs)], dtype=float)
    return {"value_anywhere_share": share, "value_anywhere": (share == 1.0).astype(float)}


def _distinct_scorers(scorers: _Scorers) -> list[tuple[Any, list[str]]]:
    """Each distinct scorer with the roles it plays (the scorer given may be the sentence or token one too)."""
    roles: list[tuple[Any, list[str]]] = []
    for role in ("nash", "sentence", "token"):
        scorer = getattr(scorers, role)
        for known, names in roles:
            if known is scorer:
                names.append(role)
                break
        else:
            roles.append((scorer, [role]))
    return roles


@dataclass(frozen=True)
class ScoredRows:
    """Every field per row, the verdict classes of each row's flagged figures, and how the scoring went."""

    fields: dict[str, np.ndarray]
    classes: list[tuple[str, ...]]
    info: dict[str, Any]


def score_rows(scorers: _Scorers, rows: Sequence[SummEditsRow], mode: str, show_progress: bool = True) -> ScoredRows:
    """Every field for each row (scored against its ``mode`` reference); each distinct pair scored once per scorer."""
    pairs: dict[tuple[str, str], int] = {}
    index = np.array([pairs.setdefault((r.summary, r.reference(mode)), len(pairs)) for r in rows], np.int64)
    preds, refs = [p for p, _ in pairs], [r for _, r in pairs]
    info: dict[str, Any] = {"distinct_pairs": len(pairs)}
    if not preds:
        return ScoredRows({f: np.zeros(0) for f in FIELDS}, [], info)
    fields, classes = _value_anywhere_fields(preds, refs), []
    for scorer, names in _distinct_scorers(scorers):
        if show_progress:
            print(f"  reference {mode}: {len(pairs)} distinct pairs, {scorer.echo['backend']} backbone "
                  f"({', '.join(f for n in names for f in _ROLE_FIELDS[n])})", file=sys.stderr)
        # The sentence and token roles read the backbone's own score: the scorer computes it on request.
        out = (with_baseline(scorer) if {"sentence", "token"} & set(names) else scorer).score(
            preds, refs, show_progress=show_progress)
        for name in names:
            got, found = _fields_of(name, out)
            fields.update(got)
            classes = classes if found is None else found
        if "nash" in names:
            info["threshold"] = out.config.get("threshold")
            info["unscored_mentions"] = len(getattr(out, "unscored", []) or [])
    return ScoredRows({f: fields[f][index] for f in FIELDS}, [classes[k] for k in index.tolist()], info)


_ROLE_FIELDS = {"nash": ("nash", "s_num", "numeric_precision", "numeric_support", "verdict", *CLASS_FIELDS),
                "sentence": ("cosine",), "token": ("bertscore_f1",)}


def _recorded(path: Path, recorded: Any, mode: str, subset: str) -> dict[str, Any]:
    try:
        fields = recorded[mode][subset]
    except (KeyError, TypeError):
        raise ValueError(f"{path}: no threshold for reference {mode!r}, subset {subset!r} (was it run with "
                         f"--reference {mode} or both?)") from None
    if not isinstance(fields, dict):
        raise ValueError(f"{path}: thresholds for {mode}/{subset} are not an object: {fields!r}")
    return fields


def read_thresholds(path: str | Path, modes: Sequence[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The thresholds an earlier ``evaluate`` result recorded, for ``modes``, and where they came from.

    A continuous field the result does not record (it predates the field) gets None: no BA, no crash; the
    source lists it under ``missing``.
    """
    path = Path(path)
    raw = path.read_bytes()
    try:
        previous = json.loads(raw.decode("utf-8"))
        recorded = previous["results"]["thresholds"]
    except (UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError):
        raise ValueError(f"{path}: not a SummEdits result (no results.thresholds)") from None
    if previous.get("benchmark") != "summedits":
        raise ValueError(f"{path}: a {previous.get('benchmark')!r} result, not a SummEdits one")
    thresholds: dict[str, Any] = {}
    missing: list[str] = []
    for mode in modes:
        for subset in SUBSETS:
            fields = _recorded(path, recorded, mode, subset)
            for field in (f for f in FIELDS if f not in BINARY_FIELDS):
                value = fields.get(field)
                if field not in fields:
                    missing.append(f"{mode}/{subset}/{field}")
                elif value is not None and not isinstance(value, (int, float)):
                    raise ValueError(f"{path}: threshold for {mode}/{subset}/{field} is not a number: {value!r}")
                thresholds.setdefault(mode, {}).setdefault(subset, {})[field] = value
    config = previous.get("config", {})
    source = {"kind": "file", "path": str(path), "sha256": hashlib.sha256(raw).hexdigest(),
              "hashcodes": {k: config.get(k) for k in ("hashcode", "sentence_hashcode", "token_hashcode")},
              "domains": [f.get("domain") for f in config.get("data", [])], "missing": missing}
    return thresholds, source


def _thresholds(y: np.ndarray, scores: dict[str, np.ndarray]) -> dict[str, float | None]:
    """One BA-maximising threshold per continuous field, on the rows inside the subset (``y >= 0``) pooled."""
    inside = y >= 0
    return {f: best_threshold(y[inside], scores[f][inside]) for f in FIELDS if f not in BINARY_FIELDS}


def _table(scores: dict[str, np.ndarray], y: np.ndarray, groups: dict[str, np.ndarray],
           fixed: dict[str, float | None]) -> dict[str, Any]:
    """AUC and BA of every field, per group, on the rows inside the subset."""
    table: dict[str, Any] = {}
    for group, member in groups.items():
        keep = member & (y >= 0)
        cells = {}
        for field in FIELDS:
            s, yy = scores[field][keep], y[keep]
            predicted = predicted_consistent(field, s, fixed.get(field))
            ba = None if predicted is None else balanced_accuracy(yy, predicted)
            cells[field] = {"auc": roc_auc(yy, s), "balanced_accuracy": ba}
        table[group] = cells
    return table


def run_summedits(scorers: _Scorers, domains: dict[str, list[SummEditsRow]], modes: Sequence[str],
                  thresholds: dict[str, Any] | None = None, show_progress: bool = True) -> dict[str, Any]:
    """Counts, per-field metrics per domain and overall, the verdict classes, and the thresholds used (pooled
    unless given)."""
    rows = [r for d in domains.values() for r in d]
    edits = [r for r in rows if r.is_edit]  # rows that are not edits are in no subset: never scored
    domain_of_row = np.array([r.domain for r in edits], dtype=object)
    groups = {**{d: domain_of_row == d for d in domains}, OVERALL: np.ones(len(edits), bool)}
    result: dict[str, Any] = {
        "numerals": NUMERALS_DEFINITION,
        "subsets": dict(SUBSETS),
        "fields": dict(FIELDS),
        "domains": list(domains),
        "reference_modes": list(modes),
        "counts": {**{d: counts(domains[d]) for d in domains}, OVERALL: counts(rows)},
        "scoring": {},
        "threshold_source": {"kind": "pooled", "description": "chosen to maximise balanced accuracy on all rows "
                             "of this run pooled, applied to every domain"} if thresholds is None else None,
        "thresholds": {},
        "metrics": {},
        "verdict_classes": {},
    }
    for mode in modes:
        scored = score_rows(scorers, edits, mode, show_progress)
        result["scoring"][mode] = scored.info
        for subset in SUBSETS:
            y = subset_labels(edits, subset)
            fixed = _thresholds(y, scored.fields) if thresholds is None else thresholds[mode][subset]
            result["thresholds"].setdefault(mode, {})[subset] = fixed
            result["metrics"].setdefault(mode, {})[subset] = _table(scored.fields, y, groups, fixed)
            result["verdict_classes"].setdefault(mode, {})[subset] = breakdown(scored.classes, y, groups)
    return result


# -- benchmark entry points ----------------------------------------------------------------------------------


def evaluate(scorer: ScorerSource, data: str | Path | Sequence[str | Path], *, limit: int | None = None,
             show_progress: bool = True, reference: str = DEFAULT_REFERENCE,
             thresholds: str | Path | None = None) -> dict[str, Any]:
    """``nash bench summedits``: every field on every domain of ``data``, as a result envelope.

    ``data``: a folder (every ``summedits_*.json``) or files; ``limit``: the first N rows of each file;
    ``reference``: original, doc or both; ``thresholds``: an earlier result whose thresholds are applied instead of
    choosing them on this run. ``scorer`` is a NASH scorer or a factory ``f(**overrides) -> NASH``; the factory
    also builds the other backbone (cosine: sentence, BERTScore: token) unless the scorer is that backbone.
    """
    from ...common.reporting import result_envelope

    if limit is not None and limit < 1:
        raise ValueError(f"--limit must be a positive integer, got {limit}")
    if reference not in REFERENCE_CHOICES:
        raise ValueError(f"reference must be one of {', '.join(REFERENCE_CHOICES)}, got {reference!r}")
    modes = REFERENCE_MODES if reference == "both" else (reference,)
    files, domains = read_summedits(data, limit)
    given, source = (None, None) if thresholds is None else read_thresholds(thresholds, modes)
    scorers = _scorers(scorer)
    if source is not None:
        mine = {"hashcode": scorers.nash.hashcode, "sentence_hashcode": scorers.sentence.hashcode,
                "token_hashcode": scorers.token.hashcode}
        if source["hashcodes"] != mine:
            warnings.warn(f"thresholds from {thresholds} were chosen with other scorers ({source['hashcodes']}); "
                          f"this run uses {mine}", stacklevel=2)
    if show_progress:
        print(f"SummEdits from {', '.join(str(f.path) for f in files)}: "
              f"{', '.join(f'{d} {len(r)}' for d, r in domains.items())} rows"
              f"{f' (--limit {limit})' if limit else ''}; reference {', '.join(modes)}; model "
              f"{scorers.nash.echo['model']} ({scorers.nash.echo['backend']})", file=sys.stderr)
    results = run_summedits(scorers, domains, modes, given, show_progress)
    if source is not None:
        results["threshold_source"] = source
    config = {
        **scorers.nash.echo, "hashcode": scorers.nash.hashcode,
        "sentence_hashcode": scorers.sentence.hashcode, "token_hashcode": scorers.token.hashcode,
        "sentence_config": scorers.sentence.echo, "token_config": scorers.token.echo,
        "data": [{"domain": f.domain, "path": str(f.path), "sha256": f.sha256, "rows_in_file": f.rows_in_file,
                  "rows_used": len(domains[f.domain])} for f in files],
        "limit": limit, "reference": list(modes), "thresholds": None if thresholds is None else str(thresholds),
    }
    return result_envelope("summedits", config, results)
