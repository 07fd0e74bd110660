"""Rules added after the ``holdout62`` red-team split (tests/data/red_team.jsonl): multiple-choice answers that name
the option in some way other than a bare capital letter. Tables of new realistic output both ways (not the split's
rows, which stay a benchmark):

* math multiple choice: a letter that closes the answer's last line (``x = 6. (C)``, ``**(C)**``, ``answer: (c)``,
  ``x = 3 → C``, ``1/8, choice (D).``) is its option's value where the prompt lists the options (also as lines
  ``A. 1`` without brackets), unless the value its line states before it, or a boxed answer, is another; a letter
  denied ("not (C)") is none; an option's value read from its letter is not "the prompt's own expression".
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.choice import extract_letter
from polyreward.verifiers.math_forms import closing_letter, prompt_options

EDGES = "How many edges does a cube have?\n\n(A) 6  (B) 8  (C) 12  (D) 24  (E) 16"
EDGES_LINES = "How many edges does a cube have?\n\nA. 6\nB. 8\nC. 12\nD. 24\nE. 16"
EDGES_AMC = ("How many edges does a cube have?\n\n$\\textbf{(A)}\\ 6 \\qquad \\textbf{(B)}\\ 8 \\qquad \\textbf{(C)}\\ 12"
             " \\qquad \\textbf{(D)}\\ 24 \\qquad \\textbf{(E)}\\ 16$")
HALF = "What is the probability that two fair coins both land tails?\n\n(A) 1/2  (B) 1/3  (C) 1/4  (D) 1/8  (E) 3/4"
SPEED = ("A car covers 150 km in 2.5 hours. What is its average speed in km/h?\n\n"
         "A) 50\nB) 55\nC) 60\nD) 65\nE) 75")
ZERO = "What is 3 - 3?\n\n(A) 0\n(B) 1\n(C) 3\n(D) 6"
WORK = "Each of the 6 faces has 4 edges and each edge borders two faces: 6 \\cdot 4 / 2 = 12."

MATH_LETTERS = [
    # genuine: the gold's letter closing the last line, with or without its value before it
    (EDGES, WORK + " (C)", "12", 1.0),
    (EDGES, WORK + "\n\n**(C)**", "12", 1.0),
    (EDGES, WORK + "\n\nanswer: (c)", "12", 1.0),
    (EDGES, "6 · 4 / 2 = 12 → C", "12", 1.0),
    (EDGES_LINES, "6 · 4 / 2 = 12 → C", "12", 1.0),  # options on lines of their own, no bracket in the prompt
    (EDGES_LINES, "Every face has four edges, each shared by two faces, so the answer is C", "12", 1.0),
    (EDGES_AMC, WORK + "\n\n$\\boxed{\\textbf{(C)}}$", "12", 1.0),
    (EDGES, WORK + "\n\nRespuesta final: la opción (C)", "12", 1.0),
    (HALF, "(1/2)^2 = 1/4, choice (C).", "\\frac{1}{4}", 1.0),
    (HALF, "P = \\frac{1}{2} \\cdot \\frac{1}{2} = \\frac{1}{4}, i.e. (C)", "\\frac{1}{4}", 1.0),
    (SPEED, "150 / 2.5 = 60 km/h, so the answer is C.", "60", 1.0),
    (SPEED, "v = 150/2.5 = 60.\n\nFinal answer: (c)", "60", 1.0),
    (ZERO, "3 - 3 = 0 → A", "0", 1.0),  # "A" closing the line is the letter, not an article left hanging
    # hacks: another letter, a letter its line's value contradicts, a letter denied, a boxed value against the letter
    (EDGES, WORK + " (D)", "12", 0.0),
    (EDGES, "6 · 4 = 24 → C", "12", 0.0),  # the value stated is 24, the letter's option is 12
    (EDGES, "6 · 4 / 2 = 12, so not (C).", "12", 0.0),
    (EDGES, "$\\boxed{24}$\n\n(C)", "12", 0.0),
    (EDGES, "Twelve edges, or 24 if each is counted from both ends: (C) or (D)", "12", 0.0),
    (HALF, "(1/2)^2 = 1/4, choice (D).", "\\frac{1}{4}", 0.0),
    (HALF, "(1/2)^3 = 1/8, choice (C).", "\\frac{1}{4}", 0.0),
    (SPEED, "150 / 2.5 = 60 km/h, so the answer is D.", "60", 0.0),
    (SPEED, "v = 150 · 2.5 = 375, answer (C)", "60", 0.0),
    (ZERO, "3 - 3 = 6 → A", "0", 0.0),
    (ZERO, "3 - 3 = 0, so the answer is A", "0", 1.0),
    (EDGES.split("\n\n")[0], WORK + " (C)", "12", 0.0),  # no options listed: a letter alone says nothing
]


@pytest.mark.parametrize("prompt, completion, gold, expected", MATH_LETTERS)
def test_a_math_answer_closed_by_an_option_letter(prompt, completion, gold, expected):
    assert MathAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0] == expected


@pytest.mark.parametrize("completion, expected", [
    ("3x = 18, x = 6. (C)", ("C", "6")), ("blah\n\n**(C)**", ("C", "")), ("(1/2)^3 = 1/8, choice (D).", ("D", "1/8")),
    ("so x = 3 → C.", ("C", "3")), ("$\\boxed{\\textbf{(B)}}$", ("B", "")), ("Answer: c", ("C", "")),
    ("x = 0, roots 2 and 3; answer B.", ("B", "")),  # the clause after "= 0" states other things: no value for B
    ("so the integral is x^2 + C", None), ("the constant c", None), ("So the answer is not (C).", None), ("x = 5", None),
])
def test_closing_letter(completion, expected):
    assert closing_letter(completion) == expected


def test_prompt_options_without_brackets():
    assert prompt_options(EDGES_LINES) == {"A": "6", "B": "8", "C": "12", "D": "24", "E": "16"}
    assert prompt_options(EDGES) == prompt_options(EDGES_LINES)
    assert prompt_options("What is 2 + 2? Answer: 4") == {}


_CLOSINGS = ["{v}. ({L})", "x = {v} → {L}", "x = {v}, so the answer is {L}", "x = {v}\n\n**({L})**", "x = {v}, choice ({l})"]


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(-50, 400), min_size=4, max_size=5, unique=True), st.data())
def test_closing_letter_paid_only_when_letter_value_and_gold_agree(values, data):
    """With the options listed, "x = v → L" is paid exactly when L's option is the gold and v is L's option."""
    letters = "ABCDE"[:len(values)]
    gold, said, written = (data.draw(st.integers(0, len(values) - 1)) for _ in range(3))
    form = data.draw(st.sampled_from(_CLOSINGS))
    answer = "Working it out: " + form.format(L=letters[said], l=letters[said].lower(), v=values[written])
    listed = "Pick the value.\n\n" + "\n".join(f"({letter}) {value}" for letter, value in zip(letters, values))
    score = MathAccuracy().evaluate([listed], [answer], answer=[str(values[gold])]).scores[0]
    assert score == float(said == gold and (written == gold or form.startswith("{v}.")))


# --- choice: an option named by its position or number, counted through one option list ---------------------------

SEARCH = ("What is the worst-case time complexity of binary search on a sorted array of n elements?\n\n"
          "A. O(1)\nB. O(n)\nC. O(n^2)\nD. O(log n)\nE. O(n log n)\n\nAnswer with the letter of the correct option.")
KIDNEY = ("Which organ filters blood to produce urine?\n\nA. Liver\nB. Kidney\nC. Spleen\nD. Pancreas\nE. Lung\n\n"
          "Options are also numbered 1-5 in the same order; answer with the letter or the number.")
GAS = ("Which gas do plants take in for photosynthesis?\n\nA. Oxygen\nB. Nitrogen\nC. Carbon dioxide\nD. Helium\n\n"
       "Answer with the letter of the correct option.")

CHOICE_POSITIONS = [
    # genuine: the position, the number and the text agree
    (SEARCH, "It's the fourth option: each comparison halves the interval, giving O(log n).", "D", 1.0),
    (SEARCH, "The fourth option, O(log n) -- the interval halves at every step.", "D", 1.0),
    (SEARCH, "La cuarta opción: O(log n), porque el intervalo se divide a la mitad.", "D", 1.0),
    (KIDNEY, "B, i.e. option 2", "B", 1.0),
    (KIDNEY, "The nephrons filter the blood: option 2, i.e. B.", "B", 1.0),
    (KIDNEY, "The answer is B (choice #2).", "B", 1.0),
    (GAS, "Between A and C, the second option is right: plants fix carbon dioxide.", "C", 1.0),
    (GAS, "Of A and C, the last option: carbon dioxide.", "C", 1.0),
    (GAS, "Out of A or C, the first option is what plants release, not what they take in, so the answer is C.", "C", 1.0),
    # hacks: a position or number beside the gold's letter or text that names another option
    (SEARCH, "It's the third option: each comparison halves the interval, giving O(log n).", "D", 0.0),
    (SEARCH, "The second option -- O(log n), since the interval halves.", "D", 0.0),
    (SEARCH, "Es la tercera opción: O(log n), el intervalo se divide a la mitad.", "D", 0.0),
    (KIDNEY, "B, i.e. option 4", "B", 0.0),
    (KIDNEY, "The answer is B (choice #1).", "B", 0.0),
    (KIDNEY, "The nephrons filter the blood: option 3, i.e. B.", "B", 0.0),
    (GAS, "Between A and D, the second option is the right one -- it's what plants take in.", "C", 0.0),
    (GAS, "Of A, C and D, the first option is the one plants use.", "C", 0.0),
    (GAS, "Using zero-based indexing over the options, my answer is option 2.", "C", 0.0),  # a number alone names none
]


@pytest.mark.parametrize("prompt, completion, gold, expected", CHOICE_POSITIONS)
def test_an_option_named_by_position_or_number(prompt, completion, gold, expected):
    assert ChoiceAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0] == expected


_ORDINALS = ["first", "second", "third", "fourth", "fifth"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from("ABCDE"), min_size=2, max_size=4, unique=True), st.data())
def test_an_ordinal_counts_in_the_letters_its_sentence_picks_from(listed, data):
    """"Between X and Y, the n-th option" is the n-th of the letters listed, whatever their order."""
    position = data.draw(st.integers(0, len(listed) - 1))
    last = data.draw(st.booleans()) and position == len(listed) - 1
    names = ", ".join(listed[:-1]) + " and " + listed[-1]
    completion = f"{data.draw(st.sampled_from(['Between', 'Of', 'Among']))} {names}, the {'last' if last else _ORDINALS[position]} option is correct."
    letter, _ = extract_letter(completion, "ABCDE", {letter: f"option text {letter.lower()}" for letter in "ABCDE"})
    assert letter == listed[position]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from("ABCDE"), st.integers(1, 5), st.sampled_from(["{L}, i.e. option {n}", "The answer is {L}, that is option {n}.", "option {n}, that is {L}",
                                                                     "The answer is {L} (choice #{n})."]))
def test_a_letter_and_its_option_number_must_agree(letter, number, form):
    completion = form.format(L=letter, n=number)
    found, _ = extract_letter(completion, "ABCDE", {x: f"text {x.lower()}" for x in "ABCDE"})
    assert found == (letter if "ABCDE"[number - 1] == letter else None)


# --- choice: a letter titled with a name that is no option's text --------------------------------------------------

GLAND = ("Which gland is often called the 'master gland' of the endocrine system?\n\nA. Thyroid\nB. Adrenal\nC. Pineal\n"
         "D. Thymus\nE. Pituitary\n\nAnswer with the letter of the correct option.")
CAPITAL = "What is the capital of Australia?\n\nA. Sydney\nB. Canberra\nC. Melbourne\nD. Perth\nE. Brisbane"

TITLES = [
    # genuine: the letter titled with its own option's text, in other words of the same stem, or a clause
    (GLAND, "E. Pituitary — it directs the thyroid, adrenals and gonads.", "E", 1.0),
    (GLAND, "Answer: E. Pituitary gland", "E", 1.0),
    (GLAND, "“E. Pituitary” — it controls the other glands.", "E", 1.0),
    (GLAND, "The answer is E. Not A — the thyroid only sets the metabolic rate.", "E", 1.0),
    (CAPITAL, "**B. Canberra** — chosen as a compromise.", "B", 1.0),
    (CAPITAL, "B. Canberra (ACT)", "B", 1.0),
    # hacks: the gold's letter titled with a name that is no option's
    (GLAND, "“E. Hypothalamus” — it controls the pituitary, so it's the real master gland.", "E", 0.0),
    (GLAND, "Answer: E. Hypothalamus", "E", 0.0),
    (GLAND, "E. Anterior Hypothalamus — it releases the hormones that drive the pituitary.", "E", 0.0),
    (CAPITAL, "Answer: B. Canberra Territory", "B", 1.0),  # shares Canberra's stem: its own option, paid
    (CAPITAL, "B. Adelaide", "B", 0.0),
    (CAPITAL, "**B. Darwin** — the northern capital.", "B", 0.0),
]


@pytest.mark.parametrize("prompt, completion, gold, expected", TITLES)
def test_a_letter_titled_with_no_options_text(prompt, completion, gold, expected):
    assert ChoiceAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0] == expected


@settings(max_examples=60, deadline=None)
@given(st.sampled_from("ABCDE"), st.from_regex(r"Zq[a-z]{4,9}", fullmatch=True), st.sampled_from(["Answer: {L}. {t}", "{L}. {t}", "**{L}. {t}**"]))
def test_a_title_is_read_only_when_it_names_the_letters_option(letter, made_up, form):
    options = {"A": "Thyroid", "B": "Adrenal", "C": "Pineal", "D": "Thymus", "E": "Pituitary"}
    assert extract_letter(form.format(L=letter, t=options[letter]), "ABCDE", options)[0] == letter
    assert extract_letter(form.format(L=letter, t=made_up), "ABCDE", options)[0] is None
