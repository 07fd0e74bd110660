"""Readings added after holdout63 (quantitative answers to science, engineering, finance and medicine word problems;
written blind):

* the unit and number grammar (:mod:`polyreward.verifiers.units`, :mod:`.math_normalize`): a unit with a negative
  power and SI's spaced products ("2.7 g cm⁻³", "3 m s⁻¹", "8.31 J mol⁻¹ K⁻¹") are the value's unit, never a value
  or an expression; "M" (molar) is a one-letter unit; a middle dot before a power of ten is scientific notation
  ("3.2·10⁻⁴ A");
* one value in two equal forms (:mod:`polyreward.verifiers.equal_forms`): a closing rounding of the answer to the
  gold's decimal places ("8.04672 km ≈ 8.05 km"), the answer in the gold's unit up to its SI prefix ("250 kPa" for
  2.5 × 10⁵ Pa), a chain that rounds with "=" ("1.01^12 - 1 = 1.126825 - 1") is no false equation;
* a percent sign set apart by a space restates a given's sentence's value ("about 2.28 % of people have an IQ above
  130": :mod:`.givens`), and a quantity named in apposition ("(a deceleration of 2.5 m/s²)") is another quantity
  (:mod:`.remark_values`);
* choice: two letters each under its own bracketed condition ("C (kelvin) or B (Celsius)") and a range of options
  as the answer ("between B and D, most likely C") are no pick (:mod:`.undecided`).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.units import si_unit

MATH = MathAccuracy()


def math(completion: str, gold: str, prompt: str = "") -> float:
    return MATH.evaluate([prompt], [completion], answer=[gold]).scores[0]


def choice(completion: str, gold: str, prompt: str) -> float:
    return ChoiceAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0]


# --- the unit and number grammar ----------------------------------------------------------------------------------

@pytest.mark.parametrize("completion, gold", [
    ("ρ = m/V = 27 g / 10 cm³ = 2.7 g cm⁻³\n\n(That's consistent with aluminium.)", "2.7"),
    ("ρ = 2.7 g·cm⁻³", "2.7"),
    ("The density is 2.7 g cm^-3.", "2.7"),
    ("v = 12 m / 4 s = 3 m s⁻¹", "3"),
    ("R = 8.31 J mol⁻¹ K⁻¹", "8.31"),
    ("The rate constant is k = 0.023 min⁻¹.", "0.023"),
    ("Molarity = 0.50 mol / 0.250 L = 2.0 mol/L\n\nThe solution is **2.0 M**.", "2"),
    ("Answer: 0.15 M", "0.15"),
    ("I = Q / t = (9.6 × 10⁻³ C) / (30 s) = 3.2·10⁻⁴ A\n\nThe average current is 3.2·10⁻⁴ A.", "3.2 \\times 10^{-4}"),
    ("The current is 3.2 · 10^{-4} A.", "3.2 \\times 10^{-4}"),
    ("The current is 3.2 × 10⁻⁴ amperes.", "3.2 \\times 10^{-4}"),
    ("s = 1,5 · 10⁹ m\n\nAntwort: 1,5 · 10⁹ m", "1.5\\times10^{9}"),  # a German decimal comma (holdout39)
])
def test_a_value_with_its_unit_or_in_scientific_notation_is_paid(completion, gold):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold", [
    ("The density is 2.7 g cm⁻³.", "3"),  # the unit's power is no value
    ("The density is 2.7 g cm⁻³.", "-3"),
    ("The density is 2.7 g cm⁻³, not 2.8 g cm⁻³.", "2.8"),
    ("The density is 2.7 g cm⁻³. No wait, 2.8 g cm⁻³.", "2.7"),  # a later value in the same unit still replaces it
    ("R = 8.31 J mol⁻¹ K⁻¹", "-1"),
    ("The solution is **2.0 M**.", "0.002"),
    ("The current is 3.2·10⁻⁴ A.", "3.2 \\times 10^{-3}"),  # off by a power of ten
    ("The current is 3.2 × 10⁻⁴ amperes.", "10^{-4}"),  # the power alone is not the value
    ("Collecting terms: 2 a b", "2"),  # letters without a negative power are variables, not a spaced unit
    ("The result is 2 x^{-1}", "2"),
])
def test_another_value_or_an_expression_is_refused(completion, gold):
    assert math(completion, gold) == 0.0


_SI = st.sampled_from(["g cm⁻³", "m s⁻¹", "m s⁻²", "kg m⁻³", "J mol⁻¹ K⁻¹", "mol L⁻¹", "g·cm⁻³", "N m⁻²", "W m^{-2}"])


@settings(max_examples=60, deadline=None)
@given(_SI, st.integers(1, 9999), st.integers(0, 9))
def test_a_spaced_si_unit_after_the_value_never_changes_its_reading(unit, whole, tenth):
    value = f"{whole}.{tenth}"
    assert math(f"From the data given.\n\nThe result is {value} {unit}.", value) == 1.0
    assert math(f"From the data given.\n\nThe result is {value} {unit}.", f"{whole + 1}.{tenth}") == 0.0


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9), st.integers(0, 9), st.integers(-12, 12), st.sampled_from(["·", " · ", " × "]), st.sampled_from(["", " A", " mol", " amperes"]))
def test_scientific_notation_with_a_dot_or_a_cross_is_one_number(lead, tenth, power, dot, unit):
    written = f"{lead}.{tenth}{dot}10^{{{power}}}{unit}"
    assert math(f"The value is {written}.", f"{lead}.{tenth} \\times 10^{{{power}}}") == 1.0
    assert math(f"The value is {written}.", f"{lead}.{tenth} \\times 10^{{{power + 1}}}") == 0.0


# --- one value in two equal forms ---------------------------------------------------------------------------------

@pytest.mark.parametrize("completion, gold, prompt", [
    ("5 mi × 1.609344 km/mi = 8.04672 km ≈ 8.05 km", "8.05", "Convert 5 miles to km. Round to the nearest hundredth."),
    ("5 mi × 1.609344 km/mi = 8.04672 km ≈ 8.05 km", "8.04672", ""),  # the exact value is still the answer
    ("PV = 10,000 / (1.05)^2 = 10,000 / 1.1025 ≈ $9,070.29", "9070.29", ""),
    ("= 0.2/9.8 × 100% ≈ 2.04%\n\nTo the nearest tenth of a percent: ≈ 2.0%", "2.0\\%", ""),
    ("EAR = (1 + 0.12/12)^12 − 1 = 1.01^12 − 1 = 1.126825 − 1 = 0.126825\n\nEAR ≈ 12.68%", "12.68\\%", ""),
    ("t = √(2h/g) = √(20/9.8) = 1.4286 s ≈ 1.43 s", "1.43", ""),
    ("Le volume vaut 3,14159 L ≈ 3,14 L", "3.14", ""),
    ("p = F/A = 5000 N / 0.02 m² = 250,000 Pa\n\np = 250 kPa", "2.5 \\times 10^{5}\\ \\text{Pa}", "What pressure does it exert?"),
    ("P = 1500 W", "1.5\\text{ kW}", "What power does the motor deliver?"),
    ("The mass is 4500 g.", "4.5\\text{ kg}", "How heavy is the block?"),
    ("The concentration is 2000 mmol/L.", "2\\text{ mol/L}", ""),
    ("The wavelength is 550 nm.", "5.5 \\times 10^{-7}\\ \\text{m}", ""),
    ("F = ma = 9 kg × 5 m/s² = 45 N\n\nThe force is 45 N.", "45\\,\\text{N}", ""),  # the gold's very unit
    ("E = 4500 J = 4.5 kJ", "4.5\\text{ kJ}", ""),
])
def test_the_answer_in_the_golds_form_is_paid(completion, gold, prompt):
    assert math(completion, gold, prompt) == 1.0


@pytest.mark.parametrize("completion, gold, prompt", [
    ("5 mi × 1.609344 km/mi = 8.14672 km ≈ 8.15 km", "8.05", ""),  # another value, rounded
    ("x = 8.1 ≈ 8.15", "8.05", ""),  # neither form is the gold
    ("x = 7.07 ≈ 7", "7", ""),  # a gold with no decimal point is exact
    ("Either 8.04 or 8.05 km", "8.05", ""),
    ("6.67 m or 6.7 m — take your pick", "6.7", ""),
    ("The answer is 2 + 2 = 5", "5", ""),  # a false equation stays one
    ("The energy is 4500 J.", "4.5\\text{ kJ}", "What is the energy in kJ?"),  # not the prefix the prompt asks for
    ("The energy is 4500 cal.", "4.5\\text{ kJ}", ""),  # another unit, not another prefix
    ("p = 25 kPa", "2.5 \\times 10^{5}\\ \\text{Pa}", ""),  # off by a power of ten
    ("p = 250 kPa or 300 kPa", "2.5 \\times 10^{5}\\ \\text{Pa}", ""),
    ("p = 250 kJ", "2.5 \\times 10^{5}\\ \\text{Pa}", ""),
    ("The energy is 4.5 J.", "4.5\\text{ kJ}", ""),  # the gold's number with another prefix: another value
    ("The force is 45 kN.", "45\\,\\text{N}", ""),
    ("The concentration is 2.0 mmol/L.", "2\\text{ mol/L}", ""),
    ("The force is 46 N.", "45\\,\\text{N}", ""),
])
def test_another_value_beside_a_form_of_the_gold_is_refused(completion, gold, prompt):
    assert math(completion, gold, prompt) == 0.0


@settings(max_examples=60, deadline=None)
@given(st.integers(100000, 9999999), st.integers(1, 3))
def test_a_closing_rounding_pays_the_gold_rounded_to_its_places(digits, places):
    exact = digits / 10 ** 5  # five decimal places
    rounded = f"{exact:.{places}f}"
    assert math(f"x = {exact:.5f} ≈ {rounded}", rounded) == 1.0
    off = f"{float(rounded) + 2 * 10 ** -places:.{places}f}"
    assert math(f"x = {exact:.5f} ≈ {rounded}", off) == 0.0  # neither the answer nor its rounding


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 999), st.sampled_from([("k", 3), ("M", 6), ("m", -3), ("µ", -6)]), st.sampled_from(["Pa", "W", "J", "g", "m", "A"]))
def test_a_prefixed_unit_converts_to_the_golds_unit(value, prefix, base):
    symbol, power = prefix
    gold = f"{value} \\times 10^{{{power}}}\\ \\text{{{base}}}"
    assert si_unit(symbol + base) is not None
    assert math(f"The result is {value} {symbol}{base}.", gold) == 1.0
    assert math(f"The result is {value} {symbol}{base}.", f"{value} \\times 10^{{{power + 1}}}\\ \\text{{{base}}}") == 0.0
    assert math(f"The result is {value} {symbol}{base}.", f"{value}\\ \\text{{{base}}}") == 0.0  # the number, another prefix
    assert math(f"The result is {value} {base}.", f"{value}\\ \\text{{{base}}}") == 1.0


# --- a percent set apart, a quantity in apposition ----------------------------------------------------------------

IQ = ("IQ scores are normally distributed with mean 100 and standard deviation 15. Given that P(Z < 2) = 0.9772, what is "
      "the probability that a randomly chosen person has an IQ above 130?")


@pytest.mark.parametrize("completion, gold, prompt", [
    ("P(X > 130) = 1 − 0.9772 = 0.0228\n\nSo about 2.28 % of people have an IQ above 130.", "0.0228", IQ),
    ("P(X > 130) = 0.0228\n\nSo 2.28 % of people score above 130.", "0.0228", IQ),
    ("a = (0 − 25)/10 = −2.5 m/s²\n\nThe acceleration is −2.5 m/s² (a deceleration of 2.5 m/s²).", "-2.5", ""),
    ("ΔT = 16 − 20 = −4 °C\n\nThe change in temperature is −4 °C (a drop of 4 °C).", "-4", ""),
    ("The new price is $36 (a discount of $4).", "36", ""),
])
def test_the_value_beside_a_given_or_an_apposition_is_paid(completion, gold, prompt):
    assert math(completion, gold, prompt) == 1.0


@pytest.mark.parametrize("completion, gold, prompt", [
    ("So about 2.28 % or 4.56 % of people have an IQ above 130.", "0.0228", IQ),
    ("So about 4.56 % of people have an IQ above 130.", "0.0228", IQ),
    ("The acceleration is 2.5 m/s² (a deceleration of 2.5 m/s²).", "-2.5", ""),  # the sign is the answer's own
    ("The acceleration is −2.5 m/s² (an acceleration of 3 m/s²).", "-2.5", ""),  # the answer's own quantity again
    ("The acceleration is −2.5 m/s² (or a deceleration of 3 m/s²).", "-2.5", ""),
    ("The total is 12 (a total of 13).", "12", ""),
])
def test_another_value_of_the_answer_is_refused(completion, gold, prompt):
    assert math(completion, gold, prompt) == 0.0


# --- choice: letters under bracketed conditions, a range of options -----------------------------------------------

GAS = ("A gas at 300 K and 1.0 atm is heated at constant volume to 450 K. What is the new pressure?\n\nA. 0.67 atm\n"
       "B. 1.0 atm\nC. 1.5 atm\nD. 2.0 atm\nE. 4.5 atm\n\nAnswer with the letter of the correct option.")


@pytest.mark.parametrize("completion", [
    "P₂ = 1.0 × 450/300 = 1.5 atm → C.\n\nIf those were °C, ≈ 1.26 atm, closest to B.\n\nAnswer: C (kelvin) or B (Celsius).",
    "Answer: C (if kelvin) or B (if Celsius).",
    "Answer: C (1.5 atm) or B (1.0 atm).",
    "Réponse : C (kelvin) or B (Celsius).",
    "ln 2/ln 1.03 ≈ 23.4, so roughly C.\n\nAnswer: between B and D, most likely C.",
    "Answer: somewhere from B to D, most likely C.",
    "The answer is anywhere from B through D; C if I had to pick.",
])
def test_two_letters_under_conditions_or_a_range_of_options_is_refused(completion):
    assert choice(completion, "C", GAS) == 0.0


@pytest.mark.parametrize("completion", [
    "P₂ = 1.0 × 450/300 = 1.5 atm → C.\n\nAnswer: C (kelvin, as given).",
    "Answer: C (1.5 atm).",
    "Answer: C (1.5 atm), not B (1.0 atm).",
    "I considered B (1.0 atm) or C (1.5 atm). The answer is C.",  # the alternatives weighed before the answer
    "Answer: C, which lies between B and D.",
    "Answer: C. It is between B and D in magnitude.",
    "Between B and D, I first leaned to D.\n\nAnswer: C",
    "Either way, ≈ 1.5 atm → C",
])
def test_one_letter_with_its_gloss_or_a_range_before_the_answer_is_paid(completion):
    assert choice(completion, "C", GAS) == 1.0


@settings(max_examples=40, deadline=None)
@given(st.sampled_from("ABDE"), st.sampled_from(["kelvin", "1.5 atm", "if in K", "gauge"]), st.sampled_from(["Celsius", "1.0 atm", "if in °C", "absolute"]))
def test_the_chosen_letter_beside_another_under_its_own_condition_is_never_paid(other, gloss, other_gloss):
    assert choice(f"Answer: C ({gloss}) or {other} ({other_gloss}).", "C", GAS) == 0.0
    assert choice(f"Answer: {other} ({other_gloss}) or C ({gloss}).", "C", GAS) == 0.0
    assert choice(f"Answer: C ({gloss}).", "C", GAS) == 1.0


@settings(max_examples=150, deadline=None)
@given(gold=st.sampled_from(["42", "8.05", "2.5 \\times 10^{5}\\ \\text{Pa}", "4.5\\text{ kJ}", "45\\,\\text{N}", "2\\text{ mol/L}", "12.68\\%", "x+1", "\\frac{3}{4}"]),
       answer=st.sampled_from(["42", "8.04672", "250", "4.5", "45", "2.0", "0.126825", "x+1"]),
       tail=st.sampled_from(["", " km ≈ 8.05 km", " kPa", " J", " kN", " mmol/L", "\n\nEAR ≈ 12.68%", " N"]))
def test_the_gold_alone_gate_is_exact(gold, answer, tail):
    """``equal_forms.may_change`` (read before the completion is prepared, issue #35) is a necessary condition: where
    it says no reading can turn the verdict, none of the three readings does."""
    from polyreward.verifiers.equal_forms import another_prefix, converts_to_gold, may_change, rounding_is_gold

    completion = f"The value is {answer}{tail}"
    if not may_change(gold, found_equal=True):
        assert not another_prefix(gold, answer, completion)
    if not may_change(gold, found_equal=False):
        assert not rounding_is_gold(gold, answer, completion) and not converts_to_gold(gold, answer, completion)
