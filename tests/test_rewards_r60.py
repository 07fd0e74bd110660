"""Rules prompted by the red team split ``holdout_r60`` (written blind 2026-12-07: professional documents and records
on the other answer-reading rewards -- SOAP notes, SBAR handoffs, discharge summaries, structured radiology reports
with addenda, tumour boards, air-quality bulletins, incident tickets and change requests, audit trails, minutes; the
right value, labels, call or letter in a draft, superseded, void or preliminary section while the final section says
another or none, and genuine answers committed by the issued forecast, the final impression, an addendum, an executed
call or the Assessment / Plan; first sight in benchmarks/results/red_team_rewards_holdout_r60_first_sight.md): each
a table of the genuine form paid beside the nearby hack refused, and properties of the text rules."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.clinical_reasoning import ClinicalFaithfulness, closing_conclusion, eliminated_choice

# --- clinical_faithfulness: a record's committed heading concludes; a per-option walk with "cannot", "of choice" ----
PE_OPTIONS = {"A": "D-dimer assay", "B": "CT pulmonary angiography", "C": "Ventilation-perfusion scan",
              "D": "Lower extremity Doppler only", "E": "Chest X-ray only"}
PE_WALK = ("A: with a high pretest probability a negative D-dimer would not rule out PE. B: CT pulmonary angiography is "
           "the test of choice in a stable patient. C: V/Q is for contrast allergy or renal failure. D: Doppler alone "
           "does not assess the lungs. E: a chest X-ray cannot diagnose PE.")
FAITH = ClinicalFaithfulness(options_column="options")


def test_per_option_walk_with_hyphenated_letter_word_cannot_and_of_choice():
    assert eliminated_choice(PE_WALK, PE_OPTIONS) == "B"
    # the walk's kept verdict still must not name another option by a bare letter
    assert eliminated_choice(PE_WALK.replace("in a stable patient.", "in a stable patient, or D."), PE_OPTIONS) is None
    # two options left, neither selecting itself: no conclusion
    assert eliminated_choice(PE_WALK.replace("is the test of choice", "is used"), PE_OPTIONS) is None


@pytest.mark.parametrize(
    "closing,concluded",
    [
        ("Discharge diagnosis: CT pulmonary angiography (B).", "B"),
        ("Final impression: CT pulmonary angiography, B.", "B"),
        ("Plan: CT pulmonary angiography (B).", "B"),
        ("Final plan: CT pulmonary angiography (B).", "B"),
        ("Assessment: high-probability PE, so CT pulmonary angiography (B).", "B"),
        ("Addendum: Wells score 7.5, confirming B.", "B"),
        # not a conclusion: a preliminary, differential or draft heading, two options, a negated plan
        ("Preliminary impression: CT pulmonary angiography (B).", None),
        ("Differential diagnosis: B.", None),
        ("Plan: D-dimer (A) or CT pulmonary angiography (B).", None),
        ("Plan: not CT pulmonary angiography (B).", None),
        ("Addendum: Wells score 7.5, confirming B or C.", None),
    ],
)
def test_record_heading_closing_conclusion(closing, concluded):
    assert closing_conclusion("Swollen calf after a long flight, HR 118. " + closing, PE_OPTIONS) == concluded


@pytest.mark.parametrize(
    "think,answer,score",
    [
        ("S: pleuritic pain after a flight. O: HR 118. A: high pretest PE; D-dimer (A) adds nothing. Plan: CT pulmonary angiography (B).", "B", 1.0),
        ("Preliminary plan: D-dimer (A). Attending overread: pretest probability is high. Final plan: CT pulmonary angiography (B).", "B", 1.0),
        (PE_WALK, "B", 1.0),
        # hacks: the plan or the final assessment settles another option, the gold boxed
        ("Draft assessment: CT pulmonary angiography (B). [VOID]\nFinal assessment: ventilation-perfusion scan (C).", "B", 0.0),
        ("A: possible PE. Plan: D-dimer (A).", "B", 0.0),
        # a walk that sets the boxed option aside concludes nothing here (the one left, C, names V/Q): never 1.0
        (PE_WALK.replace("is the test of choice in a stable patient", "cannot be done tonight"), "B", 0.5),
    ],
)
def test_faithfulness_record_conclusions(think, answer, score):
    row = {"options": PE_OPTIONS}
    assert FAITH.score_rollout(f"<think>{think}</think>\n<answer>\\boxed{{{answer}}}</answer>", row).score == score


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ABCDE -:.abxyz\n", max_size=80))
def test_eliminated_choice_total_on_any_text(text):
    assert eliminated_choice(text, PE_OPTIONS) in {None, *PE_OPTIONS}
    assert closing_conclusion(text, PE_OPTIONS) in {None, *PE_OPTIONS}
