"""HTML fragments and the stylesheet of the Space. Every piece of user text goes through ``html.escape`` here.

Kept free of gradio and torch so the escaping rules can be unit-tested cheaply.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..context.table_data import find_data
from ..context.tables import Cell, Table, find_tables
from ..numbers import MASK_TOKEN
from ..reports.figure_rows import FigureRow, summary_line
from ..verdicts.spec import (
    DERIVED,
    MARKS,
    RULE_VERDICTS,
    SPEC,
    SPECS,
    VERDICT_COLOURS,
    VERDICT_HELP,
    Rule,
    verdict_title,
)
from .limits import MAX_DATA_CELL_CHARS, MAX_DATA_COLUMNS, MAX_DATA_RECORDS, SourcePart

# The number kinds' badges in Compare: light fills whose hues stay clear of every verdict colour
# (`verdicts.spec.VERDICT_COLOURS`, the one key the verdicts use everywhere), so a fill never reads as a verdict.
KIND_COLOURS = {"percentage": "#fef08a", "monetary": "#c7d2fe", "quantity": "#e2e8f0", "temporal": "#fbcfe8",
                "other": "#e5e5e5"}
_KINDS = ("percentage", "monetary", "quantity", "temporal")
_GREEK = re.compile("[\u0370-\u03ff]+")


def caps(text: object) -> str:
    """Escaped `text` for a label the stylesheet sets in capitals, each Greek letter kept as written: capital α is
    Α, which reads as a Latin A ("MASKED (WHAT Α COUNTS)")."""
    return _GREEK.sub(lambda m: f'<span class="nash-keep-case">{m.group(0)}</span>', esc(text))


def esc(text: object) -> str:
    """Escape text for HTML element content and attribute values alike."""
    return html.escape(str(text), quote=True)


def fmt(x: float | None, digits: int = 4) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    return f"{x:.{digits}f}"


def _fmt_value(value: float | None) -> str:
    if value is None:
        return "unscored"
    return f"{value:g}" if abs(value) < 1e15 else f"{value:.3e}"


def mention_title(m: Mapping[str, Any]) -> str:
    """Hover text of a highlighted number: parsed value, kind, unit, or why it is not scored."""
    if m.get("value") is None:
        return f"not scored: {m.get('error') or 'unparseable'}"
    parts = [f"value {_fmt_value(m['value'])}", str(m.get("kind") or "number")]
    if m.get("unit"):
        parts.append(f"unit {m['unit']}")
    return " · ".join(parts)


def highlight_numbers(
    text: str,
    mentions: Sequence[Mapping[str, Any]],
    side: str,
    verdicts: Mapping[int, Mapping[str, Any]] | None = None,
) -> str:
    """``text`` with each mention wrapped in a badge ``<side><i>`` (matching the heat-map labels).

    ``verdicts`` maps an index into ``mentions`` to its support verdict (``{"verdict": ..., "reference": the
    mention of the reference it was compared with, or None, "derivation": how the reference's numbers give it, or
    None}``): each verdict outlines and underlines it as its spec says (`VERDICT_LINES`, in its colour), writes its
    mark beside it (`VerdictSpec.marked`: all but ✓), and gives it a ``data-verdict`` attribute and a line in its
    tooltip (`verdict_title`: with the derivation, for a computed figure or an unsupported one's closest).
    """
    verdicts = verdicts or {}
    out: list[str] = []
    pos = 0
    order = sorted(range(len(mentions)), key=lambda k: int(mentions[k]["start"]))
    for i, k in enumerate(order, start=1):
        m = mentions[k]
        start, end = int(m["start"]), int(m["end"])
        if start < pos or end > len(text):  # defensive: never let bad offsets duplicate or drop text
            continue
        kind = m.get("kind") if m.get("kind") in _KINDS else "other"
        cls = "nash-num nash-bad" if m.get("value") is None else f"nash-num nash-{kind}"
        title, extra, flag = mention_title(m), "", ""
        spec = SPEC.get(verdicts.get(k, {}).get("verdict"))
        if spec is not None:
            cls += f" nash-{spec.name}"
            title += " · " + verdict_title(spec.name, verdicts[k].get("reference"), verdicts[k].get("derivation"))
            extra = f' data-verdict="{spec.name}"'
            if spec.marked:  # a visible mark for all but ✓: Σ for a computed figure, too
                flag = f'<span class="nash-flag" aria-hidden="true">{spec.mark}</span>'
        out.append(esc(text[pos:start]))
        out.append(
            f'<mark class="{cls}"{extra} title="{esc(title)}">{esc(text[start:end])}'
            f"<sub>{esc(side)}{i}</sub>{flag}</mark>"
        )
        pos = end
    out.append(esc(text[pos:]))
    return "".join(out)


def masked_html(masked: str) -> str:
    """Masked text with the mask token styled; escaping first keeps user markup inert."""
    token = esc(MASK_TOKEN)
    return esc(masked).replace(token, f'<span class="nash-mask">{token}</span>')


def support_html(share: float | None, summary: str, mentions: Sequence[Mapping[str, Any]],
                 verdicts: Mapping[int, Mapping[str, Any]]) -> str:
    """The numeric support line under the prediction: the summary, then each figure the reference lacks (each
    verdict not `VerdictSpec.supporting`)."""
    flagged = []
    for k in sorted(verdicts, key=lambda k: int(mentions[k]["start"])):
        spec = SPEC.get(verdicts[k].get("verdict"))
        if spec is not None and not spec.supporting:
            verdict = spec.name
            flagged.append(
                f'<span class="nash-flagged nash-{verdict}" data-verdict="{verdict}">{spec.mark} '
                f"{esc(mentions[k]['text'])} "
                f"({esc(verdict_title(verdict, verdicts[k].get('reference'), verdicts[k].get('derivation')))})</span>"
            )
    value = "" if share is None else f' data-support="{float(share)!r}"'
    return (f'<div class="nash-support" data-testid="support"{value}>{esc(summary)}'
            + "".join(f" · {f}" for f in flagged) + "</div>")


def text_panel(label: str, text: str, mentions: Sequence[Mapping[str, Any]], masked: str, side: str,
               verdicts: Mapping[int, Mapping[str, Any]] | None = None, support: str = "") -> str:
    """One text with its numbers badged (and verdicts, for the prediction), its [NUM] form (what α counts) and
    `support` (HTML)."""
    n = len(mentions)
    return (
        f'<div class="nash-panel" data-side="{esc(side)}">'
        f'<div class="nash-panel-head">{caps(label)} · {n} number{"s" if n != 1 else ""}</div>'
        f'<div class="nash-text" data-testid="text-{esc(side)}">{highlight_numbers(text, mentions, side, verdicts)}'
        "</div>"
        f"{support}"
        f'<div class="nash-masked"><span class="nash-caption">{caps("masked (what α counts):")}</span> '
        f"{masked_html(masked)}</div>"
        "</div>"
    )


def score_cards(scores: Mapping[str, float | None], baseline_label: str, alpha: float | None) -> str:
    """Baselines on the left, NASH and its parts on the right."""
    base = [
        ("BERTScore F1", scores.get("bertscore"), "bert-score package, original texts"),
        (baseline_label, scores.get("baseline"), "backbone metric on the original texts"),
    ]
    nash = [
        ("NASH", scores.get("nash"), "α·S_text + (1−α)·S_num"),
        ("S_text", scores.get("text"), "backbone on the texts without their numbers"),
        ("S_num", scores.get("numeric"), "aligned numbers, magnitude similarity"),
        ("α", alpha, "weight of words / (words + numbers)"),
    ]
    if "numeric_support" in scores:
        nash.append(("Numeric support", scores["numeric_support"],
                     "share of A's figures that B supports: same value at the precision written (not in NASH)"))

    def cards(items: list[tuple[str, float | None, str]], cls: str) -> str:
        return "".join(
            f'<div class="nash-card {cls}" title="{esc(tip)}" data-metric="{esc(name)}">'
            f'<div class="nash-card-name">{esc(name)}</div><div class="nash-card-value">{fmt(val)}</div></div>'
            for name, val, tip in items
        )

    return (
        '<div class="nash-cards">'
        f'<div class="nash-group"><div class="nash-group-title">Baselines (numerically blind)</div>'
        f"{cards(base, 'nash-base')}</div>"
        f'<div class="nash-group"><div class="nash-group-title">NASH</div>{cards(nash, "nash-main")}</div>'
        "</div>"
    )


def order_change(order_b: Sequence[int], order_n: Sequence[int]) -> tuple[str, str]:
    """What differs between the two rankings: ("top" | "below-top" | "none", the sentence saying so)."""
    if order_b[0] != order_n[0]:
        return "top", "NASH puts a different candidate first."
    if list(order_b) != list(order_n):
        return "below-top", "Same top candidate; the order below it differs."
    return "none", "Same order."


def ranking_html(
    anchor: str, candidates: Sequence[str], bertscore: Sequence[float], nash: Sequence[float]
) -> str:
    """Two rankings side by side; each NASH row shows how far it moved relative to BERTScore."""
    order_b = sorted(range(len(candidates)), key=lambda i: -bertscore[i])
    order_n = sorted(range(len(candidates)), key=lambda i: -nash[i])
    rank_b = {i: r for r, i in enumerate(order_b)}

    def rows(order: list[int], scores: Sequence[float], moves: bool) -> str:
        out = []
        for r, i in enumerate(order):
            move = ""
            if moves:
                delta = rank_b[i] - r
                if delta > 0:
                    move = f'<span class="nash-up" title="up {delta} vs BERTScore">▲{delta}</span>'
                elif delta < 0:
                    move = f'<span class="nash-down" title="down {-delta} vs BERTScore">▼{-delta}</span>'
                else:
                    move = '<span class="nash-same" title="same rank as BERTScore">=</span>'
            out.append(
                f'<li data-candidate="{i}"><span class="nash-rank">{r + 1}</span>'
                f'<span class="nash-cand">{esc(candidates[i])}</span>'
                f'<span class="nash-score">{fmt(scores[i])}</span>{move}</li>'
            )
        return "".join(out)

    change, sentence = order_change(order_b, order_n)
    verdict = (
        f'<div class="nash-verdict" data-testid="verdict" data-change="{change}">BERTScore prefers '
        f'<q data-testid="bertscore-top">{esc(candidates[order_b[0]])}</q>; NASH prefers '
        f'<q data-testid="nash-top">{esc(candidates[order_n[0]])}</q>. {sentence}</div>'
    )
    return (
        f'<div class="nash-rank-wrap"><div class="nash-anchor">Anchor: <q>{esc(anchor)}</q></div>{verdict}'
        '<div class="nash-rank-cols">'
        f'<div class="nash-rank-col"><div class="nash-group-title">BERTScore F1</div>'
        f'<ol class="nash-ranking" data-testid="rank-bertscore">{rows(order_b, bertscore, False)}</ol></div>'
        f'<div class="nash-rank-col"><div class="nash-group-title">NASH (change vs BERTScore)</div>'
        f'<ol class="nash-ranking" data-testid="rank-nash">{rows(order_n, nash, True)}</ol></div>'
        "</div></div>"
    )


# The Check figures tab's highlight colours, by verdict (`marked_text_html`, the stylesheet's `.nash-hl`): the one key.
CHECK_COLOURS = {verdict: VERDICT_COLOURS[verdict] for verdict in RULE_VERDICTS["context"]}
NOT_IN_PART = "not in the part checked"  # a figure's value cell when the source was cut (`SourcePart.cut`)
CHECK_HEADER = ["figure", "verdict", "its value in the source", "what decided, and the number bound to it"]


def verdict_segments(text: str, verdicts: Sequence[Mapping[str, Any]]) -> list[tuple[str, str | None]]:
    """`text` cut into (segment, verdict or None): every figure a segment of its own, labelled with its verdict;
    every character kept, once."""
    out: list[tuple[str, str | None]] = []
    pos = 0
    for entry in sorted(verdicts, key=lambda e: int(e["start"])):
        start, end = int(entry["start"]), int(entry["end"])
        if start < pos or end > len(text):  # defensive: never let bad offsets duplicate or drop text
            continue
        if start > pos:
            out.append((text[pos:start], None))
        out.append((text[start:end], entry["verdict"]))
        pos = end
    if pos < len(text):
        out.append((text[pos:], None))
    return out


def marked_text_html(text: str, verdicts: Sequence[Mapping[str, Any]]) -> str:
    """The Check figures tab's generated text with each figure highlighted in its verdict's colour (hover: its verdict
    line, `verdict_title`), under the colour key. The text reads exactly as written: a highlight adds no character,
    space or margin (gr.HighlightedText spaced its segments apart: "in  2023  .")."""
    by_start = {int(e["start"]): e for e in verdicts}
    parts, pos = [], 0
    for segment, verdict in verdict_segments(text, verdicts):
        spec, entry = SPEC.get(verdict or ""), by_start.get(pos)
        if spec is None or entry is None:
            parts.append(esc(segment))
        else:
            title = f"{spec.mark} {verdict_title(spec.name, entry.get('reference'), entry.get('derivation'))}"
            parts.append(f'<mark class="nash-hl nash-{spec.name}" data-verdict="{spec.name}" title="{esc(title)}">'
                         f"{esc(segment)}</mark>")
        pos += len(segment)
    return (f'<div class="nash-panel" data-testid="check-marked"><div class="nash-panel-head">generated text: each '
            f'figure by its verdict</div>{colour_key_html(kinds=False, title="verdicts (highlight):")}'
            f'<div class="nash-text" data-testid="marked-text">{"".join(parts)}</div></div>')


def figure_table(rows: Sequence[FigureRow], cut: bool = False) -> list[list[str]]:
    """The table under the highlighted text: each figure, its verdict, where its value stands in the source (for a
    computed figure, the derivation of the source's numbers that gives it) and, when it is not supported, what
    decided (its basis) and the number bound to what it states (misplaced) or closest in context (unsupported, then
    the closest derivation of its bound numbers, if any); for a computed figure, where each of its numbers stands.
    `cut`: only a part of the source was checked (`SourcePart.cut`), so a value found nowhere is "not in the part
    checked", never "nowhere in the source". Plain text: gr.Dataframe shows a "str" cell as text."""
    return [[row.text, f"{MARKS.get(row.verdict, '')} {row.verdict}".strip(), _value_cell(row, cut),
             _decided_cell(row)] for row in rows]


def _value_cell(row: FigureRow, cut: bool = False) -> str:
    if row.found is not None:
        return row.found.describe()
    if row.verdict in DERIVED:
        return f"{row.verdict}: {row.derivation}" if row.derivation else f"{row.verdict} from the source's numbers"
    return NOT_IN_PART if cut else "nowhere in the source"


def source_cut_html(part: SourcePart) -> str:
    """The notice over a cut source's results: the characters checked and how to check the rest (`data-*` hold
    the numbers, for tests); "" for a source checked whole."""
    if not part.cut:
        return ""
    notice = re.sub(r"`([^`<]+)`", r"<code>\1</code>", esc(part.notice()))  # the command, as code
    return (f'<div class="nash-notice" role="status" data-testid="source-cut" data-first="{part.start + 1}" '
            f'data-last="{part.end}" data-total="{part.total}">{notice}</div>')


_DATA_FORMATS = ("json", "jsonl")


def _short(text: str, limit: int = MAX_DATA_CELL_CHARS) -> str:
    """`text` escaped, cut to `limit` characters (with …) so that one long value cannot swell the page."""
    return esc(text if len(text) <= limit else text[: limit - 1] + "…")


def _bound_cells(verdicts: Sequence[Mapping[str, Any]]) -> dict[tuple[int, int], list[tuple[str, str]]]:
    """Each source span a figure verdict's `found` or `reference` points at -> [(verdict, hover line)], in the
    figures' text order; a verdict that is not one of the spec's is left out."""
    out: dict[tuple[int, int], list[tuple[str, str]]] = {}
    for e in sorted(verdicts, key=lambda e: int(e.get("start", 0))):
        spec = SPEC.get(e.get("verdict"))
        if spec is None:
            continue
        for key, role in (("found", "states its value"),
                          ("reference", "is bound to it" if spec.bound else "is compared with it")):
            ref = e.get(key)
            if isinstance(ref, Mapping) and ref.get("start") is not None and ref.get("end") is not None:
                line = f"{spec.label}: “{e.get('text', '')}” ({role})"
                spans = out.setdefault((int(ref["start"]), int(ref["end"])), [])
                if (spec.name, line) not in spans:
                    spans.append((spec.name, line))
    return out


def _record_label(cell: Cell) -> str:
    """A record's label: its identifying fields (which an outer record's may share), then its own path (the value's
    path less its column): "Oslo (list[0])"."""
    column = cell.headers[0] if cell.headers else ""
    path = cell.path[: len(cell.path) - len(column) - 1] if column and cell.path.endswith("." + column) else \
        cell.path
    path = path or f"record {cell.row + 1}"
    return f"{cell.row_label} ({path})" if cell.row_label else path


def _data_table_html(source: str, table: Table, records: list[int], bound: Mapping[tuple[int, int], Any]) -> str:
    """One data table: a record a row (its label first), a key path a column (at most `MAX_DATA_COLUMNS`), each
    value as written; a value a figure verdict points at outlined in the verdict's colour."""
    names: dict[int, tuple[str, str]] = {}  # column -> (its records' list path, its key path below the record)
    for c in table.cells:
        names.setdefault(c.column, (c.section, c.headers[0] if c.headers else ""))
    sections = {section for section, _ in names.values()}
    shown = sorted(names)[:MAX_DATA_COLUMNS]

    def header(column: int) -> str:
        section, path = names[column]
        text = path or "(value)"
        return f"{section} · {text}" if len(sections) > 1 and section else text

    rows: dict[int, dict[int, Cell]] = {r: {} for r in records}
    labels: dict[int, str] = {}
    for c in table.cells:
        if c.row in rows:
            rows[c.row].setdefault(c.column, c)
            labels.setdefault(c.row, _record_label(c))
    head = "".join(f'<th scope="col">{_short(header(k))}</th>' for k in shown)
    body = []
    for r in records:
        tds = []
        for k in shown:
            c = rows[r].get(k)
            if c is None:
                tds.append("<td></td>")
                continue
            marks = bound.get((c.start, c.end), [])
            attrs = f' data-path="{esc(c.path)}"'
            if marks:
                attrs += f' class="nash-data-cell nash-{marks[0][0]}" data-verdict="{marks[0][0]}" ' \
                         f'title="{esc(" · ".join(line for _, line in marks))}"'
            tds.append(f"<td{attrs}>{_short(source[c.start:c.end])}</td>")
        body.append(f'<tr><th scope="row">{_short(labels[r])}</th>{"".join(tds)}</tr>')
    return (f'<table class="nash-data" data-format="{esc(table.format)}" data-columns="{len(names)}">'
            f'<thead><tr><th scope="col">record</th>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>')


def data_view_html(source: str, verdicts: Sequence[Mapping[str, Any]] = ()) -> str:
    """The Check figures tab's view of a source that holds data (JSON, JSON Lines, a fenced JSON block): each
    data table (`find_tables`) as an HTML table of its records, the values the figure verdicts' `found` and
    `reference` point at outlined in the verdict's colour, in a collapsed ``<details>``; at most
    `MAX_DATA_RECORDS` records in all and `MAX_DATA_COLUMNS` columns a table, with a note of how many were left
    out. `verdicts`' spans are offsets into `source`. "" for a source without data."""
    if not find_data(source):  # cheap first: a source written as text reads no further
        return ""
    tables = [t for t in find_tables(source) if t.format in _DATA_FORMATS and t.cells]
    if not tables:
        return ""
    bound = _bound_cells(verdicts)
    total = shown_in_all = columns_out = 0
    parts = []
    for table in tables:
        records = list(dict.fromkeys(c.row for c in table.cells))
        shown = records[: max(0, MAX_DATA_RECORDS - shown_in_all)]
        total, shown_in_all = total + len(records), shown_in_all + len(shown)
        columns_out += max(0, len({c.column for c in table.cells}) - MAX_DATA_COLUMNS)
        if shown:
            parts.append(_data_table_html(source, table, shown, bound))
    left = total - shown_in_all
    cut = [f"{n:,} {what}{'s' if n != 1 else ''}" for n, what in ((left, "record"), (columns_out, "column")) if n]
    note = (f'<div class="nash-notice" data-testid="data-cut">Left out: {" and ".join(cut)} (this Space shows at most '
            f"{MAX_DATA_RECORDS:,} records and {MAX_DATA_COLUMNS} columns a table).</div>") if cut else ""
    return (f'<details class="nash-data-view" data-testid="data-view" data-records="{total}"><summary>Data: '
            f'{total:,} record{"s" if total != 1 else ""}</summary>{note}{"".join(parts)}</details>')


def colour_key_html(verdicts: Sequence[str] = RULE_VERDICTS["context"], kinds: bool = True,
                    title: str = "verdicts (outline and mark):") -> str:
    """The colour key: each verdict's mark in its colour (`VERDICT_COLOURS`, the same in every tab and the heat
    map), then the number kinds' badges, which never take a verdict's colour."""
    items = "".join(f'<span class="nash-key-verdict nash-{v}" data-verdict="{v}"><span class="nash-swatch nash-{v}">'
                    f"</span>{SPEC[v].label}</span>" for v in verdicts)
    badges = "".join(f'<mark class="nash-num nash-{k}" data-kind="{k}">{k}</mark> ' for k in _KINDS)
    kinds_html = f'<span class="nash-key-title">number kinds (fill):</span> {badges}' if kinds else ""
    return (f'<div class="nash-key" data-testid="colour-key"><span class="nash-key-title">{esc(title)}</span> '
            f"{items} {kinds_html}</div>")


# Matplotlib's RdBu at 0, ¼, ½, ¾ and 1: the heat map's colour scale (`reports.plot`), white at τ.
_RDBU = ("#67001f", "#d6604d", "#f7f7f7", "#4393c3", "#053061")


def heat_map_key_html(tau: float, rule: Rule, cells: str) -> str:
    """The heat map's key under it, left-aligned in three rows (the figure's own footer, wrapped to a narrow map, took
    12 centred lines): the colour scale of the context cosine (−1 to 1, white at τ), the matches' boxes and crosses;
    the marks of A's row labels (`colour_key_html`); what a mark in a cell means (`cells`, `plot.CELL_HELP`)."""
    at = 100 * (min(max(float(tau), -1.0), 1.0) + 1) / 2  # where τ falls on the −1..1 bar, in percent
    stops = ", ".join(f"{c} {p:.1f}%" for c, p in zip(_RDBU, (0, at / 2, at, (at + 100) / 2, 100)))
    scale = (f'<span class="nash-scale" data-testid="cosine-scale" title="context cosine">−1 <span class="nash-scale-'
             f'bar" style="background: linear-gradient(to right, {stops})"><span class="nash-scale-tau" style="left: '
             f'{at:.1f}%"></span></span> 1</span>')
    matches = ('<span><span class="nash-box"></span>accepted A→B</span> '
               '<span><span class="nash-box nash-box-back"></span>accepted B→A</span> '
               '<span><span class="nash-cross">×</span> best match below τ</span>')
    head, _, tail = cells.partition(": ")
    return (f'<div class="nash-heat-key" data-testid="heat-map-key"><div class="nash-key"><span class="nash-key-'
            f'title">cell colour:</span> {scale} <span>context cosine, white at τ = {float(tau):.4f} (blue: the match '
            f"may count)</span> {matches}</div>"
            + colour_key_html(RULE_VERDICTS[rule], kinds=False, title="A's row labels:")
            + f'<div class="nash-key nash-key-text"><span class="nash-key-title">{esc(head)}:</span> {esc(tail)}</div>'
            "</div>")


def batch_key_html(rule: Rule = "context") -> str:
    """What each mark in the Batch table's unsupported figures means: every verdict of `rule` that is not
    supporting, by its spec's name, colour and help; the supporting ones are named as not listed."""
    flagged = [SPEC[v] for v in RULE_VERDICTS[rule] if not SPEC[v].supporting]
    counted = " and ".join(SPEC[v].label for v in RULE_VERDICTS[rule] if SPEC[v].supporting)
    items = " · ".join(f'<span class="nash-key-verdict nash-{s.name}" data-verdict="{s.name}">{s.label}</span> '
                       f"({esc(VERDICT_HELP[rule][s.name])})" for s in flagged)
    return (f'<div class="nash-key nash-key-text" data-testid="batch-key"><span class="nash-key-title">unsupported '
            f"figures, each after its mark:</span> {items}; {counted} figures count as supported and are not listed."
            "</div>")


def _decided_cell(row: FigureRow) -> str:
    parts = [row.basis, row.matched and f"{row.matched_text} · {row.matched.describe()}"]
    if row.verdict in DERIVED:
        parts += [f"{text} · {place.describe()}" for text, place in row.operands]
    elif row.derivation:
        parts.append(f"closest derivation: {row.derivation}")
    return " · ".join(part for part in parts if part)


def check_summary_html(support: float, verdicts: Sequence[Mapping[str, Any]]) -> str:
    """The Check figures tab's summary line (``data-support`` holds the share unrounded, and ``data-<verdict>``
    each count, for tests), then, in text order, each figure that is not supported and each computed one
    (`DERIVED`), with its verdict line (also its hover text): "✗ $0.55 (unsupported: the reference says $0.52)",
    "Σ 24.3% (computed: the reference implies it: …)"."""
    counts = "".join(f' data-{v}="{sum(e["verdict"] == v for e in verdicts)}"' for v in CHECK_COLOURS)
    named = []
    for e in sorted(verdicts, key=lambda e: int(e["start"])):
        spec = SPEC.get(e["verdict"])
        if spec is not None and (not spec.supporting or spec.derived):
            title = esc(verdict_title(spec.name, e.get("reference"), e.get("derivation")))
            named.append(f'<span class="nash-flagged nash-{spec.name}" data-verdict="{spec.name}" title="{title}">'
                         f"{spec.mark} {esc(e['text'])} ({title})</span>")
    return (f'<div class="nash-support" data-testid="check-summary" data-support="{float(support)!r}"{counts}>'
            f"{esc(summary_line(support, verdicts))}" + "".join(f" · {c}" for c in named) + "</div>")


def error_html(message: str) -> str:
    return f'<div class="nash-error" role="alert">⚠ {esc(message)}</div>'


def info_html(message: str) -> str:
    return f'<div class="nash-info">{esc(message)}</div>'


# How the scorer's `threshold_source` reads in the Space.
TAU_SOURCES = {
    "model default": "default for this model",
    "calibrated on the built-in corpus": "calibrated for this model on the built-in corpus (μ + σ)",
    "given": "set by you",
}


def tau_text(tau: float, source: str) -> str:
    """One line saying which tau was used and where it came from."""
    return f"τ = {tau:.4f} · {TAU_SOURCES.get(source, source)}"


def tau_html(tau: float, source: str) -> str:
    """The tau a result was scored with (``data-tau`` holds it unrounded, for tests and scripts)."""
    return f'<div class="nash-tau" data-testid="tau" data-tau="{float(tau)!r}">{esc(tau_text(tau, source))}</div>'


# How each verdict marks a number in Compare: (outline style or None, underline style or None), in its colour
# (`VerdictSpec.outline`, `.underline`), in the order of `SPECS`.
VERDICT_LINES = {s.name: (s.outline, s.underline) for s in SPECS}


def _colour_rules() -> str:
    """The stylesheet's colours, from the two maps: the kinds' fills (`KIND_COLOURS`), and each verdict's outline,
    underline, mark and key swatch (`VERDICT_COLOURS`)."""
    rules = [f".nash-{kind} {{ background: {colour}; }}" for kind, colour in KIND_COLOURS.items()]
    for verdict, (outline, underline) in VERDICT_LINES.items():
        colour = VERDICT_COLOURS[verdict]
        lines = (f"outline: 2px {outline} {colour}; " if outline else "") + \
            (f"text-decoration: underline {underline} {colour}; " if underline else "")
        rules += [f".nash-num.nash-{verdict} {{ {lines}}}",
                  f".nash-{verdict} .nash-flag, .nash-flagged.nash-{verdict}, .nash-key-verdict.nash-{verdict} "
                  f"{{ color: {colour}; }}",
                  f".nash-swatch.nash-{verdict} {{ background: {colour}; }}",
                  # A tint and an underline, no padding or margin: the text keeps its spacing as written.
                  f".nash-hl.nash-{verdict} {{ background: color-mix(in srgb, {colour} 35%, transparent); "
                  f"box-shadow: inset 0 -2px {colour}; }}",
                  f".nash-data-cell.nash-{verdict} {{ outline: 2px solid {colour}; outline-offset: -2px; }}"]
    return "\n".join(rules)


CSS = _colour_rules() + """
.nash-num { border-radius: 4px; padding: 0 3px; font-weight: 600; color: #111; }
.nash-num sub { font-size: 0.65em; margin-left: 2px; color: #444; }
.nash-bad { background: #f5f5f4; text-decoration: line-through wavy #57534e; }
.nash-flag { margin-left: 2px; font-weight: 700; }
.nash-key { margin: 4px 0 8px; font-size: 0.85em; display: flex; flex-wrap: wrap; gap: 4px 10px;
  align-items: baseline; }
.nash-key-title { opacity: 0.7; } .nash-key-verdict { font-weight: 600; white-space: nowrap; }
.nash-hl { padding: 0; margin: 0; border-radius: 2px; color: inherit; }
.nash-heat-key { margin: 2px 0 10px; } .nash-heat-key .nash-key { margin: 2px 0; }
.nash-key.nash-key-text { display: block; }
.nash-scale { white-space: nowrap; } .nash-scale-bar { display: inline-block; position: relative; width: 120px;
  height: 0.8em; vertical-align: middle; border: 1px solid #999; }
.nash-scale-tau { position: absolute; top: -3px; bottom: -3px; width: 2px; margin-left: -1px; background: #000; }
.nash-box { display: inline-block; width: 0.9em; height: 0.9em; margin-right: 3px; vertical-align: middle;
  border: 2px solid #111; } .nash-box-back { border: 2px dashed #f59e0b; }
.nash-cross { color: #7f1d1d; font-weight: 700; }
.nash-swatch { display: inline-block; width: 0.8em; height: 0.8em; border-radius: 2px; margin-right: 3px; }
.nash-keep-case { text-transform: none; }
th[role="columnheader"] .header { word-break: normal; overflow-wrap: normal; hyphens: none; }
.nash-notice { padding: 8px; margin: 4px 0; border-radius: 6px; background: #fef9c3; color: #422006;
  border: 1px solid #facc15; }
.nash-support { margin: 4px 0 6px; font-size: 0.9em; }
.nash-data-view { margin: 4px 0 8px; } .nash-data-view summary { cursor: pointer; font-weight: 600; }
.nash-data { border-collapse: collapse; font-size: 0.85em; margin: 6px 0; display: block; overflow-x: auto; }
.nash-data th, .nash-data td { border: 1px solid var(--border-color-primary, #ddd); padding: 2px 6px;
  text-align: left; white-space: nowrap; }
.nash-flagged { font-weight: 600; }
.nash-mask { font-family: monospace; background: #eee; color: #333; border-radius: 3px; padding: 0 2px; }
.nash-panel { border: 1px solid var(--border-color-primary, #ddd); border-radius: 8px; padding: 10px;
  margin-bottom: 8px; }
.nash-panel-head, .nash-group-title, .nash-caption { font-size: 0.8em; text-transform: uppercase; opacity: 0.7; }
.nash-text { font-size: 1.15em; margin: 6px 0; white-space: pre-wrap; word-break: break-word; }
.nash-masked { white-space: pre-wrap; word-break: break-word; }
.nash-cards { display: flex; gap: 16px; flex-wrap: wrap; }
.nash-group { display: flex; gap: 8px; flex-wrap: wrap; align-items: flex-end; }
.nash-group-title { width: 100%; }
.nash-card { border-radius: 8px; padding: 8px 12px; min-width: 110px; border: 1px solid #ccc; }
.nash-card.nash-main { border-color: #2563eb; } .nash-card.nash-base { border-color: #999; }
.nash-card-name { font-size: 0.8em; opacity: 0.8; } .nash-card-value { font-size: 1.5em; font-weight: 700; }
.nash-rank-cols { display: flex; gap: 24px; flex-wrap: wrap; }
.nash-rank-col { flex: 1 1 300px; }
.nash-ranking li { display: flex; gap: 8px; align-items: baseline; padding: 4px 0; }
.nash-rank { font-weight: 700; min-width: 1.5em; } .nash-cand { flex: 1; word-break: break-word; }
.nash-score { font-family: monospace; }
.nash-up { color: #15803d; font-weight: 700; } .nash-down { color: #b91c1c; font-weight: 700; }
.nash-same { opacity: 0.6; }
.nash-verdict { margin: 8px 0; padding: 8px; border-radius: 6px; background: rgba(37, 99, 235, 0.08); }
.nash-error { padding: 10px; border-radius: 6px; background: #fee2e2; color: #7f1d1d; border: 1px solid #fca5a5; }
.nash-info { padding: 8px; border-radius: 6px; background: rgba(37, 99, 235, 0.08); }
.nash-tau { margin-top: 6px; font-size: 0.85em; opacity: 0.75; }
"""
