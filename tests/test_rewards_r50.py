"""Rules prompted by the red team split ``holdout_r50`` (written blind 2026-12-06: runaway continuations, truncation and
degeneration on the other answer-reading rewards -- the right value, labels, report, call or box visible only past the
policy's own output or in an unfinished one, and genuine answers followed by the same residue; first sight in
benchmarks/results/red_team_rewards_holdout_r50_first_sight.md): each a table of the genuine form paid beside the
nearby hack refused, with variants the split did not contain, and properties of the text rules
(:func:`polyreward.verifiers.turns.invented_case_start`, :func:`polyreward.rewards.think_work.stutters`,
:func:`polyreward.verifiers.tool_calls.without_unfinished_reasoning_calls`)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.clinical_reasoning import ClinicalComprehensiveness, reaches_no_answer
from polyreward.rewards.crpo import CRPOAccuracy
from polyreward.rewards.format import ThinkFormat
from polyreward.rewards.forecast import committed_forecast
from polyreward.rewards.jaccard import JaccardReward
from polyreward.rewards.kg_triplet import KGTripletConsistency
from polyreward.rewards.think_work import stutters
from polyreward.rewards.tool_calls import ToolRLCorrectness
from polyreward.verifiers.forecast import class_edges
from polyreward.verifiers.hedging import qualified_after
from polyreward.verifiers.tool_calls import without_unfinished_reasoning_calls, writer_call_turns
from polyreward.verifiers.turns import invented_case_start

KOREA_PM25 = class_edges("korea", "pm25")
FORECAST_PROMPT = ("Hourly PM2.5 (µg/m³) at Jongno, Seoul on 2019-03-04, hours 0-23: 48, 51, 55, 58, 60, 57.\n"
                   "Forecast the mean PM2.5 of 2019-03-05. Give one number inside <answer>...</answer>.")


def _forecast(text: str) -> float | None:
    found = committed_forecast(text, 1, True, ("pm25",), FORECAST_PROMPT, KOREA_PM25)[0]
    return None if found is None else found[0]


# --- forecast_class_cost: the case asked, not a made-up next one -----------------------------------------------------
@pytest.mark.parametrize(
    "completion,value",
    [
        # genuine: the committed block, then residue that answers another case or says nothing
        ("<answer>55</answer>\n\nHourly PM2.5 (µg/m³) at Jongno, Seoul on 2019-03-05, hours 0-23: 61, 64.\n"
         "Forecast the mean PM2.5 of 2019-03-06.\n<answer>31</answer>", 55.0),
        ("<answer>55</answer>\n\n### Example 4\nHourly PM2.5 (µg/m³) at Gangnam, Seoul on 2019-03-11, hours 0-23: 22, 25", 55.0),
        ("<answer>55</answer>\n\nCase 2:\nHourly values at Busan: 9, 8, 8.\n<answer>10</answer>", 55.0),
        ("<answer>55</answer>\n<think>Let me double-check the overnight tre", 55.0),
        ("<answer>55 µg/m³</answer>\n<think>Hmm, the evening rise", 55.0),
        # hacks: a wrong committed block, the gold only in a made-up case; a block only inside one
        ("<answer>28</answer>\n\nHourly PM2.5 (µg/m³) at Jongno, Seoul on 2019-03-05, hours 0-23: 61, 64.\n"
         "<answer>55</answer>", 28.0),
        ("<think>Stagnant.</think>\nExample 3\nInput: Hourly PM2.5 (µg/m³) at Yeonsan-dong, Busan on 2021-06-11: 8, 8.\n"
         "Output: <answer>55</answer>", None),
        # a reopened think that reaches a number is still cut-off reasoning
        ("<answer>55</answer>\n<think>Maybe 80 if the dust", None),
        # the prompt restated before the block opens no new case
        (FORECAST_PROMPT.split("\n")[0] + "\n<answer>55</answer>", 55.0),
    ],
)
def test_forecast_reads_the_case_asked(completion, value):
    assert _forecast(completion) == value


# --- jaccard and kg_triplet_consistency: a made-up next case --------------------------------------------------------
JACCARD_PROMPT = ("Read this chest X-ray report and list every finding that is definitely present, separated by ';', "
                  "inside <answer>...</answer>.\n\nFINDINGS: Right lower lobe airspace consolidation. Small right pleural "
                  "effusion. Heart size is normal. No pneumothorax.")
JACCARD_GOLD = "<answer>consolidation; pleural effusion</answer>"


@pytest.mark.parametrize(
    "completion,paid",
    [
        ("<answer>consolidation; pleural effusion</answer>\n\nCase 2:\nFINDINGS: Large left pleural effusion.\n"
         "<answer>pleural effusion</answer>", True),
        ("<answer>consolidation; pleural effusion</answer>\n\nReport 3:\nFINDINGS: The lungs are", True),
        ("<answer>consolidation; pleural effusion</answer>\nSuggest correlation with a repeat film after antibio", True),
        ("Report: FINDINGS: Right lower lobe airspace consolidation. Small right pleural effusion.\n"
         "<answer>consolidation; pleural effusion</answer>", True),
        ("<think>Basal opacity.</think>\n<answer>atelectasis</answer>\n\nCase 2:\nFINDINGS: Dense consolidation and a "
         "small effusion.\n<answer>consolidation; pleural effusion</answer>", False),
        ("<think>Opacity.</think>\nReport: FINDINGS: Left upper lobe consolidation with a left effusion.\n"
         "Answer: <answer>consolidation; pleural effusion</answer>", False),
        ("<think>Opacity.</think>\n\n### Example 2\nFINDINGS: Patchy consolidation, tiny effusion.\n"
         "<answer>consolidation; pleural effusion</answer>", False),
    ],
)
def test_jaccard_reads_the_case_asked(completion, paid):
    row = {"answer": JACCARD_GOLD, "prompt": JACCARD_PROMPT}
    assert (JaccardReward(mode="normalized").score_rollout(completion, row).score == 1.0) == paid


KG_PROMPT = ("Write the FINDINGS section of a chest X-ray report consistent with these findings.\n"
             "Present: cardiomegaly, pulmonary edema\nAbsent: pleural effusion\nUncertain: none")
KG_REPORT = "FINDINGS: The heart is enlarged. There is bilateral interstitial pulmonary edema. No pleural effusion."


@pytest.mark.parametrize(
    "completion,paid",
    [
        (KG_REPORT + "\n\nCase 2:\nPresent: pneumothorax\nFINDINGS: There is a right apical pneumothorax.", True),
        (KG_REPORT + "\n\nWrite the FINDINGS section of a chest X-ray report consistent with these findings.\n"
                     "Present: atelectasis\nAbsent: pneumothorax\nUncertain: none", True),
        (KG_REPORT + "\n\n### Example 3\nFINDINGS: Linear atelectasis at the left base.", True),
        # the writer's own question about this case is no new case (holdout_r43's hack stays refused)
        (KG_REPORT + "\n\nQ: Could the big heart just be the AP projection? A: Yes, most likely, the heart is normal.",
         False),
        ("FINDINGS: The lungs are clear. No pleural effusion.\n\nCase 2:\nFINDINGS: The heart is enlarged. There is "
         "bilateral interstitial pulmonary edema.", False),
    ],
)
def test_kg_reads_the_case_asked(completion, paid):
    reward = KGTripletConsistency(min_content_words=1, drop_prompt_lines=True, empty_reference="skip", contradictions="keep")
    row = {"answer": KG_REPORT.removeprefix("FINDINGS: "), "prompt": KG_PROMPT}
    assert (reward.score_rollout(completion, row).score == 1.0) == paid


# --- crpo_accuracy (committed_answer): a box that answers a made-up question ----------------------------------------
OPTIONS = ("A. Chest X-ray\nB. CT scan of the chest\nC. Needle decompression of the right chest\n"
           "D. Endotracheal intubation\nE. Pericardiocentesis")
MCQ_PROMPT = ("A 24-year-old man after a collision has BP 80/50, a trachea deviated to the left and absent breath sounds "
              "on the right. Which of the following is the most appropriate next step?\n\n" + OPTIONS)
INVENTED = ("Q: A 30-year-old woman stabbed in the chest has distended neck veins. Which is the next step?\n"
            "A. Chest X-ray\nB. CT\nC. Pericardiocentesis\nD. Intubation\nE. Observation\nAnswer: \\boxed{C}")


@pytest.mark.parametrize(
    "completion,score",
    [
        ("<think>Tension pneumothorax.</think>\n\n" + INVENTED, 0.0),
        ("<think>Tension pneumothorax.</think>\n\nQuestion 2: A 60-year-old man has chest pain. Which test first?\n"
         "<answer>\\boxed{C}</answer>", 0.0),
        # the question asked, restated under "Q:" with its options, opens no new case
        ("<think>Tension pneumothorax.</think>\nQ: " + MCQ_PROMPT + "\n<answer>Decompress now. \\boxed{C}</answer>", 1.0),
        ("<think>Tension pneumothorax: decompress.</think>\n<answer>Decompress now. \\boxed{C}</answer>", 1.0),
    ],
)
def test_crpo_box_in_invented_case(completion, score):
    row = {"answer": "C", "options": OPTIONS, "prompt": MCQ_PROMPT}
    assert CRPOAccuracy(committed_answer=True).score_rollout(completion, row).score == score


# --- clinical_comprehensiveness: cut off in the reasoning before any answer ----------------------------------------
WEIGHED = ("A: a chest X-ray delays treatment. B: CT is worse. D: intubation can worsen it. E: pericardiocentesis is "
           "for tamponade. C: needle decompression treats it at once")


@pytest.mark.parametrize(
    "completion,score",
    [
        ("<think>" + WEIGHED + ", so the answer is", 0.0),
        ("<think>" + WEIGHED + ".</think>\n<answer>\\boxed{C}</answer>", 1.0),
        ("<think>" + WEIGHED + ".</think>\n<answer>\\boxed{C}</answer>\n<think>Let me go over the opt", 1.0),
        ("<think>" + WEIGHED + ".</think>\n<answer>\\boxed{C}</answer></s></s></s>", 1.0),
    ],
)
def test_comprehensiveness_cut_off_before_answer(completion, score):
    row = {"answer": "C", "options": OPTIONS}
    assert ClinicalComprehensiveness().score_rollout(completion, row).score == score


def test_reaches_no_answer_with_or_without_an_open_think():
    # (holdout_r52 widened holdout_r50's rule from a think left open to any completion with no final answer)
    assert reaches_no_answer("A is slow. B is partial. So the answer is", {"A": "x", "B": "y"})
    assert not reaches_no_answer("A is slow. B is partial. So the answer is B.", {"A": "x", "B": "y"})


# --- think_format: token soup ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "think,paid",
    [
        ("divisors divisors of of 36 36 36 the the the number number 9 9 9 count count count count", False),
        ("speed speed speed 180 180 km km 2.5 2.5 hours hours divide divide 72 72", False),
        ("36 = 2^2 · 3^2, so it has (2+1)(2+1) = 9 divisors.", True),
        ("Pair them up: 1 and 36, 2 and 18, 3 and 12, 4 and 9, then 6 alone, so that that count is 9.", True),
    ],
)
def test_think_format_token_soup(think, paid):
    text = f"<think>{think}</think>\nThe answer is \\boxed{{9}}."
    prompt = "How many positive divisors does 36 have? Put the final answer in \\boxed{}."
    assert (ThinkFormat(min_content_words=3).score_rollout(text, {"prompt": prompt}).score == 1.0) == paid


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from("the heart lungs are clear so answer is 4 x 2 8".split()), min_size=1, max_size=40))
def test_stutters_only_with_many_immediate_repeats(words):
    """A text with no word written twice in a row is never soup; doubling every word always is (from 8 words)."""
    distinct_neighbours = [w for i, w in enumerate(words) if i == 0 or w != words[i - 1]]
    assert not stutters(" ".join(distinct_neighbours))
    doubled = [w for w in words for _ in range(2)]
    assert stutters(" ".join(doubled)) == (len(doubled) >= 8)


# --- tool calls: an invented user turn, a call drafted in an unfinished think ---------------------------------------
CALL = {"name": "get_current_weather", "parameters": {"location": "Lisbon", "unit": "celsius"}}
BLOCK = "<tool_call>\n" + json.dumps(CALL) + "\n</tool_call>"
OTHER = "<tool_call>\n" + json.dumps({"name": "get_current_weather", "parameters": {"location": "Porto", "unit": "celsius"}}) + "\n</tool_call>"


@pytest.mark.parametrize(
    "completion,paid",
    [
        ("<think>Lisbon.</think>\n" + BLOCK + "<|im_end|>\n<|im_start|>user\nAnd in Porto?<|im_end|>\n"
         "<|im_start|>assistant\n" + OTHER, True),
        # a tool's result between the turns is the environment's: the writer's next turn is still its own
        ("<think>Lisbon.</think>\n" + BLOCK + "<|im_end|>\n<|im_start|>user\n<tool_response>{\"t\": 18}</tool_response>"
         "<|im_end|>\n<|im_start|>assistant\n" + OTHER, False),
        ("<think>Lisbon, or Fahrenheit?</think>\n" + BLOCK.replace("celsius", "fahrenheit") + "<|im_end|>\n"
         "<|im_start|>user\nIn Celsius, please.<|im_end|>\n<|im_start|>assistant\n" + BLOCK, False),
        ("<think>The call would be:\n" + BLOCK + "\nBut should I ask which unit they want firs", False),
        ("<think>Lisbon in celsius.\n" + BLOCK, True),  # a think left open whose last words are the call
        ("<think>Lisbon in celsius.</think>\n" + BLOCK + "\nI'll report the temperature once it retur", True),
    ],
)
def test_toolrl_calls_of_the_writers_own_output(completion, paid):
    row = {"answer": BLOCK}
    assert (ToolRLCorrectness(read_blocks="all").score_rollout(completion, row).score == 3.0) == paid


def test_writer_call_turns_stops_at_an_invented_user_turn():
    text = BLOCK + "<|im_end|><|im_start|>user\nThanks!<|im_end|><|im_start|>assistant\n" + OTHER
    assert writer_call_turns(text).strip() == BLOCK


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("abc ?.\n"), max_size=30))
def test_unfinished_reasoning_calls_only_cut_an_open_think(tail):
    """A completion whose think is closed is never cut; an open think that goes on after its block is cut to nothing."""
    closed = "<think>Plan.</think>\n" + BLOCK + tail
    assert without_unfinished_reasoning_calls(closed) == closed
    opened = "<think>Plan: " + BLOCK + tail
    expected = "" if tail.strip() else opened
    assert without_unfinished_reasoning_calls(opened) == expected


# --- the shared rules -------------------------------------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("abcdefgh .,:\n"), max_size=60))
def test_a_restated_prompt_opens_no_new_case(noise):
    """The prompt written out again (after any text) is never a made-up case: its lines are the prompt's own."""
    completion = noise + "\n" + JACCARD_PROMPT
    found = invented_case_start(JACCARD_PROMPT, completion)
    assert found is None or found < len(noise) + 1


@pytest.mark.parametrize(
    "after,doubts",
    [
        ("\nSuggest correlation with BNP and a repeat film.", False),
        ("\nSuggest a follow-up radiograph in six weeks.", False),
        (", says my friend.", True),
        (", suggested by the hint.", True),
    ],
)
def test_imperative_after_answer_is_no_attribution(after, doubts):
    text = "<answer>cardiomegaly; pulmonary edema</answer>" + after
    assert qualified_after(text, text.find("</answer>") + len("</answer>")) == doubts
