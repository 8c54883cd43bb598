"""Writing a NumFinE dataset folder: Parquet per config, ``build_report.json`` and the card ``README.md``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...common.atomic import replacing, write_text
from .build import NumFinEBuild, build_from_file, build_report_markdown
from .card import render_card
from .construction import K_DEFAULT
from .schema import features, shard_path
from .tables import CONFIGS


def write_numfine(build: NumFinEBuild, out_dir: str | Path, card: dict[str, Any] | None = None) -> Path:
    """Write ``data/<config>/*.parquet``, ``build_report.json`` and a dataset card ``README.md``.

    ``card`` may set ``pretty_name``, ``license`` (a Hub licence id), ``source_note``, ``license_note`` and the
    other card fields ``render_card`` lists (provenance tags, extra limitations, the build commands).
    The folder then loads with ``datasets.load_dataset(out_dir, "<config>")`` for every config on the card; a
    config without rows (no cross-pair from a tiny source) is neither written nor listed.
    """
    from datasets import Dataset

    from ...common.reporting import write_json

    out = Path(out_dir)
    if not any(build.tables[c] for c in CONFIGS):
        raise ValueError(f"{out}: no NumFinE config has rows; nothing written")
    out.mkdir(parents=True, exist_ok=True)
    for config in CONFIGS:
        target = out / shard_path(config)
        for old in target.parent.glob("*.parquet"):
            old.unlink()  # a rebuild replaces the shard, never mixes two builds (nor keeps an omitted config's)
        rows = build.tables[config]
        if not rows:  # load_dataset refuses an empty split: the config is left out (build report: omitted_configs)
            if target.parent.is_dir() and not any(target.parent.iterdir()):
                target.parent.rmdir()
            continue
        ds = Dataset.from_list(rows, features=features(config))
        target.parent.mkdir(parents=True, exist_ok=True)
        with replacing(target) as partial:
            ds.to_parquet(str(partial))
    write_json(out / "build_report.json", build.report)
    # after the shards: the card's dataset_info is measured on the files just written
    write_text(out / "README.md", render_card(build, out, card or {}))
    return out


def build_dataset(out: str | Path, *, source: str | Path | None = None, released: str | Path | None = None,
                  seed: int = 0, show_progress: bool = False, column: str | None = None, encoding: str | None = None,
                  k: int = K_DEFAULT, card: dict[str, Any] | None = None) -> dict[str, Any]:
    """Build NumFinE into ``out`` (what ``nash build-data numfine`` does); the build report.

    From a sentence file ``source``: the folder of ``write_numfine`` plus ``build_report.md``. From the authors'
    ``released`` file or folder instead: one config per released file (``released_publish.build_released``).
    """
    if (source is None) == (released is None):
        raise ValueError("give exactly one of source (sentences to build from) and released (the authors' files)")
    if released is not None:
        from .released_publish import build_released

        return build_released(out, released, card)
    build = build_from_file(source, column=column, seed=seed, k=k, encoding=encoding, show_progress=show_progress)
    folder = write_numfine(build, out, card)
    write_text(folder / "build_report.md", build_report_markdown(build.report) + "\n")
    return build.report
