"""A table that lists the options, one to a row, before the answer line is no conclusion of its last row (issue #32):
"| Kant | categorical imperative |\\n| Hume | ... |\\n| Aristotle | virtue ethics |\\n\\n**Answer: B**" answers B; a
single row that names another option is still read as the reasoning's conclusion.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy

CHOICE = ChoiceAccuracy()
TEXTS = {"A": "John Stuart Mill", "B": "Immanuel Kant", "C": "David Hume", "D": "Aristotle"}
IDEAS = {"A": "utilitarianism", "B": "categorical imperative", "C": "is-ought gap", "D": "virtue ethics"}
PROMPT = "The categorical imperative is most closely associated with which philosopher?\n" + "\n".join(
    f"{letter}. {text}" for letter, text in TEXTS.items())
SHORT = {"A": "Mill", "B": "Kant", "C": "Hume", "D": "Aristotle"}


def choice(completion: str, gold: str) -> float:
    return CHOICE.evaluate([PROMPT], [completion], answer=[gold]).scores[0]


def table(order: str) -> str:
    return "| Philosopher | Key idea |\n|---|---|\n" + "\n".join(f"| {SHORT[key]} | {IDEAS[key]} |" for key in order)


def test_a_table_of_the_options_before_the_answer_line_is_no_conclusion():
    assert choice(table("ABCD") + "\n\n**Answer: B**", "B") == 1.0


@pytest.mark.parametrize("completion", [
    "| Philosopher | Verdict |\n|---|---|\n| Aristotle | correct answer |\n\n**Answer: B**",  # one row: a conclusion
    "Aristotle: virtue ethics.\n\n**Answer: B**",
])
def test_one_row_or_sentence_naming_another_option_still_refuses(completion):
    assert choice(completion, "B") == 0.0


@settings(max_examples=30, deadline=None)
@given(st.permutations("ABCD"), st.sampled_from("ABCD"))
def test_the_answer_line_after_a_table_of_options_decides(order, letter):
    completion = table("".join(order)) + f"\n\n**Answer: {letter}**"
    assert [choice(completion, gold) for gold in "ABCD"] == [float(gold == letter) for gold in "ABCD"]
