"""Result tables (Markdown + JSON), config echo and plots shared by every benchmark."""

from __future__ import annotations

import json
import math
import platform
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .._version import __version__


def format_cell(value: Any, digits: int = 3) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return "nan" if math.isnan(value) else f"{value:.{digits}f}"
    return str(value)


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[Any]], digits: int = 3) -> str:
    """A GitHub-flavoured Markdown table; floats are rounded to `digits`."""
    cells = [[format_cell(v, digits) for v in row] for row in rows]
    widths = [max(len(str(h)), *(len(r[i]) for r in cells)) if cells else len(str(h)) for i, h in enumerate(headers)]
    line = lambda parts: "| " + " | ".join(p.ljust(w) for p, w in zip(parts, widths)) + " |"  # noqa: E731
    out = [line([str(h) for h in headers]), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out.extend(line(r) for r in cells)
    return "\n".join(out)


def relative_change(base: float, new: float) -> float | None:
    """Relative change in percent, None where the base is 0."""
    return None if base == 0 else 100.0 * (new - base) / abs(base)


def environment() -> dict[str, Any]:
    import torch

    return {
        "nash_metric": __version__,
        "python": platform.python_version(),
        "torch": torch.__version__,
        "device": "cuda:" + torch.cuda.get_device_name(0) if torch.cuda.is_available() else "cpu",
        "machine": platform.machine(),
    }


def result_envelope(benchmark: str, config: dict[str, Any], results: Any, **extra: Any) -> dict[str, Any]:
    """Everything needed to reproduce a result: benchmark, scorer config (with hashcode), environment."""
    return {"benchmark": benchmark, "config": config, "environment": environment(), **extra, "results": results}


def write_json(path: str | Path, payload: Any) -> Path:
    """`payload` as indented JSON (parents created), written whole or not at all (`atomic`)."""
    from .atomic import write_text

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_text(path, json.dumps(payload, indent=2, ensure_ascii=False, default=_json_default) + "\n")


def _json_default(obj: Any) -> Any:
    import numpy as np

    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, Path):
        return str(obj)
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


def save_figure(fig: Any, path: str | Path, dpi: int = 150) -> Path:
    """Write a matplotlib figure (parents created) and free it."""
    import matplotlib.pyplot as plt

    from .atomic import replacing

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    with replacing(path) as partial:
        fig.savefig(partial, dpi=dpi, format=path.suffix.lower().lstrip(".") or None)
    plt.close(fig)
    return path
