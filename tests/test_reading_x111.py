"""Red team holdout111 (ranges, approximations, tolerances and supersets, written blind): the rules its misses led to.

* A rounding the prompt asks for closes the answer: with "Round your answer to the nearest minute", "to 3 significant
  figures", "correct to 2 decimal places" in the prompt, the rounded restatement that closes the completion ("41.67
  minutes. So the walk takes about 42 minutes.", "$\\frac{2}{7} \\approx 0.286$") is the answer, when it rounds the
  value read before it (``closing_remarks.rounding_asked``, read by ``math_answers.prepare_prediction``). Without
  such a prompt the value before the rounding stays the answer.
* A decimal written with a trailing ellipsis ("33.33...%") is a value the working shows, so "To the nearest whole
  percent, approximately 33%" rounds it (``rounded_final._NUMBER``).
* "about" opening a sentence or a clause after a semicolon ("≳ 40 cm, ≲ 45 cm; about 42 cm"), a comparison of
  nearness ("closer to 1/4") and the signs ≳ ≲ (``\\gtrsim``, ``\\lesssim``) give no value (``not_a_value``); after a
  label's colon ("Answer: about $10^5$ seconds") "about" still answers an approximate question.
* A bound after a verb other than a copula ("she baked at least 42 muffins") is no value, unless a verb of need or
  ability stands up to two words before it ("We need at least 5 colours", "He can buy at most 12 pens") or the
  clause names an extreme ("the fewest moves") (``not_a_value._bound_after_verb``).
* Two values offered as hanging on something the writer does not settle ("2.4 mL or 2.5 mL depending on the rounding
  convention") leave each one a branch; a conclusion after them ("The problem says round half up, so 2.5 mL.")
  settles it (``alternative_branches.depending_alternative_before``).
* A given of the prompt stated as the value of the closing sentence (after a copula, ending it: "but the mean of these
  scores is exactly 42.)") is the answer, not a given restated around another value (``givens.stated_as_value``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.closing_remarks import rounding_asked

WALK = "A 5 km walk at a steady 7.2 km/h takes how long? Round your answer to the nearest minute."
WALK_WORK = "Time = 5 / 7.2 h = 0.6944 h, and 0.6944 × 60 = 41.67 minutes.\n\n"
SEVENTHS = "Write $\\frac{2}{7}$ as a decimal correct to 3 significant figures."

ROUNDING_ASKED = [  # (prompt, completion, gold, expected)
    (WALK, WALK_WORK + "So the walk takes about 42 minutes.", "42", 1.0),
    (WALK, WALK_WORK + "That's approximately 42 minutes.", "42", 1.0),
    (SEVENTHS, "$2 \\div 7 = 0.285714\\ldots$\n\nTo 3 significant figures: $\\frac{2}{7} \\approx 0.286$.", "0.286", 1.0),
    ("What is $\\sqrt{6}$ rounded to the nearest tenth?", "So $\\sqrt{6} \\approx 2.4$.", "2.4", 1.0),
    # ... a rounding that is not the value's, and one the prompt does not ask for
    (WALK, WALK_WORK + "So the walk takes about 45 minutes.", "42", 0.0),
    (WALK, "It's 5 km at 7.2 km/h -- roughly 42 minutes, I'd guess, without working it out.", "42", 0.0),
    ("A 5 km walk at a steady 7.2 km/h takes how many minutes? Give the exact value as a fraction.",
     WALK_WORK + "So the walk takes about 42 minutes.", "42", 0.0),
]


@pytest.mark.parametrize("prompt, completion, gold, expected", ROUNDING_ASKED)
def test_a_rounding_the_prompt_asks_for_closes_the_answer(prompt, completion, gold, expected):
    assert scorer(MathAccuracy, prompt)(completion, gold) == expected


def test_rounding_asked_needs_a_prompt_that_asks_for_it():
    assert rounding_asked("41.67", WALK_WORK + "So about 42 minutes.", WALK) == "42"
    assert rounding_asked("41.67", WALK_WORK + "So about 42 minutes.", "How long does a 5 km walk at 7.2 km/h take?") is None
    assert rounding_asked("41.67", WALK_WORK + "So about 42 minutes.", "A round-robin of 5 km walks: how long is one?") is None
    assert rounding_asked("41.67", WALK_WORK + "So about 43 minutes.", WALK) is None


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=100, max_value=99_999), st.integers(min_value=1, max_value=99))
def test_a_rounding_asked_pays_its_rounded_value_and_no_other(whole, hundredths):
    value = whole + hundredths / 100
    rounded = round(value)
    if abs(value - rounded) == 0.5:
        return  # (a tie: the rounding convention decides)
    prompt = "How many minutes? Round your answer to the nearest minute."
    completion = f"The time is {value:.2f} minutes.\n\nSo it takes about {rounded} minutes."
    assert scorer(MathAccuracy, prompt)(completion, str(rounded)) == 1.0
    assert scorer(MathAccuracy, prompt)(completion, str(rounded + 1)) == 0.0


MARBLES = "A jar has 36 marbles, 12 of which are red. To the nearest whole percent, what percent of the marbles are red?"


@pytest.mark.parametrize("completion, expected", [
    ("12 / 36 = 1/3 ≈ 0.3333, i.e. 33.33...%.\n\nTo the nearest whole percent, approximately 33% of the marbles are red.", 1.0),
    ("12 / 36 = 1/3 ≈ 33.33…%.\n\nTo the nearest whole percent, approximately 33% are red.", 1.0),
    ("About a third of them, so approximately 33% of the marbles are red.", 0.0),
])
def test_a_decimal_shown_with_an_ellipsis_is_rounded_as_asked(completion, expected):
    assert scorer(MathAccuracy, MARBLES)(completion, "33") == expected


RIBBON = "A ribbon 168 cm long is cut into 4 equal pieces. How long is each piece, in cm?"
COINS = "Two fair coins are flipped. What is the probability that both land heads? Express your answer as a common fraction."


@pytest.mark.parametrize("prompt, completion, gold, expected", [
    (RIBBON, "168 / 4 — that's somewhere around 40.\n\nEach piece: ≳ 40 cm, ≲ 45 cm; about 42 cm.", "42", 0.0),
    (RIBBON, "Each piece is $\\gtrsim 42$ cm.", "42", 0.0),
    (RIBBON, "It's hard to be exact. About 42 cm.", "42", 0.0),
    (COINS, "Out of 20 imagined trials about 4 or 5 came up double heads, so the probability is between $\\frac{1}{5}$ and "
            "$\\frac{1}{4}$, closer to $\\frac{1}{4}$.", "\\frac{1}{4}", 0.0),
    (COINS, "The result is closer to $\\frac{1}{4}$ than to anything else I tried.", "\\frac{1}{4}", 0.0),
    # ... the close genuine answers
    (RIBBON, "168 / 4 = 42, so each piece is 42 cm long.", "42", 1.0),
    (RIBBON, "Each piece: 168 ÷ 4 = 42 cm; that's about what I expected.", "42", 1.0),
    (COINS, "HH is one of the four equally likely outcomes HH, HT, TH, TT, so the probability is $\\frac{1}{4}$.", "\\frac{1}{4}", 1.0),
    ("To the nearest power of 10, how many seconds are in one day?",
     "One day has 86,400 seconds, and the nearest power of ten is $10^5$.\n\nAnswer: about $10^5$ seconds.", "10^5", 1.0),
])
def test_about_opening_a_clause_closer_to_and_approximate_signs_give_no_value(prompt, completion, gold, expected):
    assert scorer(MathAccuracy, prompt)(completion, gold) == expected


MUFFINS = "A baker fills 6 trays with 7 muffins each. How many muffins did she bake?"
TILES = "A patio is 6 m by 7 m and is covered with 1 m by 1 m tiles. What is the least number of tiles needed?"


@pytest.mark.parametrize("prompt, completion, expected", [
    (MUFFINS, "6 × 7 = 42 on the trays, and maybe extras, so the most I can say is that she baked at least 42 muffins.", 0.0),
    (MUFFINS, "She baked no fewer than 42 muffins.", 0.0),
    (MUFFINS, "Counting the trays, the baker made at most 42 muffins.", 0.0),
    # ... a minimum or maximum stated with need, ability or an extreme, and the plain value
    (MUFFINS, "6 trays × 7 muffins = 42 muffins, so she baked 42 muffins.", 1.0),
    (TILES, "The area is 42 m², so we need at least 42 tiles.", 1.0),
    (TILES, "Each tile covers 1 m², so we need to buy at least 42 tiles.", 1.0),
    (TILES, "The fewest tiles: you must lay at least 42 tiles.", 1.0),
    ("How many pens can he buy with $84 at $2 each?", "84 / 2 = 42, so he can buy at most 42 pens.", 1.0),
])
def test_a_bound_after_a_verb_of_no_need_or_ability_is_no_value(prompt, completion, expected):
    assert scorer(MathAccuracy, prompt)(completion, "42") == expected


DOSE = ("A child needs 0.35 mL of a drug per kg and weighs 7 kg. The syringe is marked in tenths of a mL. Using standard "
        "rounding (round half up), what volume should be drawn up, in mL?")


@pytest.mark.parametrize("completion, expected", [
    ("Volume = 0.35 × 7 = 2.45 mL.\n\nTo the nearest tenth that's 2.4 mL or 2.5 mL depending on the rounding convention "
     "(round-half-even gives 2.4, round-half-up gives 2.5). Either is defensible at the bedside.", 0.0),
    ("It's 2.4 or 2.5, depending on how you round. I'd write 2.5.", 0.0),
    ("Volume = 2.45 mL, which rounds to 2.4 or 2.5 mL according to the convention used.", 0.0),
    # ... settled after, and a plain rounding
    ("Volume = 2.45 mL: 2.4 mL or 2.5 mL depending on the convention. The problem says round half up, so 2.5 mL.", 1.0),
    ("Volume = 0.35 × 7 = 2.45 mL. Rounding half up to the nearest tenth: 2.5 mL.", 1.0),
])
def test_two_values_hanging_on_something_unsettled_are_no_answer(completion, expected):
    assert scorer(MathAccuracy, DOSE)(completion, "2.5") == expected


SCORES = "The test scores of five students are 38, 40, 42, 44 and 46. What is the mean score?"


@pytest.mark.parametrize("completion, expected", [
    ("Sum = 38 + 40 + 42 + 44 + 46 = 210, and 210 / 5 = 42.\n\nThe mean score is 42. (If these five were a sample from a "
     "larger class, a 95% confidence interval for the class mean would be roughly 38 to 46, but the mean of these scores "
     "is exactly 42.)", 1.0),
    ("Sum = 210, so the mean is 210 / 5 = 42.", 1.0),
    ("Sum = 210 and the mean is 44.", 0.0),
])
def test_a_given_stated_as_the_closing_value_is_the_answer(completion, expected):
    assert scorer(MathAccuracy, SCORES)(completion, "42") == expected


def test_a_given_restated_around_the_answer_is_still_read_past():
    books = "In how many ways can 5 books be arranged on a shelf?"
    assert scorer(MathAccuracy, books)("There are 120 ways to arrange the 5 books on the shelf.", "120") == 1.0


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["baked", "sold", "counted", "picked", "made", "collected"]),
       st.sampled_from(["at least", "at most", "no fewer than", "no more than"]), st.integers(min_value=2, max_value=9_999))
def test_a_bound_after_a_plain_verb_never_pays_and_a_need_always_does(verb, bound, count):
    prompt = "How many muffins did she bake?"
    assert scorer(MathAccuracy, prompt)(f"She {verb} {bound} {count} muffins.", str(count)) == 0.0
    assert scorer(MathAccuracy, prompt)(f"So she {verb} {count} muffins.", str(count)) == 1.0
    assert scorer(MathAccuracy, "What is the least number of boxes needed?")(f"So we need at least {count} boxes.", str(count)) == 1.0


@pytest.mark.parametrize("completion, gold, expected", [
    # "about" opening a sentence hedges an exact count, not a value written at a scale (stop 61 merge:
    # test_integrity_math_forms' "About $\boxed{1\text{ million}}$ people." had become refused)
    ("About $\\boxed{1\\text{ million}}$ people.", "1000000", 1.0),
    ("About $\\boxed{3 \\times 10^8}$ m/s.", "300000000", 1.0),
    ("About 2.5 billion years. The answer is $\\boxed{2.5\\text{ billion}}$.", "2500000000", 1.0),
    ("The pieces: ≳ 40 cm, ≲ 45 cm; about $\\boxed{42}$ cm.", "42", 0.0),
    ("About $\\boxed{42}$ cm.", "42", 0.0),
])
def test_about_opening_hedges_an_exact_count_not_a_magnitude(completion, gold, expected):
    assert scorer(MathAccuracy, "Estimate it.")(completion, gold) == expected
