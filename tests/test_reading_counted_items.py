"""A count followed by a colon and the items it counts (issue #32): "the count is (2+1)(2+1) = 9: 1, 2, 3, 4, 6, 9,
12, 18, 36." answers 9; the list of exactly that many different values is what is counted, not a second answer
(``remark_values.enumerates``). A list of another length is read as before.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.math_accuracy import MathAccuracy

MATH = MathAccuracy()
PROMPT = "How many positive divisors does 36 have?"


def math(completion: str, gold: str) -> float:
    return MATH.evaluate([PROMPT], [completion], answer=[gold]).scores[0]


@pytest.mark.parametrize("completion", [
    "**9**\n\n36 = 2² · 3², so the count is (2+1)(2+1) = 9: 1, 2, 3, 4, 6, 9, 12, 18, 36.",
    "36 = 2² · 3², so the count is (2+1)(2+1) = 9: 1, 2, 3, 4, 6, 9, 12, 18, 36.",
    "The count is 9: 1, 2, 3, 4, 6, 9, 12, 18, 36.",
])
def test_a_count_with_its_items_is_the_count(completion):
    assert math(completion, "9") == 1.0


@pytest.mark.parametrize("completion, gold", [
    ("The count is 9: 1, 2, 3, 4, 6, 9, 12, 18, 36.", "36"),   # the last item is no answer
    ("The count is 8: 1, 2, 3, 4, 6, 9, 12, 18, 36.", "9"),    # eight items announced, nine listed: read as before
    ("The count is 9: 1, 2, 3, 4, 6, 9, 12, 18.", "9"),        # eight listed
    ("The count is 9: 1, 2, 3, 4, 6, 9, 12, 18, 36. Or maybe 8.", "9"),
])
def test_a_list_that_does_not_enumerate_the_count_is_read_as_before(completion, gold):
    assert math(completion, gold) == 0.0


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 500), min_size=3, max_size=12, unique=True), st.integers(-2, 2))
def test_the_count_is_paid_only_when_the_list_has_that_many_items(items, off):
    count = len(items) + off
    completion = f"Counting them, the total is {count}: " + ", ".join(map(str, sorted(items))) + "."
    if off == 0:
        assert math(completion, str(count)) == 1.0
    if off == 0 and sorted(items)[-1] != count:
        assert math(completion, str(sorted(items)[-1])) == 0.0  # the last item is no answer
