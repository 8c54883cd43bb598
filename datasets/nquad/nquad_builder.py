"""NQuAD sample builder (nash-metric): a thin adapter over ``nash_metric.benchmarks.nquad``.

This is not a loading script: ``load_dataset("datasets/nquad")`` reads the Parquet files under ``data/``
through the ``configs:`` of README.md (datasets 5.x refuses scripts). This file offers

* ``python datasets/nquad/nquad_builder.py build [--source FILE] [--seed 0]``: rebuild ``data/``,
  ``build_report.{json,md}`` and the card ``README.md`` from ``source/articles.jsonl`` (the same files as
  ``nash build-data nquad``, with this sample's card);
* ``NQuAD``: a ``datasets.GeneratorBasedBuilder`` that builds the questions in memory, for tools that
  instantiate builders directly: ``b = NQuAD(cache_dir=...); b.download_and_prepare(); b.as_dataset()``.

Needs ``nash-metric`` importable (installed, or ``PYTHONPATH=src`` from the repository root).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import ClassVar

import datasets

from nash_metric.benchmarks.nquad.construction import BuildConfig, build, build_from_file, features, report_markdown
from nash_metric.benchmarks.nquad.source import read_articles
from nash_metric.common.citations import NQUAD_BIBTEX

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "source" / "articles.jsonl"
ROOT = HERE.parent.parent  # the repository: reports name sources relative to it, never by a local absolute path

_DESCRIPTION = ("Chinese financial-news numeral cloze in the NQuAD format: a headline with one numeral masked, "
                "the four body numerals closest in value as options, each with its body sentence. Built from "
                "short fictional articles written for nash-metric; not the official NQuAD data.")
_CITATION = NQUAD_BIBTEX
# The card of this folder's sample (a build from another source gets the generic card of `nash build-data nquad`).
CARD = {
    "pretty_name": "NQuAD sample (nash-metric)",
    "license": "cc-by-4.0",
    "license_note": "The sample (articles and questions) is released under CC BY 4.0 by the nash-metric developers.",
    "source_note": (
        "**This is not the official NQuAD data.** The source articles in `source/articles.jsonl` are short "
        "fictional financial-news-style texts written for the nash-metric project (companies and figures are "
        "invented), in simplified and traditional characters, so that every number form the extractor handles "
        "appears: Arabic and full-width digits (`１２３．５億元`), `%`/`％`, `百分之…`, Chinese numerals "
        "(`三百二十元`, `两千家`, `零點八`), scale characters (`萬/万`, `億/亿`, `千`, `百`, `兆`), mixed forms "
        "(`2.5萬`, `12萬5千`, `3億元`, `1.5萬億元`), `點/点` decimals, currencies (元, 美元, 港元, 人民幣) and dates "
        "(`2023年`, `3月5日`). Use it to test pipelines and to compare systems qualitatively. Build the full "
        "benchmark from the authors' release with the same code (see How each config was built)."),
    # Hub provenance tags: our own articles ("other": written by the project's developers, not found news).
    "source_datasets": ["original"],
    "language_creators": ["other"],
    "limitations": [
        "The articles are fictional and were written to exercise every number form nash-metric's extractor "
        "handles: they are not a sample of real financial news, and were written with that extractor's forms in "
        "mind, so they are likely easier than real news for systems built on it, NASH included.",
    ],
}


def sample_commands(seed: int) -> list[str]:
    """What the card states as this sample's build: this script, and the CLI call writing the same files."""
    return [f"python datasets/nquad/nquad_builder.py build --seed {seed}  # from the repository root",
            "# the same Parquet files and build report from the CLI (it writes the generic card):",
            f"nash build-data nquad --source datasets/nquad/source/articles.jsonl --out datasets/nquad --seed {seed}",
            "# the full benchmark: the authors' article-level release (.json) or raw articles (.jsonl with headline,",
            "# content, id?, date?), into another folder",
            f"nash build-data nquad --source path/to/articles.jsonl --out my_nquad --seed {seed}"]


def _source_name(source: str | Path) -> str:
    """``source`` relative to the repository when it lies inside, else as given."""
    path = Path(source).resolve()
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(source)


class NQuADConfig(datasets.BuilderConfig):
    def __init__(self, source: str = str(SOURCE), seed: int = 0, **kwargs):
        super().__init__(**kwargs)
        self.source = source
        self.seed = seed


class NQuAD(datasets.GeneratorBasedBuilder):
    BUILDER_CONFIG_CLASS = NQuADConfig
    BUILDER_CONFIGS: ClassVar[list[NQuADConfig]] = [NQuADConfig(name="default", version=datasets.Version("1.0.0"))]
    DEFAULT_CONFIG_NAME = "default"

    def _info(self) -> datasets.DatasetInfo:
        return datasets.DatasetInfo(description=_DESCRIPTION, features=features(), license="cc-by-4.0",
                                    citation=_CITATION)

    def _split_generators(self, dl_manager):
        return [datasets.SplitGenerator(name=name, gen_kwargs={"split": str(name)})
                for name in (datasets.Split.TRAIN, datasets.Split.TEST)]

    def _generate_examples(self, split: str):
        splits, _ = build(read_articles(self.config.source), BuildConfig(seed=self.config.seed))
        for row in splits[split]:
            yield row["id"], row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Rebuild the NQuAD sample (Parquet under data/).")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("build")
    p.add_argument("--source", default=str(SOURCE))
    p.add_argument("--out", default=str(HERE))
    p.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    sample = Path(args.source).resolve() == SOURCE
    card = {**CARD, "commands": sample_commands(args.seed)} if sample else None
    report = build_from_file(args.source, args.out, BuildConfig(seed=args.seed), card=card,
                             source_name=_source_name(args.source))
    print(report_markdown(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
