"""What one Space serves and how much one request may take: the operator's knobs and the fixed content limits.

Free of gradio, so the CLI can build a `SpaceLimits` from its flags and a Hub Space from its variables
(`SpaceLimits.from_env`) without importing the app.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, fields

# Fixed per-request content limits (the same in every deployment; the operator knobs are in SpaceLimits).
MAX_CHARS = 2_000  # per text, in every tab (the Check figures tab's source excepted)
MAX_SOURCE_CHARS = 40_000  # of the Check figures tab's source checked in one request (`source_part`): a real filing
# excerpt with its tables (about 30 s on 2 CPU cores with all-MiniLM-L6-v2; a slower request is refused up front:
# budget.SourceSpeed); a longer source is checked part by part, and the page says which part
MAX_SOURCE_INPUT = 5_000_000  # characters of a source the tab takes at all (a 5 MB filing); `nash check` has no limit
MAX_ROWS = 500  # pairs per uploaded file
MAX_CANDIDATES = 20  # Rank tab
MAX_MODEL_CHARS = 200  # the Model box
MAX_DATA_RECORDS = 200  # records of a data source (JSON, JSON Lines) shown in the Check figures tab's data view
MAX_DATA_COLUMNS = 40  # key paths (columns) shown per data table there
MAX_DATA_CELL_CHARS = 80  # characters of one value, row label or key path shown there (longer: cut, with …)

# SpaceLimits field -> environment variable (Space variables on the Hub).
ENV_NAMES = {
    "allowed_models": "NASH_SPACE_ALLOW_MODELS",
    "allow_any_model": "NASH_SPACE_ALLOW_ANY_MODEL",
    "max_loaded_models": "NASH_SPACE_MAX_MODELS",
    "request_seconds": "NASH_SPACE_REQUEST_SECONDS",
    "concurrency": "NASH_SPACE_CONCURRENCY",
    "max_queue": "NASH_SPACE_MAX_QUEUE",
    "max_file_bytes": "NASH_SPACE_MAX_FILE_BYTES",
    "download_seconds": "NASH_SPACE_DOWNLOAD_SECONDS",
}
_TRUE, _FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off", ""}


@dataclass(frozen=True)
class SpaceLimits:
    """The operator's limits for one served Space (see `spaces_app/README.md` for what each one protects)."""

    allowed_models: tuple[str, ...] = ()  # extra hub ids / local paths the operator allows
    allow_any_model: bool = False  # any hub id or path (trusted/local use only)
    max_loaded_models: int = 2
    request_seconds: float = 60.0
    concurrency: int = 1  # concurrent runs per event
    max_queue: int = 32
    max_file_bytes: int = 1_000_000
    download_seconds: float = 3600.0  # a Batch download (and an upload) is removed from the server after this

    @property
    def delete_cache(self) -> tuple[int, int]:
        """gradio's ``delete_cache`` (how often to look, the age a file is removed at), in whole seconds."""
        age = max(1, math.ceil(self.download_seconds))
        return max(1, min(600, age // 4)), age

    def __post_init__(self) -> None:
        models = self.allowed_models
        if isinstance(models, str) or not all(isinstance(m, str) and m.strip() for m in models):
            raise ValueError(f"allowed_models must be a sequence of non-empty model ids or paths, got {models!r}")
        object.__setattr__(self, "allowed_models", tuple(m.strip() for m in models))
        if not isinstance(self.allow_any_model, bool):
            raise ValueError(f"allow_any_model must be True or False, got {self.allow_any_model!r}")
        for name in ("max_loaded_models", "concurrency", "max_queue", "max_file_bytes"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        for name in ("request_seconds", "download_seconds"):
            seconds = getattr(self, name)
            if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds) \
                    or seconds <= 0:
                raise ValueError(f"{name} must be a positive number of seconds, got {seconds!r}")
            object.__setattr__(self, name, float(seconds))

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> SpaceLimits:
        """Limits from `NASH_SPACE_*` variables (unset ones keep their defaults); a bad value names its variable."""
        env = os.environ if environ is None else environ
        values: dict[str, object] = {}
        for field in fields(cls):
            var = ENV_NAMES[field.name]
            raw = env.get(var)
            if raw is None:
                continue
            try:
                values[field.name] = _parse(field.name, raw.strip())
            except ValueError as err:
                raise ValueError(f"{var}={raw!r}: {err}") from None
        try:
            return cls(**values)  # type: ignore[arg-type]
        except ValueError as err:
            name = str(err).split(" ", 1)[0]
            raise ValueError(f"{ENV_NAMES.get(name, name)}: {err}") from None


def _parse(name: str, raw: str) -> object:
    if name == "allowed_models":
        return tuple(m.strip() for m in raw.split(",") if m.strip())
    if name == "allow_any_model":
        if raw.lower() not in _TRUE | _FALSE:
            raise ValueError("expected 1 or 0 (true/false)")
        return raw.lower() in _TRUE
    if name in ("request_seconds", "download_seconds"):
        try:
            return float(raw)
        except ValueError:
            raise ValueError("expected a number of seconds") from None
    try:
        return int(raw.replace("_", ""))
    except ValueError:
        raise ValueError("expected an integer") from None


def format_bytes(n: int) -> str:
    """A size as the page states it: "1 MB", "1.6 kB", "512 bytes"."""
    if n >= 1_000_000:
        return f"{round(n / 1_000_000, 1):g} MB"
    return f"{round(n / 1000, 1):g} kB" if n >= 1000 else f"{n} bytes"


def _duration(seconds: float) -> str:
    """ "1 hour", "90 minutes", "45 s"."""
    if seconds >= 3600 and seconds % 3600 == 0:
        return f"{seconds / 3600:g} hour{'s' if seconds != 3600 else ''}"
    return f"{seconds / 60:g} minutes" if seconds >= 120 and seconds % 60 == 0 else f"{seconds:g} s"


def limits_lines(limits: SpaceLimits, default_model: str) -> list[str]:
    """The limits as Markdown bullet texts, for the UI (the README states the defaults)."""
    if limits.allow_any_model:
        models = "any hub id or server path (this server is configured for trusted use)"
    else:
        extra = ", ".join(f"`{m}`" for m in limits.allowed_models)
        models = f"`{default_model}` (default){', ' + extra if extra else ''}, and hub models already in this " \
                 "server's Hugging Face cache"
    return [
        f"**Models**: {models}; at most {limits.max_loaded_models} kept loaded.",
        f"**Time**: {limits.request_seconds:g} s per request; a batch stops there and returns the pairs scored "
        "so far.",
        f"**Uploads**: at most {format_bytes(limits.max_file_bytes)} and {MAX_ROWS} pairs per file.",
        f"**Text**: at most {MAX_CHARS:,} characters per text and {MAX_CANDIDATES} candidates in Rank; a source "
        f"in Check figures is checked {MAX_SOURCE_CHARS:,} characters at a time (a longer one part by part, the "
        "page says which), if this server checks a part within the time allowed.",
        f"**Queue**: {limits.concurrency} request(s) at a time per action, at most {limits.max_queue} waiting.",
        f"**Downloads**: a Batch CSV (and an upload) is removed from the server {_duration(limits.download_seconds)} "
        "after it was written.",
    ]


@dataclass(frozen=True)
class SourcePart:
    """The part of a Check figures source one request checks: `source[start:end]` of its `total` characters."""

    text: str
    start: int  # 0-based offset of the part in the source
    end: int
    total: int
    lines_before: int  # newlines before the part: its line 1 is the source's line `lines_before + 1`

    @property
    def cut(self) -> bool:
        """Whether the source holds more than this part (a figure stated only elsewhere was not looked for)."""
        return self.start > 0 or self.end < self.total

    @property
    def next_first(self) -> int | None:
        """The 1-based character the next part starts at, or None when this part runs to the end."""
        return self.end + 1 if self.end < self.total else None

    def notice(self) -> str:
        """What the page says of a cut source: the characters checked, and how to check the rest."""
        then = (f'Check the rest with "Check the next part" (from character {self.next_first:,}), or the whole '
                if self.next_first else 'This is the last part ("Check from character" 1 starts again); check the '
                "whole ")
        return (f"Source cut: checked characters {self.start + 1:,}–{self.end:,} of {self.total:,} (this Space "
                f"checks at most {MAX_SOURCE_CHARS:,} characters a request). A figure stated only outside this part "
                f'reads "not in the part checked". {then}source with `nash check --source FILE --text FILE` (no '
                "limit).")


def source_part(source: str, first: int = 1, limit: int = MAX_SOURCE_CHARS) -> SourcePart:
    """The part of `source` one request checks: from its `first` character (1-based) at most `limit` characters,
    ending at a line break (else a space) when there is one in the part's second half, so that no number or table
    row is cut in two. A `first` past the end is a ValueError naming it."""
    total = len(source)
    if isinstance(first, bool) or not isinstance(first, int) or first < 1:
        raise ValueError(f"Check from character must be a whole number from 1, got {first!r}.")
    if first > total:
        raise ValueError(f"Check from character {first:,}: the source has {total:,} characters.")
    start = first - 1
    end = min(total, start + limit)
    if end < total:
        for sep in ("\n", " "):
            at = source.rfind(sep, start + limit // 2, end)
            if at >= 0:
                end = at + 1
                break
    return SourcePart(source[start:end], start, end, total, source.count("\n", 0, start))
