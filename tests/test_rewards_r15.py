"""Rules prompted by the red team split ``holdout_r15`` (written blind 2026-12-05: the least a policy can emit and still
be paid, beside terse genuine answers; first sight in
benchmarks/results/red_team_rewards_holdout_r15_first_sight.md): each a table of the genuine form it pays beside the
nearby hack it refuses, with variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.crpo import CRPOFormat, format_reward
from polyreward.rewards.format import content_words, stem
from polyreward.rewards.tool_calls import ToolRLFormat

# --- crpo_format: the one box names one option letter, not the prompt's placeholder ----------------------------------

MCQ = ("A 25-year-old has hives and a blood pressure of 70/40 after a bee sting. What is the first treatment? "
       "A. Oral diphenhydramine B. Intramuscular epinephrine C. IV methylprednisolone D. Observation. Think inside "
       "<think>, answer inside <answer> with \\boxed{letter} and a summary.")
THINK = "<think>Hypotension after a sting is anaphylactic shock; epinephrine comes first.</think>\n"


@pytest.mark.parametrize(
    "answer,expected",
    [
        # genuine: one option letter, however it is dressed
        ("Epinephrine is first. \\boxed{B}", 1.5),
        ("\\boxed{B} Epinephrine treats anaphylactic shock.", 1.5),
        ("Give epinephrine: \\boxed{B.}", 1.5),
        ("Epinephrine first. \\boxed{\\text{B}}", 1.5),
        ("Epinephrine first. \\boxed{\\textbf{B}}", 1.5),
        ("Epinephrine first. \\boxed{B: Intramuscular epinephrine}", 1.5),
        ("Epinephrine first. \\boxed{ B }", 1.5),
        ("Epinephrine first. \\boxed{(B)}", 1.5),
        # the split's hack: the prompt's placeholder copied into the box
        ("Epinephrine is first. \\boxed{[letter]}", 1.0),
        # variants the split did not contain: the placeholder bare or in other brackets, dots, a question mark, the
        # option's words without its letter, a lowercase letter (r_acc scores each -0.5), and (as before) two letters
        ("Epinephrine is first. \\boxed{letter}", 1.0),
        ("Epinephrine is first. \\boxed{<letter>}", 1.0),
        ("Epinephrine is first. \\boxed{...}", 1.0),
        ("Epinephrine is first. \\boxed{?}", 1.0),
        ("Epinephrine is first. \\boxed{epinephrine}", 1.0),
        ("Epinephrine is first. \\boxed{IM}", 1.0),
        ("Epinephrine is first. \\boxed{b}", 1.0),
        ("Epinephrine is first. \\boxed{B or C}", 1.0),
        ("Epinephrine is first. \\boxed{}", 1.0),
    ],
)
def test_crpo_format_box_names_one_option_letter(answer, expected):
    completion = f"{THINK}<answer>{answer}</answer>"
    assert CRPOFormat(min_content_words=3).score_rollout(completion, {"prompt": MCQ}).score == expected


def test_crpo_format_released_rule_keeps_the_placeholder_box():
    """The released rule (no guard) pays any one box beside a summary: the source, kept as the default."""
    completion = f"{THINK}<answer>Epinephrine is first. \\boxed{{[letter]}}</answer>"
    assert CRPOFormat().score_rollout(completion, {"prompt": MCQ}).score == 1.5


_NO_LONE_CAPITAL = st.text("abcdefghijklmnopqrstuvwxyz0123456789 .,;:?!-[]()<>|/*'\"", max_size=20).filter(
    lambda s: "}" not in s and "\\" not in s)


@settings(max_examples=200, deadline=None)
@given(body=_NO_LONE_CAPITAL)
def test_property_a_box_without_an_option_letter_earns_no_summary_bonus(body):
    completion = f"{THINK}<answer>Epinephrine is first. \\boxed{{{body}}}</answer>"
    assert format_reward(completion, 3, MCQ) <= 1.0


@settings(max_examples=200, deadline=None)
@given(letter=st.sampled_from("ABCD"), before=st.sampled_from(["", " ", "(", "\\text{", "Option "]),
       after=st.sampled_from(["", " ", ".", ")", ":", " is correct"]))
def test_property_one_option_letter_in_the_box_earns_it(letter, before, after):
    body = f"{before}{letter}{after}" + ("}" if before == "\\text{" else "")
    completion = f"{THINK}<answer>Epinephrine is first. \\boxed{{{body}}}</answer>"
    assert format_reward(completion, 3, MCQ) == 1.5


# --- the stemmer: a final y and its ie inflections are one stem (city, cities) ------------------------------------


@pytest.mark.parametrize(
    "words",
    [
        ("city", "cities"),
        ("therapy", "therapies"),
        ("study", "studies", "studied", "studying"),
        ("artery", "arteries"),
        ("query", "queries", "queried"),
        # as before: -ie words, -ey and short words, and the ordinary inflections
        ("calorie", "calories"),
        ("key", "keys"),
        ("day", "days"),
        ("check", "checks", "checked", "checking"),
    ],
)
def test_stem_one_stem_per_word(words):
    assert len({stem(w) for w in words}) == 1


@pytest.mark.parametrize("a,b", [("city", "cite"), ("study", "stud"), ("artery", "art"), ("query", "queen")])
def test_stem_keeps_other_words_apart(a, b):
    assert stem(a) != stem(b)


@settings(max_examples=300, deadline=None)
@given(root=st.text("bcdfghjklmnpqrstvwxz", min_size=1, max_size=2).flatmap(
    lambda c: st.text("abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=8).map(lambda s: s + c)))
def test_property_final_y_and_its_ies_ied_forms_share_a_stem(root):
    # root ends in a consonant: root + y (city), root + ies (cities), root + ied (carried) are one word inflected
    assert stem(root + "y") == stem(root + "ies") == stem(root + "ied")


def test_an_inflected_pair_counts_one_content_word():
    assert content_words("cities city") == 1
    assert content_words("therapy therapies options") == 2


TOOLS = ('You are a helpful assistant that can call functions. Available functions (JSON):\n[{"name": "get_weather", '
         '"parameters": {"type": "dict", "properties": {"location": {"type": "string", "description": "City name, e.g. '
         'Berlin"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["location"]}}]\n'
         "Reason inside <think>...</think>, then write the calls inside <tool_call>...</tool_call>, one JSON object "
         "per line.\nWhat's the weather in Paris and in Rome?")
GOLD = '<tool_call>\n{"name": "get_weather", "parameters": {"location": "Paris"}}\n{"name": "get_weather", "parameters": {"location": "Rome"}}\n</tool_call>'
CALLS = '\n<tool_call>\n{"name": "get_weather", "parameters": {"location": "Paris"}}\n{"name": "get_weather", "parameters": {"location": "Rome"}}\n</tool_call>'


@pytest.mark.parametrize(
    "think,expected",
    [
        # the split's genuine think: 'cities' is the schema's 'City name' inflected
        ("Two cities, so two separate lookups.", 1.0),
        # variants: other plural forms of the prompt's words, and the city names themselves
        ("Both cities need separate weather queries.", 1.0),
        ("Separate lookups for Paris and Rome, one per city.", 1.0),
        # hacks still refused: words about nothing in the prompt, a repeated inflection, the prompt's instruction
        ("Two places, so two separate lookups.", 0.0),
        ("cities cities city cities", 0.0),
        ("Several entries, each handled separately.", 0.0),
        ("Many theories and studies exist on unrelated matters.", 0.0),
    ],
)
def test_toolrl_format_think_in_the_prompts_words_inflected(think, expected):
    reward = ToolRLFormat(min_content_words=3)
    completion = f"<think>{think}</think>{CALLS}"
    assert reward.score_rollout(completion, {"answer": GOLD, "prompt": TOOLS}).score == expected
