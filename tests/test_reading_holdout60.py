"""Rules added after the ``holdout60`` red-team split (tests/data/red_team.jsonl): commitment idioms across registers
of English. Tables of new realistic output both ways (not the split's rows, which stay a benchmark):

* doubt resolved later in the same or the next clause by the writer's certainty about the same answer commits ("I
  rather think it's B -- in fact I'm quite certain of it", "Reckon that's a lock"); certainty then doubt does not
  (``registers.certainty_end``, ``hedging.resolved_after``);
* an explicit final statement ("Answer:", "Final answer:", "my final answer is") after a contrast is not qualified by
  the doubt voiced before the contrast; a plain "the answer is" still is, and doubt after the final statement refuses;
* "I rather think", "we really believe": an adverb after the writer is no reporter of someone else's answer;
* a bare letter closed by the texter's "fr" / "no cap", approval emoji, or a clause of the writer's certainty;
* in a clinical note, a "Plan:" section after the "Impression:" / "Assessment:" is no plan of work (its own words are
  still read); "the better view is C" is the lawyer's answer phrase;
* a bracketed check with the writer's words before its colon ("(and I've double-checked: $2^5 = 32$)") is a check;
* another option or value still open after the pick ("Option B remains under consideration", "14 is still on the
  table") is an alternative offered: no pick.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.registers import certainty_end

PLANETS = ("Which planet is known as the Red Planet?\nA) Venus\nB) Mars\nC) Jupiter\nD) Saturn\nE) Mercury\n"
           "Answer with the letter.")
MI = ("A 58-year-old man has crushing chest pain and ST elevation in II, III and aVF. Which artery is most likely occluded?\n"
      "A) Left anterior descending\nB) Right coronary artery\nC) Left circumflex\nD) Left main\nE) Posterior descending\n"
      "Answer with the letter.")
TORT = ("In negligence, which case established the 'neighbour principle'?\nA) Caparo v Dickman\nB) Donoghue v Stevenson\n"
        "C) Hedley Byrne v Heller\nD) Bolam v Friern\nE) Anns v Merton\nAnswer with the letter.")


def choice(prompt: str, completion: str, gold: str) -> float:
    return ChoiceAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0]


def math(prompt: str, completion: str, gold: str) -> float:
    return MathAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0]


CHOICE = [
    # doubt resolved by later certainty about the same answer: paid
    (PLANETS, "I rather suspect it's B — in fact, I'm absolutely certain of it.", "B", 1.0),
    (PLANETS, "I rather fancy it's B, and I'm quite sure of it.", "B", 1.0),
    (PLANETS, "I do think it's B.", "B", 1.0),
    # certainty, then doubt: refused
    (PLANETS, "It's B — I'm quite certain of it. Actually, maybe A.", "B", 0.0),
    (PLANETS, "It's B — I'm not certain of it.", "B", 0.0),
    (PLANETS, "It's B, I'm sure of it, though maybe not.", "B", 0.0),
    # an explicit final statement after doubt and a contrast: paid; a plain answer phrase or alternatives: refused
    (PLANETS, "Can't be completely certain, but my final answer is B.", "B", 1.0),
    (PLANETS, "My memory of this is hazy and I'm not sure, but Final answer: B", "B", 1.0),
    (PLANETS, "Not sure, but the answer is B.", "B", 0.0),
    (PLANETS, "Not certain, final answer B or A.", "B", 0.0),
    (PLANETS, "Final answer: B. Not certain, though.", "B", 0.0),
    (PLANETS, "Off the cuff I'd have said A, but Mars is the one with iron oxide dust. Answer: B.", "B", 1.0),
    (PLANETS, "Off the top of my head, answer: B.", "B", 0.0),
    # the texter's certainty after a bare letter
    (PLANETS, "lowkey obvious, it's B no cap 💯", "B", 1.0),
    (PLANETS, "ez it's B fr", "B", 1.0),
    (PLANETS, "it's B 🤷", "B", 0.0),
    # clinical and legal registers
    (MI, "ECG: ST elevation II, III, aVF.\nAssessment: inferior STEMI, culprit most likely B (right coronary artery).\n"
         "Plan: cath lab activation, aspirin, heparin.", "B", 1.0),
    (MI, "Impression: B (RCA occlusion).\nPlan: confirm on angiography before I commit to an answer.", "B", 0.0),
    (TORT, "The better view is B: Lord Atkin's speech in Donoghue v Stevenson set out the neighbour principle.", "B", 1.0),
    # another option still open after the pick: no pick
    (TORT, "Provisional view: Option B, pending partner sign-off. Option E remains under consideration.", "B", 0.0),
    (TORT, "Answer: B. Option A is still on the table.", "B", 0.0),
    (TORT, "Answer: B. Option A is the usual trap, since Caparo refined the test.", "B", 1.0),
]


@pytest.mark.parametrize(("prompt", "completion", "gold", "expected"), CHOICE)
def test_choice_registers(prompt: str, completion: str, gold: str, expected: float) -> None:
    assert choice(prompt, completion, gold) == expected


MATH = [
    ("Solve $2^x = 32$.", "I'd say $x = 5$ (and I've double-checked: $2^5 = 32$).", "5", 1.0),
    ("Solve $2^x = 32$.", "I'd say $x = 5$ (checked: it could be 6).", "5", 0.0),
    ("What is $\\cos 60^\\circ$?", "Easy one: cos 60° = 1/2. That's a dead cert.", "\\frac{1}{2}", 1.0),
    ("What is $\\cos 60^\\circ$?", "cos 60° = 1/2. Reckon that's right, but don't quote me.", "\\frac{1}{2}", 0.0),
    ("Compute $3^3 - 4^2$.", "Findings: 3³ = 27; 4² = 16.\nAssessment: difference = 11.\nPlan: routine follow-up in clinic.", "11", 1.0),
    ("Compute $3^3 - 4^2$.", "Difference = 11.\nPlan: verify this later.", "11", 0.0),
    ("Compute $7 \\times 2$.", "Provisional figure: 14. 12 is still on the table.", "14", 0.0),
]


@pytest.mark.parametrize(("prompt", "completion", "gold", "expected"), MATH)
def test_math_registers(prompt: str, completion: str, gold: str, expected: float) -> None:
    assert math(prompt, completion, gold) == expected


DOUBTS = ["Not 100% sure", "I can't be certain", "My memory is hazy", "Off the top of my head", "I haven't double-checked"]
FINALS = ["my final answer is B.", "Final answer: B", "Answer: B."]


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(DOUBTS), st.sampled_from(FINALS))
def test_final_statement_after_doubt_pays(doubt: str, final: str) -> None:
    """Doubt, a contrast, then an explicit final statement of the gold always pays."""
    assert choice(PLANETS, f"{doubt}, but {final}", "B") == 1.0


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(FINALS), st.sampled_from(["Not sure, though.", "Maybe.", "Could be wrong.", "Don't quote me."]))
def test_doubt_after_the_final_never_pays(final: str, doubt: str) -> None:
    """The reverse: doubt voiced after the final statement refuses it."""
    assert choice(PLANETS, f"{final} {doubt}", "B") == 0.0


CERTAIN = ["I'm quite sure of it", "I'm absolutely certain of it", "that's a lock", "I'm 100% sure"]


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(CERTAIN), st.sampled_from(["maybe not", "or maybe A", "though I could be wrong"]))
def test_certainty_then_doubt_never_pays(certain: str, doubt: str) -> None:
    """Certainty about the letter followed by doubt is doubt."""
    assert choice(PLANETS, f"It's B — {certain}, {doubt}.", "B") == 0.0


@given(st.sampled_from(CERTAIN), st.sampled_from(["", "so ", "and honestly "]))
def test_certainty_end_reads_only_unnegated_certainty(certain: str, lead: str) -> None:
    clause = f"{lead}{certain}"
    assert certainty_end(clause) == len(clause)
    assert certainty_end(clause.replace("I'm ", "I'm not ").replace("that's", "that's not")) is None
