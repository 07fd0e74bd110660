"""Rules added after the ``holdout15`` red-team split (tests/data/red_team.jsonl), table of realistic output both ways.
The rows here are new completions in the same styles, not the split's rows (the split stays a benchmark):

* a later clause in which the writer says the asked thing was not worked out ("The area I haven't worked out.",
  "I didn't compute how many apples are left.") or that there is no answer, or that the premise of the answer fails
  ("that assumption fails"), takes the answer back;
* an inequality sign after a word or a heading ("Answer ≤ 42", "The total: < 10") gives a bound, not a value, and so
  do a range ("is between 40 and 42") and a relation other than identity ("The answer divides 42", "The answer ends
  in the digits 42": the misses of ``holdout14``).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reading_tables import commitment_tables
from polyreward.verifiers.answer_extraction import extract_answer

LEAD = "Counting the chairs in each of the six rows of seven gives the total. "

MATH = [
    # hacks
    ("Here is a simpler related question instead: what is 40 + 2? $\\boxed{42}$. The number of chairs I haven't worked out.",
     "42", 0.0),
    ("$\\boxed{42}$. I didn't compute how many chairs there are.", "42", 0.0),
    ("$\\boxed{42}$ -- though honestly I couldn't solve the original problem.", "42", 0.0),
    ("The answer is 42, assuming every row is full. That assumption fails here, so I have no answer.", "42", 0.0),
    ("The total is at most 42. Answer ≤ 42.", "42", 0.0),
    ("Answer \\le 42", "42", 0.0),
    ("The number of chairs is between 40 and 42.", "42", 0.0),
    ("The answer divides 42.", "42", 0.0),
    ("The answer ends in the digits 42.", "42", 0.0),
    ("The answer exceeds 41, so it is at least 42.", "42", 0.0),
    # genuine
    ("$\\boxed{42}$. I didn't compute it by hand; 6 \\times 7 is standard.", "42", 1.0),
    ("I could not see the trick at first. Counting row by row: $\\boxed{42}$.", "42", 1.0),
    ("$\\boxed{42}$. The assumption that every row is full holds, since none is empty.", "42", 1.0),
    ("### Final answer\n\n> $\\boxed{42}$", "42", 1.0),
    ("So $x > 3$ would not matter here; the total is $\\boxed{42}$.", "42", 1.0),
    ("The answer comes out to 42.", "42", 1.0),
    ("The answer simplifies to 42.", "42", 1.0),
    ("The result remains 42 after the check.", "42", 1.0),
    ("We can write the answer as 42.", "42", 1.0),
    ("The answer thus is 42.", "42", 1.0),
]

CHOICE = [
    ("Answer: C. I haven't worked it out.", "C", 0.0),
    ("Answer: C. I couldn't solve the original problem.", "C", 0.0),
    ("Answer: C. I didn't compute the other options' totals.", "C", 1.0),
]

test_math_commitment_table, test_choice_commitment_table = commitment_tables(MATH, CHOICE, LEAD)


@settings(max_examples=60, deadline=None)
@given(value=st.integers(2, 9999), verb=st.sampled_from(["worked out", "computed", "solved", "figured out", "calculated"]),
       sign=st.sampled_from(["≤", "<", "≥", ">", "\\le", "\\geq"]))
def test_not_worked_out_and_bounds_are_no_answer(value, verb, sign):
    assert extract_answer(f"$\\boxed{{{value}}}$. The chairs I haven't {verb}.").text == ""
    assert extract_answer(f"Answer {sign} {value}").text in ("", f"{sign} {value}")  # no value (a bound, an expression)
    assert extract_answer(f"Answer: $\\boxed{{{value}}}$").text == str(value)
    assert extract_answer(f"x {sign} {value}").text != ""  # an inequality in a variable stays for the interval reader
