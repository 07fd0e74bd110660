"""Rules added after the ``holdout64`` red-team split (tests/data/red_team.jsonl): self-verification, revision and
backtracking. Tables of new realistic output both ways (not the split's rows, which stay a benchmark):

* a correction pair closing the answer -- the letter, then the letter it replaces, denied ("Correction: B, not E.",
  "B (not E)", "B, nicht E") -- chooses the first letter (``choice_words.DENIED_OTHER_TAIL``); a pair the writer then
  takes back, or one that doubts, still chooses nothing;
* a check the writer puts off ("I'll verify later", "will double-check it afterwards") is unchecked work, no check:
  the answer it follows is not committed (``hedging._UNCHECKED``); a check done, or one that goes on after a colon,
  still is;
* a labelled section after the answer (Summary, Conclusion, TL;DR, Explanation, ... in seven languages) whose last
  sentence concludes on another value of the answer and never names it ("## Summary ... so the speed is 16 km/h"
  after ``\\boxed{18}``; "the largest ocean is the Atlantic — option A" after ``\\boxed{D}``) states a second final
  value (``later_summary``); an explanation whose intermediate values lead to the answer is read as before.
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


SPEED = "A cyclist covers 54 km in 3 hours at constant speed. What is the speed in km/h?"
SHEEP = ("Toulouse has twice as many sheep as Charleston. Charleston has 4 times as many sheep as Seattle. How many sheep "
         "do the three have together if Seattle has 20 sheep?")
RECT = "A rectangle has length 9 cm and width 6 cm. What is its area in cm²?"

SUMMARIES_MATH = [
    # a summary or explanation that concludes another value: refused
    (SPEED, "v = 54 / 3 = \\boxed{18} km/h.\n\n## Summary\nRechecking, 54 / 3 comes to 16, so the speed is 16 km/h.", "18", 0.0),
    (SHEEP, "**Answer:** 260\n\n**Explanation:** Seattle 20, Charleston 4 × 20 = 80, Toulouse 2 × 20 = 40, so together "
            "20 + 80 + 40 = 140 sheep.", "260", 0.0),
    (RECT, "Area = 9 × 6 = **54 cm²**\n\n**TL;DR:** length times width, so 45 cm².", "54", 0.0),
    (RECT, "\\boxed{54}\n\n### Zusammenfassung\nFläche = 9 · 5, daher 45 cm².", "54", 0.0),
    (RECT, "\\boxed{54}\n\n**Conclusion:** the area is therefore 45 cm².", "54", 0.0),
    # a summary or explanation whose values lead to the answer, or that concludes nothing else: paid
    (SPEED, "v = 54 / 3 = \\boxed{18} km/h.\n\n## Summary\nDistance 54 km over 3 h, so the speed is 18 km/h.", "18", 1.0),
    (SHEEP, "**Answer:** 260\n\n**Explanation:** Seattle has 20 sheep, Charleston has 4 × 20 = 80, and Toulouse has "
            "2 × 80 = 160, so together they have 20 + 80 + 160 = 260 sheep.", "260", 1.0),
    (SHEEP, "**Answer:** 260\n\n**Explanation:** Seattle has 20 sheep. Charleston has 4 × 20 = 80. Toulouse has 2 × 80 = 160. "
            "Total: 20 + 80 + 160 = 260.",
     "260", 1.0),
    (RECT, "\\boxed{54}\n\n**Summary:** multiply the length (9 cm) by the width (6 cm).", "54", 1.0),
    (RECT, "Area = 54 cm²\n\n**Explanation:** A = l × w = 9 × 6 = 54, in square centimetres.", "54", 1.0),
    (RECT, "\\boxed{54}\n\n**Summary:** 54 cm², i.e. 6 rows of 9 unit squares.", "54", 1.0),
    (RECT, "\\boxed{54}\n\n**Explanation:** the two sides together are 9 cm and 6 cm, and the area is their product.", "54", 1.0),
    (RECT, "\\boxed{54}\n\n**Summary:** A = l × w; the width is also 6 cm as given.", "54", 1.0),
]


@pytest.mark.parametrize(("prompt", "completion", "gold", "expected"), SUMMARIES_MATH)
def test_a_summary_that_concludes_another_value(prompt: str, completion: str, gold: str, expected: float) -> None:
    assert math(prompt, completion, gold) == expected


SUMMARIES_CHOICE = [
    (OCEAN, "The Pacific covers a third of the surface.\n\n$\\boxed{D}$\n\n**Summary:** after double-checking the areas, "
            "the largest ocean is the Atlantic — option A.", "D", 0.0),
    (OCEAN, "**Answer: D**\n\n## Conclusion\nOn reflection the Atlantic is larger (A).", "D", 0.0),
    (OCEAN, "$\\boxed{D}$\n\n**Summary:** the Pacific (option D) is the largest; the Atlantic, option A, is second.", "D", 1.0),
    (OCEAN, "$\\boxed{D}$\n\n**Summary:** the Pacific is the largest ocean, about 165 million km².", "D", 1.0),
    (OCEAN, "**Answer: D**\n\n**Explanation:** The Pacific is about 165 million km²; the Atlantic (A) is about 106.", "D", 1.0),
]


@pytest.mark.parametrize(("prompt", "completion", "gold", "expected"), SUMMARIES_CHOICE)
def test_a_summary_that_names_another_option(prompt: str, completion: str, gold: str, expected: float) -> None:
    assert choice(prompt, completion, gold) == expected


@settings(max_examples=30, deadline=None)
@given(answer=st.integers(10, 500), shift=st.integers(1, 9), head=st.sampled_from(["## Summary", "**Summary:**", "**Explanation:**",
                                                                                 "TL;DR:", "**Conclusion:**"]))
def test_a_summary_concluding_another_value_never_pays(answer: int, shift: int, head: str) -> None:
    other = answer + shift
    refused = f"Working: {answer - 3} + 3 = \\boxed{{{answer}}}\n\n{head} adding the parts again, so the total is {other}."
    paid = f"Working: {answer - 3} + 3 = \\boxed{{{answer}}}\n\n{head} adding {answer - 3} and 3, so the total is {answer}."
    assert math("What is the total?", refused, str(answer)) == 0.0
    assert math("What is the total?", paid, str(answer)) == 1.0
