"""quintd-1 (Kasner & Dušek, 2024): LLM descriptions of structured records, with crowd error spans.

**Data** (a folder): ``outputs/<domain>/<model>.json`` (an object whose ``generated`` lists, per record, ``in``: the
prompt, which holds the record as JSON, a Python literal or Markdown inside a fenced block, and ``out``: the text)
and ``annotations/human/*.jsonl`` (one annotated output a line: ``dataset``, ``model``, ``table_idx``, and
``annotations``, a list of spans with ``type`` 0 Incorrect, 1 Not checkable, 2 Misleading, 3 Other, ``text`` and
``start``, a character offset into ``out``). A malformed file or line fails as ``FILE:LINE: ...``, naming the field;
a span whose ``text`` is not the output's text at ``start`` too.

**Labels.** Only outputs with a human annotation record count. The wrong spans of an output are its spans of the
types ``wrong`` names (by default Incorrect and Not checkable: a figure the data contradicts, or one it states
nowhere, as the verdict's unsupported means); with several records for one output, the union of theirs. The
source is the whole prompt, the prediction the output.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .defaults import DEFAULT_WRONG, SPAN_TYPES, SpanType
from .scoring import Text
from .spans import Span

OUTPUTS, ANNOTATIONS = "outputs", Path("annotations") / "human"


@dataclass(frozen=True)
class Output:
    """One generated output: its domain, model and record index, prompt and text; its wrong spans and how many
    annotation records it has."""

    domain: str
    model: str
    index: int
    prompt: str
    text: str
    wrong: tuple[Span, ...] = ()
    records: int = 0


def _json_file(path: Path) -> Any:
    from ...common.io import InputFileError, read_text

    try:
        return json.loads(read_text(path))
    except json.JSONDecodeError as exc:
        raise InputFileError(path, exc.lineno, f"not valid JSON: {exc.msg} (column {exc.colno})") from None


def _outputs_of(path: Path) -> list[tuple[str, str]]:
    """The (prompt, text) of each output of one model's file."""
    from ...common.io import InputFileError

    payload = _json_file(path)
    domain, model = path.parent.name, path.stem
    if not isinstance(payload, dict) or not isinstance(payload.get("generated"), list):
        raise InputFileError(path, None, "expected an object with a list 'generated'")
    for name, expected in (("dataset", domain), ("model", model)):
        if name in payload and payload[name] != expected:
            raise InputFileError(path, None, f"field {name!r} is {payload[name]!r}, but the file's path says "
                                             f"{expected!r}")
    out = []
    for k, item in enumerate(payload["generated"]):
        for name in ("in", "out"):
            if not isinstance(item, dict) or not isinstance(item.get(name), str):
                raise InputFileError(path, None, f"generated[{k}]: field {name!r} must be a string")
        out.append((item["in"], item["out"]))
    return out


def read_outputs(folder: Path) -> tuple[dict[tuple[str, str], list[tuple[str, str]]], dict[str, str]]:
    """Every model's outputs by (domain, model), and the sha256 of each file."""
    files = sorted((folder / OUTPUTS).glob("*/*.json"))
    if not files:
        raise FileNotFoundError(f"{folder / OUTPUTS}: no <domain>/<model>.json files")
    outputs = {(p.parent.name, p.stem): _outputs_of(p) for p in files}
    return outputs, {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in files}


def _span(path: Path, number: int, k: int, raw: Any, text: str) -> tuple[int, Span]:
    """One annotation's type and its span in ``text``, checked."""
    from ...common.io import InputFileError

    def fail(message: str) -> InputFileError:
        return InputFileError(path, number, f"annotations[{k}]: {message}")

    if not isinstance(raw, dict):
        raise fail(f"expected an object with type, text and start, got {type(raw).__name__}")
    for name, kind in (("type", int), ("text", str), ("start", int)):
        if isinstance(raw.get(name), bool) or not isinstance(raw.get(name), kind):
            raise fail(f"field {name!r} must be {'a string' if kind is str else 'an integer'}, got "
                       f"{raw.get(name)!r:.40}")
    start, end = raw["start"], raw["start"] + len(raw["text"])
    if start < 0 or text[start:end] != raw["text"]:
        raise fail(f"field 'text' {raw['text']!r:.40} is not the output's text at start {start}: "
                   f"{text[start:end]!r:.40}")
    return raw["type"], (start, end)


