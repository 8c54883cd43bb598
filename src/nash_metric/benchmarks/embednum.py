"""EmbedNum-1K: build the 18 paper formats + extras, and evaluate cosine, BERTScore, NASH, NASH+comparisons.

Construction lives in ``embednum_formats`` (numbers), ``embednum_sources`` (seed questions / released
file), ``embednum_build`` (rows) and ``embednum_card`` (dataset card). This module is the public entry:
``build_dataset`` and ``evaluate`` plus the ``nash build-data embednum1k`` / ``nash bench embednum1k``
commands.

Scoring: every scorer scores all (question, answer) pairs of all selected configs in one batched call
(NASH dedups texts internally). Columns: the NASH scorer's own baseline (cosine for a sentence
encoder, BERTScore F1 for a token encoder), BERTScore from the ``bert_score`` package on the same
local model (skipped when it is the baseline), plain NASH, and NASH with ``comparisons=True``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..protocols import bootstrap_ci, precision_at_k, triplet_accuracy
from ..reporting import markdown_table, result_envelope, save_figure, write_json
from .embednum_build import (
    ALL_CONFIGS,
    CANDIDATE_COLUMNS,
    CANDIDATE_CONFIGS,
    TRIPLE_COLUMNS,
    build_embednum,
    write_parquet,
)
from .embednum_card import update_results_section, write_card
from .embednum_formats import PAPER_FORMATS
from .embednum_sources import load_released, load_seeds

DATASET = "embednum1k"


# -- construction --------------------------------------------------------------------------------------
def build_dataset(out_dir: str | Path, source: str | Path | None = None, seeds: str | Path | None = None,
                  seed: int = 0, n: int | None = None, configs: Sequence[str] | None = None,
                  n_candidate_questions: int = 200, show_progress: bool = False) -> dict[str, list[dict]]:
    """Build and write OUT/data/<config>.parquet and OUT/README.md; returns the rows per config."""
    released = load_released(source) if source is not None else None
    templates = [r.template for r in released] if released is not None else load_seeds(seeds)
    n = n if n is not None else (len(released) if released is not None else 1000)
    data = build_embednum(templates, n=n, seed=seed, configs=configs, n_candidate_questions=n_candidate_questions,
                          released=released, show_progress=show_progress)
    write_parquet(data, out_dir)
    meta = {"seed": seed, "n": n, "n_candidate_questions": n_candidate_questions,
            "source": str(source) if source is not None else None,
            "seeds": str(seeds) if seeds is not None else "packaged", "n_templates": len(templates),
            "configs": list(data)}
    write_card(data, out_dir, meta)
    return data


def load_data(data_dir: str | Path, configs: Sequence[str] | None = None, limit: int | None = None,
              candidate_limit: int | None = None) -> dict[str, list[dict]]:
    """Rows of OUT/data/<config>.parquet for each config present (or requested); the first `limit` rows
    of each triple config, the first `candidate_limit` (default: `limit`) of each candidate config."""
    for name, value in (("limit", limit), ("candidate_limit", candidate_limit)):
        if value is not None and value < 1:
            raise ValueError(f"{name} must be a positive number of rows, got {value}")
    candidate_limit = candidate_limit if candidate_limit is not None else limit
    import pyarrow.parquet as pq

    data_dir = Path(data_dir)
    folder = data_dir / "data"
    if not folder.is_dir():
        raise FileNotFoundError(f"{data_dir}: no data/ folder; build it with `nash build-data embednum1k --out DIR`")
    wanted = list(configs) if configs else [c for c in ALL_CONFIGS if (folder / f"{c}.parquet").is_file()]
    out: dict[str, list[dict]] = {}
    for config in wanted:
        if config not in ALL_CONFIGS:
            raise ValueError(f"unknown config {config!r}; choose from {list(ALL_CONFIGS)}")
        path = folder / f"{config}.parquet"
        if not path.is_file():
            raise FileNotFoundError(f"{path}: config {config!r} was not built")
        table = pq.read_table(path)
        need = CANDIDATE_COLUMNS if config in CANDIDATE_CONFIGS else TRIPLE_COLUMNS
        missing = [c for c in need if c not in table.column_names]
        if missing:
            raise ValueError(f"{path}: missing column(s) {missing}")
        rows = table.to_pylist()
        cap = candidate_limit if config in CANDIDATE_CONFIGS else limit
        out[config] = rows[:cap] if cap is not None else rows
    if not out:
        raise FileNotFoundError(f"{folder}: no EmbedNum-1K Parquet files")
    return out


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


def bertscore_f1(preds: Sequence[str], refs: Sequence[str], model: str, num_layers: int | None,
                 batch_size: int = 64, device: str | None = None) -> tuple[np.ndarray, dict[str, Any]]:
    """BERTScore F1 from the `bert_score` package on the resolved (local) model, as DESIGN §3 prescribes."""
    import bert_score
    import torch
    from transformers import AutoConfig

    from ..models import default_num_layers, resolve_model

    resolved = resolve_model(model)
    layers = num_layers or default_num_layers(resolved, AutoConfig.from_pretrained(resolved.path).num_hidden_layers)
    device = device or ("cuda" if torch.cuda.is_available() else "cpu")
    _, _, f1 = bert_score.score(list(preds), list(refs), model_type=resolved.path, num_layers=layers,
                                batch_size=batch_size, device=device)
    return f1.numpy().astype(np.float64), {"model": resolved.name, "path": resolved.path, "num_layers": layers}


def score_all(data: dict[str, list[dict]], scorer_factory, bertscore: bool = True, show_progress: bool = True,
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Scores of every pair for each column; `scorer_factory(comparisons=bool)` builds a NASH scorer."""
    preds, refs, _ = _pairs(data)
    plain = scorer_factory(comparisons=False)
    out = plain.score(preds, refs, show_progress=show_progress)
    baseline = plain.baseline_name
    columns = {baseline: out.baseline}
    config: dict[str, Any] = {"nash": out.config, "nash_hashcode": out.hashcode}
    if bertscore and "bertscore" not in baseline.lower():
        columns["BERTScore"], config["bertscore"] = bertscore_f1(
            preds, refs, plain.resolved.name, plain.num_layers, device=str(plain.device))
    columns["NASH"] = out.nash
    cmp_out = scorer_factory(comparisons=True).score(preds, refs, show_progress=show_progress)
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


