"""Reward integrity: each reward pays only for a committed, substantive answer (with its guard on), and keeps the
source rule when configured. One row per (reward, completion): the score with the source rule and with the guard.

Also: the linear-time rewrites give the released regexes' results (hypothesis), and their cost grows linearly
(CPU time at 10 KB, 100 KB and 1 MB; time.process_time, not wall time, so a loaded machine does not fail it).
"""

from __future__ import annotations

import gc
import json
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.crpo import _BOX_GROUP, _FORMAT, CRPOEnglish, CRPOFormat, boxed_groups, format_parts
from polyreward.rewards.forecast import committed_forecast
from polyreward.rewards.format import ThinkFormat, content_words
from polyreward.rewards.kg_triplet import KGTripletConsistency
from polyreward.rewards.length import OverlongPenalty, word_count
from polyreward.rewards.tool_calls import ToolRLCorrectness, ToolRLFormat
from polyreward.rewards.tool_efficiency import OTCToolEfficiency
from polyreward.rubrics.judge_rules import check_rule
from polyreward.rubrics.rule_grammar import validate_rule
from polyreward.rubrics.reward import RubricReward
from polyreward.verifiers import radiology_kg
from polyreward.verifiers.text_forms import plain_text
from polyreward.verifiers.language import english_share
from polyreward.verifiers.tool_calls import count_tool_calls

THINK = "<think>I check each finding against the history and the prior film.</think>"

# (reward factory source rule, factory guarded, completion, row columns, source score, guarded score)
FORMAT_ROWS = [
    (ThinkFormat, {}, "<think></think>The answer is 4.", 1.0, 0.0),
    (ThinkFormat, {}, "<think>zzzz zzzz</think>The answer is 4.", 1.0, 0.0),
    (ThinkFormat, {}, "<think>z\u200bz\u200bz the the the</think>4", 1.0, 0.0),
    (ThinkFormat, {}, f"{THINK}", 1.0, 0.0),  # nothing after the reasoning
    (ThinkFormat, {}, f"{THINK}\n<answer></answer>", 1.0, 0.0),
    (ThinkFormat, {}, f"{THINK}\nThe answer is 4.", 1.0, 1.0),
    (ThinkFormat, {"require_answer": True}, f"{THINK}\n<answer> </answer>", 1.0, 0.0),
    (ThinkFormat, {"require_answer": True}, f"{THINK}\n<answer>4</answer>", 1.0, 1.0),
    (ThinkFormat, {"require_answer": True}, "<think>a b</think>\n<answer>4</answer>", 1.0, 0.0),
    (ThinkFormat, {}, f"{THINK}\n**D**", 1.0, 1.0),  # a one-letter answer is an answer
    (CRPOFormat, {}, f"{THINK}\n<answer>\\boxed{{D}}</answer>", 1.0, 1.0),
    (CRPOFormat, {}, "<think></think><answer>x \\boxed{A}</answer>", 1.5, 0.0),
    (CRPOFormat, {}, "<think>zzzz</think>\n<answer>\\boxed{A}</answer>", 1.0, 0.0),
    (CRPOFormat, {}, f"{THINK}\n<answer></answer>", 1.0, 0.0),
    # red team holdout_r3: a summary must say something of the case (a content word of the reasoning or question)
    (CRPOFormat, {}, f"{THINK}\n<answer>So the answer is \\boxed{{A}}</answer>", 1.5, 1.0),
    (CRPOFormat, {}, f"{THINK}\n<answer>The prior film settles it. \\boxed{{A}}</answer>", 1.5, 1.5),
    (CRPOEnglish, {}, "zzzz", 1.0, 0.0),
    (CRPOEnglish, {}, "", 0.0, 0.0),
    (CRPOEnglish, {}, "The tendon repair must be reported to the patient.", 1.0, 1.0),
]


@pytest.mark.parametrize("cls, params, completion, source, guarded", FORMAT_ROWS)
def test_format_rewards_need_content_when_guarded(cls, params, completion, source, guarded):
    assert cls(**params)(completions=[completion]) == [source]
    assert cls(min_content_words=3, **params)(completions=[completion]) == [guarded]


def test_content_words_counts_distinct_substantive_words():
    assert content_words("") == 0
    assert content_words("zzzz z z a a a") == 0
    assert content_words("the the the") == 0  # a stop word, however often
    assert content_words("heart heart heart") == 1
    assert content_words("2 + 2 = 4") == 2
    assert content_words("<answer></answer>") == 0  # markup is not content
    assert content_words("z\u200bz\u200bz") == 0
    assert content_words("Heart size is normal") == 3  # "is" is a stop word


