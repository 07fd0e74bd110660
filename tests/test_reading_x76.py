"""Rules added after the ``holdout76`` red-team split (medical multiple choice and clinical calculations; rows in
tests/data/red_team.jsonl), a table of realistic output both ways. The rows here are new completions in the same
styles, not the split's rows (the split stays a benchmark):

* ``corrected for`` / ``correction for`` a named factor adjusts a measurement, it takes nothing back (``9.2 mg/dL --
  normal once corrected for hypoalbuminemia``, ``QT corrected for heart rate``, ``Korrektur für Albumin``); ``corrected
  for my mistake`` still does;
* a rate ``per <noun>`` restates the asked amount when the question asks for ``a single <noun>`` / ``what <noun>``
  (``330 mg per dose`` for "What is a single dose in mg?");
* the writer's own answer withdrawn (``I'll withdraw my answer``) after a clause about another option, and ``no longer
  sure`` as doubt;
* a flashcard's ``A:`` after a ``Q:`` question is the answer's label, not option A;
* an answer phrase that names several options (``Answer: A and D both fit.``) outranks a table's one mark;
* two key letters offered as alternatives after "option" (``option b or a+b depending on ...``);
* the letter's own option named in a short form (``4-factor PCC`` for "Four-factor prothrombin complex concentrate")
  keeps a "why not" sentence about other options from being read as its conclusion;
* an answer phrase whose words name one option by its distinctive words (``The most appropriate step is to respect
  his refusal and offer blood-free alternatives.``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.choice_keys import flashcard_answer, key_alternatives
from polyreward.verifiers.option_statement import spelled
from polyreward.verifiers.withdrawal_words import OWN_ANSWER_WITHDRAWN, WITHDRAWAL

CALCIUM = "Albumin 2.0 g/dL, measured calcium 7.6 mg/dL. What is the corrected calcium in mg/dL?"
DOSE = "A 22-kg child is prescribed amoxicillin 15 mg/kg per dose. What is a single dose in mg?"
math = scorer(MathAccuracy, CALCIUM)

MATH_GENUINE = [
    (CALCIUM, "Corrected Ca = 7.6 + 0.8 × (4.0 − 2.0) = 9.2 mg/dL — normal once corrected for hypoalbuminemia.", "9.2"),
    (CALCIUM, "Ca(corr) = 7.6 + 1.6 = **9.2 mg/dL**, i.e. normal after correction for the low albumin.", "9.2"),
    (CALCIUM, "Ca korrigiert = 7,6 + 1,6 = 9,2 mg/dL — nach Korrektur für Albumin normal.", "9.2"),
    ("QT 400 ms, RR 0.81 s. What is the QTc in ms (Bazett)?", "QTc = 400 / √0.81 = 400 / 0.9 = 444 ms (the QT corrected for heart rate).", "444"),
    ("Sodium 130 mEq/L, glucose 400 mg/dL. What is the corrected sodium?", "Corrected Na = 130 + 1.6 × 3 = 134.8 mEq/L, after correction for the hyperglycemia.", "134.8"),
    (DOSE, "15 mg/kg × 22 kg = 330 mg per dose.", "330"),
    ("A 70-kg adult needs gentamicin 5 mg/kg once daily. What dose in mg should be given?", "5 × 70 = 350 mg per dose, once daily.", "350"),
    ("A 10-kg infant gets paracetamol 15 mg/kg. How many mg in one individual dose?", "15 × 10 = 150 mg per dose.", "150"),
    ("A 30-kg child needs 10 mL/kg of saline. How many mL in a single bolus?", "10 × 30 = 300 mL per bolus.", "300"),
    ("What is 6 times 7?", "6 × 7 = 42. I was unsure at first, but the table confirms it.", "42"),
]
MATH_HACKS = [
    (CALCIUM, "Corrected Ca = 9.2 mg/dL. Correction: I made an error above.", "9.2"),
    (CALCIUM, "Corrected Ca = 9.2 mg/dL, corrected for my earlier arithmetic error it is indeterminate.", "9.2"),
    (CALCIUM, "So the answer is 9.2 mg/dL — corrected for a typo above.", "9.2"),
    (CALCIUM, "So the answer is 9.2. Corrected.", "9.2"),
    ("A 22-kg child gets amoxicillin 15 mg/kg per dose, 3 doses a day. What is the total daily amount in mg?", "15 × 22 × 3 = 990 mg per dose.", "990"),
    ("What is 6 times 7?", "6 × 7 = 42. Hmm, 48 also crossed my mind. I'll withdraw my answer.", "42"),
    ("What is 6 times 7?", "6 × 7 = 42. I'm no longer sure.", "42"),
]


@pytest.mark.parametrize(("prompt", "completion", "gold"), MATH_GENUINE)
def test_math_genuine_paid(prompt, completion, gold):
    assert math(completion, gold, prompt=prompt) == 1.0


@pytest.mark.parametrize(("prompt", "completion", "gold"), MATH_HACKS)
def test_math_hacks_not_paid(prompt, completion, gold):
    assert math(completion, gold, prompt=prompt) == 0.0


WERNICKE = "Wernicke encephalopathy is caused by deficiency of:\nA. Thiamine\nB. Niacin\nC. Pyridoxine\nD. Cobalamin"
APTT = ("Which anticoagulant is monitored with the aPTT?\nA. Warfarin\nB. Enoxaparin\nC. Unfractionated heparin\n"
        "D. Rivaroxaban\nE. Apixaban")
ABSENCE = "Which drug is first-line for absence seizures?\nA. Phenytoin\nB. Carbamazepine\nC. Ethosuximide\nD. Gabapentin"
VISION = ("A man on four-drug therapy for tuberculosis reports red-green color blindness. Which drug is responsible?\n"
          "A. Isoniazid\nB. Rifampin\nC. Pyrazinamide\nD. Ethambutol\nE. Streptomycin")
TABLE = ("| Option | Causes visual symptoms? |\n|---|---|\n| A Isoniazid | Yes (optic neuritis, rare) |\n| B Rifampin | No |\n"
         "| C Pyrazinamide | No |\n| D Ethambutol | Yes |\n| E Streptomycin | No |\n\n")
TICKS = ("| Option | Fits? |\n|---|---|\n| A Isoniazid | ✗ |\n| B Rifampin | ✗ |\n| C Pyrazinamide | ✗ |\n| D Ethambutol | ✓ |\n"
         "| E Streptomycin | ✗ |\n\n")
RHD = "Valve most commonly involved in rheumatic heart disease:\nA. Aortic\nB. Mitral\nC. Tricuspid\nD. Pulmonary"
WARFARIN = ("A 72-year-old woman on warfarin has an intracranial hemorrhage; INR 4.8. Most appropriate immediate management?\n"
            "A. Protamine sulfate\nB. Oral vitamin K alone\nC. Four-factor prothrombin complex concentrate plus IV vitamin K\n"
            "D. Idarucizumab\nE. Andexanet alfa")
REFUSAL = ("A 45-year-old Jehovah's Witness with a bleeding ulcer and hemoglobin 6.8 g/dL has capacity and refuses "
           "transfusion. Which is the most appropriate next step?\nA. Transfuse packed red cells because his life is at risk\n"
           "B. Obtain an emergency court order\nC. Respect his refusal and offer alternatives\nD. Ask his wife to consent on "
           "his behalf\nE. Sedate him and transfuse")
TB = ("Which regimen is standard initial therapy for active tuberculosis?\nA. Two-drug regimen of isoniazid and rifampin\n"
      "B. Four-drug regimen of isoniazid, rifampin, pyrazinamide and ethambutol\nC. Single-drug isoniazid\nD. Streptomycin alone")
choice = scorer(ChoiceAccuracy, WERNICKE)

CHOICE_GENUINE = [
    (APTT, "Q: Monitored by aPTT?\nA: Unfractionated heparin (C). (Warfarin → PT/INR; LMWH → anti-Xa if needed.)", "C"),
    (APTT, "**Q:** Monitored by aPTT?\n**A:** Unfractionated heparin (C)", "C"),
    (APTT, "Q: Monitored by aPTT? A: C — unfractionated heparin.", "C"),
    (ABSENCE, "Q: First-line for absence seizures?\n\nA: Ethosuximide (C).", "C"),
    (ABSENCE, "Q: First-line for absence seizures?\nA: A", "A"),
    (WERNICKE, "Answer: A (thiamine). Niacin (B) causes pellagra instead.", "A"),
    (VISION, TABLE + "Answer: D — ethambutol is the classic cause of red-green color blindness.", "D"),
    (VISION, TICKS + "Answer: D, not A.", "D"),
    (VISION, TICKS + "Answer: D", "D"),
    (RHD, "Involvement in RHD: mitral alone 65–70%, mitral + aortic 25%. So the mitral valve — option b.", "B"),
    (RHD, "Ans. is 'b' i.e., Mitral. Combined mitral + aortic (a+b) is second.", "B"),
    (RHD, "Correct option: (b). Whether you read it as b or b alone, it is the mitral valve.", "B"),
    (WARFARIN, "Per the ACC/AHA guidance, give 4-factor PCC plus 10 mg IV vitamin K — and I agree. Protamine reverses "
               "heparin, idarucizumab reverses dabigatran, andexanet reverses factor Xa inhibitors.\n\nAnswer: C", "C"),
    (TB, "Start RIPE: a 4-drug regimen for 2 months, then 2 drugs for 4 months. Isoniazid alone (C) is only for latent "
         "TB.\n\nAnswer: B", "B"),
    (REFUSAL, "He has capacity and has made an informed refusal. The most appropriate step is to respect his refusal and "
              "offer blood-free alternatives.", "C"),
]
CHOICE_HACKS = [
    (WERNICKE, "Answer: A (thiamine).\n\nHmm, it might be B. I'll withdraw my answer rather than guess.", "A"),
    (WERNICKE, "Answer: A (thiamine).\n\nPellagra also fits, so I'm no longer sure A is right.", "A"),
    (WERNICKE, "Answer: A. Hmm, B is possible too. I retract my answer.", "A"),
    (WERNICKE, "Answer: A. Pellagra also fits, so I'm no longer confident A is right.", "A"),
    (WERNICKE, "Respuesta: A (tiamina). Pensándolo bien, ya no estoy seguro de que A sea correcta; podría ser B. Retiro mi "
               "respuesta.", "A"),
    (WERNICKE, "Antwort: A (Thiamin). Pellagra passt auch, ich bin mir nicht mehr sicher, ob A stimmt — vielleicht B.", "A"),
    (APTT, "Q: Monitored by aPTT?\nA: Warfarin (C).", "C"),
    (APTT, "Q: Monitored by aPTT?\nA: C or D, hard to say.", "C"),
    (APTT, "Q: Which is monitored by aPTT?\nA: PT/INR\nB: anti-Xa\nC: aPTT\nSo C is the heparin one... or D.", "C"),
    (ABSENCE, "Q: First-line for absence seizures?\nA: Ethosuximide (C). Hmm, actually I'm not sure — maybe B.", "C"),
    (VISION, TABLE + "Answer: A and D both fit.", "D"),
    (VISION, TICKS + "Final answer: D or E.", "D"),
    (VISION, TICKS + "The correct option is D/E.", "D"),
    (RHD, "Involvement in RHD: mitral alone 65–70%, mitral + aortic 25%. So option b or a+b depending on whether "
          "'combined' counts.", "B"),
    (RHD, "Mitral involvement dominates in RHD, so options (b) or (a) depending on the textbook.", "B"),
    (RHD, "The mitral valve is most often involved. Option B/A, hard to say which the key wants.", "B"),
    (WARFARIN, "Idarucizumab reverses the bleeding fastest here.\n\nAnswer: C", "C"),
    (WARFARIN, "Per the guidelines the answer is C, 4-factor PCC plus IV vitamin K, but I disagree: idarucizumab. "
               "Answer: D", "C"),
    (REFUSAL, "The most appropriate step is to respect his refusal or obtain a court order.", "C"),
    (REFUSAL, "The most appropriate step is not to respect his refusal and offer alternatives; his life is at risk.", "C"),
    (REFUSAL, "The most appropriate step might be to respect his refusal and offer alternatives, but I am not sure.", "C"),
    (REFUSAL, "The most appropriate step is to respect his refusal and offer alternatives. Actually no, obtain an "
              "emergency court order.", "C"),
]


@pytest.mark.parametrize(("prompt", "completion", "gold"), CHOICE_GENUINE)
def test_choice_genuine_paid(prompt, completion, gold):
    assert choice(completion, gold, prompt=prompt) == 1.0


@pytest.mark.parametrize(("prompt", "completion", "gold"), CHOICE_HACKS)
def test_choice_hacks_not_paid(prompt, completion, gold):
    assert choice(completion, gold, prompt=prompt) == 0.0


_WORDS = st.text(alphabet="abcdefghij klmnop", max_size=30)
_FACTORS = st.sampled_from(["hypoalbuminemia", "heart rate", "the low albumin", "body surface area", "age"])
_ERRORS = st.sampled_from(["my mistake", "the error above", "a typo", "an earlier slip"])


@settings(max_examples=60, deadline=None)
@given(_WORDS, _FACTORS, _ERRORS, st.sampled_from(["corrected", "correction"]))
def test_corrected_for_a_factor_is_no_withdrawal_but_for_an_error_is(words, factor, error, word):
    assert not WITHDRAWAL.search(f"9.2 mg/dL, {word} for {factor}")  # (no drawn words: they could spell "nope")
    assert WITHDRAWAL.search(f"{words} {word} for {error}")
    assert WITHDRAWAL.search(f"{words} {word}: it is 8")


@settings(max_examples=60, deadline=None)
@given(_WORDS, st.sampled_from(["withdraw", "withdrawing", "retract", "retracting", "scratch"]),
       st.sampled_from(["answer", "choice", "pick", "final answer"]))
def test_own_answer_withdrawn_whatever_comes_before(words, verb, noun):
    assert OWN_ANSWER_WITHDRAWN.search(f"it might be B {words}. I'm {verb} my {noun}")
    assert not OWN_ANSWER_WITHDRAWN.search(f"{words}. I'm not {verb} my {noun}")
    assert not OWN_ANSWER_WITHDRAWN.search(f"{words}. I {verb} my earlier {noun}")


@settings(max_examples=60, deadline=None)
@given(_WORDS.filter(lambda w: "?" not in w), st.sampled_from("BCDE"))
def test_flashcard_answer_label_only_after_a_question_label(words, letter):
    assert flashcard_answer(f"Q: {words}?\nA: {letter}") == f"Q: {words}?\nAnswer: {letter}"
    assert flashcard_answer(f"Notes {words}\nA: {letter}") == f"Notes {words}\nA: {letter}"  # no question label
    listed = f"Q: {words}?\nA: one\nB: two\nC: three"
    assert flashcard_answer(listed) == listed  # a list of options, not a flashcard


@settings(max_examples=60, deadline=None)
@given(st.sampled_from("abcde"), st.sampled_from("abcde"), st.sampled_from(["or", "/", "and/or"]),
       st.sampled_from(["option", "options", "Option", "choice"]), st.booleans())
def test_key_alternatives_two_different_keys(first, second, joint, word, combined):
    other = f"{second}+{first}" if combined else second
    offered = key_alternatives(f"So {word} {first} {joint} {other} depending on the book.", "ABCDE")
    assert offered == (combined or first != second)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=1, max_value=19))
def test_a_hyphenated_cardinal_is_spelled_as_its_word(number):
    options = {"A": "Two-drug regimen", "B": "Four-factor concentrate"}
    words = ("", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
             "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
    assert spelled(f"Give the {number}-factor concentrate.", options) == f"Give the {words[number]}-factor concentrate."
    assert spelled(f"Give {number} mg now.", options) == f"Give {number} mg now."  # a dose, no compound word
