"""Rescaling with a random-pair baseline, as bert-score's `rescale_with_baseline`.

Token-level scores sit in a narrow band (BERTScore F1 mostly 0.8-0.95), so their differences are hard to
read and to compare across models. bert-score's remedy, kept here: b = the mean score of randomly paired
(unrelated) sentences, and each score s becomes (s - b) / (1 - b). Unrelated pairs then average 0 and
identical texts score 1. The map is increasing, so correlations, rankings and the reference kept among several
do not move. NASH, S_text and the baseline are rescaled, each with its own b for F, precision and recall;
S_num (already 0 for unrelated numbers) and alpha are not, so a rescaled NASH is no longer
alpha S_text + (1 - alpha) S_num of rescaled parts: that identity holds before rescaling (`NASH.explain`).

The recipe (`fit_rescale_baseline`, `nash fit-baseline`):

1. read the corpus; keep its distinct non-blank sentences, sorted (file order and repeats do not matter);
2. draw `n_pairs` pairs (i, j) of different sentences with numpy's `default_rng(seed)` (`random_pairs`);
3. score them with the scorer's own options, rescaling off;
4. b = the mean of each rescaled field over those pairs.

The file records b, the options that determine scores (model, backend, layer; tau, IDF, reader...) and the
recipe (corpus files with their sha256, sentences, pairs, seed). A baseline of another model, backend or
layer is refused; one fitted under other scoring options is used with a warning (baseline and S_text do
not depend on tau or alpha, NASH's b does). Baselines for the embedded model ship in `resources/rescale/`.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np

from ..common.atomic import write_text
from ..common.blank import is_blank
from ..common.defaults import BASELINE_PAIRS
from ..common.io import InputFileError, read_utf8
from ..common.validation import check_texts
from .threshold import check_n_pairs, check_seed, random_pairs

Output = TypeVar("Output")  # a NASHOutput (not imported: output.py imports this module)


class Scorer(Protocol):
    """What fitting needs of a `NASH` scorer (not imported: scorer.py imports this module)."""

    def with_options(self, **changes: Any) -> Scorer: ...

    def score(self, predictions: Sequence[str], references: Sequence[str], show_progress: bool = False) -> Any: ...

RESCALED_FIELDS = (
    "nash", "nash_precision", "nash_recall", "text", "text_precision", "text_recall",
    "baseline", "baseline_precision", "baseline_recall",
)
MODEL_KEYS = ("model", "backend", "num_layers")  # another model's b is meaningless: refused
# Options that shift b: a warning.
OPTION_KEYS = ("dtype", "threshold", "idf", "numbers", "comparisons", "bertscore_idf", "text_channel")
# What a baseline file from before a key existed was fitted with (the text channel: two passes, before 0.4).
LEGACY_OPTIONS = {"text_channel": "two-pass"}
MIN_BASELINE_SENTENCES = 20
DEFAULT_BASELINE_PAIRS = BASELINE_PAIRS
# How close to 1 a fitted b may come. The scores are float32 underneath: a text against itself scores 1 - 6e-8, not
# always 1, depending on the kernels. Within 1e-4 of 1, (s - b) / (1 - b) would magnify that noise over 1,000 times.
MIN_HEADROOM = 1e-4
SHIPPED = "rescale"  # folder of nash_metric/resources holding the shipped baselines
FORMAT = "nash-metric rescale baseline"


@dataclass(frozen=True)
class RescaleBaseline:
    """b per rescaled field, with the options it was fitted under and how."""

    values: Mapping[str, float]
    fitted: Mapping[str, Any]  # the option keys (`fitted_options`) of the scorer that fitted it
    recipe: Mapping[str, Any] = field(default_factory=dict)  # corpus, sentences, pairs, seed, version
    source: str = "given"  # where it was read from

    def __post_init__(self) -> None:
        missing = [name for name in RESCALED_FIELDS if name not in self.values]
        if missing:
            raise ValueError(f"rescale baseline {self.source}: no value for {missing}")
        for name in RESCALED_FIELDS:
            b = self.values[name]
            if isinstance(b, bool) or not isinstance(b, (int, float)) or not math.isfinite(b) or not -1 <= b < 1:
                raise ValueError(f"rescale baseline {self.source}: {name} = {b!r}; a random-pair mean must be a "
                                 "finite number in [-1, 1) (at 1, (s - b) / (1 - b) divides by zero)")

    @property
    def digest(self) -> str:
        """Names the baseline by its values and fitting options (in the hashcode of rescaled results)."""
        content = json.dumps({"values": dict(self.values), "fitted": dict(self.fitted)}, sort_keys=True)
        return hashlib.sha256(content.encode()).hexdigest()[:12]

    def apply(self, out: Output) -> Output:
        """`out` with its nash, text and baseline fields rescaled: (s - b) / (1 - b)."""
        changed = {name: (getattr(out, name) - self.values[name]) / (1 - self.values[name])
                   for name in RESCALED_FIELDS if getattr(out, name) is not None}  # the baseline: when asked for
        return replace(out, **changed, rescale=self)

    def undo(self, out: Output) -> Output:
        """The scores before rescaling: s (1 - b) + b."""
        changed = {name: getattr(out, name) * (1 - self.values[name]) + self.values[name] for name in RESCALED_FIELDS
                   if getattr(out, name) is not None}
        return replace(out, **changed, rescale=None)

    def check(self, config: Mapping[str, Any], options_fixed: bool = True) -> None:
        """Refuse a baseline of another model, backend or layer; warn when other options differ.

        `options_fixed` False: tau or the IDF are still to be fixed by a corpus, so only the model is checked.
        """
        mine = fitted_options(config)
        wrong = {k: (self.fitted.get(k), mine[k]) for k in MODEL_KEYS if self.fitted.get(k) != mine[k]}
        if wrong:
            said = ", ".join(f"{k}={fitted!r} (this scorer: {now!r})" for k, (fitted, now) in wrong.items())
            raise ValueError(f"rescale baseline {self.source} was fitted for {said}; fit one for this scorer with "
                             f"`nash fit-baseline --model {mine['model']} --backend {mine['backend']} --num-layers "
                             f"{mine['num_layers']} --corpus FILE --output FILE` and pass it as baseline_path")
        if not options_fixed:
            return
        fitted = {k: self.fitted.get(k, LEGACY_OPTIONS.get(k)) for k in OPTION_KEYS}
        differ = [f"{k}={fitted[k]!r} (this scorer: {mine[k]!r})" for k in OPTION_KEYS if fitted[k] != mine[k]]
        if differ:
            warnings.warn(f"rescale baseline {self.source} was fitted with {', '.join(differ)}: the baseline and "
                          "S_text rescale exactly, NASH's offset is approximate; fit a baseline with this scorer's "
                          "options (`nash fit-baseline`) for an exact one", stacklevel=4)

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "values": dict(self.values), "fitted": dict(self.fitted),
                "recipe": dict(self.recipe), "digest": self.digest}

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        write_text(path, json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n")
        return path

    @classmethod
    def load(cls, path: str | Path, source: str | None = None) -> RescaleBaseline:
        """A baseline file written by `save` (`nash fit-baseline`); a clear error for anything else."""
        path = Path(path)
        try:
            data = json.loads(read_utf8(path))  # a folder, binary or UTF-16 file named as such
        except FileNotFoundError:
            raise FileNotFoundError(f"rescale baseline {path}: no such file") from None
        except (InputFileError, IsADirectoryError) as exc:
            raise ValueError(f"rescale baseline {exc}; expected a JSON file written by `nash fit-baseline`") from None
        except json.JSONDecodeError as exc:
            raise ValueError(f"rescale baseline {path}: not a JSON file written by `nash fit-baseline` "
                             f"({exc})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"rescale baseline {path}: not a file written by `nash fit-baseline` (no "
                             f"'format': {FORMAT!r})")
        for key in ("values", "fitted"):
            if not isinstance(data.get(key), dict):
                raise ValueError(f"rescale baseline {path}: field {key!r} must be an object")
        return cls(data["values"], data["fitted"], data.get("recipe", {}), source or str(path))


def fitted_options(config: Mapping[str, Any]) -> dict[str, Any]:
    """What a baseline is keyed by, read off a scorer's config echo.

    tau is the value, or "auto" for a per-corpus tau; the IDF is "references" for per-corpus tables, else the
    table's digest: a per-corpus choice matches itself whatever corpus fixed it.
    """
    auto = str(config.get("threshold_source", "")).startswith("auto")
    threshold = config["threshold"]
    return {
        **{k: config[k] for k in ("model", "backend", "num_layers", "dtype", "numbers", "comparisons",
                                  "bertscore_idf", "text_channel")},
        "threshold": "auto" if auto or threshold == "auto" else round(float(threshold), 6),
        "idf": "references" if config.get("idf_source") == "references" else config["idf"],
    }


def shipped_baselines() -> list[Path]:
    folder = resources.files("nash_metric").joinpath("resources", SHIPPED)
    return sorted(Path(str(p)) for p in folder.iterdir() if p.name.endswith(".json"))


@functools.cache
def _loaded_shipped() -> tuple[RescaleBaseline, ...]:
    """The shipped baselines, read once per process (every `with_options` of a rescaling scorer looks them up)."""
    return tuple(RescaleBaseline.load(path, source=f"shipped:{path.name}") for path in shipped_baselines())


def find_shipped(config: Mapping[str, Any]) -> RescaleBaseline | None:
    """The shipped baseline fitted for this scorer's model, backend and layer, if there is one."""
    mine = fitted_options(config)
    return next((b for b in _loaded_shipped() if all(b.fitted.get(k) == mine[k] for k in MODEL_KEYS)), None)


