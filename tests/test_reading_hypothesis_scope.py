"""How far a hypothesis reaches (:mod:`polyreward.verifiers.hypothetical`), two genuine answers found refused at stop 58
while testing holdout105's rules (docs/reading.md, "After holdout105").

An inverted subjunctive ("Were the time 3 hours", "Had the train left at noon") is a hypothesis only as far as its
clause: a case closed by ";" before an indicative clause that states the real answer is over, while a "would" or a
second subjunctive after the ";" keeps the answer inside the hypothesis (:func:`polyreward.verifiers.hypothetical.
hypothetical`).

The genuine first row below was refused as hedged, the subjunctive being read on the whole sentence.

"asked" marks a condition about another question ("If the question asked for the perimeter, it would be 42"), but not
in a relative clause that says the value is the question's own ("we would get the total, which is what is asked").
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.math_accuracy import MathAccuracy

math = scorer(MathAccuracy, "A car travels 180 km. What is its average speed in km/h if the trip takes 2.5 hours?")

GENUINE = [  # the hypothetical case is closed by ";", then the answer is stated of the real problem
    ("Were the time 3 hours, the speed would be 60; it is 2.5 hours, so the speed is $\\boxed{72}$ km/h.", "72"),
    ("Had the trip taken 3 hours, the speed would be 60 km/h; it took 2.5 hours, so the speed is \\boxed{72}.", "72"),
    ("Were the distance 150 km, we would get 60; the distance is 180 km, hence the speed is 72 km/h.\n\n**Answer:** 72", "72"),
    ("Had the train left at noon, it would arrive at 3; it left at 1, so it arrives at \\boxed{4}.", "4"),
]
HYPOTHETICAL = [  # the answer is still under the hypothesis after the ";"
    ("Were the time 2.5 hours, the speed would be \\boxed{72}; it is 3 hours.", "72"),
    ("Were the time 2.5 hours; the speed would be \\boxed{72}.", "72"),
    ("Were the trip shorter, say 2.5 hours; then we'd have \\boxed{72}.", "72"),
    ("Were it 3 hours, the speed would be 60; as if it were 2.5 hours, the speed is \\boxed{72}.", "72"),
    ("Were the time 2.5 hours, the speed would be \\boxed{72}.", "72"),
]


@pytest.mark.parametrize("completion, gold", GENUINE)
def test_a_case_closed_by_a_semicolon_keeps_the_answer_after_it(completion, gold):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold", HYPOTHETICAL)
def test_an_answer_still_inside_the_hypothesis_is_refused(completion, gold):
    assert math(completion, gold) == 0.0


NUMBERS = st.integers(min_value=2, max_value=999)


@settings(max_examples=60, deadline=None)
@given(real=NUMBERS, other=NUMBERS, would=st.sampled_from(["the result would be", "the result would come to", "it'd be"]))
def test_the_hypothesis_reaches_the_semicolon_and_no_further(real, other, would):
    """For any values: the answer after ";" in an indicative clause is paid; the same answer inside the subjunctive
    clause, or after ";" with "would", is not."""
    assert math(f"Were the data different, {would} {other}; the data are as given, so the result is \\boxed{{{real}}}.",
                str(real)) == 1.0
    assert math(f"Were the data different, {would} \\boxed{{{real}}}; the data are as given.", str(real)) == 0.0
    assert math(f"Were the data different, it is {other}; {would} \\boxed{{{real}}}.", str(real)) == 0.0


ASKED_GENUINE = [
    "If we count both sets, we would get the total, which is what is asked: \\boxed{42}.",
    "If we take the total, which is what was asked, we would get \\boxed{42}.",
    "Adding the two parts, the total would be 42, that is what is asked. **Answer: 42**",
]
ASKED_HYPOTHETICAL = [
    "If the question asked for the total, it would be \\boxed{42}.",
    "If the problem had asked for the perimeter, it would be \\boxed{42}.",
    "If what is asked were the perimeter, it would be \\boxed{42}.",
    "If the sum is what was asked, it would be \\boxed{42}.",
]


@pytest.mark.parametrize("completion", ASKED_GENUINE)
def test_the_question_s_own_ask_in_a_relative_clause_keeps_the_answer(completion):
    assert math(completion, "42") == 1.0


@pytest.mark.parametrize("completion", ASKED_HYPOTHETICAL)
def test_another_question_asked_is_a_hypothesis(completion):
    assert math(completion, "42") == 0.0
