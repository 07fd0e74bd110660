"""An option stated by its words alone in the completion's opening statement (issue #32,
``verifiers/option_statement.py``): "Canberra is the capital of Australia; it was chosen as a compromise between Sydney
and Melbourne." names Canberra, not the Melbourne of its explanation; two options in the statement name none.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.verifiers.option_statement import named_by_words

CHOICE = ChoiceAccuracy()

PLANETS = "Which is the largest planet in our solar system?\nA) Earth\nB) Saturn\nC) Jupiter\nD) Neptune"
CAPITAL = "What is the capital of Australia?\nA. Sydney\nB. Canberra\nC. Melbourne\nD. Perth\nE. Brisbane"
STEMI = ("A 58-year-old man has crushing chest pain. ECG shows ST elevation in II, III and aVF. Which of the following is "
         "the most likely diagnosis?\nA. Anterior STEMI\nB. Inferior STEMI\nC. Acute pericarditis\nD. Aortic dissection\n"
         "E. Pulmonary embolism")
CUSHING = ("What is the most common cause of Cushing syndrome overall?\nA. Pituitary adenoma\nB. Adrenal adenoma\n"
           "C. Exogenous glucocorticoids\nD. Ectopic ACTH from small cell lung cancer\nE. Adrenal carcinoma")


def choice(prompt: str, completion: str, gold: str) -> float:
    return CHOICE.evaluate([prompt], [completion], answer=[gold]).scores[0]


@pytest.mark.parametrize("prompt, completion, gold", [
    (CAPITAL, "Canberra is the capital of Australia; it was chosen as a compromise between Sydney and Melbourne.", "B"),
    (PLANETS, "The largest planet in our solar system is Jupiter. It is more than 11 times wider than Earth.", "C"),
    (PLANETS, "Jupiter is the largest planet; Saturn comes second and Earth is tiny by comparison.", "C"),
    (STEMI, "Inferior wall STEMI; the right coronary artery is the likely culprit.", "B"),
    (STEMI, "**Inferior STEMI.** Anterior STEMI would show changes in V1-V4.", "B"),
    (CUSHING, "The most common cause overall is exogenous glucocorticoid use; a pituitary adenoma is the commonest endogenous one.", "C"),
])
def test_an_option_stated_by_its_words_first_is_paid(prompt, completion, gold):
    assert choice(prompt, completion, gold) == 1.0


@pytest.mark.parametrize("prompt, completion, gold", [
    (PLANETS, "The largest planet is Earth or Jupiter.", "C"),                      # two options offered
    (PLANETS, "The largest planet is Jupiter or Saturn.", "C"),
    (PLANETS, "The largest planet is Jupiter and Saturn.", "C"),
    (PLANETS, "Jupiter\nEarth", "C"),                                               # two bare answers
    (PLANETS, "The largest planet is Jupiter. Hmm, Earth.", "C"),
    (PLANETS, "The largest planet is Jupiter. Just kidding, it's Earth.", "C"),    # withdrawn
    (PLANETS, "The largest planet is not Jupiter; it is a common misconception.", "C"),
    (PLANETS, "The largest planet might be Jupiter.", "C"),                         # hedged
    (PLANETS, "Is the largest planet Jupiter? Earth is my pick.", "C"),             # the opening asks
    (CAPITAL, "Sydney is the largest city. Canberra was purpose-built.", "A"),     # restates nothing: no statement
    (STEMI, "STEMI; the right coronary artery is the likely culprit.", "B"),        # fits two options
    (STEMI, "Anterior wall STEMI; the LAD is the likely culprit.", "B"),            # the wrong option's words
])
def test_two_options_a_wrong_one_or_an_uncommitted_statement_is_not_paid(prompt, completion, gold):
    assert choice(prompt, completion, gold) == 0.0


def test_a_paraphrase_names_an_option_only_by_all_its_distinctive_words():
    options = {"A": "Anterior STEMI", "B": "Inferior STEMI", "C": "Acute pericarditis"}
    assert named_by_words("Inferior wall STEMI", options) == "B"
    assert named_by_words("STEMI of the inferior wall", options) == "B"
    assert named_by_words("STEMI", options) is None                     # shared words name no option
    assert named_by_words("inferior or anterior STEMI", options) is None
    assert named_by_words("O(n^2)", {"A": "O(n)", "B": "O(n^2)"}) is None  # no word: never named so


_OPTIONS = ["Earth", "Saturn", "Jupiter", "Neptune"]
_OPENERS = ["The largest planet in our solar system is {x}.", "{x} is the largest planet.", "{x}.", "**{x}**"]
_JOINS = [" or {y}", " and {y}", ", {y}", " / {y}", " (or {y})", " or possibly {y}"]


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 3), st.integers(0, 3), st.sampled_from(_OPENERS), st.sampled_from(_JOINS), st.sampled_from("ABCD"),
       st.sampled_from(["", " It is a gas giant.", " Earth is much smaller."]))
def test_adding_a_second_options_text_never_raises_the_score(first, second, opener, join, gold, tail):
    """Naming another option beside the stated one, however joined, never scores more than the statement alone."""
    x, y = _OPTIONS[first], _OPTIONS[second]
    plain = opener.format(x=x) + tail
    added = opener.format(x=x + join.format(y=y)) + tail
    assert choice(PLANETS, added, gold) <= choice(PLANETS, plain, gold) or first == second


@settings(max_examples=40, deadline=None)
@given(st.permutations(range(4)), st.sampled_from(_OPENERS))
def test_the_opening_statement_pays_its_own_option_and_no_other(order, opener):
    x = _OPTIONS[order[0]]
    completion = opener.format(x=x) + f" {_OPTIONS[order[1]]} and {_OPTIONS[order[2]]} are smaller."
    assert [choice(PLANETS, completion, letter) for letter in "ABCD"] == [float(i == order[0]) for i in range(4)]


VITAMIN = "Which vitamin deficiency causes cheilosis?\nA. Thiamine\nB. Riboflavin\nC. Niacin\nD. Pyridoxine"


@pytest.mark.parametrize("completion, gold", [
    ("Riboflavin deficiency. I don't think any option is strictly right here, though.", "B"),  # every option declined
    ("Ans is 'a' ie Riboflavin", "B"),          # an answer key's lowercase letter: the letter readers decide
    ("Riboflavin, i.e. (a).", "B"),
])
def test_an_opening_statement_gives_way_to_a_declined_choice_or_a_lowercase_letter(completion, gold):
    assert choice(VITAMIN, completion, gold) == 0.0
