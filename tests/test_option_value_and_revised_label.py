"""Readings added with the remark rule (stop 50, issue #32): an AMC box that holds an option's letter with its value,
paired as the prompt lists them, answers with the value; an answer label marked as revised ("Final answer
(corrected): B") is the answer label; a closing clause in words after the digits states the answer. Tables both ways
through the rewards, with the prompt passed, and properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.math_forms import option_label

AMC = ("How many positive divisors does 36 have?\n\n$\\textbf{(A)}\\ 6\\qquad\\textbf{(B)}\\ 8\\qquad\\textbf{(C)}\\ 9"
       "\\qquad\\textbf{(D)}\\ 10\\qquad\\textbf{(E)}\\ 12$")
CHOICE_PROMPT = "Which organ makes bile?\nA. Pancreas\nB. Liver\nC. Spleen\nD. Kidney\nE. Stomach"


def math(completion: str, gold: str = "9", prompt: str = AMC) -> float:
    return MathAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0]


def choice(completion: str, gold: str = "B") -> float:
    return ChoiceAccuracy().evaluate([CHOICE_PROMPT], [completion], answer=[gold]).scores[0]


@pytest.mark.parametrize("completion", [
    "$36 = 2^2 3^2$, so $(2+1)(2+1) = 9$.\n\n$\\boxed{\\textbf{(C)}\\ 9}$",
    "(2+1)(2+1) = 9 divisors.\n\n\\boxed{\\textbf{(C) } 9}",
    "\\boxed{9}",
])
def test_an_option_letter_with_its_own_value_is_paid(completion):
    assert math(completion) == 1.0
    # without options in the prompt there is nothing to pair the letter with: the value is read (fix51's rule)
    assert math(completion, prompt="How many positive divisors does 36 have?") == 1.0


@pytest.mark.parametrize(("completion", "prompt"), [
    ("$\\boxed{\\textbf{(B)}\\ 9}$", AMC),  # the letter is another option's: which is the answer?
    ("$\\boxed{\\textbf{(C)}\\ 8}$", AMC),  # the value is another option's
    ("$\\boxed{\\textbf{(C)}\\ 9 \\text{ or } \\textbf{(B)}\\ 8}$", AMC),
])
def test_a_letter_and_value_the_prompt_does_not_pair_is_not_paid(completion, prompt):
    assert math(completion, prompt=prompt) == 0.0


@pytest.mark.parametrize("completion", [
    "Initial answer: A.\n\nBut bile is made by hepatocytes.\n\nFinal answer (revised): B",
    "Final answer: A\n\nRe-reading the stem: bile is hepatic.\n\n**Final answer (corrected): B**",
])
def test_a_revised_answer_label_is_the_answer(completion):
    assert choice(completion) == 1.0


@pytest.mark.parametrize("completion", [
    "Final answer: B\n\nFinal answer (corrected): A",  # the revision names another letter
    "Final answer (corrected): B, or maybe A",
    "Final answer (corrected): B (unsure)",
])
def test_a_revised_label_that_names_another_letter_or_hedges_is_not_paid(completion):
    assert choice(completion) == 0.0


@settings(max_examples=50, deadline=None)
@given(st.sampled_from("ABCDE"), st.integers(1, 999), st.sampled_from(["\\textbf{(%s)}\\ %d", "\\textbf{(%s) } %d", "(%s) %d"]))
def test_option_label_reads_the_value_after_the_one_label(letter, value, form):
    assert option_label(form % (letter, value)) == (letter, str(value))
    assert option_label(str(value)) is None
    assert option_label(f"(A) {value} (B) {value + 1}") is None  # two labels: a hedge, no one value


@pytest.mark.parametrize(("completion", "gold"), [
    ("She buys 4 packs of 6 = 24 pens and gives 9 to friends, leaving fifteen pens.", "15"),
    ("The class had 30 pupils; 12 went home, so there are eighteen left.", "18"),
])
def test_a_closing_clause_in_words_after_the_digits_is_the_answer(completion, gold):
    assert MathAccuracy().evaluate(["Solve."], [completion], answer=[gold]).scores[0] == 1.0


@pytest.mark.parametrize(("completion", "gold"), [
    ("She buys 24 pens and gives 9 to friends, leaving fifteen pens.", "9"),  # the words state another value
    ("So the answer is 15, and it is one of the options.", "1"),  # "one of": no count
    ("She has 3 apples and 4 pears, leaving one half.", "1"),  # "one half" is part of a number
])
def test_words_that_state_another_value_or_no_count_are_not_paid(completion, gold):
    assert MathAccuracy().evaluate(["Solve."], [completion], answer=[gold]).scores[0] == 0.0
