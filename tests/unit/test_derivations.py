"""Computed figures (`verdicts.derivations`): a figure no source number states, given by a derivation of the
numbers bound to what the prediction names. No model: every context vector is the same, so only values, words
and binding decide. Each derivation is checked against a hand computation."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from nash_metric.context.binding import change_sign
from nash_metric.pipeline.pool import TextPool
from nash_metric.verdicts import derivations
from nash_metric.verdicts.decide import context_verdicts, support_fields
from nash_metric.verdicts.rules import RULE

TABLE = """Segment results (in millions)

| | 2019 | 2018 |
|---|---|---|
| Services revenue | 18.1 | 12.0 |
| Product revenue | 44.3 | 38.0 |
| Cost of sales | 31.0 | 33.5 |
| Gross margin | 41.2% | 39.8% |
"""
PROSE = "Revenue was $62.4 million in 2019, up from $50.2 million in 2018. Costs were $31.0 million in 2019."


def _verdicts(prediction: str, source: str, rule=RULE) -> list[dict]:
    pool = TextPool.build([prediction, source])
    encodings = [SimpleNamespace(mention_has_tokens=np.ones(len(spans), bool),
                                 mention_vectors=np.ones((len(spans), 16), np.float32)) for spans in pool.spans()]
    table = pool.mention_table(encodings)
    ids = pool.original_ids([prediction])[0], pool.original_ids([source])[0]
    return context_verdicts(table, [ids], rule)[0]


def _figure(prediction: str, source: str, figure: str, rule=RULE) -> dict:
    return next(e for e in _verdicts(prediction, source, rule) if e["text"] == figure)


@pytest.mark.parametrize(("claim", "figure", "derivation"), [
    # (18.1 - 12.0) / 12.0 = 0.50833 -> 50.8%
    ("Services revenue grew 50.8% from 2018 to 2019.", "50.8%", "(18.1 − 12.0) / 12.0 = 50.8%"),
    # 44.3 - 38.0 = 6.3 (millions)
    ("Product revenue rose by $6.3 million in 2019.", "$6.3 million", "44.3 − 38.0 = $6.3 million"),
    # 18.1 + 44.3 = 62.4 (millions)
    ("Combined services and product revenue was $62.4 million in 2019.", "$62.4 million",
     "18.1 + 44.3 = $62.4 million"),
    # (31.0 - 33.5) / 33.5 = -0.07463 -> a fall of 7.5%
    ("Cost of sales fell 7.5% in 2019.", "7.5%", "(31.0 − 33.5) / 33.5 = −7.5%"),
    # 41.2 - 39.8 = 1.4 points
    ("Gross margin expanded 1.4 percentage points in 2019.", "1.4 percentage points", "41.2% − 39.8% = 1.4 points"),
    # (12.0 + 18.1) / 2 = 15.05
    ("The average services revenue for 2018 and 2019 was $15.05 million.", "$15.05 million",
     "(18.1 + 12.0) / 2 = $15.05 million"),
    # 18.1 / 62.4? no total row: 18.1 / 44.3 = 40.86% of product revenue
    ("Services revenue was 40.9% of product revenue as a share in 2019.", "40.9%", "18.1 / 44.3 = 40.9%"),
    # the percentage change stated with its own sign: (31.0 - 33.5) / 33.5 = -7.46%
    ("The percentage change in cost of sales between 2018 and 2019 was -7.46%.", "-7.46%",
     "(31.0 − 33.5) / 33.5 = −7.46%"),
])
def test_a_derivation_of_bound_cells_is_computed(claim, figure, derivation):
    entry = _figure(claim, TABLE, figure)
    assert entry["verdict"] == "computed", entry
    assert entry["derivation"] == derivation
    assert entry["found"] is None
    for operand in entry["operands"]:
        assert TABLE[operand["start"]:operand["end"]] == operand["text"]


@pytest.mark.parametrize(("claim", "figure", "why"), [
    ("Cost of sales grew 7.5% in 2019.", "7.5%", "a rise where the cells fell"),
    ("The percentage change in cost of sales between 2018 and 2019 was 7.46%.", "7.46%", "the change's sign"),
    ("Services revenue was 18.1% in 2019.", "18.1%", "a cell's value stated as a percent"),
    ("Services revenue grew 47.3% in 2019.", "47.3%", "a percentage that no derivation gives"),
    ("Cost of sales grew 50.8% in 2019.", "50.8%", "another row's change"),
    ("Services revenue rose by $6.3 million in 2019.", "$6.3 million", "another row's difference"),
])
def test_what_no_bound_derivation_gives_is_not_supported(claim, figure, why):
    assert _figure(claim, TABLE, figure)["verdict"] == "unsupported", why


def test_an_unsupported_figure_shows_its_closest_derivation():
    rise = _figure("Cost of sales grew 7.5% in 2019.", TABLE, "7.5%")
    assert rise["derivation"] == "(31.0 − 33.5) / 33.5 = −7.5%"  # the fall the cells give, for the reader
    far = _figure("Services revenue grew 400.0% in 2019.", TABLE, "400.0%")
    assert far["derivation"] is None and far["operands"] is None


def test_computed_counts_as_supported():
    pool_claim = "Services revenue grew 50.8% from 2018 to 2019, and product revenue grew 99.9%."
    verdicts = _verdicts(pool_claim, TABLE)
    fields = support_fields([verdicts], np.array([0]))
    judged = [e for e in verdicts if e["text"] in ("50.8%", "99.9%")]
    assert [e["verdict"] for e in judged] == ["computed", "unsupported"]
    assert [e["text"] for e in fields["unsupported_numbers"][0]] == ["99.9%"]
    # The years place the changes: supported, they are not counted (`FigureVerdict.role`).
    assert {e["text"]: e["role"] for e in verdicts} == {"50.8%": "figure", "2018": "period", "2019": "period",
                                                         "99.9%": "figure"}
    assert fields["numeric_support"][0] == pytest.approx(0.5)


def test_the_switch_turns_it_off():
    off = replace(RULE, computed=False)
    entry = _figure("Services revenue grew 50.8% from 2018 to 2019.", TABLE, "50.8%", off)
    assert entry["verdict"] == "unsupported" and entry["derivation"] is None
    assert "computed" in RULE.describe() and "computed" not in off.describe()


# (1,234.5 − 1,057.5) / 1,057.5 = 16.7376%; with each operand anywhere in its rounding interval (±0.05) the
# change runs from (1,234.45 − 1,057.55) / 1,057.55 = 16.7274% to (1,234.55 − 1,057.45) / 1,057.45 = 16.7478%.
REVENUE = "Revenue (in millions)\n\n| | 2019 | 2018 |\n|---|---|---|\n| Revenue | 1,234.5 | 1,057.5 |\n"


@pytest.mark.parametrize(("claim", "verdict"), [
    ("Revenue grew 16.74% in 2019.", "computed"),  # the operands' values give it
    ("Revenue grew 16.73% in 2019.", "computed"),  # [16.725, 16.735] meets [16.7274, 16.7478]
    ("Revenue grew 16.75% in 2019.", "computed"),  # [16.745, 16.755] meets it too
    ("Revenue grew 16.71% in 2019.", "unsupported"),  # 16.715 falls short of 16.7274
])
def test_a_ratio_agrees_at_its_operands_written_precision(claim, verdict):
    figure = claim.split()[2]
    assert _figure(claim, REVENUE, figure)["verdict"] == verdict
    exact = replace(RULE, intervals=False)
    assert _figure(claim, REVENUE, figure, exact)["verdict"] == ("computed" if figure == "16.74%" else "unsupported")


def test_an_interval_too_wide_supports_nothing():
    # (18.1 − 12.0) / 12.0 = 50.83%, but the operands' digits allow 49.79% to 51.88%: over 1% of it, so the
    # written 50.8% still asks for 50.75% to 50.85%.
    assert _figure("Services revenue grew 50.1% from 2018 to 2019.", TABLE, "50.1%")["verdict"] == "unsupported"


def test_a_result_equal_to_an_operand_is_no_derivation():
    keys = SimpleNamespace(values=np.array([16.0, 0.0, 18.1, 12.0]))
    assert derivations._degenerate(keys, "difference", (0, 1))  # 16 − 0 = 16
    assert derivations._degenerate(keys, "sum", (0, 1))
    assert not derivations._degenerate(keys, "difference", (2, 3))  # 18.1 − 12.0 = 6.1
    assert not derivations._degenerate(keys, "percent change", (0, 1))  # a percent is never one of its operands


@pytest.mark.parametrize(("claim", "source", "derivation"), [
    # (12,900 + 12,000) / 2 = 12,450: "averaged" names an average as "average" does
    ("Revenue averaged $12,450 million in 2022 and 2023.",
     "Revenue was $12,900 million in 2023 and $12,000 million in 2022.",
     "($12,900 million + $12,000 million) / 2 = $12,450 million"),
    # 14.1 − 14.8 = −0.7 points: "a year earlier" is no subject, so 14.8% keeps the margin's
    ("Operating margin contracted by 0.7 percentage points.",
     "Operating margin was 14.1% in 2023, down from 14.8% a year earlier.", "14.1% − 14.8% = −0.7 points"),
])
def test_prose_phrasings_of_an_average_and_a_prior_year(claim, source, derivation):
    entry = next(e for e in _verdicts(claim, source) if e["derivation"])
    assert (entry["verdict"], entry["derivation"]) == ("computed", derivation)


def test_a_figure_nothing_binds_operands_to_is_asked_no_derivation(monkeypatch):
    """`SourceIndex.binds` skips a figure of prose that shares a word with fewer than two source numbers: the
    verdicts and derivations are those of asking every figure."""
    claims = [("Revenue grew 24.3% in 2019.", PROSE), ("Costs grew 24.3% in 2019.", PROSE),
              ("Headcount rose 12% in 2019.", PROSE), ("Services revenue grew 50.8% from 2018 to 2019.", TABLE),
              ("Operating margin contracted by 0.7 percentage points.",
               "Operating margin was 14.1% in 2023, down from 14.8% a year earlier.")]
    skipped = [_verdicts(claim, source) for claim, source in claims]
    monkeypatch.setattr(derivations.SourceIndex, "binds", lambda self, subject: True)
    assert [_verdicts(claim, source) for claim, source in claims] == skipped
    assert sum(e["verdict"] == "computed" for v in skipped for e in v) == 3


def test_prose_operands_bound_by_subject_and_year():
    # (62.4 - 50.2) / 50.2 = 24.30%
    assert _figure("Revenue grew 24.3% in 2019.", PROSE, "24.3%")["derivation"] == \
        "($62.4 million − $50.2 million) / $50.2 million = 24.3%"
    assert _figure("Costs grew 24.3% in 2019.", PROSE, "24.3%")["verdict"] == "unsupported"  # another subject


def test_periods_the_prediction_names_choose_the_columns():
    three = "| | 2019 | 2018 | 2017 |\n|---|---|---|---|\n| Services revenue | 18.1 | 12.0 | 10.0 |\n" \
        "| Cost of sales | 31.0 | 33.5 | 30.0 |\n"
    # 2018 against 2017: (12.0 - 10.0) / 10.0 = 20.0%; 2019 against 2018 is 50.8%
    assert _figure("Services revenue grew 20.0% in 2018.", three, "20.0%")["verdict"] == "computed"
    assert _figure("Services revenue grew 20.0% in 2019.", three, "20.0%")["verdict"] == "unsupported"
    assert _figure("Services revenue grew 50.8% in 2019.", three, "50.8%")["verdict"] == "computed"


def test_enumeration_is_bounded_by_what_the_prediction_names():
    rows = "\n".join(f"| Line item {k} | {100 + k}.5 | {90 + k}.5 |" for k in range(400))
    big = f"| | 2019 | 2018 |\n|---|---|---|\n{rows}\n| Services revenue | 18.1 | 12.0 |\n"
    claim = "Services revenue grew 50.8% from 2018 to 2019."
    pool = TextPool.build([claim, big])
    encodings = [SimpleNamespace(mention_has_tokens=np.ones(len(spans), bool),
                                 mention_vectors=np.ones((len(spans), 16), np.float32)) for spans in pool.spans()]
    table = pool.mention_table(encodings)
    keys = table.support
    a, b = (table.of(int(pool.original_ids([t])[0])) for t in (claim, big))
    figure = next(i for i in range(a.start, a.stop) if keys.labels[i][0] == "50.8%")
    index = derivations.SourceIndex(keys, np.arange(b.start, b.stop), np.ones(b.stop - b.start, bool))
    ask = derivations._ask(keys, figure, keys.contexts[figure])
    candidates = list(derivations._candidates(keys, index, keys.contexts[figure], ask))
    assert 0 < len(candidates) <= 4  # the named row's two periods, not 400 rows' pairs
    assert derivations.derive(keys, figure, index)[0].text == "(18.1 − 12.0) / 12.0 = 50.8%"


@pytest.mark.parametrize(("words", "sign"), [
    ({"increase", "revenue"}, 1), ({"decrease", "cost"}, -1), ({"change", "cost"}, 0),
    ({"increase", "decrease", "revenue"}, 0), ({"revenue"}, None),
])
def test_change_sign(words, sign):
    assert change_sign(frozenset(words)) == sign


def test_a_change_its_clause_states_elsewhere():
    # "..., or 24.3%": the clause's verb gives the direction, the figure before it the subject
    rise = "Revenue grew from $50.2 million in 2018 to $62.4 million in 2019, or 24.3%."
    assert _figure(rise, PROSE, "24.3%")["verdict"] == "computed"
    assert _figure(rise.replace("grew", "fell"), PROSE, "24.3%")["verdict"] == "unsupported"


def test_a_table_whose_periods_are_rows():
    # the column names the line, the rows' labels its years: (3,933.5 - 2,623.7) / 2,623.7 = 49.92%
    roll = ("| | Software | Systems |\n|---|---|---|\n| Balances at December 31, 2018 | 5,236.1 | 2,623.7 |\n"
            "| Goodwill acquired | 143.4 | 1,303.6 |\n| Balances at December 31, 2019 | 5,389.4 | 3,933.5 |\n")
    entry = _figure("The percentage change in the goodwill of Systems from 2018 to 2019 was 49.92%.", roll, "49.92%")
    assert entry["derivation"] == "(3,933.5 − 2,623.7) / 2,623.7 = 49.92%"


def test_bare_cells_at_the_scale_the_figure_states():
    # 81,731 - 81,912 = -181, stated in thousands by the figure's own word; the header's "FY19" is 2019
    table = "| | FY19 | FY18 |\n|---|---|---|\n| Accrued expenses | 81,731 | 81,912 |\n"
    entry = _figure("The change in accrued expenses between 2018 and 2019 was -181 thousand.", table, "-181 thousand")
    assert entry["verdict"] == "computed" and entry["derivation"] == "81,731 − 81,912 = −181 thousand"


def test_an_except_note_does_not_make_a_column_a_percent():
    # (30,182 + 13,281) / 2 = 21,731.5: the 2018 column's note "(In thousands, except percentages)" is no percent
    table = ("| | 2019 | 2018 | Change (%) |\n|---|---|---|---|\n| | | (In thousands, except percentages) | |\n"
             "| Interest income | 30,182 | 13,281 | 127 |\n")
    entry = _figure("The average interest income for 2018 and 2019 was $21,731.5 thousand.", table,
                    "$21,731.5 thousand")
    assert entry["derivation"] == "(30,182 + 13,281) / 2 = $21,731.5 thousand"


def test_accounting_negatives_keep_their_sign():
    # (1.9) and (2.2): -1.9 - (-2.2) = 0.3, a rise
    table = "| | 2018 | 2017 |\n|---|---|---|\n| Beginning balance | (1.9) | (2.2) |\n"
    rise = _figure("The change in beginning balance between 2017 and 2018 was $0.3 million.", table, "$0.3 million")
    assert rise["verdict"] == "computed" and rise["derivation"] == "(1.9) − (2.2) = $0.3 million"
    fall = _figure("The change in beginning balance between 2017 and 2018 was -$0.3 million.", table, "-$0.3 million")
    assert fall["verdict"] == "unsupported"


BILLIONS = "Revenue was $4.2 billion in 2023 and $3.9 billion in 2022."
MILLIONS = ("Segment results (in millions)\n\n| | 2023 | 2022 |\n|---|---|---|\n| Revenue | $ 4,200 | $ 3,900 |\n"
            "| Margin | 41.5% | 39.5% |\n")


@pytest.mark.parametrize(("claim", "source", "figure", "derivation"), [
    # 4.2e9 - 3.9e9 = 3e8, read in the figure's scale and currency: no "300,000,000.0"
    ("Revenue grew by $300 million in 2023.", BILLIONS, "$300 million", "$4.2 billion − $3.9 billion = $300 million"),
    ("Revenue grew by $0.3 billion in 2023.", BILLIONS, "$0.3 billion", "$4.2 billion − $3.9 billion = $0.3 billion"),
    ("Revenue grew by $300,000,000 in 2023.", BILLIONS, "$300,000,000",
     "$4.2 billion − $3.9 billion = $300,000,000"),
    # a fall: the minus before the currency
    ("Revenue fell by $300 million in 2023.", "Revenue was $3.9 billion in 2023 and $4.2 billion in 2022.",
     "$300 million", "$3.9 billion − $4.2 billion = −$300 million"),
    # (4,200 + 3,900) / 2 = 4,050 (millions) = 4.05 billion: two decimals, the figure's
    ("Average revenue for 2022 and 2023 was $4.05 billion.", BILLIONS, "$4.05 billion",
     "($4.2 billion + $3.9 billion) / 2 = $4.05 billion"),
    # a table in millions, the figure in billions or millions
    ("Revenue grew by $0.3 billion in 2023.", MILLIONS, "$0.3 billion", "$4,200 − $3,900 = $0.3 billion"),
    ("Revenue grew by $300 million in 2023.", MILLIONS, "$300 million", "$4,200 − $3,900 = $300 million"),
    # the figure's own currency and scale letter
    ("Revenue grew by €0.3m in 2023.", "Revenue was €3.4m in 2023 and €3.1m in 2022.", "€0.3m",
     "€3.4m − €3.1m = €0.3m"),
    # thousands, as the figure writes them or not
    ("Orders rose by 2.5 thousand in 2023.", "Orders were 12.5 thousand in 2023 and 10.0 thousand in 2022.",
     "2.5 thousand", "12.5 thousand − 10.0 thousand = 2.5 thousand"),
    ("Orders rose by 2,500 in 2023.", "Orders were 12.5 thousand in 2023 and 10.0 thousand in 2022.", "2,500",
     "12.5 thousand − 10.0 thousand = 2,500"),
    # a plain count
    ("Employees grew by 300 in 2023.", "The company had 5,300 employees in 2023 and 5,000 employees in 2022.", "300",
     "5,300 − 5,000 = 300"),
    # a number in words: its magnitude's scale word
    ("Revenue grew by three hundred million dollars in 2023.", BILLIONS, "three hundred million dollars",
     "$4.2 billion − $3.9 billion = 300 million"),
    # points: the operands' decimals, a zero past the figure's own dropped; percent from the figure's decimals
    ("Margin rose 2 percentage points in 2023.", MILLIONS, "2 percentage points", "41.5% − 39.5% = 2 points"),
    ("Margin rose 2.0 percentage points in 2023.", MILLIONS, "2.0 percentage points", "41.5% − 39.5% = 2.0 points"),
    ("Revenue grew 7.7% in 2023.", BILLIONS, "7.7%", "($4.2 billion − $3.9 billion) / $3.9 billion = 7.7%"),
])
def test_a_derivation_reads_in_the_figures_form(claim, source, figure, derivation):
    entry = _figure(claim, source, figure)
    assert entry["verdict"] == "computed", entry
    assert entry["derivation"] == derivation


def test_a_closest_derivation_reads_in_the_figures_form():
    entry = _figure("Revenue grew by $310 million in 2023.", BILLIONS, "$310 million")
    assert entry["verdict"] == "unsupported"
    assert entry["derivation"] == "$4.2 billion − $3.9 billion = $300 million"


@pytest.mark.parametrize(("text", "value", "form"), [
    ("$300 million", 3e8, ("$", " million", 1e6)),
    ("-$0.3 million", -3e5, ("$", " million", 1e6)),
    ("($1.2) million", -1.2e6, ("$", " million", 1e6)),
    ("US$ 1.2bn", 1.2e9, ("US$ ", "bn", 1e9)),
    ("€3.4m", 3.4e6, ("€", "m", 1e6)),
    ("5,000", 5000.0, ("", "", 1.0)),
    ("Rs 3 crore", 3e7, ("Rs ", " crore", 1e7)),
    ("$3", 3e6, None),  # "$3-5 million": scaled by the range's word, not its own
    ("three million", 3e6, None),
])
def test_an_amounts_written_form(text, value, form):
    assert derivations._form(text, value) == form


@pytest.mark.parametrize(("value", "decimals", "keep", "text"), [
    (300.00000000000006, 2, 0, "300"), (12.2, 2, 0, "12.2"), (12.0, 1, 1, "12.0"), (-0.0001, 2, 0, "0"),
    (-1234.5, 1, 0, "−1,234.5"), (0.3, 9, 1, "0.3"),
])
def test_a_number_keeps_the_digits_it_needs(value, decimals, keep, text):
    assert derivations._number(value, decimals, keep) == text
