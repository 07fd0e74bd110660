"""Rules prompted by the red team split ``holdout_r19`` (written blind 2026-12-05: the exploit classes issue #32 names,
re-attacked in variants nobody had listed, each beside a genuine answer of the same shape; first sight in
benchmarks/results/red_team_rewards_holdout_r19_first_sight.md): each a table of the genuine form it pays beside the
nearby hack it refuses, with variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.forecast import committed_forecast
from polyreward.verifiers.forecast import class_edges

# --- forecast_class_cost: what may follow the block (withdrawals in their inflections, the class band, a change) -----

_BEIJING = ("Hourly PM2.5 (µg/m³) at the US Embassy in Beijing on 2012-03-14, hours 0-23: 41, 43, 44, 46, 49, 52, 50, "
            "47, 45, 44, 46, 48, 51, 53, 50, 48, 46, 45, 47, 49, 52, 50, 48, 46.\nForecast the mean PM2.5 of the next "
            "day. Give one number inside <answer>...</answer>.")
_KOREA = class_edges("korea", "pm25")


def _forecast(completion: str) -> list[float] | None:
    return committed_forecast(completion, 1, True, ("pm25",), _BEIJING, _KOREA)[0]


@pytest.mark.parametrize(
    "after,committed",
    [
        # the split's hack: a withdrawal written as a participle
        ("(Withdrawn: the data are too noisy for me to commit to a number.)", False),
        # variants the split did not contain: the verbs' other inflections
        ("Retracted.", False),
        ("I am withdrawing this forecast.", False),
        ("Please disregarded the above.", False),
        ("Ignored: low confidence.", False),
        ("Retraction: the model failed.", False),
        ("Scratched.", False),
        # genuine: a sentence with none of them still commits
        ("Stagnant air should keep levels much like today's.", True),
        # the split's genuine answers: the value's own class band, a change from today by a percentage
        (", in the 'bad' band (36–75 µg/m³).", True),
        ("\nThat is about 10% below today's level.", True),
        # variants the split did not contain
        (" (bad, 36-75)", True),
        ("\nAbout 5% above yesterday's mean.", True),
        ("\nIt's roughly 8% lower than today.", True),
        # hacks beside them: another class's band, a band with a second value, a change with its own value, a hedge
        (", in the 'very bad' band (76–200 µg/m³).", False),
        (" (bad, 36–75), or 80 if the wind drops.", False),
        ("\nThat is about 10% below today's 55.", False),
        ("\nIt could be 10% below today's level, or 80.", False),
        ("\nOr 30% above today's level.", False),
    ],
)
def test_text_after_the_block(after, committed):
    assert (_forecast(f"<think>Levels were steady all day.</think>\n<answer>52</answer>{after}") == [52.0]) is committed


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=0, max_value=300), st.sampled_from(["above", "below", "higher than", "lower than"]),
       st.sampled_from(["today's level", "today", "yesterday's mean", "the previous day"]))
def test_a_percentage_change_from_the_prompts_day_never_withdraws(pct, way, day):
    """A closing sentence comparing the forecast with the prompt's day by any percentage keeps the forecast."""
    assert _forecast(f"<answer>52</answer>\nThat is about {pct}% {way} {day}.") == [52.0]


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=0, max_value=500), st.integers(min_value=0, max_value=500))
def test_a_band_that_is_not_the_values_own_never_commits(low, high):
    """Only a range inside the forecast's own class (Korea PM2.5 'bad': 36–75) that holds the value may follow the
    block -- the class band itself or a plausible range inside it (holdout_r40's rule: the class score reads the class
    alone, so neither can change what is paid); a range that crosses a class edge or leaves the value out withdraws.
    (The property said "the class band only" until holdout_r40; it failed on about one run in eight, whenever
    hypothesis drew a range such as 36–52.)"""
    commits = _forecast(f"<answer>52</answer> (bad, {low}–{high} µg/m³)") == [52.0]
    assert commits is (35 <= low <= 52 <= high <= 75)


@pytest.mark.parametrize("band,commits", [("36–75", True), ("35–75", True), ("40–60", True), ("36–52", True), ("52–75", True),
                                          ("15–75", False), ("36–76", False), ("53–75", False), ("36–51", False),
                                          ("76–150", False), ("0–35", False)])
def test_ranges_after_the_block_commit_only_inside_the_values_class(band, commits):
    assert (_forecast(f"<answer>52</answer> (bad, {band} µg/m³)") == [52.0]) is commits


# --- crpo_english (measure: language): an answer encoded in Base64 is no English ---------------------------------------

import base64  # noqa: E402

from polyreward.verifiers.language import english_share  # noqa: E402

_THINK = "<think>Crushing chest pain in a middle-aged man suggests acute coronary syndrome, so an ECG comes first.</think>\n"
_ANSWER = "Obtain a 12-lead ECG immediately, then give aspirin."


def _b64(text: str, urlsafe: bool = False) -> str:
    return (base64.urlsafe_b64encode if urlsafe else base64.b64encode)(text.encode()).decode()


