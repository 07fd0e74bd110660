"""Rules added after the ``holdout115`` red-team split (value-changing marks around the gold), table of realistic
output both ways.

* a mark against a box that changes its value (``later_values.marked_box_value``): a sign before the box, a percent
  sign or a power after it (``$$-\\boxed{15}$$``, ``\\boxed{42}\\%`` for a count) is part of the value; a degree or an
  ordinal after the box keeps it;
* the foot and inch marks (``units.foot_or_inch_mark``): ``18'`` is 18 feet, another unit where inches are asked;
* an English scale word asked as the unit (``number_locale``): ``42 thousand`` is 42 where the question asks in thousands;
* a mark that restates what is asked (``asked_notation``): ``42_8`` where base 8 is asked, ``42 \\pmod{50}`` for the
  remainder on division by 50;
* an option letter marked as another token (``marked_letters``): ``C'``, ``A̅``, ``B-cells``, ``answer = !A`` state no
  option, so nothing is read from the reasoning instead;
* a coloured box around a letter (``math_normalize.uncoloured``) and a letter whose line ends on a bracketed gloss
  (``C (AB)``) are that letter.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy

_MATH = MathAccuracy()
_CHOICE = ChoiceAccuracy()


def _math(prompt: str, completion: str, gold: str) -> float:
    return _MATH.evaluate([prompt], [completion], answer=[gold]).scores[0]


def _choice(prompt: str, completion: str, gold: str) -> float:
    return _CHOICE.evaluate([prompt], [completion], answer=[gold]).scores[0]


@pytest.mark.parametrize("prompt, completion, gold, paid", [
    # a sign before the box, a percent sign or a power after it: part of the value
    ("What is $27 - 12$?", "$27 - 12 = 15$.\n\n$$-\\boxed{15}$$", "15", False),
    ("Solve $x + 20 = 5$.", "$x = 5 - 20$, so $x = -\\boxed{15}$", "-15", True),
    ("A theater has 60 seats and 18 are empty. How many seats are taken?", "$60 - 18 = 42$, so $\\boxed{42}\\%$ of the seats are taken.", "42", False),
    ("What percent of 50 is 21?", "$21/50 = 0.42$, so it is $\\boxed{42}\\%$.", "42", True),
    ("A square has area 144. What is its side length?", "$s^2 = 144$, so the side is $\\boxed{12}^{2}$.", "12", False),
    ("What is $20 - 8$?", "$20 - 8 = \\boxed{12}$", "12", True),
    ("Each exterior angle of a regular 15-gon, in degrees?", "$360/15 = \\boxed{24}^\\circ$", "24", True),
    ("What is $7 - 2$?", "$7 - \\boxed{2} = 5$", "5", False),
    ("A jar has 50 marbles and 8 are red. How many are not red?", "$50 - 8 = 42$, so $\\boxed{42}!$", "42", False),
    ("A jar has 50 marbles and 8 are red. How many are not red?", "$50 - 8 = 42$, so the answer is $\\boxed{42}$!", "42", True),
    ("A jar has 50 marbles and 8 are red. How many are not red?", "$50 - 8 = 42$.\n\n$$\\frac{1}{\\boxed{42}}$$", "42", False),
    ("A jar has 50 marbles and 8 are red. How many are not red?", "$50 - 8 = 42$.\n\n$$\\sqrt{\\boxed{42}}$$", "42", False),
    ("A jar has 50 marbles and 8 are red. How many are not red?", "$50 - 8 = 42$.\n\n$$\\boxed{42}_{8}$$", "42", False),
    ("A jar has 50 marbles and 8 are red. How many are not red?", "$50 - 8 = 42$.\n\n$$\\boxed{42}\\text{ thousand}$$", "42", False),
    ("A jar has 50 marbles and 8 are red. How many are not red?", "$50 - 8 = 42$.\n\n$$\\boxed{42}\\text{ marbles}$$", "42", True),
    ("A jar has 50 marbles and 8 are red. How many are not red?", "There are $\\color{blue}{\\boxed{42}}$ marbles that are not red.", "42", True),
    # the foot and inch marks
    ("A board is 1.5 feet long. How many inches long is it?", "1.5 × 12 = 18.\n\nThe board is 18' long.", "18", False),
    ("A board is 1.5 feet long. How many inches long is it?", "1.5 × 12 = 18.\n\nThe board is 18\" long.", "18", True),
    ("How many feet are in 216 inches?", "216 ÷ 12 = 18.\n\n216 inches = 18'", "18", True),
    ("How many inches long is a 1.5-foot board?", "It is '18' inches.", "18", True),
    # an English scale word asked as the unit
    ("What were the total sales, in thousands of dollars?", "$18,000 + $24,000 = $42,000.\n\nAnswer: 42 thousand", "42", True),
    ("How many students are in the school?", "6 × 7 = 42\n\nAnswer: 42 thousand students", "42", False),
    ("What is the population, in millions?", "About 3.5 million people.\n\nAnswer: 3.5 million", "3.5", True),
    # a base or a modulus the question asks for
    ("Express the decimal number 34 in base 8.", "$34 = 4 \\cdot 8 + 2$, so $\\boxed{42_8}$.", "42", True),
    ("Express $42_8$ as a base 10 integer.", "$4 \\cdot 8 + 2 = 34$, so the answer is $\\boxed{34_8}$.", "34", False),
    ("What is the remainder when 142 is divided by 50?", "$142 \\equiv \\boxed{42 \\pmod{50}}$", "42", True),
    ("What is $4 \\times 23$?", "$4 \\times 23 = 92$. Reducing modulo 50: $\\boxed{42 \\pmod{50}}$", "92", False),
    ("What is the remainder when 2^{10} is divided by 7?", "$1024 = 146 \\cdot 7 + 2$, so $\\boxed{2 \\pmod 7}$.", "2", True),
])
def test_math_marks_that_change_or_keep_the_value(prompt, completion, gold, paid):
    assert (_math(prompt, completion, gold) == 1.0) is paid, completion


_OPTIONS = "\nA. Ohm\nB. Volt\nC. Ampere\nD. Watt\n\nAnswer with the letter."
_CELLS = ("In acute bacterial inflammation, which cell type predominates in the first 24 hours?\nA. Eosinophils\nB. Neutrophils\n"
          "C. B lymphocytes\nD. Plasma cells\n\nAnswer with the letter.")
_CRP = "Which marker rises first in acute inflammation?\nA. ESR\nB. Ferritin\nC. C-reactive protein\nD. Albumin"
_PLASMA = "Which blood type is the universal donor for plasma?\nA. O negative\nB. A positive\nC. AB\nD. B negative"


@pytest.mark.parametrize("prompt, completion, gold, paid", [
    ("What is the SI unit of resistance?" + _OPTIONS, "R = V / I, in volts per ampere: the ohm.\n\nAnswer: A'", "A", False),
    ("What is the SI unit of resistance?" + _OPTIONS, "R = V / I, in volts per ampere: the ohm.\n\nAnswer: 'A'", "A", True),
    ("What is the SI unit of resistance?" + _OPTIONS, "R = V / I, which is the ohm (Ω).\n\n**Answer: A\u0305**", "A", False),
    ("What is the SI unit of resistance?" + _OPTIONS, "R = V / I, which is the ohm (Ω).\n\n**Answer: Ā**", "A", False),
    ("What is the SI unit of resistance?" + _OPTIONS, "Resistance is measured in ohms (Ω).\n\n```\nanswer = !A\n```", "A", False),
    ("What is the SI unit of resistance?" + _OPTIONS, "Resistance is measured in ohms.\n\nFinal answer: ¬A", "A", False),
    ("What is the SI unit of resistance?" + _OPTIONS, "Resistance is measured in ohms.\n\nFinal answer: **A**", "A", True),
    ("What is the SI unit of resistance?" + _OPTIONS, "Resistance is measured in ohms.\n\nAnswer: $\\bar{A}$", "A", False),
    ("What is the SI unit of resistance?" + _OPTIONS, "Resistance is measured in ohms.\n\nAnswer: $A'$", "A", False),
    ("What is the SI unit of resistance?" + _OPTIONS, "Resistance is measured in ohms.\n\nAnswer: A₁", "A", False),
    ("What is the SI unit of resistance?" + _OPTIONS, "Resistance is measured in ohms.\n\nAnswer: A+", "A", False),
    ("What is the SI unit of resistance?" + _OPTIONS, "Resistance is measured in ohms.\n\nAnswer: $A$", "A", True),
    ("What is the SI unit of resistance?" + _OPTIONS, "Resistance is measured in ohms.\n\nAnswer: A*\n\n*SI base-derived unit.", "A", True),
    (_CELLS, "Antibodies clear encapsulated bacteria.\n\nFinal answer: B-cells.", "B", False),
    (_CELLS, "Neutrophils arrive first, within hours.\n\nFinal answer: B - neutrophils.", "B", True),
    (_CRP, "CRP rises within 6 hours.\n\nAnswer: C-reactive protein", "C", True),
    (_PLASMA, "AB plasma has neither anti-A nor anti-B, so anyone can receive it.\n\nC (AB)", "C", True),
    (_PLASMA, "AB plasma has no antibodies.\n\n$$\\boxed{\\textcolor{green}{C}}$$", "C", True),
    (_PLASMA, "AB plasma has no antibodies.\n\n$$\\boxed{\\textcolor{green}{D}}$$", "C", False),
    # (stop 63) an apostrophe before "s" is a possessive or "is", not a prime
    (_CELLS, "Neutrophils arrive first.\n\nAnswer: B's cell type fits best.", "B", True),
    (_CELLS, "Neutrophils arrive first.\n\nAnswer: B’s the one.", "B", True),
])
def test_choice_letters_with_marks(prompt, completion, gold, paid):
    assert (_choice(prompt, completion, gold) == 1.0) is paid, completion


@settings(max_examples=60, deadline=None)
@given(letter=st.sampled_from("ABCDE"), mark=st.sampled_from(["'", "′", "\u0305", "\u0304", "-cells", "-type"]),
       negation=st.sampled_from(["", "¬", "!"]))
def test_a_marked_final_letter_is_never_paid(letter, mark, negation):
    """Whatever the gold, a final answer that is an option letter with a mark or a negation sign on it pays nothing."""
    marked = negation + letter + mark
    text = f"I checked each option against the definition.\n\nFinal answer: {marked}"
    for gold in "ABCDE":
        assert _choice("Pick one.\nA. one\nB. two\nC. three\nD. four\nE. five", text, gold) != 1.0, (text, gold)


@settings(max_examples=60, deadline=None)
@given(value=st.integers(min_value=2, max_value=999), sign=st.sampled_from(["-", "\\mp "]))
def test_a_sign_before_the_box_is_never_the_positive_value(value, sign):
    """``-\\boxed{v}`` never pays the positive gold v, and ``-\\boxed{v}`` pays the negative gold -v."""
    text = f"The work gives {value}.\n\n$${sign}\\boxed{{{value}}}$$"
    assert _math("Compute it.", text, str(value)) != 1.0
    if sign == "-":
        assert _math("Compute it.", text, f"-{value}") == 1.0
