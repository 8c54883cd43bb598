"""NumFinE evaluation: every protocol, Base vs +NASH, from one scoring pass; τ sweep; alignment check.

The configs come from a folder built by ``nash build-data numfine`` (ours: ``triplet_easy`` ... ``crosspair``;
or one built from the authors' release, configs named after its file stems), a hub id, or the released files
themselves; a config's name says its protocol (``schema.protocol_of``). Released records are flattened for
scoring by ``released_tables`` with the toolkit's semantics; records it cannot judge are left out and counted.

All (anchor, variant) pairs of all configs are pooled and deduplicated (the triplet and cross-pair pairs are
subsets of the listwise ones for a native build), scored once with ``NASH.score`` (whose ``baseline`` is the
Base column), and the protocols read their pairs back from that pool. The τ sweep reuses the same encodings
through ``NASHOutput.at_threshold``.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from ...common.protocols import crosspair_accuracy, exact_order_accuracy, mean_kendall_tau_b, triplet_accuracy
from ..registry import ScorerSource, scorer_factory, with_baseline
from .defaults import ALIGNMENT_ROWS
from .released import Release, read_release, released_file
from .released_tables import protocol_table
from .schema import SPLIT, config_order, protocol_of

PROTOCOLS = ("triplet_easy", "triplet_medium", "triplet_hard", "listwise", "crosspair")  # our build's configs
LABELS = {"triplet_easy": "Triplet easy (acc)", "triplet_medium": "Triplet medium (acc)",
          "triplet_hard": "Triplet hard (acc)", "listwise": "Listwise (Kendall τ_b)", "crosspair": "Cross-pair (acc)"}
_PROTOCOL_NAMES = {"triplet": ("Triplet", "acc"), "listwise": ("Listwise", "Kendall τ_b"),
                   "crosspair": ("Cross-pair", "acc")}


def label(config: str) -> str:
    """The table label of a config: ours by name, a released stem by protocol (``Triplet `triplet_test` (acc)``)."""
    if config in LABELS:
        return LABELS[config]
    name, measure = _PROTOCOL_NAMES[protocol_of(config)]
    return f"{name} `{config}` ({measure})"


@dataclass(frozen=True)
class NumFinEData:
    """The configs' rows to score, records left out by reason, and what a release folder held."""

    tables: dict[str, list[dict[str, Any]]]
    left_out: dict[str, dict[str, int]] = field(default_factory=dict)
    release: str | None = None  # released input: which files were taken and skipped

    @property
    def configs(self) -> list[str]:
        return sorted((c for c in self.tables if protocol_of(c)), key=config_order)


def load_data(data: str | Path, limit: int | None = None, configs: Sequence[str] | None = None) -> NumFinEData:
    """Every config of a built folder / hub id (``load_dataset``), or of released files (a file or a folder); with
    ``configs``, only those (a name the data does not have is a ValueError that lists the ones it has)."""
    if limit is not None and limit < 1:
        raise ValueError(f"--limit must be a positive integer, got {limit}")
    path = Path(data)
    if path.is_file() or (path.is_dir() and not (path / "README.md").is_file()):
        release = read_release(path)
        if configs is not None:
            _check_configs(data, configs, [f.config for f in release.files])
            release = replace(release, files=tuple(f for f in release.files if f.config in configs))
        return _released_data(release, limit, release.describe())
    try:
        return _load_configs(str(data), limit, configs)
    except (ConnectionError, OSError) as exc:
        if path.exists():
            raise
        raise FileNotFoundError(f"{data}: no such folder, and not loadable from the Hub ({exc})") from None


def load_tables(data: str | Path, limit: int | None = None) -> dict[str, list[dict[str, Any]]]:
    """The rows of every config ``load_data`` finds."""
    return load_data(data, limit).tables


def _released_data(release: Release, limit: int | None, note: str | None) -> NumFinEData:
    tables, left_out = {}, {}
    for f in release.files:
        table = protocol_table(f if limit is None else replace(f, records=f.records[:limit]))
        tables[f.config], left_out[f.config] = table.rows, dict(table.left_out)
    return NumFinEData(tables, left_out, note)


