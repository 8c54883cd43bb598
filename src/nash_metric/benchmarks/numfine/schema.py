"""The published NumFinE layout: the ``datasets.Features`` of each config and its Parquet shard path."""

from __future__ import annotations

from .tables import CONFIGS

SPLIT = "test"


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
