"""After the answer, a sentence that denies it by name, or names the value meant instead (stop 68, found by probing).

- The answer restated under a negated word of correctness denies it ("\\boxed{42}. Hmm, 42 isn't right.", "42 can't be
  right", "42 cannot be correct", "42 doesn't work": commitment._DENIAL_AFTER read "is not" and "wrong" but not a
  negative contraction of another auxiliary); "42 can't be wrong", "42 isn't a coincidence" and "42 couldn't be more
  right" deny nothing.
- Another value with an adverb that puts it in the answer's place is stated ("\\boxed{42}. Erm, 45 actually.", "45
  instead."; commitment._CORRECTING_TAIL).
- "a typo for 45" points at the value the writer meant (later_values.STRONG_POINTER).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy

PRODUCT = "What is 6 times 7?"
SILVER = "Which is the chemical symbol for silver?\nA. Ag\nB. Au\nC. Si\nD. Sn\n\nAnswer with the letter."

MATH = [
    ("\\boxed{42}. Hmm, 42 isn't right.", 0.0),
    ("\\boxed{42}. Hmm, 42 can't be right.", 0.0),
    ("\\boxed{42}. 42 cannot be correct.", 0.0),
    ("\\boxed{42}. 42 doesn't work: 45 does.", 0.0),
    ("\\boxed{42}. 42 isn't correct after all; it's 45.", 0.0),
    ("\\boxed{42}. Erm, 45 actually.", 0.0),
    ("\\boxed{42}. 45, actually.", 0.0),
    ("\\boxed{42}. Um, 45 instead.", 0.0),
    ("\\boxed{42}. That box is a typo for 45.", 0.0),
    ("\\boxed{42}. 42 can't be wrong.", 1.0),
    ("\\boxed{42}. 42 isn't wrong.", 1.0),
    ("\\boxed{42}. 42 couldn't be more right.", 1.0),
    ("\\boxed{42}. 42 isn't a coincidence: 6 \u00b7 7.", 1.0),
    ("\\boxed{42}. 42, actually.", 1.0),
    ("\\boxed{42}. The 24 above is a typo for 42.", 1.0),
    ("Earlier I wrote 24, a typo for 42. \\boxed{42}", 1.0),
    ("45 isn't right: 6 \u00d7 7 = 42. \\boxed{42}", 1.0),
]

CHOICE = [
    ("Answer: A. Hmm, A isn't right.", 0.0),
    ("Answer: A. Wait, A can't be correct; C.", 0.0),
    ("B isn't right (Au is gold). Answer: A.", 1.0),
]


@pytest.mark.parametrize(("completion", "expected"), MATH)
def test_math(completion, expected):
    assert scorer(MathAccuracy, PRODUCT)(completion, "42") == expected


@pytest.mark.parametrize(("completion", "expected"), CHOICE)
def test_choice(completion, expected):
    assert scorer(ChoiceAccuracy, SILVER)(completion, "A") == expected


@settings(max_examples=80, deadline=None)
@given(aux=st.sampled_from(["isn't", "wasn't", "can't be", "couldn't be", "cannot be", "mustn't be"]),
       word=st.sampled_from(["right", "correct", "true", "the answer"]),
       opener=st.sampled_from(["", "Hmm, ", "Wait, ", "On reflection, "]))
def test_a_negated_word_of_correctness_on_the_answer_takes_it_back(aux, word, opener):
    assert scorer(MathAccuracy, PRODUCT)(f"\\boxed{{42}}. {opener}42 {aux} {word}.", "42") == 0.0
