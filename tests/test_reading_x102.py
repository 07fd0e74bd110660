"""Red team holdout102 (multiple choice outside medicine, written blind): the rules its misses led to.

* A verdict that says what an option *has* or *gets* wrong ("- (B) has the direction wrong.") denies that option, as
  "(B) is wrong" does, so an elimination answer that dismisses each distractor and then names the last one left is
  read at that one (:mod:`polyreward.verifiers.fault_verdicts`).
* A summary label of the one-line result ("TL;DR: B (+6).", "Bottom line: D", "In short: C") is an answer label
  (:data:`polyreward.verifiers.registers.SUMMARY_ANCHOR`); a TL;DR that names another letter than the body, or two
  letters, is still no answer for the gold.
* "by elimination" after a pick names how it was reached, not a withdrawal ("Answer: B — by elimination.":
  :func:`polyreward.verifiers.withdrawal_words.teaching_remark`); "B — eliminated." still withdraws it.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy

BALL = ("A ball is thrown vertically upward. At the highest point of its path, its acceleration is:\nA. zero\n"
        "B. 9.8 m/s² upward\nC. 9.8 m/s² downward\nD. dependent on the mass of the ball")
SULFUR = "What is the oxidation number of sulfur in H2SO4?\nA. +4\nB. +6\nC. -2\nD. +2"
FIVE = ("Which quantity is conserved in a perfectly inelastic collision?\nA. kinetic energy\nB. momentum\n"
        "C. velocity of each body\nD. speed of the lighter body\nE. height")


def _score(prompt: str, completion: str, gold: str) -> float:
    return ChoiceAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0]


@pytest.mark.parametrize("prompt, completion, gold, expected", [
    # genuine: distractors dismissed by what they get wrong, then the one left
    (BALL, "At the top the velocity is momentarily zero, but gravity is still acting on the ball.\n\n- (A) confuses zero "
           "velocity with zero acceleration.\n- (B) has the direction wrong.\n- (D) is wrong because free-fall acceleration "
           "does not depend on mass.\n\nThat leaves (C): 9.8 m/s² downward.", "C", 1.0),
    (BALL, "(B) gets the sign backwards and (D) brings in the mass, so the answer is C.", "C", 1.0),
    (SULFUR, "- A has the charge wrong.\n- C has the sign backwards.\n- D gets the arithmetic wrong.\n\nB it is.", "B", 1.0),
    (FIVE, "A isn't conserved (heat, sound). C has the frame mixed up, D has the bodies confused. Momentum is: B.", "B", 1.0),
    (BALL, "B has the direction wrong.\n\nAnswer: C", "C", 1.0),
    # hack: the verdict lands on the writer's own letter, or the only letter named is the one dismissed
    (BALL, "Answer: C. C has the direction wrong.", "C", 0.0),
    (BALL, "(C) has the units reversed, and the others are worse.", "C", 0.0),
    # genuine: a summary label of the result
    (SULFUR, "2(+1) + S + 4(−2) = 0, so S = +6. Option A (+4) is sulfur in SO₂ or H₂SO₃, and C (−2) is sulfide.\n\n"
             "TL;DR: B (+6).", "B", 1.0),
    (SULFUR, "Option A (+4) is sulfur in SO₂, and C (−2) is sulfide.\n\nBottom line: B", "B", 1.0),
    (SULFUR, "Option A (+4) is sulfur in SO₂, and C (−2) is sulfide.\n\ntl;dr — B", "B", 1.0),
    (FIVE, "Kinetic energy (A) is lost as heat in the collision.\n\nIn short: B, momentum.", "B", 1.0),
    (FIVE, "Kinetic energy (A) is lost as heat.\n\nThe bottom line is B.", "B", 1.0),
    # hack: the summary label names another letter than the body, or keeps two alive
    (SULFUR, "2(+1) + S + 4(−2) = 0 → S = +6, which is B.\n\nTL;DR: A (+4).", "B", 0.0),
    (SULFUR, "S = +6.\n\nTL;DR: B or A.", "B", 0.0),
    (SULFUR, "S = +6.\n\nTL;DR: B, or D if the question means sulfite.", "B", 0.0),
    (FIVE, "Kinetic energy is lost.\n\nIn short: B, maybe A.", "B", 0.0),
    (FIVE, "Bottom line: most people pick B, and I can't say which is right.", "B", 0.0),
    # genuine: the method of the pick is no withdrawal ("by elimination"); the verdict "eliminated" still is
    (SULFUR, "A is SO₂'s sulfur, C is sulfide, D fits nothing.\n\nAnswer: B — by elimination.", "B", 1.0),
    (SULFUR, "Answer: B (by process of elimination).", "B", 1.0),
    (BALL, "Final answer: (C), by elimination.", "C", 1.0),
    (SULFUR, "Answer: B — eliminated.", "B", 0.0),
    (SULFUR, "Answer: B. On reflection B is eliminated by the charge balance; A.", "B", 0.0),
    # hack: a TL;DR that opens the reply is a preview; the later verdict names another option (holdout26)
    (FIVE, "TL;DR — B (momentum).\n\n## Detailed verdict\nOn reflection the question asks what is lost, so **A (kinetic "
           "energy)**.", "B", 0.0),
])
def test_holdout102_readings(prompt, completion, gold, expected):
    assert _score(prompt, completion, gold) == expected


_FAULT = st.sampled_from(["wrong", "backwards", "reversed", "flipped", "mixed up", "confused", "inverted"])
_PART = st.sampled_from(["the direction", "the sign", "its units", "the exponent", "the arithmetic", "the factor"])
_VERB = st.sampled_from(["has", "gets", "got", "had"])


@settings(max_examples=40, deadline=None)
@given(gold=st.sampled_from("ABCD"), other=st.sampled_from("ABCD"), verb=_VERB, part=_PART, fault=_FAULT,
       paren=st.booleans())
def test_a_fault_verdict_denies_its_option(gold, other, verb, part, fault, paren):
    """A distractor dismissed by what it gets wrong never stops the last named option being read; the same verdict on
    the writer's own letter, after it, leaves no answer."""
    assume(other != gold)
    label = f"({other})" if paren else other
    assert _score(BALL, f"- {label} {verb} {part} {fault}.\n\nThat leaves ({gold}).", gold) == 1.0
    assert _score(BALL, f"- {label} {verb} {part} {fault}.\n\nThat leaves ({gold}).", other) == 0.0
    assert _score(BALL, f"Answer: {gold}. {gold} {verb} {part} {fault}.", gold) == 0.0


