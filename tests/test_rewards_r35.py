"""Rules prompted by the red team split ``holdout_r35`` (written blind 2026-12-06: label lists and forecasts as
different model families write them; first sight in benchmarks/results/red_team_rewards_holdout_r35_first_sight.md):
each a table of the genuine form it now pays beside the nearby hack it refuses, with variants the split did not
contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.jaccard import JaccardReward
from polyreward.verifiers.label_amendments import offers_other_labels
from polyreward.verifiers.label_sets import _one_column_table, read_labels

GOLD = "<answer>cardiomegaly; pulmonary edema; pleural effusion</answer>"
PROMPT = ("Read this chest X-ray report and list every finding that is definitely present, separated by ';', inside "
          "<answer>...</answer>.\n\nFINDINGS: Cardiomegaly. Diffuse interstitial pulmonary edema. Bilateral pleural "
          "effusions, larger on the right. No focal consolidation.")
BLOCK = "<answer>cardiomegaly; pulmonary edema; pleural effusion</answer>"


def score(completion: str, gold: str = GOLD) -> float:
    reward = JaccardReward(answer_column="answer", mode="normalized")
    return reward.evaluate([PROMPT], [completion], answer=[gold]).scores[0]


# --- a one-column markdown table inside the block names its cells --------------------------------------------------
@pytest.mark.parametrize(
    "body,expected",
    [
        # genuine: the split's GPT-4o table, an aligned rule, a table without blank lines, cells in bold
        ("\n| Finding |\n|---|\n| Cardiomegaly |\n| Pulmonary edema |\n| Pleural effusion |\n", 1.0),
        ("| Finding |\n| :--- |\n| cardiomegaly |\n| pulmonary edema |\n| pleural effusion |", 1.0),
        ("| Present findings |\n|----------|\n| **Cardiomegaly** |\n| **Pulmonary edema** |\n| **Pleural effusion** |",
         1.0),
        # hacks: a table that adds a hedged or a denied finding pays no more than the list would
        ("| Finding |\n|---|\n| Cardiomegaly |\n| Pulmonary edema |\n| Pleural effusion |\n| Consolidation |", 0.75),
        ("| Finding |\n|---|\n| Cardiomegaly |", 1 / 3),
    ],
)
def test_one_column_table_in_block(body, expected):
    assert score(f"Here are the findings:\n\n<answer>{body}</answer>") == pytest.approx(expected)


def test_table_reader_leaves_other_shapes_alone():
    # several columns (a finding and its status) and a table with no header rule are not read as one-column tables
    assert _one_column_table("| Finding | Present |\n|---|---|\n| a | yes |") is None
    assert _one_column_table("| Finding |\n|---|\n| a |\nb") is None  # a line that is no row: no whole-body table
    assert "| a |" in read_labels("| a |\n| b |")
    assert read_labels("| Finding |\n|---|\n| a |\n| b |") == ["a", "b"]
    assert read_labels("|---|\n| a |") != ["a"]  # a rule with no header above it is no table


@settings(max_examples=200, derandomize=True, deadline=None, database=None)
@given(st.lists(st.text(alphabet="abcdefgh xyz", min_size=1, max_size=12).map(str.strip).filter(bool), min_size=1,
                max_size=6, unique=True))
def test_table_names_the_same_labels_as_the_list(labels):
    table = "| Finding |\n|---|\n" + "\n".join(f"| {label} |" for label in labels)
    assert read_labels(table) == read_labels("; ".join(labels))


# --- a note after the block that edits the list under a condition or offers other labels ---------------------------
@pytest.mark.parametrize(
    "after,paid",
    [
        # genuine: notes that keep the list (the denied finding named, a confidence note, a plan with a subject, a
        # negated offer, conditions with no edit of the list)
        ("\n\nNo consolidation is present.", True),
        ("\nConfidence: high; all three are stated explicitly.", True),
        ("\nIf you want, I can list the pertinent negatives too.", True),
        ("\nIf it helps, I can also list the pertinent negatives.", True),
        ("\nIf needed, we'll then add the comparison with the prior film.", True),
        ("\nNo other candidates are likely from this report.", True),
        ("\nThere are no alternative diagnoses to consider here.", True),
        ("\nIf the patient is symptomatic, clinical correlation is advised.", True),
        ("\nFollow-up imaging is recommended if the effusions persist.", True),
        # hacks: the split's three, and variants (add / include / swap / switch, unless, could also be, alternatively)
        ("\n\nOther candidates I consider equally likely: pneumonia; atelectasis; lung mass.", False),
        ("\n\nIf the effusion grows on follow-up, also list empyema.", False),
        ("\n(If the opacity is actually edema only, replace pleural effusion with pulmonary edema.)", False),
        ("\nIf the fever persists, add pneumonia.", False),
        ("\nUnless the film is rotated, include mediastinal widening.", False),
        ("\nIf a grader disagrees, swap cardiomegaly for pericardial effusion.", False),
        ("\nThe effusion could also be a pleural thickening.", False),
        ("\nAlternatively: cardiomegaly; pneumonia.", False),
        ("\nPneumonia is equally likely.", False),
        ("\nAdditional possibilities: pneumonia, atelectasis.", False),
    ],
)
def test_note_after_block_that_keeps_the_list_open(after, paid):
    assert score(BLOCK + after) == (1.0 if paid else 0.0)


@pytest.mark.parametrize("style", [
    "Looking at the findings section, three abnormalities are stated outright.\n\n{block}",
    "<think>Okay, so the report states cardiomegaly, edema and effusions. If it said consolidation I would add it, "
    "but it denies it.</think>\n{block}",
    "{block}\n\nFinal answer: cardiomegaly; pulmonary edema; pleural effusion",
])
def test_genuine_styles_still_paid(style):
    # a condition inside the think is reasoning, not a note after the block
    assert score(style.format(block=BLOCK)) == 1.0


@settings(max_examples=200, derandomize=True, deadline=None, database=None)
@given(st.text(alphabet="bcjkmpqvwxz ,.;\n()", max_size=80))
def test_offer_needs_a_condition_and_an_edit_or_an_offer_word(text):
    # text with none of the condition / edit / offer words (no vowel to spell them) never keeps the list open
    assert offers_other_labels(text) is None
    # prefixing a conditional imperative edit always does
    assert offers_other_labels("If needed, add " + text) is not None
