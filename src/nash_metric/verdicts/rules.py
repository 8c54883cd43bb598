"""The verdict's rules as one table: each switch that the leave-one-domain-out ablation measures
(`perf/verdict_ablation.py`, dev data only), the step it acts in, and why it ships on or off.

`VerdictRule` holds one value per switch and travels whole (`decide.pair_verdicts(..., rule)`): no step takes a
flag of its own. `RULE` is what ships; the echo names it (`VerdictRule.describe`), so a change of default changes
the hashcode.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Literal

from .spec import COMPUTED

Step = Literal["value", "binding", "derivation"]


@dataclass(frozen=True)
class Switch:
    """One rule of the table: its `VerdictRule` field, the step it acts in, what it does and the evidence for its
    default (docs: "How the verdict was chosen")."""

    name: str
    step: Step
    does: str
    evidence: str


# In the echo's order (`VerdictRule.describe`): reordering changes the hashcode.
# The last switch is named after the verdict it enables.
SWITCHES: tuple[Switch, ...] = (
    Switch("counts", "value", "a number that counts things never supports an amount of money, nor stands at a scale",
           "on: changes no dev row (pinned by hand-written tests)"),
    Switch("durations", "value", 'a length of time agrees only with the same unit ("20 years" vs "20 minutes")',
           "on: SummEdits news 0.900 -> 0.925 BA, nothing else moves"),
    Switch("tables", "binding", "misplaced: a table cell's row, column or period",
           "on: FilingClaims tune 0.666 -> 0.756 BA, Rotowire 0.553 -> 0.647, quintd openweather 0.612 -> 0.664, "
           "TabFact 0.548 -> 0.560; quintd gsmarena 0.665 -> 0.552 (until attributes and entities name its cells)"),
    Switch("prose", "binding", "misplaced: a clause's period or subject noun in running text",
           "on: TabFact 0.548 -> 0.547 BA, nothing else moves (pinned by hand-written tests)"),
    Switch("qualifiers", "binding", 'misplaced: a qualifier names another measure ("GAAP" EPS against an '
           '"adjusted" one; basic/diluted, gross/net, operating/total, organic/reported)',
           "on: changes no dev row (pinned by hand-written tests)"),
    Switch("nouns", "binding", 'misplaced: a count of other things ("ten jobs" for "10 machines")',
           'off: SummEdits news left out 0.925 -> 0.898 ("870 people ... infected" for "870 infections")'),
    Switch("comparisons", "binding", 'a figure stated as a bound ("more than 3 draws", "at least 20") is never '
           "misplaced: it states no cell's value",
           "off: quintd gsmarena 0.676 -> 0.667 BA with it (\"cards up to 200MB\", wrong, passes), Rotowire "
           "0.818 -> 0.817; TabFact 0.595 -> 0.599"),
    Switch("direction", "binding", 'contradicted: a change stated in the opposite direction ("fell" vs "rose")',
           "on: flags nothing on the dev sets (pinned by hand-written tests)"),
    Switch("entities", "binding", "a table's row is named by the nearest row label before a figure in its sentence",
           "on: Rotowire 0.661 -> 0.818 BA, quintd gsmarena 0.644 -> 0.676, TabFact 0.585 -> 0.595, FilingClaims "
           "0.895 -> 0.898"),
    Switch("records", "binding", "a table row with no label of its own (its first column holds figures: a position, "
           'a draw) is named by its cells of words ("geoff ross" in the skipper column)',
           "on: TabFact 0.572 -> 0.595 BA; nothing else moves"),
    Switch("days", "binding", 'a table\'s rows are named by the day a figure\'s sentence names ("On January 6th, ...")',
           "off: quintd openweather 0.688 -> 0.677 BA; nothing else moves"),
    Switch("attributes", "binding", 'a table\'s column is named by the noun after a figure ("17 rebounds")',
           "on: Rotowire 0.698 -> 0.818 BA, quintd gsmarena 0.668 -> 0.676, TabFact 0.591 -> 0.595; quintd "
           "openweather 0.693 -> 0.688"),
    Switch("cells", "binding", "misplaced: the cell a figure names by row and column holds another value",
           "on: Rotowire 0.789 -> 0.818 BA, FilingClaims 0.896 -> 0.898, TabFact 0.588 -> 0.595; nothing else "
           "moves"),
    Switch("leads", "binding", "a table cell that writes a figure after the word the prediction writes before it "
           '("Android 6.0", "iPhone 15") states it for what the prediction does: its row and column contradict '
           "nothing", "on: quintd gsmarena 0.674 -> 0.676 BA, TabFact 0.591 -> 0.595; nothing else moves"),
    Switch("year_columns", "binding", "a table's column is named by the year a figure is stated for, when no noun "
           'names one ("Diluted EPS was $2.88 in 2023": the 2023 column)',
           "on: FilingClaims tune 0.895 -> 0.898 BA; nothing else moves"),
    Switch("extremes", "binding", 'misplaced: a range\'s bound or a highest/lowest that is not the named column\'s '
           "minimum or maximum over the named rows",
           "on: quintd openweather 0.664 -> 0.688 BA; quintd gsmarena 0.681 -> 0.676"),
    Switch("words", "value", 'a small count in words ("six assists") is judged when it names a column of the '
           "source's tables", "on: Rotowire 0.797 -> 0.818 BA, TabFact 0.594 -> 0.595; quintd gsmarena 0.678 -> 0.676"),
    Switch("aggregates", "derivation", "computed: the highest, lowest, average or total of a named column",
           "off: changes no dev row (pinned by hand-written tests)"),
    Switch("pairs", "binding", 'a pair followed by a noun ("6-9 FG") is stated for one entity, and the noun names '
           'the column of both; one with none is stated for any entity its sentence names ("beat the Knicks '
           '113-107")',
           "on: Rotowire 0.775 -> 0.818 BA; quintd openweather 0.692 -> 0.688"),
    Switch("any_table", "binding", "misplaced: a value found only in a table where the figure's noun names no "
           'column, when it names one of another table ("five road wins" against a player\'s 5 rebounds)',
           "on: Rotowire 0.801 -> 0.818 BA; nothing else moves"),
    Switch("operand_columns", "derivation", 'a derivation\'s table operands stand in the column the noun after '
           'the figure names ("14 rebounds" is no sum of defensive rebounds and rebounds)',
           "on: Rotowire 0.809 -> 0.818 BA; nothing else moves"),
    Switch("intervals", "derivation", "a percent change, share or ratio agrees when its interval at the operands' "
           "written digits meets the figure's (at most 1% wide); a sum or difference that is one of its operands is "
           "none", "on: FilingClaims tune 0.897 -> 0.898 BA; nothing else moves"),
    Switch(COMPUTED, "derivation", "computed: a figure stated nowhere that a derivation of numbers bound to "
           "what it names gives",
           "on: FilingClaims tune 0.760 -> 0.898 BA, TabFact 0.594 -> 0.595, no SummEdits figure computed"),
)


@dataclass(frozen=True)
class VerdictRule:
    """One value per switch of `SWITCHES`, plus how far apart two commensurable numbers may be (`ratio`)."""

    counts: bool = True
    durations: bool = True
    tables: bool = True
    prose: bool = True
    direction: bool = True
    qualifiers: bool = True
    comparisons: bool = False
    nouns: bool = False
    # Rivals at most this many times apart, in running text: the dev sets cannot tell 3, 10, 30 or none apart there
    # (`perf/verdict_ablation.py`: 10 and none differ by at most 0.001 BA on any set); 10 answers the held-out error
    # that asked for it (an EPS of $2.41 misplaced by $812 million). Not in tables, where a row and a column bind
    # a cell: quintd gsmarena 0.668 -> 0.676, openweather 0.687 -> 0.688, FilingClaims tune 0.897 -> 0.898; TabFact
    # 0.597 -> 0.595, within the 0.005 a left-out set may lose.
    ratio: float = 10.0
    ratio_in_tables: bool = False
    entities: bool = True
    records: bool = True
    days: bool = False
    attributes: bool = True
    cells: bool = True
    leads: bool = True
    year_columns: bool = True
    extremes: bool = True
    words: bool = True
    aggregates: bool = False
    pairs: bool = True
    any_table: bool = True
    operand_columns: bool = True
    intervals: bool = True
    computed: bool = True

    def describe(self) -> str:
        """The rule as the echo names it: "context(counts+tables+prose+direction+computed, ratio 10)"."""
        on = [s.name for s in SWITCHES if getattr(self, s.name)]
        return f"context({'+'.join(on) or 'value'}, ratio {self.ratio:g}{'' if self.ratio_in_tables else ' in prose'})"


assert {s.name for s in SWITCHES} == {f.name for f in fields(VerdictRule) if f.type == "bool"} - {"ratio_in_tables"}

RULE = VerdictRule()
# Step 1 as before the binding rules: values alone.
VALUE_ONLY = VerdictRule(**{s.name: False for s in SWITCHES})
