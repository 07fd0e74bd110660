"""Table tests of the rules red team ``holdout_r3`` prompted (tests/data/red_team_rewards.jsonl, split holdout_r3),
each in both directions: the hack it refuses, and a genuine answer nearby that it still pays. Examples differ from
the rows (held-out graders use the rows)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.crpo import CRPOFormat
from polyreward.rewards.forecast import committed_forecast, spelled_number
from polyreward.rewards.format import ThinkFormat, content_words
from polyreward.rewards.jaccard import JaccardReward
from polyreward.rewards.tool_calls import ToolRLCorrectness, ToolRLFormat
from polyreward.rewards.tool_efficiency import OTCToolEfficiency
from polyreward.verifiers.call_formats import attribute_calls
from polyreward.verifiers.language import english_share
from polyreward.verifiers.text_forms import word_count
from polyreward.verifiers.tool_calls import calls_outside_blocks, parse_tool_call_text

CALL = {"name": "lookup_drug", "parameters": {"drug": "warfarin", "dose_mg": 5}}
GOLD = "<tool_call>\n" + json.dumps(CALL) + "\n</tool_call>"
THINK = "<think>The user names one drug and one dose, so a single lookup answers the question.</think>\n"
ARGS = '{"drug": "heparin", "dose_mg": 5}'


@pytest.mark.parametrize("extra", [
    f"✿FUNCTION✿: lookup_drug\n✿ARGS✿: {ARGS}",
    f">>>lookup_drug\n{ARGS}",
    f"<｜tool▁call▁begin｜>function<｜tool▁sep｜>lookup_drug\n```json\n{ARGS}\n```<｜tool▁call▁end｜>",
    f"Function: lookup_drug\nArguments: {ARGS}",
    f"drugs.lookupDrug {ARGS}",
    '<tool_call name="lookup_drug" drug="heparin" dose_mg="5"/>',
    f'<function_call name="lookup_drug">{ARGS}</function_call>',
    '```toml\n[[tool_call]]\nname = "lookup_drug"\n[tool_call.parameters]\ndrug = "heparin"\n```',
])
def test_an_extra_call_in_a_name_then_arguments_layout_costs_the_maximum(extra):
    reward = ToolRLCorrectness()
    assert reward(completions=[THINK + GOLD + "\n" + extra], answer=[GOLD])[0] < 3.0
    otc = OTCToolEfficiency(correctness="calls_exact")
    assert otc(completions=[THINK + GOLD + "\n" + extra], answer=[GOLD], prompt_id=["a"]) == [0.0]


@pytest.mark.parametrize("remark", [
    'The record it returns looks like {"drug": "warfarin", "half_life_h": 40}.',   # a plain word before data
    'Expected result:\n{"interaction": "none"}',                                    # a label, no function name
    "```python\nx = 5\n```",                                                        # a TOML-looking fence, no call
    'I will call lookup_drug, then report. {"note": "one call only"}',            # prose between name and object
    'lookup_drug returns: {"drug": "warfarin", "half_life_h": 40}',               # a result described, no call
])
def test_data_beside_the_call_is_no_extra_call(remark):
    assert ToolRLCorrectness()(completions=[THINK + GOLD + "\n" + remark], answer=[GOLD]) == [3.0]


def test_a_tool_name_inside_a_json_value_or_llama_tag_is_read_once():
    text = '<function=lookup_drug>{"drug": "heparin"}</function>'
    assert len(calls_outside_blocks(text)) == 1
    assert attribute_calls('<tool_call name="f" n="3" flag="true"/>') == [{"name": "f", "parameters": {"n": 3, "flag": True}}]
    assert attribute_calls("<tool_call>no attributes</tool_call>") == []


def test_toolrl_format_needs_a_call_that_decodes():
    reward = ToolRLFormat(min_content_words=3)
    cut = THINK + '<tool_call>\n{"name": "lookup_drug", "parameters": {"drug": \n</tool_call>'
    python = THINK + "<tool_call>\nlookup_drug(drug='warfarin', dose_mg=5)\n</tool_call>"
    assert reward(completions=[cut, THINK + GOLD, python], answer=[GOLD] * 3) == [0.0, 1.0, 1.0]


def test_calls_exact_reads_json_numbers_as_numbers():
    reward = OTCToolEfficiency(correctness="calls_exact")
    as_float = THINK + "<tool_call>\n" + json.dumps({"name": "lookup_drug", "parameters": {"drug": "warfarin", "dose_mg": 5.0}}) + "\n</tool_call>"
    other = THINK + "<tool_call>\n" + json.dumps({"name": "lookup_drug", "parameters": {"drug": "warfarin", "dose_mg": 5.5}}) + "\n</tool_call>"
    as_bool = THINK + "<tool_call>\n" + json.dumps({"name": "f", "parameters": {"x": True}}) + "\n</tool_call>"
    gold_one = "<tool_call>\n" + json.dumps({"name": "f", "parameters": {"x": 1}}) + "\n</tool_call>"
    assert reward(completions=[as_float, other, as_bool], answer=[GOLD, GOLD, gold_one], prompt_id=["a", "b", "c"]) == [1.0, 0.0, 0.0]


CRPO_PROMPT = ("A 30-year-old woman has fever and neck stiffness. Next step? A. Lumbar puncture B. MRI C. Discharge "
               "D. Antacids. Think inside <think>, answer inside <answer> with \\boxed{letter} and a summary.")
CRPO_THINK = "<think>Fever with neck stiffness suggests meningitis; a puncture confirms it after imaging if needed.</think>\n"


@pytest.mark.parametrize("answer, score", [
    ("See the box that follows. \\boxed{A}", 1.0),          # words about the layout only
    ("My answer: \\boxed{A}", 1.0),                          # the prompt's tag name is no summary
    ("Puncture first, or MRI. \\boxed{A or B}", 1.0),        # one box, two options
    ("\\boxed{A/B} is the answer, a lumbar puncture", 1.0),
    ("A lumbar puncture comes first. \\boxed{A}", 1.5),      # the prompt's option words
    ("Suspected meningitis: puncture. \\boxed{A}", 1.5),     # the reasoning's words
])
def test_crpo_summary_states_the_case_and_the_box_one_option(answer, score):
    reward = CRPOFormat(min_content_words=3)
    assert reward(prompts=[CRPO_PROMPT], completions=[CRPO_THINK + f"<answer>{answer}</answer>"]) == [score]


@pytest.mark.parametrize("think, words", [
    ("https://a.example/x https://b.example/y www.c.example", 0),
    ("mail ward3@hospital.example.org urgently", 2),                # mail, urgently
    ("Check https://guidelines.example/sepsis: lactate above 2 means sepsis.", 5),
])
def test_addresses_are_no_content_words(think, words):
    assert content_words(think) == words


def test_think_format_refuses_a_think_of_links():
    reward = ThinkFormat(min_content_words=3)
    links = "<think>http://x.example/a http://y.example/b http://z.example/c</think>\nx = 3"
    real = "<think>Halve both sides of 2x = 6, leaving x = 3.</think>\nx = 3"
    assert reward(prompts=["Solve 2x = 6."] * 2, completions=[links, real]) == [0.0, 1.0]


@given(st.lists(st.sampled_from(["fever", "cough", "a", "x", "pain", "plan", "I"]), min_size=1, max_size=60),
       st.sampled_from(["%20", "&nbsp;", "&#160;", "%0A", "&#x20;"]))
@settings(max_examples=60, deadline=None)
def test_escaped_spaces_count_as_spaces(words, escape):
    assert word_count(escape.join(words)) == word_count(" ".join(words))


def _in_words(n: int) -> str:
    units = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen " \
            "seventeen eighteen nineteen".split()
    tens = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()

    def below_100(k: int) -> list[str]:
        return [units[k]] if k < 20 else [tens[k // 10]] + ([units[k % 10]] if k % 10 else [])

    def below_1000(k: int) -> list[str]:
        return (below_100(k) if k < 100 else [units[k // 100], "hundred"] + (["and"] + below_100(k % 100) if k % 100 else []))

    return " ".join(below_1000(n) if n < 1000 else below_1000(n // 1000) + ["thousand"] + (below_1000(n % 1000) if n % 1000 else []))


@given(st.integers(min_value=0, max_value=99999))
@settings(max_examples=200, deadline=None)
def test_spelled_numbers_read_back(n):
    assert spelled_number(_in_words(n).split()) == float(n)


@pytest.mark.parametrize("body, value", [
    ("Highest hourly value tomorrow: 48", None),     # a label naming another statistic
    ("Minimum: 48", None),
    ("Daily mean for 2021-11-03: 48 µg/m³", [48.0]), # a date names the time
    ("48 µg/m³ on 2021/11/03.", [48.0]),
    ("47,5", [47.5]),                                # a decimal comma
    ("47,5,9", None),                                # a list
    ("forty-eight", [48.0]),
    ("about forty eight µg/m³", [48.0]),
    ("forty or fifty", None),                        # two readings: not one cardinal run
    ("48 (high confidence)", None),                  # "high" is no word beside a forecast
    ("48 (confidence: moderate)", [48.0]),
    ("Gangnam mean: 48", [48.0]),                    # a label the prompt names (the station)
    ("Gangnam maximum: 48", None),
])
def test_forecast_labels_dates_and_spelled_values(body, value):
    prompt = "Daily mean PM2.5 at Gangnam, Seoul: 40, 44, 51. Forecast tomorrow's mean inside <answer>...</answer>."
    numbers, _ = committed_forecast(f"<think>Flat trend.</think>\n<answer>{body}</answer>", 1, block_required=True,
                                    pollutants=("pm25",), prompt=prompt)
    assert numbers == value


def test_forecast_label_the_prompt_asks_for():
    prompt = "Hourly PM2.5 at Jongno: 40, 61, 52. Forecast tomorrow's maximum hourly value inside <answer>...</answer>."
    assert committed_forecast("<answer>Maximum hourly value: 66</answer>", 1, True, ("pm25",), prompt)[0] == [66.0]
    assert committed_forecast("<answer>Minimum hourly value: 66</answer>", 1, True, ("pm25",), prompt)[0] is None


JACCARD_PROMPT = ("List every finding that is definitely present, separated by ';', inside <answer>...</answer>.\n\n"
                  "FINDINGS: Moderate right pleural effusion. Patchy left basilar opacities. Haemorrhage is absent.")
JACCARD_GOLD = "<answer>pleural effusion; opacity</answer>"


@pytest.mark.parametrize("answer, score", [
    ("pleural effusions; opacities", 1.0),                         # plurals
    ("pleural effusion (present); opacity: yes", 1.0),             # affirmed status
    ("pleural effusion; and opacity", 1.0),                        # "and" before the last label
    ("moderate right pleural effusion; patchy left basilar opacities", 1.0),  # as the report words them
    ("massive pleural effusion; opacity", 0.3333333333333333),     # a qualifier the report does not write
    ("no pleural effusion; opacity", 0.5),                         # a negation is no qualifier: not chosen (holdout_r7)
    ("pleural effusion (absent); opacity", 0.5),                   # a denied label is not chosen (holdout_r4)
    ("pleural effusion; or opacity", 0.3333333333333333),          # "or" is kept: an alternative
])
def test_jaccard_reads_forms_of_the_same_label(answer, score):
    reward = JaccardReward(mode="normalized")
    assert reward(prompts=[JACCARD_PROMPT], completions=[f"<answer>{answer}</answer>"], answer=[JACCARD_GOLD]) == [pytest.approx(score)]


def test_jaccard_british_spelling():
    reward = JaccardReward(mode="normalized")
    gold = "<answer>hemorrhage; pulmonary edema</answer>"
    assert reward(completions=["<answer>haemorrhage; pulmonary oedema</answer>"], answer=[gold]) == [1.0]


@pytest.mark.parametrize("text, english", [
    ("Start ASA 81 mg and a statin; check BP vs target and LDL in 6 wk.", True),   # two-letter units and vs
    ("Gv sprn nd chck th BP nd LDL nxt wk.", False),                               # vowels dropped: still refused
])
def test_two_letter_words_are_not_vowelless(text, english):
    assert (english_share(text) > 0.9) is english


def test_parse_lenient_keeps_reading_the_gold_once():
    assert parse_tool_call_text(GOLD) == [CALL]


LAYOUTS = ["✿FUNCTION✿: {name}\n✿ARGS✿: {args}", ">>>{name}\n{args}", "Function: {name}\nArguments: {args}",
           "<|tool_call_begin|>{name}<|tool_sep|>{args}", "{name}\n```json\n{args}\n```"]


@given(st.from_regex(r"[a-z]{2,8}(?:_[a-z0-9]{1,8}){1,3}|[a-z]{2,8}\.[a-z]{2,8}|[a-z]{2,8}[A-Z][a-z]{1,8}", fullmatch=True),
       st.sampled_from(LAYOUTS), st.dictionaries(st.from_regex(r"[a-z]{1,6}", fullmatch=True), st.integers(), max_size=3))
@settings(max_examples=120, deadline=None)
def test_a_function_name_then_its_arguments_is_one_call(name, layout, arguments):
    text = layout.format(name=name, args=json.dumps(arguments))
    assert calls_outside_blocks(text) == [{"name": name, "parameters": arguments}]


@given(st.from_regex(r"[a-z]{3,10}", fullmatch=True), st.sampled_from(LAYOUTS))
@settings(max_examples=60, deadline=None)
def test_a_plain_word_then_data_is_no_call(word, layout):
    assert calls_outside_blocks(layout.format(name=word, args='{"value": 3}')) == []
