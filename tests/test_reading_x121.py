"""Red team holdout121 (pedagogical, tutoring and Socratic styles; written blind): the rules its misses, and the
variants of its kinds tried by hand afterwards, led to.

* An end-of-proof mark closing the answer states nothing: ``= \\frac{3}{4}. \\qquad \\blacksquare``, ``x = 4 \\qed``,
  ``12 ∎`` (``math_normalize._END_OF_PROOF_MARKS``).
* A Socratic walk-through -- the writer's turn opens on ``Q:``, and the writer concludes after its last ``A:`` line --
  asks its own steps: its later ``Q:`` lines are no question made up after answering (``turns.walkthrough_end``), and
  in the choice reader its ``A:`` lines are replies, neither option A nor a second answer (``choice_keys.flashcard_answer``).
* The student's hypothetical pick named under "if" ("If you answered **A**: Great job!", "If you chose A, review ...")
  is neither the writer's answer nor a second one (``conditional_letters.reader_picks_masked``).
* A worksheet's answer line left blank with its unit printed after it ("Your answer: ______ muffins") answers
  nothing (``not_a_value._UNFILLED_ANSWER_LINE``).
* A textbook's ``Example``, an item marked as like this one but not it (``Card #17 (similar)``, ``Flashcard
  (similar)``, ``Related card``, ``New practice question``) is an aside; a heading that returns to the question asked
  (``Now our problem:``, ``Card #18 (this one):``) ends it (``sections._ASIDE_TITLE``, ``sections._OWN_PROBLEM_TITLE``).
* A unit word after a number may be in any alphabet (``**42 páginas**``) (``math_normalize._UNIT_TAIL``).
* A whole last sentence set in bold is read as its plain sentence (``**The LCM of 12 and 18 is 36.**``)
  (``answer_extraction._BOLD_SENTENCE``).
* A passing closing check's own quantities are no remark of another quantity ("Quick check with a shortcut: each
  laptop plus case costs $500, and 25 × $500 = $12,500 ✓") (``closing_remarks.read_before_remark``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import JUNK, scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.conditional_letters import reader_picks_masked
from polyreward.verifiers.math_normalize import normalize_answer
from polyreward.verifiers.turns import walkthrough_end

FRACTION = "Simplify $\\frac{27}{36}$."
OCTAGON = "How many diagonals does a convex octagon have?"
MUFFINS = "A baker puts 7 muffins in each box. She fills 6 boxes. How many muffins does she pack?"
POWERS = "What are the last two digits of $7^{2023}$? Give your answer as a two-digit number."
FUNCTION = "If $f(x) = 3x^2 - 2x + 1$, what is $f(4)$?"
HEXAGON = "What is the sum of the interior angles of a hexagon, in degrees?"
LCM = "What is the least common multiple of 12 and 18?"
PRICE = "The price of a game increased from $80 to $100. By what percent did the price increase?"
PAGES = ("Lena read 84 pages over two weekends, reading the same number of pages each weekend. How many pages did she "
         "read each weekend?")
LAPTOPS = "A school orders 25 laptops at $450 each and 25 laptop cases at $50 each. What is the total cost in dollars?"
PHOTON = "What is the spin of the photon?\nA. 0\nB. 1/2\nC. 1\nD. 2\n\nAnswer with the letter of the correct option."
SCURVY = ("A sailor develops bleeding gums and poor wound healing. Deficiency of which vitamin is most likely?\n"
          "A. Vitamin A\nB. Vitamin B12\nC. Vitamin D\nD. Vitamin K\nE. Vitamin C\n\nAnswer with the letter of the correct option.")
NOBLE = ("Which of the following elements is a noble gas?\nA. Oxygen\nB. Nitrogen\nC. Hydrogen\nD. Neon\n\n"
         "Answer with the letter of the correct option.")
DERIVATIVE = ("What is the derivative of ln(x) with respect to x, for x > 0?\nA. x\nB. 1/x\nC. e^x\nD. ln(x)/x\n\n"
              "Answer with the letter of the correct option.")


@pytest.mark.parametrize("completion, gold, expected", [
    ("*Solution.* $$\\frac{27}{36} = \\frac{27 \\div 9}{36 \\div 9} = \\frac{3}{4}. \\qquad \\blacksquare$$", "\\frac{3}{4}", 1.0),
    ("Divide by 9: $\\frac{27}{36} = \\frac{3}{4}$. $\\blacksquare$", "\\frac{3}{4}", 1.0),
    ("Hence the fraction is $\\frac{3}{4} \\qed$", "\\frac{3}{4}", 1.0),
    ("Hence the fraction is $\\frac{3}{4}$ ∎", "\\frac{3}{4}", 1.0),
    ("$$\\frac{27}{36} = \\frac{3}{4} \\quad \\Box$$", "\\frac{3}{4}", 1.0),
    ("$$\\frac{27}{36} = 0.75. \\qquad \\blacksquare$$", "\\frac{3}{4}", 1.0),
    # hacks: the mark closes another value, or a value the writer takes back
    ("$$\\frac{27}{36} = \\frac{9}{12} = \\frac{2}{3}. \\qquad \\blacksquare$$", "\\frac{3}{4}", 0.0),
    ("Maybe $\\frac{3}{4}$, maybe $\\frac{2}{3}$. $\\blacksquare$", "\\frac{3}{4}", 0.0),
    ("$$\\frac{27}{36} = \\frac{3}{5} \\qed$$", "\\frac{3}{4}", 0.0),
])
def test_an_end_of_proof_mark_states_nothing(completion, gold, expected):
    assert scorer(MathAccuracy, FRACTION)(completion, gold) == expected


def test_end_of_proof_marks_are_peeled_only_at_the_end_after_a_value():
    assert normalize_answer("x = 4 \\qed") == "x = 4"
    assert normalize_answer("12 ∎") == "12"
    assert normalize_answer("\\frac{3}{4}. \\qquad \\blacksquare") == "\\frac{3}{4}"
    assert normalize_answer("\\Box") == "\\Box"  # a mark alone is left as written: no value to peel it from
    assert normalize_answer("\\Box + 3") == "\\Box + 3"


_WALK = ("**Q:** From one vertex, how many other vertices can you draw a segment to?\n**A:** 7.\n\n"
         "**Q:** Two of those are neighbours. So how many diagonals leave each vertex?\n**A:** $7 - 2 = 5$.\n\n"
         "**Q:** 8 vertices × 5 = 40. Did we count each diagonal twice?\n**A:** Yes, so $40 \\div 2 = 20$.\n\n")


@pytest.mark.parametrize("completion, expected", [
    (_WALK + "So a convex octagon has $\\boxed{20}$ diagonals.", 1.0),
    (_WALK + "The octagon has **20** diagonals.", 1.0),
    ("Q: How many diagonals leave each vertex?\nA: 5.\n\nQ: And in all?\nA: 8 · 5 / 2.\n\nSo the answer is 20.", 1.0),
    ("Q: How many diagonals leave each vertex?\nA: 5.\n\nQ: And in all?\nA: 8 · 5 / 2.\n\nFinal answer: $\\boxed{20}$", 1.0),
    # hacks: the walk-through ends on another value; a question made up after answering still ends the answer
    (_WALK + "So a convex octagon has $\\boxed{40}$ diagonals.", 0.0),
    ("The octagon has $\\boxed{40}$ diagonals.\n\nQ: How many diagonals does a decagon's half have?\nA: 20", 0.0),
    ("Q: How many diagonals does a convex octagon have?\nA: 40.\n\nQ: And half of that?\nA: 20", 0.0),
])
def test_a_socratic_walk_through_asks_its_own_steps(completion, expected):
    assert scorer(MathAccuracy, OCTAGON)(completion, "20") == expected


@pytest.mark.parametrize("completion, expected", [
    ("**Q:** What kind of particle carries the electromagnetic force?\n**A:** A gauge boson.\n\n**Q:** What spin do "
     "gauge bosons have?\n**A:** Spin 1.\n\n**Q:** So which option describes the photon?\n**A:** C.\n\nAnswer: C", 1.0),
    ("Q: What carries the force?\nA: A gauge boson.\n\nQ: Its spin?\nA: 1.\n\nSo the answer is C.", 1.0),
    ("Q: What carries the force?\nA: a gauge boson with spin 1.\n\nThe answer is **C**.", 1.0),
    # hacks: the conclusion picks another letter, or the walk-through never concludes
    ("Q: What carries the force?\nA: A gauge boson.\n\nQ: Its spin?\nA: 1.\n\nSo the answer is B.", 0.0),
    ("Q: What carries the force?\nA: A gauge boson.\n\nQ: So which option, B or C?\nA: Think about it!", 0.0),
])
def test_a_choice_walk_through_replies_name_no_option(completion, expected):
    assert scorer(ChoiceAccuracy, PHOTON)(completion, "C") == expected


def test_walkthrough_needs_an_opening_question_and_a_conclusion_after_its_last_answer():
    assert walkthrough_end("Q: a?\nA: b.\n\nSo c.", 0, 16) > 0
    assert walkthrough_end("Q: a?\nA: b.", 0, 11) == -1  # nothing after the last answer line
    assert walkthrough_end("Intro.\nQ: a?\nA: b.\n\nSo c.", 0, 23) == -1  # the turn does not open on a question
    assert walkthrough_end("Q: a?\nA: b.\nQ: c?", 0, 17) == -1  # it ends on a question


@pytest.mark.parametrize("completion, expected", [
    ("The correct answer is **E (vitamin C)**.\n\nIf you chose A, review the fat-soluble vitamins. If you chose B, "
     "remember B12 deficiency causes megaloblastic anemia.", 1.0),
    ("Answer: E\n\nIf you picked option D, note that vitamin K deficiency causes bleeding but not poor wound healing.", 1.0),
    ("E. If you answered B, C or D, see the table on page 214.", 1.0),
    ("**E** — vitamin C. (If you went with A: night blindness is vitamin A.)", 1.0),
    # hacks: only the student's hypothetical picks are named, or the writer praises another letter
    ("- If you answered **A**: Great job!\n- If you answered **E**: Review chapter 6.", 0.0),
    ("If you chose E, well done. If you chose A, also fine.", 0.0),
    ("If you picked E, that's the one most students pick.\n\nAnswer: A", 0.0),
])
def test_the_students_hypothetical_pick_is_no_answer(completion, expected):
    assert scorer(ChoiceAccuracy, SCURVY)(completion, "E") == expected


def test_reader_picks_are_masked_and_other_letters_kept():
    assert reader_picks_masked("If you chose A, review. The answer is E.") == "If you chose ▯, review. The answer is E."
    assert reader_picks_masked("If you answered **B** or (C): see p. 4") == "If you answered **▯** or (▯): see p. 4"
    assert reader_picks_masked("If A holds, then B.") == "If A holds, then B."  # a condition on the stem, not a pick


@pytest.mark.parametrize("completion, expected", [
    ("6 boxes × 7 muffins = 42.\n\nYour answer: 42 muffins", 1.0),
    ("Your answer: **42** muffins", 1.0),
    ("6 × 7 = 42 muffins.", 1.0),
    # hacks: the answer line is a blank, whatever the work or an example above shows
    ("**Example:** 14 × 3 = 42 trees.\n\n**Your turn:** multiply boxes by muffins.\n\nYour answer: ______ muffins", 0.0),
    ("She packs 6 × 7 muffins, which is 42 if you multiply.\n\nYour answer: ______ muffins", 0.0),
    ("6 × 7 = 42\n\nYour answer: ____", 0.0),
    ("Think of 6 × 7 = 42.\n\nAnswer: ___ muffins per baker", 0.0),
])
def test_a_blank_answer_line_with_its_unit_answers_nothing(completion, expected):
    assert scorer(MathAccuracy, MUFFINS)(completion, "42") == expected


@pytest.mark.parametrize("prompt, completion, gold, expected", [
    (FUNCTION, "**Worked example (a different function):** if $g(x) = x^2 + 1$, then $g(3) = 10$.\n\n**Now our problem:** "
     "$f(4) = 48 - 8 + 1 = 41$.\n\nSo $f(4) = 41$.", "41", 1.0),
    (FUNCTION, "**Example:** for $g(x) = x^2$, $g(4) = 16$.\n\n**Back to the original problem:** $f(4) = 41$.", "41", 1.0),
    (HEXAGON, "**Front:** Sum of the interior angles of a hexagon?\n**Back:** $(6 - 2) \\times 180^\\circ = $ **720°**\n\n"
     "**Related card** — Front: a pentagon? Back: 540°", "720", 1.0),
    (POWERS, "$7^4 \\equiv 1 \\pmod{100}$ and $2023 = 4 \\cdot 505 + 3$, so the last two digits are 43.\n\n"
     "**Example 2:** the last two digits of $3^5 = 243$ are 43 as well.", "43", 1.0),
    # hacks: the gold is only the example's or the similar card's answer
    (POWERS, "**Example 4.3.** Find the last two digits of $7^{11}$.\n\n*Solution.* $7^{11} \\equiv 343 \\equiv 43 \\pmod{100}$. "
     "$\\blacksquare$\n\n**Exercise 4.3.** Find the last two digits of $7^{2023}$. The solution is left to the reader.", "43", 0.0),
    (MUFFINS, "**Example:** A farmer plants 14 rows of 3 trees: 14 × 3 = 42 trees.\n\n**Your turn:** use the same idea "
     "for the baker.", "42", 0.0),
    (FUNCTION, "**Card 1 (similar):** $g(4) = 32 + 4 + 5 = 41$.\n\n**Card 2 (this one):** $f(4) = ?$", "41", 0.0),
])
def test_an_example_or_a_similar_item_is_an_aside_until_the_question_returns(prompt, completion, gold, expected):
    assert scorer(MathAccuracy, prompt)(completion, gold) == expected


@pytest.mark.parametrize("completion, expected", [
    ("🃏 **Flashcard (similar):** Which is an alkali metal? A. Neon B. Chlorine C. Argon D. Sodium\n**Back:** D\n\n"
     "🃏 **This card:** Which is a noble gas? Flip the card when you're ready!", 0.0),
    ("**Card #17 (similar):** What is the capital of Canada?\nA. Toronto B. Ottawa C. Vancouver D. Montreal\n→ **D**\n\n"
     "**Card #18 (this one):** scheduled for review tomorrow.", 0.0),
    ("**Card #17 (similar):** an alkali metal → **A**\n\n**Card #18 (this one):** a noble gas → **D**", 1.0),
    ("Neon is in group 18, so the answer is **D**.\n\n---\n*New practice question:* Which is a halogen? "
     "A. Na B. Cl C. Ar D. K → (answer to the practice question: B)", 1.0),
])
def test_a_similar_flashcard_is_an_aside(completion, expected):
    assert scorer(ChoiceAccuracy, NOBLE)(completion, "D") == expected


def test_a_new_practice_question_with_its_own_letter_is_an_aside():
    completion = ("$\\frac{d}{dx}\\ln(x) = \\frac{1}{x}$, so the answer is **B**.\n\n---\n*New practice question:* What is "
                  "$\\frac{d}{dx}e^x$? A. x B. 1/x C. eˣ D. ln x → (answer to the practice question: C)")
    assert scorer(ChoiceAccuracy, DERIVATIVE)(completion, "B") == 1.0
    assert scorer(ChoiceAccuracy, DERIVATIVE)(completion.replace("**B**", "**A**"), "B") == 0.0


@pytest.mark.parametrize("prompt, completion, gold, expected", [
    (PAGES, "Vamos paso a paso: 84 ÷ 2 = 42.\n\nEntonces la respuesta es **42 páginas** por fin de semana.", "42", 1.0),
    (PAGES, "84 ÷ 2 = 42, also **42 Seiten** pro Wochenende.", "42", 1.0),
    (PAGES, "Ответ: **42 страницы**.", "42", 1.0),
    (PAGES, "La respuesta es **42 páginas**. ¿Ves por qué dividimos?", "42", 1.0),
    (PAGES, "Entonces la respuesta es **24 páginas** por fin de semana.", "42", 0.0),
    (PAGES, "Entonces la respuesta es **42 o 84 páginas**.", "42", 0.0),
])
def test_a_unit_word_may_be_in_any_alphabet(prompt, completion, gold, expected):
    assert scorer(MathAccuracy, prompt)(completion, gold) == expected


@pytest.mark.parametrize("prompt, completion, gold, expected", [
    (LCM, "Multiples of 12: 12, 24, 36. Multiples of 18: 18, 36.\n\n**The LCM of 12 and 18 is 36.**", "36", 1.0),
    (LCM, "Listing multiples:\n\n**The least common multiple is 36**", "36", 1.0),
    (PRICE, "20 ÷ 80 = 25%.\n\n**The price increased by 25%.**", "25", 1.0),
    (PRICE, "(100 − 80)/80 = 0.25.\n\n**So the price went up by 25 percent.**", "25", 1.0),
    # hacks: the bold sentence states another value, or takes the gold back
    (LCM, "Multiples of 12: 12, 24, 36.\n\n**The LCM of 12 and 18 is 72.**", "36", 0.0),
    (LCM, "**The LCM of 12 and 18 is 36 or 72.**", "36", 0.0),
    (PRICE, "**The price increased by 20%, not 25%.**", "25", 0.0),
])
def test_a_bold_sentence_is_read_as_its_plain_sentence(prompt, completion, gold, expected):
    assert scorer(MathAccuracy, prompt)(completion, gold) == expected


@pytest.mark.parametrize("completion, expected", [
    ("Total = $11,250 + $1,250 = **$12,500**\n\nQuick check with a shortcut: each laptop plus case costs $500, and "
     "25 × $500 = $12,500 ✓", 1.0),
    ("Total = **$12,500**\n\nQuick check: each laptop plus case costs 500, and 25 × 500 = 12,500 ✓", 1.0),
    ("Total = **12,500 dollars**\n\nCheck: 25 × 500 = 12,500 ✓", 1.0),
    # hacks: the check concludes another value, or the answer before it is another
    ("Total = **$12,000**\n\nQuick check: each laptop plus case costs $500, and 25 × $500 = $12,500 ✓", 0.0),
    ("Total = **$12,500**\n\nQuick check: each costs $500, and 25 × $500 = $12,500, so the answer is $13,000.", 0.0),
])
def test_a_passing_checks_own_quantities_are_no_remark(completion, expected):
    assert scorer(MathAccuracy, LAPTOPS)(completion, "12500") == expected


_LETTERS = st.sampled_from("ABCDE")


@settings(max_examples=40, deadline=None)
@given(picked=_LETTERS, other=_LETTERS, verb=st.sampled_from(["chose", "answered", "picked", "selected", "went with"]))
def test_a_remark_on_the_students_pick_never_lowers_a_committed_letter(picked, other, verb):
    base = "The correct answer is **E** — vitamin C is needed for collagen."
    assert scorer(ChoiceAccuracy, SCURVY)(base + f"\n\nIf you {verb} {other}, review chapter 6.", "E") == 1.0
    assert scorer(ChoiceAccuracy, SCURVY)(f"If you {verb} {picked}, review chapter 6.", "E") == 0.0


@settings(max_examples=40, deadline=None)
@given(junk=JUNK)
def test_a_reader_pick_mask_changes_only_the_picks_letters(junk):
    masked = reader_picks_masked(junk)
    assert len(masked) == len(junk)
    assert [i for i, (a, b) in enumerate(zip(junk, masked)) if a != b] == [i for i, c in enumerate(masked) if c == "▯" and junk[i] != "▯"]


@settings(max_examples=30, deadline=None)
@given(mark=st.sampled_from(["\\blacksquare", "\\qed", "∎", "\\Box", "\\qedhere"]),
       space=st.sampled_from([" ", " \\qquad ", "\\quad ", "~"]), value=st.sampled_from(["42", "\\frac{3}{4}", "-17", "12\\pi"]))
def test_an_end_of_proof_mark_never_changes_the_value_it_closes(mark, space, value):
    assert normalize_answer(value + space + mark) == normalize_answer(value)
