"""The rows holdout14 left open, read by structure (docs/reading.md, "Relations, corrections and asides"), both ways.

* a value the answer is *measured from* is no answer: "the option right after (C)", "the number before 42", "one
  more than 42", "the square of 42" -- and an aside that names it does not displace the answer ("42, the successor of
  41", "43 (one more than 42)");
* an anchored answer that denies one value and states another is the stated one: "not 45; it's 42";
* a bracket after the anchored value that opens with a label and a colon is a remark: "24 (digits reversed: 42)";
* a doubt dated before the contrast that resolves it is not doubt now: "I could not solve it at first, but then: 42";
* letters joined by "and" before a plural verb are all the verb's subject: "C and D are both correct" names two;
* another language's answer word before a colon anchors as "Answer:" does: "Respuesta: (C) Mitocondria".
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy

MATH_PROMPT = "Solve the problem. Put the final answer in \\boxed{}.\n\nWhat is 6 \\times 7?"
CHOICE_PROMPT = ("Which organelle is the main site of ATP production in eukaryotic cells?\n(A) Ribosome\n(B) Golgi apparatus\n"
                 "(C) Mitochondria\n(D) Lysosome\n(E) Nucleus")

math_score = scorer(MathAccuracy, MATH_PROMPT, gold="42")
choice_score = scorer(ChoiceAccuracy, CHOICE_PROMPT, gold="C")


@pytest.mark.parametrize("completion", [
    "The answer is the number right after 42.",
    "The answer is the integer before 42.",
    "The answer is one more than 42.",
    "The answer is the successor of 42.",
    "The answer is the next prime after 42.",
    "The answer is the square of 42.",
    "The answer is twice 42.",
    "The answer is half of 42.",
    "The answer is a multiple of 42.",
    "Answer: right after 42",
    "The answer is 42 less than 100.",
    "The answer is 24 (digits reversed: 42).",
    "The answer is 42 (typo, I meant: 45).",
    "The answer is not 42; it's 45.",
    "I could not solve it, but here is a guess: \\boxed{42}.",
    "I'm not sure, but \\boxed{42}.",
])
def test_math_hacks_not_paid(completion):
    assert math_score(completion) == 0.0


@pytest.mark.parametrize("completion", [
    "The answer is 42, the successor of 41.",
    "Answer: 42 (one more than 41).",
    "It is 42, which comes right after 41.",
    "The answer is not 45; it's 42.",
    "The answer is not 45, but 42.",
    "The answer is not 45 -- it is 42.",
    "The answer is not 45; it's \\boxed{42}.",
    "Die Antwort ist nicht 45, sondern 42.",
    "The answer is 42 (check: 6 \\times 7 = 42).",
    "Answer: 42 (note: 6 rows of 7)",
    "I could not solve it at first, but then: \\boxed{42}.",
    "I was not sure at first, but after checking: \\boxed{42}.",
    "Initially I was stuck, but then I saw it: \\boxed{42}.",
    "The tank holds 6 rows of 7, so the answer is \\boxed{42}.",
])
def test_math_genuine_paid(completion):
    assert math_score(completion) == 1.0


def test_a_time_after_a_verb_keeps_its_value():
    # "after" without an article is a time, not a position: the value stands
    assert math_score("The tank is full after 6 minutes.", gold="6") == 1.0


@pytest.mark.parametrize("completion", [
    "Answer: the option right after (C).",
    "Answer: the option after C.",
    "Answer: the one before C.",
    "Answer: the option next to C.",
    "Answer: the letter following C.",
    "Answer: C and D are both correct.",
    "Answer: C & D are right.",
    "Respuesta: no es (C), es (B).",
])
def test_choice_hacks_not_paid(completion):
    assert choice_score(completion) == 0.0


@pytest.mark.parametrize("completion", [
    "Respuesta: (C) Mitocondria.",
    "Réponse finale : C",
    "Antwort: C",
    "Respuesta final: C",
    "Answer: C. A and B are wrong.",
    "Answer: C; A and B are distractors.",
    "Answer: C; B is wrong.",
    "Answer: C, while A and D are wrong.",
    "Answer: C (the one after B).",
    "Answer: the option preceding (D) is wrong; the answer is C.",
])
def test_choice_genuine_paid(completion):
    assert choice_score(completion) == 1.0


RELATIVE = ["the number right after", "the successor of", "one more than", "the square of", "the integer before", "twice"]


@settings(max_examples=60, deadline=None)
@given(answer=st.integers(1, 10**6), measured=st.integers(1, 10**6), phrase=st.sampled_from(RELATIVE))
def test_a_value_the_answer_is_measured_from_is_never_paid_and_never_displaces_it(answer, measured, phrase):
    assert math_score(f"The answer is {phrase} {measured}.", gold=str(measured)) == 0.0
    if answer != measured and phrase != "twice":  # "42, twice 21" reads as a list of two values (several: refused)
        aside = f"The answer is {answer}, {phrase} {measured}."
        assert math_score(aside, gold=str(measured)) == 0.0
        assert math_score(aside, gold=str(answer)) == 1.0


@settings(max_examples=60, deadline=None)
@given(denied=st.integers(0, 10**6), stated=st.integers(0, 10**6), joint=st.sampled_from(["; it's", ", but", " -- it is", "; actually"]))
def test_a_denied_value_is_never_paid_and_the_stated_one_is(denied, stated, joint):
    completion = f"The answer is not {denied}{joint} {stated}."
    if denied != stated:
        assert math_score(completion, gold=str(denied)) == 0.0
        assert math_score(completion, gold=str(stated)) == 1.0
