"""Corpus-scale scoring: files of pairs in, rows out, bounded memory, torch.distributed.

    pair_files   files of pairs (CSV/TSV/JSONL/Parquet, candidates/references), checked in one streaming pass
    textfile     a text file checked block by block, then read from any byte offset
    rows         per-pair result rows out chunk by chunk, and back
    summary      corpus means with bootstrap intervals
    distributed  torchrun / accelerate: shards, rows streamed to rank 0
    scoring      `score_corpus`
"""
