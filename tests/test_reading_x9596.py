"""What ``holdout95`` and ``holdout96`` (written blind: dataset and model-family answer conventions; what a policy
converges on after long RL against a lazy reader) showed, tables of realistic output both ways:

* **a footnote read at its marker in the text read for conflicts** (``footnotes.notes_at_markers``): ``Answer: E[^1]``
  with ``[^1]: Option C (8) is a multiple of 4 but not of 6.`` is a reason after the answer, as the same words in
  prose are, while a note that offers another value (``[^1]: or B, depending on the altitude.``) or corrects to one
  is still an alternative; a definition with no marker stays where it is.
* **a value inside a larger expression is not where the answer stands** (``remark_values.piece_of_notation``): the 2
  of ``\\frac{1}{2}`` or of ``x^2`` is no occurrence of the answer 2, so ``$2$ or $\\frac{1}{2}$`` is read at the first
  2, before its alternative (holdout95's Minerva line was read at the denominator, with nothing after it).
* **"or rather" in other languages is a correction** (``withdrawal_words.CORRECTION``): ``Mejor dicho, la B``, ``ou
  plutôt``, ``besser gesagt``, ``o meglio``, ``ou melhor`` replace the answer before them with the one after, as
  "Correction:" does: the first answer is no longer paid, the corrected one is.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.footnotes import notes_at_markers
from polyreward.verifiers.math_normalize import subscript_bases
from polyreward.verifiers.remark_values import piece_of_notation

LCM = "What is the least common multiple of 4 and 6?\nA. 2\nB. 6\nC. 8\nD. 10\nE. 12"
lcm = scorer(ChoiceAccuracy, LCM, gold="E")
AREA = "A rectangle has perimeter 18 and width 4. What is its area?"
area = scorer(MathAccuracy, AREA, gold="20")


@pytest.mark.parametrize("completion, paid", [
    ("Answer: E[^1]\n\n[^1]: Option C (8) is a multiple of 4 but not of 6.", 1.0),
    ("Answer: E[^1]\n\n[^1]: 12 is the smallest number divisible by both.", 1.0),
    ("**Answer: E**[^why]\n\n[^why]: B (6) is a multiple of 6 but not of 4.", 1.0),
    ("Respuesta: E[^1]\n\n[^1]: La opción C (8) es múltiplo de 4 pero no de 6.", 1.0),
    ("Answer: E[^1]\n\n[^1]: or B, depending on the reading.", 0.0),
    ("Answer: E[^1]\n\n[^1]: Actually C.", 0.0),
    ("Answer: E[^1]\n\n[^1]: Option C (8) is a multiple of 4 but not of 6. So maybe C.", 0.0),
    ("Answer: E[^1]\n\n[^1]: Option C (8) is a multiple of 4 but not of 6; I would pick C.", 0.0),
])
def test_a_footnote_of_reason_after_a_letter(completion, paid):
    assert lcm(completion) == paid


@pytest.mark.parametrize("completion, paid", [
    ("Answer: 20[^1]\n\n[^1]: 9 - 4 = 5, and 4 × 5 = 20.", 1.0),
    ("**Answer:** 20[^1]\n\n[^1]: Width 4 and length 5 give 4 × 5 = 20.", 1.0),
    ("Answer: 20[^1]\n\n[^1]: Or 25 — I'm not sure which.", 0.0),
    ("Answer: 20[^1]\n\n[^1]: Actually 25.", 0.0),
])
def test_a_footnote_after_a_number(completion, paid):
    assert area(completion) == paid


def test_a_note_is_read_at_its_marker_and_one_without_a_marker_stays():
    text = "Answer: E[^1]\n\n[^1]: Option C (8) is out. It is no multiple of 6.\n[^2]: stray note"
    read = notes_at_markers(text)
    assert read.startswith("Answer: E (Option C (8) is out. It is no multiple of 6.)")
    assert "[^2]: stray note" in read and "[^1]" not in read


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["A", "B", "C", "D", "E"]), st.text(alphabet="abcdefgh ,.()0123456789", max_size=60).filter(str.strip))
def test_notes_at_markers_keeps_the_text_without_notes(letter, words):
    text = f"Answer: {letter}. {words}"
    assert notes_at_markers(text) == text
    noted = notes_at_markers(f"Answer: {letter}[^1]\n\n[^1]: {words}")
    assert noted.startswith(f"Answer: {letter} (") and "[^1]" not in noted


SLOPE = "Problem:\nWhat is the slope of the line through $(1, 2)$ and $(4, 8)$?\n\nSolution:"
slope = scorer(MathAccuracy, SLOPE, gold="2")


@pytest.mark.parametrize("completion, paid", [
    ("Slope $= \\frac{8-2}{4-1}$.\nFinal Answer: The final answer is $2$. I hope it is correct.", 1.0),
    ("Final Answer: The final answer is $2$, i.e. $\\frac{6}{3}$. I hope it is correct.", 1.0),
    ("The slope is $\\frac{6}{3} = 2$.", 1.0),
    ("Final Answer: The final answer is $2$. I hope it is correct.\n\nCheck: $\\frac{8-2}{4-1} = \\frac{6}{3} = 2$.", 1.0),
    ("Slope $= \\frac{8-2}{4-1}$.\nFinal Answer: The final answer is $2$ or $\\frac{1}{2}$. I hope it is correct.", 0.0),
    ("Final Answer: The final answer is $2$ or $\\sqrt{2}$. I hope it is correct.", 0.0),
    ("The slope is 2 (or 2^2 if squared). I hope it is correct.", 0.0),
    ("The slope is $2$ or $\\dfrac{1}{2}$, I hope.", 0.0),
])
def test_a_value_inside_a_fraction_or_a_power_is_not_the_answer(completion, paid):
    assert slope(completion) == paid


@pytest.mark.parametrize("text, at, piece", [
    ("$\\frac{1}{2}$", 10, True),
    ("$\\frac{2}{3}$", 7, True),
    ("x^2", 2, True),
    ("x^{2}", 3, True),
    ("a_{2}", 3, True),
    ("\\sqrt{2}", 6, True),
    ("\\sqrt[3]{2}", 9, True),
    ("\\binom{4}{2}", 10, True),
    ("$2$", 1, False),
    ("\\boxed{2}", 7, False),
    ("\\text{2}", 6, False),
    ("is 2.", 3, False),
])
def test_piece_of_notation(text, at, piece):
    assert piece_of_notation(text, at) is piece


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=1, max_value=99), st.integers(min_value=1, max_value=99),
       st.sampled_from(["\\frac{{{a}}}{{{b}}}", "\\dfrac{{{a}}}{{{b}}}", "{a}^{{{b}}}", "\\sqrt{{{b}}}"]))
def test_a_value_and_an_alternative_holding_it_is_never_paid(a, b, form):
    assume(a != b * b and a ** b != b and b > 1)  # the alternative is another value
    other = form.format(a=a, b=b)
    gold = str(b)
    math = scorer(MathAccuracy, "Compute it.", gold=gold)
    assert math(f"Final Answer: The final answer is ${gold}$ or ${other}$. I hope it is correct.") == 0.0


RIVER = "¿Cuál es el río más largo de Europa?\nA. Volga\nB. Danubio\nC. Rin\nD. Sena"
river = scorer(ChoiceAccuracy, RIVER)


@pytest.mark.parametrize("completion, gold, paid", [
    ("Respuesta: A\n\nMejor dicho, la B: el Danubio es el río más largo de Europa.", "A", 0.0),
    ("Respuesta: A. O mejor dicho, la B.", "A", 0.0),
    ("Respuesta: A. O mejor dicho, la B.", "B", 1.0),
    ("Respuesta: B.\n\nMejor dicho, la A.", "A", 1.0),
    ("Réponse : B. Ou plutôt A.", "A", 1.0),
    ("Réponse : A. Ou plutôt B, le Danube.", "A", 0.0),
    ("Antwort: B. Besser gesagt: A.", "A", 1.0),
    ("Antwort: A. Besser gesagt: B, die Donau.", "A", 0.0),
    ("Risposta: B. O meglio, A.", "A", 1.0),
    ("Risposta: A. O meglio, B: il Danubio.", "A", 0.0),
    ("Resposta: B. Ou melhor, A.", "A", 1.0),
    ("Resposta: A. Ou melhor, B: o Danúbio.", "A", 0.0),
    ("Respuesta: A. Mejor dicho, no estoy seguro.", "A", 0.0),
    ("Respuesta: A (el Volga, o mejor dicho, el río Volga).", "A", 1.0),
])
def test_or_rather_in_other_languages_corrects(completion, gold, paid):
    assert river(completion, gold) == paid


@pytest.mark.parametrize("completion, gold, paid", [
    ("La respuesta es 15. Mejor dicho, 12.", "12", 1.0),
    ("La respuesta es 12. Mejor dicho, 15.", "12", 0.0),
    ("Réponse : 15, ou plutôt 12.", "12", 1.0),
    ("Réponse : 12, ou plutôt 15.", "12", 0.0),
    ("Das Ergebnis ist 12 (besser gesagt 12 cm).", "12", 1.0),
])
def test_or_rather_in_other_languages_corrects_a_number(completion, gold, paid):
    assert scorer(MathAccuracy, "Compute it.")(completion, gold) == paid


CAPITAL = "What is the capital of Australia?\nA. Sydney\nB. Canberra\nC. Melbourne\nD. Perth"
capital = scorer(ChoiceAccuracy, CAPITAL, gold="B")


@pytest.mark.parametrize("completion, paid", [
    ("- [ ] A\n- [x] B\n- [ ] C\n- [ ] D", 1.0),
    ("[ ] A\n[X] B\n[ ] C\n[ ] D", 1.0),
    ("☐ A\n☑ B\n☐ C\n☐ D", 1.0),
    ("* [ ] (A)\n* [x] (B)\n* [ ] (C)\n* [ ] (D)", 1.0),
    ("- [x] B\n- [ ] A\n- [ ] C", 1.0),
    ("- [ ] A\n- [x] B\n- [ ] C\n- [ ] D\n\nCanberra has been the capital since 1913.", 1.0),
    ("- [ ] A\n- [x] B\n- [x] C\n- [ ] D", 0.0),
    ("- [ ] A\n- [ ] B\n- [x] C\n- [ ] D", 0.0),
    ("- [ ] A\n- [x] B\n- [ ] C\n- [ ] D\n\nActually C.", 0.0),
    ("- [ ] A\n- [x] B\n- [ ] C\n- [ ] D\n\nNot sure, maybe C.", 0.0),
    ("- [ ] A\n- [x] B\n\nNot sure, maybe C.", 0.0),
    ("- [ ] A\n- [x] B\n- [ ] C\n- [ ] D\n\nMaybe C.", 0.0),
    ("- [ ] A\n- [x] B\n- [ ] C\n- [ ] D\n\nB, though C is also possible.", 0.0),
    ("- [ ] A\n- [x] B\n- [ ] C\n- [ ] D\n\nB is a guess.", 0.0),
])
def test_a_checklist_of_bare_letters_with_one_box_ticked(completion, paid):
    assert capital(completion) == paid


@settings(max_examples=40, deadline=None)
@given(st.permutations("ABCD"), st.sampled_from(["- [x] {}", "[X] {}", "☑ {}", "* [x] ({})"]))
def test_the_ticked_letter_of_a_checklist_in_any_order_is_the_answer(order, ticked):
    unticked = ticked.replace("[x]", "[ ]").replace("[X]", "[ ]").replace("☑", "☐")
    text = "\n".join((ticked if letter == "B" else unticked).format(letter) for letter in order)
    assert capital(text) == 1.0
    assert capital(text, gold="C") == 0.0


BINARY = "Convert $101_2$ to base 10."
binary = scorer(MathAccuracy, BINARY, gold="5")


@pytest.mark.parametrize("completion, gold, paid", [
    ("101₂ = 1·4 + 0·2 + 1 = 5₁₀", "5", 1.0),
    ("101₂ = 5₁₀", "5", 1.0),
    ("In decimal: 101₂ = 5₁₀.", "5", 1.0),
    ("The answer is 5₁₀.", "5", 1.0),
    ("1101₂ = 8 + 4 + 0 + 1 = 13₁₀.", "13", 1.0),
    ("11₁₀ = 1011₂", "1011_2", 1.0),
    ("101₂ = 1·4 + 0·2 + 1 = 7₁₀", "5", 0.0),
    ("101₂ = 1·4 + 0·2 + 1 = 5₁₀ or 6₁₀", "5", 0.0),
    ("101₂ = 1·4 + 0·2 + 1 = 5₁₀. Or maybe 6.", "5", 0.0),
    ("101₂ = 1·4 + 0·2 + 1 = 5₁₀. Actually 6₁₀.", "5", 0.0),
    ("1101₂ = 8 + 4 + 0 + 1 = 13₁₀, or 14₁₀.", "13", 0.0),
])
def test_a_base_subscript_in_unicode(completion, gold, paid):
    assert binary(completion, gold) == paid


@pytest.mark.parametrize("text, read", [
    ("101₂ = 5₁₀", "101_{2} = 5_{10}"),
    ("x₁ + x₂", "x₁ + x₂"),
    ("H₂O", "H₂O"),
    ("no subscript 42", "no subscript 42"),
])
def test_subscript_bases(text, read):
    assert subscript_bases(text) == read


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=1, max_value=4095))
def test_a_binary_numeral_and_its_decimal_value_in_subscripts(value):
    completion = f"{format(value, 'b')}₂ = {value}₁₀"
    assert binary(completion, str(value)) == 1.0
    assert binary(completion, str(value + 1)) == 0.0


TRIP = "A car travels at 90 km/h for 2 hours. How far does it travel, in kilometres?"
trip = scorer(MathAccuracy, TRIP, gold="180")


@pytest.mark.parametrize("completion, paid", [
    ("Final answer: 180 km if the speed is in km/h, as stated.", 1.0),
    ("Final answer: 180 km if the speed is constant, which it is: 90 km each hour for 2 hours.", 1.0),
    ("Final answer: 180 km (if km/h, as the prompt says).", 1.0),
    ("Final answer: 180 km, assuming no stops.", 1.0),
    ("Final answer: 180 km if km/h, as given; in 2 hours at 90 km/h the car covers 180 km.", 1.0),
    ("Final answer: 180 km if km/h, 290 km if mph — I'll let you choose.", 0.0),
    ("Final answer: 180 km if km/h, 290 km if mph.", 0.0),
    ("Final answer: 180 km if km/h; 290 km if mph.", 0.0),
    ("Final answer: 180 km if the speed is in km/h, 112 miles if it is in mph.", 0.0),
    ("Antwort: 180 km, wenn km/h gemeint ist, 290 km, wenn mph.", 0.0),
    ("Final answer: 180 if km/h, 290 if mph.", 0.0),
])
def test_a_second_case_with_its_unit_before_its_condition(completion, paid):
    assert trip(completion) == paid


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=1, max_value=999), st.sampled_from(["km", "miles", "m", "kg", "€", "dollars"]),
       st.sampled_from(["if", "when", "unless"]), st.sampled_from([", ", "; ", ", or "]))
def test_two_values_each_under_its_own_condition_are_never_paid(other, unit, word, join):
    assume(other != 180)
    completion = f"Final answer: 180 {unit} {word} the first reading holds{join}{other} {unit} {word} the second does."
    assert trip(completion) == 0.0


IRRATIONAL = ("Which of these numbers is irrational?\nA. 0.25\nB. 4/9\nC. √2\nD. √16\n\n"
              "End your response with '#### <letter>'.")
irrational = scorer(ChoiceAccuracy, IRRATIONAL, gold="C")


@pytest.mark.parametrize("completion, paid", [
    ("3/8 = 0.375, so √2 is the only one that is not a ratio of integers.\n#### C", 1.0),
    ("Some work.\n#### C\n#### C", 1.0),
    ("#### A\nWait, √2 is the irrational one.\n#### C", 1.0),
    ("#### A\nNo wait: A is 0.25, rational. The irrational one is √2.\n#### C", 1.0),
    ("√16 = 4 is rational, 0.25 and 4/9 are rational.\n#### A\n#### C", 0.0),
    ("#### C\n#### A", 0.0),
    ("#### A\n#### C\n#### A", 0.0),
    ("#### (A)\n#### (C)", 0.0),
    ("Answer: A\nAnswer: C", 0.0),
])
def test_two_gsm8k_final_lines_with_letters(completion, paid):
    assert irrational(completion) == paid


@settings(max_examples=40, deadline=None)
@given(st.sampled_from("ABD"), st.booleans())
def test_another_final_mark_beside_the_gold_is_never_paid(other, gold_last):
    lines = [f"#### {other}", "#### C"] if gold_last else ["#### C", f"#### {other}"]
    assert irrational("Checking each option.\n" + "\n".join(lines)) == 0.0
