"""The figure verdicts' names, marks, colours and help text: one home for the pipeline that decides them
(`pipeline.support`) and every front end that shows them (explain text, plots, `nash check`, the Space, the
benchmarks). Plain strings, no numpy: the Space's HTML layer and the CLI import it before any model loads.

Under the default rule (`verdict="context"`; docs: "Figures against a source"): ✓ supported, Σ computed (no
number states its value, but a derivation of numbers bound to what it states gives it), ↷ misplaced (its value
is stated, but bound to another period, row or subject), ✗ unsupported (stated nowhere), ⇅ contradicted (stated
as a change in the other direction). Under `verdict="argmax"`: ✓ supported, ✗ unsupported, ∅ unmatched.
"""

from __future__ import annotations

from typing import Literal

SUPPORTED, MISPLACED, UNSUPPORTED, CONTRADICTED, COMPUTED = (
    "supported", "misplaced", "unsupported", "contradicted", "computed")
UNMATCHED = "unmatched"  # verdict="argmax" only
# A figure with one of these verdicts counts in `numeric_support` and is not listed in `unsupported_numbers`.
SUPPORTING = (SUPPORTED, COMPUTED)
MARKS = {SUPPORTED: "✓", COMPUTED: "Σ", MISPLACED: "↷", UNSUPPORTED: "✗", CONTRADICTED: "⇅", UNMATCHED: "∅"}
# The one colour key of the verdicts: the heat map's row labels and cell marks (`reports.plot`), the Space's Compare
# outlines and marks and its Check figures highlights (`space.render`) all take their colour from here, so a colour
# means the same verdict everywhere. Nothing else (the number kinds' badges in Compare) uses these hues.
VERDICT_COLOURS = {SUPPORTED: "#15803d", COMPUTED: "#0e7490", MISPLACED: "#c2410c", UNSUPPORTED: "#b91c1c",
                   CONTRADICTED: "#7e22ce", UNMATCHED: "#6b7280"}
Rule = Literal["context", "argmax"]  # as config.Verdict
RULE_VERDICTS: dict[Rule, tuple[str, ...]] = {
    "context": (SUPPORTED, MISPLACED, UNSUPPORTED, CONTRADICTED, COMPUTED),  # pipeline.support's code order
    "argmax": (SUPPORTED, UNSUPPORTED, UNMATCHED),
}
VERDICT_HELP: dict[Rule, dict[str, str]] = {
    "context": {SUPPORTED: "B states its value, and nothing B binds it to contradicts A",
                MISPLACED: "B states its value, but only for another period, row or subject",
                UNSUPPORTED: "B states its value nowhere, and no derivation of its bound numbers gives it",
                CONTRADICTED: "B states its value as a change in the other direction",
                COMPUTED: "B implies it: a change, sum, share, ratio or average of numbers bound to what A states"},
    "argmax": {SUPPORTED: "B's aligned number states the same value",
               UNSUPPORTED: "B's aligned number states another value",
               UNMATCHED: "no number of B aligns"},
}


def supports(verdict: str) -> bool:
    """Whether a figure with this verdict counts as supported (`SUPPORTING`)."""
    return verdict in SUPPORTING
