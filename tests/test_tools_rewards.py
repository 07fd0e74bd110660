"""ToolRL correctness / format and OTC-PO efficiency: hand-computed tables (r = 6·S/S_max − 3, OTC cos/sin
forms), malformed and adversarial outputs, conversational tool_calls, and real BFCL rows."""

from __future__ import annotations

import json
import math

import pytest

from polyreward.runners.packaged_datasets import load_bfcl
from polyreward.rewards.tool_calls import ToolRLCorrectness, ToolRLFormat, match_score
from polyreward.rewards.tool_efficiency import OTCToolEfficiency, otc_grpo, otc_ppo
from polyreward.verifiers.tool_calls import ToolCallError, count_tool_calls, parse_tool_call_text, reference_calls


def call(name: str, **params) -> str:
    return json.dumps({"name": name, "parameters": params})


def block(*calls: str) -> str:
    return "<think>ok</think>\n<tool_call>\n" + "\n".join(calls) + "\n</tool_call>"


GT = block(call("f", a=1, b=2))  # S_max = 1 + (1 + 2) = 4, so r = 1.5·S − 3

CORRECTNESS = [
    (block(call("f", a=1, b=2)), 3.0),
    (block(call("f", b=2, a=1)), 3.0),  # key order does not matter (dict equality)
    (block(call("f", a=1.0, b=2)), 3.0),  # 1.0 == 1 in Python, as in the source
    (block(call("f", a=1, b=3)), 1.5),  # S = 1 + (1 + 1)
    (block(call("f", a="1", b=2)), 1.5),  # "1" != 1
    (block(call("f", a=1)), 0.75),  # S = 1 + (1/2 + 1)
    (block(call("f", a=1, b=2, c=3)), 2.5),  # S = 1 + (2/3 + 2) = 11/3
    (block(call("g", a=1, b=2)), -3.0),  # wrong name: S = 0
    (block(call("f", a=1, b=2), call("f", a=1, b=2)), 2.25),  # duplicate: names 1/2, S = 3.5
    (block(*[call("f", a=1, b=2)] * 2000), 1.5 * (3 + 1 / 2000) - 3),  # thousands of calls
    (block('{"name": "f", "parameters": {"a": 1, "b": 2}'), -3.0),  # malformed JSON
    (block('{"parameters": {"a": 1}}'), -3.0),  # no name
    (block('[{"name": "f", "parameters": {"a": 1, "b": 2}}]'), -3.0),  # a JSON list is not ToolRL's layout
    (block(call("f", a=1, b=2), "", call("f", a=1, b=2)), -3.0),  # blank line inside the block
    ("<think>ok</think>\n<tool_call>\n\n" + call("f", a=1, b=2) + "\n\n</tool_call>", 3.0),  # outer blank lines are stripped
    ("<think>ok</think> I would call f(a=1, b=2).", -3.0),  # missing tags
    ("<tool_call>\n" + call("f", a=1, b=2), -3.0),  # unclosed block
    ("<|im_start|>assistant\n" + block(call("f", a=1, b=2)) + "<|im_end|>", 3.0),  # chat-template marker
    ("", -3.0),
]


@pytest.mark.parametrize("completion,expected", CORRECTNESS)
def test_correctness_table(completion, expected):
    out = ToolRLCorrectness(parse="toolrl").evaluate([None], [completion], answer=[GT])
    assert out.scores[0] == pytest.approx(expected)


# The default reading (parse: lenient) differs from rlla.py's only where rlla.py refuses a layout a runner reads: the
# call given as a one-element JSON list is the call; a blank line between two calls splits nothing (still a duplicate).
LENIENT_DIFFERS = {CORRECTNESS[12][0]: 3.0, CORRECTNESS[13][0]: 2.25}


@pytest.mark.parametrize("completion,expected", CORRECTNESS)
def test_the_default_reading_scores_the_table_as_rlla_but_the_layouts_it_refuses(completion, expected):
    out = ToolRLCorrectness().evaluate([None], [completion], answer=[GT])
    assert out.scores[0] == pytest.approx(LENIENT_DIFFERS.get(completion, expected))


