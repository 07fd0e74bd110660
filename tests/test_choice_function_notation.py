"""A letter followed by its option's text in function notation (issue #32): "Therefore, the answer is D: O(n^2)." --
the "O" glued to its bracket is big-O notation, not the Spanish "o" (or) that offers a second candidate; "D o B"
still does.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy

CHOICE = ChoiceAccuracy()
OPTIONS = {"A": "O(n)", "B": "O(n log n)", "C": "O(log n)", "D": "O(n^2)", "E": "O(2^n)"}
QUICKSORT = "What is the worst-case time complexity of quicksort on an array of n elements?\n" + "\n".join(
    f"{letter}. {text}" for letter, text in OPTIONS.items())


def choice(completion: str, gold: str) -> float:
    return CHOICE.evaluate([QUICKSORT], [completion], answer=[gold]).scores[0]


@pytest.mark.parametrize("completion", [
    "In the worst case (e.g., already sorted input with the first element as pivot), every partition splits off only one "
    "element, giving n + (n-1) + ... + 1 = O(n^2) comparisons.\n\nTherefore, the answer is D: O(n^2).",
    "Therefore, the answer is D: O(n^2).",
    "Answer: D (O(n^2))",
])
def test_a_letter_with_its_big_o_text_is_paid(completion):
    assert choice(completion, "D") == 1.0


@pytest.mark.parametrize("completion", [
    "La respuesta es D o B.",            # Spanish "or": two candidates
    "The answer is D o B.",
    "The answer is D: O(n log n).",      # the letter beside another option's text
    "The answer is D or B.",
])
def test_a_second_candidate_or_another_options_text_is_not_paid(completion):
    assert choice(completion, "D") == 0.0


@settings(max_examples=30, deadline=None)
@given(st.sampled_from("ABCDE"), st.sampled_from(["The answer is {l}: {t}.", "Therefore, the answer is {l}: {t}.", "Answer: {l} — {t}"]))
def test_a_letter_with_its_own_text_pays_that_letter_only(letter, form):
    completion = form.format(l=letter, t=OPTIONS[letter])
    assert [choice(completion, gold) for gold in "ABCDE"] == [float(gold == letter) for gold in "ABCDE"]
