"""The NumFinE dataset card: YAML (Hub metadata, configs, dataset_info measured on the Parquet files) and a
Markdown body with the build's statistics, its limitations, how it was built and what to cite."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...common.citations import NASH_BIBTEX
from .. import cards
from .build import NumFinEBuild, build_report_markdown
from .construction import MAX_INVALID
from .defaults import CARD_LICENSE, CARD_NAME
from .rules import CATEGORY_RULES, RULES_SUMMARY
from .schema import SPLIT, shard_path
from .tables import CONFIGS

_DESCRIPTIONS = {
    "triplet_easy": "anchor, closest variant (positive) and farthest variant (negative)",
    "triplet_medium": "anchor, closest variant and the middle one (index ⌊k/2⌋ of the variants, closest first)",
    "triplet_hard": "anchor, closest and second-closest variant",
    "listwise": "anchor and all k variants (seeded random order) with their distances",
    "crosspair": "two units of the same category, one variant each; label 0 when pair a deviates less",
    "units": "one row per (sentence, target): every variant, its new value and distance, closest first",
}
# The paper's released build (docs/method.md §2.1), which a small build must not be compared with.
_PAPER_UNITS, _PAPER_TRIPLET, _PAPER_LISTWISE, _PAPER_CROSSPAIR = 14_651, 43_953, 146_510, 7_320
# A corpus given to `nash build-data numfine` is found text of some other dataset, perturbed by machine.
_CORPUS_SOURCE, _CORPUS_LANGUAGE = ["extended|other"], ["found", "machine-generated"]


def render_card(build: NumFinEBuild, out: str | Path, card: dict[str, Any]) -> str:
    """The README.md of the NumFinE folder ``out``, whose Parquet shards are already written.

    ``card`` may set ``pretty_name``, ``license``, ``license_note``, ``source_note``, ``source_datasets``,
    ``language_creators``, ``limitations`` (extra bullets about the source) and ``commands`` (the exact
    commands that built the folder; default: the ``nash build-data numfine`` call the build report implies).
    """
    written = [c for c in CONFIGS if build.tables[c]]  # configs without rows are not written (build report says why)
    configs = [{"config_name": c, "data_files": [{"split": SPLIT, "path": shard_path(c)}],
                **({"default": True} if c == _default(written) else {})} for c in written]
    yaml = cards.card_yaml(_metadata(build, card), configs, out)
    r = build.report
    config_rows = "\n".join(f"| `{c}` | {len(build.tables[c])} | {_DESCRIPTIONS[c]} |" for c in written)
    omitted = "".join(f"\n\nNot in this build: `{c}`, {why}." for c, why in r.get("omitted_configs", {}).items())
    source_note = card.get("source_note") or f"Built from `{r.get('source')}`."
    return f"""---
{yaml}
---

# {card.get('pretty_name') or CARD_NAME}

Numerically perturbed financial sentences for testing whether a similarity metric is sensitive to
numbers (NumFinE, as specified for the NASH paper). Each numeral of a base sentence is a **target**;
k = {r['k']} variants change that target and nothing else, keeping its written form (decimals, thousands
separators, currency, scale word, spacing). Built with `nash-metric` {r.get('nash_metric')} (seed
{r['seed']}); the exact commands are under [How each config was built](#how-each-config-was-built).

```python
from datasets import load_dataset
hard = load_dataset("path/to/this/folder", "triplet_hard", split="{SPLIT}")
```

No loading script: the folder is Parquet plus this card (datasets ≥ 4 refuses scripts). A builder that
regenerates the data from `source/` may sit next to it under another name than `<folder>.py` (datasets
treats a file named after the folder as a script and refuses to load).

## Source and licence

{source_note}

Licence of this build: `{card.get('license') or CARD_LICENSE}`. {card.get('license_note') or
'A build inherits the licence of its source sentences.'}

## Configs (split `{SPLIT}`)

| config | rows | content |
|---|---|---|
{config_rows}{omitted}

Every config carries `unit_id`, `category`, `subcategory` and `target` (the original numeral text).
Distances are |Δ| in the target's own unit (`delta_unit`): `value` for magnitudes; `days` for every
calendar target (dates, months, quarters, halves, fiscal and bare years), the calendar distance NASH itself
scores (`nash_metric.numbers.periods.period_distance_days`); `hours` for clock times; the time unit for
durations. A calendar target's `target_value`/`variant_values` are its decimal year (`period_value`).
Cross-pairs compare units of the same category and `delta_unit`; their `distance_a`/`distance_b` are
relative deviations |Δ|/|v| for magnitudes and absolute |Δ| (days, hours) for dates and times, and one is
at least {r['crosspair']['min_ratio']}× the other.

## Evaluation

Triplets: accuracy of sim(anchor, positive) > sim(anchor, negative), ties counted wrong. Listwise: mean
Kendall τ_b (scipy variant "b") between the similarity ranking and the distance ranking; a list with
constant similarities counts 0. Cross-pair: accuracy of ranking the less deviating pair higher.
`nash bench numfine --data DIR --model M` reports all of them for a backbone and for NASH.

## Construction

Units whose first k distinct variants include more than {MAX_INVALID} implausible ones are dropped; fewer
implausible ones are replaced by further plausible draws. Variants are distinct in text and in |Δ|, so every
gold ordering is strict. Randomness is seeded per unit from a hash of (seed, unit_id).

### Categories and rules
{_rules_doc()}

### Changes from earlier builds

Builds before nash-metric's calendar-aware reader split a date into its numerals ("December 31, 2019" was
a day target 31 and a year target 2019) and measured dates in days, months or years by precision. Real
filing text says "December 31, 2019" everywhere, and a split date ranks wrongly: "December 31, 2019 →
January 2, 2020" (2 days) changed every numeral, "December 31 → December 1" (30 days) only one. Now one
grammar (`nash_metric.numbers.calendar`) reads a whole date, month, quarter, half or fiscal year as one
target for the builder and as one mention for the scorer, variants keep its surface form, and every
calendar distance is in days as NASH scores it. Quarters ("Q4 2019", "4Q19"), halves and fiscal years
("FY19", "fiscal 2019") are new targets; the number reader's format fixes (glued `100M`, accounting
negatives with a scale, `1'000'000`, ...) change a few magnitude targets.