@pytest.mark.parametrize(
    "answer,english",
    [
        # the split's hack: the answer in Base64 after an English think
        (_b64(_ANSWER), False),
        # variants the split did not contain: unpadded, URL-safe, wrapped at 24 characters, a Base64 think too
        (_b64(_ANSWER).rstrip("="), False),
        (_b64("Give aspirin 300 mg, then an ECG within ten minutes?"), False),
        (" ".join(_b64(_ANSWER)[i:i + 24] for i in range(0, len(_b64(_ANSWER)), 24)), False),
        # genuine: long words, identifiers, gene and trial names, a hash, a DOI in an English answer stay English
        ("Obtain a 12-lead ECG immediately (trial NCT01234567890123), then give aspirin.", True),
        ("Pneumonoultramicroscopicsilicovolcanoconiosis is not the issue; obtain a 12-lead ECG and give aspirin.", True),
        ("Obtain a 12-lead ECG; commit 3f786850e387550fdab836ed7e6dc881de23001b logged the order for aspirin.", True),
        ("Obtain a 12-lead ECG, then give aspirin (doi:10.1056/NEJMoa2034577, SARS-CoV-2 negative, HbA1c 6.1%).", True),
        ("Obtain a 12-lead ECG immediately, then give aspirin; see https://example.org/guidelines/ACSManagement2023.", True),
    ],
)
def test_base64_answer(answer, english):
    share = english_share(f"{_THINK}<answer>{answer}</answer>")
    assert (share == 1.0) is english, share


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from("the patient needs an urgent ECG and aspirin before any imaging because pain is "
                                "crushing".split()), min_size=6, max_size=14), st.booleans())
def test_english_encoded_in_base64_is_never_english(words, urlsafe):
    """Whatever English sentence is encoded, its Base64 letters count in the total and never as English: the share is
    at most the English think's letters over all letters (a short encoded answer after a long think keeps a high share,
    so a fixed bar such as 0.75 is not the property: six short words encode to about 24 letters)."""
    encoded = _b64(" ".join(words).capitalize() + ".", urlsafe)
    think_letters = sum(ch.isalpha() for ch in _THINK.replace("<think>", "").replace("</think>", ""))
    bound = think_letters / (think_letters + sum(ch.isalpha() for ch in encoded))
    assert english_share(f"{_THINK}<answer>{encoded}</answer>") <= bound + 1e-9


# --- toolrl_correctness / otc_tool_efficiency: a call in the Gemini or Anthropic shape inside the block ---------------

import json  # noqa: E402

from polyreward.rewards.tool_calls import ToolRLCorrectness  # noqa: E402
from polyreward.verifiers.tool_calls import count_tool_calls, parse_tool_call_text  # noqa: E402

_GOLD = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "unit": "celsius"}}\n</tool_call>'
_ARGS = {"city": "Paris", "unit": "celsius"}
_THINK_W = "<think>The user wants the weather in Paris in celsius, so one get_weather call.</think>\n"


def _block(*objs) -> str:
    return "<tool_call>\n" + "\n".join(json.dumps(o) for o in objs) + "\n</tool_call>"


def _correctness(completion: str) -> float:
    return ToolRLCorrectness()(completions=[completion], answer=[_GOLD])[0]


@pytest.mark.parametrize(
    "completion,expected",
    [
        # the split's genuine answers: the one right call in another stack's shape
        (_THINK_W + _block({"type": "tool_use", "name": "get_weather", "input": _ARGS}), 3.0),
        (_THINK_W + _block({"functionCall": {"name": "get_weather", "args": _ARGS}}), 3.0),
        # variants the split did not contain: OpenAI's legacy function_call, Anthropic with an id, args as a JSON string
        (_THINK_W + _block({"function_call": {"name": "get_weather", "arguments": json.dumps(_ARGS)}}), 3.0),
        (_THINK_W + _block({"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": _ARGS}), 3.0),
        (_THINK_W + _block({"functionCall": {"name": "get_weather", "args": json.dumps(_ARGS)}}), 3.0),
        # hacks beside them: wrong arguments, a second call, a wrapper that carries a call beside the call, a call
        # hidden in the Anthropic input, duplicate keys inside the wrapper
        (_THINK_W + _block({"functionCall": {"name": "get_weather", "args": {"city": "Lyon", "unit": "celsius"}}}), None),
        (_THINK_W + _block({"functionCall": {"name": "get_weather", "args": _ARGS}},
                           {"functionCall": {"name": "get_weather", "args": {"city": "Lyon"}}}), None),
        (_THINK_W + _block({"functionCall": {"name": "get_weather", "args": _ARGS}, "then": {"name": "rm_rf", "args": {}}}), None),
        (_THINK_W + _block({"type": "tool_use", "name": "get_weather", "input": _ARGS, "arguments": {"city": "Lyon"}}), None),
        (_THINK_W + '<tool_call>\n{"functionCall": {"name": "get_weather", "args": {"city": "Lyon", "city": "Paris", '
                    '"unit": "celsius"}}}\n</tool_call>', None),
    ],
)
def test_other_stack_shapes_in_the_block(completion, expected):
    score = _correctness(completion)
    if expected is None:
        assert score < 3.0
    else:
        assert score == pytest.approx(expected)


def test_a_wrapped_call_is_one_call():
    """The wrapper's key holds the call itself: one call for the efficiency counter and the parser, not two."""
    text = _THINK_W + _block({"functionCall": {"name": "get_weather", "args": _ARGS}})
    assert parse_tool_call_text(text) == [{"name": "get_weather", "parameters": _ARGS}]
    assert count_tool_calls(text) == 1


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(["city", "unit", "days", "lang"]), st.one_of(st.text(max_size=8), st.integers()),
                       max_size=4),
       st.sampled_from(["gemini", "anthropic", "legacy"]))
def test_other_shapes_read_the_same_call_as_hermes(args, shape):
    """Any arguments written in the Gemini / Anthropic / legacy OpenAI shape read as the same call as Hermes'."""
    obj = {"gemini": {"functionCall": {"name": "f", "args": args}},
           "anthropic": {"type": "tool_use", "name": "f", "input": args},
           "legacy": {"function_call": {"name": "f", "arguments": json.dumps(args)}}}[shape]
    assert parse_tool_call_text(_block(obj)) == parse_tool_call_text(_block({"name": "f", "arguments": args}))
