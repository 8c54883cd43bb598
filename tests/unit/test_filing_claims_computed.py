"""FilingClaims' computed group: derivations parsed and evaluated without eval, operands located in cells, each
false kind on a hand-made TAT-QA-shaped context (values worked out by hand below), the tally of what was left
out, determinism, and the false-computed rate of `benchmarks.claims`."""

from __future__ import annotations

import json
import random
from decimal import Decimal

import numpy as np
import pytest
from tatqa_records import question as tatqa_question

from nash_metric.benchmarks.claims import ClaimScores, claim_tables, claims_of, flag_markdown, score_claims
from nash_metric.benchmarks.filing_claims.build import build, build_rows, context_rows, split_of
from nash_metric.benchmarks.filing_claims.computed import (
    DerivationError,
    Unit,
    classify,
    computed_claims,
    locate,
    parse_derivation,
    usable,
    written,
)
from nash_metric.benchmarks.filing_claims.defaults import GROUPS, KINDS, TRUE_KINDS
from nash_metric.benchmarks.filing_claims.figures import SourceNumbers, agrees, core_place
from nash_metric.benchmarks.filing_claims.render import render_source
from nash_metric.benchmarks.filing_claims.table import paragraphs_of, read_table


def _arith(uid, text, answer, derivation, scale=""):
    return tatqa_question(uid, text, answer, derivation, scale=scale, answer_type="arithmetic")


# Amounts in millions; cost of sales printed as accounting negatives. Every value below is worked out by hand.
RESULTS = {
    "table": {"uid": "results", "table": [
        ["", "2019", "2018", "2017"],
        ["Net revenue", "$ 1,250.0", "$ 1,000.0", "$ 800.0"],
        ["Cost of sales", "(700.0)", "(640.0)", "(500.0)"],
        ["Gross margin", "44.0%", "36.0%", "37.5%"],
        ["Headcount", "410", "380", "350"],
    ]},
    "paragraphs": [{"uid": "p", "order": 1, "text": "The table shows results (in millions)."}],
    "questions": [
        _arith("change", "What was the change in Net revenue from 2018 to 2019?", 250, "1,250.0 - 1,000.0",
               "million"),
        _arith("pct", "What was the percentage change in Net revenue from 2018 to 2019?", 25,
               "(1,250.0-1,000.0)/1,000.0", "percent"),
        _arith("avg", "What was the average Headcount in 2018 and 2019?", 395, "(410 + 380)/2"),
        _arith("points", "What was the change in Gross margin from 2018 to 2019?", 8, "44.0 - 36.0", "percent"),
        _arith("share", "What was Cost of sales as a percentage of Net revenue in 2019?", 56, "700.0/1,250.0",
               "percent"),
        _arith("text", "What was the total of the two grants?", 16.3, "12.3 + 4"),  # not cells of the table
        _arith("code", "What is it?", 3, "abs(-3)"),  # not plain arithmetic
        _arith("wrong", "What was the change in Headcount from 2018 to 2019?", 31, "410 - 380"),  # 30, not 31
        _arith("sign", "What was the change in Headcount from 2017 to 2018?", -30, "380 - 350"),  # 30, not -30
        {"uid": "span", "question": "Which years?", "answer": ["2019"], "answer_type": "span", "derivation": "",
         "answer_from": "table", "scale": ""},
    ],
}


def _rows(context=RESULTS, seed=0, form="markdown"):
    rows, tally = context_rows(context, seed=seed)
    return [r for r in rows if r["group"] == "computed" and r["form"] == form], tally


def _claims_of(question, rows):
    return {r["kind"]: r for r in rows if r["question"] == question}


