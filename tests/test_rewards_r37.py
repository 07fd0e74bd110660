"""Rules prompted by the red team split ``holdout_r37`` (written blind 2026-12-06 on tool calls in real agent formats
under a policy's pressure; first sight in benchmarks/results/red_team_rewards_holdout_r37_first_sight.md): each a
table of the genuine form it now pays beside the nearby hack it still refuses, with variants the split did not
contain."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.tool_calls import ToolRLCorrectness, ToolRLFormat, calls_taken_back, tool_verbs
from polyreward.rewards.tool_efficiency import OTCToolEfficiency
from polyreward.verifiers.tool_calls import call_remarks, parse_tool_call_text

ROME = {"name": "get_current_weather", "parameters": {"location": "Rome, Italy"}}
CANCEL = {"name": "cancel_order", "parameters": {"order_id": "B-7781"}}
FLIGHT = {"name": "search_flights", "parameters": {"origin": "SFO", "destination": "JFK", "date": "2025-04-02"}}


def gold(*calls: dict) -> str:
    return "<tool_call>\n" + "\n".join(json.dumps(c) for c in calls) + "\n</tool_call>"


def block(*calls: dict, think: str = "Look it up.") -> str:
    return f"<think>{think}</think>\n" + gold(*calls)


def correctness(completion: str, answer: str, read_blocks: str = "all") -> float:
    return ToolRLCorrectness(read_blocks=read_blocks).evaluate([None], [completion], answer=[answer]).scores[0]


def calls_exact(completion: str, answer: str) -> float:
    out = OTCToolEfficiency(correctness="calls_exact").evaluate([None], [completion], answer=[answer], prompt_id=["g"])
    return out.scores[0]


def mistral(*calls: dict) -> str:
    return "[TOOL_CALLS] " + json.dumps([{"name": c["name"], "arguments": c["parameters"]} for c in calls])


def functionary(call: dict) -> str:
    return f">>>{call['name']}\n{json.dumps(call['parameters'])}"


# --- Mistral's [TOOL_CALLS] after a preamble and Functionary's >>>name lines carry the reply's calls --------------
@pytest.mark.parametrize(
    "completion,answer,paid",
    [
        ("Sure, checking both.\n" + mistral(ROME, FLIGHT), gold(ROME, FLIGHT), True),
        ("Let me look that up for you:\n\n" + mistral(ROME) + "\nI'll tell you what it says.", gold(ROME), True),
        (functionary(FLIGHT), gold(FLIGHT), True),
        (">>>all\nChecking the weather now.\n" + functionary(ROME), gold(ROME), True),
        (functionary(ROME) + "\n" + functionary(FLIGHT), gold(ROME, FLIGHT), True),
        # the plain-text channel only, or the call described in it: no call made
        (">>>all\nYou can run get_current_weather with {\"location\": \"Rome, Italy\"} yourself.", gold(ROME), False),
        ("I'd use [TOOL_CALLS] for this, but Rome is sunny anyway.", gold(ROME), False),
        # the marker before prose, not before its JSON list: a call written in that prose carries nothing
        ("Sure.\n[TOOL_CALLS] I would call " + json.dumps(ROME), gold(ROME), False),
        # the template named inside the reasoning only
        ("<think>" + mistral(ROME) + " would do it.</think>\nRome is sunny.", gold(ROME), False),
    ],
)
def test_template_layouts_carry_calls(completion, answer, paid):
    assert (correctness(completion, answer) == 3.0) is paid
    assert (calls_exact(completion, answer) == 1.0) is paid


# --- what the reply says about its calls: strikethrough, a call object's own remark, the tool's verb, a lead-in --
WITHDRAWN = [
    "<think>Kitchen.</think>\n~~" + gold(ROME) + "~~\nNo need for the tool: it is sunny.",
    "~~<tool_call>\n" + json.dumps(ROME) + "\n</tool_call>~~",
    block(CANCEL) + "\nJust reply \"yes\" and I'll go ahead -- until then nothing is cancelled.",
    block(ROME) + "\nNote: the call above is a mock for illustration; no real request was made.",
    block(ROME) + "\nThis request is just an example of the format.",
    block(ROME) + "\nActually, cancel that -- Rome is sunny, no lookup needed.",
    "<think>Irreversible.</think>\n<tool_call>\n" + json.dumps({**CANCEL, "condition": "only_if_user_confirms"}) + "\n</tool_call>",
    "<think>Draft it.</think>\n<tool_call>\n" + json.dumps({**CANCEL, "status": "draft - do not execute"}) + "\n</tool_call>",
    "<think>Wait for the user.</think>\n<tool_call>\n" + json.dumps({**CANCEL, "await": "user approval"}) + "\n</tool_call>",
    "<think>Cancel.</think>\nIf you confirm, this is what I'll run:\n" + gold(CANCEL),
    "<think>Cancel.</think>\nOnce the user approves, I will send:\n" + gold(CANCEL),
    "<think>Cancel.</think>\nDraft (not sent yet):\n" + gold(CANCEL),
    mistral(ROME) + "\nActually, scratch that -- don't run it.",
    functionary(CANCEL) + "\nI won't send it until you confirm.",
]
KEPT = [
    block(ROME) + "\nI'll tell you what the forecast says.",
    block(CANCEL) + "\nOnce it's cancelled you'll get a confirmation email.",
    block(CANCEL) + "\nIf the order has already shipped, the tool will say so.",
    "<think>Cancel it.</think>\nHere is the call:\n" + gold(CANCEL),
    "<think>Cancel it.</think>\nIf you need more help, just ask. Cancelling B-7781 now:\n" + gold(CANCEL),
    "<think>If the user confirms later I'll book; now only search.</think>\n" + gold(FLIGHT),
    "<think>Look up.</think>\n<tool_call>\n" + json.dumps({**ROME, "id": "call_1"}) + "\n</tool_call>",
    "<think>Look up.</think>\n<tool_call>\n" + json.dumps({**ROME, "note": "user's home city"}) + "\n</tool_call>",
    block(ROME) + "\nThe request doesn't need a unit; celsius is the default.",
    block(ROME) + "\nNo second call is needed.",
    "Checking now.\n" + mistral(ROME) + "\nI'll summarise the result.",
    functionary(ROME) + "\n>>>all\nI'll report back shortly.",
]


@pytest.mark.parametrize("completion", WITHDRAWN)
def test_calls_withheld_are_not_made(completion):
    assert calls_taken_back(completion)
    answer = gold(CANCEL) if "cancel_order" in completion else gold(ROME)
    assert correctness(completion, answer) == -3.0
    assert calls_exact(completion, answer) == 0.0


@pytest.mark.parametrize("completion", KEPT)
def test_calls_kept_are_made(completion):
    assert calls_taken_back(completion) == ""
    answer = gold(CANCEL) if "cancel_order" in completion else gold(FLIGHT) if "search_flights" in completion else gold(ROME)
    assert correctness(completion, answer) == 3.0
    assert calls_exact(completion, answer) == 1.0


def test_tool_verbs_and_remarks():
    assert tool_verbs(json.dumps(CANCEL) + json.dumps({"name": "transferFunds"}) + json.dumps({"name": "get_x"})) == ("cancel", "transfer")
    assert call_remarks({**CANCEL, "condition": "only_if_user_confirms", "id": "c1", "then": ROME}) == ["condition only if user confirms"]
    assert call_remarks([{**ROME, "dry_run": True}]) == ["dry run true"]


# --- read_blocks: first reads what follows the first block up to the next one --------------------------------
@pytest.mark.parametrize(
    "completion,paid",
    [
        (block(ROME) + "\nCorrection -- ignore the call above:\n" + gold({**ROME, "parameters": {"location": "Rome, GA"}}), False),
        (block(ROME) + "\nOn second thought, scratch that call.\n" + gold(FLIGHT), False),
        (block(ROME) + "\nAnd the flight search as well:\n" + gold(FLIGHT), True),  # the source's reading: first block only
        (block(ROME), True),
    ],
)
def test_first_block_withdrawn_before_the_next(completion, paid):
    assert (correctness(completion, gold(ROME), read_blocks="first") == 3.0) is paid


# --- toolrl_format: a block whose call its own object withholds is no call --------------------------------------
@pytest.mark.parametrize(
    "extra,paid",
    [({"status": "draft - do not execute"}, False), ({"condition": "only if the user confirms"}, False),
     ({"status": "pending"}, False), ({"id": "call_9"}, True), ({"type": "function"}, True)],
)
def test_format_guard_reads_call_remarks(extra, paid):
    prompt = "Available functions: [{\"name\": \"cancel_order\"}]\nCancel order B-7781 for me, it arrived damaged."
    think = "The order arrived damaged, so cancelling B-7781 is what the customer wants right away."
    completion = f"<think>{think}</think>\n<tool_call>\n" + json.dumps({**CANCEL, **extra}) + "\n</tool_call>"
    out = ToolRLFormat(min_content_words=3).evaluate([prompt], [completion], answer=[gold(CANCEL)])
    assert (out.scores[0] == 1.0) is paid, out.reasons[0]


# --- property: a plain committed call followed by a neutral closing sentence stays made, in every layout --------
_CLOSINGS = st.sampled_from(["I'll tell you what it returns.", "Back shortly with the result.", "Checking now.",
                             "This should answer your question.", "Let me know if you need the forecast for tomorrow too."])
_LAYOUTS = st.sampled_from(["block", "mistral", "functionary"])
_CITIES = st.sampled_from(["Rome, Italy", "Oslo, Norway", "São Paulo, Brazil", "Kyoto, Japan"])


@settings(max_examples=60, deadline=None)
@given(_LAYOUTS, _CITIES, _CLOSINGS, st.booleans())
def test_neutral_closing_keeps_any_layout(layout, city, closing, struck):
    call = {"name": "get_current_weather", "parameters": {"location": city}}
    body = {"block": gold(call), "mistral": mistral(call), "functionary": functionary(call)}[layout]
    completion = f"{body}\n{closing}"
    assert parse_tool_call_text(completion) == [call]
    assert calls_taken_back(completion) == ""
    if struck and layout == "block":  # the same block struck through is taken back
        assert calls_taken_back(f"~~{body}~~\n{closing}")
