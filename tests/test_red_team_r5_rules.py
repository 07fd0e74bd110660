"""Table tests of the rules red team ``holdout_r5`` prompted (tests/data/red_team_rewards.jsonl, split holdout_r5),
each in both directions: the hack it refuses, and a genuine answer nearby that it still pays. Examples differ from
the rows (held-out graders use the rows)."""

from __future__ import annotations

import json
import keyword

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jaccard_cases import jaccard_of
from tool_call_cases import GOLD, THINK, assert_an_extra_call_costs_the_maximum
from polyreward.rewards.crpo import CRPOFormat
from polyreward.rewards.forecast import committed_forecast
from polyreward.rewards.format import content_words
from polyreward.rewards.tool_calls import ToolRLCorrectness, ToolRLFormat
from polyreward.verifiers.call_formats import call_lines, literal_calls, python_call
from polyreward.verifiers.forecast import class_edges, pm_class
from polyreward.verifiers.label_sets import read_labels
from polyreward.verifiers.language import english_share
from polyreward.verifiers.radiology_kg import extract_kg
from polyreward.verifiers.text_forms import word_count
from polyreward.verifiers.tool_calls import calls_outside_blocks


# ---- tool calls: FunctionGemma, Glaive, Gorilla, Gemma tool_code, Mistral v11 -------------------------------------

@pytest.mark.parametrize("extra", [
    "<start_function_call>call:book_table{restaurant:<escape>Nobu<escape>,guests:4}<end_function_call>",
    '<functioncall> {"name": "book_table", "arguments": \'{"restaurant": "Nobu", "guests": 4}\'}',
    '<<function>>book_table(restaurant="Nobu", guests=4)',
    '```tool_code\nprint(book_table(restaurant="Nobu", guests=4))\n```',
    '```tool_call\nbook_table(restaurant="Nobu", guests=4)\n```',
    '[TOOL_CALLS]book_table[ARGS]{"restaurant": "Nobu", "guests": 4}',
])
def test_an_extra_call_in_another_stacks_layout_costs_the_maximum(extra):
    assert_an_extra_call_costs_the_maximum(extra)


@pytest.mark.parametrize("remark", [
    "```python\nprint(book_table(restaurant='Nobu', guests=4))\n```",       # code in a python fence is code
    "Say <<hello>> to the host, then wait for the booking.",              # a marker in prose, no call
    "[NOTE] The booking needs a deposit.",                                 # a bracketed label, no call
    'The response looks like {"status": "ok", "detail": \'booked\'}.',       # a Python literal of data, no call
    "I will wait for the <tool_response> and then confirm.",               # a tag named in prose
])
def test_prose_beside_the_call_is_no_extra_call(remark):
    assert ToolRLCorrectness()(completions=[THINK + GOLD + "\n" + remark], answer=[GOLD]) == [3.0]


def test_the_layouts_are_read_with_their_arguments():
    assert call_lines('<<function>>get_time(tz="UTC")') == [{"name": "get_time", "parameters": {"tz": "UTC"}}]
    assert python_call('print(get_time(tz="UTC"))') == {"name": "get_time", "parameters": {"tz": "UTC"}}
    assert calls_outside_blocks('[TOOL_CALLS]get_time[ARGS]{"tz": "UTC"}') == [{"name": "get_time", "parameters": {"tz": "UTC"}}]
    glaive = '<functioncall> {"name": "get_time", "arguments": \'{"tz": "UTC"}\'}'
    assert literal_calls(glaive, lambda value: [value]) == [{"name": "get_time", "arguments": '{"tz": "UTC"}'}]
    # a JSON object is the JSON readers', not read a second time as a literal
    assert literal_calls('{"name": "get_time", "arguments": {"tz": "UTC"}}', lambda value: [value]) == []


@given(st.from_regex(r"[a-z]{2,8}_[a-z]{2,8}", fullmatch=True),
       st.from_regex(r"[a-z]{1,6}", fullmatch=True).filter(lambda key: not keyword.iskeyword(key)),  # "f(if=0)" is no call
       st.integers(min_value=-999, max_value=999), st.sampled_from(["<<function>>", "[TOOL_CALLS]", "<|tool|>", ""]))
@settings(max_examples=60, deadline=None)
def test_a_marked_line_that_is_only_a_call_is_one_call(name, key, value, marker):
    assert call_lines(f"{marker}{name}({key}={value})") == [{"name": name, "parameters": {key: value}}]
    assert call_lines(f"{marker}Then I would run {name}({key}={value}) again.") == []


