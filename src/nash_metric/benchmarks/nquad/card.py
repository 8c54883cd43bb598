"""The NQuAD dataset card: YAML (Hub metadata, the train/test config, dataset_info measured on the Parquet
files) and a Markdown body with the fields, construction, build report, limitations, build commands and citation.

``construction.write_dataset`` calls ``card_text`` after writing the Parquet shards; this module does not import
``construction`` (which imports it), so the build report arrives as data and as Markdown. A build from the authors'
question-level release (``report["source_layout"]``) gets its own construction, fields, notes and limitations: its
questions are the release's, not constructed by our rules.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...common.citations import NASH_BIBTEX, NQUAD_BIBTEX
from .. import cards
from .defaults import RELEASE_LAYOUT, SPLITS

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
    ("`option_sentence_lists`", "list[list[string]]",
     "the same sentence as a one-item list (a build from the question-level release keeps each option's list)"),
    ("`answer`", "int32", "index into `options` of the option closest to the target (equal, or within {rtol} "
     "relative where the headline rounds)"),
    ("`exact`", "bool", "the answer value equals the target value"),
    ("`avg_option_diff`", "float64",
     "mean abs(option − answer) over the 3 distractors, divided by max(abs(answer), 1)"),
)

# The meanings that differ in a build from the question-level release (its records are the questions).
_RELEASE_FIELDS = {
    "`id`": "`<article_id>-<k>`, k = index of the record among its article's records in the release",
    "`article_id`, `date`, `headline`": "the article (id: a hash of its paragraphs; no date) and the headline: the "
    "release's stem with the answer option in its blank",
    "`stem`": "the release's `question_stem` with its `___` blank replaced by `{mask}`",
    "`target`": "the release's `target_num` as written (its form may differ from the option's: `五` vs `5`)",
    "`options`": "the release's 4 `answer_options` as written, in the release's order",
    "`option_values`": "their values as nash-metric reads them (4 distinct)",
    "`option_sentences`": "each option's released sentences joined into one text with 。 (none added after a "
    "sentence already ending in 。！？；)",
    "`option_sentence_lists`": "each option's sentences as released",
    "`answer`": "the release's `ans` (index into `options`)",
    "`exact`": "`target_num` equals the answer option in value (true: other questions are left out)",
}

_OPTIONS = """the four numerals of the article body
closest in value to the masked one are the options, each with the body sentence that holds it."""
_RELEASE_OPTIONS = """four numerals of the article body are
the options, each with the sentences that hold it."""

_RELEASE_CITATION_INTRO = """The questions are NQuAD's (Chen et al., CIKM 2021), from the authors' release, read by
nash-metric, the implementation of NASH. Cite NQuAD for the data and NASH when you report NASH scores on it. The
NQuAD entry has not been re-checked against the ACM record."""

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
    release = is_release(report)
    return f"""---
{yaml}
---

# {card.get('pretty_name') or _pretty_name(report)}

A **numeral cloze** dataset in the format of NQuAD (Chen et al., CIKM 2021): the headline of a Chinese
financial news article with one numeral masked is the question; {_RELEASE_OPTIONS if release else _OPTIONS}

{card.get('source_note') or _source_note(report)}

## Loading

```python
from datasets import load_dataset

ds = load_dataset("path/to/this/folder")          # DatasetDict with train / test
q = ds["test"][0]
q["stem"], q["options"], q["answer"]
```

## Fields

{_fields_table(cfg, release)}

## Construction

{_release_construction(report) if release else _CONSTRUCTION.format(cfg=cfg, train=1 - cfg['test_fraction'])}

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
{cards.citation_section([NQUAD_BIBTEX, NASH_BIBTEX], _RELEASE_CITATION_INTRO if release else _CITATION_INTRO)}"""


_CONSTRUCTION = ("`nash_metric.benchmarks.nquad.construction` (rules documented in its module docstring), "
                 """following nash-metric's method notes (`docs/method.md` §2.3):
