"""The reading rules the other-reward genuine sweep (``benchmarks/other_rewards_genuine_sweep.py``, issue #32) found
missing, each as a table of realistic model output both ways (the genuine answer the rule now pays, the exploit it still
refuses) and a Hypothesis property where the rule parses text."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from polyreward.rewards.clinical_reasoning import ClinicalComprehensiveness, ClinicalFaithfulness
from polyreward.rewards.crpo import CRPOAccuracy
from polyreward.rewards.forecast import ForecastClassCost
from polyreward.rewards.tool_calls import ToolRLCorrectness
from polyreward.rewards.tool_efficiency import OTCToolEfficiency
from polyreward.verifiers.tool_calls import ToolCallError, parse_tool_call_text

OPTIONS = {"A": "ECG", "B": "CT of the chest", "C": "Discharge home", "D": "Exercise stress test"}
SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------------ clinical_faithfulness: the reasoning's conclusion
FAITHFULNESS = [
    # DeepSeek-R1's and Mistral's conclusions: an answer phrase with "must be", an option affirmed correct
    ("<think>What about B? Hmm, imaging delays reperfusion. So the answer must be A.</think><answer>ECG. \\boxed{A}</answer>", 1.0),
    ("<think>Option B: imaging delays reperfusion. Therefore, option A is correct.</think><answer>\\boxed{A} ECG first.</answer>", 1.0),
    ("<think>An ECG detects ST elevation; A is the best choice.</think><answer>ECG. \\boxed{A}</answer>", 1.0),
    # the same phrases concluding another option than the answer: c = 0
    ("<think>Imaging first. So the answer must be B.</think><answer>ECG. \\boxed{A}</answer>", 0.0),
    ("<think>Imaging first. Therefore, option B is correct.</think><answer>ECG. \\boxed{A}</answer>", 0.0),
    # a list of the options with an answer phrase still concludes nothing
    ("<think>Option A. Option B. Option C. Option D. The answer must be A.</think><answer>\\boxed{A}</answer>", 0.5),
]


@pytest.mark.parametrize("completion, expected", FAITHFULNESS)
def test_faithfulness_reads_committed_conclusions(completion, expected):
    out = ClinicalFaithfulness().evaluate([None], [completion], options=[OPTIONS])
    assert out.scores == [pytest.approx(expected)], out.reasons


# ------------------------------------------------------------------ clinical_comprehensiveness: "Option B is X; why."
COMPREHENSIVENESS = [
    # Qwen3's layout: the option named, then its reason after ';'
    ("<think>Option A is ECG; it detects ST elevation. Option B is CT of the chest; imaging delays reperfusion. "
     "Option C is Discharge home; unsafe with ongoing pain. Option D is Exercise stress test; contraindicated now."
     "</think><answer>\\boxed{A}</answer>", 1.0),
    ("<think>Option B is CT of the chest; imaging delays reperfusion.</think><answer>\\boxed{A}</answer>", 0.25),
    # lists before one reason weigh at most the last option named alone
    ("<think>Option A; Option B; Option C; Option D.</think><answer>\\boxed{A}</answer>", 0.0),
    ("<think>Option A; Option B; Option C; Option D; alteplase now.</think><answer>\\boxed{A}</answer>", 0.25),
    ("<think>Options A, B; all of them delay care.</think><answer>\\boxed{A}</answer>", 0.0),
]


@pytest.mark.parametrize("completion, expected", COMPREHENSIVENESS)
def test_comprehensiveness_reads_an_option_then_its_reason(completion, expected):
    out = ClinicalComprehensiveness().evaluate([None], [completion], options=[OPTIONS])
    assert out.scores == [pytest.approx(expected)], out.reasons


@SETTINGS
@given(letters=st.lists(st.sampled_from("ABCD"), min_size=1, max_size=8),
       reason=st.sampled_from(["all of them delay care", "imaging delays reperfusion", "unsafe with ongoing pain"]))
def test_a_list_of_options_before_one_reason_weighs_at_most_one(letters, reason):
    text = "; ".join(f"Option {x}" for x in letters) + f"; {reason}."
    out = ClinicalComprehensiveness().evaluate([None], [f"<think>{text}</think><answer>\\boxed{{A}}</answer>"], options=[OPTIONS])
    assert out.scores[0] <= 0.25 + 1e-9, out.reasons


# ------------------------------------------------------------------ crpo_accuracy (committed_answer): inside the block
CRPO_ACCURACY = [
    ("<think>ECG first.</think><answer>\\boxed{A}... wait, no, B.</answer>", 0.0),
    ("<think>ECG first.</think><answer>\\boxed{A}. Wait, no, it is B.</answer>", 0.0),
    ("<think>ECG first.</think><answer>The first step is an ECG. \\boxed{A}</answer>", 1.0),
    ("<think>ECG first.</think><answer>\\boxed{A} An immediate ECG comes first.</answer>", 1.0),
    ("<think>ECG first.</think><answer>**ECG**: an immediate ECG is the first step. \\boxed{A}</answer>", 1.0),
]


@pytest.mark.parametrize("completion, expected", CRPO_ACCURACY)
def test_crpo_accuracy_reads_a_retraction_inside_the_answer_block(completion, expected):
    out = CRPOAccuracy(committed_answer=True).evaluate([None], [completion], answer=["A"])
    assert out.scores == [pytest.approx(expected)], out.reasons


@SETTINGS
@given(other=st.sampled_from("BCD"), opener=st.sampled_from(["... wait, no,", ". Wait, no, it is", ". Actually,", " -- no,"]))
def test_a_box_taken_back_inside_the_block_is_never_paid(other, opener):
    completion = f"<think>ECG first.</think><answer>\\boxed{{A}}{opener} {other}.</answer>"
    assert CRPOAccuracy(committed_answer=True)(completions=[completion], answer=["A"]) == [0.0]


# ------------------------------------------------------------------ tool calls: pretty-printed calls in one block
CALLS = [{"name": "get_stock_price", "parameters": {"symbol": "AAPL"}},
         {"name": "get_stock_price", "parameters": {"symbol": "MSFT"}}]
GOLD = "<tool_call>\n" + "\n".join(json.dumps(c) for c in CALLS) + "\n</tool_call>"
PRETTY = "<tool_call>\n" + "\n".join(json.dumps(c, indent=2) for c in CALLS) + "\n</tool_call>"


def test_pretty_printed_calls_one_after_another_are_read():
    assert parse_tool_call_text(PRETTY) == CALLS
    out = ToolRLCorrectness().evaluate([None], ["<think>Two quotes, one lookup each.</think>\n" + PRETTY], answer=[GOLD])
    assert out.scores == [3.0], out.reasons
    # the exact parse (rlla.py: one JSON object per line) still refuses them
    assert ToolRLCorrectness(parse="toolrl")(completions=["<think>x</think>\n" + PRETTY], answer=[GOLD]) == [-3.0]


@pytest.mark.parametrize("body", [
    json.dumps(CALLS[0], indent=2) + " " + json.dumps(CALLS[1], indent=2),  # the second does not open its line
    json.dumps(CALLS[0], indent=2) + "\nthen MSFT",
    json.dumps(CALLS[0], indent=2) + '\n{\n  "name": "rm_rf",\n  "name": "get_stock_price",\n  "parameters": {}\n}',
])
def test_a_sequence_that_is_not_only_calls_each_opening_a_line_is_malformed(body):
    with pytest.raises(ToolCallError):
        parse_tool_call_text(f"<tool_call>\n{body}\n</tool_call>")


@SETTINGS
@given(calls=st.lists(st.fixed_dictionaries({
    "name": st.from_regex(r"[a-z][a-z_]{0,12}", fullmatch=True),
    "parameters": st.dictionaries(st.from_regex(r"[a-z]{1,6}", fullmatch=True),
                                  st.one_of(st.integers(-99, 99), st.text(max_size=8), st.booleans()), max_size=3)}),
    min_size=2, max_size=4), indent=st.sampled_from([1, 2, 4]))
def test_pretty_printed_calls_read_as_one_per_line(calls, indent):
    compact = "<tool_call>\n" + "\n".join(json.dumps(c) for c in calls) + "\n</tool_call>"
    pretty = "<tool_call>\n" + "\n".join(json.dumps(c, indent=indent) for c in calls) + "\n</tool_call>"
    assert parse_tool_call_text(pretty) == parse_tool_call_text(compact)


# ------------------------------------------------------------------ otc_tool_efficiency: calls after the end of turn
ONE = '<tool_call>\n{"name": "f", "parameters": {"a": 1}}\n</tool_call>'


@pytest.mark.parametrize("completion, expected", [
    (f"<think>One call.</think>\n{ONE}", 1.0),
    (f"<think>One call.</think>\n{ONE}<|im_end|>", 1.0),
    (f"<think>One call.</think><|im_end|>\n{ONE}", 0.0),  # after the end token: a call made, never credited
    (f"<think>One call.</think><|eot_id|>\n{ONE}", 0.0),
])
def test_otc_calls_exact_credits_the_reply_before_its_end_token(completion, expected):
    out = OTCToolEfficiency(correctness="calls_exact").evaluate([None], [completion], answer=[ONE], prompt_id=["q"])
    assert out.scores == [pytest.approx(expected)], out.reasons


# ------------------------------------------------------------------ forecast: a negation in the reason after the block
PROMPT = ("Hourly PM2.5 (µg/m³) at Jongno-gu, Seoul on 2019-05-07, hours 0-23: 21, 20, 19, 19, 18, 20, 23, 27, 29, 28, "
          "26, 25, 24, 23, 22, 22, 24, 26, 28, 29, 27, 25, 24, 23.\nForecast the mean PM2.5 of 2019-05-08. Give one "
          "number inside <answer>...</answer>.")
REASONS = [  # the writer's reason negates a noun of the weather, not the forecast: paid
    "Justification: persistence of today's mean, with no trend in the evening hours, gives 25 µg/m³ for 2019-05-08.",
    "There is no trend in the evening hours.",
    "No change in the weather pattern is expected.",
    "No rain and no wind change, so persistence.",
]
WITHDRAWALS = [  # a negation of the forecast or of the writer's stance: no forecast
    "No.", "No way.", "Not really.", "No chance.", "Never mind.", "no idea", "I'm not sure.", "It won't be that high.",
    "Though with no confidence.", "but honestly there is no basis", "That is not right.", "Don't trust this.",
    "No, 60.", "not a forecast, just a guess",
]


@pytest.mark.parametrize("after", REASONS)
def test_a_reason_negating_the_weather_keeps_the_forecast(after):
    reward = ForecastClassCost(answer_block="required")
    out = reward.evaluate([PROMPT], [f"<think>Persistence.</think>\n<answer>25</answer>\n{after}"], observed=[24.6])
    assert out.scores == [pytest.approx(1.0)], out.reasons


@pytest.mark.parametrize("after", WITHDRAWALS)
def test_a_negation_of_the_forecast_still_withdraws_it(after):
    reward = ForecastClassCost(answer_block="required")
    out = reward.evaluate([PROMPT], [f"<think>Persistence.</think>\n<answer>25</answer>\n{after}"], observed=[24.6])
    assert out.scores == [pytest.approx(-0.1)], out.reasons


@SETTINGS
@given(subject=st.sampled_from(["I", "We", "It", "This", "That", "The forecast", "My estimate"]),
       verb=st.sampled_from(["do not", "don't", "cannot", "will not", "am not", "is not", "won't"]),
       rest=st.from_regex(r"[a-z]{3,9}( [a-z]{3,9}){0,3}", fullmatch=True))
def test_a_negated_clause_about_the_writer_or_the_forecast_always_withdraws(subject, verb, rest):
    reward = ForecastClassCost(answer_block="required")
    completion = f"<think>Persistence.</think>\n<answer>25</answer>\n{subject} {verb} {rest}."
    assert reward.evaluate([PROMPT], [completion], observed=[24.6]).scores == [pytest.approx(-0.1)]


# ------------------------------------------------------------------ kg_triplet_consistency
from polyreward.rewards.kg_triplet import KGTripletConsistency, read_report  # noqa: E402
from polyreward.verifiers.radiology_kg import extract_kg  # noqa: E402

KG_REFERENCE = "The heart is enlarged. There is a small left pleural effusion. There is no pneumothorax."
KG_PROMPT = ("Write the FINDINGS section of a chest X-ray report consistent with these findings.\n"
             "Present: cardiomegaly, pleural effusion\nAbsent: pneumothorax\nUncertain: none")


def _kg(completion: str, reference: str = KG_REFERENCE) -> float:
    reward = KGTripletConsistency(min_content_words=1, drop_prompt_lines=True, empty_reference="skip", contradictions="keep")
    return reward.evaluate([KG_PROMPT], [completion], answer=[reference]).scores[0]


@pytest.mark.parametrize("text, expected", [
    ("Absent: pneumothorax.", {("pneumothorax", "disorder_notpresent")}),
    ("absent: pneumothorax, pleural effusion", {("pneumothorax", "disorder_notpresent"), ("pleural effusion", "disorder_notpresent")}),
    ("Present: cardiomegaly; absent: pneumothorax.", {("cardiomegaly", "disorder_present"), ("pneumothorax", "disorder_notpresent")}),
    ("Not present: pneumothorax and pleural effusion.", {("pneumothorax", "disorder_notpresent"), ("pleural effusion", "disorder_notpresent")}),
    ("Pneumothorax: absent.", {("pneumothorax", "disorder_notpresent")}),  # the status after the label, as before
    ("Cardiomegaly: present.", {("cardiomegaly", "disorder_present")}),
])
def test_a_denying_status_heading_a_list_denies_each_finding(text, expected):
    assert set(extract_kg(text).entities) == expected


def test_a_reasoning_restating_the_prompts_lists_keeps_the_report_whole():
    think = "<think>\nPresent: cardiomegaly, pleural effusion; absent: pneumothorax.\n</think>\n\n"
    assert _kg(think + KG_REFERENCE) == pytest.approx(1.0)
    assert _kg("<think>\nPresent: cardiomegaly, atelectasis.\n</think>\n\n" + KG_REFERENCE) < 1.0  # a finding it adds


@pytest.mark.parametrize("completion, expected", [
    ("No acute findings. <!-- The heart is enlarged. There is a small left pleural effusion. There is no pneumothorax. -->", 0.0),
    ("Report below. <!-- " + KG_REFERENCE + " -->", 0.0),
    (KG_REFERENCE + " <!-- not sure -->", 1.0),
])
def test_a_comment_is_never_part_of_the_report(completion, expected):
    assert _kg(completion) == pytest.approx(expected)


@SETTINGS
@given(hidden=st.sampled_from(["Large right pneumothorax.", "The heart is enlarged.", "Small left pleural effusion.",
                               "No pneumothorax. Cardiomegaly.", "not sure", "x"]),
       visible=st.sampled_from(["No acute findings.", "The heart is enlarged.", KG_REFERENCE, "Cardiomegaly."]))
def test_hiding_findings_in_a_comment_never_changes_the_score(hidden, visible):
    assert _kg(f"{visible} <!-- {hidden} -->") == pytest.approx(_kg(visible))


@pytest.mark.parametrize("completion, expected", [
    ("Cardiomegaly may or may not be present. There is a small left pleural effusion. There is no pneumothorax.", 0.9),
    ("The heart is or is not enlarged. There is a small left pleural effusion. There is no pneumothorax.", 0.9),
    (KG_REFERENCE, 1.0),
    ("Possible cardiomegaly. There is a small left pleural effusion. There is no pneumothorax.", 1.0),  # ReXKG's rule
])
def test_a_finding_stated_both_ways_states_nothing(completion, expected):
    assert _kg(completion) == pytest.approx(expected)


@pytest.mark.parametrize("completion, report", [
    ("The heart is enlarged. Actually, disregard the above.", ""),
    ("The heart is enlarged. Oh wait, ignore that.", ""),
    ("The heart is enlarged. Actually, disregard the above; it is a template.", " it is a template."),
    ("The heart is enlarged. So the study is abnormal.", "The heart is enlarged. So the study is abnormal."),
    ("The heart is enlarged. Actually, the effusion is small.", "The heart is enlarged. Actually, the effusion is small."),
])
def test_a_withdrawal_after_a_discourse_word_withdraws(completion, report):
    assert read_report(completion) == report
