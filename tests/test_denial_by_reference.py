"""A clause after the answer that denies it by pointing back at it ("This answer is not correct.", "None of this is
right.", "These findings are not present.", "The opposite is true.") takes the answer away, in every reward that reads
a committed answer; a clause that points back with some other predicate ("It is not hard to check", "This is not a
trick question", "It is not the case that a smaller value works") does not. Table of realistic model output, both
directions (verifiers/clauses.py ``denies_by_reference``, read by commitment.later_disowns)."""

from __future__ import annotations

import pytest

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.jaccard import JaccardReward
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.clauses import denies_by_reference

DENIALS = [
    "None of this is correct.",
    "This answer is not correct.",
    "That's not it.",
    "It isn't right, though.",
    "These are not right.",
    "My answer is not actually the right one.",
    "The opposite is true.",
    "Psych!",
    "Sike.",
    "Honestly, that result doesn't seem right.",
    "But this is not the answer.",
    "They are absent.",
    "None of it is true.",
]
KEPT = [
    "That is the answer.",
    "This matches the check.",
    "It is not hard to check this.",
    "It is not the case that a smaller value works.",
    "This is not a trick question.",
    "None of the other options work.",
    "That is not the only way to see it.",
    "This is not surprising.",
    "It is not necessary to verify each case.",
    "This is correct because 6 times 7 is 42.",
    "That is not obvious at first.",
]


@pytest.mark.parametrize("tail", DENIALS)
def test_a_denial_by_reference_is_read(tail):
    assert denies_by_reference(" " + tail)


@pytest.mark.parametrize("tail", KEPT)
def test_a_reference_with_another_predicate_is_no_denial(tail):
    assert not denies_by_reference(" " + tail)


@pytest.fixture(scope="module")
def math_reward():
    return MathAccuracy(timeout=10)


@pytest.mark.parametrize("tail, expected", [(t, 0.0) for t in DENIALS] + [(t, 1.0) for t in KEPT])
def test_math_answer_followed_by(math_reward, tail, expected):
    assert math_reward(prompts=["What is 6 times 7?"], completions=[f"6 times 7 is 42. So \\boxed{{42}}. {tail}"],
                       answer=["42"]) == [expected]


@pytest.mark.parametrize("tail, expected", [("None of these are actually present.", 0.0), ("These findings are not present.", 0.0),
                                            ("They are absent.", 0.0), ("Those are the findings.", 1.0),
                                            ("No other findings.", 1.0), ("None of the other listed conditions are present.", 1.0)])
def test_label_list_followed_by(tail, expected):
    out = JaccardReward(mode="normalized").evaluate([None], [f"<answer>pleural effusion; atelectasis</answer> {tail}"],
                                                    answer=[["pleural effusion", "atelectasis"]])
    assert out.scores[0] == expected


OPTIONS = {"A": "Aspirin", "B": "Insulin", "C": "Warfarin", "D": "Digoxin", "E": "None of these is correct"}


@pytest.mark.parametrize("completion, expected", [
    ("The answer is C. This answer is not correct.", 0.0),
    ("The answer is C. None of this is right.", 0.0),
    ("The answer is C. It is not a trick question.", 1.0),
    ("The answer is C. Warfarin blocks vitamin K recycling.", 1.0),
])
def test_choice_followed_by(completion, expected):
    out = ChoiceAccuracy(options_column="options").evaluate(["Which drug prevents clots?"], [completion], answer=["C"],
                                                           options=[OPTIONS])
    assert out.scores[0] == expected


def test_an_option_whose_text_reads_as_a_denial_is_still_that_option():
    out = ChoiceAccuracy(options_column="options").evaluate(["Which drug?"], ["The answer is E. None of these is correct."],
                                                           answer=["E"], options=[OPTIONS])
    assert out.scores[0] == 1.0


# "per" names a source only before a determiner or a name; before a unit it is a rate (the speed answer was refused)
@pytest.mark.parametrize("completion, expected", [
    ("The speed is \\boxed{5} meters per second.", 1.0),
    ("It costs \\boxed{5} dollars per person.", 1.0),
    ("Per the answer key, \\boxed{5}.", 0.0),
    ("\\boxed{5}, per Wikipedia.", 0.0),
    ("\\boxed{5}, per my teacher.", 0.0),
])
def test_per_as_a_rate_or_a_source(math_reward, completion, expected):
    assert math_reward(prompts=["How fast?"], completions=[completion], answer=["5"]) == [expected]
