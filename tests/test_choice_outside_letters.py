"""A final answer that names a letter outside the question's (choice.extract_letter's _answers_outside).

Red team ``holdout102``: "M(CO₂) = 12 + 2 × 16 = 44 g/mol, which matches option C.\\n\\nThe answer is (J)." was paid C
under the letters A-E: the reader skipped J, a letter it was not told about, and read the option the work matched.
The writer's answer is J -- no option of this question -- so no letter is committed. Read with every capital but
"I" allowed, in an answer phrase, a box or an answer tag only; a capital letter elsewhere (``T wave``, ``X-ray``,
``S. pneumoniae``, ``vitamin K``) and an option whose text is a letter ("C) U") are no such answer.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.verifiers.choice import extract_letter

OPTIONS_AD = {"A": "Metoprolol", "B": "Amiodarone", "C": "Digoxin", "D": "Adenosine"}
LETTERS_AS_OPTIONS = {"A": "S", "B": "T", "C": "U", "D": "V"}

ANSWERS_OUTSIDE = [
    "M(CO₂) = 12 + 2 × 16 = 44 g/mol, which matches option C.\n\nThe answer is (J).",
    "Rate control first, so C fits best.\n\nFinal answer: F",
    "The work points to C.\n\n\\boxed{G}",
    "C looks right at first.\n\n<answer>H</answer>",
    "**Answer: K** (C was my first thought)",
]

ANSWERS_INSIDE = [
    ("The answer is C (vitamin K).", "C"),
    ("Answer: B. The T wave is peaked because of the potassium.", "B"),
    ("**Answer: D** -- the X-ray shows a widened mediastinum.", "D"),
    ("E\n\nS. pneumoniae remains the most common bacterial cause of CAP.", "E"),
    ("\\boxed{C}\n\nNote: this is a Type B dissection, managed medically.", "C"),
    ("The answer is C, the hepatitis B vaccine.", "C"),
    ("Answer: A; the Z-score of -2.6 confirms osteoporosis.", "A"),
    ("Respuesta: C (vitamina K).", "C"),
    ("Final answer: B. Plan B would be cardioversion if he becomes unstable.", "B"),
    ("I think the answer is A. I checked it twice.", "A"),
]


@pytest.mark.parametrize("text", ANSWERS_OUTSIDE)
def test_an_answer_outside_the_letters_commits_to_none(text):
    assert extract_letter(text, "ABCDE")[0] is None
    assert extract_letter(text, "ABCDE", OPTIONS_AD)[0] is None


@pytest.mark.parametrize(("text", "letter"), ANSWERS_INSIDE)
def test_a_capital_elsewhere_leaves_the_answer(text, letter):
    assert extract_letter(text, "ABCDE")[0] == letter


def test_the_letters_widened_by_the_caller_read_the_letter():
    """With ten options (letters A-J) the same answer is J."""
    assert extract_letter(ANSWERS_OUTSIDE[0], "ABCDEFGHIJ")[0] == "J"


def test_an_option_whose_text_is_a_letter():
    """'C) U': the answer 'The answer is U.' names option C by its text, not a letter outside A-D."""
    assert extract_letter("The gaps grow by one each time, so the answer is U.", "ABCD", LETTERS_AS_OPTIONS)[0] != "U"
    assert extract_letter("The gaps grow by one each time, so the answer is U.", "ABCD", LETTERS_AS_OPTIONS)[1] != "outside"


@settings(max_examples=80, deadline=None)
@given(letter=st.sampled_from("ABCDE"), capital=st.sampled_from("FGHJKLMNOPQRSTUVWXYZ"),
       noun=st.sampled_from(["wave", "-ray", " cells", "-score", " vitamin", " line", " sign"]))
def test_a_capital_in_a_remark_never_unsettles_a_committed_letter(letter, capital, noun):
    """A remark after the committed answer that holds a capital letter of a name ('T wave', 'X-ray', 'Z-score')
    leaves the answer as it was."""
    base = f"The answer is {letter}."
    before = extract_letter(base, "ABCDE")[0]
    assert before == letter
    assert extract_letter(f"{base} The {capital}{noun} supports it.", "ABCDE")[0] == before
