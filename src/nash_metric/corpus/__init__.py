"""Corpus-scale scoring: records, sentences and pairs in, rows out, bounded memory, torch.distributed.

    records      the one record reader: CSV/TSV, JSONL and Parquet records with file:line errors
    sentences    sentence files (a one-column record file, or one sentence a line); calibrating tau on one
    pair_files   files of pairs (CSV/TSV/JSONL/Parquet, candidates/references), checked in one streaming pass
    textfile     a text file checked block by block, then read from any byte offset
    rows         per-pair result rows out chunk by chunk, and back
    summary      corpus means with bootstrap intervals
    distributed  torchrun / accelerate: shards, rows streamed to rank 0
    scoring      `score_corpus`
"""
