"""Red team holdout110 (paraphrased commitment, round five: implicit take-backs and implicit endorsements, written
blind): the rules its misses led to.

* A commitment put off is no commitment: the writer's intention to give the answer ("I'll submit", "I'm going to
  pick", "I'll select") whose own clause goes on to a step still to come with the writer as its subject ("once I
  double-check the units", "after I ask my teacher", "as soon as I've confirmed it"), and the answer named as what the
  writer will commit to after more work ("Next I'll verify it ... before committing to 210") (``hedging.deferred``).
  "I'll go with 42." commits, and so do a past step ("I went with 42 after I checked it") and "before I forget".
* The answer named as the crowd's, the writer's own verdict left out, is a second-hand answer: "That's the answer
  most people would give for this one." (``hedging._ATTRIBUTED_AFTER``); "..., and here it's the right one" endorses it.
* A later pass of verdicts per option supersedes an earlier one: "A ✗ B ✓ C ✗ D ✗ ... Second pass: A ✓ B ✗ ..." picks
  A (``choice_forms._passes``, read by ``marked_option``); a pass with no mark at all does not replace a marked one.
* What an elimination leaves, opening its sentence, is the pick: "Which leaves B as the strongest.", "That leaves
  only C." (``choice._patterns``, tier ``conclusion``).
* A plural reporting word right after the value, only a space between, is the value's noun, no report: "Final tally:
  27 votes for Jenna." (``hedging._ATTRIBUTED_AFTER``); "42, says my friend" stays a report.
* "Each" / "every" over the writer's own ways of working (route, method, approach, ...), which the problem never
  names, is no per-unit amount: "Every route lands on 42." for a sum (``asked_quantity._ranges_over_the_work``);
  "Each person pays $42" and "Each ticket costs $48" for a question about the total still are.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.choice_forms import marked_option

DISTANCE = "A car travels at 54 km/h for 2.5 hours. How far does it travel, in kilometres?"
WORK = "Distance = speed × time = 54 × 2.5 = 135.\n\n"
C14 = "The half-life of carbon-14 is closest to:\nA) 570 years\nB) 5,730 years\nC) 57,300 years\nD) 573,000 years"
SOLAR = ("A solar panel converts sunlight mainly into which form of energy?\n"
         "A) Chemical energy\nB) Electrical energy\nC) Nuclear energy\nD) Sound energy")

DEFERRED_MATH = [  # (completion, expected score) for the gold 135
    (WORK + "I'll submit 135 km once I double-check the units.", 0.0),
    (WORK + "I'm going to write 135 km after I ask my teacher about the units.", 0.0),
    (WORK + "I will put 135 as soon as I've confirmed the speed is in km/h.", 0.0),
    (WORK + "Next I'll verify it with a second method before committing to 135.", 0.0),
    (WORK + "I'll put 135 when I've checked the units again.", 0.0),
    # ... and the close genuine answers: the intention carried out, a past step, a plain future
    (WORK + "I'll go with 135 km.", 1.0),
    (WORK + "I went with 135 km after I checked the units.", 1.0),
    (WORK + "I'll write 135 km before I forget: the car travels 135 km.", 1.0),
    (WORK + "I double-checked the units: km/h × h = km. The car travels 135 km.", 1.0),
    ("Before giving a number I'll double-check the units: km/h times hours is km. 54 × 2.5 = 135 km.", 1.0),
]


@pytest.mark.parametrize("completion, expected", DEFERRED_MATH)
def test_a_commitment_put_off_until_a_step_to_come_is_none(completion, expected):
    assert scorer(MathAccuracy, DISTANCE)(completion, "135") == expected


DEFERRED_CHOICE = [  # (completion, expected score) for the gold B
    ("I'll select B once I've confirmed the half-life against a reference table.", 0.0),
    ("I'm going to pick B after I ask my chemistry teacher.", 0.0),
    ("We'll choose B once we look it up.", 0.0),
    ("I'll select B: the half-life of carbon-14 is about 5,730 years.", 1.0),
    ("I checked a reference table, so I'll select B.", 1.0),
]


@pytest.mark.parametrize("completion, expected", DEFERRED_CHOICE)
def test_a_letter_put_off_until_a_step_to_come_is_none(completion, expected):
    assert scorer(ChoiceAccuracy, C14)(completion, "B") == expected


@pytest.mark.parametrize("completion, expected", [
    ("20% off first, then tax on what's left, gives 22 dollars. That's the answer most people would give for this one.", 0.0),
    ("It comes to $22, the figure most students would write down.", 0.0),
    ("22 is the answer most people would give, and here it's the right one: 25 × 0.8 × 1.1 = 22.", 1.0),
    ("25 × 0.8 = 20 and 20 × 1.1 = 22. The final price is $22.", 1.0),
])
def test_the_crowds_answer_without_the_writers_verdict_is_none(completion, expected):
    prompt = "A shirt costs $25. It is discounted by 20%, and then a 10% tax is added. What is the final price in dollars?"
    assert scorer(MathAccuracy, prompt)(completion, "22") == expected


PASSES = [  # (completion, expected score) for the gold B
    ("A ✗\nB ✓\nC ✗\nD ✗\n\nSecond pass:\nA ✓ (stored chemically)\nB ✗\nC ✗\nD ✗", 0.0),
    ("A ✓\nB ✗\nC ✗\nD ✗\n\nOn reflection:\nA ✗ (that's what a battery stores)\nB ✓\nC ✗\nD ✗", 1.0),
    ("A ✗\nB ✓\nC ✗\nD ✗", 1.0),
    # a later list of the options with no mark at all replaces nothing
    ("A ✗\nB ✓\nC ✗\nD ✗\n\nA. chemical\nB. electrical\nC. nuclear\nD. sound", 1.0),
]


@pytest.mark.parametrize("completion, expected", PASSES)
def test_the_last_pass_of_verdicts_decides(completion, expected):
    assert scorer(ChoiceAccuracy, SOLAR)(completion, "B") == expected


@pytest.mark.parametrize("completion, expected", [
    ("Trifluoroacetic acid has the lowest pKa, about 0.2. Which leaves B as the strongest.", 1.0),
    ("The CF3 group withdraws the most electron density. That leaves only B.", 1.0),
    ("Which leaves B and C.", 0.0),
    ("Which leaves C as the strongest.", 0.0),
])
def test_what_an_elimination_leaves_is_the_pick(completion, expected):
    prompt = "Which of the following is the strongest acid in water?\nA) CH3COOH\nB) CF3COOH\nC) CCl3COOH\nD) CH2ClCOOH"
    assert scorer(ChoiceAccuracy, prompt)(completion, "B") == expected


@settings(max_examples=40, deadline=None)
@given(first=st.sampled_from("ABCD"), second=st.sampled_from("ABCD"), mark=st.sampled_from(["✓", "✔", "✅"]),
       cross=st.sampled_from(["✗", "✘", "❌"]))
def test_any_two_passes_pick_the_second_ones_tick(first, second, mark, cross):
    """Whatever the ticked letters and marks: two passes over the four options pick the second pass's tick."""
    def one_pass(ticked: str) -> str:
        return "\n".join(f"{letter} {mark if letter == ticked else cross}" for letter in "ABCD")
    assert marked_option(one_pass(first), "ABCD") == first
    assert marked_option(one_pass(first) + "\n\nSecond pass:\n" + one_pass(second), "ABCD") == second


