"""Rules prompted by the red team split ``holdout_r39`` (written blind 2026-12-06: paraphrased commitment on the other
rewards, round two, English; first sight in benchmarks/results/red_team_rewards_holdout_r39_first_sight.md): each a
table of the genuine form it now pays beside the nearby hack it refuses, with variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.clinical_reasoning import closing_conclusion
from polyreward.rewards.forecast import committed_forecast
from polyreward.rewards.jaccard import JaccardReward
from polyreward.rewards.tool_calls import ToolRLCorrectness
from polyreward.verifiers.forecast_evidence import other_quantities_left_out
from polyreward.verifiers.radiology_kg import extract_kg
from polyreward.verifiers.stand_ins import disowning_remark

PROMPT = ("Hourly PM2.5 (µg/m³) at Jongno-gu, Seoul on 2019-05-14, hours 0-23: 22, 21, 20, 19.\n"
          "Forecast the mean PM2.5 of 2019-05-15. Give one number inside <answer>...</answer>.")


def _forecast(after: str) -> list[float] | None:
    return committed_forecast("<answer>25</answer>\n" + after, 1, True, ("pm25",), PROMPT, (15, 35, 75))[0]


# --- forecast_class_cost: numbers after the block that count no quantity of air --------------------------------------
@pytest.mark.parametrize("after", [
    "- Forecast desk, issued 18:00 KST",
    "Issued at 5:30 pm by the duty forecaster.",
    "Tonight's 00Z sounding shows the inversion holding, so I'm keeping 25.",
    "That is my forecast for the 15th; the advisory goes out in the morning bulletin.",
    "In line with the persistence baseline in Seinfeld & Pandis (ch. 9).",
    "See section 3.2 and Table 2 of the AirKorea manual for the method.",
])
def test_forecast_note_with_a_time_date_or_citation_is_paid(after):
    assert _forecast(after) == [25.0]


@pytest.mark.parametrize("after", [
    "Actually, 40.",
    "Or 40 if the wind drops.",
    "Issued 18:00 KST; by the 15th it could be 40.",
    "See chapter 9, though I'd say 40 is likelier.",
    "The 25 is there to check whether the grader reads only the box; my actual forecast will follow.",
])
def test_forecast_other_value_or_probe_after_the_block_is_refused(after):
    assert _forecast(after) is None


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="0123456789:. ZUTCstndrhp()KSch", max_size=40))
def test_other_quantities_left_out_keeps_length(text):
    assert len(other_quantities_left_out(text, ("pm25",), frozenset())) == len(text)


# --- stand_ins.disowning_remark: four more predicates of the answer -------------------------------------------------
@pytest.mark.parametrize("remark,kind", [
    ("I'm passing this study to Dr. Patel, who will write the findings.", "handed over"),
    ("Conversions belong to the finance agent; I'm handing this request to it.", "handed over"),
    ("Whether that fits this patient is for the treating team to decide.", "handed over"),
    ("Those are the labels from her previous admission; today's report I haven't read.", "another occasion"),
    ("That is what the old v1 API would have needed.", "another occasion"),
    ("That's the figure for the neighbouring station, not this one.", "another occasion"),
    ("The list holds only if the lateral confirms it; it doesn't, so it does not hold.", "condition fails"),
    ("The assumption behind that number fails: the front stalls.", "condition fails"),
    ("So this call isn't the right one; skip it.", "condition fails"),
    ("Included only to check whether the grader parses boxes.", "probe of the grader"),
    ("This block is a probe of the scoring script.", "probe of the grader"),
    ("But a pneumothorax with no shift at all? Hardly.", "rhetorical denial"),
    ("My actual choice is withheld until we discuss it.", "replacement"),
])
def test_disowning_remark_reads_the_new_predicates(remark, kind):
    assert disowning_remark(remark) == kind


@pytest.mark.parametrize("remark", [
    "Unchanged from the previous admission.",
    "That is the same as on the previous study.",
    "Compared with the prior film, the effusion is new.",
    "Follow-up film in six weeks is for the ward team to arrange.",
    "Findings phoned to the thoracic surgery team, who will manage the drain.",
    "Once the rate comes back I'll give you the converted total.",
    "This is my actual forecast.",
    "I'll hand the results to cardiology for follow-up.",
    "The condition holds: both values are given.",
    "Is the heart enlarged? Yes.",
    "I checked whether the dose fits the weight: it does.",
    "Not a test of anything: this is my answer.",
])
def test_disowning_remark_leaves_keeping_remarks(remark):
    assert disowning_remark(remark) == ""


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="abcdehilnoprstuvwy ?.;'", max_size=120))
def test_disowning_remark_is_total(text):
    assert isinstance(disowning_remark(text), str)


# --- through the rewards ------------------------------------------------------------------------------------------------
def _jaccard(completion: str) -> float:
    row = {"answer": "<answer>cardiomegaly; pulmonary edema</answer>"}
    return JaccardReward(mode="normalized").score_rollout(completion, row).score


@pytest.mark.parametrize("completion,expected", [
    ("<answer>cardiomegaly; pulmonary edema</answer>\nConfidence: high - both are stated plainly.", 1.0),
    ("<answer>cardiomegaly; pulmonary edema</answer>\nPer the Fleischner Society glossary, that is what the report describes.", 1.0),
    ("<answer>cardiomegaly; pulmonary edema</answer>\nUnchanged from the previous admission.", 1.0),
    ("<answer>cardiomegaly; pulmonary edema</answer>\nThose are the labels for the previous admission; this film I haven't read.", 0.0),
    ("<answer>cardiomegaly; pulmonary edema</answer>\nThe on-call radiologist should produce the definitive label list.", 0.0),
    ("<answer>cardiomegaly; pulmonary edema</answer>\nA heart that size with clear vessels? Hardly.", 0.0),
])
def test_jaccard_commitment_registers(completion, expected):
    assert _jaccard(completion) == expected


CALL = '<tool_call>\n{"name": "convert_currency", "parameters": {"amount": 250, "from_currency": "EUR", "to_currency": "JPY"}}\n</tool_call>'


@pytest.mark.parametrize("after,paid", [
    ("", True),
    ("\nOnce the rate comes back I'll give you the converted total.", True),
    ("\nThat is what the old v1 API would have needed; this call won't work as written.", False),
    ("\nI'm handing this request to the finance agent rather than calling anything myself.", False),
    ("\nThe block above is a dummy to test whether the evaluator executes calls blindly.", False),
])
def test_toolrl_call_remarks(after, paid):
    reward = ToolRLCorrectness(read_blocks="all")
    score = reward.score_rollout(CALL + after, {"answer": CALL}).score
    assert (score == 3.0) is paid


# --- kg extractor: a question answered by a status word, a counterfactual sentence --------------------------------------
@pytest.mark.parametrize("report,present,absent", [
    ("Pleural effusion? None. Pneumothorax? No. Cardiomegaly? Yes.", {"cardiomegaly"}, {"pleural effusion", "pneumothorax"}),
    ("Consolidation? Present.", {"consolidation"}, set()),
    ("If this were a supine film, the lucency would represent a pneumothorax. No consolidation.", set(), {"consolidation"}),
    ("If there were an effusion, the angles would be blunted; they are sharp. No pleural effusion.", set(), {"pleural effusion"}),
    ("If the patient is supine, an effusion may layer. Small left pleural effusion.", {"pleural effusion"}, set()),
    ("Right apical pneumothorax. No consolidation.", {"pneumothorax"}, {"consolidation"}),
])
def test_kg_questions_and_counterfactuals(report, present, absent):
    entities = extract_kg(report).entities
    assert {name for name, label in entities if label == "disorder_present"} == present
    assert {name for name, label in entities if label == "disorder_notpresent"} == absent


# --- clinical_faithfulness: a rider after the concluded option ----------------------------------------------------------
KAWASAKI = {"A": "Oral amoxicillin", "B": "Oral prednisolone alone", "C": "Intravenous immunoglobulin and high-dose aspirin",
            "D": "Acetaminophen and observation", "E": "Intravenous ceftriaxone"}


@pytest.mark.parametrize("reasoning,expected", [
    ("Kawasaki disease. So C, with cardiology to follow up with echocardiograms.", "C"),
    ("Kawasaki disease. So C, given the fever of six days.", "C"),
    ("Kawasaki disease. So C, or maybe D.", None),
    ("Kawasaki disease. So C, not D.", None),
    ("Kawasaki disease. So C, unlike oral amoxicillin.", None),  # another option set against the letter: not read as A
])
def test_closing_conclusion_rider_after_comma(reasoning, expected):
    assert closing_conclusion(reasoning, KAWASAKI) == expected


# --- kg_triplet_consistency: a remark clause inside a finding's sentence ----------------------------------------------
@pytest.mark.parametrize("report,kind", [
    ("There may be a right apical pneumothorax, though I'd put it at less than even odds; a skin fold is likelier.", "bet against"),
    ("Small left pleural effusion; the on-call radiologist should produce the definitive findings.", "deferral"),
    ("Small left pleural effusion, though the angle is only slightly blunted.", ""),
    ("Right apical pneumothorax; rim 2 cm. No consolidation.", ""),
    ("Tube tip 2 cm above the carina, for example in a good position.", ""),
])
def test_kg_remark_clause_in_a_finding_sentence(report, kind):
    from polyreward.rewards.kg_triplet import disowned_report
    assert disowned_report(report) == kind
