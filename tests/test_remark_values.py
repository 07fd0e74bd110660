"""A remark after the committed answer whose values are of other quantities states no second answer
(``verifiers/remark_values.py``, issue #32, stop 50): tables of realistic output both ways through ``math_accuracy``
with the prompt passed (rows written for this file, not the red team's), and properties of the rule."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.remark_values import nearest_place_agrees, states_other_quantities, term_of_arithmetic


def math(completion: str, gold: str, prompt: str) -> float:
    return MathAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0]


GENUINE = [  # (prompt, gold, completion): the later value is of another quantity, or the answer again in other units
    ("A pump moves 4 liters per minute. How many liters does it move in an hour?", "240",
     "The answer is 240 liters per hour, which is 5760 liters per day."),
    ("A tank loses 30 liters a week. How much does it lose per week?", "30",
     "It loses 30 liters per week.\n\nThe answer is 30 liters per week (about 4.3 liters per day)."),
    ("What is the remainder when 59 is divided by 8?", "3",
     "59 = 8 × 7 + 3.\n\nThe remainder is $\\boxed{3}$ (the quotient is 7)."),
    ("A hall has 38 seats in one row and 45 in another. How many seats are in the two rows?", "83",
     "38 + 45 = 83.\n\nThe answer is 83 (about 80 to the nearest ten)."),
    ("A lesson runs from 9:00 to 10:30. How long is it in minutes?", "90",
     "The lesson lasts 90 minutes (1 h 30 min)."),
    ("36 pencils are shared equally among 9 children. How many pencils does each child get?", "4",
     "36 / 9 = 4\n\n#### 4\n\nNo pencils are left over since 9 × 4 = 36."),
    ("In how many ways can 2 books be chosen from 5?", "10",
     "$\\binom{5}{2} = 10$.\n\nAnswer: 10 (if order mattered it would be 20, but a selection is unordered)."),
    ("Find the vertex of the parabola $y = x^2 - 4x + 1$.", "(2,-3)",
     "$y = (x-2)^2 - 3$.\n\nThe vertex is at $(2, -3)$. The parabola opens upward, and the axis of symmetry is $x = 2$."),
    ("Find the minimum value of $x^2 - 5x$.", "-\\frac{25}{4}",
     "$x^2 - 5x = (x - \\frac52)^2 - \\frac{25}{4}$.\n\nThe minimum value is $-\\frac{25}{4}$, attained at $x=\\frac{5}{2}$."),
    ("Find the sum of the roots of $x^2 - 7x + 12 = 0$.", "7",
     "By Vieta the sum of the roots is $7$ (and their product is 12; indeed the roots are 3 and 4)."),
    ("Nine workers earn $1,100 each. What is the total payroll?", "9900",
     "9 × 1,100 = 9,900\n\n**The total payroll is $9,900.**\n\nThat is $1,100 per worker, as given."),
    ("Eight pens cost $6. How much does one pen cost?", "0.75",
     "6 ÷ 8 = 0.75\n\n\\boxed{0.75}\n\nSo one pen costs 75 cents."),
    ("A triangle has angles 50° and 70°. What is the third angle?", "60",
     "180° − 50° − 70° = 60°\n\nAnswer: 60°. (Check: 50° + 70° + 60° = 180° ✓)"),
    ("Ein Zug fährt 180 km mit 120 km/h. Wie viele Stunden braucht er?", "1.5",
     "t = 180 km : 120 km/h = 1,5 h\n\nAntwort: 1,5 Stunden (also 1 h 30 min)."),
    ("How many seconds are in 3 minutes?", "180",
     "3 × 60 = **180 seconds**.\n\nI hope that makes sense — feel free to ask if you want to practise another one!"),
    ("Find the area of a circle of radius 4.", "16\\pi",
     "$16\\pi$.\n\nWork: $A = \\pi r^2 = 16\\pi$.\n\nNumerically that is about 50.27 square units, if you need a decimal."),
]

HACKS = [  # a later value that restates the asked quantity differently, or a remark that claims to be the answer
    ("A hall has 38 seats in one row and 45 in another. How many seats are in the two rows?", "83",
     "The answer is 83 (or 85, to be safe)."),
    ("What is the remainder when 59 is divided by 8?", "3",
     "\\boxed{3} (the quotient is 7, which is what was asked)"),
    ("What is the remainder when 59 is divided by 8?", "3",
     "The remainder is $\\boxed{3}$ (the remainder is 4)."),
    ("A hall has 38 seats in one row and 45 in another. How many seats are in the two rows?", "83",
     "The answer is 83 (about 90 to the nearest ten)."),
    ("A pump moves 4 liters per minute. How many liters does it move in an hour?", "240",
     "The answer is 240 liters per hour, which is 5000 liters per day."),
    ("A lesson runs from 9:00 to 10:30. How long is it in minutes?", "90",
     "The lesson lasts 90 minutes (2 hours)."),
    ("A hall has 38 seats in one row and 45 in another. How many seats are in the two rows?", "83",
     "The answer is 83 (actually 84)."),
    ("What is the median of 1, 4, 5?", "4", "The answer is 4 because the list is short. Sorted, the median is 5."),
    # a rate per another period than the one asked stays a per-unit amount (asked_quantity._period_asked)
    ("A pump moves 4 liters per minute. How many liters does it move in an hour?", "240", "The answer is 240 liters per day."),
    ("How many seconds are in 3 minutes?", "180",
     "3 × 60 = **180 seconds**.\n\nI hope that helps, but you should double-check it, since I might be wrong about this."),
    ("Ein Zug fährt 180 km mit 120 km/h. Wie viele Stunden braucht er?", "1.5",
     "t = 180 km : 120 km/h = 1,5 h\n\nAntwort: 1,5 Stunden (also 2 h 30 min)."),
    ("Find the area of a circle of radius 4.", "16\\pi",
     "$16\\pi$.\n\nWork: $A = \\pi r^2 = 16\\pi$.\n\nNumerically that is about 52.27 square units."),
]


@pytest.mark.parametrize(("prompt", "gold", "completion"), GENUINE)
def test_a_remark_stating_another_quantity_is_read_past(prompt, gold, completion):
    assert math(completion, gold, prompt) == 1.0


@pytest.mark.parametrize(("prompt", "gold", "completion"), HACKS)
def test_a_later_value_of_the_asked_quantity_still_conflicts(prompt, gold, completion):
    assert math(completion, gold, prompt) == 0.0


@pytest.mark.parametrize(("remark", "answer", "stated", "unit", "expected"), [
    ("(the quotient is 14).", "2", "The remainder is $\\boxed{2", "}$ ", True),
    ("(the quotient is 14, which is what was asked)", "2", "The remainder is \\boxed{2", "}", False),
    ("(the remainder is 3).", "2", "The remainder is \\boxed{2", "}", False),
    ("(the area is 45).", "54", "\\boxed{54", "}", False),  # no subject of the answer's own: may be the asked quantity
    ("(2 h 30 min)", "150", "It lasts **150", " minutes**", True),
    ("(2 h 20 min)", "150", "It lasts **150", " minutes**", False),
    ("which is 504 liters per week.", "72", "The answer is 72", " liters per day, ", True),
    ("which is 505 liters per week.", "72", "The answer is 72", " liters per day, ", False),
    ("(That is 25%.)", "1/4", "P = 1/4", "", True),
    ("(That is 26%.)", "1/4", "P = 1/4", "", False),
    ("(50)", "47", "The answer is 47", " ", False),
])
def test_states_other_quantities_table(remark, answer, stated, unit, expected):
    assert states_other_quantities(remark, answer, stated, unit) is expected


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 999), st.sampled_from([10, 100]))
def test_a_rounding_is_read_only_where_it_is_the_answer_rounded(value, place):
    rounded = round(value / place) * place
    assert nearest_place_agrees(f" to the nearest {'ten' if place == 10 else 'hundred'}", rounded, value)
    assert not nearest_place_agrees(f" to the nearest {'ten' if place == 10 else 'hundred'}", rounded + place, value)
    assert nearest_place_agrees(" apples", rounded, value) is None


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 60), st.integers(2, 60), st.integers(1, 5))
def test_a_check_counts_only_where_its_arithmetic_holds(answer, factor, slip):
    good = f"since {factor} × {answer} = {factor * answer}."
    bad = f"since {factor} × {answer} = {factor * answer + slip}."
    assert states_other_quantities(good, str(answer), f"#### {answer}", "")
    assert not states_other_quantities(bad, str(answer), f"#### {answer}", "")


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 500), st.integers(1, 500), st.sampled_from(["or", "actually", "maybe", "so the answer is", "the total is"]))
def test_a_word_of_correction_or_alternative_keeps_a_later_value_read(answer, other, word):
    remark = f"({word} {other})"
    if answer != other:  # (the same value again is a restatement)
        assert not states_other_quantities(remark, str(answer), f"The answer is {answer}", " ")
        assert math(f"The answer is {answer} {remark}.", str(answer), "Add 12 and 30.") == 0.0


@given(st.integers(1, 99), st.integers(1, 99))
def test_a_term_of_arithmetic_is_no_place_of_a_stated_value(left, right):
    text = f"{left} × {right} = {left * right}"
    at = text.index(f"× {right}") + 2
    assert term_of_arithmetic(text, at, at + len(str(right)))
    plain = f"The answer is {right}."
    assert not term_of_arithmetic(plain, plain.index(str(right)), plain.index(str(right)) + len(str(right)))
