"""FilingClaims' options and choices, shared by the builder, the evaluation and the `nash` flags (light: no numpy)."""

from __future__ import annotations

from typing import Literal

Form = Literal["markdown", "html", "text"]
Kind = Literal["supported", "misplaced", "unsupported",  # template and question claims
               "computed", "other-row", "other-year", "wrong-operation", "off", "wrong-direction"]  # computed group
Group = Literal["template", "question", "computed"]
Split = Literal["tune", "report"]

FORMS: tuple[Form, ...] = ("markdown", "html", "text")  # how a table is rendered; each is followed by its paragraphs
KINDS: tuple[Kind, ...] = ("supported", "misplaced", "unsupported", "computed", "other-row", "other-year",
                           "wrong-operation", "off", "wrong-direction")
TRUE_KINDS: tuple[Kind, ...] = ("supported", "computed")  # label 1; every other kind is label 0
GROUPS: tuple[Group, ...] = ("template", "question", "computed")
SPLITS: tuple[Split, ...] = ("tune", "report")  # by table: no table is in both
SPLIT_CHOICES = (*SPLITS, "both")
DEFAULT_SPLIT = "report"
DEFAULT_SEED = 0
DEFAULT_SPLIT_SEED = 0  # the split's own seed: another claim seed keeps every table in its half
CELLS_PER_TABLE = 3  # cells sampled per table; each gives one claim of every kind, scored against every form
