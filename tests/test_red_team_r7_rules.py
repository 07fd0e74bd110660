"""Table tests of the rules red team ``holdout_r7`` prompted (tests/data/red_team_rewards.jsonl, split holdout_r7),
each in both directions: the hack it refuses, and a genuine answer nearby that it still pays. Examples differ from
the rows (held-out graders use the rows)."""

from __future__ import annotations

import json
import keyword

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.crpo import CRPOFormat
from polyreward.rewards.format import ThinkFormat, content_words, relations
from polyreward.rewards.forecast import committed_forecast
from polyreward.rewards.jaccard import JaccardReward
from polyreward.rewards.tool_calls import ToolRLCorrectness, ToolRLFormat
from polyreward.rewards.tool_efficiency import OTCToolEfficiency
from polyreward.verifiers.call_formats import call_lines, yaml_item_calls
from polyreward.verifiers.forecast import class_edges
from polyreward.verifiers.label_sets import read_labels
from polyreward.verifiers.radiology_kg import extract_kg
from polyreward.verifiers.tool_calls import calls_outside_blocks

CALL = {"name": "get_exchange_rate", "parameters": {"base": "USD", "target": "JPY"}}
GOLD = "<tool_call>\n" + json.dumps(CALL) + "\n</tool_call>"
THINK = "<think>The user wants the dollar to yen rate, so one get_exchange_rate call with USD and JPY.</think>\n"
PROMPT = "Available functions: get_exchange_rate(base, target). What is the USD to JPY exchange rate right now?"


# ---- tool calls: a YAML item in prose, a markdown list of calls in inline code --------------------------------------

@pytest.mark.parametrize("extra", [
    "- name: get_exchange_rate\n  parameters:\n    base: USD\n    target: EUR",
    "name: get_exchange_rate\narguments:\n  base: USD\n  target: JPY",
    "Calls made:\n\n* `get_exchange_rate(base=\"USD\", target=\"GBP\")`",
    "1. get_exchange_rate(base='USD', target='JPY')",
    "- `get_exchange_rate(base='USD', target='CHF')`;",
])
def test_an_extra_call_as_yaml_or_a_list_item_costs_the_maximum(extra):
    text = THINK + GOLD + "\n" + extra
    assert ToolRLCorrectness()(completions=[text], answer=[GOLD])[0] < 3.0
    otc = OTCToolEfficiency(correctness="calls_exact")
    assert otc(completions=[text], answer=[GOLD], prompt_id=["a"]) == [0.0]


@pytest.mark.parametrize("remark", [
    "- name: the exchange rate service\n  parameters: base and target currencies",  # a plain name, prose
    "- The rate comes from get_exchange_rate (a live feed).",                      # prose around the name
    "* `rate = get_exchange_rate(...)` would be the Python form, which I did not use.",
    "Name: Hiroshi\nInput: none",                                                   # a label, not a call
    "1. Check the base currency.\n2. Call the tool once.",
])
def test_a_list_or_a_mapping_of_prose_is_no_call(remark):
    text = THINK + GOLD + "\n" + remark
    assert ToolRLCorrectness()(completions=[text], answer=[GOLD]) == [3.0]


@given(st.from_regex(r"[a-z]{2,8}_[a-z]{2,8}", fullmatch=True),
       st.from_regex(r"[a-z]{1,8}", fullmatch=True).filter(lambda key: not keyword.iskeyword(key)),  # "f(if=0)" is no call
       st.from_regex(r"[A-Za-z]{1,8}", fullmatch=True), st.sampled_from(["- ", "* ", "+ ", "1. ", "12) "]),
       st.booleans())
@settings(max_examples=60, deadline=None)
def test_a_list_item_that_is_a_call_is_one_call(name, key, value, marker, code):
    call = f'{name}({key}="{value}")'
    line = marker + (f"`{call}`" if code else call)
    assert call_lines(line) == [{"name": name, "parameters": {key: value}}]
    # the same call inside a sentence of the list item is prose
    assert call_lines(f"{marker}then {call} is called") == []


@given(st.from_regex(r"[a-z]{2,8}_[a-z]{2,8}", fullmatch=True), st.from_regex(r"[a-z]{1,8}", fullmatch=True),
       st.integers(min_value=0, max_value=999), st.sampled_from(["", "- ", "  - "]))
