"""NumFinE builder: a thin ``datasets.GeneratorBasedBuilder`` plus a ``build`` / ``publish`` entry point.

All logic is in ``nash_metric.benchmarks.numfine``. This file is deliberately *not* called ``numfine.py``:
``datasets`` (4.x, 5.x) treats ``<folder>/<folder>.py`` as a loading script and refuses to load the folder
("Dataset scripts are no longer supported"), locally and on the Hub. Under any other name it is ignored by
``load_dataset("datasets/numfine", ...)``, which reads the Parquet shards declared in README.md.

    # regenerate this folder's sample (data/ + README.md) from source/sentences.txt
    python datasets/numfine/numfine_builder.py publish
    # build from any corpus into another folder
    python datasets/numfine/numfine_builder.py build --source all-data.csv --out /tmp/numfine_fpb
    # or use the builder directly (no Parquet needed)
    from numfine_builder import NumFinEBuilder
    b = NumFinEBuilder(config_name="triplet_hard"); b.download_and_prepare(); ds = b.as_dataset(split="test")
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import ClassVar

import datasets

from nash_metric.benchmarks.numfine.build import build_from_file
from nash_metric.benchmarks.numfine.construction import K_DEFAULT
from nash_metric.benchmarks.numfine.publish import write_numfine
from nash_metric.benchmarks.numfine.schema import SPLIT, features
from nash_metric.benchmarks.numfine.tables import CONFIGS

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "source" / "sentences.txt"
CARD = {
    "pretty_name": "NumFinE (nash-metric sample)",
    "license": "apache-2.0",
    "source_note": "A sample built from `source/sentences.txt`: 55 financial sentences written by the nash-metric "
                   "developers for this purpose (no third-party text), covering every FinNum category. Build the "
                   "benchmark from your own corpus (e.g. the Financial PhraseBank, CC BY-NC-SA 3.0) with "
                   "`nash build-data numfine`; such builds inherit their source's licence and are not "
                   "distributed here.",
    "license_note": "The sample's sentences and data are released with the project under Apache-2.0.",
    # Hub provenance tags: the base sentences are our own text ("other": written by the project's developers,
    # not found or crowdsourced), the variants and all labels are machine-generated.
    "source_datasets": ["original"],
    "language_creators": ["machine-generated", "other"],
    "limitations": [
        "The base sentences were written by the nash-metric developers to cover every FinNum category: a "
        "hand-picked spread of cases, not a sample of real news, tweets or filings, so category shares and "
        "difficulty may differ from those of the paper's Financial PhraseBank, tweet and 10-K sources.",
    ],
}


def publish_commands(seed: int, k: int) -> list[str]:
    """What the card states as this sample's build: this script, and the CLI call writing the same Parquet."""
    return [f"python datasets/numfine/numfine_builder.py publish --seed {seed} --k {k}",
            "# the same Parquet files from the CLI (its card and reports differ: CLI defaults, source path as given):",
            f"nash build-data numfine --source datasets/numfine/source/sentences.txt --out datasets/numfine "
            f"--seed {seed} --k {k}"]


class NumFinEConfig(datasets.BuilderConfig):
    def __init__(self, source: str | None = None, column: str | None = None, seed: int = 0, k: int = K_DEFAULT,
                 **kwargs):
        super().__init__(**kwargs)
        self.source, self.column, self.seed, self.k = source, column, seed, k


class NumFinEBuilder(datasets.GeneratorBasedBuilder):
    """Builds one NumFinE config from a sentence file (default: this folder's ``source/sentences.txt``)."""

    BUILDER_CONFIG_CLASS = NumFinEConfig
    BUILDER_CONFIGS: ClassVar[list[datasets.BuilderConfig]] = [
        NumFinEConfig(name=c, description=f"NumFinE {c}") for c in CONFIGS]
    DEFAULT_CONFIG_NAME = "triplet_hard"

    def _info(self) -> datasets.DatasetInfo:
        return datasets.DatasetInfo(description=__doc__, features=features(self.config.name),
                                    license=CARD["license"])

    def _split_generators(self, dl_manager):
        return [datasets.SplitGenerator(name=SPLIT, gen_kwargs={"source": self.config.source or str(SOURCE)})]

    def _generate_examples(self, source: str):
        build = build_from_file(source, column=self.config.column, seed=self.config.seed, k=self.config.k)
        yield from enumerate(build.tables[self.config.name])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    pub = sub.add_parser("publish", help="rebuild this folder's data/ and README.md from source/sentences.txt")
    pub.add_argument("--seed", type=int, default=0)
    pub.add_argument("--k", type=int, default=K_DEFAULT)
    b = sub.add_parser("build", help="build from any sentence file into --out (same as `nash build-data numfine`)")
    b.add_argument("--source", required=True)
    b.add_argument("--column", default=None)
    b.add_argument("--out", required=True)
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("--k", type=int, default=K_DEFAULT)
    b.add_argument("--license", default="other")
    args = parser.parse_args(argv)
    if args.command == "publish":
        build = build_from_file(SOURCE, seed=args.seed, k=args.k, show_progress=True)
        build.report["source"] = "source/sentences.txt"  # relative: the card must not leak a local path
        out = write_numfine(build, HERE, {**CARD, "commands": publish_commands(args.seed, args.k)})
    else:
        build = build_from_file(args.source, column=args.column, seed=args.seed, k=args.k, show_progress=True)
        out = write_numfine(build, args.out, {"license": args.license})
    print(f"wrote {out}: {build.report['rows']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
