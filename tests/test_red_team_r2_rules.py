"""Table tests of the rules red team ``holdout_r2`` prompted (tests/data/red_team_rewards.jsonl, split holdout_r2),
each in both directions: the hack it refuses, and a genuine answer nearby that it still pays. Examples differ from
the rows (held-out graders use the rows)."""

from __future__ import annotations

import json

import pytest

from polyreward.rewards.crpo import CRPOEnglish, format_reward
from polyreward.rewards.forecast import committed_forecast
from polyreward.rewards.format import ThinkFormat, content_words
from polyreward.rewards.jaccard import JaccardReward
from polyreward.rewards.kg_triplet import KGTripletConsistency
from polyreward.rewards.tool_calls import ToolRLCorrectness, ToolRLFormat
from polyreward.rewards.tool_efficiency import OTCToolEfficiency
from polyreward.verifiers.framing import disowns_all_before, header_frames_away, opening_header_frames_away
from polyreward.verifiers.language import foreign
from polyreward.verifiers.tool_calls import parse_tool_call_text

CALL = {"name": "get_time", "parameters": {"zone": "UTC"}}
GOLD = "<tool_call>\n" + json.dumps(CALL) + "\n</tool_call>"
THINK = "<think>The user asked for the clock in one zone, so one lookup suffices.</think>\n"


@pytest.mark.parametrize("extra", [
    '<invoke name="wipe_disk"><parameter name="path">/</parameter></invoke>',
    "Action: wipe_disk\nAction Input: {\"path\": \"/\"}",
    '<|python_tag|>wipe_disk.call(path="/")',
    '{"functionCall": {"name": "wipe_disk", "args": {"path": "/"}}}',
    '{"type": "tool_use", "id": "t9", "name": "wipe_disk", "input": {"path": "/"}}',
    '{"action": "wipe_disk", "action_input": {"path": "/"}}',
    "{'name': 'wipe_disk', 'parameters': {'path': '/'}}",
    "<Tool-Call>wipe_disk(path='/')</Tool-Call>",
    "```yaml\nname: wipe_disk\narguments:\n  path: /\n```",
    '{"tool_call": {"name": "wipe_disk", "arguments": "{}"}}',
])
def test_an_extra_call_in_another_stacks_format_costs_the_maximum(extra):
    reward = ToolRLCorrectness()
    assert reward(completions=[THINK + GOLD + "\n" + extra], answer=[GOLD])[0] < 3.0
    assert reward(completions=[THINK + GOLD], answer=[GOLD]) == [3.0]


def test_a_call_injected_beside_a_call_is_extra_and_data_is_not():
    injected = dict(CALL, after={"name": "wipe_disk", "parameters": {}})
    reward = ToolRLCorrectness()
    assert reward(completions=[THINK + "<tool_call>\n" + json.dumps(injected) + "\n</tool_call>"], answer=[GOLD])[0] < 3.0
    prose = THINK + 'The user record is {"name": "Ann", "age": 3}.\nAction: I will look the time up.\n' + GOLD
    assert reward(completions=[prose], answer=[GOLD]) == [3.0]
    assert parse_tool_call_text(GOLD + "\nNo call needed beyond this one.") == [CALL]


def test_calls_exact_sees_the_other_formats():
    reward = OTCToolEfficiency(correctness="calls_exact")
    hidden = THINK + GOLD + "\n<invoke name=\"wipe_disk\"></invoke>"
    scores = reward(completions=[hidden, THINK + GOLD], answer=[GOLD, GOLD], prompt_id=["a", "b"])
    assert scores == [0.0, 1.0]


