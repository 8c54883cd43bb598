"""Scoring a corpus of pairs: chunks in, one row per pair out in input order, a summary with bootstrap intervals.

`score_corpus` is what `nash score --pairs / --candidates --references` runs. One process scores the pairs
chunk by chunk and streams each chunk's rows to the output, so memory holds one chunk's encodings and the
per-pair columns the summary needs. Under `torchrun` / `accelerate launch` (`distributed.Launch`) every rank
fixes what the corpus decides from the whole input (`NASH.for_corpus`), scores its contiguous shard, and
rank 0 gathers the shards in rank order and writes the one output, identical to a single-process run.
"""

from __future__ import annotations

import json
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from .blank import BlankTextWarning, count_blank_corpus
from .distributed import Launch
from .output import PUBLIC_FIELDS, hashcode
from .pairs_io import UNSUPPORTED_RATE, PairCorpus, RowWriter, corpus_summary
from .scorer import NASH

ROW_COLUMNS = ("index", *PUBLIC_FIELDS)
SUPPORT_COLUMNS = ("unsupported", "unsupported_numbers")
SHOWN_UNSCORED = 10  # unscored mentions printed to stderr; the rest are counted (column `unscored`, summary)


def score_corpus(
    scorer: NASH,
    corpus: PairCorpus,
    output: str | Path | None = None,
    launch: Launch | None = None,
    show_progress: bool = True,
    seed: int = 0,
) -> dict[str, Any] | None:
    """Score every pair of `corpus`, write one row per pair to `output`, return the summary (rank 0; else None).

    Rows: index, every score field (`output.PUBLIC_FIELDS`: nash, text_similarity, numeric_similarity, alpha,
    baseline, with the precision and recall of each, and numeric_support), best_reference (with several
    references per prediction), unsupported (the count of the prediction's figures the reference does not
    support), unsupported_numbers (those figures with their spans and verdicts, as a JSON list in every format)
    and unscored (mentions of the pair left out of the number channel). The summary adds the share of pairs
    with any unsupported figure, with its bootstrap interval. Blank texts score 0 (`blank.py`), with
    one `BlankTextWarning` for the whole corpus.
    """
    preds, refs = corpus.predictions, corpus.references
    fixed = scorer.for_corpus(preds, refs, show_progress=show_progress)

    columns = [*ROW_COLUMNS, *(("best_reference",) if corpus.multi_reference else ()), *SUPPORT_COLUMNS, "unscored"]
    shard = launch.shard(len(preds)) if launch else slice(0, len(preds))
    main = launch is None or launch.is_main
    writer = RowWriter(output, columns) if output is not None and launch is None else None
    kept: list[dict[str, np.ndarray]] = []
    unscored: list[dict[str, Any]] = []
    chunk = scorer.options.chunk_size
    try:
        total, quiet = shard.stop - shard.start, not (show_progress and main)
        with tqdm(total=total, desc="NASH", unit="pair", disable=quiet) as bar:
            for start in range(shard.start, shard.stop, chunk):
                stop = min(start + chunk, shard.stop)
                with warnings.catch_warnings():  # one warning for the whole corpus below, not one per chunk
                    warnings.simplefilter("ignore", BlankTextWarning)
                    out = fixed.score(preds[start:stop], refs[start:stop])
                items = [{**u, "index": u["index"] + start} for u in out.unscored]
                rows = {
                    "index": np.arange(start, stop, dtype=np.int64),
                    **out.columns(),
                    **support_columns(out.unsupported_numbers),
                    "unscored": np.bincount([u["index"] - start for u in items], minlength=stop - start),
                }
                if writer is not None:
                    writer.write(rows)
                kept.append(rows)
                unscored.extend(items)
                bar.update(stop - start)
    finally:
        if writer is not None:
            writer.close()

    if launch is not None:
        gathered = launch.gather((kept, unscored))
        if not main:
            return None
        kept = [part for rank_kept, _ in gathered for part in rank_kept]
        unscored = [item for _, rank_unscored in gathered for item in rank_unscored]
        if output is not None:
            with RowWriter(output, columns) as rank_writer:
                for part in kept:
                    rank_writer.write(part)

    _warn_unscored(unscored)
    count_blank_corpus(preds, refs).warn(stacklevel=2)
    merged = {name: np.concatenate([part[name] for part in kept]) for name in columns}
    merged[UNSUPPORTED_RATE] = (merged["unsupported"] > 0).astype(np.float64)
    summary = corpus_summary(merged, n_unscored=len(unscored), hashcode=hashcode(fixed.config), seed=seed)
    summary["config"] = fixed.config
    summary["processes"] = launch.world_size if launch else 1
    summary["inputs"] = corpus.sources
    if output is not None:
        summary["output"] = str(output)
    return summary


def support_columns(unsupported: Sequence[Sequence[dict[str, Any]]]) -> dict[str, np.ndarray]:
    """Per pair: how many of the prediction's figures are not supported, and which (a JSON list of entries)."""
    return {
        "unsupported": np.array([len(entries) for entries in unsupported], np.int64),
        "unsupported_numbers": np.array([json.dumps(entries, ensure_ascii=False) for entries in unsupported],
                                        dtype=object),
    }


def _warn_unscored(unscored: Sequence[dict[str, Any]]) -> None:
    for item in unscored[:SHOWN_UNSCORED]:
        where = f"pair {item['index']}, {item['side']}" + (f" {item['reference']}" if "reference" in item else "")
        print(f"warning: unscored mention {item['text']!r} ({where}): {item['reason']}", file=sys.stderr)
    if len(unscored) > SHOWN_UNSCORED:
        print(f"warning: {len(unscored) - SHOWN_UNSCORED} more unscored mentions (column 'unscored' counts them "
              "per pair)", file=sys.stderr)
