"""Deep imports of 0.2.0 that moved into the package's rooms: they keep working for one release, with a warning.

`import nash_metric.scorer` style imports of the public face never moved; the modules below did (CHANGELOG.md).
An old name imports the module at its new place (the same module object, so a patch through either name is
seen by both) and warns once with `DeprecationWarning`. Removed in 0.4.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType
from typing import Any

REMOVED_IN = "0.4"
# old module (under nash_metric) -> its place since 0.3
MOVED = {
    **{name: f"common.{name}" for name in ("io", "validation", "bootstrap", "protocols", "reporting", "citations",
                                           "batching", "blank")},
    "comparisons": "numbers.comparisons",
    "models": "backbone.models", "encoders": "backbone.encoders", "similarity": "backbone.similarity",
    "baselines": "backbone.bertscore_package", "space.registry": "backbone.cache",
    "rescale": "calibration.rescale",
    **{name: f"pipeline.{name}" for name in ("pool", "alignment", "support", "weighting", "output")},
    **{name: f"reports.{name}" for name in ("explanation", "explain_text", "plot", "method")},
    "pair_files": "corpus.pair_files", "textfile": "corpus.textfile", "rows": "corpus.rows",
    "corpus_summary": "corpus.summary", "distributed": "corpus.distributed",
    "export": "ecosystem.export",
    "benchmarks.summedits_defaults": "benchmarks.summedits.defaults",
}
# old modules whose name is now a package: their names are read from the package (`moved_name`)
BECAME_PACKAGES = {
    "calibration": ("calibration.threshold",), "corpus": ("corpus.scoring",),
    "benchmarks.summedits": tuple(f"benchmarks.summedits.{name}" for name in ("data", "metrics", "evaluation",
                                                                             "report")),
}


# names that left a module which kept its name: module -> {name: its module since 0.3}
NAMES_MOVED = {
    "nash_metric.scorer": {"RESOLVERS": "pipeline.echo", "Resolver": "pipeline.echo",
                           "calibration_sample": "calibration.threshold", "AUTO_CALIBRATION_TEXTS": "common.defaults",
                           "release_freed_memory": "common.memory", "torch_device": "backbone.encoders"},
    "nash_metric.pipeline.weighting": {"mix": "pipeline.mixing"},
}


def _warn(old: str, new: str) -> None:
    warnings.warn(f"nash_metric.{old} moved to nash_metric.{new}; the old name goes in {REMOVED_IN}",
                  DeprecationWarning, stacklevel=3)


class _Alias(importlib.abc.Loader):
    def __init__(self, old: str, new: str) -> None:
        self.old, self.new = old, new

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        _warn(self.old, self.new)
        return importlib.import_module(f"nash_metric.{self.new}")

    def exec_module(self, module: ModuleType) -> None:  # already executed under its new name
        pass


class MovedFinder(importlib.abc.MetaPathFinder):
    """Finds `nash_metric.<old>` for each entry of `MOVED` and hands back the module at its new place."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        old = fullname.partition("nash_metric.")[2] if fullname.startswith("nash_metric.") else None
        if old not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Alias(old, MOVED[old]))


def install() -> None:
    if not any(isinstance(finder, MovedFinder) for finder in sys.meta_path):
        sys.meta_path.append(MovedFinder())


def moved_name(module: str, name: str) -> Any:
    """`module.name` for a name `module` held in 0.2.0 and another module holds now: a kept module's name listed in
    `NAMES_MOVED`, or any name of a module that became a package (`BECAME_PACKAGES`). Each kept module's and new
    package's PEP 562 `__getattr__` calls this."""
    old = module.partition("nash_metric.")[2]
    if name in NAMES_MOVED.get(module, {}):
        candidates: tuple[str, ...] = (NAMES_MOVED[module][name],)
    else:  # never a dunder: `hasattr(package, "__all__")` and the like must not import the submodules
        candidates = () if name.startswith("__") else BECAME_PACKAGES.get(old, ())
    for new in candidates:
        holder = importlib.import_module(f"nash_metric.{new}")
        if hasattr(holder, name):
            _warn(f"{old}.{name}", f"{new}.{name}")
            return getattr(holder, name)
    raise AttributeError(f"module {module!r} has no attribute {name!r}")
