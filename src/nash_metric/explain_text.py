"""Plain-text rendering of `NASH.explain` for the terminal."""

from __future__ import annotations

from typing import Any

from .reporting import markdown_table


def _value(mention: dict[str, Any] | None) -> str:
    if mention is None:
        return "–"
    if mention.get("period"):
        return f"{mention['text']} (={mention['period']})"
    return f"{mention['text']} (={mention['value']:g})" if mention["value"] is not None else mention["text"]


def render_explanation(info: dict[str, Any]) -> str:
    s = info["scores"]
    lines = [
        f"A: {info['texts']['a']}",
        f"B: {info['texts']['b']}",
        f"masked A: {info['masked']['a']}",
        f"masked B: {info['masked']['b']}",
    ]
    if info["text_channel"] != info["masked"]:
        lines += [f"text channel A: {info['text_channel']['a']}", f"text channel B: {info['text_channel']['b']}"]
    lines.append("")
    for side in ("a", "b"):
        found = ", ".join(
            f"{m['text']}={m['value']!r} [{m['kind']}{'/' + m['unit'] if m['unit'] else ''}"
            f"{' ' + m['period'] if m.get('period') else ''}]"
            + ("" if m["scored"] else " (unscored)")
            for m in info["mentions"][side]
        )
        lines.append(f"numbers in {side.upper()}: {found or 'none'}")
    lines.append("")
    mentions = info["mentions"]
    for key, src, dst in (("a_to_b", "a", "b"), ("b_to_a", "b", "a")):
        rows = []
        for r in info["alignments"][key]:
            target = mentions[dst][r["target"]] if r["target"] is not None else None
            rows.append(
                [
                    _value(mentions[src][r["source"]]),
                    _value(target),
                    r["cosine"],
                    r["status"],
                    r["magnitude_similarity"],
                    r["contribution"],
                ]
            )
        if rows:
            lines.append(f"alignment {src.upper()} -> {dst.upper()} (tau = {info['threshold']:.4f})")
            lines.append(
                markdown_table(
                    ["number", "aligned to", "cosine", "status", "magnitude / calendar sim", "contribution"], rows,
                    digits=4
                )
            )
            lines.append("")
    lines.append(
        f"weight ({info['idf']['source']}): words {info['idf']['w_text']:.3f}, numbers {info['idf']['w_num']:.3f} "
        f"-> alpha = {info['alpha']:.4f}"
    )
    lines.append(score_table(s))
    if info.get("rescaled"):
        r = info["rescaled"]
        b = r["baseline_values"]
        lines.append(f"\nrescaled with baseline ({r['source']}): (s - b) / (1 - b)")
        lines.append(markdown_table(
            ["score", "b (F)", "precision", "recall", "F"],
            [[label, b[name], r[f"{name}_precision"], r[f"{name}_recall"], r[name]]
             for label, name in (("baseline", "baseline"), ("S_text", "text"), ("NASH", "nash"))],
            digits=4))
    for u in info["unscored"]:
        lines.append(f"unscored: {u['text']!r} in the {u['side']} ({u['reason']})")
    return "\n".join(lines)


def score_table(s: dict[str, Any]) -> str:
    """Precision, recall and F of each channel (bert-score's P/R/F; S_num's precision is B->A, its recall A->B)."""
    rows = [
        [s["baseline_name"] + " (baseline)", s["baseline_precision"], s["baseline_recall"], s["baseline"]],
        ["S_text (text channel)", s["text_precision"], s["text_recall"], s["text"]],
        ["S_num (P = B->A, R = A->B; mean)", s["numeric_precision"], s["numeric_recall"], s["numeric"]],
        ["NASH = alpha*S_text + (1-alpha)*S_num", s["nash_precision"], s["nash_recall"], s["nash"]],
    ]
    return markdown_table(["score", "precision", "recall", "F"], rows, digits=4)
