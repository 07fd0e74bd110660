"""A ratio ending the last line is one value (issue #32): "The simplified ratio is 3:4." answers 3:4, not its last term
4; a label's colon ("Step 2: 15") is no ratio.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.math_accuracy import MathAccuracy

MATH = MathAccuracy()


def math(completion: str, gold: str) -> float:
    return MATH.evaluate(["Simplify the ratio."], [completion], answer=[gold]).scores[0]


@pytest.mark.parametrize("completion, gold", [
    ("GCD(18, 24) = 6. Dividing both parts by 6 gives 3:4.\n\nThe simplified ratio is 3:4.", "3:4"),
    ("The simplified ratio is 3 : 4.", "3:4"),
    ("boys to girls = 3:4", "3:4"),
    ("Step 2: 15", "15"),                      # a label's colon
    ("Part 2: 15.", "15"),
])
def test_a_ratio_on_the_last_line_is_one_value(completion, gold):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold", [
    ("The simplified ratio is 3:4.", "4"),     # its last term is no answer
    ("The simplified ratio is 3:4.", "3"),
    ("The simplified ratio is 4:3.", "3:4"),   # the terms in the other order
    ("The simplified ratio is 3:4 or 6:8.", "3:4"),
])
def test_a_term_of_the_ratio_or_another_ratio_is_not_paid(completion, gold):
    assert math(completion, gold) == 0.0


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 50), st.integers(1, 50), st.sampled_from(["{a}:{b}", "{a} : {b}"]))
def test_a_ratio_pays_its_own_terms_only(a, b, form):
    completion = "So the simplified ratio is " + form.format(a=a, b=b) + "."
    assert math(completion, f"{a}:{b}") == 1.0
    assert math(completion, str(b)) == 0.0 or a == b