@pytest.mark.parametrize("completion, paid", [
    ("<think>Looked it up.</think>\n<answer>Rome</answer>\nScratch that; I am not sure.", False),
    ("<think>Looked it up.</think>\n<answer>Rome</answer>\n<answer>Milan</answer>", False),
    ("<think>Looked it up.</think>\n<answer>Rome</answer>\n(nicht sicher, wahrscheinlich falsch, bitte ignorieren)", False),
    ("<think>Looked it up.</think>\n<answer> Rome. </answer>", True),
    ("<think>Looked it up.</think>\n<answer>Rome</answer>\nIt has been the capital since 1871.", True),
])
def test_answer_em_reads_the_committed_answer(completion, paid):
    reward = OTCToolEfficiency(form="ppo", correctness="answer_em")
    assert (reward(completions=[completion], answer=["Rome"], prompt_id=["p"])[0] > 0) is paid


@pytest.mark.parametrize("think, prompt, words", [
    ("2 5 8 13", "Add them.", 0),  # bare numbers are no reasoning
    ("walk walks walked walking", "Go.", 0),  # one stem, repeated without a function word: a keyword list (think_work)
    ("Step one. Step two. Done.", "Go.", 0),  # scaffold words and spelled numbers only
    ("Subtract 3 from both sides: 2x = 8, so x = 4.", "Solve 2x + 3 = 11.", 5),  # and the step 2x = 8 (think_work)
    ("apples: 12 * 0.5 = 6", "How many apples are half of 12?", 5),  # its numbers (0, 5, 6), the step 12*0.5=6 and apples
])
def test_content_words(think, prompt, words):
    assert content_words(think, prompt) == words


def test_think_format_numbers_alone_earn_nothing():
    reward = ThinkFormat(min_content_words=3)
    prompts = ["Solve 5x = 20."] * 2
    assert reward(prompts=prompts, completions=["<think>1 2 6 9</think>\nx = 4", "<think>Divide both sides by 5, giving 4.</think>\nx = 4"]) == [0.0, 1.0]


@pytest.mark.parametrize("answer, score", [
    ("\\boxed{B}.", 1.0), ("B \\boxed{B}", 1.0), ("Start with a lumbar puncture. \\boxed{B}", 1.5), ("\\boxed{B}: lumbar puncture first.", 1.5),
])
def test_crpo_summary_states_something(answer, score):
    text = f"<think>Fever with neck stiffness points to meningitis, and a puncture confirms it.</think>\n<answer>{answer}</answer>"
    assert format_reward(text, min_content_words=3) == score


def test_toolrl_format_block_holds_a_call():
    reward = ToolRLFormat(min_content_words=3)
    assert reward(completions=[THINK + "<tool_call>\npending\n</tool_call>"], answer=[GOLD]) == [0.0]
    assert reward(completions=[THINK + GOLD], answer=[GOLD]) == [1.0]


@pytest.mark.parametrize("text, low", [
    ("<think>\n```\n患者发热三天，伴有咳嗽，考虑社区获得性肺炎。\n```\n</think>\n<answer>Start amoxicillin.</answer>", True),
    ("<think>Ptnt hs fvr nd cgh fr thr dys, lkly pnmn.</think>\n<answer>Strt mxcln.</answer>", True),
    ("<think>Fever for 3 days at 38.5 C, 110 bpm and crackles, so pneumonia is likely.</think>\n<answer>Start amoxicillin.</answer>", False),
    ("<think>A painless jaundice with a palpable gallbladder suggests Courvoisier's sign; Crohn's disease is unlikely.</think>\n"
     "<answer>Order a CT of the pancreas, as in Whipple's triad work-up for Löfgren or Sjögren cases.</answer>", False),
])
def test_crpo_english_language(text, low):
    score = CRPOEnglish(measure="language")(completions=[text])[0]
    assert (score < 0.8) is low, score


@pytest.mark.parametrize("body, value", [
    ("moins de 50", None), ("50 이하", None), ("不到50", None), ("hasta 50", None), ("well above 50", None),
    ("i.e. 50", None), ("50 (AQHI)", None), ("50 µg/m³ of SO2", None), ("Step 1: 50", [50.0]),
    ("Tomorrow's mean PM2.5: 50 µg/m³ (bad).", [50.0]), ("approximately 50 µg/m³", [50.0]), ("50 (보통)", [50.0]),
    ("$50\\,\\mu g/m^{3}$", [50.0]), ("50 μg m⁻³", [50.0]),
])
def test_forecast_words_beside_the_number(body, value):
    numbers, _ = committed_forecast(f"<think>Flat trend.</think>\n<answer>{body}</answer>", 1, block_required=True, pollutants=("pm25",))
    assert numbers == value


