"""NumFinE units: every target of a base sentence with its k variants, drawn with a per-unit seed.

Every numeral of a base sentence is a target (a date or clock time is one target); its FinNum category
comes from transparent rules (``rules``), and k = 9 variants change that target and nothing else
(``formats`` keeps the written form). Randomness is drawn per unit from a hash of (seed, unit_id), so a
build depends on the set of sentences and the seed, never on processing order.

Variant selection: variants are distinct in text and in |Δ| (gold orderings are strict); the first
k distinct draws are checked for plausibility; a unit with more than ``MAX_INVALID`` implausible ones
is dropped (the paper's rule), otherwise the implausible ones are replaced by further plausible draws.
Every drop is counted in the build report with its reason.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .defaults import K_DEFAULT
from .rules import CATEGORIES, Target, Variant, draw_variant, find_targets, implausible

MAX_INVALID = 3  # a unit with more implausible variants than this is dropped
MAX_DRAWS = 2000  # per unit; enough for every rule, bounded so a degenerate target cannot hang the build
DROP_REASONS = ("too_few_distinct", "implausible", "replacement_failed")


def stable_seed(*parts: object) -> int:
    """A 64-bit seed from a stable hash (Python's hash() is salted per process)."""
    return int.from_bytes(hashlib.sha256(":".join(map(str, parts)).encode()).digest()[:8], "big")


def sentence_id(sentence: str) -> str:
    return hashlib.sha1(sentence.encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True)
class VariantDraw:
    variants: list[Variant] | None  # sorted by |Δ|, closest first; None when the unit is dropped
    reason: str = ""  # one of DROP_REASONS when dropped
    detail: str = ""
    replaced: int = 0  # implausible first draws replaced by further draws


def generate_variants(target: Target, rng: random.Random, k: int = K_DEFAULT) -> VariantDraw:
    """k distinct plausible variants of ``target``, or the reason the unit is dropped."""
    seen_text, seen_delta = {target.text}, {0.0}
    draws: list[Variant] = []
    tries = 0

    def next_distinct() -> Variant | None:
        nonlocal tries
        while tries < MAX_DRAWS:
            tries += 1
            v = draw_variant(target, rng)
            if v.target_text not in seen_text and v.distance not in seen_delta:
                seen_text.add(v.target_text)
                seen_delta.add(v.distance)
                return v
        return None

    while len(draws) < k:
        v = next_distinct()
        if v is None:
            return VariantDraw(None, "too_few_distinct", f"only {len(draws)} distinct variants in {MAX_DRAWS} draws")
        draws.append(v)
    problems = [implausible(target, v) for v in draws]
    bad = [p for p in problems if p]
    if len(bad) > MAX_INVALID:
        return VariantDraw(None, "implausible", f"{len(bad)}/{k} implausible, e.g. {bad[0]}")
    kept = [v for v, p in zip(draws, problems, strict=True) if p is None]
    while len(kept) < k:
        v = next_distinct()
        if v is None:
            return VariantDraw(None, "replacement_failed", f"{len(bad)} implausible variants could not be replaced")
        if implausible(target, v) is None:
            kept.append(v)
    return VariantDraw(sorted(kept, key=lambda v: v.distance), replaced=len(bad))


def make_units(sentences: Iterable[tuple[int, str]] | Sequence[str], seed: int = 0, k: int = K_DEFAULT,
               show_progress: bool = False) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Units (one per kept target) and the construction part of the build report. ``sentences`` are strings or
    (source line, string) pairs; a repeated sentence is used once and counted."""
    from tqdm.auto import tqdm

    from ...numbers import extract_numbers

    if k < 3:
        raise ValueError(f"k must be at least 3 (triplet medium needs distinct closest, middle and farthest), got {k}")
    items = [(i + 1, s) if isinstance(s, str) else (int(s[0]), s[1]) for i, s in enumerate(sentences)]
    seen: set[str] = set()
    duplicates = 0
    cats = {c: {"targets": 0, "kept": 0, "dropped": dict.fromkeys(DROP_REASONS, 0), "subcategories": Counter()}
            for c in CATEGORIES}
    skipped_reasons: Counter[str] = Counter()
    skipped_examples: list[dict[str, Any]] = []
    drop_examples: dict[str, list[dict[str, Any]]] = defaultdict(list)
    with_numbers = mentions_total = absorbed = 0
    units: list[dict[str, Any]] = []
    for line, sentence in tqdm(items, desc="NumFinE units", unit="sent", disable=not show_progress):
        if sentence in seen:
            duplicates += 1
            continue
        seen.add(sentence)
        mentions = extract_numbers(sentence)
        targets, skipped = find_targets(sentence, mentions)
        mentions_total += len(mentions)
        absorbed += len(mentions) - len(skipped) - sum(t.form == "number" for t in targets)
        with_numbers += bool(mentions)
        skipped_reasons.update(s.kind for s in skipped)
        skipped_examples += [{"line": line, "text": s.text, "reason": s.reason} for s in skipped
                             ][: max(0, 20 - len(skipped_examples))]
        sid = sentence_id(sentence)
        for t in targets:
            unit_id = f"{sid}-{t.start}"
            stats = cats[t.category]
            stats["targets"] += 1
            draw = generate_variants(t, random.Random(stable_seed("numfine", seed, unit_id)), k)
            if draw.variants is None:
                stats["dropped"][draw.reason] += 1
                if len(drop_examples[draw.reason]) < 5:
                    drop_examples[draw.reason].append({"line": line, "sentence": sentence, "target": t.text,
                                                       "category": t.category, "detail": draw.detail})
                continue
            stats["kept"] += 1
            stats["subcategories"][t.subcategory] += 1
            units.append(_unit_row(unit_id, sid, line, sentence, t, draw.variants, draw.replaced))
    units.sort(key=lambda u: u["unit_id"])
    for stats in cats.values():
        stats["subcategories"] = dict(sorted(stats["subcategories"].items()))
    report = {
        "seed": seed, "k": k, "max_invalid": MAX_INVALID,
        "sentences": {"read": len(items), "duplicates": duplicates, "unique": len(seen),
                      "with_numbers": with_numbers, "without_numbers": len(seen) - with_numbers},
        "mentions": {"found": mentions_total, "in_dates_or_times": absorbed, "unusable": sum(skipped_reasons.values()),
                     "unusable_by_reason": dict(skipped_reasons), "unusable_examples": skipped_examples},
        **_category_totals(cats), "dropped_examples": dict(drop_examples),
    }
    return units, report


def _category_totals(cats: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {"categories": cats,
            "totals": {"targets": sum(c["targets"] for c in cats.values()),
                       "kept": sum(c["kept"] for c in cats.values()),
                       "dropped": {r: sum(c["dropped"][r] for c in cats.values()) for r in DROP_REASONS}}}


def _unit_row(unit_id: str, sid: str, line: int, sentence: str, t: Target, variants: list[Variant],
              replaced: int) -> dict[str, Any]:
    base = abs(t.value)
    return {
        "unit_id": unit_id, "sentence_id": sid, "source_line": line, "sentence": sentence,
        "category": t.category, "subcategory": t.subcategory, "target": t.text,
        "target_start": t.start, "target_end": t.end, "target_value": t.value, "rule": t.rule,
        "delta_unit": t.delta_unit,
        "variants": [sentence[: t.start] + v.target_text + sentence[t.end :] for v in variants],
        "variant_targets": [v.target_text for v in variants],
        "variant_values": [v.value for v in variants],
        "distances": [v.distance for v in variants],
        "relative_distances": [v.distance / base if base else float("inf") for v in variants],
        "replaced_variants": replaced,
    }
