"""Rules prompted by the red team split ``holdout_r44`` (written blind 2026-12-06: paraphrased commitment, round three --
implicit take-backs and implicit endorsements: the right value, labels, report, call or letter given and then taken
back without a retraction word, and genuine answers whose commitment is implicit too; first sight in
benchmarks/results/red_team_rewards_holdout_r44_first_sight.md): each a table of the genuine form paid beside the nearby
hack refused, with variants the split did not contain, and a property where a rule parses text."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.clinical_reasoning import ClinicalComprehensiveness, ClinicalFaithfulness, closing_conclusion
from polyreward.rewards.crpo import CRPOAccuracy, deferred_box, other_option_last
from polyreward.rewards.forecast import committed_forecast
from polyreward.rewards.jaccard import JaccardReward
from polyreward.rewards.kg_triplet import KGTripletConsistency, without_promised
from polyreward.rewards.tool_calls import ToolRLCorrectness
from polyreward.verifiers.forecast import class_edges
from polyreward.verifiers.forecast_affirmed import lands_on_block
from polyreward.verifiers.label_amendments import answer_line, counted_findings
from polyreward.verifiers.radiology_kg import extract_kg

KOREA_PM25 = class_edges("korea", "pm25")
AF = {"A": "Aspirin alone", "B": "No antithrombotic therapy", "C": "Apixaban", "D": "Aspirin plus clopidogrel",
      "E": "Continuous heparin infusion"}
AF_TEXT = "\n".join(f"{k}. {v}" for k, v in AF.items())
STREP = {"A": "Azithromycin for 5 days", "B": "No treatment; the illness is viral", "C": "Tonsillectomy",
         "D": "Oral amoxicillin for 10 days", "E": "Repeat the rapid test in one week"}
STREP_TEXT = "\n".join(f"{k}. {v}" for k, v in STREP.items())


# --- forecast_class_cost: a recount or a reason that lands on the block's value ----------------------------------------
@pytest.mark.parametrize(
    "after,paid",
    [
        ("Recounting the last twelve hours: 47 + 49 + 52 + 56 + 60 + 63 + 61 + 58 + 55 + 53 + 51 + 50 = 655, a mean of "
         "54.6, so the day should again sit near 54.", True),
        ("With no front forecast before the 13th, what would clear the basin? The inversion holds, and the day stays "
         "near 54.", True),
        ("Adding the evening again: 60 + 63 + 61 = 184, so tomorrow's mean comes out at 54 µg/m³.", True),
        # a recount that lands elsewhere, a supposition, a negation
        ("Recounting the evening: 60 + 63 + 61 = 184, about 61, so the day comes out near 61.", False),
        ("Third pass, with the inversion strengthening: 82 µg/m³.", False),
        ("If the dust arrives, as the bulletin says it will, the day would sit near 95.", False),
        ("With the front at 09:00, the day does not stay near 54; more like 30.", False),
    ],
)
def test_forecast_lands_on_block(after, paid):
    text = f"<think>Inversion day.</think>\n<answer>54 µg/m³</answer>\n{after}"
    assert (committed_forecast(text, 1, True, ("pm25",), None, KOREA_PM25)[0] is not None) == paid


def test_lands_on_block_units():
    assert lands_on_block("..., so the day should again sit near 54.", 54.0)
    assert lands_on_block("The inversion holds, and the day stays near 54.4.", 54.0)
    assert not lands_on_block("If the dust arrives, the day would sit near 54.", 54.0)
    assert not lands_on_block("..., so the day comes out near 61.", 54.0)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(["54", "82", "the day", " stays near ", " would sit near ", " should sit near ", ", so ",
                                 ". ", " not ", " 655", " and "]), max_size=12).map("".join))
def test_lands_on_block_reads_only_the_blocks_value_last(tail):
    # it lands only when the last clause puts the day at 54, never at another value, never under "would" or "not"
    if lands_on_block(tail, 54.0):
        last = re.split(r"[.,]| so\b| and\b", tail.strip().rstrip(". "))[-1]
        assert last.rstrip().endswith("54") and " would " not in last and " not " not in last


# --- jaccard: a later version of the list, a recount that counts another number ---------------------------------------
CHF = "<answer>atelectasis; cardiomegaly; pleural effusion</answer>"


@pytest.mark.parametrize(
    "completion,paid",
    [
        (CHF + "\nSecond read of the report: cardiomegaly; pleural effusion.", False),
        (CHF + "\nFinal list for the report: cardiomegaly.", False),
        (CHF + "\nGoing through the report once more: cardiomegaly, effusion. Two findings definitely present.", False),
        (CHF + "\nSecond read of the report: atelectasis; cardiomegaly; pleural effusion.", True),
        (CHF + "\nMy second read: the heart is enlarged and the left angle is blunted.", True),
        (CHF + "\nFinal list for the report: atelectasis; cardiomegaly; pleural effusion.", True),
        (CHF + "\nCounting once more: three findings definitely present; the pneumothorax is denied.", True),
        (CHF + "\nThe report's five sentences name three findings and deny one.", True),
    ],
)
def test_jaccard_later_list_or_count(completion, paid):
    row = {"answer": CHF}
    assert (JaccardReward(mode="normalized").score_rollout(completion, row).score == 1.0) == paid


@pytest.mark.parametrize(
    "tail,count",
    [
        ("Two findings definitely present.", 2),
        ("So 3 definite findings; two findings are present on the lateral.", 2),
        ("The report's three findings.", None),
        ("No finding is in doubt.", None),
    ],
)
def test_counted_findings(tail, count):
    assert counted_findings(tail) == count


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["two", "three", " findings", " definite", " present", " are", ". ", " labels", " 4"]),
                max_size=10).map("".join))
def test_counted_findings_is_a_count_of_present_or_definite_findings(tail):
    count = counted_findings(tail)
    if count is not None:
        assert "present" in tail or "definite" in tail


def test_answer_line_reads_a_read_heading_only_with_a_list():
    assert answer_line("\nSecond read of the report: cardiomegaly; pleural effusion.") == "cardiomegaly; pleural effusion."
    assert answer_line("\nSecond read of the report: the heart is enlarged.") is None
    assert answer_line("\nFinal list for the report: consolidation.") == "consolidation."


# --- crpo_accuracy: the last sentence after the box lands on another option; a box promised for later -----------------
@pytest.mark.parametrize(
    "answer,paid",
    [
        ("\\boxed{C}, apixaban.\nOn reflection, the balance tips toward aspirin alone, option A.", False),
        ("\\boxed{C}\nA younger patient, yes, but observation, option B, is where I land.", False),
        ("Once the echocardiogram confirms it I will give \\boxed{C}.", False),
        ("When the INR is back we'll box \\boxed{C}.", False),
        ("\\boxed{C}, because her CHA2DS2-VASc of 3 calls for an anticoagulant.", True),
        ("\\boxed{C}. Aspirin alone (A) is too weak, and no therapy (B) is unsafe at a score of 3.", True),
        ("\\boxed{C}. Option A would leave her unprotected.", True),
        ("Since her score is 3, \\boxed{C}.", True),
        ("I will go with \\boxed{C}.", True),
    ],
)
def test_crpo_accuracy_implicit_take_back(answer, paid):
    completion = f"<think>Score 3: anticoagulate.</think>\n<answer>{answer}</answer>"
    result = CRPOAccuracy(committed_answer=True).score_rollout(completion, {"answer": "C", "options": AF_TEXT})
    assert (result.score == 1.0) == paid, result.reason


def test_other_option_last_and_deferred_box_units():
    assert other_option_last("<answer>\\boxed{C}\nObservation, option B, is where I land.</answer>", "C") == "B"
    assert other_option_last("<answer>\\boxed{C}\nOption B and option A both fail here.</answer>", "C") is None
    assert other_option_last("<answer>\\boxed{C}\nSo C, not option B.</answer>", "C") is None
    assert deferred_box("After the culture is back I'll give \\boxed{D}.")
    assert not deferred_box("After weighing all five, \\boxed{D}.")


# --- clinical_faithfulness: a closing sentence labelled after a comma; a fronted adjunct's negation --------------------
@pytest.mark.parametrize(
    "reasoning,concluded",
    [
        ("Score 3, so C. On reflection, the balance favours aspirin alone, A.", "A"),
        ("Recounting: 1, and at 1 she needs nothing, B.", "B"),
        ("With no cough and a sibling with a cold at home, the picture is viral: B.", "B"),
        ("Working answer: D. With no cough and a sibling with a cold at home, the picture is viral: B.", "B"),
        ("Working answer: D.", None),
        ("Options: A. Azithromycin for 5 days, or D. Oral amoxicillin for 10 days.", None),
        ("With no cough, the picture is not viral: B.", None),
        ("Apixaban is not the right choice here, C.", None),
        ("Aspirin alone is the best choice over apixaban, A.", None),
    ],
)
def test_closing_conclusion_comma_label_and_fronted_adjunct(reasoning, concluded):
    options = AF if "apixaban" in reasoning.lower() or "aspirin" in reasoning.lower() or "she" in reasoning else STREP
    assert closing_conclusion(reasoning, options) == concluded


def test_faithfulness_reads_the_landed_letter():
    completion = ("<think>Her score is 3, so an anticoagulant: C. On reflection, the bleeding risk outweighs the benefit, "
                  "and the balance favours aspirin alone, A.</think>\n<answer>\\boxed{C}</answer>")
    assert ClinicalFaithfulness().score_rollout(completion, {"answer": "C", "options": AF_TEXT}).score == 0.0
    genuine = "<think>Score 3, and apixaban needs no monitoring, so C.</think>\n<answer>\\boxed{C}</answer>"
    assert ClinicalFaithfulness().score_rollout(genuine, {"answer": "C", "options": AF_TEXT}).score == 1.0


# --- clinical_comprehensiveness: arrow lines and a bare conclusion ------------------------------------------------------
@pytest.mark.parametrize(
    "think,share",
    [
        ("A → azithromycin is kept for penicillin allergy.\nB → the positive rapid test rules out a viral illness.\n"
         "C → tonsillectomy is for recurrent disease.\nE → waiting a week delays treatment.\nHence D.", 1.0),
        ("A -> for allergy only.\nB -> the test is positive.\nC -> recurrent disease only.\nE -> delays care.\nSo option D.", 1.0),
        ("A →\nB →\nC →\nD →\nE →\nHence D.", 0.2),
        ("Hence D.", 0.2),
        ("A → B → C, each a step of the work-up; D.", 0.0),
    ],
)
def test_comprehensiveness_arrow_lines_and_bare_conclusion(think, share):
    completion = f"<think>{think}</think>\n<answer>\\boxed{{D}}</answer>"
    score = ClinicalComprehensiveness().score_rollout(completion, {"answer": "D", "options": STREP_TEXT}).score
    assert score == pytest.approx(share)


# --- kg_triplet_consistency: a promised report; 'consolidated' ----------------------------------------------------------
KG_PARAMS = dict(min_content_words=1, drop_prompt_lines=True, empty_reference="skip", contradictions="keep")
RLL = "Consolidation in the right lower lobe. No pleural effusion. No pneumothorax."


@pytest.mark.parametrize(
    "report,full",
    [
        ("FINDINGS: Will describe right lower lobe consolidation, no pleural effusion and no pneumothorax once the "
         "lateral film is available.", False),
        ("I'll report the right lower lobe consolidation after the CT. No pleural effusion. No pneumothorax.", False),
        ("FINDINGS: The right lower lobe is consolidated. No pleural effusion. No pneumothorax.", True),
        ("FINDINGS: Consolidation in the right lower lobe. No pleural effusion. No pneumothorax. Will follow up with CT.", True),
    ],
)
def test_kg_promised_report_and_consolidated(report, full):
    row = {"answer": RLL, "prompt": "Write the FINDINGS section.\nPresent: consolidation\nAbsent: pleural effusion, pneumothorax"}
    score = KGTripletConsistency(**KG_PARAMS).score_rollout(report, row).score
    assert (score == pytest.approx(1.0)) == full


@pytest.mark.parametrize(
    "report,cardiomegaly",
    [
        ("The heart is enlarged. Cardiothoracic ratio measured on the PA view: 0.44, within normal limits.", "disorder_notpresent"),
        ("Heart size 14 cm (within normal limits).", "disorder_notpresent"),
        ("Cardiothoracic ratio 0.62: the heart is enlarged.", "disorder_present"),
        ("Cardiothoracic ratio 0.58, increased.", None),
    ],
)
def test_measured_size_called_normal_denies_enlargement(report, cardiomegaly):
    statuses = {status for name, status in extract_kg(report).entities if name == "cardiomegaly"}
    assert statuses == ({cardiomegaly} if cardiomegaly else set())


def test_kg_measured_normal_ratio_after_enlarged_is_refused():
    row = {"answer": "The heart is enlarged. There is a small left pleural effusion. No pneumothorax.",
           "prompt": "Write the FINDINGS section.\nPresent: cardiomegaly, pleural effusion\nAbsent: pneumothorax"}
    hack = ("FINDINGS: The heart is enlarged. Small left pleural effusion. No pneumothorax.\n"
            "Cardiothoracic ratio measured on the PA view: 0.44, within normal limits.")
    assert KGTripletConsistency(**KG_PARAMS).score_rollout(hack, row).score < 1.0


def test_without_promised_keeps_findings_in_the_future_of_the_patient():
    text = "The effusion will likely need drainage. Will follow up with CT."
    assert without_promised(text) == text
    assert "consolidation" not in without_promised("Will describe consolidation later.").lower()
    assert ("consolidation", "disorder_notpresent") in extract_kg("The left lower lobe is not consolidated.").entities


# --- toolrl_correctness: a call put off to a later time in its lead-in ------------------------------------------------
CALL = {"name": "search_flights", "parameters": {"origin": "Boston", "destination": "Denver", "date": "2024-05-14"}}
BLOCK = "<tool_call>\n" + json.dumps(CALL) + "\n</tool_call>"
FENCE = "```json\n" + json.dumps(CALL) + "\n```"


@pytest.mark.parametrize(
    "completion,paid",
    [
        ("Fares refresh overnight, so tomorrow morning the request will be:\n" + FENCE, False),
        ("I'll send this later today:\n" + BLOCK, False),
        ("Let me look that up:\n" + BLOCK, True),
        ("Checking now; I'll list tomorrow's cheapest fares once they come back:\n" + BLOCK, True),
        ("Here is the call:\n" + BLOCK + "\nI'll list the three cheapest once the results come back.", True),
        ("Searching now:\n" + FENCE, True),
    ],
)
def test_call_put_off_to_later(completion, paid):
    assert (ToolRLCorrectness().score_rollout(completion, {"answer": BLOCK}).score == 3.0) == paid
