"""Comparison-aware numeric channel: numeric constraints ("above 200", "at most 5%", "between 3 and 7").

Plain NASH compares numbers by magnitude, so for "Which stocks trade above 200?" the answers
"... at 220" and "... at 180" look equally close to 200. With ``NASH(..., comparisons=True)`` the
scorer replaces the magnitude similarity of a mention pair by how well the value on one side
satisfies a constraint stated on the other side (``constraint_matrix``); pairs without a
constraint keep the paper's magnitude similarity, and the context-cosine alignment is unchanged.

Soft satisfaction (``satisfaction``). With threshold t and value v, the relative margin is
``m = (v - t) / S`` with ``S = (|v| + |t|) / 2`` (``m = 0`` when both are 0). Relative, not the
``N(v, u) = 1 + (|v|+|u|)/2`` of magnitude similarity: the constant 1 in N would make
0.008 vs 0.005 (or values scaled by 1e-30) indistinguishable, while "above" is scale-free.
With ``σ`` the logistic function, ``μ = MARGIN`` and ``w = WIDTH``::

    ">"  : σ(( m - μ) / w)        ">=" : σ(( m + μ) / w)
    "<"  : σ((-m - μ) / w)        "<=" : σ((-m + μ) / w)
    "between" [lo, hi] (inclusive) : min(s_">="(lo), s_"<="(hi))
    "not_between"                  : 1 - s_"between"

So a value exactly at the threshold scores σ(-μ/w) ≈ 0.12 for a strict and ≈ 0.88 for an
inclusive comparison, a value 5 % beyond the threshold on the satisfying side scores > 0.999 and
one 5 % on the violating side < 0.001. Negated cues fold into the complementary operator
("not above" = "<=", "not at least" = "<"), which keeps ``s_not(op) = 1 - s_op`` exactly.

Limitations (why this is opt-in): a cue must directly precede its number (an optional currency
code or symbol may sit in between) or follow it as "or more" / "and below"; "over 5 years" is
read as a constraint, "above the 200 mark" is not.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # only the attributes start, end, value are used
    from . import NumericMention

MARGIN = 0.01  # relative margin μ at which a strict comparison crosses 0.5
WIDTH = 0.005  # relative margin per logit unit w (sharpness of the soft step)

OPS = (">", ">=", "<", "<=", "between", "not_between")
NEGATE = {">": "<=", ">=": "<", "<": ">=", "<=": ">", "between": "not_between", "not_between": "between"}
# Constraint sides: a lower bound and an upper bound state opposite conditions, as do in/outside a range.
_SIDE = {">": "lower", ">=": "lower", "<": "upper", "<=": "upper",
         "between": "inside", "not_between": "outside"}
_OPPOSITE = {("lower", "upper"), ("upper", "lower"), ("inside", "outside"), ("outside", "inside")}

# Cue phrases before the number. The search is anchored at the number, so the leftmost (longest) phrase wins:
# "no more than" over "more than"; regex backtracking tries ">=" when ">" leaves a "=" unmatched.
_PREFIX_CUES: dict[str, tuple[str, ...]] = {
    ">=": (r"(?:greater|more|higher|larger) than or equal to", r"equal to or (?:greater|more|higher) than",
           r"at or above", r"at least", r"(?:a )?minimum of", r"no (?:less|fewer|lower) than",
           r"≥", r"⩾", r">="),
    "<=": (r"(?:less|lower|smaller|fewer) than or equal to", r"equal to or (?:less|lower|fewer) than",
           r"at or below", r"at most", r"(?:a )?maximum of", r"no (?:more|greater|higher) than", r"up to",
           r"≤", r"⩽", r"<="),
    ">": (r"(?:more|greater|higher|larger|bigger) than", r"in excess of", r"upwards of", r"north of",
          r"exceed(?:s|ed|ing)?", r"surpass(?:es|ed|ing)?", r"above", r"over", r"beyond", r">"),
    "<": (r"(?:less|lower|smaller|fewer) than", r"south of", r"below", r"under", r"beneath", r"<"),
}
_OP_GROUP = {">=": "ge", "<=": "le", ">": "gt", "<": "lt"}
_GROUP_OP = {g: op for op, g in _OP_GROUP.items()}


def _cue_pattern(cue: str) -> str:
    cue = cue.replace(" ", r"\s+")
    return rf"\b{cue}" if cue[0].isalpha() or cue.startswith("(") else cue


_CURRENCY = r"(?:[$€£¥]|\b(?:USD|EUR|JPY|CNY|GBP|RMB|US\$)\b)?"
_NEG = r"(?P<neg>\b(?:not|never|no)\s+|n't\s+)?"
_CUE_GROUPS = "|".join(
    f"(?P<{_OP_GROUP[op]}>{'|'.join(_cue_pattern(c) for c in cues)})" for op, cues in _PREFIX_CUES.items()
)
_PREFIX_RE = re.compile(
    _NEG + r"(?P<cue>" + _CUE_GROUPS + r")\s*" + _CURRENCY + r"\s*$",
    re.IGNORECASE,
)
_BETWEEN_RE = re.compile(
    r"(?P<neg>\b(?:not|never)\s+)?(?P<cue>\bbetween)\s*" + _CURRENCY + r"\s*$", re.IGNORECASE
)
_BETWEEN_GAP_RE = re.compile(r"^\s*(?:and|to|&|-|–|—)\s*" + _CURRENCY + r"\s*$", re.IGNORECASE)
_SUFFIX_RE = re.compile(
    r"^\s*(?P<cue>(?:or|and)\s+(?:(?P<ge>more|above|higher|greater|over|up)"
    r"|(?P<le>less|fewer|below|lower|under)))\b",
    re.IGNORECASE,
)
_LOOKBEHIND = 80  # characters of left context searched for a cue
# Any cue at all: a mention with none in its left context is searched no further (most are not).
_ANY_CUE = re.compile("|".join([*(_cue_pattern(c) for cues in _PREFIX_CUES.values() for c in cues), r"\bbetween"]),
                      re.IGNORECASE)
# A word (at a word start) or sign that every match of `_ANY_CUE` holds: "more than" its "than", "up to" its "up".
# A text with none (most) skips `_ANY_CUE`'s scan, many times slower than this one.
_CUE_HINT = re.compile(r"[<>≥⩾≤⩽]|\b(?:than|above|least|minimum|below|most|maximum|up|excess|north|exceed|surpass"
                       r"|over|beyond|south|under|beneath|between)", re.IGNORECASE)


@dataclass(frozen=True)
class Constraint:
    """A numeric condition stated in a text, e.g. "above 200" -> op ">", low 200."""

    mention_index: int  # the threshold mention (for between: the lower bound)
    op: str  # one of OPS; negations are folded in
    low: float | None  # threshold of ">", ">=", lower bound of a range
    high: float | None  # threshold of "<", "<=", upper bound of a range
    cue: str  # the cue phrase as written, negation included
    start: int  # span of the cue phrase in the text
    end: int
    other_index: int | None = None  # for between / not_between: the upper-bound mention

    def to_dict(self) -> dict:
        return asdict(self)

    @property
    def mention_indices(self) -> tuple[int, ...]:
        return (self.mention_index,) if self.other_index is None else (self.mention_index, self.other_index)


def _make(op: str, index: int, value: float, cue: str, start: int, end: int) -> Constraint:
    low, high = (value, None) if op in (">", ">=") else (None, value)
    return Constraint(index, op, low, high, cue, start, end)


def find_constraints(text: str, mentions: Sequence[NumericMention]) -> list[Constraint]:
    """Constraints stated in `text` on its `mentions` (at most one per mention), ordered by position.

    Mentions whose value is None (unparseable) never carry a constraint.
    """
    order = sorted(range(len(mentions)), key=lambda i: mentions[i].start)
    out: list[Constraint] = []
    used: set[int] = set()
    cues = [(c.start(), c.end()) for c in _ANY_CUE.finditer(text)] if _CUE_HINT.search(text) else []
    ends = [end for _, end in cues]
    for pos, i in enumerate(order):
        m = mentions[i]
        if i in used or m.value is None:
            continue
        window_start = max(0, m.start - _LOOKBEHIND)
        # Only a mention with a cue in its window is searched: a match of `_ANY_CUE` overlaps every cue there.
        k = bisect.bisect_right(ends, window_start)
        if k < len(cues) and cues[k][0] < m.start:
            prefix = text[window_start:m.start]
            # "between X and Y": X and the next mention form one range constraint.
            between = _BETWEEN_RE.search(prefix)
            if between and pos + 1 < len(order):
                j = order[pos + 1]
                other = mentions[j]
                if other.value is not None and _BETWEEN_GAP_RE.match(text[m.end:other.start]):
                    lo_i, hi_i = (i, j) if m.value <= other.value else (j, i)
                    op = "not_between" if between.group("neg") else "between"
                    start = window_start + between.start()
                    out.append(Constraint(lo_i, op, mentions[lo_i].value, mentions[hi_i].value,
                                          text[start:window_start + between.end("cue")], start,
                                          window_start + between.end("cue"), other_index=hi_i))
                    used.update((i, j))
                    continue
            match = _PREFIX_RE.search(prefix)
            if match:
                op = next(_GROUP_OP[g] for g in _GROUP_OP if match.group(g) is not None)
                if match.group("neg"):
                    op = NEGATE[op]
                start, end = window_start + match.start(), window_start + match.end("cue")
                out.append(_make(op, i, m.value, text[start:end], start, end))
                used.add(i)
                continue
        suffix = _SUFFIX_RE.match(text[m.end:m.end + 40])
        if suffix:
            op = ">=" if suffix.group("ge") else "<="
            start, end = m.end + suffix.start("cue"), m.end + suffix.end("cue")
            out.append(_make(op, i, m.value, text[start:end], start, end))
            used.add(i)
    return sorted(out, key=lambda c: c.start)


def _logistic(x: float) -> float:
    # Numerically stable for large |x| (margins of values scaled by 1e30 are still O(1), but be safe).
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def relative_margin(value: float, threshold: float) -> float:
    """(value - threshold) / ((|value| + |threshold|) / 2), 0 when both are 0; in [-2, 2]."""
    scale = (abs(value) + abs(threshold)) / 2.0
    return 0.0 if scale == 0.0 else (value - threshold) / scale


def _bound(op: str, value: float, threshold: float) -> float:
    m = relative_margin(value, threshold)
    if op == ">":
        return _logistic((m - MARGIN) / WIDTH)
    if op == ">=":
        return _logistic((m + MARGIN) / WIDTH)
    if op == "<":
        return _logistic((-m - MARGIN) / WIDTH)
    if op == "<=":
        return _logistic((-m + MARGIN) / WIDTH)
    raise ValueError(f"not a one-sided operator: {op!r}")


def satisfaction(constraint: Constraint, value: float) -> float:
    """Soft degree in [0, 1] to which `value` satisfies `constraint` (formula in the module docstring)."""
    if value is None or not math.isfinite(value):
        raise ValueError(f"satisfaction needs a finite value, got {value!r}")
    op = constraint.op
    if op in (">", ">="):
        return _bound(op, value, _need(constraint.low, constraint))
    if op in ("<", "<="):
        return _bound(op, value, _need(constraint.high, constraint))
    if op in ("between", "not_between"):
        inside = min(_bound(">=", value, _need(constraint.low, constraint)),
                     _bound("<=", value, _need(constraint.high, constraint)))
        return inside if op == "between" else 1.0 - inside
    raise ValueError(f"unknown constraint op {op!r}; expected one of {OPS}")


def _need(bound: float | None, constraint: Constraint) -> float:
    if bound is None:
        raise ValueError(
            f"constraint {constraint.op!r} at chars {constraint.start}-{constraint.end} lacks its bound"
        )
    return bound


def _by_mention(constraints: Sequence[Constraint]) -> dict[int, Constraint]:
    return {i: c for c in constraints for i in c.mention_indices}


def constraint_matrix(
    text_a: str, mentions_a: Sequence[NumericMention], text_b: str, mentions_b: Sequence[NumericMention]
) -> np.ndarray:
    """[len(mentions_a), len(mentions_b)] satisfaction scores; NaN where no constraint applies.

    Entry (i, j): the constraint on mention i of A scored at value j of B, or the constraint on
    mention j of B scored at value i of A. When both mentions carry constraints, opposite
    conditions (a lower vs an upper bound, inside vs outside a range) score 0 and compatible
    ones stay NaN, so their thresholds are compared by magnitude as in plain NASH.
    """
    out = np.full((len(mentions_a), len(mentions_b)), np.nan, dtype=np.float64)
    if not len(mentions_a) or not len(mentions_b):
        return out
    cons_a = _by_mention(find_constraints(text_a, mentions_a))
    cons_b = _by_mention(find_constraints(text_b, mentions_b))
    if not cons_a and not cons_b:
        return out
    for i, ma in enumerate(mentions_a):
        ca = cons_a.get(i)
        for j, mb in enumerate(mentions_b):
            cb = cons_b.get(j)
            if ca is not None and cb is not None:
                if (_SIDE[ca.op], _SIDE[cb.op]) in _OPPOSITE:
                    out[i, j] = 0.0
            elif ca is not None and mb.value is not None:
                out[i, j] = satisfaction(ca, mb.value)
            elif cb is not None and ma.value is not None:
                out[i, j] = satisfaction(cb, ma.value)
    return out
