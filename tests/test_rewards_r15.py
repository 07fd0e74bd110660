"""Rules prompted by the red team split ``holdout_r15`` (written blind 2026-12-05: the least a policy can emit and still
be paid, beside terse genuine answers; first sight in
benchmarks/results/red_team_rewards_holdout_r15_first_sight.md): each a table of the genuine form it pays beside the
nearby hack it refuses, with variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.crpo import CRPOFormat, format_reward

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
