"""Dataset card (README.md with YAML `configs:` and `dataset_info`) for a built EmbedNum-1K folder.

The body is generated from the built rows and the YAML's `dataset_info` is measured on the Parquet files
just written, so configs, features and counts cannot drift from the data; `load_dataset(folder, config)` reads
the folder natively (no dataset script).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...common.atomic import write_text
from ...common.citations import EMBEDNUM1K_BIBTEX, NASH_BIBTEX
from .. import cards
from .configs import ALL_CONFIGS, CANDIDATE_CONFIGS, CURRENCY_RATES, FORMATS, PAPER_FORMATS
from .formats import RELATIVE_DISTANCE

_SPLIT = "test"


def _metadata(data: dict[str, list[dict]], meta: dict[str, Any], license_id: str) -> cards.CardMetadata:
    released = bool(meta.get("source"))
    return cards.CardMetadata(
        pretty_name="EmbedNum-1K (nash-metric build)", license=license_id, language=["en"],
        task_categories=["sentence-similarity"], tags=["numeracy", "finance", "embeddings"],
        # The authors' triples are an external dataset; the seed templates are text written for this project
        # ("other"), filled with machine-drawn numbers and entities. A+/A- labels follow from construction.
        source_datasets=["extended|other"] if released else ["original"],
        language_creators=["machine-generated", "other"], annotations_creators=["machine-generated"],
        # Every config is a re-rendering of the same questions, so the size is one config's, not their sum.
        size_category=cards.size_category(max(len(rows) for rows in data.values())),
    )


def _yaml_header(data: dict[str, list[dict]], meta: dict[str, Any], license_id: str, out_dir: str | Path) -> str:
    configs = [{"config_name": c, "data_files": [{"split": _SPLIT, "path": f"data/{c}.parquet"}],
                **({"default": True} if c == "orig" else {})} for c in data]
    return f"---\n{cards.card_yaml(_metadata(data, meta, license_id), configs, out_dir)}\n---"


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


def card_text(data: dict[str, list[dict]], meta: dict[str, Any], out_dir: str | Path, results_section: str = "") -> str:
    """The full README.md: YAML header (measured on the Parquet files in ``out_dir``), description, per-config
    statistics, fields, licence, how it was built, limitations and citation."""
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

Build: see [How each config was built](#how-each-config-was-built). Evaluate: `nash bench embednum1k --data DIR`.

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

{cards.build_section(_commands(meta), _build_notes(data, meta))}
The full build configuration:

```json
{json.dumps(meta, indent=2, sort_keys=True)}
```

{cards.limitations_section(_limitations(data, meta))}
{cards.citation_section([EMBEDNUM1K_BIBTEX, NASH_BIBTEX], _CITATION_INTRO)}"""
    return _yaml_header(data, meta, license_id, out_dir) + "\n" + body


_CITATION_INTRO = """EmbedNum-1K is the benchmark of Deng et al. (Findings of EACL 2026): cite it for the task and its
format variants. This folder was built by nash-metric, the implementation of NASH; cite NASH too when you
report NASH scores on it. The entry below was checked against the paper's arXiv and ACL Anthology pages."""


def _commands(meta: dict[str, Any]) -> list[str]:
    """The ``nash build-data`` call the build configuration implies (and the builder script where it is the same)."""
    extra = "".join([f" --source {meta['source']}" if meta.get("source") else "",
                     f" --seeds {meta['seeds']}" if meta.get("seeds", "packaged") != "packaged" else "",
                     "" if list(meta["configs"]) == list(ALL_CONFIGS) else f" --configs {' '.join(meta['configs'])}"])
    args = f"--seed {meta['seed']} --n {meta['n']} --candidate-questions {meta['n_candidate_questions']}"
    commands = [f"nash build-data embednum1k --out DIR {args}{extra}  # DIR: this folder"]
    if " --seeds " not in extra and " --configs " not in extra:  # the builder script has neither flag
        source = f" --source {meta['source']}" if meta.get("source") else ""
        commands += ["# the same files, from the repository root:",
                     f"python datasets/embednum1k/embednum1k_builder.py {args}{source}"]
    return commands


def _build_notes(data: dict[str, list[dict]], meta: dict[str, Any]) -> str:
    return (f"One command writes all {len(data)} configs with seed {meta['seed']}: row k of every triple config "
            "renders the same template, direction and entity as row k of `orig` (currency configs draw from the "
            f"money templates only), so configs differ only in how numbers are written; `candidates_10` and "
            f"`candidates_100` take the first {meta['n_candidate_questions']} questions. Seed questions: "
            f"{meta.get('seeds')} ({meta.get('n_templates')} templates).")


def _limitations(data: dict[str, list[dict]], meta: dict[str, Any]) -> list[str]:
    found, total = _cue_coverage(data)
    n = len(data["orig"]) if "orig" in data else max(len(r) for r in data.values())
    origin = ("These triples are the authors' released ones, re-rendered into every format by nash-metric's code."
              if meta.get("source") else
              f"The {meta.get('n_templates')} seed questions were written for nash-metric, not taken from the "
              "paper's release: phrasing, entities (fictitious) and number ranges differ, so accuracies here are "
              "not comparable with the paper's (best of 13 models: 0.537 on its original set).")
    reader = ([] if meta.get("source") else [
        "The test suite parses every row of this construction with nash-metric's own number reader (the one NASH "
        "scores with) and requires A+ to satisfy and A− to violate the condition, so every number form here is one "
        "that reader reads correctly: the benchmark does not probe NASH on forms it misreads."])
    return [
        origin,
        "Cue phrases: NASH's comparison detector (`nash_metric.numbers.comparisons`) finds the question's own operator "
        f"in {found:,} of the {total:,} distinct questions of this build. Its cue list and these questions come from "
        "the same project, so comparison-aware scores (`NASH(comparisons=True)`) are optimistic: they show the "
        "rule firing on phrasings it was written for, not comparison understanding on unseen text.",
        *reader,
        "A+ and A− sit at the same distance from the threshold by design, so magnitude similarity alone carries no "
        "signal: plain NASH's accuracy here reflects the comparison direction (and ties), not its numeric "
        "sensitivity in general.",
        f"Each answer is one templated sentence; with {n:,} triples a 95 % interval on an accuracy reaches "
        f"±{cards.accuracy_margin(n):.3f}, and the configs share their questions, so they are not independent samples.",
    ]


def _cue_coverage(data: dict[str, list[dict]]) -> tuple[int, int]:
    """(questions whose stated operator the comparison detector finds, distinct questions)."""
    from ...numbers import extract_numbers
    from ...numbers.comparisons import find_constraints

    ops = {r["question"]: r["op"] for rows in data.values() for r in rows}
    found = sum(any(c.op == op for c in find_constraints(q, extract_numbers(q))) for q, op in ops.items())
    return found, len(ops)


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
    write_text(path, card_text(data, meta, out_dir, "\n" + results_section + "\n" if results_section else ""))
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
    write_text(path, text)
    return path
