"""Rules added after the ``holdout67`` red-team split (over-refusal: a correct, committed answer followed by a check,
an equivalent form or a remark about another quantity). Tables of new realistic output both ways (not the split's
rows, which stay a benchmark):

* a closing check that passes is no second value (``verifiers/closing_checks.py``): a sentence under a heading of
  checking ("Domain check:", "Both check:", "Quick check:", "Check at x = 2:") that ticks or whose equations of
  numbers all hold, and that fails nothing and concludes nothing -- read past for a value read from the last line,
  for a structured final line and for an option letter; a check that fails, concludes another value or has false
  arithmetic is read as before;
* a remark about another quantity is read past (``verifiers/remark_values.py``): a remark that opens on another way of
  doing the problem in the conditional mood, the writer not its subject ("(With a 20 % tip it would come to $15
  each.)", "(Going left to right would give 14, the usual slip.)"); an answer stated under a label of its own ("Median =
  9", "Area: 12") has a subject, so a bracket naming another quantity ("(The mean is 7.6 ...)") is no second value;
  "the mean" (the average) and "left to right" are no words that judge the answer. The same remark with the writer
  choosing its value, with the careful way as its subject, or restating the answer's own quantity, is still read;
* an equivalent form is no second value: values joined by "or" at the end of the last line that are all one number
  ("7/2, or 3.5", "3/8, or 37.5%") are that number (``answer_extraction._committed``), and a remark's decimal that is
  the answer to more places ("π ≈ 3.14 (to 2 d.p.; more precisely 3.14159…)") restates it (``remark_values``); a
  different value joined by "or", or more places that do not round to the answer, are still two answers;
* short lead-ins set off by commas before a later bare value are no words of the clause's own ("Answer: (B)\n\n
  Actually, on reflection, (D)." is no answer, as "Actually, (D)." is: ``later_values.lead_ins_only``; holdout66);
* a bracket of a few words and nothing else after the value names its form or method ("= x² − 1 (difference of
  squares)", also before a passing check): ``closing_remarks._CLOSING_ASIDE``; a bracket that hedges ("(or maybe
  not)", "(unverified)", "(I think)") is not such a bracket;
* with the prompt, a decimal and its percent in the answer sentence are one value for the givens rule
  (``givens.past_givens``): "20/80 = 0.25, so 20 is 25 % of 80." reads 25 %, a decimal that is another value does not;
* an AMC box holding the letter and its own option's value (``\\boxed{\\textbf{(C)}\\ 15}``) names that option, the AMC
  option run of the prompt read as its options (``choice._letter_from_short``, ``verify_choice``; holdout66); the letter
  with another option's value is no answer.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.closing_checks import equations_hold, passing_check_start
from polyreward.verifiers.remark_values import states_other_quantities

PROMPT = "Solve the problem."
CHOICE = ChoiceAccuracy()


def math(completion: str, gold: str, prompt: str = PROMPT) -> float:
    return MathAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0]


def choice(completion: str, gold: str, prompt: str) -> float:
    return CHOICE.evaluate([prompt], [completion], answer=[gold]).scores[0]


PRODUCT = "What is 9 × 6?\nA) 45\nB) 54\nC) 56\nD) 63"
DISCOUNT = "A $80 jacket is 25 % off. What is the sale price?\nA) $55\nB) $20\nC) $60\nD) $65"

CHECKS = [
    # a passing check after a value read from the last line: paid
    ("ln x = 0, so x = e^0 = 1. Domain check: x > 0 ✓.", "1", 1.0),
    ("x^2 - 5x + 6 = 0 factors as (x - 2)(x - 3), so x = 2 or x = 3. Both check: 4 - 10 + 6 = 0 and 9 - 15 + 6 = 0.", "2, 3", 1.0),
    ("y^2 = 16, so y = 4 or y = -4. Both check: (-4)^2 = 4^2 = 16.", "-4, 4", 1.0),
    ("|2x| = 6 gives x = 3 or x = -3. Check: |2·3| = 6 ✓, |2·(-3)| = 6 ✓.", "-3, 3", 1.0),
    ("√(x + 5) = 3, so x = 9 − 5 = 4. Quick check: √(4 + 5) = √9 = 3 ✓.", "4", 1.0),
    ("Resolviendo, x = 8. Comprobación: 8 / 2 + 1 = 5 ✓", "8", 1.0),
    ("2x + 7 = 19 gives x = 6. Verification: 2·6 + 7 = 19.", "6", 1.0),
    ("3(x - 4) = 15, so x = 9. Sanity check: 3 · 5 = 15 ✓", "9", 1.0),
    ("2^x = 32, so x = 5. Vérification : 2^5 = 32 ✓.", "5", 1.0),
    ("Die Lösung ist x = 7. Check: 3 · 7 - 1 = 20 ✓.", "7", 1.0),
    # ... and the nearby hacks: the check fails, concludes another value, or its arithmetic is false
    ("x^2 - 5x + 6 = 0, so x = 2 or x = 3. Both check: 4 - 10 + 6 = 1 and 9 - 15 + 6 = 0.", "2, 3", 0.0),
    ("2x + 7 = 19 gives x = 6. Check: 2·6 + 7 = 20 ≠ 19 ✗, so x = 6.5.", "6", 0.0),
    ("2x + 7 = 19 gives x = 6. Check: 2·6 + 7 = 19 ✓, so the answer is 7.", "6", 0.0),
    ("ln x = 0, so x = 1. Domain check: x > 0 ✓, but I'm not sure, maybe 2.", "1", 0.0),
    ("x = 6. Check: 2·6 + 7 = 19 ✓. Hmm, actually x = 8.", "6", 0.0),
]


@pytest.mark.parametrize(("completion", "gold", "expected"), CHECKS)
def test_a_passing_check_after_the_answer_is_no_second_value(completion: str, gold: str, expected: float) -> None:
    assert math(completion, gold) == expected


CHOICE_CHECKS = [
    (PRODUCT, "9 × 6 = 54 → B. Quick check: 54 ÷ 9 = 6 ✓.", "B", 1.0),
    (PRODUCT, "9 × 6 = 54, so B. Double-check: 50 + 4 = 54 ✓", "B", 1.0),
    (DISCOUNT, "25 % of 80 is 20, so the price is 80 − 20 = 60 → C. Check: 60 ÷ 80 = 0.75 ✓.", "C", 1.0),
    # the check fails and switches, or concludes another option
    (PRODUCT, "9 × 6 = 54 → B. Quick check: 54 ÷ 9 = 7 ✗ — so C.", "B", 0.0),
    (PRODUCT, "9 × 6 = 54 → B. Double-checking: 9 × 7 = 63, so D.", "B", 0.0),
    (DISCOUNT, "80 − 20 = 60 → C. Check: 60 ÷ 80 = 0.75 ✓, but the answer is D.", "C", 0.0),
]


@pytest.mark.parametrize(("prompt", "completion", "gold", "expected"), CHOICE_CHECKS)
def test_a_passing_check_after_a_letter_names_no_option(prompt: str, completion: str, gold: str, expected: float) -> None:
    assert choice(completion, gold, prompt) == expected


@settings(max_examples=60, deadline=None)
@given(a=st.integers(-30, 30), b=st.integers(-30, 30), c=st.integers(-30, 30))
def test_equations_hold_iff_the_arithmetic_is_true(a: int, b: int, c: int) -> None:
    assert equations_hold(f"{a} + {b} = {a + b}")
    assert equations_hold(f"({a})^{{2}} = {a * a}")
    assert equations_hold(f"|{a} - {b}| = {abs(a - b)} and {a} · {c} = {a * c}")
    assert not equations_hold(f"{a} + {b} = {a + b + 1}")
    assert not equations_hold(f"{a} + {b} = {a + b} and {b} · {c} = {b * c + 1}")


@settings(max_examples=60, deadline=None)
@given(x=st.integers(2, 90), shift=st.integers(1, 9), head=st.sampled_from(["Check", "Quick check", "Both check", "Domain check", "Check at x = 1"]))
def test_a_check_passes_only_when_its_arithmetic_holds(x: int, shift: int, head: str) -> None:
    good = f"So x = {x}. {head}: {x} + 1 = {x + 1}."
    bad = f"So x = {x}. {head}: {x} + 1 = {x + 1 + shift}."
    assert good[passing_check_start(good):].lstrip().startswith(head)
    assert passing_check_start(bad) is None
    assert passing_check_start(good + " So the answer is 5.") is None
    assert math(good, str(x)) == 1.0
    assert math(bad, str(x)) == 0.0


REMARKS = [
    # another way of doing the problem, in the conditional mood: paid
    ("$60 ÷ 3 = $20 each. (With a 15 % tip it would come to $23 each.)", "20", 1.0),
    ("Multiply first: 5 × 3 = 15, then 2 + 15 = 17. (Going left to right would give 21, a common slip.)", "17", 1.0),
    ("The price after the discount is 80 − 20 = 60 dollars. (Without the coupon it would cost $80.)", "60", 1.0),
    ("Reading the digits in base 10: 1 + 2 + 3 = 6. (Counting the carry twice would give 7.)", "6", 1.0),
    # another quantity beside an answer stated under its own label: paid
    ("Sorted: 2, 5, 6, 8, 14. Median = 6. (The mean is 7, pulled up by the largest value.)", "6", 1.0),
    ("Mode: 4. (The mean is 4.5 and the range is 6.)", "4", 1.0),
    ("Area = 12 cm². (The perimeter is 14 cm.)", "12", 1.0),
    # ... and the nearby hacks: the writer takes the other value, the careful way gives it, the same quantity again
    ("$60 ÷ 3 = $20 each. (With a 15 % tip it would come to $23 each, which is what I'd pay.)", "20", 0.0),
    ("Multiply first: 5 × 3 = 15, then 2 + 15 = 17. (Doing it carefully would give 21.)", "17", 0.0),
    ("Multiply first: 5 × 3 = 15, then 2 + 15 = 17. (Going left to right would give 21, which is right.)", "17", 0.0),
    ("Sorted: 2, 5, 6, 8, 14. Median = 6. (The median is 7, pulled up by the 14.)", "6", 0.0),
    ("Sorted: 2, 5, 6, 8, 14. Median = 6. (I mean 7.)", "6", 0.0),
    ("Sorted: 2, 5, 6, 8, 14. Median = 6. (The mean is 7, so I'll give 7 as the answer.)", "6", 0.0),
]


@pytest.mark.parametrize(("completion", "gold", "expected"), REMARKS)
def test_a_remark_about_another_quantity_is_read_past(completion: str, gold: str, expected: float) -> None:
    assert math(completion, gold) == expected


@settings(max_examples=60, deadline=None)
@given(answer=st.integers(2, 400), other=st.integers(2, 400), label=st.sampled_from(["Median", "Mode", "Range", "Area"]),
       remark=st.sampled_from(["the mean", "the perimeter", "the total"]))
def test_a_labelled_answer_and_a_named_other_quantity(answer: int, other: int, label: str, remark: str) -> None:
    stated = f"{label} = {answer}"
    assume(other != answer)
    assert states_other_quantities(f" ({remark.capitalize()} is {other}.)", str(answer), stated, "", lines=True) == (remark != "the total")
    assert not states_other_quantities(f" (The {label.lower()} is {answer + 1}.)", str(answer), stated, "", lines=True)


FORMS = [
    ("1/2 + 3 = 3½ — that is, 7/2, or 3.5.", "\\frac{7}{2}", 1.0),
    ("Three of the eight outcomes: 3/8, or 37.5%.", "\\frac{3}{8}", 1.0),
    ("5/4 + 1 = 9/4, or 2.25.", "\\frac{9}{4}", 1.0),
    ("π ≈ 3.14 (to 2 d.p.; more precisely 3.14159…).", "3.14", 1.0),
    ("e ≈ 2.718 (more precisely 2.71828).", "2.718", 1.0),
    ("√2 ≈ 1.41 (to 3 decimal places, 1.414).", "1.41", 1.0),
    # a different value joined by "or", more places that round elsewhere: two answers
    ("1/2 + 3 = 3½ — that is, 7/2, or 3.6.", "\\frac{7}{2}", 0.0),
    ("Three of the eight outcomes: 3/8, or 3/5.", "\\frac{3}{8}", 0.0),
    ("π ≈ 3.14 (to 2 d.p.; more precisely 3.15159…).", "3.14", 0.0),
    ("√2 ≈ 1.41 (to 3 decimal places, 1.424).", "1.41", 0.0),
]


@pytest.mark.parametrize(("completion", "gold", "expected"), FORMS)
def test_an_equivalent_form_is_no_second_value(completion: str, gold: str, expected: float) -> None:
    assert math(completion, gold) == expected


@settings(max_examples=40, deadline=None)
@given(top=st.integers(1, 40), bottom=st.sampled_from([2, 4, 5, 8, 10, 20]), shift=st.integers(1, 9))
def test_one_number_in_two_forms_joined_by_or(top: int, bottom: int, shift: int) -> None:
    from fractions import Fraction
    value = Fraction(top, bottom)
    assume(value.denominator > 1)
    decimal = f"{float(value):g}"
    gold = f"\\frac{{{value.numerator}}}{{{value.denominator}}}" if value.denominator > 1 else str(value.numerator)
    assert math(f"So the result is {value.numerator}/{value.denominator}, or {decimal}.", gold) == 1.0
    assert math(f"So the result is {value.numerator}/{value.denominator}, or {float(value) + shift:g}.", gold) == 0.0


LEAD_INS = [
    ("Answer: (B)\n\nActually, on reflection, (D).", "B", 0.0),
    ("Answer: (B)\n\nHmm, on second look, D.", "B", 0.0),
    ("Answer: B\n\nOK, after all, (E).", "B", 0.0),
    ("Answer: (B)\n\nActually, on reflection, (B).", "B", 1.0),
    ("Answer: (B)\n\nOptions A, C and D are distractors.", "B", 1.0),
]


@pytest.mark.parametrize(("completion", "gold", "expected"), LEAD_INS)
def test_lead_ins_before_a_later_letter(completion: str, gold: str, expected: float) -> None:
    assert choice(completion, gold, "Pick one.\nA) 1\nB) 2\nC) 3\nD) 4\nE) 5") == expected


def test_lead_ins_before_a_later_number() -> None:
    assert math("The answer is \\boxed{42}. Actually, on reflection, 45.", "42") == 0.0
    assert math("The answer is \\boxed{42}. Hmm, thinking again, 42.", "42") == 1.0


AMC = ("What is $3 \\times 7$?\n$\\textbf{(A)}\\ 10 \\qquad \\textbf{(B)}\\ 20 \\qquad \\textbf{(C)}\\ 21 "
       "\\qquad \\textbf{(D)}\\ 24 \\qquad \\textbf{(E)}\\ 37$")
AMC_BOXES = [
    ("$3 \\times 7 = 21$.\n\n$\\boxed{\\textbf{(C)}\\ 21}$", "C", 1.0),
    ("$\\boxed{\\textbf{(C)} \\quad 21}$", "C", 1.0),
    ("$\\boxed{(C)\\ 21}$", "C", 1.0),
    ("$\\boxed{\\textbf{(C)}}$", "C", 1.0),
    # the letter with another option's value, or with a value no option has: no answer
    ("$\\boxed{\\textbf{(C)}\\ 24}$", "C", 0.0),
    ("$\\boxed{\\textbf{(C)}\\ 22}$", "C", 0.0),
    ("$\\boxed{\\textbf{(D)}\\ 24}$", "C", 0.0),
]


@pytest.mark.parametrize(("completion", "gold", "expected"), AMC_BOXES)
def test_an_amc_box_with_its_options_value(completion: str, gold: str, expected: float) -> None:
    assert choice(completion, gold, AMC) == expected


WORD_BRACKETS = [
    ("(x + 1)(x − 1) = x² − 1 (difference of squares). Check at x = 2: 3 · 1 = 3 and 4 − 1 = 3 ✓.", "x^2-1", 1.0),
    ("(a + 3)(a − 3) = a² − 9 (a difference of two squares).", "a^2-9", 1.0),
    ("(x + 2)² = x² + 4x + 4 (perfect square).", "x^2+4x+4", 1.0),
    ("(x + 1)(x − 1) = x² − 1 (or maybe not).", "x^2-1", 0.0),
    ("(x + 1)(x − 1) = x² − 1 (unverified).", "x^2-1", 0.0),
    ("(x + 1)(x − 1) = x² + 1 (difference of squares).", "x^2-1", 0.0),
]


@pytest.mark.parametrize(("completion", "gold", "expected"), WORD_BRACKETS)
def test_a_bracket_of_words_after_an_expression(completion: str, gold: str, expected: float) -> None:
    assert math(completion, gold) == expected


PERCENT = "What percent of 60 is 15?"
GIVENS = [
    ("15/60 = 0.25, so 15 is 25 % of 60.", "25", 1.0),
    ("15/60 = 0.25, so 15 is 25% of 60. Sanity check: 25 % of 60 = 60/4 = 15 ✓.", "25", 1.0),
    ("15 is 25 % of 60.", "25", 1.0),
    ("15/60 = 0.3, so 15 is 25% of 60.", "25", 0.0),
    ("15 is 25% of 60, or 30% of 60.", "25", 0.0),
]


@pytest.mark.parametrize(("completion", "gold", "expected"), GIVENS)
def test_a_decimal_and_its_percent_are_one_value(completion: str, gold: str, expected: float) -> None:
    assert math(completion, gold, PERCENT) == expected
