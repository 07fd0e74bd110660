"""Readings added after holdout53 (written blind, hunting over-refusal), besides the givens (tests/test_givens.py):

* an answer line left as a template at the end ("The answer is ( ).", "The correct answer is: ___") is a final
  statement with no answer: the completion commits to nothing, whatever option or value the working named before it;
* the whole a percent answer is taken of, right after it ("So 18 is **30%** of 60."), is what the percent is of, not
  a second value (commitment.later_disowns, not_a_value.percent_base);
* a rounded value in brackets after the answer in the answer's own unit ("9π cm² (about 28.27 cm²)") restates it
  (closing_remarks: the unit is read past when the answer wrote it too);
* choice: the one letter given, in brackets beside its own option's text ("Canberra (B)"), is the pick; what follows
  is read as it follows an answer phrase, so other options' texts in an explanation are no picks, while a
  correction, a hedge or an answer phrase to another option still is.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy

CHOICE = ChoiceAccuracy()
MATH = MathAccuracy()

MOON = "Which planet has the moon Titan?\nA) Jupiter\nB) Saturn\nC) Uranus\nD) Neptune"


def choice(completion: str, gold: str, prompt: str = MOON) -> float:
    return CHOICE.evaluate([prompt], [completion], answer=[gold]).scores[0]


def math(completion: str, gold: str, prompt: str = "") -> float:
    return MATH.evaluate([prompt], [completion], answer=[gold]).scores[0]


@pytest.mark.parametrize("completion", [
    "Titan, the largest moon with a thick atmosphere, orbits Saturn, which is option B.\n\nThe answer is ( ).",
    "Titan orbits Saturn. That corresponds to option B.\n\nThe correct answer is: ___",
    "Saturn is the planet with Titan (B).\n\n**Final answer:** [ ]",
    "Titan belongs to Saturn, so B fits. So the answer is ___.",
    "Saturn (B) has Titan. The best answer is ( ).",
])
def test_an_unfilled_answer_slot_at_the_end_commits_to_nothing(completion):
    assert choice(completion, "B") == 0.0


@pytest.mark.parametrize("completion", [
    "Titan orbits Saturn.\n\nThe answer is (B).",
    "Titan orbits Saturn.\n\nThe correct answer is: B",
    "Titan orbits Saturn, so the answer is B.",
    "The answer is B) Saturn.",
    "Titan is Saturn's largest moon.\n\n**Answer:** B",
])
def test_a_filled_answer_line_is_still_paid(completion):
    assert choice(completion, "B") == 1.0


@pytest.mark.parametrize("completion", [
    "Each row has 12 seats and there are 8 rows: 12 × 8 = 96.\n\nThe answer is ( ).",
    "12 × 8 = 96 seats.\n\nThe correct answer is: ___",
])
def test_math_an_unfilled_slot_is_no_answer_either(completion):
    assert math(completion, "96") == 0.0


@settings(max_examples=30, deadline=None)
@given(working=st.sampled_from(["Titan orbits Saturn, which is option B.", "Saturn (B) is the one with Titan.",
                                "B. Saturn has Titan."]),
       slot=st.sampled_from(["( )", "___", "[ ]", "____", "( )."]),
       lead=st.sampled_from(["The answer is ", "The correct answer is: ", "Answer: ", "So the final answer is "]))
def test_appending_an_unfilled_slot_never_pays(working, slot, lead):
    """Whatever the working names, a final answer line with an empty slot leaves no answer."""
    assert choice(f"{working}\n\n{lead}{slot}", "B") == 0.0


PERCENT = "What percent of 60 is 18?"


@pytest.mark.parametrize("completion", [
    "18 / 60 = 0.3 = 30%\n\nSo 18 is **30%** of 60.",
    "18 ÷ 60 = 0.30, so 18 makes up **30%** of 60 in total.",
    "The share is 18/60 = 0.3.\n\n18 is **30%** of the 60.",
])
def test_the_whole_of_a_percent_answer_is_no_second_value(completion):
    assert math(completion, "30", PERCENT) == 1.0


@pytest.mark.parametrize("completion", [
    "So 18 is **30%** of 60, or 40%.",
    "So 18 is **30%** of 60. Actually, 40%.",
    "**30%** of 60, I mean 40%.",
    "So 18 is **30%**. Or 40 if you count twice.",
    "18 is **30** of 60.",  # no percent: 60 after the answer is another value
])
def test_another_value_after_a_percent_answer_is_still_a_second_answer(completion):
    assert math(completion, "30", PERCENT) == 0.0


@settings(max_examples=30, deadline=None)
@given(part=st.integers(min_value=1, max_value=99), whole=st.integers(min_value=100, max_value=900),
       other=st.integers(min_value=1, max_value=99), joint=st.sampled_from([", or ", ". Actually, ", ", I mean ", ". Or maybe "]))
def test_a_percent_base_never_hides_a_second_percent(part, whole, other, joint):
    """"p% of W" reads W as the whole, but a second percent after it still makes two answers, for either gold."""
    if other == part:
        return
    completion = f"So the share is **{part}%** of {whole}{joint}{other}%."
    assert math(completion, str(part), f"What percent of {whole} is it?") == 0.0
    assert math(completion, str(other), f"What percent of {whole} is it?") == 0.0


CIRCLE = "A circle has radius 3 cm. What is its area in square centimetres? Express your answer in terms of $\\pi$."


@pytest.mark.parametrize("completion", [
    "A = πr² = π · 3² = 9π\n\nThe area is 9π cm² (about 28.27 cm²).",
    "A = \\pi r^2 = 9\\pi.\n\nThe area is 9\\pi cm^2 (approximately 28.27 cm^2).",
    "The area is 9π square centimetres (about 28.3 square centimetres).",
])
def test_a_rounded_value_in_the_answers_unit_restates_it(completion):
    assert math(completion, "9\\pi", CIRCLE) == 1.0


@pytest.mark.parametrize("completion", [
    "The area is 9π cm² (about 31.4 cm²).",  # not the answer's value: a second answer
    "The area is 9π cm² (or 28.27 cm²).",  # an alternative, not a rounding
    "The area is 9π cm² (about 28.27 seconds).",  # another unit: another quantity
])
def test_a_bracketed_value_that_is_not_the_answer_rounded_stays_a_second_value(completion):
    assert math(completion, "9\\pi", CIRCLE) == 0.0


@settings(max_examples=30, deadline=None)
@given(k=st.integers(min_value=2, max_value=40), off=st.floats(min_value=1.0, max_value=50.0), unit=st.sampled_from(["cm²", "cm^2", "m^3", "units"]))
def test_a_disagreeing_approximation_with_a_unit_never_pays(k, off, unit):
    """An "about" value in brackets that is not the answer's value leaves two answers, whatever unit follows it."""
    wrong = round(k * 3.14159 + off, 2)
    completion = f"The area is {k}π {unit} (about {wrong} {unit})."
    assert math(completion, f"{k}\\pi") == 0.0


