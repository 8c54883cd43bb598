"""`nash build-data NAME` and `nash bench NAME`: one subcommand per registered benchmark.

A benchmark's flags and runs are this package's module of that benchmark (`numfine.py`: `BUILD`, `BENCH`); its
work goes through the benchmark registry, whose code is imported only when a command runs.
"""

from __future__ import annotations

from ..command import Command
from . import claims, data_to_text, embednum, filing_claims, nquad, numfine, stsb, summedits

BUILD_DATA = Command("build-data", "construct a benchmark dataset", dest="dataset", extra="bench",
                     subcommands=(numfine.BUILD, embednum.BUILD, nquad.BUILD, filing_claims.BUILD))
BENCH = Command("bench", "evaluate Base vs +NASH on a benchmark", dest="benchmark", extra="bench",
                subcommands=(numfine.BENCH, embednum.BENCH, nquad.BENCH, stsb.BENCH, summedits.BENCH, claims.BENCH,
                             filing_claims.BENCH, data_to_text.BENCH_ROTOWIRE, data_to_text.BENCH_QUINTD,
                             data_to_text.BENCH_TABFACT))
