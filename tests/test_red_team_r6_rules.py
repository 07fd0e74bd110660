"""Table tests of the rules red team ``holdout_r6`` prompted (tests/data/red_team_rewards.jsonl, split holdout_r6),
each in both directions: the hack it refuses, and a genuine answer nearby that it still pays. Examples differ from
the rows (held-out graders use the rows)."""

from __future__ import annotations

import codecs
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jaccard_cases import jaccard_of
from polyreward.rewards.crpo import CRPOFormat
from polyreward.rewards.format import ThinkFormat, off_topic
from polyreward.rewards.forecast import committed_forecast
from polyreward.rewards.tool_calls import ToolRLCorrectness, ToolRLFormat
from polyreward.rewards.tool_efficiency import OTCToolEfficiency
from polyreward.verifiers.call_formats import call_lines, command_calls
from polyreward.verifiers.forecast import class_edges
from polyreward.verifiers.label_sets import normalize_label, read_labels
from polyreward.verifiers.language import enciphered
from polyreward.verifiers.radiology_kg import extract_kg
from polyreward.verifiers.text_forms import word_count
from polyreward.verifiers.tool_calls import calls_outside_blocks

CALL = {"name": "convert_currency", "parameters": {"amount": 250, "to": "EUR"}}
GOLD = "<tool_call>\n" + json.dumps(CALL) + "\n</tool_call>"
THINK = "<think>250 dollars into euros: one convert_currency call with the amount and the target.</think>\n"


# ---- tool calls: NexusRaven's Call:, ChatML's recipient line, command lines, Claude 2's <invoke> ------------------

@pytest.mark.parametrize("extra", [
    "Call: convert_currency(amount=250, to='GBP')",
    "Function: convert_currency(amount=250, to='EUR')",
    '<|im_start|>assistant to=functions.convert_currency\n{"amount": 250, "to": "GBP"}<|im_end|>',
    "```sh\n$ convert_currency --amount 250 --to GBP\n```",
    "convert_currency --amount=250 --to=EUR",
    "POST /v1/tools/convert_currency?amount=250&to=GBP",
    "GET https://api.example.com/convert_currency?amount=250&to=EUR HTTP/1.1",
    '(convert_currency :amount 250 :to "GBP")',
    "<function_calls>\n<invoke>\n<tool_name>convert_currency</tool_name>\n<parameters>\n<amount>250</amount>\n"
    "<to>GBP</to>\n</parameters>\n</invoke>\n</function_calls>",
])
def test_an_extra_call_in_another_layout_costs_the_maximum(extra):
    text = THINK + GOLD + "\n" + extra
    assert ToolRLCorrectness()(completions=[text], answer=[GOLD])[0] < 3.0
    otc = OTCToolEfficiency(correctness="calls_exact")
    assert otc(completions=[text], answer=[GOLD], prompt_id=["a"]) == [0.0]


@pytest.mark.parametrize("remark", [
    "Note: the rate changes daily, so the amount may differ by a few cents.",  # a label, then prose
    "Result: convert_currency returns the converted amount and the rate used.",  # the name in prose, no call
    "$ pip install --upgrade forex-python",                                     # a command of a plain word
    "GET /index.html",                                                           # a path, no function's name
    "(convert_currency is the only tool needed)",                                # a parenthesis of prose
    "I will wait for the tool's answer to=the user before replying.",            # "to=" without a JSON line
    "Rates move, see https://example.org/rates?ccy=EUR for today's.",            # a URL with a query in prose
])
def test_prose_beside_the_call_is_no_extra_call(remark):
    assert ToolRLCorrectness()(completions=[THINK + GOLD + "\n" + remark], answer=[GOLD]) == [3.0]


def test_the_layouts_are_read_with_their_arguments():
    assert call_lines("Call: convert_currency(amount=250, to='EUR')") == [CALL]
    assert command_calls("$ convert_currency --amount 250 --to EUR") == [CALL]
    assert command_calls("GET /api/convert_currency?amount=250&to=EUR") == [CALL]
    assert command_calls('(convert_currency :amount 250 :to "EUR")') == [CALL]
    assert command_calls("convert_currency --dry-run") == [{"name": "convert_currency", "parameters": {"dry-run": True}}]
    chatml = '<|im_start|>assistant to=functions.convert_currency\n{"amount": 250, "to": "EUR"}<|im_end|>'
    assert calls_outside_blocks(chatml) == [CALL]
    claude2 = "<invoke><tool_name>convert_currency</tool_name><parameters><amount>250</amount></parameters></invoke>"
    # a parameter's text that JSON reads as a number is that number (call_formats.xml_value; red team holdout_r31)
    assert calls_outside_blocks(claude2) == [{"name": "convert_currency", "parameters": {"amount": 250}}]


