"""``toolrl_correctness`` with ``parse: toolrl, read_blocks: first`` (exact mode) against ToolRL's ``rlla.py``, re-typed below.

Source: ToolRL ``rlla.py`` (qiancheng0/ToolRL; the copy read is the cczslp/ToolRL fork @bf3042f, the same file
NVlabs/GDPO ships as verl-GDPO/verl/utils/reward_score/rlla.py): ``match_score``, ``compute_tool_call_reward``
and ``customize_correctness_reward_tool`` with every environment switch off (3 / -3 range). The reference
parses the gold text itself (a gold parse error raises there; the reward reports NaN). Every call shape the
issue lists is a table row: ``arguments`` instead of ``parameters``, parameters as a JSON string, the OpenAI
``{"function": {...}}`` wrapper, missing and null parameters, plus lines that are not objects, extra keys,
unhashable or numeric names and gold calls written with ``arguments``.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.tool_calls import ToolRLCorrectness


# ------------------------------------------------------------------------- rlla.py, re-typed
def rlla_match_score(list1, list2):
    if list1 == list2:
        return 1.0
    if not list1 or not list2:
        return 0.0
    count1, count2 = Counter(list1), Counter(list2)
    intersection = sum(min(count1[k], count2[k]) for k in count1.keys() & count2.keys())
    max_possible = len(list1) + len(list2) - intersection
    return intersection / max_possible if max_possible > 0 else 0.0


def rlla_compute_tool_call_reward(gt_tools, pd_tools, max_possible_reward, min_possible_reward):
    if gt_tools == pd_tools:
        return max_possible_reward
    gt_names = [tool["name"] for tool in gt_tools]
    pd_names = [tool["name"] for tool in pd_tools]
    score = rlla_match_score(list(gt_names), list(pd_names))
    local_max_possible = 1.0
    used_pd_indices = set()
    for gt_tool in gt_tools:
        gt_name = gt_tool["name"]
        gt_params = gt_tool["parameters"]
        local_max_possible += 1.0 + len(gt_params)
        best_match = None
        best_match_score = 0.0
        best_match_index = -1
        for i, pd_tool in enumerate(pd_tools):
            if i in used_pd_indices or pd_tool["name"] != gt_name:
                continue
            pd_params = pd_tool["parameters"]
            param_score = rlla_match_score(list(gt_params.keys()), list(pd_params.keys()))
            correctness_score = sum(1.0 for k, v in gt_params.items() if k in pd_params and pd_params[k] == v)
            total_score = param_score + correctness_score
            if total_score > best_match_score:
                best_match_score = total_score
                best_match = pd_tool
                best_match_index = i
        if best_match:
            used_pd_indices.add(best_match_index)
            score += best_match_score
    return (max_possible_reward - min_possible_reward) * score / local_max_possible + min_possible_reward


def rlla_correctness(response, ans, max_possible_reward=3.0, min_possible_reward=-3.0):
    if "<tool_call>" not in ans:
        return 0.0
    gt_tool_call = ans.split("<tool_call>")[1].split("</tool_call>")[0].strip()
    gt_tools = [json.loads(tool) for tool in gt_tool_call.split("\n")]
    try:
        assert "<tool_call>" in response
        assert "</tool_call>" in response
        pd_tools = response.split("<tool_call>")[1].split("</tool_call>")[0].strip().split("\n")
        pd_tools = [json.loads(tool) for tool in pd_tools]
        return rlla_compute_tool_call_reward(gt_tools, pd_tools, max_possible_reward, min_possible_reward)
    except:  # noqa: E722 -- the source's bare except
        return min_possible_reward


# ------------------------------------------------------------------------------------ shapes
def block(*lines: str) -> str:
    return "<think>t</think>\n<tool_call>\n" + "\n".join(lines) + "\n</tool_call>"


def line(obj) -> str:
    return json.dumps(obj)


GOLD = block(line({"name": "get_weather", "parameters": {"city": "Paris", "unit": "C"}}),
             line({"name": "get_time", "parameters": {"tz": "CET"}}))
PARAMS = {"city": "Paris", "unit": "C"}
SHAPES = {
    "parameters": {"name": "get_weather", "parameters": PARAMS},
    "arguments": {"name": "get_weather", "arguments": PARAMS},
    "json_string": {"name": "get_weather", "parameters": json.dumps(PARAMS)},
    "json_string_arguments": {"name": "get_weather", "arguments": json.dumps(PARAMS)},
    "openai_wrapper": {"type": "function", "function": {"name": "get_weather", "arguments": json.dumps(PARAMS)}},
    "missing_parameters": {"name": "get_weather"},
    "null_parameters": {"name": "get_weather", "parameters": None},
    "empty_parameters": {"name": "get_weather", "parameters": {}},
    "extra_id_key": {"id": "call_1", "name": "get_weather", "parameters": PARAMS},
    "wrong_value": {"name": "get_weather", "parameters": {"city": "Lyon", "unit": "C"}},
    "extra_param": {"name": "get_weather", "parameters": {**PARAMS, "days": 3}},
    "other_name_arguments": {"name": "search", "arguments": {"q": "x"}},  # never indexed for parameters
    "numeric_name": {"name": 7, "parameters": {}},
    "unhashable_name": {"name": ["get_weather"], "parameters": {}},
    "list_parameters": {"name": "get_weather", "parameters": ["Paris", "C"]},
    "number_value_float": {"name": "get_time", "parameters": {"tz": "CET", "offset": 1.0}},
    "other_tool": {"name": "get_time", "parameters": {"tz": "CET"}},
}
NON_OBJECT_LINES = {"list_line": "[1, 2]", "string_line": '"get_weather"', "number_line": "3", "null_line": "null",
                    "blank_line": "", "bad_json": "{name: get_weather}"}


@pytest.fixture(scope="module")
def reward():
    return ToolRLCorrectness(parse="toolrl", read_blocks="first")


def score(reward, completion, gold=GOLD):
    return reward([""], [completion], answer=[gold])[0]


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_each_call_shape_alone_and_with_the_other_gold_call(reward, shape):
    for completion in (block(line(SHAPES[shape])), block(line(SHAPES[shape]), line(SHAPES["other_tool"])),
                       block(line(SHAPES["other_tool"]), line(SHAPES[shape]))):
        assert score(reward, completion) == pytest.approx(rlla_correctness(completion, GOLD), abs=1e-12), completion


@pytest.mark.parametrize("shape", sorted(NON_OBJECT_LINES))
def test_lines_that_are_not_call_objects(reward, shape):
    completion = block(line(SHAPES["parameters"]), NON_OBJECT_LINES[shape], line(SHAPES["other_tool"]))
    assert score(reward, completion) == rlla_correctness(completion, GOLD) == -3.0


@pytest.mark.parametrize("completion", [
    "<think>t</think>\nno call", "<tool_call>\n" + line(SHAPES["parameters"]), "<think>t</think>\n<tool_call>\n\n</tool_call>",
    block(line(SHAPES["parameters"]), line(SHAPES["other_tool"])) + "\n" + block(line(SHAPES["other_tool"])),
])
def test_missing_tags_empty_blocks_and_second_blocks(reward, completion):
    assert score(reward, completion) == pytest.approx(rlla_correctness(completion, GOLD), abs=1e-12)


def test_the_reported_shapes_get_the_minimum_as_in_rlla():
    reward = ToolRLCorrectness(parse="toolrl", read_blocks="first")
    for shape in ("arguments", "json_string", "openai_wrapper", "missing_parameters", "null_parameters"):
        assert score(reward, block(line(SHAPES[shape]))) == -3.0, shape
    # the lenient mode normalises them instead (arguments, JSON strings, the wrapper; missing/null -> {})
    lenient = ToolRLCorrectness(parse="lenient")
    assert score(lenient, block(line(SHAPES["arguments"]))) > -3.0
    assert score(lenient, block(line(SHAPES["openai_wrapper"]))) == score(lenient, block(line(SHAPES["parameters"])))


@pytest.mark.parametrize("gold_shape", ["arguments", "missing_parameters", "extra_id_key", "json_string"])
def test_gold_calls_in_other_shapes(reward, gold_shape):
    gold = block(line(SHAPES[gold_shape]))
    for shape in ("parameters", gold_shape, "other_tool"):
        completion = block(line(SHAPES[shape]))
        assert score(reward, completion, gold) == pytest.approx(rlla_correctness(completion, gold), abs=1e-12), (gold_shape, shape)


def test_max_reward_one_is_correctmax1(reward):
    small = ToolRLCorrectness(max_reward=1)
    completion = block(line(SHAPES["wrong_value"]))
    assert score(small, completion) == pytest.approx(rlla_correctness(completion, GOLD, 1.0, -1.0), abs=1e-12)


LINES = [line(v) for v in SHAPES.values()] + list(NON_OBJECT_LINES.values())


@settings(max_examples=150, derandomize=True, deadline=None, database=None)
@given(st.lists(st.sampled_from(LINES), min_size=1, max_size=4), st.lists(st.sampled_from(LINES[:4] + LINES[9:12]), min_size=1, max_size=3))
def test_random_mixtures_of_shapes(lines, gold_lines):
    gold = block(*gold_lines)
    try:
        expected = rlla_correctness(block(*lines), gold)
    except Exception:  # rlla.py crashes on this gold (a gold parse or indexing error outside its try)
        return
    assert score(ToolRLCorrectness(parse="toolrl", read_blocks="first"), block(*lines), gold) == pytest.approx(expected, abs=1e-12)
