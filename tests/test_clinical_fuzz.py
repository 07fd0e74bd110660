"""hypothesis fuzzing of every clinical / structured reward over arbitrary text: no exception escapes,
one score per rollout, every finite score inside the declared score_range, NaN always carries a reason."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from polyreward.rewards.forecast import ForecastClassCost
from polyreward.rewards.jaccard import JaccardReward
from polyreward.rewards.kg_triplet import KGTripletConsistency
from polyreward.rewards.tool_calls import ToolRLCorrectness, ToolRLFormat
from polyreward.rewards.tool_efficiency import OTCToolEfficiency

FRAGMENTS = [
    "<answer>", "</answer>", "<think>", "</think>", "<tool_call>", "</tool_call>", "<response>", "</response>", "\n", ";", ",",
    "{", "}", "[", "]", '"name"', '"parameters"', '"arguments"', ":", '"f"', "1", "2.5", "-7", "1e999", "NaN", "null", "no ",
    "pleural effusion", "pneumothorax", "possible ", "has resolved", "left lower lobe", "likely due to", ". ", "ug/m3",
    "<|im_start|>assistant", "<|im_end|>", "\\", '"', "µ", "\u0000", "٣",
]
texts = st.one_of(st.text(max_size=300), st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join))
messages = st.lists(
    st.fixed_dictionaries(
        {"role": st.sampled_from(["assistant", "tool", "user"]), "content": st.one_of(st.none(), texts)},
        optional={"tool_calls": st.one_of(st.text(max_size=20), st.lists(st.one_of(
            st.fixed_dictionaries({"function": st.fixed_dictionaries({"name": st.one_of(st.text(max_size=5), st.integers()), "arguments": st.one_of(texts, st.dictionaries(st.text(max_size=3), st.integers(), max_size=3))})}),
            st.dictionaries(st.text(max_size=5), st.text(max_size=5), max_size=2)), max_size=3))},
    ),
    max_size=4,
)
completions = st.one_of(texts, messages, st.none())
references = st.one_of(texts, st.none(), st.lists(st.text(max_size=10), max_size=4), st.floats(allow_nan=True), st.integers(-5, 500))


def check(reward, batch, **columns):
    out = reward.evaluate([None] * len(batch), batch, **columns)
    assert len(out.scores) == len(batch) == len(out.reasons)
    low, high = reward.score_range
    for score, reason in zip(out.scores, out.reasons):
        if score is None:
            continue
        assert isinstance(score, float)
        if math.isnan(score):
            assert reason
        else:
            assert low - 1e-9 <= score <= high + 1e-9, (score, reason)


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
REWARDS = [
    JaccardReward(), JaccardReward(mode="normalized", metric="f1", synonyms={"a": "b"}), KGTripletConsistency(),
    ToolRLCorrectness(), ToolRLCorrectness(parse="lenient", max_reward=1), ToolRLFormat(), ForecastClassCost(),
    ForecastClassCost(thresholds="us_epa", alpha=0.5, beta=0.5, gamma=0.3),
]


@FUZZ
@given(batch=st.lists(completions, min_size=1, max_size=6), reference=references)
def test_per_rollout_rewards(batch, reference):
    for reward in REWARDS:
        column = "observed" if isinstance(reward, ForecastClassCost) else "answer"
        check(reward, batch, **{column: [reference] * len(batch)})


@FUZZ
@given(batch=st.lists(st.tuples(completions, references, st.sampled_from(["q1", "q2", 3])), min_size=1, max_size=8))
def test_otc(batch):
    comps, refs, groups = map(list, zip(*batch))
    for reward in (OTCToolEfficiency(), OTCToolEfficiency(form="ppo", alpha=2.0), OTCToolEfficiency(correctness="calls_exact"),
                   OTCToolEfficiency(correctness="column", no_correct="one", running_min=True)):
        check(reward, comps, answer=refs, correct=refs, prompt_id=groups)
