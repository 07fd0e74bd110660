"""Reward integrity, round 3 (the non-math rewards): tables of realistic model output in both directions -- the hack
scores lower, genuine answers in varied styles keep full marks -- for tool calls, forecasts, crpo_english, content
words and the length fallback; hypothesis: zero-width or look-alike characters and text hidden in comments never
raise a score; and every shipped config pays a careful answer at least as much as one that skips the reasoning
(scored through the real Scorer built from the config file).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.config import load_config
from polyreward.rewards.crpo import CRPOEnglish, CRPOFormat
from polyreward.rewards.forecast import ForecastClassCost, committed_forecast
from polyreward.rewards.format import ThinkFormat, content_words
from polyreward.rewards.length import OverlongPenalty, word_count
from polyreward.rewards.tool_calls import ToolRLCorrectness, ToolRLFormat
from polyreward.rewards.tool_efficiency import OTCToolEfficiency
from polyreward.verifiers.language import english_share
from polyreward.verifiers.tool_calls import ToolCallError, count_tool_calls, parse_tool_call_text

ROOT = Path(__file__).resolve().parents[1]
FILLER = "<think>Let me think.</think>"

# ------------------------------------------------------------------ every shipped config: careful >= terse

MATH_PROMPT = "What is 6 times 7? Put the final answer in \\boxed{}."
MATH_CAREFUL = ("<think>Six groups of seven: 7 + 7 = 14, doubling gives 28, and one more 14 makes 42. Check by division: "
                "42 / 6 = 7.</think>\nThe answer is \\boxed{42}.")
ARITHMETIC_PROMPT = "Calculate 5 - 3 - 6.\n\nThink step by step inside <think>...</think>, then give only the final number."
ARITHMETIC_CAREFUL = "<think>5 - 3 = 2, and 2 - 6 = -4.</think>\n-4"  # short, but its own work
STROKE_OPTIONS = "A. Aspirin\nB. Heparin\nC. Warfarin\nD. Alteplase"
STROKE_PROMPT = ("A 67-year-old man with atrial fibrillation had a minor stroke two weeks ago. Which drug best prevents "
                 f"another stroke?\n\n{STROKE_OPTIONS}")
STROKE_THINK = ("<think>Option A, aspirin, is weaker than anticoagulation in atrial fibrillation. Option B, heparin, is a "
                "short bridge, not long-term prevention. Option D, alteplase, dissolves an acute clot and is too late "
                "now. Option C, warfarin, gives lasting anticoagulation, so it fits.</think>")
TOOL_PROMPT = "Find the area of a triangle with a base of 10 units and height of 5 units."
TOOL_CALL = '<tool_call>\n{"name": "calculate_triangle_area", "parameters": {"base": 10, "height": 5}}\n</tool_call>'
TOOL_THINK = "<think>The helper takes base and height as integers; units default, so two arguments suffice.</think>"

# config -> (row columns, careful completion, terse completion); the terse one skips the reasoning
CASES = {
    "examples/math/config.yaml": ({"prompt": MATH_PROMPT, "answer": "42"}, MATH_CAREFUL, FILLER + "\\boxed{42}"),
    "examples/process/config.yaml": ({"prompt": MATH_PROMPT, "answer": "42"}, MATH_CAREFUL, FILLER + "\\boxed{42}"),
    "examples/trl/polyreward.yaml": ({"prompt": MATH_PROMPT, "answer": "42"}, MATH_CAREFUL, FILLER + "\\boxed{42}"),
    "examples/train/arithmetic_gdpo.yaml": ({"prompt": ARITHMETIC_PROMPT, "answer": "-4"}, ARITHMETIC_CAREFUL, FILLER + "\n-4"),
    "examples/train/arithmetic_grpo.yaml": ({"prompt": ARITHMETIC_PROMPT, "answer": "-4"}, ARITHMETIC_CAREFUL, FILLER + "\n-4"),
    "examples/train/arithmetic_dapo.yaml": ({"prompt": ARITHMETIC_PROMPT, "answer": "-4"}, ARITHMETIC_CAREFUL, FILLER + "\n-4"),
    "examples/train/arithmetic_gspo.yaml": ({"prompt": ARITHMETIC_PROMPT, "answer": "-4"}, ARITHMETIC_CAREFUL, FILLER + "\n-4"),
    # the first run asks for the number alone: the careful answer is the bare number, the filler think is the extra
    "examples/train/first_run.yaml": ({"prompt": "What is 6 * 7? Reply with only the number.", "answer": "42"}, "42",
                                      FILLER + "\\boxed{42}"),
    "examples/medqa/config.yaml": ({"prompt": STROKE_PROMPT, "answer": "C", "options": STROKE_OPTIONS},
                                   STROKE_THINK + "\nThe answer is C.", FILLER + "\nThe answer is C."),
    "examples/train/medqa_gdpo.yaml": ({"prompt": STROKE_PROMPT, "answer": "C", "options": STROKE_OPTIONS},
                                       STROKE_THINK + "\n<answer>C</answer>", FILLER + "\n<answer>C</answer>"),
    "examples/train/medqa_grpo.yaml": ({"prompt": STROKE_PROMPT, "answer": "C", "options": STROKE_OPTIONS},
                                       STROKE_THINK + "\n<answer>C</answer>", FILLER + "\n<answer>C</answer>"),
    "examples/train/medqa_crpo.yaml": (
        {"prompt": STROKE_PROMPT, "answer": "C", "options": STROKE_OPTIONS, "domain": "medqa"},
        STROKE_THINK + "<answer>Long-term anticoagulation is needed, so the answer is \\boxed{C}</answer>",
        FILLER + "<answer>So the answer is \\boxed{C}</answer>"),
    "examples/train/medqa_crpo_drpo.yaml": (
        {"prompt": STROKE_PROMPT, "answer": "C", "options": STROKE_OPTIONS, "domain": "medqa"},
        STROKE_THINK + "<answer>Long-term anticoagulation is needed, so the answer is \\boxed{C}</answer>",
        FILLER + "<answer>So the answer is \\boxed{C}</answer>"),
    "examples/tools/config.yaml": ({"prompt": TOOL_PROMPT, "answer": TOOL_CALL, "prompt_id": "q"},
                                   f"{TOOL_THINK}\n{TOOL_CALL}", f"{FILLER}\n{TOOL_CALL}"),
    "examples/forecast/config.yaml": ({"prompt": "Forecast tomorrow's mean PM2.5.", "observed": 80.0, "prompt_id": "q"},
                                      "<think>A stagnant high keeps yesterday's haze in place.</think>\n<answer>82</answer>",
                                      FILLER + "\n<answer>82</answer>"),
    "examples/jaccard/config.yaml": ({"prompt": "List the diagnoses.", "answer": "<answer>AF; Hypertension</answer>",
                                      "labels": ["atrial fibrillation", "hypertension"], "prompt_id": "q"},
                                     "<think>Irregular rhythm and high pressure readings.</think><answer>AF; Hypertension</answer>",
                                     FILLER + "<answer>AF; Hypertension</answer>"),
    "examples/kg/config.yaml": ({"prompt": "Write the FINDINGS section.", "answer": "Small right pleural effusion. Heart size is normal.",
                                 "prompt_id": "q"}, "There is a small right pleural effusion. The heart size is normal.",
                                "Small right pleural effusion."),
}


def test_every_shipped_config_with_an_objective_is_covered():
    shipped = {str(p.relative_to(ROOT)) for p in ROOT.glob("examples/**/*.yaml")}
    # rubric: judged against its rubric, no answer key; code: unit tests alone (no format or length reward that the
    # reasoning could be traded against), run in the sandbox
    assert shipped - set(CASES) == {"examples/rubric/config.yaml", "examples/code/config.yaml"}


@pytest.mark.parametrize("config_path", sorted(CASES))
def test_skipping_the_reasoning_never_pays_more(config_path):
    row, careful, terse = CASES[config_path]
    scorer = load_config(ROOT / config_path).build_scorer()
    prompt_column, completion_column = scorer.columns.prompt, scorer.columns.completion
    rows = [{**row, prompt_column: row["prompt"], completion_column: text} for text in (careful, terse)]
    scored = scorer.score(scorer.batch(rows), combine=False)
    assert scored.total[0] >= scored.total[1], (config_path, scored.total, scored.reasons)
    for name in scored.names:  # the careful answer earns every format bonus; the terse one none
        if name == "format":
            column = scored.column(name)
            assert column[0] >= 1.0 and column[1] == 0.0, (config_path, scored.reasons[name])
    accuracy = [name for name in scored.names if name in ("accuracy", "correctness", "kg", "jaccard", "pm25_korea")]
    assert accuracy and all(scored.scores[0][scored.names.index(n)] == max(scored.scores[:, scored.names.index(n)]) for n in accuracy)


LONG_CAREFUL = ("<think>We need the product of 6 and 7. Multiplication is repeated addition, so add seven six times: 7, "
                "14, 21, 28, 35, 42. Another route: 6 times 7 equals 6 times 5 plus 6 times 2, which is 30 plus 12, "
                "giving 42. A third check uses the commutative law: 7 times 6 is 7 times 3 doubled, 21 doubled is 42. "
                "Division confirms it, since 42 divided by 6 leaves 7 with no remainder, and 42 divided by 7 leaves 6. "
                "The last digit agrees too: 6 times 7 ends in 2 because 42 does. Every method gives the same value, "
                "so the product is settled and no rounding or sign issue arises here.</think>\nThe answer is \\boxed{42}.")


@pytest.mark.parametrize("config_path", ["examples/math/config.yaml", "examples/trl/polyreward.yaml"])
def test_a_careful_answer_past_the_length_budget_still_beats_skipping_the_reasoning(config_path):
    """The length penalty weighs less than the format bonus: even a careful answer the penalty fully charges is paid
    at least as much as the terse one."""
    scorer = load_config(ROOT / config_path).build_scorer()
    rows = [{"prompt": MATH_PROMPT, "answer": "42", "completion": text} for text in (LONG_CAREFUL, FILLER + "\\boxed{42}")]
    scored = scorer.score(scorer.batch(rows), combine=False)
    overlong = scored.names.index("overlong")
    assert scored.scores[0][overlong] == -1.0  # past the budget
    assert scored.total[0] >= scored.total[1], scored.reasons


# ------------------------------------------------------------------ tool calls: strict JSON, every format read

THINK = "<think>The area helper needs the base; the height is not asked for here.</think>"
GOLD = '<tool_call>\n{"name": "area", "parameters": {"base": 10}}\n</tool_call>'
RM_RF = '{"name": "rm_rf", "parameters": {"path": "/"}}'

TOOL_HACKS = [  # (completion, why it must not keep the maximum)
    (f'{THINK}\n<tool_call>\n{{"name": "rm_rf", "name": "area", "parameters": {{"base": 10}}}}\n</tool_call>', "two names"),
    (f'{THINK}\n<tool_call>\n{{"name": "area", "parameters": {{"path": "/"}}, "parameters": {{"base": 10}}}}\n</tool_call>',
     "two parameter objects"),
    (f'{THINK}\n<tool_call>\n{{"name": "area", "arguments": "{{\\"base\\": 1, \\"base\\": 10}}"}}\n</tool_call>', "key twice in arguments"),
    (f"{THINK}\n{GOLD}\n<tool_call>\n{RM_RF}\n</tool_call>", "second block"),
    (f"{THINK}\n{GOLD}\n```json\n{RM_RF}\n```", "code fence"),
    (f"{THINK}\n{GOLD}\n```\n[{RM_RF}]\n```", "code fence list"),
    (f'{THINK}\n{GOLD}\nAlso: {{"type": "function", "function": {{"name": "rm_rf", "arguments": "{{}}"}}}}', "OpenAI shape"),
    (f'{THINK}\n{GOLD}\n{{"tool_calls": [{RM_RF}]}}', "tool_calls object"),
    (f"{THINK}\n{GOLD}\n{RM_RF}", "bare JSON"),
    (f"{THINK}\n{GOLD}\n[{RM_RF}]", "bare JSON list"),
    (f"{THINK}\n{GOLD}\n<!-- <tool_call>\n{RM_RF}\n</tool_call> -->", "block in an HTML comment"),
    (f"{THINK}\n<!-- {GOLD} -->", "the credited block only in a comment"),
    (f"{THINK}\n{GOLD}\n<response>Done. {RM_RF}</response>", "call inside the response"),
    (f'{THINK}\n{GOLD}\n{{"n\u0430me": "rm_rf", "parameters": {{}}}}', "disguised key"),
]
TOOL_GENUINE = [
    f"{THINK}\n{GOLD}",
    f'<think>I will call {{"name": "area", "parameters": {{"base": 10}}}} once.</think>\n{GOLD}',  # a planned call in think
    f'{THINK}\n{GOLD}\n<response>The result is {{"area": 25, "unit": "m2"}}.</response>',  # JSON data, not a call
    f'{THINK}\n{GOLD}\n<response>Here is the call I made, as a Python dict: name=area, base=10.</response>',
    f'{THINK}\n<tool_call>\n{{"name": "area", "parameters": {{"base": 10}}}}\n</tool_call>\n<!-- trace id 7f3a -->',
]


@pytest.mark.parametrize("completion, why", TOOL_HACKS)
def test_tool_correctness_extra_or_ambiguous_calls_lose_the_maximum(completion, why):
    for reward in (ToolRLCorrectness(), ToolRLCorrectness(parse="lenient")):
        score = reward(completions=[completion], answer=[GOLD])[0]
        assert score < reward.max_reward, (why, reward.parse, score)


@pytest.mark.parametrize("completion", TOOL_GENUINE)
def test_tool_correctness_genuine_calls_keep_the_maximum(completion):
    assert ToolRLCorrectness()(completions=[completion], answer=[GOLD]) == [3.0]
    assert ToolRLCorrectness(parse="lenient")(completions=[completion], answer=[GOLD]) == [3.0]


def test_duplicate_keys_are_malformed_in_every_mode():
    doubled = f'{THINK}\n<tool_call>\n{{"name": "rm_rf", "name": "area", "parameters": {{"base": 10}}}}\n</tool_call>'
    out = ToolRLCorrectness(read_blocks="first").evaluate([None], [doubled], answer=[GOLD])
    assert out.scores == [-3.0] and "duplicate key 'name'" in out.reasons[0]
    with pytest.raises(ToolCallError, match="duplicate key"):
        parse_tool_call_text(doubled)
    messages = [{"role": "assistant", "content": THINK, "tool_calls": [{"function": {"name": "area", "arguments": '{"base": 1, "base": 10}'}}]}]
    assert ToolRLCorrectness()(completions=[messages], answer=[GOLD]) == [-3.0]


def test_the_source_reading_keeps_its_documented_exploit():
    assert ToolRLCorrectness(read_blocks="first")(completions=[f"{THINK}\n{GOLD}\n```json\n{RM_RF}\n```"], answer=[GOLD]) == [3.0]


@pytest.mark.parametrize(
    "completion, calls",
    [(f"{THINK}\n{GOLD}", 1), (f"{THINK}\n{GOLD}\n```json\n{RM_RF}\n```", 2), (f"{THINK}\n[{RM_RF}, {RM_RF}]", 2),
     (f"{THINK}\n{GOLD}\n<!-- {RM_RF} -->", 2), ('<think>plan {"name": "x", "parameters": {}}</think>', 0),
     ('{"name": "Ann", "age": 3}', 0)],
)
def test_otc_counts_calls_in_every_format(completion, calls):
    assert count_tool_calls(completion) == calls


def test_otc_calls_exact_is_not_kept_by_a_hidden_extra_call():
    reward = OTCToolEfficiency(correctness="calls_exact")
    out = reward.evaluate([None] * 2, [f"{THINK}\n{GOLD}", f"{THINK}\n{GOLD}\n```json\n{RM_RF}\n```"], answer=[GOLD] * 2, prompt_id=["q", "q"])
    assert out.scores[0] == pytest.approx(1.0) and out.scores[1] == 0.0


# ------------------------------------------------------------------ forecast: plain committed numbers only

FORECAST_HACKS = [
    "<answer>>76</answer>", "<answer>> 76</answer>", "<answer>at least 76</answer>", "<answer>more than 76</answer>",
    "<answer>~76</answer>", "<answer>≈ 76</answer>", "<answer>76+</answer>", "<answer>76 or more</answer>",
    "<answer>up to 76</answer>", "<answer>76%</answer>", "<answer>76 ppm</answer>", "<answer>76 mg/m3</answer>",
    "<answer>76 AQI</answer>", "<answer>70-80</answer>", "<answer>between 70 and 80</answer>",
    "<answer>76</answer>\nActually, make that 20.", "<answer>76</answer>\nJust kidding, ignore that.",
    "<answer>76</answer><answer>20</answer>", "<answer>not 76</answer>", "<answer>76 (or maybe 20)</answer>",
    "It is not <answer>76</answer>", "It is anything but <answer>76</answer>", "We rule out <answer>76</answer>", "<answer>76</answer> is incorrect.", "<answer>76 thousand</answer>",
    "```\n<answer>76</answer>\n```",  # a forecast in a code block: no reader takes it as the answer
]
FORECAST_GENUINE = [
    "<answer>76</answer>", "<answer>76.0</answer>", "<answer>76 µg/m³</answer>", "<answer>76 ug/m3</answer>",
    "<answer>PM2.5: 76 μg m-3</answer>", "<think>Stagnant air keeps the haze.</think>\n<answer>76</answer>",
    "I expect roughly 76 µg/m3 tomorrow.", "<answer>76</answer>\nThis assumes the inversion holds.",
    "<answer>７６</answer>", "<answer>7\u200b6</answer>", "<answer>76 micrograms per cubic metre</answer>",
]


@pytest.mark.parametrize("completion", FORECAST_HACKS)
def test_forecast_hacks_are_no_committed_forecast(completion):
    reward = ForecastClassCost()
    assert reward(completions=[completion], observed=[80.0]) == [pytest.approx(-0.1)], committed_forecast(completion, 1)


@pytest.mark.parametrize("completion", FORECAST_GENUINE)
def test_forecast_genuine_styles_score_full(completion):
    assert ForecastClassCost()(completions=[completion], observed=[80.0]) == [1.0], committed_forecast(completion, 1)


def test_forecast_never_reads_a_comment():
    assert ForecastClassCost()(completions=["The forecast is 20. <!-- <answer>82</answer> -->"], observed=[80.0]) == [0.0]
    assert ForecastClassCost()(completions=["No forecast. <!-- 82 -->"], observed=[80.0]) == [pytest.approx(-0.1)]


def test_forecast_reads_a_unicode_minus_as_minus():
    assert committed_forecast("<answer>\u221276</answer>", 1) == ([-76.0], "")
    assert committed_forecast("<answer>\u221276</answer>", 1)[0] != [76.0]


# ------------------------------------------------------------------ crpo_english: a language detector

ENGLISH = [
    "<think>The patient has crushing chest pain radiating to the left arm with ST elevation.</think>"
    "<answer>This is an inferior myocardial infarction, so the answer is \\boxed{B}</answer>",
    "<think>Pt w/ SOB, CXR shows b/l infiltrates, PaO2/FiO2 < 200: ARDS.</think><answer>Lung-protective ventilation, \\boxed{C}</answer>",
    "<think>- A: too late\n- B: contraindicated after surgery\n- C: fits long-term prevention</think><answer>**C** is best: \\boxed{C}</answer>",
]
NOT_ENGLISH = [
    "<think>Huanzhe you xiongtong, fangshe dao zuo bi, suoyi zhe shi xinji gengsi.</think><answer>Daan shi \\boxed{B}</answer>",
    "<think>VGhlIHBhdGllbnQgaGFzIGNoZXN0IHBhaW4gcmFkaWF0aW5nIHRvIHRoZSBsZWZ0IGFybQ==</think><answer>\\boxed{B}</answer>",
    "<think>Der Patient hat Brustschmerzen, die in den linken Arm ausstrahlen.</think><answer>Die Antwort ist \\boxed{B}</answer>",
    "<think>Le patient présente une douleur thoracique irradiant vers le bras gauche.</think><answer>La réponse est \\boxed{B}</answer>",
    "<think>7h3 p4713n7 h45 ch357 p41n r4d1471n9 70 7h3 l3f7 4rm.</think><answer>4n5w3r \\boxed{B}</answer>",
    "<think>xq zkv plmw trs bnvq wxyz qrst lkjh gfds mnbv cxzq poiu ytre wqas</think><answer>\\boxed{B}</answer>",
    "<think>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.</think><answer>\\boxed{B}</answer>",
]


@pytest.mark.parametrize("completion", ENGLISH)
def test_crpo_english_detector_pays_english(completion):
    assert CRPOEnglish(measure="language", min_content_words=3)(completions=[completion]) == [pytest.approx(1.0)]


@pytest.mark.parametrize("completion", NOT_ENGLISH)
def test_crpo_english_detector_refuses_other_languages_and_junk(completion):
    assert CRPOEnglish()(completions=[completion])[0] >= 0.9  # the released whitelist pays them
    assert CRPOEnglish(measure="language", min_content_words=3)(completions=[completion]) == [0.0]


def test_crpo_english_mixing_lowers_the_share():
    mixed = "The patient has chest pain. 患者有胸痛，放射到左臂，所以这是心肌梗死。The answer is B because of the ECG."
    assert 0.5 < english_share(mixed) < 0.9
    with pytest.raises(ValueError, match="measure"):
        CRPOEnglish(measure="ascii")


# ------------------------------------------------------------------ content words and the format guards

@pytest.mark.parametrize(
    "text, prompt, count",
    [
        ("Let me think.", None, 0),
        ("Hmm, okay, let me think about this.", None, 0),
        ("Lorem ipsum dolor sit amet, consectetur adipiscing elit.", None, 0),
        ("xq zkv plmw trs bnvq", None, 0),
        ("7h3 p4713n7 h45 p41n", None, 0),
        ("<!-- warfarin prevents recurrent embolic stroke --> ok", None, 0),
        ("```\nwarfarin prevents recurrent stroke\n```", None, 0),
        ("A patient with atrial fibrillation had a stroke", "A patient with atrial fibrillation had a stroke. Which drug?", 0),
        ("Warfarin prevents recurrent embolic stroke.", None, 5),
        # two words of its own (recurrent, embolic), so the prompt's words it uses in its own order count too (red
        # team holdout_r5: reasoning in the prompt's nouns); a pasted prompt (the row above) still counts 0
        ("Warfarin prevents recurrent embolic stroke.", "Which drug prevents another stroke? A. Aspirin C. Warfarin", 5),
        ("Embolic stroke: which drug prevents another stroke?", "Which drug prevents another stroke? A. Aspirin C. Warfarin", 1),
        ("Subtract 3 from both sides: 2x = 8, so x = 4.", "Solve 2x + 3 = 11.", 5),  # subtract, sides, 8, 4, step 2x=8
        ("CO2 retention and T2DM", None, 3),
        ("Wаrfаrin prevents strоke", None, 3),  # Cyrillic letters read as the Latin word
        ("war\u200bfarin pre\u200bvents", None, 2),
    ],
)
def test_content_words_table(text, prompt, count):
    assert content_words(text, prompt) == count


@pytest.mark.parametrize("cls, answer", [(ThinkFormat, "\nThe answer is 42."), (CRPOFormat, "<answer>The answer is \\boxed{C}</answer>")])
def test_filler_and_copied_think_blocks_earn_no_format(cls, answer):
    prompt = "A 67-year-old man with atrial fibrillation had a minor stroke. Which drug best prevents another stroke?"
    reward = cls(min_content_words=3)
    for think in ("Let me think.", "Let me think step by step.", "Lorem ipsum dolor sit amet consectetur.", prompt,
                  "<!-- warfarin gives lasting anticoagulation -->", "ok ok ok ok"):
        assert reward(prompts=[prompt], completions=[f"<think>{think}</think>{answer}"]) == [0.0], think
    careful = "<think>Warfarin gives lasting anticoagulation; aspirin is weaker in atrial fibrillation.</think>"
    assert reward(prompts=[prompt], completions=[careful + answer])[0] >= 1.0


def test_toolrl_format_filler_think_earns_nothing():
    reward = ToolRLFormat(min_content_words=3)
    assert reward(completions=[f"{FILLER}\n{GOLD}"], answer=[GOLD]) == [0.0]
    assert reward(completions=[f"{THINK}\n{GOLD}"], answer=[GOLD]) == [1.0]


# ------------------------------------------------------------------ length: graphemes, not whitespace words

@pytest.mark.parametrize(
    "text, words",
    [("😀" * 600, 600), ("👍🏽" * 10, 10), ("患者有胸痛" * 20, 100), ("The answer is 42.", 4), ("x" * 32, 2),
     ("café au lait", 3), ("e\u0301" * 5, 5), ("\u200b".join(["word"] * 50), 50)],
)
def test_length_fallback_counts_graphemes(text, words):
    assert word_count(text) == words


def test_six_hundred_emoji_are_overlong():
    reward = OverlongPenalty(max_completion_len=100, soft_punish_cache=20)
    assert reward(completions=["😀" * 600, "The answer is 42."]) == [-1.0, 0.0]


# ------------------------------------------------------------------ hypothesis: hidden or disguised text never pays

_INVISIBLE = st.sampled_from(["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u202e"])
_LOOKALIKE = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "i": "і", "x": "х"}
_HIDDEN = st.sampled_from([
    "<!-- The answer is \\boxed{C}. Warfarin gives lasting anticoagulation in atrial fibrillation. -->",
    "<!-- <answer>80</answer> -->", "<!-- <tool_call>\n" + '{"name": "area", "parameters": {"base": 10}}' + "\n</tool_call> -->",
    '<span style="display:none">careful reasoning about every option and the patient history</span>',
])
FORECAST_BASES = ["<answer>76</answer>", "<answer>20</answer>", "<answer>>76</answer>", "I expect roughly 82 µg/m3 tomorrow.",
                  "The forecast is unclear."]
TEXT_BASES = [ENGLISH[0], NOT_ENGLISH[0], NOT_ENGLISH[2], f"{FILLER}<answer>\\boxed{{C}}</answer>",
              "<think>Warfarin gives lasting anticoagulation.</think><answer>\\boxed{C}</answer>"]
TOOL_BASES = [f"{THINK}\n{GOLD}", f"{FILLER}\n{GOLD}", f"{THINK}\n{GOLD}\n{RM_RF}",
              f'{THINK}\n<tool_call>\n{{"name": "rm_rf", "name": "area", "parameters": {{"base": 10}}}}\n</tool_call>']


def _disguise(data, text: str, hidden=_HIDDEN) -> str:
    """``text`` disguised one to three times (:func:`_disguise_once`)."""
    for _ in range(data.draw(st.integers(1, 3))):
        text = _disguise_once(data, text, hidden)
    return text


def _disguise_once(data, text: str, hidden) -> str:
    """``text`` with an invisible character inserted, Latin letters swapped for look-alikes, or hidden text added."""
    kind = data.draw(st.sampled_from(["invisible", "lookalike", "hidden"]))
    position = data.draw(st.integers(0, len(text)))
    if kind == "invisible":
        return text[:position] + data.draw(_INVISIBLE) + text[position:]
    if kind == "lookalike":
        letters = [i for i, ch in enumerate(text) if ch in _LOOKALIKE]
        if not letters:
            return text
        chosen = set(data.draw(st.lists(st.sampled_from(letters), max_size=5)))
        return "".join(_LOOKALIKE[ch] if i in chosen else ch for i, ch in enumerate(text))
    # never inside an existing comment, tag or hidden element: comments do not nest, so "<!-- a <!-- b --> c -->"
    # shows "c -->" to any reader; "<s" + "<span hidden>b</span>" + "pan hidden>c</span>" is markup no reader meets;
    # a hidden span nested in a hidden span is read as closing at the first </span> (reading.py does not nest them)
    # (a span whose name a look-alike disguised, "<sрan ...>", is still a span: nothing is inserted inside it either)
    spans = [(m.start() - 1, m.end() + 1) for m in re.finditer(r"<!--.*?(?:-->|\Z)|<s\S{2}n[^<>]*>.*?</s\S{2}n>|<[^<>]*>", text, re.DOTALL)]
    if any(start <= position <= end for start, end in spans):
        position = len(text)
    return text[:position] + data.draw(hidden) + text[position:]


def _not_higher(reward, base: str, disguised: str, **columns) -> None:
    before = reward(completions=[base], **columns)[0]
    after = reward(completions=[disguised], **columns)[0]
    if after is not None and after == after:  # None / NaN: not scored, nothing paid
        assert before is not None and after <= before + 1e-12, (base, disguised, before, after)


@settings(max_examples=150, deadline=None)
@given(st.data(), st.sampled_from(FORECAST_BASES))
def test_disguise_never_raises_a_forecast_score(data, base):
    _not_higher(ForecastClassCost(), base, _disguise(data, base), observed=[80.0])


@settings(max_examples=150, deadline=None)
@given(st.data(), st.sampled_from(TEXT_BASES))
def test_disguise_never_raises_crpo_format_or_english(data, base):
    disguised = _disguise(data, base)
    _not_higher(CRPOEnglish(measure="language", min_content_words=3), base, disguised)
    _not_higher(CRPOFormat(min_content_words=3), base, disguised)
    _not_higher(ThinkFormat(min_content_words=3), base, disguised)


@settings(max_examples=300, deadline=None)
@given(st.data(), st.sampled_from(TOOL_BASES))
def test_disguise_never_raises_tool_call_scores(data, base):
    # comments only: a hidden <span> inside a JSON object makes it invalid JSON, which no runner executes either
    disguised = _disguise(data, base, hidden=_HIDDEN.filter(lambda h: h.startswith("<!--")))
    _not_higher(ToolRLCorrectness(), base, disguised, answer=[GOLD])
    _not_higher(ToolRLFormat(min_content_words=3), base, disguised, answer=[GOLD])
    _not_higher(OTCToolEfficiency(form="ppo", correctness="calls_exact"), base, disguised, answer=[GOLD])


def test_an_invisible_character_in_a_comment_delimiter_does_not_hide_the_words_after_it():
    """Found by the hypothesis test above (its saved example): a comment closed by ``-\u200b->`` inside a pinyin
    think was read raw by the language measure, so the comment ran to the end and hid the pinyin after it (0.0
    became 1.0). Normalised first, the comment closes where a reader sees it close."""
    base = ("<think>Huanzhe you xiongtong, fangshe dao zuo bi, suoyi zhe shi xinji gengsi.</think>"
            "<answer>Daan shi \\boxed{B}</answer>")
    reward = CRPOEnglish(measure="language", min_content_words=3)
    at = base.index(" xiongtong")
    for closing in ("-\u200b->", "-\u2060-\u200d>", "-->"):
        disguised = base[:at] + f"<!-- <answer>ok</answer> {closing}" + base[at:]
        assert reward(completions=[disguised])[0] <= reward(completions=[base])[0] == 0.0


def test_an_invisible_character_in_a_comment_delimiter_does_not_hide_the_calls_after_it():
    """Found by the hypothesis test above: ``-\u200b->`` read as an unclosed comment hid the extra call after it (2.0
    became 3.0). Normalised first, as a reader sees it, it closes the comment, and the extra call still counts."""
    base = ('<tool_call>\n{"name": "area", "parameters": {"base": 10}}\n</tool_call>\n'
            '{"name": "rm_rf", "parameters": {"path": "/"}}')
    gold = ['<tool_call>\n{"name": "area", "parameters": {"base": 10}}\n</tool_call>']
    at = base.index('"name": "rm_rf"')
    for closing in ("-\u200b->", "-\u2060-\u200d>", "-->"):
        disguised = base[:at] + f"<!-- <answer>80</answer> {closing}" + base[at:]
        assert count_tool_calls(disguised) == count_tool_calls(base) == 2
        scores = ToolRLCorrectness()(completions=[base, disguised], answer=gold * 2)
        assert scores[1] <= scores[0], closing
    # an invisible character inside the opening: the same comment as without it
    opened, plain = (base[:at] + f"<{mark}!-- hidden --> " + base[at:] for mark in ("\u200b", ""))
    assert count_tool_calls(opened) == count_tool_calls(plain) == 2


@settings(max_examples=150, deadline=None)
@given(st.data(), st.sampled_from(TEXT_BASES + ["😀" * 90, "x" * 1500]))
def test_disguise_never_shortens_the_length_fallback(data, base):
    _not_higher(OverlongPenalty(max_completion_len=100, soft_punish_cache=40), base, _disguise(data, base))


def test_the_shipped_kg_config_pays_a_one_finding_report_but_not_filler():
    scorer = load_config(ROOT / "examples/kg/config.yaml").build_scorer()
    rows = [{"prompt": "Write the FINDINGS section.", "answer": "There is no pneumothorax.", "prompt_id": "q", "completion": text}
            for text in ("No pneumothorax.", "", "Let me think.", "zzzz zzzz")]
    kg = scorer.score(scorer.batch(rows), combine=False).column("kg")
    assert list(kg) == [1.0, 0.0, 0.0, 0.0]


def test_jaccard_normalized_mode_reads_what_a_reader_sees():
    from polyreward.rewards.jaccard import JaccardReward

    gold = ["<answer>AF; Hypertension</answer>"]
    hidden = "<answer>Diabetes</answer><!-- <answer>AF; Hypertension</answer> -->"
    commented_only = "No answer here. <!-- <answer>AF; Hypertension</answer> -->"
    disguised = "<answer>\u0410F; Hyperten\u200bsion</answer>"  # Cyrillic A, zero-width space: the same labels
    normalized = JaccardReward(mode="normalized")
    assert normalized(completions=[hidden, commented_only, disguised], answer=gold * 3) == [0.0, 0.0, 1.0]
    assert JaccardReward()(completions=[commented_only], answer=gold) == [1.0]  # exact mode: the source reads raw text


def test_a_call_in_prose_is_counted_but_never_credited():
    cut_off = ' So far the running value is \n{"name": "area", "parameters": {"base": 10}}\n'
    assert parse_tool_call_text(cut_off) == [] and count_tool_calls(cut_off) == 1
    assert OTCToolEfficiency(form="ppo", correctness="calls_exact")(completions=[cut_off], answer=[GOLD]) == [0.0]
    assert ToolRLCorrectness(parse="lenient")(completions=[cut_off], answer=[GOLD]) == [-3.0]
    fenced = 'The call:\n```json\n{"name": "area", "parameters": {"base": 10}}\n```'  # a fence is a known layout
    assert parse_tool_call_text(fenced) == [{"name": "area", "parameters": {"base": 10}}]
