"""Red team holdout116 (runaway continuations, truncation and degeneration; written blind): the rules its misses led to.

* A numbered question heading without a colon ends the answer to the question asked, as "Question 2:" does: "Problem
  2. What is ...?", "Question 3.", a markdown heading "### Problem 2" alone on its line (``turns._HEADING``).
* A made-up multiple-choice item is read as one even where the prompt shows no few-shot template: an MMLU prompt of
  one item (its question, its options, "Answer:") is a template, and a prompt that lists options shows the shape
  of an item answered after "Answer:" (``turns._template``, ``turns._options_item``).
* A question is the one asked only when its words come in the prompt's order: "Which process changes water vapor
  into liquid water?" is not "Which process changes liquid water into water vapor?" (``turns._same_question``).
* The unfinished copy of an earlier line, cut off before the value the line reaches, is a restart that says
  nothing new (``turns._restart_before_value``).
* Paragraphs at the end that copy the prompt word for word (its instruction echoed) are not the writer's answer
  (``turns.without_echoed_prompt_tail``).
* A text cut off inside a sentence that opens by pausing to reconsider ("Actually, the answer is", "Hmm, hold on,
  I think I mis", "Wait, actually,") commits to nothing (``not_a_value.cut_off_pausing``); "Actually," and "Hmm,"
  pause only toward the answer or a fault ("Actually, a faster way to see this is" is an aside).
* A cut-off box holding the integer part of a decimal the work reached ("= 3.5$ ... \\boxed{3") is cut short, not
  complete (``broken_markup._EQUATION_END``); "so B is out" eliminates B (``commitment._NEGATED_AFTER``); a later
  round of the writer's that checks the answer and ends confirming is no second answer
  (``answer_extraction._round_answer``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.not_a_value import cut_off_pausing

GCD = "What is the greatest common divisor of 84 and 126?"
TREES = "A farmer has 5 rows of 14 apple trees. He sells 23 of the trees. How many trees does he have left?"
GARDEN = "A garden has 3 rows of 9 tomato plants and 2 rows of 7 pepper plants. How many plants are in the garden?"
PERCENT = r"What is $15\%$ of $80$? Please reason step by step, and put your final answer within \boxed{}."
CHANGE = "Leo buys 4 notebooks at $2.50 each and a pen for $1.75. He pays with a $20 bill. How much change does he get?"
PIZZA = "Seven pizzas are shared equally between two friends. How many whole pizzas does each friend get?"
STICKERS = ("Emma has 3 times as many stickers as Noah. Together they have 64 stickers. How many stickers does Emma "
            "have?")
CHARGE = "Which of the following is the SI unit of electric charge?\nA. Ampere\nB. Volt\nC. Coulomb\nD. Ohm"
TRNA = ("The following are multiple choice questions about high school biology.\n\nWhich molecule carries amino acids "
        "to the ribosome?\nA. mRNA\nB. tRNA\nC. rRNA\nD. DNA\nAnswer:")
VAPOR = "Which process changes liquid water into water vapor?\nA. condensation\nB. evaporation\nC. freezing\nD. melting"
CAR = ("A car accelerates uniformly from rest to 20 m/s in 5 s. What is its acceleration?\nA. 2 m/s²\nB. 4 m/s²\n"
       "C. 5 m/s²\nD. 100 m/s²")


@pytest.mark.parametrize("completion, expected", [
    # genuine: the answer, then a made-up next problem with its own answer, or cut before it
    ("So $\\gcd = \\boxed{42}$.\n\nProblem 2. What is the greatest common divisor of 48 and 180?\n\nSolution. "
     "$\\boxed{12}$.", 1.0),
    ("So $\\gcd = \\boxed{42}$.\n\n### Problem 2\nWhat is gcd(10, 4)?\n\n### Solution\nIt is **2**.", 1.0),
    ("So $\\gcd = \\boxed{42}$.\n\nQuestion 3. Find gcd(9, 6).\n\nAnswer: $\\boxed{", 1.0),
    # hacks: the gold only under the made-up problem
    ("$84 = 2^2 \\cdot 3 \\cdot 7$, so the gcd is $\\boxed{21}$.\n\nProblem 2. What is $6 \\cdot 7$?\n\nSolution. "
     "$\\boxed{42}$.", 0.0),
    ("Both are multiples of 7, so the gcd is at least\n\n### Problem 2\nWhat is 6 times 7?\n\n### Solution\nIt is "
     "**42**.", 0.0),
])
def test_a_numbered_heading_without_a_colon_opens_another_question(completion, expected):
    assert scorer(MathAccuracy, GCD)(completion, "42") == expected


def test_a_made_up_problem_under_a_markdown_heading_supplies_nothing():
    completion = ("5 rows of 14 trees is 70 trees. After selling some, he has 70 minus the trees he sold\n\n"
                  "### Problem 2\nTom has 20 marbles and wins 27 more. How many now?\n\n### Solution\n20 + 27 = 47.")
    assert scorer(MathAccuracy, TREES)(completion, "47") == 0.0


@pytest.mark.parametrize("completion, expected", [
    (" B\n\nWhich molecule carries the genetic code from the nucleus to the ribosome?\nA. mRNA\nB. tRNA\nC. rRNA\n"
     "D. DNA\nAnswer: A", 1.0),
    (" B", 1.0),
    ("Which molecule carries amino acids to the ribosome?\nA. mRNA\nB. tRNA\nC. rRNA\nD. DNA\nAnswer: B", 1.0),
    # hack: the real item unanswered, the made-up one answered with the gold's letter
    (" Hmm.\n\nWhich molecule makes up the ribosome?\nA. mRNA\nB. rRNA\nC. tRNA\nD. DNA\nAnswer: B", 0.0),
])
def test_one_mmlu_item_is_a_template(completion, expected):
    assert scorer(ChoiceAccuracy, TRNA)(completion, "B") == expected


@pytest.mark.parametrize("completion, expected", [
    ("Charge is current times time, an ampere-second, which has its own name\n\nQuestion 2: Which of the following "
     "is the SI unit of power?\nA. Joule\nB. Newton\nC. Watt\nD. Pascal\nAnswer: C", 0.0),
    ("Charge is current times time, so its unit is the coulomb. Answer: C\n\nQuestion 2: Which of the following is "
     "the SI unit of power?\nA. Joule\nB. Newton\nC. Watt\nD. Pascal\nAnswer: C", 1.0),
    ("Question: Which of the following is the SI unit of electric charge?\nA. Ampere\nB. Volt\nC. Coulomb\nD. Ohm\n"
     "Answer: C", 1.0),
])
def test_a_made_up_item_after_options_is_another_question(completion, expected):
    assert scorer(ChoiceAccuracy, CHARGE)(completion, "C") == expected


@pytest.mark.parametrize("completion, expected", [
    ("Water turning into vapor is evaporation.\nAnswer: B\n\nQuestion: Which process changes water vapor into liquid "
     "water?\nA. condensation\nB. evaporation\nC. freezing\nD. melting\nAnswer: A", 1.0),
    ("Hmm.\n\nQuestion: Which process changes water vapor into liquid water?\nA. condensation\nB. evaporation\n"
     "C. freezing\nD. melting\nAnswer: B", 0.0),
    ("Question: Which process changes liquid water into water vapor?\nA. condensation\nB. evaporation\nC. freezing\n"
     "D. melting\nAnswer: B", 1.0),
])
def test_the_same_words_in_another_order_ask_another_question(completion, expected):
    assert scorer(ChoiceAccuracy, VAPOR)(completion, "B") == expected


@pytest.mark.parametrize("completion, expected", [
    ("Solution: Tomato plants: 3 × 9 = 27. Pepper plants: 2 × 7 = 14. Total: 27 + 14 = 41.\nThe answer is 41.\n\n"
     "Solution: Tomato plants: 3 × 9 = 27. Pepper plants: 2 ×", 1.0),
    ("Solution: Tomato plants: 3 × 9 = 27. Pepper plants: 2 × 7 = 14. Total: 27 + 14 = 41.\nThe answer is 41.\n\n"
     "Solution: Tomato plants:", 1.0),
    # hacks: the copy cut inside its last value, or a restart that is no copy
    ("Solution: Tomato plants: 3 × 9 = 27. Pepper plants: 2 × 7 = 14. Total: 27 + 14 = 41.\n\n"
     "Solution: Tomato plants: 3 × 9 = 27. Pepper plants: 2 × 7 = 14. Total: 27 + 14 = 4", 0.0),
    ("Total: 27 + 14 = 41.\n\nThat can't be right. Let me start over.\n\nSolution: Each row of tomatoes", 0.0),
])
def test_a_restart_cut_before_its_value_says_nothing_new(completion, expected):
    assert scorer(MathAccuracy, GARDEN)(completion, "41") == expected


@pytest.mark.parametrize("completion, expected", [
    ("$0.15 \\times 80 = 12$.\n\n$\\boxed{12}$\n\nPlease reason step by step, and put your final answer within "
     "\\boxed{}.", 1.0),
    ("$0.15 \\times 80 = 12$.\n\n$\\boxed{12}$\n\nWhat is $15\\%$ of $80$?", 1.0),
    ("$0.15 \\times 80$ is about 12 or 13.\n\nPlease reason step by step, and put your final answer within \\boxed{}.",
     0.0),
])
def test_the_prompt_echoed_at_the_end_is_not_the_answer(completion, expected):
    assert scorer(MathAccuracy, PERCENT)(completion, "12") == expected


@pytest.mark.parametrize("completion, expected", [
    ("So Leo gets $\\boxed{8.25}$ dollars in change.\n\nActually, the answer is", 0.0),
    ("So Leo gets $\\boxed{8.25}$ dollars in change.\n\nBut wait,", 0.0),
    ("So Leo gets $\\boxed{8.25}$ dollars in change.\n\nHmm, hold on, I think I mis", 0.0),
    ("So Leo gets $\\boxed{8.25}$ dollars in change.\n\nNo wait", 0.0),
    # genuine: the pause finished, a value in it, or no pause
    ("So Leo gets $\\boxed{8.25}$ dollars in change.\n\nBut wait -- is tax included? No, so it stands.", 1.0),
    ("I first got 8.75. Actually, the answer is 8.25", 1.0),
    ("So Leo gets $\\boxed{8.25}$ dollars in change.\n\nI hope this helps and", 1.0),
    # "Actually" / "Hmm" open an aside too: they pause only toward the answer or a fault
    ("So Leo gets $\\boxed{8.25}$ dollars in change.\n\nActually, a faster way to see this is", 1.0),
    ("So Leo gets $\\boxed{8.25}$ dollars in change.\n\nHmm, a nicer way to set this up is", 1.0),
    ("So Leo gets $\\boxed{8.25}$ dollars in change.\n\nHmm, I think I made", 0.0),
])
def test_a_text_cut_off_while_pausing_commits_to_nothing_math(completion, expected):
    assert scorer(MathAccuracy, CHANGE)(completion, "8.25") == expected


@pytest.mark.parametrize("completion, expected", [
    ("Charge is measured in coulombs.\n\nAnswer: C\n\nWait, actually,", 0.0),
    ("Answer: C\n\nHmm, hold on", 0.0),
    ("Answer: C\n\nWait, actually, C is right: an ampere-second is a coulomb.", 1.0),
    ("Answer: C\n\nLet me know if you have any other questions and", 1.0),
])
def test_a_text_cut_off_while_pausing_commits_to_nothing_choice(completion, expected):
    assert scorer(ChoiceAccuracy, CHARGE)(completion, "C") == expected


@settings(max_examples=60, deadline=None)
@given(opener=st.sampled_from(["But wait", "Wait", "Hmm, hold on", "Wait, actually", "No wait", "Oops", "On second thought"]),
       tail=st.sampled_from(["", ",", ", the answer is", ", I think I mis", " -- let me recheck the"]),
       finished=st.sampled_from(["", ".", " 45.", " 45"]))
def test_a_pause_is_cut_off_only_without_a_stop_or_a_value(opener, tail, finished):
    """The rule reads the last sentence only: a stop or a value in it means the writer got somewhere."""
    text = f"The answer is \\boxed{{42}}.\n\n{opener}{tail}{finished}"
    assert cut_off_pausing(text) is (finished == "")


@pytest.mark.parametrize("completion, expected", [
    ("$7 \\div 2 = 3.5$, and each friend gets $\\boxed{3", 0.0),
    ("$7 \\div 2 = 3.5$, so each friend gets 3 whole pizzas: $\\boxed{3}$.", 1.0),
    ("Each gets $\\lfloor 7/2 \\rfloor = 3$.\n\n$\\boxed{3", 1.0),
])
def test_a_cut_off_box_with_a_decimal_s_integer_part_is_cut_short(completion, expected):
    assert scorer(MathAccuracy, PIZZA)(completion, "3") == expected


@pytest.mark.parametrize("completion, expected", [
    ("a = 20 / 5 = 4 m/s², which is option B.\n\nCheck: the speed would be 25 m/s, so B is out and", 0.0),
    ("a = 20 / 5 = 4 m/s², option B. A is out: it would take 10 s.", 1.0),
    ("a = 20 / 5 = 4 m/s². Answer: B (it is out of the range of A).", 1.0),
])
def test_out_eliminates_an_option(completion, expected):
    assert scorer(ChoiceAccuracy, CAR)(completion, "B") == expected


@pytest.mark.parametrize("completion, expected", [
    ("n + 3n = 64, so n = 16 and Emma has 48.\n\nEmma has **48** stickers.\n\nUser: Thanks! Can you show how to check "
     "it?\nAssistant: Sure! 48 + 16 = 64, and 48 is three times 16, so both conditions hold.\nUser: Great, thanks!\n"
     "Assistant: You're", 1.0),
    ("Emma has **48** stickers.\nUser: Are you sure?\nAssistant: Let me check: 48 + 16 = 64, so yes.", 1.0),
    ("Emma has **48** stickers.<|im_end|><|im_start|>assistant\nActually 48 is Noah's and Emma has 16", 0.0),
    ("Emma has **48** stickers.</s>48 + 16 = 64 so Emma has 16", 0.0),
    ("Emma has **48** stickers.\nUser: Are you sure?\nAssistant: You're right, 48 is wrong, it should be 16", 0.0),
])
def test_a_later_round_that_checks_the_answer_is_no_second_answer(completion, expected):
    assert scorer(MathAccuracy, STICKERS)(completion, "48") == expected


COLLISION = ("In a perfectly inelastic collision between two carts on a frictionless track, which of the following "
             "quantities are conserved?\nI. Total momentum\nII. Total kinetic energy\nIII. Total energy\n\n(A) I only\n"
             "(B) II only\n(C) III only\n(D) I and II only\n(E) I and III only")


@pytest.mark.parametrize("completion, expected", [
    ("Momentum is conserved, kinetic energy is not, total energy always is.\n\n(E) I and III only", 1.0),
    ("Momentum is conserved, kinetic energy is not, total energy always is.\n\nAnswer: E\n\nIn a perfectly inelastic "
     "collision between two carts on a frictionless track, which of the following quantities are conserved?", 1.0),
    ("Momentum is conserved; I'm not sure about energy.\n\n(A) I only\n(B) II only\n(C) III only\n(D) I and II only\n"
     "(E) I and III only", 0.0),
])
def test_one_option_line_is_a_choice_not_an_echo(completion, expected):
    assert scorer(ChoiceAccuracy, COLLISION)(completion, "E") == expected


@settings(max_examples=40, deadline=None)
@given(answer=st.integers(min_value=2, max_value=999), echoes=st.integers(min_value=1, max_value=3))
def test_an_echoed_instruction_never_changes_the_answer(answer, echoes):
    """Paragraphs that copy the prompt after the answer are dropped: the score is the answer's alone."""
    prompt = "Compute the value. Please reason step by step, and put your final answer within \\boxed{}."
    echo = "\n\nPlease reason step by step, and put your final answer within \\boxed{}." * echoes
    score = scorer(MathAccuracy, prompt)
    assert score(f"The value is $\\boxed{{{answer}}}$.{echo}", str(answer)) == 1.0
    assert score(f"The value is $\\boxed{{{answer}}}$.{echo}", str(answer + 1)) == 0.0


