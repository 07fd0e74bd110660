"""The rules judge (regex, contains, length bounds, module:function callables) and verdict parsing."""

from __future__ import annotations

import math
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rubrics.grading import multi_prompt, parse_multi, parse_single, single_prompt
from polyreward.rubrics.judge_rules import RulesJudge, check_rule
from polyreward.rubrics.rule_grammar import validate_rule
from polyreward.rubrics.judges import JudgeRequest, build_judge
from polyreward.rubrics.schema import RubricItem

FIRST = "polyreward.rubrics.rule_functions:first_sentence_contains"

RULE_TABLE = [
    # rule, response, met
    ({"regex": r"\b911\b"}, "Call 911 now.", True),
    ({"regex": r"\b911\b"}, "Call 9110.", False),
    ({"regex": ["ambulance", r"\b911\b"]}, "Get an AMBULANCE.", True),  # ignore_case by default
    ({"regex": "ambulance", "ignore_case": False}, "Get an AMBULANCE.", False),
    ({"not_regex": r"wait (and|to) see"}, "Wait and see.", False),
    ({"not_regex": r"wait (and|to) see"}, "Go now.", True),
    ({"contains": "aspirin"}, "Chew an Aspirin.", True),
    ({"contains": ["aspirin", "nitro"]}, "take nitroglycerin", True),
    ({"contains": "aspirin"}, "take ibuprofen", False),
    ({"contains_all": ["rest", "water"]}, "Rest and drink water.", True),
    ({"contains_all": ["rest", "water"]}, "Rest.", False),
    ({"not_contains": ["guaranteed", "100%"]}, "This is guaranteed to work.", False),
    ({"not_contains": "guaranteed"}, "This usually works.", True),
    ({"min_words": 3}, "one two three", True),
    ({"min_words": 3}, "one two", False),
    ({"max_words": 2}, "one two", True),
    ({"max_words": 2}, "one two three", False),
    ({"max_words": 0}, "", True),
    # a cap is not dodged by filler a reader still sees (probe on examples/rubric, 2026-12-03): words joined by
    # zero-width joiners, or one run of letters without a space, count as the words they show
    ({"max_words": 20}, "Call 911 now. " + "\u200d".join(["more"] * 300), False),
    ({"max_words": 20}, "Call 911 now. " + "x" * 2400, False),
    ({"max_words": 4}, "Electrocardiographically abnormal rhythm.", True),  # a word over 16 letters counts ceil(n / 16)
    ({"max_words": 3}, "Pneumothorax is likely.", True),
    ({"min_words": 3}, "one\u200btwo\u200bthree", False),  # a minimum counts whitespace words only
    ({"min_chars": 5, "max_chars": 5}, "abcde", True),
    ({"max_chars": 4}, "abcde", False),
    ({"contains": "call", "max_words": 3}, "Call now please hurry", False),  # conditions are ANDed
    ({"contains": "call", "max_words": 4}, "Call now please hurry", True),
    ({"callable": FIRST, "params": {"terms": ["911"]}}, "Call 911 now. Then rest.", True),
    ({"callable": FIRST, "params": {"terms": ["911"]}}, "Rest first. Then call 911.", False),
    ({"callable": "polyreward.rubrics.rule_functions:asks_question", "params": {"min_questions": 2}}, "How old? Any fever? Ok.", True),
    ({"callable": "polyreward.rubrics.rule_functions:asks_question"}, "No questions here.", False),
]


@pytest.mark.parametrize("rule, response, met", RULE_TABLE)
def test_rule_table(rule, response, met):
    validate_rule(rule)
    verdict = check_rule(rule, response)
    assert verdict.met is met
    assert verdict.explanation


DRIVE = {"regex": r"\b(do not|don't|never) drive"}
ASPIRIN = {"contains": "aspirin"}
CALL = {"regex": r"\b(911|ambulance)\b"}
ADVICE = ("Call 911 right now. Chew an aspirin unless you are allergic. Do not drive yourself to the hospital. "
          "Sit down and rest.")