articles need a headline numeral and at least {cfg[min_body_numerals]} numerals in the body; one question per
headline numeral; options are the 4 distinct body values closest to the target (ties broken by value, then
position); a question is skipped — and counted in `build_report.json` — when fewer than 4 distinct body values
exist, when no body value lies within {cfg[answer_rtol]:g} (relative) of the target, or when two body values are
equally close. Options are shuffled with a seed per question; articles are split into train/test
({train:.0%}/{cfg[test_fraction]:.0%}) with seed {cfg[seed]} (no article in both splits).
Numerals come from `nash_metric.extract_numbers` merged with the Chinese extractor
`nash_metric.numbers.extract_chinese_numbers` (longest span wins).""")


def is_release(report: dict[str, Any]) -> bool:
    """Whether ``report`` is of a build from the authors' question-level release."""
    return report.get("source_layout") == RELEASE_LAYOUT


def _pretty_name(report: dict[str, Any]) -> str:
    return "NQuAD (question-level release, nash-metric build)" if is_release(report) else "NQuAD (nash-metric build)"


def _files(report: dict[str, Any]) -> str:
    """The release's files, each once, in backticks."""
    return ", ".join(f"`{f}`" for f in dict.fromkeys(f for paths in report["files"].values() for f in paths))


def _source_note(report: dict[str, Any]) -> str:
    if is_release(report):
        return (f"Built from the NQuAD question-level release ({_files(report)}): the questions, options and answers "
                "are the authors', read by nash-metric, not constructed by its rules.")
    return f"Built from `{report.get('source')}` with nash-metric's NQuAD construction."


def _release_construction(report: dict[str, Any]) -> str:
    """What a release build did: the questions as released, what was left out, where the splits come from."""
    cfg = report["config"]
    if report["split_by"] == "file name":
        split = "The splits are the release's files: " + "; ".join(
            f"{s} from {', '.join(f'`{f}`' for f in paths)}" for s, paths in report["files"].items()) + "."
    else:
        split = (f"The one file {_files(report)} is split into train/test by article ({1 - cfg['test_fraction']:.0%}/"
                 f"{cfg['test_fraction']:.0%}) with seed {cfg['seed']} (no article in both splits).")
    return (f"The questions are the release's, not constructed by nash-metric's rules: each record of "
            f"{_files(report)} is one row (`nash_metric.benchmarks.nquad.questions`, rules in its module "
            "docstring), its options in the release's order. nash-metric reads the numerals' values (for "
            "`option_values`, the difficulty bins and the numeral-aware scores) with `nash_metric.extract_numbers` "
            "and the Chinese extractor, and leaves a question out — counted in `build_report.json` — when an option "
            "or `target_num` has no value, when the options are not 4 distinct values, or when `target_num` "
            f"disagrees in value with the answer option (`五` and `5` agree). {split}")


def _metadata(report: dict[str, Any], card: dict[str, Any]) -> cards.CardMetadata:
    return cards.CardMetadata(
        pretty_name=card.get("pretty_name") or "NQuAD (nash-metric build)", license=card.get("license") or "other",
        language=["zh"], task_categories=["multiple-choice"], task_ids=["multiple-choice-qa"],
        source_datasets=card.get("source_datasets") or _CORPUS_SOURCE,
        annotations_creators=["machine-generated"],  # by our rules, or by the NQuAD authors' from headlines
        language_creators=card.get("language_creators") or _CORPUS_LANGUAGE,
        size_category=cards.size_category(report["questions"]),
        tags=["numeracy", "finance", "cloze", "chinese", "nash-metric"],
    )


