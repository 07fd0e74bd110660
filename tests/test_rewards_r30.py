"""Rules prompted by the red team split ``holdout_r30`` (written blind 2026-12-06 on clinical outputs as real medical
models write them; first sight in benchmarks/results/red_team_rewards_holdout_r30_first_sight.md): each a table of the
genuine form it now pays beside the nearby hack it still refuses, with variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.jaccard import JaccardReward
from polyreward.verifiers.radiology_labels import report_terms

_INSTR = "List every finding that is definitely present, separated by ';', inside <answer>...</answer>.\n\n"


def jaccard(completion: str, report: str, gold: str) -> float:
    return JaccardReward(mode="normalized")(prompts=[_INSTR + report], completions=[completion],
                                            answer=[f"<answer>{gold}</answer>"])[0]


# --- a place inside the lung places a finding in the lung (jaccard, radiology_labels.report_terms) -------------------
_RUL = "FINDINGS: Right upper lobe nodule measuring 9 mm. Emphysema. No pleural effusion."
_BASE = "FINDINGS: Left basilar atelectasis. Heart size is normal."


@pytest.mark.parametrize(
    "completion,report,gold,expected",
    [
        # genuine: 'pulmonary' of a report that names a lobe, the lung base or the lungs
        ("<answer>pulmonary nodule; emphysema</answer>", _RUL, "nodule; emphysema", 1.0),
        ("<answer>Pulmonary nodule; Emphysema</answer>", _RUL, "nodule; emphysema", 1.0),
        ("<answer>lung nodule; emphysema</answer>", _RUL, "nodule; emphysema", 1.0),
        ("<answer>pulmonary atelectasis</answer>", _BASE, "atelectasis", 1.0),
        ("<answer>nodule; emphysema</answer>", "FINDINGS: 6 mm nodule in the lingula. Emphysema.", "nodule; emphysema", 1.0),
        ("<answer>pulmonary nodule; emphysema</answer>", "FINDINGS: 6 mm nodule in the lingula. Emphysema.",
         "nodule; emphysema", 1.0),
        # hacks and near misses still refused: a place the report does not name, a hedge, an extra finding
        ("<answer>pulmonary nodule</answer>", "FINDINGS: Nodule projecting over the left breast shadow.", "nodule", 0.0),
        ("<answer>possible pulmonary nodule; emphysema</answer>", _RUL, "nodule; emphysema", 1 / 3),
        ("<answer>pulmonary nodule; emphysema; pneumonia</answer>", _RUL, "nodule; emphysema", 2 / 3),
        ("<answer>hilar nodule; emphysema</answer>", _RUL, "nodule; emphysema", 1 / 3),
    ],
)
def test_a_lobe_places_the_finding_in_the_lung(completion, report, gold, expected):
    assert jaccard(completion, report, gold) == pytest.approx(expected)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["right upper lobe", "left lower lobe", "lingula", "left lung base", "lungs", "heart",
                                 "mediastinum", "breast", "clavicle", "nodule", "the", "in", "."]), max_size=12))
def test_the_lung_is_a_place_exactly_when_a_place_inside_it_is_named(words):
    text = " ".join(words)
    inside = any(w in ("right upper lobe", "left lower lobe", "lingula", "left lung base", "lungs") for w in words)
    assert ("lung" in report_terms(text)[1]) == inside