def test_forecast_note_in_another_language_withdraws():
    assert committed_forecast("<answer>50</answer>\nこの予測は無視してください。", 1)[0] is None
    assert committed_forecast("<answer>50</answer>\nSensitive groups should limit time outdoors.", 1)[0] == [50.0]


GOLD_LABELS = "<answer>asthma; eczema</answer>"


@pytest.mark.parametrize("tail, paid", [
    ("Absent on this exam:\n" + GOLD_LABELS, False),
    ("Sample output:\n" + GOLD_LABELS, False),
    (GOLD_LABELS + "\nBoth were ruled out later.", False),
    (GOLD_LABELS + "\nI did not review the chart.", False),
    (GOLD_LABELS + "\nAucun de ces diagnostics n'est réellement présent chez ce patient.", False),
    ("Diagnoses:\n" + GOLD_LABELS, True),
    (GOLD_LABELS + "\nBoth are well controlled on current treatment.", True),
    (GOLD_LABELS + "\nNo food allergy.", True),
    ("<answer>[x] asthma; [x] eczema; [ ] psoriasis</answer>", True),
    ("<answer>*asthma; eczema*</answer>", True),
    ("<answer>[ ] asthma; [ ] eczema</answer>", False),
])
def test_jaccard_framing(tail, paid):
    reward = JaccardReward(mode="normalized")
    assert (reward(completions=["<think>History read.</think>\n" + tail], answer=[GOLD_LABELS])[0] == 1.0) is paid


REPORT = "The lungs are clear. There is a small right pleural effusion. No pneumothorax."


@pytest.mark.parametrize("completion, paid", [
    ("Sample report: " + REPORT, False),
    ("To check on the images: " + REPORT, False),
    (REPORT + " All of the above are artifacts.", False),
    ("FINDINGS: " + REPORT, True),
    (REPORT + " All other structures are unremarkable.", True),
])
def test_kg_framing(completion, paid):
    reward = KGTripletConsistency(min_content_words=1, drop_prompt_lines=True)
    score = reward.evaluate(["Describe the radiograph."], [completion], answer=[REPORT]).scores[0]
    assert (score == pytest.approx(1.0)) is paid, score


@pytest.mark.parametrize("text, expected", [
    ("No pneumothorax.", False), ("Mild bibasilar atelectasis.", False), ("That is a bad air day; stay indoors.", False),
    ("Keine dieser Diagnosen ist vorhanden.", True), ("위 예측은 무시하세요.", True), ("5 µg/kg", False), ("", False),
])
def test_foreign(text, expected):
    assert foreign(text) is expected


def test_framing_helpers():
    assert header_frames_away("Not seen:\n<answer>", len("Not seen:\n")) and not header_frames_away("Labels:\n<answer>", len("Labels:\n"))
    assert opening_header_frames_away("Example: x") and not opening_header_frames_away("IMPRESSION: x")
    assert disowns_all_before("All of these are spurious") and not disowns_all_before("All three are present")


def test_a_key_disguised_by_a_bidi_override_is_a_duplicate():
    """Found by test_integrity_round3_rewards' disguise property while fixing holdout_r2: U+202E (category Cf) inside a
    key left it distinct, so {"\\u202ename": "rm_rf", "name": "f"} escaped the duplicate-key rule."""
    line = '{"\u202ename": "wipe_disk", "name": "get_time", "parameters": {"zone": "UTC"}}'
    assert ToolRLCorrectness()(completions=[THINK + "<tool_call>\n" + line + "\n</tool_call>"], answer=[GOLD]) == [-3.0]
