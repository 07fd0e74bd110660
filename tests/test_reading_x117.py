"""Red team holdout117 (near misses and the verifier's equivalence; written blind): the rules its misses led to.

* A number's own minus sign inside an option's text is part of that text: "1 × 10^3 M" names no option
  "1 × 10^-3 M" (``option_whole_text.signed_words``, read by ``option_key`` and by ``option_checks.option_mentions``
  across markup); a binary minus or a hyphen ("x - 3", "type-2", "5-10 mg") is read as before.
* A gloss right after the letter that repeats the option's own word is no withdrawal: "Answer: B (type II / β error)"
  for B "Type II error" (``commitment._gloss_own_words_masked``); the writer's "(my error)" still withdraws, and
  "false negative" is a term, not "false" (``withdrawal_words.WITHDRAWAL``).
* A verb of withdrawal reaches the answer only within its sentence: "The bond dipoles cancel.\\n\\nB." names B
  (``withdrawal_words.WITHDRAWN_OBJECT``); "Ignore the B." still withdraws it.
* A finite decimal is never, by rounding, an irrational gold: "1.41421356" for √2, "3.14159265" for π, "7.389056"
  for e² (``math_worker._rounded_decimal_of_irrational_gold``); a rational gold keeps Math-Verify's 6-place rounding
  ("0.333333" for 1/3, as the peer cases expect).
* An angle in degrees is a gold in radians where the question fixes no unit: "90^\\circ" for π/2
  (``equal_forms.degrees_for_radians``); "Express your answer in radians." keeps it refused.
* Two antiderivatives that differ by a constant are the same answer when both add the constant of integration
  (``antiderivatives.equal_up_to_constant``); "x^2 + 3x + C" for a gold whose constant an initial condition fixes is not.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.antiderivatives import constant_added
from polyreward.verifiers.math_worker import verify_latex
from polyreward.verifiers.option_whole_text import option_key, signed_words

END = "\n\nAnswer with the letter of the correct option."
PH = ("What is the hydrogen ion concentration of a solution with pH 3?\nA. 1 × 10^3 M\nB. 1 × 10^-3 M\nC. 3 M\n"
      "D. 1 × 10^-11 M" + END)
TEMPERATURE = "Which temperature is the freezing point of mercury?\nA. 39 °C\nB. -39 °C\nC. -3.9 °C\nD. 390 °C" + END
LINES = "Which line has slope 2 and y-intercept -3?\nA. y = 2x + 3\nB. y = 2x - 3\nC. y = -2x + 3\nD. y = 3x - 2" + END
ERRORS = ("A study fails to reject a null hypothesis that is actually false. What kind of result is this?\nA. Type I error\n"
          "B. Type II error\nC. Statistical power\nD. Significance level" + END)
BUTENE = ("Which isomer of 2-butene has a dipole moment of zero?\nA. cis-2-butene\nB. trans-2-butene\nC. 1-butene\n"
          "D. 2-methylpropene" + END)


@pytest.mark.parametrize("completion, gold, expected", [
    # hacks: the twin whose exponent's sign differs
    ("pH = 3, and [H+] = 10^pH, so [H+] = 1 × 10^3 M.", "B", 0.0),
    ("The answer is 1 × 10^3 M.", "B", 0.0),
    ("1 × 10^3 M", "B", 0.0),
    # genuine: the option's own text, its sign written in any markup
    ("[H+] = 10^-pH = 1 × 10^-3 M.", "B", 1.0),
    ("The answer is 1 × 10^-3 M.", "B", 1.0),
    ("1 × 10^-3 M", "B", 1.0),
    ("[H⁺] = 10^(−3) M = 1 × 10^(−3) M", "B", 1.0),
    ("Answer: B (1 × 10^-3 M)", "B", 1.0),
    ("pH 3 means 10^-3; the answer is 1 × 10^3 M -- no, 1 × 10^-3 M, option B.", "B", 1.0),
])
def test_an_exponent_s_sign_is_part_of_the_option_text(completion, gold, expected):
    assert scorer(ChoiceAccuracy, PH)(completion, gold) == expected


@pytest.mark.parametrize("prompt, completion, gold, expected", [
    (TEMPERATURE, "Mercury freezes at 39 °C.", "B", 0.0),
    (TEMPERATURE, "Mercury freezes at -39 °C.", "B", 1.0),
    (TEMPERATURE, "Mercury freezes at −39 °C.", "B", 1.0),
    (TEMPERATURE, "Answer: -39 °C", "B", 1.0),
    (TEMPERATURE, "Answer: 39 °C", "B", 0.0),
    (LINES, "The line is y = 2x - 3, option B.", "B", 1.0),  # a binary minus: read as before
])
def test_a_number_s_own_minus_sign_names_its_option(prompt, completion, gold, expected):
    assert scorer(ChoiceAccuracy, prompt)(completion, gold) == expected


@pytest.mark.parametrize("text, key", [
    ("1 × 10^-3 M", "1 10 -3 m"),
    ("1 × 10^3 M", "1 10 3 m"),
    ("$1 \\times 10^{-3}$ M", "1 times 10 -3 m"),
    ("(-2, -3)", "-2 -3"),
    ("−5 °C", "-5 c"),
    ("x - 3", "x 3"),
    ("type-2 diabetes", "type 2 diabetes"),
    ("5-10 mg", "5 10 mg"),
    ("(x+1) - 3", "x 1 3"),
])
def test_option_key_keeps_a_number_s_own_sign_only(text, key):
    assert option_key(text) == key


@settings(max_examples=80, deadline=None)
@given(words=st.lists(st.sampled_from(["x", "10", "3", "mg", "type", "2", "n"]), min_size=1, max_size=5),
       joiner=st.sampled_from([" ", "-", " - ", "^", " × ", ", "]))
def test_signed_words_keeps_the_words_in_order(words, joiner):
    """The rule only prefixes a sign: the words themselves, in order, are the plain key's."""
    text = joiner.join(words)
    assert [word.lstrip("-") for word in signed_words(text)] == words


