"""Dataset card (README.md with YAML `configs:` and `dataset_info`) for a built EmbedNum-1K folder.

The card is generated from the built rows, so its configs, features and counts cannot drift from the
Parquet files; `load_dataset(folder, config)` reads it natively (no dataset script).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .construction import CANDIDATE_CONFIGS, TRIPLE_COLUMNS
from .formats import CURRENCY_RATES, FORMATS, PAPER_FORMATS, RELATIVE_DISTANCE

_STRING = "string"
_FLOAT = "float64"
_TRIPLE_TYPES = {c: _STRING for c in TRIPLE_COLUMNS} | {
    c: _FLOAT for c in ("threshold", "positive_value", "negative_value", "relative_distance")}
_CANDIDATE_FEATURES: list[dict[str, Any]] = [
    {"name": c, "dtype": _STRING} for c in ("id", "config", "seed_id", "question")] + [
    {"name": "candidates", "sequence": _STRING}, {"name": "candidate_values", "sequence": _FLOAT},
    {"name": "labels", "sequence": "int64"}] + [
    {"name": c, "dtype": _STRING} for c in ("op", "direction")] + [{"name": "threshold", "dtype": _FLOAT}] + [
    {"name": c, "dtype": _STRING} for c in ("threshold_text", "unit", "entity")]


def _features(config: str) -> list[dict[str, Any]]:
    if config in CANDIDATE_CONFIGS:
        return _CANDIDATE_FEATURES
    return [{"name": c, "dtype": _TRIPLE_TYPES[c]} for c in TRIPLE_COLUMNS]


def _arrow_bytes(config: str, rows: list[dict]) -> int:
    import pyarrow as pa

    columns = [f["name"] for f in _features(config)]
    return int(pa.Table.from_pylist([{c: r[c] for c in columns} for r in rows]).nbytes)


def _yaml_header(data: dict[str, list[dict]], license_id: str) -> str:
    # JSON scalars are valid YAML, which keeps quoting right without a YAML dependency.
    lines = ["---", f"license: {license_id}", "language:", "- en", "pretty_name: EmbedNum-1K (nash-metric build)",
             "task_categories:", "- sentence-similarity", "tags:", "- numeracy", "- finance", "- embeddings",
             "size_categories:", "- 1K<n<10K", "configs:"]
    for config in data:
        lines += [f"- config_name: {config}", "  data_files:", "  - split: test", f"    path: data/{config}.parquet"]
        if config == "orig":
            lines.append("  default: true")
    lines.append("dataset_info:")
    for config, rows in data.items():
        lines += [f"- config_name: {config}", "  features:"]
        for feat in _features(config):
            lines.append(f"  - name: {feat['name']}")
            if "dtype" in feat:
                lines.append(f"    dtype: {feat['dtype']}")
            else:
                lines.append(f"    sequence: {feat['sequence']}")
        lines += ["  splits:", "  - name: test", f"    num_bytes: {_arrow_bytes(config, rows)}",
                  f"    num_examples: {len(rows)}"]
    lines.append("---")
    return "\n".join(lines)


def _stats_table(data: dict[str, list[dict]]) -> str:
    out = ["| config | rows | above | below | example question | A+ | A− |", "|---|---|---|---|---|---|---|"]
    for config, rows in data.items():
        above = sum(r["direction"] == "above" for r in rows)
        first = rows[0]
        if config in CANDIDATE_CONFIGS:
            pos = next(c for c, lab in zip(first["candidates"], first["labels"], strict=True) if lab)
            neg = next(c for c, lab in zip(first["candidates"], first["labels"], strict=True) if not lab)
        else:
            pos, neg = first["positive"], first["negative"]
        cells = [config, str(len(rows)), str(above), str(len(rows) - above), first["question"], pos, neg]
        out.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(out)


def card_text(data: dict[str, list[dict]], meta: dict[str, Any], results_section: str = "") -> str:
    """The full README.md: YAML header, description, per-config statistics, fields, licence."""
    license_id = "other" if meta.get("source") else "cc-by-4.0"
    formats = "\n".join(f"| `{name}` | {FORMATS[name].description} | "
                        f"{'paper Table 1' if name in PAPER_FORMATS else 'extra analysis'} |" for name in FORMATS)
    rates = ", ".join(f"1 USD = {rate} {cur.upper()}" for cur, rate in CURRENCY_RATES.items())
    source = (f"the authors' released triples `{meta['source']}` (their licence applies)" if meta.get("source")
              else "the nash-metric seed questions (`nash_metric/resources/embednum_seed_questions.jsonl`, "
                   f"{meta.get('n_templates', '?')} templates written for this project)")
    body = f"""
# EmbedNum-1K (nash-metric build)

