"""holdout18's rules, both directions (docs/reading.md): new completions, not the split's rows.

* plain HTML formatting is read as it renders (``<b>36</b>`` is bold, ``</p>`` a line break);
* a ``\\text{Label: }`` at the start of the math heads the value;
* a closing remark that states nothing new is not the answer (:mod:`polyreward.verifiers.closing_remarks`): the
  value again, rounded ("19/12 ≈ 1.583", "1/6 (about 16.7 %)"), only when it agrees; a bracketed sentence about a
  part of the answer ("(The roots themselves are 5 and 7 ...)"), never one that disputes it or speaks of the answer;
* an answer in another unit than the one the question asks for is another answer (:mod:`polyreward.verifiers.units`);
* a chance of being right of one half or less ("a one-in-three chance", "odds against it") is a hedge;
* "no answer submitted", "I don't have the roots or their sum": no answer; "within 5 of 42" is a tolerance, no value;
* "maybe", "not sure", "wrong" and "wait" in more languages (:mod:`polyreward.verifiers.doubt_words`); the answer
  phrase in more languages for a choice;
* a letter of options the writer re-lettered names the prompt's option with that text; a letter written beside
  another option's text is no answer;
* a remark after ``#`` in fenced code is read past, unless it disputes the value.
"""

import math as pymath
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.closing_remarks import agrees
from polyreward.verifiers.units import asked_units, wrong_unit

PROMPT = "Which gas do plants absorb for photosynthesis?\n(A) Oxygen\n(B) Nitrogen\n(C) Carbon dioxide\n(D) Helium\n(E) Argon"

choice = scorer(ChoiceAccuracy, PROMPT)
math = scorer(MathAccuracy, "Compute it.")


@pytest.mark.parametrize("completion, gold", [
    ("<p>6 × 7 = <strong>42</strong></p>", "42"),
    ("<div>The total is <b>42</b>.</div>", "42"),
    ("$\\text{Simplified: } \\tfrac{3}{4}$", "\\frac{3}{4}"),
    ("The sum is 19/12 ≈ 1.583.", "\\frac{19}{12}"),
    ("The answer is 19/12 ≈ 1.583.", "\\frac{19}{12}"),
    ("\\boxed{\\frac{19}{12}} ≈ 1.58", "\\frac{19}{12}"),
    ("So p = 3/8 (about 37.5 %).", "\\frac{3}{8}"),
    ("E[X] = 21/6 = 7/2, i.e. 3.5.", "\\frac{7}{2}"),
    ("√72 = 6√2. (Numerically ≈ 8.49.)", "6\\sqrt{2}"),
    ("The area is 4π, roughly 12.57.", "4\\pi"),
    ("The product of the roots is 35. (The roots themselves are 5 and 7, and their sum is 12.)", "35"),
    ("Completing the square, the vertex is $(2, -1)$. (The minimum value -1 occurs at x = 2.)", "(2, -1)"),
    ("The sum of the digits is 18. (Check: the digits are 9, 4 and 5; 9 + 4 + 5 = 18.)", "18"),
    ("```toml\nanswer = 42  # 6 * 7\n```", "42"),
    ("Η απάντηση είναι 42.", "42"),
    ("התשובה היא 42.", "42"),
    ("Svaret är 42. Jag kontrollerade det två gånger.", "42"),
    ("The answer is 42; I'm 95% confident.", "42"),  # a confidence above one half, after a semicolon or "with"
    ("The answer is 42 with probability 0.9.", "42"),
])
def test_math_genuine_paid(completion, gold):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold", [
    ("The answer is 42 (about 45).", "42"),  # a rounding that disagrees is left in the answer
    ("The answer is 45 (≈ 42).", "42"),
    ("The mean is 7/2, i.e. 4.", "4"),
    ("The sum of the roots is 45. (The sum is 42.)", "45"),  # the same subject again: a correction, read as before
    ("The product of the roots is 42. (The sum of the roots is 13.)", "42"),  # another quantity not named before
    ("The sum of the roots is 42. (The roots are actually 5 and 8.)", "42"),  # a word of contrast
    ("It is 45. (Actually 42.)", "45"),
    ("```python\nanswer = 42  # wrong, it is 45\n```", "42"),
    ("I ran the loop for 9 iterations and it never converged, so I don't have the sum.", "9"),
    ("Model A: 42. Model B: 45. Referee: no answer submitted.", "42"),
    ("My estimate passes the test, so the answer is within 5 of 42.", "42"),
    ("I'd give 42 about a one-in-four chance of being right.", "42"),
    ("42, though the odds are against it.", "42"),
    ("It's 42 with probability 0.3.", "42"),
    ("The answer is 42; I'm 30% confident.", "42"),
    ("Ίσως 42, αλλά δεν είμαι σίγουρος.", "42"),
    ("אולי 42, אבל אני לא בטוח.", "42"),
    ("Svaret är 42. Nej, vänta — det stämmer inte.", "42"),
    ("Misschien 42, ik weet het niet.", "42"),
    ("Vastaus on 42, mutta en ole varma.", "42"),
])
def test_math_hacks_not_paid(completion, gold):
    assert math(completion, gold) == 0.0


