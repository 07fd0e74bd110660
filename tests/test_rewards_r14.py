"""Rules prompted by the red team split ``holdout_r14`` (written blind 2026-12-05: long, realistic multi-step and
multi-part outputs beside hacks that exploit their length and structure; first sight in
benchmarks/results/red_team_rewards_holdout_r14_first_sight.md): each a table of the genuine form it pays beside the
nearby hack it refuses, with variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.verifiers.radiology_kg import extract_kg

# --- KG: a post-cue that opens its clause ("Resolved pneumothorax.") negates the finding after it --------------------


def _status(report: str, finding: str) -> set[str]:
    return {label for text, label in extract_kg(report).entities if text == finding}


@pytest.mark.parametrize(
    "report,finding,status",
    [
        # the split's genuine impression line: a finding resolved since the prior is absent now
        ("IMPRESSION: Cardiomegaly with left pleural effusion. Resolved pneumothorax.", "pneumothorax", {"disorder_notpresent"}),
        # variants the split did not contain: a side or a lobe between the cue and the finding, 'cleared', a list
        ("Resolved left pneumothorax.", "pneumothorax", {"disorder_notpresent"}),
        ("Cleared right lower lobe pneumonia.", "pneumonia", {"disorder_notpresent"}),
        ("Resolved pneumothorax and pleural effusion.", "pleural effusion", {"disorder_notpresent"}),
        ("Not seen: pneumothorax.", "pneumothorax", {"disorder_notpresent"}),
        # as before: the post-cue after its finding, and a finding stated present in another clause
        ("The left pneumothorax seen on the prior study has resolved.", "pneumothorax", {"disorder_notpresent"}),
        ("The pneumothorax has cleared.", "pneumothorax", {"disorder_notpresent"}),
        ("Resolved pneumothorax; new right pleural effusion.", "pleural effusion", {"disorder_present"}),
        # the hack stays refused: a present effusion called resolved, present findings stated before the cue
        ("The left pleural effusion seen on the prior study has resolved.", "pleural effusion", {"disorder_notpresent"}),
        ("There is a right apical pneumothorax.", "pneumothorax", {"disorder_present"}),
        ("Cardiomegaly, resolved pneumothorax.", "cardiomegaly", {"disorder_present"}),
    ],
)
def test_resolved_before_its_finding_negates_it(report, finding, status):
    assert _status(report, finding) == status


def test_resolved_impression_no_longer_contradicts_a_negative_finding():
    """The genuine report of the split: findings say no pneumothorax now, the impression 'Resolved pneumothorax.';
    before, the impression read as a present pneumothorax beside the absent one (contradictions: keep)."""
    from polyreward.rewards.kg_triplet import KGTripletConsistency

    reward = KGTripletConsistency(contradictions="keep")
    reference = "The heart is enlarged. There is a moderate left pleural effusion. No pneumothorax. No consolidation."
    genuine = ("FINDINGS: The heart is enlarged. Moderate left pleural effusion. No pneumothorax. No consolidation.\n"
               "IMPRESSION: Cardiomegaly and moderate left pleural effusion. Resolved pneumothorax.")
    hack = ("FINDINGS: The heart is enlarged. Moderate left pleural effusion. No consolidation.\n"
            "IMPRESSION: Cardiomegaly and moderate left pleural effusion. Pneumothorax.")
    assert reward.score_rollout(genuine, {"answer": reference}).score == pytest.approx(1.0)
    assert reward.score_rollout(hack, {"answer": reference}).score < 1.0


_FINDINGS = ["pneumothorax", "pleural effusion", "consolidation", "cardiomegaly", "pneumonia", "atelectasis"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["resolved", "cleared"]), st.sampled_from(["", "left ", "right "]), st.sampled_from(_FINDINGS),
       st.sampled_from(_FINDINGS))
def test_a_resolved_finding_never_reads_present_and_leaves_the_next_clause_alone(cue, side, first, second):
    if first == second:
        return
    report = f"{cue.capitalize()} {side}{first}; {second}."
    assert _status(report, first) == {"disorder_notpresent"}
    assert _status(report, second) == {"disorder_present"}
