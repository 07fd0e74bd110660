"""holdout14's rules, both directions (see docs/reading.md): a bracketed reason after an anchored answer."""

import pytest

from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.asides import cut_reason_aside

PROMPT = "A box holds 6 rows of 7 marbles. How many marbles are in the box?"


@pytest.mark.parametrize("segment, expected", [
    ("42 (since each of the 6 rows has 7 marbles).", "42"),
    ("42 (because 6 \\times 7 = 42)", "42"),
    ("x = 6 (since 2x = 12)", "x = 6"),
    ("\\frac{1}{2} (as one of two equally likely faces)", "\\frac{1}{2}"),
    # kept: the bracket qualifies the value, or is no reason
    ("42 (in base 8)", "42 (in base 8)"),
    ("42 (placeholder)", "42 (placeholder)"),
    ("3 (x+1)", "3 (x+1)"),
    ("42 marbles (since 6 rows)", "42 marbles (since 6 rows)"),
])
def test_cut_reason_aside(segment, expected):
    assert cut_reason_aside(segment) == expected


@pytest.mark.parametrize("completion, gold, score", [
    ("Answer: 42 (since each of the 6 rows has 7 marbles).", "42", 1.0),
    ("Answer: 42 (because there are 6 rows of 7).", "42", 1.0),
    ("Answer: 6 (since each of the 6 rows has 7 marbles).", "42", 0.0),
    ("Answer: 42 (in base 8)", "42", 0.0),
])
def test_reason_aside_scores(completion, gold, score):
    assert MathAccuracy().evaluate([PROMPT], [completion], answer=[gold]).scores[0] == score
