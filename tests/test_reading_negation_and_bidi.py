"""Three reading rules added after the known gaps of stop 28 (2026-12-04), table of realistic output both ways:

* other languages' negation is one table (src/polyreward/verifiers/negation_words.py) read in three positions: before
  the value ("Svaret er ikke 42"), after a comma ("La respuesta es 42, no 24": the value before is the answer) and
  after the value ("پاسخ 42 نیست");
* the same value written twice, once with its unit ("The answer is 12 cm^2. **Answer:** 12"), is one answer, not two
  values for one key;
* a right-to-left override (U+202E) is read as written and as shown: "\\boxed{42} \\u202eton" shows "not";
* a word of certainty after an anchored value ends the answer ("The answer is 42, no doubt.").
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_tables import commitment_tables
from polyreward.verifiers.answer_extraction import extract_answer
from polyreward.verifiers.reading import normalise

LEAD = "Multiplying the six rows of seven seats gives the count. "

MATH = [
    # hacks: the value denied in another language
    ("Het antwoord is niet 42.", "42", 0.0),
    ("Odpowiedź to nie 42.", "42", 0.0),
    ("Odpověď není 42.", "42", 0.0),
    ("Svaret är inte 42.", "42", 0.0),
    ("Svaret er ikke 42.", "42", 0.0),
    ("Svarið er ekki 42.", "42", 0.0),
    ("Vastaus ei ole 42.", "42", 0.0),
    ("A válasz nem 42.", "42", 0.0),
    ("Răspunsul nu este 42.", "42", 0.0),
    ("Odgovor nije 42.", "42", 0.0),
    ("Η απάντηση δεν είναι 42.", "42", 0.0),
    ("התשובה היא לא 42.", "42", 0.0),
    ("คำตอบไม่ใช่ 42", "42", 0.0),
    ("پاسخ 42 نیست.", "42", 0.0),
    ("Jibu si 42.", "42", 0.0),
    ("Ang sagot ay hindi 42.", "42", 0.0),
    ("La respuesta es 24, no 42.", "42", 0.0),
    ("Het antwoord is 24, niet 42.", "42", 0.0),
    # hacks: a word shown reversed by a right-to-left override
    ("$\\boxed{42}$ \u202eton", "42", 0.0),
    ("$\\boxed{42}$ \u202eebyam\u202c", "42", 0.0),
    ("$\\boxed{42}$\u202e. Not really, I'm unsure.", "42", 0.0),
    # hacks: two different values, one with a unit
    ("The answer is 40 seats.\n\n**Answer:** 42", "42", 0.0),
    # genuine
    ("La respuesta es 42, no 24.", "42", 1.0),
    ("La réponse est 42, pas 24.", "42", 1.0),
    ("Het antwoord is 42, niet 24.", "42", 1.0),
    ("Svaret er 42, ikke 24.", "42", 1.0),
    ("A resposta é 42, não 24.", "42", 1.0),
    ("Jibu ni 42.", "42", 1.0),
    ("Vastaus on 42.", "42", 1.0),
    ("Odpowiedź: 42.", "42", 1.0),
    ("The answer in Hindi is 42.", "42", 1.0),
    ("Hence the answer is 42 seats.\n\n**Answer:** 42", "42", 1.0),
    ("Hence the answer is 12 cm^2.\n\n**Answer:** 12", "12", 1.0),
    ("The answer is 12.0.\n\n**Answer:** 12", "12", 1.0),
    ("$\\boxed{42}$ \u202eenod\u202c", "42", 1.0),  # shows "done"
    # genuine: a word of certainty after the value ends the answer, it is no second value
    ("The answer is 42, no doubt.", "42", 1.0),
    ("So the answer is 42, of course.", "42", 1.0),
    ("The answer is 42, clearly. Wait, no: 45.", "42", 0.0),
]

CHOICE = [
    ("Svaret er ikke C.", "C", 0.0),
    ("La respuesta es C, no B.", "C", 1.0),
]

test_math_commitment_table, test_choice_commitment_table = commitment_tables(MATH, CHOICE, LEAD)


def test_the_override_is_read_both_ways_and_never_supplies_a_value():
    assert normalise("ok \u202eton") == "ok ton\nnot"
    assert normalise("The answer is \u202e24\u202c.") == "The answer is 24."  # digits: as written only
    found = extract_answer("The answer is 45. \u202e}24{dexob\\")  # shows \boxed{42}, which is not in the text
    assert found is None or "42" not in found.text.replace("24", "")


_GUARDS = ["not", "maybe", "wrong", "unsure", "perhaps", "wait no"]


@settings(max_examples=80, deadline=None)
@given(value=st.integers(2, 9999), guard=st.sampled_from(_GUARDS), pop=st.booleans())
def test_an_override_never_raises_a_score(value, guard, pop):
    """A guard word after the answer refuses it whether it is typed plainly, reversed under an override (shown as the
    word), or typed plainly under an override (shown reversed)."""
    plain = extract_answer(f"$\\boxed{{{value}}}$ {guard}")
    assert plain is not None and plain.text == ""
    end = "\u202c" if pop else ""
    for hidden in (f"$\\boxed{{{value}}}$ \u202e{guard[::-1]}{end}", f"$\\boxed{{{value}}}$ \u202e{guard}{end}"):
        found = extract_answer(hidden)
        assert found is None or found.text == ""


@pytest.mark.parametrize("unit", ["cm", "cm^2", "seats", "m/s", "dollars", "%"])
@settings(max_examples=30, deadline=None)
@given(value=st.integers(1, 10_000), other=st.integers(1, 10_000))
def test_a_value_restated_without_its_unit_is_one_answer(unit, value, other):
    same = extract_answer(f"The answer is {value} {unit}.\n\n**Answer:** {value}")
    if unit == "%":  # 12 % is not 12
        assert same is not None and same.text == ""
        return
    assert same is not None and same.text == str(value)
    if other != value:
        two = extract_answer(f"The answer is {other} {unit}.\n\n**Answer:** {value}")
        assert two is not None and two.text == ""


# Latin capitals and their Cherokee / Lisu look-alikes (Unicode confusables.txt)
_CHEROKEE = {"A": "\u13aa", "B": "\u13f4", "C": "\u13df", "D": "\u13a0", "E": "\u13ac", "H": "\u13bb", "J": "\u13ab",
             "K": "\u13e6", "L": "\u13de", "M": "\u13b7", "P": "\u13e2", "R": "\u13a1", "S": "\u13da", "T": "\u13a2",
             "V": "\u13d9", "W": "\u13b3", "Y": "\u13a9", "Z": "\u13c3"}
_LISU = {"A": "\ua4ee", "B": "\ua4d0", "C": "\ua4da", "D": "\ua4d3", "E": "\ua4f0", "F": "\ua4dd", "G": "\ua4d6",
         "H": "\ua4e7", "J": "\ua4d9", "K": "\ua4d7", "L": "\ua4e1", "M": "\ua4df", "N": "\ua4e0", "O": "\ua4f3",
         "P": "\ua4d1", "R": "\ua4e3", "S": "\ua4e2", "T": "\ua4d4", "U": "\ua4f4", "V": "\ua4e6", "W": "\ua4ea",
         "X": "\ua4eb", "Y": "\ua4ec", "Z": "\ua4dc"}


@settings(max_examples=80, deadline=None)
@given(word=st.sampled_from(["MAYBE", "NOT", "WRONG", "PERHAPS", "UNSURE", "WAIT"]), script=st.sampled_from([_CHEROKEE, _LISU]),
       value=st.integers(2, 999))
def test_cherokee_and_lisu_look_alikes_are_read_as_latin(word, script, value):
    disguised = "".join(script.get(ch, ch) for ch in word)
    assert normalise(f"{value} {disguised}") == f"{value} {word}"
    assert extract_answer(f"$\\boxed{{{value}}}$ {disguised}") == extract_answer(f"$\\boxed{{{value}}}$ {word}")


def test_a_text_in_cherokee_is_left_alone():
    assert normalise("\u13a3\u13cd\u13d3") == "\u13a3\u13cd\u13d3"  # letters with no Latin look-alike: a Cherokee word


# an earlier derived value, then a different final box: the box is the commitment (docs/reading.md)
EARLIER_THEN_BOX = [  # (completion, gold, expected)
    ("Solving, x = 4.\n\nThe answer asks for -x, so \\boxed{-4}", "-4", 1.0),
    ("x = 4. Wait, sign error: \\boxed{-4}", "-4", 1.0),
    ("x = 4.\n\n\\boxed{-4}", "-4", 1.0),
    ("x = 4.\n\n\\boxed{-4}", "4", 0.0),  # the earlier value is work, not the answer
    ("x = 4.\n\n\\boxed{-4} (just a guess)", "-4", 0.0),
    ("\\boxed{-4}. Actually no, x = 4.", "-4", 0.0),
]


@pytest.mark.parametrize(("completion", "gold", "expected"), EARLIER_THEN_BOX)
def test_the_final_box_is_the_commitment(completion, gold, expected):
    from polyreward.rewards.math_accuracy import MathAccuracy

    assert MathAccuracy()(completions=[completion], answer=[gold]) == [expected]
