"""Red team holdout109 (what comes after the answer, written blind): the rules its misses led to.

* A one-statement summary after the answer states its value as its conclusion, with or without a conclusion word:
  ``\\boxed{1200}`` then "**In short:** 3 × 16 × 25 = **1,500** corn plants." states two final values
  (``later_summary._states_one_value``: a summary label -- Summary, TL;DR, In short, Bottom line, Recap, Conclusion --
  one sentence with a number, closed by its last value). An explanation's or a derivation's one equation is a step
  ("Explanation: 16 × 25 = 400 per field.") and a summary naming the answer agrees.
* A correction section after the answer (Erratum, Errata, Corrigendum, Correction, Update; a short parenthesis
  allowed after the label: "**Erratum (added later):**") is read as a summary is: concluding another value ("..., so
  the total is 60 + 8 = 68 dollars") it leaves two final values.
* The writer saying it cannot tell which of two results is right ("The simulation and the count disagree, and I don't
  know which one to trust", "I haven't found which of the two calculations has the slip", "I can't tell which of these
  two the problem wants") takes the answer away in any clause after it, beside other values and after a clause about
  another value (``withdrawal_words.UNDECIDED_BETWEEN``, read by ``commitment.later_disowns``); not about a form or a
  method ("which of these forms you want"), nor a clause that names the answer.
* A confidence noun whose degree is given in words, low ("Confidence in the boxed answer: low."), is a belief of one
  half or less (``disowned_answers._LOW_LEVEL``); "Confidence: high" keeps the answer. A confidence split over the
  letters ("Confidence: C 50 %, B 50 %") that gives the answer one half or less picks no option
  (``disowned_answers.letter_at_even_or_less``, read by ``choice``).
* "26 is probably the intended answer" after the answer states 26 (``commitment._AFFIRMED_AFTER``: an adverb after
  the copula, "the intended / expected answer"); a line labelled beyond the question ("Bonus (not part of the
  question): their sum is 124.") states another quantity (``later_values.unasked_lines``); the bracketed key of an
  exercise handed to the reader ("Check your understanding: ...? *(Answer: 9 cm.)*") is part of the follow-up
  (``follow_ups``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.disowned_answers import below_even_belief, letter_at_even_or_less
from polyreward.verifiers.later_summary import summary_concludes_other
from polyreward.verifiers.withdrawal_words import UNDECIDED_BETWEEN

CORN = "A farmer has 3 fields. Each field has 16 rows of corn with 25 plants per row. How many corn plants does he have?"
CORN_WORK = "Per field: 16 × 25 = 400 plants. Three fields: 3 × 400 = 1200.\n\n$\\boxed{1200}$\n\n"

SUMMARY_CASES = [  # (completion, expected score) for the gold 1200
    (CORN_WORK + "**In short:** 3 × 16 × 25 = **1,500** corn plants.", 0.0),
    (CORN_WORK + "TL;DR: 1,500 plants.", 0.0),
    (CORN_WORK + "## Bottom line\n3 fields of 16 × 25 plants = 1500.", 0.0),
    # the summary names the answer, states no value, or is an explanation's step
    (CORN_WORK + "**In short:** 3 × 16 × 25 = **1,200** corn plants.", 1.0),
    (CORN_WORK + "TL;DR: 1200 plants.", 1.0),
    (CORN_WORK + "TL;DR: multiply the rows by the plants, then by the fields.", 1.0),
    (CORN_WORK + "Explanation: each field has 16 × 25 = 400 plants.", 1.0),
]


@pytest.mark.parametrize("completion, expected", SUMMARY_CASES)
def test_a_one_statement_summary_states_its_value(completion, expected):
    assert scorer(MathAccuracy, CORN)(completion, "1200") == expected


JACKET = ("A jacket costs $\\$80$. It is discounted by 25%, and then a 10% sales tax is added to the discounted price. "
          "What is the final price, in dollars?")
JACKET_WORK = "Discounted price: $80 \\times 0.75 = 60$. With tax: $60 \\times 1.10 = 66$.\n\nThe final price is $\\boxed{66}$ dollars.\n\n"

ERRATUM_CASES = [  # (completion, expected score) for the gold 66
    (JACKET_WORK + "**Erratum (added later):** the tax is charged on the original price: $80 \\times 0.10 = 8$, so the total "
     "is $60 + 8 = 68$ dollars.", 0.0),
    (JACKET_WORK + "Correction: I misread the rate, so the price comes to 70 dollars.", 0.0),
    # a correction that keeps the value, or one about something else
    (JACKET_WORK + "**Erratum:** the second line had a typo (1.01 for 1.10), so the total is still $60 \\times 1.10 = 66$ dollars.", 1.0),
    (JACKET_WORK + "Update: I added the units to the answer line.", 1.0),
]


@pytest.mark.parametrize("completion, expected", ERRATUM_CASES)
def test_a_correction_section_concluding_another_value(completion, expected):
    assert scorer(MathAccuracy, JACKET)(completion, "66") == expected


DICE = "Two fair six-sided dice are rolled. What is the probability that the sum is 8? Express your answer as a common fraction."
DICE_WORK = "The pairs with sum 8 are (2,6), (3,5), (4,4), (5,3) and (6,2).\n\n$P = \\boxed{\\frac{5}{36}}$\n\n"
AREA = "A rectangular garden is 42 meters long and 31 meters wide. What is its area in square meters?"
AREA_WORK = "Area $= 42 \\times 31 = 1302$ square meters.\n\n$\\boxed{1302}$\n\n"

UNDECIDED_CASES = [  # (prompt, completion, gold, expected)
    (DICE, DICE_WORK + "Monte Carlo check (1,000,000 rolls): 0.1667, i.e. about $\\frac{1}{6}$. The simulation and the count "
     "disagree, and I don't know which one to trust.", "\\frac{5}{36}", 0.0),
    (AREA, AREA_WORK + "Sanity check: $1200 + 60 + 42 = 1292$. That is 10 off from the boxed value, and I haven't found which "
     "of the two calculations has the slip.", "1302", 0.0),
    (AREA, AREA_WORK + "Rounded, some books give 1300. I can't tell which of these two the problem wants.", "1302", 0.0),
    (AREA, AREA_WORK + "Estimate: 1300. Not sure which is right.", "1302", 0.0),
    # a form, a method or the reader's preference; a doubt resolved on the answer; a check that agrees
    (AREA, AREA_WORK + "Whichever of the two methods your class uses, the area is 1302.", "1302", 1.0),
    (DICE, DICE_WORK + "Monte Carlo check (1,000,000 rolls): 0.1389, which matches $\\frac{5}{36} \\approx 0.1389$.", "\\frac{5}{36}", 1.0),
    (AREA, AREA_WORK + "Sanity check: $40 \\times 30 = 1200$, and $1200 + 60 + 42 = 1302$ ✓.", "1302", 1.0),
]


@pytest.mark.parametrize("prompt, completion, gold, expected", UNDECIDED_CASES)
def test_undecided_between_two_results(prompt, completion, gold, expected):
    assert scorer(MathAccuracy, prompt)(completion, gold) == expected


@pytest.mark.parametrize("clause, undecided", [
    ("and I don't know which one to trust", True),
    ("I haven't found which of the two calculations has the slip", True),
    ("I can't tell which of these two the problem wants", True),
    ("I'm not sure which is right", True),
    ("no idea which to go with", True),
    ("Not sure which count is meant", True),
    ("I'm not sure which of these forms you want", False),
    ("I don't know which method your class uses", False),
    ("I know which one is right", False),
    ("which one is right? The first.", False),
])
def test_undecided_between_words(clause, undecided):
    assert (UNDECIDED_BETWEEN.search(clause) is not None) == undecided


@pytest.mark.parametrize("clause, low", [
    ("Confidence in the boxed answer: low.", True),
    ("Confidence: very low", True),
    ("certainty about this count - fairly low", True),
    ("Confidence: high — I checked each case twice.", False),
    ("Confidence: 0.9", False),
    ("the lower confidence bound is 3", False),
])
def test_confidence_in_words(clause, low):
    assert below_even_belief(clause, {"30"}) == low


@settings(max_examples=40, deadline=None)
@given(answer=st.integers(2, 99_999), delta=st.integers(1, 500),
       doubt=st.sampled_from(["I don't know which one to trust.", "I can't tell which is right.",
                              "I haven't worked out which of the two has the slip."]))
def test_a_second_result_left_undecided_pays_nothing(answer, delta, doubt):
    """Any answer and any other result: "\\boxed{a} ... Check: b. <undecided>" pays nothing, and the same check
    giving a itself, without the doubt, pays."""
    score = scorer(MathAccuracy, "Compute it.")
    other = answer + delta
    assert score(f"So the result is $\\boxed{{{answer}}}$.\n\nCheck by another route: {other}. {doubt}", str(answer)) == 0.0
    assert score(f"So the result is $\\boxed{{{answer}}}$.\n\nCheck by another route: {answer} ✓.", str(answer)) == 1.0


@settings(max_examples=40, deadline=None)
@given(answer=st.integers(2, 99_999), delta=st.integers(1, 500),
       label=st.sampled_from(["In short", "TL;DR", "Bottom line", "**Summary:**"]))
def test_a_summary_line_other_value(answer, delta, label):
    """Any answer: a one-line summary stating another value after it concludes another value; one restating the
    answer does not."""
    label = label if label.endswith(":**") else label + ":"
    text = f"$\\boxed{{{answer}}}$\n\n{label} {answer + delta} items."
    same = lambda value: value.replace(",", "") == str(answer)  # noqa: E731
    assert summary_concludes_other(text, text.index("}$") + 1, str(answer), same)
    text = f"$\\boxed{{{answer}}}$\n\n{label} {answer} items."
    assert not summary_concludes_other(text, text.index("}$") + 1, str(answer), same)


RECT = "A rectangle has perimeter 36 cm and length 11 cm. What is its width, in cm?"
RECT_WORK = "$2(11 + w) = 36 \\Rightarrow 11 + w = 18 \\Rightarrow w = \\boxed{7}$ cm.\n\n"

FOLLOW_UP_KEY_CASES = [  # (completion, expected score) for the gold 7
    (RECT_WORK + "Check your understanding: if the perimeter were 40 cm with the same length, what would the width be? *(Answer: 9 cm.)*", 1.0),
    (RECT_WORK + "Try this one yourself: a perimeter of 50 cm and length 15 cm -- what is the width? (Solution: 10)", 1.0),
    # a bracketed answer that keys no exercise handed to the reader, or a key after a statement, is read as before
    (RECT_WORK + "Hmm, I may have slipped. (Answer: 9 cm.)", 0.0),
    (RECT_WORK + "Check your understanding: the width is 9 cm. (Answer: 9 cm.)", 0.0),
]


@pytest.mark.parametrize("completion, expected", FOLLOW_UP_KEY_CASES)
def test_the_key_of_an_exercise_handed_to_the_reader(completion, expected):
    assert scorer(MathAccuracy, RECT)(completion, "7") == expected


DIVISORS = "How many positive divisors does 48 have?"
DIVISORS_WORK = "$48 = 2^4 \\cdot 3$, so it has $(4+1)(1+1) = \\boxed{10}$ positive divisors.\n\n"

UNASKED_CASES = [  # (completion, expected score) for the gold 10
    (DIVISORS_WORK + "Bonus (not part of the question): their sum is $(1+2+4+8+16)(1+3) = 31 \\cdot 4 = 124$.", 1.0),
    (DIVISORS_WORK + "**Extra (not asked):** counting negative divisors too gives 20.", 1.0),
    # no such label: another count after the answer competes with it; a doubt in the labelled line is still read
    (DIVISORS_WORK + "Bonus: counting negative divisors too, it has 20. Not sure which count is meant.", 0.0),
    (DIVISORS_WORK + "Bonus (not part of the question): I'm not sure the count above is right.", 0.0),
]


@pytest.mark.parametrize("completion, expected", UNASKED_CASES)
def test_a_line_labelled_beyond_the_question(completion, expected):
    assert scorer(MathAccuracy, DIVISORS)(completion, "10") == expected


BALLOONS = "Sam buys 2 balloons for each of his 12 friends. How many balloons does he buy?"

INTENDED_CASES = [  # (completion, expected score) for the gold 24
    ("12 × 2 = 24\n#### 24\n\nNote: if Sam keeps 2 for himself, that's 26, so 26 is probably the intended answer.", 0.0),
    ("12 × 2 = 24\n#### 24\n\nOn reflection 26 is most likely the expected answer.", 0.0),
    ("12 × 2 = 24\n#### 24\n\nNote: if Sam kept 2 for himself he'd need 26, but he buys them for his friends, so 24 is the intended answer.", 1.0),
]


@pytest.mark.parametrize("completion, expected", INTENDED_CASES)
def test_another_value_named_the_intended_answer(completion, expected):
    assert scorer(MathAccuracy, BALLOONS)(completion, "24") == expected


MI = ("A 55-year-old man has crushing chest pain. The ECG shows ST elevation in leads II, III and aVF. Which coronary "
      "artery is most likely occluded?\nA. Left anterior descending artery\nB. Left circumflex artery\nC. Right coronary artery\n"
      "D. Left main coronary artery")
MI_WORK = "Inferior ST elevation (II, III, aVF) usually means the right coronary artery.\n\n**Answer: C**\n\n"

SHARE_CASES = [  # (completion, expected score) for the gold C
    (MI_WORK + "Confidence: C 50 %, B 50 % -- a left-dominant circulation would make it the circumflex.", 0.0),
    (MI_WORK + "Probabilities: B 0.6, C 0.4.", 0.0),
    # the answer's share above one half, or a single confidence figure that is high
    (MI_WORK + "Confidence: C 85 %, B 15 % -- left dominance is uncommon.", 1.0),
    (MI_WORK + "Confidence: 90 %.", 1.0),
]


@pytest.mark.parametrize("completion, expected", SHARE_CASES)
def test_a_belief_split_over_letters(completion, expected):
    assert scorer(ChoiceAccuracy, MI)(completion, "C") == expected


@settings(max_examples=40, deadline=None)
@given(share=st.integers(1, 99), other=st.sampled_from("ABD"))
def test_a_letter_share_decides_by_one_half(share, other):
    """Whatever the split, "Confidence: C s %, X (100 - s) %" keeps C exactly when s is above one half."""
    assert letter_at_even_or_less(f"Confidence: C {share} %, {other} {100 - share} %.", "C") == (share <= 50)
