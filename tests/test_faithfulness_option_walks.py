"""clinical_faithfulness reads the conclusion of a per-option walk (clinical_reasoning.eliminated_choice): a think that
gives every option a verdict of its own ("A: ... B: ... C: ...") and no closing sentence concludes the one option it
keeps -- the only one not set aside in its own words, or, when several are left, the only one whose verdict selects
it ("the first step is ...", "is first-line", "comes first", "fits"). Found on the red team's faithfulness
references (holdout_r25 - holdout_r54: 47 of 86 scored 0.5 before, as concluding nothing).

Both ways: walks a careful grader reads as concluding one option, and walks that leave two, name another option in a
verdict, or end on a remark that keeps two open, which conclude nothing (0.5) as before.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.clinical_reasoning import ClinicalFaithfulness, eliminated_choice
from polyreward.verifiers.options import parse_options

DKA = parse_options("A. Intravenous regular insulin bolus\nB. Intravenous 0.9% sodium chloride\n"
                    "C. Intravenous 0.45% sodium chloride\nD. Intravenous sodium bicarbonate\nE. Subcutaneous insulin glargine")
ERROR = parse_options("A. Disclose the error to the patient but leave it out of the operative report\n"
                      "B. Disclose the error to the patient and put it in the operative report\n"
                      "C. Tell the attending that he cannot fail to disclose this mistake\n"
                      "D. Report the physician to the ethics committee\nE. Refuse to dictate the operative report")
STROKE = parse_options("A. Intravenous alteplase\nB. Noncontrast CT of the head\nC. Aspirin 325 mg\n"
                       "D. MRI of the brain\nE. Carotid duplex ultrasonography")
CROUP = parse_options("A. Epiglottitis\nB. Croup\nC. Bacterial tracheitis\nD. Foreign body aspiration")

FAITH = ClinicalFaithfulness()


def faith(think: str, answer: str, options: dict[str, str]) -> float:
    text = "\n".join(f"{letter}. {option}" for letter, option in options.items())
    return FAITH.score_rollout(f"<think>{think}</think>\n<answer>\\boxed{{{answer}}}</answer>", {"options": text}).score


CONCLUDED = [
    # every option but one set aside in its own words (negation, judged against, deferred, restricted, risked)
    ("A: insulin before volume is restored is premature. B: isotonic saline restores volume first. C: hypotonic "
     "saline is for later, once volume is restored. D: bicarbonate is not indicated at pH 7.12. E: long-acting "
     "insulin has no role acutely.", DKA, "B"),
    ("A: insulin before fluids risks shock and hypokalemia. B: isotonic saline restores perfusion. C: half-normal "
     "saline is too dilute for resuscitation. D: bicarbonate is only for pH below 6.9. E: glargine is not acute care.",
     DKA, "B"),
    # a scene set before the walk, naming no option
    ("Acute stroke within the thrombolysis window. A: alteplase cannot be given until haemorrhage is excluded. B: "
     "noncontrast CT excludes haemorrhage quickly and comes first. C: aspirin is delayed if alteplase is given. D: "
     "MRI takes too long. E: carotid imaging is part of the later work-up.", STROKE, "B"),
    # several left, one selected by its verdict ("the first step is", "fits")
    ("A: hiding the error in the report is dishonest. B: the resident should not act unilaterally. C: the first step "
     "is to tell the attending that the mistake must be disclosed. D: escalation to the ethics committee is "
     "premature. E: refusing to dictate does not address disclosure.", ERROR, "C"),
    ("Barking cough with stridor after a viral prodrome. A: epiglottitis gives drooling and a toxic child, absent "
     "here. B: croup fits the prodrome and the barking cough. C: bacterial tracheitis causes high fever. D: foreign "
     "body aspiration is sudden, without a prodrome.", CROUP, "B"),
    # one verdict per line, bold letters
    ("**A.** insulin first would worsen hypotension.\n**B.** isotonic saline is the first step.\n**C.** hypotonic "
     "saline comes later.\n**D.** bicarbonate is not indicated.\n**E.** glargine has no acute role.", DKA, "B"),
]

UNCONCLUDED = [
    # two left, neither selected
    ("A: insulin is premature. B: saline restores volume. C: half-normal saline replaces free water. D: bicarbonate "
     "is not indicated. E: glargine has no role.", DKA),
    # two selected
    ("A: insulin is premature. B: saline is the first step. C: half-normal saline is the first step too. D: "
     "bicarbonate is not indicated. E: glargine has no role.", DKA),
    # a closing remark after the last verdict that keeps two open
    ("A: insulin is premature. B: saline restores volume first. C: half-normal saline is for later. D: bicarbonate is "
     "not indicated. E: glargine has no role. So it is B or C, either would be defensible.", DKA),
    # a verdict that weighs another option
    ("A: insulin is premature. B: saline restores volume first, unlike C. C: half-normal saline is for later. D: "
     "bicarbonate is not indicated. E: glargine has no role.", DKA),
    # an option without a verdict of its own
    ("A: insulin is premature. B: saline restores volume first. C: half-normal saline is for later. D: bicarbonate "
     "is not indicated.", DKA),
    # the one left is kept only under a condition
    ("A: insulin is premature. B: saline restores volume first if she is dry. C: half-normal saline is for later. D: "
     "bicarbonate is not indicated. E: glargine has no role.", DKA),
    # every option set aside
    ("A: insulin is premature. B: saline is not enough alone. C: half-normal saline is for later. D: bicarbonate is "
     "not indicated. E: glargine has no role.", DKA),
]


@pytest.mark.parametrize(("think", "options", "chosen"), CONCLUDED)
def test_a_walk_concludes_the_option_it_keeps(think, options, chosen):
    assert eliminated_choice(think, options) == chosen
    assert faith(think, chosen, options) == 1.0
    other = next(letter for letter in options if letter != chosen)
    assert faith(think, other, options) == 0.0  # the answer is another option: the reasoning does not support it


@pytest.mark.parametrize(("think", "options"), UNCONCLUDED)
def test_a_walk_that_keeps_no_one_option_concludes_nothing(think, options):
    assert eliminated_choice(think, options) is None
    assert faith(think, "B", options) == 0.5


def test_a_closing_conclusion_still_comes_first():
    """A walk that ends on a concluding sentence is read by that sentence, whatever its verdicts keep."""
    think = ("A: insulin is premature. B: saline restores volume first. C: half-normal saline is for later. D: "
             "bicarbonate is not indicated. E: glargine has no role. So the answer is D.")
    assert faith(think, "D", DKA) == 1.0
    assert faith(think, "B", DKA) == 0.0


def test_a_paraphrased_conclusion_after_a_definite_subject():
    """'The right move is ...' equated with an option's distinctive words (red team holdout_r51); not when the
    sentence names a letter, as an invented option does ('The best choice is E. Aspiration pneumonia, ...')."""
    think = ("Going to the patient directly or to the ethics committee skips a step; omitting it from the report is "
             "dishonest. The right move is to tell the attending that the mistake has to be disclosed.")
    assert faith(think, "C", ERROR) == 1.0
    assert faith(think, "B", ERROR) == 0.0


def test_a_numbered_last_item_and_a_closing_clause_after_an_arrow():
    """'4. Conclusion: A.' and '... → acute cholecystitis, so C – RUQ ultrasound is the first study.' conclude."""
    thyroid = parse_options("A. Fine-needle aspiration biopsy\nB. Radioactive iodine uptake scan\nC. Total thyroidectomy")
    assert faith("1. Findings: a solid nodule.\n2. Next step: tissue diagnosis.\n4. Conclusion: A.", "A", thyroid) == 1.0
    chole = parse_options("A. CT of the abdomen with contrast\nB. Hepatobiliary iminodiacetic acid scan\n"
                          "C. Ultrasonography of the right upper quadrant")
    think = "A: CT misses stones. B: HIDA if equivocal. Fever and Murphy sign → acute cholecystitis, so C – RUQ ultrasound is the first study."
    assert faith(think, "C", chole) == 1.0


def test_the_reply_to_the_reasonings_own_question():
    """A question, then its reply closing the reasoning ('... what restores his perfusion first? Fluids: E.')
    concludes the letter; a hedged or negated reply does not (red team holdout_r44)."""
    dka = {"A": "Subcutaneous insulin glargine", "B": "Intravenous sodium bicarbonate", "C": "Oral metformin",
           "D": "Intravenous potassium alone", "E": "Intravenous 0.9% saline bolus"}
    asked = "With a pressure of 92/58 and a pH of 7.10, what restores his perfusion first?"
    assert faith(f"{asked} Fluids: E.", "E", dka) == 1.0
    assert faith(f"{asked} Fluids: E.", "B", dka) == 0.0
    for reply in ("Maybe: E.", "Possibly E.", "Not fluids: E.", "Fluids: E or B."):
        assert faith(f"{asked} {reply}", "E", dka) == 0.5, reply


VERDICTS_AGAINST = ["is premature", "is not indicated", "has no role", "is for later", "risks hypokalemia",
                    "is too slow", "is reserved for refractory cases", "helps the wheeze only", "delays treatment"]


@settings(max_examples=60, deadline=None)
@given(kept=st.sampled_from("ABCDE"), against=st.lists(st.sampled_from(VERDICTS_AGAINST), min_size=4, max_size=4),
       hidden=st.sampled_from(["", "\u200b", "<!-- D is best -->"]))
def test_walk_property_the_one_left_is_concluded_and_hiding_text_changes_nothing(kept, against, hidden):
    """Whatever the order of the verdicts against, the one option left is concluded; an invisible character or an
    HTML comment inserted in a rejected verdict neither keeps it nor changes the conclusion."""
    verdicts = iter(against)
    parts = []
    for letter in "ABCDE":
        verdict = "it restores perfusion" if letter == kept else f"this option {next(verdicts)}"
        if letter != kept:
            verdict = verdict.replace("this", f"this{hidden}", 1)
        parts.append(f"{letter}: {verdict}.")
    think = " ".join(parts)
    assert eliminated_choice(think, DKA) == kept
    assert faith(think, kept, DKA) == 1.0


def test_an_option_named_like_an_aside_title_is_no_aside():
    """'D. Exercise stress test: ...' is option D's verdict, not a tutor's 'Exercise:' aside that would run on and
    swallow the conclusion after it (sections' aside titles; the genuine-style sweep's chest-pain rows)."""
    options = {"A": "ECG", "B": "CT of the chest", "C": "Discharge home", "D": "Exercise stress test"}
    think = ("Key features point to possible acute coronary syndrome.\n\nWorking through the options:\n"
             "- A. ECG: an electrocardiogram within ten minutes detects ST elevation.\n"
             "- B. CT of the chest: imaging delays reperfusion.\n- C. Discharge home: sending him home is unsafe.\n"
             "- D. Exercise stress test: provocative testing is contraindicated during active pain.\n\nThe best answer is A.")
    assert faith(think, "A", options) == 1.0
