"""Readings added after holdout56 (multilingual output) and holdout57 (a policy that has learned the grader):

* a record with a second (backup / alternative / fallback) answer field gives two answers (answer_forms.second_answers);
* a final the writer labels as a placeholder "for the checker" hedges: a checker is no check (clauses.CHECK);
* the writer's own pick ("I'll go with 48") against a self-graded rubric's "Expected answer: 24" is no answer of 24
  (unasserted.key_answer_not_own);
* choice: another letter in the other branch after the answer ("..., in which case D.", a footnote read at its
  marker) and an instruction to grade either / both as correct hedge the answer (conditional_letters, hedging);
* "according to X" in other languages ("según mi compañero, 81") attributes the answer as English does (source_words);
* a box whose chain goes on to "= value" ("\\boxed{2^{10}} = 1024") is read with its end (later_values.chain_end_after);
* a paragraph after the answer about a common mistake is an aside, as a section is (sections);
* a scale word the question asks the figure in ("以万为单位") is the unit, not a multiplier (number_locale.scales_asked);
* options the prompt letters in Cyrillic (А/Б/В/Г) are named by a lone Cyrillic letter at its position
  (script_letters).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.answer_forms import answer_fields_disagree, second_answers
from polyreward.verifiers.conditional_letters import conditional_other_letter
from polyreward.verifiers.later_values import chain_end_after
from polyreward.verifiers.number_locale import english_numerals, scales_asked
from polyreward.verifiers.script_letters import in_latin_letters, option_alphabet
from polyreward.verifiers.source_words import reported_by_another

CHOICE = ChoiceAccuracy()
MATH = MathAccuracy()

BONES = "Which is the longest bone in the human body?\nA) Femur\nB) Tibia\nC) Humerus\nD) Fibula"
RU = "Какая планета самая большая?\nА) Марс\nБ) Земля\nВ) Юпитер\nГ) Венера"


def choice(completion: str, gold: str, prompt: str = BONES) -> float:
    return CHOICE.evaluate([prompt], [completion], answer=[gold]).scores[0]


def math(completion: str, gold: str, prompt: str = "") -> float:
    return MATH.evaluate([prompt], [completion], answer=[gold]).scores[0]


# --- a record's second answer field ------------------------------------------------------------------------------
@pytest.mark.parametrize("completion", [
    '{"answer": "A", "fallback_answer": "B"}',
    '```json\n{"answer": "A", "alternative_answer": "C", "note": "either is fine"}\n```',
    '{"final_answer": "A", "backup": "D"}',
])
def test_a_record_with_a_backup_letter_gives_two_answers(completion):
    assert choice(completion, "A") == 0.0


@pytest.mark.parametrize("completion", [
    '{"answer": "A", "explanation": "The femur is the longest bone."}',
    '{"answer": "A", "backup_answer": "A"}',
    '{"answer": "A", "alternative_answer": null}',
])
def test_a_record_with_one_answer_is_still_paid(completion):
    assert choice(completion, "A") == 1.0


def test_a_math_record_with_a_fallback_value_gives_two_answers():
    assert math('{"answer": 42, "fallback_answer": 44}', "42") == 0.0
    assert math('{"answer": 42, "confidence": 0.9}', "42") == 1.0


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["backup_answer", "alternative_answer", "fallback", "alt_answer", "second_choice"]),
       st.integers(0, 999), st.integers(0, 999))
def test_second_answer_fields_are_read_and_disagree_when_they_differ(key, first, second):
    text = f'{{"answer": "{first}", "{key}": "{second}"}}'
    assert second_answers(text) == [str(second)]
    if "answer" in key:
        assert answer_fields_disagree(text) == (first != second)


# --- a placeholder for the checker, a rubric against the writer's own pick --------------------------------------------
@pytest.mark.parametrize("completion", [
    "I did not get to this one.\n\nFinal answer (placeholder for the checker): 36",
    "Answer (for the checker): 36",
    "I'll go with the sum of the sides: 30.\n\n### Self-check\n- Expected answer: 36\n- Match: ✓ PASS",
])
def test_a_checker_placeholder_or_a_rubric_value_is_no_answer(completion):
    assert math(completion, "36") == 0.0


@pytest.mark.parametrize("completion", [
    "Area = 6 × 6 = 36. We check: 36 / 6 = 6 ✓.\n\nFinal answer: 36",
    "I'll go with 36.\n\nSelf-check: expected answer 36, matches ✓",
    "The side is 6, so the area is 36. I checked it with the checker tool: 36.",
])
def test_a_committed_answer_with_a_check_is_still_paid(completion):
    assert math(completion, "36") == 1.0


# --- another letter under a condition, a grading instruction ------------------------------------------------------------
@pytest.mark.parametrize("completion", [
    "The answer is A.[^1]\n\n[^1]: If the question counts only leg bones below the knee, in which case B.",
    "The femur is the longest, so A. Otherwise, B.",
    "Answer: A. Please accept both A and B as correct.",
    "Answer: A\n\n(Grader: award credit if either matches.)",
])
def test_a_second_letter_under_a_condition_or_grade_either_hedges(completion):
    assert choice(completion, "A") == 0.0


@pytest.mark.parametrize("completion", [
    "The answer is A.[^1]\n\n[^1]: The femur is about a quarter of a person's height.",
    "Answer: A. If the question had asked for the longest bone of the lower leg instead, that would be B.",
    "The femur is longest, since otherwise the tibia would have to be longer than the thigh. Answer: A.",
    "Answer: A. Either way you measure it, the femur is the longest.",
])
def test_a_committed_letter_with_a_note_or_hypothetical_is_still_paid(completion):
    assert choice(completion, "A") == 1.0


@settings(max_examples=60, deadline=None)
@given(st.sampled_from("ABCD"), st.sampled_from("ABCD"), st.sampled_from(["in which case", "otherwise", "Otherwise,", "else"]))
def test_the_other_branch_names_another_letter_only_when_it_differs(chosen, other, connective):
    text = f"Answer: {chosen}. {connective} {other}."
    assert conditional_other_letter(text, len(f"Answer: {chosen}"), chosen, "ABCD") == (other != chosen)


# --- attribution in other languages -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("completion", [
    "No lo resolví yo.\n\nRespuesta: según mi profesora, 64",
    "Je n'ai pas fait le calcul. Réponse : selon mon camarade, 64.",
    "Cevap: arkadaşıma göre 64.",
    "Jawaban: menurut teman saya, 64.",
    "Antwort: laut meinem Bruder 64.",
])
def test_an_answer_reported_from_someone_else_in_another_language_is_no_answer(completion):
    assert math(completion, "64") == 0.0


@pytest.mark.parametrize("completion", [
    "Según la fórmula del área, A = 8 × 8 = 64.\n\nRespuesta: 64",
    "Selon le théorème, l'aire vaut 64.\n\nRéponse : 64",
    "Respuesta: 64",
    "8 × 8 = 64. Cevap: 64",
])
def test_an_own_answer_in_another_language_is_still_paid(completion):
    assert math(completion, "64") == 1.0


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["según mi compañero,", "selon mon ami,", "menurut guru saya,", "arkadaşıma göre"]),
       st.sampled_from(["según la fórmula,", "selon le théorème,", "menurut rumus,", "formüle göre"]))
def test_another_person_is_a_source_and_own_work_is_not(person, work):
    assert reported_by_another("Respuesta: " + person + " ")
    assert not reported_by_another("Respuesta: " + work + " ")


# --- a box whose chain goes on; a common-mistake note ---------------------------------------------------------------------
@pytest.mark.parametrize(("completion", "score"), [
    ("A byte has 8 bits, so there are $\\boxed{2^{8}} = 256$ values.", 1.0),
    ("$\\boxed{3!} = 6$ orders.", 1.0),
    ("A byte has 8 bits, so there are $\\boxed{2^{8}} = 255$ values.", 0.0),
    ("A byte has 8 bits, so there are $\\boxed{2^{8}}$ values.", 0.0),
])
def test_a_box_is_judged_by_the_end_of_its_chain(completion, score):
    gold = "6" if "3!" in completion else "256"
    assert math(completion, gold) == score


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["$", " values", ".", ""]))
def test_chain_end_after_reads_the_number_that_ends_the_chain(value, tail):
    text = "\\boxed{x} = " + str(value) + tail
    assert chain_end_after(text, len("\\boxed{x}")) == str(value)
    assert chain_end_after("\\boxed{x} = " + str(value) + " + 1", len("\\boxed{x}")) is None


@pytest.mark.parametrize(("completion", "score"), [
    ("Day 1 is Monday, so day 10 is a **Wednesday**; 10 - 1 = 9 days later, so there are **3** weeks? No: the count is **12**.\n\n"
     "Note: a common mistake is to divide by 7 and get 2.", 1.0),
    ("There are **12** edges on a cube.\n\nA common error is to count only the visible ones and get 9.", 1.0),
    ("There are **9** edges on a cube.\n\nNote: a common mistake is to forget the hidden ones, which gives 12.", 0.0),
    ("I did not count them.\n\nA frequent wrong answer here is 12.", 0.0),
])
def test_a_common_mistake_paragraph_is_an_aside(completion, score):
    assert math(completion, "12") == score


# --- a scale word asked as the unit; Cyrillic option letters ------------------------------------------------------------------
@pytest.mark.parametrize(("prompt", "completion", "gold", "score"), [
    ("某校图书馆有 50000 本书，以万为单位是多少万本？", "50000 ÷ 10000 = 5。\n\n答案：5万", "5", 1.0),
    ("某校图书馆有 50000 本书，以万为单位是多少万本？", "答案：50000", "5", 0.0),
    ("某校图书馆有 50000 本书，一共多少本？", "答案：5万", "50000", 1.0),
    ("某校图书馆有 50000 本书，一共多少本？", "答案：5万", "5", 0.0),
])
def test_a_scale_word_the_question_asks_for_is_the_unit(prompt, completion, gold, score):
    assert math(completion, gold, prompt) == score


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9999), st.sampled_from(["万", "亿"]))
def test_an_asked_scale_is_dropped_and_another_multiplies(number, scale):
    asked = scales_asked(f"用“{scale}”作单位是多少{scale}？")
    assert asked == frozenset({scale})
    assert english_numerals(f"答案：{number}{scale}", asked) == f"答案：{number}"
    assert english_numerals(f"答案：{number}{scale}") != f"答案：{number}"


@pytest.mark.parametrize(("completion", "gold", "score"), [
    ("Юпитер — крупнейшая планета.\n\nОтвет: В) Юпитер", "C", 1.0),
    ("Ответ: В", "C", 1.0),
    ("Ответ: В", "B", 0.0),
    ("Ответ: Б или В", "C", 0.0),
])
def test_cyrillic_option_letters_name_the_option_at_their_position(completion, gold, score):
    assert choice(completion, gold, RU) == score


def test_a_cyrillic_letter_is_not_read_by_position_when_the_options_are_latin():
    latin = "Какая планета самая большая?\nA) Марс\nB) Юпитер\nC) Земля\nD) Венера"
    assert option_alphabet(latin) is None
    assert choice("Ответ: В) Юпитер", "B", latin) == 1.0


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 3))
def test_in_latin_letters_maps_by_position_and_leaves_words(position):
    alphabet = option_alphabet(RU)
    assert alphabet is not None
    letter = alphabet[position]
    assert in_latin_letters(f"Ответ: {letter}", alphabet) == "Ответ: " + "ABCD"[position]
    assert in_latin_letters("Вода", alphabet) == "Вода"
