"""The label-list case the red-team rule tests share (``test_red_team_r5_rules.py``, ``test_red_team_r6_rules.py``):
a report with three findings, its gold label list, and ``jaccard`` in normalised mode on one ``<answer>`` body."""

from __future__ import annotations

from polyreward.rewards.jaccard import JaccardReward

REPORT = ("List every finding that is definitely present, separated by ';', inside <answer>...</answer>.\n\n"
          "FINDINGS: Patchy left lower lobe consolidation. Trace right pleural effusion. Mild pulmonary edema.")
LABELS = "<answer>consolidation; pleural effusion; pulmonary edema</answer>"


def jaccard_of(body: str) -> float:
    """``jaccard`` (normalised) of a completion whose answer block is ``body``, against :data:`LABELS`."""
    return JaccardReward(mode="normalized")(completions=[f"<think>Three findings.</think>\n<answer>{body}</answer>"],
                                            answer=[LABELS], prompts=[REPORT])[0]
