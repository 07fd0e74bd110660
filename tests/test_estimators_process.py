"""Process rewards (``polyreward.process``): step segmentation, a step scorer per rollout with failures isolated, the
outcome summary as PAPO's process column, and step scores placed on real tokenizer offsets for GRPO with process
supervision."""

from __future__ import annotations

import re
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.combiner import combine_token_scores
from polyreward.combiners import PAPOCombiner, ProcessGRPOCombiner
from polyreward.process import ProcessScorer, segment_steps, token_rewards

_CLAIM = re.compile(r"(-?\d+)\s*([+\-*])\s*(-?\d+)\s*=\s*(-?\d+)")


def arithmetic_steps(prompt, steps, row):
    """A rule step scorer: 1 when every "a op b = c" claim of the step holds, 0 when one is wrong, None without claims.
    (Parsed with a regular expression; nothing is evaluated.)"""
    scores = []
    for step in steps:
        claims = _CLAIM.findall(step)
        if not claims:
            scores.append(None)
            continue
        ops = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}
        scores.append(float(all(ops[op](int(a), int(b)) == int(c) for a, op, b, c in claims)))
    return scores


def test_segmentation_modes():
    text = "Step 1: 2 + 2 = 4\n\nStep 2: 4 * 3 = 12\nso 12\n\n  \nAnswer: 12  "
    assert [text[a:b] for a, b in segment_steps(text, "lines")] == ["Step 1: 2 + 2 = 4", "Step 2: 4 * 3 = 12", "so 12", "Answer: 12"]
    assert [text[a:b] for a, b in segment_steps(text, "paragraphs")] == ["Step 1: 2 + 2 = 4", "Step 2: 4 * 3 = 12\nso 12", "Answer: 12"]
    assert [text[a:b] for a, b in segment_steps(text, "markers")] == ["Step 1: 2 + 2 = 4", "Step 2: 4 * 3 = 12\nso 12\n\n  \nAnswer: 12"]
    intro = "intro\nStep 1: x"
    assert [intro[a:b] for a, b in segment_steps(intro, "markers")] == ["intro", "Step 1: x"]
    assert segment_steps("", "lines") == [] and segment_steps(" \n\t\n", "paragraphs") == []
    with pytest.raises(ValueError, match="segment must be one of"):
        segment_steps("x", "sentences")


def test_a_flood_of_steps_is_capped_and_segmentation_is_linear():
    flood = "1 + 1 = 2\n" * 5000 + "final"
    spans = segment_steps(flood, "lines", max_steps=8)
    assert len(spans) == 8 and flood[spans[-1][0]:spans[-1][1]].endswith("final")
    start = time.process_time()
    segment_steps("a\n" * 500_000, "lines")
    segment_steps("Step 1: a\n\n" * 100_000, "markers")
    assert time.process_time() - start < 10  # 1 MB of hostile text, linear passes


@given(st.text(max_size=300), st.sampled_from(["lines", "paragraphs", "markers"]), st.integers(1, 9))
@settings(max_examples=200, deadline=None, derandomize=True, database=None)
def test_spans_are_ordered_trimmed_nonblank_and_inside_the_text(text, how, cap):
    spans = segment_steps(text, how, cap)
    assert len(spans) <= cap
    previous_end = 0
    for a, b in spans:
        assert previous_end <= a < b <= len(text)
        assert text[a:b].strip() == text[a:b] and text[a:b]
        previous_end = b


