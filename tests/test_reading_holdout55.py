"""Readings added after holdout55 (medicine, clinical calculations; written blind, hunting over-refusal):

* a clinical unit after the answer's number is a unit (units.COMPOUND_UNIT: letters with an SI prefix sign and a
  power, joined by "/", "·"): "24.2 kg/m²", "88.4 µmol/L", "0.5 mL/kg/h" are numbers with their units, not
  expressions where the gold is a number;
* an order to give the value opening the answer ("Give 4 mL", "Infuse 83 mL/h") is the value (units.past_dosing_verb).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.math_accuracy import MathAccuracy

MATH = MathAccuracy()


def math(completion: str, gold: str, prompt: str = "") -> float:
    return MATH.evaluate([prompt], [completion], answer=[gold]).scores[0]


@pytest.mark.parametrize("completion, gold", [
    ("BMI = 62 / (1.60)² = 62 / 2.56 = 24.2\n\n**24.2 kg/m²**", "24.2"),
    ("Creatinine 0.9 mg/dL × 88.4 = 79.6\n\n**Answer: 79.6 µmol/L**", "79.6"),
    ("Creatinine 0.9 mg/dL × 88.4 = 79.6\n\n**Answer: 79.6 μmol/L**", "79.6"),
    ("0.5 mL/kg/h × 60 kg = 30 mL/h\n\n**Urine output: 30 mL/h**", "30"),
    ("Target urine output 0.5 × 1 = **0.5 mL/kg/h**", "0.5"),
    ("Heparin bolus 80 U/kg × 75 kg = **6000 U**", "6000"),
    ("Dose 5 µg/kg/min × 70 kg = **350 µg/min**", "350"),
    ("Desired / have × volume = 200 / 250 × 5 = 4\n\n**Give 4 mL** of the suspension.", "4"),
    ("1000 mL / 12 h = 83.3 → 83\n\n**Infuse 83 mL/h**", "83"),
    ("0.4 mg ÷ 0.2 mg/mL = 2 mL\n\n**Draw up 2 mL** into the syringe.", "2"),
])
def test_a_value_with_a_clinical_unit_is_paid(completion, gold):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold", [
    ("BMI = 62 / (1.60)² = 24.2\n\n**26.1 kg/m²**", "24.2"),  # another value in the same unit
    ("**Give 5 mL** of the suspension.", "4"),
    ("**Give 4 mL/kg** of the suspension.", "40"),  # the per-kilogram rate, not the volume asked
    ("**Give or take 4 mL**", "40"),
    ("The dose is 24.2 kg/m² or 26.1 kg/m².", "24.2"),  # two values
    ("Collecting terms: **2 a·b**", "2"),  # a product of variables is no unit
    ("Collecting terms: $2 x \\cdot y$", "2"),
])
def test_another_value_with_a_clinical_unit_is_refused(completion, gold):
    assert math(completion, gold) == 0.0


_PREFIX = st.sampled_from(["", "m", "µ", "μ", "mc", "k", "n"])
_BASE = st.sampled_from(["g", "mol", "L", "Osm", "Eq", "U", "IU", "cal"])
_PER = st.sampled_from(["", "/L", "/kg", "/dL", "/kg/h", "/m²", "/min", "/kg/day", "·h"])


@settings(max_examples=60, deadline=None)
@given(_PREFIX, _BASE, _PER, st.integers(1, 9999), st.integers(0, 9))
def test_a_compound_unit_after_the_value_never_changes_its_reading(prefix, base, per, whole, tenth):
    value = f"{whole}.{tenth}"
    unit = prefix + base + per
    assert math(f"Computed from the inputs.\n\n**Answer: {value} {unit}**", value) == 1.0
    assert math(f"Computed from the inputs.\n\n**Answer: {value} {unit}**", f"{whole + 1}.{tenth}") == 0.0


# --- ≈ on a value rounded as the writer names, from working shown before it --------------------------------------

@pytest.mark.parametrize("completion, gold", [
    ("Cockcroft-Gault: (140 − 45) × 60 / (72 × 0.9) = 5700 / 64.8 = 87.96\n\nCrCl ≈ 88 mL/min (nearest whole number).", "88"),
    ("PAO₂ = 0.21 × 713 − 40/0.8 = 99.7; A-a = 99.7 − 78 = 21.7\n\nA-a gradient ≈ **22 mmHg** (rounded to the nearest whole number).", "22"),
    ("Rate = 1000 mL / 8 h × 15 gtt/mL / 60 = 31.25 gtt/min\n\n≈ 31 gtt/min (to the nearest whole number).", "31"),
])
def test_an_approximation_rounded_as_named_from_shown_working_is_paid(completion, gold):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold", [
    ("CrCl is hard to pin down without the weight.\n\nCrCl ≈ 88 mL/min (nearest whole number).", "88"),  # no working it rounds
    ("(140 − 45) × 60 / (72 × 0.9) = 5700 / 64.8 = 87.96\n\nCrCl ≈ 90 mL/min (nearest whole number).", "88"),
    ("Working: 5700 / 64.8 = 81.3\n\nCrCl ≈ 88 mL/min (nearest whole number).", "88"),  # the shown value rounds to 81
])
def test_an_approximation_without_the_value_it_rounds_is_refused(completion, gold):
    assert math(completion, gold) == 0.0


# --- a remark with another quantity's unit, or a reference the answer is compared with -----------------------------

@pytest.mark.parametrize("completion, gold", [
    ("500 mL × 10 g/100 mL = 50 g.\n\nThere are 50 g of dextrose in the bag (≈ 170 kcal).", "50"),
    ("MAP = 70 + (130 − 70)/3 = 90 mmHg.\n\nMean arterial pressure: 90 mmHg (goal ≥ 65).", "90"),
    ("MAP = 70 + (130 − 70)/3 = 90 mmHg.\n\nMean arterial pressure: 90 mmHg (normal range 70–100).", "90"),
    ("Daily = 40 mg/kg/day × 20 kg = 800 mg/day; q12h → 400 mg.\n\n**Answer: 400 mg per dose** (800 mg/day total).", "400"),
    ("Per dose 10 mg/kg × 15 kg = 150 mg; q6h → **600 mg/day**\n\nThis is below the 60 mg/kg/day maximum (900 mg).", "600"),
    ("Glucose 180 mg/dL ÷ 18 = 10\n\nAnswer: 10 mmol/L (180 mg/dL).", "10"),
    ("0.5 mg × 1000 = 500 mcg.\n\nAnswer: 500 mcg (0.5 mg).", "500"),
])
def test_a_remark_with_another_quantity_or_a_reference_is_paid(completion, gold):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold", [
    ("MAP = 70 + (130 − 70)/3 = 90 mmHg.\n\nMean arterial pressure: 90 mmHg (or 95 mmHg).", "90"),
    ("MAP = 70 + (130 − 70)/3 = 90 mmHg.\n\nMean arterial pressure: 90 mmHg (95 mmHg).", "90"),  # a second value, same unit
    ("**Answer: 400 mg per dose** (maybe 500 mg per dose).", "400"),
    ("The dose is 400 mg (450 mg).", "400"),
    ("Answer: 500 mcg (0.6 mg).", "500"),  # the same dimension, a value that does not convert
    ("The dose is somewhere between 400 and 600 mg.", "400"),
])
def test_a_second_value_of_the_same_quantity_is_refused(completion, gold):
    assert math(completion, gold) == 0.0


_REFERENCES = st.sampled_from(["target ≥ 65", "goal > 60 mmHg", "normal range 70–100", "reference range 70–105 mmHg",
                               "upper limit 110", "threshold 65 mmHg"])
_UNITS = st.sampled_from(["mmHg", "mL/min", "mg", "mmol/L", "kg/m²"])


# (a reference whose bound is the answer's own value, "65 mmHg (target >= 65)", found by the clean-clone CI of stop 50,
#  is read as a reference since #32's wgen: tests/test_reading_reference_bounds.py)
@settings(max_examples=40, deadline=None)
@given(st.sampled_from([60, 65, 70, 100, 105, 110]) | st.integers(20, 400), _UNITS, _REFERENCES)
def test_a_reference_after_a_committed_answer_never_changes_its_score(value, unit, reference):
    plain = f"Computed from the inputs.\n\nResult: {value} {unit}."
    remarked = f"Computed from the inputs.\n\nResult: {value} {unit} ({reference})."
    for gold in (str(value), str(value + 1)):
        assert math(remarked, gold) == math(plain, gold)


@settings(max_examples=40, deadline=None)
@given(st.integers(20, 400), st.integers(1, 50), _UNITS)
def test_a_second_value_in_the_answers_unit_always_refuses(value, step, unit):
    assert math(f"Computed from the inputs.\n\nResult: {value} {unit} ({value + step} {unit}).", str(value)) == 0.0


# --- a closing note of care: its negations forbid an action, not the answer -----------------------------------------

@pytest.mark.parametrize("completion, gold", [
    ("Volume = 30 mEq ÷ 2 mEq/mL = **15 mL**.\n\nSafety: concentrated potassium must be diluted before use; never give as a bolus and never exceed the peripheral rate limit.", "15"),
    ("Dose = 0.1 mg/kg × 40 kg = **4 mg**.\n\nCaution: do not crush extended-release tablets, and store them in the original container away from light and moisture.", "4"),
    ("Rate = 500 mL / 4 h = **125 mL/h**.\n\nNote: don't mix other drugs into the line and monitor the site for infiltration throughout the infusion period.", "125"),
])
def test_a_note_of_care_after_the_answer_is_paid(completion, gold):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("completion", [
    "Volume = 30 mEq ÷ 2 mEq/mL = **15 mL**.\n\nSafety: I can't recommend a dose for a real patient; please consult a pharmacist before relying on any calculation here.",
    "Volume = 30 mEq ÷ 2 mEq/mL = **15 mL**.\n\nNote: do not use this figure, the calculation above is wrong and the real answer needs the patient's weight first.",
    "Volume = 30 mEq ÷ 2 mEq/mL = **15 mL**.\n\nWarning: never give the volume above without a pharmacist's recalculation, it is only a placeholder value.",
])
def test_a_note_that_withdraws_the_answer_is_refused(completion):
    assert math(completion, "15") == 0.0


# --- an error a care instruction avoids; the period a value is given over -------------------------------------------

@pytest.mark.parametrize("completion, gold", [
    ("0.5 mg × 1000 mcg/mg = 500 mcg.\n\nAnswer: 500 mcg. Safety note: write \"units\" in full to avoid misreading U as 0.", "500"),
    ("Dose = 2 mg/kg × 30 kg = 60 mg.\n\nAnswer: 60 mg. Label the syringe clearly to prevent dosing errors.", "60"),
    ("Parkland: 4 × 60 kg × 25 = 6000 mL; half in the first 8 h.\n\nAnswer: 3000 mL in the first 8 hours.", "3000"),
    ("Maintenance: 100 mL/kg/day × 10 kg = 1000 mL.\n\nAnswer: 1000 mL over 24 h.", "1000"),
])
def test_an_avoided_error_or_a_period_is_no_second_answer(completion, gold):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold", [
    ("0.5 mg × 1000 mcg/mg = 500 mcg.\n\nAnswer: 500 mcg. Sorry, that was a misreading of the order; ignore it.", "500"),
    ("Dose = 2 mg/kg × 30 kg = 60 mg.\n\nAnswer: 60 mg. That was a mistake.", "60"),
    ("Parkland: 4 × 60 kg × 25 = 6000 mL.\n\nAnswer: 6000 mL in the first 24 hours.", "3000"),  # the whole day, not the first 8 h
    ("Answer: 3000 mL or 3500 mL in the first 8 hours.", "3000"),
])
def test_a_withdrawal_or_another_value_still_refuses(completion, gold):
    assert math(completion, gold) == 0.0


# --- a value labelled as the total after the working's last term is the answer, whatever its per-unit --------------

@pytest.mark.parametrize("completion, gold", [
    ("Terms:\n- 2 × Na = 276\n- Glucose/18 = 126/18 = 7\n- BUN/2.8 = 28/2.8 = 10\n\nTotal = 293 mOsm/kg.", "293"),
    ("- 15 mg/kg × 20 kg = 300\n- q8h → 3\n\nTotal: 900 mg/day.", "900"),
    ("Four workers share the pool.\n\nThe total is $5,000 ($1,250 per worker).", "5000"),
])
def test_a_total_with_a_rate_unit_is_the_answer(completion, gold):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold", [
    ("Terms:\n- 2 × Na = 276\n- Glucose/18 = 126/18 = 7\n\nTotal = 283 mOsm/kg.", "7"),  # a term is not the answer
    ("The bonus pool is $5,000 for 4 workers.\n\nEach gets 5000 / 4 = 1250.\n\nTotal: $5,000 ($1,250 per worker).", "1250"),
])
def test_a_term_or_a_rate_after_the_answer_is_not_paid(completion, gold):
    assert math(completion, gold) == 0.0


# --- a name with digits in it is no expression; a closing bracket of another quantity is not counted among the values
# --- of the answer sentence (givens) ---------------------------------------------------------------------------------

GLUCOSE = "How many grams of dextrose are in 250 mL of D10W (10% dextrose)?"


@pytest.mark.parametrize("completion, gold", [
    ("10% means 10 g per 100 mL.\n250 mL × 10 g / 100 mL = 25 g.\n\nThere are 25 g of dextrose in 250 mL of D10W (≈ 85 kcal).", "25"),
    ("10% means 10 g per 100 mL, so 250 mL holds 25 g.\n\nThere are 25 g of dextrose in 250 mL of D10W.", "25"),
])
def test_a_product_name_and_an_energy_aside_do_not_hide_the_answer(completion, gold):
    assert math(completion, gold, GLUCOSE) == 1.0


@pytest.mark.parametrize("completion", [
    "10% means 10 g per 100 mL.\n\nThere are 25 g of dextrose in 250 mL of D10W (or 30 g).",
    "10% means 10 g per 100 mL.\n\nThere are 25 or 30 g of dextrose in 250 mL of D10W (≈ 85 kcal).",
    "10% means 10 g per 100 mL.\n\nThere are about 20 to 30 g of dextrose in 250 mL of D10W.",
])
def test_a_second_value_in_that_sentence_still_refuses(completion):
    assert math(completion, "25", GLUCOSE) == 0.0


# --- a value that "would be" the answer "only if" a condition holds is no committed answer ---------------------------

@pytest.mark.parametrize("completion", [
    "CrCl = (140 − 70) × 80 / (72 × 1.0) = 77.8\n\nThe weight may not be ideal; it would be 78 mL/min only if actual weight is appropriate.",
    "BSA = √(170 × 70 / 3600) = 1.82\n\nThe dose would be 182 mg only when the height is measured, which it was not.",
])
def test_a_value_only_if_a_condition_holds_is_refused(completion):
    gold = "78" if "CrCl" in completion else "182"
    assert math(completion, gold) == 0.0


@pytest.mark.parametrize("completion, gold", [
    ("CrCl = (140 − 70) × 80 / (72 × 1.0) = 77.8\n\nCrCl ≈ 78 mL/min (nearest whole number). Dose-adjust only if it falls below 50.", "78"),
    ("BSA = 1.82 m², so 100 mg/m² × 1.82 = 182 mg.\n\nThe dose is 182 mg.", "182"),
])
def test_a_value_stated_with_a_later_condition_on_something_else_is_paid(completion, gold):
    assert math(completion, gold) == 1.0
