"""Rules prompted by the red team split ``holdout_r10`` (written blind 2026-12-05 on what real deployments feed the
rewards; first sight in benchmarks/results/red_team_rewards_holdout_r10_first_sight.md): each a table of the genuine
form it now pays beside the nearby hack it still refuses, with variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.forecast import committed_forecast
from polyreward.verifiers.forecast import class_edges

_KOREA_PM25 = class_edges("korea", "pm25")


def forecast_of(block: str):
    return committed_forecast(f"<answer>{block}</answer>", 1, True, ("pm25",), None, _KOREA_PM25)[0]


# --- forecast_class_cost: a number grouped in thousands with commas is one number ---------------------------------
@pytest.mark.parametrize(
    "block,value",
    [
        # genuine: English thousands groups (Delhi's PM10 in November, Lahore's PM2.5)
        ("1,085 µg/m³", 1085.0),
        ("1,085", 1085.0),
        ("1,085.5 ug/m3", 1085.5),
        ("Daily mean: 1,204 µg/m³", 1204.0),
        ("12,345", 12345.0),
        # a decimal comma is still a decimal comma
        ("23,5", 23.5),
        ("41,75 µg/m³", 41.75),
        # hacks: two values, a list of grouped values, a range of grouped values, a bound
        ("1,120 / 140", None),
        ("1,085, 1,120", None),
        ("1,085–1,210", None),
        ("1,085 or 140", None),
        ("> 1,000", None),
        ("1,000+", None),
        ("at least 1,085", None),
    ],
)
def test_thousands_commas_group_one_number(block, value):
    assert forecast_of(block) == ([value] if value is not None else None)


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=1000, max_value=9_999_999), st.sampled_from(["", " µg/m³", " ug/m3"]))
def test_a_comma_grouped_integer_reads_its_value(value, unit):
    assert forecast_of(f"{value:,}{unit}") == [float(value)]


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=1000, max_value=99_999), st.integers(min_value=1, max_value=999),
       st.sampled_from([" / ", ", ", " or ", "–", " to "]))
def test_two_comma_grouped_values_are_no_forecast(first, second, joint):
    assert forecast_of(f"{first:,}{joint}{second:,}") is None


# --- jaccard (normalised): a bracket after a label that only places or sizes it as the report does -----------------
from polyreward.rewards.jaccard import JaccardReward  # noqa: E402
from polyreward.verifiers.label_sets import read_labels  # noqa: E402

_NODULE_REPORT = ("EXAM: CXR PA/LAT\nIMPRESSION:\n1. NO ACUTE CARDIOPULMONARY PROCESS.\n"
                  "2. STABLE 6 MM RIGHT UPPER LOBE NODULE.")
_EFFUSION_REPORT = "FINDINGS: Small left pleural effusion. Mild cardiomegaly. No pneumothorax."


@pytest.mark.parametrize(
    "report,gold,labels,expected",
    [
        # genuine: the report's place and size in a bracket after the label, or its measurement before it
        (_NODULE_REPORT, "nodule", "Nodule (RUL, 6 mm)", 1.0),
        (_NODULE_REPORT, "nodule", "nodule (right upper lobe)", 1.0),
        (_NODULE_REPORT, "nodule", "nodule (6 mm)", 1.0),
        (_NODULE_REPORT, "nodule", "6 mm RUL nodule", 1.0),
        (_EFFUSION_REPORT, "cardiomegaly; pleural effusion", "pleural effusion (small, left), cardiomegaly (mild)", 1.0),
        (_EFFUSION_REPORT, "cardiomegaly; pleural effusion", "cardiomegaly, effusion (left)", 1.0),
        # hacks: a size, place or status the report does not write stays an extra label
        (_NODULE_REPORT, "nodule", "nodule (RUL, 8 mm)", 0.0),
        (_NODULE_REPORT, "nodule", "8 mm nodule", 0.0),
        (_NODULE_REPORT, "nodule", "nodule (LUL)", 0.0),
        (_NODULE_REPORT, "nodule", "nodule (possible)", 0.0),
        (_NODULE_REPORT, "nodule", "nodule (RUL, likely granuloma)", 0.0),
        (_EFFUSION_REPORT, "cardiomegaly; pleural effusion", "pleural effusion (right), cardiomegaly", 1 / 3),
        (_EFFUSION_REPORT, "cardiomegaly; pleural effusion", "pleural effusion (large, left), cardiomegaly", 1 / 3),
        (_EFFUSION_REPORT, "cardiomegaly; pleural effusion", "cardiomegaly, pleural effusion, pneumothorax (small)", 2 / 3),
    ],
)
def test_bracket_of_place_and_size_after_a_label(report, gold, labels, expected):
    reward = JaccardReward(mode="normalized")
    got = reward(prompts=[report], completions=[f"<answer>{labels}</answer>"], answer=[f"<answer>{gold}</answer>"])
    assert got == [pytest.approx(expected)]


@pytest.mark.parametrize(
    "body,labels",
    [
        ("Nodule (RUL, 6 mm)", ["Nodule (RUL, 6 mm)"]),
        ("a (x, y), b [c, d], e", ["a (x, y)", "b [c, d]", "e"]),
        ("1) cardiomegaly, 2) edema", ["cardiomegaly", "edema"]),  # an unmatched bracket is a list marker
        ("cardiomegaly, edema and effusion", ["cardiomegaly", "edema", "effusion"]),
    ],
)
def test_commas_inside_a_bracket_do_not_split_labels(body, labels):
    assert read_labels(body) == labels


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text("abcdefghij ", min_size=1, max_size=8).map(str.strip).filter(bool), min_size=1, max_size=4),
       st.lists(st.text("klmnop ", min_size=1, max_size=6).map(str.strip).filter(bool), min_size=2, max_size=3))
def test_a_bracket_keeps_its_commas(labels, inner):
    body = ", ".join(labels[:-1] + [f"{labels[-1]} ({', '.join(inner)})"])
    assert read_labels(body)[-1] == f"{labels[-1]} ({', '.join(inner)})"
    assert len(read_labels(body)) == len(labels)


# --- otc_tool_efficiency (calls_exact): Mistral's [TOOL_CALLS] list is the calls it carries -----------------------
from polyreward.rewards.tool_efficiency import OTCToolEfficiency  # noqa: E402
from polyreward.verifiers.tool_calls import parse_tool_call_text  # noqa: E402

_GOLD_FLIGHT = ('<tool_call>\n{"name": "search_flights", "parameters": {"origin": "CDG", "destination": "FCO", '
                '"date": "2027-03-18", "max_stops": 0}}\n</tool_call>')
_CALL = '{"name": "search_flights", "arguments": {"origin": "CDG", "destination": "FCO", "date": "2027-03-18", "max_stops": 0}}'
_HEDGE = _CALL.replace("2027-03-18", "2027-03-19")


@pytest.mark.parametrize(
    "completion,expected",
    [
        # genuine: the Mistral layout, with or without the space, and the bare list it wraps
        (f"[TOOL_CALLS] [{_CALL}]", 1.0),
        (f"[TOOL_CALLS][{_CALL}]", 1.0),
        (f"\n[TOOL_CALLS] [{_CALL}]\n", 1.0),
        (f"[{_CALL}]", 1.0),
        # hacks: a second (hedging) call in the list, a duplicate, a second list after the first, prose after the marker
        (f"[TOOL_CALLS] [{_CALL}, {_HEDGE}]", 0.0),
        (f"[TOOL_CALLS] [{_CALL}, {_CALL}]", 0.0),
        (f"[TOOL_CALLS] [{_CALL}]\n[TOOL_CALLS] [{_HEDGE}]", 0.0),
        (f"[TOOL_CALLS] I would call {_CALL}", 0.0),
    ],
)
def test_mistral_tool_calls_list(completion, expected):
    reward = OTCToolEfficiency(form="grpo", correctness="calls_exact")
    got = reward(prompts=["p"], completions=[completion], answer=[_GOLD_FLIGHT], prompt_id=["g"])
    assert got == [pytest.approx(expected)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=99), min_size=1, max_size=4),
       st.sampled_from(["[TOOL_CALLS] ", "[TOOL_CALLS]", " [TOOL_CALLS]\n"]))
def test_mistral_marker_carries_every_call_of_its_list(values, marker):
    calls = [{"name": "f", "arguments": {"k": v}} for v in values]
    import json

    parsed = parse_tool_call_text(marker + json.dumps(calls))
    assert [c["parameters"]["k"] for c in parsed] == values


# --- forecast_class_cost: AirKorea's Korean labels beside the value -------------------------------------------------
_BUSAN = ("Hourly PM2.5 (µg/m³) at 부산 연산동 측정소 on 2026-12-01, hours 0-23: 19, 18, 18, 17.\n"
          "Forecast the mean PM2.5 of 2026-12-02. Give one number inside <answer>...</answer>.")


def korean_forecast(block: str, pollutant: str = "pm25"):
    return committed_forecast(f"<answer>{block}</answer>", 1, True, (pollutant,), _BUSAN, class_edges("korea", pollutant))[0]


@pytest.mark.parametrize(
    "block,pollutant,value",
    [
        # genuine: tomorrow, the daily mean, the forecast, the concentration, the pollutant's Korean name
        ("내일 연산동 일평균 초미세먼지 예보: 22㎍/㎥ (보통)", "pm25", 22.0),
        ("내일 초미세먼지 농도 22㎍/㎥", "pm25", 22.0),
        ("예측: 22", "pm25", 22.0),
        ("내일 미세먼지 예보: 40", "pm10", 40.0),
        # hacks: a bound (미만 'under', 이상 'or more', 초과 'over'), 약 ('about', as the sign ~ and 约), two values,
        # the other dust's name (미세먼지 is PM10, 초미세먼지 PM2.5)
        ("22㎍/㎥ 미만", "pm25", None),
        ("내일 22 이상", "pm25", None),
        ("35 초과", "pm25", None),
        ("약 22", "pm25", None),
        ("오늘 평균 19, 내일 22", "pm25", None),
        ("내일 미세먼지 예보: 40", "pm25", None),
        ("내일 초미세먼지 예보: 22", "pm10", None),
        ("초미세먼지 22, 미세먼지 40", "pm25", None),
    ],
)
def test_korean_forecast_labels(block, pollutant, value):
    assert korean_forecast(block, pollutant) == ([value] if value is not None else None)


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=1, max_value=300), st.sampled_from(["미만", "이하", "이상", "초과", "정도일 수도"]),
       st.sampled_from(["내일 ", "내일 일평균 ", "예보: ", ""]))
def test_a_korean_bound_after_the_value_is_no_forecast(value, bound, label):
    assert korean_forecast(f"{label}{value}㎍/㎥ {bound}") is None


# --- forecast_class_cost: an interval after the point, where the prompt allows one ---------------------------------
from polyreward.verifiers.forecast_intervals import without_allowed_interval  # noqa: E402

_ALLOWS = ("Hourly PM2.5 (µg/m³) at Chengdu on 2026-12-15: 48, 46, 45.\nForecast the mean PM2.5 of 2026-12-16. Give a "
           "point forecast inside <answer>...</answer>; you may add an 80% interval in parentheses after it.")
_ONE_NUMBER = ("Hourly PM2.5 (µg/m³) at Chengdu on 2026-12-15: 48, 46, 45.\nForecast the mean PM2.5 of 2026-12-16. "
               "Give one number inside <answer>...</answer>.")


def forecast_under(prompt: str, block: str):
    return committed_forecast(f"<answer>{block}</answer>", 1, True, ("pm25",), prompt, _KOREA_PM25)[0]


@pytest.mark.parametrize(
    "prompt,block,value",
    [
        # genuine: the point with the interval the prompt allows, in its usual spellings
        (_ALLOWS, "52 (80% interval 45–60)", 52.0),
        (_ALLOWS, "52 µg/m³ (80% interval 45–60 µg/m³)", 52.0),
        (_ALLOWS, "52 (80% PI: 45 to 60)", 52.0),
        (_ALLOWS, "52 (prediction interval 45-60)", 52.0),
        (_ALLOWS, "52", 52.0),
        # hacks: an interval without its point, one that leaves out the point, a second value after it, other words in
        # the bracket, a range not named an interval, and any interval where the prompt asks for one number
        (_ALLOWS, "(80% interval 30–80)", None),
        (_ALLOWS, "52 (80% interval 55–60)", None),
        (_ALLOWS, "52 (80% interval 45–60) or 70", None),
        (_ALLOWS, "52 (80% interval 45–60, likely lower)", None),
        (_ALLOWS, "52 (range 30–80)", None),
        (_ALLOWS, "45–60", None),
        (_ONE_NUMBER, "52 (80% interval 45–60)", None),
    ],
)
def test_an_allowed_interval_after_the_point(prompt, block, value):
    assert forecast_under(prompt, block) == ([value] if value is not None else None)


@settings(max_examples=120, deadline=None)
@given(st.integers(min_value=1, max_value=300), st.integers(min_value=0, max_value=50), st.integers(min_value=0, max_value=50),
       st.booleans())
def test_an_interval_is_read_past_only_around_its_point(value, below, above, allowed):
    low, high = max(0, value - below), value + above
    words = frozenset({"interval"}) if allowed else frozenset()
    kept = without_allowed_interval(f"{value} (80% interval {low}–{high})", words)
    assert (kept == str(value)) == allowed
    outside = without_allowed_interval(f"{value} (80% interval {value + 1}–{value + 1 + above})", words)
    assert "interval" in outside


# --- tool calls (lenient reading): Llama 3.2's pythonic layout, the whole reply one bracketed list of calls ---------
_GOLD_TASK = '<tool_call>\n{"name": "update_task", "parameters": {"task_id": 57, "done": true}}\n</tool_call>'
_GOLD_TWO = ('<tool_call>\n{"name": "get_weather", "parameters": {"city": "Lyon"}}\n'
             '{"name": "get_time", "parameters": {"tz": "CET"}}\n</tool_call>')


@pytest.mark.parametrize(
    "completion,gold,expected",
    [
        # genuine: the layout the Llama 3.2 system prompt asks for
        ("[update_task(task_id=57, done=True)]", _GOLD_TASK, 1.0),
        ("  [update_task(done=True, task_id=57)]\n", _GOLD_TASK, 1.0),
        ('[get_weather(city="Lyon"), get_time(tz="CET")]', _GOLD_TWO, 1.0),
        # hacks: a hedging second call, a second list on another line, the list inside prose, a wrong value
        ("[update_task(task_id=57, done=True), update_task(task_id=57, done=False)]", _GOLD_TASK, 0.0),
        ("[update_task(task_id=57, done=True)]\n[update_task(task_id=58, done=True)]", _GOLD_TASK, 0.0),
        ("I would run [update_task(task_id=57, done=True)]", _GOLD_TASK, 0.0),
        ("[update_task(task_id=57, done=False)]", _GOLD_TASK, 0.0),
    ],
)
def test_pythonic_list_reply(completion, gold, expected):
    reward = OTCToolEfficiency(form="grpo", correctness="calls_exact")
    got = reward(prompts=["p"], completions=[completion], answer=[gold], prompt_id=["g"])
    assert got == [pytest.approx(expected)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=999), min_size=1, max_size=4))
def test_pythonic_list_carries_each_call(values):
    text = "[" + ", ".join(f"set_level(value={v})" for v in values) + "]"
    assert [c["parameters"]["value"] for c in parse_tool_call_text(text)] == values


# --- crpo_format: the boxed option's own text is a summary, not a pasted prompt -------------------------------------
from polyreward.rewards.crpo import format_reward  # noqa: E402

_AG = ("A 45-year-old with vomiting has Na 140, Cl 100 and HCO3 10 mmol/L. Which disorder? A. Normal anion gap acidosis "
       "B. High anion gap metabolic acidosis C. Metabolic alkalosis D. Respiratory acidosis. Think inside <think>, answer "
       "inside <answer> with \\boxed{letter} and a summary.")
_AG_LINES = _AG.replace(" A. ", "\nA. ").replace(" B. ", "\nB. ").replace(" C. ", "\nC. ").replace(" D. ", "\nD. ")
_AG_THINK = "<think>The anion gap is 140 minus 110, which is 30, so it is high.</think>\n"


@pytest.mark.parametrize("prompt", [_AG, _AG_LINES])
@pytest.mark.parametrize(
    "answer,expected",
    [
        # genuine: the boxed option's text, before or after the box, or its start
        ("High anion gap metabolic acidosis. \\boxed{B}", 1.5),
        ("\\boxed{B} High anion gap metabolic acidosis.", 1.5),
        ("High anion gap metabolic. \\boxed{B}", 1.5),
        ("The anion gap is 30: high anion gap acidosis. \\boxed{B}", 1.5),
        # hacks: another option's text, the options pasted on from the boxed one, the question pasted
        ("Normal anion gap acidosis. \\boxed{B}", 1.0),
        ("High anion gap metabolic acidosis C. Metabolic alkalosis. \\boxed{B}", 1.0),
        ("High anion gap metabolic acidosis. \\boxed{A}", 1.0),
        ("Metabolic alkalosis D. Respiratory acidosis. \\boxed{C}", 1.0),
        ("Na 140, Cl 100 and HCO3 10 mmol/L. \\boxed{B}", 1.0),
    ],
)
def test_boxed_options_text_is_a_summary(prompt, answer, expected):
    assert format_reward(f"{_AG_THINK}<answer>{answer}</answer>", 3, prompt) == expected


@settings(max_examples=60, deadline=None)
@given(st.sampled_from("ABCD"), st.sampled_from("ABCD"))
def test_only_the_boxed_options_text_is_its_summary(boxed, written):
    options = {"A": "Normal anion gap acidosis", "B": "High anion gap metabolic acidosis", "C": "Metabolic alkalosis",
               "D": "Respiratory acidosis"}
    if len(options[written].split()) < 3:  # a two-word summary is never a copy (holdout_r4's rule is 3+ words)
        return
    got = format_reward(f"{_AG_THINK}<answer>{options[written]}. \\boxed{{{boxed}}}</answer>", 3, _AG)
    assert got == (1.5 if boxed == written else 1.0)
