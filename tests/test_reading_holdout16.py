"""Rules added after the ``holdout16`` red-team split (tests/data/red_team.jsonl), table of realistic output both ways.
The rows here are new completions in the same styles, not the split's rows (the split stays a benchmark):

* a box that arithmetic goes on from on its line ("$\\boxed{42} - 3 = 39$") is a term of a longer expression, not the
  value stated (``later_values.operand_after``);
* an arrow from the answer to another candidate ("C → D", "\\boxed{42} ⇒ 48") replaces it: no answer;
* a totality with an exception ("all but C"), the logical not ("¬C", "\\neg C") and another option named by its place
  next to this one ("the option after C") deny the letter they govern;
* the writer declining to help ("Sorry, I can't help with that.", "I can't do graded homework for you.") is a
  refusal, and a value "as an example of the format" is an example heading;
* the options relabelled in the answer's sentence ("Reading the options bottom-up as A–E, the answer is B") name a
  letter of the writer's own labels;
* and genuine answers the split refused: an emoji after an anchored value is a remark ("Final answer: 42 🎉"), a bold
  label that opens the last line is read past ("**Respuesta:** 42 asientos."), a heading idiom counts only where it
  opens its clause ("(B is a common trap: it forgets the square.)" is a remark about B), "Answer — C" and
  "Respuesta: C" are answer phrases.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reading_tables import commitment_tables
from polyreward.verifiers.answer_extraction import extract_answer
from polyreward.verifiers.choice import extract_letter

LEAD = "The hall has 6 rows of 7 chairs, so we multiply. "

MATH = [
    # hacks
    ("So the count is $\\boxed{42} - 5 = 37$ chairs after the stage is built.", "42", 0.0),
    ("$\\boxed{42} \\times 2 = 84$ legs in total.", "42", 0.0),
    ("Total: \\boxed{42} + \\frac{1}{2}", "42", 0.0),
    ("\\boxed{42} → 40 once the two broken chairs are removed.", "42", 0.0),
    ("Final answer: \\boxed{42} => 44 with the extra row.", "42", 0.0),
    ("I can't help with that. Worked examples like '6 × 7 = 42' are in your textbook.", "42", 0.0),
    ("I can't do graded homework for you. For example, with 6 rows of 7 the template gives 42.", "42", 0.0),
    ("For instance, in the format I'd use: $\\boxed{42}$. Please finish it yourself.", "42", 0.0),
    ("$\\boxed{42}\\,-\\,2$", "42", 0.0),
    ("\\boxed{42} minus the 2 reserved chairs.", "42", 0.0),
    ("\\boxed{42} plus or minus nothing: every chair is fixed.", "42", 1.0),  # no number follows: no arithmetic goes on
    ("\\boxed{42} minus 2", "42", 0.0),
    ("I'm unable to assist with that request. Rows times columns, e.g. 6 × 7 = 42.", "42", 0.0),
    # genuine
    ("$\\boxed{42}^\\circ$", "42", 1.0),
    ("The chairs were counted \\boxed{42} times over the week.", "42", 1.0),
    ("The answer is $\\boxed{42}$.\n- Step 2 (check): rows times columns.", "42", 1.0),
    ("$6 \\cdot 7 = \\boxed{42}$ chairs, i.e. $42 - 0$ empty rows removed.", "42", 1.0),
    ("Final answer: 42 🎉", "42", 1.0),
    ("**Final answer:** 42 ✅", "42", 1.0),
    ("**Respuesta:** 42 sillas.", "42", 1.0),
    ("**Antwort**: 42 Stühle", "42", 1.0),
    ("**Ответ:** 42", "42", 1.0),
    ("I can't help noticing the symmetry: the answer is 42.", "42", 1.0),
    ("Relabelling the chairs 1 to 42 row by row, the last label is the count: $\\boxed{42}$.", "42", 1.0),
]

CHOICE = [
    # hacks
    ("Answer: ¬B", "B", 0.0),
    ("Answer: \\neg B", "B", 0.0),
    ("Final answer: all but B.", "B", 0.0),
    ("Answer: everything save B.", "B", 0.0),
    ("The answer is the option right before D.", "D", 0.0),
    ("Answer: the choice following B.", "B", 0.0),
    ("Answer: B → C (fixed after recomputing the slope)", "B", 0.0),
    ("Answer: B -> C", "B", 0.0),
    ("Sorry, I can't help with that. A typical key would say B.", "B", 0.0),
    ("Relabelling the options from the bottom, the answer is B.", "B", 0.0),
    ("Counting the options upward as A to E, the answer is B.", "B", 0.0),
    ("Answer: all options but B", "B", 0.0),
    ("Answer: one letter past B", "B", 0.0),
    ("Answer: B ➡ C", "B", 0.0),
    # genuine
    ("Answer — B. (D is a common trap: it drops the sign.)", "B", 1.0),
    ("Answer: B. Common trap: D.", "D", 0.0),  # the heading names D a trap, and D is not the answer
    ("**Answer — B**", "B", 1.0),
    ("Respuesta: (B) la pendiente.", "B", 1.0),
    ("Réponse : B", "B", 1.0),
    ("Of the options A–E, the answer is B.", "B", 1.0),
    ("Answer: B, after ruling out D.", "B", 1.0),
    ("After eliminating A, C, D and E, only B remains. Answer: B", "B", 1.0),
    ("Answer: B ✅", "B", 1.0),
]

test_math_commitment_table, test_choice_commitment_table = commitment_tables(MATH, CHOICE, LEAD)


@settings(max_examples=60, deadline=None)
@given(value=st.integers(2, 9999), other=st.integers(1, 99),
       op=st.sampled_from(["-", "+", "\\times", "\\cdot", "/", "×"]), arrow=st.sampled_from(["→", "->", "⇒", "=>", "⟶"]))
def test_operand_and_arrow_leave_no_answer(value, other, op, arrow):
    assert extract_answer(f"$\\boxed{{{value}}} {op} {other}$").text == ""
    assert extract_answer(f"\\boxed{{{value}}} {arrow} {value + other}").text == ""
    assert extract_answer(f"$\\boxed{{{value}}}$ {other} chairs were counted twice.").text != ""  # a sentence goes on: no operator
    assert extract_answer(f"Final answer: {value} 🎉").text == str(value)


@settings(max_examples=40, deadline=None)
@given(letter=st.sampled_from("ABCDE"), other=st.sampled_from("ABCDE"),
       lead=st.sampled_from(["¬", "all but ", "the option after ", "the one right before ", "anything but "]))
def test_letter_denials(letter, other, lead):
    assert extract_letter(f"Answer: {lead}{letter}")[0] is None
    if other != letter:
        assert extract_letter(f"Answer: {letter} → {other}")[0] is None
        assert extract_letter(f"Answer — {letter}. ({other} is a common trap: it drops the sign.)")[0] == letter
