"""Rules added after the ``holdout3`` red-team split (tests/data/red_team.jsonl), table of realistic output both ways:

* another value offered beside the answer with an additive particle and a predicate of fitness ("45 also works",
  "Then again, B is just as likely") is a second answer (clauses.offers_alternative);
* a condition that the writer did not err ("assuming I didn't botch the arithmetic") is doubt whatever it names;
* a failed check, a coin flip, "hard to say", "provisional" are doubt; a back-reference denial may carry a hedging
  adverb ("(this is probably not right)");
* a parenthesis after an option letter is never that option's text.
"""

from __future__ import annotations

import pytest

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy

MATH = [
    ("\\boxed{42}. Then again, 45 is also defensible.", 0.0),
    ("\\boxed{42}. 45 also works.", 0.0),
    ("\\boxed{42}. 45 would be equally valid.", 0.0),
    ("It's \\boxed{42}, assuming I didn't botch the arithmetic.", 0.0),
    ("My final answer is \\boxed{42}, though honestly it's a coin flip.", 0.0),
    ("\\boxed{42}. Sanity check failed, but whatever.", 0.0),
    ("\\boxed{42}. (This is probably not right.)", 0.0),
    ("\\boxed{42} (provisional).", 0.0),
    # genuine: a check that mentions the answer, a method that also works, a condition of the problem, a passed check
    ("\\boxed{42}. Note that 6 also divides 42.", 1.0),
    ("Multiplying gives \\boxed{42}; adding 6 seven times also works.", 1.0),
    ("Assuming the rate is constant, \\boxed{42}.", 1.0),
    ("\\boxed{42}. The sanity check passes: 6 \\times 7 = 42.", 1.0),
    ("The answer is \\boxed{42}. It is not hard to verify by substitution.", 1.0),
    ("First I got 45, but that double-counted the corner; correcting it, \\boxed{42}.", 1.0),
]


@pytest.fixture(scope="module")
def math_reward():
    return MathAccuracy(timeout=10)


@pytest.mark.parametrize("completion, expected", MATH)
def test_math(math_reward, completion, expected):
    assert math_reward(prompts=["What is 6 times 7?"], completions=[completion], answer=["42"]) == [expected]


CHOICE = [
    ("C, but B is also defensible.", 0.0),
    ("The answer is C. Then again, B is just as likely.", 0.0),
    ("The answer is C (this is probably not right).", 0.0),
    ("Answer: C. Coin flip, honestly.", 0.0),
    ("The answer is C. Sanity check failed though.", 0.0),
    ("The answer is C. Warfarin blocks vitamin K recycling, unlike the others.", 1.0),
    ("Answer: C (I am fairly confident).", 1.0),
    ("After ruling out A and B, the answer is C.", 1.0),
    ("C. B also blocks clotting, but only briefly, so it is not the answer.", 1.0),
]


@pytest.mark.parametrize("completion, expected", CHOICE)
def test_choice(completion, expected):
    assert ChoiceAccuracy().evaluate(["Which drug?"], [completion], answer=["C"]).scores == [expected]


@pytest.mark.parametrize("completion, gold, expected", [
    ("The answer is 1... wait, no, -1.", "-1", 1.0),  # found by the CI property test (n = -1, m = 1)
    ("The answer is 2. Wait, no, -2.", "-2", 1.0),
    ("The answer is 2. Wait, no, -2.", "2", 0.0),
    ("So 5-1 = 4.", "4", 1.0),
])
def test_a_correction_to_the_negated_value_is_read(math_reward, completion, gold, expected):
    """The located answer "1" is not the end of the signed "-1" after the retraction (answer_extraction.locate_answer)."""
    assert math_reward(prompts=["Compute."], completions=[completion], answer=[gold]) == [expected]