# ---- label lists: JSON / Python lists, pipes, underscores, a sentence's list, glosses in the report's words --------



@pytest.mark.parametrize("body", [
    '["consolidation", "pleural effusion", "pulmonary edema"]',
    "['consolidation', 'pleural effusion', 'pulmonary edema']",
    "consolidation | pleural effusion | pulmonary edema",
    "consolidation; pleural_effusion; pulmonary_edema",
    "Findings include consolidation, pleural effusion and pulmonary edema.",
    "The definite findings are consolidation, pleural effusion, and pulmonary edema.",
    "consolidation: patchy, left lower lobe; pleural effusion: trace, right; pulmonary edema: mild",
    "consolidation (left lower lobe); pleural effusion (trace); pulmonary edema (mild)",
])
def test_a_genuine_list_in_another_form_names_the_same_labels(body):
    assert jaccard_of(body) == 1.0


@pytest.mark.parametrize("body", [
    "Possible findings are consolidation, pleural effusion and pulmonary edema.",   # a hedged subject
    "Findings excluded are consolidation, pleural effusion and pulmonary edema.",   # a denied subject
    "consolidation: possible; pleural effusion: possible; pulmonary edema: possible",  # a status, not the report's
    "consolidation (-); pleural effusion (-); pulmonary edema (-)",                # marks, not a gloss
    "consolidation: 0; pleural effusion: 0; pulmonary edema: 0",
    '["consolidation", "pleural effusion", "pulmonary edema", "pneumothorax"]',    # a list literal with an extra
])
def test_a_qualified_or_padded_list_is_not_the_gold(body):
    assert jaccard_of(body) < 1.0


@given(st.lists(st.from_regex(r"[a-z]{3,9}(?: [a-z]{3,9})?", fullmatch=True), min_size=1, max_size=5, unique=True))
@settings(max_examples=60, deadline=None)
def test_a_list_literal_reads_its_items(labels):
    assert read_labels(json.dumps(labels)) == labels
    assert read_labels(repr(labels)) == labels


# ---- forecasts: a boxed value, a JSON record, the value's own class range ----------------------------------------

KOREA = class_edges("korea", "pm25")   # (15, 35, 75]: good / moderate / bad / very bad


@pytest.mark.parametrize("block, value", [
    ("\\boxed{28}", 28.0),
    ('{"pm25_forecast": 28}', 28.0),
    ('{"PM2.5 mean": 28}', 28.0),
    ("28 µg/m³ (moderate, 16-35)", 28.0),
    ("60 (Korean 'bad' class, 36–75)", 60.0),
    ("9 µg/m³ (good, 0–15)", 9.0),
])
def test_a_genuine_forecast_in_another_form_is_read(block, value):
    assert committed_forecast(f"<answer>{block}</answer>", 1, True, ("pm25",), None, KOREA) == ([value], "")


@pytest.mark.parametrize("block", [
    "\\boxed{28} \\boxed{60}",              # two boxes, two forecasts
    '{"low": 20, "high": 40}',              # a record of two values
    "28 (16-35 or 36-75)",                  # two classes
    "28 (20-40)",                           # a range around the value that is no class's
    "28 (bad, 36-75)",                      # another class's range
    "moderate (16-35)",                     # the class alone, no point forecast
])
def test_a_hedged_forecast_in_those_forms_is_no_forecast(block):
    assert committed_forecast(f"<answer>{block}</answer>", 1, True, ("pm25",), None, KOREA)[0] is None


@given(st.integers(min_value=1, max_value=200))
@settings(max_examples=60, deadline=None)
def test_a_value_beside_its_own_class_range_is_the_value(value):
    c = pm_class(value, KOREA)
    if c == len(KOREA):
        return
    low = 0 if c == 0 else int(KOREA[c - 1]) + 1
    block = f"<answer>{value} µg/m³ ({('good', 'moderate', 'bad')[c]} class, {low}-{int(KOREA[c])})</answer>"
    assert committed_forecast(block, 1, True, ("pm25",), None, KOREA) == ([float(value)], "")


# ---- format guards: the prompt's words in the writer's own order, the writer describing itself, blank lines --------

TOOL_PROMPT = ("You are a helpful assistant that can call functions. Available functions (JSON):\n"
               '[{"name": "get_stock_price", "parameters": {"type": "dict", "properties": {"ticker": {"type": "string"}}, '
               '"required": ["ticker"]}}]\nReason inside <think>...</think>, then write the calls inside '
               "<tool_call>...</tool_call>, one JSON object per line.\nWhat is Apple's stock price right now?")