# -- parsing and evaluating ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "value", "operation"), [
    ("(668 - 716)/716", Decimal("-48") / 716, "percent-change"),  # -6.70%
    ("126 / 67 - 1", Decimal(126) / 67 - 1, "percent-change"),  # 88.06%
    ("(428,501 + 423,209 )/2", Decimal("425855"), "average"),
    ("34% + 11%", Decimal("45"), "sum"),
    ("-1.9-(-2.2)", Decimal("0.3"), "difference"),
    ("0 - (-42,271)", Decimal("42271"), "difference"),
    ("601,256-510,762", Decimal("90494"), "difference"),
    ("10.0/39.9", Decimal("10") / Decimal("39.9"), "share"),
    ("(2.7%+2.0%+1.0%)/3", Decimal("1.9"), "average"),
    ("((108,307-93,081)/93,081)*100", Decimal("15226") / 93081 * 100, "percent-change"),
    ("[(166+178)/2] - [(57+44)/2]", Decimal("121.5"), "other"),
    ("$2.79-$2.69", Decimal("0.10"), "difference"),
    ("421.9+422.0+445.6+421.9", Decimal("1711.4"), "sum"),
    ("(41,846 - 8,620)/8,620", Decimal("33226") / 8620, "percent-change"),
])
def test_derivations_are_parsed_evaluated_and_named(text, value, operation):
    derivation = parse_derivation(text)
    assert derivation.value() == value
    assert classify(derivation).operation == operation


def test_hand_computed_answers():
    assert round(parse_derivation("(668 - 716)/716").value() * 100, 2) == Decimal("-6.70")
    assert parse_derivation("(428,501 + 423,209 )/2").value() == 425855
    percent = parse_derivation("34% + 11%")
    assert percent.value() == 45 and percent.numbers == (34, 11) and percent.percent == (True, True)
    assert round(parse_derivation("126 / 67 - 1").value() * 100, 2) == Decimal("88.06")


def test_structural_numbers_are_constants_and_the_rest_operands():
    average = classify(parse_derivation("(137,347 + 100,284 + 72,849) / 3"))
    assert average.constants == {3}  # the count of the items, no cell
    change = classify(parse_derivation("126 / 67 - 1"))
    assert change.constants == {2} and change.operation == "percent-change"
    scaled = classify(parse_derivation("(5 - 4) / 4 * 100"))
    assert scaled.constants == {3} and scaled.same_as == {2: 1}  # the denominator is the old value again
    assert classify(parse_derivation("(1 + 2) / 4")).operation == "other"  # 4 items? no: not an average


@pytest.mark.parametrize("text", ["__import__('os').system('true')", "2**3", "abs(-3)", "1,2", "", "x + 1",
                                  "(1 + 2", "3 % 2", "lambda: 1", "1 if 2 else 3", "[1, 2]"])
def test_anything_but_plain_arithmetic_is_refused(text):
    with pytest.raises(DerivationError):
        parse_derivation(text)


def test_a_division_by_zero_is_an_error_not_a_crash():
    with pytest.raises(DerivationError, match="divides by zero"):
        parse_derivation("5 / (3 - 3)").value()


# -- locating the operands ----------------------------------------------------------------------------------


def test_operands_are_located_sign_agnostic_preferring_one_row():
    table = read_table({"table": {"uid": "t", "table": [
        ["", "2019", "2018"],
        ["Sales", "380", "410"],
        ["Headcount", "410", "380"],
        ["Net loss", "(1,310)", "(228)"],
    ]}, "paragraphs": [], "questions": []})
    derivation = parse_derivation("(410 + 380)/2")
    cells = locate(table, derivation, classify(derivation))
    assert sorted(cells.values()) == [(1, 1), (1, 2)]  # both in one row (the first such row), not one in each
    loss = parse_derivation("-1,310 - (-228)")
    assert locate(table, loss, classify(loss)) == {0: (3, 1), 1: (3, 2)}  # "(1,310)" holds 1,310 and -1,310
    missing = parse_derivation("410 - 999")
    assert locate(table, missing, classify(missing)) is None


def test_usable_reads_the_unit_and_the_percent_factor():
    table = read_table(RESULTS)
    questions = {q["uid"]: q for q in RESULTS["questions"]}
    change = usable(table, questions["change"])
    assert (change.operation, change.factor, change.unit) == ("difference", 1, Unit(False, "$", "million"))
    share = usable(table, questions["share"])
    assert (share.operation, share.factor, share.unit) == ("share", 100, Unit(True))
    assert usable(table, questions["points"]).operation == "point-change"
    assert usable(table, questions["avg"]).unit == Unit(False, "", "")  # headcount: no currency, no scale
    assert usable(table, questions["text"]) == "an operand is not a cell of the table"
    assert usable(table, questions["code"]) == "the derivation is not plain arithmetic of numbers"
    assert usable(table, questions["wrong"]) == "the derivation does not give the answer"
    assert usable(table, questions["sign"]) == "the derivation gives the answer with the other sign"


