"""Two branches opened by the same condition, each with its own value, are a case split -- the answer is one of two
candidates -- whatever words the branches use ("if we include ..., 7; if we exclude ..., 9"); a single conditional
statement of the problem's own case is an answer (alternative_branches.case_alternative_before)."""

from __future__ import annotations

import pytest

from polyreward.rewards.math_accuracy import MathAccuracy


@pytest.fixture(scope="module")
def reward():
    return MathAccuracy(timeout=10)


@pytest.mark.parametrize("completion, expected", [
    ("If we include the endpoints, \\boxed{7}; if we exclude them, 9.", 0.0),
    ("If we exclude the endpoints, 9; if we include them, \\boxed{7}.", 0.0),
    ("With the first reading 9, with the second \\boxed{7}.", 0.0),
    ("Without replacement 9; with replacement, \\boxed{7}.", 0.0),
    ("For n = 5, the answer is \\boxed{7}.", 1.0),
    ("If we include the endpoints, the count is \\boxed{7}.", 1.0),
    ("With the correction applied, \\boxed{7}.", 1.0),
    ("If x = 3, then y = 2x + 1 = \\boxed{7}.", 1.0),
])
def test_case_splits(reward, completion, expected):
    assert reward(prompts=["Count them."], completions=[completion], answer=["7"]) == [expected]
