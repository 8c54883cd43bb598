"""A figure's context, as the verdict's second step reads it: its clause's words and year, or its cell's."""

from nash_metric.context.words import context_words, mention_contexts
from nash_metric.numbers import extract_numbers


def _contexts(text: str) -> dict:
    mentions = extract_numbers(text)
    return {m.text: c for m, c in zip(mentions, mention_contexts(text, mentions))}


def test_a_prose_figure_has_its_clauses_words_and_its_sentences_year():
    ctx = _contexts("Services revenue was $25 million in 2019. Product sales fell.")["$25 million"]
    assert {"service", "revenue"} <= ctx.words and "product" not in ctx.words  # the next sentence is not its own
    assert ctx.year == 2019 and not ctx.cell and ctx.scale is None


def test_two_years_in_a_sentence_leave_the_figures_year_unsaid_and_a_period_has_none():
    ctx = _contexts("Revenue in 2019 and 2018 respectively was $5 million and $4 million.")
    assert ctx["$5 million"].year is None and ctx["2019"].year is None


def test_a_semicolon_ends_a_clause():
    ctx = _contexts("Sales reached $790.3 million; the dividend was raised to $0.55.")
    assert "dividend" not in ctx["$790.3 million"].words and "sale" in ctx["$790.3 million"].words


def test_a_cell_has_its_row_and_column_its_tables_scale_and_percent():
    text = ("Net sales ($ in millions):\n| | 2019 | 2018 | Change (%) |\n|---|---|---|---|\n"
            "| Fixed Price | $ 1,452.4 | $ 1,146.2 | 26.7 |")
    ctx = _contexts(text)
    cell = ctx["$ 1,146.2"]
    assert cell.cell and cell.year == 2018 and cell.scale == 1e6 and not cell.percent
    assert {"fixed", "price"} <= cell.words
    assert ctx["26.7"].percent


def test_context_words_are_stemmed_without_stop_words():
    assert context_words("The Services revenues of the companies") == frozenset({"service", "revenue", "company"})