CAPITAL = "Which city is the capital of Canada?\nA) Toronto\nB) Ottawa\nC) Montreal\nD) Vancouver"


@pytest.mark.parametrize("completion", [
    "The capital of Canada is Ottawa (B). Although Toronto is the largest city, Ottawa was chosen as a compromise "
    "between Toronto and Montreal.",
    "Canada's capital is Ottawa (B). Toronto is larger, and Montreal was the capital for a few years in the 1840s.",
    "It's Ottawa (B), chosen by Queen Victoria in 1857; Toronto and Montreal were rivals.",
    "Is it Ottawa (B)? Yes: Ottawa (B) has been the capital since 1857, though Toronto is larger.",
])
def test_a_letter_beside_its_text_is_the_pick_despite_other_texts_after(completion):
    assert choice(completion, "B", CAPITAL) == 1.0


@pytest.mark.parametrize("completion", [
    "Ottawa (B). Actually, it is Toronto.",
    "Ottawa (B). Wait, no - Toronto.",
    "Ottawa (B)? Or maybe Toronto.",
    "Probably Ottawa (B), but Toronto is possible.",
    "Not Ottawa (B). Toronto is the capital.",
    "I am not sure, maybe Ottawa (B). Toronto is bigger.",
    "Ottawa (B) is tempting, but the answer is Toronto.",
    "Ottawa (B). I mean Toronto.",
    "Toronto (B) is the capital.",  # the letter beside another option's text
    "The answer is Toronto. Ottawa (B) is where parliament sits.",
    # a naming that asks is no pick (holdout51's photon row came back with this rule until it was checked)
    "Shall I explain why Ottawa (B) was chosen before I give a final letter?",
    "Would it help to compare Ottawa (B) with the others first?",
])
def test_a_correction_or_hedge_to_another_option_still_refuses_it(completion):
    assert choice(completion, "B", CAPITAL) == 0.0


@settings(max_examples=30, deadline=None)
@given(other=st.sampled_from(["Toronto", "Montreal", "Vancouver"]),
       turn=st.sampled_from(["Actually, it is {o}.", "Wait, no - {o}.", "Or maybe {o}.", "I mean {o}.", "Hmm, no: the answer is {o}."]))
def test_appending_a_correction_to_another_option_never_pays(other, turn):
    """Whatever the labelled pick, a later correction or alternative naming another option's text leaves it unpaid."""
    assert choice("The capital is Ottawa (B). " + turn.format(o=other), "B", CAPITAL) == 0.0
