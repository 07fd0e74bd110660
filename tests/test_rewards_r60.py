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


# --- jaccard: a block under a draft heading superseded by a final one; "Final label list: none" ---------------------
from polyreward.rewards.jaccard import JaccardReward  # noqa: E402
from polyreward.verifiers.record_fields import heading_stage, under_superseded_heading  # noqa: E402

JAC = JaccardReward(answer_column="answer", mode="normalized")
GOLD = "<answer>cardiomegaly; pleural effusion</answer>"


@pytest.mark.parametrize(
    "completion,score",
    [
        # genuine: the corrected, final or current list is the one paid; a draft with no final after it stands
        ("Initial list: <answer>cardiomegaly</answer>\nADDENDUM: an effusion is also stated. Corrected list:\n"
         "<answer>cardiomegaly; pleural effusion</answer>", 1.0),
        ("Preliminary list: <answer>cardiomegaly</answer>\nFinal list: <answer>cardiomegaly; pleural effusion</answer>", 1.0),
        ("Prior study: <answer>cardiomegaly</answer>\nCurrent study: <answer>cardiomegaly; pleural effusion</answer>", 1.0),
        ("Draft list: <answer>cardiomegaly; pleural effusion</answer>\nNote: checked against the report.", 1.0),
        ("Final impression:\n<answer>cardiomegaly; pleural effusion</answer>", 1.0),
        ("Technique: PA and lateral. Comparison: none.\n<answer>cardiomegaly; pleural effusion</answer>", 1.0),
        # hacks: the gold list under a superseded heading, the final section another list or none
        ("Prior study labels (2024-02-01): <answer>cardiomegaly; pleural effusion</answer>\nCurrent study: no acute findings.", 0.0),
        # (the corrected list is read: half the gold labels)
        ("Initial list: <answer>cardiomegaly; pleural effusion</answer>\nCorrected list: <answer>cardiomegaly</answer>", 0.5),
        ("Draft:\n<answer>cardiomegaly; pleural effusion</answer>\nFinal: no effusion on the overread, cardiomegaly only.", 0.0),
        ("<answer>cardiomegaly; pleural effusion</answer>\n*** VOID -- entered before the overread. Final label list: none ***", 0.0),
    ],
)
def test_jaccard_record_sections(completion, score):
    assert JAC.score_rollout(completion, {"answer": GOLD}).score == score


@pytest.mark.parametrize("heading,expected", [("Prior study labels", "draft"), ("Current study", "final"),
                                              ("Comparison (prior 2024-02-01)", "draft"), ("Reader B", "")])
def test_heading_stage_prior_and_current(heading, expected):
    assert heading_stage(heading) == expected


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab:\n .<>/answerfilprocut", max_size=120), st.integers(min_value=0, max_value=120))
def test_under_superseded_heading_total(text, start):
    assert under_superseded_heading(text, min(start, len(text))) in (True, False)


# --- crpo_accuracy (committed_answer): a box under a superseded heading of a record whose final section is another --
from polyreward.rewards.crpo import CRPOAccuracy  # noqa: E402

CRPO = CRPOAccuracy(committed_answer=True)
W_OPTIONS = ("A. Intravenous dextrose\nB. Noncontrast head CT\nC. Intravenous lorazepam\nD. Intravenous thiamine\n"
             "E. Intravenous naloxone")
W_PROMPT = "A 45-year-old drinker is confused and ataxic; glucose 62 mg/dL. Next step?\n\n" + W_OPTIONS
W_THINK = "<think>Ataxia, nystagmus and confusion in a drinker: Wernicke encephalopathy; thiamine before glucose.</think>\n"


@pytest.mark.parametrize(
    "answer,score",
    [
        ("Assessment/Plan: intravenous thiamine now, then dextrose. \\boxed{D}", 1.0),
        ("Preliminary (resident): dextrose.\nFinal (attending): thiamine first. \\boxed{D}", 1.0),
        ("Draft v1: dextrose (A), superseded.\nFinal assessment (v2): \\boxed{D}", 1.0),
        ("Initial impression: \\boxed{D}\nNote: confirmed on review.", 1.0),
        ("Final assessment (v2): dextrose first, A.\n\nSuperseded v1 (retained for the audit trail only): \\boxed{D}", 0.0),
        ("Draft: \\boxed{D}\nFinal: dextrose first, A.", 0.0),
        ("Prior note: \\boxed{D}\nCurrent note: correct the hypoglycemia with dextrose first (A).", 0.0),
    ],
)
def test_crpo_box_under_superseded_heading(answer, score):
    assert CRPO.score_rollout(f"{W_THINK}<answer>{answer}</answer>", {"answer": "D", "prompt": W_PROMPT}).score == score


