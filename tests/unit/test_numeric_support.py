"""The support verdict, rule by rule, on the real number reader (no model: the k-th numbers of the two texts
align with each other, so the verdict is decided by the values alone, or by tau for `unmatched`)."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from nash_metric.numbers import extract_numbers
from nash_metric.numbers.precision import written_decimals, written_precision
from nash_metric.pipeline.alignment import align_numbers
from nash_metric.pipeline.pool import TextPool
from nash_metric.verdicts import value
from nash_metric.verdicts.argmax import ARGMAX_VERDICTS, ArgmaxCode, argmax_verdicts
from nash_metric.verdicts.decide import VERDICTS, Code, context_verdicts, support_fields
from nash_metric.verdicts.rules import RULE


def _table(prediction: str, reference: str, cosine: float = 1.0):
    """The mention table of one pair whose k-th numbers align with each other at cosine `cosine`, and with
    nothing else (cosine 0): the verdict is decided by values and words, not by a model."""
    pool = TextPool.build([prediction, reference])
    sine = np.sqrt(1 - cosine**2)

    def vector(text: str, k: int) -> np.ndarray:
        out = np.zeros(64, np.float32)
        if text == reference:
            out[k % 32], out[32 + k % 32] = cosine, sine
        else:
            out[k % 32] = 1.0
        return out

    encodings = [SimpleNamespace(mention_has_tokens=np.ones(len(spans), bool),
                                 mention_vectors=np.array([vector(text, k) for k in range(len(spans))]).reshape(-1, 64))
                 for text, spans in zip(pool.texts, pool.spans())]
    table = pool.mention_table(encodings)
    return pool, table


def _verdicts(prediction: str, reference: str, tau: float = 0.5, cosine: float = 1.0, rule: str = "context"):
    """numeric_support and the entries not supported of one pair (`_table`), under `rule`."""
    pool, table = _table(prediction, reference, cosine)
    ids = pool.original_ids([prediction])[0], pool.original_ids([reference])[0]
    if rule == "context":
        verdicts = context_verdicts(table, [ids])
    else:
        verdicts = argmax_verdicts(align_numbers(table, np.array([ids[0]]), np.array([ids[1]])), tau)
    fields = support_fields(verdicts, np.array([0]))
    return float(fields["numeric_support"][0]), fields["unsupported_numbers"][0]


def _all(prediction: str, reference: str) -> list[dict]:
    pool, table = _table(prediction, reference)
    return context_verdicts(table, [(pool.original_ids([prediction])[0], pool.original_ids([reference])[0])])[0]


def _supported(prediction: str, reference: str) -> bool:
    support, _ = _verdicts(prediction, reference)
    return support == 1.0


@pytest.mark.parametrize(("prediction", "reference"), [
    ("Revenue was $1.2 billion.", "Revenue was $1,234 million."),  # rounded to the written 0.1 billion
    ("Growth was 25%.", "Growth was 24.6%."),  # 25 covers [24.5, 25.5]
    ("Growth was about 25%.", "Growth was 24.1%."),  # a hedge widens it to [24, 26]
    ("Sales rose in Q2 2019.", "Sales rose in the second quarter of 2019."),  # the same calendar period
    ("It happened in 2019.", "It happened on December 31, 2019."),  # compared at the coarser granularity
    ("Rates rose 50 bps.", "Rates rose 0.5 percentage points."),  # basis points are hundredths of a point
    ("Debt fell to 25 billion.", "Debt fell to $25 billion."),  # a unitless number fits a stated currency
    ("The fee was EUR 5 million.", "The fee was EUR 5,000,000."),  # scale words applied before comparing
    ("They met at 7 pm.", "They met at 7:00 PM."),
    # A hedged round number is its value at its last non-zero digit's unit: 2,477 rounds to 2,500 at 100.
    ("The network has roughly 2,500 hospitals.", "The network has 2,477 hospitals."),
    ("About 300 people came.", "Some 287 people came."),  # half of 100, capped at 5% of 300: [285, 315]
])
def test_supported(prediction, reference):
    assert _supported(prediction, reference)


@pytest.mark.parametrize(("prediction", "reference"), [
    ("The dividend was $0.15 per share.", "The dividend was $0.13 per share."),  # beyond the written 0.01
    ("Debt was 26 billion.", "Debt was 25 billion."),
    ("Growth was 25%.", "Growth was 24.4%."),  # outside [24.5, 25.5]
    ("Growth was about 25%.", "Growth was 23.9%."),  # outside the hedged [24, 26]
    ("Revenue was $1.2 million.", "Revenue was $1.2 billion."),  # another scale
    ("Revenue was $1,234 million.", "Revenue was $1.2 billion."),  # the prediction's precision decides
    ("Funds of $2 billion moved.", "Funds of $1.8 billion moved."),  # more than 5% away, however rounded
    ("The cap is 1%.", "The cap is 0.5%."),  # the rounding interval is open: 0.5 is not within 1 +- 0.5
    ("The margin rose 2%.", "The margin rose 2 percentage points."),  # percent is not percentage points
    ("The fee was EUR 5 million.", "The fee was $5 million."),  # another currency
    ("Sales rose in Q2 2019.", "Sales rose in Q3 2019."),
    ("They met at 8 pm.", "They met at 7 pm."),
    ("The network has 2,500 hospitals.", "The network has 2,477 hospitals."),  # no hedge: its zeros are digits
    ("The network has roughly 2,600 hospitals.", "The network has 2,477 hospitals."),  # rounds to 2,500, not 2,600
    ("The rate was about 2.50%.", "The rate was 2.47%."),  # a decimal's zeros are written: [2.49, 2.51]
])
def test_unsupported(prediction, reference):
    for rule in ("context", "argmax"):
        support, entries = _verdicts(prediction, reference, rule=rule)
        assert support == 0.0
        assert [e["verdict"] for e in entries] == ["unsupported"]
        ref = entries[0]["reference"]
        # The reference number it was compared with, or none where no number is of its family (percentage points
        # for a percent).
        assert ref is None or reference[ref["start"]:ref["end"]] == ref["text"]


def test_argmax_rule_unmatched_when_no_reference_number_aligns_or_there_is_none():
    support, entries = _verdicts("Profit was 5 million.", "Profit reached 5 million.", cosine=0.2, rule="argmax")
    assert support == 0.0 and entries[0]["verdict"] == "unmatched" and entries[0]["reference"] is None
    support, entries = _verdicts("Profit was 5 million.", "Profit rose.", rule="argmax")
    assert support == 0.0 and [e["verdict"] for e in entries] == ["unmatched"]
    assert entries[0]["text"] == "5 million" and (entries[0]["start"], entries[0]["end"]) == (11, 20)


def test_stated_nowhere_is_unsupported_whatever_the_cosine():
    # No candidate: unsupported, naming nothing when the reference holds no number at all.
    support, entries = _verdicts("Profit was 5 million.", "Profit rose.")
    assert support == 0.0 and entries[0]["verdict"] == "unsupported" and entries[0]["reference"] is None
    # tau gates nothing: a value stated verbatim is supported at a low cosine.
    assert _verdicts("Profit was 5 million.", "Profit reached 5 million.", cosine=0.2) == (1.0, [])


def test_a_period_counts_when_it_is_not_supported_or_places_no_figure():
    source = "Revenue was $5.0 million in 2023."
    # A wrong year counts against the text; a year alone in its sentence is a figure of its own.
    assert _verdicts("Revenue was $5.0 million in 2021.", source)[0] == 0.5
    entries = _all("The company was founded in 2023. Revenue was $5.0 million.", source)
    assert [e["role"] for e in entries] == ["figure", "figure"]


def test_support_is_the_share_of_supported_numbers_and_one_without_any():
    support, entries = _verdicts("It paid $0.15 and owed $25 billion.", "It paid $0.13 and owed $25 billion.")
    assert support == 0.5 and [e["text"] for e in entries] == ["$0.15"]
    assert _verdicts("No figures here.", "Revenue was $3 million.") == (1.0, [])


def test_argmax_rule_only_the_aligned_number_decides():
    # The prediction's 2024 aligns by context with the reference's 2023; the reference's 2024 elsewhere has a
    # lower cosine: under the argmax rule the figure is unsupported, compared with 2023. The default rule finds
    # 2024 stated and, no other figure's words fitting better, supports it.
    prediction, reference = "Sales guided for 2024.", "Sales guided for 2023; a loan is due in 2024."
    pool = TextPool.build([prediction, reference])
    vectors = {prediction: [[1.0, 0.0]], reference: [[1.0, 0.0], [0.6, 0.8]]}
    encodings = [SimpleNamespace(mention_has_tokens=np.ones(len(spans), bool),
                                 mention_vectors=np.array(vectors.get(text, []), np.float32).reshape(-1, 2))
                 for text, spans in zip(pool.texts, pool.spans())]
    table = pool.mention_table(encodings)
    ids = pool.original_ids([prediction]), pool.original_ids([reference])
    [[entry]] = argmax_verdicts(align_numbers(table, *ids), 0.5)
    assert entry["verdict"] == "unsupported" and entry["reference"]["text"] == "2023"
    [[entry]] = context_verdicts(table, [(ids[0][0], ids[1][0])])
    assert entry["verdict"] == "supported" and entry["found"]["text"] == "2024"


def test_written_precision_of_scaled_and_written_numbers():
    def tolerance(text: str) -> float:
        return written_precision(text, extract_numbers(text)[0]).tolerance

    assert tolerance("$1.2 billion") == pytest.approx(0.05e9)
    assert tolerance("$1,234 million") == pytest.approx(0.5e6)
    assert tolerance("$0.13") == pytest.approx(0.005)
    assert tolerance("EUR74 .8 m") == pytest.approx(0.05e6)  # Financial PhraseBank's split decimal
    assert tolerance("three million") == pytest.approx(0.05 * 3e6)  # half a million, capped at 5%
    assert tolerance("roughly 25 billion") == pytest.approx(1e9)
    assert tolerance("roughly 2,500") == pytest.approx(50)  # half the hundred its last non-zero digit counts
    assert tolerance("roughly 20") == pytest.approx(1)  # half of ten, capped at 5% of 20 (the hedge is spent)
    assert tolerance("2,500") == pytest.approx(0.5)


@pytest.mark.parametrize(("text", "decimals"), [
    ("24.3%", 1), ("$1,146.20", 2), ("6.3 m/s", 1), ("-2.50°C", 2), ("5", 0), ("$5.", 0), ("1.5e6", 1)])
def test_the_decimals_a_figure_is_written_with(text, decimals):
    # What a result computed for it is shown with: the unit after it is no decimal ("6.3 m/s" was read as 4).
    assert written_decimals(text) == decimals


# -- the two steps: value, then context (cosines all 0 here: words and years decide) ----------------------------

TABLE = ("Net sales by contract type ($ in millions):\n| | 2019 | 2018 |\n|---|---|---|\n"
         "| Fixed Price | 1,452.4 | 1,146.2 |\n| Cost Plus | 800.1 | 700.2 |")


def _verdict_of(prediction: str, reference: str, figure: str) -> dict:
    pool, table = _table(prediction, reference, cosine=0.0)
    ids = pool.original_ids([prediction])[0], pool.original_ids([reference])[0]
    return next(e for e in context_verdicts(table, [ids])[0] if e["text"] == figure)


def test_another_years_value_in_a_table_is_misplaced():
    entry = _verdict_of("Fixed Price sales were 1,146.2 in 2019.", TABLE, "1,146.2")
    assert entry["verdict"] == "misplaced"
    assert entry["found"]["text"] == "1,146.2" and entry["reference"]["text"] == "1,452.4"
    assert _verdict_of("Fixed Price sales were 1,452.4 in 2019.", TABLE, "1,452.4")["verdict"] == "supported"
    assert _verdict_of("Fixed Price sales were 1,146.2 in 2018.", TABLE, "1,146.2")["verdict"] == "supported"


def test_another_rows_value_in_a_table_is_misplaced():
    entry = _verdict_of("Cost Plus sales were 1,452.4 in 2019.", TABLE, "1,452.4")
    assert entry["verdict"] == "misplaced" and entry["reference"]["text"] == "800.1"


def test_another_items_value_in_prose_is_misplaced():
    """Misplaced in prose when the prediction binds the place's subject ("product") to another of its figures;
    one figure alone ("Services revenue was $40 million.") gives no such evidence, so it stays supported."""
    source = "Product revenue was $40 million. Services revenue was $25 million."
    swapped = "Services revenue was $40 million and product revenue was $25 million."
    entry = _verdict_of(swapped, source, "$40 million")
    assert entry["verdict"] == "misplaced" and entry["reference"]["text"] == "$25 million"
    assert _verdict_of(swapped, source, "$25 million")["verdict"] == "misplaced"
    assert _verdict_of("Product revenue was $40 million.", source, "$40 million")["verdict"] == "supported"
    assert _verdict_of("Services revenue was $40 million.", source, "$40 million")["verdict"] == "supported"


def test_a_value_stated_nowhere_is_unsupported_even_in_its_right_cell():
    entry = _verdict_of("Fixed Price sales were 1,462.4 in 2019.", TABLE, "1,462.4")
    assert entry["verdict"] == "unsupported" and entry["found"] is None


@pytest.mark.parametrize(("prediction", "reference"), [
    ("Fixed Price sales were $1.4524 billion in 2019.", TABLE),  # the caption's scale applies to the cells
    ("Fixed Price sales were $1,452.4 million in 2019.", TABLE),
    ("The fine was $5 million.", "A fine of 5 was paid, in millions."),  # a bare number at a stated scale
    ("Interest paid was (502) million.", "| | 2019 |\n|---|---|\n| Interest paid | 502 |"),  # magnitudes
    ("Margin was 13.2%.", "| | Change (%) |\n|---|---|\n| Margin | 13.2 |"),  # the header gives the percent
    ("Margin was 13.2%.", "| | 2019 | |\n|---|---|---|\n| Margin | 13.2 | % |"),  # so does a cell of its own
    ("They agreed to meet at 7 pm.", "Jacob: 7? 8? Alex: Let's make it 7."),  # a plain number as the hour
    ("Sales fell in Q3 2020.", "Sales fell in the third quarter."),  # a year-less period supports a dated one
    ("Sales fell in Q3 2020.", "Sales fell in the three months ended September 30, 2020."),
])
def test_supported_by_value_across_forms(prediction, reference):
    assert _supported(prediction, reference)


@pytest.mark.parametrize(("prediction", "reference"), [
    ("Sales fell in 2020.", "Sales fell in the third quarter."),  # a period without a year says nothing of one
    ("Sales fell in Q2 2020.", "Sales fell in the third quarter."),
    ("Margin was 13.2%.", "| | 2019 |\n|---|---|\n| Margin | 13.2 |"),  # nothing says percent
    ("The fine was $5 billion.", "The fine was 5 million."),  # a stated scale is not a bare number
])
def test_not_supported_by_value_across_forms(prediction, reference):
    assert not _supported(prediction, reference)


def test_a_count_in_words_is_not_judged_and_a_period_is_never_misplaced():
    assert _verdicts("Two friends met.", "Friends met.") == (1.0, [])
    assert _verdicts("Two friends met.", "Friends met.", rule="argmax")[0] == 0.0
    # "2019" is stated (a header) though another year's cells fit the sentence's words as well.
    assert _verdict_of("Fixed Price sales were 1,146.2 in 2019.", TABLE, "2019")["verdict"] == "supported"


# -- binding: misplaced and contradicted need structural evidence (docs: "Figures against a source") -----------

S5 = "Revenue of 100M grew 20% while costs of 80M grew 25%, yielding 20M profit."  # the paper's Appendix E
S5_MIRROR = "Costs of 80M grew 25% while revenue of 100M grew 20%, yielding 20M profit."


def _by_figure(prediction: str, reference: str) -> dict[str, str]:
    return {e["text"]: e["verdict"] for e in _all(prediction, reference)}


@pytest.mark.parametrize("reference", [S5, S5_MIRROR])
def test_appendix_e_swapped_percentages_are_misplaced_and_the_profit_unsupported(reference):
    """s6 against s5 (and against s5's mirror, costs first): each percent is bound to the other noun."""
    verdicts = _by_figure("Revenue of 100M grew 25% while costs of 80M grew 20%, yielding 10M profit.", reference)
    assert verdicts == {"100M": "supported", "25%": "misplaced", "80M": "supported", "20%": "misplaced",
                        "10M": "unsupported"}


@pytest.mark.parametrize("reference", [S5, S5_MIRROR])
def test_appendix_e_the_same_facts_reordered_are_all_supported(reference):
    assert set(_by_figure(S5_MIRROR, reference).values()) == {"supported"}
    assert set(_by_figure(S5, reference).values()) == {"supported"}


def test_a_misplaced_entry_says_what_decided():
    [entry] = [e for e in _all("Capital expenditures were $160 million in 2023.",
                               "Capital expenditures were $185 million in 2023, compared with $160 million in 2022.")
               if e["text"] == "$160 million"]
    assert entry["verdict"] == "misplaced"
    assert entry["basis"] == "period: 2022, not 2023"
    assert entry["found"]["text"] == "$160 million" and entry["reference"]["text"] == "$185 million"


@pytest.mark.parametrize("prediction, verdict", [
    ("Net debt was $2.1 billion at the end of 2023.", "misplaced"),  # last year's figure for this year
    ("Net debt was $2.4 billion at the end of 2023.", "supported"),
    ("Net debt was $2.1 billion at the end of 2022.", "supported"),
])
def test_a_clause_binds_its_year(prediction, verdict):
    source = "Net debt stood at $2.4 billion at the end of 2023, up from $2.1 billion at the end of 2022."
    assert _by_figure(prediction, source)[prediction.split(" was ")[1].split(" at")[0]] == verdict


def test_years_listed_before_their_figures_bind_none():
    """'in 2019 and 2018 were X and Y': a listed year is not each figure's, so nothing is misplaced."""
    source = "| | 2019 | 2018 |\n|---|---|---|\n| Gross profit | 275,792 | 282,950 |"
    prediction = "Gross profit in 2019 and 2018 were 275,792 and 282,950 respectively."
    assert set(_by_figure(prediction, source).values()) == {"supported"}


def test_words_alone_never_misplace_a_stated_value():
    """The value is stated; another number's clause shares more words, but nothing binds the figure elsewhere."""
    source = ("Adjusted EPS was $1.12 this quarter. GAAP EPS of $1.05 reflected restructuring charges "
              "in the quarter and lower margins in the quarter.")
    assert _by_figure("EPS was $1.12 in the quarter, with lower margins.", source) == {"$1.12": "supported"}
    assert _by_figure("Adjusted EPS was $1.12.", source) == {"$1.12": "supported"}


def test_a_per_unit_amount_or_one_ten_times_away_is_no_rival():
    from nash_metric.verdicts.value import rivals

    pool, table = _table("EPS was $2.41 and revenue was $812 million.",
                         "Revenue was $790 million, EPS was $2.38 and net income was $95 million.")
    a, b = (table.of(i) for i in pool.original_ids(["EPS was $2.41 and revenue was $812 million.",
                                                     "Revenue was $790 million, EPS was $2.38 and net income was "
                                                     "$95 million."]))
    fits = rivals(table, np.arange(a.start, a.stop), np.arange(b.start, b.stop))
    # rows: $2.41 (per share), $812 million; columns: $790 million, $2.38, $95 million
    assert fits.tolist() == [[False, True, False], [True, False, True]]


def test_a_range_is_one_figure():
    source = "We expect capital spending of $80 million to $95 million next year, and growth of 3-6%."
    assert set(_by_figure("Capital spending will be $80 million to $95 million.", source).values()) == {"supported"}
    assert set(_by_figure("Capital spending should reach $95 million.", source).values()) == {"supported"}
    assert set(_by_figure("Growth of 3-6% is expected.", source).values()) == {"supported"}


@pytest.mark.parametrize("prediction, reference, verdict", [
    ("Revenue decreased 24.3%.", "Revenue improved by 24.3% year over year.", "contradicted"),
    ("Revenue grew 24.3%.", "Revenue improved by 24.3% year over year.", "supported"),
    ("Margins fell 7.5%.", "Margin change: -7.5% on the year.", "supported"),  # a sign is a direction
    ("Margins rose 7.5%.", "Margin change: (7.5)% on the year.", "contradicted"),
    ("Sales were up 3%.", "a 3% decline in sales", "contradicted"),  # a change noun after the figure
    ("Revenue rose to $6 million.", "Revenue fell to $6 million.", "supported"),  # a level, not a change
    ("Revenue fell 5%.", "Revenue was 5% of the total.", "supported"),  # the source states no direction
])
def test_direction_of_change(prediction, reference, verdict):
    assert list(_by_figure(prediction, reference).values()) == [verdict]


_TABLE = ("Net sales ($ in millions):\n| | 2019 | 2018 |\n|---|---|---|\n"
          "| Fixed Price | $ 1,452.4 | $ 1,146.2 |\n| Cost Plus | 800.1 | 700.2 |")


@pytest.mark.parametrize("prediction, verdict, basis", [
    ("Fixed Price sales were $1,452.4 million in 2019.", "supported", None),
    ("Fixed Price sales were $1,146.2 million in 2019.", "misplaced", "period: 2018, not 2019"),  # another column
    ("Cost Plus sales were $1,452.4 million in 2019.", "misplaced", "row: Fixed Price, not the one named"),
    ("Fixed Price sales were $1,146.2 million in 2018.", "supported", None),
])
def test_a_table_cell_is_bound_by_its_row_and_column(prediction, verdict, basis):
    entry = next(e for e in _all(prediction, _TABLE) if "million" in e["text"])
    assert (entry["verdict"], entry["basis"]) == (verdict, basis)


_HOSPITAL = ("Statement of operations (in thousands)\n\n| | 2023 | 2022 | Increase (decrease) |\n|---|---|---|---|\n"
             "| Patient services revenue | 1,250 | 1,100 | 150 |\n| Other operating revenue | 310 | 295 | 15 |\n\n"
             "| | Software Sales | Hardware Sales |\n|---|---|---|\n| North America | 410 | 520 |\n")


@pytest.mark.parametrize("prediction, figure, basis", [
    # the row's label as the table writes it, not its binding words ("patient revenue service")
    ("Other operating revenue was $1,250 thousand in 2023.", "$1,250 thousand",
     "row: Patient services revenue, not the one named"),
    # a column of no year against the year named, and another column than the one named
    ("In 2023, patient services revenue was 150.", "150", "column: Increase (decrease), not 2023"),
    ("North America software sales were 520.", "520", "column: Hardware Sales, not the one named"),
])
def test_a_basis_shows_a_line_label_as_written(prediction, figure, basis):
    entry = next(e for e in _all(prediction, _HOSPITAL) if e["text"] == figure)
    assert (entry["verdict"], entry["basis"]) == ("misplaced", basis)


_CSV = "(in thousands of dollars)\nRegion,2023 Revenue,2022 Revenue,Stores\nNorth,812,790,140\nSouth,640,600,95\n"


@pytest.mark.parametrize("prediction, expected", [
    ("North revenue was $812 thousand in 2023.", {"2023": "supported", "$812 thousand": "supported"}),
    ("North revenue was $812,000 in 2023.", {"$812,000": "supported", "2023": "supported"}),  # the caption scale
    ("North revenue was $790 thousand in 2023.", {"$790 thousand": "misplaced", "2023": "supported"}),
    ("North had 812 stores.", {"812": "misplaced"}),  # a revenue cell stated as a store count
    ("North had 140 stores.", {"140": "supported"}),
])
def test_a_csv_block_is_a_table(prediction, expected):
    assert _by_figure(prediction, _CSV) == expected


@pytest.mark.parametrize("prediction, reference", [
    ("The region has 2.5 billion people.", "The region has 2,477 hospitals."),
    ("The firm earned $5 million.", "The firm employed 5,078 people."),
    ("The firm earned $5,078.", "The firm employed 5,078 people."),
])
def test_a_count_is_never_an_amount_of_money_nor_at_a_scale(prediction, reference):
    assert set(_by_figure(prediction, reference).values()) == {"unsupported"}


def test_a_count_still_supports_a_count_at_its_scale():
    assert _by_figure("The region has 2.5 thousand hospitals.", "The region has 2,477 hospitals.") == {
        "2.5 thousand": "supported"}


@pytest.mark.parametrize("prediction, reference, verdict", [
    ("He died 20 years ago.", "About 20 minutes later, he signed.", "unsupported"),
    ("It spread to 25 countries.", "It has spread for 25 years.", "unsupported"),
    ("It spread for 25 years.", "It has spread for 25 years.", "supported"),
    ("It lasted 25 years.", "It lasted 25.", "supported"),  # a plain number fits a length of time
    ("870 infections were reported.", "In total, 870 people were infected.", "supported"),  # no time: a paraphrase
])
def test_a_length_of_time_agrees_only_with_the_same_unit_of_time(prediction, reference, verdict):
    assert list(_by_figure(prediction, reference).values()) == [verdict]


def test_the_verdict_codes_name_the_verdicts():
    """`pair_verdicts` stores a `Code` per figure; its name and `VERDICTS[code]` are the verdict's name."""
    assert [code.name.lower() for code in Code] == [code.verdict for code in Code] == list(VERDICTS)
    assert [VERDICTS[code] for code in np.array(list(Code), np.int8)] == list(VERDICTS)
    assert [code.name.lower() for code in ArgmaxCode] == [ARGMAX_VERDICTS[code] for code in ArgmaxCode]


@pytest.mark.parametrize("cells", [value.VERDICT_CELLS, 64])
def test_small_pairs_judged_together_get_the_cells_each_gets_alone(cells, monkeypatch):
    """`small_pair_blocks` pads many pairs into one call (several, with few cells a call): each pair's value
    agreement and rivals are those it gets alone. Every case above, each prediction against every reference."""
    monkeypatch.setattr(value, "VERDICT_CELLS", cells)
    tests = (test_supported, test_unsupported, test_supported_by_value_across_forms,
             test_not_supported_by_value_across_forms, test_a_length_of_time_agrees_only_with_the_same_unit_of_time)
    texts = sorted({text for test in tests for case in test.pytestmark[0].args[1] for text in case[:2]})
    pool = TextPool.build(texts)
    table = pool.mention_table([SimpleNamespace(mention_has_tokens=np.ones(len(spans), bool),
                                                mention_vectors=np.zeros((len(spans), 8), np.float32))
                                for spans in pool.spans()])
    ids = pool.original_ids(texts)
    spans = [(table.of(a), table.of(b)) for a in ids for b in ids]
    together = {k: (block.agree[p, :m, :n], block.rival[p, :m, :n])
                for block in value.small_pair_blocks(table, spans)
                for p, (k, m, n) in enumerate(zip(block.group.tolist(), block.m.tolist(), block.n.tolist()))}
    assert len(together) == sum(a.stop > a.start and b.stop > b.start for a, b in spans)  # every pair here is small
    for k, (agree, rival) in together.items():
        ia, ib = (np.arange(side.start, side.stop) for side in spans[k])
        alone = value.value_agreement(table, ia, ib)
        np.testing.assert_array_equal(agree, alone)
        np.testing.assert_array_equal(rival, value.rivals(table, ia, ib) & ~alone)
    assert sum(a.sum() for a, _ in together.values()) > len(texts) and any(r.any() for _, r in together.values())


def test_a_figure_of_a_year_earlier_is_misplaced_in_the_year_named():
    source = "At December 31, 2023, net debt was $1.2 billion, compared with $1.4 billion a year earlier."
    wrong = _verdict_of("Net debt was $1.4 billion at December 31, 2023.", source, "$1.4 billion")
    assert (wrong["verdict"], wrong["basis"]) == ("misplaced", "period: 2022, not 2023")
    # The date places the figure: supported, it is not counted, so the text scores 0, not 0.5.
    entries = _all("Net debt was $1.4 billion at December 31, 2023.", source)
    assert [(e["role"], e["verdict"]) for e in entries] == [("figure", "misplaced"), ("period", "supported")]
    assert _verdicts("Net debt was $1.4 billion at December 31, 2023.", source)[0] == 0.0
    assert _verdict_of("Net debt was $1.4 billion at December 31, 2022.", source, "$1.4 billion")["verdict"] == \
        "supported"


EPS = ("| | 2023 | 2022 |\n|---|---|---|\n| Diluted EPS | $3.05 | $2.88 |\n"
       "| Dividends per share | $1.20 | $1.10 |\n")


def test_a_per_share_cell_is_bound_by_the_year_it_names():
    wrong = _verdict_of("Diluted EPS was $2.88 in 2023.", EPS, "$2.88")
    assert (wrong["verdict"], wrong["basis"]) == ("misplaced", "period: 2022, not 2023")
    assert wrong["reference"]["text"] == "$3.05"  # the 2023 cell of the row it names
    assert _verdict_of("Diluted EPS was $3.05 in 2023.", EPS, "$3.05")["verdict"] == "supported"
    off = replace(RULE, year_columns=False)
    pool, table = _table("Diluted EPS was $2.88 in 2023.", EPS, cosine=0.0)
    ids = pool.original_ids(["Diluted EPS was $2.88 in 2023."])[0], pool.original_ids([EPS])[0]
    assert context_verdicts(table, [ids], off)[0][0]["verdict"] == "supported"  # no rival bound by words alone


@pytest.mark.parametrize(("prediction", "source", "basis"), [
    ("GAAP earnings per share were $2.41.",
     "GAAP earnings per share were $2.05. Adjusted earnings per share were $2.41.", "subject: adjusted, not gaap"),
    ("Basic EPS was $1.52.", "Basic EPS was $1.55 and diluted EPS was $1.52.", "subject: diluted, not basic"),
])
def test_a_qualifier_binds_a_figure_to_its_measure(prediction, source, basis):
    figure = prediction.split()[-1].rstrip(".")
    entry = _verdict_of(prediction, source, figure)
    assert (entry["verdict"], entry["basis"]) == ("misplaced", basis)
    assert _verdict_of(prediction.replace(figure, entry["reference"]["text"]), source,
                       entry["reference"]["text"])["verdict"] == "supported"


def test_a_qualifier_split_in_a_header_is_one_word():
    # "Non-GAAP" read from a key or header is two words: it is still the one qualifier, not "GAAP".
    from nash_metric.verdicts.placement import _qualifier_clash
    assert _qualifier_clash(frozenset({"non-gaap", "interest"}), frozenset({"non", "gaap", "interest"})) is None
    assert _qualifier_clash(frozenset({"gaap", "interest"}), frozenset({"non", "gaap", "interest"})) == \
        "non-gaap, not gaap"


RACE = ("| position | yacht | loa (metres) | skipper |\n|---|---|---|---|\n"
        "| 1 | wild oats xi | 30.00 | mark richards |\n| 2 | skandia | 29.10 | grant wharington |\n"
        "| 3 | yendys | 16.80 | geoff ross |\n")


def test_a_row_without_a_label_is_named_by_its_cells_of_words():
    # The first column holds figures, so no row has a label: "geoff ross" names the third row by its skipper.
    wrong = _verdict_of("Geoff Ross finished in position 2.", RACE, "2")
    assert (wrong["verdict"], wrong["reference"]["text"]) == ("misplaced", "3")
    assert wrong["basis"] == "row: skandia grant wharington, not the one named"  # its cells of words, as written
    assert _verdict_of("Geoff Ross finished in position 3.", RACE, "3")["verdict"] == "supported"
    pool, table = _table("Geoff Ross finished in position 2.", RACE, cosine=0.0)
    ids = pool.original_ids(["Geoff Ross finished in position 2."])[0], pool.original_ids([RACE])[0]
    assert context_verdicts(table, [ids], replace(RULE, records=False))[0][0]["verdict"] == "supported"


def test_a_figure_stated_as_a_bound_is_never_misplaced_under_comparisons():
    # "below 2" states no cell's value: with `comparisons`, the row it names holding 3 does not misplace it. The
    # switch ships off (it costs quintd's phone specs 0.009 BA), so by default the figure is misplaced.
    prediction = "Geoff Ross finished in a position below 2."
    assert _verdict_of(prediction, RACE, "2")["verdict"] == "misplaced"
    pool, table = _table(prediction, RACE, cosine=0.0)
    ids = pool.original_ids([prediction])[0], pool.original_ids([RACE])[0]
    assert context_verdicts(table, [ids], replace(RULE, comparisons=True))[0][0]["verdict"] == "supported"
    # A range's bound and "a maximum of" are judged as such (`extremes`), not as bounds.
    from nash_metric.verdicts.keys import text_keys
    text = "Gusts of more than 3 m/s, a maximum of 9 m/s, temperatures between 4 and 10°C."
    assert text_keys(text, extract_numbers(text)).bounded == (True, False, False, False)


SPEC = ("{'name': 'Noir S6', 'detailSpec': [{'category': 'Comms', 'specifications': ["
        "{'name': 'Bluetooth', 'value': '4.0, A2DP'}, {'name': 'USB', 'value': 'microUSB 2.0'}]}]}")


def test_a_cell_that_writes_the_figure_after_the_texts_own_word_states_it_for_that():
    # The sentence names Bluetooth, whose cell holds 4.0; the cell that holds 2.0 writes it after "microUSB", as
    # the prediction does: it states the figure for what the prediction says (`leads`).
    prediction = "Connectivity options include Bluetooth and microUSB 2.0."
    assert _verdict_of(prediction, SPEC, "2.0")["verdict"] == "supported"
    pool, table = _table(prediction, SPEC, cosine=0.0)
    ids = pool.original_ids([prediction])[0], pool.original_ids([SPEC])[0]
    off = context_verdicts(table, [ids], replace(RULE, leads=False))[0][0]
    assert (off["verdict"], off["basis"]) == ("misplaced", "column: USB, not the one named")
    # Another word before it binds nothing: "Bluetooth 2.0" is still the Bluetooth cell's 4.0.
    assert _verdict_of("It has Bluetooth 2.0.", SPEC, "2.0")["verdict"] == "misplaced"
