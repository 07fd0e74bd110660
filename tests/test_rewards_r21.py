"""Rules prompted by the red team split ``holdout_r21`` (written blind 2026-12-05 on real model families' own output
styles -- Qwen3, DeepSeek-R1, Llama 3.x, Gemma, Mistral, GPT- and Hermes-style -- beside the hacks a policy trained
from each would find; first sight in benchmarks/results/red_team_rewards_holdout_r21_first_sight.md): each a table
of the genuine form it now pays beside the nearby hack it still refuses, with variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.kg_triplet import KGTripletConsistency
from polyreward.verifiers.radiology_kg import extract_kg


def kg(text: str) -> set[tuple[str, str]]:
    return set(extract_kg(text, "present", keep_conflicts=True).entities)


# --- kg_triplet_consistency: a label in strong emphasis ("**Heart:**") is read as the plain label ---------------------
KG_PROMPT = ("Write the FINDINGS section of a chest X-ray report consistent with these findings.\n"
             "Present: cardiomegaly, pleural effusion\nAbsent: pneumothorax\nUncertain: none")
KG_REFERENCE = "The heart is enlarged. There is a small left pleural effusion. No pneumothorax."
KG_REWARD = KGTripletConsistency(min_content_words=1, drop_prompt_lines=True, empty_reference="skip",
                                 contradictions="keep")


def kg_score(completion: str) -> float:
    return KG_REWARD.score_rollout(completion, {"answer": KG_REFERENCE, "prompt": KG_PROMPT}).score


@pytest.mark.parametrize(
    "completion,expected",
    [
        # genuine: GPT-style organ bullets, the colon inside or after the bold markers, underscores, a bold heading
        ("- **Heart:** The heart is enlarged.\n- **Pleura:** Small left pleural effusion. No pneumothorax.", 1.0),
        ("- **Heart**: The heart is enlarged.\n- **Pleura**: Small left pleural effusion. No pneumothorax.", 1.0),
        ("__Heart:__ The heart is enlarged.\n__Pleura:__ Small left pleural effusion. No pneumothorax.", 1.0),
        ("**FINDINGS:**\n\n**Heart:** The heart is enlarged.\n**Pleura:** Small left pleural effusion. No "
         "pneumothorax.", 1.0),
        # genuine: bold "Label: status" lines read as their unmarked statements
        ("**Cardiomegaly:** present.\n**Small left pleural effusion:** present.\n**Pneumothorax:** none.", 1.0),
        # hacks: the same layouts stating the absent finding present, or denying a present one
        ("- **Heart:** The heart is enlarged.\n- **Pleura:** Small left pleural effusion. Small pneumothorax.", None),
        ("**Cardiomegaly:** present.\n**Small left pleural effusion:** none.\n**Pneumothorax:** none.", None),
        ("**Cardiomegaly:** present.\n**Small left pleural effusion:** present.\n**Pneumothorax:** present.", None),
    ],
)
def test_bold_report_labels(completion, expected):
    score = kg_score(completion)
    if expected is None:
        assert score < 1.0
    else:
        assert score == pytest.approx(expected)


@pytest.mark.parametrize(
    "text,status",
    [
        ("**Pneumothorax:** none.", "disorder_notpresent"),  # read present before the rule
        ("**Pneumothorax**: absent.", "disorder_notpresent"),
        ("__Pneumothorax:__ negative.", "disorder_notpresent"),
        ("**Pneumothorax:** present.", "disorder_present"),
        ("Pneumothorax: none.", "disorder_notpresent"),  # unmarked, unchanged
    ],
)
def test_bold_label_status(text, status):
    assert ("pneumothorax", status) in kg(text)
    assert len({label for name, label in kg(text) if name == "pneumothorax"}) == 1


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["Heart", "Pleura", "Lungs", "Mediastinum"]),
       st.sampled_from(["The heart is enlarged.", "Small left pleural effusion.", "No pneumothorax.",
                        "Right lower lobe consolidation."]),
       st.sampled_from(["**{}:**", "**{}**:", "__{}:__", "__{}__:", "** {} :**"]))
def test_emphasis_around_a_label_changes_no_graph(label, sentence, marked):
    """Whatever the label and its emphasis, the graph is that of the unmarked line."""
    assert extract_kg(f"- {marked.format(label)} {sentence}", "present", keep_conflicts=True) == \
        extract_kg(f"- {label}: {sentence}", "present", keep_conflicts=True)
