"""What the three dataset cards share: Hub metadata computed from the written Parquet files, and the sections
(citation, limitations, how it was built) every card carries.

The ``dataset_info`` block is read back from the files a folder holds, never from rows kept in memory, so a
card regenerated over an existing folder and a card written by a fresh build state the same sizes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from datasets.info import DatasetInfo

# The Hub's size_categories buckets, by upper bound on the number of examples.
_SIZE_BUCKETS = ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M"),
                 (10_000_000, "1M<n<10M"))


@dataclass(frozen=True)
class CardMetadata:
    """The Hub card fields a build states about itself (sizes and features come from the files)."""

    pretty_name: str
    license: str
    language: list[str]
    task_categories: list[str]
    source_datasets: list[str]
    annotations_creators: list[str]
    language_creators: list[str]
    size_category: str
    multilinguality: str = "monolingual"
    task_ids: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)


def size_category(n: int) -> str:
    """The Hub's ``size_categories`` bucket of ``n`` examples."""
    return next((label for limit, label in _SIZE_BUCKETS if n < limit), "n>10M")


def data_files(folder: Path, pattern: str) -> list[Path]:
    """The files a ``configs:`` ``path`` (a file or a glob, relative to the folder) matches, as the Hub reads it."""
    return sorted(folder.glob(pattern))


def config_info(folder: str | Path, config: str, splits: Sequence[Mapping[str, str]]) -> DatasetInfo:
    """The ``dataset_info`` entry of one config, measured on its Parquet files.

    ``splits`` are the config's ``data_files`` entries (``{"split": ..., "path": ...}``). Per split:
    ``num_examples`` = rows; ``num_bytes`` = the Arrow in-memory size of the table
    (``pyarrow.parquet.read_table(f).nbytes``), what the Hub records; per config: ``download_size`` = the
    Parquet files' bytes on disk, ``dataset_size`` = the sum of ``num_bytes``. Features come from the first
    file's schema (its ``huggingface`` metadata where the writer left some), so they are what the files hold.
    """
    import pyarrow.parquet as pq
    from datasets import Features
    from datasets.info import DatasetInfo
    from datasets.splits import SplitDict, SplitInfo

    split_dict, download, features = SplitDict(), 0, None
    for entry in splits:
        files = data_files(Path(folder), entry["path"])
        if not files:
            raise FileNotFoundError(f"{folder}: config {config!r} split {entry['split']!r}: no file matches "
                                    f"{entry['path']!r}")
        tables = [pq.read_table(f) for f in files]
        features = features or Features.from_arrow_schema(pq.read_schema(files[0]))
        split_dict.add(SplitInfo(name=entry["split"], num_examples=sum(t.num_rows for t in tables),
                                 num_bytes=sum(t.nbytes for t in tables)))
        download += sum(f.stat().st_size for f in files)
    return DatasetInfo(features=features, splits=split_dict, config_name=config, download_size=download,
                       dataset_size=sum(s.num_bytes for s in split_dict.values()))


def card_yaml(meta: CardMetadata, configs: list[dict[str, Any]], folder: str | Path) -> str:
    """The YAML front matter (without the ``---`` fences): ``meta``, ``configs`` and their measured ``dataset_info``."""
    from datasets.info import DatasetInfosDict
    from huggingface_hub import DatasetCardData

    data = DatasetCardData(
        pretty_name=meta.pretty_name, license=meta.license, language=meta.language,
        annotations_creators=meta.annotations_creators, language_creators=meta.language_creators,
        multilinguality=meta.multilinguality, size_categories=[meta.size_category],
        source_datasets=meta.source_datasets, task_categories=meta.task_categories,
        task_ids=meta.task_ids or None, tags=meta.tags or None, configs=configs,
    )
    # configs before dataset_info: tools that edit the card by text (and the Hub's own writer) expect that order
    infos = {c["config_name"]: config_info(folder, c["config_name"], c["data_files"]) for c in configs}
    DatasetInfosDict(infos).to_dataset_card_data(data)
    return data.to_yaml()


def accuracy_margin(n: int) -> float:
    """Half-width of a 95 % normal interval on an accuracy from ``n`` items, at its widest (p = 0.5)."""
    return 1.96 * math.sqrt(0.25 / n) if n > 0 else 1.0


def citation_section(entries: Sequence[str], intro: str) -> str:
    """``## Citation``: one paragraph, then the BibTeX entries in one block."""
    bibtex = "\n\n".join(e.strip() for e in entries)
    return f"## Citation\n\n{intro.strip()}\n\n```bibtex\n{bibtex}\n```\n"


def limitations_section(items: Sequence[str]) -> str:
    """``## Bias, risks and limitations`` as a bullet list."""
    bullets = "\n".join(f"- {item.strip()}" for item in items)
    return f"## Bias, risks and limitations\n\n{bullets}\n"


def build_section(commands: Sequence[str], notes: str) -> str:
    """``## How each config was built``: the commands (one shell block) and what they fix (seed, sizes)."""
    block = "\n".join(commands)
    return f"## How each config was built\n\n```bash\n{block}\n```\n\n{notes.strip()}\n"