def _check_configs(data: str | Path, configs: Sequence[str], known: Sequence[str]) -> None:
    unknown = [c for c in configs if c not in known]
    if unknown:
        raise ValueError(f"unknown NumFinE config{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}; "
                         f"the configs of {data} are {', '.join(sorted(known, key=config_order))}")


def _load_configs(data: str, limit: int | None, configs: Sequence[str] | None = None) -> NumFinEData:
    """Each listed config's rows (or those of `configs`): ours as written, released layouts flattened; configs our
    build omitted, empty."""
    from datasets import get_dataset_config_names

    listed = [c for c in get_dataset_config_names(data) if protocol_of(c)]
    if not listed:
        raise ValueError(f"{data}: no NumFinE config (triplet*, listwise*, crosspair*) on its card")
    if configs is not None:  # our build's protocols are known even where it had too few units for one
        ours = set(listed) & set(PROTOCOLS)
        _check_configs(data, configs, sorted({*listed, *(PROTOCOLS if ours else ())}, key=config_order))
        listed = [c for c in listed if c in configs]
    tables, released = {}, []
    for config in listed:
        rows = _config_rows(data, config, limit)
        if rows and "sentence_a" in rows[0]:  # built from the authors' release: nested {text, num} records
            released.append(released_file(Path(data) / config, config, protocol_of(config), rows))
        else:
            tables[config] = rows
    for config in PROTOCOLS if tables else ():  # our build leaves out a config it has no rows for
        if config not in tables and (configs is None or config in configs):
            print(f"NumFinE {data}: no config {config!r} in this build (too few units for it); skipped",
                  file=sys.stderr)
            tables[config] = []
    loaded = _released_data(Release(tuple(released)), None, None) if released else NumFinEData({})
    if not any(tables.values()) and not any(loaded.tables.values()):
        raise ValueError(f"{data}: none of the NumFinE configs {listed} has rows")
    return NumFinEData({**tables, **loaded.tables}, loaded.left_out)


def _config_rows(data: str, config: str, limit: int | None) -> list[dict[str, Any]]:
    from datasets import load_dataset

    try:
        ds = load_dataset(data, config, split=SPLIT)
    except ValueError as exc:
        if "corresponds to no data" not in str(exc):  # an empty shard written by builds before 0-row omission
            raise
        print(f"NumFinE {data}: config {config!r} has no rows; skipped", file=sys.stderr)
        return []
    return (ds.select(range(min(limit, ds.num_rows))) if limit else ds).to_list()


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
    """Every config's pairs as pool indices (configs without a protocol, ``units``, are not scored): the anchor
    (original) is the reference side."""
    pool = PairPool()
    idx: dict[str, Any] = {}
    for c, rows in tables.items():
        protocol = protocol_of(c)
        if protocol == "triplet":
            idx[c] = (np.array([pool.add(r["anchor"], r["positive"]) for r in rows], dtype=np.int64),
                      np.array([pool.add(r["anchor"], r["negative"]) for r in rows], dtype=np.int64))
        elif protocol == "listwise":
            idx[c] = [(np.array([pool.add(r["anchor"], v) for v in r["variants"]], dtype=np.int64),
                       np.asarray(r["distances"], dtype=np.float64), r.get("gold_order")) for r in rows]
        elif protocol == "crosspair":
            idx[c] = (np.array([pool.add(r["sentence_a1"], r["sentence_a2"]) for r in rows], dtype=np.int64),
                      np.array([pool.add(r["sentence_b1"], r["sentence_b2"]) for r in rows], dtype=np.int64),
                      np.array([r["label"] for r in rows], dtype=np.int64))
    return pool, idx


def protocol_metrics(scores: np.ndarray, idx: dict[str, Any]) -> dict[str, Any]:
    """Accuracy / mean τ_b of every config for one score vector over the pool (NaN for a config without rows);
    listwise configs add ``<config>_undefined`` and, where records carry ``gold_order``, ``<config>_exact_order``."""
    out: dict[str, Any] = {}
    for c, pairs in idx.items():
        protocol = protocol_of(c)
        if protocol == "listwise":
            out.update(_listwise_metrics(c, scores, pairs))
        elif not len(pairs[0]):
            out[c] = float("nan")
        elif protocol == "triplet":
            out[c] = triplet_accuracy(scores[pairs[0]], scores[pairs[1]])
        else:
            out[c] = crosspair_accuracy(scores[pairs[0]], scores[pairs[1]], pairs[2])
    return out


