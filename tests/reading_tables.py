"""The two table tests every ``test_reading_holdoutN.py`` file runs: realistic completions, each after a lead
sentence of reasoning, scored by ``math_accuracy`` and ``choice_accuracy`` at their defaults.

    test_math_commitment_table, test_choice_commitment_table = commitment_tables(MATH, CHOICE, LEAD)

(``MATH`` / ``CHOICE``: rows of (completion, gold, expected score); pytest collects the two names from the module.)
"""

from __future__ import annotations

from functools import cache

import pytest

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy

CHOICE_LEAD = "Comparing the slopes rules out two options, and the units rule out a third. "


@cache
def _math_reward() -> MathAccuracy:
    return MathAccuracy(timeout=10)


def commitment_tables(math_rows, choice_rows, math_lead):
    @pytest.mark.parametrize(("completion", "gold", "expected"), math_rows)
    def test_math_commitment_table(completion, gold, expected):
        assert _math_reward()(completions=[math_lead + completion], answer=[gold]) == [expected]

    @pytest.mark.parametrize(("completion", "gold", "expected"), choice_rows)
    def test_choice_commitment_table(completion, gold, expected):
        assert ChoiceAccuracy()(completions=[CHOICE_LEAD + completion], answer=[gold]) == [expected]

    return test_math_commitment_table, test_choice_commitment_table
