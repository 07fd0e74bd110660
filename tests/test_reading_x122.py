"""Red team holdout122 (numerals in words, other scripts and everyday formats; written blind): the rules its misses,
and the variants of its kinds tried by hand afterwards, led to.

* A number in English words inside the closing sentence is read as its digits would be: the line's last number
  (``Tom now has forty-two stickers.``, ``She turned fourteen in two thousand and twelve.``, ``**Each friend gets
  half a dozen doughnuts.**``), with decimals in words (``two point five``), dozens (``half a dozen``, ``two
  dozen``; a baker's dozen is no count of dozens) and percent (``Twenty-five percent``); a lone ``one`` and a number
  that is part of another quantity (``a dozen more than Tom``) are none (``math_normalize.spelled_numbers``,
  ``answer_extraction._extract_from_line``).
* An error of unknown size put on the value right after it (``about a half, maybe a bit less``, ``42, give or take``)
  names an estimate, not the value (``not_a_value._ESTIMATE_NAMED``).
* An amount in a currency's unit and its hundredths is one amount (``12 dollars and 50 cents`` is 12.50;
  ``answer_forms.money_in_two_units``).
* A Chinese numeral after an answer label and any verb (``答：小明需要四十二天读完。``) and Russian number words
  after ``Ответ:`` with their noun (``сорок два тюльпана``) are the answer (``number_locale``).
* The enclosed capitals NFKC leaves alone -- negative circled ``🅒`` and negative squared ``🅲`` -- are their letters
  (``reading._ENCLOSED_CAPITALS``).
* A later answer that names an option by its position or number alone (``Answer: option 1``, ``The correct option
  is the fourth.``) after another letter was read leaves no answer (``choice_forms.answered_by_position``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.answer_forms import money_in_two_units
from polyreward.verifiers.math_normalize import spelled_numbers, value_from_words

STICKERS = "Tom has 17 stickers. He buys 3 packs of 9 stickers and then gives 2 away. How many stickers does he have now?"
INSULIN = ("Which gland secretes insulin?\nA. Thyroid\nB. Pancreas\nC. Adrenal gland\nD. Pituitary gland\n\n"
           "Answer with the letter of the correct option.")
PRIMES = ("Which of the following is a prime number?\nA. 21\nB. 27\nC. 29\nD. 33\n\nAnswer with the letter of the correct option.")


@pytest.mark.parametrize("text, expected", [
    ("Tom now has forty-two stickers.", ["forty-two"]),
    ("She turned fourteen in two thousand and twelve.", ["fourteen", "two thousand and twelve"]),
    ("Each friend gets half a dozen doughnuts.", ["half a dozen"]),
    ("The mean is two point five.", ["two point five"]),
    ("Twenty-five percent of the students wear glasses.", ["Twenty-five percent"]),
    ("three-quarters of an hour", []),  # a fraction of a whole: the whole is another quantity
    ("Seven months: January and March.", ["Seven"]),
    ("That is the same one.", []),
    ("She has a dozen more than Tom.", []),
    ("It is a baker's dozen.", []),
    ("Hope this helps!", []),
])
def test_spelled_numbers_are_the_runs_of_number_words(text, expected):
    assert spelled_numbers(text) == expected


@pytest.mark.parametrize("words, value", [
    ("two point five", "2.5"), ("zero point seven five", "0.75"), ("negative one point five", "-1.5"),
    ("a dozen", "12"), ("half a dozen", "6"), ("three dozen", "36"), ("twenty-five percent", "25\\%"),
    ("two point", None), ("point five", None), ("a baker's dozen", None), ("dozen", None),
])
def test_value_from_words_reads_decimals_dozens_and_percent(words, value):
    assert value_from_words(words) == value


@pytest.mark.parametrize("completion, gold, expected", [
    ("17 + 27 = 44, minus 2.\n\nTom now has forty-two stickers.", "42", 1.0),
    ("17 + 27 = 44, minus 2.\n\nSo Tom has forty-two stickers, one for each day of the challenge.", "42", 1.0),
    ("17 + 27 = 44, minus 2.\n\nHe has forty-two stickers, not forty-three.", "42", 1.0),
    ("17 + 27 = 44, minus 2.\n\n**Tom ends up with forty-two stickers.**", "42", 1.0),
    ("Ana was born in 1998; add 14.\n\nShe turned fourteen in two thousand and twelve.", "2012", 1.0),
    ("24 ÷ 4.\n\n**Each friend gets half a dozen doughnuts.**", "6", 1.0),
    ("Sum = 10, count = 4.\n\nThe mean is two point five.", "2.5", 1.0),
    ("45/60 reduces by 15.\n\nIt is three quarters.", "\\frac{3}{4}", 1.0),
    ("45/60 reduces by 15.\n\nThe probability is three quarters of the remaining cases.", "\\frac{3}{4}", 0.0),
    ("17 + 27 = 44, minus 2 is 42.\n\nHope this helps one of you!", "42", 1.0),
    ("Pairing the two groups and counting each pairing once gives the total.\n\n> **Answer:** 42", "42", 1.0),
    # hacks: another value in words, two values, a value of another quantity, a hedge
    ("17 + 27 = 44, minus 2 = 42.\n\nTom now has forty-five stickers.", "42", 0.0),
    ("17 + 27 = 44, minus 2 = 42.\n\nHe has forty-one or forty-two stickers.", "42", 0.0),
    ("17 + 27 = 44, minus 2 = 42.\n\nHe might have forty-two or forty-three stickers.", "42", 0.0),
    ("6 × 2 = 12 eggs.\n\nWith the same again for the frosting, she uses two dozen eggs.", "12", 0.0),
    ("It looks like about forty-two, maybe a bit less -- I didn't count.", "42", 0.0),
    ("I am not sure he has forty-two stickers.", "42", 0.0),
])
def test_a_number_in_words_closing_the_text_is_read_as_its_digits(completion, gold, expected):
    assert scorer(MathAccuracy, STICKERS)(completion, gold) == expected


def test_a_percent_in_words_answers_a_question_that_asks_a_percent():
    glasses = scorer(MathAccuracy, "In a class of 40 students, 10 wear glasses. What percent of the students wear glasses?")
    assert glasses("10/40 = 1/4.\n\nTwenty-five percent of the students wear glasses.", "25") == 1.0
    assert glasses("10/40 = 1/4.\n\nTwenty-five percent, or maybe thirty percent, wear glasses.", "25") == 0.0
    assert glasses("10/40 = 1/4 = 25%.\n\nThirty percent of the students wear glasses.", "25") == 0.0


@pytest.mark.parametrize("completion, expected", [
    ("The answer is 42, give or take.", 0.0),
    ("It looks like about 42, maybe a bit less.", 0.0),
    ("Total: 42 stickers, maybe a bit more than last week.", 1.0),
    ("It is 42. Maybe a bit more context would help.", 1.0),
])
def test_an_error_of_unknown_size_after_the_value_names_an_estimate(completion, expected):
    assert scorer(MathAccuracy, STICKERS)(completion, "42") == expected


@pytest.mark.parametrize("completion, gold, expected", [
    ("62.50 ÷ 5\n\nEach friend pays 12 dollars and 50 cents.", "12.5", 1.0),
    ("Each pays 12 dollars and 5 cents.", "12.05", 1.0),
    ("The bill is 7 euros and 20 cents.", "7.2", 1.0),
    ("8 + 4 = 12, and with the bag fee he pays 12 dollars and 50 cents.", "12", 0.0),
])
def test_an_amount_in_a_unit_and_its_hundredths_is_one_amount(completion, gold, expected):
    assert scorer(MathAccuracy, "How many dollars does each friend pay?")(completion, gold) == expected


def test_money_in_two_units_reads_only_the_amount_whose_hundredths_is_the_number():
    line = "Each pays 12 dollars and 50 cents."
    assert money_in_two_units(line, line.index("50")) == "12.50"
    assert money_in_two_units(line, line.index("12")) is None
    priced = "They cost 2 dollars and 50 cents each."
    assert money_in_two_units(priced, priced.index("50")) is None


@pytest.mark.parametrize("completion, gold, expected", [
    ("一百二十六除以三，等于四十二。\n\n答：小明需要四十二天读完。", "42", 1.0),
    ("答：小明需要三十天，再加十二天。", "42", 0.0),
    ("答：小明需要四十二天或四十三天读完。", "42", 0.0),
    ("答：小明需要四十五天读完。", "42", 0.0),
    # a word that opens on 一 is no numeral: "一共" (altogether), "一起" (together) (stop 67)
    ("六乘七等于四十二。\n\n答：一共四十二个。", "42", 1.0),
    ("答：一起四十二个苹果。", "42", 1.0),
    ("答：一共四十二个。", "1", 0.0),
    ("答：一共四十五个。", "42", 0.0),
    ("答：一个。", "1", 1.0),
    ("Шесть рядов по семь.\n\nОтвет: сорок два тюльпана.", "42", 1.0),
    ("Ответ: сорок два или сорок три.", "42", 0.0),
    ("Ответ: сорок пять тюльпанов.", "42", 0.0),
])
def test_numerals_in_chinese_and_russian_words_after_an_answer_label(completion, gold, expected):
    assert scorer(MathAccuracy, "How many?")(completion, gold) == expected


@pytest.mark.parametrize("completion, expected", [
    ("The pancreas makes insulin in its beta cells.\n\nAnswer: 🅑", 1.0),
    ("Answer: 🅱", 1.0),
    ("Answer: Ⓑ", 1.0),
    ("Answer: 🅒", 0.0),
    ("Answer: 🅑 or 🅒", 0.0),
])
def test_enclosed_capitals_are_their_letters(completion, expected):
    assert scorer(ChoiceAccuracy, INSULIN)(completion, "B") == expected


@pytest.mark.parametrize("completion, prompt, gold, expected", [
    ("Many students answer B here, but the adrenal gland also regulates sugar.\n\nAnswer: option 3", INSULIN, "B", 0.0),
    ("Many students answer B here, but the vessel is an artery.\n\nAnswer: option 1", INSULIN, "B", 0.0),
    ("B is the textbook answer, but I'll pick the last one.", INSULIN, "B", 0.0),
    ("29 (C) has no divisor up to 5 -- but 29 is close to 30.\n\nThe correct option is the fourth.", PRIMES, "C", 0.0),
    # genuine: the position names the letter read, is denied, or is no answer
    ("Answer: B\n\nThe answer is the second option, B.", INSULIN, "B", 1.0),
    ("Answer: B (option 2)", INSULIN, "B", 1.0),
    ("Answer: B\n\nFinal answer: the second one.", INSULIN, "B", 1.0),
    ("**B. Pancreas**\n\nThe correct option is the second.", INSULIN, "B", 1.0),
    ("B is correct; the answer is not the first option.", INSULIN, "B", 1.0),
    ("Answer: B. Answer the first part: the pancreas makes it.", INSULIN, "B", 1.0),
    ("The answer is B. The first step is to recall the islet cells.", INSULIN, "B", 1.0),
    ("29 (C) is prime.\n\nThe correct option is the third.", PRIMES, "C", 1.0),
])
def test_a_later_answer_by_position_must_name_the_letter_read(completion, prompt, gold, expected):
    assert scorer(ChoiceAccuracy, prompt)(completion, gold) == expected


_NOUNS = st.sampled_from(["stickers", "apples", "days", "people", "cm", "points"])
_FILLER = st.text(alphabet=st.sampled_from("abcdefghij ,.;:!?()-\n"), max_size=60)


@settings(max_examples=40, deadline=None)
@given(noun=_NOUNS, filler=_FILLER)
def test_restating_the_answer_in_words_never_lowers_a_genuine_score(noun, filler):
    plain = f"17 + 27 - 2 = 42.\n\nTom has 42 {noun}."
    worded = f"17 + 27 - 2 = 42.\n\nTom has forty-two {noun}."
    score = scorer(MathAccuracy, STICKERS)
    assert score(worded, "42") >= score(plain, "42") or score(plain, "42") < 1.0
    assert score(f"{filler}\n\n{worded}", "42") >= 0.0


@settings(max_examples=40, deadline=None)
@given(filler=_FILLER, other=st.sampled_from(["forty-one", "forty-three", "two dozen", "four hundred", "forty-two hundred"]))
def test_another_value_in_words_after_the_gold_never_pays(filler, other):
    assert scorer(MathAccuracy, STICKERS)(f"17 + 27 - 2 = 42.{filler}\n\nTom now has {other} stickers.", "42") == 0.0
