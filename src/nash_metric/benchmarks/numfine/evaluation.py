"""NumFinE evaluation: every protocol, Base vs +NASH, from one scoring pass; τ sweep; alignment check.

All (anchor, variant) pairs of all protocols are pooled and deduplicated (the triplet and cross-pair
pairs are subsets of the listwise ones for a native build), scored once with ``NASH.score`` (whose
``baseline`` is the Base column), and the protocols read their pairs back from that pool. The τ sweep
reuses the same encodings through ``NASHOutput.at_threshold``.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ...common.protocols import crosspair_accuracy, mean_kendall_tau_b, triplet_accuracy
from ..registry import ScorerSource, scorer_factory
from .defaults import ALIGNMENT_ROWS
from .released import read_released
from .schema import SPLIT
from .tables import CONFIGS, protocol_tables

PROTOCOLS = ("triplet_easy", "triplet_medium", "triplet_hard", "listwise", "crosspair")
LABELS = {"triplet_easy": "Triplet easy (acc)", "triplet_medium": "Triplet medium (acc)",
          "triplet_hard": "Triplet hard (acc)", "listwise": "Listwise (Kendall τ_b)", "crosspair": "Cross-pair (acc)"}


def load_tables(data: str | Path, limit: int | None = None) -> dict[str, list[dict[str, Any]]]:
    """The five protocol tables from a built folder / hub id (``load_dataset``) or a released JSON file."""
    if limit is not None and limit < 1:
        raise ValueError(f"--limit must be a positive integer, got {limit}")
    path = Path(data)
    if path.is_file():
        if path.suffix.lower() not in (".json", ".jsonl"):
            raise ValueError(f"{path}: a NumFinE file must be a released .json/.jsonl; for a build pass its folder")
        tables, _ = protocol_tables(read_released(path))
    else:
        if path.exists() and not (path / "README.md").is_file():
            raise FileNotFoundError(f"{path}: no README.md with `configs:` here; build one with "
                                    "`nash build-data numfine --source FILE --out DIR`")
        try:
            tables = _load_configs(str(data))
        except (ConnectionError, OSError) as exc:
            if path.exists():
                raise
            raise FileNotFoundError(f"{data}: no such folder, and not loadable from the Hub ({exc})") from None
    return {c: tables[c][:limit] if limit else tables[c] for c in PROTOCOLS}


def _load_configs(data: str) -> dict[str, list[dict[str, Any]]]:
    """Each protocol's rows; a config the card does not list (omitted for want of rows) is empty, with a note."""
    from datasets import get_dataset_config_names, load_dataset

    listed = set(get_dataset_config_names(data))
    tables: dict[str, list[dict[str, Any]]] = {}
    for config in PROTOCOLS:
        if config not in listed:
            print(f"NumFinE {data}: no config {config!r} in this build (too few units for it); skipped",
                  file=sys.stderr)
            tables[config] = []
            continue
        try:
            tables[config] = load_dataset(data, config, split=SPLIT).to_list()
        except ValueError as exc:
            if "corresponds to no data" not in str(exc):  # an empty shard written by builds before 0-row omission
                raise
            print(f"NumFinE {data}: config {config!r} has no rows; skipped", file=sys.stderr)
            tables[config] = []
    if not any(tables.values()):
        raise ValueError(f"{data}: none of the NumFinE configs {list(PROTOCOLS)} has rows")
    return tables


class PairPool:
    """Distinct (reference, prediction) pairs; protocols keep indices into the pool."""

    def __init__(self) -> None:
        self.index: dict[tuple[str, str], int] = {}

    def add(self, reference: str, prediction: str) -> int:
        return self.index.setdefault((reference, prediction), len(self.index))

    @property
    def references(self) -> list[str]:
        return [r for r, _ in self.index]

    @property
    def predictions(self) -> list[str]:
        return [p for _, p in self.index]