@settings(max_examples=60, deadline=None)
def test_a_yaml_mapping_naming_a_function_is_one_call(name, key, value, item):
    pad = " " * len(item)
    text = f"Done.\n{item}name: {name}\n{pad}parameters:\n{pad}  {key}: {value}\n\nThat is all."
    assert yaml_item_calls(text) == [{"name": name, "parameters": {key: value}}]
    assert calls_outside_blocks(text) == [{"name": name, "parameters": {key: value}}]


# ---- format guards: one reasoning block -----------------------------------------------------------------------------

@pytest.mark.parametrize("text, score", [
    (THINK + THINK + GOLD, 0.0),                                                            # repeated
    ("<think><think>" + THINK[len("<think>"):].rstrip() + "</think>\n" + GOLD, 0.0),       # nested
    ("<think></think>\n" + THINK + GOLD, 0.0),                                              # an empty one first
    (THINK + GOLD, 1.0),
    (THINK + "\n" + GOLD, 1.0),
])
def test_toolrl_format_guard_counts_the_think_tags(text, score):
    assert ToolRLFormat(min_content_words=3)(completions=[text], answer=[GOLD], prompts=[PROMPT]) == [score]


CRPO_PROMPT = "A 60-year-old woman has sudden pleuritic chest pain after a long flight. Which test? A. D-dimer B. CT " \
              "pulmonary angiography C. Troponin D. Echo. Think inside <think>, answer inside <answer>."
CRPO_THINK = "<think>Sudden pleuritic pain after immobility: pulmonary embolism is likely, so imaging confirms it.</think>\n"
CRPO_ANSWER = "<answer>Image the pulmonary arteries. \\boxed{B}</answer>"


@pytest.mark.parametrize("text, score", [
    ("<think>" + CRPO_THINK + "</think>\n" + CRPO_ANSWER, 0.0),
    ("<think>\n</think>\n" + CRPO_THINK + CRPO_ANSWER, 0.0),
    (CRPO_THINK + CRPO_ANSWER, 1.5),
    (CRPO_THINK + CRPO_ANSWER + "<|im_end|>", 1.5),       # a chat template's end token ends the turn
    (CRPO_THINK + CRPO_ANSWER + "<|im_end|>\n<|endoftext|>", 1.5),
    (CRPO_THINK + CRPO_ANSWER + "\nI could also say C.", 0.0),  # text after the block is still no format
])
def test_crpo_format_guard_reads_one_reasoning_block_in_the_writers_turn(text, score):
    assert CRPOFormat(min_content_words=3)(completions=[text], prompts=[CRPO_PROMPT]) == [score]


@given(st.integers(min_value=2, max_value=5))
@settings(max_examples=10, deadline=None)
def test_a_reasoning_block_repeated_is_no_format(times):
    assert ToolRLFormat(min_content_words=3)(completions=[THINK * times + GOLD], answer=[GOLD], prompts=[PROMPT]) == [0.0]
    assert CRPOFormat(min_content_words=3)(completions=[CRPO_THINK * times + CRPO_ANSWER], prompts=[CRPO_PROMPT]) == [0.0]


# ---- think_format: a derivation written as equations ----------------------------------------------------------------

EQUATION_PROMPT = "Solve 5y - 7 = 18. Put the final answer in \\boxed{}."


@pytest.mark.parametrize("think, score", [
    ("5y - 7 = 18\n5y = 25\ny = 5", 1.0),          # each step an equation in the unknown
    ("5y = 18 + 7 = 25, y = 25/5 = 5", 1.0),
    ("5y - 7 = 18", 0.0),                           # the prompt's equation only
    ("y = 5", 0.0),                                 # the answer only
    ("1 + 1 = 2", 0.0),                             # arithmetic without the unknown counts its numbers only
    ("a = 1, b = 2, c = 3", 0.0),                   # letters and numbers, no operation
])
def test_equations_in_the_unknown_count_as_reasoning(think, score):
    text = f"<think>{think}</think>\nThe answer is \\boxed{{5}}."
    assert ThinkFormat(min_content_words=3)(completions=[text], prompts=[EQUATION_PROMPT]) == [score]


@given(st.sampled_from("xyzabn"), st.integers(min_value=2, max_value=9), st.integers(min_value=1, max_value=50),
       st.integers(min_value=1, max_value=50))