def evaluate(data_dir: str | Path, scorer_factory, configs: Sequence[str] | None = None, limit: int | None = None,
             candidate_limit: int | None = None, bertscore: bool = True, show_progress: bool = True
             ) -> dict[str, Any]:
    data = load_data(data_dir, configs, limit, candidate_limit)
    columns, config = score_all(data, scorer_factory, bertscore=bertscore, show_progress=show_progress)
    summary = summarize(data, columns)
    return {"summary": summary, "scorer_config": config,
            "data": {"dir": str(data_dir), "configs": list(data), "rows": {c: len(r) for c, r in data.items()},
                     "limit": limit, "candidate_limit": candidate_limit}}


# -- CLI -----------------------------------------------------------------------------------------------
def _cmd_build(args: argparse.Namespace) -> int:
    data = build_dataset(args.out, source=args.source, seeds=args.seeds, seed=args.seed, n=args.n,
                         configs=args.configs, n_candidate_questions=args.candidate_questions, show_progress=True)
    total = sum(len(v) for v in data.values())
    print(f"wrote {len(data)} configs ({total} rows) to {Path(args.out) / 'data'} and {Path(args.out) / 'README.md'}")
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from ..cli import scorer_from_args

    result = evaluate(args.data, lambda comparisons: scorer_from_args(args, comparisons=comparisons),
                      configs=args.configs, limit=args.limit, candidate_limit=args.candidate_limit,
                      bertscore=not args.no_bertscore)
    text = tables(result["summary"])
    print(text)
    if args.output:
        payload = result_envelope(DATASET, result["scorer_config"], result["summary"], data=result["data"])
        path = write_json(args.output, payload)
        path.with_suffix(".md").write_text(text + "\n", encoding="utf-8")
        print(f"\nwrote {path} and {path.with_suffix('.md')}", file=sys.stderr)
    if args.plot:
        print(f"wrote {plot_heatmap(result['summary'], args.plot)}", file=sys.stderr)
    if args.update_card:
        print(f"updated {update_results_section(args.data, results_markdown(result, text))}", file=sys.stderr)
    return 0


def results_markdown(result: dict[str, Any], table_text: str) -> str:
    """The card's results section: tables plus what produced them."""
    cfg = result["scorer_config"]["nash"]
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


def register_cli(build_subparsers, bench_subparsers) -> None:
    from ..cli import add_model_options

    p = build_subparsers.add_parser(DATASET, help="EmbedNum-1K: 18 number formats + extras (comparison triples)")
    p.add_argument("--out", required=True, help="dataset folder: Parquet to OUT/data/, card to OUT/README.md")
    p.add_argument("--source", default=None, help="the authors' released triples (.jsonl/.json/.csv with question, "
                   "positive, negative); default: generate from seed questions")
    p.add_argument("--seeds", default=None, help="seed question file (default: the packaged 72 templates)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--n", type=int, default=None, help="triples per config (default: 1000, or all released)")
    p.add_argument("--candidate-questions", type=int, default=200, help="questions in candidates_10/100")
    p.add_argument("--configs", nargs="+", default=None, choices=ALL_CONFIGS, metavar="CONFIG",
                   help="subset of configs (default: all)")
    p.set_defaults(func=_cmd_build)

    p = bench_subparsers.add_parser(DATASET, help="EmbedNum-1K accuracy per format: cosine, BERTScore, NASH, "
                                    "NASH+comparisons; above/below; P@k")
    p.add_argument("--data", required=True, help="dataset folder built by `nash build-data embednum1k`")
    p.add_argument("--configs", nargs="+", default=None, choices=ALL_CONFIGS, metavar="CONFIG")
    p.add_argument("--limit", type=int, default=None, help="first N rows per config (quick runs)")
    p.add_argument("--candidate-limit", type=int, default=None,
                   help="first N questions of candidates_10/100 (default: --limit)")
    p.add_argument("--no-bertscore", action="store_true", help="skip the bert_score package column")
    p.add_argument("--output", default=None, help="JSON result path (a .md table is written beside it)")
    p.add_argument("--plot", default=None, help="heat-map PNG path (formats × scorers)")
    p.add_argument("--update-card", action="store_true", help="write the tables into DATA/README.md")
    add_model_options(p)
    p.set_defaults(func=_cmd_bench)