@settings(max_examples=40, deadline=None)
@given(gold=st.sampled_from("ABCD"), said=st.sampled_from("ABCD"), second=st.sampled_from("ABCD"),
       label=st.sampled_from(["TL;DR:", "tl;dr", "TLDR:", "Bottom line:", "In short:", "**TL;DR:**"]),
       gloss=st.sampled_from(["", ".", " (the one left).", " — final."]))
def test_a_summary_label_reads_its_one_letter(gold, said, second, label, gloss):
    """"TL;DR: X" pays exactly when X is the gold; two letters after it ("X or Y", "X/Y") never pay unless both are it."""
    assert _score(SULFUR, f"Worked it through.\n\n{label} {said}{gloss}", gold) == (1.0 if said == gold else 0.0)
    if second != said:
        assert _score(SULFUR, f"Worked it through.\n\n{label} {said} or {second}.", gold) == 0.0
        assert _score(SULFUR, f"Worked it through.\n\n{label} {said}/{second}", gold) == 0.0


@settings(max_examples=30, deadline=None)
@given(gold=st.sampled_from("ABCD"), joint=st.sampled_from([" — ", ", ", " ("]),
       method=st.sampled_from(["by elimination", "by process of elimination", "by the process of elimination",
                               "by a process of elimination"]))
def test_by_elimination_names_the_method_not_a_withdrawal(gold, joint, method):
    """"Answer: X — by elimination." pays X; "Answer: X — eliminated." never does."""
    close = ")." if joint == " (" else "."
    assert _score(SULFUR, f"Answer: {gold}{joint}{method}{close}", gold) == 1.0
    assert _score(SULFUR, f"Answer: {gold}{joint}eliminated{close}", gold) == 0.0
