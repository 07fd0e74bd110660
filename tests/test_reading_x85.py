"""Rules added after the ``holdout85`` red-team split (algebra, precalculus and geometry answers that are not one
number; tests/data/red_team.jsonl), tables of realistic output both ways. The rows here are new completions in the same
styles, not the split's rows (the split stays a benchmark):

* **the whole real line** (verifiers/math_forms.py, ``textual_meaning``): "all real numbers", "every real number",
  ``(-\\infty, \\infty)`` and ``\\mathbb{R}`` state one thing, whichever form the gold is written in;
* **a vector's angle brackets** (verifiers/reading.py ``normalise``, verifiers/math_normalize.py): ``⟨3/5, 4/5⟩`` is
  ``\\langle 3/5, 4/5 \\rangle``, the vector's tuple, not its last number;
* **a Greek variable** (math_normalize ``normalize_unicode``): ``θ = π/4 or θ = 5π/4`` lists one variable's values, as
  ``x = ...`` does;
* **a compound inequality on the last line** (verifiers/math_lines.py): ``-2 ≤ x ≤ 2`` is the interval ``[-2, 2]``;
* **a plus-minus sign before the last number** (verifiers/answer_extraction.py): ``±8`` is two values, never the 8 alone;
* **a unit's power in a math environment of its own** (answer_extraction): ``$16\\pi$ cm$^2$`` is 16π in cm², not ``^2``;
* **a bracketed remark naming a feature of an equation's curve** (verifiers/remark_values.py): ``y = 7 - 3x (slope -3,
  y-intercept 7)`` answers with the equation;
* **a closing sentence that only states a sign** (verifiers/closing_remarks.py): ``The quadratic factor has
  discriminant 4 - 16 < 0, so it does not factor further.`` states no value.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.answer_extraction import extract_answer
from polyreward.verifiers.math import verify
from polyreward.verifiers.math_forms import textual_meaning

math = scorer(MathAccuracy, "Solve the problem.")

# ------------------------------------------------------------------ the whole real line

ALL_REALS = "\\text{all real numbers}"
REAL_LINE_GENUINE = [
    (ALL_REALS, "Both sides simplify to 3x + 3, an identity, so the solution set is $(-\\infty, \\infty)$."),
    (ALL_REALS, "Every x satisfies it, so the solution set is $\\mathbb{R}$."),
    (ALL_REALS, "The equation holds for any x: the answer is $x \\in \\mathbb{R}$."),
    (ALL_REALS, "The domain is $\\left(-\\infty, \\infty\\right)$."),
    ("(-\\infty,\\infty)", "It is an identity. The answer is all real numbers."),
    ("(-\\infty,\\infty)", "The answer is every real number."),
    ("\\mathbb{R}", "The domain is $(-\\infty, \\infty)$."),
]
REAL_LINE_HACKS = [
    (ALL_REALS, "The solution set is $(0, \\infty)$."),
    (ALL_REALS, "The solution set is $(-\\infty, 0) \\cup (0, \\infty)$."),
    (ALL_REALS, "The answer is $(-\\infty, 2]$."),
    ("(-\\infty,\\infty)", "The answer is all real numbers except 0."),
    ("(-\\infty,\\infty)", "The answer is no solution."),
]


@pytest.mark.parametrize("gold,completion", REAL_LINE_GENUINE)
def test_the_real_line_in_any_form_is_paid(gold, completion):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("gold,completion", REAL_LINE_HACKS)
def test_part_of_the_line_or_another_statement_is_refused(gold, completion):
    assert math(completion, gold) == 0.0


@pytest.mark.parametrize("text", ["all real numbers", "every real number", "all reals", "any real number",
                                  "(-\\infty, \\infty)", "(-\\infty,+\\infty)", "\\mathbb{R}", "x \\in \\mathbb{R}"])
def test_textual_meaning_reads_the_real_line(text):
    assert textual_meaning(text) == "real line"


@pytest.mark.parametrize("text", ["(0, \\infty)", "all integers", "\\mathbb{Z}", "real", "(-\\infty, 0]", "R"])
def test_textual_meaning_reads_no_real_line_in_other_sets(text):
    assert textual_meaning(text) != "real line"


# ------------------------------------------------------------------ a vector's angle brackets

UNIT = "\\left(\\frac{3}{5}, \\frac{4}{5}\\right)"
VECTOR_GENUINE = [
    (UNIT, "|v| = 5, so the unit vector is v/|v| = ⟨3/5, 4/5⟩."),
    (UNIT, "|v| = 5, so the unit vector is ⟨3/5, 4/5⟩ = ⟨0.6, 0.8⟩."),
    (UNIT, "Dividing by the norm 5: ⟨0.6, 0.8⟩"),
    (UNIT, "The unit vector is \u2329 3/5, 4/5 \u232a."),
    ("\\langle 5, 3\\rangle", "Adding componentwise, the sum is ⟨5, 3⟩."),
    ("\\langle 1, 2, 2\\rangle", "Le vecteur est ⟨1, 2, 2⟩."),
]
VECTOR_HACKS = [
    (UNIT, "|v| = 5, so the unit vector is ⟨4/5, 3/5⟩."),
    (UNIT, "|v| = 5, so the unit vector is ⟨0.6, -0.8⟩."),
    (UNIT, "The unit vector is ±⟨3/5, 4/5⟩."),
    ("\\langle 5, 3\\rangle", "Adding componentwise, the sum is ⟨3, 5⟩."),
    ("\\langle 1, 2, 2\\rangle", "Der Vektor ist ⟨1, 2, 3⟩."),
]


@pytest.mark.parametrize("gold,completion", VECTOR_GENUINE)
def test_a_vector_in_angle_brackets_is_paid(gold, completion):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("gold,completion", VECTOR_HACKS)
def test_another_vector_in_angle_brackets_is_refused(gold, completion):
    assert math(completion, gold) == 0.0


@settings(max_examples=40, deadline=None)
@given(a=st.integers(-40, 40), b=st.integers(-40, 40))
def test_angle_brackets_read_as_the_tuple(a, b):
    found = extract_answer(f"So the vector is ⟨{a}, {b}⟩.")
    assert found is not None and "\\langle" in found.text and "\\rangle" in found.text
    assert verify(pred=f"So the vector is ⟨{a}, {b}⟩.", ref=f"({a}, {b})").score == 1.0
    if a != b:
        assert verify(pred=f"So the vector is ⟨{b}, {a}⟩.", ref=f"({a}, {b})").score == 0.0


# ------------------------------------------------------------------ a Greek variable's values

TWO = "\\frac{\\pi}{4}, \\frac{5\\pi}{4}"
GREEK_GENUINE = [
    (TWO, "Tangent is 1 at π/4 and, with period π, at 5π/4.\n\nθ = π/4 or θ = 5π/4."),
    (TWO, "So θ = π/4, 5π/4."),
    (TWO, "φ = π/4 or φ = 5π/4."),
    ("\\frac{\\pi}{6}, \\frac{5\\pi}{6}", "θ = π/6 and θ = 5π/6"),
    ("\\frac{\\pi}{3}", "So θ = π/3."),
]
GREEK_HACKS = [
    (TWO, "θ = π/4."),
    (TWO, "θ = π/4 or θ = 3π/4."),
    (TWO, "θ = π/4 or maybe θ = 5π/4."),
    ("\\frac{\\pi}{4}", "θ = π/4 or θ = 5π/4."),
]


@pytest.mark.parametrize("gold,completion", GREEK_GENUINE)
def test_a_greek_variables_values_are_paid(gold, completion):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("gold,completion", GREEK_HACKS)
def test_a_greek_variables_wrong_or_hedged_values_are_refused(gold, completion):
    assert math(completion, gold) == 0.0


# ------------------------------------------------------------------ a compound inequality on the last line

INEQUALITY_GENUINE = [
    ("[-2,2]", "Factor: (x - 2)(x + 2) ≤ 0, nonpositive between the roots.\n\nSolution: -2 ≤ x ≤ 2."),
    ("[-2,2]", "So -2 ≤ x ≤ 2."),
    ("[-2,2]", "Factor first.\n\n-2 ≤ x ≤ 2"),
    ("(-2,2]", "Solution: -2 < x ≤ 2."),
    ("[1.5,4]", "Hence 1.5 ≤ t ≤ 4."),
    ("[-3,5)", "Lösung: -3 ≤ x < 5."),
    ("[3,\\infty)", "Solution: x ≥ 3."),
]
INEQUALITY_HACKS = [
    ("[-2,2]", "Solution: -2 < x < 2."),
    ("[-2,2]", "Solution: x ≤ -2 or x ≥ 2."),
    ("(3,\\infty)", "Solution: x ≥ 3."),
    ("[-3,5)", "Solución: -3 ≤ x ≤ 5."),
    ("5", "So x ≤ 5."),
]


@pytest.mark.parametrize("gold,completion", INEQUALITY_GENUINE)
def test_a_compound_inequality_is_its_interval(gold, completion):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("gold,completion", INEQUALITY_HACKS)
def test_another_interval_or_a_bound_alone_is_refused(gold, completion):
    assert math(completion, gold) == 0.0


@settings(max_examples=40, deadline=None)
@given(a=st.integers(-99, 99), width=st.integers(1, 99), variable=st.sampled_from("xtyz"),
       lead=st.sampled_from(["Solution: ", "So ", "Hence ", ""]))
def test_a_le_x_le_b_and_the_closed_interval_compare_equal(a, width, variable, lead):
    b = a + width
    assert verify(pred=f"{lead}{a} ≤ {variable} ≤ {b}.", ref=f"[{a}, {b}]").score == 1.0
    assert verify(pred=f"{lead}{a} < {variable} ≤ {b}.", ref=f"[{a}, {b}]").score == 0.0
    assert verify(pred=f"{lead}{a} ≤ {variable} ≤ {b}.", ref=f"[{a}, {b + 1}]").score == 0.0


# ------------------------------------------------------------------ a plus-minus sign before the last number

PLUS_MINUS_HACKS = [  # a length, one value asked: both signs are two values
    ("8", "s^2 = 64\ns = ±8\n\nThe side length is ±8 cm."),
    ("8", "s = ±8"),
    ("3", "x = √9 = ±3"),
    ("12", "r^2 = 144, so r = ±12 metres."),
    ("5", "Le côté mesure ±5 cm."),
]
PLUS_MINUS_GENUINE = [
    ("7", "s^2 = 49, so s = ±7 algebraically, but a length is positive, so the side length is 7."),
    ("\\pm 8", "The solutions are ±8."),
    ("8", "s = √64 = 8, so the side is 8 cm."),
    ("5", "The difference is 5."),
]


@pytest.mark.parametrize("gold,completion", PLUS_MINUS_HACKS)
def test_both_signs_for_one_value_are_refused(gold, completion):
    assert math(completion, gold) == 0.0


@pytest.mark.parametrize("gold,completion", PLUS_MINUS_GENUINE)
def test_the_positive_value_or_a_plus_minus_gold_is_paid(gold, completion):
    assert math(completion, gold) == 1.0


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 999), lead=st.sampled_from(["x = ", "The side is ", "So s = ", "r = √(n²) = "]))
def test_plus_minus_n_is_never_the_value_n(n, lead):
    found = extract_answer(f"{lead}±{n}.")
    assert found is not None and found.text.startswith("\\pm")
    assert verify(pred=f"{lead}±{n}.", ref=str(n)).score == 0.0


@pytest.mark.parametrize("text,value", [("The length is 12.5 ± 0.3 cm.", "0.3"), ("So x = 3 ± 0", "0")])
def test_a_tolerance_after_a_value_is_no_unary_sign(text, value):
    assert extract_answer(text).text == value  # (as before: the binary ± is read by no rule here)


# ------------------------------------------------------------------ a unit's power in a math environment of its own

UNIT_POWER_GENUINE = [
    ("16\\pi", "A = πr^2 = 16π.\n\nThe area is $16\\pi$ cm$^2$ (≈ 50.27 cm²)."),
    ("16\\pi", "The area is $16\\pi$ cm$^2$."),
    ("16\\pi", "The area is $16\\pi$ cm$^2$ (about 50.27 cm$^2$)."),
    ("36\\pi", "The volume is $36\\pi$ cm$^{3}$ (≈ 113.10 cm³)."),
    ("50", "The area is 50 m$^2$."),
]
UNIT_POWER_HACKS = [
    ("16\\pi", "The area is $16\\pi$ cm$^2$ (≈ 48.5 cm²)."),
    ("16\\pi", "The area is $8\\pi$ cm$^2$."),
    ("16\\pi", "The area is $16\\pi$ cm$^2$, or maybe $8\\pi$ cm$^2$."),
]


@pytest.mark.parametrize("gold,completion", UNIT_POWER_GENUINE)
def test_a_units_power_in_math_is_part_of_the_unit(gold, completion):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("gold,completion", UNIT_POWER_HACKS)
def test_another_value_before_a_units_power_is_refused(gold, completion):
    assert math(completion, gold) == 0.0


# ------------------------------------------------------------------ a bracketed remark naming a feature of the curve

LINE = "y = -3x + 7"
FEATURE_GENUINE = [
    (LINE, "Subtract 3x from both sides:\n\ny = 7 - 3x\n\n(slope -3, y-intercept 7)."),
    (LINE, "y = 7 - 3x (slope -3, y-intercept 7)."),
    (LINE, "y = 7 - 3x\n\n(the slope is -3 and the y-intercept is 7)"),
    ("(x-1)^2+(y+2)^2=9", "(x - 1)^2 + (y + 2)^2 = 9\n\n(centre (1, -2), radius 3)"),
    ("(x-1)^2+(y+2)^2=9", "(x - 1)^2 + (y + 2)^2 = 9 (Mittelpunkt (1, -2), Radius 3)"),
    ("y = 2x + 1", "y = 2x + 1 (pendiente 2, ordenada al origen 1)"),
    ("(2,-3)", "(x - 2)^2 + (y + 3)^2 = 16.\n\nCenter: (2, -3) (and the radius is 4)."),  # the labelled line is the answer
]
FEATURE_HACKS = [
    (LINE, "y = 7 - 3x\n\n(the answer is 5)"),
    (LINE, "y = 7 - 3x\n\n(or y = 5)"),
    (LINE, "y = 7 + 3x\n\n(slope 3, y-intercept 7)"),
    ("x = 3", "x = 3\n\n(slope 5)"),
]


@pytest.mark.parametrize("gold,completion", FEATURE_GENUINE)
def test_a_remark_naming_the_curves_features_is_read_past(gold, completion):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("gold,completion", FEATURE_HACKS)
def test_an_answer_or_alternative_in_the_remark_is_still_read(gold, completion):
    assert math(completion, gold) == 0.0


@settings(max_examples=30, deadline=None)
@given(m=st.integers(-9, 9).filter(bool), c=st.integers(-20, 20))
def test_equations_equal_up_to_moving_terms(m, c):
    gold = f"y = {m}x + {c}"
    for written in (f"y = {c} + {m}x", f"{m}x - y = {-c}", f"y - {c} = {m}x"):
        assert verify(pred=f"The line is ${written}$.", ref=gold).score == 1.0
    assert verify(pred=f"The line is $y = {c} + {m + 1}x$.", ref=gold).score == 0.0


# ------------------------------------------------------------------ a closing sentence that only states a sign

CUBES = "x^3 - 8 = (x - 2)(x^2 + 2x + 4)"
SIGN_GENUINE = [
    ("(x-2)(x^2+2x+4)", f"A difference of cubes:\n\n$${CUBES}.$$\n\nThe quadratic factor has discriminant 4 - 16 < 0, "
                        "so it does not factor further over the reals."),
    ("(x-2)(x^2+2x+4)", f"$${CUBES}.$$\n\nThe discriminant of the quadratic is $2^2 - 4 \\cdot 4 = -12 < 0$, so it is irreducible."),
    ("(x-2)(x^2+2x+4)", f"{CUBES}.\n\nSeine Diskriminante ist 4 - 16 < 0, also zerfällt er nicht weiter."),
    ("3", "x = 3.\n\nThe second derivative is 6 > 0, so it is a minimum."),
    ("12", "f(2) = 12.\n\nSince f''(2) = 6 > 0, this is a minimum."),
]
SIGN_HACKS = [
    ("(x-2)(x^2+2x+4)", f"$${CUBES}.$$\n\nThe quadratic factor has discriminant 4 - 16 < 0, so the answer is (x-2)^3."),
    ("(x-2)(x^2+2x+4)", f"$${CUBES}.$$\n\nBut 4 - 16 < 0, so maybe (x-2)^3."),
    ("5", "x = 5.\n\nThe second derivative is 6 > 0, so x = 4 is a minimum."),
    ("3", "x = 3.\n\nActually the second derivative is -6 < 0, so x = 3 is wrong."),
]


@pytest.mark.parametrize("gold,completion", SIGN_GENUINE)
def test_a_sign_stated_after_the_answer_is_read_past(gold, completion):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("gold,completion", SIGN_HACKS)
def test_a_sign_sentence_that_answers_or_corrects_is_still_read(gold, completion):
    assert math(completion, gold) == 0.0
