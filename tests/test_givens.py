"""The prompt's givens restated in the sentence that closes an answer are read past (verifiers/givens.py): tables of
realistic output, both ways, through ``math_accuracy`` with the prompt passed, and properties of the rule."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.givens import givens
from polyreward.verifiers.math import verify_batch

REWARD = MathAccuracy()

COOKIES = "A baker bakes 48 cookies and packs them into boxes of 6. How many boxes does she fill?"
TRAIN = "A train travels at 75 km/h for 4 hours. How far does it travel, in kilometres?"
SEATS = "A theatre has 18 rows with 24 seats in each row. How many seats are there in total?"
SAVINGS = "Mia saves $15 each week. How many weeks does it take her to save $240?"
CODES = "How many 3-digit codes can be made from the digits 1 to 6 if digits may repeat?"

GENUINE = [  # (prompt, gold, completion): the answer first in a closing sentence that restates the givens after it
    (COOKIES, "8", "48 ÷ 6 = 8\n\nShe fills 8 boxes with 6 cookies each."),
    (COOKIES, "8", "Dividing the cookies into boxes: 48 / 6 = 8.\n\nThe baker fills 8 boxes when she packs 48 cookies in boxes of 6."),
    (TRAIN, "300", "Distance = speed × time = 75 × 4 = 300\n\nThe train travels 300 km in 4 hours."),
    (SEATS, "432", "18 × 24 = 432\n\nThe theatre has 432 seats in its 18 rows."),
    (SAVINGS, "16", "She needs 240 / 15 = 16 weeks.\n\nIt takes Mia 16 weeks to save $240 at $15 a week."),
    (CODES, "216", "Each of the 3 positions has 6 choices, so 6^3 = 216.\n\nThere are 216 codes of 3 digits."),
    ("What percent of 60 is 18?", "30", "18 is 30% of 60."),  # the percent is the value
    ("A shop sold 1,250 pens on Monday and 1,750 pens on Tuesday. How many pens did it sell in these 2 days?", "3000",
     "1,250 + 1,750 = 3,000\n\nThe shop sold 3,000 pens over the 2 days, 1,250 of them on Monday."),
]

HACKS = [  # the same closing sentences with a hedge, a second value, a withdrawal or a spray: never paid
    (COOKIES, "8", "She fills 8 or 9 boxes with 6 cookies each."),
    (COOKIES, "9", "She fills 8 or 9 boxes with 6 cookies each."),
    (COOKIES, "8", "She fills 7 boxes, 8 boxes, 9 boxes with 6 cookies each."),
    (COOKIES, "9", "She fills 8 boxes with 6 cookies each, not 9."),
    (COOKIES, "8", "She fills 8 boxes with 6 cookies each, I guess."),
    (COOKIES, "8", "She fills 8 boxes with 6 cookies each. Actually no, scratch that."),
    (COOKIES, "8", "So the answer is 9.\n\nShe fills 8 boxes with 6 cookies each... or not."),
    (TRAIN, "300", "The train travels 300 or 320 km in 4 hours."),
    (SEATS, "432", "The theatre has 400 seats, maybe 432, in its 18 rows."),
    # a given offered in place of the answer: a correction, a condition, an alternative (the writer's last word is the given)
    (COOKIES, "8", "She fills 8 boxes, actually 6."),
    (COOKIES, "8", "She fills 8 boxes; make that 6."),
    (COOKIES, "8", "She fills 8 boxes, unless she uses 6 per box."),
    (COOKIES, "8", "She fills 8 boxes, or rather 6."),
    (TRAIN, "300", "The train travels 300 km, I mean 4 hours."),
    ("What percent of 60 is 18?", "30", "18 is 30% of 60, actually 40%."),
    # the givens only: no value of the answer's own (today's reading: the last number, a given)
    (COOKIES, "8", "She packs 48 cookies in boxes of 6."),
]

# a gold that is one of the prompt's numbers is no easier to be paid
GIVEN_GOLDS = [
    (COOKIES, "6", "She fills 8 boxes with 6 cookies each."),
    (TRAIN, "4", "The train travels 300 km in 4 hours."),
]


@pytest.mark.parametrize("prompt,gold,completion", GENUINE)
def test_the_answer_before_restated_givens_is_paid(prompt, gold, completion):
    assert REWARD.evaluate([prompt], [completion], answer=[gold]).scores[0] == 1.0


@pytest.mark.parametrize("prompt,gold,completion", HACKS)
def test_hedges_and_second_values_around_givens_stay_refused(prompt, gold, completion):
    assert REWARD.evaluate([prompt], [completion], answer=[gold]).scores[0] == 0.0


@pytest.mark.parametrize("prompt,gold,completion", GIVEN_GOLDS)
def test_a_given_is_never_read_as_the_answer_of_a_sentence_with_another_value(prompt, gold, completion):
    assert REWARD.evaluate([prompt], [completion], answer=[gold]).scores[0] == 0.0


@pytest.mark.parametrize("prompt,gold,completion", GENUINE)
def test_without_a_prompt_nothing_changes(prompt, gold, completion):
    """No prompt, no givens: the reading is today's (the last number of the closing sentence)."""
    with_prompt = verify_batch([completion], [gold], prompts=[prompt])[0]
    without = verify_batch([completion], [gold])[0]
    assert with_prompt.score == 1.0
    assert without.pred != with_prompt.pred


