"""A conclusion inside a ``<think>`` block ends with the block (issue #32): "So the answer is \\frac{11}{12}.\\n</think>"
concludes 11/12, not the first math of the visible working after it ("$\\frac{2}{3} = \\frac{8}{12}$"), so a visible
box that agrees is paid, while a think block that concludes another value still makes a different box conflict.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.math_accuracy import MathAccuracy

MATH = MathAccuracy()
PROMPT = "Compute $\\frac{2}{3} + \\frac{1}{4}$."
WORK = "Use the common denominator 12: $\\frac{2}{3} = \\frac{8}{12}$ and $\\frac{1}{4} = \\frac{3}{12}$, so the sum is $\\frac{11}{12}$."


def math(completion: str, gold: str = "\\frac{11}{12}") -> float:
    return MATH.evaluate([PROMPT], [completion], answer=[gold]).scores[0]


@pytest.mark.parametrize("completion", [
    f"<think>\nSo the answer is \\frac{{11}}{{12}}.\n</think>\n\n{WORK}\n\n**Final Answer**\n\\boxed{{\\frac{{11}}{{12}}}}",
    f"<think>\nThus the answer is 11/12\n</think>\n\n{WORK}\n\n\\boxed{{\\frac{{11}}{{12}}}}",
])
def test_a_think_conclusion_that_agrees_with_the_box_is_paid(completion):
    assert math(completion) == 1.0


@pytest.mark.parametrize("completion", [
    f"<think>\nSo the answer is \\frac{{3}}{{7}}.\n</think>\n\n{WORK}\n\n\\boxed{{\\frac{{11}}{{12}}}}",
    "<think>\nSo the answer is 11. </think> \\boxed{\\frac{11}{12}}",
])
def test_a_think_conclusion_of_another_value_still_conflicts(completion):
    assert math(completion) == 0.0


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 30), st.integers(2, 30), st.booleans())
def test_the_box_is_paid_only_when_the_think_block_concludes_it(top, bottom, same):
    concluded = f"\\frac{{{top}}}{{{bottom}}}" if same else f"\\frac{{{top + 1}}}{{{bottom}}}"
    completion = f"<think>\nSo the answer is {concluded}.\n</think>\n\n{WORK}\n\n\\boxed{{\\frac{{{top}}}{{{bottom}}}}}"
    assert math(completion, f"\\frac{{{top}}}{{{bottom}}}") == float(same)
