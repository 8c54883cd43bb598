"""The published NumFinE layout: the ``datasets.Features`` of each config, its Parquet shard path and the
protocol a config name stands for (ours and the authors' released file stems alike)."""

from __future__ import annotations

from typing import Literal

from .tables import CONFIGS

SPLIT = "test"
Protocol = Literal["triplet", "crosspair", "listwise"]
_PREFIXES: tuple[tuple[str, Protocol], ...] = (("triplet", "triplet"), ("crosspair", "crosspair"),
                                               ("cross_pair", "crosspair"), ("listwise", "listwise"))
_TRIPLET_LEVELS = ("easy", "medium", "hard")


def protocol_of(config: str) -> Protocol | None:
    """The protocol of a config or released file stem (``triplet_hard``, ``crosspair_test``, ...); None for others
    (``units``)."""
    name = config.lower()
    return next((protocol for prefix, protocol in _PREFIXES if name.startswith(prefix)), None)


def config_order(config: str) -> tuple[int, int, str]:
    """Triplets (easy, medium, hard, others), then listwise, then cross-pair: the paper's table order."""
    protocol = protocol_of(config)
    level = next((k for k, lv in enumerate(_TRIPLET_LEVELS) if config.endswith(lv)), len(_TRIPLET_LEVELS))
    return (("triplet", "listwise", "crosspair").index(protocol) if protocol else 3, level, config)


def features(config: str):
    """The ``datasets.Features`` of a config (also what the dataset card declares)."""
    from datasets import Features, List, Value

    s, f, i = Value("string"), Value("float64"), Value("int64")
    common = {"unit_id": s, "category": s, "subcategory": s, "target": s, "target_start": i, "target_end": i}
    if config.startswith("triplet_"):
        return Features({**common, "anchor": s, "positive": s, "negative": s, "positive_target": s,
                         "negative_target": s, "distance_positive": f, "distance_negative": f})
    if config == "listwise":
        return Features({**common, "anchor": s, "variants": List(s), "variant_targets": List(s),
                         "distances": List(f)})
    if config == "crosspair":
        return Features({"unit_id": s, "unit_id_b": s, "category": s, "subcategory": s, "subcategory_b": s,
                         "target": s, "target_b": s, "delta_unit": s, "sentence_a1": s, "sentence_a2": s,
                         "sentence_b1": s, "sentence_b2": s, "distance_a": f, "distance_b": f,
                         "label": Value("int8")})
    if config == "units":
        return Features({"unit_id": s, "sentence_id": s, "source_line": i, "sentence": s, "category": s,
                         "subcategory": s, "target": s, "target_start": i, "target_end": i, "target_value": f,
                         "rule": s, "delta_unit": s, "variants": List(s), "variant_targets": List(s),
                         "variant_values": List(f), "distances": List(f), "relative_distances": List(f),
                         "replaced_variants": i})
    raise ValueError(f"unknown NumFinE config {config!r}; configs are {list(CONFIGS)}")


def shard_path(config: str) -> str:
    return f"data/{config}/{SPLIT}-00000-of-00001.parquet"
