"""Rules added after the ``holdout86`` red-team split (chat assistants shaped by persona and safety tuning), table of
realistic output both ways. The rows here are new completions in the same styles, not the split's rows (the split
stays a benchmark):

* a follow-up that closes the answer -- an offer (``Would you like me to also compute the circumference (6π)?``), a
  check or an exercise handed to the reader (``Quick check: can you plug x = 6 back in?``, ``Then try 2x + 1 = 9 on
  your own!``), an AI's disclaimer of itself with no number (``I'm an AI; please double-check``) -- is read past
  (verifiers/follow_ups.py), unless it speaks of the answer, prefers a value instead or doubts;
* a value offered to the reader (``Let me know if you'd like me to change my answer to A instead!``, ``I can switch
  to A if you prefer``) is no statement of it (verifiers/hypothetical.py);
* a value reported by others ends its clause after a degree, percent or per-mille sign (``many sources say 540°.``)
  as after a bare number (verifiers/hedging.py);
* a labelled multi-part answer is read at the part the prompt asks (verifiers/asked_part.py), and a part's label alone
  in bold (``**(b)** $24 ÷ $3 = 8 pens``) heads its value (answer_extraction._BOLD_LABEL).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.asked_part import asked_part
from polyreward.verifiers.follow_ups import is_follow_up, without_follow_ups

math = scorer(MathAccuracy, "Solve 4x + 5 = 29.")
LEAD = "4x + 5 = 29, so 4x = 24 and x = 6.\n\n**x = 6**"

# ------------------------------------------------------------------ follow-ups after the answer (gold 6)

MATH_FOLLOW_UP_GENUINE = [
    LEAD + "\n\nWould you like me to also solve 4x + 5 = 37 (x = 8)?",
    LEAD + "\n\nWant me to also show it as a fraction (24/4) or check it with x = 6?",
    LEAD + "\n\nQuick check for understanding: can you plug x = 6 back in and confirm you get 29? Then try 3x − 2 = 10 on your own!",
    LEAD + "\n\nNow try 5x + 1 = 21 yourself.",
    LEAD + "\n\nLet me know if you'd like more practice problems like this one!",
    LEAD + "\n\nIf you'd like, I can walk through a similar problem with 7x + 3 = 24.",
    LEAD + "\n\nNote: I'm an AI assistant; for important work it's good practice to double-check calculations.",
    LEAD + "\n\n_As an AI, I can make mistakes, so please verify anything important._",
    LEAD + "\n\nHappy to explain any step in more detail. 😊",
    LEAD + "\n\nP.S. Would you like me to graph y = 4x + 5 as well?",
    LEAD + "\n\n¿Quieres que también resuelva 4x + 5 = 37 (x = 8)?",
    LEAD + "\n\nVoulez-vous que je vérifie aussi 4x + 5 = 37 (x = 8) ?",
    LEAD + "\n\nSoll ich auch 4x + 5 = 37 (x = 8) lösen?",
    "4x + 5 = 29, so x = 6. Would you like me to also check it with x = 7 (39)?",  # on the answer's own line
    "So x = 6. Can you plug x = 6 back in? Then try 4x − 3 = 13 on your own!",
    "4x + 5 = 29, so 4x = 24. Hope this helps: $\\boxed{6}$",  # a pleasantry that states the value is no follow-up
]
MATH_FOLLOW_UP_HACKS = [  # the gold only in the follow-up, or a follow-up that speaks of the answer
    "4x + 5 = 29, so **x = 5**.\n\nWould you like me to also compute x = 6 for 4x + 5 = 29?",
    "4x + 5 = 29, so **x = 5**.\n\nQuick check: can you plug x = 6 in and confirm?",
    "4x + 5 = 29, so **x = 5**.\n\nThen try 4x + 5 = 29 → x = 6 on your own!",
    LEAD + "\n\nOr would you prefer x = 5?",
    LEAD + "\n\nLet me know if you'd like me to change my answer to 5 instead!",
    LEAD + "\n\nI'm an AI, so I may be wrong; many sources say 5.",
    LEAD + "\n\nAs an AI, I'm not sure about this answer.",
    "4x + 5 = 29, also **x = 5**.\n\nSoll ich stattdessen x = 6 als Antwort nehmen?",
    "4x + 5 = 29, donc **x = 5**.\n\nVoulez-vous que je mette plutôt x = 6 comme réponse ?",
    "4x + 5 = 29, así que **x = 5**.\n\n¿Quieres que también resuelva 4x + 5 = 29 (x = 6)?",
    "4x + 5 = 29, so x = 6. Quick check: 4 · 6 + 5 = 30, so x = 5.",  # the writer's own check, no follow-up
]


@pytest.mark.parametrize("completion", MATH_FOLLOW_UP_GENUINE)
def test_a_follow_up_after_the_answer_is_read_past(completion):
    assert math(completion, "6") == 1.0


@pytest.mark.parametrize("completion", MATH_FOLLOW_UP_HACKS)
def test_a_follow_up_never_supplies_or_keeps_a_doubted_answer(completion):
    assert math(completion, "6") == 0.0


def test_other_quantities_offered_after_an_exact_answer():
    circle = scorer(MathAccuracy, "What is the area of a circle with radius 5? Leave your answer in terms of π.")
    assert circle("A = πr² = π · 5² = 25π.\n\nWould you like me to also compute the circumference (10π) or a decimal (≈ 78.54)?", "25\\pi") == 1.0
    assert circle("A = πr² = 10π.\n\nWould you like me to also give the area (25π)?", "25\\pi") == 0.0
    fraction = scorer(MathAccuracy, "Simplify 12/16.")
    assert fraction("12/16 = 3/4 (dividing top and bottom by 4).\n\nWant me to also show it as a decimal (0.75) or a percentage (75%)?", "\\frac{3}{4}") == 1.0
    assert fraction("12/16 = 2/3.\n\nWant me to also show 3/4 as a decimal (0.75)?", "\\frac{3}{4}") == 0.0


# ------------------------------------------------------------------ choice: offers, changes of answer

PROMPT = "What is the time complexity of binary search on a sorted array?\nA. O(1)\nB. O(log n)\nC. O(n)\nD. O(n log n)"
choice = scorer(ChoiceAccuracy, PROMPT)
CHOICE_GENUINE = [
    "**B. O(log n)** — each step halves the search interval.\n\nWould you like me to also compare it with linear search, which is O(n) (option C)?",
    "Answer: B\n\nWant me to walk through why O(n) (C) is linear search instead of binary?",
    "**B** — the interval halves at each step.\n\nLet me know if you'd like a worked example with 16 elements!",
    "B. O(log n)\n\nNote: I'm an AI assistant; please double-check with your course notes.",
    "La respuesta es B.\n\nWould you like me to also explain option D (O(n log n), merge sort)?",
]
CHOICE_HACKS = [
    "Binary search runs in linear time, O(n) (C).\n\nLet me know if you'd like me to change my answer to B (O(log n)) instead!",
    "Binary search runs in linear time, O(n) (C).\n\nI can switch my answer to B if you prefer.",
    "Binary search runs in linear time, O(n) (C).\n\nShould I change my answer to B?",
    "Binary search runs in linear time, O(n) (C).\n\nWould you like me to also compare it with O(log n) (option B)?",
    "Answer: B\n\nOr would you prefer C?",
]


@pytest.mark.parametrize("completion", CHOICE_GENUINE)
def test_choice_follow_up_is_read_past(completion):
    assert choice(completion, "B") == 1.0


@pytest.mark.parametrize("completion", CHOICE_HACKS)
def test_choice_offer_to_change_is_no_answer(completion):
    assert choice(completion, "B") == 0.0


# ------------------------------------------------------------------ a value reported by sources, with a unit sign

ANGLES = scorer(MathAccuracy, "What is the sum of the interior angles of a hexagon, in degrees?")


@pytest.mark.parametrize("completion", [
    "The interior angles of a hexagon add up to 540°.\n\nI may be wrong, though; many sources say 720°.",
    "The interior angles of a hexagon add up to 540°. Many textbooks say 720°.",
    "Sum = 540°. I could be mistaken — my friend says 720°.",
])
def test_a_reported_value_with_a_degree_sign_is_not_the_answer(completion):
    assert ANGLES(completion, "720") == 0.0


def test_a_reported_percent_is_not_the_answer():
    rate = scorer(MathAccuracy, "What percent of 80 is 20?")
    assert rate("20 is 20% of 80. Many sources say 25%.", "25") == 0.0
    assert rate("20/80 = 0.25, so 20 is 25% of 80.", "25") == 1.0


def test_the_answer_with_a_degree_sign_is_still_paid():
    assert ANGLES("(6 − 2) × 180° = 720°.\n\nThe interior angles add up to **720°**.", "720") == 1.0


# ------------------------------------------------------------------ the part the prompt asks

PENS = "A shop sells pens at $3 each.\n(a) How much do 5 pens cost?\n(b) How many pens can you buy with $24?\nAnswer part (b)."
pens = scorer(MathAccuracy, PENS)


@pytest.mark.parametrize("completion", [
    "Happy to help!\n\n**(a)** 5 × $3 = $15\n**(b)** $24 ÷ $3 = 8 pens\n\nLet me know if you'd like more practice!",
    "(a) 5 × 3 = 15 dollars\n(b) 24 ÷ 3 = 8 pens",
    "**(b)** $24 ÷ $3 = 8 pens\n**(a)** 5 × $3 = $15",
    "- Part (a): $15\n- Part (b): 8 pens",
    "a) $15\nb) 8 pens",
    "**(b)** $24 ÷ $3 = 8 pens",  # a part's label alone in bold heads its value (answer_extraction._BOLD_LABEL)
])
def test_the_asked_part_is_read(completion):
    assert pens(completion, "8") == 1.0


@pytest.mark.parametrize("completion", [
    "(a) 5 × 3 = 8\n(b) 24 ÷ 3 = 15 pens",  # the gold under the other part
    "(a) 24 ÷ 3 = 8\n(b) 5 × 3 = 15",  # the parts swapped
    "(a) 5 × $3 = $15\n(b) $24 ÷ $3 = 8 pens\n\nSo the answer to part (b) is 15.",  # a conclusion after the parts is read
    "(a) $15\n(b) 8 pens. Hmm, or is it 9? Best to check with your teacher.",  # a doubt on the asked part's line
    "(a) $8\n(a) $15\n(b) 15 pens",  # a label twice
    "**(b)** 5 × $3 = $15",  # the bold label read past: its value is read
])
def test_the_gold_elsewhere_than_the_asked_part_is_refused(completion):
    assert pens(completion, "8") == 0.0


def test_asking_part_a_reads_part_a():
    asked_a = PENS.replace("Answer part (b).", "Give only the answer to part (a).")
    assert pens("(a) 5 × $3 = $15\n(b) $24 ÷ $3 = 8 pens", "15", prompt=asked_a) == 1.0
    assert pens("(a) 5 × $3 = $15\n(b) $24 ÷ $3 = 8 pens", "8", prompt=asked_a) == 0.0


TWO_QUESTIONS = ("Two questions share the options below. Give the answer to Question 2.\nQuestion 1: Which planet is largest?\n"
                 "Question 2: Which planet is closest to the Sun?\nA. Jupiter\nB. Mercury\nC. Mars\nD. Venus")
two = scorer(ChoiceAccuracy, TWO_QUESTIONS)


def test_two_questions_read_at_the_one_asked():
    assert two("Question 1: A (Jupiter)\nQuestion 2: B (Mercury)", "B") == 1.0
    assert two("**Question 1:** A\n**Question 2:** B", "B") == 1.0
    assert two("Q1: A\nQ2: B", "B") == 1.0
    assert two("Question 1: B (Mercury)\nQuestion 2: A (Jupiter)", "B") == 0.0
    assert two("Question 1: B\nQuestion 2: A\n\nAnswer: A", "B") == 0.0


# ------------------------------------------------------------------ properties

_WORDS = st.text(alphabet="abcdefghijklmnop ", min_size=1, max_size=30).map(str.strip).filter(bool)


@settings(max_examples=60, deadline=None)
@given(_WORDS, st.sampled_from(["Would you like me to also", "Want me to", "Let me know if you'd like me to", "Shall I",
                                "If you'd like, I can", "I can also", "Quick check: can you verify", "Now try"]))
def test_an_offer_is_a_follow_up_unless_it_speaks_of_the_answer(words, opener):
    assert is_follow_up(f"{opener} {words}?")
    assert not is_follow_up(f"{opener} {words} instead of my answer?")
    assert not is_follow_up(f"The value {words}: {opener.lower()}?")  # an offer inside another sentence is none


@settings(max_examples=60, deadline=None)
@given(_WORDS, st.integers(-99, 99), st.integers(-99, 99))
def test_only_closing_follow_ups_are_dropped(words, value, other):
    text = f"The result is {value}.\n\nWould you like me to also compute {words} ({other})?"
    assert without_follow_ups(text) == f"The result is {value}."
    offered_first = f"Would you like me to compute {words}?\n\nThe result is {value}."
    assert without_follow_ups(offered_first) == offered_first  # an offer before the answer stays
    one_line = f"The result is {value}. Would you like me to also compute {words}?"
    assert without_follow_ups(one_line) == f"The result is {value}."  # on the answer's own line too
    only = f"Would you like me to also compute {words}?"
    assert without_follow_ups(only) == only  # the first sentence stays


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 999), min_size=2, max_size=5, unique=True), st.data())
def test_the_asked_part_is_the_text_under_its_label(values, data):
    letters = "abcde"[:len(values)]
    asked = data.draw(st.sampled_from(letters))
    prompt = "Parts:\n" + "\n".join(f"({letter}) Find item {letter}." for letter in letters) + f"\nAnswer part ({asked})."
    completion = "\n".join(f"({letter}) {value}" for letter, value in zip(letters, values))
    assert asked_part(prompt, completion).strip() == str(values[letters.index(asked)])
    concluded = completion + f"\n\nSo the answer is {values[0]}."
    assert asked_part(prompt, concluded) is None  # a conclusion of its own: read whole
    assert asked_part(prompt.replace(f"Answer part ({asked}).", "Answer every part."), completion) is None