def _listwise_metrics(config: str, scores: np.ndarray, lists: list) -> dict[str, Any]:
    if not lists:
        return {config: float("nan"), f"{config}_undefined": 0}
    tau = mean_kendall_tau_b([scores[i] for i, _, _ in lists], [d for _, d, _ in lists])
    out: dict[str, Any] = {config: tau.mean, f"{config}_undefined": tau.n_undefined}
    ordered = [(scores[i], order) for i, _, order in lists if order is not None]
    if ordered:
        out[f"{config}_exact_order"] = exact_order_accuracy([s for s, _ in ordered], [o for _, o in ordered])
        out[f"{config}_exact_order_n"] = len(ordered)
    return out


def category_configs(tables: dict[str, list[dict]]) -> tuple[str | None, str | None]:
    """The configs broken down by category: the hardest triplet config and the first listwise one with rows."""
    with_rows = sorted((c for c, rows in tables.items() if rows and protocol_of(c)), key=config_order)
    triplets = [c for c in with_rows if protocol_of(c) == "triplet"]
    lists = [c for c in with_rows if protocol_of(c) == "listwise"]
    return (triplets[-1] if triplets else None), (lists[0] if lists else None)


def by_category(scores: dict[str, np.ndarray], tables: dict[str, list[dict]], idx: dict[str, Any]) -> dict:
    """Hardest-triplet accuracy and listwise τ_b per category (configs: ``category_configs``), per score column."""
    tri, lw = category_configs(tables)
    groups: dict[str, list[int]] = defaultdict(list)
    lw_groups: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(tables[tri] if tri else ()):
        groups[r["category"]].append(i)
    for i, r in enumerate(tables[lw] if lw else ()):
        lw_groups[r["category"]].append(i)
    out = {}
    for cat in sorted(set(groups) | set(lw_groups)):
        entry: dict[str, Any] = {"n": len(groups.get(cat, []))}
        rows, lrows = groups.get(cat, []), lw_groups.get(cat, [])
        for name, s in scores.items():
            entry[name] = {}
            if tri:
                pos, neg = idx[tri]
                entry[name][tri] = triplet_accuracy(s[pos[rows]], s[neg[rows]]) if rows else float("nan")
            if lw:
                entry[name][lw] = (mean_kendall_tau_b([s[idx[lw][i][0]] for i in lrows],
                                                      [idx[lw][i][1] for i in lrows]).mean if lrows else float("nan"))
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
                alignment_rows: int | None = ALIGNMENT_ROWS, seed: int = 0, show_progress: bool = True,
                left_out: dict[str, dict[str, int]] | None = None) -> dict[str, Any]:
    """All NumFinE metrics for ``scorer`` (Base = its baseline column) as a JSON-serialisable dict.

    ``tables`` maps config names to rows (a name without a protocol, ``units``, is ignored); ``left_out`` counts
    the records of each config that could not be judged, by reason, and is reported beside ``rows`` (= n).
    """
    configs = NumFinEData(tables).configs
    tables = {c: tables[c] for c in configs}
    pool, idx = pool_pairs(tables)
    if not pool.index:
        raise ValueError("no NumFinE rows to score")
    out = with_baseline(scorer).score(pool.predictions, pool.references, show_progress=show_progress)
    results: dict[str, Any] = {
        "configs": {c: protocol_of(c) for c in configs}, "rows": {c: len(tables[c]) for c in configs},
        "left_out": {c: why for c, why in (left_out or {}).items() if why},
        "pairs_scored": len(pool.index),
        "skipped": [c for c in configs if not tables[c]],  # no rows: reported as skipped, not 0
        "base": protocol_metrics(out.baseline, idx), "nash": protocol_metrics(out.nash, idx),
        "by_category_configs": list(category_configs(tables)),
        "by_category": by_category({"base": out.baseline, "nash": out.nash}, tables, idx),
        "unscored_mentions": len(out.unscored), "threshold": out.config["threshold"],
    }
    if threshold_sweep:
        results.update(_threshold_sweep(scorer, out, tables, idx, seed, show_progress))
    triplets = [c for c in configs if protocol_of(c) == "triplet" and tables[c]]
    if alignment_rows != 0 and triplets:  # the easiest triplet config: its positive is the closest variant
        rows = tables[triplets[0]]
        results["alignment"] = alignment_check(scorer, rows[:alignment_rows] if alignment_rows else rows)
    return results