@pytest.mark.parametrize(
    "gold,completion,expected",
    [
        ("<response>No tool is needed.</response>", block(call("f")), 0.0),  # reference without <tool_call>
        ([], block(call("f")), 0.0),
        (block(call("f", a=1), call("g", b=2)), block(call("g", b=2), call("f", a=1)), 3.0),  # order: S = 1 + 2 + 2 = S_max
        (block(call("f")), block(call("f", x=1)), 0.0),  # no gold params: best score 0 is not a match; S = 1 of 2
        ([{"name": "f", "parameters": {"a": 1, "b": 2}}], block(call("f", a=1, b=2)), 3.0),  # list reference
        ('[{"f": {"a": 1, "b": 2}}]', block(call("f", a=1, b=2)), 3.0),  # BFCL-style JSON reference
    ],
)
def test_reference_shapes(gold, completion, expected):
    assert ToolRLCorrectness()(completions=[completion], answer=[gold]) == [pytest.approx(expected)]


def test_malformed_reference_is_nan_with_reason():
    out = ToolRLCorrectness().evaluate([None, None], [GT, GT], answer=["<tool_call>\n{bad\n</tool_call>", None])
    assert math.isnan(out.scores[0]) and "reference is malformed" in out.reasons[0]
    assert out.scores[1] is None


