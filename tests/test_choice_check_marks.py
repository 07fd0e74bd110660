"""A check mark opening the answer's line marks its letter the pick; a cross mark never does (issue #32): "✅ A —
Insulin" followed by a bracket that explains the other options is A, while "❌ A — Insulin" crosses A out.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy

CHOICE = ChoiceAccuracy()
BETA = "Which hormone is secreted by pancreatic beta cells?\nA. Insulin\nB. Glucagon\nC. Somatostatin\nD. Pancreatic polypeptide"
TEXTS = {"A": "Insulin", "B": "Glucagon", "C": "Somatostatin", "D": "Pancreatic polypeptide"}


def choice(completion: str, gold: str) -> float:
    return CHOICE.evaluate([BETA], [completion], answer=[gold]).scores[0]


@pytest.mark.parametrize("completion", [
    "✅ A — Insulin\n\n(Glucagon is from alpha cells, somatostatin from delta cells.)",
    "✅ A — Insulin",
    "✔ A",
    "❌ B — Glucagon\n✅ A — Insulin",
])
def test_a_check_marked_letter_is_the_pick(completion):
    assert choice(completion, "A") == 1.0


@pytest.mark.parametrize("completion", [
    "❌ A — Insulin",                        # crossed out
    "✅ A — Glucagon",                       # the letter beside another option's text
    "✅ A — Insulin\n✅ B — Glucagon",        # two picks
    "✅ A — Insulin\n\nWait, actually B.",   # corrected
    "✅ A — Insulin?",                       # asked
])
def test_a_crossed_or_contradicted_letter_is_not_paid(completion):
    assert choice(completion, "A") == 0.0


@settings(max_examples=40, deadline=None)
@given(st.permutations("ABCD"), st.sampled_from(["❌", "✗", "✘"]))
def test_a_cross_mark_never_picks_and_a_check_mark_picks_only_its_letter(order, cross):
    picked, crossed = order[0], order[1]
    completion = f"{cross} {crossed} — {TEXTS[crossed]}\n✅ {picked} — {TEXTS[picked]}"
    assert [choice(completion, letter) for letter in "ABCD"] == [float(letter == picked) for letter in "ABCD"]
    assert choice(f"{cross} {crossed} — {TEXTS[crossed]}", crossed) == 0.0