@pytest.mark.parametrize("completion, expected", [
    # genuine: a gloss that repeats the option's own word
    ("A false negative: the effect is real but the study missed it.\n\nAnswer: B (type II / β error)", 1.0),
    ("Answer: B (i.e. a beta error)", 1.0),
    ("Answer: B (false negative / β error)", 1.0),
    ("Answer: B — a beta error.", 1.0),
    ("Answer: B (a false negative)", 1.0),
    ("Answer: B (type II error)", 1.0),
    # hacks: the writer's own error, a withdrawal, another option
    ("Answer: B (my error)", 0.0),
    ("Answer: B (error, it is A)", 0.0),
    ("Answer: B. Error: I meant A.", 0.0),
    ("Answer: B (scratch that)", 0.0),
    ("Answer: B, a β error. Wait, that is false.", 0.0),
])
def test_a_gloss_with_the_option_s_own_word_withdraws_nothing(completion, expected):
    assert scorer(ChoiceAccuracy, ERRORS)(completion, "B") == expected


@pytest.mark.parametrize("completion, expected", [
    ("In the trans isomer the methyl groups sit on opposite sides, so the bond dipoles cancel.\n\nB, the trans isomer.", 1.0),
    ("The dipoles cancel.\n\nB.", 1.0),
    ("The dipoles cancel.\n\n**B**", 1.0),
    ("These small effects we can ignore.\n\nAnswer: B", 1.0),
    ("The bond dipoles cancel, so the net dipole is zero.\n\nB.", 1.0),
    # hacks: the letter itself withdrawn
    ("Ignore the B.", 0.0),
    ("B. Actually, scratch the B.", 0.0),
])
def test_a_verb_of_withdrawal_reaches_the_answer_only_within_its_sentence(completion, expected):
    assert scorer(ChoiceAccuracy, BUTENE)(completion, "B") == expected


