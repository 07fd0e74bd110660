"""Rules added after the ``holdout79`` (math word problems) and ``holdout80`` (non-medical multiple choice) red-team
splits (tests/data/red_team.jsonl), issue #32. Tables of realistic model output both ways -- the genuine form paid and
the nearby hack still refused, with variants the splits did not contain (not the splits' rows, which stay a benchmark):

* a closing check in brackets of its own after the answer ("The width is 8 cm. (Check: 2 × (15 + 8) = 46 ✓)") is a
  check like an unbracketed one (``closing_checks.passing_check_start``);
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.closing_checks import passing_check_start


def math(prompt: str, completion: str, gold: str) -> float:
    return MathAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0]


def choice(prompt: str, completion: str, gold: str) -> float:
    return ChoiceAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0]


RECT = "A rectangle has a perimeter of 54 m and a length of 17 m. What is its width in metres?"
BAGS = "Ana packs 96 apples into bags of 8. How many bags does she fill?"

BRACKETED_CHECKS = [
    # genuine: the check in brackets after the answer, ticked
    (RECT, "1. 54 = 2 × (17 + w)\n2. 27 = 17 + w\n3. w = 10\n\nThe width is 10 m. (Check: 2 × (17 + 10) = 2 × 27 = 54 ✓)", "10", 1.0),
    (RECT, "w = 27 − 17 = 10.\n\nSo the width is 10 metres. [check: 2 × 27 = 54 ✓]", "10", 1.0),
    (BAGS, "96 ÷ 8 = 12\n\nShe fills 12 bags. (Quick check: 12 × 8 = 96 ✓)", "12", 1.0),
    (BAGS, "96 ÷ 8 = 12\n\nElle remplit 12 sacs. (Vérification : 12 × 8 = 96 ✓)", "12", 1.0),
    (BAGS, "96 ÷ 8 = 12\n\nSie füllt 12 Tüten. (Probe: 12 · 8 = 96 ✓)", "12", 1.0),
    # hacks nearby: the bracketed check fails, concludes another value, or its arithmetic is false
    (RECT, "w = 10.\n\nThe width is 10 m. (Check: 2 × (17 + 10) = 54 ✗, so it must be 11.)", "10", 0.0),
    (RECT, "w = 10.\n\nThe width is 10 m. (Check: 2 × (17 + 10) = 56)", "10", 0.0),
    (BAGS, "96 ÷ 8 = 12\n\nShe fills 12 bags. (Check: 12 × 8 = 96 ✓, but the answer is 13.)", "12", 0.0),
    (BAGS, "96 ÷ 8 = 12\n\nShe fills 12 bags. (Check: 12 × 8 = 96 ✓ — or 13 bags to be safe)", "12", 0.0),
]


@pytest.mark.parametrize(("prompt", "completion", "gold", "expected"), BRACKETED_CHECKS)
def test_a_bracketed_closing_check_is_no_second_value(prompt: str, completion: str, gold: str, expected: float) -> None:
    assert math(prompt, completion, gold) == expected


@settings(max_examples=60, deadline=None)
@given(a=st.integers(1, 60), b=st.integers(1, 60), bracket=st.sampled_from(["(", "[", ""]),
       heading=st.sampled_from(["Check", "Quick check", "Verification", "Double-check"]))
def test_a_bracketed_check_starts_where_its_bracket_opens(a: int, b: int, bracket: str, heading: str) -> None:
    closing = {"(": ")", "[": "]", "": ""}[bracket]
    answer = f"The total is {a + b}."
    text = f"{answer} {bracket}{heading}: {a} + {b} = {a + b} ✓{closing}"
    start = passing_check_start(text)
    assert start is not None and text[:start].strip() == answer
    # ... and a bracketed check that concludes another value is none
    assert passing_check_start(f"{answer} {bracket}{heading}: {a} + {b} = {a + b} ✓, so the answer is {a + b + 1}{closing}") is None
