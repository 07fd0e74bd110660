"""A math question answered yes or no (true or false) in words, where the gold is itself such a label (issue #32,
``verifiers/math_labels.py``): "No. 221 = 13 × 17, so it is not prime." is "no", read as ``choice_accuracy`` reads a
PubMedQA label; a value the math reading states itself (a box, an answer phrase) still decides.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.math_labels import label_gold

MATH = MathAccuracy()
PRIME = "Is 221 a prime number? Answer yes or no."


def math(completion: str, gold: str, prompt: str = PRIME) -> float:
    return MATH.evaluate([prompt], [completion], answer=[gold]).scores[0]


@pytest.mark.parametrize("completion, gold", [
    ("No. 221 = 13 × 17, so it has factors other than 1 and itself and is not prime.", "\\text{no}"),
    ("No, 221 = 13 × 17.", "no"),
    ("**No.** It factors as 13 × 17.", "No"),
    ("Yes — 97 has no divisor between 2 and 9.", "\\text{yes}"),
    ("True. Both sides equal 12.", "\\text{True}"),
    ("False: 2 + 2 = 4, not 5.", "false"),
    ("It is not prime, so the answer is no.", "\\text{no}"),
])
def test_a_label_answer_in_words_is_paid(completion, gold):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold", [
    ("Yes. 221 = 13 × 17.", "\\text{no}"),            # the other label
    ("No. The answer is 42.", "no"),                   # a value stated by an answer phrase decides
    ("No. \\boxed{yes}", "no"),                         # the box decides
    ("Yes or no, hard to say.", "no"),                 # a hedge between the labels
    ("No... actually, yes.", "no"),                    # corrected to the other label
    ("Maybe no.", "no"),
    ("My friend says no.", "no"),                      # a second-hand answer
    ("No? I'm not sure.", "no"),
    ("No, 42.", "43"),                                 # a number gold is read as a number
])
def test_the_other_label_a_hedge_or_a_stated_value_is_not_paid(completion, gold):
    assert math(completion, gold) == 0.0


def test_only_a_label_gold_is_read_as_a_label():
    assert [label_gold(g) for g in ("no", "\\text{No}", "$\\textbf{true}$", "False.", "42", "\\text{none}", "yes or no")] == [
        "no", "no", "true", "false", None, None, None]


_TAILS = st.sampled_from(["", " 221 = 13 × 17.", " It factors as 13 × 17, so it is not prime.", " Checked with 7, 11 and 13."])
_DOUBTS = st.sampled_from([" Or yes.", " Or is it?", " Not sure.", " Just a guess.", " Or maybe not.", " Then again, maybe not."])


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([("yes", "no"), ("no", "yes"), ("true", "false"), ("false", "true")]),
       st.sampled_from(["{L}.", "{L},", "**{L}.**", "{L} —"]), _TAILS, _DOUBTS)
def test_a_label_pays_its_own_gold_only_and_doubt_never_raises_it(labels, opening, tail, doubt):
    own, other = labels
    plain = opening.format(L=own.capitalize()) + tail
    assert math(plain, own) == 1.0 and math(plain, other) == 0.0
    for gold in (own, other):
        assert math(plain + doubt, gold) <= math(plain, gold)
