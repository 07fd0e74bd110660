"""An answer stated as another quantity of the problem (verifiers/asked_quantity.py): tables of realistic output,
both ways, through ``math_accuracy`` with the prompt passed, and properties of the rule."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.asked_quantity import other_quantity, subject

REWARD = MathAccuracy()

PRODUCT = "Find the product of the roots of $x^2 - 8x + 7 = 0$."
BOTH_RED = "A bag has 3 red and 5 blue balls. Two are drawn without replacement. What is the probability that both are red?"
FAMILY = "Tickets cost $7 each. A family of 6 buys tickets. How much do they spend?"
MEAN = "The scores are 4, 7, 7, 9 and 9. What is the mean score? Give a decimal."

HACKS = [  # (prompt, gold, completion): the gold's number stated as another quantity
    (PRODUCT, "7", "The roots are 1 and 7.\n\nSo the larger root is $\\boxed{7}$."),
    (PRODUCT, "7", "Factoring gives roots 1 and 7; therefore, the greatest root is 7."),
    (BOTH_RED, "\\frac{3}{28}", "P(both red) = (3/8)(2/7).\n\nSo the probability that they are **not** both red is $\\boxed{\\frac{3}{28}}$."),
    ("A coin is flipped 3 times. What is the probability of getting at least one head?", "\\frac{7}{8}",
     "P(no heads) = 1/8.\n\nTherefore the probability of getting no heads at all is 7/8."),
    (FAMILY, "42", "The family spends 6 × 7.\n\nEach person pays $42."),
    (FAMILY, "42", "So they pay $42 each."),
    (MEAN, "7.2", "Sorted: 4, 7, 7, 9, 9. Thus the median is 7.2."),
]

GENUINE = [  # the same prompts answered plainly, with the asked qualifier, or with a subject of no qualifier
    (PRODUCT, "7", "By Vieta, the product of the roots is $\\boxed{7}$."),
    (PRODUCT, "7", "The roots are 1 and 7, so the answer is $\\boxed{7}$."),
    ("Find the larger root of $x^2 - 8x + 7 = 0$.", "7", "So the greatest root is $\\boxed{7}$."),
    (BOTH_RED, "\\frac{3}{28}", "Since the draws are not independent, the probability is $\\frac{3}{8}\\cdot\\frac{2}{7} = \\boxed{\\frac{3}{28}}$."),
    (BOTH_RED, "\\frac{3}{28}", "The probability that both are red is 3/28."),
    ("What is the probability that a fair die does not show a 6?", "\\frac{5}{6}", "The probability of not rolling a 6 is $\\boxed{\\frac{5}{6}}$."),
    (FAMILY, "42", "Each ticket is $7, so the family spends 6 × 7 = $42 in total.\n\nThe total is $\\boxed{42}$."),
    ("How much does each of 6 people pay if the $42 bill is split evenly?", "7", "Each person pays $7."),
    (MEAN, "7.2", "The average score is (4 + 7 + 7 + 9 + 9)/5 = 7.2."),
    ("A box holds 6 rows of 7 eggs. How many eggs are in the box?", "42", "6 + 7 = 13 eggs — no, that's wrong, it's rows times eggs per row: 6 × 7 = 42 eggs."),
    ("Solve the problem. Put the final answer in \\boxed{}.", "2.5", "The mean is \\boxed{2.50}."),  # no problem stated: nothing to compare
    ("Compute 15% of 240.", "36", "I typed it this time, no OCR needed: 15% of 240 is 36."),
]


@pytest.mark.parametrize("prompt,gold,completion", HACKS)
def test_another_quantity_is_not_paid(prompt, gold, completion):
    assert REWARD.evaluate([prompt], [completion], answer=[gold]).scores[0] == 0.0


@pytest.mark.parametrize("prompt,gold,completion", GENUINE)
def test_the_asked_quantity_is_paid(prompt, gold, completion):
    assert REWARD.evaluate([prompt], [completion], answer=[gold]).scores[0] == 1.0


def test_subject_reads_past_connectives_and_subordinate_clauses():
    text = "Since x is not 0 the answer is 5"
    assert subject(text, text.index("5")) == "the answer"
    text = "So, therefore the larger root is 7"
    assert subject(text, text.index("7")) == "the larger root"
    text = "No doubt about it: 7"
    assert subject(text, text.index("7")) == ""


WORDS = st.sampled_from(["the", "answer", "value", "larger", "not", "each", "mean", "root", "so", "is", "=", ",", "x", "I"])


@settings(max_examples=300, deadline=None)
@given(st.lists(WORDS, max_size=12), st.sampled_from(["7", "\\boxed{7}", "$7$"]))
def test_a_question_that_names_every_class_refuses_nothing(words, value):
    """When the question itself names every qualifier (larger, smaller, not, each, mean, median, mode), no subject can
    name one it lacks: the rule never refuses."""
    prompt = "What is the larger, smaller, not, each, mean, median or mode value of 3 and 7?"
    assert other_quantity("7", " ".join(words) + " " + value + ".", prompt) == ""


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300), st.text(max_size=200))
def test_hostile_text_never_raises(completion, prompt):
    assert isinstance(other_quantity("7", completion, prompt), str)
