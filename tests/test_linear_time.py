"""Every function that parses model output or rollout data runs in linear (or bounded) time.

For each function and each adversarial shape (whitespace runs, repeated and unclosed tags, unclosed braces,
repeated ``\\mathrm{``, "The answer" + spaces, ``criteria_met:`` + spaces, nested parentheses, ...), the time
on a 100 KB input must stay within a small factor of the time on a 10 KB input of the same shape (a ratio,
so the test holds on a slow or loaded machine) and under ~1 s. A quadratic parser shows a ratio near 100,
a cubic one near 1000; linear is ~10 (bounded-tail parsers ~1). Every registered reward is also timed whole
on one rollout, so a new reward's parsing is covered too.
"""

from __future__ import annotations

import json
import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward import registry
from polyreward.rewards.forecast import forecast_values, observed_values
from polyreward.verifiers.forecast_affirmed import affirmed_at_end
from polyreward.rewards.jaccard import reference_labels
from polyreward.rewards.tool_calls import _FORMAT_LITERALS, _FORMAT_PATTERNS, assistant_segment, calls_taken_back, matches_layout
from polyreward.rewards.tool_efficiency import _final_answer
from polyreward.rewards.tool_efficiency import normalize_answer as squad_normalize
from polyreward.rubrics.grading import parse_multi, parse_single, strip_reasoning
from polyreward.rubrics.judge_rules import check_rule
from polyreward.rubrics.rule_functions import asks_question, first_sentence_contains
from polyreward.rubrics.schema import parse_rubric
from polyreward.schema import completion_text
from polyreward.verifiers import answer_extraction, boxes, choice, options, label_amendments, label_sets, math_canonical, math_normalize, polynomial, radiology_kg, tags
from polyreward.verifiers import latex_macros, math_answers, speech_transcripts, text_forms
from polyreward.verifiers import tool_calls as tool_call_parsing
from polyreward.verifiers.denial import questions
from polyreward.verifiers.forecast_contrasts import value_and_remark
from polyreward.verifiers.forecast_intervals import without_stated_spread
from polyreward.verifiers.sections import without_inline_asides

SMALL, BIG = 10_000, 100_000
MAX_RATIO = 30  # linear ~10; quadratic ~100
NOISE_FLOOR = 0.005  # below this a timing is noise, and a 100 KB call this fast is harmless whatever its order
MAX_SECONDS = 1.0


