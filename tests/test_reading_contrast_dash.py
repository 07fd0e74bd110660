"""Issue #32: a spaced dash before a contrast after the answer ("✓ -- but ...") ends a clause when the contrast
states something other than the answer (stop 61; found by the fn60 helper at stop 60).

``commitment.later_disowns`` reads the text after a committed answer clause by clause. A ticked check clause, or one
that names the answer, is skipped as a whole, and a dash did not end a clause: so ``\\boxed{263}. Double-check:
263 + 97 = 360 ✓ -- but the second line is wrong, 264 is right.`` hid its second statement inside the check and was
paid, while the same text with a full stop before "But" was refused. The rule
(``commitment._split_at_contrast``): a clause is cut at a spaced dash (``-``, ``--``, en or em dash) before
"but / yet / however / though / although" when the part after it does not name the answer; a contrast that names
the answer turns back to it ("a 6% rate would give $530 -- but at the stated 5% it is $525") and the sentence stays one
clause that restates the answer.

A check after the answer is read as part of the answer's explanation (``answer_forms.explanation_start``) when it
has no second thought, whatever its last number ("Check: 4(8) - 7 = 25 ✓"), and ``later_disowns`` skipped a check
clause whole. So "Check: 263 + 97 = 360 ✓. 265 is correct." and "Check: 500 × 0.05 = 25 ✓, so $530 is the answer."
were paid. A check that calls a value other than the answer right, true or the answer
(``answer_forms.affirms_other``) is no explanation and no skipped check: it is read clause by clause.

A value identified with what the problem counts by a pseudo-cleft after the answer ("But 264 is what is left.",
"265 is what we end up with.") states it (``commitment._AFFIRMED_AFTER``), as "264 is right" does; a mistake told in
another subject or mood ("264 is what you get by subtracting 96") states nothing.

The rows below are written for this file.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy

PENS = "A box holds 24 pens. A teacher buys 15 boxes and hands out 97 pens. How many pens are left?"
PENS_WORK = "Pens bought: $15 \\times 24 = 360$. Left: $360 - 97 = \\boxed{263}$.\n\n"
LOAN = "A deposit of $500 earns 5% simple interest for one year. What is the balance after one year, in dollars?"
LOAN_WORK = "Interest: 5% of $500 = $25. Balance: $500 + $25 = $525.\n\n$\\boxed{525}$\n\n"

CASES = [  # (prompt, gold, completion, expected score)
    # the contrast states another value: refused, whatever the dash
    (PENS, "263", PENS_WORK + "Double-check: 263 + 97 = 360 ✓ -- but the second line is wrong, 264 is right.", 0.0),
    (PENS, "263", PENS_WORK + "Double-check: 263 + 97 = 360 ✓ — but it is 264.", 0.0),
    (PENS, "263", PENS_WORK + "Check: 263 + 97 = 360 ✓ – yet 265 is correct.", 0.0),
    (PENS, "263", PENS_WORK + "Sanity check: 15 × 24 = 360 ✓ - however, 97 was a typo for 96, so it is 264.", 0.0),
    (LOAN, "525", LOAN_WORK + "Verification: 525 - 500 = 25 ✓ -- though I meant $530.", 0.0),
    # the contrast turns back to the answer, or states nothing new: paid
    (PENS, "263", PENS_WORK + "Double-check: 263 + 97 = 360 ✓ -- but that was quick, and it holds.", 1.0),
    (PENS, "263", PENS_WORK + "Had she handed out 96 the count would be 264 -- but she handed out 97, so 263.", 1.0),
    (LOAN, "525", LOAN_WORK + "For comparison, a 6% rate would give $530 -- but at the stated 5% the balance is $525.", 1.0),
    (PENS, "263", PENS_WORK + "Check: 263 + 97 = 360 ✓ — though I did it in my head, 263 stands.", 1.0),
]


CHECK_CASES = [
    (PENS, "263", PENS_WORK + "Check: 263 + 97 = 360 ✓. 265 is correct.", 0.0),
    (PENS, "263", PENS_WORK + "Check: 360 - 97 = 263 ✓\n\n264 was the right count all along.", 0.0),
    (LOAN, "525", LOAN_WORK + "Check: 500 × 0.05 = 25 ✓, so $530 is the answer.", 0.0),
    (PENS, "263", PENS_WORK + "Check: 263 + 97 = 360 ✓. 263 is correct.", 1.0),
    (PENS, "263", PENS_WORK + "Check: 263 + 97 = 360 ✓", 1.0),
    (LOAN, "525", LOAN_WORK + "Check: 500 × 0.05 = 25 ✓, and 25 is the interest, so the balance stands.", 1.0),
]


CLEFT_CASES = [
    (PENS, "263", PENS_WORK + "But 264 is what is left.", 0.0),
    (PENS, "263", PENS_WORK + "Counting again on the shelf, 265 is what we end up with.", 0.0),
    (PENS, "263", PENS_WORK + "So 263 is what she has left.", 1.0),
    (PENS, "263", PENS_WORK + "Common mistake: 264 is what you get by subtracting 96.", 1.0),
]


@pytest.mark.parametrize("prompt, gold, completion, expected", CLEFT_CASES)
def test_a_value_identified_with_what_is_left_is_stated(prompt, gold, completion, expected):
    assert scorer(MathAccuracy, prompt)(completion, gold) == expected


@pytest.mark.parametrize("prompt, gold, completion, expected", CHECK_CASES)
def test_a_check_that_calls_another_value_right_explains_nothing(prompt, gold, completion, expected):
    assert scorer(MathAccuracy, prompt)(completion, gold) == expected


@pytest.mark.parametrize("prompt, gold, completion, expected", CASES)
def test_a_contrast_after_a_dash_is_read_as_its_own_statement(prompt, gold, completion, expected):
    assert scorer(MathAccuracy, prompt)(completion, gold) == expected


CHOICE = "Which vitamin deficiency causes scurvy?\nA) Vitamin A\nB) Vitamin B12\nC) Vitamin C\nD) Vitamin D"


@pytest.mark.parametrize("completion, expected", [
    ("Answer: C. Check: scurvy is collagen failure, which needs ascorbate ✓ -- but the exam key says D.", 0.0),
    ("Answer: C. Check: scurvy is collagen failure, which needs ascorbate ✓ -- but that is textbook, so C.", 1.0),
])
def test_choice_reads_the_contrast_too(completion, expected):
    assert scorer(ChoiceAccuracy, CHOICE, gold="C")(completion) == expected


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=500), st.integers(min_value=2, max_value=500),
       st.sampled_from(["--", "-", "\u2013", "\u2014"]), st.sampled_from(["but", "yet", "though", "however,"]), st.booleans())
def test_a_ticked_check_then_a_contrast_pays_only_the_same_value(left, right, dash, contrast, same):
    """A ticked check followed by a dash and a contrast is paid exactly when the contrast's value is the answer."""
    answer = left + right
    said = answer if same else answer + 1
    text = (f"{left} + {right} = $\\boxed{{{answer}}}$.\n\nDouble-check: {answer} - {right} = {left} ✓ {dash} {contrast} "
            f"the total is {said}.")
    assert scorer(MathAccuracy, "Add the two numbers.")(text, str(answer)) == (1.0 if same else 0.0)