def _fields_table(cfg: dict[str, Any], release: bool = False) -> str:
    fill = {"mask": cfg["mask"], "rtol": format(cfg["answer_rtol"], "g")}
    meanings = [(f, t, _RELEASE_FIELDS.get(f, m) if release else m) for f, t, m in _FIELDS]
    rows = [f"| {f} | {t} | {m.format(**fill)} |" for f, t, m in meanings]
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
    if is_release(report):
        sources = " ".join(f"--source {s}" for s in report["source"])
        split = "" if report["split_by"] == "file name" else f" --test-fraction {cfg['test_fraction']:g}"
        return [f"nash build-data nquad {sources} --out DIR --seed {cfg['seed']}{split}  # DIR: this folder"]
    return [f"nash build-data nquad --source {report.get('source')} --out DIR --seed {cfg['seed']} "
            f"--test-fraction {cfg['test_fraction']:g} --answer-rtol {cfg['answer_rtol']:g}  # DIR: this folder"]


def _build_notes(report: dict[str, Any]) -> str:
    cfg = report["config"]
    if is_release(report):
        split = ("holds the release's files as their names say (the seed plays no part)"
                 if report["split_by"] == "file name" else
                 f"comes from the one release file, split by article with seed {cfg['seed']}")
        return (f"The one config (`default`, splits `train` and `test`) {split}; each question keeps the release's "
                "option order (no shuffle).")
    return (f"The one config (`default`, splits `train` and `test`) comes from this build: seed {cfg['seed']} "
            f"draws the article-level train/test split, and each question's option order is shuffled by a "
            f"generator seeded with (seed, article id, question index), so adding an article moves no other "
            "article's options.")


def _limitations(report: dict[str, Any]) -> list[str]:
    if is_release(report):
        return _release_limitations(report)
    cfg = report["config"]
    skipped = sum(n for reason, n in report["skipped"].items() if reason.startswith("question:"))
    return [
        _size(report, paper=True),
        "Numerals are read by nash-metric's own extractors, the reader NASH scores with: a numeral they miss is "
        "neither a target nor an option, so this folder does not test that reader's recall and favours NASH.",
        f"Options and answers follow this implementation's rules, not the authors' annotation: the answer must be "
        f"within {cfg['answer_rtol']:g} (relative) of the target and strictly closest, else the question is "
        f"skipped ({skipped} question(s) here); the answer equals the target value in "
        f"{report['exact_answers']} of {report['questions']} questions.",
        "Sentences are split on 。！？； only, so an option's sentence can hold several numerals or run long.",
    ]


def _size(report: dict[str, Any], paper: bool = False) -> str:
    """The size limitation; ``paper``: set against the paper's NQuAD (our own, small builds)."""
    split = report["questions_per_split"]
    n_test = split.get("test", 0)
    return (f"Size: {report['questions']} questions ({split.get('train', 0)} train / {n_test} test) from "
            f"{report['articles_kept']} of {report['articles_read']} articles"
            + ("; the paper's NQuAD has 70,000+ questions" if paper else "")
            + f". A 95 % interval on a test accuracy over {n_test} questions reaches "
            f"±{cards.accuracy_margin(n_test):.2f}" + (", so accuracy differences of a few points are noise."
                                                       if paper else "."))


def _release_limitations(report: dict[str, Any]) -> list[str]:
    left_out = report["questions_read"] - report["questions_kept"]
    both = report["articles_in_both_splits"]
    return [
        _size(report),
        f"{left_out} of {report['questions_read']} released questions are left out (reasons in the build report): "
        "nash-metric's reader finds no value in an option or the target, or the target's value is not the answer "
        "option's. Scores on this folder are on the rest, not on the whole release.",
        "Option values, target kinds and the difficulty bins come from nash-metric's own number reader, the one NASH "
        "scores with; the questions, options and answers do not (they are the release's).",
        "`option_sentences` joins each option's released sentences with 。: options whose sentences are alike cannot "
        "be told apart by any stem-vs-sentence score (the ceiling row of `nash bench nquad`).",
        *([f"{both} article(s) have questions in both splits (the release's files are not split by article)."]
          if both else []),
    ]