# guarded mode (rule_guards: true) reads what a reader reads and pays only advice the writer stands by
# (probe on examples/rubric, 2026-12-03: 18 exploits of these shapes); rule, response, met
GUARDED_TABLE = [
    (DRIVE, ADVICE, True),
    # the opposite stated after, or before, the advice (the probe's wrong answer appended / prepended)
    (DRIVE, ADVICE + "\nDo drive yourself to the hospital.", False),
    (DRIVE, "Do drive yourself to the hospital.\n" + ADVICE, False),
    (DRIVE, ADVICE + " (or maybe drive yourself to the hospital)", False),
    (DRIVE, ADVICE + " Actually, you should drive yourself to the hospital.", False),
    (ASPIRIN, "Take an aspirin now. Don't take an aspirin.", False),
    # a denial or withdrawal after the advice
    (DRIVE, ADVICE + " cannot be right.", False),
    (DRIVE, ADVICE + "? Wrong.", False),
    (DRIVE, ADVICE + " Kidding!", False),
    (DRIVE, ADVICE + " is wr\u043eng.", False),  # a Cyrillic o in the denial
    (DRIVE, ADVICE + " That is right.", True),  # an affirmation is no denial
    (DRIVE, ADVICE + " Is it indigestion? Wrong, it is probably your heart.", True),  # a correction goes on
    (DRIVE, "Do not drive yourself to the hospital, that is wrong.", False),
    (CALL, ADVICE + " Hmm, I retract that; rest at home instead.", False),
    (CALL, ADVICE + " Oops, scratch that.", False),
    # text no reader sees, or sees only as a quotation next to other words
    (DRIVE, "This is no longer % " + ADVICE, False),
    (DRIVE, "<!-- " + ADVICE + " -->\nRest at home.", False),
    (DRIVE, "<span style=\"display:none\">" + ADVICE + "</span> Rest at home.", False),
    (DRIVE, "Rest at home.\n> " + ADVICE, False),
    # genuine phrasings stay met
    (DRIVE, "> " + ADVICE, True),  # a quote or a code block that is the whole answer is the answer
    (DRIVE, "```\n" + ADVICE + "\n```", True),
    (DRIVE, "Do not drive yourself; have someone else drive you to the hospital.", True),
    (DRIVE, "Don't drive yourself. Waiting is a mistake, call 911 now.", True),
    (DRIVE, "While you wait, do not drive yourself. Actually, the safest thing is an ambulance.", True),
    (DRIVE, ADVICE + " Do not drive yourself to the hospital.", True),  # repeated, same polarity
    (ASPIRIN, "Take an aspirin now. If you are allergic, do not take an aspirin.", True),  # a condition qualifies
    (ASPIRIN, "Take an aspirin now. Do not take an aspirin, unless your doctor says so.", True),
    (ASPIRIN, "Take an aspirin now. Don't take ibuprofen.", True),
    (CALL, "Call 911 right now. If the pain stops, do not call 911 again.", True),
    (CALL, "Call 911 now. Don't hang up with 911 until help arrives.", True),
    (CALL, "Call 911 now. Don't call your doctor first.", True),
    (CALL, "Call 911 now (it is free). 50% of heart attacks start slowly.", True),
    # a denial wrapped around a sentence of the advice (probe, --budget 256: "It is no longer Call 911 ... right
    # now: ..."): the items that sentence states are disowned, even where their words recur further on
    (CALL, "It is no longer " + ADVICE + " Stay with someone until the ambulance arrives.", False),
    (CALL, "It is not Call 911 (or your local emergency number) right now: it can be a heart attack. Wait for the "
           "ambulance.", False),
    (CALL, "The answer is definitely not Call 911 right now. Rest until the ambulance arrives.", False),
    (CALL, "never Call 911 right now. Rest until the ambulance arrives.", False),
    (CALL, "The answer is not call 911 right now: rest and wait for the ambulance.", False),  # the answer, denied
    (ASPIRIN, "It is anything but Chew an aspirin now. Then rest.", False),
    (ASPIRIN, "Call 911. This is not quite Chew an aspirin unless you are allergic.", False),
    (CALL, "Sit down. Call 911 and say it is chest pain cannot be right.", False),  # its own subject, denied
    # ... while a denial of a word, not of a sentence, is advice as before
    (CALL, "It is not safe to wait, so call 911 now.", True),
    (CALL, "It's not indigestion: call 911 right now.", True),
    (CALL, "This is not a drill. Call 911 now.", True),
    (CALL, "It is not COVID. Call 911 now, this may be a heart attack.", True),  # an acronym is a word
    (ASPIRIN, "Never mind the antacid; chew an aspirin now.", True),
    (DRIVE, "It is not a good idea to wait. Do not drive yourself; call 911.", True),
    (CALL, ADVICE + " It is not too late to call 911 even if the pain eases.", True),
]


@pytest.mark.parametrize("rule, response, met", GUARDED_TABLE)
def test_guarded_rule_table(rule, response, met):
    verdict = check_rule(rule, response, guarded=True)
    assert verdict.met is met, verdict.explanation
    assert check_rule(rule, response).met is True  # unguarded, every row pays for the words