## Statistics of this build

{build_report_markdown(r)}

{cards.build_section(_commands(r, card), _build_notes(r, written))}
{cards.limitations_section([*card.get("limitations", []), *_limitations(build)])}
{cards.citation_section([NASH_BIBTEX], _CITATION_INTRO)}"""


def _metadata(build: NumFinEBuild, card: dict[str, Any]) -> cards.CardMetadata:
    return cards.CardMetadata(
        pretty_name=card.get("pretty_name") or CARD_NAME, license=card.get("license") or CARD_LICENSE, language=["en"],
        task_categories=["sentence-similarity"], source_datasets=card.get("source_datasets") or _CORPUS_SOURCE,
        annotations_creators=["machine-generated"],  # categories, variants and gold orders all come from rules
        language_creators=card.get("language_creators") or _CORPUS_LANGUAGE,
        size_category=cards.size_category(len(build.units)),
        tags=["numeracy", "finance", "semantic-similarity", "evaluation", "nash-metric"],
    )


def _default(written: list[str]) -> str:
    """The config ``load_dataset(folder)`` opens: triplet_hard, or the first written one if it is missing."""
    return "triplet_hard" if "triplet_hard" in written else written[0]


def _rules_doc() -> str:
    table = "\n".join(["| category | subcategories | rule (first match wins) |", "|---|---|---|",
                       *(f"| {c} | {s} | {r} |" for c, s, r in CATEGORY_RULES)])
    return f"{table}\n\n{RULES_SUMMARY.strip()}"


_CITATION_INTRO = """NumFinE is introduced by the NASH paper: cite it for the benchmark and for the metric. This folder
was built by nash-metric's reimplementation of the construction (see the limitations above); a build from a
third-party corpus should cite that corpus too."""


def _commands(report: dict[str, Any], card: dict[str, Any]) -> list[str]:
    """The commands that built the folder: the card's, or the CLI call the build report implies."""
    if card.get("commands"):
        return list(card["commands"])
    column = f" --column {report['source_column']}" if report.get("source_column") else ""
    return [f"nash build-data numfine --source {report.get('source')}{column} --out DIR "
            f"--seed {report['seed']} --k {report['k']}  # DIR: this folder"]


def _build_notes(report: dict[str, Any], written: list[str]) -> str:
    sha = report.get("source_sha256")
    return (f"One build writes every config ({', '.join(f'`{c}`' for c in written)}): seed {report['seed']}, "
            f"k = {report['k']} variants per unit, nash-metric {report.get('nash_metric')}. Each unit draws its "
            "variants from a generator seeded by a hash of (seed, unit_id), so reordering the source lines changes "
            "no unit's variants; the listwise order and the cross-pair pairing are seeded by the same seed."
            + (f" Source SHA-256: `{sha}`." if sha else ""))


def _limitations(build: NumFinEBuild) -> list[str]:
    r, n_units = build.report, len(build.units)
    return [
        f"Size: {n_units} units from {r['sentences']['read']} sentences (`{r.get('source')}`). The paper's "
        f"NumFinE has {_PAPER_UNITS:,} units ({_PAPER_TRIPLET:,} triplet sentences, {_PAPER_LISTWISE:,} listwise, "
        f"{_PAPER_CROSSPAIR:,} cross-pairs): scores on this build are not comparable with the paper's tables, and "
        f"a 95 % interval on a triplet accuracy over {n_units} units reaches ±{cards.accuracy_margin(n_units):.2f}.",
        "Targets are found by nash-metric's own number reader, the one NASH scores with: a numeral it misses or "
        "misreads never becomes a target, so a NumFinE build does not measure that reader's recall, and calendar "
        "targets are ordered by the calendar distance NASH itself scores, which favours NASH on dates.",
        "Categories come from the cue-word rules under Construction, not from FinNum's human annotation, and a "
        "rule-based plausibility check replaces the paper's LLM filter: some variants the paper would drop may "
        "remain, and the reverse. Months, quarters, halves and fiscal or bare years follow our extension of the "
        "paper's rules.",
        "Gold orders and cross-pair labels are computed from |Δ| (which variant is numerically closer), not judged "
        "by people: they say nothing about which variant a reader finds closer in meaning.",
    ]