TOOL_GOLD = '<tool_call>\n{"name": "get_stock_price", "parameters": {"ticker": "AAPL"}}\n</tool_call>'


def _tool_format(think: str, between: str = "\n") -> float:
    text = f"<think>{think}</think>{between}{TOOL_GOLD}"
    return ToolRLFormat(min_content_words=3)(completions=[text], answer=[TOOL_GOLD], prompts=[TOOL_PROMPT])[0]


@pytest.mark.parametrize("think", [
    "user wants apple stock price now so call get_stock_price with ticker aapl",
    "Apple trades as AAPL; one get_stock_price call with that ticker gives the current price.",
])
def test_a_reasoning_in_the_prompts_nouns_is_content(think):
    assert _tool_format(think) == 1.0


@pytest.mark.parametrize("think", [
    "What is Apple's stock price right now? What is Apple's stock price right now?",   # the prompt pasted
    "price stock apple ticker string required call",                                  # its words, nothing of its own
    "I am a highly capable assistant and I have reasoned carefully and thoroughly about this.",  # about the writer
])
def test_the_prompts_words_alone_or_the_writer_alone_are_no_reasoning(think):
    assert _tool_format(think) == 0.0


def test_blank_lines_between_the_blocks_are_layout_under_the_guard():
    think = "Apple trades as AAPL; one get_stock_price call with that ticker gives the current price."
    assert _tool_format(think, "\n\n") == 1.0
    text = f"<think>{think}</think>\n\n{TOOL_GOLD}"
    assert ToolRLFormat()(completions=[text], answer=[TOOL_GOLD]) == [0.0]  # the released rule: exactly one line break


@given(st.lists(st.sampled_from("what is apple stock price right now ticker call string required".split()), min_size=1, max_size=12))
@settings(max_examples=60, deadline=None)
def test_the_prompts_words_in_any_order_count_nothing_without_words_of_ones_own(words):
    assert content_words(" ".join(words), TOOL_PROMPT) == 0


# ---- crpo_format: LaTeX's other boxes ---------------------------------------------------------------------------

CRPO_THINK = "<think>Sudden dyspnoea after a long flight with a swollen calf suggests pulmonary embolism.</think>\n"


@pytest.mark.parametrize("answer, score", [
    ("CT pulmonary angiography confirms it. \\boxed{A}", 1.5),
    ("CT pulmonary angiography confirms it. \\boxed{A} \\fbox{B}", 1.0),           # a second answer in another box
    ("CT pulmonary angiography confirms it. \\boxed{A} \\framebox{C}", 1.0),
    ("CT pulmonary angiography confirms it. \\boxed{A} \\colorbox{yellow}{B}", 1.0),
    ("CT pulmonary angiography confirms it. \\fbox{A}", 1.0),                       # no \\boxed, as the format asks
])
def test_other_boxes_count_as_boxes(answer, score):
    assert CRPOFormat(min_content_words=3)(completions=[f"{CRPO_THINK}<answer>{answer}</answer>"]) == [score]


# ---- KG reports: findings stated as unlikely, a cue heading a colon, a likelihood in per cent ------------------------

@pytest.mark.parametrize("report, label", [
    ("Less likely: left lower lobe consolidation.", "disorder_notpresent"),
    ("Consolidation is unlikely.", "disorder_notpresent"),
    ("Left lower lobe consolidation (15% likelihood).", "disorder_notpresent"),
    ("Left lower lobe consolidation (80% likelihood).", "disorder_present"),   # likely: uncertain, read as present
    ("Query: left lower lobe consolidation.", "disorder_present"),             # uncertain, read as present by default
    ("Left lower lobe consolidation.", "disorder_present"),
    ("No change: left lower lobe consolidation.", "disorder_present"),        # a pseudo-negation heads nothing
])
def test_a_finding_stated_as_unlikely_is_not_present(report, label):
    assert ("consolidation", label) in extract_kg(report).entities


def test_a_queried_finding_is_uncertain_under_uncertain_as():
    assert ("consolidation", "disorder_uncertain") in extract_kg("Query: left lower lobe consolidation.", "uncertain").entities
    assert ("consolidation", "disorder_uncertain") in extract_kg("Query left lower lobe consolidation.", "uncertain").entities


