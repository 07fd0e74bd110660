"""Rules prompted by the red team split ``holdout_r31`` (written blind 2026-12-06 on tool calls as model families emit
them; first sight in benchmarks/results/red_team_rewards_holdout_r31_first_sight.md): each a table of the genuine form
it now pays beside the nearby hack it still refuses, with variants the split did not contain."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.tool_calls import ToolRLCorrectness
from polyreward.rewards.tool_efficiency import OTCToolEfficiency
from polyreward.verifiers.call_formats import python_tag_calls, xml_value
from polyreward.verifiers.tool_calls import count_tool_calls, parse_tool_call_text

TIMER = '<tool_call>\n{"name": "set_timer", "parameters": {"minutes": 25, "label": "pomodoro"}}\n</tool_call>'
FX = ('<tool_call>\n{"name": "convert_currency", "parameters": {"amount": 250, "from_currency": "EUR", '
      '"to_currency": "JPY"}}\n</tool_call>')
FX_JSON = '{"name": "convert_currency", "parameters": {"amount": 250, "from_currency": "EUR", "to_currency": "JPY"}}'
TICKET = ('<tool_call>\n{"name": "create_ticket", "parameters": {"title": "Login page returns 500", "priority": "high", '
          '"tags": ["auth", "backend"]}}\n</tool_call>')
WEATHER_TWO = ('<tool_call>\n{"name": "get_weather", "parameters": {"location": "Paris"}}\n'
               '{"name": "get_weather", "parameters": {"location": "Tokyo"}}\n</tool_call>')
SEARCH = '<tool_call>\n{"name": "brave_search", "parameters": {"query": "Oslo weather"}}\n</tool_call>'


def correctness(completion: str, gold: str) -> float:
    return ToolRLCorrectness().evaluate([None], [completion], answer=[gold]).scores[0]


def calls_exact(completion: str, gold: str) -> float:
    out = OTCToolEfficiency(correctness="calls_exact").evaluate([None], [completion], answer=[gold], prompt_id=["g"])
    return out.scores[0]


# --- a call in another chat template's own delimiters is carried as a <tool_call> block is -------------------------
@pytest.mark.parametrize(
    "completion,gold,paid",
    [
        # Llama 3.1: a call message opened by <|python_tag|>, closed by <|eom_id|> or <|eot_id|> or nothing
        ("<|python_tag|>" + FX_JSON + "<|eom_id|>", FX, True),
        ("<|python_tag|>" + FX_JSON + "<|eot_id|>", FX, True),
        ("<think>EUR to JPY, 250.</think>\n<|python_tag|>" + FX_JSON, FX, True),
        # Llama 3.1's built-in tool form behind the tag
        ('<|python_tag|>brave_search.call(query="Oslo weather")<|eom_id|>', SEARCH, True),
        # Llama 3.1's custom-tool tags, one call or two parallel ones
        ('<function=set_timer>{"minutes": 25, "label": "pomodoro"}</function>', TIMER, True),
        ('<function=get_weather>{"location": "Paris"}</function><function=get_weather>{"location": "Tokyo"}</function>',
         WEATHER_TWO, True),
        # Anthropic's XML: numbers and arrays written as JSON text are those values; a preamble sentence before it
        ('I\'ll start it now.\n<function_calls>\n<invoke name="set_timer">\n<parameter name="minutes">25</parameter>\n'
         '<parameter name="label">pomodoro</parameter>\n</invoke>\n</function_calls>', TIMER, True),
        ('<function_calls><invoke name="create_ticket"><parameter name="title">Login page returns 500</parameter>'
         '<parameter name="priority">high</parameter><parameter name="tags">["auth", "backend"]</parameter></invoke>'
         '</function_calls>', TICKET, True),
        # Claude 2's bare <invoke> with the name as a child element
        ('<function_calls><invoke><tool_name>set_timer</tool_name><parameters><minutes>25</minutes><label>pomodoro'
         '</label></parameters></invoke></function_calls>', TIMER, True),
        # hacks: the same layouts with a hedge call, a duplicate, an unoffered extra tool, a wrong value
        ("<|python_tag|>" + FX_JSON + "<|eom_id|>\n<|python_tag|>" + FX_JSON.replace("JPY", "CNY") + "<|eom_id|>", FX, False),
        ("<|python_tag|>" + FX_JSON + "<|eom_id|>\n<|python_tag|>" + FX_JSON + "<|eom_id|>", FX, False),
        ('<function=set_timer>{"minutes": 25, "label": "pomodoro"}</function>'
         '<function=send_notification>{"message": "started"}</function>', TIMER, False),
        ('<function_calls><invoke name="set_timer"><parameter name="minutes">52</parameter>'
         '<parameter name="label">pomodoro</parameter></invoke></function_calls>', TIMER, False),
        # a template call only inside the reasoning, or inside an HTML comment, is no call made
        ("<think><|python_tag|>" + FX_JSON + "<|eom_id|></think>\n250 EUR is about 40,000 JPY.", FX, False),
        ('<think><function=set_timer>{"minutes": 25, "label": "pomodoro"}</function></think>\nDone.', TIMER, False),
        ('<!-- <function_calls><invoke name="set_timer"><parameter name="minutes">25</parameter></invoke>'
         '</function_calls> -->\nUse your phone.', TIMER, False),
        # a call described in prose, the delimiters named but no call in them
        ("I would use <|python_tag|> to convert 250 EUR to JPY.", FX, False),
    ],
)
def test_template_call_delimiters_carry_calls(completion, gold, paid):
    assert (correctness(completion, gold) == 3.0) is paid
    assert (calls_exact(completion, gold) == 1.0) is paid


def test_a_python_tag_json_call_is_one_call():
    text = "<|python_tag|>" + FX_JSON + "<|eom_id|>"
    assert count_tool_calls(text) == 1
    assert len(parse_tool_call_text(text)) == 1
    assert count_tool_calls(text + "\n<|python_tag|>" + FX_JSON + "<|eom_id|>") == 2


@pytest.mark.parametrize(
    "text,value",
    [("25", 25), (" 2.5 ", 2.5), ("-3", -3), ("true", True), ("false", False), ('["a", "b"]', ["a", "b"]),
     ('{"k": 1}', {"k": 1}),
     # strings stay strings: words, a JSON string's quotes kept, a zip code JSON does not read as a number, null
     ("Oslo", "Oslo"), ('"quoted"', '"quoted"'), ("02139", "02139"), ("null", "null"), ("", ""), ("1 2", "1 2"),
     ("[unclosed", "[unclosed"), ("tomorrow", "tomorrow")],
)
def test_xml_parameter_values(text, value):
    assert xml_value(text) == value and type(xml_value(text)) is type(value)


_JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8),
                            lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                            max_leaves=8)


@settings(max_examples=200, deadline=None)
@given(_JSON_VALUES)
def test_xml_value_reads_back_every_non_string_json_value(value):
    written = json.dumps(value)
    if isinstance(value, (bool, int, list, dict)):
        assert xml_value(written) == value
    else:  # a string or null is the text as written
        assert xml_value(written) == written


@settings(max_examples=200, deadline=None)
@given(st.from_regex(r"[a-z][a-z_]{0,12}", fullmatch=True),
       st.dictionaries(st.from_regex(r"[a-z]{1,6}", fullmatch=True), st.integers() | st.text(max_size=10), max_size=3),
       st.sampled_from(["", "<|eom_id|>", "<|eot_id|>"]))
def test_a_python_tag_call_reads_as_the_call_written(name, arguments, end):
    call = {"name": name, "parameters": arguments}
    text = "<|python_tag|>" + json.dumps(call, ensure_ascii=False) + end
    assert parse_tool_call_text(text) == [call]
    assert count_tool_calls(text) == 1


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="abc {}\"<>|_:\n", max_size=60))
def test_python_tag_calls_leaves_text_without_the_tag_alone(text):
    assert python_tag_calls(text, lambda body: []) == (text, []) or "<|python_tag|>" in text


# --- a tool call's JSON written into the think is the call, not reasoning ---------------------------------------------
STOCK_PROMPT = ('Available functions (JSON):\n[{"name": "get_stock_price", "parameters": {"type": "dict", "properties": '
                '{"symbol": {"type": "string"}}, "required": ["symbol"]}}]\nReason inside <think>...</think>, then write the '
                "calls inside <tool_call>...</tool_call>, one JSON object per line.\nWhat's NVIDIA's share price right now?")
STOCK_CALL = '{"name": "get_stock_price", "arguments": {"symbol": "NVDA"}}'
STOCK_GOLD = '<tool_call>\n{"name": "get_stock_price", "parameters": {"symbol": "NVDA"}}\n</tool_call>'


def tool_format(think: str) -> float:
    from polyreward.rewards.tool_calls import ToolRLFormat

    completion = f"<think>{think}</think>\n<tool_call>\n{STOCK_CALL}\n</tool_call>"
    return ToolRLFormat(min_content_words=3).evaluate([STOCK_PROMPT], [completion], answer=[STOCK_GOLD]).scores[0]


@pytest.mark.parametrize(
    "think,paid",
    [
        # hacks: the call's JSON as the whole think, in other shapes, twice, or with filler around it
        (STOCK_CALL, False),
        ('{"name": "get_stock_price", "parameters": {"symbol": "NVDA"}}', False),
        ('{"type": "function", "function": {"name": "get_stock_price", "arguments": "{\\"symbol\\": \\"NVDA\\"}"}}', False),
        (STOCK_CALL + "\n" + STOCK_CALL, False),
        ("Okay. " + STOCK_CALL + " Done.", False),
        # genuine: reasoning in words beside the call it plans, or an arguments object (no call) in the reasoning
        ("NVIDIA trades under the ticker NVDA, so one lookup answers it: " + STOCK_CALL, True),
        ('NVIDIA is listed as NVDA; the arguments are {"symbol": "NVDA"} and nothing else is needed.', True),
        ("NVIDIA trades under the ticker NVDA, and the price tool takes only the symbol, so one lookup.", True),
    ],
)
def test_a_call_copied_into_the_think_is_no_reasoning(think, paid):
    assert (tool_format(think) == 1.0) is paid


_WORDS = st.text(alphabet="abc .,:\n", max_size=20)


@settings(max_examples=150, deadline=None)
@given(_WORDS, _WORDS, st.from_regex(r"[a-z][a-z_]{0,10}", fullmatch=True),
       st.dictionaries(st.from_regex(r"[a-z]{1,6}", fullmatch=True), st.integers() | st.text(max_size=8), max_size=3),
       st.sampled_from(["parameters", "arguments"]))
def test_without_json_calls_drops_exactly_the_call(before, after, name, arguments, key):
    from polyreward.verifiers.tool_calls import without_json_calls

    call = json.dumps({"name": name, key: arguments}, ensure_ascii=False)
    assert without_json_calls(before + call + after) == before + " " + after
    # the arguments alone, or an object without a call's keys, are data: kept as written
    data = json.dumps(arguments, ensure_ascii=False)
    assert without_json_calls(before + data + after) == before + data + after
    other = json.dumps({"name": name, "age": 3})
    assert without_json_calls(before + other + after) == before + other + after


# --- calls taken back after the last one are no calls made ----------------------------------------------------------
@pytest.mark.parametrize(
    "completion,paid",
    [
        # genuine: remarks after the call that take nothing back, and a retraction inside the reasoning before it
        (TIMER + "\nI'll tell you when it rings.", True),
        (TIMER + "\nActually, the timer tool also supports a label, which I've set to pomodoro.", True),
        (TIMER + "\nLet me know if you need anything else!", True),
        # a withdrawal word about something else than the calls
        (TIMER + "\nIgnore any warnings in the output.", True),
        (TIMER + "\nNever mind the alarm sound; the timer uses the default one.", True),
        (TIMER + "\nI'll call you back when it rings.", True),
        ("<think>Ten minutes? Wait, no, scratch that: the user said 25.</think>\n" + TIMER, True),
        ('<function=set_timer>{"minutes": 25, "label": "pomodoro"}</function>\nStarting it now.', True),
        # hacks: the call made, then withdrawn, in the reply's last words
        (TIMER + "\nActually, scratch that call, there's no need to run it: just watch the clock.", False),
        (TIMER + "\nOn second thought, ignore that call; use your phone's timer.", False),
        (TIMER + "\nIgnore the call above.", False),
        (TIMER + "\nPlease disregard that call.", False),
        (TIMER + "\nDisregard the previous request.", False),
        (TIMER + "\nJust kidding, I won't call anything.", False),
        ('<function=set_timer>{"minutes": 25, "label": "pomodoro"}</function>\nOops, scratch that, no timer needed.', False),
        ('<function_calls><invoke name="set_timer"><parameter name="minutes">25</parameter><parameter name="label">'
         'pomodoro</parameter></invoke></function_calls>\nOn second thought, never mind the call.', False),
    ],
)
def test_calls_taken_back_after_the_last_one_are_not_made(completion, paid):
    assert (correctness(completion, TIMER) == 3.0) is paid
    assert (calls_exact(completion, TIMER) == 1.0) is paid


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["Scratch that.", "On second thought, ignore that call.", "Ignore the call above."]),
       st.sampled_from(["", "\n", "\n\n"]))
def test_a_retraction_before_the_call_leaves_it_made(retraction, gap):
    from polyreward.rewards.tool_calls import calls_taken_back

    assert calls_taken_back(f"<think>{retraction}</think>{gap}{TIMER}") == ""
    assert calls_taken_back(f"{TIMER}{gap or ' '}{retraction}") != ""


# --- a parameter left out is the schema's declared default -------------------------------------------------------------
FLIGHTS_PROMPT = (
    'Available functions (JSON):\n[{"name": "search_flights", "parameters": {"type": "dict", "properties": {"origin": '
    '{"type": "string"}, "destination": {"type": "string"}, "date": {"type": "string"}, "passengers": {"type": '
    '"integer", "default": 1}, "cabin": {"type": "string", "enum": ["economy", "business"], "default": "economy"}}, '
    '"required": ["origin", "destination", "date"]}}]\nReason inside <think>...</think>, then write the calls inside '
    "<tool_call>...</tool_call>, one JSON object per line.\nFlights from JFK to NRT on 2025-11-02.")
BASE = {"origin": "JFK", "destination": "NRT", "date": "2025-11-02"}


def flights(arguments: dict) -> str:
    return "<tool_call>\n" + json.dumps({"name": "search_flights", "arguments": arguments}) + "\n</tool_call>"


def scored_with_prompt(completion: str, gold: str, prompt: str = FLIGHTS_PROMPT) -> tuple[float, float]:
    tc = ToolRLCorrectness().evaluate([prompt], [completion], answer=[gold]).scores[0]
    otc = OTCToolEfficiency(correctness="calls_exact").evaluate([prompt], [completion], answer=[gold],
                                                                 prompt_id=["g"]).scores[0]
    return tc, otc


@pytest.mark.parametrize(
    "gold,completion,paid",
    [
        # genuine: a default stated where the gold omits it, omitted where the gold states it, both, keys reordered
        (BASE, {**BASE, "cabin": "economy"}, True),
        (BASE, {**BASE, "passengers": 1, "cabin": "economy"}, True),
        ({**BASE, "passengers": 1, "cabin": "economy"}, BASE, True),
        ({**BASE, "cabin": "economy"}, {"cabin": "economy", "date": "2025-11-02", "origin": "JFK", "destination": "NRT"}, True),
        ({**BASE, "passengers": 2}, {**BASE, "passengers": 2, "cabin": "economy"}, True),
        # hacks: a non-default value the user did not ask for, a default where the gold sets another value, a required
        # parameter left out, a parameter the schema does not declare
        (BASE, {**BASE, "cabin": "business"}, False),
        (BASE, {**BASE, "passengers": 2}, False),
        ({**BASE, "passengers": 2}, BASE, False),
        ({**BASE, "cabin": "business"}, {**BASE, "cabin": "economy"}, False),
        (BASE, {"origin": "JFK", "destination": "NRT"}, False),
        (BASE, {**BASE, "flexible_dates": True}, False),
    ],
)
def test_a_parameter_left_out_is_the_schema_default(gold, completion, paid):
    tc, otc = scored_with_prompt(flights(completion), flights(gold).replace('"arguments"', '"parameters"'))
    assert (tc == 3.0) is paid
    assert (otc == 1.0) is paid


def test_a_default_only_described_in_prose_is_not_read():
    prose = FLIGHTS_PROMPT.replace(', "default": "economy"', ', "description": "Optional, default economy"')
    tc, otc = scored_with_prompt(flights({**BASE, "cabin": "economy"}), flights(BASE), prose)
    assert tc < 3.0 and otc == 0.0
    # and without any prompt, the key sets are compared as ToolRL does
    assert correctness(flights({**BASE, "cabin": "economy"}), flights(BASE)) < 3.0


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.from_regex(r"[a-z]{1,6}", fullmatch=True), st.integers(-5, 5) | st.sampled_from(["a", "b"]),
                       max_size=4),
       st.sets(st.from_regex(r"[a-z]{1,6}", fullmatch=True), max_size=4),
       st.sets(st.from_regex(r"[a-z]{1,6}", fullmatch=True), max_size=4))
def test_with_schema_defaults_fills_exactly_the_declared_parameters_the_other_side_states(defaults, gold_keys, given_keys):
    """A declared default is filled in where one side states the parameter and the other leaves it out; a default
    neither side states is not added (stop 56: it would dilute the partial score of a call with wrong values)."""
    from polyreward.rewards.tool_calls import with_schema_defaults

    schema = [{"name": "f", "parameters": {"type": "dict", "properties": {k: {"type": "string", "default": v}
                                                                          for k, v in defaults.items()}}}]
    prompt = "Available functions (JSON):\n" + json.dumps(schema) + "\nCall f."
    gold_parameters, given_parameters = {k: "gold" for k in gold_keys}, {k: "given" for k in given_keys}
    (gold,), (filled,) = with_schema_defaults([{"name": "f", "parameters": gold_parameters}],
                                              [{"name": "f", "parameters": given_parameters}], prompt)
    stated = (gold_keys | given_keys) & defaults.keys()
    assert filled["parameters"] == {**{k: defaults[k] for k in stated}, **given_parameters}
    assert gold["parameters"] == {**{k: defaults[k] for k in stated}, **gold_parameters}
    # another tool's call is left as written
    assert with_schema_defaults([{"name": "g", "parameters": {}}], [{"name": "g", "parameters": {"x": 1}}], prompt) == (
        [{"name": "g", "parameters": {}}], [{"name": "g", "parameters": {"x": 1}}])
