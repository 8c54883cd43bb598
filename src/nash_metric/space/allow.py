"""Which models a Space request may load: the embedded default, the operator's list, and hub models already
cached here; anything else only when the operator allows any model.

The check works on the typed string alone (string comparisons and a look-up in the HF cache by repo id), so a
refused server path is never touched: the message is the same whether or not the path exists.
"""

from __future__ import annotations

import os
import re

from ..backbone.models import EMBEDDED_ALIASES, hub_cached
from ..config import DEFAULT_MODEL
from .limits import ENV_NAMES, MAX_MODEL_CHARS, SpaceLimits

# How an operator allows more (the CLI flags are wired to the same SpaceLimits fields).
ALLOW_HINT = (f"the operator can allow it with {ENV_NAMES['allowed_models']}=<id or path> "
              f"(`nash app --allow-model`), or allow any model with {ENV_NAMES['allow_any_model']}=1 "
              "(`nash app --allow-any-model`, trusted use only)")
_HUB_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*(/[A-Za-z0-9][A-Za-z0-9_.-]*)?")


class ModelRefused(ValueError):
    """A model this Space does not serve."""


def _looks_like_path(name: str) -> bool:
    return name.startswith((".", "/", "~")) or "\\" in name or name.count("/") > 1


def _normal(name: str) -> str:
    """Compare paths by their normal spelling (string operations only: the filesystem is not consulted)."""
    return os.path.normpath(os.path.expanduser(name)) if _looks_like_path(name) else name


def is_cached_hub_model(repo_id: str, cache_dir: str | None = None) -> bool:
    """Whether `repo_id` is a hub id whose config.json is already in the local HF cache (no network)."""
    if not _HUB_ID.fullmatch(repo_id) or ".." in repo_id or "--" in repo_id or len(repo_id) > 96:
        return False
    return hub_cached(repo_id, cache_dir)


def allowed_model(requested: str | None, limits: SpaceLimits, cache_dir: str | None = None) -> str:
    """The model string to load for `requested` (empty: the default), or `ModelRefused` saying how to allow it."""
    name = (requested or "").strip()
    if not name or name in EMBEDDED_ALIASES:
        return DEFAULT_MODEL
    shown = name if len(name) <= 80 else name[:79] + "…"
    if len(name) > MAX_MODEL_CHARS or any(ord(c) < 32 for c in name):
        raise ModelRefused(f"model {shown!r} is not a valid model id or path.")
    if limits.allow_any_model:
        return name
    wanted = _normal(name)
    for entry in limits.allowed_models:
        if _normal(entry) == wanted:
            return entry  # the operator's spelling: one cache key however the user spells it
    if not _looks_like_path(name) and is_cached_hub_model(name, cache_dir) and not os.path.isdir(name):
        return name  # (a hub id shadowed by a same-named folder in the working directory would load that folder)
    raise ModelRefused(f"model {shown!r} is not available on this Space; it serves {DEFAULT_MODEL}, the models its "
                       f"operator allowed and hub models already downloaded here; {ALLOW_HINT}.")
