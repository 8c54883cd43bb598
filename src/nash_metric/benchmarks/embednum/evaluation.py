"""EmbedNum-1K evaluation: accuracy per format for cosine, BERTScore, NASH and NASH+comparisons; P@k.

Scoring: every scorer scores all (question, answer) pairs of all selected configs in one batched call
(NASH dedups texts internally). Columns: the NASH scorer's own baseline (cosine for a sentence
encoder, BERTScore F1 for a token encoder), BERTScore from the ``bert_score`` package on the same
local model (skipped when it is the baseline), plain NASH, and NASH with ``comparisons=True``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ...common.protocols import bootstrap_ci, precision_at_k, triplet_accuracy
from ...common.reporting import markdown_table, result_envelope, save_figure
from ..registry import ScorerSource, scorer_factory, with_baseline
from .card import update_results_section
from .configs import CANDIDATE_CONFIGS, PAPER_FORMATS
from .dataset import load_data

DATASET = "embednum1k"


# -- scoring -------------------------------------------------------------------------------------------
def _pairs(data: dict[str, list[dict]]) -> tuple[list[str], list[str], dict[str, slice]]:
    """All (question, answer) pairs, config by config: triples give (Q, A+), (Q, A−) interleaved."""
    preds: list[str] = []
    refs: list[str] = []
    where: dict[str, slice] = {}
    for config, rows in data.items():
        start = len(preds)
        for r in rows:
            answers = r["candidates"] if config in CANDIDATE_CONFIGS else [r["positive"], r["negative"]]
            preds.extend([r["question"]] * len(answers))
            refs.extend(answers)
        where[config] = slice(start, len(preds))
    return preds, refs, where


def score_all(data: dict[str, list[dict]], scorer: ScorerSource, bertscore: bool = True, show_progress: bool = True,
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Scores of every pair for each column; ``scorer`` is a NASH scorer or a factory ``f(comparisons=bool)``."""
    from ...backbone.bertscore_package import package_bertscore_f1

    make = scorer_factory(scorer)
    preds, refs, _ = _pairs(data)
    plain = with_baseline(make(comparisons=False))
    out = plain.score(preds, refs, show_progress=show_progress)
    baseline = plain.backbone_name
    columns = {baseline: out.baseline}
    config: dict[str, Any] = {"nash": out.config, "nash_hashcode": out.hashcode}
    if bertscore and "bertscore" not in baseline.lower():
        # bert-score at the requested layer (None: its per-model default), as docs/method.md §2.4 says.
        columns["BERTScore"], config["bertscore"] = package_bertscore_f1(
            preds, refs, plain.resolved, num_layers=plain.config.num_layers, device=str(plain.device))
    columns["NASH"] = out.nash
    cmp_out = make(comparisons=True).score(preds, refs, show_progress=show_progress)
    columns["NASH+cmp"] = cmp_out.nash
    config["nash_cmp_hashcode"] = cmp_out.hashcode
    config["unscored_mentions"] = len(out.unscored)
    return columns, config


