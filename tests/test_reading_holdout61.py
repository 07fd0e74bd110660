"""Rules added after the ``holdout61`` red-team split (tests/data/red_team.jsonl): medical and general-knowledge multiple
choice and short clinical calculations in the styles of current reasoning models. Tables of new realistic output both
ways (not the split's rows, which stay a benchmark):

* a committed final that rounds the unrounded value the working shows right before it ("≈ 48.6" then "**CrCl ≈ 49
  mL/min**") is the writer's value, not an approximation (``rounded_final.rounds_shown_value``); an approximation with
  no shown value to round, or one that is not its rounding, stays refused;
* a lowercase option letter in brackets followed by its text ("Correct option: (b) Ethosuximide", MedMCQA's own
  form) is a letter, not a word; lowercase letters each quoted or bracketed and joined ("Ans. is 'b' and 'a'",
  "(a) & (c)") are several picks, as capital ones are;
* the value handed to someone else -- "I'd leave the exact rate to the pharmacy's calculation", "I'd defer to the
  (answer) key", "rather than give one myself" -- is no committed answer (``hedging``); deferring the care, not the
  value ("defer to local protocol for titration", "leave the pump programming to the nurse"), still pays;
* two letters joined by a slash, each with its own bracketed qualifier ("E (typical) / D (atypical)"), are two picks,
  as "E / D" is; a letter with its option's text in brackets is one.
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


ABSENCE = ("Drug of choice for typical absence seizures in a 7-year-old child:\n\nA. Carbamazepine\nB. Ethosuximide\n"
           "C. Phenytoin\nD. Phenobarbital\n\nAnswer with the letter of the correct option.")
HUMERUS = ("Fracture of the surgical neck of the humerus most commonly injures which nerve?\na. Radial nerve\nb. Axillary nerve\n"
           "c. Ulnar nerve\nd. Median nerve")

LOWERCASE_LETTERS = [
    # a bracketed lowercase letter with its option's text: paid
    (ABSENCE, "**Correct option: (b) Ethosuximide**\n\nExplanation: Carbamazepine (a) and phenytoin (c) may aggravate "
              "absences; phenobarbital (d) is ineffective.", "B", 1.0),
    (ABSENCE, "Correct answer: (b) Ethosuximide — T-type Ca²⁺ channel blocker.", "B", 1.0),
    (ABSENCE, "The correct option is (b) Ethosuximide.", "B", 1.0),
    (HUMERUS, "Ans. is 'b' i.e., Axillary nerve\n\n- The axillary nerve winds round the surgical neck.", "B", 1.0),
    (HUMERUS, "Respuesta correcta: (b) nervio axilar", "B", 1.0),
    # two lowercase letters, quoted or bracketed, joined: refused
    (HUMERUS, "Ans. is 'b' and 'a' i.e., Axillary nerve; Radial nerve\n\n- Ref: BD Chaurasia.", "B", 0.0),
    (HUMERUS, "Ans. is 'b' or 'a'", "B", 0.0),
    (HUMERUS, "Ans. is 'b' & 'a' i.e. Axillary and radial nerves", "B", 0.0),
    (HUMERUS, "Correct options: (b) and (a) — axillary nerve with the posterior circumflex vessels.", "B", 0.0),
    (HUMERUS, "Ans is b, a", "B", 0.0),
    # a lowercase word is still no letter
    (ABSENCE, "Answer: a drug that blocks T-type calcium channels", "B", 0.0),
]


@pytest.mark.parametrize(("prompt", "completion", "gold", "expected"), LOWERCASE_LETTERS)
def test_lowercase_option_letters(prompt: str, completion: str, gold: str, expected: float) -> None:
    assert choice(prompt, completion, gold) == expected


@settings(max_examples=30, deadline=None)
@given(first=st.sampled_from("abcd"), second=st.sampled_from("abcd"), join=st.sampled_from([" and ", " or ", " & ", ", "]),
       quote=st.sampled_from(["'{}'", "({})", "\"{}\""]))
def test_two_quoted_lowercase_letters_are_no_pick(first: str, second: str, join: str, quote: str) -> None:
    if first == second:
        return
    completion = f"Ans. is {quote.format(first)}{join}{quote.format(second)} i.e., see below\n\n- Ref: standard text."
    assert choice(HUMERUS, completion, first.upper()) == 0.0
    assert choice(HUMERUS, completion, second.upper()) == 0.0


PUMP = "An order reads 1000 mL of normal saline over 8 hours. What pump rate in mL/h?"
LCM = "What is the least common multiple of 12 and 18?"

DEFERRED_VALUES = [
    # the value handed to someone else: refused
    (PUMP, "Most nurses would simply set the pump at 125 mL/h, but I'd leave the exact rate to the pharmacy's verified "
           "calculation rather than give one myself.", "125", 0.0),
    (PUMP, "Rate = 125 mL/h, but I'd rather not give one myself.", "125", 0.0),
    (PUMP, "Most nurses would set 125 mL/h; I'd leave it to the pharmacist.", "125", 0.0),
    (LCM, "My answer is 36, but I'd happily put money on 72 being what the answer key says, and I'd defer to the key.", "36", 0.0),
    (LCM, "I get \\boxed{36}, though I'll defer to the solution manual's answer.", "36", 0.0),
    # the care handed on, not the value: paid
    (PUMP, "1000 / 8 = 125 mL/h. Defer to local protocol for titration.", "125", 1.0),
    (PUMP, "Rate = 1000 mL ÷ 8 h = **125 mL/h**. I'd defer to local policy on pump programming.", "125", 1.0),
    (PUMP, "Rate = 125 mL/h. I'd leave the pump programming to the nurse.", "125", 1.0),
    (PUMP, "Set the pump at 125 mL/h. The pharmacy will verify the order.", "125", 1.0),
    (LCM, "12 = 2²·3, 18 = 2·3², so lcm = 2²·3² = \\boxed{36}.", "36", 1.0),
]


@pytest.mark.parametrize(("prompt", "completion", "gold", "expected"), DEFERRED_VALUES)
def test_a_value_handed_to_someone_else(prompt: str, completion: str, gold: str, expected: float) -> None:
    assert math(prompt, completion, gold) == expected


CAP = ("Most common bacterial cause of community-acquired pneumonia in adults?\nA) Klebsiella pneumoniae\nB) Haemophilus "
       "influenzae\nC) Staphylococcus aureus\nD) Mycoplasma pneumoniae\nE) Streptococcus pneumoniae")

SLASHED = [
    (CAP, "<think>\nDepends on the setting.\n</think>\n\nAnswer: E (typical) / D (atypical)", "E", 0.0),
    (CAP, "Answer: E (inpatients) / D (outpatients)", "E", 0.0),
    (CAP, "E (pneumococcus) / D (Mycoplasma) depending on setting", "E", 0.0),
    (CAP, "Answer: E / D", "E", 0.0),
    (CAP, "Answer: E (Streptococcus pneumoniae)", "E", 1.0),
    (CAP, "Answer: E (S. pneumoniae) — D (Mycoplasma) is the most common atypical cause.", "E", 1.0),
    (CAP, "Answer: E (typical CAP); Mycoplasma / D is the atypical one.", "E", 1.0),
]


@pytest.mark.parametrize(("prompt", "completion", "gold", "expected"), SLASHED)
def test_two_qualified_letters_joined_by_a_slash(prompt: str, completion: str, gold: str, expected: float) -> None:
    assert choice(prompt, completion, gold) == expected


@settings(max_examples=30, deadline=None)
@given(first=st.sampled_from("ABCDE"), second=st.sampled_from("ABCDE"),
       words=st.sampled_from([("typical", "atypical"), ("adults", "children"), ("first line", "second line"), ("acute", "chronic")]))
def test_slashed_qualified_letters_never_pay(first: str, second: str, words: tuple[str, str]) -> None:
    if first == second:
        return
    completion = f"Answer: {first} ({words[0]}) / {second} ({words[1]})"
    assert choice(CAP, completion, first) == 0.0
    assert choice(CAP, completion, second) == 0.0
