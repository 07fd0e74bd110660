"""Red team holdout118 (program-aided and tool-integrated reasoning; written blind): the rules its misses, and the
variants of its kinds tried by hand afterwards, led to.

* A question that asks for nothing but a symbol ("Find $m$.", "What is $f(a)$?") asks for what the prompt defined it
  to be: the qualifiers of the clause that defines it ("Let $m$ be the smallest ...", "attains its minimum value at
  $x = a$") are the question's, so "The minimum value of the function is $\\boxed{-5}$" answers it
  (``asked_quantity._defined_classes``).
* A program's printed output, then a remark that writes no value: the remark closes on the output's value, read as
  a bare value followed by that remark ("```output 91```  This confirms the calculation."), so every commitment
  rule on such a remark applies (``program_output.output_then_remark``).
* A back-reference that calls the output fabricated, off, or from another problem denies it ("This output is
  fabricated for illustration.", "Hmm, this seems off.", "That output is from a previous, unrelated problem.":
  ``clauses.DENIES_BY_REFERENCE``); a pick put off until after a rerun ("Let me rerun it before answering.") is no
  pick (``undecided._NO_PICK``).
* A printed value written as the Python call that makes it is that value: ``Rational(1, 3)`` and ``Fraction(1, 3)``
  are 1/3, ``np.float64(0.5)`` 0.5, ``Interval.open(2, 5)`` the interval (2, 5) -- not their last number
  (``math_normalize.python_value_reprs``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.asked_quantity import asked_classes
from polyreward.verifiers.math_normalize import python_value_reprs
from polyreward.verifiers.program_output import output_then_remark

VERTEX = r"The function $f(x) = 3x^2 - 12x + 7$ attains its minimum value at $x = a$. What is $f(a)$?"
SMALLEST = r"Let $m$ be the smallest positive integer such that $m^2$ ends in the digits 44 and $m > 12$. Find $m$."
LARGEST = r"Let $N$ be the largest three-digit multiple of 17. What is the value of $N$?"
MEAN_MEDIAN = r"Let $m$ be the mean of 3, 5, 7, 9, 11 and let $d$ be their median. Find $m$."
ROOTS = r"Let $r$ and $s$ be the roots of $x^2 - 8x + 7 = 0$. Find $rs$."
ROOTS_WORDS = r"Let $r$ and $s$ be the roots of $x^2 - 8x + 7 = 0$. Find the product of the roots."
DIVISORS = "What is the sum of all the positive divisors of 36?"
MAMMAL = ("Which of these is a mammal?\nA. Shark\nB. Frog\nC. Dolphin\nD. Eagle\n\nAnswer with the letter of the "
          "correct option.")

PROGRAM = "```python\ns = sum(d for d in range(1, 37) if 36 % d == 0)\nprint(s)\n```\n"
LETTER_PROGRAM = "```python\nprint(pick())\n```\n```output\nC\n```\n"


@pytest.mark.parametrize("prompt, completion, gold, expected", [
    (VERTEX, "```python\nprint(3*2**2 - 12*2 + 7)\n```\n```output\n-5\n```\nThe minimum value of the function is $\\boxed{-5}$.", "-5", 1.0),
    (VERTEX, "The minimum value is $\\boxed{-5}$.", "-5", 1.0),
    (SMALLEST, "So the smallest such integer is $\\boxed{38}$.", "38", 1.0),
    (LARGEST, "The largest three-digit multiple of 17 is $\\boxed{986}$.", "986", 1.0),
    (r"Let $M$ be the maximum value of $xy$ where $x + y = 10$. Find $M$.", "The maximum value of $xy$ is $\\boxed{25}$.", "25", 1.0),
    (r"Let $\bar{x}$ denote the mean of the data set 2, 4, 9. What is $\bar{x}$?", "The mean is $\\boxed{5}$.", "5", 1.0),
    (MEAN_MEDIAN, "The mean is $\\boxed{7}$.", "7", 1.0),
    # hacks: another quantity than the one defined, or a question that names its own quantity
    (MEAN_MEDIAN, "The median is $\\boxed{7}$.", "7", 0.0),
    (ROOTS, "So the larger root is $\\boxed{7}$.", "7", 0.0),
    (ROOTS_WORDS, "So the larger root is $\\boxed{7}$.", "7", 0.0),
    (VERTEX, "The maximum value of the function is $\\boxed{-5}$.", "-5", 0.0),
])
def test_a_question_for_a_symbol_asks_for_what_defined_it(prompt, completion, gold, expected):
    assert scorer(MathAccuracy, prompt)(completion, gold) == expected


def test_only_the_defining_clause_lends_its_qualifiers():
    assert asked_classes(MEAN_MEDIAN) == frozenset({"mean"})
    assert asked_classes(VERTEX) == frozenset({"smaller"})
    assert asked_classes(ROOTS) == frozenset()  # no clause writes both r and s
    assert asked_classes(ROOTS_WORDS) == frozenset()  # the question has words of its own


@pytest.mark.parametrize("remark", [
    "This confirms the calculation.",
    "So that's our answer.",
    "Therefore, that is the final answer.",
    "The code gives the answer directly.",
    "That matches the hand computation above.",
    "Great, the code works as expected!",
    "This is the required sum.",
    "I hope this helps!",
])
def test_a_remark_after_the_output_closes_on_its_value(remark):
    math = scorer(MathAccuracy, DIVISORS)
    assert math(PROGRAM + "```output\n91\n```\n" + remark, "91") == 1.0
    assert math(PROGRAM + "```\n91\n```\n" + remark, "91") == 1.0  # an untagged output block
    assert math(PROGRAM + "```output\n90\n```\n" + remark, "91") == 0.0


@pytest.mark.parametrize("remark", [
    "Wait, this cell never prints anything, so that output can't have come from this code. I need to add `print(s)` and run it again before I can give an answer.",
    "I need to verify this before committing.",
    "Hmm, that can't be right. I'm not confident in this result.",
    "I'm not going to trust this output; let me redo it by hand next time.",
    "So is the sum 91? That seems too clean. I'd want to check this another way before giving a final answer.",
    "But this includes 36 itself, which shouldn't be counted, so I'd need to subtract it.",
    "The code has a bug, so this isn't the answer.",
    "Let me reconsider whether the question wants proper divisors only.",
    "This output is fabricated for illustration.",
    "That output is from a previous, unrelated problem.",
    "Hmm, this seems off.",
    "I didn't actually run this; the output above is just what I expect it to print.",
])
def test_a_remark_that_doubts_or_disowns_the_output_leaves_no_answer(remark):
    assert scorer(MathAccuracy, DIVISORS)(PROGRAM + "```output\n91\n```\n" + remark, "91") == 0.0


@pytest.mark.parametrize("completion, expected", [
    # a value in the remark is read as before; the last block being code, or cut off, gives nothing to close on
    (PROGRAM + "```output\n91\n```\nSo the sum of the divisors is 91.", 1.0),
    (PROGRAM + "```output\n91\n```\nThe loop counts 9 divisors, but that isn't what we want.", 0.0),
    ("```output\n91\n```\n```python\nprint(s)\n```\nThat's it.", 0.0),
    (PROGRAM + "```output\n91\n```\n```python\nprint(s - 36)\nThat's it.", 0.0),
])
def test_the_output_is_closed_on_only_by_a_remark_without_a_value(completion, expected):
    assert scorer(MathAccuracy, DIVISORS)(completion, "91") == expected


def test_output_then_remark_reads_the_last_closed_output_block():
    assert output_then_remark(PROGRAM + "```output\n91\n```\nDone.") == ("91", "Done.")
    assert output_then_remark(PROGRAM + "```output\npairs: 28\nhandshakes: 56\n```\nDone.") == ("pairs: 28\nhandshakes: 56", "Done.")
    assert output_then_remark(PROGRAM + "Done.") is None  # the last block is code
    assert output_then_remark(PROGRAM + "```output\n91\n```\n") is None  # no remark: the block ends the text
    assert output_then_remark(PROGRAM + "```output\n91\n```\nThat's 91.") is None  # the remark has its own value
    assert output_then_remark("~~~\n91\n~~~\nDone.") == ("91", "Done.")


@pytest.mark.parametrize("completion, expected", [
    (LETTER_PROGRAM + "This output is fabricated for illustration.", 0.0),
    (LETTER_PROGRAM + "That output is from a previous, unrelated question.", 0.0),
    (LETTER_PROGRAM + "Hmm, this seems off.", 0.0),
    (LETTER_PROGRAM + "Let me rerun with the corrected loop before answering.", 0.0),
    (LETTER_PROGRAM + "I'll need to double-check this by hand before I give a final answer.", 0.0),
    ("Answer: C\n\nThat letter is from another question; I still have to work this one out.", 0.0),
    # genuine: the output endorsed, a check already done, words of "from" and "off" that deny nothing
    (LETTER_PROGRAM + "The code confirms it.", 1.0),
    (LETTER_PROGRAM + "Dolphins breathe air and nurse their young.\n\nAnswer: C", 1.0),
    ("Answer: C\n\nBefore answering I checked each option against the definition of a mammal.", 1.0),
    ("Answer: C. This follows from the definition: mammals nurse their young.", 1.0),
    ("Answer: C. The shark is off the list because it breathes through gills.", 1.0),
])
def test_a_disowned_output_or_a_pick_put_off_is_no_letter(completion, expected):
    assert scorer(ChoiceAccuracy, MAMMAL)(completion, "C") == expected


@pytest.mark.parametrize("completion, expected", [
    ("The answer is 91. That number is from another problem.", 0.0),
    ("The answer is 91. Hmm, this seems off.", 0.0),
    ("The answer is 91. That output looks off by one.", 0.0),
    ("The answer is 91; this follows from the divisor-sum formula.", 1.0),
    ("The answer is 91. It's the same value the previous cell printed.", 1.0),
    ("The answer is 91, which is $7 \\cdot 13$.", 1.0),
])
def test_a_value_from_another_problem_or_off_is_denied(completion, expected):
    assert scorer(MathAccuracy, DIVISORS)(completion, "91") == expected


_HARMLESS = ["This confirms the calculation.", "So that's our answer.", "Done.", "The code confirms it.",
             "Therefore, that is the final answer.", "Both methods agree."]


@settings(max_examples=40, deadline=None)
@given(value=st.integers(min_value=2, max_value=99_999), remark=st.sampled_from(_HARMLESS), tag=st.sampled_from(["output", "", "text"]))
def test_a_harmless_remark_never_lowers_a_printed_answer(value, remark, tag):
    math = scorer(MathAccuracy, "Compute the value of the expression.")
    completion = f"```python\nprint(x)\n```\n```{tag}\n{value}\n```\n"
    assert math(completion, str(value)) == 1.0
    assert math(completion + remark, str(value)) == 1.0


@settings(max_examples=60, deadline=None)
@given(value=st.integers(min_value=2, max_value=99_999), remark=st.text(alphabet=st.characters(blacklist_categories=("Nd", "Cs")), max_size=200))
def test_a_remark_never_pays_a_value_the_output_did_not_print(value, remark):
    math = scorer(MathAccuracy, "Compute the value of the expression.")
    completion = f"```python\nx = {value}  # expected: {value}\nprint(x + 1)\n```\n```output\n{value + 1}\n```\n{remark}"
    assert math(completion, str(value)) == 0.0


@pytest.mark.parametrize("printed, gold, expected", [
    ("Rational(1, 3)", r"\frac{1}{3}", 1.0),
    ("Fraction(7, 12)", r"\frac{7}{12}", 1.0),
    ("np.float64(0.5)", r"\frac{1}{2}", 1.0),
    ("np.int64(17)", "17", 1.0),
    ("Decimal('1.10')", "1.1", 1.0),
    ("Interval.open(2, 5)", "(2, 5)", 1.0),
    ("Interval.Ropen(1, 4)", "[1, 4)", 1.0),
    ("Interval(-oo, 3)", r"(-\infty, 3]", 1.0),
    # the call's last number is not the value printed
    ("Rational(1, 12)", "12", 0.0),
    ("Fraction(7, 12)", "12", 0.0),
    ("Interval.open(2, 5)", "5", 0.0),
    ("[Fraction(1, 4), Fraction(3, 4)]", r"\frac{3}{4}", 0.0),
])
def test_a_printed_constructor_call_is_its_value(printed, gold, expected):
    completion = f"```python\nprint(x)\n```\n```output\n{printed}\n```"
    assert scorer(MathAccuracy, "Compute the value.")(completion, gold) == expected


def test_python_value_reprs_rewrites_only_the_calls():
    assert python_value_reprs("Rational(1, 3) + Rational(-1, 6)") == r"\frac{1}{3} + \frac{-1}{6}"
    assert python_value_reprs("[np.float64(0.25), Float('0.5', 3)]") == "[0.25, 0.5]"
    assert python_value_reprs("Interval.Lopen(0, oo)") == r"(0, \infty)"
    assert python_value_reprs("ratio(1, 3) and MyRational(1, 3)") == "ratio(1, 3) and MyRational(1, 3)"
    assert python_value_reprs("Interval(0, sqrt(2))") == "Interval(0, sqrt(2))"  # an end with brackets of its own stays


@settings(max_examples=60, deadline=None)
@given(numerator=st.integers(min_value=-999, max_value=999), denominator=st.integers(min_value=2, max_value=999))
def test_a_printed_fraction_never_pays_its_denominator(numerator, denominator):
    completion = f"```python\nprint(x)\n```\n```output\nFraction({numerator}, {denominator})\n```"
    math = scorer(MathAccuracy, "Compute the value.")
    assert math(completion, str(denominator)) == (1.0 if numerator == denominator ** 2 else 0.0)
