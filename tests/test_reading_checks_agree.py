"""Issue #32: a check section after the answer that confirms it states no competing value (false negatives of
holdout109/holdout110).

A careful solver often checks its committed answer after stating it: a second method, an estimate, a recount table,
a small case of the formula. Its numbers are the check's work. The reader used to take them for other final values
("Second method: first digit 7: $100$" closes a clause on 100), so a verified answer was refused -- a reward that
punishes verification. The rule (``later_values.confirming_check_start``, read by ``commitment.later_disowns`` and
by ``answer_extraction._answer_before_check``): a section opening at a line with a heading of checking, to the end,
with no verdict of disagreement, every paragraph of which ends on the answer, on a range that holds it, or agrees at
another instance of the formula ("for n = 3 ... and indeed ..."). A check that lands on another value with no
verdict, or says it differs, still leaves the answer uncommitted; withdrawals inside a check are read as before.

A closing line that computes on from the value before it ("Total: $48 + $18 = $66" after "= $18") ends on its
result, not on the value (`remark_values.uses_as_term`), unless it checks that value (a tick, a word of checking).

The rows below are written for this file (not copies of the red-team rows).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.later_values import confirming_check_start

PENS = "A box holds 24 pens. A teacher buys 15 boxes and hands out 97 pens. How many pens are left?"
PENS_WORK = "Pens bought: $15 \\times 24 = 360$. Left: $360 - 97 = \\boxed{263}$.\n\n"

ROOMS = "A hotel has 18 floors with 27 rooms on each floor. How many rooms does it have?"
ROOMS_WORK = "18 × 27 = 18 × 30 − 18 × 3 = 540 − 54 = 486.\n\n**486 rooms**\n\n"

SQUARES = "What is the sum of the first 20 odd numbers?"
SQUARES_WORK = "The sum of the first $n$ odd numbers is $n^2$, so with $n = 20$ it is $\\boxed{400}$.\n\n"

CASES = [  # (prompt, gold, completion, expected score)
    # confirming checks: paid
    (PENS, "263", PENS_WORK + "Second method (hand out first): $24 \\times 15 = 360$ pens; after 97 are gone, $360 - 97 = 263$, "
     "the same.", 1.0),
    (PENS, "263", PENS_WORK + "Check by adding back: $263 + 97 = 360$ and $360 / 24 = 15$ boxes, so 263 stands.\n\n"
     "Check again with the boxes: 15 boxes of 24 less 97 is 263.", 1.0),
    (PENS, "263", PENS_WORK + "Recount by fives (each five boxes hold 120 pens):\n\n| boxes | pens |\n|---|---|\n| 1-5 | 120 |\n"
     "| 6-10 | 120 |\n| 11-15 | 120 |\n| **left after 97** | **263** |\n\nBoth counts agree.", 1.0),
    (ROOMS, "486", ROOMS_WORK + "Estimate: 18 × 25 = 450 and 18 × 30 = 540, so the count should lie between 450 and 540 -- it does.", 1.0),
    (SQUARES, "400", SQUARES_WORK + "Small-case check of the rule: for $n = 3$ it gives $3^2 = 9$, and indeed $1 + 3 + 5 = 9$.", 1.0),
    # checks that land on another value, or say they differ: refused
    (PENS, "263", PENS_WORK + "Second method (hand out first): $24 \\times 15 = 360$ pens; after 97 are gone, $360 - 96 = 264$.", 0.0),
    (PENS, "263", PENS_WORK + "Recount by fives (each five boxes hold 120 pens):\n\n| boxes | pens |\n|---|---|\n| 1-5 | 120 |\n"
     "| 6-10 | 120 |\n| 11-15 | 120 |\n| **left after 97** | **253** |\n\nThe recount gives 253, ten fewer than above.", 0.0),
    (ROOMS, "486", ROOMS_WORK + "Estimate: 18 × 25 = 450 and 18 × 26 = 468, so the count should lie between 450 and 468.", 0.0),
    (SQUARES, "400", SQUARES_WORK + "Alternative check: adding them up directly, $1 + 3 + \\dots + 39$ comes to 420.", 0.0),
    (PENS, "263", PENS_WORK + "Double-check by adding back: $264 + 97 = 361$, so the second line is wrong and 264 is right.", 0.0),
    # a check whose own total is another value confirms nothing, whatever it says at its end (stop 60 merge:
    # test_reading_holdout50_52's "Total: 45. Confirmed, 42 is right." had become paid); a total equal to the answer,
    # or the first term of the closing sum ("Total 360 - 97 = 263"), keeps the check confirming
    (PENS, "263", PENS_WORK + "Double-check: 360 - 97 = 263.\nTotal: 265. Confirmed, 263 is right.", 0.0),
    (PENS, "263", PENS_WORK + "Double-check: 360 - 97 = 263.\nTotal: 263. Confirmed, 263 is right.", 1.0),
    (PENS, "263", PENS_WORK + "Recount check: total 360 - 97 = 263 pens.", 1.0),
]


SHOP = "Pencils cost $2 and pens cost $5. Ann buys 6 pencils and 4 pens. How much does she pay, in dollars?"
SHOP_WORK = "Pencils: 6 × $2 = $12.\nPens: 4 × $5 = $25.\n\nRedoing the pens: 4 × $5 = $20. "

REMARK_CASES = [  # a closing line that computes on from the value before it ends on its result (#32, holdout110)
    (SHOP, "32", SHOP_WORK + "Total: $12 + $20 = $32.", 1.0),
    (SHOP, "20", SHOP_WORK + "Total: $12 + $20 = $32.", 0.0),
    (SHOP, "20", "Pens: 4 × $5 = $20.\n\nCheck: 20 ÷ 5 = 4 pens ✓", 1.0),  # a check of the value keeps it
]


@pytest.mark.parametrize("prompt, gold, completion, expected", REMARK_CASES)
def test_a_closing_sum_on_the_value_ends_on_its_result(prompt, gold, completion, expected):
    assert scorer(MathAccuracy, prompt)(completion, gold) == expected


@pytest.mark.parametrize("prompt, gold, completion, expected", CASES)
def test_a_confirming_check_is_no_second_value(prompt, gold, completion, expected):
    assert scorer(MathAccuracy, prompt)(completion, gold) == expected


def _is(answer: str):
    return lambda said: [number == answer for number in __import__("re").findall(r"\d+", said)]


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=999), st.integers(min_value=2, max_value=999), st.booleans())
def test_a_second_method_confirms_only_when_it_ends_on_the_answer(left, right, same):
    """A second method's paragraph confirms the answer exactly when its last value is the answer."""
    answer = left + right
    result = answer if same else answer + 1
    text = f"{left} + {right} = $\\boxed{{{answer}}}$.\n\nSecond method: counting from {right} up by {left} gives {result}."
    found = confirming_check_start(text, text.index("$.") + 2, len(text), _is(str(answer)), str(answer))
    assert (found is not None) == same
    assert scorer(MathAccuracy, "Add the two numbers.")(text, str(answer)) == (1.0 if same else 0.0)
