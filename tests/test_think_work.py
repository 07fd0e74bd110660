"""The content guard's structural reading of a think (rewards/think_work.py, issue 32): a step (a relation of the
prompt's terms that adds a derived value, a new name, a mapping or an order) counts and lets the prompt's words count;
a keyword list (no function word, no relation, a content word again) counts 0. Tables both ways through
content_words and through the rewards that read a think, and Hypothesis properties of what a pasted or shuffled
prompt can earn."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.crpo import CRPOFormat
from polyreward.rewards.format import ThinkFormat, content_words
from polyreward.rewards.think_work import keyword_list, steps
from polyreward.rewards.tool_calls import ToolRLFormat

MIN = 3  # min_content_words of the red team and the shipped configs

HERMES = ('<|im_start|>system\nYou are a function calling AI model. You may call one or more functions to assist with '
          'the user query. Here are the available tools: <tools>[{"name": "get_current_weather", "parameters": '
          '{"type": "object", "properties": {"location": {"type": "string"}, "unit": {"type": "string", "enum": '
          '["celsius", "fahrenheit"]}}}}, {"name": "get_forecast", "parameters": {"type": "object", "properties": '
          '{"location": {"type": "string"}}}}]</tools>\nFor each function call return a json object with function '
          'name and arguments within <tool_call></tool_call> XML tags.<|im_end|>\n<|im_start|>user\nWhat is the '
          'weather in Paris right now, in celsius?<|im_end|>\n<|im_start|>assistant\n')

TRI = ("Find the area of a triangle with a base of 10 units and height of 5 units. "
       "Tools: calculate_triangle_area(base, height).")
ALARM = ('Available functions: [{"name": "set_alarm", "parameters": {"time": {"type": "string"}, '
         '"repeat_daily": {"type": "boolean"}}}]\nWake me at 06:30 every day.')
SHIRT = "A $40 shirt is 15% off. What is the sale price?"
DOSE = "A child weighing 20 kg needs paracetamol at 15 mg/kg. What single dose in mg?"
CAR = "A car covers 150 km in 3 hours. What is its average speed in km/h?"
RATE = "Book the better-rated restaurant: Ichiran (rating 4.6) or Afuri (rating 4.2)."
EQ = "Solve 2x + 3 = 11. Put the final answer in \\boxed{}."
DE = "Berechne die Fläche eines Dreiecks mit Grundseite 10 und Höhe 5."
FR = "Un pull coûte 40 euros avec une remise de 15 %. Quel est le prix final ?"
INR = ("A patient on warfarin has an INR of 9 with no bleeding. What is the next step? A. Stop warfarin and give oral "
       "vitamin K B. Give prothrombin complex concentrate C. Continue the same dose D. Give fresh frozen plasma.")
SEPSIS = "Temperature 35.2 C, heart rate 112, a new cough. Does the patient meet SIRS criteria?"
ACS = ("A 54-year-old man has crushing chest pain. Which is the next best step? A. ECG B. CT C. Discharge "
       "D. Stress test")

# terse genuine thinks of several model styles: few words of their own, but they relate the prompt's quantities
GENUINE = [
    ("b=10, h=5 → 1 call, params OK.", TRI),  # abbreviations and an arrow (red team holdout_r3)
    ("Area = ½ · base · height = 25", TRI),  # a formula in the prompt's words, a derived value
    ("'Every day' → repeat_daily: true.", ALARM),  # a mapping of the request onto the schema (holdout_r11)
    ("15% of 40 is 6; 40 - 6 = 34.", SHIRT),  # arithmetic of the prompt's numbers (holdout_r11)
    ("180 / 2.5 = 72. Check: 72 × 2.5 = 180.", "A train covers 180 km in 2.5 hours. Average speed in km/h?"),
    ("0.15 × 40 = 6 → 34", SHIRT),
    ("Dose = 15 mg/kg × 20 kg = 300 mg.", DOSE),  # another domain: a dose
    ("v = d / t = 150 / 3 = 50", CAR),  # physics: a chain of three links, two of them steps
    ("4.6 > 4.2 → Ichiran", RATE),  # a comparison and a decision
    ("11 - 3 = 8 → x = 8 / 2 = 4", EQ),
    ("Fläche = 10 × 5 / 2 = 25", DE),  # German
    ("Remise = 40 × 0,15 = 6, donc 40 − 6 = 34 euros.", FR),  # French, decimal comma
    ("INR over 8 without bleeding: hold warfarin, oral vitamin K.", INR),  # a threshold in words (holdout_r11)
    ("Temp below 36, HR above 90 → SIRS.", SEPSIS),  # clinical criteria
    ("Need Paris weather, celsius. Call get_current_weather once.", HERMES),  # a decision (holdout_r4)
    ("Paris now, celsius: use get_current_weather, not get_forecast.", HERMES),
    ("Current conditions, so one get_current_weather call.", HERMES),
]

# hacks: the prompt pasted or shuffled, a keyword list, a binding or the prompt's own equation restated
HACKS = [
    (TRI, TRI),
    (SHIRT, SHIRT),
    ("units triangle height base area find 10 5", TRI),  # the prompt's words shuffled
    ("price shirt sale off what 40 15", SHIRT),
    ("Discount percentage price shirt sale discount percentage price.", SHIRT),  # keyword list (holdout_r12)
    ("Dose weight paracetamol dose weight kilogram.", DOSE),  # another domain
    ("Speed distance time speed distance time", CAR),
    ("ECG chest pain troponin aspirin ECG crushing chest ECG pain", ACS),  # holdout_r6's keyword salad
    ("Minutes, minute, minutes; hours, hour, hours; compute, computing, computed.",
     "How many minutes are in 3.5 hours?"),  # inflections of the prompt's words (holdout_r11)
    ("base = 10, height = 5", TRI),  # bindings of the prompt's values: nothing derived
    ("2 * x + 3 = 11", EQ),  # the prompt's equation in another spelling (holdout_r6's SQL WHERE clause)
    ("x = 4\nx = 4", EQ),  # the answer stated
    ("x = 4\n" + EQ, EQ),  # the answer stated beside the pasted prompt
    ("Pain for over 3 days", "Patient has pain. What now?"),  # a comparison naming only a function word of the prompt
    ("get_current_weather location unit", HERMES),  # a tool's name and its keys listed: no decision
    ('{"name": "get_current_weather", "arguments": {"location": "Paris", "unit": "celsius"}}', HERMES),  # the call
    ("get_current_weather(location='Paris', unit='celsius')", HERMES),  # the call copied as code
    ("What is the weather in Paris right now, in celsius?", HERMES),  # the request pasted
]


@pytest.mark.parametrize("think, prompt", GENUINE)
def test_terse_genuine_thinks_count(think, prompt):
    assert content_words(think, prompt) >= MIN


@pytest.mark.parametrize("think, prompt", HACKS)
def test_pasted_shuffled_and_listed_thinks_do_not(think, prompt):
    assert content_words(think, prompt) < MIN


def test_steps_read_what_the_think_adds():
    tri = TRI.casefold()
    words = set(__import__("re").findall(r"[^\W_]+", tri))
    assert steps("area = base × height / 2 = 10 × 5 / 2", tri, words) == {"area=base×height/2", "base×height/2=10×5/2"}
    assert steps("base = 10 and height = 5", tri, words) == set()  # bindings
    assert steps("p = q → r", tri, words) == set()  # names nothing of the case
    assert steps(tri, tri, words) == set()  # the prompt itself
    assert steps("10 × 5 / 2 = 25", "", set()) == set()  # without a prompt nothing is a step


def test_decisions_name_a_tool_of_the_schema_beside_a_verb_of_calling():
    from polyreward.rewards.think_work import decisions

    hermes = HERMES.casefold()
    assert decisions("call get_current_weather once.", hermes) == {"call get_current_weather"}
    assert decisions("two get_forecast calls", hermes) == {"call get_forecast"}
    assert decisions('call "get_current_weather"', hermes) == set()  # quoted: a copy of the call's name
    assert decisions("call get_current_weather(location='paris')", hermes) == set()  # the call as code
    assert decisions("call get_time", hermes) == set()  # no tool of the schema
    assert decisions("call get_current_weather", "no schema here") == set()


def test_a_keyword_list_needs_a_repeat_and_no_function_word():
    def is_list(text, prompt=""):
        import re

        from polyreward.rewards.format import _is_content, not_content_words, stem
        from polyreward.verifiers.language import STOP_WORDS

        words = re.findall(r"[^\W_]+", text.casefold())
        return keyword_list(words, set(), text.casefold(), prompt.casefold(), STOP_WORDS, stem,
                            lambda w: _is_content(w, not_content_words()))

    assert is_list("Discount percentage price jacket sale discount percentage price.")
    assert not is_list("Chest pain, diaphoresis, ST elevation: STEMI; cath lab.")  # no repeat (and ST: short)
    assert not is_list("ECG now, troponin now, ECG again in three hours")  # function words
    assert not is_list("Weight 82, weight squared 3.06 → BMI 26.8")  # a relation
    assert not is_list("Le patient a une douleur thoracique, le patient transpire")  # French articles
    assert not is_list("胸痛 胸痛 心电图 心电图")  # another script is not judged
    assert not is_list("Mild cardiomegaly. Mild edema.")  # two sentences: a terse report (kg_triplet's guard)
    assert is_list("ECG ECG ECG ECG")  # holdout_r7's degenerate summary


# what the rewards pay: think_format, toolrl_format and crpo_format read the same guard
def _pays(reward, completion: str, prompt: str, **columns: str) -> float:
    return reward(completions=[completion], prompts=[prompt], **{k: [v] for k, v in columns.items()})[0]


def test_think_format_pays_terse_arithmetic_and_refuses_a_keyword_list():
    reward = ThinkFormat(min_content_words=MIN)
    assert _pays(reward, "<think>15% of 40 is 6; 40 - 6 = 34.</think>\nThe sale price is $34.", SHIRT) == 1.0
    assert _pays(reward, "<think>Discount percentage price shirt sale discount percentage price.</think>\n$34",
                 SHIRT) == 0.0


def test_toolrl_format_pays_a_mapping_and_refuses_the_pasted_request():
    reward = ToolRLFormat(min_content_words=MIN)
    call = '<tool_call>\n{"name": "set_alarm", "parameters": {"time": "06:30", "repeat_daily": true}}\n</tool_call>'
    assert _pays(reward, "<think>'Every day' → repeat_daily: true.</think>\n" + call, ALARM, answer=call) == 1.0
    assert _pays(reward, "<think>Wake me at 06:30 every day.</think>\n" + call, ALARM, answer=call) == 0.0


def test_crpo_format_refuses_a_keyword_salad():
    reward = CRPOFormat(min_content_words=MIN)
    answer = "</think>\n<answer>An ECG comes first for crushing chest pain. \\boxed{A}</answer>"
    assert _pays(reward, "<think>ECG chest pain troponin aspirin ECG crushing chest ECG pain" + answer, ACS) == 0.0
    assert _pays(reward, "<think>Crushing chest pain → ACS until proven otherwise; ECG within 10 min" + answer, ACS) > 0.0


MARKS = "Set repeat_daily → true when the alarm rings daily, and warn when the rating > 4 or the price ≤ 20 = budget."
_PROMPTS = [TRI, SHIRT, DOSE, CAR, RATE, EQ, ALARM, ACS, DE, FR, INR, SEPSIS, MARKS, HERMES]
_THINKS = [think for think, _ in GENUINE] + [think for think, _ in HACKS] + [
    "Subtract 3 from both sides: 2x = 8, so x = 4.", "Let me think.", "", "Weight 82 kg and height 1.75 m."]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(_PROMPTS), st.randoms(use_true_random=False))
def test_a_pasted_or_shuffled_prompt_does_no_work(prompt, rnd: random.Random):
    """The prompt pasted, or its words (tokens split at white space) in any order, count under the guard's bar and
    hold no step."""
    tokens = prompt.split()
    rnd.shuffle(tokens)
    for think in (prompt, " ".join(tokens)):
        assert content_words(think, prompt) < MIN, think
        visible = think.casefold()
        import re

        assert steps(visible, prompt.casefold(), set(re.findall(r"[^\W_]+", prompt.casefold()))) == set(), think


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(_THINKS), st.sampled_from(_PROMPTS), st.booleans())
def test_inserting_the_prompt_never_raises_the_count(think, prompt, before):
    """The prompt's text pasted into a think, on a line of its own before or after it, never raises its count."""
    pasted = f"{prompt}\n{think}" if before else f"{think}\n{prompt}"
    assert content_words(pasted, prompt) <= content_words(think, prompt)
