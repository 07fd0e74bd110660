"""The value as the subject of a definite predicate names its quantity (stop 63): "5 is the maximum, not the minimum"
for "What is the minimum value ...?" states the gold's number as another quantity, as "the maximum is 5" does (rule:
``asked_quantity._PREDICATE_AFTER``, read by ``other_quantity``; red team holdout114
``x114_m_h_min_stem_gold_called_max``, left open at stop 62)."""

import pytest
from hypothesis import given, strategies as st

from polyreward.verifiers.math import verify_batch

MIN_Q = "What is the minimum value of $x^2 - 8x + 21$?"
PRODUCT_Q = "Find the product of the roots of $x^2 - 5x + 4 = 0$."
COUNT_Q = "How many apples are there in 6 baskets of 7 apples?"

ROWS = [
    # (prompt, completion, gold, paid?)
    (MIN_Q, "$x^2 - 8x + 21 = (x - 4)^2 + 5$. At $x = 4$ the value is 5, and since the square term can only add, "
            "5 is the maximum, not the minimum — the expression has no minimum.", "5", False),
    (MIN_Q, "Completing the square, $(x-4)^2 + 5$, so 5 is the largest value it never exceeds... no: 5 is the maximum.", "5", False),
    (PRODUCT_Q, "The roots are 1 and 4; 4 is the larger root.", "4", False),
    # genuine: the predicate names the asked quantity, or no class at all
    (MIN_Q, "$(x-4)^2 + 5 \\ge 5$, so 5 is the minimum.", "5", True),
    (MIN_Q, "$(x-4)^2 + 5$: 5 is the minimum, not the maximum (there is no maximum).", "5", True),
    (MIN_Q, "So 5 is the smallest value it takes.", "5", True),
    (PRODUCT_Q, "By Vieta, 4 is the product.", "4", True),
    (COUNT_Q, "6 × 7 = 42, so 42 is the total number of apples.", "42", True),
    (COUNT_Q, "6 × 7 = 42. So 42 is the answer.", "42", True),
]


@pytest.mark.parametrize("prompt, completion, gold, paid", ROWS)
def test_predicate_names_the_quantity(prompt, completion, gold, paid):
    assert (verify_batch([completion], [gold], prompts=[prompt])[0].score == 1.0) is paid


@given(st.integers(1, 10**4), st.sampled_from(["maximum", "largest value", "greatest value", "upper bound"]))
def test_the_other_extreme_is_never_paid(value, other):
    """Whatever the value, calling it the other extreme than the one asked is not paid; calling it the asked one is."""
    prompt = f"What is the minimum value of $(x - 3)^2 + {value}$?"
    assert verify_batch([f"So {value} is the {other}."], [str(value)], prompts=[prompt])[0].score == 0.0
    assert verify_batch([f"So {value} is the minimum."], [str(value)], prompts=[prompt])[0].score == 1.0
