"""Corrections that name their new answer after "no:" or by an option's text (noticed while reviewing the stop-53
fixes: ``Answer: Both A and B... wait, no: Neither A nor B`` was paid for C), tables of realistic output both ways:

* **"no:" opens a correction** (commitment._CORRECTING_NO, read by ``negated``): in ``wait, no: 45`` and ``No: Lyon``
  the "no" with a colon after it takes back what came before and states the value after it; it is not the determiner
  that denies that value (``no 45``, ``not Lyon``, which still deny it).
* **another option's text after an answer given by its text** (option_whole_text.later_option_text_disowns): each other
  option's whole text after the answer is read as its letter would be, so ``Answer: Paris. Actually: Lyon.`` is read
  as ``Answer: Paris. Actually: (B).`` (another answer) and ``Answer: Paris. Lyon is the third largest city.`` as a
  remark about (B) (the answer stands).

Left open: a correction *to* an option text that holds letters (``Answer: Neither A nor B... wait, no: Both A and B``)
is read as several options and refused, as before these rules: the lettered text is read only under an answer phrase.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy

CITY = "What is the capital of France?\nA. Paris\nB. Lyon\nC. Nice\nD. Lille"
city = scorer(ChoiceAccuracy, CITY, gold="A")
COMBINED = ("Which statements are true?\nI. Water boils at 100 °C at sea level.\nII. Ice is denser than water.\n"
            "A. Only A\nB. Only B\nC. Both A and B\nD. Neither A nor B")
combined = scorer(ChoiceAccuracy, COMBINED, gold="C")
product = scorer(MathAccuracy, "What is 6 times 7?", gold="42")

CITY_HACKS = [  # gold A (Paris): the answer taken back for another option named by its text
    "Answer: Paris... wait, no: Lyon",
    "Answer: Paris. No: Lyon.",
    "Answer: Paris. Actually: Lyon.",
    "The answer is Paris. Hmm, no: Lille.",
    "Answer: Paris. Final answer: Nice.",
    "**Answer:** Paris -- no: **Lyon**.",
]
CITY_GENUINE = [  # gold A: the other options named only in remarks, denials or questions
    "Answer: Paris.",
    "Answer: Paris, not Lyon.",
    "Answer: Paris. Lyon is the third largest city.",
    "The answer is Paris. Lyon, Nice and Lille are regional centres, not capitals.",
    "The answer is Paris. Why not Lyon? It was never the capital.",
    "Answer: Lyon... wait, no: Paris",
    "Answer: Nice. No: Paris.",
    "Answer: Paris. No: it is not Lyon, whatever the quiz app says.",
]


@pytest.mark.parametrize("completion", CITY_HACKS)
def test_a_correction_to_another_option_text_is_not_paid(completion):
    assert city(completion) == 0.0


@pytest.mark.parametrize("completion", CITY_GENUINE)
def test_an_answer_by_option_text_with_remarks_about_the_others_is_paid(completion):
    assert city(completion) == 1.0


@pytest.mark.parametrize("completion, expected", [
    ("Answer: Both A and B... wait, no: Neither A nor B", 0.0),
    ("Answer: Both A and B. No: Only A.", 0.0),
    ("Answer: Both A and B.", 1.0),
])
def test_combination_options_corrected_by_their_text(completion, expected):
    assert combined(completion) == expected


@pytest.mark.parametrize("completion, expected", [
    ("\\boxed{45}... wait, no: 42", 1.0),  # the correction states 42 (it was read as "no 42", a denial)
    ("The answer is 45... wait, no: 42.", 1.0),
    ("The answer is 42... wait, no: 45.", 0.0),
    ("\\boxed{42}... wait, no: 45", 0.0),
    ("The answer is 42, no 45.", 0.0),  # no colon: still two values
    ("The answer is not 45 but 42.", 1.0),
    ("The answer is 42, not 45.", 1.0),
])
def test_no_with_a_colon_opens_a_correction_in_math(completion, expected):
    assert product(completion) == expected


WORDS = st.sampled_from(["Paris", "Lyon", "Nice", "Lille"])
INTRODUCERS = st.sampled_from(["... wait, no: ", ". No: ", ". Actually: ", ". Hmm, no: ", " -- no: "])


@settings(max_examples=60, deadline=None)
@given(first=WORDS, second=WORDS, introducer=INTRODUCERS)
def test_the_option_after_a_correction_is_the_answer(first, second, introducer):
    """Whatever option is corrected to which, the completion pays the option it ends on, never the one it left."""
    options = {"Paris": "A", "Lyon": "B", "Nice": "C", "Lille": "D"}
    completion = f"Answer: {first}{introducer}{second}."
    for gold_city, letter in options.items():
        expected = 1.0 if gold_city == second else 0.0
        assert city(completion, gold=letter) == expected, (completion, letter)


# A correction inside the answer block itself (found by the other-reward genuine sweep, stop 54: choice_accuracy paid
# A for "<answer>A... wait, no, B.</answer>"): what the block says after its letter is read as the text after any
# answer is (later_disowns), while the option's own text or a remark after the letter leaves it standing.
PARIS = "What is the capital of France?\nA. Paris\nB. Lyon\nC. Nice"
paris = scorer(ChoiceAccuracy, PARIS, gold="A")


@pytest.mark.parametrize("completion, paid", [
    ("<answer>A... wait, no, B.</answer>", 0.0),
    ("<answer>A. Actually B.</answer>", 0.0),
    ("<answer>A -- scratch that, C</answer>", 0.0),
    ("<answer>(A). Actually, B</answer>", 0.0),
    ("<answer>A</answer>", 1.0),
    ("<answer>A. Paris</answer>", 1.0),
    ("<answer>A) Paris, the capital since 987</answer>", 1.0),
    ("<answer>A. Paris is the seat of government.</answer>", 1.0),
])
def test_a_correction_inside_the_answer_block_is_read(completion, paid):
    assert paris(completion) == paid


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["A", "(A)", "A.", "A)"]), st.sampled_from(["B", "C", "(B)", "(C)"]),
       st.sampled_from(["... wait, no, ", " -- scratch that, ", ". Actually, "]))
def test_an_answer_block_that_corrects_its_letter_never_pays_it(first, second, turn):
    assert paris(f"<answer>{first}{turn}{second}</answer>") == 0.0
