"""Question claims: TAT-QA's questions answered from the table with a stated (not computed) figure, as claims.

A question is used when ``answer_from`` is ``table``, its ``derivation`` is empty (a computed answer, a sum or a
change, is counted and left out here: the arithmetic ones make the ``computed`` group, `computed`), every answer
is a figure, and the first answer's value is a cell of the table. The **supported** claim states the question's
subject with its answers ("What was the revenue in 2019?" + "$1,496.5", scale million -> "The revenue in 2019 was
$1,496.5 million."); the **misplaced** claim states the first answer replaced by another figure of that cell's
row or column.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from .figures import ClaimText, misplaced
from .table import Figure, Table, clean, read_figure

_QUESTION = re.compile(r"^(?:what|how much)\s+(?:is|was|are|were)\s+(?:the\s+)?(?P<rest>.+)$", re.IGNORECASE)
AMOUNT_SCALES = ("thousand", "million", "billion")


def question_sentence(question: str, answers: Sequence[str]) -> str:
    """The question as a statement of its answers: "What was X?" -> "The X was A." (else "Question: A.")."""
    text = clean(question).rstrip("?").strip()
    joined = answers[0] if len(answers) == 1 else f"{', '.join(answers[:-1])} and {answers[-1]}"
    m = _QUESTION.match(text)
    if m is None:
        return f"{text}: {joined}."
    return f"The {m['rest']} {'was' if len(answers) == 1 else 'were'} {joined}."


def _written(figure: Figure, scale: str) -> str:
    if scale == "percent" and not figure.percent:
        return Figure(figure.currency, figure.core, figure.negative, True).written()
    return figure.written(scale=scale if scale in AMOUNT_SCALES and not figure.percent else "")


def _located(table: Table, figure: Figure) -> tuple[int, int] | None:
    """The first body cell holding the answer's value (sign dropped: an answer may omit the parentheses)."""
    return next((at for at, f in sorted(table.figures.items())
                 if f.percent == figure.percent and abs(f.value) == abs(figure.value)), None)


def _why_not(question: dict[str, Any]) -> str | None:
    if question.get("answer_from") != "table":
        return "not answered from the table"
    if str(question.get("derivation") or "").strip():
        return "computed from the table (arithmetic ones: group computed)"
    return None


def question_claims(table: Table, questions: Sequence[dict[str, Any]], rng: random.Random
                    ) -> tuple[list[ClaimText], Counter[str]]:
    """The supported and misplaced claims of each usable question; the tally says what was used or skipped."""
    tally: Counter[str] = Counter()
    claims: list[ClaimText] = []
    for q in questions:
        tally["questions"] += 1
        if why := _why_not(q):
            tally[f"questions: {why}"] += 1
            continue
        answers = q.get("answer") if isinstance(q.get("answer"), list) else [q.get("answer")]
        figures = [read_figure(str(a)) for a in answers if str(a).strip()]
        if not figures or any(f is None for f in figures):
            tally["questions skipped: an answer is not a figure"] += 1
            continue
        at = _located(table, figures[0])
        if at is None:
            tally["questions skipped: the answer is not a cell of the table"] += 1
            continue
        other = misplaced(table, *at, rng, figures)
        if other is None:
            tally["questions skipped: no other value in the row or column"] += 1
            continue
        where, cell, found = other
        wrong = Figure(figures[0].currency, found.core, found.negative, figures[0].percent)
        scale = str(q.get("scale") or "")
        for kind, stated in (("supported", figures), ("misplaced", [wrong, *figures[1:]])):
            written = [_written(f, scale) for f in stated]
            detail = {"question": q.get("uid"), "cell": list(at), "figure": written[0],
                      "cell_value": _written(figures[0], scale), "value_from": "answer" if kind == "supported"
                      else where, "value_cell": list(at if kind == "supported" else cell)}
            claims.append(ClaimText(question_sentence(q["question"], written), int(kind == "supported"), kind,
                                    "question", detail))
        tally["questions used"] += 1
    return claims, tally

