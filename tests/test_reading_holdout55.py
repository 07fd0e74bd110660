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
