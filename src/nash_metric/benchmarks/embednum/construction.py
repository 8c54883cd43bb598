"""EmbedNum-1K construction: triples per format and candidate lists, written as Parquet configs.

Sampling (seeded, deterministic): triple k uses direction "above" for even k and "below" for odd k
(exact balance), its template from a seeded permutation of that direction's seed questions cycled
in order (even use), and a seeded entity. Every triple config shares these choices row by row,
except the currency configs, which draw from the money questions only. Numbers: see
``formats``. Candidate configs (``candidates_10``/``candidates_100``) reuse the first
``n_candidate_questions`` templates with n/2 satisfying and n/2 violating integer values drawn
uniformly from 1..999 on either side of the threshold, in seeded random order.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Iterable, Sequence
from decimal import Decimal
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

from ...common.atomic import replacing
from .configs import ALL_CONFIGS, CANDIDATE_CONFIGS, FORMATS, N_CANDIDATE_QUESTIONS, FormatSpec
from .formats import (
    Draw,
    converted_value,
    draw_candidates,
    draw_grid,
    format_rng,
    render,
    scale,
)
from .sources import ENTITIES, ReleasedTriple, Template, direction_of, holds

TRIPLE_COLUMNS = ("id", "config", "seed_id", "question", "positive", "negative", "op", "direction", "threshold",
                  "positive_value", "negative_value", "threshold_text", "positive_text", "negative_text",
                  "relative_distance", "unit", "entity")
CANDIDATE_COLUMNS = ("id", "config", "seed_id", "question", "candidates", "candidate_values", "labels", "op",
                     "direction", "threshold", "threshold_text", "unit", "entity")


def _balanced(templates: Sequence[Template], n: int, rng: np.random.Generator) -> list[Template]:
    """n templates alternating above/below, each direction cycling through a seeded permutation."""
    pools = {}
    for direction in ("above", "below"):
        pool = [t for t in templates if t.direction == direction]
        if not pool:
            raise ValueError(f"EmbedNum-1K needs {direction!r} templates; none given")
        pools[direction] = itertools.cycle([pool[i] for i in rng.permutation(len(pool))])
    return [next(pools["above" if k % 2 == 0 else "below"]) for k in range(n)]


def _fill(template: str, number: str, entity: str, placeholder: str) -> str:
    # str.replace, not str.format: released texts may contain braces.
    return template.replace(placeholder, number).replace("{entity}", entity)


def triple_row(config: str, k: int, spec: FormatSpec, tpl: Template, entity: str, draw: Draw) -> dict:
    """One ⟨Q, A+, A−⟩ with its condition fields; A+ satisfies tpl.op, A− violates it."""
    up = tpl.op in (">", ">=")
    pos, neg = (draw.upper, draw.lower) if up else (draw.lower, draw.upper)
    thr_text, pos_text, neg_text = (render(spec, v, tpl.unit) for v in (draw.threshold, pos, neg))
    if spec.style == "reduced":
        phrase = f"{thr_text} {tpl.cue}" if tpl.cue_after else f"{tpl.cue} {thr_text}"
        question = f"Which number is {phrase}?"
        positive, negative = f"The number is {pos_text}.", f"The number is {neg_text}."
    else:
        question = _fill(tpl.question, thr_text, entity, "{threshold}")
        positive, negative = (_fill(tpl.answer, t, entity, "{value}") for t in (pos_text, neg_text))
    thr, pv, nv = (float(converted_value(spec, v)) for v in (draw.threshold, pos, neg))
    if not (holds(tpl.op, pv, thr) and not holds(tpl.op, nv, thr)):  # construction invariant
        raise AssertionError(f"{config}-{k}: {pv} / {nv} vs {tpl.op} {thr}")
    return {"id": f"{config}-{k:04d}", "config": config, "seed_id": tpl.id, "question": question,
            "positive": positive, "negative": negative, "op": tpl.op, "direction": tpl.direction,
            "threshold": thr, "positive_value": pv, "negative_value": nv, "threshold_text": thr_text,
            "positive_text": pos_text, "negative_text": neg_text,
            "relative_distance": float(draw.relative_distance), "unit": tpl.unit, "entity": entity}


def released_row(k: int, r: ReleasedTriple) -> dict:
    return {"id": f"orig-{k:04d}", "config": "orig", "seed_id": r.id, "question": r.question,
            "positive": r.positive, "negative": r.negative, "op": r.template.op, "direction": r.template.direction,
            "threshold": r.threshold, "positive_value": r.positive_value, "negative_value": r.negative_value,
            "threshold_text": r.threshold_text, "positive_text": r.positive_text, "negative_text": r.negative_text,
            "relative_distance": abs(r.positive_value - r.threshold) / max(abs(r.threshold), 1e-300),
            "unit": r.template.unit, "entity": ""}


def candidate_rows(size: int, templates: Sequence[Template], entities: Sequence[str], seed: int) -> list[dict]:
    config = f"candidates_{size}"
    rng = format_rng(seed, config)
    spec = FORMATS["orig"]
    rows = []
    for k, (tpl, entity) in enumerate(zip(templates, entities, strict=True)):
        t, above, below = draw_candidates(rng, size)
        good, bad = (above, below) if tpl.op in (">", ">=") else (below, above)
        values = [(v, 1) for v in good] + [(v, 0) for v in bad]
        values = [values[i] for i in rng.permutation(size)]
        texts = [_fill(tpl.answer, render(spec, Decimal(v), tpl.unit), entity, "{value}") for v, _ in values]
        thr_text = render(spec, Decimal(t), tpl.unit)
        rows.append({"id": f"{config}-{k:04d}", "config": config, "seed_id": tpl.id,
                     "question": _fill(tpl.question, thr_text, entity, "{threshold}"), "candidates": texts,
                     "candidate_values": [float(v) for v, _ in values], "labels": [lab for _, lab in values],
                     "op": tpl.op, "direction": direction_of(tpl.op), "threshold": float(t),
                     "threshold_text": thr_text, "unit": tpl.unit, "entity": entity})
    return rows


def build_embednum(
    templates: Sequence[Template],
    n: int = 1000,
    seed: int = 0,
    configs: Iterable[str] | None = None,
    n_candidate_questions: int = N_CANDIDATE_QUESTIONS,
    released: Sequence[ReleasedTriple] | None = None,
    show_progress: bool = False,
) -> dict[str, list[dict]]:
    """All requested configs as lists of rows (dicts). With `released`, `orig` is the authors' triples
    verbatim and the variants use their templates in file order (n must not exceed their count)."""
    explicit = configs is not None
    configs = list(ALL_CONFIGS if configs is None else configs)
    unknown = [c for c in configs if c not in ALL_CONFIGS]
    if unknown:
        raise ValueError(f"unknown EmbedNum-1K config(s) {unknown}; choose from {list(ALL_CONFIGS)}")
    if n < 2:
        raise ValueError(f"n must be at least 2 (one above, one below), got {n}")
    if n_candidate_questions < 1 and any(c in CANDIDATE_CONFIGS for c in configs):
        # min(0, n) rows would write a config that load_dataset refuses; a negative count would slice from the end
        raise ValueError(f"n_candidate_questions (--candidate-questions) must be a positive integer for "
                         f"{[c for c in configs if c in CANDIDATE_CONFIGS]}, got {n_candidate_questions}")
    rng = np.random.default_rng([seed, 0])
    if released is not None:
        if n > len(released):
            raise ValueError(f"n={n} exceeds the {len(released)} released triples")
        order = [r.template for r in released[:n]]
    else:
        order = _balanced(templates, n, rng)
    entities = [str(e) for e in rng.choice(ENTITIES, size=n)]
    money = [t for t in (order if released is not None else templates) if t.unit == "money"]
    has_both = {t.direction for t in money} == {"above", "below"}
    money_order = _balanced(money, n, np.random.default_rng([seed, 1])) if has_both else []
    draws: dict[str, list[Draw]] = {}
    out: dict[str, list[dict]] = {}
    for config in tqdm(configs, desc="EmbedNum-1K configs", disable=not show_progress):
        if config in CANDIDATE_CONFIGS:
            m = min(n_candidate_questions, n)
            out[config] = candidate_rows(int(config.split("_")[1]), order[:m], entities[:m], seed)
            continue
        if config == "orig" and released is not None:
            out[config] = [released_row(k, r) for k, r in enumerate(released[:n])]
            continue
        spec = FORMATS[config]
        if spec.source not in draws:
            src = FORMATS[spec.source]
            src_rng = format_rng(seed, src.name)
            draws[spec.source] = [draw_grid(src_rng, src) for _ in range(n)]
        tpls = order
        if spec.style.startswith("currency_"):
            if not money_order:
                message = f"config {config!r} needs money templates (unit 'money') in both directions"
                if explicit:
                    raise ValueError(message)
                warnings.warn(message + "; skipped", stacklevel=2)
                continue
            tpls = money_order
        out[config] = [triple_row(config, k, spec, tpls[k], entities[k], scale(d, spec.shift))
                       for k, d in enumerate(draws[spec.source])]
    return out


def write_parquet(data: dict[str, list[dict]], out_dir: str | Path) -> list[Path]:
    """One Parquet file per config: <out_dir>/data/<config>.parquet (the card's configs point there)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    data_dir = Path(out_dir) / "data"
    data_dir.mkdir(parents=True, exist_ok=True)
    for config in ALL_CONFIGS:  # a rebuild with fewer configs must not leave an earlier build's file off the card
        if config not in data:
            (data_dir / f"{config}.parquet").unlink(missing_ok=True)
    paths = []
    for config, rows in data.items():
        if not rows:
            raise ValueError(f"EmbedNum-1K config {config!r} has no rows; load_dataset would refuse it")
        columns = CANDIDATE_COLUMNS if config in CANDIDATE_CONFIGS else TRIPLE_COLUMNS
        table = pa.Table.from_pylist([{c: r[c] for c in columns} for r in rows])
        path = data_dir / f"{config}.parquet"
        with replacing(path) as partial:
            pq.write_table(table, partial)
        paths.append(path)
    return paths