def test_guarded_penalty_hit_stands_after_a_denial():
    """A penalty (negative points) is met once the harmful advice is stated: the reader saw it, whatever follows."""
    rule = {"regex": r"\bwait (and see|to see)"}
    item = RubricItem("Recommends waiting to see", -8, rule=rule)
    response = "Wait and see whether the pain passes. Kidding!"
    assert check_rule(rule, response, JudgeRequest((), response, item), guarded=True).met is True
    desirable = RubricItem("Recommends waiting to see", 8, rule=rule)
    assert check_rule(rule, response, JudgeRequest((), response, desirable), guarded=True).met is False


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="do not drive yourself, to the hospital. Call 911! wrong?%<>-\n", max_size=300))
def test_guarded_rules_never_raise(text):
    for rule in (DRIVE, ASPIRIN, CALL, {"contains_all": ["drive", "911"]}):
        assert check_rule(rule, text, guarded=True).met in (True, False)


def test_guarded_contradiction_check_is_bounded():
    started = time.process_time()
    text = " ".join(f"Call 911 now {i}. Don't call 911 now {i}." for i in range(3000))
    assert check_rule(CALL, text, guarded=True).met is False
    assert time.process_time() - started < 10.0


@pytest.mark.parametrize(
    "rule, message",
    [
        ({}, "must be a non-empty mapping"),
        ({"ignore_case": True}, "names no condition"),
        ({"regex": ""}, "regex: must be a non-empty string"),
        ({"regex": "a", "ignore_case": "yes"}, "ignore_case: must be true or false"),
        ({"contains": [1]}, "contains: must be a non-empty string or a list"),
        ({"max_words": -1}, "max_words: must be a non-negative integer"),
        ({"max_words": 2.5}, "max_words: must be a non-negative integer"),
        ({"params": {"a": 1}, "contains": "x"}, "params: only used with 'callable'"),
        ({"callable": "os.system"}, "callable: must look like 'package.module:function'"),
        ({"callable": "__import__('os').system:x"}, "callable: must look like"),
        ({"callable": "no_such_module_xyz:f"}, "callable: cannot import module 'no_such_module_xyz'"),
        ({"callable": "polyreward.rubrics.rule_functions:nope"}, "has no attribute 'nope'"),
        ({"callable": "polyreward.rubrics.rule_functions:_SENTENCE_END"}, "is not callable"),
    ],
)
def test_invalid_rules_are_rejected_with_the_key(rule, message):
    with pytest.raises(ValueError) as info:
        validate_rule(rule)
    assert message in str(info.value)


def _req(response: str, rule=None, points: float = 5) -> JudgeRequest:
    return JudgeRequest(({"role": "user", "content": "q"},), response, RubricItem("criterion", points, (), rule))


def test_rules_judge_batch_failures_stay_local():
    judge = build_judge({"type": "rules"})
    verdicts = judge.judge([
        _req("call 911", {"contains": "911"}),
        _req("call 911"),  # no rule: fails with a reason
        _req("call 911", {"callable": FIRST}),  # callable raises (no terms): fails alone
        _req("wait", {"contains": "911"}),
    ])
    assert [v.met for v in verdicts] == [True, None, None, False]
    assert "needs a 'rule'" in verdicts[1].explanation
    assert "rule error: ValueError: first_sentence_contains needs params" in verdicts[2].explanation
    assert math.isnan(verdicts[1].value) and verdicts[0].value == 1.0 and verdicts[3].value == 0.0


def test_callable_gets_conversation_and_item():
    verdict = RulesJudge().judge([_req("x", {"callable": "rubric_rule_helpers:echo_context"})])[0]
    assert verdict.met is True and verdict.explanation == "user:q|criterion"


def test_callable_with_wrong_return_type_fails():
    verdict = RulesJudge().judge([_req("x", {"callable": "rubric_rule_helpers:returns_string"})])[0]
    assert verdict.met is None and "returned str, expected bool" in verdict.explanation