@pytest.mark.parametrize("value", [-1, 1.5, True, "3"])
def test_min_content_words_is_validated(value):
    with pytest.raises(ValueError, match="min_content_words"):
        ThinkFormat(min_content_words=value)


TOOL_REFERENCE = '<tool_call>\n{"name": "area", "parameters": {"base": 10}}\n</tool_call>'
GOOD_CALL = '<tool_call>\n{"name": "area", "parameters": {"base": 10}}\n</tool_call>'
RM_RF = '<tool_call>\n{"name": "rm_rf", "parameters": {"path": "/"}}\n</tool_call>'


@pytest.mark.parametrize(
    "completion, first, every",
    [
        (f"{THINK}\n{GOOD_CALL}", 3.0, 3.0),
        # rlla.py never sees the second block; read whole, the extra call halves the name match: S = 0.5 + 2 of 3
        (f"{THINK}\n{GOOD_CALL}\n{RM_RF}", 3.0, 6 * 2.5 / 3 - 3),
        (f"{THINK}\n{RM_RF}\n{GOOD_CALL}", -3.0, 6 * 2.5 / 3 - 3),
        (f"{THINK}\n<tool_call>\n\n</tool_call>", -3.0, -3.0),
    ],
)
def test_toolrl_correctness_reads_every_block_when_guarded(completion, first, every):
    assert ToolRLCorrectness(parse="toolrl", read_blocks="first")(completions=[completion], answer=[TOOL_REFERENCE]) == [pytest.approx(first)]
    assert ToolRLCorrectness()(completions=[completion], answer=[TOOL_REFERENCE]) == [pytest.approx(every)]  # the default


@pytest.mark.parametrize(
    "completion, source, guarded",
    [
        (f"<think></think>\n{GOOD_CALL}", 1.0, 0.0),
        (f"{THINK}\n<tool_call>\n\n</tool_call>", 1.0, 0.0),
        (f"{THINK}\n{GOOD_CALL}", 1.0, 1.0),
    ],
)
def test_toolrl_format_needs_content_when_guarded(completion, source, guarded):
    assert ToolRLFormat()(completions=[completion], answer=[TOOL_REFERENCE]) == [source]
    assert ToolRLFormat(min_content_words=3)(completions=[completion], answer=[TOOL_REFERENCE]) == [guarded]


def test_otc_counts_the_calls_of_a_bare_json_list():
    reward = OTCToolEfficiency(correctness="calls_exact")
    tagged = f"{THINK}\n{GOOD_CALL}"
    bare = '[{"name": "area", "parameters": {"base": 10}}]'
    out = reward.evaluate([None, None], [tagged, bare], answer=[TOOL_REFERENCE] * 2, prompt_id=["q", "q"])
    assert out.details["tool_calls"] == [1.0, 1.0]
    assert out.scores[0] == out.scores[1] == pytest.approx(1.0)  # the same calls, the same reward


def test_otc_hostile_group_ids_are_groups_like_any_other():
    """Keyed by the project's one group key (no recursion): a list nested 100,000 deep or an int of 5,000 digits is
    a group of its own, never a failed batch."""
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    reward = OTCToolEfficiency(correctness="calls_exact")
    ids = ["a", deep, "a", 10**5000, [1, [2]], [1, [2]]]
    out = reward.evaluate([None] * 6, [f"{THINK}\n{GOOD_CALL}"] * 6, answer=[TOOL_REFERENCE] * 6, prompt_id=ids)
    assert out.scores == [pytest.approx(1.0)] * 6, out.reasons
    running = OTCToolEfficiency(correctness="calls_exact", running_min=True)
    running.evaluate([None] * 2, [f"{THINK}\n{GOOD_CALL}"] * 2, answer=[TOOL_REFERENCE] * 2, prompt_id=[7, "7"])
    assert json.loads(json.dumps(running.state_dict())) == {"best_calls": {"7": 1}}  # 7 and "7" are one group


REPORT = "Heart is mildly enlarged. There is a small right pleural effusion."
PROMPT = "Write the FINDINGS section.\nPresent: cardiomegaly, pleural effusion\nAbsent: none"