def test_conversational_tool_calls():
    gold_args = {"a": 1, "b": 2}
    ok = [{"role": "assistant", "content": "<think>ok</think>", "tool_calls": [{"type": "function", "function": {"name": "f", "arguments": json.dumps(gold_args)}}]}]
    dict_args = [{"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "f", "arguments": gold_args}}]}]
    bad = [{"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "f", "arguments": "{a: 1"}}]}]
    turns = [ok[0], {"role": "tool", "content": "42"}, {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "g", "arguments": "{}"}}]}]
    out = ToolRLCorrectness().evaluate([None] * 5, [ok, dict_args, bad, turns, json.dumps(ok)], answer=[GT] * 5)
    assert out.scores == [3.0, 3.0, -3.0, 3.0, 3.0]  # first assistant turn with tool_calls; JSON text of messages too
    assert "invalid JSON" in out.reasons[2]
    assert ToolRLFormat()(completions=[ok], answer=[GT]) == [1.0]  # rendered as Qwen's template does
    assert count_tool_calls(turns) == 2


def test_lenient_parse_and_max_reward():
    lenient = ToolRLCorrectness(parse="lenient")
    pretty = "<think>ok</think>\n<tool_call>\n" + json.dumps({"name": "f", "arguments": {"a": 1, "b": 2}}, indent=2) + "\n</tool_call>"
    two_blocks = "<tool_call>" + call("f", a=1, b=2) + "</tool_call><tool_call>" + call("f", a=1, b=2) + "</tool_call>"
    bare_list = json.dumps([{"name": "f", "parameters": {"a": 1, "b": 2}}])
    assert lenient(completions=[pretty, two_blocks, bare_list, "no calls"], answer=[GT] * 4) == [3.0, 2.25, 3.0, -3.0]
    assert ToolRLCorrectness(parse="toolrl")(completions=[pretty], answer=[GT]) == [-3.0]  # exact mode: one JSON per line
    assert ToolRLCorrectness()(completions=[pretty], answer=[GT]) == [3.0]  # the default reads it
    rm_rf = "<tool_call>\n" + json.dumps({"name": "rm_rf", "arguments": {"path": "/"}}) + "\n</tool_call>"
    first_then_extra = "<think>ok</think>\n" + GT.split("\n", 1)[1] + "\n" + rm_rf
    # read_blocks: first reads the first block in either parse (rlla.py's reading); all counts the extra call
    assert ToolRLCorrectness(parse="lenient", read_blocks="first")(completions=[first_then_extra], answer=[GT]) == [3.0]
    assert ToolRLCorrectness(parse="toolrl", read_blocks="first")(completions=[first_then_extra], answer=[GT]) == [3.0]
    assert ToolRLCorrectness()(completions=[first_then_extra], answer=[GT]) == [pytest.approx(1.5 * 3.5 - 3)]
    small = ToolRLCorrectness(max_reward=1)
    assert small.score_range == (-1.0, 1.0)
    assert small(completions=[block(call("f", a=1, b=3))], answer=[GT]) == [pytest.approx(2 * 3 / 4 - 1)]


def test_match_score():
    assert match_score([], []) == 1.0
    assert match_score(["a"], []) == 0.0
    assert match_score(["a", "a", "b"], ["a", "b", "b"]) == pytest.approx(2 / 4)
    assert match_score([[1], {"x": 1}], [[1], {"x": 1}]) == 1.0  # equal lists: no counting needed
    with pytest.raises(ToolCallError):  # rlla.py's Counter raises on unhashable names: the minimum reward
        match_score([[1], {"x": 1}], [[1]])


FORMAT = [
    # (reference, completion, expected)
    (GT, "<think>a</think>\n<tool_call>\n{}\n</tool_call>", 1.0),
    (GT, "<think>a</think>\n<tool_call>\n{}\n</tool_call>\n", 1.0),  # `$` also matches before a final newline
    (GT, "<think>a</think><tool_call>\n{}\n</tool_call>", 0.0),  # missing newline
    (GT, " <think>a</think>\n<tool_call>\n{}\n</tool_call>", 1.0),  # rlla.py strips the reply before matching
    (GT, "\n<think>a</think>\n<tool_call>\n{}\n</tool_call>\n\n  ", 1.0),  # outer blanks stripped (no marker)
    (GT, "<think>a</think>\n<tool_call>\n{}\n</tool_call><|im_end|>\n<|endoftext|>", 1.0),  # cut at <|im_end|>
    (GT, "x <think>a</think>\n<tool_call>\n{}\n</tool_call>", 0.0),  # text before <think>
    (GT, "<think>a</think><think>b</think>\n<tool_call>\n{}\n</tool_call>", 1.0),  # <think> count is not checked
    ("<response>hi</response>", "<think>a</think>\n\n<response>hello</response>", 0.0),  # exactly one newline
    ("<response>hi</response>", "<think>a</think>\n<response>hello</response>\n", 1.0),  # `$` before a final newline
    (GT, "<think>a</think>\n<tool_call>\n{}\n</tool_call>\n<tool_call>\n{}\n</tool_call>", 0.0),  # tag twice
    (GT, "<think>a</think>\n<tool_call>\n{}\n</tool_call>\n<response>x</response>", 0.0),  # response not expected
    (GT, "<think>a</think>", 0.0),
    ("<response>hi</response>", "<think>a</think>\n<response>hello</response>", 1.0),
    ("<response>hi</response>", "<think>a</think>\n<response>a</response><response>b</response>", 0.0),
    (GT + "\n<response>done</response>", "<think>a</think>\n<tool_call>\n{}\n</tool_call>\n<response>ok</response>", 1.0),
    (GT + "\n<response>done</response>", "<think>a</think>\n<tool_call>\n{}\n</tool_call>", 0.0),
    ("", "<think>only thoughts</think>", 1.0),  # reference with neither block
    ("", "<think>only thoughts</think> and more", 0.0),
    ([{"name": "f", "parameters": {}}], "<think>a</think>\n<tool_call>\n{}\n</tool_call>", 1.0),  # list reference = tool only
    (GT, "<|im_start|>assistant\n<think>a</think>\n<tool_call>\n{}\n</tool_call><|im_end|>", 1.0),
]


@pytest.mark.parametrize("reference,completion,expected", FORMAT)
def test_format_table(reference, completion, expected):
    assert ToolRLFormat()(completions=[completion], answer=[reference]) == [expected]


@pytest.mark.parametrize(
    "m,expected",
    [(0, 1.0), (1, math.cos(math.pi / 3)), (2, math.cos(2 * math.pi / 5)), (5000, math.cos(5000 * math.pi / 10001))],
)
def test_otc_ppo(m, expected):
    assert otc_ppo(m) == pytest.approx(expected)


@pytest.mark.parametrize(
    "m,n,expected",
    [
        (0, 0, 1.0),
        (2, 0, math.cos(2 * math.pi / 5)),
        (2, 2, 1.0),
        (1, 2, math.sin(math.pi / 3)),  # f = 4/3, sin(f·π/4)
        (4, 2, math.sin(2 * math.pi / 3)),  # f = 8/3: over-use mirrors under-use
        (0, 2, 0.0),
        (10_000, 1, math.sin(2 * 10_000 / 10_001 * math.pi / 2)),
    ],
)
def test_otc_grpo(m, n, expected):
    assert otc_grpo(m, n) == pytest.approx(expected, abs=1e-12)


def _calls(m: int) -> str:
    return "".join(f"<tool_call>{call('search', q=i)}</tool_call>" for i in range(m))


def test_otc_grpo_batch():
    completions = [_calls(1) + "<answer>Paris</answer>", _calls(2) + "<answer>paris.</answer>", _calls(3) + "<answer>The Paris</answer>",
                   "<answer>London</answer>", _calls(4) + "<answer>Rome</answer>", "<answer>Rome</answer>"]
    reward = OTCToolEfficiency()
    out = reward.evaluate([None] * 6, completions, answer=["Paris"] * 4 + [["Rome", "Roma"]] * 2, prompt_id=["q1"] * 4 + ["q2"] * 2)
    # q1: optimum n = 1; m = 2 -> f = 4/3 -> sin(2π/3); m = 3 -> f = 3/2 -> sin(3π/4); wrong -> 0
    # q2: optimum n = 0 (the rollout without calls): m = 4 -> cos(4π/9); m = 0 -> 1
    assert out.scores == pytest.approx([1.0, math.sin(2 * math.pi / 3), math.sin(3 * math.pi / 4), 0.0, math.cos(4 * math.pi / 9), 1.0])
    assert out.details["tool_calls"] == [1.0, 2.0, 3.0, 0.0, 4.0, 0.0]
    assert "group optimum 1" in out.reasons[1]


def test_otc_no_correct_fallback_and_column_correctness():
    completions = [_calls(2), _calls(1)]
    kwargs = {"correctness": "column", "correct_column": "correct"}
    cos = OTCToolEfficiency(**kwargs).evaluate([None] * 2, completions, correct=[0.5, "0.5"], prompt_id=["q", "q"])
    assert cos.scores == pytest.approx([0.5 * math.cos(2 * math.pi / 5), 0.5 * math.cos(math.pi / 3)])
    one = OTCToolEfficiency(no_correct="one", **kwargs).evaluate([None] * 2, completions, correct=[0.5, True], prompt_id=["q", "r"])
    assert one.scores == pytest.approx([0.5, 1.0])
    bad = OTCToolEfficiency(**kwargs).evaluate([None] * 3, ["", "", ""], correct=["yes", 1.5, None], prompt_id=["q"] * 3)
    assert bad.scores == [None, None, None] and "not a number" in bad.reasons[0] and "outside" in bad.reasons[1]


def test_otc_ppo_form_and_running_min():
    ppo = OTCToolEfficiency(form="ppo", alpha=2.0)
    assert ppo.columns == ("answer",)
    assert ppo(completions=[_calls(1) + "<answer>x</answer>"], answer=["x"]) == [pytest.approx(2 * 0.5)]
    running = OTCToolEfficiency(running_min=True)
    running.evaluate([None], [_calls(2) + "\nx"], answer=["x"], prompt_id=["q"])
    later = running.evaluate([None], [_calls(3) + "\nx"], answer=["x"], prompt_id=["q"])
    assert later.scores == [pytest.approx(math.sin(2 * 2 * 3 / 5 * math.pi / 4))]  # n stays 2 from the first call


def test_otc_calls_exact_and_thousands_of_calls():
    gold = block(call("f", a=1))
    reward = OTCToolEfficiency(correctness="calls_exact")
    many = block(*[call("f", a=1)] * 3000)
    out = reward.evaluate([None] * 3, [gold, many, "<tool_call>{oops</tool_call>"], answer=[gold] * 3, prompt_id=["q"] * 3)
    assert out.scores == [1.0, 0.0, 0.0]
    assert out.details["tool_calls"] == [1.0, 3000.0, 1.0]  # a block that does not parse counts as one attempt
    assert "malformed tool call" in out.reasons[2]


def test_count_tool_calls_extra_tags():
    text = "<search>a</search><search>b</search><code>1+1</code>" + _calls(2)
    assert count_tool_calls(text) == 2
    assert count_tool_calls(text, ("search", "code")) == 5


@pytest.mark.parametrize(
    "kwargs,key",
    [({"form": "dpo"}, "form"), ({"c": 0}, "c"), ({"alpha": -1}, "alpha"), ({"correctness": "judge"}, "correctness"),
     ({"no_correct": "zero"}, "no_correct"), ({"group_column": ""}, "group_column"), ({"running_min": "yes"}, "running_min"),
     ({"count_tags": "search"}, "count_tags"), ({"count_tags": ["a b"]}, "count_tags")],
)
def test_otc_bad_params(kwargs, key):
    with pytest.raises(ValueError, match=key):
        OTCToolEfficiency(**kwargs)


@pytest.mark.parametrize("kwargs,key", [({"max_reward": 0}, "max_reward"), ({"max_reward": 4}, "max_reward"), ({"parse": "regex"}, "parse"), ({"answer_column": ""}, "answer_column")])
def test_toolrl_bad_params(kwargs, key):
    with pytest.raises(ValueError, match=key):
        ToolRLCorrectness(**kwargs)


def test_otc_missing_group_column_is_a_config_error():
    with pytest.raises(KeyError, match="prompt_id"):
        OTCToolEfficiency().evaluate([None], ["x"], answer=["x"])


def test_parser_errors_name_the_problem():
    with pytest.raises(ToolCallError, match="invalid JSON"):
        parse_tool_call_text("<tool_call>{nope}</tool_call>")
    with pytest.raises(ToolCallError, match="closing"):
        parse_tool_call_text("<tool_call>{}")
    with pytest.raises(ToolCallError, match="parameters"):
        parse_tool_call_text('<tool_call>{"name": "f", "parameters": [1]}</tool_call>')
    with pytest.raises(ToolCallError, match="nested too deeply"):
        parse_tool_call_text("<tool_call>" + "[" * 100_000 + "</tool_call>")
    assert parse_tool_call_text("plain text") == []
    assert reference_calls("no calls here") is None


@pytest.mark.parametrize("category", ["simple_python", "multiple", "parallel", "parallel_multiple", "live_simple"])
def test_real_bfcl_gold_scores_max(category):
    """Real BFCL rows: the gold calls written in ToolRL's layout score 3 and 1; a dropped argument scores less."""
    rows = load_bfcl(category, limit=40)
    assert rows and all(r["prompt"][0]["role"] == "system" for r in rows)
    gold = [r["answer"].replace("<tool_call>", "<think>x</think>\n<tool_call>", 1) for r in rows]
    answers = [r["answer"] for r in rows]
    assert ToolRLCorrectness()(completions=gold, answer=answers) == [3.0] * len(rows)
    assert ToolRLFormat()(completions=gold, answer=answers) == [1.0] * len(rows)
    for r in rows:
        calls = reference_calls(r["answer"])
        if calls[0]["parameters"]:
            dropped = json.loads(json.dumps(calls))
            dropped[0]["parameters"].pop(sorted(dropped[0]["parameters"])[0])
            text = block(*[json.dumps(c) for c in dropped])
            assert -3.0 <= ToolRLCorrectness()(completions=[text], answer=[r["answer"]])[0] < 3.0


# red team holdout_r1: Llama 3.1's <function=name>{...}</function> is a call, so one beside the gold call is extra
_GOLD_CALL = '<tool_call>\n{"name": "area", "parameters": {"base": 10, "height": 5}}\n</tool_call>'


@pytest.mark.parametrize(
    "extra,expected",
    [
        ('\n<function=rm_rf>{"path": "/"}</function>', False),
        ('\n<FUNCTION=rm_rf>{"path": "/"}</function>', False),
        ("\n<function=rm_rf></function>", False),  # no arguments: still an attempted call
        ("\nI will call the function now.", True),
    ],
)
def test_llama_function_tag_is_an_extra_call(extra, expected):
    reward = ToolRLCorrectness(read_blocks="all")
    score = reward(completions=["<think>Base and height are given.</think>\n" + _GOLD_CALL + extra], answer=[_GOLD_CALL])[0]
    assert (score == 3.0) is expected


def test_llama_function_tag_counts_and_duplicate_keys_refused():
    assert count_tool_calls(_GOLD_CALL + '\n<function=rm_rf>{"path": "/"}</function>') == 2
    with pytest.raises(ToolCallError):
        parse_tool_call_text(_GOLD_CALL + '\n<function=area>{"base": 1, "base": 10}</function>')


# red team holdout_r8: a call object with two argument sets ('parameters' and 'arguments' that differ) is two calls:
# ToolRL's runner reads one key, an OpenAI / Hermes runner the other
@pytest.mark.parametrize(
    "obj,expected",
    [
        ({"name": "f", "parameters": {"a": 1, "b": 2}}, 3.0),  # genuine: one argument set
        ({"name": "f", "parameters": {"a": 1, "b": 2}, "arguments": {"a": 1, "b": 2}}, 3.0),  # the same set twice
        ({"name": "f", "parameters": {"a": 1, "b": 2}, "arguments": json.dumps({"b": 2, "a": 1})}, 3.0),  # as a string
        ({"name": "f", "parameters": {"a": 1, "b": 2}, "arguments": {"a": 1, "b": 3}}, None),  # hack: another set
        ({"name": "f", "parameters": {"a": 1, "b": 2}, "arguments": {}}, None),  # a runner reading 'arguments' runs f()
    ],
)
def test_two_argument_sets_are_two_calls(obj, expected):
    for parse in ("toolrl", "lenient"):
        score = ToolRLCorrectness(parse=parse)(completions=[block(json.dumps(obj))], answer=[GT])[0]
        assert score == 3.0 if expected == 3.0 else score < 3.0
