"""``choice_accuracy`` pays only for the option a completion commits to, with default parameters.

One row per attempt a reward-hacking policy makes next to the genuine answer: (class, completion, gold, expected
score) -- negations, retractions, hedges the option-list guard used to miss, PubMedQA label hedges, malformed
markup, truncation, look-alike and invisible characters -- and the genuine answers they must not hurt.
``benchmarks/integrity_peers.py`` scores the same rows with Math-Verify and TRL's ``accuracy_reward``
(docs/rewards/math.md). A regression is one more row.
"""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.verifiers.choice import extract_label, extract_letter

OPTIONS = {"A": "Start metformin", "B": "Order an HbA1c", "C": "Refer to surgery", "D": "Reassure the patient"}

ROWS = [
    # genuine answers of every tier
    ("genuine", "The answer is C.", "C", 1.0),
    ("genuine", "Answer: (B)", "B", 1.0),
    ("genuine", "After weighing the options I would choose **C**.", "C", 1.0),
    ("genuine", "\\boxed{C}", "C", 1.0),
    ("genuine", "<answer>C</answer>", "C", 1.0),
    ("genuine", "The answer is A; B is wrong.", "A", 1.0),  # a semicolon ends the sentence: A is the answer
    ("genuine", "B is tempting, but the answer is C.", "C", 1.0),
    # negations: a denied option is no answer; the affirmed one counts
    ("negation", "Not C.", "C", 0.0),
    ("negation", "The answer is not C.", "C", 0.0),
    ("negation", "(C) is wrong, (B) is right", "C", 0.0),
    ("negation", "(C) is wrong, (B) is right", "B", 1.0),
    ("negation", "\\boxed{C} is not the correct answer.", "C", 0.0),
    # retractions
    ("retraction", "C... wait, no, B", "C", 0.0),
    ("retraction", "C... wait, no, B", "B", 1.0),
    ("retraction", "The answer is C. Scratch that.", "C", 0.0),
    # hedges between options
    ("hedge", "Either option A or option C.", "C", 0.0),
    ("hedge", "**A** **C**", "C", 0.0),
    ("hedge", "C; B", "C", 0.0),
    ("hedge", "C; B", "B", 0.0),
    ("hedge", "C if the patient is pregnant, otherwise B", "C", 0.0),
    ("hedge", "C if the patient is pregnant, otherwise B", "B", 0.0),
    ("hedge", "A, B, C, D", "C", 0.0),
    ("hedge", "The answer is B or C.", "C", 0.0),
    ("hedge", "\\boxed{A} \\boxed{C}", "C", 0.0),
    ("hedge", "\\boxed{A/C}", "C", 0.0),
    # PubMedQA labels
    ("genuine", "The answer is yes.", "yes", 1.0),
    ("genuine", "No, the data do not support it.", "no", 1.0),
    ("genuine", "Final answer: maybe", "maybe", 1.0),
    ("hedge", "no or yes", "yes", 0.0),
    ("hedge", "no or yes", "no", 0.0),
    ("hedge", "\\boxed{no/yes/maybe}", "no", 0.0),
    ("hedge", "The answer is yes or no.", "yes", 0.0),
    ("negation", "The answer is not yes.", "yes", 0.0),
    ("hedge", "The answer is \\boxed{yes}, \\boxed{no}, \\boxed{maybe}.", "maybe", 0.0),
    ("retraction", "The answer is yes... wait, no, no.", "yes", 0.0),
    ("retraction", "The answer is yes... wait, no, no.", "no", 1.0),
    # malformed markup and truncation: no answer, never a crash
    ("malformed", "\\boxed$", "C", 0.0),
    ("malformed", "\\boxed{C}\\boxed$", "C", 1.0),  # a box with no content is no box
    ("truncated", "Weighing the options, the final answer is \\boxed{C", "C", 0.0),
    ("truncated", "<think>The answer is C", "C", 0.0),
    # look-alike and invisible characters
    ("genuine", "The answer is \u0421.", "C", 1.0),  # Cyrillic Es: a lone capital look-alike reads as the letter a reader sees
    ("genuine", "\\boxed{C\u200b}", "C", 1.0),  # an invisible character is read through: a reader sees C
]


def test_every_row_scores_as_expected_with_default_parameters():
    reward = ChoiceAccuracy()
    scores = reward(completions=[r[1] for r in ROWS], answer=[r[2] for r in ROWS])
    wrong = [(kind, completion, gold, expected, got) for (kind, completion, gold, expected), got in zip(ROWS, scores) if got != expected]
    assert not wrong, "\n".join(map(repr, wrong))


def test_options_text_rows():
    reward = ChoiceAccuracy(options_column="options")
    completions = ["I recommend: Order an HbA1c", "Not: Order an HbA1c. I recommend: Refer to surgery"]
    scores = reward(completions=completions, answer=["B", "C"], options=[OPTIONS, OPTIONS])
    assert scores == [1.0, 1.0]


@pytest.mark.parametrize("completion, how", [
    ("Either option A or option C.", "several options"), ("C if the patient is pregnant, otherwise B", "several options"),
    ("Not C.", ""),
])
def test_hedges_and_negations_are_reported(completion, how):
    assert extract_letter(completion) == (None, how)


@pytest.mark.parametrize("build", [
    lambda n: "Not C. " * (n // 7),
    lambda n: "C... wait, no, " * (n // 15),
    lambda n: "Either A or " * (n // 12),
    lambda n: "(C) is wrong, " * (n // 14),
    lambda n: "\\boxed{" * (n // 7),
])
def test_reading_a_letter_is_linear(build):
    costs = []
    for size in (10_000, 100_000, 1_000_000):
        text = build(size)
        start = time.process_time()
        extract_letter(text)
        extract_label(text)
        costs.append(time.process_time() - start)
    assert costs[2] < 5.0, costs
    assert costs[2] < 200 * max(costs[0], 0.005), costs


CHOICE_HACKS = [
    "Not {n}.", "The answer is not {n}.", "({n}) is wrong, ({m}) is right", "{n}... wait, no, {m}", "Either option {m} or option {n}.",
    "**{m}** **{n}**", "{m}; {n}", "{n} if the patient is pregnant, otherwise {m}", "{m}, {n}", "The answer is {m} or {n}.",
    "\\boxed{{{m}}} \\boxed{{{n}}}", "The final answer is \\boxed{{{n}", "<answer>{n}</answer> Scratch that.",
]
CHOICE_GENUINE = ["The answer is {n}.", "Answer: ({n})", "\\boxed{{{n}}}", "({m}) is wrong, ({n}) is right", "{m}... wait, no, {n}",
                  "<answer>{n}</answer>", "I would choose **{n}**."]


@given(letters=st.permutations("ABCDE"), hack=st.sampled_from(CHOICE_HACKS), genuine=st.sampled_from(CHOICE_GENUINE))
def test_property_choice_hacks_never_pay_and_the_genuine_answer_does(letters, hack, genuine):
    n, m = letters[0], letters[1]
    scores = ChoiceAccuracy()(completions=[hack.format(n=n, m=m), genuine.format(n=n, m=m)], answer=[n, n])
    assert scores == [0.0, 1.0], (hack.format(n=n, m=m), genuine.format(n=n, m=m), scores)