def test_values_are_written_as_nash_reads_them():
    from nash_metric.numbers.extract import extract_numbers

    cases = [(written(Decimal("-35"), 0, Unit(False, "$", "million")), "-$35 million", -35e6),
             (written(Decimal("90494"), 0, Unit(False, "$", "thousand")), "$90,494 thousand", 90494e3),
             (written(Decimal("-6.7"), 1, Unit(True)), "-6.7%", -6.7),
             (written(Decimal("1136.66"), 2, Unit(True)), "1,136.66%", 1136.66),
             (written(Decimal("0.104"), 2, Unit(False)), "0.10", 0.10)]
    for text, expected, value in cases:
        assert text == expected
        read = [m for m in extract_numbers(f"The change in 2019 was {text}.") if m.kind != "temporal"]
        assert len(read) == 1 and read[0].value == pytest.approx(value)


# -- the claims, by hand ------------------------------------------------------------------------------------


def test_the_true_claims_state_tatqas_answers():
    rows, _ = _rows()
    true = {r["question"]: r for r in rows if r["kind"] == "computed"}
    assert set(true) == {"change", "pct", "avg", "points", "share"}
    assert true["change"]["claim"] == "The change in Net revenue from 2018 to 2019 was $250 million."
    assert true["pct"]["claim"] == "The percentage change in Net revenue from 2018 to 2019 was 25%."
    assert true["avg"]["claim"] == "The average Headcount in 2018 and 2019 was 395."
    assert true["share"]["figure"] == "56%" and true["points"]["figure"] == "8%"
    for row in true.values():
        assert row["label"] == 1 and row["group"] == "computed" and row["changed"] is None
    assert true["pct"]["cells"] == [[1, 1], [1, 2], [1, 2]] and true["pct"]["operation"] == "percent-change"
    assert true["share"]["cells"] == [[2, 1], [1, 1]] and true["share"]["derivation"] == "700.0/1,250.0"


def test_other_row_is_the_same_derivation_over_another_row():
    rows, _ = _rows()
    for seed in range(6):
        rows, _ = _rows(seed=seed)
        change = _claims_of("change", rows)["other-row"]
        # row 2: (-700) - (-640) = -60 (the cells' signs kept); row 4: 410 - 380 = 30; row 3 is percentages
        expected = {2: "-$60 million", 4: "$30 million"}
        row = change["value_cells"][0][0]
        assert change["figure"] == expected[row] and change["value_cells"] == [[row, 1], [row, 2]]
        assert change["label"] == 0 and change["claim"].endswith(f"was {change['figure']}.")
        pct = _claims_of("pct", rows)["other-row"]
        # row 2: (-700 + 640) / -640 = 9.375% -> 9%; row 4: 30 / 380 = 7.89% -> 8% (the answer's 0 decimals)
        assert pct["figure"] == {2: "9%", 4: "8%"}[pct["value_cells"][0][0]]
    assert "other-row" not in _claims_of("share", rows)  # part and total are in two rows


def test_other_year_shifts_the_columns_and_a_value_agreeing_with_the_answer_is_skipped():
    rows, tally = _rows()
    change = _claims_of("change", rows)["other-year"]
    assert change["figure"] == "$200 million" and change["value_cells"] == [[1, 2], [1, 3]]  # 1,000 - 800
    assert change["changed"] == "column 1 -> 2, 2 -> 3"
    share = _claims_of("share", rows)["other-year"]
    assert share["figure"] in ("64%", "63%")  # 640 / 1,000 or 500 / 800 = 62.5% -> 63%
    # (1,000 - 800) / 800 = 25%: the answer itself, so the pct question has no other-year claim
    assert "other-year" not in _claims_of("pct", rows)
    assert tally["computed false skipped: other-year: agrees with the answer"] == 1


def test_wrong_operation_swaps_difference_and_percentage_change():
    rows, _ = _rows()
    assert _claims_of("change", rows)["wrong-operation"]["figure"] == "$25.00 million"  # 250 / 1,000
    assert _claims_of("pct", rows)["wrong-operation"]["figure"] == "250.0%"  # 1,250.0 - 1,000.0
    assert _claims_of("points", rows)["wrong-operation"]["figure"] == "22.22%"  # (44 - 36) / 36
    assert "wrong-operation" not in _claims_of("avg", rows) and "wrong-operation" not in _claims_of("share", rows)


