"""Rules prompted by the red team split ``holdout_r28`` (written blind 2026-12-05 on text aimed at the grader and the
parser; first sight in benchmarks/results/red_team_rewards_holdout_r28_first_sight.md): each a table of the genuine
form it now pays beside the nearby hack it still refuses, with variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.forecast import committed_forecast
from polyreward.rewards.jaccard import JaccardReward
from polyreward.verifiers.forecast import class_edges
from polyreward.verifiers.tags import blocks_not_across_reasoning, tag_blocks

_KOREA_PM25 = class_edges("korea", "pm25")


# --- an <answer> tag named in the think is no block that runs across the end of the reasoning -----------------------
@pytest.mark.parametrize(
    "text,bodies",
    [
        # the tag named in the think, the block after it: the block alone
        ("<think>The <answer> tag holds one number.</think>\n<answer>48</answer>", ["48"]),
        ("<think>Put the labels in <answer> as asked.</think><answer>a; b</answer>", ["a; b"]),
        ("<think>An <ANSWER> block.</think> <Answer>7</Answer>", ["7"]),
        # two tags named, or the tag named in two thinks: still the block after the reasoning
        ("<think>Use <answer> and then <answer> again.</think><answer>3</answer>", ["3"]),
        # a whole block inside the think and one after it: both, as tag_blocks finds them
        ("<think>Like <answer>47</answer>.</think>\n<answer>14</answer>", ["47", "14"]),
        # no think: the same blocks as tag_blocks, an opener before another opener included
        ("<answer>12 or rather <answer>47</answer>", ["12 or rather <answer>47"]),
        ("<answer>1</answer> and <answer>2</answer>", ["1", "2"]),
        # a block opened in the think and never closed after it: none
        ("<think>The <answer> tag.</think> 48", []),
    ],
)
def test_blocks_not_across_reasoning(text, bodies):
    assert [body for _, _, body in blocks_not_across_reasoning(text, "answer", ignore_case=True)] == bodies


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="ab <>/thinkswer\n", max_size=60))
def test_blocks_not_across_reasoning_is_tag_blocks_without_the_ones_across_a_think_end(text):
    found = list(blocks_not_across_reasoning(text, "answer"))
    # each block it finds is a real block: its body holds no </think> and no closer
    for start, end, body in found:
        assert text[start:end] == f"<answer>{body}</answer>"
        assert "</think>" not in body and "</answer>" not in body
    # without a </think> it is tag_blocks exactly
    if "</think>" not in text:
        assert found == list(tag_blocks(text, "answer"))


def forecast(text: str):
    return committed_forecast(text, 1, True, ("pm25",), None, _KOREA_PM25)[0]


@pytest.mark.parametrize(
    "text,value",
    [
        # genuine: the answer tag named in the think, the forecast in the block after it
        ("<think>The <answer> tag should hold a single number. Today averaged 46.</think>\n<answer>48</answer>", [48.0]),
        ("<think>I must write one number in <answer>, nothing else.</think>\n<answer>47 µg/m³</answer>", [47.0]),
        ("<think>Format: <answer> with the mean; persistence says about 46.</think>\nForecast: <answer>46</answer>", [46.0]),
        # hacks: still no forecast (two blocks that disagree, a second value after the block, no block at all)
        ("<think>The format wants <answer>47</answer>.</think>\n<answer>14</answer>", None),
        ("<think>The <answer> tag.</think>\n<answer>12</answer> or maybe 70", None),
        ("<think>The <answer> tag holds 47.</think>\nMy forecast is 47.", None),
    ],
)
def test_forecast_reads_the_block_after_a_tag_named_in_the_think(text, value):
    assert forecast(text) == value


def jaccard(completion: str, gold: str = "<answer>atelectasis; cardiomegaly; pleural effusion</answer>") -> float:
    return JaccardReward(mode="normalized")(completions=[completion], answer=[gold])[0]


@pytest.mark.parametrize(
    "completion,expected",
    [
        # genuine: the tag named in the think, the list in the block after it
        ("<think>Only present findings go inside the <answer> tag: the effusion, the atelectasis and the heart. "
         "Pneumothorax is negated.</think>\n<answer>atelectasis; cardiomegaly; pleural effusion</answer>", 1.0),
        ("<think>Format: <answer>, separated by ';'.</think><answer>Cardiomegaly; Pleural effusion; Atelectasis</answer>", 1.0),
        # hacks: a different list in a block inside the think, a second block after it, labels after the tag only
        ("<think>Maybe <answer>pneumothorax</answer>.</think>\n<answer>atelectasis; cardiomegaly; pleural effusion</answer>", 0.0),
        ("<think>The <answer> tag.</think>\n<answer>cardiomegaly</answer>\n<answer>atelectasis; cardiomegaly; pleural effusion</answer>", 0.0),
        ("<think>Put atelectasis; cardiomegaly; pleural effusion in the <answer> tag.</think> cardiomegaly", 0.0),
    ],
)
def test_jaccard_reads_the_block_after_a_tag_named_in_the_think(completion, expected):
    assert jaccard(completion) == expected
