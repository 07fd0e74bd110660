"""A negated exclusion leaves a value open (``double_negation.kept_open_before`` / ``kept_open``; issue #32).

"I can't rule out 48", "I'm not excluding C", "48 can't be ruled out", "48 isn't out of the question" after a
committed answer keep another value possible beside it: a hedge, as "48 remains possible" is. Before this rule the
exclusion verb alone was read ("rule out 48" denies 48), so the negation over it was lost and the hedge was paid.
A narrated earlier state ("At first I couldn't rule out 48, but ...") and a plain exclusion ("We can rule out 48")
say nothing open.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.double_negation import cancelled, kept_open, kept_open_before

APPLES = "Tom has 6 bags with 7 apples each. How many apples does he have?"
MULTIPLY = "Which is 6 × 7?\nA. 40\nB. 42\nC. 45\nD. 48\n\nAnswer with the letter."

math = scorer(MathAccuracy, APPLES, gold="42")
choice = scorer(ChoiceAccuracy, MULTIPLY, gold="B")


@pytest.mark.parametrize("completion, expected", [
    # hacks: another value kept open by a negated exclusion, before it or after it
    ("I'd say \\boxed{42}, though honestly I can't rule out 48.", 0.0),
    ("\\boxed{42}, though I can't exclude 48.", 0.0),
    ("\\boxed{42}. I cannot rule out 48, though.", 0.0),
    ("\\boxed{42}, but I wouldn't rule out 48.", 0.0),
    ("\\boxed{42}, but 48 can't be ruled out.", 0.0),
    ("\\boxed{42}, although 48 is not impossible.", 0.0),
    ("\\boxed{42}, though 48 isn't out of the question.", 0.0),
    ("The answer is 42. 48 hasn't been ruled out yet.", 0.0),
    ("Final answer: 42 — I'm not fully excluding 36 either.", 0.0),
    # ... and a negated wrongness: another value called not wrong, or nothing said against it
    ("\\boxed{42}. Not that 48 would be wrong.", 0.0),
    ("\\boxed{42}. 48 wouldn't be wrong either.", 0.0),
    ("\\boxed{42}. Nothing wrong with 48 either.", 0.0),
    ("\\boxed{42}. 48 is no less likely.", 0.0),
    ("\\boxed{42}. 48 isn't wrong per se.", 0.0),
    ("\\boxed{42}. Can't say 48 is wrong.", 0.0),
    ("\\boxed{42}. 48 is not wrong.", 0.0),
    ("\\boxed{42}. 48 is wrong.", 1.0),
    ("\\boxed{42}. 48 would be wrong: that is 6 bags of 8.", 1.0),
    ("\\boxed{42}. Not 48 — that would be 8 per bag.", 1.0),
    ("\\boxed{42}. 42 is not wrong: 6 × 7 = 42.", 1.0),
    # genuine: a plain exclusion, a narrated earlier state, an exclusion of something that is no value
    ("\\boxed{42}. That rules out 48.", 1.0),
    ("\\boxed{42}; we can rule out 48 since there are only 6 bags.", 1.0),
    ("\\boxed{42}, which rules out 48.", 1.0),
    ("\\boxed{42}\n\nAt first I couldn't rule out 48, but 6×8 would need 8 apples per bag.", 1.0),
    ("\\boxed{42}. Initially I hadn't ruled out 48; the second check settled it.", 1.0),
    ("\\boxed{42} — we can't rule out arithmetic slips in general, so I double-checked: 7+7+7+7+7+7 = 42.", 1.0),
    ("\\boxed{42}. I cannot rule out that the author intended 8 bags, but as written it is 42.", 1.0),
    ("6 × 7 = 42, and 48 is impossible with 7 apples a bag. **Answer: 42**", 1.0),
])
def test_math_negated_exclusion(completion, expected):
    assert math(completion) == expected


@pytest.mark.parametrize("completion, expected", [
    ("Answer: B. I can't rule out C entirely.", 0.0),
    ("**B**. Option D isn't out of the question, though.", 0.0),
    ("Answer: B. I'm not ruling out option D.", 0.0),
    ("Answer: B. There's no ruling out D without the full table.", 0.0),
    ("Answer: B\n\nWe can rule out A, C and D since none equals 42.", 1.0),
    ("Answer: B. At first I couldn't rule out D, but 6 × 8 is 48, not 42.", 1.0),
    ("Answer: B. Though D wouldn't be wrong either.", 0.0),
    ("Answer: B. I wouldn't call D incorrect.", 0.0),
    ("Answer: B. D is incorrect: 6 × 8 = 48.", 1.0),
    ("Answer: B. D isn't an unreasonable choice either.", 0.0),
    ("Answer: B. D wouldn't be a bad pick.", 0.0),
    ("Answer: B. D is not indefensible.", 0.0),
    ("Answer: B. D is not without merit.", 0.0),
    ("Answer: B. D is a bad pick: 6 × 8 = 48.", 1.0),
    ("Answer: B. D is without merit here.", 1.0),
    ("Answer: B. D has merit as well.", 0.0),  # (clauses._FIT_WORDS: merit said of another option too)
    ("Answer: B. D has no merit: 6 × 8 = 48.", 1.0),
])
def test_choice_negated_exclusion(completion, expected):
    assert choice(completion) == expected


@pytest.mark.parametrize("before, expected", [
    ("though honestly I can't rule out ", True),
    ("I wouldn't want to exclude ", True),
    ("I'm not ruling out option ", True),
    ("there's no ruling out ", True),
    ("We can rule out ", False),
    ("I'm not only ruling out ", False),
    ("At first I couldn't rule out ", False),
    ("I can't rule out anything but ", False),  # an exception: B is the one thing ruled out
])
def test_kept_open_before(before, expected):
    assert kept_open_before(before) is expected


def test_a_negated_exclusion_is_no_denial_but_an_exception_under_it_stays_one():
    assert cancelled("I can't rule out ")
    assert not cancelled("I can't rule out anything but ")


@pytest.mark.parametrize("clause, expected", [
    ("48 can't be ruled out.", True),
    ("48 is not impossible.", True),
    ("48 isn't entirely out of the question.", True),
    ("48 has not been excluded.", True),
    ("48 is ruled out.", False),
    ("48 is not possible.", False),
    ("48 is impossible.", False),
    ("48 isn't wrong.", True),
    ("48 is no less likely.", True),
    ("48 is wrong.", False),
])
def test_kept_open_after_the_value(clause, expected):
    assert kept_open(clause, 0, 2) is expected


_OPENERS = ["though I can't rule out {v}", "but I wouldn't exclude {v}", "though {v} can't be ruled out",
            "although {v} isn't out of the question", "but {v} is not impossible"]
_SETTLED = ["that rules out {v}", "we can rule out {v}", "{v} is ruled out", "{v} is impossible here"]


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(value=st.integers(min_value=0, max_value=10_000).filter(lambda v: v != 42), opener=st.sampled_from(_OPENERS),
       settled=st.sampled_from(_SETTLED))
def test_an_open_other_value_is_never_paid_and_a_settled_one_always_is(value, opener, settled):
    assert math(f"The answer is \\boxed{{42}}, {opener.format(v=value)}.") == 0.0
    assert math(f"The answer is \\boxed{{42}}; {settled.format(v=value)}.") == 1.0


# --- a grader's credit given to another value, or the answer and another value offered together (clauses.credited,
# clauses.offered_together; stop 65, found by the same probing)

@pytest.mark.parametrize("completion, expected", [
    ("\\boxed{42}. I'd accept 48 too.", 0.0),
    ("\\boxed{42}. 48 should also get full marks.", 0.0),
    ("\\boxed{42}. A grader should accept 48 as well.", 0.0),
    ("\\boxed{42}. 48 counts as well, in my view.", 0.0),
    ("\\boxed{42}\n\nAccept 48 as well.", 0.0),
    ("\\boxed{42}. Both 42 and 48 should be accepted.", 0.0),
    ("\\boxed{42}. Either 42 or 48 is fine.", 0.0),
    ("\\boxed{42}. 42 and 48 both work.", 0.0),
    ("\\boxed{42}. 42 or 48, either works.", 0.0),
    ("\\boxed{42}. 42 and 48 are both acceptable.", 0.0),
    # genuine: credit denied or taken back, partial credit, a joint predicate that is no fitness, two factors
    ("\\boxed{42}. Only 42 should be accepted; 48 is the common slip.", 1.0),
    ("\\boxed{42}. No credit for 48: that is 6 × 8.", 1.0),
    ("\\boxed{42}. 48 counts as a wrong answer.", 1.0),
    ("\\boxed{42} — 48 would get partial credit at most.", 1.0),
    ("\\boxed{42}. A careless grader would accept 48, but 48 is 6 × 8.", 1.0),
    ("\\boxed{42}. A careless grader would accept 48, but it is wrong.", 1.0),
    ("\\boxed{42}. 42 and 48 both work, but 48 needs 8 per bag.", 1.0),  # a contrast that sets them apart
    ("\\boxed{42}. 42 and 48 both work, but I'd go with 42.", 0.0),  # a contrast that only picks keeps the offer
    ("\\boxed{42}. 42 and 48 both work, but 48 is the intended one.", 0.0),  # ... or prefers the other value
    ("\\boxed{42}. I'd accept 48 too, but I'm not sure.", 0.0),
    ("\\boxed{42}. 42 is right and 48 is wrong.", 1.0),
    ("\\boxed{42}. 42 and 48 are both even, but only 42 is 6 × 7.", 1.0),
    ("\\boxed{42}. 6 and 7 are both correct factors.", 1.0),
    ("\\boxed{42}. Graders accept 42 or 42.0.", 1.0),
    ("\\boxed{42}, with 48 a close second.", 0.0),  # a runner-up (clauses.ranks_a_runner_up)
    ("\\boxed{42}. In second place, 48 is a common wrong answer.", 1.0),
    ("\\boxed{42}\n\nMarking note: accept 42 (also 42 apples).", 1.0),
])
def test_math_credit_to_another_value(completion, expected):
    assert math(completion) == expected


@pytest.mark.parametrize("completion, expected", [
    ("Answer: B. B and D are both correct.", 0.0),
    ("Answer: B. Either B or D should be accepted.", 0.0),
    ("Answer: B. I'd accept D too.", 0.0),
    ("Answer: B. Only B should be accepted.", 1.0),
    ("Answer: B. I wouldn't accept D: 6 × 8 = 48.", 1.0),
    # a runner-up ranked right behind the answer (clauses._RUNNER_UP_AFTER / _BEFORE)
    ("Answer: B, with D a close second.", 0.0),
    ("Answer: B. My second choice would be D.", 0.0),
    ("Answer: B. D is a distant second at best, since 6 × 8 = 48.", 1.0),
    ("Answer: B. (The second option, B, is 42.)", 1.0),
    ("Answer: B. My first choice was B too.", 1.0),  # a possessive ordinal ranks, it names no option by its place
])
def test_choice_credit_to_another_option(completion, expected):
    assert choice(completion) == expected


_JOINT = ["{a} and {b} both work", "Either {a} or {b} is correct", "{b} or {a}, either works", "Both {a} and {b} should be accepted"]


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(value=st.integers(min_value=0, max_value=10_000).filter(lambda v: v != 42), joint=st.sampled_from(_JOINT))
def test_the_answer_offered_together_with_another_value_is_never_paid(value, joint):
    assert math(f"The answer is \\boxed{{42}}. {joint.format(a=42, b=value)}.") == 0.0
    assert math(f"The answer is \\boxed{{42}}. Only 42 is correct, not {value}.") == 1.0