# -- metrics -------------------------------------------------------------------------------------------
def summarize(data: dict[str, list[dict]], columns: dict[str, np.ndarray], seed: int = 0) -> dict[str, Any]:
    """Accuracy per triple config (with bootstrap CI), above/below split, P@k per candidate config."""
    _, _, where = _pairs(data)
    names = list(columns)
    triples: dict[str, dict[str, Any]] = {}
    split: dict[str, dict[str, list[bool]]] = {n: {"above": [], "below": []} for n in names}
    candidates: dict[str, dict[str, Any]] = {}
    for config, rows in data.items():
        sl = where[config]
        if config in CANDIDATE_CONFIGS:
            size = len(rows[0]["candidates"])
            relevant = [[j for j, lab in enumerate(r["labels"]) if lab] for r in rows]
            ks = sorted({1, min(10, size // 2), size // 2})
            candidates[config] = {"n": len(rows), "candidates": size}
            for name in names:
                lists = columns[name][sl].reshape(len(rows), size)
                candidates[config][name] = {f"P@{k}": precision_at_k(list(lists), relevant, k) for k in ks}
            continue
        entry: dict[str, Any] = {"n": len(rows)}
        directions = np.array([r["direction"] for r in rows])
        for name in names:
            pair = columns[name][sl].reshape(len(rows), 2)
            correct = pair[:, 0] > pair[:, 1]
            entry[name] = {"accuracy": triplet_accuracy(pair[:, 0], pair[:, 1]),
                           "ci95": bootstrap_ci(correct.astype(float), seed=seed),
                           "ties": int(np.sum(pair[:, 0] == pair[:, 1])),
                           "above": float(correct[directions == "above"].mean()),
                           "below": float(correct[directions == "below"].mean())}
            if config in PAPER_FORMATS:
                for d in ("above", "below"):
                    split[name][d].extend(correct[directions == d].tolist())
        triples[config] = entry
    paper = [c for c in PAPER_FORMATS if c in triples]
    mean = {n: float(np.mean([triples[c][n]["accuracy"] for c in paper])) for n in names} if paper else {}
    above_below = {n: {d: float(np.mean(v)) if v else None for d, v in split[n].items()} for n in names}
    return {"columns": names, "triples": triples, "paper_formats": paper, "mean_over_paper_formats": mean,
            "above_below_paper_formats": above_below, "candidates": candidates}


def tables(summary: dict[str, Any]) -> str:
    """Markdown: accuracy per format (rows) × scorer (columns), mean, above/below split, P@k."""
    names = summary["columns"]
    rows = [[c, summary["triples"][c]["n"], *(summary["triples"][c][n]["accuracy"] for n in names)]
            for c in summary["triples"]]
    if summary["mean_over_paper_formats"]:
        k = len(summary["paper_formats"])
        rows.append([f"mean ({k} paper formats)", "", *(summary["mean_over_paper_formats"][n] for n in names)])
    parts = ["Accuracy: sim(Q, A+) > sim(Q, A−) (ties wrong; chance 0.5)\n",
             markdown_table(["format", "n", *names], rows)]
    if summary["paper_formats"]:
        ab = summary["above_below_paper_formats"]
        parts += ["\nAbove vs below (paper formats pooled)\n",
                  markdown_table(["direction", *names], [[d, *(ab[n][d] for n in names)] for d in ("above", "below")])]
    for config, entry in summary["candidates"].items():
        ks = list(entry[names[0]])
        parts += [f"\n{config}: precision at k over {entry['n']} questions ({entry['candidates']} answers, half "
                  "satisfy; chance 0.5)\n",
                  markdown_table(["scorer", *ks], [[n, *(entry[n][k] for k in ks)] for n in names])]
    return "\n".join(parts)


def plot_heatmap(summary: dict[str, Any], path: str | Path, title: str = "EmbedNum-1K accuracy") -> Path:
    """Formats × scorers heat-map with the values written in, as the paper's Table 2."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = summary["columns"]
    configs = list(summary["triples"])
    values = np.array([[summary["triples"][c][n]["accuracy"] for n in names] for c in configs])
    fig, ax = plt.subplots(figsize=(1.6 + 1.3 * len(names), 0.8 + 0.32 * len(configs)))
    im = ax.imshow(values, cmap="RdYlGn", vmin=0.0, vmax=1.0, aspect="auto")
    ax.set_xticks(range(len(names)), names)
    ax.set_yticks(range(len(configs)), configs)
    ax.xaxis.tick_top()
    for i in range(len(configs)):
        for j in range(len(names)):
            ax.text(j, i, f"{values[i, j]:.3f}", ha="center", va="center", fontsize=8)
    fig.colorbar(im, ax=ax, fraction=0.04, label="accuracy")
    ax.set_title(title, pad=24)
    return save_figure(fig, path)


# -- benchmark entry points ----------------------------------------------------------------------------
def evaluate(scorer: ScorerSource, data: str | Path, *, limit: int | None = None, configs: Sequence[str] | None = None,
             candidate_limit: int | None = None, bertscore: bool = True, show_progress: bool = True
             ) -> dict[str, Any]:
    """``nash bench embednum1k`` on the folder ``data``, as a result envelope (``results`` = the summary).

    ``scorer`` is a NASH scorer or a factory ``f(comparisons=bool) -> NASH``; ``limit``: first N rows of
    each triple config, ``candidate_limit`` (default ``limit``) first N questions of each candidate config.
    """
    rows = load_data(data, configs, limit, candidate_limit)
    columns, config = score_all(rows, scorer, bertscore=bertscore, show_progress=show_progress)
    summary = summarize(rows, columns)
    return result_envelope(DATASET, config, summary,
                           data={"dir": str(data), "configs": list(rows), "rows": {c: len(r) for c, r in rows.items()},
                                 "limit": limit, "candidate_limit": candidate_limit})


def markdown(result: dict[str, Any]) -> str:
    """The tables ``nash bench embednum1k`` prints, from ``evaluate``'s result."""
    return tables(result["results"])


def plot(result: dict[str, Any], path: str | Path) -> Path:
    """Formats × scorers heat-map of ``evaluate``'s result."""
    return plot_heatmap(result["results"], path)


def card(data: str | Path, result: dict[str, Any]) -> Path:
    """Write ``evaluate``'s tables (and what produced them) into the card of the built folder ``data``."""
    return update_results_section(data, results_markdown(result, markdown(result)))


def results_markdown(result: dict[str, Any], table_text: str) -> str:
    """The card's results section: tables plus what produced them."""
    cfg = result["config"]["nash"]
    rows = result["data"]["rows"]
    triple_n = sorted({n for c, n in rows.items() if c not in CANDIDATE_CONFIGS})
    cand_n = sorted({n for c, n in rows.items() if c in CANDIDATE_CONFIGS})
    sizes = f"{'/'.join(map(str, triple_n))} rows per triple config" + (
        f", {'/'.join(map(str, cand_n))} questions per candidate config" if cand_n else "")
    limits = "".join(f" --{k.replace('_', '-')} {result['data'][k]}" for k in ("limit", "candidate_limit")
                     if result["data"][k])
    return (f"## Results ({cfg['model']}, {cfg['backend']} backend, tau={cfg['threshold']})\n\n"
            f"Produced by `nash bench embednum1k --data <this folder>{limits} --update-card` "
            f"({sizes} scored). NASH+cmp is `NASH(comparisons=True)`; "
            "plain NASH and cosine near 0.5 are the expected result: A+ and A− are equidistant from the "
            "threshold, so magnitude similarity cannot separate them (plain NASH prefers the larger number, "
            "hence ~1 on \"above\" and ~0 on \"below\").\n\n" + table_text)
