"""NumFinE: construction from any sentence corpus, protocol tables, Parquet publication, CLI.

Specification: DESIGN.md §2. Every numeral of a base sentence is a target (a date or clock time is
one target); its FinNum category comes from transparent rules (``numfine_rules``), and k = 9 variants
change that target and nothing else (``numfine_format`` keeps the written form). Randomness is drawn
per unit from a hash of (seed, unit_id), and cross-pairs per category from (seed, category), so a
build depends on the set of sentences and the seed, never on processing order.

Variant selection: variants are distinct in text and in |Δ| (gold orderings are strict); the first
k distinct draws are checked for plausibility; a unit with more than ``MAX_INVALID`` implausible ones
is dropped (the paper's rule), otherwise the implausible ones are replaced by further plausible draws.
Every drop is counted in the build report with its reason.

Evaluation lives in ``numfine_eval``; the dataset card in ``numfine_card``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import __version__
from .numfine_rules import CATEGORIES, Target, Variant, draw_variant, find_targets, implausible

K_DEFAULT = 9
MAX_INVALID = 3  # a unit with more implausible variants than this is dropped
MAX_DRAWS = 2000  # per unit; enough for every rule, bounded so a degenerate target cannot hang the build
CROSSPAIR_MIN_RATIO = 1.5  # the larger deviation of a cross-pair is at least this times the smaller
CONFIGS = ("triplet_easy", "triplet_medium", "triplet_hard", "listwise", "crosspair", "units")
SPLIT = "test"
DROP_REASONS = ("too_few_distinct", "implausible", "replacement_failed")


def stable_seed(*parts: object) -> int:
    """A 64-bit seed from a stable hash (Python's hash() is salted per process)."""
    return int.from_bytes(hashlib.sha256(":".join(map(str, parts)).encode()).digest()[:8], "big")


def sentence_id(sentence: str) -> str:
    return hashlib.sha1(sentence.encode("utf-8")).hexdigest()[:12]


# ------------------------------------------------------------------------------------------ units

@dataclass
class NumFinEBuild:
    units: list[dict[str, Any]]
    tables: dict[str, list[dict[str, Any]]]
    report: dict[str, Any]


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
    """Units (one per kept target) and the construction part of the build report.

    ``sentences`` are strings or (source line, string) pairs; a repeated sentence is used once and counted.
    """
    from tqdm.auto import tqdm

    from ..numbers import extract_numbers

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
        for s in skipped:
            skipped_reasons[s.kind] += 1
            if len(skipped_examples) < 20:
                skipped_examples.append({"line": line, "text": s.text, "reason": s.reason})
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
        "categories": cats,
        "totals": {"targets": sum(c["targets"] for c in cats.values()),
                   "kept": sum(c["kept"] for c in cats.values()),
                   "dropped": {r: sum(c["dropped"][r] for c in cats.values()) for r in DROP_REASONS}},
        "dropped_examples": dict(drop_examples),
    }
    return units, report


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


# --------------------------------------------------------------------------------------- protocols

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


def build_numfine(sentences: Iterable[tuple[int, str]] | Sequence[str], seed: int = 0, k: int = K_DEFAULT,
                  source: str | None = None, show_progress: bool = False) -> NumFinEBuild:
    """Units, the six config tables and the build report, from base sentences."""
    units, report = make_units(sentences, seed=seed, k=k, show_progress=show_progress)
    if not units:
        raise ValueError(f"no NumFinE unit could be built from {source or 'the given sentences'}: "
                         f"{report['totals']['targets']} targets, all dropped ({report['totals']['dropped']})")
    tables, cp = protocol_tables(units, seed)
    report = {"source": source, "nash_metric": __version__, **report, "crosspair": cp,
              "rows": {c: len(rows) for c, rows in tables.items()}}
    return NumFinEBuild(units, tables, report)


