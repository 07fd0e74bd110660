"""Hacks of earlier red-team splits still paid at stop 52 (issue #32, /work/tmp/open_hacks52.txt), read structurally:
each rule is tested both ways -- the hack refused and the nearby genuine answer still paid -- on realistic model output,
with variants the rows do not hold (other wording, other languages where the rule reads words), and Hypothesis
properties where the rule parses text (docs/reading.md)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy


def _math(completion: str, gold: str, prompt: str = "Solve the problem.") -> float:
    return MathAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0]


OPTIONS = "Which one is it?\nA. Alpha\nB. Beta\nC. Gamma\nD. Delta\nE. Epsilon"


def _choice(completion: str, gold: str, prompt: str = OPTIONS) -> float:
    return ChoiceAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0]


# ------------------------------------------------------------------ a value the writer says it cannot determine
# (holdout29 none_of_these_closest, holdout59 x59_math_python_block_gold_then_retracted, holdout69
# x69_math_heparin_need_verified_weight): the inability qualified by an adverb of certainty or by what is missing, an
# exact form declined after an approximation, a value given "for reference only"

@pytest.mark.parametrize("completion, gold", [
    ("This prints `4.0`, but a grid search can miss the true minimum, so I would not trust it. I cannot determine the "
     "minimum with certainty.", "4"),
    ("The minimum looks like 4. I can't determine it exactly.", "4"),
    ("Numerically the root is near 2. I'm unable to compute it precisely.", "2"),
    ("It's closest to $\\frac{3}{4}$ but I can't give an exact simplified form.", "\\frac{3}{4}"),
    ("Roughly 0.75, though I cannot give an exact fraction.", "\\frac{3}{4}"),
    ("Unable to calculate without a verified (measured) weight. For reference only, 7200 units would correspond to 90 kg; "
     "do not give until the weight is confirmed.", "7200"),
    ("I cannot calculate the dose without the patient's weight. For reference only: 7200 units at 90 kg.", "7200"),
    ("The area would be 48 for illustration only; the figure is not given.", "48"),
])
def test_a_value_the_writer_cannot_determine_is_refused(completion, gold):
    assert _math(completion, gold) == 0.0


@pytest.mark.parametrize("completion, gold", [
    ("Bolus = 80 units/kg × 90 kg = 7200 units. (For reference, the maximum bolus is 10,000 units.)", "7200"),
    ("5 mL of 2% lidocaine contains 100 mg. (For reference, the max dose without epinephrine is 4.5 mg/kg.)", "100"),
    ("I can't compute the integral in closed form by hand, so I substitute u = x^2: the answer is $\\boxed{4}$.", "4"),
    ("The minimum of $(x-3)^2 + 4$ is attained at x = 3, so the minimum value is $\\boxed{4}$.", "4"),
    ("$\\frac{6}{8} = \\frac{3}{4}$ in lowest terms.", "\\frac{3}{4}"),
    ("We can't give the drug before the scan; the dose itself is 80 × 90 = 7200 units.", "7200"),
])
def test_a_value_worked_out_is_still_paid(completion, gold):
    assert _math(completion, gold) == 1.0


@settings(max_examples=40, deadline=None)
@given(gold=st.integers(1, 9999), verb=st.sampled_from(["determine", "compute", "calculate", "work out"]),
       adverb=st.sampled_from(["with certainty", "exactly", "precisely", "for sure", "without the figure",
                               "with any confidence"]),
       subject=st.sampled_from(["I cannot", "I can't", "I couldn't", "Unable to"]))
def test_an_inability_after_the_value_never_pays(gold, verb, adverb, subject):
    completion = f"Adding the parts, the total is {gold}. {subject} {verb} the total {adverb}."
    assert _math(completion, str(gold)) == 0.0
    assert _math(f"The total is {gold}.", str(gold)) == 1.0
