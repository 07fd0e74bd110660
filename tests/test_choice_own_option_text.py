"""An option's own text is the answer, not a later clause about it (issue #32):

* an option whose text holds a negation ("C. Not hearsay, as an opposing party's statement") written after its own
  letter is the letter's label: its "Not" denies nothing, and where that letter is the only one named, the option's
  negation and the word after it restate it anywhere ("FRE 801(d)(2) defines it as not hearsay")
  (``option_checks.without_own_negative_texts``);
* a compound word's hyphen is no sign: "N-acetylcysteine" named in the reasoning is option D's own text, so a bare
  "The correct answer is (D)" after it concludes from its own option, not from fomepizole's (``option_checks._option_key``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy

CHOICE = ChoiceAccuracy()

HEARSAY = ("Under the Federal Rules of Evidence, a statement made by a party and offered against that party by the opposing "
           "party is:\n\nA. Inadmissible hearsay\nB. Admissible only as an excited utterance\nC. Not hearsay, as an "
           "opposing party's statement\nD. Admissible only if the declarant is unavailable")
ANTIDOTE = ("A 22-year-old is brought in 4 hours after ingesting 30 g of acetaminophen. Which of the following is the antidote?"
            "\n\nA. Naloxone\nB. Flumazenil\nC. Fomepizole\nD. N-acetylcysteine\nE. Atropine")
FLOOR = ("A binding price floor set above the equilibrium price will most likely cause\nA. a shortage\nB. a surplus\n"
         "C. no change in quantity traded\nD. an increase in demand")


def choice(prompt: str, completion: str, gold: str) -> float:
    return CHOICE.evaluate([prompt], [completion], answer=[gold]).scores[0]


@pytest.mark.parametrize("prompt, completion, gold", [
    (HEARSAY, "**C. Not hearsay, as an opposing party's statement**", "C"),
    (HEARSAY, "Answer: C. Not hearsay, as an opposing party's statement", "C"),
    (HEARSAY, "**Answer: C. Not hearsay, as an opposing party's statement**\n\nFRE 801(d)(2) defines an opposing party's "
              "statement as not hearsay, so it comes in without needing an exception.", "C"),
    (HEARSAY, "<think>\nCould it be A? No.\n</think>\n\n**C. Not hearsay, as an opposing party's statement**", "C"),
    (FLOOR, "Answer: C. No change in quantity traded", "C"),
    (ANTIDOTE, "N-acetylcysteine replenishes glutathione; fomepizole is for methanol.\n\nThe correct answer is **(D)**.", "D"),
    (ANTIDOTE, "The correct answer is **(D)**.\n\n*This explanation is for educational purposes only and is not a "
               "substitute for professional advice.*", "D"),
])
def test_an_options_own_text_is_read_as_the_answer(prompt, completion, gold):
    assert choice(prompt, completion, gold) == 1.0


@pytest.mark.parametrize("prompt, completion, gold", [
    (HEARSAY, "Answer: C. Not hearsay... no wait, it is inadmissible hearsay: A.", "C"),   # a correction still corrects
    (HEARSAY, "Answer: A. Not hearsay, as an opposing party's statement", "C"),            # another letter's label: A read
    (HEARSAY, "Answer: A. Not hearsay, as an opposing party's statement", "A"),            # the letter beside C's text
    (HEARSAY, "Answer: C. Not hearsay. Actually no, C is wrong.", "C"),                   # a denial of the letter itself
    (HEARSAY, "It is not C.", "C"),
    (ANTIDOTE, "Fomepizole is the antidote here.\n\nThe correct answer is **(D)**.", "D"),  # the reasoning reaches C
    (FLOOR, "Answer: C. No change in quantity traded. Hmm, actually A.", "C"),
])
def test_the_own_text_rule_leaves_other_options_and_denials_alone(prompt, completion, gold):
    assert choice(prompt, completion, gold) == 0.0


@settings(max_examples=40, deadline=None)
@given(st.sampled_from("ABCD"), st.sampled_from(["Answer: {l}. {t}", "**{l}. {t}**", "The answer is ({l}) {t}.", "{l} — {t}"]))
def test_writing_an_options_text_beside_a_letter_never_pays_another_letter(letter, form):
    """Whatever option's text stands beside a letter, only that letter can be paid, and only when the text is its own."""
    options = {"A": "Inadmissible hearsay", "B": "Admissible only as an excited utterance",
               "C": "Not hearsay, as an opposing party's statement", "D": "Admissible only if the declarant is unavailable"}
    for text_of in "ABCD":
        completion = form.format(l=letter, t=options[text_of])
        scores = {gold: choice(HEARSAY, completion, gold) for gold in "ABCD"}
        assert all(score == 0.0 for gold, score in scores.items() if gold != letter)
        if text_of != letter:
            assert scores[letter] == 0.0


# --- the letter's own option named in its words: the reasoning reaches it, not the other option it also names ---------

CUSHING = ("What is the most common cause of Cushing syndrome overall?\nA. Pituitary adenoma\nB. Adrenal adenoma\n"
           "C. Exogenous glucocorticoids\nD. Ectopic ACTH from small cell lung cancer\nE. Adrenal carcinoma")


@pytest.mark.parametrize("completion, gold", [
    ("Overall (iatrogenic included), the most common cause is exogenous glucocorticoid use. Among endogenous causes, a "
     "pituitary adenoma (Cushing disease) is most common — but the question asks overall.\n\nAnswer: C", "C"),
    ("Exogenous glucocorticoid therapy is by far the commonest cause. A pituitary adenoma is the commonest endogenous one."
     "\n\nAnswer: C", "C"),
])
def test_a_letter_whose_option_the_reasoning_names_in_its_words_is_paid(completion, gold):
    assert choice(CUSHING, completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold", [
    ("Among all causes, a pituitary adenoma is the most common.\n\nAnswer: C", "C"),   # the reasoning reaches A only
    ("The most common cause overall is exogenous glucocorticoid use.\n\nAnswer: A", "A"),  # and here C
    ("Exogenous use is common.\n\nThe most common cause is a pituitary adenoma.\n\nAnswer: C", "C"),  # "glucocorticoid" missing
])
def test_a_letter_after_reasoning_that_reaches_another_option_is_still_refused(completion, gold):
    assert choice(CUSHING, completion, gold) == 0.0


def test_a_denied_paraphrase_of_another_option_does_not_refuse_the_letter():
    assert choice(CUSHING, "It is not exogenous glucocorticoid use here.\n\nAnswer: A", "A") == choice(CUSHING, "Answer: A", "A") == 1.0
