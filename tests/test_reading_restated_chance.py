"""A percent chance after a probability answer that is the answer's own value restates it; it is no credence (issue
#32, ``unasserted.without_restated_chance``): "\\boxed{\\frac{1}{4}} (That's a 25% chance.)" is 1/4, while a chance
with another number, or one about the writer being right, still withholds the answer.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.math_accuracy import MathAccuracy

MATH = MathAccuracy()


def math(completion: str, gold: str) -> float:
    return MATH.evaluate([""], [completion], answer=[gold]).scores[0]


@pytest.mark.parametrize("completion, gold", [
    ("P(HH) = 1/2 × 1/2 = 1/4.\n\n\\boxed{\\frac{1}{4}}\n\n(That's a 25% chance; the chance of at least one tail is 3/4.)", "\\frac{1}{4}"),
    ("\\boxed{\\frac{1}{4}} (a 25% chance)", "\\frac{1}{4}"),
    ("The probability is \\boxed{0.3}, i.e. a 30% chance of rain on both days.", "0.3"),
    ("\\boxed{\\frac{1}{8}}. So there is a 12.5% chance of three heads.", "\\frac{1}{8}"),
])
def test_a_chance_that_is_the_answer_restates_it(completion, gold):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold", [
    ("\\boxed{\\frac{1}{4}}. A 30% chance, I'd say.", "\\frac{1}{4}"),          # another number: a credence
    ("\\boxed{\\frac{1}{4}} (25% chance I'm right)", "\\frac{1}{4}"),          # about the writer, whatever its number
    ("\\boxed{\\frac{1}{4}} (a 25% chance of being correct)", "\\frac{1}{4}"),
    ("\\boxed{\\frac{1}{4}}. I'm 25% sure.", "\\frac{1}{4}"),
    ("\\boxed{42}. A 25% chance.", "42"),
])
def test_a_credence_still_withholds_the_answer(completion, gold):
    assert math(completion, gold) == 0.0


@settings(max_examples=50, deadline=None)
@given(st.sampled_from([(1, 2), (1, 4), (3, 4), (1, 5), (2, 5), (1, 8), (3, 8), (1, 10), (3, 10)]), st.integers(1, 40),
       st.sampled_from(["(a {p}% chance)", "(That's a {p}% chance.)", ". So there is a {p}% chance."]))
def test_a_chance_restates_the_answer_only_when_it_is_its_value(fraction, shift, form):
    top, bottom = fraction
    percent = Fraction(100 * top, bottom)
    shown = f"{float(percent):g}"
    gold = f"\\frac{{{top}}}{{{bottom}}}"
    restating = f"\\boxed{{{gold}}} " + form.format(p=shown)
    other = f"\\boxed{{{gold}}} " + form.format(p=f"{float(percent) + shift:g}")
    assert math(restating, gold) == 1.0
    assert math(other, gold) <= math(f"\\boxed{{{gold}}}", gold)  # another chance never raises the score
    if percent <= 50:  # (a credence above one half commits: docs/reading.md)
        assert math(f"\\boxed{{{gold}}} ({shown}% chance I'm right)", gold) == 0.0
