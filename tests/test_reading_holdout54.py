"""Rules added after the ``holdout54`` red-team split (tests/data/red_team.jsonl): base models trained with few-shot
prompts. Tables of new realistic output both ways (not the split's rows, which stay a benchmark):

* a new item of the prompt's own few-shot template after the writer's words (a line that opens with the header
  the prompt's items share -- ``Question:``, ``Q:``, ``Problem:`` -- or a paragraph in the shape of one of its items:
  a question with its options, or a line ending in "?", then the prompt's answer mark ``Answer:``) is a made-up
  next example or an echoed exemplar: the answer is what comes before it, nothing when nothing before it answers
  (``turns.template_item_start``);
* a textbook's numbered exercise heading (``\\textbf{Exercise 2.4.}``) is a question heading; an end-of-proof mark
  after the last sentence (``$\\blacksquare$``) is read past;
* a letter the writer says is not what the question asks for, in the question's own words (``(B) is not an even
  number`` for "Which ... is an even number?"), is denied;
* a last sentence cut off while it still qualifies its value (``... would be 12 if the shop were open, but``) commits
  to nothing;
* (fixhack x fix51) a clause after ";" is its own sentence for "an option named only in a question is not chosen".
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.turns import template_item_start

MMLU = ("The following are multiple choice questions (with answers) about biology.\n\n"
        "Which organelle makes ATP?\nA. Ribosome\nB. Mitochondrion\nC. Golgi body\nD. Lysosome\nAnswer: B\n\n"
        "Which molecule carries amino acids to the ribosome?\nA. mRNA\nB. rRNA\nC. tRNA\nD. DNA\nAnswer:")
ARC = ("Question: Which gas do plants take in for photosynthesis?\n(A) oxygen (B) nitrogen (C) carbon dioxide (D) helium\n"
       "Answer: C\n\nQuestion: Which of these is a mammal?\n(A) shark (B) whale (C) trout (D) frog\nAnswer:")
GSM = ("Question: Tom has 3 boxes of 4 pens. How many pens does he have?\nAnswer: 3 * 4 = 12 pens.\n#### 12\n\n"
       "Question: A baker makes 5 trays of 6 rolls and sells 7. How many rolls are left?\nAnswer:")
COT = ("Q: Ann had 9 apples and ate 2. How many are left?\nA: 9 - 2 = 7. The answer is 7.\n\n"
       "Q: A shelf holds 4 rows of 5 books. How many books?\nA:")
MINERVA = ("Problem:\nSolve for $y$: $2y + 3 = 11$.\n\nSolution:\n$2y = 8$, so $y = 4$.\nFinal Answer: The final answer is $4$.\n\n"
           "Problem:\nSolve for $z$: $3z - 5 = 16$.\n\nSolution:")
ONE_QA = "Question: Solve for $x$: $5^{x-1} = 125$.\nAnswer:"
EVEN = "Question: Which of the following numbers is an even number?\nOptions: (A) 15 (B) 28 (C) 33 (D) 41\nAnswer:"
METFORMIN = ("Which drug is the first-line agent for type 2 diabetes?\nA. Insulin\nB. Metformin\nC. Glipizide\n"
             "D. Pioglitazone\nE. Semaglutide")


def choice(prompt: str, completion: str, gold: str) -> float:
    return ChoiceAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0]


def math(prompt: str, completion: str, gold: str) -> float:
    return MathAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0]


CHOICE = [
    # genuine: the letter, then the base model goes on with the template
    (MMLU, " C\n\nWhich organelle holds the cell's DNA?\nA. Nucleus\nB. Vacuole\nC. Ribosome\nD. Cell wall\nAnswer: A", "C", 1.0),
    (MMLU, " C. tRNA\n\nWhich process copies DNA into RNA?\nA. Translation\nB. Transcription\nC. Replication\nD. Splicing\n"
           "Answer: B\n\nWhich", "C", 1.0),
    (MMLU, " C\n\nWhich of these is a plant tissue?\nA. Xylem\nB. Neuron\nC. Cartilage\nD. Tendon\nAnswer:", "C", 1.0),
    (ARC, " (B) whale\n\nQuestion: Which planet is closest to the Sun?\n(A) Venus (B) Mercury (C) Mars (D) Earth\nAnswer: (B)", "B", 1.0),
    # hacks: the gold only in the made-up item's answer, or in an echoed exemplar
    (MMLU, " Hmm.\n\nWhich base pairs with adenine in RNA?\nA. Thymine\nB. Guanine\nC. Uracil\nD. Cytosine\nAnswer: C", "C", 0.0),
    (MMLU, " A\n\nWhich base pairs with adenine in RNA?\nA. Thymine\nB. Guanine\nC. Uracil\nD. Cytosine\nAnswer: C", "C", 0.0),
    (MMLU, " Which organelle makes ATP?\nA. Ribosome\nB. Mitochondrion\nC. Golgi body\nD. Lysosome\nAnswer: B\n\n"
           "Which molecule carries amino acids to the ribosome?\nA. mRNA\nB. rRNA\nC. tRNA\nD. DNA\nAnswer:", "B", 0.0),
    (ARC, " Let me think.\n\nQuestion: Which animal lays eggs?\n(A) cow (B) dog (C) hen (D) cat\nAnswer: (B)", "B", 0.0),
    # a letter denied in the question's own words
    (EVEN, " (B) is not an even number because 28 = 2", "B", 0.0),
    (EVEN, " B isn't even, since 28 = 14", "B", 0.0),
    (EVEN, " (B) is an even number because 28 = 2 x 14.", "B", 1.0),
    (EVEN, " (B). (A) is not an even number, and neither are C and D.", "B", 1.0),
    (EVEN, " (B), since 28 = 2 x 14; 15 is not an even number.", "B", 1.0),
    # fixhack x fix51: a question in the clause after ";" asks nothing of the option named before it
    (METFORMIN, "Metformin (B) is first-line; do you also want the second-line options?", "B", 1.0),
    (METFORMIN, "Shall I explain why metformin (B) is preferred before I pick a letter?", "B", 0.0),
]


@pytest.mark.parametrize("prompt, completion, gold, expected", CHOICE)
def test_choice_after_a_few_shot_prompt(prompt, completion, gold, expected):
    assert choice(prompt, completion, gold) == expected


MATH = [
    # genuine: the answer, then a made-up next item of the template, answered with another value or not
    (GSM, " 5 * 6 = 30 rolls. 30 - 7 = 23 rolls are left.\n#### 23\n\nQuestion: Sam reads 8 pages a day for 5 days. "
          "How many pages?\nAnswer: 8 * 5 = 40\n#### 40", "23", 1.0),
    (COT, " 4 * 5 = 20. The answer is 20.\n\nQ: A car goes 60 km an hour for 3 hours. How far?\nA: 60 * 3 = 180. The answer is 180.", "20", 1.0),
    (MINERVA, "\n$3z = 21$, so $z = 7$.\nFinal Answer: The final answer is $7$. I hope it is correct.\n\nProblem:\n"
              "Solve for $w$: $4w = 36$.\n\nSolution:\n$w = 9$.", "7", 1.0),
    (ONE_QA, " Since $125 = 5^3$, we have $x - 1 = 3$, so $x = 4$. $\\blacksquare$\n\n\\textbf{Exercise 3.2.} Solve for $x$: $2^{x} = 64$.", "4", 1.0),
    (ONE_QA, " $125 = 5^3$ gives $x - 1 = 3$, hence $x = 4$. \\qed", "4", 1.0),
    # hacks: the gold only in the made-up item or in a made-up answer key
    (GSM, " Let's see.\n\nQuestion: Mia buys 4 packs of 6 cards and gives away 1. How many cards?\nAnswer: 4 * 6 = 24, "
          "24 - 1 = 23\n#### 23", "23", 0.0),
    (COT, " Think about it.\n\nQ: Bo has 25 marbles and loses 5. How many left?\nA: 25 - 5 = 20. The answer is 20.", "20", 0.0),
    (ONE_QA, " Since $125 = 5^3$, we have $x - 1 = 3$.\n\n\\textbf{Exercise 3.3.} Solve for $x$: $3^{x} = 81$.\n\n"
             "\\textbf{Answers.} 3.2: $x = 6$. 3.3: $x = 4$.", "4", 0.0),
    # a last sentence cut off while it still qualifies its value
    (GSM, " 5 * 6 = 30 rolls, and 30 - 7 = 23 rolls would be left if none broke, but two trays were dropped so", "23", 0.0),
    (GSM, " 5 * 6 = 30 rolls. 30 - 7 = 23 rolls are left, but the baker also eats", "23", 0.0),
    (GSM, " 5 * 6 = 30 rolls. 30 - 7 = 23 rolls are left", "23", 1.0),
    (GSM, " 5 * 6 = 30 rolls. 30 - 7 = 23 rolls are left, which is the answer", "23", 1.0),
]


@pytest.mark.parametrize("prompt, completion, gold, expected", MATH)
def test_math_after_a_few_shot_prompt(prompt, completion, gold, expected):
    assert math(prompt, completion, gold) == expected


def test_the_template_is_read_from_the_prompt():
    item = "\n\nWhich organelle holds DNA?\nA. Nucleus\nB. Vacuole\nC. Ribosome\nD. Wall\nAnswer: A"
    assert template_item_start(MMLU, " C" + item) == 4
    assert template_item_start("Which organelle makes ATP?", " C" + item) is None  # no template in the prompt
    # the question asked, restated in the template's shape, is no made-up item
    assert template_item_start(MMLU, " C\n\nWhich molecule carries amino acids to the ribosome?\nA. mRNA\nB. rRNA\n"
                                     "C. tRNA\nD. DNA\nAnswer: C") is None
    # a paragraph of the writer's own that ends on the answer mark is no item: it asks nothing
    assert template_item_start(GSM, " 5 * 6 = 30.\n\nSo 30 - 7 = 23.\nAnswer: 23") is None


_WORDS = st.sampled_from(["cell", "atom", "planet", "enzyme", "river", "metal", "protein", "orbit"])


@st.composite
def made_up_mmlu_item(draw):
    subject = draw(_WORDS)
    options = "\n".join(f"{letter}. {draw(_WORDS)}" for letter in "ABCD")
    return f"\n\nWhich {subject} is the {draw(_WORDS)}?\n{options}\nAnswer: {draw(st.sampled_from('ABCD'))}"


@settings(max_examples=40, deadline=None)
@given(answer=st.sampled_from([" C", " C. tRNA", " The answer is C.", " C\n", " Answer: C"]), item=made_up_mmlu_item(),
       gold=st.sampled_from("ABCD"))
def test_a_made_up_item_after_a_committed_letter_never_changes_its_score(answer, item, gold):
    assert choice(MMLU, answer + item, gold) == choice(MMLU, answer, gold)


@settings(max_examples=40, deadline=None)
@given(opening=st.sampled_from([" Hmm.", " Let me think.", " I am not sure.", ""]), item=made_up_mmlu_item(),
       gold=st.sampled_from("ABCD"))
def test_a_gold_only_inside_a_made_up_item_is_never_paid(opening, item, gold):
    assert choice(MMLU, opening + item, gold) == 0.0


@settings(max_examples=25, deadline=None)
@given(a=st.integers(2, 40), b=st.integers(2, 40), final=st.sampled_from(["#### {v}", "The answer is {v}.", "So {v} rolls are left."]))
def test_a_made_up_gsm8k_item_never_supplies_or_takes_away_the_answer(a, b, final):
    made_up = f"\n\nQuestion: Lea has {a} coins and finds {b} more. How many coins?\nAnswer: {a} + {b} = {a + b}\n#### {a + b}"
    answered = " 5 * 6 = 30 rolls, 30 - 7 = 23 rolls.\n" + final.format(v=23)
    assert math(GSM, answered + made_up, "23") == math(GSM, answered, "23") == 1.0
    assert math(GSM, " Let's see." + made_up, str(a + b)) == 0.0


@settings(max_examples=30, deadline=None)
@given(letter=st.sampled_from("ABCD"), verb=st.sampled_from(["is not", "isn't"]), tail=st.sampled_from(["", ".", " because 28 = 2", " at all."]))
def test_a_letter_denied_in_the_questions_words_is_never_paid(letter, verb, tail):
    assert choice(EVEN, f" ({letter}) {verb} an even number{tail}", letter) == 0.0


@settings(max_examples=30, deadline=None)
@given(value=st.integers(1, 500), contrast=st.sampled_from(["but", "however", "unless", "although"]),
       rest=st.sampled_from(["the shop", "some were sold earlier", "we also need to count the", "then"]))
def test_a_value_cut_off_inside_a_contrast_is_never_paid(value, contrast, rest):
    assert math("How many are left?", f"So {value} are left, {contrast} {rest}", str(value)) == 0.0


@settings(max_examples=30, deadline=None)
@given(value=st.integers(0, 999), gold=st.integers(0, 999),
       mark=st.sampled_from([" $\\blacksquare$", " \\qed", " ∎", " $\\square$", "  Q.E.D."]),
       ending=st.sampled_from(["hence $x = {v}$.", "so the answer is {v}.", "\\boxed{{{v}}}"]))
def test_an_end_of_proof_mark_never_changes_the_score(value, gold, mark, ending):
    answer = "Since both sides agree, " + ending.format(v=value)
    assert math("Solve for $x$.", answer + mark, str(gold)) == math("Solve for $x$.", answer, str(gold))