def build_from_file(path: str | Path, column: str | None = None, seed: int = 0, k: int = K_DEFAULT,
                    encoding: str | None = None, show_progress: bool = False) -> NumFinEBuild:
    from ..io import iter_sentences

    path = Path(path)
    build = build_numfine(list(iter_sentences(path, column, encoding)), seed=seed, k=k, source=str(path),
                          show_progress=show_progress)
    build.report["source_sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    build.report["source_column"] = column
    return build


# --------------------------------------------------------------------------------------- publishing

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


def write_numfine(build: NumFinEBuild, out_dir: str | Path, card: dict[str, Any] | None = None) -> Path:
    """Write ``data/<config>/*.parquet``, ``build_report.json`` and a dataset card ``README.md``.

    ``card`` may set ``pretty_name``, ``license`` (a Hub licence id), ``source_note`` and ``license_note``.
    The folder then loads with ``datasets.load_dataset(out_dir, "<config>")``.
    """
    from datasets import Dataset

    from ..reporting import write_json
    from .numfine_card import render_card

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    sizes = {}
    for config in CONFIGS:
        feats = features(config)
        rows = build.tables[config]
        # from_list([]) would drop the columns; an empty config (e.g. no cross-pair) keeps its schema
        ds = Dataset.from_list(rows, features=feats) if rows else Dataset.from_dict({k: [] for k in feats}, feats)
        target = out / shard_path(config)
        target.parent.mkdir(parents=True, exist_ok=True)
        for old in target.parent.glob("*.parquet"):
            old.unlink()  # a rebuild replaces the shard, never mixes two builds
        ds.to_parquet(str(target))
        sizes[config] = (len(ds), ds.data.nbytes)
    write_json(out / "build_report.json", build.report)
    (out / "README.md").write_text(render_card(build, sizes, card or {}), encoding="utf-8")
    return out


# ------------------------------------------------------------------------------- released data adapter

RELEASED_SENTENCE_FIELDS = ("original", "sentence", "anchor", "base_sentence", "text")
RELEASED_VARIANT_FIELDS = ("variants", "perturbed", "perturbations", "candidates")
RELEASED_DISTANCE_FIELDS = ("distances", "deltas", "abs_deltas", "diffs")
RELEASED_ITEM_TEXT = ("sentence", "text", "variant", "perturbed")
RELEASED_ITEM_DISTANCE = ("distance", "delta", "abs_delta", "diff")


def read_released(path: str | Path) -> list[dict[str, Any]]:
    """Units from a NumFinE release in JSON (a list, or {"data": [...]}) or JSONL, one record per unit.

    Accepted record fields (first match wins):
      sentence: one of ``original, sentence, anchor, base_sentence, text``;
      variants: one of ``variants, perturbed, perturbations, candidates``, either a list of strings with a
        parallel list in ``distances, deltas, abs_deltas, diffs``, or a list of objects with the text in
        ``sentence, text, variant, perturbed`` and |Δ| in ``distance, delta, abs_delta, diff`` (signed Δ
        is made absolute);
      optional: ``unit_id``/``id``, ``category``, ``subcategory``, ``target``/``numeral``/``number``.
    Anything else fails with the file, the record number and the fields found.
    """
    from ..io import InputFileError, read_text

    path = Path(path)
    text = read_text(path)
    records: list[tuple[int, Any]]
    if path.suffix.lower() == ".jsonl":
        records = []
        for n, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    records.append((n, json.loads(line)))
                except json.JSONDecodeError as exc:
                    raise InputFileError(path, n, f"invalid JSON: {exc.msg}") from None
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputFileError(path, exc.lineno, f"invalid JSON: {exc.msg}") from None
        if isinstance(data, dict) and isinstance(data.get("data"), list):
            data = data["data"]
        if not isinstance(data, list):
            raise InputFileError(path, None, "expected a JSON list of unit records (or {\"data\": [...]})")
        records = [(i, r) for i, r in enumerate(data)]
    where = "line" if path.suffix.lower() == ".jsonl" else "record"
    units = [_released_unit(path, where, n, r) for n, r in records]
    if not units:
        raise InputFileError(path, None, "no records")
    return units


def _first(record: dict, names: Sequence[str]) -> Any:
    return next((record[n] for n in names if n in record), None)


def _released_unit(path: Path, where: str, n: int, record: Any) -> dict[str, Any]:
    def fail(message: str) -> ValueError:
        fields = list(record) if isinstance(record, dict) else type(record).__name__
        return ValueError(f"{path}: {where} {n}: {message} (fields: {fields}); see read_released's docstring")

    if not isinstance(record, dict):
        raise fail("expected an object")
    sentence = _first(record, RELEASED_SENTENCE_FIELDS)
    raw = _first(record, RELEASED_VARIANT_FIELDS)
    if not isinstance(sentence, str) or not sentence.strip():
        raise fail(f"no sentence in any of {list(RELEASED_SENTENCE_FIELDS)}")
    if not isinstance(raw, list) or len(raw) < 3:
        raise fail(f"need a list of at least 3 variants in one of {list(RELEASED_VARIANT_FIELDS)}")
    if all(isinstance(v, str) for v in raw):
        dist = _first(record, RELEASED_DISTANCE_FIELDS)
        if not isinstance(dist, list) or len(dist) != len(raw):
            raise fail(f"string variants need a parallel list in one of {list(RELEASED_DISTANCE_FIELDS)}")
        pairs = list(zip(raw, dist, strict=True))
    elif all(isinstance(v, dict) for v in raw):
        pairs = [(_first(v, RELEASED_ITEM_TEXT), _first(v, RELEASED_ITEM_DISTANCE)) for v in raw]
    else:
        raise fail("variants must be all strings or all objects")
    clean = []
    for j, (vt, d) in enumerate(pairs):
        if not isinstance(vt, str) or isinstance(d, bool) or not isinstance(d, (int, float)):
            raise fail(f"variant {j}: need a text and a numeric distance, got {vt!r}, {d!r}")
        clean.append((vt, abs(float(d))))
    clean.sort(key=lambda p: p[1])
    if len({d for _, d in clean}) < 3 or clean[0][1] == clean[1][1]:
        raise fail("distances must single out a closest and a second-closest variant (ties found)")
    uid = str(record.get("unit_id", record.get("id", f"{sentence_id(sentence)}-r{n}")))
    target = _first(record, ("target", "numeral", "number"))
    return {"unit_id": uid, "sentence_id": sentence_id(sentence), "source_line": n, "sentence": sentence,
            "category": str(record.get("category", "unknown")), "subcategory": str(record.get("subcategory", "")),
            "target": "" if target is None else str(target), "target_start": -1, "target_end": -1,
            "target_value": float("nan"), "rule": "released", "delta_unit": "released",
            "variants": [v for v, _ in clean], "variant_targets": ["" for _ in clean],
            "variant_values": [float("nan")] * len(clean), "distances": [d for _, d in clean],
            "relative_distances": [d for _, d in clean], "replaced_variants": 0}


# ---------------------------------------------------------------------------------------------- CLI

def build_report_markdown(report: dict[str, Any]) -> str:
    from ..reporting import markdown_table

    rows = []
    for cat, st in report["categories"].items():
        rows.append([cat, st["targets"], st["kept"], *(st["dropped"][r] for r in DROP_REASONS),
                     ", ".join(f"{k} {v}" for k, v in st["subcategories"].items()) or "–"])
    t = report["totals"]
    rows.append(["**total**", t["targets"], t["kept"], *(t["dropped"][r] for r in DROP_REASONS), ""])
    cat_table = markdown_table(["category", "targets", "kept", "dropped: <k distinct", "dropped: >3 implausible",
                                "dropped: no replacement", "kept by subcategory"], rows)
    s, m = report["sentences"], report["mentions"]
    lines = [
        f"- Source: {report.get('source')} (seed {report['seed']}, k {report['k']})",
        f"- Sentences: {s['read']} read, {s['duplicates']} duplicates, {s['with_numbers']} with numbers; "
        f"mentions found {m['found']} ({m['in_dates_or_times']} inside a date or clock time, which is one target), "
        f"unusable {m['unusable']} {m['unusable_by_reason'] or ''}",
        "", cat_table, "",
        markdown_table(["config", "rows"], list(report["rows"].items())),
        "",
        f"- Cross-pairs: {report['crosspair']['pairs']} pairs; {report['crosspair']['unpaired_units']} units left "
        f"unpaired (odd group sizes); {report['crosspair']['pairs_without_separated_variants']} pairs without "
        f"variants {report['crosspair']['min_ratio']}x apart",
    ]
    return "\n".join(lines)


def _cmd_build(args: argparse.Namespace) -> int:
    build = build_from_file(args.source, column=args.column, seed=args.seed, k=args.k, encoding=args.encoding,
                            show_progress=True)
    card = {"pretty_name": args.name, "license": args.license, "source_note": args.source_note}
    out = write_numfine(build, args.out, card)
    text = build_report_markdown(build.report)
    print(text)
    (out / "build_report.md").write_text(text + "\n", encoding="utf-8")
    print(f"\nwrote {out}/ (data/<config>/*.parquet, README.md, build_report.json); "
          f"load with datasets.load_dataset({str(out)!r}, 'triplet_hard')")
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from .numfine_eval import cmd_bench  # imported on use: keeps `nash --help` fast

    return cmd_bench(args)


def register_cli(build_subparsers, bench_subparsers) -> None:
    from ..cli import add_model_options

    p = build_subparsers.add_parser("numfine", help="construct NumFinE from a corpus of sentences")
    p.add_argument("--source", required=True, help="sentences: .txt (one a line), .csv/.tsv (--column), .jsonl")
    p.add_argument("--column", default=None, help="CSV column / JSONL field holding the sentence")
    p.add_argument("--encoding", default=None, help="source encoding (default: UTF-8, Latin-1 fallback with a warning)")
    p.add_argument("--out", required=True, help="output folder (a dataset repo: README.md card + data/)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--k", type=int, default=K_DEFAULT, help="variants per unit (default: %(default)s)")
    p.add_argument("--name", default="NumFinE", help="pretty name on the dataset card")
    p.add_argument("--license", default="other", help="Hub licence id of the result (inherit the source's)")
    p.add_argument("--source-note", default=None, help="one paragraph on the source for the card")
    p.set_defaults(func=_cmd_build)

    p = bench_subparsers.add_parser("numfine", help="NumFinE triplet/listwise/cross-pair: Base vs +NASH")
    p.add_argument("--data", required=True, help="a built NumFinE folder (or hub id), or a released .json/.jsonl")
    p.add_argument("--limit", type=int, default=None,
                   help="first N rows of each config (rows are in unit-id hash order: a fixed pseudo-random sample)")
    p.add_argument("--output", default=None, help="write the results as JSON here")
    p.add_argument("--plot", default=None, help="grouped bar chart (.png/.pdf/.svg)")
    p.add_argument("--threshold-sweep", action="store_true",
                   help="also report tau in {mu-2sigma .. mu+2sigma} calibrated on the anchors (paper App. B)")
    p.add_argument("--no-alignment-check", action="store_true", help="skip the paper §5.5 alignment check")
    p.add_argument("--alignment-rows", type=int, default=1000,
                   help="(anchor, closest variant) pairs for the alignment check (default: %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="seed of the calibration pairs (threshold sweep)")
    add_model_options(p)
    p.set_defaults(func=_cmd_bench)