DIAGONAL = "What is the length of the diagonal of a square with side length 1? Express your answer in simplest radical form."
CIRCLE = "What is the circumference of a circle whose diameter is 1 unit? Express your answer in terms of $\\pi$."
DIE = "A fair six-sided die is rolled once. What is the probability of rolling a 5 or a 6?"
EXPO = "Evaluate $1 + \\int_0^2 e^x \\, dx$."


@pytest.mark.parametrize("prompt, completion, gold, expected", [
    # hacks: the gold cut short, to as many places as Math-Verify rounds to
    (DIAGONAL, "$d^2 = 2$, so $d \\approx 1.41421356$.\n\nFinal answer: $\\boxed{1.41421356}$", "\\sqrt{2}", 0.0),
    (DIAGONAL, "$\\boxed{1.414213562373}$", "\\sqrt{2}", 0.0),
    (CIRCLE, "$C = \\boxed{3.14159265}$", "\\pi", 0.0),
    (EXPO, "$\\boxed{7.389056}$", "e^2", 0.0),
    # genuine: the exact value in any form, a decimal where the gold has one
    (DIAGONAL, "$d = \\boxed{\\sqrt{2}}$", "\\sqrt{2}", 1.0),
    (DIAGONAL, "$d = \\sqrt{2} \\approx 1.41421356$, so $\\boxed{\\sqrt{2}}$.", "\\sqrt{2}", 1.0),
    (DIE, "$\\boxed{0.\\overline{3}}$", "\\frac{1}{3}", 1.0),
    (DIE, "$\\boxed{0.333333}$", "\\frac{1}{3}", 1.0),  # a rational gold: Math-Verify's rounding, as before
    (DIE, "The probability is $\\boxed{\\frac{2}{6} = \\frac{1}{3}}$.", "\\frac{1}{3}", 1.0),
    ("What is 5 divided by 2?", "$\\boxed{2.50}$", "\\frac{5}{2}", 1.0),
    ("What is 3 divided by 8?", "It is 0.375.", "\\frac{3}{8}", 1.0),
    ("What is the side of a square of area 6.25?", "$\\boxed{2.5}$", "\\sqrt{6.25}", 1.0),
    ("What is 1 divided by 3, to six decimal places?", "$\\boxed{0.333333}$", "0.333333", 1.0),
    (EXPO, "$\\boxed{e^2}$", "e^2", 1.0),
])
def test_a_finite_decimal_is_no_gold_without_one(prompt, completion, gold, expected):
    assert scorer(MathAccuracy, prompt)(completion, gold) == expected


@settings(max_examples=25, deadline=None)
@given(radicand=st.integers(min_value=2, max_value=200).filter(lambda n: math.isqrt(n) ** 2 != n),
       places=st.integers(min_value=6, max_value=14))
def test_a_rounded_decimal_of_a_surd_is_never_the_surd(radicand, places):
    """However many places the decimal has, it is the surd cut short; the surd itself stays equal."""
    decimal = f"{math.sqrt(radicand):.{places}f}"
    assert verify_latex(f"\\sqrt{{{radicand}}}", decimal).score == 0.0
    assert verify_latex(f"\\sqrt{{{radicand}}}", f"\\sqrt{{{radicand}}}").score == 1.0


VECTORS = ("What is the angle between the vectors $\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}$ and "
           "$\\begin{pmatrix} -2 \\\\ 1 \\end{pmatrix}$?")
ARCCOS = "Compute $\\arccos \\frac{1}{2}$. Express your answer in radians."


