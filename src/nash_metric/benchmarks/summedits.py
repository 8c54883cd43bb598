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
a figure. A row is an *edit* when
``summary != original_summary``; rows that are not edits are left out of both subsets (their count is reported).

* ``figure_edits_vs_consistent``: positives are the consistent edits (label 1); negatives are the *figure
  edits*: label 0 and ``numerals(summary) - numerals(original_summary)`` non-empty (the edit states a figure
  the original summary does not);
* ``all_edits``: every edit, label 1 against label 0.

**Fields**, each a per-row consistency score (higher = more consistent):
``cosine`` (baseline of a sentence-backbone NASH: cosine of pooled embeddings), ``bertscore_f1`` (baseline of a
token-backbone NASH: BERTScore F1), and from the scorer given: ``nash``, ``s_num`` (``numeric``),
``numeric_precision``, ``numeric_support`` (share of the summary's numbers its reference supports) and
``verdict`` (1.0 when the pair has no unsupported number, else 0.0).

**Metrics**, per domain and overall (every row of every domain pooled), per reference mode and subset: ROC AUC
(label 1 = consistent; None where a class is missing) and balanced accuracy (BA). The verdict is binary: 1 is
predicted consistent, no threshold. A continuous field predicts consistent when ``score >= t``, with one ``t``
per (field, reference mode, subset): the candidate (a midpoint between consecutive distinct scores, or the
lowest score) that maximises BA on all rows of the run pooled (the lowest such on ties), never per domain, and
applied to every domain; or, with ``thresholds=``, the ones recorded by an earlier result (e.g. of the dev
domains), so held-out domains are judged with thresholds fixed beforehand.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import warnings
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .registry import ScorerSource, scorer_factory
from .summedits_defaults import DEFAULT_REFERENCE, REFERENCE_CHOICES, REFERENCE_MODES

SUBSETS = {
    "figure_edits_vs_consistent": "positives: consistent edits (label 1, summary != original_summary); negatives: "
    "figure edits (label 0 and numerals(summary) - numerals(original_summary) non-empty)",
    "all_edits": "label 1 vs label 0 among the rows with summary != original_summary",
}
NUMERALS_DEFINITION = ("numerals(text) = multiset of the digit tokens (\\d+ with . , : / groups) that are not part of "
                       "an identifier (glued to letters: COVID-19, SARS-CoV-2, 4D, 49ers; a scale or ordinal suffix "
                       "such as 5bn, 26th, 7pm is allowed), thousands commas removed")
FIELDS = {
    "cosine": "baseline of a sentence-backbone NASH (cosine of pooled embeddings)",
    "bertscore_f1": "baseline of a token-backbone NASH (BERTScore F1)",
    "nash": "NASH of the scorer given",
    "s_num": "S_num (numeric) of the scorer given",
    "numeric_precision": "numeric_precision of the scorer given",
    "numeric_support": "share of the summary's numbers supported by the reference (1.0 when it states none)",
    "verdict": "1.0 when the pair has no unsupported number, else 0.0 (binary: no threshold)",
}
BINARY_FIELDS = ("verdict",)
OVERALL = "overall"
PREFIX = "summedits_"
TEXT_FIELDS = ("doc", "original_summary", "summary")
# A digit token not glued to a letter before it (directly or across a hyphen: "COVID-19") and followed by no
# letter but a scale, ordinal or clock suffix ("5bn", "26th", "7pm").
_NUMERAL = re.compile(r"(?<![A-Za-z0-9.,])(?<![A-Za-z]-)\d+(?:[.,:/]\d+)*(?!\d)"
                      r"(?:(?=(?:bn|mn|m|b|k|st|nd|rd|th|s|am|pm|x)\b)|(?![A-Za-z]))")
_THOUSANDS = re.compile(r",(?=\d{3}(?!\d))")


# -- reading ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SummEditsRow:
    domain: str
    index: int  # position in its file, 0-based
    id: str
    doc: str
    original_summary: str
    summary: str
    label: int  # 1 consistent, 0 inconsistent
    edit_types: tuple[str, ...] = ()
    split: str | None = None

    @property
    def is_edit(self) -> bool:
        return self.summary != self.original_summary

    @property
    def is_figure_edit(self) -> bool:
        """An inconsistent edit that states a figure the original summary does not."""
        return self.label == 0 and self.is_edit and bool(new_numerals(self.summary, self.original_summary))

    def reference(self, mode: str) -> str:
        return self.original_summary if mode == "original" else self.doc


@dataclass(frozen=True)
class DomainFile:
    domain: str
    path: Path
    sha256: str
    rows_in_file: int


def numerals(text: str) -> Counter[str]:
    """The digit-bearing tokens of ``text`` as a multiset (independent of NASH's number reader)."""
    return Counter(_THOUSANDS.sub("", m.group()) for m in _NUMERAL.finditer(text))


def new_numerals(summary: str, original: str) -> Counter[str]:
    """The numerals ``summary`` states more often than ``original`` does (multiset difference)."""
    return numerals(summary) - numerals(original)


def domain_of(path: str | Path) -> str:
    stem = Path(path).stem
    return stem[len(PREFIX):] if stem.startswith(PREFIX) and len(stem) > len(PREFIX) else stem


def data_files(data: str | Path | Sequence[str | Path]) -> list[Path]:
    """The files ``data`` names: a folder gives every ``summedits_*.json`` in it (sorted), a file itself."""
    items = [data] if isinstance(data, (str, Path)) else list(data)
    if not items:
        raise ValueError("no SummEdits data given")
    files: list[Path] = []
    for item in items:
        path = Path(item)
        if path.is_dir():
            found = sorted(p for p in path.glob(f"{PREFIX}*.json") if p.is_file())
            if not found:
                raise FileNotFoundError(f"{path}: no {PREFIX}*.json files in this folder")
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            raise FileNotFoundError(f"{path}: no such file or folder")
    domains = Counter(domain_of(p) for p in files)
    if twice := sorted(d for d, n in domains.items() if n > 1):
        raise ValueError(f"domain(s) {', '.join(twice)} given by more than one file: "
                         f"{', '.join(str(p) for p in files if domain_of(p) in twice)}")
    return files


def _row(path: Path, domain: str, index: int, raw: Any) -> SummEditsRow:
    from ..io import InputFileError

    def fail(message: str) -> InputFileError:
        return InputFileError(path, None, f"row {index}: {message}")

    if not isinstance(raw, dict):
        raise fail(f"expected an object with fields {', '.join(TEXT_FIELDS)}, label; got {type(raw).__name__}")
    for name in (*TEXT_FIELDS, "label"):
        if name not in raw:
            raise fail(f"missing field {name!r}")
    for name in TEXT_FIELDS:
        if not isinstance(raw[name], str):
            raise fail(f"field {name!r} must be a string, got {type(raw[name]).__name__}")
    label = raw["label"]
    if isinstance(label, bool) or not isinstance(label, (int, float)) or label not in (0, 1):
        raise fail(f"field 'label' must be 0 or 1, got {label!r}")
    row_id = raw.get("id", f"{domain}-{index}")
    if not isinstance(row_id, (str, int)) or isinstance(row_id, bool):
        raise fail(f"field 'id' must be a string or an integer, got {type(row_id).__name__}")
    edit_types = raw.get("edit_types", [])
    if edit_types is None:
        edit_types = []
    if not isinstance(edit_types, list) or not all(isinstance(e, str) for e in edit_types):
        raise fail(f"field 'edit_types' must be a list of strings, got {edit_types!r}")
    split = raw.get("split")
    if split is not None and not isinstance(split, str):
        raise fail(f"field 'split' must be a string, got {type(split).__name__}")
    return SummEditsRow(domain, index, str(row_id), raw["doc"], raw["original_summary"], raw["summary"], int(label),
                        tuple(edit_types), split)


def read_file(path: str | Path, limit: int | None = None) -> tuple[DomainFile, list[SummEditsRow]]:
    """The rows of one SummEdits file (``limit``: the first N; every row is checked)."""
    from ..io import InputFileError

    path = Path(path)
    raw_bytes = path.read_bytes()
    try:
        payload = json.loads(raw_bytes.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InputFileError(path, None, f"not valid UTF-8: {exc.reason}") from None
    except json.JSONDecodeError as exc:
        raise InputFileError(path, exc.lineno, f"not valid JSON: {exc.msg} (column {exc.colno})") from None
    if not isinstance(payload, list):
        raise InputFileError(path, None, f"expected a JSON list of rows, got {type(payload).__name__}")
    if not payload:
        raise InputFileError(path, None, "no rows")
    domain = domain_of(path)
    rows = [_row(path, domain, i, raw) for i, raw in enumerate(payload)]
    info = DomainFile(domain, path, hashlib.sha256(raw_bytes).hexdigest(), len(rows))
    return info, rows[:limit] if limit is not None else rows


def read_summedits(data: str | Path | Sequence[str | Path], limit: int | None = None
                   ) -> tuple[list[DomainFile], dict[str, list[SummEditsRow]]]:
    """Every file ``data`` names, and its rows by domain (in file order)."""
    files, domains = [], {}
    for path in data_files(data):
        info, rows = read_file(path, limit)
        files.append(info)
        domains[info.domain] = rows
    return files, domains


# -- subsets and counts -----------------------------------------------------------------------------------


def subset_labels(rows: Sequence[SummEditsRow], subset: str) -> np.ndarray:
    """Per row: 1 positive, 0 negative, -1 outside ``subset``."""
    if subset not in SUBSETS:
        raise ValueError(f"unknown subset {subset!r}; expected one of {', '.join(SUBSETS)}")
    out = np.full(len(rows), -1, np.int64)
    for k, row in enumerate(rows):
        if not row.is_edit:
            continue
        if row.label == 1:
            out[k] = 1
        elif subset == "all_edits" or row.is_figure_edit:
            out[k] = 0
    return out


def counts(rows: Sequence[SummEditsRow]) -> dict[str, Any]:
    edits = [r for r in rows if r.is_edit]
    out = {
        "rows": len(rows),
        "not_edits": len(rows) - len(edits),
        "not_edits_labelled_inconsistent": sum(1 for r in rows if not r.is_edit and r.label == 0),
        "edits": len(edits),
        "consistent_edits": sum(1 for r in edits if r.label == 1),
        "inconsistent_edits": sum(1 for r in edits if r.label == 0),
        "figure_edits": sum(1 for r in edits if r.is_figure_edit),
        "consistent_edits_with_new_numerals": sum(
            1 for r in edits if r.label == 1 and new_numerals(r.summary, r.original_summary)),
        "blank_summaries": sum(1 for r in edits if not r.summary.strip()),
        "blank_original_summaries": sum(1 for r in edits if not r.original_summary.strip()),
        "blank_docs": sum(1 for r in edits if not r.doc.strip()),
    }
    out["subsets"] = {}
    for subset in SUBSETS:
        y = subset_labels(rows, subset)
        out["subsets"][subset] = {"positives": int((y == 1).sum()), "negatives": int((y == 0).sum())}
    return out


# -- metrics ------------------------------------------------------------------------------------------------


def roc_auc(y: np.ndarray, scores: np.ndarray) -> float | None:
    """ROC AUC with label 1 positive; None unless both classes are present."""
    from sklearn.metrics import roc_auc_score

    y = np.asarray(y)
    if not ((y == 1).any() and (y == 0).any()):
        return None
    return float(roc_auc_score(y, np.asarray(scores, dtype=float)))


def balanced_accuracy(y: np.ndarray, predicted: np.ndarray) -> float | None:
    """Mean of the recall of each class; ``predicted`` is True for consistent. None unless both are present."""
    y, predicted = np.asarray(y), np.asarray(predicted, dtype=bool)
    pos, neg = y == 1, y == 0
    if not (pos.any() and neg.any()):
        return None
    return float((predicted[pos].mean() + (~predicted[neg]).mean()) / 2)


def best_threshold(y: np.ndarray, scores: np.ndarray) -> float | None:
    """The ``t`` (predict consistent when score >= t) maximising balanced accuracy on (y, scores).

    Candidates: the lowest score (everything consistent, BA 0.5) and the midpoints between consecutive distinct
    scores; the lowest candidate wins ties. None unless both classes are present.
    """
    y, scores = np.asarray(y), np.asarray(scores, dtype=float)
    pos, neg = np.sort(scores[y == 1]), np.sort(scores[y == 0])
    if not (len(pos) and len(neg)):
        return None
    values = np.unique(scores)
    candidates = np.concatenate([values[:1], values[:-1] + (values[1:] - values[:-1]) / 2])
    tpr = 1.0 - np.searchsorted(pos, candidates, side="left") / len(pos)
    tnr = np.searchsorted(neg, candidates, side="left") / len(neg)
    return float(candidates[int(np.argmax((tpr + tnr) / 2))])


def predicted_consistent(field: str, scores: np.ndarray, threshold: float | None) -> np.ndarray | None:
    if field in BINARY_FIELDS:
        return np.asarray(scores) >= 0.5
    return None if threshold is None else np.asarray(scores) >= threshold


# -- scoring ------------------------------------------------------------------------------------------------


@dataclass
class _Scorers:
    nash: Any  # the scorer given: nash, s_num, numeric_precision, numeric_support, verdict
    sentence: Any  # cosine
    token: Any  # bertscore_f1


def _scorers(scorer: ScorerSource) -> _Scorers:
    factory = scorer_factory(scorer)
    nash = factory()
    backend = nash.config["backend"]
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


def _fields_of(role: str, out: Any) -> dict[str, np.ndarray]:
    if role == "sentence":
        return {"cosine": np.asarray(out.baseline, dtype=float)}
    if role == "token":
        return {"bertscore_f1": np.asarray(out.baseline, dtype=float)}
    unsupported = _output_field(out, "unsupported_numbers")
    if len(unsupported) != len(out.nash):
        raise ValueError(f"the scorer listed unsupported numbers for {len(unsupported)} of {len(out.nash)} pairs")
    return {
        "nash": np.asarray(out.nash, dtype=float),
        "s_num": np.asarray(out.numeric, dtype=float),
        "numeric_precision": np.asarray(out.numeric_precision, dtype=float),
        "numeric_support": np.asarray(_output_field(out, "numeric_support"), dtype=float),
        "verdict": np.array([0.0 if entries else 1.0 for entries in unsupported]),
    }


def score_rows(scorers: _Scorers, rows: Sequence[SummEditsRow], mode: str, show_progress: bool = True
               ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Every field for each row (scored against its ``mode`` reference); each distinct pair scored once per scorer."""
    pairs: dict[tuple[str, str], int] = {}
    index = np.array([pairs.setdefault((r.summary, r.reference(mode)), len(pairs)) for r in rows], np.int64)
    preds, refs = [p for p, _ in pairs], [r for _, r in pairs]
    fields: dict[str, np.ndarray] = {}
    info: dict[str, Any] = {"distinct_pairs": len(pairs)}
    roles: list[tuple[Any, list[str]]] = []
    for role in ("nash", "sentence", "token"):
        scorer = getattr(scorers, role)
        for known, names in roles:
            if known is scorer:
                names.append(role)
                break
        else:
            roles.append((scorer, [role]))
    for scorer, names in roles:
        if show_progress:
            print(f"  reference {mode}: {len(pairs)} distinct pairs, {scorer.config['backend']} backbone "
                  f"({', '.join(f for n in names for f in _ROLE_FIELDS[n])})", file=sys.stderr)
        out = scorer.score(preds, refs, show_progress=show_progress) if preds else None
        for name in names:
            if out is not None:
                fields.update(_fields_of(name, out))
        if "nash" in names and out is not None:
            info["threshold"] = out.config.get("threshold")
            info["unscored_mentions"] = len(getattr(out, "unscored", []) or [])
    if not preds:
        return {f: np.zeros(0) for f in FIELDS}, info
    return {f: fields[f][index] for f in FIELDS}, info


_ROLE_FIELDS = {"nash": ("nash", "s_num", "numeric_precision", "numeric_support", "verdict"),
                "sentence": ("cosine",), "token": ("bertscore_f1",)}


def read_thresholds(path: str | Path, modes: Sequence[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The thresholds an earlier ``evaluate`` result recorded, for ``modes``, and where they came from."""
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
    for mode in modes:
        for subset in SUBSETS:
            for field in FIELDS:
                if field in BINARY_FIELDS:
                    continue
                try:
                    value = recorded[mode][subset][field]
                except (KeyError, TypeError):
                    raise ValueError(f"{path}: no threshold for reference {mode!r}, subset {subset!r}, field "
                                     f"{field!r} (was it run with --reference {mode} or both?)") from None
                if value is not None and not isinstance(value, (int, float)):
                    raise ValueError(f"{path}: threshold for {mode}/{subset}/{field} is not a number: {value!r}")
                thresholds.setdefault(mode, {}).setdefault(subset, {})[field] = value
    config = previous.get("config", {})
    source = {"kind": "file", "path": str(path), "sha256": hashlib.sha256(raw).hexdigest(),
              "hashcodes": {k: config.get(k) for k in ("hashcode", "sentence_hashcode", "token_hashcode")},
              "domains": [f.get("domain") for f in config.get("data", [])]}
    return thresholds, source


def run_summedits(scorers: _Scorers, domains: dict[str, list[SummEditsRow]], modes: Sequence[str],
                  thresholds: dict[str, Any] | None = None, show_progress: bool = True) -> dict[str, Any]:
    """Counts, per-field metrics per domain and overall, and the thresholds used (pooled unless given)."""
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
    }
    for mode in modes:
        scores, info = score_rows(scorers, edits, mode, show_progress)
        result["scoring"][mode] = info
        for subset in SUBSETS:
            y = subset_labels(edits, subset)
            fixed = {}
            for field in FIELDS:
                if field in BINARY_FIELDS:
                    continue
                inside = y >= 0
                fixed[field] = (best_threshold(y[inside], scores[field][inside]) if thresholds is None
                                else thresholds[mode][subset][field])
            result["thresholds"].setdefault(mode, {})[subset] = fixed
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
            result["metrics"].setdefault(mode, {})[subset] = table
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
    from ..reporting import result_envelope

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
              f"{scorers.nash.config['model']} ({scorers.nash.config['backend']})", file=sys.stderr)
    results = run_summedits(scorers, domains, modes, given, show_progress)
    if source is not None:
        results["threshold_source"] = source
    config = {
        **scorers.nash.config, "hashcode": scorers.nash.hashcode,
        "sentence_hashcode": scorers.sentence.hashcode, "token_hashcode": scorers.token.hashcode,
        "sentence_config": scorers.sentence.config, "token_config": scorers.token.config,
        "data": [{"domain": f.domain, "path": str(f.path), "sha256": f.sha256, "rows_in_file": f.rows_in_file,
                  "rows_used": len(domains[f.domain])} for f in files],
        "limit": limit, "reference": list(modes), "thresholds": None if thresholds is None else str(thresholds),
    }
    return result_envelope("summedits", config, results)


def _cell(metrics: dict[str, Any]) -> str:
    from ..reporting import format_cell

    return f"{format_cell(metrics['auc'])} / {format_cell(metrics['balanced_accuracy'])}"


MODE_LABELS = {"original": "summary vs original summary", "doc": "summary vs source document"}


def markdown(result: dict[str, Any]) -> str:
    """The tables ``nash bench summedits`` prints: counts, then AUC / BA per reference mode and subset."""
    from ..reporting import format_cell, markdown_table

    res, config = result["results"], result["config"]
    groups = [*res["domains"], OVERALL]
    limited = f" · first {config['limit']} rows per domain" if config.get("limit") else ""
    parts = [f"SummEdits · {config['model']} ({config['backend']}; cosine from the sentence backbone, "
             f"BERTScore F1 from the token backbone) · {', '.join(res['domains'])}{limited}"]
    count_rows = []
    for g in groups:
        c = res["counts"][g]
        count_rows.append([g, c["rows"], c["not_edits"], c["edits"], c["consistent_edits"], c["inconsistent_edits"],
                           c["figure_edits"], c["blank_summaries"]])
    parts.append(markdown_table(["Domain", "rows", "not edits (left out)", "edits", "consistent edits",
                                 "inconsistent edits", "figure edits", "blank summaries"], count_rows))
    parts.append(f"Subsets, {res['numerals']}:\n"
                 + "\n".join(f"- `{name}`: {text}" for name, text in res["subsets"].items()))
    source = res["threshold_source"]
    if source["kind"] == "pooled":
        how = ("one threshold per (field, reference, subset), chosen to maximise BA on all rows of this run "
               "pooled (not per domain) and applied to every domain")
    else:
        how = (f"thresholds fixed beforehand, read from {source['path']} (sha256 {source['sha256'][:12]}…, "
               f"chosen on {', '.join(str(d) for d in source.get('domains') or []) or 'its domains'})")
    parts.append(f"Cells: ROC AUC / balanced accuracy (label 1 = consistent). BA of continuous fields: {how}; "
                 "the verdict needs no threshold (1 = consistent).")
    fields = list(res["fields"])
    for mode in res["reference_modes"]:
        for subset in res["subsets"]:
            rows = []
            for g in groups:
                sub = res["counts"][g]["subsets"][subset]
                rows.append([g, f"{sub['positives']}/{sub['negatives']}",
                             *(_cell(res["metrics"][mode][subset][g][f]) for f in fields)])
            parts.append(f"### {MODE_LABELS.get(mode, mode)} · {subset}\n\n"
                         + markdown_table(["Domain", "n (+/−)", *fields], rows))
    threshold_rows = [[f"{mode} · {subset}", *(format_cell(res["thresholds"][mode][subset].get(f), 4)
                                             for f in fields if f not in BINARY_FIELDS)]
                      for mode in res["reference_modes"] for subset in res["subsets"]]
    parts.append("### Thresholds\n\n" + markdown_table(
        ["reference · subset", *(f for f in fields if f not in BINARY_FIELDS)], threshold_rows))
    return "\n\n".join(parts) + "\n"


def plot(result: dict[str, Any], path: str | Path, subset: str = "figure_edits_vs_consistent") -> Path:
    """One panel per reference mode: grouped bars of ROC AUC per domain (and overall) for each field."""
    from matplotlib.figure import Figure

    from ..plot import save_figure

    res, config = result["results"], result["config"]
    modes, groups, fields = res["reference_modes"], [*res["domains"], OVERALL], list(res["fields"])
    fig = Figure(figsize=(max(8.0, 1.3 * len(groups) * len(fields) / 4), 3.6 * len(modes)))
    axes = fig.subplots(len(modes), 1, squeeze=False)[:, 0]
    width = 0.8 / len(fields)
    x = np.arange(len(groups))
    for ax, mode in zip(axes, modes):
        table = res["metrics"][mode][subset]
        for k, field in enumerate(fields):
            values = [table[g][field]["auc"] for g in groups]
            ax.bar(x + (k - (len(fields) - 1) / 2) * width, [np.nan if v is None else v for v in values], width,
                   label=field)
        ax.axhline(0.5, color="grey", linestyle="--", linewidth=1, label="chance")
        ax.set_xticks(x, [f"{g}\n({res['counts'][g]['subsets'][subset]['positives']}/"
                          f"{res['counts'][g]['subsets'][subset]['negatives']})" for g in groups], fontsize=8)
        ax.set_ylim(0.0, 1.0)
        ax.set_ylabel("ROC AUC")
        ax.set_title(f"{MODE_LABELS.get(mode, mode)} · {subset} (consistent/figure edits)", fontsize=9)
    axes[0].legend(loc="lower center", ncol=4, fontsize=7, bbox_to_anchor=(0.5, 1.12))
    fig.suptitle(f"SummEdits · {config['model']} ({config['backend']})", fontsize=10)
    fig.tight_layout()
    return save_figure(fig, path)