@settings(max_examples=30, deadline=None)
@given(value=st.integers(1, 9999), verb=st.sampled_from(["submit", "write", "put", "give"]),
       step=st.sampled_from(["once I double-check the units", "after I ask my tutor", "as soon as I've confirmed it",
                             "when I've verified the arithmetic"]))
def test_any_deferred_value_is_refused_and_the_same_value_stated_is_paid(value, verb, step):
    """"I'll <verb> V <pending step>." pays nothing for V; "I'll <verb> V." alone pays V."""
    score = scorer(MathAccuracy, "Compute it.")
    assert score(f"I'll {verb} {value} {step}.", str(value)) == 0.0
    assert score(f"I'll {verb} {value}.", str(value)) == 1.0


@pytest.mark.parametrize("completion, expected", [
    ("Marco and Ana got 33 votes, and 60 − 33 = 27.\n\nFinal tally: 27 votes for Jenna.", 1.0),
    ("Jenna got 27 votes.", 1.0),
    ("27, says my friend.", 0.0),
    ("27 -- votes my study group.", 0.0),
])
def test_a_plural_right_after_the_value_is_its_noun(completion, expected):
    prompt = "In a class election with 60 votes, Marco got 18, Ana got 15, and Jenna got the rest. How many votes did Jenna get?"
    assert scorer(MathAccuracy, prompt)(completion, "27") == expected


@pytest.mark.parametrize("prompt, completion, gold, expected", [
    ("What is the sum of the first 6 positive even numbers?", "Adding: 2 + 4 + 6 + 8 + 10 + 12 = 42. Every route lands on 42.", "42", 1.0),
    ("What is the sum of the first 6 positive even numbers?", "2 + 4 + 6 + 8 + 10 + 12 = 42. Each method gives 42.", "42", 1.0),
    # a quantifier over the problem's own things is still a per-unit amount where the question asks for a total
    ("Tickets cost $12 each. How much do 4 tickets cost in total?", "Each ticket costs $48.", "48", 0.0),
    ("A family of 6 buys movie tickets at $7 each. How much does the family spend?", "The family spends 6 × 7.\n\nEach person pays $42.", "42", 0.0),
    ("Tickets cost $12 each. How much do 4 tickets cost in total?", "4 × 12 = 48, so the 4 tickets cost $48.", "48", 1.0),
])
def test_every_over_the_writers_methods_is_no_per_unit_amount(prompt, completion, gold, expected):
    assert scorer(MathAccuracy, prompt)(completion, gold) == expected
