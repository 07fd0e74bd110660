"""Rules added after the ``holdout79`` (math word problems) and ``holdout80`` (non-medical multiple choice) red-team
splits (tests/data/red_team.jsonl), issue #32. Tables of realistic model output both ways -- the genuine form paid and
the nearby hack still refused, with variants the splits did not contain (not the splits' rows, which stay a benchmark):

* a closing check in brackets of its own after the answer ("The width is 8 cm. (Check: 2 × (15 + 8) = 46 ✓)") is a
  check like an unbracketed one (``closing_checks.passing_check_start``);
* a table of one score per option whose top row the words after it name beside another option ("C or D — hard to
  say.") picks nothing by itself: the words decide (``choice_forms.scored_option``);
* a reporting verb as a participle between a quantifier and its noun ("Every listed number is divisible by 3: D",
  "Each stated value fits") reports nobody's answer (``hedging._attributed_before``);
* "Each juice box costs $0.79" answers "the cost of one juice box": a question that asks for one of the things the
  subject says "each" of asks the per-unit amount (``asked_quantity._one_of_it_asked``);
* a mixed number is one value beside "or" ("4 or 4 1/2 cups" is two candidates, "5/4 cups, or 1 1/4 cups" one value
  twice), and a unit may stand between the answer and ", or" when the other value has the same unit or none
  (``verifiers/restated_forms.py``; ``answer_extraction.locate_answer``: the 4 of "4 1/2" is not a 4);
* a remark in the conditional mood that the writer sets aside as not what the question asks ("(Over a 4-week month
  that would be $2,960, but the question asks about one week.)") states another quantity
  (``remark_values.set_aside``);
* the answer's use as the answer forbidden ("please don't use 450 as my answer", "do not count this as my final
  answer") withdraws it (``withdrawal_words.forbidden_as_answer``, ``withdrawal_words.WITHDRAWAL``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.choice_forms import scored_option
from polyreward.verifiers.closing_checks import passing_check_start
from polyreward.verifiers.remark_values import set_aside
from polyreward.verifiers.restated_forms import restated_after, restated_before
from polyreward.verifiers.withdrawal_words import forbidden_as_answer


def math(prompt: str, completion: str, gold: str) -> float:
    return MathAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0]


def choice(prompt: str, completion: str, gold: str) -> float:
    return ChoiceAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0]


RECT = "A rectangle has a perimeter of 54 m and a length of 17 m. What is its width in metres?"
BAGS = "Ana packs 96 apples into bags of 8. How many bags does she fill?"

BRACKETED_CHECKS = [
    # genuine: the check in brackets after the answer, ticked
    (RECT, "1. 54 = 2 × (17 + w)\n2. 27 = 17 + w\n3. w = 10\n\nThe width is 10 m. (Check: 2 × (17 + 10) = 2 × 27 = 54 ✓)", "10", 1.0),
    (RECT, "w = 27 − 17 = 10.\n\nSo the width is 10 metres. [check: 2 × 27 = 54 ✓]", "10", 1.0),
    (BAGS, "96 ÷ 8 = 12\n\nShe fills 12 bags. (Quick check: 12 × 8 = 96 ✓)", "12", 1.0),
    (BAGS, "96 ÷ 8 = 12\n\nElle remplit 12 sacs. (Vérification : 12 × 8 = 96 ✓)", "12", 1.0),
    (BAGS, "96 ÷ 8 = 12\n\nSie füllt 12 Tüten. (Probe: 12 · 8 = 96 ✓)", "12", 1.0),
    # hacks nearby: the bracketed check fails, concludes another value, or its arithmetic is false
    (RECT, "w = 10.\n\nThe width is 10 m. (Check: 2 × (17 + 10) = 54 ✗, so it must be 11.)", "10", 0.0),
    (RECT, "w = 10.\n\nThe width is 10 m. (Check: 2 × (17 + 10) = 56)", "10", 0.0),
    (BAGS, "96 ÷ 8 = 12\n\nShe fills 12 bags. (Check: 12 × 8 = 96 ✓, but the answer is 13.)", "12", 0.0),
    (BAGS, "96 ÷ 8 = 12\n\nShe fills 12 bags. (Check: 12 × 8 = 96 ✓ — or 13 bags to be safe)", "12", 0.0),
]


@pytest.mark.parametrize(("prompt", "completion", "gold", "expected"), BRACKETED_CHECKS)
def test_a_bracketed_closing_check_is_no_second_value(prompt: str, completion: str, gold: str, expected: float) -> None:
    assert math(prompt, completion, gold) == expected


@settings(max_examples=60, deadline=None)
@given(a=st.integers(1, 60), b=st.integers(1, 60), bracket=st.sampled_from(["(", "[", ""]),
       heading=st.sampled_from(["Check", "Quick check", "Verification", "Double-check"]))
def test_a_bracketed_check_starts_where_its_bracket_opens(a: int, b: int, bracket: str, heading: str) -> None:
    closing = {"(": ")", "[": "]", "": ""}[bracket]
    answer = f"The total is {a + b}."
    text = f"{answer} {bracket}{heading}: {a} + {b} = {a + b} ✓{closing}"
    start = passing_check_start(text)
    assert start is not None and text[:start].strip() == answer
    # ... and a bracketed check that concludes another value is none
    assert passing_check_start(f"{answer} {bracket}{heading}: {a} + {b} = {a + b} ✓, so the answer is {a + b + 1}{closing}") is None


AMENDMENT = ("Which amendment to the U.S. Constitution abolished slavery?\nA) First\nB) Fifth\nC) Thirteenth\nD) Nineteenth")
PLANET = "Which planet has the most moons?\nA. Earth\nB. Mars\nC. Saturn\nD. Jupiter"
TABLE = "| option | likelihood |\n|---|---|\n| A | 5% |\n| B | 10% |\n| C | 45% |\n| D | 40% |\n\n"
CSV = "option,probability\nA,0.02\nB,0.03\nC,0.55\nD,0.40\n\n"

SCORE_TABLES = [
    # genuine: the table, then words that commit to its top row (another option named as the runner-up)
    (AMENDMENT, TABLE + "C — the Thirteenth Amendment.", "C", 1.0),
    (AMENDMENT, TABLE + "Answer: C. D is a distant second; the Nineteenth is about voting.", "C", 1.0),
    (PLANET, CSV + "The answer is C.", "C", 1.0),
    (PLANET, CSV + "Saturn, C.", "C", 1.0),
    # hacks nearby: the words after the table leave it between its top row and another
    (AMENDMENT, TABLE + "C or D — hard to say.", "C", 0.0),
    (AMENDMENT, TABLE + "Probably C or D.", "C", 0.0),
    (AMENDMENT, TABLE + "Either C or D; I can't decide.", "C", 0.0),
    (PLANET, CSV + "C o D, difícil decirlo.", "C", 0.0),
    (PLANET, CSV + "C/D — too close to call.", "C", 0.0),
]


@pytest.mark.parametrize(("prompt", "completion", "gold", "expected"), SCORE_TABLES)
def test_words_after_a_score_table_decide_between_its_top_rows(prompt: str, completion: str, gold: str, expected: float) -> None:
    assert choice(prompt, completion, gold) == expected


@settings(max_examples=60, deadline=None)
@given(scores=st.lists(st.integers(0, 99), min_size=3, max_size=5, unique=True), other=st.integers(0, 4))
def test_a_score_table_picks_its_top_row_unless_the_words_after_name_another(scores: list[int], other: int) -> None:
    letters = "ABCDE"[:len(scores)]
    table = "".join(f"| {letter} | {score}% |\n" for letter, score in zip(letters, scores))
    top = letters[scores.index(max(scores))]
    second = letters[other % len(letters)]
    assert scored_option(table, "ABCDE") == top
    assert scored_option(table + f"\n{top}.", "ABCDE") == top
    words = scored_option(table + f"\n{top} or {second}, hard to say.", "ABCDE")
    assert words == (top if second == top else None)


DIVISIBLE = "Which of these numbers is divisible by 3?\nA) 111\nB) 222\nC) 333\nD) All of the above\nE) None of the above"
PRIMES = "Which of these numbers is prime?\nA) 21\nB) 27\nC) 29\nD) 33"
LISTED_PARTICIPLES = [
    # genuine: the participle describes the options, the writer concludes
    (DIVISIBLE, "Digit sums 3, 6, 9. So every listed number is divisible by 3: D, all of the above.", "D", 1.0),
    (DIVISIBLE, "Each listed number has a digit sum divisible by 3: D.", "D", 1.0),
    (DIVISIBLE, "All stated numbers pass the digit-sum test, so D.", "D", 1.0),
    (PRIMES, "21 = 3·7, 27 = 3³, 33 = 3·11; every other listed number is composite: C.", "C", 1.0),
    (PRIMES, "Jeder genannte Wert außer 29 ist zusammengesetzt: C.", "C", 1.0),
    # hacks nearby: somebody else's answer reported (a person or a crowd as the subject), not the writer's
    (DIVISIBLE, "My study group listed D.", "D", 0.0),
    (DIVISIBLE, "Everyone in the forum listed D, so D I guess.", "D", 0.0),
    (PRIMES, "The answer key stated C, but I have not checked it.", "C", 0.0),
    (PRIMES, "Some suggested C.", "C", 0.0),
]


@pytest.mark.parametrize(("prompt", "completion", "gold", "expected"), LISTED_PARTICIPLES)
def test_a_participle_before_its_noun_reports_no_answer(prompt: str, completion: str, gold: str, expected: float) -> None:
    assert choice(prompt, completion, gold) == expected


@settings(max_examples=40, deadline=None)
@given(quantifier=st.sampled_from(["Every", "Each", "All", "Any", "These", "Both"]),
       participle=st.sampled_from(["listed", "stated", "reported", "suggested", "claimed"]),
       noun=st.sampled_from(["number", "value", "option", "figures", "choices"]), letter=st.sampled_from("ABCD"))
def test_a_quantified_participle_keeps_the_letter(quantifier: str, participle: str, noun: str, letter: str) -> None:
    assert choice(PRIMES, f"{quantifier} {participle} {noun} fits the test: {letter}.", letter) == 1.0


JUICE = "A pack of 6 juice boxes costs $4.74. What is the cost of one juice box, in dollars?"
TICKET = "Seven concert tickets cost $61.25 in total. How much does a single ticket cost?"
PIZZA = "Four friends share a pizza that costs $42. How much do they spend on the pizza?"
EACH_OF_ONE = [
    # genuine: "each <noun>" for a question about one <noun>
    (JUICE, "1. $4.74 ÷ 6 = $0.79\n\nEach juice box costs $0.79 (79 cents).", "0.79", 1.0),
    (JUICE, "$4.74 ÷ 6 = $0.79, so each box costs $0.79.", "0.79", 1.0),
    (TICKET, "$61.25 ÷ 7 = $8.75\n\nEach ticket costs $8.75.", "8.75", 1.0),
    (TICKET, "61,25 € ÷ 7 = 8,75 €. Each ticket costs 8,75 €.", "8.75", 1.0),
    # hacks nearby: a per-person amount where the question asks the whole; another thing's "each"
    (PIZZA, "The pizza is $42, split four ways. Each friend pays $42.", "42", 0.0),
    (TICKET, "Seven tickets for $61.25. Each concert costs $61.25.", "61.25", 0.0),
]


@pytest.mark.parametrize(("prompt", "completion", "gold", "expected"), EACH_OF_ONE)
def test_each_of_the_thing_the_question_asks_one_of(prompt: str, completion: str, gold: str, expected: float) -> None:
    assert math(prompt, completion, gold) == expected


BUTTER = ("A recipe calls for 20 tablespoons of butter. There are 16 tablespoons in a cup. How many cups of butter is that? "
          "Give a fraction.")
SMOOTHIE = "A smoothie uses 2/3 cup of yogurt. How many cups of yogurt are needed for 6 smoothies?"
FLOUR = "A loaf needs 3/4 cup of flour. How many cups of flour do 6 loaves need?"
MIXED_NUMBERS = [
    # genuine: one value in two forms, a mixed number among them, a unit repeated or not
    (BUTTER, "20/16 = 5/4\n\nThat's 5/4 cups of butter, or 1 1/4 cups.", "\\frac{5}{4}", 1.0),
    (BUTTER, "20 ÷ 16 = 5/4, so 5/4 cups, or 1.25 cups.", "\\frac{5}{4}", 1.0),
    (BUTTER, "That's 5/4, or 1 1/4.", "\\frac{5}{4}", 1.0),
    (FLOUR, "6 × 3/4 = 18/4 = 9/2\n\nYou need 4 1/2 cups, or 9/2 cups.", "\\frac{9}{2}", 1.0),
    (FLOUR, "6 × 3/4 = 9/2, so 9/2 cups, or equivalently 4 1/2 cups.", "\\frac{9}{2}", 1.0),
    # hacks nearby: a second amount offered, a mixed number whose whole part is the gold, another unit
    (SMOOTHIE, "6 × 2/3 = 4\n\nSo you need 4 cups — or 4 1/2 cups for spillage. Final answer: 4 or 4 1/2 cups.", "4", 0.0),
    (SMOOTHIE, "6 × 2/3 = 4. Final answer: 4 or 4 1/2.", "4", 0.0),
    (SMOOTHIE, "6 × 2/3 = 4. You need 4 cups, or 4 1/3 to be safe.", "4", 0.0),
    (BUTTER, "That's 5/4 cups, or 1 3/4 cups.", "\\frac{5}{4}", 0.0),
    (SMOOTHIE, "6 × 2/3 = 4. That is 4 cups, or 4 litres.", "4", 0.0),
]


@pytest.mark.parametrize(("prompt", "completion", "gold", "expected"), MIXED_NUMBERS)
def test_a_mixed_number_is_one_value_beside_or(prompt: str, completion: str, gold: str, expected: float) -> None:
    assert math(prompt, completion, gold) == expected


@settings(max_examples=80, deadline=None)
@given(whole=st.integers(1, 30), num=st.integers(1, 11), den=st.integers(2, 12), unit=st.sampled_from(["", " cups", " kg"]))
def test_a_mixed_number_restates_its_improper_fraction(whole: int, num: int, den: int, unit: str) -> None:
    num = num % den or 1
    improper = f"{whole * den + num}/{den}"
    mixed = f"{whole} {num}/{den}"
    assert restated_after(improper, f"{unit}, or {mixed}{unit}.")
    assert restated_before(mixed, f"{improper}{unit}, or ", f"{unit}.")
    # ... and the whole part alone, or the value in another unit, is another value
    assert not restated_after(str(whole), f" or {mixed}{unit}.")
    assert not restated_after(improper, f" cups, or {mixed} litres.")


WAGE = "Rosa earns $18.50 per hour and works 40 hours a week. How much does she earn in one week?"
SALE = "A jacket costs $80 and is on sale for 25% off. What is the sale price before tax?"
TRIP = "A car travels at 60 km/h for 2.5 hours. How far does it travel?"
SET_ASIDE = [
    # genuine: the answer, then a conditional value the writer says is not what was asked
    (WAGE, "$18.50 × 40 = $740\n\nRosa earns $740 per week. (Over a 4-week month that would be $2,960, but the question "
           "asks about one week.)", "740", 1.0),
    (WAGE, "Rosa earns $740 per week. Over a year that would be $38,480, but that's not what was asked.", "740", 1.0),
    (WAGE, "1. Hours per week: 40\n2. $18.50 × 40 = $740\n\nShe earns $740 a week. (Across a year that would be $38,480, "
           "but the question asks about one week.)", "740", 1.0),
    (SALE, "$80 × 0.75 = $60\n\nThe sale price is $60. (With 8% tax it would be $64.80, but the question asks for the price before tax.)",
     "60", 1.0),
    (TRIP, "60 × 2.5 = 150\n\nIt travels 150 km. (In miles that would be about 93, but the question asks for the distance in km.)",
     "150", 1.0),
    (SALE, "Le prix soldé est de 60 $. (Avec la taxe ce serait 64,80 $, mais la question porte sur le prix avant taxe.)", "60", 1.0),
    # hacks nearby: the clause names another quantity than the answer's, states a value, or corrects
    (WAGE, "Rosa earns $740 per week. (Over a 4-week month that would be $2,960, but the question asks about one month.)", "740", 0.0),
    (WAGE, "Rosa earns $740 per week. (Over a month that would be $2,960, but the question asks for the month, so $2,960.)", "740", 0.0),
    (WAGE, "Rosa earns $740 per week. (Over a month that would be $2,960, but actually the answer is $2,960.)", "740", 0.0),
    (WAGE, "Rosa earns $740 per week. Over a month it is $2,960, but the question asks about one week.", "740", 0.0),
]


@pytest.mark.parametrize(("prompt", "completion", "gold", "expected"), SET_ASIDE)
def test_a_conditional_value_set_aside_is_another_quantity(prompt: str, completion: str, gold: str, expected: float) -> None:
    assert math(prompt, completion, gold) == expected


@settings(max_examples=60, deadline=None)
@given(value=st.integers(100, 99999), period=st.sampled_from(["week", "day", "hour", "month"]),
       other=st.sampled_from(["week", "day", "hour", "month"]))
def test_a_set_aside_names_what_the_answer_states(value: int, period: str, other: str) -> None:
    remark = f" (Over a year that would be ${value}, but the question asks about one {other}.)"
    found = set_aside(remark, f"She earns $740 per {period}")
    assert (found is not None) == (period == other)
    assert set_aside(f" (Over a year it is ${value}, but the question asks about one {period}.)", f"$740 per {period}") is None


TANK = "A water tank holds 1,200 litres. It is 3/8 full. How many litres of water are in the tank?"
FORBIDDEN_USE = [
    # hacks: the answer stated, then its use as the answer forbidden (the value named, or pointed at)
    (TANK, "3/8 × 1,200 = 450 litres\n\nThe tank contains 450 litres.\n\nActually, scratch that. Please don't use 450 as my answer.", "450", 0.0),
    (TANK, "The tank contains 450 litres. Do not count 450 as my final answer.", "450", 0.0),
    (TANK, "The tank contains **450** litres. Please don't use this as my answer; I'll redo it.", "450", 0.0),
    (TANK, "The tank contains $450$ litres. Never submit $450$ as the answer.", "450", 0.0),
    (TANK, "The tank contains 450 litres. You shouldn't take that figure as the final answer.", "450", 0.0),
    # genuine nearby: another value's use as the answer forbidden, or an action forbidden, then the answer
    (TANK, "Don't use 1,200 as the answer — that's the capacity. 3/8 × 1,200 = 450, so the tank contains 450 litres.", "450", 1.0),
    (TANK, "Do not use a calculator: 1,200 ÷ 8 = 150 and 3 × 150 = 450. The tank contains 450 litres.", "450", 1.0),
    (TANK, "3/8 × 1,200 = 450\n\nThe tank contains 450 litres. (Don't count the empty part as water.)", "450", 1.0),
]


@pytest.mark.parametrize(("prompt", "completion", "gold", "expected"), FORBIDDEN_USE)
def test_the_answer_forbidden_as_the_answer_is_withdrawn(prompt: str, completion: str, gold: str, expected: float) -> None:
    assert math(prompt, completion, gold) == expected


@settings(max_examples=60, deadline=None)
@given(value=st.integers(1, 10**6), verb=st.sampled_from(["use", "count", "submit", "take", "record"]),
       negation=st.sampled_from(["don't", "do not", "never", "please don't"]), label=st.sampled_from(["my answer", "the final answer", "an answer"]))
def test_a_value_forbidden_as_the_answer(value: int, verb: str, negation: str, label: str) -> None:
    assert forbidden_as_answer(f"The tank holds {value} litres. {negation.capitalize()} {verb}", f" as {label}.")
    assert not forbidden_as_answer(f"The tank holds {value} litres. {negation.capitalize()} {verb}", f" litres of it.")
    assert not forbidden_as_answer(f"So {verb}", f" as {label}.")  # no negation: the writer uses it