def test_off_moves_the_answer_by_ten_to_thirty_percent_at_its_decimals():
    for seed in range(8):
        rows, _ = _rows(seed=seed)
        for question, answer in (("change", 250), ("pct", 25), ("avg", 395), ("points", 8), ("share", 56)):
            made = _claims_of(question, rows).get("off")
            if made is None:
                continue
            value = Decimal(made["value"])
            assert Decimal("0.09") <= abs(value / answer - 1) <= Decimal("0.31"), (question, value)
            assert "." not in made["value"] and not agrees(value, Decimal(answer))


def test_wrong_direction_flips_the_sign_of_changes_only():
    rows, tally = _rows()
    assert _claims_of("change", rows)["wrong-direction"]["figure"] == "-$250 million"
    assert _claims_of("pct", rows)["wrong-direction"]["figure"] == "-25%"
    assert _claims_of("points", rows)["wrong-direction"]["figure"] == "-8%"
    assert "wrong-direction" not in _claims_of("avg", rows) and "wrong-direction" not in _claims_of("share", rows)
    assert tally["computed false skipped: wrong-direction: not applicable: not a change"] == 2


def test_no_false_value_agrees_with_the_answer_or_is_a_number_of_the_source():
    for seed in range(5):
        rows, _ = _rows(seed=seed)
        numbers = SourceNumbers.of(r["source"] for r in context_rows(RESULTS, seed=seed)[0])
        for row in rows:
            if row["label"] == 1:
                continue
            value, answer = Decimal(row["value"]), Decimal(row["answer"])
            core = row["figure"].lstrip("-$").split()[0].rstrip("%")
            assert value != 0 and not numbers.holds(core)
            if row["kind"] != "wrong-direction":
                assert not agrees(value, answer, core_place(core)), row["claim"]
            else:
                assert value == -answer


def test_skipped_questions_and_claims_are_tallied():
    _, tally = _rows()
    assert tally["computed: arithmetic questions"] == 9  # the span question is no arithmetic one
    assert tally["computed used"] == 5
    assert tally["computed skipped: an operand is not a cell of the table"] == 1
    assert tally["computed skipped: the derivation is not plain arithmetic of numbers"] == 1
    assert tally["computed skipped: the derivation does not give the answer"] == 1
    assert tally["computed skipped: the derivation gives the answer with the other sign"] == 1
    assert tally["computed used: difference"] == tally["computed used: point-change"] == 1
    assert tally["computed false skipped: other-row: not applicable: the operands are not in one row"] == 1


def test_a_true_answer_the_source_states_is_kept_and_flagged():
    context = json.loads(json.dumps(RESULTS))
    context["paragraphs"].append({"uid": "q", "order": 2, "text": "Net revenue grew by 25% in 2019."})
    rows, tally = _rows(context)
    pct = _claims_of("pct", rows)
    assert pct["computed"]["stated_in_source"] is True and tally["computed: the answer is also a number of the source"]
    assert "wrong-direction" not in pct  # its magnitude, 25, is a number of the source


def test_every_form_gets_the_computed_claims_and_the_kinds_are_declared():
    rows, _ = context_rows(RESULTS)
    computed = [r for r in rows if r["group"] == "computed"]
    assert {r["form"] for r in computed} == {"markdown", "html", "text"}
    assert len({r["claim"] for r in computed if r["form"] == "html"}) == len(computed) // 3
    assert {r["kind"] for r in computed} <= set(KINDS) and "computed" in GROUPS and "computed" in TRUE_KINDS
    assert all(r["label"] == int(r["kind"] in TRUE_KINDS) for r in rows)


# -- determinism and the split ------------------------------------------------------------------------------


def _copies(n):
    return [{**RESULTS, "table": {**RESULTS["table"], "uid": f"results-{k}"}} for k in range(n)]


