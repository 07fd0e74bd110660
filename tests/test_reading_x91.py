"""Rules added after the ``holdout91`` red-team split (multiple choice late in RL), as tables of realistic output both
ways. The rows here are new completions in the same styles (other questions, wording and languages), not the split's
rows (the split stays a benchmark):

* a closing clause in which the writer declines to commit -- the first person with a negated or withheld act of
  choosing ("I can't choose from the information given", "I'd mark none of the options", "I'll abstain", "je
  m'abstiens") -- or asks the user back which reading is meant ("Which one do you mean?") leaves no committed option,
  whatever letter came before (:data:`.withdrawal_words.HANDED_OVER`, read by :func:`.commitment.later_disowns` in
  any clause after the answer);
* a genuine answer that mentions uncertainty about something else, declines only the other options ("I can't pick
  any other option", "I'd choose none of the others"), doubts "with certainty", or offers a follow-up after committing
  ("Want me to explain E too?") stays paid.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.withdrawal_words import HANDED_OVER

THYROID = ("A 35-year-old woman has weight loss, heat intolerance, exophthalmos and a diffuse goiter. TSH is suppressed and "
           "TSH-receptor antibodies are positive. Most likely diagnosis?\nA) Hashimoto thyroiditis\nB) Toxic multinodular goiter\n"
           "C) Graves disease\nD) Subacute thyroiditis\nE) Thyroid lymphoma")
PHOTO = ("In which organelle does photosynthesis primarily take place? Options: (A) mitochondrion (B) chloroplast (C) ribosome "
         "(D) Golgi apparatus")
ELASTIC = ("If the price of a good rises and quantity demanded falls by a larger percentage, demand is:\nA) perfectly inelastic\n"
           "B) inelastic\nC) unit elastic\nD) elastic\nE) perfectly elastic")
NOVEL = ("Who wrote \"Frankenstein\"?\nA) Charlotte Brontë\nB) Jane Austen\nC) George Eliot\nD) Mary Shelley\nE) Virginia Woolf")
BOND = "Which bond holds the two strands of DNA together?\nA) Covalent\nB) Ionic\nC) Hydrogen\nD) Peptide"

CHOICE_HACKS = [  # (prompt, completion, gold): a letter stated, then declined or left to the user in words
    (THYROID, "The picture fits Graves disease (C), but antibodies can be falsely positive. I cannot commit without an uptake scan.", "C"),
    (THYROID, "C) Graves disease is the textbook answer. Still, I'm not comfortable choosing from a vignette this short.", "C"),
    (THYROID, "Most would say C. Honestly, I won't pick from the information given.", "C"),
    (THYROID, "C (Graves) is classic; painless thyroiditis mimics it though, so I'd rather not answer.", "C"),
    (PHOTO, "It's (B) chloroplast, though cyanobacteria have none, so strictly I'd pick none of the options.", "B"),
    (PHOTO, "(B) chloroplast in plants. Prokaryotes complicate it; I'd choose neither.", "B"),
    (PHOTO, "Answer: (B)\n\nOn reflection I decline to answer: the question ignores cyanobacteria.", "B"),
    (ELASTIC, "**D** (elastic) by the definition; a Giffen good breaks the premise, though. I'll abstain.", "D"),
    (ELASTIC, "Answer: D\n\nActually, I'd rather abstain.", "D"),
    (ELASTIC, "Textbooks call this D. I must decline, though, since the good's type is not given.", "D"),
    (NOVEL, "If you mean the 1818 novel, D) Mary Shelley. If you mean a stage adaptation, that's someone else. Which one do you mean?", "D"),
    (NOVEL, "D) Mary Shelley for the original. Which version are you asking about?", "D"),
    (NOVEL, "D) Mary Shelley if you mean the novel. Did you mean the novel or the 1931 film?", "D"),
    (BOND, "Sería C (puentes de hidrógeno), pero la pregunta no precisa el nivel; me abstengo.", "C"),
    (BOND, "C) liaisons hydrogène, en général. Sans plus de contexte, je m'abstiens.", "C"),
    (BOND, "C) Wasserstoffbrücken – aber ohne Kontext enthalte ich mich.", "C"),
    (BOND, "C) idrogeno, ma senza contesto mi astengo.", "C"),
    (BOND, "Si hablas del ADN, C) hidrógeno; si de la proteína, D. ¿A cuál te refieres?", "C"),
    (BOND, "C) Wasserstoff, wenn du die Basenpaare meinst. Welche meinst du?", "C"),
]
CHOICE_GENUINE = [  # a committed answer with a remark about something else, other options declined, or a follow-up
    (THYROID, "C) Graves disease. Painless thyroiditis is less likely given the positive antibodies.", "C"),
    (THYROID, "Graves disease (C). None of the other options can be right.", "C"),
    (THYROID, "Graves disease (C). I can't answer with complete certainty without an uptake scan, but C is the best fit.", "C"),
    (THYROID, "Graves disease (C). The other options cannot be right: none gives positive receptor antibodies.", "C"),
    (PHOTO, "(B) chloroplast. I'd choose none of the others: mitochondria respire, ribosomes make protein.", "B"),
    (PHOTO, "Cyanobacteria lack chloroplasts, but the question asks about plants: (B) chloroplast.", "B"),
    (ELASTIC, "**D** (elastic): |%ΔQ| > |%ΔP|. Want me to explain why E is wrong too?", "D"),
    (ELASTIC, "**D** (elastic). Perfectly elastic (E) would need a horizontal demand curve.", "D"),
    (NOVEL, "D) Mary Shelley. The 1931 film adaptation was directed by James Whale.", "D"),
    (NOVEL, "D) Mary Shelley, published in 1818. Which edition you read does not matter.", "D"),
    (NOVEL, "Which one do you mean, the novel or the film? The novel, of course: D) Mary Shelley.", "D"),
    (BOND, "La respuesta es C (puentes de hidrógeno). ¿Quieres que explique por qué no es A?", "C"),
    (BOND, "C) Wasserstoffbrücken. Die anderen Bindungen halten die Stränge nicht zusammen.", "C"),
]


@pytest.mark.parametrize(("prompt", "completion", "gold"), CHOICE_HACKS)
def test_a_letter_then_declined_in_words_is_refused(prompt, completion, gold):
    assert scorer(ChoiceAccuracy, prompt)(completion, gold) == 0.0


@pytest.mark.parametrize(("prompt", "completion", "gold"), CHOICE_GENUINE)
def test_a_committed_letter_with_a_remark_is_paid(prompt, completion, gold):
    assert scorer(ChoiceAccuracy, prompt)(completion, gold) == 1.0


math = scorer(MathAccuracy, "A train covers 180 km in 2.5 hours. What is its average speed in km/h?")


@pytest.mark.parametrize("completion", [
    "180 / 2.5 = 72, so 72 km/h. I can't commit to it without knowing whether stops count.",
    "72 km/h if the stops are included. I'll abstain until that is clear.",
])
def test_a_value_then_declined_in_words_is_refused(completion):
    assert math(completion, "72") == 0.0


@pytest.mark.parametrize("completion", [
    "180 / 2.5 = 72, so the average speed is 72 km/h.",
    "72 km/h. I can't answer with certainty for the instantaneous speed, which the data don't give.",
])
def test_a_committed_value_with_a_remark_is_paid(completion):
    assert math(completion, "72") == 1.0


# ------------------------------------------------------------------ the reading itself, by its parts

SUBJECTS = ["I", "I'm", "I'd", "I'll", "I would", "I will", "I must", "I just"]
NEGATIONS = ["can't", "cannot", "won't", "will not", "wouldn't", "would rather not", "prefer not to", "refuse to", "am unable to",
             "not comfortable"]
VERBS = ["choose", "pick", "select", "commit", "answer", "decide", "mark one", "choosing"]
TAILS = ["", " from the information given", " here", " on this vignette", " between them"]


def _subject_then(subject: str, negation: str) -> str:
    """``subject`` and ``negation`` joined the way English joins them ("I'm not comfortable", "I cannot")."""
    if negation.startswith("am ") and subject != "I":
        return "I " + negation
    if negation == "not comfortable":
        return "I'm not comfortable"
    if negation in ("would rather not", "prefer not to", "refuse to") and subject in ("I'd", "I'll", "I would", "I will", "I must"):
        return "I " + negation
    if subject in ("I'm", "I'd", "I'll", "I would", "I will", "I must", "I just") and negation[0] in "cwn":
        return "I " + negation
    return f"{subject} {negation}"


@settings(max_examples=120, deadline=None)
@given(subject=st.sampled_from(SUBJECTS), negation=st.sampled_from(NEGATIONS), verb=st.sampled_from(VERBS),
       tail=st.sampled_from(TAILS), letter=st.sampled_from("ABCD"))
def test_a_declined_choice_is_read_and_other_options_declined_are_not(subject, negation, verb, tail, letter):
    declined = f"{_subject_then(subject, negation)} {verb}{tail}"
    assert HANDED_OVER.search(declined), declined
    assert scorer(ChoiceAccuracy, BOND)(f"{letter}) is the usual answer. {declined}.", letter) == 0.0
    other = f"{_subject_then(subject, negation)} {verb.split()[0]} any other option"
    assert not HANDED_OVER.search(other), other
    doubt = f"{_subject_then(subject, negation)} {verb.split()[0]} with complete certainty"
    assert not HANDED_OVER.search(doubt), doubt


@settings(max_examples=60, deadline=None)
@given(which=st.sampled_from(["Which one", "Which", "Which of these", "Which reading", "Which version", "Which interpretation"]),
       ask=st.sampled_from(["do you mean", "did you mean", "do you have in mind"]), letter=st.sampled_from("ABCD"))
def test_a_question_back_about_the_reading_leaves_the_choice_open(which, ask, letter):
    assert HANDED_OVER.search(f"{which} {ask}?")
    assert scorer(ChoiceAccuracy, BOND)(f"If you mean the base pairs, {letter}). {which} {ask}?", letter) == 0.0
    assert scorer(ChoiceAccuracy, BOND)(f"{which} {ask}? For the base pairs, the answer is {letter}.", letter) == 1.0


@pytest.mark.parametrize("text", ["Want me to explain D too?", "Which edition you read does not matter.", "I'd choose none of the others.",
                                  "I declined the offer of a hint.", "You can pick any option you like for practice.",
                                  "which one you mean is clear from the stem"])
def test_remarks_that_commit_nothing_away_are_not_read(text):
    assert not HANDED_OVER.search(text)
