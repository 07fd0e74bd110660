"""Choice readings added after holdout55 (medicine; the three hacks choice_accuracy still paid):

* the writer declines, after the letter, to choose an answer ("I can't select an answer for a real patient"): no pick
  (undecided.no_pick);
* the writer's own pick of another letter after the letter ("the answer is E ... I would lean toward C"): two answers
  (undecided.own_pick_of_another);
* the letter as the consequent of one "If ...," branch with another letter under another "If" / "otherwise": no pick
  (conditional_letters.answers_under_conditions).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.verifiers.conditional_letters import answers_under_conditions
from polyreward.verifiers.undecided import own_pick_of_another

CHOICE = ChoiceAccuracy()

OD = ("A 19-year-old took 40 tablets of acetaminophen 6 hours ago. Best next step?\n"
      "A) Activated charcoal only\nB) N-acetylcysteine\nC) Hemodialysis\nD) Observation\nE) Fomepizole")
PNA = ("Most common cause of community-acquired pneumonia in a 30-year-old?\nA) Haemophilus influenzae\nB) Legionella\n"
       "C) Mycoplasma pneumoniae\nD) Staphylococcus aureus\nE) Streptococcus pneumoniae")
NEURO = ("A man with alcohol use disorder has confusion, ataxia and ophthalmoplegia. Which deficiency?\n"
         "A) Vitamin B12\nB) Thiamine\nC) Niacin\nD) Folate\nE) Pyridoxine")


def choice(completion: str, gold: str, prompt: str) -> float:
    return CHOICE.evaluate([prompt], [completion], answer=[gold]).scores[0]


@pytest.mark.parametrize("completion", [
    "B (N-acetylcysteine) is the antidote for acetaminophen toxicity. That said, I'm not able to choose an answer "
    "for a real overdose — please call Poison Control.",
    "N-acetylcysteine (B) restores glutathione stores.\n\nAs an AI I cannot give you an answer for an actual "
    "patient; contact a toxicologist.",
    "The textbook antidote is B, N-acetylcysteine. We won't pick an option on a live case, though: call emergency services.",
])
def test_a_declined_choice_after_the_letter_is_no_pick(completion):
    assert choice(completion, "B", OD) == 0.0


@pytest.mark.parametrize("completion", [
    "I can't select an answer without the timing, but given 6 hours since ingestion: **B** (N-acetylcysteine).",
    "**Answer: B** (N-acetylcysteine). I cannot provide treatment recommendations for a real overdose; call Poison Control.",
    "**B** — N-acetylcysteine. Please contact Poison Control for a real overdose.",
])
def test_a_choice_made_despite_a_caution_is_paid(completion):
    assert choice(completion, "B", OD) == 1.0


@pytest.mark.parametrize("completion", [
    "Per UWorld, the answer is E (Streptococcus pneumoniae). Honestly, for a healthy 30-year-old I would lean toward "
    "C (Mycoplasma).",
    "Textbook answer: E (pneumococcus). Personally I'd lean toward C given the age and the dry cough.",
    "Robbins lists the answer as E (Streptococcus pneumoniae). On the wards, though, we'd lean towards C.",
])
def test_an_own_pick_of_another_letter_after_a_cited_answer_is_refused(completion):
    assert choice(completion, "E", PNA) == 0.0


@pytest.mark.parametrize("completion", [
    "According to First Aid, the answer is E (Streptococcus pneumoniae), and I agree.",
    "According to the guideline, the answer is E (pneumococcus); I'd go with E too.",
    "Some would pick C for a young adult, but the answer is E (Streptococcus pneumoniae).",
    "The answer is E (Streptococcus pneumoniae). I would never pick C here: Mycoplasma is common, not most common.",
])
def test_an_own_pick_that_agrees_with_the_letter_is_paid(completion):
    assert choice(completion, "E", PNA) == 1.0


@pytest.mark.parametrize("completion", [
    "If the serum thiamine is low, the answer is B (thiamine). If instead the methylmalonic acid is raised, A would be "
    "the answer. Neither level is given.",
    "If the MCV is normal, B (thiamine) fits best; otherwise, A (vitamin B12).",
    "If he drinks heavily, the answer is B. If he is vegan, A is the better choice. The history does not say which.",
])
def test_two_letters_under_two_conditions_are_no_pick(completion):
    assert choice(completion, "B", NEURO) == 0.0


@pytest.mark.parametrize("completion", [
    "If the patient is malnourished, the answer is B. If he is well nourished, it is still B: alcohol blocks thiamine uptake.",
    "If you mean the acute syndrome, B. If you mean the chronic amnestic state, B as well. Answer: B",
    "If the MCV is high, consider B12 as well, but the classic triad points to thiamine.\n\n**Answer: B**",
    "Confusion, ataxia and ophthalmoplegia are Wernicke encephalopathy.\n\n**Answer: B** (thiamine)",
])
def test_one_letter_under_every_condition_is_paid(completion):
    assert choice(completion, "B", NEURO) == 1.0


_CONDITION = st.text(alphabet="abcdefghijklmnopqrstuvwxyz ", min_size=1, max_size=40).filter(lambda t: t.strip())


@settings(max_examples=60, deadline=None)
@given(_CONDITION, _CONDITION, st.sampled_from("ABCDE"), st.sampled_from("ABCDE"))
def test_two_branches_are_no_pick_exactly_when_their_letters_differ(one, two, first, second):
    text = f"If {one}, the answer is {first}. If instead {two}, {second} would be correct."
    assert answers_under_conditions(text, text.index(f"is {first}") + 3, first, "ABCDE") == (first != second)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from("ABCDE"), st.sampled_from("ABCDE"), st.sampled_from(["I would lean toward", "I'd go with", "I'd pick", "we'd lean towards"]))
def test_an_own_pick_conflicts_exactly_when_it_names_another_letter(letter, other, verb):
    text = f"According to the textbook, the answer is {letter}. In practice, though, {verb} {other}."
    assert own_pick_of_another(text, letter, "ABCDE", text.index(f"is {letter}") + 3) == (letter != other)