def _threshold_sweep(scorer, out, tables: dict[str, list[dict]], idx: dict[str, Any], seed: int,
                     show_progress: bool) -> dict[str, Any]:
    """Paper App. B: τ in {μ-2σ .. μ+2σ} calibrated on the anchors, re-scored from the same encodings."""
    from ...calibration.threshold import TooFewNumbersError, calibrate_threshold

    anchors = sorted({r["anchor"] for rows in tables.values() for r in rows if "anchor" in r})
    try:
        cal = calibrate_threshold(scorer, anchors, seed=seed, show_progress=show_progress, corpus="NumFinE anchors")
    except TooFewNumbersError as exc:  # a tiny build: the sweep is skipped, the rest of the results stand
        return {"threshold_sweep_skipped": str(exc)}
    return {"calibration": cal.as_dict(),
            "threshold_sweep": [{"setting": name, "tau": tau, **protocol_metrics(out.at_threshold(tau).nash, idx)}
                                for name, tau in cal.sweep().items()]}


def results_markdown(results: dict[str, Any]) -> str:
    from ...common.reporting import markdown_table

    configs = list(results["configs"])
    parts = [_main_table(results, configs)]
    if results["skipped"]:
        parts.append(f"\nskipped (no rows): {', '.join(results['skipped'])}")
    parts += [f"\n- `{c}`: {sum(why.values())} record(s) left out: "
              + "; ".join(f"{k} ({reason})" for reason, k in why.items()) for c, why in results["left_out"].items()]
    b, n = results["base"], results["nash"]
    undefined = "; ".join(f"{c}: Base {b[f'{c}_undefined']}, +NASH {n[f'{c}_undefined']}"
                          for c in configs if f"{c}_undefined" in b)
    parts.append(f"\ndistinct pairs scored: {results['pairs_scored']}; τ = {results['threshold']:.4f}"
                 + (f"; lists with undefined τ_b (constant scores, counted 0): {undefined}" if undefined else ""))
    tri, lw = results["by_category_configs"]
    shown = [c for c in (tri, lw) if c]
    if shown:
        cat_rows = [[cat, e["n"], *(e[k][c] for c in shown for k in ("base", "nash"))]
                    for cat, e in results["by_category"].items()]
        parts += ["", markdown_table(["category", f"{tri or lw} rows", *(f"{c} {k}" for c in shown
                                                                          for k in ("Base", "+NASH"))], cat_rows)]
    parts += _sweep_and_alignment(results, configs)
    return "\n".join(parts)


def _main_table(results: dict[str, Any], configs: list[str]) -> str:
    from ...common.reporting import markdown_table, relative_change

    b, n, skipped = results["base"], results["nash"], results["skipped"]
    rows = []
    for c in configs:
        if c in skipped:
            rows.append([label(c), results["rows"][c], "skipped", "skipped", "–"])
            continue
        rows.append([label(c), results["rows"][c], b[c], n[c], _pct(relative_change(b[c], n[c]))])
        if f"{c}_exact_order" in b:
            rows.append([f"Listwise `{c}` exact order (acc)", b[f"{c}_exact_order_n"], b[f"{c}_exact_order"],
                         n[f"{c}_exact_order"], _pct(relative_change(b[f"{c}_exact_order"], n[f"{c}_exact_order"]))])
    return markdown_table(["NumFinE", "n", "Base", "+NASH", "Δ rel."], rows)