def test_givens_are_the_prompts_numbers():
    assert givens(SEATS) == {Fraction(18), Fraction(24)}
    assert givens("It sold 1,250 pens at $2.50 each, and -3 were returned.") == {Fraction(1250), Fraction("2.5"), Fraction(-3)}
    assert givens("Find x2 in cm3.") == frozenset()  # a digit glued to a word is no number


# properties ----------------------------------------------------------------------------------------------------

_PROMPT = "A farmer has {a} rows of {b} apple trees. How many apple trees does the farmer have?"
_numbers = st.integers(min_value=2, max_value=60)


@settings(max_examples=40, deadline=None)
@given(a=_numbers, b=_numbers, wrong=st.integers(min_value=0, max_value=5000), noun=st.sampled_from(["trees", "apple trees", "of them"]))
def test_a_sentence_of_givens_only_never_changes_the_score(a, b, wrong, noun):
    """Appending a sentence that only restates the prompt's givens changes no score: not a right answer's, not a
    wrong one's."""
    prompt = _PROMPT.format(a=a, b=b)
    gold = str(a * b)
    for answer in (gold, str(wrong)):
        base = f"{a} × {b} = {answer}\n\nThe answer is {answer}."
        extended = base + f"\n\nThe farmer planted {a} rows of {b} {noun}."
        scores = REWARD.evaluate([prompt] * 2, [base, extended], answer=[gold] * 2).scores
        assert scores[0] == scores[1]


@settings(max_examples=40, deadline=None)
@given(a=_numbers, b=_numbers, first=st.integers(min_value=61, max_value=5000), second=st.integers(min_value=61, max_value=5000),
       joint=st.sampled_from([" or ", ", maybe ", ", not ", " -- no wait, ", ", "]))
def test_adding_a_given_never_pays_a_hack(a, b, first, second, joint):
    """A closing sentence with two values the prompt does not give (a hedge, a denial, a spray, a correction) is paid
    for no value it is not paid for without the prompt's givens restated after them; a hedge is refused for either."""
    prompt = _PROMPT.format(a=a, b=b)
    if first == second:
        return
    for gold in (first, second):
        plain = f"The farmer has {first}{joint}{second} trees."
        with_givens = f"The farmer has {first}{joint}{second} trees in {a} rows of {b}."
        scores = REWARD.evaluate([prompt] * 2, [plain, with_givens], answer=[str(gold)] * 2).scores
        assert scores[1] <= scores[0]
        if joint in (" or ", ", maybe "):
            assert scores[1] == 0.0


@settings(max_examples=40, deadline=None)
@given(a=_numbers, b=_numbers, gold_is=st.sampled_from(["a", "b"]), other=st.integers(min_value=61, max_value=5000))
def test_a_given_gold_is_no_easier_to_be_paid(a, b, gold_is, other):
    """With the prompt, a gold that is one of the prompt's numbers is paid for no completion it is not paid for
    without the prompt."""
    prompt = _PROMPT.format(a=a, b=b)
    gold = str(a if gold_is == "a" else b)
    completion = f"The farmer has {other} trees in {a} rows of {b}."
    with_prompt = REWARD.evaluate([prompt], [completion], answer=[gold]).scores[0]
    without = REWARD.evaluate([""], [completion], answer=[gold]).scores[0]
    assert with_prompt <= without


def test_a_table_row_is_no_sentence():
    """A table's cells are not a closing sentence: a to-do row that names the gold is not read past its givens."""
    prompt = "What is the greatest common divisor of 84 and 126?"
    completion = "| To do | Done |\n|---|---|\n| check that the gcd is 42 | factor 84 and 126 |"
    assert REWARD.evaluate([prompt], [completion], answer=["42"]).scores[0] == 0.0


def test_the_prompt_reaches_the_rule_through_a_config(tmp_path):
    """A config's scorer passes each row's prompt column to ``math_accuracy`` (renamed columns, chat messages too):
    the same rows score as through the reward itself, and without a prompt column nothing is read past."""
    from polyreward.config import load_config

    rows = [{"question": prompt, "response": completion, "gold": gold} for prompt, gold, completion in GENUINE[:4]]
    rows.append({"question": [{"role": "user", "content": TRAIN}], "response": GENUINE[2][2], "gold": "300"})
    path = tmp_path / "cfg.yaml"
    path.write_text("columns: {prompt: question, completion: response}\nrewards:\n  - {name: acc, type: math_accuracy, answer_column: gold}\n")
    scorer = load_config(path).build_scorer()
    assert list(scorer.score(scorer.batch(rows)).scores[:, 0]) == [1.0] * 5
    direct = REWARD.evaluate([r["question"] for r in rows], [r["response"] for r in rows], answer=[r["gold"] for r in rows]).scores
    assert list(direct) == [1.0] * 5
    without = REWARD.evaluate(None, [r["response"] for r in rows], answer=[r["gold"] for r in rows]).scores
    assert list(without) == [0.0] * 5
