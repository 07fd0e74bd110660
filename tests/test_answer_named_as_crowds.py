"""The answer named as the crowd's or the tempting one is not the writer's (hedging.named_as_crowds, _GROUP_REPORT).

Stop 66 left "Many students answer D here." paying D: an option reader's match opened at "answer D", so the clause
before it ("Many students") held no verb and the group report went unread. "A common answer is D." paid for the same
reason: its subject names the crowd's answer, not the writer's. Both now commit to nothing, unless the rest of the
sentence calls the answer right ("..., and it is correct.", "..., and they are right.").
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy

NOBLE = ("Which of the following elements is a noble gas?\nA. Oxygen\nB. Nitrogen\nC. Hydrogen\nD. Neon\n\n"
         "Answer with the letter of the correct option.")
MUFFINS = "A baker puts 7 muffins in each box. She fills 6 boxes. How many muffins does she pack?"

CHOICE = [
    ("Many students answer D here.", 0.0),
    ("Many students answer D.", 0.0),
    ("Most test-takers choose D on this one.", 0.0),
    ("A common answer is D.", 0.0),
    ("The most popular choice is D.", 0.0),
    ("The tempting answer is D.", 0.0),
    ("A common answer is D, but it is not correct.", 0.0),
    ("Many students answer D here, and they are right.", 1.0),
    ("The most common answer is D, and it is correct.", 1.0),
    ("A common wrong answer is B; the answer is D.", 1.0),
    ("Students usually choose D here, and they are right: the answer is D.", 1.0),
    ("Neon is a noble gas. The answer is D.", 1.0),
    ("Many students answer B here, but B is nitrogen. The answer is D.", 1.0),
]

MATH = [
    ("Many students answer 42 here.", 0.0),
    ("A common answer is 42.", 0.0),
    ("The most popular response is 42.", 0.0),
    ("The tempting answer is 42, which is wrong.", 0.0),
    ("The most common answer is 42, and it is correct.", 1.0),
    ("The most popular response is 42 -- and it is right.", 1.0),
    ("The tempting answer is 13, but 7 × 6 = 42, so the answer is 42.", 1.0),
    ("7 × 6 = 42. So the answer is 42.", 1.0),
]


@pytest.mark.parametrize(("completion", "expected"), CHOICE)
def test_choice(completion, expected):
    assert scorer(ChoiceAccuracy, NOBLE)(completion, "D") == expected


@pytest.mark.parametrize(("completion", "expected"), MATH)
def test_math(completion, expected):
    assert scorer(MathAccuracy, MUFFINS)(completion, "42") == expected


@settings(max_examples=60, deadline=None)
@given(crowd=st.sampled_from(["Many students", "Most people", "Some examinees", "Many of them"]),
       verb=st.sampled_from(["answer", "pick", "choose", "put"]),
       letter=st.sampled_from("ABCD"), tail=st.sampled_from(["", " here", " on this item"]))
def test_a_crowd_report_commits_to_no_letter(crowd, verb, letter, tail):
    """Whatever the crowd, verb and letter, the report pays nothing; the writer's own answer after it pays."""
    text = f"{crowd} {verb} {letter}{tail}."
    assert scorer(ChoiceAccuracy, NOBLE)(text, letter) == 0.0
    assert scorer(ChoiceAccuracy, NOBLE)(f"{text} Neon is the noble gas, so the answer is D.", "D") == 1.0