def test_scorer_summaries_and_failures_stay_with_their_rollout():
    completions = ["2 + 2 = 4\n4 * 3 = 12\nanswer 12", "2 + 2 = 5\n5 * 3 = 15", "no arithmetic at all", "", "boom"]

    def scorer(prompt, steps, row):
        if steps == ["boom"]:
            raise RuntimeError("judge down")
        return arithmetic_steps(prompt, steps, row)

    process = ProcessScorer(scorer).score(["q"] * 5, completions)
    np.testing.assert_array_equal(process.step_scores[0], [1.0, 1.0, np.nan])
    np.testing.assert_array_equal(process.summary[:2], [1.0, 0.0])  # the weakest step
    assert np.isnan(process.summary[2:]).all()
    assert process.reasons[2] == "no step scored" and process.reasons[3] == "no steps" and "judge down" in process.reasons[4]
    assert ProcessScorer(arithmetic_steps, summary="mean").score(["q"], ["1 + 1 = 2\n1 + 1 = 3"]).summary[0] == 0.5
    wrong_count = ProcessScorer(lambda p, s, r: [1.0]).score(["q", "q"], ["a\nb", "c"])
    assert np.isnan(wrong_count.summary[0]) and "returned 1 scores for 2 steps" in wrong_count.reasons[0]
    assert wrong_count.summary[1] == 1.0
    bad = ProcessScorer(lambda p, s, r: [float("inf")] * len(s)).score(["q"], ["a"])
    assert np.isnan(bad.summary[0]) and "not a finite number" in bad.reasons[0]


def test_papo_takes_the_summary_as_its_process_column():
    """Two correct answers, one with a wrong intermediate step: PAPO separates them; the wrong answers get no
    process credit."""
    completions = ["3 * 4 = 12\n12 + 1 = 13\nanswer 13", "3 * 4 = 11\n11 + 2 = 13\nanswer 13",
                   "3 * 4 = 12\n12 + 2 = 14\nanswer 14", "3 + 4 = 7\nanswer 7"]
    outcome = np.array([1.0, 1.0, 0.0, 0.0])
    process = ProcessScorer(arithmetic_steps).score(["What is 3 * 4 + 1?"] * 4, completions)
    advantages = PAPOCombiner().combine(np.column_stack([outcome, process.summary]), [0, 0, 0, 0])
    assert advantages[0] > advantages[1] > 0 > advantages[2]
    assert advantages[2] == advantages[3]  # wrong answers: the outcome term only, however clean their steps


def test_step_scores_on_real_token_offsets_drive_process_grpo(tiny_qwen2_dir):
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(tiny_qwen2_dir))
    completions = ["2 + 2 = 4\n4 * 3 = 12", "2 + 2 = 5\n5 * 3 = 15", "2 + 2 = 4\n4 * 3 = 13"]
    process = ProcessScorer(arithmetic_steps).score(["q"] * 3, completions)
    encoded = [tokenizer(text, add_special_tokens=False, return_offsets_mapping=True) for text in completions]
    offsets = [e["offset_mapping"] for e in encoded]
    width = max(len(o) for o in offsets)
    rewards = token_rewards(process, offsets, width)
    for i, (spans, scores) in enumerate(zip(process.spans, process.step_scores)):
        placed = np.flatnonzero(~np.isnan(rewards[i]))
        assert len(placed) == len(spans)
        for token, (_, end), score in zip(placed, spans, scores):
            start_char, end_char = offsets[i][token]
            assert start_char < end <= end_char and rewards[i, token] == score  # the token holding the step's last character
    mask = np.array([[1.0] * len(o) + [0.0] * (width - len(o)) for o in offsets])
    tokens = combine_token_scores(ProcessGRPOCombiner(), np.ones(3), [0, 0, 0], mask=mask, token_rewards=rewards)
    first_step_end = [int(np.flatnonzero(~np.isnan(rewards[i]))[0]) for i in range(3)]
    # rollout 2: a right first step, a wrong second one -> its tokens after the first step are pushed down, not before
    assert tokens[2, first_step_end[2] + 1] < 0 < tokens[0, first_step_end[0] + 1]
    # from the first token: one right and one wrong step (either order) sum to the same, below two right steps
    assert tokens[1, 0] == pytest.approx(tokens[2, 0]) and tokens[2, 0] < tokens[0, 0]
    # in the second step only that step counts: rollout 1's right second step beats rollout 2's wrong one
    assert tokens[1, first_step_end[1] + 1] > 0 > tokens[2, first_step_end[2] + 1]
