"""Plain-text rendering of `NASH.explain` for the terminal, and the support verdicts of A's figures.

`figure_verdicts`, `support_summary` and `figure_note` read the verdicts out of an explain dict; the terminal
text, the figure (`plot.py`), `nash score`'s support line and the Space (`space/render.py`) all show them
through these, so they say the same. Under the default rule (`verdict="context"`, `verdicts/decide.py`):
✓ supported, Σ computed (no number of B states its value, but a derivation of B's numbers bound to what it
states gives it: a change, sum, share, ratio or average; counted as supported, and shown with its derivation),
↷ misplaced (its value is in B, but bound to another period, row or subject), ✗ unsupported (its value is stated
nowhere in B; shown with the closest derivation of its bound numbers when there is one), ⇅ contradicted (B states
its value as a change in the other direction); under `verdict="argmax"`: ✓ supported, ✗ unsupported, ∅
unmatched. The names, marks and help text are `verdicts.spec`'.
Light on purpose (no numpy, no matplotlib): the Space's HTML layer imports it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..common.reporting import markdown_table
from ..verdicts.spec import (
    DERIVED,
    RULE_VERDICTS,
    SPEC,
    UNMATCHED,
    VERDICT_HELP,
    Rule,
    counted,
    not_counted,
    phrase,
    supports,
)


def verdict_rule(info: Mapping[str, Any]) -> Rule:
    """The rule the verdicts of an explain dict were made by (`config["verdict"]`: "argmax", or "context(...)" with
    its weights); a dict from before the option existed was made by the argmax rule."""
    return "context" if str(info.get("config", {}).get("verdict", "argmax")).startswith("context") else "argmax"


def figure_verdicts(info: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The support verdict of each judged number of A, in text order.

    Each entry: ``index`` (into ``info["mentions"]["a"]``), ``verdict``, ``found`` (index into
    ``info["mentions"]["b"]``: the number of B that states its value; None when unsupported or unmatched),
    ``reference`` (index into ``info["mentions"]["b"]``: the number of B it is compared with — for a misplaced
    figure, the one of another value bound to what A states; under the argmax rule, its aligned number; None when
    B has no number of its kind or, argmax, none aligns), ``cosine`` (the context cosine with ``reference``),
    ``basis`` (what decided a misplaced or contradicted figure), ``derivation`` (how B's numbers give a computed
    figure's value, or the closest derivation of an unsupported one's bound numbers; else None) and ``operands``
    (indices into ``info["mentions"]["b"]``: the numbers of ``derivation``, in its order; None without one).
    Empty for an explain dict without verdicts (a dict from before derivations has them None).
    """
    mentions_a = info["mentions"]["a"]
    out = []
    for i, m in enumerate(mentions_a):
        if m.get("verdict") is None:
            continue
        found, match, operands = m.get("found"), m.get("context_match"), m.get("operands")
        out.append({"index": i, "verdict": m["verdict"], "found": found["index"] if found else None,
                    "reference": match["index"] if match else None, "cosine": match.get("cosine") if match else None,
                    "basis": m.get("basis"), "derivation": m.get("derivation"),
                    "operands": [o["index"] for o in operands] if operands is not None else None,
                    "role": m.get("role") or "figure"})
    out.sort(key=lambda e: int(mentions_a[e["index"]].get("start", e["index"])))
    return out


def support_counts(info: Mapping[str, Any]) -> dict[str, int]:
    """How many of A's judged numbers that the numeric support counts (`spec.counted`) got each verdict of the
    dict's rule."""
    counts = dict.fromkeys(RULE_VERDICTS[verdict_rule(info)], 0)
    for entry in counted(figure_verdicts(info)):
        counts[entry["verdict"]] = counts.get(entry["verdict"], 0) + 1
    return counts


