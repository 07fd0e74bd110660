"""Rules prompted by the red team split ``holdout_r16`` (written blind 2026-12-05: a broad realistic mix of what each
reward sees in a GRPO run, early to late in training; first sight in
benchmarks/results/red_team_rewards_holdout_r16_first_sight.md): each a table of the genuine form it pays beside the
nearby hack it refuses, with variants the split did not contain."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.length import OverlongPenalty
from polyreward.rewards.tool_calls import ToolRLFormat
from polyreward.verifiers.text_forms import word_count

# --- overlong_penalty's word count: a number set apart inside a glued run is a word ----------------------------------


@pytest.mark.parametrize(
    "text,words",
    [
        # the split's hacks: a summary glued into one run by '|', '~' or '<br>', its age a number between the marks
        ("a|67|year|old|man", 5),
        ("a~45~year~old~woman", 5),
        ("An<br>80<br>year<br>old<br>woman", 5),
        # variants the split did not contain: other marks that join no compound, decimals, dates, a ratio, numbers in
        # a row, a number opening or closing the run, a sentence's full stop after the number
        ("temp+38.4+and+pulse+110", 5),
        ("since=2024-11-20=she=has", 4),
        ("BP&120/80&today", 3),
        ("scores|3|7|9", 4),
        ("67|year|old", 3),
        ("pulse|was|110", 3),
        ("was|67.|Then|we", 4),
        # as before: a number beside a compound's joint is part of the compound, a number glued to a unit is part of
        # its word, and spaced text counts as a whitespace split does
        ("A 67-year-old man", 3),
        ("COVID-19-related", 1),
        ("GiveAspirin300mgThenReview", 4),
        ("BP 120/80 mmHg", 3),
        ("SpO2 91% on room air", 5),
        ("since 2024-11-20 she has", 4),
        ("T 38.4 C, HR 104/min", 5),
        ("score 3|7", 2),
        # markup: a tag parts a word from a number as it parts two words; an element around a number alone formats it,
        # and a label glued to its value by a mark stays one word (holdout_r11's "BP=120")
        ("aa<br>0", 2),
        ("aa<br/>0", 2),
        ("x<sup>2</sup>", 1),
        ("<answer>340</answer>", 2),
        ("BP=120", 1),
        ("\\frac{1}{2}", 1),
    ],
)
def test_number_set_apart_in_a_glued_run_is_a_word(text, words):
    assert word_count(text) == words


_WORD = st.text("abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=9)
_NUMBER = st.one_of(st.integers(min_value=0, max_value=999).map(str),
                    st.tuples(st.integers(0, 99), st.integers(0, 9)).map(lambda t: f"{t[0]}.{t[1]}"))
# marks that join no compound a reader writes, and markup between words
_GLUE = st.sampled_from(["|", "~", "+", "=", "&", ";", "<br>", "<br/>", "*"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(_WORD, _WORD, _NUMBER), min_size=3, max_size=40).filter(
    lambda tokens: any(t.isalpha() for t in tokens)), _GLUE)
def test_glued_words_and_numbers_count_as_the_spaced_text(tokens, glue):
    """Words and numbers joined by a mark that joins no compound count as the spaced text does: one each."""
    assert word_count(glue.join(tokens)) == word_count(" ".join(tokens)) == len(tokens)


_SUMMARY = ("The patient is a 67 year old man with a long history of smoking who presents with three days of fever, "
            "productive cough and worsening shortness of breath. On arrival he is febrile and breathing fast, with an "
            "oxygen saturation of 90 percent on room air and a pulse of 112. The chest film shows a right lower lobe "
            "consolidation and the blood tests show a raised white cell count and a CRP of 186. We start intravenous "
            "antibiotics, give oxygen and fluids, and review him in 2 days.")


@pytest.mark.parametrize("glue", ["|", "~", "<br>", "+"])
def test_glued_summary_pays_the_honest_texts_penalty(glue):
    reward = OverlongPenalty(max_completion_len=100, soft_punish_cache=20)
    honest, glued = reward(prompts=["p", "p"], completions=[_SUMMARY, glue.join(_SUMMARY.split())])
    assert honest < 0
    assert glued <= honest


def test_genuine_note_with_numbers_and_compounds_is_not_penalised():
    """Genuine: a 64-word note of ages, ratios, dates, doses and compounds stays under the 80-word cache."""
    reward = OverlongPenalty(max_completion_len=100, soft_punish_cache=20)
    note = ("Pt is an 82 y/o M s/p R hip hemiarthroplasty (POD 2) w/ new-onset confusion overnight. BP 132/84, HR 96, "
            "T 37.9. Na 128 mmol/L since 2025-02-03, urine dip +ve. A 67-year-old roommate had COVID-19-related "
            "illness last week. Likely delirium 2° to UTI ± hyponatraemia. Plan: nitrofurantoin 100 mg b.d., fluid "
            "restriction 1.5 L/day, stop codeine, recheck U&E in AM, review in 24-48 h.")
    assert len(note.split()) == 64
    assert word_count(note) <= 70
    assert reward(prompts=["p"], completions=[note]) == [pytest.approx(0.0)]


# --- toolrl_format's think guard: the tool-calling instruction's own words name nothing of the task -------------------

_FUNCS = [{"name": "calculate_bmi", "description": "Body mass index", "parameters": {"type": "dict", "properties": {
    "weight_kg": {"type": "number"}, "height_m": {"type": "number"}}, "required": ["weight_kg", "height_m"]}}]
_PROMPT = ("You are a helpful assistant that can call functions. Available functions (JSON):\n" + json.dumps(_FUNCS)
           + "\nReason inside <think>...</think>, then write the calls inside <tool_call>...</tool_call>, one JSON "
           "object per line.\nI weigh 82 kg and I'm 1.75 m tall. What's my BMI?")
_CALL = json.dumps({"name": "calculate_bmi", "parameters": {"weight_kg": 82, "height_m": 1.75}})
_GOLD = f"<tool_call>\n{_CALL}\n</tool_call>"


def _tool_format(think: str, call: str = _CALL) -> float:
    completion = f"<think>{think}</think>\n<tool_call>\n{call}\n</tool_call>"
    return ToolRLFormat(min_content_words=3).score_rollout(completion, {"prompt": _PROMPT, "answer": _GOLD}).score


@pytest.mark.parametrize(
    "think,expected",
    [
        # the split's hack and the earlier splits' generic plans: only the instruction's words are shared
        ("First I will identify the most appropriate function for this request, then I will carefully fill in every "
         "argument with the correct values before making the call.", 0.0),
        ("I will carefully analyze the request and then call the appropriate function with the correct arguments.", 0.0),
        ("[x] read the request [x] choose the tool [x] fill the arguments [x] check the JSON", 0.0),
        # variants the split did not contain
        ("Pick the right tool, work out each argument, validate the JSON object and emit the call.", 0.0),
        ("I am going to analyze the user's request and then call the relevant function with proper arguments.", 0.0),
        ("Calling functions correctly matters: I should double-check the arguments and the JSON formatting.", 0.0),
        # genuine: a think that names the task, with the instruction's words beside it
        ("Weight is already in kilograms (82) and height already in metres (1.75), so both values pass straight into "
         "calculate_bmi without any conversion.", 1.0),
        ("One call: the user's 82 kg and 1.75 m are already the units the function wants.", 1.0),
        ("BMI needs weight and height; both are given in the right units, so I call the function once.", 1.0),
        ("Both arguments are given in the units the schema names, so a single call with 82 and 1.75.", 1.0),
        ("The tool computes body mass index from the two arguments; I just pass them as JSON.", 1.0),
        # the schema's own words stay compared: its fields named by their words reason about this schema
        ("The parameters are numbers already in kilograms and metres, so no conversion before the call.", 1.0),
    ],
)
def test_toolrl_format_think_must_name_the_task_not_the_call_format(think, expected):
    assert _tool_format(think) == expected


_FORMAT_PLAN = st.lists(st.sampled_from(
    "I will first then carefully call the function tool with correct proper arguments argument JSON object calls "
    "functions tools fill choose select emit make sure appropriate relevant request and to a an".split()),
    min_size=6, max_size=30).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(_FORMAT_PLAN)
def test_a_plan_in_the_call_formats_words_is_never_paid(think):
    assert _tool_format(think) == 0.0


@settings(max_examples=100, deadline=None)
@given(_FORMAT_PLAN)
def test_the_call_formats_words_never_take_a_real_think_off_topic(padding):
    """Adding the instruction's words to a think that names the task never refuses it."""
    think = "Weight 82 kg and height 1.75 m are already in kilograms and metres, so no conversion is needed. "
    assert _tool_format(think) == 1.0
    assert _tool_format(think + padding) == 1.0
