"""Corpus-scale scoring: files of pairs in, rows out, bounded memory, torch.distributed.

    pair_files   files of pairs (CSV/TSV/JSONL/Parquet, candidates/references), checked in one streaming pass
    textfile     a text file checked block by block, then read from any byte offset
    rows         per-pair result rows out chunk by chunk, and back
    summary      corpus means with bootstrap intervals
    distributed  torchrun / accelerate: shards, rows streamed to rank 0
    scoring      `score_corpus`

`nash_metric.corpus.<name>` for a name of `scoring` still works for one release (0.2.0's module).
"""

from __future__ import annotations

from typing import Any

from ..common.moved import moved_name


def __getattr__(name: str) -> Any:
    return moved_name(__name__, name)