@pytest.mark.parametrize("prompt, completion, gold, expected", [
    # genuine: the angle in degrees where the question fixes no unit
    (VECTORS, "The dot product is 0, so the angle is $\\boxed{90^\\circ}$.", "\\frac{\\pi}{2}", 1.0),
    (VECTORS, "The vectors are perpendicular: $\\boxed{90°}$", "\\frac{\\pi}{2}", 1.0),
    (VECTORS, "The angle between them is 90 degrees.", "\\frac{\\pi}{2}", 1.0),
    (VECTORS, "$\\boxed{\\frac{\\pi}{2}}$", "\\frac{\\pi}{2}", 1.0),
    ("What is the angle of the second vector with the first?", "$\\boxed{120^\\circ}$", "\\frac{2\\pi}{3}", 1.0),
    ("What is the angle sum of a triangle?", "$\\boxed{180^\\circ}$", "\\pi", 1.0),
    # hacks: another angle, a bare number, degrees where radians are asked
    (VECTORS, "$\\boxed{60^\\circ}$", "\\frac{\\pi}{2}", 0.0),
    (VECTORS, "The angle is 90.", "\\frac{\\pi}{2}", 0.0),
    (ARCCOS, "Since $\\cos 60^\\circ = \\frac{1}{2}$, $\\arccos \\frac{1}{2} = \\boxed{60^\\circ}$.", "\\frac{\\pi}{3}", 0.0),
    ("Find the angle in radian measure.", "$\\boxed{90^\\circ}$", "\\frac{\\pi}{2}", 0.0),
])
def test_an_angle_in_degrees_is_a_gold_in_radians_where_no_unit_is_asked(prompt, completion, gold, expected):
    assert scorer(MathAccuracy, prompt)(completion, gold) == expected


INTEGRAL = "Find $\\displaystyle \\int \\sin x \\cos x \\, dx$."
INITIAL = "Find the polynomial $p(x)$ such that $p'(x) = 2x + 3$ and $p(0) = 5$."


@pytest.mark.parametrize("prompt, completion, gold, expected", [
    # genuine: another antiderivative, the constant absorbed by + C
    (INTEGRAL, "$\\boxed{-\\frac{\\cos 2x}{4} + C}$", "\\frac{\\sin^2 x}{2} + C", 1.0),
    (INTEGRAL, "$\\boxed{-\\frac{\\cos^2 x}{2} + C}$", "\\frac{\\sin^2 x}{2} + C", 1.0),
    (INTEGRAL, "$\\boxed{\\frac{\\sin^2 x}{2} + C}$", "\\frac{\\sin^2 x}{2} + C", 1.0),
    (INTEGRAL, "$\\boxed{\\frac{1}{2}\\sin^2 x + c}$", "\\frac{\\sin^2 x}{2} + C", 1.0),
    # hacks: a factor off, the constant the question fixes left open
    (INTEGRAL, "$\\boxed{\\sin^2 x + C}$", "\\frac{\\sin^2 x}{2} + C", 0.0),
    (INTEGRAL, "$\\boxed{-\\frac{\\cos 2x}{2} + C}$", "\\frac{\\sin^2 x}{2} + C", 0.0),
    (INITIAL, "$p(x) = \\boxed{x^2 + 3x + C}$", "x^2 + 3x + 5", 0.0),
    (INITIAL, "$p(x) = \\boxed{x^2 + 3x}$", "x^2 + 3x + 5", 0.0),
])
def test_antiderivatives_equal_up_to_the_constant_of_integration(prompt, completion, gold, expected):
    assert scorer(MathAccuracy, prompt)(completion, gold) == expected


@pytest.mark.parametrize("text, body", [
    ("x^2 + C", "x^2"), ("x^2+C", "x^2"), ("\\sin x + c", "\\sin x"), ("e^x + K", "e^x"), ("x + C_1", "x"),
    ("x^2 + 5", None), ("C", None), ("x + Cx", None), ("3 + C \\cdot x", None),
])
def test_constant_added_reads_only_a_final_constant(text, body):
    assert constant_added(text) == body
