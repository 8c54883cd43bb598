"""The NumFinE dataset card: YAML (configs + dataset_info) and a Markdown body with the build's statistics."""

from __future__ import annotations

from typing import Any

from .build import NumFinEBuild, build_report_markdown
from .construction import MAX_INVALID
from .rules import CATEGORY_RULES, RULES_SUMMARY
from .schema import SPLIT, features, shard_path
from .tables import CONFIGS

_DESCRIPTIONS = {
    "triplet_easy": "anchor, closest variant (positive) and farthest variant (negative)",
    "triplet_medium": "anchor, closest variant and the middle one (index ⌊k/2⌋ of the variants, closest first)",
    "triplet_hard": "anchor, closest and second-closest variant",
    "listwise": "anchor and all k variants (seeded random order) with their distances",
    "crosspair": "two units of the same category, one variant each; label 0 when pair a deviates less",
    "units": "one row per (sentence, target): every variant, its new value and distance, closest first",
}


def render_card(build: NumFinEBuild, sizes: dict[str, tuple[int, int]], card: dict[str, Any]) -> str:
    from datasets.info import DatasetInfo, DatasetInfosDict
    from datasets.splits import SplitDict, SplitInfo
    from huggingface_hub import DatasetCardData

    written = [c for c in CONFIGS if c in sizes]  # configs without rows are not written (build report says why)
    infos = {}
    for config in written:
        splits = SplitDict()
        splits.add(SplitInfo(name=SPLIT, num_examples=sizes[config][0], num_bytes=sizes[config][1]))
        infos[config] = DatasetInfo(features=features(config), splits=splits, config_name=config)
    data = DatasetCardData(
        pretty_name=card.get("pretty_name") or "NumFinE",
        license=card.get("license") or "other",
        language=["en"],
        task_categories=["sentence-similarity"],
        tags=["numeracy", "finance", "semantic-similarity", "evaluation", "nash-metric"],
        size_categories=[_size_category(len(build.units))],
        configs=[{"config_name": c, "data_files": [{"split": SPLIT, "path": shard_path(c)}],
                  **({"default": True} if c == _default(written) else {})} for c in written],
    )
    DatasetInfosDict(infos).to_dataset_card_data(data)
    r = build.report
    config_rows = "\n".join(f"| `{c}` | {sizes[c][0]} | {_DESCRIPTIONS[c]} |" for c in written)
    omitted = "".join(f"\n\nNot in this build: `{c}`, {why}." for c, why in r.get("omitted_configs", {}).items())
    source_note = card.get("source_note") or f"Built from `{r.get('source')}`."
    return f"""---
{data.to_yaml()}
---

# {card.get('pretty_name') or 'NumFinE'}

Numerically perturbed financial sentences for testing whether a similarity metric is sensitive to
numbers (NumFinE, as specified for the NASH paper). Each numeral of a base sentence is a **target**;
k = {r['k']} variants change that target and nothing else, keeping its written form (decimals, thousands
separators, currency, scale word, spacing). Built with `nash-metric` {r.get('nash_metric')} (seed
{r['seed']}); rebuild it with

```bash
nash build-data numfine --source SENTENCES --out DIR --seed {r['seed']} --k {r['k']}
```

```python
from datasets import load_dataset
hard = load_dataset("path/to/this/folder", "triplet_hard", split="{SPLIT}")
```

No loading script: the folder is Parquet plus this card (datasets ≥ 4 refuses scripts). A builder that
regenerates the data from `source/` may sit next to it under another name than `<folder>.py` (datasets
treats a file named after the folder as a script and refuses to load).

## Source and licence

{source_note}

Licence of this build: `{card.get('license') or 'other'}`. {card.get('license_note') or
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
"""


def _default(written: list[str]) -> str:
    """The config ``load_dataset(folder)`` opens: triplet_hard, or the first written one if it is missing."""
    return "triplet_hard" if "triplet_hard" in written else written[0]


def _rules_doc() -> str:
    table = "\n".join(["| category | subcategories | rule (first match wins) |", "|---|---|---|",
                       *(f"| {c} | {s} | {r} |" for c, s, r in CATEGORY_RULES)])
    return f"{table}\n\n{RULES_SUMMARY.strip()}"


def _size_category(n: int) -> str:
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if n < limit:
            return label
    return "n>1M"