def load_rescale(rescale_with_baseline: bool, baseline_path: str | None, config: Mapping[str, Any]
                 ) -> RescaleBaseline | None:
    """The baseline the options ask for: a file, the shipped one for this model, or None (off)."""
    if not rescale_with_baseline:
        return None
    baseline = RescaleBaseline.load(baseline_path) if baseline_path is not None else find_shipped(config)
    if baseline is None:
        shipped = ", ".join(p.name for p in shipped_baselines())
        raise ValueError(f"rescale_with_baseline: no baseline ships for model={config['model']!r} backend="
                         f"{config['backend']!r} num_layers={config['num_layers']} (shipped: {shipped}); fit one "
                         f"with `nash fit-baseline --model {config['model']} --backend {config['backend']} --corpus "
                         "FILE --output FILE` and pass it as baseline_path (--baseline-path)")
    baseline.check(config, options_fixed=False)
    return baseline


def fit_rescale_baseline(
    scorer: Scorer,
    sentences: Sequence[str],
    n_pairs: int = DEFAULT_BASELINE_PAIRS,
    seed: int = 0,
    corpus: Sequence[Mapping[str, Any]] = (),
    show_progress: bool = False,
) -> RescaleBaseline:
    """b = the mean of each rescaled field over `n_pairs` random pairs of distinct sentences (module docstring).

    `corpus` describes where the sentences came from (file, sha256, count), for the record.
    """
    n_pairs, seed = check_n_pairs(n_pairs), check_seed(seed)
    # The one input contract (None or a non-string is refused, not dropped); blank texts are no sentences to pair
    # (each would score 0 by rule, not by meaning: blank.py), so the recipe keeps the non-blank ones.
    texts = sorted({t for t in check_texts(sentences, "sentences") if not is_blank(t)})
    if len(texts) < MIN_BASELINE_SENTENCES:
        raise ValueError(f"fitting a rescale baseline needs at least {MIN_BASELINE_SENTENCES} distinct non-blank "
                         f"sentences (random pairs of unrelated texts); got {len(texts)}")
    first, second = random_pairs(len(texts), n_pairs, seed)
    raw = scorer.with_options(rescale_with_baseline=False, baseline_path=None, baseline=True)
    preds, refs = [texts[i] for i in first], [texts[j] for j in second]
    out = raw.score(preds, refs, show_progress=show_progress)
    values = {name: float(np.mean(getattr(out, name))) for name in RESCALED_FIELDS}
    alike = [name for name, b in values.items() if 1 - b < MIN_HEADROOM]
    if alike:
        raise ValueError(f"{n_pairs} random pairs of {len(texts)} sentences average 1 on {', '.join(alike)}: the "
                         "sentences are alike (the text channel compares them with their numbers masked), so there "
                         "is nothing to rescale against; fit on a varied corpus")
    from .._version import __version__

    return RescaleBaseline(
        values=values,
        fitted=fitted_options(out.config),
        recipe={"corpus": list(corpus), "sentences": len(texts), "pairs": n_pairs, "seed": seed,
                "nash_metric": __version__, "transformers": out.config["transformers"]},
        source="fitted",
    )


def file_record(path: str | Path, sentences: int) -> dict[str, Any]:
    """A corpus file as the recipe records it: name, sha256 of its bytes, sentences read."""
    path = Path(path)
    return {"file": path.name, "sha256": hashlib.sha256(path.read_bytes()).hexdigest(), "sentences": sentences}