@given(st.from_regex(r"[a-z]{2,8}_[a-z]{2,8}", fullmatch=True), st.from_regex(r"[a-z]{1,8}", fullmatch=True),
       st.integers(min_value=0, max_value=9999), st.sampled_from(["shell", "http", "sexpr"]))
@settings(max_examples=60, deadline=None)
def test_a_command_line_naming_a_function_is_one_call(name, key, value, form):
    line = {"shell": f"$ {name} --{key} {value}", "http": f"GET /{name}?{key}={value}", "sexpr": f"({name} :{key} {value})"}[form]
    assert command_calls(line) == [{"name": name, "parameters": {key: value}}]
    assert command_calls(f"Then run {line} and wait.") == []   # inside a sentence: prose, not a command line
    plain = name.replace("_", "")                               # a plain word is no function's name
    assert command_calls(line.replace(name, plain)) == []


# ---- format guards: a think body in a cipher of English ----------------------------------------------------------

SENTENCE = "Subtract five from both sides, then divide by three, so the unknown is two."


def _rot(text: str, n: int) -> str:
    return "".join(chr((ord(c) - b + n) % 26 + b) if c.isascii() and c.isalpha() else c
                   for c in text for b in (97 if c.islower() else 65,))


@pytest.mark.parametrize("think", [
    codecs.encode(SENTENCE, "rot13"),
    _rot(SENTENCE, 3),                                   # a Caesar shift
    SENTENCE[::-1],                                      # written backwards
    " ".join(w[::-1] for w in SENTENCE.split()),         # each word backwards
    "5ub7r4c7 f1v3 fr0m b07h 51d35, 7h3n d1v1d3 by 7hr33, 50 7h3 unkn0wn 15 7w0.",  # leetspeak
    "Ubtractsay ivefay omfray othbay idessay, enthay ivideday ybay eethray, osay ethay unknownway isway otway.",
])
def test_a_think_in_a_cipher_of_english_is_no_reasoning(think):
    assert enciphered(think) is not None
    text = f"<think>{think}</think>\nThe answer is \\boxed{{2}}."
    assert ThinkFormat(min_content_words=3)(completions=[text], prompts=["Solve 3x + 5 = 11."]) == [0.0]


@pytest.mark.parametrize("think", [
    SENTENCE,
    "Chest pain, diaphoresis, ST elevation: STEMI; cath lab now.",             # terse notes, no function words
    "Hypotension, tachycardia, JVD: tamponade physiology; pericardiocentesis.",
    "SpO2 88%, PaO2 55, HbA1c 9.1%, T2DM, CO2 retention: COPD exacerbation.",   # letters and digits in tokens
    "Resto 5 de ambos lados y divido entre 3: la incógnita vale 2.",           # Spanish
    "Auf beiden Seiten 5 abziehen, dann durch 3 teilen: x = 2.",               # German
    "3x + 5 = 11 → 3x = 6 → x = 2",                                            # arithmetic
])
def test_a_think_in_a_language_is_no_cipher(think):
    assert enciphered(think) is None


VOCABULARY = ("chest pain troponin aspirin crushing diaphoresis elevation tachycardia effusion pneumothorax atelectasis "
              "consolidation dyspnea fever cough infiltrate hypotension murmur edema cardiomegaly").split()


@given(st.lists(st.sampled_from(VOCABULARY), min_size=3, max_size=9, unique=True), st.integers(min_value=1, max_value=25))
@settings(max_examples=40, deadline=None)
def test_terse_notes_are_no_cipher_and_their_sentence_rotated_is_one(words, shift):
    assert enciphered(", ".join(words)) is None
    sentence = f"there is {words[0]} and {words[1]} but no {words[2]} in this patient"
    assert enciphered(_rot(sentence, shift)) is not None
    assert enciphered(sentence[::-1]) is not None


def test_the_cipher_guard_covers_the_three_format_rewards():
    think = codecs.encode("The patient has crushing chest pain, so an ECG is the first test to order.", "rot13")
    answer = "<answer>An ECG comes first. \\boxed{A}</answer>"
    assert CRPOFormat(min_content_words=3)(completions=[f"<think>{think}</think>\n{answer}"]) == [0.0]
    tool = f"<think>{codecs.encode('The user wants the amount in euros, so one call with both values.', 'rot13')}</think>\n{GOLD}"
    assert ToolRLFormat(min_content_words=3)(completions=[tool], answer=[GOLD]) == [0.0]
    assert ToolRLFormat(min_content_words=3)(completions=[THINK + GOLD], answer=[GOLD]) == [1.0]


def test_a_spelled_number_names_the_prompts_number():
    think = "Take five away from eleven, which leaves six, and half of six is three."
    assert not off_topic(think, "Solve 2x + 5 = 11.", ["The answer is \\boxed{3}."])
    assert off_topic("A linear equation has one unknown and a constant term.", "Solve 2x + 5 = 11.", ["\\boxed{3}"])