def _annotation(path: Path, number: int, record: dict[str, Any], outputs: dict[tuple[str, str], list[tuple[str, str]]],
                wrong: frozenset[int]) -> tuple[tuple[str, str, int], list[Span]]:
    """The output a record annotates and its spans of the type codes ``wrong``."""
    from ...common.io import InputFileError
    from ...corpus.records import string_field

    domain, model = (string_field(path, number, record, name) for name in ("dataset", "model"))
    index = record.get("table_idx")
    if isinstance(index, bool) or not isinstance(index, int):
        raise InputFileError(path, number, f"field 'table_idx' must be an integer, got {index!r}")
    if (domain, model) not in outputs:
        raise InputFileError(path, number, f"no outputs for dataset {domain!r}, model {model!r} "
                                           f"({OUTPUTS}/{domain}/{model}.json)")
    if not 0 <= index < len(outputs[domain, model]):
        raise InputFileError(path, number, f"field 'table_idx' {index} is outside the "
                                           f"{len(outputs[domain, model])} outputs of {domain}/{model}")
    spans = record.get("annotations")
    if not isinstance(spans, list):
        raise InputFileError(path, number, f"field 'annotations' must be a list, got {type(spans).__name__}")
    text = outputs[domain, model][index][1]
    typed = [_span(path, number, k, raw, text) for k, raw in enumerate(spans)]
    return (domain, model, index), [span for kind, span in typed if kind in wrong]


def read_quintd(folder: str | Path, limit: int | None = None,
                wrong: tuple[SpanType, ...] = DEFAULT_WRONG) -> tuple[dict[str, Any], list[Output]]:
    """The annotated outputs of a quintd folder (``limit``: the first N of each domain, by model and index; every
    line is checked; ``wrong``: the span types that mark a wrong figure), in domain, model and index order, and
    what was read."""
    from ...common.io import read_text
    from ...corpus.records import jsonl_records, text_lines

    unknown = sorted(set(wrong) - set(SPAN_TYPES))
    if unknown or not wrong:
        raise ValueError(f"wrong must name one or more of {', '.join(SPAN_TYPES)}; got {list(wrong)!r}")
    codes = frozenset(SPAN_TYPES.index(t) for t in wrong)
    folder = Path(folder)
    outputs, shas = read_outputs(folder)
    files = sorted((folder / ANNOTATIONS).glob("*.jsonl"))
    if not files:
        raise FileNotFoundError(f"{folder / ANNOTATIONS}: no *.jsonl annotation files")
    spans_of: dict[tuple[str, str, int], set[Span]] = {}
    records: dict[tuple[str, str, int], int] = {}
    for path in files:
        text = read_text(path)
        shas[path.relative_to(folder).as_posix()] = hashlib.sha256(text.encode("utf-8")).hexdigest()
        for number, record in jsonl_records(path, text_lines(text)):
            key, spans = _annotation(path, number, record, outputs, codes)
            spans_of.setdefault(key, set()).update(spans)
            records[key] = records.get(key, 0) + 1
    annotated = [Output(d, m, i, *outputs[d, m][i], tuple(sorted(spans_of[d, m, i])), records[d, m, i])
                 for d, m, i in sorted(records)]
    kept: list[Output] = []
    for domain in dict.fromkeys(o.domain for o in annotated):
        of_domain = [o for o in annotated if o.domain == domain]
        kept += of_domain[:limit] if limit is not None else of_domain
    info = {"path": str(folder), "sha256": shas, "outputs": sum(len(v) for v in outputs.values()),
            "wrong_span_types": list(wrong), "annotated_outputs": len(annotated), "outputs_used": len(kept),
            "annotation_records": sum(records.values()),
            "outputs_with_several_records": sum(1 for n in records.values() if n > 1)}
    return info, kept


def quintd_texts(outputs: list[Output]) -> list[Text]:
    """Each annotated output as a text to score: the output against its whole prompt, grouped by domain."""
    return [Text(f"{o.domain}/{o.model}/{o.index}", o.domain, o.text, o.prompt, o.wrong) for o in outputs]
