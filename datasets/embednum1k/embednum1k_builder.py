"""EmbedNum-1K builder: a thin adapter over `nash_metric.benchmarks.embednum` (all logic lives there).

Two ways to use it:

* ``python datasets/embednum1k/embednum1k_builder.py [--seed 0 --n 1000 --source FILE]`` rebuilds
  ``data/*.parquet`` and ``README.md`` in this folder (same as ``nash build-data embednum1k --out``);
  ``load_dataset("datasets/embednum1k", "orig")`` then reads the Parquet natively.
* ``EmbedNum1K(config_name="orig").download_and_prepare(); .as_dataset()`` generates a config in
  memory through the `datasets` builder API.

The file is deliberately *not* named ``embednum1k.py``: `datasets` >= 4 refuses to load a folder that
holds a script named like the folder ("Dataset scripts are no longer supported").
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import ClassVar

import datasets

from nash_metric.benchmarks.embednum.construction import (
    ALL_CONFIGS,
    CANDIDATE_CONFIGS,
    TRIPLE_COLUMNS,
    build_embednum,
)
from nash_metric.benchmarks.embednum.dataset import build_dataset
from nash_metric.benchmarks.embednum.sources import load_released, load_seeds

HERE = Path(__file__).resolve().parent
_FLOATS = {"threshold", "positive_value", "negative_value", "relative_distance"}


class EmbedNum1KConfig(datasets.BuilderConfig):
    def __init__(self, seed: int = 0, n: int = 1000, source: str | None = None, n_candidate_questions: int = 200,
                 **kwargs):
        super().__init__(version=datasets.Version("1.0.0"), **kwargs)
        self.seed, self.n, self.source, self.n_candidate_questions = seed, n, source, n_candidate_questions


class EmbedNum1K(datasets.GeneratorBasedBuilder):
    """⟨question, A+, A−⟩ numeric-comparison triples in 18 number formats plus extras."""

    BUILDER_CONFIG_CLASS = EmbedNum1KConfig
    BUILDER_CONFIGS: ClassVar[list[datasets.BuilderConfig]] = [EmbedNum1KConfig(name=c) for c in ALL_CONFIGS]
    DEFAULT_CONFIG_NAME = "orig"

    def _info(self) -> datasets.DatasetInfo:
        if self.config.name in CANDIDATE_CONFIGS:
            s = datasets.Value("string")
            features = datasets.Features({
                "id": s, "config": s, "seed_id": s, "question": s, "candidates": datasets.List(s),
                "candidate_values": datasets.List(datasets.Value("float64")),
                "labels": datasets.List(datasets.Value("int64")), "op": s, "direction": s,
                "threshold": datasets.Value("float64"), "threshold_text": s, "unit": s, "entity": s})
        else:
            features = datasets.Features({c: datasets.Value("float64" if c in _FLOATS else "string")
                                          for c in TRIPLE_COLUMNS})
        return datasets.DatasetInfo(description=__doc__, features=features, license="cc-by-4.0")

    def _split_generators(self, dl_manager):
        return [datasets.SplitGenerator(name=datasets.Split.TEST)]

    def _generate_examples(self):
        cfg = self.config
        released = load_released(cfg.source) if cfg.source else None
        templates = [r.template for r in released] if released else load_seeds()
        rows = build_embednum(templates, n=cfg.n, seed=cfg.seed, configs=[cfg.name], released=released,
                              n_candidate_questions=cfg.n_candidate_questions)[cfg.name]
        for row in rows:
            yield row["id"], row


def build(out_dir: str | Path = HERE, seed: int = 0, n: int | None = None, source: str | None = None,
          n_candidate_questions: int = 200) -> None:
    """Write data/<config>.parquet and README.md into `out_dir` (default: this folder)."""
    build_dataset(out_dir, source=source, seed=seed, n=n, n_candidate_questions=n_candidate_questions,
                  show_progress=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(HERE))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n", type=int, default=None)
    parser.add_argument("--source", default=None)
    parser.add_argument("--candidate-questions", type=int, default=200)
    a = parser.parse_args()
    build(a.out, a.seed, a.n, a.source, a.candidate_questions)
