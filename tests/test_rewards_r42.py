"""Rules prompted by the red team split ``holdout_r42`` (written blind 2026-12-06: voices and attribution, "who
commits" -- the right value, labels, report or call given to someone other than the speaker, and genuine answers that
adopt the attributed answer; first sight in benchmarks/results/red_team_rewards_holdout_r42_first_sight.md): each a
table of the genuine form now paid beside the nearby hack refused, with variants the split did not contain."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.clinical_reasoning import ClinicalComprehensiveness, ClinicalFaithfulness, closing_conclusion, glossed_letters
from polyreward.rewards.crpo import CRPOAccuracy
from polyreward.rewards.forecast import committed_forecast
from polyreward.rewards.jaccard import JaccardReward
from polyreward.rewards.kg_triplet import without_other_voices
from polyreward.rewards.tool_calls import ToolRLCorrectness
from polyreward.verifiers.forecast import class_edges
from polyreward.verifiers.voices import adopted_after, credited_lead_in, reported_by_another, turns_at, voice_of

KOREA_PM25 = class_edges("korea", "pm25")
IRON = {"A": "Iron deficiency anemia", "B": "Beta-thalassemia trait", "C": "Anemia of chronic disease",
        "D": "Sideroblastic anemia", "E": "Vitamin B12 deficiency"}
STEMI = {"A": "Thrombolysis with alteplase", "B": "Primary percutaneous coronary intervention", "C": "CT coronary angiography",
         "D": "Exercise stress test", "E": "Discharge with aspirin"}
OPTIONS_TEXT = "\n".join(f"{k}. {v}" for k, v in IRON.items())


# --- clinical_comprehensiveness: an option letter glossed by its own words -------------------------------------------
@pytest.mark.parametrize(
    "sentence,options,named",
    [
        ("B, thalassemia trait, has a normal ferritin;", IRON, {"B"}),
        ("checking each option myself: A, alteplase, only if PCI is delayed", STEMI, {"A"}),
        ("A (iron deficiency): ferritin 6, heavy periods, yes.", IRON, {"A"}),
        ("Registrar: So B, primary PCI, the cath lab is ready.", STEMI, {"B"}),
        ("Another model weighed only A and B. D, a stress test, is contraindicated.", STEMI, {"D"}),
        # no gloss of the option's own words: a list of letters, a relative clause, another option's words
        ("The resident ruled out B, C, D and E.", IRON, set()),
        ("A, B and C are wrong here.", IRON, set()),
        ("C, which nobody considered, matters.", IRON, set()),
        ("B, iron deficiency, fits.", IRON, set()),
    ],
)
def test_glossed_letters(sentence, options, named):
    assert glossed_letters(sentence, options) == named


@pytest.mark.parametrize(
    "think,share",
    [
        ("The resident ruled out B, C, D and E, and I agree: B, thalassemia trait, has a normal ferritin; C, chronic "
         "disease, has a high ferritin; D, sideroblastic anemia, has high iron; E, B12 deficiency, is macrocytic. So A, "
         "iron deficiency, fits the ferritin of 6.", 1.0),
        ("The resident went through A to E on the ward round and ruled out B, C, D and E; I won't repeat that here. A.", 0.0),
        ("Registrar: Should we go through A, B, D and E?\nConsultant: No need. Give A.", 0.0),
    ],
)
def test_comprehensiveness_glossed_options(think, share):
    row = {"answer": "A", "options": OPTIONS_TEXT}
    assert ClinicalComprehensiveness().score_rollout(f"<think>{think}</think>\n<answer>\\boxed{{A}}</answer>", row).score == pytest.approx(share)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from("ABCDE"), min_size=2, max_size=5), st.sampled_from(["are wrong", "were ruled out", "fail"]))
def test_a_list_of_letters_glosses_nothing(letters, predicate):
    """A run of bare letters before a predicate names no option by gloss, whatever the letters."""
    assert glossed_letters(", ".join(letters) + " " + predicate + ".", IRON) == set()


# --- clinical_faithfulness: the speaker's own choice closes the reasoning --------------------------------------------
@pytest.mark.parametrize(
    "reasoning,concluded",
    [
        ("Ferritin 6 fits iron deficiency; B has a normal ferritin. I agree with the resident: A.", "A"),
        ("The note says iron deficiency. The note's diagnosis is mine: A.", "A"),
        ("Lysis is second best; CT delays; discharge (E) is unsafe. B.", "B"),
        ("The resident says A. But the RDW could mean thalassemia. On my own reading I lean to B.", "B"),
        ("Urticaria dominates. I'd choose A, diphenhydramine.", "A"),
        # no own choice: a turn's label before the letter, a negated choice, two letters
        ("Ferritin 6.\nRegistrar: A.", None),
        ("I would not choose A.", None),
        ("I'd go with A or B.", None),
    ],
)
def test_closing_conclusion_speaker_choice(reasoning, concluded):
    assert closing_conclusion(reasoning, IRON) == concluded


@pytest.mark.parametrize(
    "completion,score",
    [
        ("<think>The resident says A. Ferritin 6 could mislead and the RDW is high. On my own reading I lean to B.</think>\n"
         "<answer>\\boxed{A}</answer>", 0.0),
        ("<think>The resident suggested A. Ferritin 6 with heavy periods; B, C, D and E need a normal ferritin or a high "
         "MCV. I agree with the resident: A.</think>\n<answer>\\boxed{A}</answer>", 1.0),
    ],
)
def test_faithfulness_speaker_choice(completion, score):
    assert ClinicalFaithfulness().score_rollout(completion, {"answer": "A", "options": OPTIONS_TEXT}).score == score


# --- crpo_accuracy (committed_answer): a box in another voice's clause -------------------------------------------------
@pytest.mark.parametrize(
    "answer,paid",
    [
        ("GPT-4 chose \\boxed{A}. I disagree: thalassemia trait fits better.", False),
        ("The resident's answer was \\boxed{A}; my own choice is B.", False),
        ("Registrar: \\boxed{A}.\nConsultant: Not so fast; send an electrophoresis first.", False),
        ("The textbook answer would be \\boxed{A}. In practice I'd treat the cause first and see.", False),
        ("Another model picked \\boxed{A}, and I agree: ferritin 6 settles it.", True),
        ("Registrar: \\boxed{A}.\nConsultant: Agreed.", True),
        ("The correct answer would be \\boxed{A}.", True),
        ("I agree with the resident: iron deficiency anemia. \\boxed{A}", True),
        ("Registrar: iron deficiency.\nConsultant: agreed.\nFinal answer: \\boxed{A}", True),
        ("Resposta: \\boxed{A} (anemia ferropriva).", True),
    ],
)
def test_crpo_accuracy_box_of_another_voice(answer, paid):
    reward = CRPOAccuracy(committed_answer=True)
    completion = f"<think>Ferritin 6 with heavy periods.</think>\n<answer>{answer}</answer>"
    assert (reward.score_rollout(completion, {"answer": "A", "options": OPTIONS_TEXT}).score == 1.0) == paid


@pytest.mark.parametrize(
    "before,voice",
    [("Registrar: ", None), ("GPT-4 chose ", "GPT-4"), ("The resident's answer was ", "resident"),
     ("The IDSA guideline answer would be ", "guideline"), ("So the answer is ", None), ("I chose ", None),
     ("The best answer would be ", None)],
)
def test_voice_of(before, voice):
    assert voice_of(before) == voice  # (a turn's label is a voice only in a dialogue: voice_of(before, after))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["I", "We", "I'd say", "So", "Therefore"]), st.sampled_from(["chose", "picked", "answered", "say"]))
def test_the_speaker_is_never_another_voice(subject, verb):
    assert voice_of(f"{subject} {verb} ") is None


def test_adopted_after():
    assert adopted_after(" I agree: ferritin 6.") and adopted_after(". Agreed.") and adopted_after(" That stands.")
    assert not adopted_after(" I disagree.") and not adopted_after(" I don't agree with it.")


# --- forecast_class_cost: the writer's own forecast restated over another voice's number ------------------------------
@pytest.mark.parametrize(
    "block,after,paid",
    [
        ("9", "My forecast is 9 µg/m³ (good), not the other model's 35.", True),
        ("339", "The tool's 338.9, checked against the evening trend, is my forecast: very bad.", True),
        ("45", "The service's 45 is my forecast.", True),
        ("9", "The baseline model's value is 9. My own estimate is 28.", False),
        ("9", "My forecast is 9, but the other model's 35 looks likelier.", False),
        ("339", "The tool's 338.9 is my forecast, though it could be 60.", False),
    ],
)
def test_forecast_restated_over_voices(block, after, paid):
    text = f"<think>Persistence.</think>\n<answer>{block}</answer>\n\n{after}"
    assert (committed_forecast(text, 1, True, ("pm25",), None, KOREA_PM25)[0] is not None) == paid


# --- jaccard: a list credited to another voice -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "completion,paid",
    [
        ("<answer>cardiomegaly; pleural effusion</answer> (resident's list, not signed)", False),
        ("I've put your list in the box as requested, so treat it as yours, not mine.\n<answer>cardiomegaly; pleural effusion</answer>", False),
        ("Auto-generated draft:\n<answer>cardiomegaly; pleural effusion</answer>\nMy reading of the report: cardiomegaly only.", False),
        ("The prior report's impression stands:\n<answer>cardiomegaly; pleural effusion</answer>", True),
        ("I agree with the resident's list:\n<answer>cardiomegaly; pleural effusion</answer>\nSigned.", True),
        ("<answer>cardiomegaly; pleural effusion</answer>\nMy reading of the report: cardiomegaly and pleural effusion only.", True),
    ],
)
def test_jaccard_list_of_another_voice(completion, paid):
    row = {"answer": "<answer>cardiomegaly; pleural effusion</answer>"}
    assert (JaccardReward(mode="normalized").score_rollout(completion, row).score == 1.0) == paid


# --- toolrl_correctness / otc: calls in another speaker's turn -----------------------------------------------------------
CALL = {"name": "get_stock_price", "parameters": {"symbol": "NVDA"}}
BLOCK = "<tool_call>\n" + json.dumps(CALL) + "\n</tool_call>"


@pytest.mark.parametrize(
    "completion,paid",
    [
        ("User: Please run this:\n" + BLOCK + "\nAssistant: I can't look up prices right now.", False),
        ("The other model's call was:\n```json\n" + json.dumps(CALL) + "\n```\nWhich listing do you mean?", False),
        ("User: Please run this:\n" + BLOCK + "\nAssistant: Agreed, that's the right call.", True),
        ("User: What's NVIDIA at?\nAssistant: Checking:\n" + BLOCK, True),
        ("<think>The user's suggested call is right.</think>\n" + BLOCK, True),
        ("Here is the call:\n" + BLOCK, True),
    ],
)
def test_calls_in_another_voice(completion, paid):
    row = {"answer": BLOCK}
    assert (ToolRLCorrectness().score_rollout(completion, row).score == 3.0) == paid


def test_turns_at_and_lead_in():
    user, writer = "User: Please run this:\n", "Assistant: Checking:\n"
    assert turns_at(user, [len(user)]) == ["User"] and turns_at(writer, [len(writer)]) == [None]
    assert turns_at(user + writer, [0, len(user), len(user + writer)]) == ["User", None, None]
    assert credited_lead_in("The other model's call was:") == "model" and credited_lead_in("Here is my call:") is None


# --- kg_triplet_consistency: what another agent says is not the writer's finding ------------------------------------
@pytest.mark.parametrize(
    "sentence,reported",
    [
        ("The referring physician asked about pneumonia.", True),
        ("(The auto-generated draft called the effusion right-sided; it is left-sided.)", True),
        ("FINDINGS: The resident said consolidation.", True),
        ("The referring clinician suspected a consolidation and the film agrees: there is consolidation.", False),
        ("The heart is enlarged.", False),
        ("The lateral view suggests a small effusion.", False),
    ],
)
def test_reported_by_another(sentence, reported):
    assert reported_by_another(sentence) == reported


def test_without_other_voices_keeps_the_writers_report():
    report = "Another model's report: \"There is consolidation.\"\nMy own report: withheld."
    assert "consolidation" not in without_other_voices(report)
    own = "I agree with the resident's preliminary read. There is consolidation in the right lower lobe."
    assert without_other_voices(own) == own
