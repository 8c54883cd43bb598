"""EmbedNum-1K sources: our seed questions (templates) or the authors' released triples (local file).

Seed questions (``resources/embednum_seed_questions.jsonl``, or any .jsonl/.json/.csv with these
fields; unknown fields are errors so typos surface):

* ``id``: unique name;  ``op``: ``>``, ``>=``, ``<`` or ``<=`` (must match the question's cue);
* ``unit``: ``plain`` (200), ``percent`` (200%) or ``money`` ($200);
* ``question``: one comparison and exactly one ``{threshold}`` placeholder, no other number;
* ``answer``: exactly one ``{value}`` placeholder, optionally ``{entity}`` (a fictitious company
  name), no other number and no comparison cue.

Released triples (``--source FILE``, .jsonl/.json/.csv), one triple per record, field names
(first present wins): question ``question|query|q``, A+ ``positive|pos|answer_positive|a+|correct``,
A- ``negative|neg|answer_negative|a-|wrong``; optional ``id``. Each question must state exactly
one one-sided comparison on its only number; A+ and A- must each hold one number, be identical
outside it, and A+ must satisfy / A- violate the condition. The number spans become the
``{threshold}`` / ``{value}`` placeholders from which the format variants are generated.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from importlib import resources
from pathlib import Path

from ...common.io import InputFileError, read_json, read_text
from ...corpus.records import jsonl_records, text_lines, text_records
from ...numbers import extract_numbers
from ...numbers.comparisons import find_constraints
from .configs import FORMATS
from .formats import render

ONE_SIDED = (">", ">=", "<", "<=")
UNITS = ("plain", "percent", "money")
SEED_FIELDS = ("id", "question", "answer", "op", "unit")
FIELD_ALIASES = {
    "question": ("question", "query", "q"),
    "positive": ("positive", "pos", "answer_positive", "a+", "correct"),
    "negative": ("negative", "neg", "answer_negative", "a-", "a−", "wrong"),
}
# Fictitious names: letters only, no comparison words, so they add no number or cue to an answer.
ENTITIES = (
    "Arden Holdings", "Bluefield Capital", "Castor Industries", "Delmar Foods", "Everly Systems",
    "Fairmont Energy", "Glenrock Mining", "Halcyon Biotech", "Ironwood Partners", "Juniper Retail",
    "Kestrel Logistics", "Larkspur Media", "Marlow Insurance", "Norcliff Steel", "Oakhaven Bank",
    "Pemberton Motors", "Quarry Lane Chemicals", "Ravenna Telecom", "Silverbrook Pharma", "Thornbury Group",
    "Umberfield Utilities", "Vantor Semiconductors", "Westmere Airlines", "Yarrow Apparel", "Zephyr Software",
    "Ashby Textiles", "Brightwater Shipping", "Coldstream Realty", "Dunmore Brewing", "Elmstead Finance",
)


def direction_of(op: str) -> str:
    return "above" if op in (">", ">=") else "below"


def holds(op: str, value: float, threshold: float) -> bool:
    """Crisp truth of `value op threshold`."""
    return {">": value > threshold, ">=": value >= threshold, "<": value < threshold,
            "<=": value <= threshold}[op]


@dataclass(frozen=True)
class Template:
    """One question/answer template pair: the unit of EmbedNum-1K construction."""

    id: str
    question: str  # with {threshold}
    answer: str  # with {value}, maybe {entity}
    op: str
    unit: str
    cue: str  # the comparison phrase of the question, e.g. "more than", "or more"
    cue_after: bool  # True when the cue follows the number ("200 or more")
    origin: str  # file:line it came from

    @property
    def direction(self) -> str:
        return direction_of(self.op)


@dataclass(frozen=True)
class ReleasedTriple:
    template: Template
    question: str
    positive: str
    negative: str
    threshold: float
    positive_value: float
    negative_value: float
    threshold_text: str
    positive_text: str
    negative_text: str
    id: str


def iter_records(path: str | Path) -> Iterator[tuple[int, dict]]:
    """(line, record) from .jsonl, .json (a list of objects) or .csv (header row)."""
    path = Path(path)
    text = read_text(path)
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        yield from jsonl_records(path, text_lines(text))
    elif suffix == ".json":
        data = read_json(path, text)
        if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
            raise InputFileError(path, None, "expected a JSON list of objects")
        # Records of a .json list are numbered from 1 (no reliable line numbers).
        yield from enumerate(data, start=1)
    elif suffix == ".csv":  # the record reader's CSV: a header row, every row as wide as it
        yield from text_records(path, text_lines(text), ",")[1]
    else:
        raise InputFileError(path, None, f"unsupported file type {suffix!r}: use .jsonl, .json or .csv")


def _field(path: Path, line: int, record: dict, name: str) -> str:
    value = record.get(name)
    if not isinstance(value, str) or not value.strip():
        raise InputFileError(path, line, f"field {name!r} must be a non-empty string, got {value!r}")
    return value


def _check_template(path: Path, line: int, t: Template) -> Template:
    """Render with probe numbers and check the parse: one number, the declared cue and operator."""
    orig = FORMATS["orig"]
    q = t.question.replace("{threshold}", render(orig, Decimal(200), t.unit))
    ms = extract_numbers(q)
    if len(ms) != 1 or ms[0].value != 200:
        raise InputFileError(path, line, f"field 'question' must hold exactly one number (the threshold); "
                                         f"{q!r} parses as {[m.text for m in ms]}")
    cons = find_constraints(q, ms)
    if len(cons) != 1 or cons[0].op not in ONE_SIDED:
        raise InputFileError(path, line, f"field 'question': no one-sided comparison cue found before or "
                                         f"after the threshold in {q!r}")
    if cons[0].op != t.op:
        raise InputFileError(path, line, f"field 'op' is {t.op!r} but the question's cue "
                                         f"{cons[0].cue!r} means {cons[0].op!r}")
    a = t.answer.replace("{value}", render(orig, Decimal(220), t.unit)).replace("{entity}", ENTITIES[0])
    ms_a = extract_numbers(a)
    if len(ms_a) != 1 or ms_a[0].value != 220:
        raise InputFileError(path, line, f"field 'answer' must hold exactly one number; {a!r} parses as "
                                         f"{[m.text for m in ms_a]}")
    if find_constraints(a, ms_a):
        raise InputFileError(path, line, f"field 'answer' must not state a comparison: {a!r}")
    cue = cons[0]
    return Template(t.id, t.question, t.answer, t.op, t.unit, cue.cue, cue.start >= ms[0].end, t.origin)


def default_seed_path() -> Path:
    return Path(str(resources.files("nash_metric") / "resources" / "embednum_seed_questions.jsonl"))


def load_seeds(path: str | Path | None = None) -> list[Template]:
    """Validated seed templates; see the module docstring for the fields."""
    path = Path(path) if path is not None else default_seed_path()
    out: list[Template] = []
    seen: dict[str, int] = {}
    for line, rec in iter_records(path):
        unknown = sorted(set(rec) - set(SEED_FIELDS))
        if unknown:
            raise InputFileError(path, line, f"unknown field(s) {unknown}; seed questions have {list(SEED_FIELDS)}")
        sid, question, answer = (_field(path, line, rec, f) for f in ("id", "question", "answer"))
        op, unit = _field(path, line, rec, "op"), _field(path, line, rec, "unit")
        if sid in seen:
            raise InputFileError(path, line, f"field 'id': {sid!r} already used on line {seen[sid]}")
        seen[sid] = line
        if op not in ONE_SIDED:
            raise InputFileError(path, line, f"field 'op' must be one of {ONE_SIDED}, got {op!r}")
        if unit not in UNITS:
            raise InputFileError(path, line, f"field 'unit' must be one of {UNITS}, got {unit!r}")
        if question.count("{threshold}") != 1:
            raise InputFileError(path, line, "field 'question' must contain '{threshold}' exactly once")
        if answer.count("{value}") != 1:
            raise InputFileError(path, line, "field 'answer' must contain '{value}' exactly once")
        t = Template(sid, question, answer, op, unit, "", False, f"{path}:{line}")
        out.append(_check_template(path, line, t))
    if not out:
        raise InputFileError(path, None, "no seed questions")
    for direction in ("above", "below"):
        if not any(t.direction == direction for t in out):
            raise InputFileError(path, None, f"no seed question with direction {direction!r}; both are needed")
    return out


def _alias(path: Path, line: int, record: dict, name: str) -> str:
    lowered = {k.lower().strip(): k for k in record}
    for alias in FIELD_ALIASES[name]:
        if alias in lowered:
            return _field(path, line, record, lowered[alias])
    raise InputFileError(path, line, f"missing field for {name}: expected one of {list(FIELD_ALIASES[name])}, "
                                     f"found {sorted(record)}")


def _one_number(path: Path, line: int, field: str, text: str):
    ms = extract_numbers(text)
    if len(ms) != 1 or ms[0].value is None:
        raise InputFileError(path, line, f"{field} must hold exactly one parseable number; {text!r} parses as "
                                         f"{[m.text for m in ms]}")
    return ms


def _unit_of(mention) -> str:
    return "money" if mention.kind == "monetary" else "percent" if mention.unit == "%" else "plain"


def load_released(path: str | Path) -> list[ReleasedTriple]:
    """Authors' triples, validated; see the module docstring for the accepted fields."""
    path = Path(path)
    out: list[ReleasedTriple] = []
    for line, rec in iter_records(path):
        q, pos, neg = (_alias(path, line, rec, f) for f in ("question", "positive", "negative"))
        mq = _one_number(path, line, "question", q)
        cons = find_constraints(q, mq)
        if len(cons) != 1 or cons[0].op not in ONE_SIDED:
            raise InputFileError(path, line, f"question must state one one-sided comparison on its number: {q!r}")
        op, threshold = cons[0].op, mq[0].value
        mp, mn = _one_number(path, line, "positive", pos)[0], _one_number(path, line, "negative", neg)[0]
        tpl_pos = pos[:mp.start] + "{value}" + pos[mp.end:]
        if tpl_pos != neg[:mn.start] + "{value}" + neg[mn.end:]:
            raise InputFileError(path, line, f"positive and negative must differ only in their number: "
                                             f"{pos!r} vs {neg!r}")
        if not holds(op, mp.value, threshold):
            raise InputFileError(path, line, f"positive value {mp.text!r} does not satisfy {op} {mq[0].text!r}")
        if holds(op, mn.value, threshold):
            raise InputFileError(path, line, f"negative value {mn.text!r} satisfies {op} {mq[0].text!r}; it must not")
        sid = str(rec.get("id", f"released-{line}"))
        cue = cons[0]
        template = Template(sid, q[:mq[0].start] + "{threshold}" + q[mq[0].end:], tpl_pos, op, _unit_of(mq[0]),
                            cue.cue, cue.start >= mq[0].end, f"{path}:{line}")
        out.append(ReleasedTriple(template, q, pos, neg, threshold, mp.value, mn.value, mq[0].text, mp.text,
                                  mn.text, sid))
    if not out:
        raise InputFileError(path, None, "no triples")
    return out
