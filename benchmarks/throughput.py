"""Throughput of NASH vs the `bert-score` package and vs bare forward passes, measured in one run.

    python benchmarks/throughput.py [--pairs 1000] [--groups 100] [--device cpu] [--output FILE.json]

Two workloads from Financial PhraseBank (../shared/data):
  distinct  N pairs of different sentences: NASH needs two passes (original + masked texts), bert-score
            one, so 0.5x is the ceiling;
  groups    NumFinE-style units of 1 anchor + 9 variants that differ only in one number: the variants
            share one masked text, so NASH encodes 10 originals + 1 masked per unit against bert-score's
            10 (ceiling 10/11).
  chunks    --chunk-pairs distinct pairs (default 2,400: every text distinct) scored in chunks of `chunk_size`
            (default 1,024) vs in one chunk (how NASH scored before chunking): what bounded memory costs.
Ratios, not seconds, are what carries over between machines.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch

from nash_metric import NASH, extract_numbers
from nash_metric.models import embedded_model_dir
from nash_metric.reporting import markdown_table

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "financial_phrasebank" / "all-data.csv"


def load_sentences(path: Path) -> list[str]:
    with path.open(encoding="latin-1") as fh:
        return list(dict.fromkeys(row[1] for row in csv.reader(fh)))


def distinct_pairs(sentences: list[str], n: int) -> tuple[list[str], list[str]]:
    return sentences[:n], sentences[n : 2 * n]


def variant_groups(sentences: list[str], n_groups: int) -> tuple[list[str], list[str]]:
    """Anchor vs 9 copies with its first number scaled: one masked text per unit, as in NumFinE."""
    preds, refs = [], []
    for s in sentences:
        mentions = [m for m in extract_numbers(s) if m.value is not None and m.kind != "temporal"]
        if not mentions:
            continue
        m = mentions[0]
        for k in range(9):
            preds.append(s)
            refs.append(s[: m.start] + f"{m.value * (0.5 + 0.17 * k):.2f}" + s[m.end :])
        if len(preds) >= 9 * n_groups:
            break
    return preds, refs


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def bare_forward(scorer: NASH, texts: list[str]) -> float:
    """The floor: one batched forward pass over the distinct original texts, nothing else."""
    enc = scorer.encoder
    # Same batching as the encoder (longest token count first), so only NASH's extra work differs.
    ids = sorted(
        (enc.prefix + enc.tokenize(t).ids[: enc.window] + enc.suffix for t in set(texts)), key=len, reverse=True
    )

    def run():
        with torch.inference_mode():
            for b in range(0, len(ids), scorer.options.batch_size):
                enc.forward(*enc.pad(ids[b : b + scorer.options.batch_size]))

    return timed(run)[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--groups", type=int, default=100)
    parser.add_argument("--chunk-pairs", type=int, default=2400, help="distinct pairs of the chunking workload")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--device", default=None)
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args(argv)
    if not args.data.is_file():
        sys.exit(f"throughput: {args.data} not found (Financial PhraseBank, ../shared/data)")
    import bert_score

    model_dir = str(embedded_model_dir())
    device = args.device or ("cuda" if torch.cuda.is_available() else "cpu")
    scorer = NASH(backend="token", num_layers=6, batch_size=args.batch_size, device=device)
    sentence_scorer = NASH(backend="sentence", batch_size=args.batch_size, device=device)
    bs = bert_score.BERTScorer(model_type=model_dir, num_layers=6, batch_size=args.batch_size, device=device)
    sentences = load_sentences(args.data)
    warm = sentences[:32]
    scorer.score(warm, warm[::-1])
    sentence_scorer.score(warm, warm[::-1])
    bs.score(warm, warm[::-1])

    rows, report = [], {}
    for name, (preds, refs) in {
        "distinct": distinct_pairs(sentences, args.pairs),
        "groups": variant_groups(sentences, args.groups),
    }.items():
        t_bs, _ = timed(lambda p=preds, r=refs: bs.score(p, r))
        t_nash, _ = timed(lambda p=preds, r=refs: scorer.score(p, r))
        t_sent, _ = timed(lambda p=preds, r=refs: sentence_scorer.score(p, r))
        t_fwd = bare_forward(scorer, preds + refs)
        n = len(preds)
        report[name] = {
            "pairs": n,
            "bert_score_s": t_bs,
            "nash_token_s": t_nash,
            "nash_sentence_s": t_sent,
            "bare_forward_s": t_fwd,
            "nash_vs_bert_score": t_bs / t_nash,
            "nash_time_over_bare_forward": t_nash / t_fwd,
        }
        rows.append([name, n, n / t_bs, n / t_nash, t_bs / t_nash, t_nash / t_fwd, n / t_sent])
    print(
        markdown_table(
            [
                "workload",
                "pairs",
                "bert-score pairs/s",
                "NASH (token) pairs/s",
                "NASH / bert-score",
                "NASH time / bare forward",
                "NASH (sentence) pairs/s",
            ],
            rows,
            digits=2,
        )
    )
    print(
        f"\nmodel all-MiniLM-L6-v2 layer 6, device {device}, batch {args.batch_size}, torch {torch.__version__}, "
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cpus"
    )
    preds, refs = distinct_pairs(sentences, min(args.chunk_pairs, len(sentences) // 2))  # every text distinct
    t_chunked, _ = timed(lambda: scorer.score(preds, refs))
    t_whole, _ = timed(lambda: scorer.with_options(chunk_size=len(preds)).score(preds, refs))
    report["chunks"] = {"pairs": len(preds), "chunk_size": scorer.options.chunk_size, "chunked_s": t_chunked,
                        "one_chunk_s": t_whole, "chunked_vs_one_chunk": t_whole / t_chunked}
    print(f"chunks: {len(preds)} distinct pairs (token), chunk_size {scorer.options.chunk_size}: "
          f"{len(preds) / t_chunked:.2f} pairs/s vs {len(preds) / t_whole:.2f} in one chunk "
          f"({t_whole / t_chunked:.2f}x)")
    if args.output:
        args.output.write_text(json.dumps({"device": device, "results": report}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
