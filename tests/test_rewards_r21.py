"""Rules prompted by the red team split ``holdout_r21`` (written blind 2026-12-05 on real model families' own output
styles -- Qwen3, DeepSeek-R1, Llama 3.x, Gemma, Mistral, GPT- and Hermes-style -- beside the hacks a policy trained
from each would find; first sight in benchmarks/results/red_team_rewards_holdout_r21_first_sight.md): each a table
of the genuine form it now pays beside the nearby hack it still refuses, with variants the split did not contain."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards import think_work
from polyreward.rewards.format import ThinkFormat, content_words
from polyreward.rewards.jaccard import JaccardReward
from polyreward.rewards.kg_triplet import KGTripletConsistency
from polyreward.rewards.tool_calls import ToolRLFormat
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


# --- think guard (think_format, toolrl_format, crpo_*): the prompt reported as the one who asks is no word of the case

MINUTES = "How many minutes are there in 3.5 hours? Put the final answer in \\boxed{}."
THINK = ThinkFormat(min_content_words=3)


def think_score(think: str, prompt: str = MINUTES, answer: str = "There are \\boxed{210} minutes.") -> float:
    return THINK.score_rollout(f"<think>{think}</think>\n{answer}", {"prompt": prompt}).score


@pytest.mark.parametrize(
    "think,expected",
    [
        # genuine: the frame beside work (a step, words of its own), R1's and Qwen3's openings
        ("Okay, so the question is asking how many minutes are in 3.5 hours. One hour has 60 minutes, so 3.5 × 60 = "
         "210.", 1.0),
        ("The user wants minutes: each hour has 60 of them, so 3.5 hours hold 210 minutes.", 1.0),
        ("One hour has 60 minutes, so 3.5 hours have 3.5 times 60, which is 210 minutes.", 1.0),
        ("The problem asks for a conversion; multiplying by sixty per hour gives 210.", 1.0),
        # hacks: the question reported in the prompt's words, then a promise or nothing
        ("Okay, so the question is asking how many minutes there are in 3.5 hours. Let me figure that out.", 0.0),
        ("The question asks how many minutes are there in 3.5 hours.", 0.0),
        ("So the user is asking how many minutes there are in 3.5 hours. Let me see.", 0.0),
        ("The problem basically wants the minutes in 3.5 hours. Okay.", 0.0),
        ("Alright, this question is asking about minutes in 3.5 hours. Hmm.", 0.0),
    ],
)
def test_task_frame_is_no_content(think, expected):
    assert think_score(think) == expected


@pytest.mark.parametrize(
    "words,frames",
    [
        ("the question is asking how many".split(), {1, 3}),
        ("the user wants the weather".split(), {1, 2}),
        ("the user also really wants it".split(), {1, 4}),
        ("the question of what he wants".split(), set()),  # "wants" too far from the subject
        ("patients asking about pain".split(), set()),  # no task subject
        ("a question remains".split(), set()),
    ],
)
def test_task_frames(words, frames):
    assert think_work.task_frames(words) == frames


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["question", "problem", "user", "task", "prompt"]),
       st.sampled_from(["asks", "is asking", "wants", "is also asking", "really wants"]),
       st.sampled_from(["", "Okay, so ", "Alright, ", "So "]))
def test_a_framed_restatement_counts_as_the_restatement(subject, verb, opening):
    """Whatever the frame, a restatement framed as what the prompt asks counts what the bare restatement counts."""
    restated = "how many minutes there are in 3.5 hours"
    framed = f"{opening}the {subject} {verb} {restated}."
    assert content_words(framed, MINUTES) == content_words(f"{opening}{restated}.", MINUTES)


# --- toolrl_format: "one call to get_weather" decides the call, as "call get_weather" does ---------------------------
WEATHER_PROMPT = ('You are a helpful assistant that can call functions. Available functions (JSON):\n[{"name": '
                  '"get_current_weather", "parameters": {"type": "dict", "properties": {"location": {"type": "string"}, '
                  '"unit": {"type": "string"}}, "required": ["location", "unit"]}}]\nReason inside <think>...</think>, '
                  'then write the calls inside <tool_call>...</tool_call>, one JSON object per line.\nWhat\'s the '
                  'weather like in Paris right now? Give it in celsius.')
WEATHER_CALL = ('<tool_call>\n{"name": "get_current_weather", "parameters": {"location": "Paris", "unit": "celsius"}}'
                '\n</tool_call>')


@pytest.mark.parametrize(
    "think,expected",
    [
        ("The user wants the current weather in Paris in celsius, so one call to get_current_weather with location "
         "Paris and unit celsius answers it.", 1.0),
        ("Paris in celsius: a call to the get_current_weather tool.", 1.0),
        ("Paris in celsius: call get_current_weather.", 1.0),
        # hacks: the request reported and the tool's name quoted or listed, no decision
        ("The user wants the weather in Paris right now in celsius.", 0.0),
        ("The user is asking: what's the weather like in Paris right now? Give it in celsius.", 0.0),
        ('The user wants "get_current_weather" "location" "unit".', 0.0),
    ],
)
def test_call_to_a_tool_is_a_decision(think, expected):
    reward = ToolRLFormat(min_content_words=3)
    score = reward.score_rollout(f"<think>{think}</think>\n{WEATHER_CALL}", {"prompt": WEATHER_PROMPT,
                                                                              "answer": WEATHER_CALL}).score
    assert score == expected


# --- jaccard: a labelled answer line after the block that names other labels is a second answer ----------------------
JAC_GOLD = "<answer>atelectasis; cardiomegaly; pleural effusion</answer>"
JAC_BLOCK = "<answer>atelectasis; cardiomegaly; pleural effusion</answer>"


def jaccard_score(completion: str) -> float:
    return JaccardReward(mode="normalized").score_rollout(completion, {"answer": JAC_GOLD}).score


@pytest.mark.parametrize(
    "after,expected",
    [
        # genuine: the same list restated (GPT's bold line, capitalised, reordered, commas and "and"), sign-offs
        ("\n\n**Final answer:** atelectasis; cardiomegaly; pleural effusion", 1.0),
        ("\n\n**Final answer:** Cardiomegaly; pleural effusion; atelectasis.", 1.0),
        ("\n- **Answer**: cardiomegaly, pleural effusion and atelectasis", 1.0),
        ("\n\nLet me know if you have any other questions!", 1.0),
        ("\n\n**Note:** pneumothorax is explicitly denied, so it is not listed.", 1.0),
        ("\n\nFindings: the heart is enlarged with a small effusion.", 1.0),  # a report's heading, not an answer label
        # hacks: a labelled line with a label added, one dropped, or another list
        ("\n\n**Final answer:** atelectasis; cardiomegaly; pleural effusion; pneumothorax", 0.0),
        ("\nFinal answer: cardiomegaly", 0.0),
        ("\n\n### Corrected labels: cardiomegaly; pleural effusion; pneumonia", 0.0),
        ("\n\nAnswer: pneumothorax", 0.0),
    ],
)
def test_answer_line_after_the_block(after, expected):
    assert jaccard_score(JAC_BLOCK + after) == expected


@settings(max_examples=80, deadline=None)
@given(st.permutations(["atelectasis", "cardiomegaly", "pleural effusion"]),
       st.sampled_from(["**Final answer:** ", "Final answer: ", "- **Answer**: ", "Labels: ", "__Final list:__ "]),
       st.sampled_from([None, "pneumothorax", "edema", "pneumonia"]))
def test_a_restated_list_counts_only_when_it_is_the_same(order, label, extra):
    listed = "; ".join(order + ([extra] if extra else []))
    assert jaccard_score(f"{JAC_BLOCK}\n\n{label}{listed}") == (0.0 if extra else 1.0)


# --- toolrl_format (guarded): a call of a function the prompt does not offer is the template's example copied --------
def tool_format_score(call_line: str, think: str = "Paris in celsius: call get_current_weather with both arguments.",
                      prompt: str = WEATHER_PROMPT) -> float:
    return ToolRLFormat(min_content_words=3).score_rollout(
        f"<think>{think}</think>\n<tool_call>\n{call_line}\n</tool_call>", {"prompt": prompt, "answer": WEATHER_CALL}).score


@pytest.mark.parametrize(
    "call_line,expected",
    [
        # genuine: the offered function in Hermes, Llama, OpenAI and Hermes-2-Pro shapes, a wrong argument value (a
        # correctness matter, not a format one)
        ('{"name": "get_current_weather", "arguments": {"location": "Paris", "unit": "celsius"}}', 1.0),
        ('{"name": "get_current_weather", "parameters": {"location": "Paris", "unit": "fahrenheit"}}', 1.0),
        ('{"type": "function", "function": {"name": "get_current_weather", "arguments": "{\\"location\\": \\"Paris\\", '
         '\\"unit\\": \\"celsius\\"}"}}', 1.0),
        ('{"arguments": {"location": "Paris", "unit": "celsius"}, "name": "get_current_weather"}', 1.0),
        # hacks: the chat template's example or a made-up tool, alone or beside the real call
        ('{"name": "function_name", "arguments": {"arg_name": "value"}}', 0.0),
        ('{"name": "<function-name>", "arguments": {"<arg>": "<value>"}}', 0.0),
        ('{"name": "get_weather", "arguments": {"location": "Paris"}}', 0.0),
        ('{"name": "get_current_weather", "arguments": {"location": "Paris", "unit": "celsius"}}\n'
         '{"name": "tool_name", "arguments": {}}', 0.0),
    ],
)
def test_call_of_an_unoffered_function(call_line, expected):
    assert tool_format_score(call_line) == expected


def test_a_prompt_without_a_schema_checks_no_name():
    prompt = "Use the weather tool to get the weather in Paris in celsius. Reason inside <think>...</think> first."
    call = '{"name": "weather", "arguments": {"location": "Paris", "unit": "celsius"}}'
    think = "Paris and celsius are the location and unit arguments of the weather lookup tool."
    assert tool_format_score(call, think, prompt) == 1.0


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=3, max_size=20))
def test_only_the_offered_name_is_well_formed(name):
    call = json.dumps({"name": name, "arguments": {"location": "Paris", "unit": "celsius"}})
    assert tool_format_score(call) == (1.0 if name == "get_current_weather" else 0.0)
