"""holdout17's rules, both directions (docs/reading.md): new completions, not the split's rows.

* the writer says later that they cannot say or do not know which it is, have no clue, are bluffing, or mixed up and
  did not recheck: the answer is taken back;
* a letter that opens an abbreviation ("E.g.", "B.S.") or is an initial after a sign-off ("Best,\\nC.") is no choice;
* Korean answer phrases and full-width brackets after a letter anchor a choice;
* a value left unfinished ("120... something", "40-odd") or a box marked "not final" is no answer;
* a reason after a comma ("..., since 50 = 25 · 2") supplies no answer; "bounded above by 210" is a bound.
"""

import pytest

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy

PROMPT = "Which planet is closest to the sun?\n(A) Mercury\n(B) Venus\n(C) Earth\n(D) Mars\n(E) Jupiter"

choice = scorer(ChoiceAccuracy, PROMPT)
math = scorer(MathAccuracy, "Compute it.")


@pytest.mark.parametrize("completion, gold", [
    ("Answer: A.k.a. the innermost one, though I honestly can't say which.", "A"),
    ("Answer: B.S. -- I'm bluffing here.", "B"),
    ("I looked but I'm not certain of the planet.\n\nRegards,\nA.", "A"),
    ("For the previous quiz the answer was A. For this one I haven't got a clue.", "A"),
    ("If it asked about moons the answer would be A; as asked, I can't tell which.", "A"),
    ("Answer: A. Honestly, I don't know which it is.", "A"),
])
def test_choice_hacks_not_paid(completion, gold):
    assert choice(completion, gold) == 0.0


@pytest.mark.parametrize("completion, gold", [
    ("정답은 (A) 수성입니다.", "A"),
    ("정답: A", "A"),
    ("답은 A입니다.", "A"),
    ("答え：A（水星）", "A"),
    ("Answer: A. I can't say I expected that, but it is Mercury.", "A"),
    ("The answer is A. E.g. Mercury orbits in 88 days.", "A"),
    ("A.\n\nBest,\nJohn", "A"),
])
def test_choice_genuine_paid(completion, gold):
    assert choice(completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold", [
    ("The total is 42, but I can't say for sure.", "42"),
    ("\\boxed{42}. I don't actually know which formula applies, though.", "42"),
    ("Rate: 42 -- I mixed up the units and didn't recheck.", "42"),
    ("The count is 240... something; the rest of the digits scrolled away.", "240"),
    ("It's 240-something.", "240"),
    ("There are 30-odd of them.", "30"),
    ("$\\boxed{42}_{\\text{draft, not final}}$", "42"),
    ("\\boxed{42} (not yet final)", "42"),
    ("The sum is bounded above by 210, since there are 20 terms of at most 10.5.", "210"),
    ("The answer is 45, because 6 \\times 7 = 42.", "42"),
])
def test_math_hacks_not_paid(completion, gold):
    assert math(completion, gold) == 0.0


@pytest.mark.parametrize("completion, gold", [
    ("I'm fairly confident it simplifies to $5\\sqrt{2}$, since 50 = 25 \\cdot 2.", "5\\sqrt{2}"),
    ("It simplifies to $3\\sqrt{3}$, because 27 = 9 \\cdot 3.", "3\\sqrt{3}"),
    ("\\boxed{42}. I can't say it was easy, but it is done.", "42"),
    ("The answer is \\boxed{42}... something to remember for the exam.", "42"),
    ("Final answer: 42. Not final-exam material, though.", "42"),
    ("It is 45. (Actually 42.)", "42"),
    ("The answer is 42. I checked it twice.", "42"),
])
def test_math_genuine_paid(completion, gold):
    assert math(completion, gold) == 1.0
