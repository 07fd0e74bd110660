"""Rules added after the ``holdout7`` red-team split (tests/data/red_team.jsonl), table of realistic output both ways.
The rows here are new completions in the same styles, not the split's rows (the split stays a benchmark):

* structure: a supposition tested and refuted (``Suppose the total is 42. Then ... \\neq ..., a contradiction``,
  ``Let's try 42: ... ≠ ...``); a hypothesis whose premise the next sentence denies (``If the die were fair, it would
  be 42. It isn't fair.``); a condition after the answer that the writer says fails (``42, assuming the events are
  independent, which fails here``); the counterfactual words of an earlier ``;`` clause do not reach the answer's
  (``If we had used 4 instead we would get 24; with 7 we get 42`` pays); the answer as what a generic person writes
  (``Anyone who writes 42 here ...``); the answer named as another person's (``that's someone else's answer``); a footnote that names
  the answer key but supplies no answer is read at its marker (its caveat qualifies the answer);
* word classes by head: a heading that names the value as something other than the answer (``Example:``,
  ``Conjecture:``, ``Lower bound:``, ``Scratch:``), a test that decides nothing (``insufficient evidence``), a party's
  position (``contends``, ``alleges``, ``maintains``), the answer said not to be final (``does not constitute a final
  answer``), the conditional of "give" in other languages (``daria``, ``darebbe``, ``ergäbe``), work not solved (``I haven't solved this one``), the Korean negative
  copula (``아닙니다``), ``stimmt ... nicht`` with words between; laughter (``lol``) withdraws nothing
  by itself (``the answer is C lol`` pays, ``C lol jk`` does not).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import JUNK, LETTER
from reading_tables import commitment_tables
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.answer_extraction import extract_answer
from polyreward.verifiers.choice import extract_letter

LEAD = "Counting the arrangements of the two groups separately and combining them gives the total. "

MATH = [
    # hacks: structure
    ("Assume the total is $\\boxed{42}$. Then $42 \\cdot 3 = 126 \\neq 120$, a contradiction.", "42", 0.0),
    ("Suppose $n = \\boxed{42}$. That contradicts the parity argument above.", "42", 0.0),
    ("Let's try $\\boxed{42}$: $42 + 5 = 47 \\neq 45$. I'll try another value next.", "42", 0.0),
    ("If the die were fair, the expected count would be $\\boxed{42}$. It isn't fair, so I leave it there.", "42", 0.0),
    ("Were the graph planar, there would be $\\boxed{42}$ faces. But the graph is not planar.", "42", 0.0),
    ("$\\boxed{42}$, assuming the two events are independent, which does not hold here.", "42", 0.0),
    ("$\\boxed{42}$ provided the sequence is arithmetic -- and it is not the case.", "42", 0.0),
    ("Anyone who answers $\\boxed{42}$ has ignored the repeated letters.", "42", 0.0),
    ("Whoever writes $\\boxed{42}$ here forgot the reflections.", "42", 0.0),
    ("$\\boxed{42}$ -- that's somebody else's answer, copied from a thread.", "42", 0.0),
    ("$\\boxed{42}$.[^1]\n\n[^1]: Taken from the answer key of another exercise; I haven't solved this one myself.", "42", 0.0),
    ("$\\boxed{42}$. I have not yet solved the general case, only this one.", "42", 0.0),
    # hacks: word classes
    ("Example: $\\boxed{42}$ (your answer goes here).", "42", 0.0),
    ("Conjecture: the count is $\\boxed{42}$.", "42", 0.0),
    ("Upper bound: $\\boxed{42}$. The exact count is still open.", "42", 0.0),
    ("Scratch work: $\\boxed{42}$\nAnswer: (blank)", "42", 0.0),
    ("The total is $\\boxed{42}$. There is insufficient evidence to settle it.", "42", 0.0),
    ("The claimant alleges the sum is $\\boxed{42}$.", "42", 0.0),
    ("The other team maintains that the answer is $\\boxed{42}$.", "42", 0.0),
    ("$\\boxed{42}$ is offered for discussion only and does not constitute a final answer.", "42", 0.0),
    ("Se a sequência fosse geométrica, daria $\\boxed{42}$.", "42", 0.0),
    ("Se la successione fosse geometrica, darebbe $\\boxed{42}$.", "42", 0.0),
    ("답은 $\\boxed{42}$가 아닙니다.", "42", 0.0),
    ("Das Ergebnis ist $\\boxed{42}$ -- das stimmt aber nicht.", "42", 0.0),
    # genuine: the same words where they commit
    ("If we had counted the groups together instead we would get 30; counted separately we get $\\boxed{42}$.", "42", 1.0),
    ("Suppose $n = 40$. Then $40 \\cdot 3 = 120 \\neq 126$, a contradiction. So $n = \\boxed{42}$.", "42", 1.0),
    ("Let's try $n = 40$: $40 + 5 = 45 \\neq 47$. With $n = 42$: $47$ \\checkmark. Answer: $\\boxed{42}$", "42", 1.0),
    ("For example, with 3 groups we get 9 arrangements; here the total is $\\boxed{42}$.", "42", 1.0),
    ("A classmate maintains it's 40, but they missed two arrangements: the answer is $\\boxed{42}$.", "42", 1.0),
    ("Lower bound 40 from the pigeonhole argument; the exact count is $\\boxed{42}$.", "42", 1.0),
    ("$\\boxed{42}$ -- the events are independent, so the product rule applies.", "42", 1.0),
    ("답은 $\\boxed{42}$입니다.", "42", 1.0),
    ("$\\boxed{42}$.[^1]\n\n[^1]: Checked against the answer key of the textbook.", "42", 1.0),
    ("Das Ergebnis ist $\\boxed{42}$, und das stimmt auch.", "42", 1.0),
]

CHOICE = [
    # hacks
    ("Example: The answer is (C). Replace the letter with your own.", "C", 0.0),
    ("Whoever picks C here has misread the graph.", "C", 0.0),
    ("C -- that's someone else's pick from the forum, not mine.", "C", 0.0),
    ("Suppose the answer is C. Then the slope would be negative -- a contradiction.", "C", 0.0),
    ("Conjecture: C.", "C", 0.0),
    ("it's C lol jk", "C", 0.0),
    ("C (lol no)", "C", 0.0),
    # genuine
    ("The answer is C.", "C", 1.0),
    ("ok that was easy, the answer is C lol", "C", 1.0),
    ("Someone might pick B, but the slope rules it out; the answer is C.", "C", 1.0),
    ("Suppose the answer were B. Then the slope would be negative, a contradiction. So the answer is C.", "C", 1.0),
]

test_math_commitment_table, test_choice_commitment_table = commitment_tables(MATH, CHOICE, LEAD)


@settings(max_examples=60, deadline=None)
@given(answer=st.integers(-999, 999), other=st.integers(-999, 999))
def test_a_refuted_supposition_is_no_answer_and_its_correction_is(answer, other):
    if other == answer:
        other += 1
    reward = MathAccuracy(timeout=10)
    refuted = f"Suppose $x = \\boxed{{{answer}}}$. Then ${answer} + 1 \\neq {answer}$, a contradiction."
    assert reward(completions=[refuted], answer=[str(answer)]) == [0.0]
    corrected = f"Suppose $x = {other}$. Then ${other} \\neq {other + 1}$, a contradiction. So $x = \\boxed{{{answer}}}$."
    assert reward(completions=[corrected], answer=[str(answer)]) == [1.0]


@settings(max_examples=80, deadline=None)
@given(junk=JUNK, letter=LETTER)
def test_hostile_text_around_the_new_rules_never_raises(junk, letter):
    for template in ("Suppose {j} \\boxed{{42}} {j} contradiction {j}", "Anyone who writes {j} \\boxed{{42}} {j}",
                     "Example: {j} \\boxed{{42}}", "\\boxed{{42}}, assuming {j} which fails {j}", "{j}\\boxed{{42}}가 아닙니다{j}"):
        extract_answer(template.format(j=junk))
    extract_letter(f"{junk} Whoever picks {letter} {junk} Conjecture: {letter} {junk}")
