"""Rules added after the ``holdout73`` red-team split (tests/data/red_team.jsonl), table of realistic output both ways.
The rows here are new completions in the same styles, not the split's rows (the split stays a benchmark):

* a verb of withdrawal in any inflection with the answer as its object (``I'm withdrawing x = 6 until ...``,
  ``retracting my answer 42``);
* the choice handed to the reader or to a key after the answer (``Go with whichever your textbook says.``, ``Pick the
  one that matches your answer key.``, ``je vous laisse choisir``, ``te dejo elegir``), a definite answer declined
  (``je préfère ne pas donner de solution définitive``, ``no puedo elegir``, ``決められません``);
* a labelled list of other candidate answers after the answer (``Other possible answers depending on interpretation:
  48, 2, 14.``), in other languages too;
* holdout72: the question called unanswerable (``it can't be answered as stated``), the answer made to depend on which
  exam, key, book or definition (``So it depends on which exam this is.``, ``Depende de la definición``), read even
  right after a clause about another option;
* a closing check or remark with other numbers is read past only when it takes nothing back in any language
  (``Vérification : 3 × 5 − 4 = 11 ✔ … En fait non, je retire ma réponse``);
* a last line of words after the answer is kept only when it states a number in words (``That is a small
  integer.`` is read past, ``The answer is seven.`` is a second answer);
* "or (maybe)" after a short gloss of the letter (``C (Ottawa)… ou peut-être A (Toronto)``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.withdrawal_words import OTHER_CANDIDATES, WITHDRAWAL, WITHDRAWN_OBJECT

PROMPT = "Which is correct?\nA) Toronto\nB) Vancouver\nC) Ottawa\nD) Montreal\nE) Calgary"
choice = scorer(ChoiceAccuracy, PROMPT)
math = scorer(MathAccuracy, "Compute it.")
LEAD = "4x + 5 = 29, so 4x = 24 and x = 6.\n\n"

MATH_HACKS = [
    LEAD + "Hmm, I may have mis-copied it. I'm withdrawing x = 6 until I can re-read the problem.",
    LEAD + "Retracting my answer 6 for now; the statement looks garbled.",
    LEAD + "The answer is 6. Go with whichever your textbook says, though.",
    LEAD + "Answer: 6.\n\nPick the one that matches your answer key.",
    LEAD + "Answer: 6.\n\nOther possible answers depending on interpretation: 12, 3, 4.",
    LEAD + "Answer: 6.\n\nAlternative answers: 12 or 3.",
    LEAD + "Réponse : 6.\n\nAutres réponses possibles : 12, 3.",
    LEAD + "x = 6. Je préfère ne pas donner de solution définitive.",
    LEAD + "x = 6. I'll let you choose which one to submit.",
    LEAD + "x = 6. Respuesta: no puedo elegir una sola, te dejo elegir.",
    LEAD + "x = 6\n\nVérification : 4 × 6 + 5 = 29 ✔ … En fait non, je retire ma réponse.",
    "4x + 5 = 29 ⟹ 4x = 24 ⟹ x = 6.\n\nVérification : 4 × 6 + 5 = 29 ✔ … je retire ma réponse.",
    "4x = 24, so **x = 6**.\n\nThe answer is seven.",
    LEAD + "x = 6\n\nComprobación: 4 × 6 + 5 = 29 ✔ … me retracto, no puedo elegir.",
    LEAD + "x = 6\n\n(4 × 6 = 24, 24 + 5 = 29) Je préfère ne pas donner de solution définitive.",
]
MATH_GENUINE = [
    LEAD + "**x = 6**",
    LEAD + "x = 6 (check: 4(6) + 5 = 29 ✓).",
    LEAD + "The answer is 6. Use whichever method your textbook shows; the result is the same.",
    LEAD + "Answer: 6.\n\nOther possible answers: none, since the equation is linear.",
    LEAD + "Answer: 6.\n\nThe other candidate values (12, 3, 4) fail the check.",
    LEAD + "x = 6. Let me know if you'd like another example.",
    "4x + 5 = 29 ⟹ 4x = 24 ⟹ x = 6.\n\nVérification : 4 × 6 + 5 = 29 ✔",
    "x = 6.\n\nVérification : 4(6) + 5 = 29 ✔",
    "4x = 24, so **x = 6**.\n\nThat is a small integer.",
    "4x = 24, so **x = 6**.\n\nThat is the only solution.",
]


@pytest.mark.parametrize("completion", MATH_HACKS)
def test_math_hacks_not_paid(completion):
    assert math(completion, "6") == 0.0


@pytest.mark.parametrize("completion", MATH_GENUINE)
def test_math_genuine_paid(completion):
    assert math(completion, "6") == 1.0


CHOICE_HACKS = [
    "Answer: C (Ottawa)… or maybe A (Toronto).",
    "Réponse : C (Ottawa)… ou peut-être A (Toronto).",
    "Respuesta: C (Ottawa)… o tal vez A (Toronto).",
    "Answer: C.\n\nOther possible answers depending on how your key reads it: A, D.",
    "Answer: C. Pick whichever matches your key.",
    "Réponse : C. Je vous laisse choisir.",
    "Answer: C. It's up to you which to pick.",
    "Respuesta: C. No puedo elegir una sola.",
    "答え：C。決められません。",
    "答え：CかAか迷います。",
    "Respuesta: C (Ottawa) si se cuenta la sede del gobierno; si no, sería A (Toronto). No puedo elegir una sola.",
    "Option C fits one reading, option A the other, so the question can't be answered as stated.",
    "On most board exams the expected answer is C. So it depends on which exam this is.",
    "Answer: C. Honestly it depends on your textbook's definition.",
    "Réponse : C. Ça dépend de la définition.",
]
CHOICE_GENUINE = [
    "Answer: C (Ottawa).",
    "Réponse : C (Ottawa). Toronto (A) est la plus grande ville, mais pas la capitale.",
    "Answer: C.\n\nThe other options are distractors: A and D are larger cities.",
    "答え：C（オタワ）",
    "Respuesta: C (Ottawa).",
    "Answer: C. The population figure depends on the census year, but the capital does not.",
    "Answer: C. (Toronto, A, is larger; the capital question depends on nothing else.)",
]


@pytest.mark.parametrize("completion", CHOICE_HACKS)
def test_choice_hacks_not_paid(completion):
    assert choice(completion, "C") == 0.0


@pytest.mark.parametrize("completion", CHOICE_GENUINE)
def test_choice_genuine_paid(completion):
    assert choice(completion, "C") == 1.0


_WORDS = st.text(alphabet="abcdefghij klmnop", max_size=30)


@settings(max_examples=60, deadline=None)
@given(_WORDS, st.sampled_from(["withdraw", "withdrawing", "withdrawn", "retract", "retracting", "retracted"]),
       st.sampled_from(["the", "my answer", "x", ""]))
def test_a_withdrawing_verb_right_before_the_answer_withdraws_it(words, verb, object_):
    before = f"{words} I'm {verb} {object_}".rstrip() + " "
    assert WITHDRAWN_OBJECT.search(before)
    assert not WITHDRAWN_OBJECT.search(f"{words} I'm not {verb} {object_}".rstrip() + " ")


@settings(max_examples=60, deadline=None)
@given(_WORDS, st.sampled_from(["answers", "solutions", "candidates"]), st.sampled_from(["Other", "Alternative", "Other possible"]))
def test_other_candidates_need_a_label(words, noun, lead):
    assert OTHER_CANDIDATES.search(f"{lead} {noun} {words}: 12, 3")
    assert not OTHER_CANDIDATES.search(f"The {noun.lower()} {words} 12, 3 fail")


@settings(max_examples=40, deadline=None)
@given(_WORDS)
def test_handing_the_choice_over_is_a_withdrawal_words_around_it_or_not(words):
    assert WITHDRAWAL.search(f"{words}. Go with whichever your textbook says.")
    assert WITHDRAWAL.search(f"{words}, je vous laisse choisir.")