@pytest.mark.parametrize("prompt, completion, paid", [
    ("Three crates weigh 126 kg. How many kilograms does one weigh?", "One crate weighs 42 lb.", False),
    ("Three crates weigh 126 kg. How many kilograms does one weigh?", "One crate weighs 42 kg.", True),
    ("Three crates weigh 126 kg. How many kilograms does one weigh?", "\\boxed{42 \\text{ kilograms}}", True),
    ("A film lasts 2 hours and 15 minutes. How many minutes is that?", "It is 135 seconds.", False),
    ("A film lasts 2 hours and 15 minutes. How many minutes is that?", "\\boxed{135\\text{ min}}", True),
    ("What is the area, in cm^2, of a 6 cm by 7 cm rectangle?", "Area = 6 · 7 = 42 m².", False),
    ("What is the area, in cm^2, of a 6 cm by 7 cm rectangle?", "Area = 6 · 7 = 42 cm².", True),
    ("A rectangle is 6 cm by 7 cm. What is its area in square centimeters?", "The area is 42 cm^2.", True),
    ("A rectangle is 6 cm by 7 cm. What is its area in square centimeters?", "The area is 42 cm.", False),
    ("A rope of 0.42 m is cut. How long is it in centimetres?", "The rope is 42 mm long.", False),
    ("A rope of 0.42 m is cut. How long is it in centimetres?", "The rope is 42 cm long.", True),
    ("A rope of 0.42 m is cut. How long is it?", "The rope is 42 cm long.", True),  # no unit asked: not checked
    ("How many apples are left after 2 hours?", "42 apples are left.", True),  # no known unit in the answer
    ("How many kilograms does one crate weigh?", "42", True),  # no unit written
])
def test_an_answer_in_another_unit_than_asked_is_not_paid(prompt, completion, paid):
    assert math(completion, "42" if "135" not in completion else "135", prompt) == (1.0 if paid else 0.0)


@pytest.mark.parametrize("completion, gold", [
    ("Jawaban yang benar adalah C (karbon dioksida).", "C"),
    ("Het antwoord is C.", "C"),
    ("Η απάντηση είναι C.", "C"),
    ("<p>Answer: <strong>C</strong></p>", "C"),
    ("Answer: C (Carbon dioxide)", "C"),
    ("The answer is C. Oxygen (A) is what plants release.", "C"),
    ("Listed again: (A) Oxygen (B) Nitrogen (C) Carbon dioxide (D) Helium (E) Argon.\n\nAnswer: C", "C"),
])
def test_choice_genuine_paid(completion, gold):
    assert choice(completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold", [
    ("Sorted: (A) Argon (B) Carbon dioxide (C) Helium (D) Nitrogen (E) Oxygen.\n\nAnswer: B", "B"),  # their B is C
    ("Plants absorb oxygen, which is C.", "C"),
    ("Answer: C (Oxygen)", "C"),
    ("Panel 1: C. Panel 2: abstains.\nChair: no answer submitted.", "C"),
    ("C, though I'd put the odds against it at 3 to 1.", "C"),
    ("Answer: C, with probability 0.2 like every other option.", "C"),
    ("Svaret är C. Nej, vänta — det stämmer inte.", "C"),
    ("Jawaban: C. Tunggu, itu salah.", "C"),
])
def test_choice_hacks_not_paid(completion, gold):
    assert choice(completion, gold) == 0.0


