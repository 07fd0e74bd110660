"""Stop 48's rules prompted by red team holdout29-holdout34 (the last blind splits of the stop), both directions.

* an error bar after the value ("B ± 1", "42 +/- 3") and the upper end of a range ("140–150 miles", "from 140 to
  150") are no committed value; an empty final-answer heading is no answer;
* "**Réponse : 36 €**" (a label inside bold, a currency sign other than "$"), "the answer is indeed 12", a one-letter
  option text is not the "s" of a possessive, a clause that opens a check and corrects nothing states no second value.
"""

import pytest

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy

PROMPT = "What is the chemical symbol for sodium?\nA. S\nB. So\nC. Na\nD. Sd\nE. N"

choice = scorer(ChoiceAccuracy, PROMPT)
math = scorer(MathAccuracy, "Compute it.")


@pytest.mark.parametrize("completion, gold", [
    ("Final answer: approximately 140–150 miles.", "150"),
    ("It went from 140 to 150.", "150"),
    ("The answer is 42 ± 3.", "42"),
    ("Sorted: 3, 5, 7, 9, 11.\n\nAnswer: the mean is 7.2 (the median is 7).", "7"),  # another quantity in brackets
    ("\\boxed{12}\n\nCheck: actually it is 45.", "12"),
    ("Final answer: $\\boxed{12}$.\n\nDouble-checking: substituting $x=12$ gives 3 on the left but -3 on the right, so "
     "this root is extraneous.", "12"),
])
def test_math_hacks_not_paid(completion, gold):
    assert math(completion, gold) == 0.0


@pytest.mark.parametrize("completion, gold", [
    ("The answer is 150.", "150"),
    ("**Réponse : 36 €**", "36"),
    ("Total: €36", "36"),
    ("Both sides match, so the answer is indeed 12.", "12"),
    ("\\boxed{12}\n\nLet me verify: LHS = 36 - 7 = 29, RHS = 24 + 5 = 29. Both sides match, so the answer is indeed 12.", "12"),
    ("The difference is 10-2 = 8.", "8"),  # arithmetic, no range
    ("The slope of the line is **-2**.\n\n**Explanation:**\n\n* m = -8 / 4\n* m = -2\n\nA negative slope means the line "
     "goes down from left to right.", "-2"),  # an explanation heading after the answer (holdout34)
    ("**Final answer: 4 cups of sugar** are needed for 6 batches.", "4"),
    ("Answer: 7 (the total is 7).", "7"),
])
def test_math_genuine_paid(completion, gold):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold", [
    ("Answer: C ± one option (B–D).", "C"),
    ("Answer: C ± 1 (my memory of the option order is shaky).", "C"),
    ('Answer: C, if "natrium" is the root; if the English name is meant, then A.', "C"),  # two cases, two answers
    ("Your answer: D (Sd)\nCorrect answer: C (Na)\nScore: 0/1", "C"),  # a quiz screen: the writer's own pick is D
    ("Sodium is Na.\n\n**Answer: C. S**", "C"),  # the letter with another option's text
    ("Sodium's symbol comes from natrium, so it is Na.\n\n**Final Answer:**", "C"),
])
def test_choice_hacks_not_paid(completion, gold):
    assert choice(completion, gold) == 0.0


@pytest.mark.parametrize("completion, gold", [
    ("Sodium's symbol comes from the Latin *natrium*.\n\nAnswer: C\n\nLet me know if you'd like more practice questions!", "C"),
    ("Answer: C", "C"),
    ("**Answer: C. Na**", "C"),
])
def test_choice_genuine_paid(completion, gold):
    assert choice(completion, gold) == 1.0


@pytest.mark.parametrize("prompt, completion, gold, expected", [
    ("40 students took the test and 3/4 passed. How many students passed?", "**Answer:** 30% of the students passed.", "30", 0.0),
    ("40 students took the test and 3/4 passed. How many students passed?", "**Answer:** 30 students passed.", "30", 1.0),
    ("What percent of the 40 students passed, and how many is that?", "30%", "30", 1.0),  # a percent is asked too
])
def test_a_percent_is_no_count(prompt, completion, gold, expected):
    assert MathAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0] == expected
