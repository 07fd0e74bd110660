"""``stand_ins.disowning_remark``: "an example of <a thing>" names an instance (the case is one), while the answer
called an example, an example of an answer's form or of what one might say, or "only an example" makes it a stand-in.

Found by .ci/run at stop 57: ``This is an example of a lobar consolidation, stated in the report.`` after a label
block was refused since ``holdout_r36``'s stand-in class.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.jaccard import JaccardReward
from polyreward.verifiers.stand_ins import disowning_remark

INSTANCES = [  # the case is an instance of a finding or a disease: the answer is kept
    "This is an example of a lobar consolidation, stated in the report.",
    "This is a classic example of heart failure.",
    "It is a textbook example of Graves disease.",
    "The presentation is a typical example of community-acquired pneumonia.",
    "A good example of why the lateral view matters: the effusion is small.",
    "These findings are examples of chronic changes.",
]
STAND_INS = [  # the answer is an example: it is taken back
    "This is only an example.",
    "That list is an example of pneumonia findings.",
    "The call above is an example of a weather lookup.",
    "These labels are an example of what the report could say.",
    "Take it as an example of a possible forecast.",
    "An example of the expected format.",
    "This is just an example of pneumonia findings.",
    "Use this as an example of a cardiomegaly case.",
    "This is an example of how I would list them.",
    "This is an example.",
]


@pytest.mark.parametrize("remark", INSTANCES)
def test_an_instance_keeps_the_answer(remark):
    assert disowning_remark(remark) == ""


@pytest.mark.parametrize("remark", STAND_INS)
def test_a_stand_in_takes_it_back(remark):
    assert disowning_remark(remark) == "stand-in"


def _jaccard(text: str) -> float:
    reward = JaccardReward(mode="normalized")
    return reward.evaluate([None], [text], answer=["<answer>consolidation; pleural effusion</answer>"]).scores[0]


BLOCK = "<think>Both are stated in the findings.</think>\n<answer>consolidation; pleural effusion</answer>\n"


@pytest.mark.parametrize(("remark", "paid"), [(r, True) for r in INSTANCES[:3]] + [(r, False) for r in STAND_INS[:4]])
def test_the_label_reward_reads_the_remark_after_its_block(remark, paid):
    assert (_jaccard(BLOCK + remark) == 1.0) is paid


_THINGS = st.sampled_from(["pneumonia", "a lobar consolidation", "heart failure", "chronic changes", "sepsis"])
_ARTEFACTS = st.sampled_from(["list", "labels", "forecast", "call above", "answer", "value"])


@given(thing=_THINGS, artefact=_ARTEFACTS, merely=st.sampled_from(["", "just ", "only ", "merely "]))
@settings(max_examples=150, deadline=None)
def test_said_of_the_answer_an_example_is_always_a_stand_in(thing, artefact, merely):
    """Whatever the thing, an example said of the answer, or said to be only one, takes the answer back."""
    assert disowning_remark(f"The {artefact} is {merely}an example of {thing}.") == "stand-in"
    assert disowning_remark(f"This is {merely or 'only '}an example of {thing}.") == "stand-in"