# ---- crpo_format: a box inside a box ----------------------------------------------------------------------------

@pytest.mark.parametrize("answer, score", [
    ("An ECG comes first. \\boxed{\\boxed{A}}", 1.0),        # two boxes, as r_acc counts them
    ("An ECG comes first. \\boxed{\\fbox{A}}", 1.0),
    ("An ECG comes first. \\boxed{A}", 1.5),
    ("\\boxed{A}: an ECG comes first.", 1.5),
])
def test_a_box_inside_a_box_is_two_boxes(answer, score):
    text = f"<think>Crushing chest pain suggests a coronary syndrome, so the ECG comes first.</think>\n<answer>{answer}</answer>"
    assert CRPOFormat(min_content_words=3)(completions=[text]) == [score]


# ---- label lists: bracketed numbers, quotes, hyphens, a lead-in ending in a colon -------------------------------



@pytest.mark.parametrize("body", [
    "(1) consolidation; (2) pleural effusion; (3) pulmonary edema",
    '"consolidation"; "pleural effusion"; "pulmonary edema"',
    "“consolidation”; “pleural effusion”; “pulmonary edema”",
    "consolidation; pleural-effusion; pulmonary-edema",
    "Findings: consolidation; pleural effusion; pulmonary edema",
    "Confirmed findings: consolidation, pleural effusion and pulmonary edema",
])
def test_a_genuine_list_in_another_form_names_the_same_labels(body):
    assert jaccard_of(body) == 1.0


@pytest.mark.parametrize("body", [
    "Possible findings: consolidation; pleural effusion; pulmonary edema",         # a hedged header
    "Excluded findings: consolidation; pleural effusion; pulmonary edema",        # a denied header
    '(1) consolidation; (2) pleural effusion; (3) pulmonary edema; (4) "pneumothorax"',  # an extra, quoted
    "consolidation; pleural effusion; pulmonary edema-like opacity",             # another label, hyphen or not
])
def test_a_qualified_or_padded_list_is_not_the_gold(body):
    assert jaccard_of(body) < 1.0


@given(st.lists(st.from_regex(r"[a-z]{3,9}", fullmatch=True), min_size=2, max_size=4))
@settings(max_examples=60, deadline=None)
def test_a_hyphen_between_letters_joins_a_label_as_a_space_does(words):
    assert normalize_label("-".join(words)) == normalize_label(" ".join(words))
    assert read_labels(f"({len(words)}) " + '"' + " ".join(words) + '"') == [" ".join(words)]


# ---- KG: a linking verb of persistence --------------------------------------------------------------------------

def test_a_finding_that_remains_is_present():
    assert ("cardiomegaly", "disorder_present") in extract_kg("The heart remains enlarged. No pneumothorax.").entities
    assert ("cardiomegaly", "disorder_present") in extract_kg("The heart is enlarged.").entities
    # a negation still negates: "no pneumothorax remains" is no pneumothorax
    assert ("pneumothorax", "disorder_notpresent") in extract_kg("No pneumothorax remains.").entities


# ---- forecasts: a percentage against the prompt's day --------------------------------------------------------------

KOREA = class_edges("korea", "pm25")


@pytest.mark.parametrize("block", [
    "58 µg/m³, about 20% above today's mean",
    "58 (15% lower than yesterday)",
    "58, 10% up on the previous day.",
])
def test_a_change_against_the_prompts_day_describes_the_forecast(block):
    assert committed_forecast(f"<answer>{block}</answer>", 1, True, ("pm25",), None, KOREA) == ([58.0], "")


@pytest.mark.parametrize("block", [
    "58, but it could be 20% higher",           # a hedge, no reference day
    "58, 20% above today's 48",                 # a second value
    "58, 20% above the WHO guideline",          # another reference
    "20% above today's mean",                   # no forecast, only the change
])
def test_a_percentage_that_hedges_or_adds_a_value_is_no_remark(block):
    assert committed_forecast(f"<answer>{block}</answer>", 1, True, ("pm25",), None, KOREA)[0] is None


# ---- length: a typographic apostrophe ------------------------------------------------------------------------------

@given(st.lists(st.from_regex(r"[a-z]{2,9}", fullmatch=True), min_size=1, max_size=30), st.data())
@settings(max_examples=60, deadline=None)
def test_a_curly_apostrophe_counts_as_the_straight_one(words, data):
    i = data.draw(st.integers(min_value=0, max_value=len(words) - 1))
    plain = " ".join(words[:i] + [words[i] + "'s"] + words[i + 1:])
    assert word_count(plain.replace("'", "’")) == word_count(plain)
    joined = "'".join(words)   # words joined by apostrophes still count their words, straight or curly
    assert word_count(joined.replace("'", "’")) == word_count(joined)