@pytest.mark.parametrize(
    "spec, message",
    [
        ({"type": "gpt"}, "judge.type: 'gpt' is not a judge type; allowed: rules, transformers, openai"),
        ({"type": "rules", "model": "x"}, "judge (rules): unknown key(s) ['model']"),
        ({"type": "openai", "base_url": "http://127.0.0.1:1/v1", "model": "m", "timout": 3}, "unknown key(s) ['timout']; allowed: type, base_url, model"),
        ({"type": "openai", "model": "m"}, "judge (openai):"),
        ({"type": "openai", "base_url": "127.0.0.1:8000", "model": "m"}, "base_url: must be an http(s) URL"),
        ({"type": "openai", "base_url": "http://h/v1", "model": "m", "api_key_env": "POLYREWARD_SURELY_UNSET_KEY"}, "environment variable 'POLYREWARD_SURELY_UNSET_KEY' is not set"),
        ({"type": "openai", "base_url": "http://h/v1", "model": "m", "max_retries": -1}, "max_retries: must be an integer >= 0"),
        ({"type": "openai", "base_url": "http://h/v1", "model": "m", "timeout": 0}, "timeout: must be a number of seconds > 0"),
        ({"type": "transformers", "model": "/no/such/dir"}, "is not a local model directory"),
        ("rules", "judge must be a mapping"),
    ],
)
def test_build_judge_validates(spec, message):
    with pytest.raises(ValueError) as info:
        build_judge(spec)
    assert message in str(info.value)


# -- parsing a judge model's answer ---------------------------------------------------------------

PARSE_TABLE = [
    ('```json\n{"explanation": "Mentions 911.", "criteria_met": true}\n```', True, "Mentions 911."),
    ('{"explanation": "no", "criteria_met": false}', False, "no"),
    ('Sure! Here is my grade:\n{"criteria_met": "true", "explanation": "ok"} Hope it helps.', True, "ok"),
    ('{"criteria_met": "No", "explanation": "absent"}', False, "absent"),
    ('```\n{"met": 1, "reason": "r"}\n```', True, "r"),
    ('{"explanation": "x", "criteria_met": "maybe"}\nAnswer: no', False, None),
    ("yes", True, None),
    ("No. The response never mentions aspirin.", False, None),
    ("**Yes** - it does.", True, None),
    ('criteria_met: true', True, None),
    ('{"criteria_met": true, "explanation": "cut off mid-str', True, None),  # truncated JSON, labelled verdict
    ("Verdict = false", False, None),
    ("I think the response is good.", None, "unparsable judge answer"),
    ("", None, "empty judge answer"),
    ("\n\n\n", None, "empty judge answer"),
    ('{"explanation": "only explanation"}', None, "unparsable"),
    ("Yesterday I saw it", None, "unparsable"),  # a word starting with yes is not a yes
    ("The answer is not met: unmet: false", None, "unparsable"),
    # real grader outputs: prose around a fence, Python-dict / trailing-comma near-JSON, nested braces,
    # raw newlines in strings, reasoning models' <think> drafts, bare verdict words
    ('Here is my grading:\n```json\n{"explanation": "ok", "criteria_met": false}\n```\nHope this helps.', False, "ok"),
    ("{'explanation': 'Mentions 911.', 'criteria_met': True}", True, "Mentions 911."),
    ("```json\n{'explanation': 'said \"rest\"', 'criteria_met': False,}\n```", False, 'said "rest"'),
    ('{"explanation": "x", "criteria_met": true,}', True, "x"),
    ('```json\n{\n  "explanation": "no aspirin",\n  "criteria_met": false,\n}\n```', False, "no aspirin"),
    ('{"explanation": "x",\n "criteria_met": True}', True, "x"),
    ('{"explanation": "uses {braces} and {nested {ones}}", "criteria_met": true}', True, "uses {braces} and {nested {ones}}"),
    ('```json\n{"explanation": "line one\nline two", "criteria_met": true}\n```', True, "line one\nline two"),
    ('{"explanation": "x", "criteria_met": "False."}', False, "x"),
    ('```JSON\n{"explanation": "x", "criteria_met": "Yes"}\n```', True, "x"),
    ('<think>Draft: {"criteria_met": false}. No wait, it does.</think>\n```json\n{"explanation": "does", "criteria_met": true}\n```', True, "does"),
    ("<think>criteria_met: yes?</think>\nNo.", False, None),
    ('<think>The response mentions 911 so criteria_met: true', None, "reasoning but no verdict"),  # cut mid-thought
    ('<think>ok</think>', None, "reasoning but no verdict"),
    ('```json\n{"explanation": "x", "criteria_met": null}\n```', None, "unparsable"),
    ("YES", True, None), ("no.", False, None), (" Yes!", True, None), ('"no"', False, None),
    ("True", True, None), ("false.", False, None), ("Not met.", False, None), ("**Met**", True, None),
    ("Nope", None, "unparsable"),
]


@pytest.mark.parametrize("text, met, explanation", PARSE_TABLE)
def test_parse_single(text, met, explanation):
    got_met, got_explanation = parse_single(text)
    assert got_met is met
    if explanation is not None:
        assert explanation in got_explanation


