"""A ``load_dataset`` folder from the authors' released NumFinE files: one config per file stem, records as released.

``data/<stem>/test-00000-of-00001.parquet`` per file, ``build_report.json`` (files taken and skipped, counts,
fields not carried) and the card ``README.md`` (configs, counts per category and source, the licence left for
the user to fill, the build command). The nested ``{text, num}`` sentences are kept; ``num`` is a string.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path
from typing import Any

from ..._version import __version__
from ...common.atomic import replacing, write_text
from ...common.citations import NASH_BIBTEX
from .. import cards
from .released import ID_FIELD, LABEL_FIELDS, SENTENCES, ReleasedFile, read_release
from .schema import SPLIT, Protocol, shard_path

CARD_NAME = "NumFinE (authors' release)"
_SENTENCE_KEYS = ("text", "num")


def released_features(protocol: Protocol, records: tuple[dict[str, Any], ...]):
    """The ``datasets.Features`` of a config built from released records, their nested ``{text, num}`` kept.

    ``id``/``pair_id`` stays an integer when every record's is one; ``gold`` and ``gold_order`` are columns only
    when some record carries them (None where a record does not).
    """
    from datasets import Features, List, Value

    s = Value("string")
    ids = [r.get(ID_FIELD[protocol]) for r in records]
    fields: dict[str, Any] = {ID_FIELD[protocol]: Value("int64") if all(isinstance(i, int) for i in ids) else s,
                              **{f: s for f in LABEL_FIELDS}}
    fields.update({name: {k: s for k in _SENTENCE_KEYS} for name in SENTENCES[protocol]})
    if protocol == "listwise":
        fields["candidates"] = List({k: s for k in _SENTENCE_KEYS})
        if any(r.get("gold_order") is not None for r in records):
            fields["gold_order"] = List(Value("int64"))
    if protocol == "crosspair" and any(r.get("gold") is not None for r in records):
        fields["gold"] = s
    return Features(fields)


def _row(record: dict[str, Any], columns: list[str], id_field: str, int_ids: bool) -> dict[str, Any]:
    row = {c: record.get(c) for c in columns}
    for name, value in row.items():
        if isinstance(value, dict):  # a sentence: only text and num (what the protocols read) are columns
            row[name] = {k: value[k] for k in _SENTENCE_KEYS}
        elif name == "candidates":
            row[name] = [{k: c[k] for k in _SENTENCE_KEYS} for c in value]
    if row[id_field] is not None and not int_ids:
        row[id_field] = str(row[id_field])
    if row.get("gold") is not None:
        row["gold"] = str(row["gold"])
    return row


def not_carried(file: ReleasedFile, columns: list[str]) -> list[str]:
    """Fields some record holds that the config has no column for (named in the report and on the card)."""
    extra = {k for r in file.records for k in r if k not in columns}
    extra |= {f"{name}.{k}" for r in file.records for name in SENTENCES[file.protocol] for k in r[name]
              if k not in _SENTENCE_KEYS}
    extra |= {f"candidates[].{k}" for r in file.records for c in r.get("candidates", ()) for k in c
              if k not in _SENTENCE_KEYS}
    return sorted(extra)


def write_config(file: ReleasedFile, out: Path) -> dict[str, Any]:
    """One file's Parquet shard; its report entry (records, counts per category and source, sha256)."""
    from datasets import Dataset

    features = released_features(file.protocol, file.records)
    columns, id_field = list(features), ID_FIELD[file.protocol]
    int_ids = features[id_field].dtype == "int64"
    rows = [_row(r, columns, id_field, int_ids) for r in file.records]
    target = out / shard_path(file.config)
    target.parent.mkdir(parents=True, exist_ok=True)
    for old in target.parent.glob("*.parquet"):
        old.unlink()  # a rebuild replaces the shard, never mixes two builds
    with replacing(target) as partial:
        Dataset.from_list(rows, features=features).to_parquet(str(partial))
    return {"file": file.path.name, "config": file.config, "protocol": file.protocol, "records": len(rows),
            "sha256": hashlib.sha256(file.path.read_bytes()).hexdigest(),
            "by_category": _counts(file, "category"), "by_source": _counts(file, "source"),
            "fields_not_carried": not_carried(file, columns)}


def _counts(file: ReleasedFile, field: str) -> dict[str, int]:
    return dict(sorted(Counter(str(r.get(field) or "(none)") for r in file.records).items()))


def build_released(out: str | Path, released: str | Path, card: dict[str, Any] | None = None) -> dict[str, Any]:
    """Write the folder ``out`` from the released file or folder ``released``; the build report."""
    from ...common.reporting import write_json

    release = read_release(released)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    report = {"layout": "released", "source": str(released), "nash_metric": __version__,
              "took": [f.path.name for f in release.files],
              "skipped": [{"file": name, "why": why} for name, why in release.skipped],
              "configs": [write_config(f, out) for f in release.files]}
    write_json(out / "build_report.json", report)
    write_text(out / "build_report.md", report_markdown(report) + "\n")
    write_text(out / "README.md", render_card(report, out, card or {}))
    return report


def report_markdown(report: dict[str, Any]) -> str:
    """The build report as Markdown: what was taken and skipped, records and counts per config."""
    from ...common.reporting import markdown_table

    lines = [f"- Source: `{report['source']}` (the authors' release), nash-metric {report['nash_metric']}",
             f"- Took: {', '.join(report['took'])}",
             *(f"- Skipped `{s['file']}`: {s['why']}" for s in report["skipped"]), "",
             markdown_table(["config", "protocol", "records", "by category", "by source"],
                            [[c["config"], c["protocol"], c["records"], _inline(c["by_category"]),
                              _inline(c["by_source"])] for c in report["configs"]])]
    lines += [f"- `{c['config']}`: fields not carried (no column for them): {', '.join(c['fields_not_carried'])}"
              for c in report["configs"] if c["fields_not_carried"]]
    return "\n".join(lines)


