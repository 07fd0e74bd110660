"""A reference the answer is compared with -- a target, a goal, a normal or reference range, a cutoff, a threshold, a
limit -- is not a second answer, whether or not its bound equals the answer's value (issue #32: the clean-clone CI of
stop 50 found ``Result: 65 mmHg (target ≥ 65)`` refused for gold 65: the bound, written like the answer, was located as
the answer and read as a bound). ``remark_values.reference_value`` reads it; ``answer_extraction.locate_answer`` looks
for the answer before a bracket that holds its value as a reference (``remark_values.reference_bracket``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.math_accuracy import MathAccuracy

MATH = MathAccuracy()


def math(completion: str, gold: str) -> float:
    return MATH.evaluate([""], [completion], answer=[gold]).scores[0]


@pytest.mark.parametrize("completion, gold", [
    ("MAP = 70 + (2 × 62.5)/3 ... = 65 mmHg.\n\nResult: 65 mmHg (target ≥ 65).", "65"),
    ("Result: 65 mmHg (goal < 65 would need pressors).", "65"),
    ("Mean arterial pressure: 65 mmHg (target ≥ 65, met).", "65"),
    ("Sodium: 135 mmol/L (normal 135–145).", "135"),
    ("Sodium: 145 mmol/L (normal range 135–145).", "145"),
    ("eGFR: 60 mL/min (cutoff 60).", "60"),
    ("The answer is 65 (target ≥ 65).", "65"),
    ("The MAP is 65 mmHg (threshold 65 mmHg).", "65"),
    ("Result: 65 (target ≥ 60).", "65"),  # a bare number: the bracket's reference is read too
    ("Result: 145 (normal 135–145).", "145"),
    ("\\boxed{65} (target ≥ 65)", "65"),
])
def test_a_reference_beside_the_answer_is_not_a_second_value(completion, gold):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold", [
    ("Result: 65 or 70 mmHg (target ≥ 65).", "65"),          # the answer itself is two values
    ("Result: 65 mmHg (target ≥ 65 or 70).", "65"),          # "or" makes the bracket an alternative
    ("Result: 65 mmHg (or maybe 70 mmHg).", "65"),
    ("Result: 65 mmHg (70 mmHg).", "65"),                     # a second value with no reference word
    ("Result: 70 mmHg (target ≥ 65).", "65"),                 # the gold only as the reference
    ("Result: 65 (target 70)", "70"),
    ("The answer is 70 (normal range 65–75).", "65"),
    ("The MAP is at least 65 mmHg (target ≥ 65).", "65"),     # a bound as the answer stays a bound
    ("Result: 20 mmHg (target 19–21, or 21 mmHg).", "21"),    # the range's end is no restatement of the "or" value
])
def test_the_gold_as_a_reference_or_a_second_value_is_not_paid(completion, gold):
    assert math(completion, gold) == 0.0


_REFERENCES = st.sampled_from(["target ≥ {v}", "goal > {v} {u}", "normal range {lo}–{v}", "normal {v}–{hi}",
                               "reference range {lo}–{hi} {u}", "upper limit {v}", "threshold {v} {u}", "cutoff {v}",
                               "goal < {v}", "target {lo}–{hi}"])
_UNITS = st.sampled_from(["mmHg", "mL/min", "mg", "mmol/L", "kg/m²", ""])


@settings(max_examples=60, deadline=None)
@given(st.integers(20, 400), st.integers(1, 15), _UNITS, _REFERENCES)
def test_a_reference_whatever_its_bound_never_changes_the_score(value, step, unit, reference):
    """A reference after the answer -- its bound equal to the answer's value or not -- scores as the plain answer."""
    remark = reference.format(v=value, lo=value - step, hi=value + step, u=unit).strip()
    plain = f"Computed from the inputs.\n\nResult: {value} {unit}".rstrip() + "."
    remarked = f"Computed from the inputs.\n\nResult: {value} {unit}".rstrip() + f" ({remark})."
    for gold in (str(value), str(value + step), str(value - step)):
        assert math(remarked, gold) == math(plain, gold)


@settings(max_examples=40, deadline=None)
@given(st.integers(20, 400), st.integers(1, 15), _UNITS, _REFERENCES)
def test_a_second_value_beside_a_reference_still_refuses(value, step, unit, reference):
    """Offering another value with "or" keeps the answer a hedge, reference or not."""
    remark = reference.format(v=value, lo=value - step, hi=value + step, u=unit).strip()
    completion = f"Result: {value} {unit}".rstrip() + f" ({remark}, or {value + step} {unit})".rstrip() + "."
    assert math(completion, str(value)) == 0.0
    assert math(completion, str(value + step)) == 0.0


def test_the_statistic_range_stated_is_no_reference():
    """"range" names a reference only where it is not the subject of a statement of its value: "(The range is 3.)"
    after "Range = 2" states the range again, another value (found when the reference rule met holdout67's labelled
    answers); "(range 135-145)" and "(normal range 135-145)" stay references."""
    from polyreward.verifiers.remark_values import states_other_quantities

    assert not states_other_quantities(" (The range is 3.)", "2", "Range = 2", "", lines=True)
    assert states_other_quantities(" (The mean is 3.)", "2", "Range = 2", "", lines=True)
    assert states_other_quantities(" (range 135-145).", "140", "Na = 140", " mmol/L", lines=True)
