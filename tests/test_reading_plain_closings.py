"""Plain correct answers that stop 55 left refused (issue #32: a guard that refuses a plain answer is a bug):

* a sign-off right after the letter ("The answer is B. Done.") is no title of an option (:mod:`.option_checks`:
  a one-to-three-word title naming no option still voids the letter, "B. Hypothalamus." where B is Pancreas);
* "I can't give any other answer" refuses the other answers, not this one (:mod:`.withdrawal_words`);
* an interval ending the last line of prose ("x is in [2, 5).") is read whole, open or closed at either end, not cut
  down to its last bound (:mod:`.math_lines`).

Tables both ways, and a Hypothesis property over interval bounds and bracket kinds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy

CHOICE_PROMPT = "Which organ secretes insulin?\nA) Liver\nB) Pancreas\nC) Spleen\nD) Kidney"
INTERVAL_PROMPT = "Solve 2 <= x < 5 and write the solution set in interval notation."
CHOICE, MATH = ChoiceAccuracy(), MathAccuracy()


def _choice(completion: str) -> float:
    return CHOICE.evaluate([CHOICE_PROMPT], [completion], answer=["B"]).scores[0]


def _math(completion: str, gold: str, prompt: str = INTERVAL_PROMPT) -> float:
    return MATH.evaluate([prompt], [completion], answer=[gold]).scores[0]


@pytest.mark.parametrize("completion", [
    "The answer is B. Done.",
    "Insulin comes from the beta cells of the islets of Langerhans.\n\nThe answer is B. Finished.",
    "B. Final answer.",
    "**Answer: B.** Confirmed.",
    "The answer is B. Done with it.",
    "B. Thanks for the question!",
    "The answer is B. I can't give any other answer.",
    "B. I cannot give any other answer; the liver, spleen and kidney do not secrete insulin.",
])
def test_plain_closing_after_a_letter_is_paid(completion: str) -> None:
    assert _choice(completion) == 1.0


@pytest.mark.parametrize("completion", [
    "The answer is B. Hypothalamus.",            # a title naming no option: the letter labels something else
    "The answer is B. Spleen.",                  # a title naming another option
    "The answer is B. I can't give a final answer.",
    "The answer is B. I can't give you the answer.",
    "The answer is B. Done? Not really, C is possible too.",
])
def test_nearby_hacks_stay_refused(completion: str) -> None:
    assert _choice(completion) == 0.0


@pytest.mark.parametrize("completion, gold", [
    ("x is in [2, 5).", "[2, 5)"),
    ("So it's [2, 5).", "[2, 5)"),
    ("Therefore x lies in [2,5).", "[2, 5)"),
    ("The solution set is [2, 5).", "[2, 5)"),
    ("Both conditions hold together, so x belongs to (-3, 7].", "(-3, 7]"),
    ("The solution set is [0, 1].", "[0, 1]"),
    ("Combining the two cases, x lies in [2, \\infty).", "[2, \\infty)"),
])
def test_interval_ending_prose_is_read_whole(completion: str, gold: str) -> None:
    assert _math(completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold", [
    ("x is in [2, 5) or [6, 7).", "[2, 5)"),      # two intervals offered
    ("The solution set is [2, 5].", "[2, 5)"),     # the wrong end closed
    ("x is in (2, 5).", "[2, 5)"),                 # the wrong end open
    ("The solution set is [2, 5) \\cup (6, 7].", "[2, 5)"),
])
def test_wrong_or_offered_intervals_stay_refused(completion: str, gold: str) -> None:
    assert _math(completion, gold) == 0.0


_BOUND = st.integers(min_value=-50, max_value=50)


@settings(max_examples=60, deadline=None)
@given(low=_BOUND, width=st.integers(min_value=1, max_value=40), opening=st.sampled_from("[("), closing=st.sampled_from("])"),
       lead=st.sampled_from(["x is in", "So it's", "The solution set is", "Hence x lies in"]))
def test_interval_read_whole_and_its_ends_matter(low: int, width: int, opening: str, closing: str, lead: str) -> None:
    """An interval ending the last line pays exactly its own gold: flipping either end's bracket is another set."""
    interval = f"{opening}{low}, {low + width}{closing}"
    completion = f"{lead} {interval}."
    assert _math(completion, interval, "Write the solution set in interval notation.") == 1.0
    flipped = f"{opening}{low}, {low + width}{')' if closing == ']' else ']'}"
    assert _math(completion, flipped, "Write the solution set in interval notation.") == 0.0