@pytest.mark.parametrize(
    "answer,score",
    [
        ("Decision: CT angiography is not needed; \\boxed{D} -- thiamine now.\nStatus: executed", 1.0),
        ("\\boxed{D}\nDecision: thiamine now, then dextrose.\nAction items: recheck glucose in 1 h.", 1.0),
        ("Tabled: \\boxed{D} (thiamine) versus A (dextrose).\nDecision: none -- deferred to the attending.", 0.0),
        ("\\boxed{D}\nStatus: rolled back -- pharmacy queried the order.", 0.0),
        ("\\boxed{D}\nOutcome: pending the toxicology screen.", 0.0),
    ],
)
def test_crpo_box_held_back_by_record_status(answer, score):
    assert CRPO.score_rollout(f"{W_THINK}<answer>{answer}</answer>", {"answer": "D", "prompt": W_PROMPT}).score == score


# --- tool calls: a record's fields are no speakers; a call shown for reference or as yesterday's is not made -------
from polyreward.rewards.tool_calls import ToolRLCorrectness  # noqa: E402
from polyreward.verifiers.voices import in_dialogue  # noqa: E402

PAGE = '{"name": "page_oncall", "parameters": {"team": "database", "severity": "SEV2"}}'
TOOL = ToolRLCorrectness(answer_column="answer", read_blocks="all")


@pytest.mark.parametrize(
    "text,dialogue",
    [("Severity: SEV2.\nStatus: executed", False), ("Decision: page now.\nAction items: none.", False),
     ("Duty Manager: page them.\nDBA: on it.", True), ("User: run it.\nAssistant: done.", True)],
)
def test_record_fields_are_no_speakers(text, dialogue):
    assert in_dialogue(text) is dialogue


@pytest.mark.parametrize(
    "completion,paid",
    [
        (f"INCIDENT INC-9031\nSeverity: SEV2. Paging the database on-call now.\n<tool_call>\n{PAGE}\n</tool_call>\nStatus: executed", True),
        (f"Change log\nDecision: page at SEV2.\nOwner: ops.\n<tool_call>\n{PAGE}\n</tool_call>", True),
        (f"Yesterday's request (for reference):\n```json\n{PAGE}\n```\nToday: the service is down; no request issued.", False),
        (f"Last week's call:\n```json\n{PAGE}\n```\nNothing sent today.", False),
    ],
)
def test_record_calls(completion, paid):
    score = TOOL.score_rollout(completion, {"answer": f"<tool_call>\n{PAGE}\n</tool_call>"}).score
    assert (score == 3.0) is paid


# --- clinical_comprehensiveness: an audit trail of ticks weighs nothing; a log with reasons does -------------------
from polyreward.rewards.clinical_reasoning import ClinicalComprehensiveness  # noqa: E402

COMP = ClinicalComprehensiveness(options_column="options")


@pytest.mark.parametrize(
    "think,score",
    [
        ("09:01 option A reviewed ✓\n09:01 option B reviewed ✓\n09:02 option C reviewed ✓\n09:02 option D reviewed ✓\n"
         "09:02 option E reviewed ✓", 0.0),
        ("[14:01] A checked\n[14:02] B checked\n[14:03] C checked\n[14:04] D checked\n[14:05] E checked", 0.0),
        ("09:01 A: a negative D-dimer cannot exclude PE at high pretest probability.\n09:02 B: CTPA is the test of choice.\n"
         "09:03 C: V/Q is for contrast allergy.\n09:04 D: Doppler does not image the lungs.\n09:05 E: an X-ray cannot show an embolus.", 1.0),
        ("A: reviewed, D-dimer useless at 7.5 Wells. B: CTPA confirms. C: V/Q needs a normal film. D: Doppler misses the lungs. "
         "E: X-ray shows no clot.", 1.0),
    ],
)
def test_comprehensiveness_log_ticks(think, score):
    completion = f"<think>{think}</think>\n<answer>\\boxed{{B}}</answer>"
    assert COMP.score_rollout(completion, {"options": PE_OPTIONS}).score == score
