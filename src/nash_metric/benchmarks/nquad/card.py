"""The NQuAD dataset card: YAML (Hub metadata, the train/test config, dataset_info measured on the Parquet
files) and a Markdown body with the fields, construction, build report, limitations, build commands and citation.

``construction.write_dataset`` calls ``card_text`` after writing the Parquet shards; this module does not import
``construction`` (which imports it), so the build report arrives as data and as Markdown.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...common.citations import NASH_BIBTEX, NQUAD_BIBTEX
from .. import cards
from .defaults import SPLITS

CONFIGS = [{"config_name": "default",
            "data_files": [{"split": s, "path": f"data/{s}-*.parquet"} for s in SPLITS]}]
# Articles given to `nash build-data nquad` are news text of another dataset (the authors' release or your own).
_CORPUS_SOURCE, _CORPUS_LANGUAGE = ["extended|other"], ["found"]

_FIELDS = (  # (field, type, meaning); {mask} and {rtol} are filled from the build configuration
    ("`id`", "string", "`<article_id>-<k>`, k = index of the numeral in the headline"),
    ("`article_id`, `date`, `headline`", "string", "the source article (date may be empty)"),
    ("`stem`", "string", "the headline with the target numeral (unit included) replaced by `{mask}`"),
    ("`target`", "string", "the masked numeral as written, e.g. `3億元`, `百分之三十五`"),
    ("`target_value`, `target_kind`", "float64, string",
     "its value (3億元 → 300000000.0) and kind (monetary, percentage, temporal, quantity)"),
    ("`options`", "list[string]", "4 body numerals as written, in a seeded random order"),
    ("`option_values`", "list[float64]", "their values (4 distinct)"),
    ("`option_sentences`", "list[string]", "the body sentence (split on 。！？；) holding each option"),
    ("`answer`", "int32", "index into `options` of the option closest to the target (equal, or within {rtol} "
     "relative where the headline rounds)"),
    ("`exact`", "bool", "the answer value equals the target value"),
    ("`avg_option_diff`", "float64",
     "mean abs(option − answer) over the 3 distractors, divided by max(abs(answer), 1)"),
)

_CITATION_INTRO = """The task design is from NQuAD (Chen et al., CIKM 2021); this folder was built by nash-metric, the
implementation of NASH, with its own reading of that construction (see the limitations above). Cite NQuAD for
the task and NASH when you report NASH scores on it. The NQuAD entry has not been re-checked against the ACM
record."""


def card_text(report: dict[str, Any], report_md: str, out: str | Path, card: dict[str, Any] | None = None) -> str:
    """The README.md of the NQuAD folder ``out``, whose Parquet shards are already written.

    ``card`` may set ``pretty_name``, ``license``, ``license_note``, ``source_note``, ``source_datasets``,
    ``language_creators``, ``limitations`` (extra bullets about the source) and ``commands`` (the exact
    commands that built the folder; default: the ``nash build-data nquad`` call the build report implies).
    """
    card = card or {}
    yaml = cards.card_yaml(_metadata(report, card), CONFIGS, out)
    cfg = report["config"]
    return f"""---
{yaml}
---

# {card.get('pretty_name') or 'NQuAD (nash-metric build)'}

A **numeral cloze** dataset in the format of NQuAD (Chen et al., CIKM 2021): the headline of a Chinese
financial news article with one numeral masked is the question; the four numerals of the article body
closest in value to the masked one are the options, each with the body sentence that holds it.

{card.get('source_note') or f"Built from `{report.get('source')}` with nash-metric's NQuAD construction."}

## Loading

```python
from datasets import load_dataset

ds = load_dataset("path/to/this/folder")          # DatasetDict with train / test
q = ds["test"][0]
q["stem"], q["options"], q["answer"]
```

## Fields

{_fields_table(cfg)}

## Construction

`nash_metric.benchmarks.nquad.construction` (rules documented in its module docstring), following DESIGN.md §2:
articles need a headline numeral and at least {cfg['min_body_numerals']} numerals in the body; one question per
headline numeral; options are the 4 distinct body values closest to the target (ties broken by value, then
position); a question is skipped — and counted in `build_report.json` — when fewer than 4 distinct body values
exist, when no body value lies within {cfg['answer_rtol']:g} (relative) of the target, or when two body values are
equally close. Options are shuffled with a seed per question; articles are split into train/test
({1 - cfg['test_fraction']:.0%}/{cfg['test_fraction']:.0%}) with seed {cfg['seed']} (no article in both splits).
Numerals come from `nash_metric.extract_numbers` merged with the Chinese extractor
`nash_metric.numbers.extract_chinese_numbers` (longest span wins).

