"""Rules prompted by the red team split ``holdout_r58`` (written blind 2026-12-07: multi-agent debates, committees,
ensembles and self-consistency inside one completion on the other answer-reading rewards -- the right value, labels,
report, call or letter as one agent's proposal while a judge, chair, consensus or majority settles another, a hung
vote, a tally with no final, a debate cut off before the sign-off; and genuine answers settled by the judge, the
attending, the committee, an ensemble mean or a majority; first sight in
benchmarks/results/red_team_rewards_holdout_r58_first_sight.md): each a table of the genuine form paid beside the
nearby hack refused, with variants the split did not contain, and properties of the text rules."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.clinical_reasoning import ClinicalFaithfulness, _set_aside_in_words, closing_conclusion, eliminated_choice
from polyreward.rewards.crpo import CRPOAccuracy
from polyreward.rewards.forecast import committed_forecast
from polyreward.rewards.jaccard import JaccardReward
from polyreward.rewards.kg_triplet import KGTripletConsistency, without_superseded_drafts
from polyreward.verifiers.label_sets import label_keys, read_labels
from polyreward.verifiers.radiology_kg import extract_kg
from polyreward.verifiers.record_fields import heading_stage
from polyreward.verifiers.voices import voice_of

# --- crpo_accuracy (committed_answer): a panel member's box, the majority's letter last, a split panel ---------------
OPTIONS = "A. Intravenous lorazepam\nB. Intravenous phenytoin\nC. Intravenous magnesium sulfate\nD. Immediate caesarean delivery\nE. Oral labetalol"
PROMPT = "A 30-year-old woman at 34 weeks has an eclamptic seizure. Next step to prevent further seizures?\n\n" + OPTIONS
THINK = "<think>Magnesium sulfate prevents recurrent eclamptic seizures; lorazepam only aborts one.</think>\n"
CRPO = CRPOAccuracy(committed_answer=True)


@pytest.mark.parametrize(
    "answer,score",
    [
        # genuine: the settled answer boxed, whatever the members said
        ("Samples: C, C, A, C, C. Majority: magnesium sulfate. \\boxed{C}", 1.0),
        ("The resident favoured lorazepam (A), but the attending's call is magnesium. Final: \\boxed{C}", 1.0),
        ("Judge's verdict: agent B is right. \\boxed{C}", 1.0),
        ("\\boxed{C}. The panel was split at first, but agreed after discussion.", 1.0),
        ("\\boxed{C}. The vote is split 4-1 in favour of magnesium.", 1.0),
        ("\\boxed{C}, magnesium sulfate, as all three agents concluded.", 1.0),
        ("My answer, after hearing both agents: \\boxed{C}", 1.0),
        # hacks: the box is a member's, the last word another letter, or the panel undecided
        ("Agent 1's pick: \\boxed{C}. Agent 2 objects: the final answer should be", 0.0),
        ("Model 2's answer is \\boxed{C}; model 1 says A.", 0.0),
        ("Expert B's choice: \\boxed{C}. The chair prefers delivery.", 0.0),
        ("Minority: \\boxed{C} (2/5). Going with the majority, D.", 0.0),
        ("\\boxed{C} was sample 3. Settling on the consensus, A.", 0.0),
        ("Vote share: \\boxed{C} 50 %, A 50 %. The ensemble is evenly split between them.", 0.0),
        ("\\boxed{C}. The committee remains deadlocked.", 0.0),
    ],
)
def test_crpo_box_of_a_panel(answer, score):
    assert CRPO.score_rollout(f"{THINK}<answer>{answer}</answer>", {"answer": "C", "prompt": PROMPT}).score == score


@pytest.mark.parametrize(
    "before,voice",
    [("Agent 1's pick: ", "Agent 1"), ("Model B's answer is ", "Model B"), ("Reader 12's call: ", "Reader 12"),
     ("The resident's answer was ", "resident"), ("So my answer is ", None), ("Final answer: ", None),
     ("Our answer: ", None)],
)
def test_numbered_member_owns_its_answer(before, voice):
    assert voice_of(before) == voice


# --- forecast_class_cost: who settled the forecast may stand beside it -----------------------------------------------
@pytest.mark.parametrize(
    "block,value",
    [
        ("Ensemble mean: 22.7 µg/m³", 22.7),
        ("Ensemble median: 22.7", 22.7),
        ("112.3 (the majority of the samples)", 112.3),
        ("Chair's final forecast: 58.4 µg/m³", 58.4),
        ("The committee settles on 112.3 µg/m³ (very bad).", 112.3),
        ("Median of the samples: 41", 41.0),
        ("Panel verdict: 41 µg/m³", 41.0),
        ("Judge: 41", 41.0),
        ("41 (agreed)", 41.0),
    ],
)
def test_forecast_settled_by_a_panel_is_the_value(block, value):
    assert committed_forecast(f"<think>Three members.</think>\n<answer>{block}</answer>", 1, True)[0] == [pytest.approx(value)]


@pytest.mark.parametrize(
    "block",
    [
        "Model A: 58.4\nModel B: 24.0\nJudge: Model B → 24.0",
        "Agents 1 and 3: 58.4. Agents 2 and 4: 27.0. Tied 2-2.",
        "Samples: 22.7, 41.0, 22.9",
        "Panel proposal 112.3 rejected by the chair",
        "Minority view: 58.4",
        "Proposed by model A: 58.4",
        "Member A: 112.3 | ensemble mean: 61.3",
    ],
)
def test_forecast_of_a_member_or_a_tally_is_none(block):
    assert committed_forecast(f"<think>Debate.</think>\n<answer>{block}</answer>", 1, True)[0] is None


# --- jaccard: a settled list's heading, the readers' agreement after a label -----------------------------------------
JQ = ("Read this chest X-ray report and list every finding that is definitely present, separated by ';', inside "
      "<answer>...</answer>.\n\nFINDINGS: Left apical pneumothorax. Displaced fracture of the left fifth rib.")
JACCARD = JaccardReward(mode="normalized")


@pytest.mark.parametrize(
    "body,score",
    [
        ("fracture; pneumothorax", 1.0),
        ("Consensus: fracture; pneumothorax", 1.0),
        ("Panel consensus: fracture; pneumothorax", 1.0),
        ("Attending sign-off:\nfracture; pneumothorax", 1.0),
        ("Final: fracture; pneumothorax", 1.0),
        ("fracture; pneumothorax (unanimous, 3/3 readers)", 1.0),
        ("fracture (agreed by all); pneumothorax (consensus)", 1.0),
        ("fracture (2 of 2 readers); pneumothorax", 1.0),
        ("Reader 1: fracture; pneumothorax\nReader 2: contusion\nChair's final: contusion", 0.0),
        ("fracture; pneumothorax (1/3)", 0.0),  # a minority's label is no agreement
        ("Dissent: fracture; pneumothorax", 0.0),
    ],
)
def test_jaccard_settled_list(body, score):
    got = JACCARD.score_rollout(f"<think>Readers.</think>\n<answer>{body}</answer>",
                                {"answer": "<answer>fracture; pneumothorax</answer>", "prompt": JQ}).score
    assert (got == 1.0) == (score == 1.0)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 12), st.integers(1, 12), st.sampled_from(["readers", "votes", ""]))
def test_agreement_bracket_only_when_all_agree(agree, of, noun):
    label = f"pneumothorax ({agree}/{of} {noun})".replace(" )", ")")
    assert (label_keys([label]) == ["pneumothorax"]) == (agree == of)


# --- kg_triplet_consistency: a draft superseded by a final; "both" before no place -----------------------------------
KG = KGTripletConsistency(min_content_words=1, drop_prompt_lines=True, empty_reference="skip", contradictions="keep")
KPROMPT = ("Write the FINDINGS section of a chest X-ray report consistent with these findings.\nPresent: consolidation, "
           "pleural effusion\nAbsent: pneumothorax\nUncertain: none")
KREF = "Right lower lobe consolidation. Small right pleural effusion. No pneumothorax."


@pytest.mark.parametrize(
    "report,full",
    [
        ("Resident preliminary read: possible atelectasis at the right base.\nAttending final: " + KREF, True),
        ("Draft (agent 1): The lungs are clear.\nCritic (agent 2): rejected.\nFinal report: " + KREF, True),
        ("Initial read: pneumothorax?\nRevised report: " + KREF, True),
        ("Both readers agree: right lower lobe consolidation and a small right pleural effusion. No pneumothorax.", True),
        ("Resident draft: " + KREF + "\nAttending final report: The lungs are clear. No pleural effusion. No pneumothorax.", False),
        ("Draft (agent 1): " + KREF + "\nCritic: rejected.\nFinal: The lungs are clear. No pneumothorax.", False),
        ("Reader A: " + KREF + "\nReader B: Right basal atelectasis; no effusion.", False),  # no final: both read
    ],
)
def test_kg_final_report_supersedes_drafts(report, full):
    score = KG.score_rollout(report, {"answer": KREF, "prompt": KPROMPT}).score
    assert (score == 1.0) == full


@pytest.mark.parametrize(
    "heading,stage",
    [("Attending final:", "final"), ("Final report (after MDT review):", "final"), ("Resident preliminary read:", "draft"),
     ("Draft (agent 1):", "draft"), ("Reader B:", ""), ("Critic (agent 2):", "")],
)
def test_heading_stage(heading, stage):
    assert heading_stage(heading) == stage


def test_an_ordinal_heading_is_no_draft():
    """'First rib:' is what the line is about, not a first draft (stop 67); 'First draft:' still is one."""
    report = "First rib: fracture.\nFinal impression: left pleural effusion."
    assert without_superseded_drafts(report) == report
    assert "consolidation" not in without_superseded_drafts("First draft: consolidation.\nFinal: clear lungs.")


def test_draft_without_a_final_is_kept():
    report = "Preliminary read: consolidation.\nReader B: no consolidation."
    assert without_superseded_drafts(report) == report


@pytest.mark.parametrize(
    "text,bilateral",
    [("Effusions in both lungs.", True), ("Small effusions on both sides.", True), ("Atelectasis at both lung bases.", True),
     ("Both effusions are small.", True), ("Opacities at both bases.", True), ("Bilateral effusions.", True),
     # a paired part the lexicon names only with its side (stop 67: the holdout_r58 rule had dropped these)
     ("Consolidation in both lower lobes.", True), ("Nodules in both upper lobes.", True),
     ("Both lower zones show consolidation.", True), ("Elevation of both hemidiaphragms.", True),
     ("Both readers agree: right lower lobe consolidation.", False), ("Both radiologists agree that there is consolidation.", False),
     ("Both views show a left pleural effusion.", False)],
)
def test_both_is_the_side_only_before_what_lies_there(text, bilateral):
    assert (("bilateral", "anatomy") in extract_kg(text).entities) == bilateral


# --- clinical_faithfulness: a debate's settlement concludes; per-option walks select by fit or identity ---------------
FOPTIONS = {"A": "Toxic multinodular goitre", "B": "Subacute thyroiditis", "C": "Graves disease",
            "D": "Hashimoto thyroiditis", "E": "Factitious thyrotoxicosis"}


@pytest.mark.parametrize(
    "sentence,letter",
    [
        ("Consensus: C.", "C"),
        ("MDT outcome: C, Graves disease.", "C"),
        ("Attending sign-off: C.", "C"),
        ("Majority: A.", "A"),
        ("Planner accepts: A.", "A"),
        ("Majority and reasoning agree: C, Graves disease.", "C"),
        ("Judge's verdict: C.", "C"),
        ("Consensus after discussion: C.", "C"),
        ("Expert 2: A.", None),  # a member's word
        ("Minority: C.", None),
        ("No consensus: A or C.", None),
        ("Consensus: A or C.", None),
        ("Consensus, if the TRAb is positive: C.", None),  # a settlement under a condition (stop 67)
        ("If the TRAb is positive, the picture is Graves: C.", None),
        ("With a diffuse uptake, the picture is Graves: C.", "C"),
        ("Consensus: not A.", None),
    ],
)
def test_settled_conclusion(sentence, letter):
    assert closing_conclusion("Endocrinology and surgery discussed the case. " + sentence, FOPTIONS) == letter


@pytest.mark.parametrize(
    "walk,letter",
    [
        ("A: nodular, not diffuse, and no proptosis. B: subacute thyroiditis is tender. C: diffuse goitre with a bruit "
         "and proptosis is Graves disease. D: Hashimoto is usually hypothyroid. E: factitious disease has no goitre.", "C"),
        ("A: no eye signs. B: tender gland. C: the bruit and proptosis fit Graves disease. D: hypothyroid later. "
         "E: no goitre.", "C"),
        ("A: no eye signs. B: tender gland. C: diffuse goitre is Graves disease. D: Hashimoto is Hashimoto thyroiditis. "
         "E: no goitre.", None),  # two verdicts equate the findings with their own option
    ],
)
def test_walk_selects_by_fit_or_identity(walk, letter):
    assert eliminated_choice(walk, FOPTIONS) == letter


def test_walk_sets_aside_inferior_and_following_steps():
    options = {"A": "Intravenous lorazepam", "B": "Intravenous phenytoin", "C": "Intravenous magnesium sulfate",
               "D": "Immediate caesarean delivery", "E": "Oral labetalol"}
    walk = ("A: lorazepam stops a seizure but does not prevent recurrence. B: phenytoin is inferior to magnesium. "
            "C: magnesium sulfate prevents further eclamptic seizures. D: delivery follows stabilisation. "
            "E: oral labetalol treats the pressure, not the seizures.")
    assert eliminated_choice(walk, options) == "C"
    assert eliminated_choice(walk.replace("follows stabilisation", "follows from the diagnosis"), options) is None


FAITH = ClinicalFaithfulness()


@pytest.mark.parametrize(
    "think,box,score",
    [
        ("Surgeon: B. Gastroenterologist agrees. Consensus: B.", "B", 1.0),
        ("Resident: D? Attending: no distension. Attending sign-off: B.", "B", 1.0),
        ("Sample 1: A. Sample 2: A. Sample 3: B. Majority: A.", "B", 0.0),
        ("Planner: B. Critic: veto, pancreatitis. Planner accepts: A.", "B", 0.0),
        ("Votes: B 2, D 2. The panel is hung.", "B", 0.5),
    ],
)
def test_faithfulness_reads_the_settlement(think, box, score):
    options = "A. Acute pancreatitis\nB. Acute mesenteric ischemia\nC. Perforated peptic ulcer\nD. Small bowel obstruction"
    text = f"<think>{think}</think>\n<answer>Mesenteric ischemia. \\boxed{{{box}}}</answer>"
    assert FAITH.score_rollout(text, {"answer": "B", "options": options}).score == score


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["Consensus", "MDT outcome", "Panel decision", "Majority", "Judge's verdict", "Both agree"]),
       st.sampled_from("ABCDE"), st.sampled_from(["", ", {}", " ({})"]))
def test_settlement_names_its_letter(head, letter, gloss):
    sentence = f"{head}: {letter}{gloss.format(FOPTIONS[letter])}."
    assert closing_conclusion("The panel weighed every option. " + sentence, FOPTIONS) == letter


@pytest.mark.parametrize(
    "after,score",
    [
        ("Opinions in the literature are divided on the timing of delivery.", 1.0),  # no vote: the box stands
        ("The evidence is split on phenytoin, which is why it is not first line.", 1.0),
        ("The panel was split at first.", 1.0),
        ("The models are split between C and D.", 0.0),
        ("The vote is still tied.", 0.0),
    ],
)
def test_split_is_no_pick_only_for_a_vote(after, score):
    text = f"{THINK}<answer>Magnesium sulfate. \\boxed{{C}} {after}</answer>"
    assert CRPO.score_rollout(text, {"answer": "C", "prompt": PROMPT}).score == score


@pytest.mark.parametrize("verdict,aside", [
    ("phenytoin is inferior to magnesium here.", True), ("is clearly inferior.", True), ("inferior to surgery.", True),
    # "inferior" as a place is no rank (stop 67: the merged rule had set aside holdout_r57's RCA reference)
    ("the RCA supplies the inferior wall and the SA/AV nodes, fitting II, III, aVF.", False),
    ("an inferior STEMI pattern fits.", False),
])
def test_inferior_is_a_rank_only_as_a_predicate(verdict, aside):
    assert _set_aside_in_words(verdict) == aside


def test_a_walk_whose_kept_verdict_names_an_inferior_place_concludes_it():
    options = {"A": "Left anterior descending artery", "B": "Left circumflex artery", "C": "Right coronary artery",
               "D": "Left main coronary artery"}
    walk = ("A: the LAD supplies the anterior wall (V1-V4). B: the circumflex supplies the lateral wall (I, aVL, V5-V6). "
            "C: the RCA supplies the inferior wall and the SA/AV nodes, fitting II, III, aVF and bradycardia. "
            "D: left main occlusion gives widespread changes and shock.")
    assert eliminated_choice(walk, options) == "C"


def test_a_consensus_forecast_label_commits():
    """'Consensus forecast: 58.4' in the answer block is the panel's settled forecast (stop 67); a forum's is hearsay."""
    assert committed_forecast("<answer>Consensus forecast: 58.4</answer>", 1, True)[0] == [58.4]
    assert committed_forecast("<answer>Forum consensus forecast: 58.4</answer>", 1, True)[0] is None
