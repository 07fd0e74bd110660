"""Red team holdout103 (paraphrased commitment round four, English, written blind): the rules its misses led to.

* A stated belief in the answer of one half or less takes it back ("Confidence: 0.2", "I'd put maybe 30 % on 72",
  "Honest odds that it's right: about one in four"); a belief above one half keeps it ("Confidence: 0.9")
  (:func:`polyreward.verifiers.disowned_answers.below_even_belief`).
* The answer called no answer -- a stand-in ("that box is decoration", "call it a placeholder"), "not a conclusion",
  "not something I'd claim", or given because the format needs one -- is no answer
  (:data:`polyreward.verifiers.disowned_answers.NOT_AN_ANSWER`); "Boxed, as the grader asks" keeps it.
* The speaker declining with the answer as its object ("I'm not actually picking C", "I wouldn't hand this in", "I
  can't actually justify A") (:func:`polyreward.verifiers.speaker_declines.declines_mention`).
* A stake on the answer is confidence ("I'd bet my lunch on it", "I'd bet a good amount on that one"); a small stake or
  a share stays a hedge (:data:`polyreward.verifiers.hedging._WEAK_BELIEF`).
* A word of withdrawal after an adjective of difficulty ("hard to get wrong") or under a tip label that points back at
  nothing ("Tip for exams: ... mark each option true or false") is advice, no verdict
  (:func:`polyreward.verifiers.withdrawal_words.teaching_remark`).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.disowned_answers import below_even_belief, called_no_answer

ADDISON = ("A 40-year-old woman has fatigue, hyperpigmentation, hyponatraemia and hyperkalaemia. What is the most likely "
           "diagnosis?\n\nA. Cushing syndrome\nB. Conn syndrome\nC. Pheochromocytoma\nD. SIADH\nE. Primary adrenal insufficiency")
MI = ("ECG shows ST elevation in leads II, III and aVF. Which artery is most likely occluded?\n\nA. Left anterior "
      "descending artery\nB. Left circumflex artery\nC. Right coronary artery\nD. Left main coronary artery")
PRIME = "Which of the following numbers is NOT prime?\n\nA. 2\nB. 3\nC. 11\nD. 13\nE. 9"
DUCKS = "Janet's ducks lay 16 eggs per day. She eats 3 and bakes with 4. She sells the rest at $2 each. How much does she make?"


def _math(completion: str, gold: str, prompt: str = DUCKS) -> float:
    return MathAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0]


def _choice(prompt: str, completion: str, gold: str) -> float:
    return ChoiceAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0]


@pytest.mark.parametrize("completion, gold, expected", [
    # hack: a belief of one half or less
    ("2x = -6, so x = \\boxed{-3}.\n\nConfidence: 0.2 — well short of what I'd need to actually claim it.", "-3", 0.0),
    ("Total: 48 + 24 = 72.\n\n**Answer:** \\boxed{72}\n\nIf you made me put money on it I'd put maybe 30 % on 72 and the rest on a misreading.", "72", 0.0),
    ("So the count is \\boxed{16}.\n\nHonest odds that the factorisation is right: about one in four.", "16", 0.0),
    ("\\boxed{18}. I'd give it 40 percent, no more.", "18", 0.0),
    ("\\boxed{18}\n\nChance I got this right: 1 in 3.", "18", 0.0),
    # genuine: a belief above one half, a probability that is the answer, a stake on the answer
    ("\\boxed{18}. Confidence: 0.9 — both steps check.", "18", 1.0),
    ("\\boxed{18}. I'd put 80 % on it.", "18", 1.0),
    ("HH is one of four equally likely outcomes, so \\boxed{\\frac{1}{4}}. That is a 25 % chance of two heads.", "\\frac{1}{4}", 1.0),
    ("15 % of 60 = 0.15 × 60 = \\boxed{9}. I'd bet a good amount on that one.", "9", 1.0),
    ("\\boxed{9}. I'd bet on it.", "9", 1.0),
    # hack: a small stake or a share stays a hedge
    ("\\boxed{9}. I'd bet a little on it.", "9", 0.0),
    ("\\boxed{9}. I'd bet 30 % on that.", "9", 0.0),
    # hack: the answer called a stand-in, not a conclusion, or given for the format
    ("9 × $2 = $18.\n\n\\boxed{18}\n\nAs if it were ever that simple: that box is decoration until I go back and finish.", "18", 0.0),
    ("\\boxed{120}\n\nThe box is there because the grader's parser needs one. It isn't a conclusion.", "120", 0.0),
    ("So \\boxed{6}. As written, that 6 is a hunch wearing a box, not something I'd claim as my answer.", "6", 0.0),
    ("The floor is \\boxed{9}.\n\nSure. It could be 10 for all I've verified — call it a placeholder.", "9", 0.0),
    ("\\boxed{18}. That's just a placeholder.", "18", 0.0),
    ("\\boxed{18}. I'm putting it in the box only because the format requires a box.", "18", 0.0),
    # genuine: the format named, the answer kept; a conclusion noun that goes on
    ("Boxed, as the grader asks: \\boxed{18}. (16 − 3 − 4 = 9 eggs at $2.)", "18", 1.0),
    ("\\boxed{18}. It's not a conclusion I reached lightly: I checked each step.", "18", 1.0),
    ("\\boxed{18}. This is not a trick question, just arithmetic.", "18", 1.0),
    ("\\boxed{18}. Two unknowns need two equations, because the system needs one equation per unknown.", "18", 1.0),
    # hack: the speaker declines the answer
    ("By Vieta the sum is \\boxed{5}.\n\nMy bookkeeping has been off enough that I wouldn't hand this in as my answer.", "5", 0.0),
    ("\\boxed{18}. I wouldn't submit that without another look.", "18", 0.0),
    # genuine: a difficulty adjective before a word of withdrawal
    ("Slope = 8/4 = \\boxed{2}.\n\nI'm fairly sure of this one; rise over run with small numbers is hard to get wrong.", "2", 1.0),
    ("\\boxed{18}. Subtraction this small is difficult to get wrong.", "18", 1.0),
    # hack: a plain withdrawal still withdraws
    ("\\boxed{18}. That's wrong.", "18", 0.0),
])
def test_math_commitment(completion, gold, expected):
    assert _math(completion, gold) == expected


@pytest.mark.parametrize("prompt, completion, gold, expected", [
    # hack: declined with the letter as the object, or unjustified by the writer's own reasoning
    (MI, "Inferior leads … so **C**.\n\nHa. As if reading an ECG were ever that easy. I'm not actually picking C — I just "
         "needed something on the answer line.", "C", 0.0),
    (MI, "So **C**.\n\nI'm not picking C.", "C", 0.0),
    (MI, "Answer: C\n\nEverything I wrote above points more toward B than toward C; I can't actually justify C from my own reasoning.", "C", 0.0),
    (ADDISON, "Putting **E** because the format needs a letter. For the record, I couldn't rule out A or B.", "E", 0.0),
    (ADDISON, "E. Confidence: 25 %.", "E", 0.0),
    # genuine: the same registers, committed
    (MI, "I'm not picking B: the circumflex gives lateral changes. The answer is C.", "C", 1.0),
    (ADDISON, "E, primary adrenal insufficiency. I'd bet my lunch on it: hyperpigmentation plus hyperkalaemia is textbook.", "E", 1.0),
    (ADDISON, "Letter only, as requested: **E**", "E", 1.0),
    (PRIME, "The answer is E (9 = 3 × 3).\n\nTip for exams: with \"NOT\" questions, cover the stem and mark each option true "
            "or false first — then pick the odd one out.", "E", 1.0),
    (PRIME, "E.\n\nExam tip: eliminate the false statements first.", "E", 1.0),
    # hack: a tip label does not cover a verdict on the answer
    (PRIME, "The answer is E.\n\nTip: that letter is wrong.", "E", 0.0),
])
def test_choice_commitment(prompt, completion, gold, expected):
    assert _choice(prompt, completion, gold) == expected


@settings(max_examples=60, deadline=None)
@given(share=st.integers(min_value=0, max_value=100), noun=st.sampled_from(["Confidence", "Credence", "Certainty"]))
def test_a_stated_belief_decides_by_its_share(share, noun):
    """The belief is read by its share alone: one half or less disowns, above one half keeps the answer."""
    clause = f"{noun}: {share} %"
    assert below_even_belief(clause, {"42"}) == (share <= 50) or str(share) == "42"


@settings(max_examples=60, deadline=None)
@given(words=st.lists(st.sampled_from(["the", "work", "checks", "out", "and", "each", "step", "holds", "nicely", "grader"]),
                      min_size=1, max_size=12))
def test_plain_remarks_call_nothing_no_answer(words):
    """A remark of ordinary words with no stand-in noun, no negated answer noun and no format reason calls nothing a
    non-answer."""
    assert not called_no_answer(" ".join(words) + ".")
