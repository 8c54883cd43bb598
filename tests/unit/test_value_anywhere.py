"""The value-anywhere check is the baseline every figure verdict is shown beside: fixed cases pin it, so it
cannot drift weaker (and so widen the gap it measures)."""

from decimal import Decimal

import pytest

from nash_metric.benchmarks.value_anywhere import digit_values, value_anywhere, value_anywhere_share


@pytest.mark.parametrize(("prediction", "source", "found"), [
    ("EPS was $7.50 per share.", "Earnings per share came to $7.5.", True),
    ("Sales were 1,146.2 in 2019.", "| Fixed Price | $ | 1,452.4 | $ | 1,146.2 |\n| Year | 2019 | 2018 |", True),
    ("Sales were 1146.2.", "sales of 1,146.2 million", True),
    ("Revenue rose 4%.", "Revenue rose 3.56%.", False),
    ("Revenue rose 40%.", "Revenue rose 4%.", False),
    ("5) The email asks for 3 demos.", "We can do 3 demos.", True),  # the list label is not a figure
    ("5) The email asks for 3 demos.", "We can do 4 demos.", False),
    ("No figures here.", "Nothing either.", True),
    ("Capex of $90 million to $100 million.", "capital expenditure of 90 to 100 million dollars", True),
    ("It closed at 12.", "12,000 units", False),  # 12,000 is one value, not 12
])
def test_value_anywhere_cases(prediction, source, found):
    assert value_anywhere(prediction, source) is found


def test_the_share_counts_each_digit_string():
    assert value_anywhere_share("4% and 40% and 2019", "4% in 2019") == pytest.approx(2 / 3)
    assert value_anywhere_share("none", "1 2 3") == 1.0


def test_digit_values_read_commas_and_labels():
    assert digit_values("1) Net 1,234,567.80 and 0.50\n2. also 7") == [Decimal("1234567.8"), Decimal("0.5"),
                                                                      Decimal(7)]
    assert digit_values("1) kept", skip_list_labels=False) == [Decimal(1)]
