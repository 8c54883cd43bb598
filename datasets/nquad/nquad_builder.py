"""NQuAD sample builder (nash-metric): a thin adapter over ``nash_metric.benchmarks.nquad``.

This is not a loading script: ``load_dataset("datasets/nquad")`` reads the Parquet files under ``data/``
through the ``configs:`` of README.md (datasets 5.x refuses scripts). This file offers

* ``python datasets/nquad/nquad_builder.py build [--source FILE] [--seed 0]``: rebuild ``data/`` and
  ``build_report.{json,md}`` from ``source/articles.jsonl`` (same as ``nash build-data nquad``);
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

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "source" / "articles.jsonl"

_DESCRIPTION = ("Chinese financial-news numeral cloze in the NQuAD format: a headline with one numeral masked, "
                "the four body numerals closest in value as options, each with its body sentence. Built from "
                "short fictional articles written for nash-metric; not the official NQuAD data.")
_CITATION = """@inproceedings{chen2021nquad,
  title = {NQuAD: 70,000+ Questions for Machine Comprehension of the Numerals in Text},
  author = {Chen, Chung-Chi and Huang, Hen-Hsen and Takamura, Hiroya and Chen, Hsin-Hsi},
  booktitle = {Proceedings of the 30th ACM International Conference on Information and Knowledge Management},
  year = {2021}
}"""


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
    print(report_markdown(build_from_file(args.source, args.out, BuildConfig(seed=args.seed))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
