"""Rules added after the ``holdout61`` red-team split (tests/data/red_team.jsonl): medical and general-knowledge multiple
choice and short clinical calculations in the styles of current reasoning models. Tables of new realistic output both
ways (not the split's rows, which stay a benchmark):

* a committed final that rounds the unrounded value the working shows right before it ("≈ 48.6" then "**CrCl ≈ 49
  mL/min**") is the writer's value, not an approximation (``rounded_final.rounds_shown_value``); an approximation with
  no shown value to round, or one that is not its rounding, stays refused.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.rounded_final import approximated_value, rounds_shown_value

CRCL = ("Estimate creatinine clearance (Cockcroft-Gault) for a 70-year-old man weighing 60 kg with serum creatinine "
        "1.2 mg/dL. Give mL/min.")
MAP = "Blood pressure is 120/80 mm Hg. What is the mean arterial pressure in mm Hg?"
BMI = "A patient weighs 70 kg and is 1.75 m tall. What is the BMI in kg/m²?"
DOSE = "Order: 15 mg/kg of a drug for a 23.4 kg child. How many mg?"


def math(prompt: str, completion: str, gold: str) -> float:
    return MathAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0]


def choice(prompt: str, completion: str, gold: str) -> float:
    return ChoiceAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0]


ROUNDED = [
    # an unrounded value shown, then its rounding as the committed final: paid
    (CRCL, "CrCl = (140 − 70) × 60 / (72 × 1.2) = 4200 / 86.4 ≈ 48.6\n\n**CrCl ≈ 49 mL/min**", "49", 1.0),
    (CRCL, "CrCl = 4200 / 86.4 = 48.61 mL/min\n\nCrCl ≈ 49 mL/min. Consider renal dose adjustment.", "49", 1.0),
    (MAP, "MAP = 80 + (120 − 80)/3 = 93.33 mm Hg\n\n**MAP ≈ 93 mm Hg**", "93", 1.0),
    (MAP, "MAP = DBP + ⅓ PP = 80 + 13.3 = 93.3\n\nMAP \\approx 93 mmHg", "93", 1.0),
    (BMI, "BMI = 70 / 1.75^2 = 70 / 3.0625 = 22.857 kg/m^2\n\n**BMI ≈ 22.9 kg/m²**", "22.9", 1.0),
    (DOSE, "15 × 23.4 = 351.0 mg... wait, 15 × 23.4 = 351 exactly? 15 × 23.4 = 351.0\n\nDose = 351 mg", "351", 1.0),
    (DOSE, "Dosis = 15 mg/kg × 23,4 kg = 351,0 mg\n\n**Dosis ≈ 351 mg**", "351", 1.0),
    # an approximation with no unrounded value before it, or one that is not its rounding: refused
    (CRCL, "**CrCl ≈ 49 mL/min**", "49", 0.0),
    (CRCL, "CrCl = 4200 / 86.4 ≈ 48.6\n\n**CrCl ≈ 50 mL/min**", "50", 0.0),
    (CRCL, "CrCl = 4200 / 86.4 ≈ 48.6\n\nCrCl ≈ 48 mL/min", "48", 0.0),
    (MAP, "80 + 13 = 93, so MAP ≈ 93 mm Hg", "93", 0.0),
    (MAP, "MAP ≈ 93.3\n\nRoughly 93 or 94 mm Hg.", "93", 0.0),
    (CRCL, "CrCl ≈ 48.6\n\n**CrCl ≈ 49 mL/min** — or 48 if you truncate.", "49", 0.0),
    (CRCL, "CrCl ≈ 48.6\n\n**CrCl ≈ 49 mL/min** (just a guess)", "49", 0.0),
]


@pytest.mark.parametrize(("prompt", "completion", "gold", "expected"), ROUNDED)
def test_a_rounded_final_after_its_unrounded_value(prompt: str, completion: str, gold: str, expected: float) -> None:
    assert math(prompt, completion, gold) == expected


def test_rounds_shown_value_reads_the_last_number_before_the_final() -> None:
    text = "= 4200 / 86.4 ≈ 48.6\n\nCrCl ≈ 49 mL/min"
    at = text.rindex("49")
    assert rounds_shown_value(text, at, at + 2)
    text = "48.6 then 12 and so ≈ 49"  # the last number is 12, no unrounded form of 49
    assert not rounds_shown_value(text, text.rindex("49"), len(text))
    text = "= 70 / 1.75^{2}\n\n≈ 23"  # an exponent is no shown value
    assert not rounds_shown_value(text, text.rindex("23"), len(text))
    assert approximated_value("CrCl ≈ 49 mL/min", "4200/86.4 = 48.6\n**CrCl ≈ 49 mL/min**") == "49 mL/min"
    assert approximated_value("CrCl ≈ 49 mL/min", "**CrCl ≈ 49 mL/min**") is None
    assert approximated_value("x2 ≈ 49", "48.6; **x2 ≈ 49**") is None  # a label with a digit: no plain label


@settings(max_examples=40, deadline=None)
@given(whole=st.integers(1, 400), tenths=st.integers(0, 99), places=st.sampled_from([1, 2]), off=st.integers(1, 9))
def test_a_final_is_paid_only_when_it_rounds_the_shown_value(whole: int, tenths: int, places: int, off: int) -> None:
    shown = Decimal(whole) + Decimal(tenths) / 100
    shown = shown.quantize(Decimal(1).scaleb(-places))
    if shown == shown.to_integral_value():
        shown += Decimal(1).scaleb(-places)  # a value with a fractional part
    rounded = int(shown.quantize(Decimal(1), rounding=ROUND_HALF_UP))
    completion = f"Clearance = {shown} mL/min\n\n**CrCl ≈ {{}} mL/min**"
    assert math(CRCL, completion.format(rounded), str(rounded)) == 1.0
    other = rounded + off
    assert math(CRCL, completion.format(other), str(other)) == 0.0
