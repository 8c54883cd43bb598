"""What a figure in running text is bound to (`context.binding`), hand-read: subject, year, direction, counts."""

from __future__ import annotations

import pytest

from nash_metric.context.binding import prose_bindings
from nash_metric.context.words import mention_contexts
from nash_metric.numbers import extract_numbers
from nash_metric.vocabulary.en import PRIOR_YEAR_PHRASES

STOP = frozenset(("the", "of", "in", "was", "were", "while", "and", "at", "to", "by", "a"))


def _bindings(text: str) -> dict[str, object]:
    mentions = extract_numbers(text)
    return {m.text: b for m, b in zip(mentions, prose_bindings(text, mentions, STOP))}


def test_each_figure_is_bound_to_the_noun_of_its_clause():
    bound = _bindings("Revenue of 100M grew 20% while costs of 80M grew 25%, yielding 20M profit.")
    assert {text: sorted(b.subject) for text, b in bound.items()} == {
        "100M": ["revenue"], "20%": ["revenue"], "80M": ["cost"], "25%": ["cost"], "20M": ["profit"]}


@pytest.mark.parametrize("text, years", [
    ("Capex was $185 million in 2023, compared with $160 million in 2022.",
     {"$185 million": 2023, "$160 million": 2022}),
    ("In 2023, revenue was $5 million and costs were $3 million.", {"$5 million": 2023, "$3 million": 2023}),
    ("Revenue was $5 million, compared with $4 million in 2022.", {"$5 million": None, "$4 million": 2022}),
    ("Revenue in 2019 and 2018 was $5 million and $4 million respectively.",
     {"$5 million": None, "$4 million": None}),  # listed years are not each figure's
    # "a year earlier" places a figure in the year before the last one its sentence names before it
    ("At December 31, 2023, net debt was $1.2 billion, compared with $1.4 billion a year earlier.",
     {"$1.2 billion": 2023, "$1.4 billion": 2022}),
    ("Capex was $185 million in 2023, against $160 million in the prior year.",
     {"$185 million": 2023, "$160 million": 2022}),
    ("Revenue was $5 million, against $4 million last year.", {"$5 million": None, "$4 million": None}),  # no year
    ("Capex was $185 million in 2023, against $160 million in the PRIOR YEAR.",  # any case
     {"$185 million": 2023, "$160 million": 2022}),
])
def test_a_year_binds_to_the_figure_before_it_or_scopes_its_sentence(text, years):
    bound = _bindings(text)
    assert {t: bound[t].year for t in years} == years


@pytest.mark.parametrize("text, figure, direction", [
    ("Revenue grew 20%.", "20%", 1),
    ("Sales fell by nearly 7.5%.", "7.5%", -1),
    ("Margins were up 3%.", "3%", 1),
    ("a 4% decline in sales", "4%", -1),
    ("Change: -24.3%", "-24.3%", -1),
    ("Change: (24.3)%", "(24.3)%", -1),
    ("Revenue increased from $5 million", "$5 million", 0),  # a level, not the change
    ("Revenue was 5% of sales.", "5%", 0),
])
def test_a_change_is_read_from_its_own_verb_noun_or_sign(text, figure, direction):
    assert _bindings(text)[figure].direction == direction


@pytest.mark.parametrize("text, figure, counted", [
    ("The region has 2,477 hospitals.", "2,477", "hospital"),
    ("The firm employed 5,078 people.", "5,078", "people"),
    ("We may lose 5 mln bucks.", "5 mln", None),  # money in slang, not a count
    ("Revenue was 1,234 in 2019.", "1,234", None),
])
def test_a_count_knows_its_noun(text, figure, counted):
    assert _bindings(text)[figure].counted == counted


@pytest.mark.parametrize("text, figure, per_unit", [
    ("EPS of $2.41 beat estimates.", "$2.41", True),
    ("Net income was $2.41 per diluted share.", "$2.41", True),
    ("Fixed Price sales were $1.4 billion.", "$1.4 billion", False),
])
def test_an_amount_per_unit_is_marked(text, figure, per_unit):
    assert _bindings(text)[figure].per_unit is per_unit


def test_a_table_cell_is_bound_by_its_row_column_and_header_year():
    source = "| | 2019 | Change |\n|---|---|---|\n| Deferred: Federal | 34,466 | (5)% |"
    mentions = extract_numbers(source)
    cells = {m.text: c for m, c in zip(mentions, mention_contexts(source, mentions)) if c.cell}
    assert (cells["34,466"].row_words, cells["34,466"].column_year) == (frozenset({"deferred", "federal"}), 2019)
    assert (cells["(5)%"].column_words, cells["(5)%"].column_year, cells["(5)%"].direction) == (
        frozenset({"change"}), None, -1)


def test_every_prior_year_phrase_holds_year():
    """A text without "year" is not searched for a prior-year phrase (`_years`): every phrase holds it."""
    assert all("year" in phrase.casefold() for phrase in PRIOR_YEAR_PHRASES)