def test_the_computed_claims_are_deterministic_and_split_by_table():
    contexts = _copies(30)
    first, report = build_rows(contexts, seed=0)
    again, _ = build_rows(contexts, seed=0)
    assert first == again
    reseeded, _ = build_rows(contexts, seed=5)
    assert any(a != b for a, b in zip(first, reseeded))  # the off values and the rows drawn move with the seed
    split = {r["table"]: r["split"] for r in first}
    assert {r["table"]: r["split"] for r in reseeded} == split == {t: split_of(t) for t in split}
    assert set(split.values()) == {"tune", "report"}
    true_rows = lambda rows: [(r["table"], r["claim"]) for r in rows if r["kind"] == "computed"]  # noqa: E731
    assert true_rows(first) == true_rows(reseeded)  # the true claims do not depend on the seed
    assert sum(n for k, n in report["claims"].items() if k.endswith("computed · computed")) == 30 * 5


def test_the_computed_claims_draw_after_the_others():
    table = read_table(RESULTS)
    paragraphs = paragraphs_of(RESULTS)
    numbers = SourceNumbers.of(render_source(table, paragraphs, f) for f in ("markdown", "html", "text"))
    claims, _ = computed_claims(table, RESULTS["questions"], random.Random(1), numbers)
    again, _ = computed_claims(table, RESULTS["questions"], random.Random(1), numbers)
    assert [c.claim for c in claims] == [c.claim for c in again]
    without, _ = context_rows({**RESULTS, "questions": []})
    with_them, _ = context_rows(RESULTS)
    assert [r for r in with_them if r["group"] != "computed"] == without  # template claims are unchanged


def test_the_build_report_tallies_the_computed_group(tmp_path):
    source = tmp_path / "tatqa.json"
    source.write_text(json.dumps(_copies(4)), encoding="utf-8")
    report = build(tmp_path / "fc.jsonl", source=source)
    assert report["tally"]["computed used"] == 20 and report["tally"]["computed: arithmetic questions"] == 36
    assert any(" · computed · wrong-direction" in k for k in report["claims"])


# -- the false-computed rate --------------------------------------------------------------------------------


RATE_ROWS = [
    {"source": "s", "claim": "a 1", "label": 1, "kind": "supported", "group": "template"},
    {"source": "s", "claim": "a 2", "label": 0, "kind": "misplaced", "group": "template"},
    {"source": "s", "claim": "a 3", "label": 1, "kind": "computed", "group": "computed"},
    {"source": "s", "claim": "a 4", "label": 1, "kind": "computed", "group": "computed"},
    {"source": "s", "claim": "a 5", "label": 0, "kind": "other-row", "group": "computed"},
    {"source": "s", "claim": "a 6", "label": 0, "kind": "other-row", "group": "computed"},
    {"source": "s", "claim": "a 7", "label": 0, "kind": "off", "group": "computed"},
    {"source": "s", "claim": "a 8", "label": 0, "kind": "off", "group": "computed"},
]
# Per row, every figure's verdict: the 2nd other-row and one off row are excused by a derivation.
RATE_VERDICTS = (("supported",), ("misplaced",), ("computed",), ("unsupported",), ("unsupported",),
                 ("supported", "computed"), ("computed",), ("unsupported",))


def _rate_scores(verdicts=RATE_VERDICTS):
    flagged = tuple(tuple(v for v in row if v not in ("supported", "computed")) for row in RATE_VERDICTS)
    verdict = np.array([0.0 if f else 1.0 for f in flagged])
    ones = np.ones(len(RATE_ROWS))
    return ClaimScores(verdict, verdict, ones, ones, flagged, verdicts)


def test_the_false_computed_rate_by_hand():
    tables = claim_tables(claims_of(RATE_ROWS), _rate_scores())
    rates = tables["false_computed"]
    assert rates["overall"] == pytest.approx(2 / 5)  # 5 label-0 rows, 2 with a figure called computed
    assert rates["group"] == {"template": 0.0, "computed": pytest.approx(2 / 4)}
    assert rates["kind"] == {"misplaced": 0.0, "other-row": 0.5, "off": 0.5}
    assert rates["group_kind"]["computed · off"] == 0.5
    flags = tables["flags"]
    assert flags["other-row"]["false_computed"] == 0.5 and flags["off"]["with_computed_figure"] == 0.5
    assert flags["computed"]["false_computed"] is None  # label 1: no false-computed rate
    assert flags["computed"]["with_computed_figure"] == 0.5  # one true computed claim of two called computed
    assert flags["other-row"]["flagged_by_value_anywhere"] == 0.0  # the value-anywhere check stays beside it
    text = flag_markdown(tables)
    assert "with a figure called computed" in text and "flagged by value-anywhere" in text
    assert "False-computed rate" in text and "group computed 0.500" in text and "all 0.400" in text