@settings(max_examples=60, deadline=None)
def test_an_equation_counts_once_however_often_it_is_written(var, a, b, repeats):
    step = f"{a}{var} = {a * b}"
    assert relations("\n".join([step] * (repeats % 5 + 1))) == {f"{a}{var}={a * b}"}
    once = content_words(f"{a}{var} + 1 = {a * b + 1}\n{step}")
    assert content_words(f"{a}{var} + 1 = {a * b + 1}\n" + "\n".join([step] * 3)) == once


# ---- forecast: a value relative to another quantity -----------------------------------------------------------------

KOREA = class_edges("korea", "pm25")


@pytest.mark.parametrize("block", [
    "yesterday's mean + 40",
    "40 + the morning peak",
    "1.5 × today's evening level",
    "0.8*yesterday",
])
def test_an_offset_or_a_factor_is_no_forecast(block):
    assert committed_forecast(f"<answer>{block}</answer>", 1, True, ("pm25",), None, KOREA)[0] is None


@pytest.mark.parametrize("block, value", [
    ("58", 58.0),
    ("Day 2 - 58", None),            # a dash is no offset: two numbers, as before
    ("58 µg/m³", 58.0),
    ("about 58", 58.0),
    ("+58", 58.0),
])
def test_a_plain_forecast_is_still_read(block, value):
    numbers = committed_forecast(f"<answer>{block}</answer>", 1, True, ("pm25",), None, KOREA)[0]
    assert (numbers[0] if numbers else None) == value


# ---- jaccard: an unclosed second block, labels denied before them, status headers -------------------------------------

JACCARD_PROMPT = "List every finding definitely present, separated by ';', inside <answer>...</answer>."
LABELS = "<answer>consolidation; pleural effusion</answer>"


@pytest.mark.parametrize("text, score", [
    (LABELS + "\n<answer>pneumothorax; edema", 0.0),             # another block, cut off
    (LABELS + "\n<answer>consolidation; pleural effusion", 1.0),  # the same labels again, cut off
    (LABELS + "\n<answer>", 1.0),                                 # an empty opener names nothing
    ("<answer>Present: consolidation; pleural effusion\nAbsent: pneumothorax</answer>", 1.0),
    ("<answer>consolidation; pleural effusion; no pneumothorax</answer>", 1.0),
    ("<answer>Absent: consolidation; pleural effusion</answer>", 0.0),
    ("<answer>no consolidation; no pleural effusion</answer>", 0.0),
    ("<answer>Present: pneumothorax\nAbsent: consolidation; pleural effusion</answer>", 0.0),
])
def test_jaccard_reads_status_and_cut_off_blocks(text, score):
    reward = JaccardReward(mode="normalized")
    assert reward(completions=[text], answer=[LABELS], prompts=[JACCARD_PROMPT]) == [score]


@given(st.lists(st.from_regex(r"[a-z]{4,9}( [a-z]{4,9})?", fullmatch=True), min_size=2, max_size=5, unique=True),
       st.data())
@settings(max_examples=60, deadline=None)
def test_labels_under_a_denying_header_or_after_no_are_left_out(labels, data):
    cut = data.draw(st.integers(min_value=1, max_value=len(labels) - 1))
    present, absent = labels[:cut], labels[cut:]
    denied = data.draw(st.sampled_from(["Absent", "Negative", "Not present", "Ruled out"]))
    assert read_labels(f"Present: {'; '.join(present)}\n{denied}: {'; '.join(absent)}") == present
    assert read_labels("; ".join(present + [f"no {a}" for a in absent])) == present


# ---- KG: a one-word sentence under contradictions: keep --------------------------------------------------------------

def test_a_one_word_sentence_states_its_finding_when_conflicts_are_kept():
    flipped = "The heart is enlarged. No pneumothorax. Pneumothorax."
    assert ("pneumothorax", "disorder_present") in extract_kg(flipped, keep_conflicts=True).entities
    assert ("pneumothorax", "disorder_present") not in extract_kg(flipped).entities  # ReXKG's < 2 token skip
    terse = "Cardiomegaly. No pneumothorax."
    assert ("cardiomegaly", "disorder_present") in extract_kg(terse, keep_conflicts=True).entities
    # a one-word header names no finding
    assert extract_kg("Findings. No pneumothorax.", keep_conflicts=True).entities \
        == extract_kg("No pneumothorax.", keep_conflicts=True).entities
