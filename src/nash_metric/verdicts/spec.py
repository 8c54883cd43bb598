"""The figure verdicts as a table: one `VerdictSpec` per verdict, the one place their names are written.

The pipeline that decides them (`verdicts.decide`) and every front end that shows them (explain text, plots,
`nash check`, `nash score`, the Space, corpus rows, the benchmarks) loop over `SPECS` or read a verdict's spec;
none spells a verdict's name. Plain strings, no numpy: the Space's HTML layer and the CLI import it before any
model loads. Adding a verdict is one entry here plus its decision rule (docs: Architecture, "Where to add").

Under the default rule (`verdict="context"`; docs: "Figures against a source"): ✓ supported, Σ computed (no
number states its value, but a derivation of numbers bound to what it states gives it), ↷ misplaced (its value
is stated, but bound to another period, row or subject), ✗ unsupported (stated nowhere), ⇅ contradicted (stated
as a change in the other direction). Under `verdict="argmax"`: ✓ supported, ✗ unsupported, ∅ unmatched.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal

Rule = Literal["context", "argmax"]  # as config.Verdict
LineStyle = Literal["solid", "dashed", "dotted", "wavy", "double"]
# A `FigureVerdict` field that points at numbers of the source: `found` (the number that states the figure's value),
# `reference` (the one it is compared with), `operands` (the numbers of its derivation, a list).
Pointer = Literal["found", "reference", "operands"]


@dataclass(frozen=True)
class VerdictSpec:
    """One verdict: how every front end names, marks, colours and explains it.

    Attributes:
        name: the verdict as outputs store it (`FigureVerdict["verdict"]`).
        mark: the one-character mark beside a figure (terminal, heat map, Space).
        colour: its one colour (heat map row labels and cell marks, the Space's outlines, marks and highlights).
        outline: how the Space's Compare tab outlines a number with it (None: no outline).
        underline: how it underlines one (None: no underline).
        help: what it means, per rule that gives it (`Rule`).
        supporting: whether a figure with it counts in `numeric_support` (and is left out of
            `unsupported_numbers`); every other verdict is flagged (the Space lists it under the prediction, the
            explain table writes it in capitals, the heat map's row label in bold).
        title: the hover line of a figure compared with a reference number; `{reference}` is that number's text,
            `{derivation}` the figure's derivation.
        alone: the hover line when there is no reference number (or, for a computed figure, no derivation text).
        closest: whether the hover line ends with the closest derivation of the figure's bound numbers.
        marked: whether the Space's Compare tab writes its mark beside the number it outlines (✓ is left out).
        derived: whether a derivation of the source's numbers gives the figure's value (its `derivation` then says
            how, and its `operands` are shown where they stand); else a derivation is the closest one of its bound
            numbers, another value.
        bound: whether its `reference` is the number bound to what the figure states (`nash check`: "bound to",
            the heat map: ◎), rather than the one closest in context.
        cells: the heat map cells that get its mark: the numbers of B its `FigureVerdict` fields point at.
        note: what B says about the figure (`explain_text.figure_note`, the explain table's "in B" column):
            templates tried in order (`phrase`), with `{found}` and `{reference}` (the numbers' text), `{derivation}`,
            and `{aligned}` (the reference under the argmax rule, else nothing).
        table_note: the explain table's cell in place of `note`, when it says something else there.
        said: the note of a figure `nash score` lists as not supported (`phrase`): `{name}`, `{note}`,
            `{reference}`, `{derivation}`.
    """

    name: str
    mark: str
    colour: str
    outline: LineStyle | None
    underline: LineStyle | None
    help: Mapping[Rule, str]
    supporting: bool
    title: str
    alone: str
    closest: bool = False
    marked: bool = True
    derived: bool = False
    bound: bool = False
    cells: tuple[Pointer, ...] = ()
    note: tuple[str, ...] = ()
    table_note: str | None = None
    said: tuple[str, ...] = ("{note}",)

    @property
    def label(self) -> str:
        """Its mark and name: "✓ supported"."""
        return f"{self.mark} {self.name}"

    def describe(self, reference: str | None, derivation: str | None = None) -> str:
        """The hover line: "unsupported: the reference says $0.13", "computed: the reference implies it: (62.4 −
        50.2) / 50.2 = 24.3%"; an unsupported figure's closest derivation follows ("; closest derivation: …")."""
        known = bool(derivation) if "{derivation}" in self.title else reference is not None
        line = (self.title if known else self.alone).format(reference=reference or "", derivation=derivation or "")
        return line + (f"; closest derivation: {derivation}" if self.closest and derivation else "")


_NO_NUMBER = "{name}: no aligned number in the reference"
# In display order: the supporting verdicts, then the flagged ones (the Space's stylesheet follows it).
SPECS: tuple[VerdictSpec, ...] = (
    VerdictSpec(
        "supported", "✓", "#15803d", None, "solid",
        {"context": "B states its value, and nothing B binds it to contradicts A",
         "argmax": "B's aligned number states the same value"},
        supporting=True, title="supported: the reference says {reference}",
        alone=_NO_NUMBER.format(name="supported"), marked=False, cells=("found",),
        note=("{found}", "{reference}", "–")),
    VerdictSpec(
        "computed", "Σ", "#0e7490", "solid", "dashed",
        {"context": "B implies it: a change, sum, share, ratio or average of numbers bound to what A states"},
        supporting=True, title="computed: the reference implies it: {derivation}",
        alone="computed: the reference implies it from its numbers", derived=True, cells=("operands",),
        note=("computed: {derivation}", "computed from B's numbers")),
    VerdictSpec(
        "misplaced", "↷", "#c2410c", "solid", "dotted",
        {"context": "B states its value, but only for another period, row or subject"},
        supporting=False,
        title="misplaced: the reference states this value for another period, row or subject; what the "
              "prediction binds it to states {reference}",
        alone=_NO_NUMBER.format(name="misplaced"), bound=True, cells=("found",),
        note=("found at {found}, but A's binding fits {reference}",), said=("{name}: {note}",)),
    VerdictSpec(
        "unsupported", "✗", "#b91c1c", "solid", "wavy",
        {"context": "B states its value nowhere, and no derivation of its bound numbers gives it",
         "argmax": "B's aligned number states another value"},
        supporting=False, title="unsupported: the reference says {reference}",
        alone=_NO_NUMBER.format(name="unsupported"), closest=True, cells=("reference",),
        note=("aligned with {aligned}, another value",
              "stated nowhere; closest in context: {reference}; closest derivation: {derivation}",
              "stated nowhere; closest in context: {reference}",
              "stated nowhere; closest derivation: {derivation}",
              "stated nowhere; B has no number of its kind"),
        said=("B says {reference}; closest derivation: {derivation}", "B says {reference}",
              "stated nowhere in B; closest derivation: {derivation}", "stated nowhere in B")),
    VerdictSpec(
        "contradicted", "⇅", "#7e22ce", "solid", "double",
        {"context": "B states its value as a change in the other direction"},
        supporting=False, title="contradicted: the reference states {reference} as a change in the other direction",
        alone=_NO_NUMBER.format(name="contradicted"), cells=("found",),
        note=("found at {found}, stated as a change in the other direction",), said=("{name}: {note}",)),
    VerdictSpec(
        "unmatched", "∅", "#6b7280", "dashed", None,
        {"argmax": "no number of B aligns"},
        supporting=False, title=_NO_NUMBER.format(name="unmatched"), alone=_NO_NUMBER.format(name="unmatched"),
        note=("nothing in B aligns",), table_note="– (best match below tau)"),
)
SPEC: Mapping[str, VerdictSpec] = MappingProxyType({s.name: s for s in SPECS})

# The names, for code that decides or tests one verdict (each spelled once, above).
SUPPORTED, COMPUTED, MISPLACED, UNSUPPORTED, CONTRADICTED, UNMATCHED = (s.name for s in SPECS)
# Each rule's verdicts in code order: `decide.Code` and `argmax.ArgmaxCode` index these.
RULE_VERDICTS: Mapping[Rule, tuple[str, ...]] = MappingProxyType({
    "context": (SUPPORTED, MISPLACED, UNSUPPORTED, CONTRADICTED, COMPUTED),
    "argmax": (SUPPORTED, UNSUPPORTED, UNMATCHED),
})
# A figure with one of these verdicts counts in `numeric_support` and is not listed in `unsupported_numbers`.
SUPPORTING = tuple(s.name for s in SPECS if s.supporting)
# The verdicts whose value a derivation of the source's numbers gives (`VerdictSpec.derived`).
DERIVED = tuple(s.name for s in SPECS if s.derived)
MARKS: Mapping[str, str] = MappingProxyType({s.name: s.mark for s in SPECS})
# The one colour key of the verdicts: the heat map's row labels and cell marks (`reports.plot`), the Space's Compare
# outlines and marks and its Check figures highlights (`space.render`) all take their colour from here, so a colour
# means the same verdict everywhere. Nothing else (the number kinds' badges in Compare) uses these hues.
VERDICT_COLOURS: Mapping[str, str] = MappingProxyType({s.name: s.colour for s in SPECS})
VERDICT_HELP: Mapping[Rule, Mapping[str, str]] = MappingProxyType({
    rule: MappingProxyType({v: SPEC[v].help[rule] for v in verdicts}) for rule, verdicts in RULE_VERDICTS.items()})
# The per-row count of a prediction's figures that are not supported, in `nash score` and `nash check` rows (beside
# `unsupported_numbers`, the figures themselves): named after the verdict, whichever flagged verdict they have.
UNSUPPORTED_COUNT = UNSUPPORTED


def supports(verdict: str) -> bool:
    """Whether a figure with this verdict counts as supported (`SUPPORTING`)."""
    return verdict in SUPPORTING


def counted(entries: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The figure entries `numeric_support` counts: all but a supported period that places another figure
    ("2023" in "$1.4 billion in 2023", `decide.FigureVerdict.role`), which states no quantity of its own."""
    return [e for e in entries if e.get("role") != "period" or not supports(e["verdict"])]


def not_counted(entries: Sequence[Mapping[str, Any]]) -> str:
    """What a summary line adds for the periods `counted` leaves out: "; 2 supported periods that place figures, not
    counted", or ""."""
    n = len(entries) - len(counted(entries))
    return (f"; {n} supported period{' that places a figure' if n == 1 else 's that place figures'}, not counted"
            if n else "")


def support_share(entries: Iterable[Mapping[str, Any]]) -> float:
    """`numeric_support` of one text's figure entries: the share of those `counted` that are supported, 1.0 for
    none."""
    kept = counted(entries)
    return sum(supports(e["verdict"]) for e in kept) / len(kept) if kept else 1.0


def verdict_title(verdict: str, reference: Mapping[str, object] | None, derivation: str | None = None) -> str:
    """A figure's hover line (`VerdictSpec.describe`) from its `FigureVerdict` fields."""
    text = None if reference is None else str(reference.get("text", ""))
    return SPEC[verdict].describe(text, derivation)


@functools.cache
def _fields(template: str) -> tuple[str, ...]:
    return tuple(field for _, field, _, _ in string.Formatter().parse(template) if field)


def phrase(templates: Sequence[str], **fields: object) -> str:
    """The first of `templates` whose every `{field}` is given (neither None nor empty), filled in; the last one
    when none is (a missing field then reads "None")."""
    for template in templates:
        if all(fields.get(field) for field in _fields(template)):
            return template.format(**fields)
    return templates[-1].format(**fields)