@pytest.mark.parametrize(
    "completion, reference, source, guarded",
    [
        ("", "Normal study.", 1.0, 0.0),  # both graphs empty: the CheXPO rule pays 1.0
        ("   ", "Normal study.", 1.0, 0.0),
        ("No acute cardiopulmonary process is seen.", "Normal study.", 1.0, 1.0),
        (PROMPT, "Normal study.", 0.5, 0.0),  # the pasted prompt: J_R = 1 (no relations); guarded, no line survives
        ("Present: cardiomegaly, pleural effusion", REPORT, None, 0.0),
        # a sentence with words of its own ('and', 'are') is read as a report: it earns only what it matches
        ("Findings: pleural effusion and cardiomegaly are present.", REPORT, None, 0.25),
        ("Findings: cardiomegaly, pleural effusion", REPORT, None, 0.0),  # reworded with the prompt's own words only
        (REPORT, REPORT, 1.0, 1.0),
    ],
)
def test_kg_guards(completion, reference, source, guarded):
    plain = KGTripletConsistency().evaluate([PROMPT], [completion], answer=[reference]).scores[0]
    safe = KGTripletConsistency(min_content_words=3, drop_prompt_lines=True).evaluate([PROMPT], [completion], answer=[reference]).scores[0]
    if source is not None:
        assert plain == pytest.approx(source)
    assert safe == pytest.approx(guarded)


@pytest.mark.parametrize(
    "text, words",
    [("one two three", 3), ("\u200b".join(["word"] * 200), 200), ("_".join(["w"] * 200), 200), ("x" * 10_000, 625),
     ("a\u2060b\ufeffc\u00add", 4), ("", 0)],
)
def test_overlong_word_counts_see_through_joiners(text, words):
    assert word_count(text) == words
    expected = 0.0 if words <= 60 else -1.0
    assert OverlongPenalty(max_completion_len=100, soft_punish_cache=40)(completions=[text]) == [expected]


RUBRIC = [
    {"criterion": "Advises calling 911.", "points": 10, "rule": {"regex": "\\b(911|ambulance)\\b"}},
    {"criterion": "Recommends aspirin.", "points": 5, "rule": {"contains": "aspirin"}},
    {"criterion": "Recommends waiting to see.", "points": -5, "rule": {"regex": "wait (and|to) see"}},
]


@pytest.mark.parametrize(
    "response, source, guarded",
    [
        ("Call 911 now and chew an aspirin while you wait for them.", 1.0, 1.0),
        ("911 ambulance aspirin emergency heart attack rest unlock drive", 1.0, 0.0),  # keyword stuffing
        ("911, ambulance, aspirin", 1.0, 0.0),
        ("Never call 911. Do not take aspirin.", 1.0, 0.0),  # harmful advice that names the keywords
        ("Don't hesitate to call 911.", 10 / 15, 10 / 15),
        ("Do not wait and see: call 911 right now.", 5 / 15, 10 / 15),  # a negated undesirable behaviour is not met
        ("Call 911 now. Then w\u0430it and see.", 5 / 15, 5 / 15),  # Cyrillic 'а' hides no word: the penalty applies
        ("Call 911 now. Then wa\u200bit and see.", 5 / 15, 5 / 15),  # neither does a zero-width space
        ("Ｃａｌｌ ９１１ now.", 10 / 15, 10 / 15),  # full-width forms read as plain text
    ],
)
def test_rubric_rules_guard(tmp_path, response, source, guarded):
    path = tmp_path / "rubric.json"
    path.write_text(json.dumps(RUBRIC))
    assert RubricReward(rubric_file=str(path))(prompts=["chest pain"], completions=[response]) == [pytest.approx(source)]
    assert RubricReward(rubric_file=str(path), rule_guards=True)(prompts=["chest pain"], completions=[response]) == [pytest.approx(guarded)]


def test_rubric_patterns_from_rollout_data_are_capped():
    with pytest.raises(ValueError, match="at most 500"):
        validate_rule({"regex": "a" * 501}, allowed_callables=())
    with pytest.raises(ValueError, match="at most 500"):
        validate_rule({"contains": ["ok", "b" * 600]}, allowed_callables=())
    validate_rule({"regex": "a" * 501})  # a trusted rubric (the config's) is not capped
    rubric = [{"criterion": "x", "points": 1, "rule": {"regex": "a" * 600}}]
    out = RubricReward().evaluate(["p", "p"], ["aaa", "aaa"], rubrics=[json.dumps(rubric), json.dumps([{**rubric[0], "rule": {"regex": "a"}}])])
    assert out.scores[0] != out.scores[0] and "at most 500" in out.reasons[0]  # that row only: NaN with the reason
    assert out.scores[1] == 1.0