def pool_pairs(tables: dict[str, list[dict[str, Any]]]) -> tuple[PairPool, dict[str, Any]]:
    """Every protocol's pairs as pool indices: the anchor (original) is the reference side."""
    pool = PairPool()
    idx: dict[str, Any] = {}
    for c in ("triplet_easy", "triplet_medium", "triplet_hard"):
        idx[c] = (np.array([pool.add(r["anchor"], r["positive"]) for r in tables[c]], dtype=np.int64),
                  np.array([pool.add(r["anchor"], r["negative"]) for r in tables[c]], dtype=np.int64))
    idx["listwise"] = [(np.array([pool.add(r["anchor"], v) for v in r["variants"]], dtype=np.int64),
                        np.asarray(r["distances"], dtype=np.float64)) for r in tables["listwise"]]
    cp = tables["crosspair"]
    idx["crosspair"] = (np.array([pool.add(r["sentence_a1"], r["sentence_a2"]) for r in cp], dtype=np.int64),
                        np.array([pool.add(r["sentence_b1"], r["sentence_b2"]) for r in cp], dtype=np.int64),
                        np.array([r["label"] for r in cp], dtype=np.int64))
    return pool, idx


def protocol_metrics(scores: np.ndarray, idx: dict[str, Any]) -> dict[str, Any]:
    """Accuracy / mean τ_b of every protocol for one score vector over the pool."""
    out: dict[str, Any] = {}
    for c in ("triplet_easy", "triplet_medium", "triplet_hard"):
        pos, neg = idx[c]
        out[c] = triplet_accuracy(scores[pos], scores[neg]) if len(pos) else float("nan")
    if idx["listwise"]:
        lw = mean_kendall_tau_b([scores[i] for i, _ in idx["listwise"]], [d for _, d in idx["listwise"]])
        out["listwise"], out["listwise_undefined"] = lw.mean, lw.n_undefined
    else:
        out["listwise"], out["listwise_undefined"] = float("nan"), 0
    a, b, y = idx["crosspair"]
    out["crosspair"] = crosspair_accuracy(scores[a], scores[b], y) if len(a) else float("nan")
    return out


def by_category(scores: dict[str, np.ndarray], tables: dict[str, list[dict]], idx: dict[str, Any]) -> dict:
    """Triplet-hard accuracy and listwise τ_b per category, for each score column."""
    groups: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(tables["triplet_hard"]):
        groups[r["category"]].append(i)
    lw_groups: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(tables["listwise"]):
        lw_groups[r["category"]].append(i)
    out = {}
    for cat in sorted(set(groups) | set(lw_groups)):
        entry: dict[str, Any] = {"n": len(groups.get(cat, []))}
        for name, s in scores.items():
            rows = groups.get(cat, [])
            pos, neg = idx["triplet_hard"]
            hard = triplet_accuracy(s[pos[rows]], s[neg[rows]]) if rows else float("nan")
            lrows = lw_groups.get(cat, [])
            tau = (mean_kendall_tau_b([s[idx["listwise"][i][0]] for i in lrows],
                                      [idx["listwise"][i][1] for i in lrows]).mean if lrows else float("nan"))
            entry[name] = {"triplet_hard": hard, "listwise": tau}
        out[cat] = entry
    return out


# ------------------------------------------------------------------------------------ alignment check

def _target_mentions(info: dict[str, Any], row: dict[str, Any]) -> tuple[int, int] | None:
    """Indices (in a = variant, in b = anchor) of the NASH mentions that carry the changed target."""
    anchor, variant = row["anchor"], row["positive"]
    if row.get("target_start", -1) >= 0:
        start, end_b = row["target_start"], row["target_end"]
        end_a = start + len(row["positive_target"])
    else:  # released data: the changed region is what differs between the two sentences
        start = next((i for i, (x, y) in enumerate(zip(anchor, variant, strict=False)) if x != y), 0)
        suffix = 0
        while suffix < min(len(anchor), len(variant)) - start and anchor[-1 - suffix] == variant[-1 - suffix]:
            suffix += 1
        end_b, end_a = len(anchor) - suffix, len(variant) - suffix

    def overlapping(side: str, end: int) -> list[int]:
        return [i for i, m in enumerate(info["mentions"][side])
                if m["scored"] and m["start"] < max(end, start + 1) and start < m["end"]]

    ma, mb = overlapping("a", end_a), overlapping("b", end_b)
    for ia, ib in zip(ma, mb, strict=False):
        if info["mentions"]["a"][ia]["text"] != info["mentions"]["b"][ib]["text"]:
            return ia, ib
    return None


