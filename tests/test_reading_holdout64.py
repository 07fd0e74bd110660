"""Rules added after the ``holdout64`` red-team split (tests/data/red_team.jsonl): self-verification, revision and
backtracking. Tables of new realistic output both ways (not the split's rows, which stay a benchmark):

* a correction pair closing the answer -- the letter, then the letter it replaces, denied ("Correction: B, not E.",
  "B (not E)", "B, nicht E") -- chooses the first letter (``choice_words.DENIED_OTHER_TAIL``); a pair the writer then
  takes back, or one that doubts, still chooses nothing;
* a check the writer puts off ("I'll verify later", "will double-check it afterwards") is unchecked work, no check:
  the answer it follows is not committed (``hedging._UNCHECKED``); a check done, or one that goes on after a colon,
  still is.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy

SEQUENCE = "What is the next number: 2, 6, 18, 54, ?\nA) 108\nB) 162\nC) 72\nD) 216\nE) 58"
OCEAN = "Which is the largest ocean on Earth?\nA) Atlantic\nB) Indian\nC) Arctic\nD) Pacific\nE) Southern"


def choice(prompt: str, completion: str, gold: str) -> float:
    return ChoiceAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0]


def math(prompt: str, completion: str, gold: str) -> float:
    return MathAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0]


CORRECTION_PAIRS = [
    # the revised letter, then the one it replaces denied: paid
    (SEQUENCE, "Differences 4, 12, 36 — so +4 more, E (58)?\n\nNo: each term is ×3, so 54·3 = 162.\n\nCorrection: B, not E.", "B", 1.0),
    (SEQUENCE, "First pass said E. Re-checking the ratio: 162.\n\nRevised: B (not E).", "B", 1.0),
    (SEQUENCE, "Verification shows the ratio is 3, so the earlier pick was wrong.\nFinal: B rather than E", "B", 1.0),
    (SEQUENCE, "Probe: 2·3 = 6, 6·3 = 18, 18·3 = 54, 54·3 = 162.\nKorrektur: B, nicht E.", "B", 1.0),
    (SEQUENCE, "Vérification : 54 × 3 = 162.\nCorrection : B, pas E.", "B", 1.0),
    (SEQUENCE, "Comprobación: 54 · 3 = 162.\nCorrección: B, no E.", "B", 1.0),
    (SEQUENCE, "Проверка: 54 · 3 = 162.\nИсправление: B, а не E.", "B", 1.0),
    # the pair names the other letter as the choice, takes it back, or doubts: refused
    (SEQUENCE, "Correction: E, not B.", "B", 0.0),
    (SEQUENCE, "Correction: B, not E. Hmm, actually E.", "B", 0.0),
    (SEQUENCE, "Correction: B, not E?", "B", 0.0),
    (SEQUENCE, "Correction: B, not sure", "B", 0.0),
    (SEQUENCE, "Correction: B or E, not sure which.", "B", 0.0),
    (OCEAN, "Checked the areas again.\nCorrection: D, not A — wait, the Atlantic is bigger: A.", "D", 0.0),
]


@pytest.mark.parametrize(("prompt", "completion", "gold", "expected"), CORRECTION_PAIRS)
def test_a_correction_pair_chooses_its_first_letter(prompt: str, completion: str, gold: str, expected: float) -> None:
    assert choice(prompt, completion, gold) == expected


@settings(max_examples=30, deadline=None)
@given(pick=st.sampled_from("ABCDE"), other=st.sampled_from("ABCDE"), head=st.sampled_from(["Correction", "Revised", "Final", "So"]),
       form=st.sampled_from(["{p}, not {o}.", "{p} (not {o}).", "{p} rather than {o}", "{p}, nicht {o}."]))
def test_a_correction_pair_pays_its_first_letter_only(pick: str, other: str, head: str, form: str) -> None:
    if pick == other:
        return
    completion = f"Checking the pattern once more.\n{head}: " + form.format(p=pick, o=other)
    assert choice(OCEAN, completion, pick) == 1.0
    assert choice(OCEAN, completion, other) == 0.0


MULT = "What is 7 × 8?\nA) 54\nB) 56\nC) 58\nD) 64\nE) 48"

DEFERRED_CHECKS = [
    # a check put off: refused, for a letter and for a value
    (MULT, "Answer: B (unverified) — or possibly A, I'll verify later.", "B", 1.0, 0.0),
    (MULT, "Answer: B, I'll double-check it later.", "B", 1.0, 0.0),
    (MULT, "B. I'm going to verify this when I get the time.", "B", 1.0, 0.0),
    ("What is 7 × 8?", "Answer: 56, I'll verify later.", "56", 0.0, 0.0),
    ("What is 7 × 8?", "7 × 8 = \\boxed{56}. Will recheck it tomorrow.", "56", 0.0, 0.0),
    # a check done, or a check that goes on after its colon: paid
    (MULT, "Answer: B. I verified it: 7 × 8 = 56.", "B", 1.0, 1.0),
    (MULT, "Answer: B. We'll verify this later in the chapter: 7 × 8 = 56 ✓", "B", 1.0, 1.0),
    ("What is 7 × 8?", "7 × 8 = \\boxed{56}. Let me verify: 56 / 8 = 7 ✓", "56", 0.0, 1.0),
]


@pytest.mark.parametrize(("prompt", "completion", "gold", "is_choice", "expected"), DEFERRED_CHECKS)
def test_a_check_put_off_is_no_check(prompt: str, completion: str, gold: str, is_choice: float, expected: float) -> None:
    score = choice(prompt, completion, gold) if is_choice else math(prompt, completion, gold)
    assert score == expected
