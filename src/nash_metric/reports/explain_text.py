"""Plain-text rendering of `NASH.explain` for the terminal, and the support verdicts of A's figures.

`figure_verdicts` and `support_summary` read the verdicts out of an explain dict; the terminal text, the
figure (`plot.py`) and the Space (`space/render.py`) all show them through these two, so they say the same.
Light on purpose (no numpy, no matplotlib): the Space's HTML layer imports it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..common.reporting import markdown_table

SUPPORTED, UNSUPPORTED, UNMATCHED = "supported", "unsupported", "unmatched"  # as `support.VERDICTS`
MARKS = {SUPPORTED: "✓", UNSUPPORTED: "✗", UNMATCHED: "∅"}
VERDICT_HELP = {
    SUPPORTED: "B states the same value",
    UNSUPPORTED: "B's aligned number states another value",
    UNMATCHED: "no number of B aligns",
}


def figure_verdicts(info: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The support verdict of each scored number of A, in text order.

    Each entry: ``index`` (into ``info["mentions"]["a"]``), ``verdict``, ``reference`` (index into
    ``info["mentions"]["b"]``: the aligned number of B that supports it, or for an unsupported one the number it
    was compared with; None when unmatched) and ``cosine`` (context cosine with its argmax match; for an
    unmatched number below tau, or None when B has no numbers). Empty for an explain dict made before verdicts
    existed.
    """
    mentions_a = info["mentions"]["a"]
    out = []
    for r in info["alignments"]["a_to_b"]:
        verdict = r.get("verdict")
        if verdict is None:
            continue
        reference = r.get("target") if verdict in (SUPPORTED, UNSUPPORTED) else None  # the verdict reads the argmax
        out.append({"index": r["source"], "verdict": verdict, "reference": reference, "cosine": r.get("cosine")})
    out.sort(key=lambda e: int(mentions_a[e["index"]].get("start", e["index"])))
    return out


def support_counts(info: Mapping[str, Any]) -> dict[str, int]:
    """How many of A's scored numbers got each verdict."""
    counts = dict.fromkeys(MARKS, 0)
    for entry in figure_verdicts(info):
        counts[entry["verdict"]] += 1
    return counts


def support_summary(info: Mapping[str, Any]) -> str:
    """One line: "numeric support 0.50: 1 of 2 figures of A supported by B (1 unsupported)"."""
    counts = support_counts(info)
    total = sum(counts.values())
    share = info["scores"].get("numeric_support")
    if share is None:
        share = counts[SUPPORTED] / total if total else 1.0
    if not total:
        return f"numeric support {share:.2f}: A states no {'scored ' if info['mentions']['a'] else ''}figures"
    others = ", ".join(f"{counts[v]} {v}" for v in (UNSUPPORTED, UNMATCHED) if counts[v])
    return (f"numeric support {share:.2f}: {counts[SUPPORTED]} of {total} figure{'s' if total != 1 else ''} "
            f"of A supported by B" + (f" ({others})" if others else ""))


def _legend() -> str:
    return " · ".join(f"{MARKS[v]} {v}: {VERDICT_HELP[v]}" for v in MARKS)


def support_table(info: Mapping[str, Any]) -> str:
    """A's numbers with their verdict and the number of B that supports (or contradicts) each."""
    mentions_a, mentions_b = info["mentions"]["a"], info["mentions"]["b"]
    has_b = any(m.get("scored", True) for m in mentions_b)
    nothing = f"– (B has no {'scored ' if mentions_b else ''}numbers)"
    rows = []
    for e in figure_verdicts(info):
        verdict = e["verdict"]
        label = f"{MARKS[verdict]} {verdict if verdict == SUPPORTED else verdict.upper()}"
        if e["reference"] is not None:
            compared = _value(mentions_b[e["reference"]])
        else:
            compared = nothing if not has_b else "– (best match below tau)"
        rows.append([_value(mentions_a[e["index"]]), label, compared, e["cosine"]])
    return markdown_table(["number of A", "verdict", "in B (supporting / compared)", "cosine"], rows, digits=4)


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
    lines += _alignment_tables(info)
    if figure_verdicts(info):
        lines += [support_summary(info), support_table(info), _legend(), ""]
    elif "numeric_support" in s:
        lines += [support_summary(info), ""]
    lines.append(
        f"weight ({info['idf']['source']}): words {info['idf']['w_text']:.3f}, numbers {info['idf']['w_num']:.3f} "
        f"-> alpha = {info['alpha']:.4f}"
    )
    blank = [side.upper() for side in ("a", "b") if not info["texts"][side].strip()]
    if blank:  # the rule of blank.py overrides the arithmetic above
        lines.append(f"{' and '.join(blank)} {'is' if len(blank) == 1 else 'are'} blank: every score is 0 and alpha "
                     "1, as bert-score scores an empty text")
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


def _alignment_tables(info: dict[str, Any]) -> list[str]:
    """Each direction's alignment as a table: every number, its match, cosine, gate and contribution."""
    lines, mentions = [], info["mentions"]
    for key, src, dst in (("a_to_b", "a", "b"), ("b_to_a", "b", "a")):
        rows = []
        for r in info["alignments"][key]:
            target = mentions[dst][r["target"]] if r["target"] is not None else None
            rows.append([_value(mentions[src][r["source"]]), _value(target), r["cosine"], r["status"],
                         r["magnitude_similarity"], r["contribution"]])
        if rows:
            lines.append(f"alignment {src.upper()} -> {dst.upper()} (tau = {info['threshold']:.4f})")
            lines.append(markdown_table(
                ["number", "aligned to", "cosine", "status", "magnitude / calendar sim", "contribution"], rows,
                digits=4))
            lines.append("")
    return lines


def score_table(s: dict[str, Any]) -> str:
    """Precision, recall and F of each channel (bert-score's P/R/F with A the prediction: S_num's precision is
    A->B, the mean over A's numbers, its recall B->A)."""
    rows = [
        [s["baseline_name"] + " (baseline)", s["baseline_precision"], s["baseline_recall"], s["baseline"]],
        ["S_text (text channel)", s["text_precision"], s["text_recall"], s["text"]],
        ["S_num (P = A->B, R = B->A; mean)", s["numeric_precision"], s["numeric_recall"], s["numeric"]],
        ["NASH = alpha*S_text + (1-alpha)*S_num", s["nash_precision"], s["nash_recall"], s["nash"]],
    ]
    return markdown_table(["score", "precision", "recall", "F"], rows, digits=4)
