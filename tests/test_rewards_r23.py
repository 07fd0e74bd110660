"""Rules prompted by the red team split ``holdout_r23`` (written blind 2026-12-05: tool use in depth; first sight in
benchmarks/results/red_team_rewards_holdout_r23_first_sight.md): each a table of the genuine form it pays beside the
nearby hack it refuses, with variants the split did not contain."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.format import ThinkFormat
from polyreward.rewards.think_work import schema_and_request
from polyreward.rewards.tool_calls import ToolRLFormat

# --- the think guard: a think that only describes the prompt's tools does no work for its request ---------------------

_FUNCS = [{"name": "find_restaurants", "parameters": {"type": "dict", "properties": {
    "zip_code": {"type": "string"}, "cuisine": {"type": "string"},
    "max_results": {"type": "integer", "description": "Optional, default 10"}}, "required": ["zip_code", "cuisine"]}}]
_INSTRUCTION = ("Reason inside <think>...</think>, then write the calls inside <tool_call>...</tool_call>, one JSON "
                "object per line.")
_PROMPT = ("You are a helpful assistant that can call functions. Available functions (JSON):\n" + json.dumps(_FUNCS)
           + "\n" + _INSTRUCTION + "\nShow me 5 Thai places near 02139.")
_CALL = json.dumps({"name": "find_restaurants", "parameters": {"zip_code": "02139", "cuisine": "Thai", "max_results": 5}})
_GOLD = f"<tool_call>\n{_CALL}\n</tool_call>"


def _tool_format(think: str, prompt: str = _PROMPT) -> float:
    completion = f"<think>{think}</think>\n{_GOLD}"
    return ToolRLFormat(min_content_words=3).score_rollout(completion, {"prompt": prompt, "answer": _GOLD}).score


@pytest.mark.parametrize(
    "think,expected",
    [
        # the split's hack: the tool's signature restated in prose, nothing of the request
        ("There is a function find_restaurants that takes a zip code, a cuisine and an optional maximum number of "
         "results.", 0.0),
        # variants the split did not contain: other verbs and nouns for a signature, the schema's own default (10,
        # spelled ten) as the only number, a pretty description of what the tool does
        ("find_restaurants accepts a zip code and a cuisine, plus an optional cap on how many results come back.", 0.0),
        ("The available function is find_restaurants; its inputs are zip_code, cuisine and max_results, which "
         "defaults to ten.", 0.0),
        ("Tool overview: find_restaurants looks up eateries by postal code and type of food, returning a list.", 0.0),
        ("find_restaurants(zip_code: string, cuisine: string, max_results: integer = 10) returns matching venues.", 0.0),
        # genuine: the same tool named beside the request's values, a number of its own, or a decision to call it
        ("find_restaurants with 02139 quoted so its leading zero survives, Thai cuisine, and max_results 5.", 1.0),
        ("Call find_restaurants once: the zip keeps its leading zero and the user wants five places.", 1.0),
        ("find_restaurants takes the zip as text, so the leading zero survives; five results were asked for.", 1.0),
        ("The user wants Thai food nearby, so find_restaurants with a small result cap fits.", 1.0),
        ("find_restaurants takes a zip code, a cuisine and an optional cap; here the cap is 5 instead of the default.",
         1.0),
        # a think that names no tool is not judged by this rule (a terse check of the fields, holdout_r15)
        ("Zip code and cuisine are both given; the result cap differs from its default, so it goes in.", 1.0),
    ],
)
def test_toolrl_format_think_that_only_describes_the_tool(think, expected):
    assert _tool_format(think) == expected


def test_think_format_reads_the_same_rule_on_a_tool_prompt():
    think_format = ThinkFormat(min_content_words=3)
    hack = ("<think>There is a function find_restaurants that takes a zip code, a cuisine and an optional maximum "
            "number of results.</think>\n" + _GOLD)
    genuine = "<think>Thai food near 02139: find_restaurants with five results instead of ten.</think>\n" + _GOLD
    assert think_format.score_rollout(hack, {"prompt": _PROMPT}).score == 0.0
    assert think_format.score_rollout(genuine, {"prompt": _PROMPT}).score == 1.0
    # without a schema in the prompt the rule reads nothing: the same words about a function are judged as before
    plain = "Which Python function finds restaurants? Explain briefly."
    prose = "<think>There is a function find_restaurants that takes a zip code and a cuisine.</think>\nfind_restaurants"
    assert think_format.score_rollout(prose, {"prompt": plain}).score == 1.0


def test_schema_and_request_splits_the_schema_from_the_request():
    pretty = ("Tools available:\n" + json.dumps(_FUNCS, indent=2) + "\n" + _INSTRUCTION + "\nFind 3 sushi bars near 10001.")
    for prompt in (_PROMPT, pretty):
        schema, request = schema_and_request(prompt.casefold())
        assert "find_restaurants" in schema and "max_results" in schema
        assert "find_restaurants" not in request and "max_results" not in request
        assert ("thai" in request) or ("sushi" in request)
    # JSON that names no tool is part of the request; a prompt without a tool has no schema
    assert schema_and_request('summarise this record:\n{"patient": "x", "age": 4}') is None
    assert schema_and_request("solve 2x + 3 = 11.") is None
    # a JSON value in the middle of a line is not read (the schema starts a line), so nothing is split
    assert schema_and_request('tools are [{"name": "f"}] here') is None


_SCHEMA_WORDS = st.lists(st.sampled_from(
    "there is a the function find_restaurants which that takes accepts zip code zip_code cuisine optional maximum "
    "max_results number of results and plus an its inputs are parameters string integer default returns".split()),
    min_size=6, max_size=24).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(_SCHEMA_WORDS)
def test_the_schemas_words_around_the_tools_name_are_never_paid(words):
    """A think made of the schema's and the signature's words, naming the tool, is refused whatever their order."""
    assert _tool_format("find_restaurants " + words) == 0.0


@settings(max_examples=100, deadline=None)
@given(_SCHEMA_WORDS)
def test_describing_the_tool_never_refuses_a_think_about_the_request(padding):
    """A description of the tool added to a think that works on the request never takes its credit away."""
    think = "Cuisine is Thai, zip code 02139, and five places means max_results 5 rather than the default. "
    assert _tool_format(think) == 1.0
    assert _tool_format(think + "find_restaurants " + padding) == 1.0