CELL = ("Which statement about mitochondria is correct?\nA. They store the cell's genetic code\n"
        "B. They are the site of oxidative phosphorylation in the cell\nC. They make ribosomal RNA\nD. They digest waste")


@pytest.mark.parametrize("completion, expected", [
    ("The correct statement is:\n\nThey are the site of oxidative phosphorylation in the cell", 1.0),
    ("Answer: B\n\nB. They are the site of oxidative phosphorylation in the cell", 1.0),
    ("I'm torn between A and B.\n\nWhich statement about mitochondria is correct?", 0.0),
])
def test_an_option_s_text_alone_is_a_choice_not_an_echo(completion, expected):
    assert scorer(ChoiceAccuracy, CELL)(completion, "B") == expected


@pytest.mark.parametrize("text, cut", [
    ("Answer: Lyon... wait, no: Paris", False),  # (stop 63) the colon opens the correction, which is complete
    ("The capital is Lyon. Wait, no: it is Paris", False),
    ("Answer: C. Wait, actually,", True),
    ("Final answer: 215. Hmm, hold on, I think I mis", True),
    ("Actually, the answer is:", True),
])
def test_a_correction_after_a_colon_is_no_cut_off_pause(text, cut):
    from polyreward.verifiers.not_a_value import cut_off_pausing
    assert cut_off_pausing(text) is cut
