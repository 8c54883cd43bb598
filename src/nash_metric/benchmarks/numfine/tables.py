"""NumFinE protocol tables from units: triplets (easy, medium, hard), listwise lists and cross-pairs.

Over variants sorted by |Δ| (closest first): triplet easy pairs the closest with the farthest variant,
medium with the ⌊k/2⌋-th, hard with the second closest; listwise keeps all k in a seeded random order;
cross-pairs join two units of the same category (one variant each), seeded per category.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from .construction import stable_seed

CONFIGS = ("triplet_easy", "triplet_medium", "triplet_hard", "listwise", "crosspair", "units")
CROSSPAIR_MIN_RATIO = 1.5  # the larger deviation of a cross-pair is at least this times the smaller


def crosspair_distance(unit: dict[str, Any], i: int) -> float:
    """Deviation used to compare two units: relative |Δ|/|v| for magnitudes, |Δ| for dates and times."""
    return unit["relative_distances"][i] if unit["delta_unit"] == "value" else unit["distances"][i]


def protocol_tables(units: Sequence[dict[str, Any]], seed: int = 0) -> tuple[dict[str, list[dict]], dict[str, Any]]:
    """The five evaluation configs (plus ``units``) from units, and the cross-pair part of the report."""
    tables: dict[str, list[dict[str, Any]]] = {c: [] for c in CONFIGS}
    for u in units:
        k = len(u["variants"])
        if k < 3:
            raise ValueError(f"unit {u['unit_id']}: {k} variants, the protocols need at least 3")
        common = {"unit_id": u["unit_id"], "category": u["category"], "subcategory": u["subcategory"],
                  "target": u["target"], "target_start": u["target_start"], "target_end": u["target_end"]}
        for config, neg in (("triplet_easy", k - 1), ("triplet_medium", k // 2), ("triplet_hard", 1)):
            tables[config].append({**common, "anchor": u["sentence"], "positive": u["variants"][0],
                                   "negative": u["variants"][neg], "positive_target": u["variant_targets"][0],
                                   "negative_target": u["variant_targets"][neg],
                                   "distance_positive": u["distances"][0], "distance_negative": u["distances"][neg]})
        order = list(range(k))
        # Listwise variants in a seeded random order, so position says nothing about distance.
        random.Random(stable_seed("listwise", seed, u["unit_id"])).shuffle(order)
        tables["listwise"].append({**common, "anchor": u["sentence"], "variants": [u["variants"][i] for i in order],
                                   "variant_targets": [u["variant_targets"][i] for i in order],
                                   "distances": [u["distances"][i] for i in order]})
        tables["units"].append(dict(u))
    tables["crosspair"], cp_report = crosspairs(units, seed)
    return tables, cp_report


def crosspairs(units: Sequence[dict[str, Any]], seed: int = 0) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Pairs of units of the same category (and deviation unit), one variant each, seeded per category.

    Variants are redrawn (up to 50 times) until one deviation is at least ``CROSSPAIR_MIN_RATIO`` times the
    other, so the gold is never a near tie; label 0 means pair a deviates less.
    """
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for u in units:
        if all(math.isfinite(crosspair_distance(u, i)) for i in range(len(u["variants"]))):
            groups[u["category"], u["delta_unit"]].append(u)
    rows, unpaired, unseparated = [], 0, 0
    for (category, delta_unit), members in sorted(groups.items()):
        members = sorted(members, key=lambda u: u["unit_id"])
        rng = random.Random(stable_seed("crosspair", seed, category, delta_unit))
        rng.shuffle(members)
        unpaired += len(members) % 2
        for a, b in zip(members[0::2], members[1::2], strict=False):
            for _ in range(50):
                ia, ib = rng.randrange(len(a["variants"])), rng.randrange(len(b["variants"]))
                da, db = crosspair_distance(a, ia), crosspair_distance(b, ib)
                if min(da, db) > 0 and max(da, db) >= CROSSPAIR_MIN_RATIO * min(da, db):
                    break
            else:
                unseparated += 1
                continue
            if rng.random() < 0.5:  # balance the labels
                a, b, ia, ib, da, db = b, a, ib, ia, db, da
            rows.append({"unit_id": a["unit_id"], "unit_id_b": b["unit_id"], "category": category,
                         "subcategory": a["subcategory"], "subcategory_b": b["subcategory"],
                         "target": a["target"], "target_b": b["target"], "delta_unit": delta_unit,
                         "sentence_a1": a["sentence"], "sentence_a2": a["variants"][ia],
                         "sentence_b1": b["sentence"], "sentence_b2": b["variants"][ib],
                         "distance_a": da, "distance_b": db, "label": 0 if da < db else 1})
    return rows, {"pairs": len(rows), "unpaired_units": unpaired, "pairs_without_separated_variants": unseparated,
                  "min_ratio": CROSSPAIR_MIN_RATIO}