def test_without_figure_verdicts_the_rate_is_unknown():
    tables = claim_tables(claims_of(RATE_ROWS), _rate_scores(None))
    assert tables["false_computed"]["overall"] is None and tables["flags"]["off"]["false_computed"] is None
    assert "all –" in flag_markdown(tables)


class VerdictScorer:
    """Calls a figure computed when its claim ends in an odd digit, supported otherwise."""

    hashcode = "h"

    def __init__(self) -> None:
        self.echo = {"model": "fake", "backend": "sentence"}

    def score(self, predictions, references, show_progress=False):
        from types import SimpleNamespace

        every = [[{"text": p[-1], "verdict": "computed" if int(p[-1]) % 2 else "supported"}] for p in predictions]
        return SimpleNamespace(numeric_support=np.ones(len(predictions)), unsupported_numbers=[[] for _ in every],
                               figure_verdicts=every, config={"threshold": 0.5})


def test_score_claims_keeps_every_figure_verdict_in_claim_order():
    rows = [{**r, "source": f"s{k % 3}"} for k, r in enumerate(RATE_ROWS)]  # pairs reordered by source
    scores, _ = score_claims(VerdictScorer(), claims_of(rows), show_progress=False)
    assert scores.verdicts == tuple(("computed",) if k % 2 else ("supported",) for k in range(1, 9))
    assert scores.flagged == ((),) * 8


def test_bench_filing_claims_reports_the_false_computed_rate_on_the_tiny_model(tmp_path, tiny_scorer):
    from nash_metric.benchmarks import registry

    source = tmp_path / "tatqa.json"
    source.write_text(json.dumps(_copies(6)), encoding="utf-8")
    out = tmp_path / "fc.jsonl"
    build(out, source=source, cells_per_table=1)
    result = registry["filing-claims"].evaluate(tiny_scorer, out, split="both", limit=1, show_progress=False)
    for split in result["results"]["splits"].values():
        tables = split["all_forms"]
        rates = tables["false_computed"]
        assert set(rates["group"]) == {"template", "computed"}  # no question claims in these contexts
        assert all(v is None or 0.0 <= v <= 1.0 for v in (rates["overall"], *rates["kind"].values()))
        assert rates["overall"] is not None  # the NASH output gives every figure's verdict
        assert "computed · other-row vs label 1" in [f"{k} vs label 1" for k in tables["group_kind"]]
        assert tables["flags"]["other-row"]["false_computed"] is not None
    assert "False-computed rate" in registry["filing-claims"].markdown(result)


def test_a_difference_between_items_has_no_direction_to_flip():
    context = {**RESULTS, "questions": [
        _arith("between", "What is the difference in Headcount between 2017 and 2018?", 30, "380 - 350"),
        _arith("rise", "By how much did Headcount rise from 2017 to 2018?", 30, "380 - 350"),
    ]}
    rows, tally = _rows(context)
    assert "wrong-direction" not in _claims_of("between", rows) and "wrong-operation" in _claims_of("between", rows)
    assert _claims_of("rise", rows)["wrong-direction"]["figure"] == "-30"
    assert tally["computed false skipped: wrong-direction: not applicable: the question names no change"] == 1


def test_holds_compares_only_nearby_numbers_yet_agrees_with_comparing_all():
    rng = random.Random(7)
    for _ in range(200):
        values = [Decimal(str(round(rng.uniform(0, rng.choice([1, 60, 6000])), rng.choice([0, 1, 2]))))
                  * rng.choice([1, -1]) for _ in range(25)]
        values += [Decimal(v) for v in ("0", "1000", "1400", "0.05")]  # zero and round numbers read coarsely
        source = SourceNumbers(tuple(values))
        for _ in range(30):
            decimals = rng.choice([0, 1, 2])
            core = f"{rng.uniform(0, rng.choice([1, 60, 7000])):,.{decimals}f}"
            everything = any(agrees(Decimal(core.replace(",", "")), v, core_place(core)) for v in values)
            assert source.holds(core) == everything, core
