"""Rules added after the ``holdout69`` red-team split (medicine: clinical calculations; tests/data/red_team.jsonl).
Tables of new realistic output both ways (not the split's rows, which stay a benchmark):

* after an answer with a unit, a remark's range "a–b" (a reference range, a dosing interval) and a value with a unit of
  another dimension (a rate beside an amount, a count of doses beside a dose, a time), or the value such a quantity is
  equated with ("60 mg/kg/day = 1320 mg"), are other quantities, not a second answer
  (``verifiers/clinical_remarks.py``, read by ``remark_values.states_other_quantities``);
* a second value in the answer's own dimension, a unit slip by a prefix, an alternative in words, stay refused.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.clinical_remarks import another_quantity, range_end
from polyreward.verifiers.units import written_unit

MATH = MathAccuracy()


def math(completion: str, gold: str, prompt: str = "Calculate the value.") -> float:
    return MATH.evaluate([prompt], [completion], answer=[gold]).scores[0]


@pytest.mark.parametrize("completion, gold", [
    # a reference range after the answer, in the answer's unit or bare, in a bracket or a clause
    ("MAP = (120 + 2 × 80) / 3 = 93.3\n\nMAP = 93 mmHg — within the usual range (70–100 mmHg). No action needed.", "93"),
    ("Potassium 4.1 mmol/L ÷ 1 = 4.1\n\nK⁺ = 4.1 mmol/L, within the reference interval (3.5–5.0 mmol/L for adults).", "4.1"),
    ("CrCl = (140 − 60) × 70 / (72 × 1.0) = 77.8\n\nCrCl ≈ 78 mL/min — mildly reduced (normal 90–120 mL/min).", "78"),
    ("QTc = 420 / √0.81 = 467 ms\n\nQTc = 467 ms — prolonged for a woman (> 460–470 ms). Review QT-prolonging drugs.", "467"),
    ("Haemoglobin 13 g/dL × 10 = 130 g/L\n\nHb = 130 g/L (normal 130–175 g/L for men, 120–155 g/L for women).", "130"),
    # a range of another quantity after the answer, and the value a quantity of another dimension is equated with
    ("IBW = 45.5 + 2.3 × 5 = 57 kg\n\nIdeal body weight = 57 kg. Tidal volume 6–8 mL/kg IBW = 342–456 mL.", "57"),
    ("10 mg/kg × 30 kg = 300 mg per dose.\n\nSingle dose: 300 mg, every 6–8 h, at most 4 doses (40 mg/kg/day = 1200 mg) in 24 h.", "300"),
    ("Dose = 0.1 mg/kg × 50 kg = 5 mg\n\nGive 5 mg, every 4 h, no more than 6 doses a day.", "5"),
    # other languages: the same forms
    ("IMC = 70 / 1,75² = 22,9\n\nIMC = 22,9 kg/m² — dans la norme de l'OMS (18,5–24,9 kg/m²).", "22.9"),
    ("Kreatinin 1,0 mg/dL × 88,4 = 88,4 µmol/L\n\n= 88,4 µmol/L, im Referenzbereich (60–110 µmol/L).", "88.4"),
])
def test_a_clinical_remark_with_ranges_and_other_quantities_is_paid(completion, gold):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold", [
    ("MAP = 93 mmHg — or 95 mmHg (70–100 mmHg).", "93"),                 # an alternative in words
    ("Bolus = 80 units/kg × 90 kg = 7200 units (7,500 units).", "7200"),   # a second value, the same unit
    ("Dose: 300 mg, every 6–8 h (350 mg).", "300"),                         # a second dose beside the interval
    ("Result: 57 kg (the range is 55–60 kg, maybe 60 kg).", "57"),          # doubt stays doubt
    ("IBW ≈ 57 kg, maybe 62 kg (6–8 mL/kg).", "57"),
    ("Tidal volume 6–8 mL/kg IBW = 342–456 mL.", "57"),                     # the gold nowhere
    ("The weight is between 55 and 60 kg.", "57"),
])
def test_a_second_value_of_the_answers_quantity_is_still_refused(completion, gold):
    assert math(completion, gold) == 0.0


VANCOMYCIN = "Vancomycin loading at 15 mg/kg is ordered for an 84 kg patient. What is the dose in mg?"


@pytest.mark.parametrize("completion, expected", [
    ("15 mg/kg × 84 kg = 1260 mg\n\nVancomycin 1260 mg IV, infused over ≥ 90 min.", 1.0),
    ("15 × 84 = 1260 mg. Final: 1260 mg.", 1.0),
    ("15 × 84 = 1260 mg — sorry, I mean 1,260 mcg. Final: 1260 mcg.", 0.0),   # micrograms: another unit than asked
    ("15 × 84 = 1260 mg. Final: 1260 µg.", 0.0),
    ("15 × 84 = 1260 mg. Final: 1260 micrograms.", 0.0),
])
def test_micrograms_are_a_unit_the_asked_unit_rule_reads(completion, expected):
    assert math(completion, "1260", VANCOMYCIN) == expected


def test_a_bare_number_keeps_its_bracket_and_a_later_sentence_may_state_the_answer():
    # no unit on the answer: a bracket's range is read as before (here with a word that withholds the answer)
    assert math("Current answer: 2 (steps 3–4 still open, do not submit yet)", "2") == 0.0
    # a sentence of its own after a check in another unit may be the answer itself: it is not read as a remark
    # a value after an arrow or in bold is stated as a result, not remarked on: the daily dose may be the answer
    daily = "Per dose 10 mg/kg × 20 kg = 200 mg; q8h → **600 mg/day**"
    assert math(daily, "600") == 1.0
    assert math(daily, "200") == 0.0
    check = "Speed = 180 / 2.5 = 72 km/h.\n\nCheck: 72 km/h × 2.5 h = 180 km ✓\n\nThe train's speed is 72 km/h."
    assert math(check, "72") == 1.0
    assert math(check, "180") == 0.0


@pytest.mark.parametrize("text, number, expected", [
    ("(18.5-24.9 kg/m²)", "18.5", True),
    ("(18.5-24.9 kg/m²)", "24.9", True),
    ("every 4 to 6 h", "6", True),
    ("140-128 = 12", "128", False),     # arithmetic, not a range
    ("on 2024-12-05", "12", False),     # a date-like chain
    ("(7,500 units)", "7,500", False),
])
def test_range_end_reads_ranges_only(text, number, expected):
    start = text.index(number)
    assert range_end(text, start, start + len(number)) is expected


def test_another_quantity_reads_the_unit_against_the_answers():
    units = written_unit(" units", 0)
    remark = "then 18 units/kg/h (1,620 units/h) and 7,500 units"
    at = {n: (remark.index(n), remark.index(n) + len(n)) for n in ("18", "1,620", "7,500")}
    assert another_quantity(remark, *at["18"], units)
    assert another_quantity(remark, *at["1,620"], units)
    assert not another_quantity(remark, *at["7,500"], units)          # the answer's own dimension
    assert not another_quantity(remark, *at["18"], None)               # a bare answer: nothing read
    assert not another_quantity(remark, *at["18"], units, sentence=True)  # a sentence of its own: only ranges


_UNITS = st.sampled_from(["mg", "mmol/L", "kg/m²", "mL/min", "units", "mmHg", "ms", "µmol/L"])


@settings(max_examples=50, deadline=None)
@given(st.integers(20, 400), st.integers(1, 15), st.integers(1, 15), _UNITS)
def test_a_range_after_an_answer_with_a_unit_never_changes_its_score(value, below, above, unit):
    """A range in the answer's unit, containing the answer or not, scores as the plain answer for every gold."""
    plain = f"Computed from the inputs.\n\nResult: {value} {unit}."
    remarked = f"Computed from the inputs.\n\nResult: {value} {unit} ({value - below}–{value + above} {unit})."
    for gold in (str(value), str(value - below), str(value + above)):
        assert math(remarked, gold) == math(plain, gold)


@settings(max_examples=40, deadline=None)
@given(st.integers(20, 400), st.integers(1, 30), _UNITS)
def test_a_second_value_in_the_answers_unit_beside_a_range_still_refuses(value, step, unit):
    completion = f"Result: {value} {unit} ({value - step}–{value + step} {unit}; {value + step} {unit})."
    assert math(completion, str(value)) == 0.0
