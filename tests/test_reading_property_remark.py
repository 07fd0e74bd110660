"""A closing remark that states a property of an expression and no value is no answer (stop 63): "Hence $x = 4$.
Note that $2^t$ is one-to-one." reads 4, not the expression ``2^t`` (which was refused as "an expression where the
gold is a number"). Rule: ``closing_remarks.property_remark_start``; the remark stays in the text that decides
commitment, so a remark that judges, doubts or denies the value is still read."""

import pytest
from hypothesis import given, strategies as st

from polyreward.verifiers.closing_remarks import property_remark_start
from polyreward.verifiers.math import verify

ROWS = [
    # (completion, gold, paid?)
    ("$32 = 2^5$, so $x + 1 = 5$. There's no way $x$ isn't 4: $2^t$ is one-to-one.", "4", True),
    ("Thus $x = 4$ (as $2^t$ is injective).", "4", True),
    ("Hence $x=4$. Note that $2^t$ is one-to-one.", "4", True),
    ("Hence $x=4$; here $2^t$ is strictly increasing.", "4", True),
    ("Therefore $x = 4$, as $f(t) = 2^t$ is injective.", "4", True),
    ("The minimum is attained at $x = 3$, where $f$ is smallest.", "3", True),
    ("So $n = 12$. Recall that $n$ is a positive integer.", "12", True),
    # the remark still decides commitment
    ("So $x = 4$. $x$ is wrong.", "4", False),
    ("So $x = 4$. $x$ is only a guess.", "4", False),
    ("So $x = 5$ or $x = 4$; $x$ is even.", "4", False),
    # the remark holds the value, or judges it: not a property remark
    ("The roots are 2 and 3, so $x$ is 3.", "3", True),
    ("So $x = 4$. Recall that $f$ is correct.", "5", False),
]


@pytest.mark.parametrize("completion, gold, paid", ROWS)
def test_property_remark(completion, gold, paid):
    assert (verify(pred=completion, ref=gold).score == 1.0) is paid


@pytest.mark.parametrize("window", [
    "So $x = 4$. $x$ is wrong.",
    "So $x = 4$, and $y$ is 7.",
    "So $x = 4$; $x = 4$ is the answer.",
    "The answer is $2^t$.",
    "Thus $x = 4$ (as $2^t$ equals 16).",
])
def test_not_a_property_remark(window):
    assert property_remark_start(window) is None


@given(st.integers(-10**6, 10**6), st.sampled_from(["one-to-one", "injective", "strictly increasing", "continuous", "a bijection"]),
       st.sampled_from([". Note that ", "; here ", " (as ", ", as ", ": "]), st.sampled_from(["2^t", "f(t) = 2^t", "t \\mapsto 3t", "g"]))
def test_a_property_remark_never_changes_the_value_read(value, predicate, opener, expression):
    """The value before a property remark is read whatever the remark, and a different gold is never paid."""
    text = f"Hence $x = {value}${opener}${expression}$ is {predicate}{')' if '(' in opener else ''}."
    assert verify(pred=text, ref=str(value)).score == 1.0
    assert verify(pred=text, ref=str(value + 1)).score == 0.0