def _repeat(unit: str, tail: str = ""):
    return lambda n: unit * max(1, (n - len(tail)) // len(unit)) + tail


SHAPES = {
    "spaces": _repeat(" ", "x"),
    "newlines": _repeat("\n", "A"),
    "mixed_whitespace": _repeat(" \n\t", "A."),
    "the_answer_spaces": lambda n: "The answer" + " " * n + "x",
    "option_spaces": lambda n: "Option" + " " * n + "x",
    "answer_stars": lambda n: "answer" + "*" * n,
    "answer_star_spaces": lambda n: "answer:" + " *" * (n // 2) + "C",
    "criteria_met_spaces": lambda n: "criteria_met:" + " " * n + "x",
    "letter_spaces": lambda n: "A" + " " * n + "!x",
    "lines_of_letters": _repeat("\n A"),
    "answer_is_lines": _repeat("answer is\n"),
    "open_answer_tags": _repeat("<answer>"),
    "closed_answer_tags": _repeat("<answer>a</answer>"),
    "open_tool_call_tags": _repeat("<tool_call>"),
    "open_search_tags": _repeat("<search>"),
    "open_details_tags": _repeat("<details><summary>call</summary>"),  # holdout_r41's <details> reading: quadratic at first
    "python_tags": _repeat('<|python_tag|>{"name": '),  # holdout_r31: template call delimiters
    "function_call_blocks": _repeat('<function_calls><invoke name="f"><parameter name="k">[1'),
    "function_tags": _repeat("<function=f>{"),
    "think_tool_call_layout": lambda n: "<think>" + "</think>\n<tool_call>\n" * (n // 20),
    "repeated_think_ends": lambda n: "<think>a</think>" + "</think>" * (n // 8),
    "think_answer_pairs": lambda n: "<think>" + "</think><answer>" * (n // 16),
    "think_answer_open_boxes": lambda n: "<think>" + "</think><answer>\\boxed{" * (n // 23),  # the released CRPO regexes: quadratic
    "answer_ends_and_spaces": lambda n: "<think>a</think><answer>x" + "</answer>  " * (n // 11) + "x",
    "unclosed_braces": _repeat("{"),
    "unclosed_boxes": _repeat("\\boxed{"),
    "repeated_mathrm": _repeat("\\mathrm{"),
    "unclosed_fracs": _repeat("\\frac{"),
    "euler_exponents": _repeat("e^{"),
    "power_chain": _repeat("9^", "9"),
    "nested_parentheses": lambda n: "(" * (n // 2) + "x" + ")" * (n // 2),
    "fences": _repeat("```"),
    "json_fence_spaces": lambda n: "```json" + " " * n,
    "dollars": _repeat("$"),
    "digits": _repeat("1"),
    "thousands": _repeat("1,"),
    "nested_json": _repeat('{"a":'),
    "bold_markers": _repeat("**"),
    "open_parentheses": _repeat("("),
    "carets": _repeat("^", "2"),
    "factorial_chain": _repeat("!", "5"),
    "digit_factorials": _repeat("5!"),
    "unclosed_sqrts": _repeat("\\sqrt{"),
    "python_power_digits": lambda n: "10**" + "1" * n,
    "closed_boxes": _repeat("\\boxed{1} "),
    "closed_letter_boxes_and": _repeat("\\boxed{A} and "),
    "inline_maths": _repeat("$x$ "),
    "letter_list": _repeat("A, B or "),
    "words_then_math": lambda n: "word " * (n // 5) + "x^2+3x",
    "words_and_operators": _repeat("so x+ "),
    "unicode_math": _repeat("é∑√π中"),
    "glossed_options_or": _repeat("14 (A) or 11 (option B) or "),  # glossed_alternatives (holdout97)
    "negated_takes": _repeat("Don't count C. Do not pick (B) yet. "),  # option_letters.withdrawn_in_clause (holdout97)
    # turns._LETTER_ENTRY, option_checks' remark of another quantity, asked_part, sections' added question (holdout119)
    "parts_and_follow_ups": _repeat("Question 2: A — B (the pOH would be 12)\n(a) 1\nFollow-up (why?): C\n\n"),
    "macro_definitions_and_uses": _repeat("\\def\\a#1{\\b{#1}}\\a{"),  # latex_macros (holdout120)
    "unclosed_macro_definitions": _repeat("\\renewcommand{\\boxed}[1]{"),
    "html_superscripts": _repeat("x<sup>1</sup>\n<sup>2</sup> "),  # text_forms.rendered_superscripts (holdout120)
    "math_in_text_arguments": _repeat("\\colorbox{y}{$1"),  # reading._MATH_IN_TEXT_ARGUMENT (holdout120)
}

OPTIONS = {"A": "aspirin", "B": "rest at home", "C": "call 911"}
RUBRIC_RULES = [{"regex": r"^(\w+\s?)+emergency"}, {"regex": r"\bcall\s+911\b", "contains": "911", "max_words": 50}]


def _swallow(fn):
    """Parse errors (ValueError and its kin) are a valid outcome; they are timed like any result."""

    def call(text):
        try:
            fn(text)
        except ValueError:
            pass

    return call


PARSERS = {
    "choice.extract_letter": lambda t: choice.extract_letter(t, "ABCDE", OPTIONS),
    "choice.extract_label": choice.extract_label,
    "choice.parse_reference": choice.parse_reference,
    "options.parse_options": options.parse_options,
    "choice.verify_choice": lambda t: choice.verify_choice(pred=t, ref="C", options=OPTIONS),
    "answer_extraction.extract_answer": answer_extraction.extract_answer,
    "boxes.find_boxes": boxes.find_boxes,
    "math_normalize.normalize_answer": math_normalize.normalize_answer,
    "latex_macros.expanded_macros": latex_macros.expanded_macros,
    "text_forms.rendered_superscripts": text_forms.rendered_superscripts,
    "speech_transcripts.spoken_as_meant": speech_transcripts.spoken_as_meant,  # holdout_r59
    "math_normalize.parse_numeral": math_normalize.parse_numeral,
    "math_normalize.size_problem": math_normalize.size_problem,
    "math_answers.prepare_prediction": math_answers.prepare_prediction,
    "math_answers.prepare_reference": math_answers.prepare_reference,
    "polynomial.parse_polynomial": polynomial.parse_polynomial,
    "math_canonical.canonical": math_canonical.canonical,
    "label_sets.answer_block": label_sets.answer_block,
    "label_sets.split_labels": label_sets.split_labels,
    "label_sets.normalize_label": label_sets.normalize_label,
    "label_sets._one_column_table": label_sets._one_column_table,
    "label_sets.read_labels": label_sets.read_labels,
    "label_amendments.offers_other_labels": label_amendments.offers_other_labels,
    "tags.last_block": lambda t: tags.last_block(t, "answer", ignore_case=True),
    "tool_calls.parse_tool_call_text": _swallow(tool_call_parsing.parse_tool_call_text),
    "tool_calls.parse_toolrl_block": _swallow(tool_call_parsing.parse_toolrl_block),
    "tool_calls.reference_calls": _swallow(tool_call_parsing.reference_calls),
    "tool_calls.count_tool_calls": lambda t: tool_call_parsing.count_tool_calls(t, ("search", "code")),
    "toolrl.assistant_segment": assistant_segment,
    "toolrl.calls_taken_back": lambda t: calls_taken_back("<tool_call>\n{}\n</tool_call>\n" + t),
    "tool_calls.calls_shown": tool_call_parsing.calls_shown,
    "toolrl.matches_layout": lambda t: [matches_layout(t, literals) for literals in _FORMAT_LITERALS.values()],
    "otc.final_answer": lambda t: squad_normalize(_final_answer(t)),
    "forecast.forecast_values": lambda t: forecast_values(t, 2),
    "forecast.observed_values": observed_values,
    "forecast_intervals.without_stated_spread": lambda t: without_stated_spread(t, 1e9),
    "forecast_affirmed.affirmed_at_end": lambda t: affirmed_at_end(t, 58.0),
    "jaccard.reference_labels": lambda t: reference_labels(t, ";"),
    "radiology_kg.extract_kg": radiology_kg.extract_kg,
    "grading.parse_single": parse_single,
    "grading.parse_multi": lambda t: parse_multi(t, 3),
    "grading.strip_reasoning": strip_reasoning,
    "judge_rules.check_rule": lambda t: [check_rule(rule, t) for rule in RUBRIC_RULES],
    "rule_functions.first_sentence_contains": lambda t: first_sentence_contains(t, terms=["911"]),
    "rule_functions.asks_question": asks_question,
    "schema.parse_rubric": _swallow(parse_rubric),
    "schema.completion_text": completion_text,
    # red team holdout_r55: a tutor's inline asides, a question's yes / no reply, a dash remark after a forecast
    "sections.without_inline_asides": lambda t: without_inline_asides(t, ["C", "58"]),
    "denial.questions": questions,
    "forecast_contrasts.value_and_remark": value_and_remark,
}

# one realistic value per column a reward reads, so the whole reward runs its parsing on the hostile completion
REWARD_COLUMNS = {
    "answer": "C",
    "observed": "[40, 55]",
    "options": OPTIONS,
    "rubrics": json.dumps([{"criterion": "Says 911", "points": 5, "rule": RUBRIC_RULES[1]}]),
    "prompt_id": "g",
    "tests": "assert f(1) == 2",
}
REWARDS = [t for t in registry.reward_types() if t != "reward_model"]  # a model, no parsing of its own


def _seconds(fn, text: str, repeats: int) -> float:
    best = float("inf")
    for i in range(repeats):
        variant = text + " " * i  # defeats per-text caches (the radiology extractor keeps one)
        start = time.process_time()  # this process's CPU seconds: other processes' load does not change them
        fn(variant)
        best = min(best, time.process_time() - start)
    return best


def _assert_linear(fn, shape: str):
    make = SHAPES[shape]
    big = _seconds(fn, make(BIG), 1)
    if big < NOISE_FLOOR:
        return
    big = min(big, _seconds(fn, make(BIG), 2))
    small = _seconds(fn, make(SMALL), 3)
    assert big < MAX_SECONDS, f"{shape}: {big:.3f} s on {BIG // 1000} KB"
    assert big <= MAX_RATIO * max(small, NOISE_FLOOR), f"{shape}: {big:.4f} s on 100 KB vs {small:.4f} s on 10 KB"


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", sorted(PARSERS))
def test_parser_is_linear(name):
    for shape in SHAPES:
        _assert_linear(PARSERS[name], shape)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("type_name", REWARDS)
def test_reward_is_linear_on_one_rollout(type_name):
    cls = registry.reward_class(type_name)
    reward = cls(**cls.example_params)
    columns = {c: [REWARD_COLUMNS[c] if c in REWARD_COLUMNS else cls.example_cells[c][0]] for c in reward.columns}

    def score(text):
        reward.evaluate([None], [text], **columns)

    for shape in SHAPES:
        _assert_linear(score, shape)


_LAYOUT_PIECES = ["<think>", "</think>", "\n", "<tool_call>", "</tool_call>", "<response>", "</response>", "x",
                  "</think>\n<tool_call>\n", "\n</tool_call>", "\n</tool_call>\n<response>", "</think>\n<response>"]


@settings(max_examples=300, derandomize=True, deadline=None, database=None)
@given(st.lists(st.sampled_from(_LAYOUT_PIECES), max_size=10).map("".join))
def test_layout_check_matches_the_toolrl_regexes(text):
    """The linear layout check accepts exactly what ToolRL's regexes (rlla.py format patterns) accept."""
    for layout, pattern in _FORMAT_PATTERNS.items():
        assert matches_layout(text, _FORMAT_LITERALS[layout]) == bool(re.search(pattern, text, re.DOTALL)), layout


_TAG_PIECES = ["<answer>", "</answer>", "<ANSWER>", "a", "\n", "</answer"]


@settings(max_examples=300, derandomize=True, deadline=None, database=None)
@given(st.lists(st.sampled_from(_TAG_PIECES), max_size=12).map("".join))
def test_tag_blocks_match_the_lazy_regex(text):
    """tag_blocks finds exactly re.finditer(r"<answer>(.*?)</answer>", DOTALL) (and its IGNORECASE form)."""
    assert [b for _, _, b in tags.tag_blocks(text, "answer")] == re.findall(r"<answer>(.*?)</answer>", text, re.DOTALL)
    expected = re.findall(r"<answer>(.*?)</answer>", text, re.DOTALL | re.IGNORECASE)
    assert tags.last_block(text, "answer", ignore_case=True) == (expected[-1] if expected else None)


# The types that declare ``linear_time`` (the reward server scores a config of only these in its front process,
# without a slot process to kill: polyreward.runners.server_front), each with the parameters that change what it
# parses; every one of them is held to the linear bound on every hostile shape, and none may need an engine worker.
LINEAR_TIME_VARIANTS = {
    "think_format": [{"require_answer": True}, {"prefilled_think": True}, {"require_answer": True, "min_content_words": 3}],
    "overlong_penalty": [{"max_completion_len": 400, "soft_punish_cache": 100}],
    "crpo_accuracy": [{"committed_answer": True}, {"eos_token": "</s>", "prefilled_think": True}],
    "crpo_format": [{"min_content_words": 3}, {"prefilled_think": True}],
    "crpo_english": [{"min_content_words": 3}],
    "toolrl_format": [{"min_content_words": 3}],
}


def test_the_linear_time_declarations_are_the_listed_types_and_need_no_engine():
    import inspect

    declared = {t for t in registry.reward_types() if getattr(registry.reward_class(t), "linear_time", False) is True}
    assert declared == set(LINEAR_TIME_VARIANTS)
    for type_name in declared:
        assert "engine" not in inspect.signature(registry.reward_class(type_name).__init__).parameters, type_name
    # a parameter that brings a model narrows the instance
    english = registry.reward_class("crpo_english")
    assert english().linear_time is True and english(measure="language").linear_time is False


@pytest.mark.timeout(300)
@pytest.mark.parametrize("type_name, params", [(t, p) for t, variants in LINEAR_TIME_VARIANTS.items() for p in variants])
def test_a_linear_time_reward_is_linear_with_its_parameter_variants(type_name, params):
    cls = registry.reward_class(type_name)
    reward = cls(**{**cls.example_params, **params})
    assert reward.linear_time is True
    columns = {c: [REWARD_COLUMNS[c] if c in REWARD_COLUMNS else cls.example_cells[c][0]] for c in reward.columns}

    def score(text):
        reward.evaluate(["Which option? A. aspirin B. rest"], [text], **columns)

    for shape in SHAPES:
        _assert_linear(score, shape)