Build report of this folder (`build_report.md`):

{_strip_title(report_md)}

## Evaluation

`nash bench nquad --data DIR --split test` scores every (stem, option sentence) pair and picks the most
similar option: character-level string baselines (cosine, overlap, Monge-Elkan, MLIPNS from `textdistance`,
the paper's Table 3 set), embedding cosine, BERTScore, NASH, and NASH plus the magnitude agreement between the
option value and the other numbers of the stem.

## Licence

Licence of this build: `{card.get('license') or 'other'}`. {card.get('license_note') or
'A build inherits the licence of its source articles.'}

{cards.build_section(_commands(report, card), _build_notes(report))}
{cards.limitations_section([*card.get('limitations', []), *_limitations(report)])}
{cards.citation_section([NQUAD_BIBTEX, NASH_BIBTEX], _CITATION_INTRO)}"""


def _metadata(report: dict[str, Any], card: dict[str, Any]) -> cards.CardMetadata:
    return cards.CardMetadata(
        pretty_name=card.get("pretty_name") or "NQuAD (nash-metric build)", license=card.get("license") or "other",
        language=["zh"], task_categories=["multiple-choice"], task_ids=["multiple-choice-qa"],
        source_datasets=card.get("source_datasets") or _CORPUS_SOURCE,
        annotations_creators=["machine-generated"],  # stems, options and answers all come from the rules below
        language_creators=card.get("language_creators") or _CORPUS_LANGUAGE,
        size_category=cards.size_category(report["questions"]),
        tags=["numeracy", "finance", "cloze", "chinese", "nash-metric"],
    )


def _fields_table(cfg: dict[str, Any]) -> str:
    fill = {"mask": cfg["mask"], "rtol": format(cfg["answer_rtol"], "g")}
    rows = [f"| {f} | {t} | {m.format(**fill)} |" for f, t, m in _FIELDS]
    return "\n".join(["| field | type | meaning |", "|---|---|---|", *rows])


def _strip_title(report_md: str) -> str:
    """The report's Markdown without its ``# ...`` title (the card has its own headings)."""
    lines = report_md.strip().splitlines()
    return "\n".join(lines[1:]).strip() if lines and lines[0].startswith("# ") else report_md.strip()


def _commands(report: dict[str, Any], card: dict[str, Any]) -> list[str]:
    """The commands that built the folder: the card's, or the CLI call the build report implies."""
    if card.get("commands"):
        return list(card["commands"])
    cfg = report["config"]
    return [f"nash build-data nquad --source {report.get('source')} --out DIR --seed {cfg['seed']} "
            f"--test-fraction {cfg['test_fraction']:g} --answer-rtol {cfg['answer_rtol']:g}  # DIR: this folder"]


def _build_notes(report: dict[str, Any]) -> str:
    cfg = report["config"]
    return (f"The one config (`default`, splits `train` and `test`) comes from this build: seed {cfg['seed']} "
            f"draws the article-level train/test split, and each question's option order is shuffled by a "
            f"generator seeded with (seed, article id, question index), so adding an article moves no other "
            "article's options.")


def _limitations(report: dict[str, Any]) -> list[str]:
    split, cfg = report["questions_per_split"], report["config"]
    n_test = split.get("test", 0)
    skipped = sum(n for reason, n in report["skipped"].items() if reason.startswith("question:"))
    return [
        f"Size: {report['questions']} questions ({split.get('train', 0)} train / {n_test} test) from "
        f"{report['articles_kept']} of {report['articles_read']} articles; the paper's NQuAD has 70,000+ "
        f"questions. A 95 % interval on a test accuracy over {n_test} questions reaches "
        f"±{cards.accuracy_margin(n_test):.2f}, so accuracy differences of a few points are noise.",
        "Numerals are read by nash-metric's own extractors, the reader NASH scores with: a numeral they miss is "
        "neither a target nor an option, so this folder does not test that reader's recall and favours NASH.",
        f"Options and answers follow this implementation's rules, not the authors' annotation: the answer must be "
        f"within {cfg['answer_rtol']:g} (relative) of the target and strictly closest, else the question is "
        f"skipped ({skipped} question(s) here); the answer equals the target value in "
        f"{report['exact_answers']} of {report['questions']} questions.",
        "Sentences are split on 。！？； only, so an option's sentence can hold several numerals or run long.",
    ]