def alignment_check(scorer, rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Paper §5.5 on (anchor, closest variant) pairs: does the changed number align to its counterpart?

    a = the variant, b = the anchor. ``a_to_b``: the variant's target picks the anchor's target as its
    argmax; ``b_to_a`` the reverse; ``rejected_by_tau``: the target's best match falls below τ in at least
    one direction (so it contributes 0 to S_num). Pairs whose change touches no scored mention (a month
    name, a number the extractor does not read) are counted as not applicable.
    """
    infos = scorer.explain_batch([r["positive"] for r in rows], [r["anchor"] for r in rows])
    ab = ba = both = rejected = n = 0
    for info, row in zip(infos, rows, strict=True):
        found = _target_mentions(info, row)
        if found is None:
            continue
        ia, ib = found
        n += 1
        fwd = next(x for x in info["alignments"]["a_to_b"] if x["source"] == ia)
        bwd = next(x for x in info["alignments"]["b_to_a"] if x["source"] == ib)
        ok_ab, ok_ba = fwd["target"] == ib, bwd["target"] == ia
        ab += ok_ab
        ba += ok_ba
        both += ok_ab and ok_ba
        rejected += (not fwd["valid"]) or (not bwd["valid"])
    share = (lambda x: x / n) if n else (lambda x: float("nan"))
    return {"pairs": len(rows), "applicable": n, "not_applicable": len(rows) - n, "a_to_b": share(ab),
            "b_to_a": share(ba), "both": share(both), "rejected_by_tau": share(rejected),
            "threshold": infos[0]["threshold"] if infos else None}


# ------------------------------------------------------------------------------------------- runner

def run_numfine(scorer, tables: dict[str, list[dict[str, Any]]], threshold_sweep: bool = False,
                alignment_rows: int | None = ALIGNMENT_ROWS, seed: int = 0,
                show_progress: bool = True) -> dict[str, Any]:
    """All NumFinE metrics for ``scorer`` (Base = its baseline column) as a JSON-serialisable dict."""
    pool, idx = pool_pairs(tables)
    if not pool.index:
        raise ValueError("no NumFinE rows to score")
    out = scorer.score(pool.predictions, pool.references, show_progress=show_progress)
    base, nash = protocol_metrics(out.baseline, idx), protocol_metrics(out.nash, idx)
    results: dict[str, Any] = {
        "rows": {c: len(tables[c]) for c in PROTOCOLS}, "pairs_scored": len(pool.index),
        "skipped": [c for c in PROTOCOLS if not tables[c]],  # no rows in this build: reported as skipped, not 0
        "base": base, "nash": nash,
        "by_category": by_category({"base": out.baseline, "nash": out.nash}, tables, idx),
        "unscored_mentions": len(out.unscored), "threshold": out.config["threshold"],
    }
    if threshold_sweep:
        from ...calibration.threshold import TooFewNumbersError, calibrate_threshold

        anchors = sorted({r["anchor"] for r in tables["listwise"]})
        try:
            cal = calibrate_threshold(scorer, anchors, seed=seed, show_progress=show_progress,
                                      corpus="NumFinE anchors")
        except TooFewNumbersError as exc:  # a tiny build: the sweep is skipped, the rest of the results stand
            results["threshold_sweep_skipped"] = str(exc)
        else:
            results["calibration"] = cal.as_dict()
            results["threshold_sweep"] = [{"setting": name, "tau": tau,
                                           **protocol_metrics(out.at_threshold(tau).nash, idx)}
                                          for name, tau in cal.sweep().items()]
    if alignment_rows != 0 and tables["triplet_easy"]:
        rows = tables["triplet_easy"][:alignment_rows] if alignment_rows else tables["triplet_easy"]
        results["alignment"] = alignment_check(scorer, rows)
    return results


def results_markdown(results: dict[str, Any]) -> str:
    from ...common.reporting import markdown_table, relative_change

    b, n = results["base"], results["nash"]
    skipped = results.get("skipped", [])
    rows = [[LABELS[c], "skipped", "skipped", "–"] if c in skipped else
            [LABELS[c], b[c], n[c], _pct(relative_change(b[c], n[c]))] for c in PROTOCOLS]
    parts = [markdown_table(["NumFinE", "Base", "+NASH", "Δ rel."], rows)]
    if skipped:
        parts.append(f"\nskipped (no rows in this build): {', '.join(skipped)}")
    parts.append(f"\nrows: {results['rows']}; distinct pairs scored: {results['pairs_scored']}; "
                 f"τ = {results['threshold']:.4f}; lists with undefined τ_b (constant scores, counted 0): "
                 f"Base {b['listwise_undefined']}, +NASH {n['listwise_undefined']}")
    cat_rows = [[cat, e["n"], e["base"]["triplet_hard"], e["nash"]["triplet_hard"], e["base"]["listwise"],
                 e["nash"]["listwise"]] for cat, e in results["by_category"].items()]
    parts += ["", markdown_table(["category", "units", "hard Base", "hard +NASH", "τ_b Base", "τ_b +NASH"], cat_rows)]
    if "threshold_sweep_skipped" in results:
        parts.append(f"\nτ sweep skipped: {results['threshold_sweep_skipped']}")
    if "threshold_sweep" in results:
        cal = results["calibration"]
        parts.append(f"\nτ sweep (μ = {cal['mu']:.4f}, σ = {cal['sigma']:.4f} on {cal['n_pairs']} random anchor pairs)")
        parts.append(markdown_table(["setting", "τ", "easy", "medium", "hard", "listwise", "cross-pair"],
                                    [[s["setting"], s["tau"], *(s[c] for c in PROTOCOLS)]
                                     for s in results["threshold_sweep"]], digits=3))
    if "alignment" in results:
        a = results["alignment"]
        parts.append(f"\nAlignment check (anchor, closest variant; {a['applicable']} of {a['pairs']} pairs applicable)")
        parts.append(markdown_table(["variant→anchor", "anchor→variant", "both", "rejected by τ"],
                                    [[a["a_to_b"], a["b_to_a"], a["both"], a["rejected_by_tau"]]]))
    return "\n".join(parts)


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{x:+.1f}%"


def plot_results(results: dict[str, Any], path: str | Path, title: str) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = np.arange(len(PROTOCOLS))
    fig, ax = plt.subplots(figsize=(8, 4))
    for k, (key, label) in enumerate((("base", "Base"), ("nash", "+NASH"))):
        vals = [results[key][c] for c in PROTOCOLS]
        bars = ax.bar(x + (k - 0.5) * 0.38, vals, 0.38, label=label)
        ax.bar_label(bars, fmt="%.3f", fontsize=7)
    ax.set_xticks(x, [LABELS[c].replace(" (", "\n(") for c in PROTOCOLS], fontsize=8)
    ax.set_ylim(min(0.0, *(results[k][c] for k in ("base", "nash") for c in PROTOCOLS)), 1.18)
    ax.set_title(title, fontsize=9)
    ax.legend(loc="upper center", ncol=2, fontsize=8)
    from ...common.reporting import save_figure

    return save_figure(fig, path)


# ------------------------------------------------------------------------------- benchmark entry points

def evaluate(scorer: ScorerSource, data: str | Path, *, limit: int | None = None, seed: int = 0,
             threshold_sweep: bool = False, alignment_rows: int | None = ALIGNMENT_ROWS,
             show_progress: bool = True) -> dict[str, Any]:
    """``nash bench numfine``: every protocol on a built folder / hub id / released file, as a result envelope.

    ``scorer`` is a NASH scorer or a factory ``f(**overrides) -> NASH``; ``alignment_rows=0`` skips the
    alignment check, None checks every triplet; ``seed`` seeds the calibration pairs of the τ sweep.
    """
    from ...common.reporting import result_envelope

    tables = load_tables(data, limit)
    nash = scorer_factory(scorer)()
    if show_progress:
        print(f"NumFinE from {data}: {', '.join(f'{c} {len(tables[c])}' for c in PROTOCOLS)} rows"
              f"{f' (--limit {limit})' if limit else ''}; model {nash.echo['model']} "
              f"({nash.backend})", file=sys.stderr)
    results = run_numfine(nash, tables, threshold_sweep=threshold_sweep, alignment_rows=alignment_rows, seed=seed,
                          show_progress=show_progress)
    config = {**nash.echo, "hashcode": nash.hashcode, "data": str(data), "limit": limit, "seed": seed,
              "configs": list(CONFIGS)}
    return result_envelope("numfine", config, results)


def markdown(result: dict[str, Any]) -> str:
    """The tables ``nash bench numfine`` prints, from ``evaluate``'s result."""
    return results_markdown(result["results"])


def plot(result: dict[str, Any], path: str | Path) -> Path:
    """Grouped bar chart (Base vs +NASH per protocol) of ``evaluate``'s result."""
    config = result["config"]
    return plot_results(result["results"], path, f"NumFinE · {config['model']} ({config['backend']}) · Base vs +NASH")
