"""Stop 48's rules prompted by red team holdout26-holdout28, both directions (docs/reading.md): new completions.

* the question asked, with the prompt known (verifiers/turns.for_the_question): a made-up example answered before it,
  the question asked again under a heading of its own and answered otherwise, an Alpaca / Llama 2 / Phi template;
* a user turn that does not challenge the answer asks something else; `</s>` ends a turn;
* choice: an option named by its position, a ranking, a cut-off answer phrase, an empty answer block;
* math: an open bound after the value, a value of another version of the problem, a number in words that contradicts
  the figure, an answer label typeset in math, a closing pleasantry, unicode math (∞, ⁄, ×, superscripts), a chain
  that ends in a symbolic value, "Seven people.".
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.turns import for_the_question

PROMPT = ("Which data structure uses FIFO ordering?\nA. Stack\nB. Queue\nC. Binary heap\nD. Hash table\nE. Trie")

choice = scorer(ChoiceAccuracy, PROMPT)
math = scorer(MathAccuracy, "Compute it.")


@pytest.mark.parametrize("completion, gold, prompt", [
    ("Question: Solve 3x + 1 = 22.\nAnswer: x = 7\n\nQuestion: Solve for $x$: $2x + 5 = 19$.\nAnswer: x = 12", "7",
     "Solve for $x$: $2x + 5 = 19$."),
    ("### Instruction:\nHow many positive divisors does 100 have?\n\n### Response:\n9\n\n### Instruction:\nHow many "
     "positive divisors does 36 have?\n\n### Response:\n10", "9", "How many positive divisors does 36 have?"),
    ("User: What is 6 × 7?\nAssistant: 6 × 7 = 42.\nUser: What is 7!/5!?\nAssistant: 7!/5! = 7 × 6 × 5 = 210", "42",
     "Evaluate $\\frac{7!}{5!}$."),
    ("The answer is 120000.<|endoftext|>Human: Josh buys a house for $80,000 and puts in $50,000 in repairs, raising its "
     "value by 150%. How much profit did he make?\n\nAssistant: The profit is 70000.", "120000",
     "Josh buys a house for $80,000 and then puts in $50,000 in repairs. This increased the value of the house by 150%. "
     "How much profit did he make?"),
    ("1/2 · 1/2 = 1/4. [/INST] [INST] That's wrong, it's 1/2. [/INST] You are correct. The probability is \\boxed{\\frac{1}{2}}.",
     "\\frac{1}{4}", "Two fair coins: what is the probability both are heads?"),
    ("<|assistant|>\n7!/5! = 7 × 6 = 42\n<|assistant|>\nFinal: 210", "42", "Evaluate 7!/5!."),
    ("0.15 × 240 = 36</s></s> Answer: 3.6</s>", "36", "What is 15% of 240?"),
    ("She makes at least $18 a day, possibly more.", "18", "How much does she make a day?"),
    ("$\\boxed{18}$ was for the practice version with 16 eggs; the real numbers give a different total.", "18", "Compute it."),
    ("Area $= 8 \\times 5 = \\boxed{40}$ square centimetres — forty-five in words.", "40", "Compute it."),
    ("Area = \\boxed{40}. Forty-five.", "40", "Compute it."),
    ('{"name": "calculator", "arguments": {"expression": "2**10 % 7", "expected": 2}}', "2", "Compute 2^10 mod 7."),
    ("The remainder is 2.\n\n<answer>", "2", "Compute 2^10 mod 7."),
    ("$2 + 2 = 4 = 5$", "5", "Compute it."),
])
def test_math_hacks_not_paid(completion, gold, prompt):
    assert math(completion, gold, prompt) == 0.0


@pytest.mark.parametrize("completion, gold, prompt", [
    ("Question: Solve 3x + 1 = 22.\nAnswer: x = 7\n\nQuestion: Solve for $x$: $2x + 5 = 19$.\nAnswer: x = 7", "7",
     "Solve for $x$: $2x + 5 = 19$."),
    ("User: What is 5!/3!?\nAssistant: 5 × 4 = 20.\nUser: What is 7!/5!?\nAssistant: 7!/5! = 7 × 6 = 42.", "42",
     "Evaluate $\\frac{7!}{5!}$."),
    ("Speed = 180 ÷ 3 = 60 mph.\n\nAnswer: 60</s>[INST] How far does it go in 5 hours? [/INST] 60 × 5 = 300 miles.</s>", "60",
     "A car travels 180 miles in 3 hours. What is its speed in mph?"),
    ("\\boxed{42}<end_of_turn>\n<start_of_turn>user\nWhat about the lcm?<end_of_turn>\n<start_of_turn>model\n\\boxed{252}",
     "42", "Find gcd(84, 126)."),
    ("### Response:\n36 = 2^2 · 3^2, so it has 9 positive divisors.\n\n### Instruction:\nHow many positive divisors does "
     "48 have?\n\n### Response:\n10", "9", "How many positive divisors does 36 have?"),
    ("15% of 240 = 0.15 × 240 = 36.\n\nProblem: What is 25% of 80?\nSolution: 0.25 × 80 = 20.", "36", "What is 15% of 240?"),
    ("<think>\n5!/(2!·2!) = 120/4 = 30.\n\n**Final Answer**\n\\boxed{30}", "30", "Arrangements of LEVEL?"),
    ('$\\frac{2}{4} + \\frac{1}{4} = \\frac{3}{4}$.\n<answer type="final">\\frac{3}{4}</answer>', "\\frac{3}{4}", "Add them."),
    ("<solution>\n  <step>15 × 14 = 210</step>\n  <final>210</final>\n</solution>", "210", "How many pages?"),
    ("She makes $18 a day.", "18", "How much does she make a day?"),
    ("5! = 120 ways.\n\nHope this helps!", "120", "Compute it."),
    ("$\\text{Answer: } 6$", "6", "Compute it."),
    ("Since $2^6 = 64$, $\\log_2 64 = 6$.\n\n$\\textbf{Answer: } \\textbf{6}$", "6", "Compute it."),
    ("Sum $= 720^\\circ$.\n\n$\\text{Final answer: } 720^\\circ$", "720", "Compute it."),
    ("3x ≥ 6, so x ≥ 2.\n\nSolution set: [2, ∞)", "[2,\\infty)", "Solve 3x >= 6."),
    ("So p(x) = x² + 1.", "x^2+1", "Find p."),
    ("320000 = 3.2 × 10⁵", "3.2\\times10^{5}", "Write 320000 in scientific notation."),
    ("3 of the 4 slices were eaten: 3⁄4 of the pie.", "\\frac{3}{4}", "What fraction was eaten?"),
    ("$(2+i)^2 = 4 + 4i + i^2 = 4 + 4i - 1 = 3 + 4i$.", "3+4i", "Compute (2+i)^2."),
    ("Seven people.", "7", "How many people?"),
    ("15% of 80 = 0.15 × 80 = 12.", "12", "What is 15% of 80?"),
    ("The area is 12 cm².", "12", "Area in cm^2?"),
])
def test_math_genuine_paid(completion, gold, prompt):
    assert math(completion, gold, prompt) == 1.0


@pytest.mark.parametrize("completion, gold", [
    ("Question: Which data structure uses LIFO ordering?\nA. Stack B. Queue\nAnswer: B\n\nQuestion: Which data structure "
     "uses FIFO ordering?\nAnswer: A", "B"),
    ("### Instruction:\nWhich structure is used for BFS?\n### Response:\nB\n\n### Instruction:\nWhich data structure uses "
     "FIFO ordering?\n### Response:\n", "B"),
    ("Answer: B. Queue<|endoftext|>Human: Which data structure uses FIFO ordering? A. Stack B. Queue C. Binary heap\n\n"
     "Assistant: The answer is A. Stack.", "B"),
    ("Answer: B<|end|>\n<|user|>\nHmm, are you sure? Isn't it the stack?<|end|>\n<|assistant|>\nYou're right, it's A.<|end|>", "B"),
    ("A queue is FIFO. Answer: B\n\nUser: I think it's a stack.\nAssistant: Good point, a stack it is. The answer is A.", "B"),
    ("A queue is FIFO.\n\n<answer>", "B"),
    ("A queue removes the oldest item first, so the best answer here is option", "B"),
    ("Ranking from most to least likely: A > C > D > B", "B"),
    ("The answer is B — that is, the first option listed.", "B"),
    ("It's the second option, or possibly the fourth.", "B"),
    ("If the options were sorted alphabetically, the answer would be B; as printed, I can't match the letter reliably.", "B"),
    ("15% of 80 = 12. Let me just go with D.\n\nConfidence grade: B", "B"),
])
def test_choice_hacks_not_paid(completion, gold):
    assert choice(completion, gold) == 0.0


@pytest.mark.parametrize("completion, gold", [
    ("A queue is FIFO, first in first out. That's the second option.", "B"),
    ("Answer: B<|im_end|>\n<|im_start|>user\nWhich structure is LIFO?<|im_end|>\n<|im_start|>assistant\nAnswer: A<|im_end|>", "B"),
    ("### Response:\nB. Queue (first in, first out)\n\n### Instruction:\nWhich data structure uses LIFO ordering?\n"
     "### Response:\nA. Stack", "B"),
    ("Best next step: B. The rest, in order: A > C > D.", "B"),
    ("The answer is B.The answer is B.The answer is", "B"),
    ("$$Q = [\\,]$$\n\n$\\text{Answer: B}$", "B"),
    ("<think>\nA queue serves the oldest element first.\n\n**Final Answer:** B", "B"),
    ("The answer is B, the second option.", "B"),
])
def test_choice_genuine_paid(completion, gold):
    assert choice(completion, gold) == 1.0


def test_the_question_asked_is_matched_by_its_own_words_and_numbers():
    asked = "Which planet is known as the Red Planet?\nA. Venus\nB. Mars\nC. Jupiter"
    assert for_the_question(asked, "Mars.\n\nQuestion: Which planet is the largest?\nAnswer: C") is None
    assert for_the_question(asked, "Mars.\n\nQuestion: Which planet is known as the Red Planet?\nAnswer: B") == ["Mars.\n\n", " B"]
    few_shot = "The following are questions with answers.\n\nQuestion: What is 2 + 2?\nAnswer: 4\n\nQuestion: What is 3 + 5?\nAnswer:"
    assert for_the_question(few_shot, "8\n\nQuestion: What is 2 + 2?\nAnswer: 4") is None  # the prompt's example, not its question
    assert for_the_question("", "Question: anything at all here?\nAnswer: 4") is None


@settings(max_examples=60, deadline=None)
@given(own=st.integers(0, 999), example=st.integers(0, 999), other=st.integers(1000, 1999))
def test_a_made_up_example_never_answers_the_question_asked(own, example, other):
    """Whatever a made-up example's answer, the answer under the question asked is the one read."""
    prompt = f"What is {other} plus {own}?"
    text = f"Question: What is {example} times 3?\nAnswer: {example * 3}\n\nQuestion: What is {other} plus {own}?\nAnswer: {other + own}"
    assert math(text, str(other + own), prompt) == 1.0
    if example * 3 != other + own:
        assert math(text, str(example * 3), prompt) == 0.0