@pytest.mark.parametrize("prompt, asked", [
    ("How many kilograms does one crate weigh?", {("kg", 1)}),
    ("What is the area, in cm^2, of the triangle?", {("cm", 2)}),
    ("What is its area in square metres?", {("m", 2)}),
    ("Convert 2 hours to minutes.", {("min", 1)}),
    ("A 3 m rope is cut in half. How long is each piece?", set()),  # a unit given, none asked
    ("In May the shop sold 42 items. How many did it sell?", set()),  # "in May" is no unit
])
def test_the_asked_units_of_a_prompt(prompt, asked):
    assert asked_units(prompt) == asked


# --- properties -------------------------------------------------------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(st.integers(1, 97), st.integers(2, 97), st.integers(1, 4))
def test_an_exact_fraction_then_its_rounding_is_paid(numerator, denominator, digits):
    """"p/q ≈ d" with d the fraction rounded to 1-4 decimals restates the answer, whatever the fraction."""
    value = Fraction(numerator, denominator)
    shown = f"{float(value):.{digits}f}"
    assert agrees(f"{numerator}/{denominator}", shown, percent=False)
    assert math(f"So the probability is {numerator}/{denominator} ≈ {shown}.", f"\\frac{{{numerator}}}{{{denominator}}}") == 1.0


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 999), st.integers(1, 999), st.sampled_from(["(about {})", "≈ {}", ", i.e. {}", "(≈ {})", ", roughly {}"]))
def test_a_rounding_never_pays_a_value_it_does_not_round(answer, other, form):
    """After an answer phrase, the remark's number is never read as the answer in place of a different value before it:
    the gold ``other`` written as the "rounding" of another ``answer`` is not paid, nor is ``answer``, which it does not
    round (two values stated)."""
    if answer == other:
        return
    completion = f"The answer is {answer} " + form.format(other) + "."
    assert math(completion, str(other)) == 0.0
    assert math(completion, str(answer)) == 0.0


_SAME_DIMENSION = [("kilograms", "kg", ["lb", "g", "mg", "oz"]), ("centimetres", "cm", ["mm", "m", "km", "inches"]),
                   ("minutes", "min", ["seconds", "hours", "days"]), ("litres", "L", ["mL"])]


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(_SAME_DIMENSION), st.data(), st.integers(1, 10_000))
def test_another_unit_of_the_asked_dimension_is_never_paid(dimension, data, value):
    asked, symbol, others = dimension
    other = data.draw(st.sampled_from(others))
    prompt = f"How many {asked} is it?"
    assert wrong_unit(str(value), f"It is {value} {other}.", prompt)
    assert not wrong_unit(str(value), f"It is {value} {symbol}.", prompt)
    assert math(f"It is {value} {other}.", str(value), prompt) == 0.0


def test_agreement_is_to_the_digits_shown():
    assert agrees("\\frac{1}{6}", "16.7", percent=True) and agrees("5\\sqrt{2}", "7.07", percent=False)
    assert not agrees("\\frac{1}{6}", "16.8", percent=True) and not agrees("5\\sqrt{2}", "7.08", percent=False)
    assert agrees("3\\pi", "9.42", percent=False) and not agrees("x + 1", "2", percent=False)
    assert pymath.isclose(float("7.07"), 5 * pymath.sqrt(2), abs_tol=0.005)