@pytest.mark.parametrize(
    "text, expected",
    [
        ('```json\n{"results": [{"id": 1, "criteria_met": true, "explanation": "a"}, {"id": 2, "criteria_met": false, "explanation": "b"}]}\n```',
         [(True, "a"), (False, "b")]),
        ('[{"id": 2, "criteria_met": true}, {"id": 1, "criteria_met": "no"}]', [(False, ""), (True, "")]),
        ('{"results": [{"id": 1, "criteria_met": true}]}', [(True, ""), (None, "judge answer has no verdict for item 2")]),
        ('{"results": [{"id": 1, "criteria_met": "perhaps"}, {"id": 9, "criteria_met": true}]}',
         [(None, "unparsable verdict for item 1"), (None, "judge answer has no verdict for item 2")]),
        ("no json at all", [(None, "unparsable judge answer"), (None, "unparsable judge answer")]),
        ('{"results": [{"id": "2", "criteria_met": true}, {"id": "1", "criteria_met": false},]}', [(False, ""), (True, "")]),
        ("{'results': [{'id': 1, 'criteria_met': True, 'explanation': 'a'}, {'id': 2, 'criteria_met': False}]}", [(True, "a"), (False, "")]),
        ('<think>{"results": [{"id": 1, "criteria_met": false}]}</think>{"results": [{"id": 1, "criteria_met": true}, {"id": 2, "criteria_met": true}]}',
         [(True, ""), (True, "")]),
    ],
)
def test_parse_multi(text, expected):
    got = parse_multi(text, 2)
    for (met, explanation), (want_met, want_explanation) in zip(got, expected):
        assert met is want_met
        assert want_explanation in explanation


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_parsers_never_raise(text):
    met, explanation = parse_single(text)
    assert met in (True, False, None) and isinstance(explanation, str)
    assert len(parse_multi(text, 3)) == 3


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="{}[]\"',:\\ \nTrueFalsNonitea_m`<>/hkyso", max_size=200))
def test_parsers_never_raise_on_near_json(text):
    met, explanation = parse_single(text)
    assert met in (True, False, None) and isinstance(explanation, str)
    assert len(parse_multi(text, 2)) == 2


def test_near_json_scan_is_bounded():
    started = time.process_time()  # CPU seconds, not wall time (the machine may be loaded)
    for text in ("{" * 20000, "{'a': '" + "x" * 100000, '{"a": ' * 5000 + "criteria", "{'x': 1} " * 3000):
        assert parse_single(text)[0] is None
    assert time.process_time() - started < 5.0


def test_negative_items_are_graded_for_the_undesirable_behaviour():
    """HealthBench semantics: the prompt asks whether a penalty's behaviour is present (met = penalty applies)."""
    text = single_prompt(({"role": "user", "content": "Headache?"},), "Take 20 aspirin.", RubricItem("Recommends an unsafe dose", -8))
    assert "[-8] Recommends an unsafe dose" in text
    assert "negative points describes an undesirable behaviour: it is met when the response shows that behaviour" in text


def test_prompts_show_conversation_item_and_format():
    conversation = ({"role": "system", "content": "Be brief."}, {"role": "user", "content": "Chest pain?"})
    text = single_prompt(conversation, "Call 911.", RubricItem("Advises calling 911", 10))
    assert "system: Be brief.\n\nuser: Chest pain?\n\nassistant: Call 911." in text
    assert "[10] Advises calling 911" in text and '"criteria_met"' in text
    multi = multi_prompt(conversation, "Call 911.", [RubricItem("A", 1), RubricItem("Is rude", -2)])
    assert "1. [1] A\n2. [-2] Is rude" in multi and '"results"' in multi


@pytest.mark.parametrize(
    "clause, disowns",
    [
        (" cannot be right", True), (" Wrong", True), (" is wrong", True), (" is not correct", True), ("Not right", True),
        ("That was a mistake", True), (" Hmm, I retract that", True), (" Kidding!", True), ("Ignore the above", True),
        ("I made an error", True), ("just kidding", True),
        # a clause with a subject or object of its own judges that; an affirmation is no denial
        (" Waiting is a mistake", False), ("Ignore the pain", False), ("Never drive yourself", False), (" no", False),
        ("That is right", False), ("it is correct", False), (" Sit down", False),
        ("that would be wrong to ignore if the pain comes back again later", False),  # too long to be a bare denial
    ],
)
def test_disowns_before(clause, disowns):
    from polyreward.verifiers.commitment import disowns_before

    assert disowns_before(clause) is disowns
