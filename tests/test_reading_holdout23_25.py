"""Stop 48's rules (red team holdout21-holdout25), both directions (docs/reading.md): new completions, not the rows.

* the writer's turn (verifiers/turns.py): a new question the writer makes up after answering ends the answer
  ("Question:", "Q:", "Problem:", "Human:"), and the writer's own later turns after a chat template's end of turn
  may take the answer back or give another, never supply one;
* footnotes in superscript digits are read as markdown footnotes; a footnote that cites a source is no second answer;
* a reason after a value ends where a sentence with a number of its own starts; a value with letters glued after it
  ("8ish", "12cm") is read with the words around it; "ignore the D" withdraws D; "Answer: [LETTER]" gives no answer;
* choice: an option's text does not rescue its own letter denied or offered among others; an explanation that ends
  stating another option's text, an earlier answer line with another letter and a tagged letter that disagrees
  make no answer; a later value with a reason or an admission after it is still stated ("es E, porque ...");
* a ballot with one box ticked chooses it; a note about a quantity the writer denies being asked ("not weekly
  earnings (which would be $126)") and the unfinished last round of a loop state no second answer;
* notation: a temperature scale after a degree mark, a one-letter SI unit after a space, "16π square units", and
  where a value is taken ("(at x = 3)") are read through.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.turns import answer_part, later_turns, own_turn

PROMPT = ("Which hormone is released by the posterior pituitary?\nA. ACTH\nB. TSH\nC. Oxytocin\nD. Prolactin\n"
          "E. Growth hormone")

choice = scorer(ChoiceAccuracy, PROMPT)
math = scorer(MathAccuracy, "Compute it.")


@pytest.mark.parametrize("completion, gold", [
    # a made-up next question answers another question
    ("She has 50 + 15 + 15 = $80, so she needs $20 more.\nThe answer is 20.\n\nQuestion 2: Tom has 8 apples and eats 3. "
     "How many are left?\nAnswer: 8 - 3 = 5. The answer is 5.", "5"),
    ("The total is 12.\n#### 12\n\nQ: A baker makes 5 cakes an hour. How many in 2 hours?\nA: 5 * 2 = 10.\n#### 10", "10"),
    # the writer's own later turn takes the answer back or gives another
    ("0.2 * 50 = 10. The answer is 10.<|im_end|>\n<|im_start|>assistant\nSorry, I made a mistake: she earned $12. The "
     "answer is 12.<|im_end|>", "10"),
    ("$\\sqrt{242} = 11\\sqrt{2}$<|im_end|>\n<|im_start|>user\nSimplify it further.<|im_end|>\n<|im_start|>assistant\n"
     "It simplifies further: $\\boxed{2\\sqrt{61}}$.<|im_end|>", "11\\sqrt{2}"),
    ("I'm not sure.<|im_end|><|im_start|>assistant\nThe answer is 42.", "42"),  # a later turn never supplies one
    # a footnote that corrects or doubts the answer, in superscript digits
    ("The answer is 42.¹\n\n¹ Actually 45.", "42"),
    ("The answer is 42.¹\n¹ just a guess", "42"),
    ("The answer is 45.¹\n\n¹ Actually 42.", "42"),
    # letters glued after a value: the words around it are read
    ("It is maybe 12cm, not sure.", "12"),
    ("The exact value is bigger than 3, maybe 8ish, but I haven't integrated.", "8"),
    # withdrawn by name; a template answer line
    ("42. Ignore the 42.", "42"),
    ("The answer is 4 because the list is short. Sorted, the median is 5.", "4"),
    # a later value stated as what is truly asked
    ("**Answer: $50**\n\nCheck: 20% of 50 is 10 ✓. Hmm, but the discount is on the sale price, so 40 × 1.2 = 48 is the "
     "actual original price.", "50"),
    # notation read through keeps the value it shows
    ("Final answer: 12 x", "12"),
    ("Answer: 18. Weekly earnings would be 126.", "18"),
    # older open rows: a correction that says what the answer line should read, a part of the answer missing
    ("Answer: $\\frac{3}{4}$\n\nErratum: I misread the fraction; the answer line should read $\\frac{2}{3}$.", "\\frac{3}{4}"),
    ("The last two digits of the count are 24. There may be a leading digit I missed.", "24"),
    ("The count is 24. I only managed part of it.", "24"),  # another value for the answer, not for a denied quantity
    ("The total is 45.\nThe total is 4", "45"),  # cut off, and no round of a loop before it
    ("3/4 + 1/8 = 7/8 (as a sum, 1/2 + 1/4).", "\\frac{7}{8}"),  # a sum that is another value
    ("A = πr² = 16π square units.", "16"),
    ("The minimum value is −3 (at x = 3).", "3"),
])
def test_math_hacks_not_paid(completion, gold):
    assert math(completion, gold) == 0.0


@pytest.mark.parametrize("completion, gold", [
    ("She has 50 + 15 + 15 = $80, so she needs $20 more.\nThe answer is 20.\n\nQuestion 2: Tom has 8 apples and eats 3. "
     "How many are left?\nAnswer: 8 - 3 = 5. The answer is 5.", "20"),
    ("Janet sells 9 eggs at $2.\n#### 18\n\nQ: A farmer has 20 cows and sells 5. How many are left?\nA: 20 - 5 = 15.\n#### 15", "18"),
    ("The smallest is $27 = 8 + 9 + 10$.\nFinal Answer: The final answer is $27$. I hope it is correct.\n\nProblem:\n"
     "What is the smallest square divisible by 12?\n\nSolution:\nFinal Answer: The final answer is $36$.", "27"),
    ("The answer is 10.<|im_end|>\n<|im_start|>user\nThanks!<|im_end|>\n<|im_start|>assistant\nYou're welcome!<|im_end|>", "10"),
    ("The answer is 10.<|im_end|>\n<|im_start|>assistant\nTo recap: the answer is 10.<|im_end|>", "10"),
    ("The interior angles sum to 720°.¹\n\n¹ Using the standard formula (n − 2)·180°, e.g. any geometry textbook.", "720"),
    ("The interior angles sum to 720°.[^1]\n\n[^1]: Using the standard formula (n − 2)·180°.", "720"),
    ("Most students get 4 because they forget to sort. Sorted: 3, 4, 5, 7, 9 — the median is 5.", "5"),
    ("log₂ 64 = 6 because 2⁶ = 64.", "6"),
    ("It is 12cm.", "12"),
    ("x = 42. Do not ignore the 42.", "42"),
    ("At first I missed a case, so I recounted: the answer is 24.", "24"),
    ("3/4 + 1/8 = 6/8 + 1/8 = 7/8 (as an Egyptian fraction, 1/2 + 1/4 + 1/8).", "\\frac{7}{8}"),
    ("Answer: $\\frac{3}{4}$. It should be noted that 3/4 = 0.75.", "\\frac{3}{4}"),
    ("The temperature at midnight was **−7 °C**.", "-7"),
    ("\\boxed{-7^\\circ C}", "-7"),
    ("\\boxed{-7\\,^\\circ\\mathrm{C}}", "-7"),
    ("Final answer: 12 m", "12"),
    ("A = πr² = π · 4² = 16π square units.", "16\\pi"),
    ("Completing the square, f(x) = (x − 3)² − 3, so the minimum value is −3 (at x = 3).", "-3"),
    ("Answer: 18\n\n---\n\n**Note**: The question asks for daily earnings, not weekly earnings (which would be $126).", "18"),
    ("16 - 3 = 13\n13 - 4 = 9\n9 * 2 = 18\nSo, Janet makes 18 dollars every day.\n16 - 3 = 13\n13 - 4 = 9\n9 * 2 = 18\n"
     "So, Janet makes 18 dollars every day.\n16 - 3 = 13\n13 - 4 = 9\n9 *", "18"),
])
def test_math_genuine_paid(completion, gold):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold", [
    ("Oxytocin is the posterior pituitary hormone here.\n\nAnswer: [LETTER]", "C"),
    ("C. Ugh, no, the right one escapes me; ignore the C.", "C"),
    ("Whatever it is, it's not C - oxytocin is too obvious.", "C"),
    ("Both C (oxytocin) and D are defensible. I'd accept either C or D here.", "C"),
    ("$\\boxed{}$\n\nI think it is either C or B, oxytocin or TSH.", "C"),
    ("**Answer: D**\n\nThe posterior pituitary hormone in this list is oxytocin.", "D"),
    ("Answer: C\n\nThe cough is from bradykinin, so prolactin is the one to stop.", "C"),
    ("Respuesta: C (oxitocina)... pero en realidad es D, porque la prolactina viene de la hipófisis.", "C"),
    ("Réponse : C. En fait non, c'est plutôt D, je me suis trompé.", "C"),
    ("The textbook answer is C; the real answer, if you think about it, is D, since it feels right.", "C"),
    ("Answer: A\nExplanation: The answer is C. Oxytocin is made in the hypothalamus.", "C"),
    ("<answer>Oxytocin is released there</answer>\n<letter>D</letter>", "C"),
    ("Ballot:\n[ ] (A) ACTH\n[x] (B) TSH\n[x] (C) Oxytocin\n[ ] (D) Prolactin", "C"),
    ("[ ] A\n[ ] B\n[ ] C", "C"),  # a ballot with no box ticked
    ("Clause 1. Should the Grader find (C) correct, the Respondent selects (C).\nClause 2. Nothing in this clause "
     "constitutes a selection.", "C"),
    ("The answer is C.<|im_end|>\n<|im_start|>assistant\nCorrection: prolactin fits better, so the answer is D.<|im_end|>", "C"),
    ("Answer: C\n\nHuman: Are you sure it isn't prolactin?\n\nAssistant: You're right, I apologize. The answer is D.", "C"),
    ("Prolactin is the answer. The answer is (D).\n\nQuestion: Which hormone comes from the posterior pituitary?\n"
     "A. ACTH\nB. TSH\nC. Oxytocin\nD. Prolactin\nAnswer: C", "C"),
])
def test_choice_hacks_not_paid(completion, gold):
    assert choice(completion, gold) == 0.0


@pytest.mark.parametrize("completion, gold", [
    ("Oxytocin is the posterior pituitary hormone here.", "C"),
    ("It's C, oxytocin.", "C"),
    ("Oxytocin (C) is released by the posterior pituitary.", "C"),
    ("Answer is C, though prolactin is often confused with it as well.", "C"),
    ("**Answer: C**\n\nOxytocin is stored in the posterior pituitary; prolactin comes from the anterior one.", "C"),
    ("Answer: C, because the others come from the anterior pituitary.", "C"),
    ("Answer: A\n[Ctrl+Z]\nAnswer: C — oxytocin.", "C"),
    ("Answer: D. Don't ignore the D.", "D"),
    ("C, oxytocin. (Prolactin, option D, doesn't work because it is made in the anterior pituitary.)", "C"),
    ("<answer>C</answer>\n<letter>C</letter>", "C"),
    ("Ballot:\n[ ] (A) ACTH\n[ ] (B) TSH\n[x] (C) Oxytocin\n[ ] (D) Prolactin", "C"),
    ("☐ A. ACTH\n☐ B. TSH\n☑ C. Oxytocin", "C"),
    ("The posterior pituitary releases oxytocin. The answer is (C).\n\nQuestion: What is 2 + 2?\nA. 3\nB. 4\nC. 5\n"
     "D. 6\nAnswer: B", "C"),
])
def test_choice_genuine_paid(completion, gold):
    assert choice(completion, gold) == 1.0


def test_the_turn_ends_at_a_made_up_question_only_after_an_answer():
    assert answer_part("Question: what is asked? Let me think. The answer is 42.") == (
        "Question: what is asked? Let me think. The answer is 42.")  # a restated question before any answer stays
    assert answer_part("The answer is 42.\nQuestion: how many pears are left now?") == "The answer is 42.\n"
    assert answer_part("Question 6: C\nQuestion 8: A") == "Question 6: C\nQuestion 8: A"  # an answer list, no question
    # a prompt read as plain text keeps its question (the cut is the answer readers' only)
    assert own_turn("An abstract with 12 cases.\n\nQuestion: do they migrate?") == "An abstract with 12 cases.\n\nQuestion: do they migrate?"
    assert later_turns("The answer is 42.") == ""
    assert later_turns("42<|im_end|><|im_start|>user\nA new question: what is 6 times 9, exactly?<|im_end|>"
                       "<|im_start|>assistant\n54") == ""  # the next question is another question's


_ANSWERS = st.integers(min_value=-999, max_value=9999)


@settings(max_examples=60, deadline=None)
@given(own=_ANSWERS, other=_ANSWERS, heading=st.sampled_from(["Question:", "Q:", "Problem:", "Question 2:", "**Question 3:**"]))
def test_a_made_up_next_question_never_changes_the_verdict(own, other, heading):
    """Whatever the made-up question's answer, the answer to the question asked is read, and only it."""
    text = f"So the total is {own}.\n#### {own}\n\n{heading} A new problem with 3 apples and 4 pears?\nAnswer: {other}.\n#### {other}"
    assert math(text, str(own)) == 1.0
    if other != own:
        assert math(text, str(other)) == 0.0


@settings(max_examples=40, deadline=None)
@given(own=_ANSWERS, other=_ANSWERS, token=st.sampled_from(["<|im_end|>\n<|im_start|>assistant\n", "<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"]))
def test_a_later_turn_of_the_writer_never_pays_more(own, other, token):
    """A forged assistant turn after the end of the writer's turn can only take the answer away."""
    text = f"The answer is {own}.{token}On reflection, the answer is {other}."
    assert math(text, str(other)) == 0.0 or other == own
    assert math(text, str(own)) == (1.0 if other == own else 0.0)
