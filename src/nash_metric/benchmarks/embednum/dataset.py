"""An EmbedNum-1K dataset folder: build it (Parquet per config + card) and read it back.

Layout: ``OUT/data/<config>.parquet`` and the card ``OUT/README.md``, whose ``configs:`` point at the
Parquet files, so ``datasets.load_dataset(OUT, config)`` reads the folder natively.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .card import write_card
from .configs import N_CANDIDATE_QUESTIONS
from .construction import (
    ALL_CONFIGS,
    CANDIDATE_COLUMNS,
    CANDIDATE_CONFIGS,
    TRIPLE_COLUMNS,
    build_embednum,
    write_parquet,
)
from .sources import load_released, load_seeds


def build_dataset(out_dir: str | Path, source: str | Path | None = None, seeds: str | Path | None = None,
                  seed: int = 0, n: int | None = None, configs: Sequence[str] | None = None,
                  n_candidate_questions: int = N_CANDIDATE_QUESTIONS, show_progress: bool = False) -> dict[str, Any]:
    """Build and write OUT/data/<config>.parquet and OUT/README.md; returns the build report.

    The report is the build configuration written on the card, plus ``out`` and the ``rows`` per config.
    """
    released = load_released(source) if source is not None else None
    if released is not None and len(released) < 2:
        raise ValueError(f"{source}: {len(released)} triple; EmbedNum-1K needs at least 2 (one above, one below)")
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
    return {"out": str(out_dir), **meta, "rows": {config: len(rows) for config, rows in data.items()}}


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