def _sweep_and_alignment(results: dict[str, Any], configs: list[str]) -> list[str]:
    from ...common.reporting import markdown_table

    parts = []
    if "threshold_sweep_skipped" in results:
        parts.append(f"\nτ sweep skipped: {results['threshold_sweep_skipped']}")
    if "threshold_sweep" in results:
        cal = results["calibration"]
        parts.append(f"\nτ sweep (μ = {cal['mu']:.4f}, σ = {cal['sigma']:.4f} on {cal['n_pairs']} random anchor pairs)")
        parts.append(markdown_table(["setting", "τ", *configs], [[s["setting"], s["tau"], *(s[c] for c in configs)]
                                                                for s in results["threshold_sweep"]], digits=3))
    if "alignment" in results:
        a = results["alignment"]
        parts.append(f"\nAlignment check (anchor, closest variant; {a['applicable']} of {a['pairs']} pairs applicable)")
        parts.append(markdown_table(["variant→anchor", "anchor→variant", "both", "rejected by τ"],
                                    [[a["a_to_b"], a["b_to_a"], a["both"], a["rejected_by_tau"]]]))
    return parts


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{x:+.1f}%"


def plot_results(results: dict[str, Any], path: str | Path, title: str) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    configs = [c for c in results["configs"] if c not in results["skipped"]]
    x = np.arange(len(configs))
    fig, ax = plt.subplots(figsize=(max(8.0, 1.6 * len(configs)), 4))
    for k, (key, name) in enumerate((("base", "Base"), ("nash", "+NASH"))):
        bars = ax.bar(x + (k - 0.5) * 0.38, [results[key][c] for c in configs], 0.38, label=name)
        ax.bar_label(bars, fmt="%.3f", fontsize=7)
    ax.set_xticks(x, [label(c).replace(" (", "\n(") for c in configs], fontsize=8)
    ax.set_ylim(min(0.0, *(results[k][c] for k in ("base", "nash") for c in configs)), 1.18)
    ax.set_title(title, fontsize=9)
    ax.legend(loc="upper center", ncol=2, fontsize=8)
    from ...common.reporting import save_figure

    return save_figure(fig, path)


# ------------------------------------------------------------------------------- benchmark entry points

def evaluate(scorer: ScorerSource, data: str | Path, *, limit: int | None = None, seed: int = 0,
             threshold_sweep: bool = False, alignment_rows: int | None = ALIGNMENT_ROWS,
             show_progress: bool = True, configs: Sequence[str] | None = None) -> dict[str, Any]:
    """``nash bench numfine``: every config of a built folder / hub id / released file(s), as a result envelope.

    ``scorer`` is a NASH scorer or a factory ``f(**overrides) -> NASH``; ``configs`` picks some of the data's
    configs (default: all); ``alignment_rows=0`` skips the alignment check, None checks every triplet; ``seed``
    seeds the calibration pairs of the τ sweep.
    """
    from ...common.reporting import result_envelope

    loaded = load_data(data, limit, configs)
    nash = scorer_factory(scorer)()
    if show_progress:
        if loaded.release:
            print(f"NumFinE release {data}: {loaded.release}", file=sys.stderr)
        print(f"NumFinE from {data}: {', '.join(f'{c} {len(loaded.tables[c])}' for c in loaded.configs)} rows"
              f"{f' (--limit {limit})' if limit else ''}; model {nash.echo['model']} "
              f"({nash.backend})", file=sys.stderr)
    results = run_numfine(nash, loaded.tables, threshold_sweep=threshold_sweep, alignment_rows=alignment_rows,
                          seed=seed, show_progress=show_progress, left_out=loaded.left_out)
    config = {**nash.echo, "hashcode": nash.hashcode, "data": str(data), "limit": limit, "seed": seed,
              "configs": loaded.configs}
    return result_envelope("numfine", config, results)


def markdown(result: dict[str, Any]) -> str:
    """The tables ``nash bench numfine`` prints, from ``evaluate``'s result."""
    return results_markdown(result["results"])


def plot(result: dict[str, Any], path: str | Path) -> Path:
    """Grouped bar chart (Base vs +NASH per config) of ``evaluate``'s result."""
    config = result["config"]
    return plot_results(result["results"], path, f"NumFinE · {config['model']} ({config['backend']}) · Base vs +NASH")