⟨Q, A+, A−⟩ triples that differ only in a number: Q states one numeric comparison ("Which stocks have
a P/E ratio above 200?"), A+ satisfies it and A− does not. A similarity metric is right on a triple
when sim(Q, A+) > sim(Q, A−) (ties count as wrong; chance = 0.5). Benchmark of *Revealing the Numeracy
Gap: An Empirical Investigation of Text Embedding Models* (Deng, Duan, Tang, Yang; Findings of EACL
2026, arXiv:2509.05691), rebuilt reproducibly by nash-metric from {source}.

Build: `nash build-data embednum1k --out DIR --seed {meta['seed']} --n {meta['n']}` (or
`python embednum1k_builder.py` in this folder). Evaluate: `nash bench embednum1k --data DIR`.

```python
from datasets import load_dataset
ds = load_dataset("datasets/embednum1k", "orig", split="test")
```

## Construction

* Triple k asks an "above" question for even k and a "below" question for odd k (exact balance), with
  its template drawn from a seeded permutation of that direction's templates and a fictitious entity.
* A+ and A− sit at the **same distance** d from the threshold t, on opposite sides (t ± d), with
  d = round(r·t), r ~ U{RELATIVE_DISTANCE} seeded: closeness to t carries no information, only the
  direction of the comparison does. So magnitude similarity (plain NASH) cannot solve it by design.
* Every config shares the templates and entities of `orig` row by row (currency configs use the money
  templates only), so formats can be compared pairwise.
* Currency configs convert USD amounts at fixed rates ({rates}); threshold and answers alike.
* Candidate configs: the first {meta.get('n_candidate_questions', '?')} questions with n/2 satisfying
  and n/2 violating answers (distinct integers 1–999, uniform on either side of t, seeded order), for P@k.

| config | numbers | origin |
|---|---|---|
{formats}
| `candidates_10`, `candidates_100` | orig-style integers, 10 / 100 answers per question | extra analysis |

## Configs (split `test`)

{_stats_table(data)}

## Fields

Triple configs: `id`, `config`, `seed_id` (template), `question`, `positive` (A+), `negative` (A−),
`op` (`>`, `>=`, `<`, `<=`), `direction` (`above`/`below`), `threshold`, `positive_value`,
`negative_value` (the numbers a reader parses from the text, currency-converted), `threshold_text`,
`positive_text`, `negative_text` (the numbers as written), `relative_distance` (d/t), `unit`
(`plain`/`percent`/`money`), `entity`. Candidate configs replace A+/A− by `candidates`,
`candidate_values` and `labels` (1 = satisfies the condition).

Every row is checked at build time and in the test suite by parsing the text (nash_metric
`extract_numbers`): A+ satisfies the condition, A− violates it.

## Loading note (datasets ≥ 4)

`datasets` refuses a folder that holds a script named like the folder (`embednum1k/embednum1k.py`).
The builder is therefore `embednum1k_builder.py`: the folder loads natively from README + Parquet, and
the builder still works when imported (`EmbedNum1K(config_name="orig").download_and_prepare()`).
{results_section}
## Licence

{'Generated from the released file: its licence applies.' if meta.get('source') else
 'Data: CC BY 4.0 (templates written for nash-metric, numbers generated). Code: Apache-2.0.'}

## Build configuration

```json
{json.dumps(meta, indent=2, sort_keys=True)}
```
"""
    return _yaml_header(data, license_id) + "\n" + body


RESULTS_START, RESULTS_END = "<!-- results:start -->", "<!-- results:end -->"


def write_card(data: dict[str, list[dict]], out_dir: str | Path, meta: dict[str, Any],
               results_section: str | None = None) -> Path:
    """Write README.md; a results section between the markers of an existing card is kept unless replaced."""
    path = Path(out_dir) / "README.md"
    if results_section is None:
        results_section = ""
        if path.is_file():
            old = path.read_text(encoding="utf-8")
            if RESULTS_START in old and RESULTS_END in old:
                results_section = old[old.index(RESULTS_START):old.index(RESULTS_END) + len(RESULTS_END)]
    elif results_section:
        results_section = f"{RESULTS_START}\n{results_section.strip()}\n{RESULTS_END}"
    path.write_text(card_text(data, meta, "\n" + results_section + "\n" if results_section else ""),
                    encoding="utf-8")
    return path


def update_results_section(out_dir: str | Path, markdown: str) -> Path:
    """Replace (or add before the licence) the results section of an existing card."""
    path = Path(out_dir) / "README.md"
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no dataset card to update; build the folder first")
    text = path.read_text(encoding="utf-8")
    block = f"{RESULTS_START}\n{markdown.strip()}\n{RESULTS_END}"
    if RESULTS_START in text and RESULTS_END in text:
        text = text[:text.index(RESULTS_START)] + block + text[text.index(RESULTS_END) + len(RESULTS_END):]
    elif "\n## Licence" in text:
        text = text.replace("\n## Licence", f"\n{block}\n\n## Licence", 1)
    else:
        text = text.rstrip("\n") + f"\n\n{block}\n"
    path.write_text(text, encoding="utf-8")
    return path
