"""Every benchmark behind one small protocol, looked up by name without importing its implementation.

A `Benchmark` stores where its entry points live (``"module:attribute"``, relative to this package) and
imports them on first use, so ``import nash_metric.benchmarks`` and ``nash --help`` load no numpy, torch,
pandas or benchmark code. The entry points share these signatures (each benchmark adds its own keyword
options; `None` where a benchmark has no such step):

* ``build(out, *, source=None, seed=0, show_progress=False, **options) -> dict``: construct the dataset
  folder ``out`` (Parquet, card, build report) and return the build report;
* ``build_markdown(report) -> str``: that report as Markdown;
* ``evaluate(scorer, data, *, limit=None, show_progress=True, **options) -> dict``: Base vs +NASH on a
  built folder; ``scorer`` is a NASH scorer or a factory ``f(**overrides) -> NASH`` (a benchmark that
  needs variants, e.g. ``comparisons=True`` or another backend, asks the factory); returns the result
  envelope (``benchmark``, ``config`` echo, ``environment``, ``results``) that ``--output`` writes;
* ``markdown(result) -> str``: the tables ``nash bench`` prints;
* ``plot(result, path) -> Path``: a figure of the result;
* ``card(data, result) -> Path``: write the result into the dataset card of the folder ``data``.

    from nash_metric.benchmarks import registry
    result = registry["numfine"].evaluate(NASH(), "datasets/numfine", limit=100)
    print(registry["numfine"].markdown(result))
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union

if TYPE_CHECKING:
    from ..scorer import NASH

# A NASH scorer, or a factory called with option overrides (`factory(comparisons=True)`) that returns one.
ScorerSource = Union["NASH", Callable[..., "NASH"]]  # NASH is imported for type checkers only


def with_baseline(scorer: Any) -> Any:
    """A NASH scorer that also returns the backbone's own score (`baseline=True`): every benchmark's Base column.
    Any other scorer is returned as it is."""
    if hasattr(scorer, "with_options") and not getattr(getattr(scorer, "config", None), "baseline", True):
        return scorer.with_options(baseline=True)
    return scorer


def scorer_factory(scorer: ScorerSource) -> Callable[..., NASH]:
    """``scorer`` as a factory ``f(**overrides) -> NASH``.

    A scorer gives itself, or ``scorer.with_options(**overrides)`` (same model unless a model option
    changes); any other callable is taken to be a factory already.
    """
    if hasattr(scorer, "score") and hasattr(scorer, "with_options"):
        return lambda **overrides: scorer.with_options(**overrides) if overrides else scorer
    if callable(scorer):
        return scorer
    raise TypeError(f"expected a NASH scorer or a factory returning one, got {type(scorer).__name__}")


def _resolve(ref: str | None) -> Callable[..., Any] | None:
    if ref is None:
        return None
    module, _, attribute = ref.partition(":")
    return getattr(importlib.import_module(f".{module}", __package__), attribute)


@dataclass(frozen=True)
class Benchmark:
    """One benchmark: its name, a one-line summary and its entry points (``"module:attribute"``)."""

    name: str
    summary: str
    evaluate_ref: str
    markdown_ref: str
    build_ref: str | None = None
    build_markdown_ref: str | None = None
    plot_ref: str | None = None
    card_ref: str | None = None

    @property
    def build(self) -> Callable[..., dict[str, Any]] | None:
        return _resolve(self.build_ref)

    @property
    def build_markdown(self) -> Callable[[dict[str, Any]], str] | None:
        return _resolve(self.build_markdown_ref)

    @property
    def evaluate(self) -> Callable[..., dict[str, Any]]:
        return _resolve(self.evaluate_ref)  # type: ignore[return-value]

    @property
    def markdown(self) -> Callable[[dict[str, Any]], str]:
        return _resolve(self.markdown_ref)  # type: ignore[return-value]

    @property
    def plot(self) -> Callable[..., Any] | None:
        return _resolve(self.plot_ref)

    @property
    def card(self) -> Callable[..., Any] | None:
        return _resolve(self.card_ref)


class UnknownBenchmarkError(KeyError):
    """A benchmark name that is not registered; the message lists the known ones."""

    def __str__(self) -> str:  # KeyError would print the repr of its argument
        return str(self.args[0])


class BenchmarkRegistry(Mapping[str, Benchmark]):
    """Benchmarks by name, in registration order."""

    def __init__(self, benchmarks: list[Benchmark]) -> None:
        self._benchmarks = {b.name: b for b in benchmarks}

    def __getitem__(self, name: str) -> Benchmark:
        try:
            return self._benchmarks[name]
        except KeyError:
            raise UnknownBenchmarkError(
                f"unknown benchmark {name!r}; known benchmarks: {', '.join(self._benchmarks)}"
            ) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._benchmarks)

    def __len__(self) -> int:
        return len(self._benchmarks)


registry = BenchmarkRegistry([
    Benchmark(
        name="numfine",
        summary="NumFinE triplet/listwise/cross-pair: Base vs +NASH",
        build_ref="numfine.publish:build_dataset",
        build_markdown_ref="numfine.build:build_report_markdown",
        evaluate_ref="numfine.evaluation:evaluate",
        markdown_ref="numfine.evaluation:markdown",
        plot_ref="numfine.evaluation:plot",
    ),
    Benchmark(
        name="embednum1k",
        summary="EmbedNum-1K accuracy per format: cosine, BERTScore, NASH, NASH+comparisons; above/below; P@k",
        build_ref="embednum.dataset:build_dataset",
        evaluate_ref="embednum.evaluation:evaluate",
        markdown_ref="embednum.evaluation:markdown",
        plot_ref="embednum.evaluation:plot",
        card_ref="embednum.evaluation:card",
    ),
    Benchmark(
        name="nquad",
        summary="NQuAD accuracy: string baselines, cosine, BERTScore, NASH",
        build_ref="nquad.construction:build_dataset",
        build_markdown_ref="nquad.construction:report_markdown",
        evaluate_ref="nquad.evaluation:evaluate",
        markdown_ref="nquad.evaluation:markdown",
    ),
    Benchmark(
        name="stsb",
        summary="STS Benchmark: Spearman/Pearson with gold, Base vs +NASH",
        evaluate_ref="stsb:evaluate",
        markdown_ref="stsb:markdown",
    ),
    Benchmark(
        name="summedits",
        summary="SummEdits: does a score notice a wrong figure? ROC AUC / balanced accuracy on human labels",
        evaluate_ref="summedits.evaluation:evaluate",
        markdown_ref="summedits.report:markdown",
        plot_ref="summedits.report:plot",
    ),
    Benchmark(
        name="claims",
        summary="labelled {source, claim, label} JSONL: figure verdict vs the value-anywhere check (AUC / BA)",
        evaluate_ref="claims:evaluate",
        markdown_ref="claims:markdown",
    ),
    Benchmark(
        name="filing-claims",
        summary="FilingClaims: claims about TAT-QA table cells, stated or computed from them, right and wrong, in "
        "three forms",
        build_ref="filing_claims.build:build",
        build_markdown_ref="filing_claims.build:build_markdown",
        evaluate_ref="filing_claims.evaluation:evaluate",
        markdown_ref="filing_claims.evaluation:markdown",
    ),
    Benchmark(
        name="rotowire",
        summary="Rotowire accuracy shared task: the figure verdict on human-marked NUMBER errors in basketball "
        "summaries (BA per figure and text, recall / precision)",
        evaluate_ref="data_to_text.evaluation:evaluate_rotowire",
        markdown_ref="data_to_text.report:rotowire_markdown",
    ),
    Benchmark(
        name="quintd",
        summary="quintd-1: the figure verdict on crowd-marked Incorrect and Not checkable spans in LLM descriptions "
        "of records, per domain (BA per figure and output)",
        evaluate_ref="data_to_text.evaluation:evaluate_quintd",
        markdown_ref="data_to_text.report:quintd_markdown",
    ),
    Benchmark(
        name="tabfact",
        summary="TabFact: entailed statements vs their refuted number rewrites against the table (BA per claim)",
        evaluate_ref="data_to_text.evaluation:evaluate_tabfact",
        markdown_ref="data_to_text.report:tabfact_markdown",
    ),
])


def get_benchmark(name: str) -> Benchmark:
    """``registry[name]``; an unknown name raises `UnknownBenchmarkError` listing the known ones."""
    return registry[name]
