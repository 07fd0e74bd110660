"""holdout62 (issue #32): a multiple-choice answer given by an option's text without a letter, read by the opening
statement (``verifiers/option_statement.py``) for an option that has no distinctive word -- a number, a symbol: its
value opening the statement ("pH 7", "51 — it is 3 × 17", "$\\sqrt{2}$ is irrational").
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy

CHOICE = ChoiceAccuracy()

PH = ("Which pH value indicates a neutral solution at 25 °C?\n\nA. 0\nB. 5\nC. 7\nD. 10\nE. 14\n\n"
      "Answer with the letter of the correct option.")
NOT_PRIME = ("Which of the following is NOT a prime number?\n\nA. 2\nB. 17\nC. 61\nD. 97\nE. 51\n\n"
             "Answer with the letter of the correct option.")
IRRATIONAL = ("Which of the following numbers is irrational?\n\nA. 0.25\nB. √16\nC. 22/7\nD. √2\nE. 1.333…\n\n"
              "Answer with the letter of the correct option.")
BOILING = ("At sea level, what is the boiling point of water in °C?\nA. 90\nB. 100\nC. 110\nD. 212\n\n"
           "Answer with the letter of the correct option.")
SUM = "What is 2 + 3?\nA. 2\nB. 3\nC. 5\nD. 6"


def choice(prompt: str, completion: str, gold: str) -> float:
    return CHOICE.evaluate([prompt], [completion], answer=[gold]).scores[0]


@pytest.mark.parametrize("prompt, completion, gold", [
    (PH, "pH 7", "C"),                                                              # the row
    (PH, "pH 7.0", "C"),                                                            # another form of the value
    (PH, "7 — neutral water has [H+] = [OH-] = 10^-7 M.", "C"),
    (PH, "pH 7: a neutral solution has [H+] = [OH-] = 10^-7 M.", "C"),
    (PH, "The pH 7 (neutral).", "C"),
    (NOT_PRIME, "51 — it is 3 × 17, while all the others are prime.", "E"),       # the row
    (NOT_PRIME, "51, since 51 = 3 × 17; 2, 17, 61 and 97 are prime.", "E"),
    (NOT_PRIME, "51 is not prime: 3 × 17 = 51.", "E"),
    (NOT_PRIME, "51 - it is 3 × 17, so it is not prime.", "E"),
    (IRRATIONAL, "$\\sqrt{2}$ is irrational; every other option is a ratio of integers.", "D"),  # the row
    (IRRATIONAL, "√2 is irrational, while √16 = 4.", "D"),
    (IRRATIONAL, "$\\sqrt{2}$ — the only irrational number here.", "D"),
    (BOILING, "100 (at 1 atm).", "B"),
])
def test_an_option_value_opening_the_statement_is_paid(prompt, completion, gold):
    assert choice(prompt, completion, gold) == 1.0


@pytest.mark.parametrize("prompt, completion, gold", [
    (PH, "pH 5", "C"),                                                  # a wrong option's value
    (PH, "pH 7 or 5", "C"),                                             # two options' values offered
    (PH, "7, 5", "C"),
    (PH, "pH 7/5", "C"),
    (PH, "Maybe pH 7, I'm not sure.", "C"),                             # hedged
    (PH, "Not 7 — it's 5.", "C"),                                       # denied
    (PH, "pH 7. Actually no, 5.", "C"),                                 # withdrawn
    (PH, "Hydrogen 7", "C"),                                            # words not of the question before it
    (NOT_PRIME, "17 — it is prime, so it is not the answer.", "E"),     # the form of a wrong option
    (IRRATIONAL, "$\\sqrt{16}$ is irrational.", "D"),                   # another option's form
    (SUM, "2 + 3 = 5", "A"),                                            # an operation opens, not a value: 2 is not read
    # (for gold C, "2 + 3 = 5" is paid since holdout84: the value that closes it is option C's text,
    #   option_whole_text.closing_option_text; tests/test_reading_x8384.py)
    (PH, "10 - 5 = 5", "D"),                                             # a difference opens, not the value 10
    (PH, "14 - 7 = 7", "E"),
])
def test_a_wrong_or_doubled_value_is_refused(prompt, completion, gold):
    assert choice(prompt, completion, gold) == 0.0


_VALUES = {"A": "0", "B": "5", "C": "7", "D": "10", "E": "14"}


@settings(max_examples=40, deadline=None)
@given(st.sampled_from("ABCDE"), st.sampled_from("ABCDE"), st.sampled_from([" or ", ", ", "/", " and "]),
       st.sampled_from(["", "pH ", "The pH "]), st.sampled_from(["", " — neutral.", " (at room temperature)."]))
def test_adding_a_second_options_value_never_raises_the_score(first, second, join, lead, tail):
    alone = choice(PH, f"{lead}{_VALUES[first]}{tail}", "C")
    both = choice(PH, f"{lead}{_VALUES[first]}{join}{_VALUES[second]}{tail}", "C")
    assert both <= alone
    if first != second:
        assert both == 0.0


@settings(max_examples=40, deadline=None)
@given(st.sampled_from("ABCDE"), st.sampled_from(["", "pH ", "The pH "]), st.sampled_from(["", " — neutral.", " is neutral."]))
def test_an_options_value_pays_only_its_own_letter(letter, lead, tail):
    completion = f"{lead}{_VALUES[letter]}{tail}"
    for gold in "ABCDE":
        assert choice(PH, completion, gold) == (1.0 if gold == letter else 0.0)


# -- short forms written out in the opening statement: an ordinal numeral, "+" for "plus", an option's initials --------

AMENDMENT = ("Which amendment to the US Constitution abolished slavery?\n\nA. First\nB. Fifth\nC. Thirteenth\n"
             "D. Fourteenth\nE. Nineteenth\n\nAnswer with the letter of the correct option.")
CENTURY = ("In which century did the French Revolution begin?\nA. Sixteenth\nB. Seventeenth\nC. Eighteenth\n"
           "D. Nineteenth\nE. Twenty-first")
WARFARIN = ("A patient on warfarin has an INR of 9 with active gastrointestinal bleeding. Besides stopping warfarin, which "
            "is the most appropriate immediate reversal?\n\nA. Oral vitamin K alone\nB. Protamine sulfate\n"
            "C. Prothrombin complex concentrate plus IV vitamin K\nD. Idarucizumab\nE. Tranexamic acid alone\n\n"
            "Answer with the letter of the correct option.")
DNA = ("Which kind of bond holds the two strands of a DNA double helix together?\n\nA. Ionic bonds\nB. Hydrogen bonds\n"
       "C. Peptide bonds\nD. Disulfide bonds\nE. Glycosidic bonds\n\nAnswer with the letter of the correct option.")
ACRONYM_TWICE = ("Which imaging study is first-line here?\nA. Computed tomography\nB. Chest tomography\n"
                 "C. Magnetic resonance imaging\nD. Ultrasound")
ARRHYTHMIA = ("Which rhythm is shown on this ECG?\nA. Atrial fibrillation\nB. Ventricular fibrillation\n"
              "C. Atrial flutter\nD. Sinus tachycardia")


@pytest.mark.parametrize("prompt, completion, gold", [
    (AMENDMENT, "The 13th Amendment (1865).", "C"),                               # the row
    (AMENDMENT, "13th.", "C"),
    (AMENDMENT, "The 13th — it abolished slavery in 1865.", "C"),
    (CENTURY, "The 18th century (1789).", "C"),
    (CENTURY, "18th", "C"),
    (WARFARIN, "PCC + IV vitamin K.", "C"),                                       # the row
    (WARFARIN, "PCC plus IV vitamin K; oral vitamin K alone is too slow.", "C"),
    (DNA, "H-bonds.", "B"),
    (DNA, "H-bonds hold the two strands together.", "B"),
    (ACRONYM_TWICE, "MRI", "C"),
    (ARRHYTHMIA, "Sinus tachycardia — ST.", "D"),
])
def test_an_option_in_a_short_form_is_paid(prompt, completion, gold):
    assert choice(prompt, completion, gold) == 1.0


@pytest.mark.parametrize("prompt, completion, gold", [
    (AMENDMENT, "The 14th Amendment (1868).", "C"),                  # a wrong option's ordinal
    (AMENDMENT, "The 13th or 14th Amendment.", "C"),                 # two options' forms
    (AMENDMENT, "Not the 13th Amendment — the 1st.", "C"),
    (AMENDMENT, "Maybe the 13th.", "C"),                             # hedged
    (WARFARIN, "PCC + IV vitamin K, or protamine sulfate.", "C"),    # a second option offered
    (WARFARIN, "Protamine sulfate.", "C"),
    (ACRONYM_TWICE, "CT", "A"),                                       # initials that fit two options
    (ACRONYM_TWICE, "CT", "B"),
    (ARRHYTHMIA, "AF", "A"),                                          # atrial fibrillation or atrial flutter
    (ARRHYTHMIA, "AF", "C"),
    (DNA, "I-bonds.", "B"),                                           # a wrong option's short form
    (DNA, "H-bonds or I-bonds.", "B"),
])
def test_a_wrong_or_ambiguous_short_form_is_refused(prompt, completion, gold):
    assert choice(prompt, completion, gold) == 0.0


_ORDINALS = {"A": "1st", "B": "5th", "C": "13th", "D": "14th", "E": "19th"}


@settings(max_examples=40, deadline=None)
@given(st.sampled_from("ABCDE"), st.sampled_from("ABCDE"), st.sampled_from([" or ", ", ", " and ", "/"]),
       st.sampled_from(["", "The ", "It is the "]), st.sampled_from(["", " Amendment.", " Amendment (1865)."]))
def test_adding_a_second_options_ordinal_never_raises_the_score(first, second, join, lead, tail):
    alone = choice(AMENDMENT, f"{lead}{_ORDINALS[first]}{tail}", "C")
    both = choice(AMENDMENT, f"{lead}{_ORDINALS[first]}{join}{_ORDINALS[second]}{tail}", "C")
    assert both <= alone
    if first != second:
        assert both == 0.0


@given(st.integers(1, 99))
def test_an_ordinal_numeral_is_spelled_as_its_word(number):
    from polyreward.verifiers.option_statement import spelled
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    words = spelled(f"The {number}{suffix} one", {})
    assert words.startswith("The ") and words.endswith(" one") and not any(ch.isdigit() for ch in words)


_SHORT = {"A": "I-bonds", "B": "H-bonds", "C": "P-bonds", "D": "D-bonds", "E": "G-bonds"}


@settings(max_examples=30, deadline=None)
@given(st.sampled_from("ABCDE"), st.sampled_from("ABCDE"), st.sampled_from([" or ", ", ", " and ", " / "]),
       st.sampled_from(["", " hold the strands together."]))
def test_adding_a_second_options_short_form_never_raises_the_score(first, second, join, tail):
    alone = choice(DNA, f"{_SHORT[first]}{tail}", "B")
    both = choice(DNA, f"{_SHORT[first]}{join}{_SHORT[second]}{tail}", "B")
    assert both <= alone
    if first != second:
        assert both == 0.0


_PH_PROMPT = "What is the pH of pure water at 25 °C?\nA) 0\nB) 1\nC) 7\nD) 14"


@pytest.mark.parametrize(("completion", "expected"), [
    ("0 (at 25 °C).", 0.0),           # a temperature's unit after a wrong value: no letter C (found while fixing holdout62)
    ("Water at 25 °C.", 0.0),
    ("Keep it at 4 °C.", 0.0),
    ("Stored at 98.6°F.", 0.0),
    ("7 at 25 °C, so C.", 1.0),       # the letter itself still reads
    ("Answer: C (7 at 25 °C)", 1.0),
])
def test_a_degree_sign_makes_a_unit_not_a_letter(completion, expected):
    assert ChoiceAccuracy().evaluate([_PH_PROMPT], [completion], answer=["C"]).scores[0] == expected


@settings(max_examples=60, deadline=None)
@given(value=st.integers(-40, 400), space=st.sampled_from(["", " ", "\u00a0"]), sign=st.sampled_from(["°", "º"]),
       unit=st.sampled_from(["C", "F"]), lead=st.sampled_from(["At ", "Water boils at ", "Measured at ", ""]))
def test_a_temperature_never_pays_a_letter(value, space, sign, unit, lead):
    completion = f"{lead}{value}{space}{sign}{unit}."
    assert ChoiceAccuracy().evaluate([_PH_PROMPT], [completion], answer=[unit if unit in "ABCD" else "C"]).scores[0] == 0.0