# ------------------------------------------------------------------------------------------------ exactness


_ATOMS = st.sampled_from(["<think>", "</think>", "<answer>", "</answer>", " ", "\n", "x", "\\boxed{", "}", "A", "\t"])


@settings(max_examples=600, deadline=None)
@given(st.lists(_ATOMS, max_size=16).map("".join))
def test_crpo_format_equals_the_released_regex(text):
    match = _FORMAT.search(text)
    parts = format_parts(text)
    assert (match.group(1) if match else None) == (parts[1] if parts else None)
    assert _BOX_GROUP.findall(text) == boxed_groups(text)


# ------------------------------------------------------------------------------------------------ linear time

SIZES = (10_000, 100_000, 1_000_000)


def _cpu_seconds(fn, text: str) -> float:
    """CPU seconds of ``fn(text)`` with the garbage collector paused: a collection's cost grows with everything the
    test process holds, not with this input."""
    gc.collect()
    gc.disable()
    try:
        started = time.process_time()
        fn(text)
        return time.process_time() - started
    finally:
        gc.enable()


def _clause(n: int) -> str:
    unit = "small right pleural effusion and mild cardiomegaly near the left lung base with edema "
    return unit * (n // len(unit))


CASES = {
    "crpo_format_think_ends": (lambda t: format_parts(t), lambda n: "<think>" + "</think>" * (n // 8) + "</answer>"),
    "crpo_format_open_answers": (lambda t: format_parts(t), lambda n: "<think>" + "</think><answer>" * (n // 17) + "</answer>x"),
    "crpo_unclosed_boxes": (lambda t: boxed_groups(t), lambda n: "\\boxed{" * (n // 7)),
    "crpo_format_reward": (lambda t: CRPOFormat(min_content_words=3).score_rollout(t, {}), lambda n: "<think>" + "</think> " * (n // 9)),
    "kg_one_long_clause": (lambda t: radiology_kg.extract_kg(t + f" {len(t)}"), _clause),
    "word_count_joined": (word_count, lambda n: "w\u200b" * (n // 2)),
    "content_words": (content_words, lambda n: "ab " * (n // 3)),
    "rules_long_literal_pattern": (lambda t: (check_rule({"regex": "a" * 499 + "b"}, t), check_rule({"contains": "a" * 499 + "b"}, t)),
                                   lambda n: "a" * n),
    "forecast_committed_numbers": (lambda t: committed_forecast(t, 1),
                                   lambda n: "<answer>" + "1 (or maybe 2) " * (n // 15) + "</answer>"),
    "otc_bare_call_list": (count_tool_calls,
                           lambda n: "[" + ",".join(['{"name": "a", "parameters": {"x": 1}}'] * (n // 38)) + "]"),
    "plain_text_lookalikes": (plain_text, lambda n: "w\u0430\u200bit " * (n // 6)),
    "english_share_detector": (english_share, lambda n: "The patient has chest pain. Huanzhe you xiongtong. " * (n // 52)),
    "calls_in_other_formats": (lambda t: count_tool_calls(t),  # counts; 32 broken objects make it one malformed attempt
                               lambda n: '```json\n{"name": "a", "parameters": {}}\n```\n{"a": [1]} ' * (n // 50)),
    "word_count_emoji": (word_count, lambda n: "\U0001f44d\U0001f3fd " * (n // 3)),
    "content_words_prompt": (lambda t: content_words(t, t[: len(t) // 2]), lambda n: "warfarin prevents stroke " * (n // 25)),
    "rules_guard_partial_hits": (lambda t: check_rule({"regex": "call 911 now", "contains": "call 911 now"}, t, guarded=True),
                                 lambda n: "call 911 " * (n // 9)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_parsing_cost_grows_linearly(name):
    fn, make = CASES[name]
    fn(make(1_000))  # warm caches and imports
    seconds = [_cpu_seconds(fn, make(n)) for n in SIZES]
    # linear: x10 input, ~x10 CPU; quadratic would be x100. A floor keeps timer noise out of the small sizes.
    assert seconds[2] <= 30 * max(seconds[1], 0.02), seconds
    assert seconds[2] < 5.0, seconds


STROKE = {"A": "Aspirin", "B": "Heparin", "C": "Warfarin", "D": "Alteplase"}
WEIGHED = ("<think>Option A (aspirin) does not treat the clot. Option B, heparin, only stops growth. Option D, alteplase, "
           "is contraindicated after surgery. Option C, warfarin, fits long-term prevention, so the answer is C.</think>"
           "<answer>\\boxed{C}</answer>")


@pytest.mark.parametrize(
    "completion, faithfulness, comprehensiveness",
    [
        (WEIGHED, 1.0, 1.0),
        ("<think>Option A. Option B. Option C. Option D.</think><answer>\\boxed{C}</answer>", 0.5, 0.0),  # listing every option
        ("<think>Options A, B, C, D. The answer is C.</think><answer>\\boxed{C}</answer>", 0.5, 0.25),
        ("<think>(A) (B) (C) (D)</think><answer>The answer is \\boxed{C}</answer>", 0.5, 0.0),
        ("<think>Aspirin, Heparin, Warfarin, Alteplase.</think><answer>\\boxed{C}</answer>", 0.5, 0.0),
        ("<think>A. wrong\nB. too late\nC. right\nD. bleeds</think><answer>\\boxed{C}</answer>", 0.5, 1.0),  # terse, but weighs each
    ],
)
def test_clinical_objectives_do_not_pay_for_a_list_of_options(completion, faithfulness, comprehensiveness):
    from polyreward.rewards.clinical_reasoning import ClinicalComprehensiveness, ClinicalFaithfulness

    assert ClinicalFaithfulness()(completions=[completion], options=[STROKE]) == [pytest.approx(faithfulness)]
    assert ClinicalComprehensiveness()(completions=[completion], options=[STROKE]) == [pytest.approx(comprehensiveness)]


@pytest.mark.parametrize(
    "completion, source, guarded",
    [
        ("<think>The history fits.</think><answer>The answer is \\boxed{C}.</answer>", 1.0, 1.0),
        ("<think>The history fits.</think><answer>The answer is not \\boxed{C}.</answer>", 1.0, 0.0),  # negated box
        ("<think>x</think><answer>\\boxed{B}</answer>", 0.0, 0.0),
        ("no box", 0.0, 0.0),
        ("\\boxed{C} \\boxed{C}", -2.0, -2.0),  # every score but 1.0 is the released one
    ],
)
def test_crpo_accuracy_committed_answer(completion, source, guarded):
    from polyreward.rewards.crpo import CRPOAccuracy

    assert CRPOAccuracy()(completions=[completion], answer=["C"]) == [source]
    assert CRPOAccuracy(committed_answer=True)(completions=[completion], answer=["C"]) == [guarded]


_WORDS = st.lists(st.text(alphabet="abcdefghij0123456789", min_size=1, max_size=40), max_size=30)


@settings(max_examples=300, deadline=None)
@given(_WORDS, st.sampled_from([" ", "\n", "_", "\u200b", "\u2060", "\ufeff", " \u200b "]))
def test_word_count_does_not_depend_on_the_separator(words, separator):
    """Joining words by any separator, visible or not, counts the same words (each run of n characters counts
    ceil(n / 16))."""
    assert word_count(separator.join(words)) == sum(-(-len(w) // 16) for w in words)


@settings(max_examples=300, deadline=None)
@given(_WORDS, st.sampled_from(["\u200b", "\u200c", "\u2060", "\u00ad"]))
def test_invisible_characters_add_no_content_words(words, invisible):
    text = " ".join(words)
    assert content_words(invisible.join(text)) <= content_words(text) + 0  # splitting every character apart adds nothing
    # repeating the text adds nothing (and a repeat without function words is a keyword list, which counts 0:
    # rewards/think_work.py)
    assert content_words(text + " " + text) <= content_words(text)


def test_plain_text_is_what_a_reader_sees():
    assert plain_text("w\u0430it") == "wait"  # Cyrillic a
    assert plain_text("wa\u200bi\u2060t\u00ad") == "wait"
    assert plain_text("ｗａｉｔ ９１１") == "wait 911"
    assert plain_text("\u039fption \u0421") == "Option C"  # Greek Omicron, Cyrillic Es
    assert plain_text("plain text, 3 < 4") == "plain text, 3 < 4"
