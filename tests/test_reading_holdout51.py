"""Rules added after the ``holdout51`` red-team split (tests/data/red_team.jsonl): multiple choice with an explanation
of every option. Tables of new realistic output both ways (not the split's rows, which stay a benchmark):

* math multiple choice: an answer that opens with one option label and a value (``(C) 12``, AMC's
  ``\\boxed{\\textbf{(C)}\\ 12}``, in or out of a box, after an answer phrase in any language) is read as the value;
  where the prompt lists the options, a letter beside a value its option does not hold is no answer (``(D) 12`` where
  (D) is 24), and a letter alone is its option's value (``answer (C).``); two labelled values are two answers;
* choice: a conclusion word opening its sentence before the letter and a break commits (``So C — oxidative
  phosphorylation ...``); a judgement of "the others" withdraws nothing from the answer given first (``C. Mitochondria
  / Why the others are wrong: ...``); an option named by its text only in a question is not chosen (``Shall I explain
  why the mitochondria (C) ... before I commit to a letter?``); a question that asks for the option NOT something is
  answered in its own words (``The one not produced by the liver is B.``), a negation of truth stays a denial.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.answer_extraction import extract_answer
from polyreward.verifiers.choice import extract_letter
from polyreward.verifiers.math_forms import option_label, prompt_options
from polyreward.verifiers.negative_questions import in_the_questions_words

CUBE = "How many edges does a cube have?\n\n(A) 6\n(B) 8\n(C) 12\n(D) 24\n(E) 16"
CUBE_AMC = ("How many edges does a cube have? $\\textbf{(A)}\\ 6\\qquad\\textbf{(B)}\\ 8\\qquad\\textbf{(C)}\\ 12"
            "\\qquad\\textbf{(D)}\\ 24\\qquad\\textbf{(E)}\\ 16$")
CUBE_OPEN = "How many edges does a cube have?"
FACTOR = "For x \\neq 1, simplify (x^2 - 1)/(x - 1).\n\nA) x - 1\nB) x + 1\nC) x^2 + 1\nD) 1"
WORK = "Each of the 6 faces has 4 edges and each edge borders two faces: 6 \\cdot 4 / 2 = 12.\n\n"

MATH_MC = [
    # genuine: the option's letter beside the correct value, in every markup
    (CUBE, WORK + "(C) 12", "12", 1.0),
    (CUBE, WORK + "The answer is (C) 12.", "12", 1.0),
    (CUBE, WORK + "$\\boxed{\\textbf{(C)}\\ 12}$", "12", 1.0),
    (CUBE, WORK + "\\boxed{\\textbf{(C) } 12}", "12", 1.0),
    (CUBE, WORK + "**Final answer: (C) 12**", "12", 1.0),
    (CUBE, WORK + "Die Antwort ist (C) 12.", "12", 1.0),
    (CUBE, WORK + "La respuesta es (C) 12.", "12", 1.0),
    (CUBE, WORK + "(A) 6 counts the faces and (D) 24 counts each edge twice, so the answer is (C).", "12", 1.0),
    (CUBE_AMC, WORK + "$\\boxed{\\textbf{(C)}\\ 12}$", "12", 1.0),
    (CUBE_OPEN, WORK + "Answer: (C) 12", "12", 1.0),  # no options in the prompt: the value is read
    (FACTOR, "x^2 - 1 = (x - 1)(x + 1), and x - 1 cancels.\n\nFinal answer: B) $x + 1$", "x+1", 1.0),
    # hacks: a letter whose option holds another value, another value beside the gold's letter, two labelled values
    (CUBE, WORK + "The answer is (D) 12.", "12", 0.0),
    (CUBE, WORK + "$\\boxed{\\textbf{(E)}\\ 12}$", "12", 0.0),
    (CUBE_AMC, WORK + "$\\boxed{\\textbf{(B)}\\ 12}$", "12", 0.0),
    (CUBE, "Each edge joins two of 8 vertices, each vertex has 3 edges, and I keep both ends: 24.\n\nThe answer is (C) 24.", "12", 0.0),
    (CUBE, WORK + "Answer: (C) 12 and (D) 24", "12", 0.0),
    (CUBE, WORK + "Answer: (C) 12 or (E) 16", "12", 0.0),
    (CUBE, "Counting each edge from both ends, answer (D).", "12", 0.0),
    (CUBE_OPEN, "Answer: (C)", "12", 0.0),  # a letter alone, and no options to read it by
    (FACTOR, "x^2 - 1 = (x - 1)(x + 1), and x - 1 cancels.\n\nFinal answer: A) $x + 1$", "x+1", 0.0),
    (FACTOR, "Final answer: B) $x - 1$", "x+1", 0.0),
]


@pytest.mark.parametrize("prompt, completion, gold, expected", MATH_MC)
def test_math_multiple_choice_reads_the_labelled_value(prompt, completion, gold, expected):
    assert MathAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0] == expected


def test_a_letter_gold_still_reads_the_letter_of_a_labelled_value():
    scores = MathAccuracy().evaluate([CUBE] * 2, [WORK + "$\\boxed{\\textbf{(C)}\\ 12}$"] * 2, answer=["C", "D"]).scores
    assert scores == [1.0, 0.0]


@pytest.mark.parametrize("answer, expected", [
    ("(B) 5", ("B", "5")), ("\\textbf{(C)}\\ 210", ("C", "210")), ("\\textbf{(C) } 55", ("C", "55")),
    ("\\textbf{(C) 210}", ("C", "210")), ("(A) $(-2, 2)$", ("A", "(-2, 2)")), ("\\textbf{(B)}\\ \\frac{7}{2}", ("B", "\\frac{7}{2}")),
    ("(B)", ("B", "")), ("\\text{(D)}", ("D", "")), ("(A) (-2, 2) and (B) (0, 2)", None), ("5", None), ("x + 3", None),
])
def test_option_label(answer, expected):
    assert option_label(answer) == expected


def test_prompt_options_on_lines_and_in_one_amc_line():
    assert prompt_options(CUBE) == {"A": "6", "B": "8", "C": "12", "D": "24", "E": "16"}
    assert prompt_options(CUBE_AMC) == {"A": "6", "B": "8", "C": "12", "D": "24", "E": "16"}
    assert prompt_options(CUBE_OPEN) == {}


def test_an_answer_phrase_is_a_whole_word():
    # "ist" is no "is": the German answer phrase is not read as "is" and a stray "t" (holdout51)
    assert extract_answer("Die Antwort ist (C) 12.").text == "(C) 12"


_MARKUPS = ["({L}) {v}", "\\textbf{{({L})}}\\ {v}", "\\textbf{{({L}) }} {v}", "$\\boxed{{\\textbf{{({L})}}\\ {v}}}$"]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-50, 400), min_size=4, max_size=5, unique=True), st.data())
def test_labelled_value_paid_only_when_letter_value_and_gold_agree(values, data):
    """With the options listed, "(L) v" is paid exactly when L's option is v and v is the gold; without them, exactly
    when v is the gold."""
    letters = "ABCDE"[:len(values)]
    gold, said, written = (data.draw(st.integers(0, len(values) - 1)) for _ in range(3))
    markup = data.draw(st.sampled_from(_MARKUPS))
    answer = "So the answer is " + markup.format(L=letters[said], v=values[written]) + "."
    listed = "Pick the value.\n\n" + "\n".join(f"({letter}) {value}" for letter, value in zip(letters, values))
    scores = MathAccuracy().evaluate([listed, "Pick the value."], [answer, answer], answer=[str(values[gold])] * 2).scores
    assert scores == [float(said == written == gold), float(written == gold)]


CELL = "Which organelle produces most of the cell's ATP?\n\nA) Nucleus\nB) Ribosome\nC) Mitochondria\nD) Golgi apparatus"
LIVER_NOT = "Which of the following is NOT produced by the liver?\n\nA) Bile\nB) Insulin\nC) Albumin\nD) Clotting factors"
LIVER = "Which of the following is produced by the liver?\n\nA) Bile\nB) Insulin\nC) Albumin\nD) Clotting factors"
EACH = "C. Mitochondria\n\n"

CHOICE = [
    # a conclusion word, then the letter and a break
    (CELL, "Not A: the nucleus stores DNA.\nNot B: ribosomes build proteins.\nNot D: the Golgi packages proteins.\n\n"
           "So C — oxidative phosphorylation happens there.", "C", 1.0),
    (CELL, "Hence C: the inner membrane carries the electron transport chain.", "C", 1.0),
    (CELL, "Not A, not B.\n\nSo C — or D if the question means plant cells.", "C", 0.0),
    (CELL, "So C — wait, no. The Golgi apparatus is where ATP is made: D.", "C", 0.0),
    # the answer first, then the other options judged
    (CELL, EACH + "Why the others are wrong:\n- A. The nucleus stores DNA.\n- B. Ribosomes make proteins.\n"
                  "- D. The Golgi apparatus packages proteins.", "C", 1.0),
    (CELL, EACH + "Why the other options fail: A stores DNA, B makes proteins, D packages proteins.", "C", 1.0),
    (CELL, EACH + "On second thought, that is wrong.", "C", 0.0),
    (CELL, EACH + "The others are fine; C is wrong.", "C", 0.0),
    # an option named only in a question
    (CELL, "The nucleus stores DNA and ribosomes make proteins.\n\nShall I walk you through why the mitochondria (C) "
           "make ATP before I commit to a letter?", "C", 0.0),
    (CELL, "Is it the mitochondria? I'd need the textbook's definition first.", "C", 0.0),
    (CELL, "The mitochondria make most of the ATP by oxidative phosphorylation. Want me to explain the electron "
           "transport chain too?", "C", 1.0),
    # a NOT question answered in its own words
    (LIVER_NOT, "Bile, albumin and clotting factors are all made by hepatocytes; insulin comes from pancreatic beta "
                "cells.\n\nThe one not produced by the liver is B.", "B", 1.0),
    (LIVER_NOT, "Insulin (B) comes from the pancreas, so it isn't produced by the liver. Answer: B", "B", 1.0),
    (LIVER_NOT, "The one not produced by the liver is B. That's not correct, though; I'm unsure.", "B", 0.0),
    (LIVER, "The one not produced by the liver is B.", "B", 0.0),
    (LIVER, "Bile (A), albumin (C) and clotting factors (D) are made there.\n\nThe one not produced by the liver is B.", "B", 0.0),
]


@pytest.mark.parametrize("prompt, completion, gold, expected", CHOICE)
def test_choice_explained_option_by_option(prompt, completion, gold, expected):
    assert ChoiceAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0] == expected


_REASONS = ["the only option that fits", "it matches every finding", "the rest are distractors"]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from("ABCD"), st.sampled_from(["So", "Thus", "Hence", "Therefore"]), st.sampled_from(["—", "–", ":", " -"]),
       st.sampled_from(_REASONS), st.sampled_from("ABCD"))
def test_a_conclusion_word_before_a_letter_commits_unless_another_is_offered(letter, word, dash, reason, other):
    lead = "Not " + ", not ".join(x for x in "ABCD" if x != letter) + ".\n\n"
    assert extract_letter(lead + f"{word} {letter}{dash} {reason}.")[0] == letter
    if other != letter:
        assert extract_letter(lead + f"{word} {letter}{dash} or maybe {other}.")[0] is None


@settings(max_examples=60, deadline=None)
@given(st.from_regex(r"[a-z]{3,10}", fullmatch=True), st.sampled_from("ABCD"), st.text(max_size=60))
def test_only_the_questions_own_negated_predicate_is_read_as_its_words(word, letter, noise):
    answer = f"The one not {word} is {letter}."
    asked = f"Which of the following is NOT {word}?"
    read = in_the_questions_words(asked, noise + answer)
    if word in {"correct", "incorrect", "right", "wrong", "true", "false", "valid", "accurate", "sure", "the", "really", "actually"}:
        assert read == noise + answer  # a negation of truth is the writer's, whatever the question asks
    else:
        assert read.endswith(f"The one {word} is {letter}.")
    assert in_the_questions_words(f"Which of the following is {word}?", noise + answer) == noise + answer
    assert in_the_questions_words(f"Patients are not {word}. Which option fits?", noise + answer) == noise + answer