def _inline(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in counts.items())


# ------------------------------------------------------------------------------------------------- the card

def render_card(report: dict[str, Any], out: Path, card: dict[str, Any]) -> str:
    """The README.md of a folder built from the release, whose Parquet shards are already written."""
    entries = report["configs"]
    names = [c["config"] for c in entries]
    default = "triplet_hard" if "triplet_hard" in names else names[0]  # files come in the paper's table order
    configs = [{"config_name": c, "data_files": [{"split": SPLIT, "path": shard_path(c)}],
                **({"default": True} if c == default else {})} for c in names]
    meta = cards.CardMetadata(
        pretty_name=card.get("pretty_name") or CARD_NAME, license=card.get("license") or "", language=["en"],
        task_categories=["sentence-similarity"], source_datasets=["original"],
        annotations_creators=["machine-generated"], language_creators=["found", "machine-generated"],
        size_category=cards.size_category(sum(c["records"] for c in entries)),
        tags=["numeracy", "finance", "semantic-similarity", "evaluation", "nash-metric"])
    rows = "\n".join(f"| `{c['config']}` | {c['protocol']} | {c['records']} | `{c['file']}` |" for c in entries)
    return f"""---
{cards.card_yaml(meta, configs, out)}
---

# {meta.pretty_name}

The NumFinE files released with the NASH paper's toolkit (`nash/data/` of `cnclabs/toolkit.fin.nash`), as a
`load_dataset` folder: one config per released file, named after its stem, every record with its fields as
released (the nested `{{text, num}}` sentences kept; `num`, the perturbed numeral as written, is a string).

```python
from datasets import load_dataset
rows = load_dataset("path/to/this/folder", "{default}", split="{SPLIT}")
```

## Licence

{_licence(meta.license)}

## Configs (split `{SPLIT}`)

| config | protocol | records | released file |
|---|---|---|---|
{rows}

## Fields and evaluation

{_FIELDS_DOC}

## Counts

{report_markdown(report)}

{cards.build_section([_command(report)], _BUILD_NOTES)}
{cards.limitations_section(_limitations(report))}
{cards.citation_section([NASH_BIBTEX], _CITATION_INTRO)}"""


def _limitations(report: dict[str, Any]) -> list[str]:
    smallest = min(report["configs"], key=lambda c: c["records"])
    return [
        f"Size: the smallest config, `{smallest['config']}`, has {smallest['records']} records; a 95 % interval on an "
        f"accuracy over them reaches ±{cards.accuracy_margin(smallest['records']):.2f} (the paper's NumFinE has "
        "14,651 units). The toolkit's `*_test.json` samples are a handful of records: no score on them means much.",
        "nash-metric checked each record's shape and that each `num` is stated in its text; it did not check the "
        "categories, the perturbations or their plausibility, which are the authors'.",
        "Cross-pairs without `gold` are judged by the relative deviation of `num` as nash-metric's number reader "
        "reads it; a `num` it finds no value in (a month name) leaves that record, or a listwise record, out of the "
        "score (counted by `nash bench numfine`).",
    ]


def _licence(license: str) -> str:
    """The card's licence paragraph: the records are the authors', so their licence is the one that applies."""
    if license:
        return (f"`{license}`, as given to the build: check it against the release's own licence, which, not "
                "nash-metric's, says what you may do with these records.")
    return ("**Not set: fill in `license:` in the YAML above with the release's licence.** These records are the "
            "authors'; their licence, not nash-metric's, says what you may do with them.")


_FIELDS_DOC = """- triplet (`id`, `source`, `category`, `subcategory`, `sentence_a`, `sentence_b`, `sentence_c`): a is
  the anchor, b the positive, c the negative. Accuracy of sim(a, b) > sim(a, c), ties counted wrong.
- cross-pair (`pair_id`, ..., `sentence_a` .. `sentence_d`): the pairs (a, b) and (c, d). The gold is `gold`
  where a record has it (a/pair_a/1: pair (a, b) should score higher; b/pair_b/2: pair (c, d)), else the pair
  whose `num` deviates less relatively (|v_b - v_a| / |v_a|); ties and numerals without a value are left out of
  the score and counted.
- listwise (`id`, ..., `sentence_a`, `candidates`): the anchor against every candidate. Mean Kendall τ_b of the
  similarities against |Δ| = |v_candidate - v_a| read from `num` (the paper's protocol); where a record has
  `gold_order` (candidate indices, most similar first), the exact-order accuracy too.

`nash bench numfine --data FOLDER` runs every config with its protocol, Base (the backbone) beside +NASH; `n` of
each config is its records less the ones left out, with the reason."""

_BUILD_NOTES = ("The release is converted, not rebuilt: no record is added, changed or reordered. The build report "
                "(`build_report.json`) lists the files taken and skipped, each file's SHA-256 and any field a record "
                "held that has no column here.")

_CITATION_INTRO = "NumFinE is introduced by the NASH paper: cite it for the benchmark and for the metric."


def _command(report: dict[str, Any]) -> str:
    return f"nash build-data numfine --released {report['source']} --out DIR  # DIR: this folder"