def support_summary(info: Mapping[str, Any]) -> str:
    """One line: "numeric support 0.50: 1 of 2 figures of A supported by B (1 misplaced)"; a computed figure counts
    as supported, and the line says how many of those were: "numeric support 0.67: 2 of 3 figures of A supported
    by B, 1 of them computed (1 unsupported)"."""
    counts = support_counts(info)
    total = sum(counts.values())
    supported = sum(n for v, n in counts.items() if supports(v))
    share = info["scores"].get("numeric_support")
    if share is None:
        share = supported / total if total else 1.0
    if not total:
        return f"numeric support {share:.2f}: A states no {'scored ' if info['mentions']['a'] else ''}figures"
    derived = "".join(f", {n} of them {v}" for v, n in counts.items() if v in DERIVED and n)
    others = ", ".join(f"{n} {v}" for v, n in counts.items() if not supports(v) and n)
    return (f"numeric support {share:.2f}: {supported} of {total} figure{'s' if total != 1 else ''} of A supported "
            f"by B" + derived + (f" ({others})" if others else "") + not_counted(figure_verdicts(info)))


def verdict_legend(rule: Rule) -> str:
    """"✓ supported: B states its value, and nothing B binds it to contradicts A · ↷ misplaced: …" for the rule's
    verdicts."""
    return " · ".join(f"{SPEC[v].label}: {VERDICT_HELP[rule][v]}" for v in RULE_VERDICTS[rule])


def figure_note(verdict: str, found: str | None, reference: str | None, rule: Rule = "context",
                derivation: str | None = None) -> str:
    """What B says about one figure of A, by its verdict: `found` is B's number that states its value and
    `reference` the one it is compared with (as shown: text, or text and value), None when there is none;
    `derivation` how B's numbers give a computed figure's value, or the closest derivation of an unsupported one.

    supported "1,146.2"; computed "computed: (62.4 − 50.2) / 50.2 = 24.3%"; misplaced "found at 1,146.2, but A's
    binding fits 1,452.4"; contradicted "found at 24.3%, stated as a change in the other direction"; unsupported
    "stated nowhere; closest in context: 4%" (with a derivation: "…; closest derivation: (62.4 − 50.2) / 50.2 =
    24.3%"; argmax rule: "aligned with 4%, another value"); unmatched "nothing in B aligns". The phrases are the
    verdict's `VerdictSpec.note` (a verdict without a spec reads as unmatched).
    """
    spec = SPEC.get(verdict, SPEC[UNMATCHED])
    return phrase(spec.note, found=found, reference=reference, derivation=derivation,
                  aligned=reference if rule == "argmax" else None)


def support_table(info: Mapping[str, Any]) -> str:
    """A's numbers with their verdict and what B says about each: where its value is stated, which of B's numbers
    it is compared with, and what decided a misplaced or contradicted figure."""
    mentions_a, mentions_b = info["mentions"]["a"], info["mentions"]["b"]
    rule = verdict_rule(info)
    nothing = f"– (B has no {'scored ' if mentions_b else ''}numbers)"
    has_b = any(m.get("scored", True) for m in mentions_b)
    rows = []
    for e in figure_verdicts(info):
        verdict, spec = e["verdict"], SPEC[e["verdict"]]
        label = f"{spec.mark} {verdict if spec.supporting else verdict.upper()}"
        found, reference = (None if e[key] is None else _value(mentions_b[e[key]]) for key in ("found", "reference"))
        if not has_b:
            note = nothing
        elif spec.table_note is not None:
            note = spec.table_note
        else:
            note = figure_note(verdict, found, reference, rule, e.get("derivation"))
            note += f" ({e['basis']})" if e.get("basis") else ""
        rows.append([_value(mentions_a[e["index"]]), label, note, e["cosine"]])
    return markdown_table(["number of A", "verdict", "in B", "context cosine"], rows, digits=4)


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
        lines += [support_summary(info), support_table(info), verdict_legend(verdict_rule(info)), ""]
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
             for label, name in (("baseline", "baseline"), ("S_text", "text"), ("NASH", "nash")) if name in r],
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
    base = [[s["baseline_name"] + " (baseline)", s["baseline_precision"], s["baseline_recall"], s["baseline"]]] \
        if "baseline" in s else []  # with baseline=True
    rows = [
        *base,
        ["S_text (text channel)", s["text_precision"], s["text_recall"], s["text"]],
        ["S_num (P = A->B, R = B->A; mean)", s["numeric_precision"], s["numeric_recall"], s["numeric"]],
        ["NASH = alpha*S_text + (1-alpha)*S_num", s["nash_precision"], s["nash_recall"], s["nash"]],
    ]
    return markdown_table(["score", "precision", "recall", "F"], rows, digits=4)
