"""mkdocs hook (mkdocs.yml `hooks:`): the reference's table of every NASH option, generated from `NASHConfig`.

docs/reference.md holds the marker `OPTIONS_MARKER`; at build time it becomes a Markdown table with one row per
field of `NASHConfig`: its name, default, whether it can change a score, and the doc its `option(...)` declares.
The table is written from the dataclass, so it cannot drift from it (tests/unit/test_docs.py checks it).
"""

from __future__ import annotations

import html
import sys
from dataclasses import MISSING, fields
from pathlib import Path
from typing import Any

OPTIONS_MARKER = "<!-- nash-options-table -->"


def options_table() -> str:
    """The Markdown table of every `NASHConfig` option, in declaration order."""
    try:
        from nash_metric.config import NASHConfig
    except ImportError:  # the docs built from a checkout where the package is not installed
        sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
        from nash_metric.config import NASHConfig

    rows = ["| Option | Default | Can change a score | Description |", "| --- | --- | --- | --- |"]
    for f in fields(NASHConfig):
        default = f.default if f.default is not MISSING else None
        scores = "yes" if f.metadata["scores"] else "no"
        rows.append(f"| `{f.name}` | `{default!r}` | {scores} | {_cell(f.metadata['doc'])} |")
    return "\n".join(rows)


def _cell(text: str) -> str:
    """A doc as one table cell: no line breaks, `|` escaped, `<` and `>` outside code spans as entities."""
    parts = text.replace("\n", " ").split("`")
    # even parts are prose, odd parts code spans (kept verbatim, Markdown escapes their content itself)
    return "`".join(part if i % 2 else html.escape(part, quote=False) for i, part in enumerate(parts)).replace(
        "|", "\\|")


def on_page_markdown(markdown: str, page: Any = None, **_: Any) -> str:
    """Replace the marker of a page (the reference) with the options table."""
    return markdown.replace(OPTIONS_MARKER, options_table()) if OPTIONS_MARKER in markdown else markdown