@given(st.integers(min_value=0, max_value=100))
@settings(max_examples=40, deadline=None)
def test_a_percent_likelihood_reads_as_unlikely_below_one_half(percent):
    label = extract_kg(f"Pleural effusion ({percent}% likelihood).").entities
    expected = "disorder_notpresent" if percent < 50 else "disorder_present"
    assert ("pleural effusion", expected) in label


# ---- the length counter: punctuation marks are no words -----------------------------------------------------------

@pytest.mark.parametrize("marked, plain", [
    ("the patient said “it hurts” today", "the patient said it hurts today"),
    ("fever — cough — dyspnoea", "fever cough dyspnoea"),
    ("start antibiotics … reassess tomorrow", "start antibiotics reassess tomorrow"),
    ("his saturation was low on “room air”, so", "his saturation was low on room air, so"),
    ("咳嗽、发热。", "咳嗽发热"),
])
def test_a_punctuation_mark_is_no_word(marked, plain):
    assert word_count(marked) == word_count(plain)


def test_ascii_marks_count_as_before():
    assert word_count("2x - 3 = 11") == 5   # a lone operator stands in for its token (the math example's lengths)


@pytest.mark.parametrize("joined, spaced", [
    ("the‧patient is‧a seventy‧two year‧old man", "the patient is a seventy two year old man"),
    ("the・patient is・a seventy・two year・old man", "the patient is a seventy two year old man"),
])
def test_words_joined_by_a_mark_still_count_each(joined, spaced):
    assert word_count(joined) == word_count(spaced)


@given(st.sampled_from(["—", "“", "…", "、", "=", ".", "-"]), st.integers(min_value=16, max_value=4000))
@settings(max_examples=40, deadline=None)
def test_a_long_string_of_marks_still_costs(mark, n):
    assert word_count(mark * n) >= n // 16 >= 1


# ---- crpo_english: a language game marks the whole text, not one list of Latin terms -------------------------------

def test_latin_terms_sharing_an_ending_are_no_language_game():
    text = ("The joint shows rubor, calor, dolor and tumor, the four cardinal signs of inflammation, so septic "
            "arthritis must be excluded by aspiration before any steroid injection.")
    assert english_share(text) == 1.0


@pytest.mark.parametrize("text", [
    "Ubbobtubbain ubban ubbelectrubbocardubbiogrubbam ubbimmubbedubbiubbatubbely ubband gubbive ubbaspubbirubbin nubbow.",
    "Obtainway anway electrocardiogramway immediatelyway andway ivegay aspirinway ownay orfay ethay atientpay.",
])
def test_a_game_over_the_whole_text_is_still_no_english(text):
    assert english_share(text) < 0.9


@pytest.mark.parametrize("report, finding, label", [
    ("Pneumothorax: none.", "pneumothorax", "disorder_notpresent"),
    ("Pleural effusion: absent.", "pleural effusion", "disorder_notpresent"),
    ("Heart: enlarged.", "cardiomegaly", "disorder_present"),
    ("- Heart: enlarged.\n- No pneumothorax.", "cardiomegaly", "disorder_present"),
    ("1. Pneumothorax: none.", "pneumothorax", "disorder_notpresent"),
    ("Pleural effusion: small, left.", "pleural effusion", "disorder_present"),
    ("Consolidation and effusion, neither of which is confirmed on the lateral view.", "consolidation", "disorder_notpresent"),
    ("Left lower lobe consolidation excluded.", "consolidation", "disorder_notpresent"),
    ("Consolidation has been ruled out.", "consolidation", "disorder_notpresent"),
    ("Consolidation cannot be ruled out.", "consolidation", "disorder_present"),     # uncertain, present by default
    ("Consolidation and effusion, both of which are confirmed on the lateral view.", "consolidation", "disorder_present"),
])
def test_a_label_and_its_status_is_one_statement(report, finding, label):
    assert (finding, label) in extract_kg(report).entities


@pytest.mark.parametrize("report, present", [
    ("Follow-up imaging may later show a pleural effusion.", False),
    ("The patient is at risk of pneumothorax after the biopsy.", False),
    ("The patient may develop a right pleural effusion after surgery.", False),
    ("There is a right pleural effusion.", True),
    ("A right pleural effusion may represent fluid overload.", True),   # uncertain, read as present by default
])
def test_a_finding_a_later_study_may_show_is_no_finding(report, present):
    entities = {e for e, _ in extract_kg(report).entities}
    assert (("pleural effusion" in entities) or ("pneumothorax" in entities)) == present
