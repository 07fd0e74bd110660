"""What ``holdout98`` (written blind: dataset conventions in depth -- MedQA, MMLU, GPQA, ARC, AQuA-RAT, LogiQA, GSM8K,
MATH, AIME -- and the hacks a policy trained on each would find) showed, tables of realistic output both ways:

* **a unit rate, then the asked count of that unit, is a step, not a case split**
  (``alternative_branches._scaled_from_unit``): GSM8K-style "In one week she reads 200 pages. In two weeks, Maria reads
  400 pages." states the rate and then the answer; two branches under the same condition word ("For even n: 45. For
  odd n: 42.", "In a leap year ...; in a common year ...") are still alternatives.
* **two letters joined by "or" / "and", each written with its own option text, are one list**
  (``undecided.joined_with_own_texts``): AQuA-RAT's "So the answer is (B) Rs. 600 or (A) Rs. 576, depending on
  convention." offers two options, as "(B) or (A)" does; the letter with its text alone, or followed by a reason about
  another option, is still one answer.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.alternative_branches import _scaled_from_unit
from polyreward.verifiers.undecided import joined_with_own_texts

PAGES = "Maria reads 24 pages every weekday and 40 pages on each weekend day. How many pages does she read in two weeks?"
pages = scorer(MathAccuracy, PAGES, gold="400")
PRINTER = "A printer prints 15 pages per minute. How many pages does it print in 8 minutes?"
printer = scorer(MathAccuracy, PRINTER, gold="120")


@pytest.mark.parametrize("completion, paid", [
    ("In one week she reads 5 × 24 = 120 pages on weekdays and 2 × 40 = 80 on the weekend, 200 pages in total. "
     "In two weeks, Maria reads 400 pages.", 1.0),
    ("In one week she reads 200 pages. In two weeks she reads 400 pages.", 1.0),
    ("For one week she reads 200 pages. For two weeks she reads 400 pages.", 1.0),
    ("In 1 week she reads 200 pages. In 2 weeks she reads 400 pages.", 1.0),
    ("In a week she reads 200 pages; in 2 weeks, 400 pages.", 1.0),
    ("In one week: 200 pages. In two weeks: 400 pages.", 1.0),
    ("En una semana lee 200 páginas. En dos semanas lee 400 páginas.", 1.0),
    # still alternatives or a second value
    ("In a leap year she reads 400 pages; in a common year, 392.", 0.0),
    ("In one week she reads 200 pages. In two weeks she reads 400 pages, or 392 if she skips a Sunday.", 0.0),
    ("In one week she reads 200 pages. In two weeks she reads 400 pages. In three weeks, 600.", 0.0),
    ("In two weeks she reads 400 pages. In two weeks with a holiday she reads 392 pages.", 0.0),
])
def test_a_unit_rate_then_the_asked_count(completion, paid):
    assert pages(completion) == paid


@pytest.mark.parametrize("completion, paid", [
    ("In one minute it prints 15 pages. In 8 minutes it prints 120 pages.", 1.0),
    ("For 1 minute: 15 pages. For 8 minutes: 8 × 15 = 120 pages.", 1.0),
    ("In one minute it prints 15 pages. In 8 minutes it prints 120 pages — or 112 if it warms up first.", 0.0),
    ("With one cartridge it prints 15 pages a minute. With two cartridges, 120.", 0.0),  # "with": a condition, not a rate
])
def test_a_unit_rate_in_other_units(completion, paid):
    assert printer(completion) == paid


UNITS = st.sampled_from(["week", "day", "hour", "minute", "ticket", "box", "month", "lap"])
COUNTS = st.sampled_from(["two", "three", "ten", "2", "12", "4.5"])


@given(unit=UNITS, count=COUNTS, other=UNITS)
@settings(max_examples=60, deadline=None)
def test_scaled_from_unit_reads_one_unit_and_a_count_of_the_same(unit, count, other):
    plural = other + ("es" if other.endswith("x") else "s")
    assert _scaled_from_unit(f" one {unit} it is 5", f" {count} {plural} it is 10") == (other == unit)
    assert not _scaled_from_unit(f" {count} {plural} it is 10", f" one {unit} it is 5")  # the count first: no rate


@given(a=st.integers(2, 500), b=st.integers(2, 500), unit=UNITS)
@settings(max_examples=30, deadline=None)
def test_the_scaled_branch_pays_its_own_value_only(a, b, unit):
    text = f"In one {unit} it makes {a} items. In three {unit}s it makes {b} items."
    assert pages(text, gold=str(b)) == 1.0
    if a != b:
        assert pages(text, gold=str(a)) == 0.0


AQUA = ("A shopkeeper sells an article for Rs. 720 at a profit of 20%. What is its cost price?\n"
        "Answer choices: (A) Rs. 576 (B) Rs. 600 (C) Rs. 620 (D) Rs. 640 (E) Rs. 864")
aqua = scorer(ChoiceAccuracy, AQUA, gold="B")
GRAVES = ("A 23-year-old woman has palpitations, a diffuse nontender goiter and proptosis. Which is the most likely cause?\n"
          "A. Toxic multinodular goiter\nB. Subacute granulomatous thyroiditis\nC. Graves disease\nD. Factitious thyrotoxicosis\n"
          "E. TSH-secreting pituitary adenoma")
graves = scorer(ChoiceAccuracy, GRAVES, gold="C")


@pytest.mark.parametrize("completion, paid", [
    ("If 20% is on cost, CP = 720/1.2 = 600. If 20% is on selling price, CP = 720 × 0.8 = 576. So the answer is (B) Rs. 600 "
     "or (A) Rs. 576, depending on convention.", 0.0),
    ("So the answer is (B) Rs. 600 or (A) Rs. 576.", 0.0),
    ("So the answer is B) Rs. 600 or A) Rs. 576.", 0.0),
    ("So the answer is (B) 600 or (A) 576.", 0.0),  # the option's number alone
    ("So the answer is (B) Rs. 600 or possibly (A) Rs. 576.", 0.0),
    ("So the answer is (B) Rs. 600 — or (A) Rs. 576, depending on convention.", 0.0),
    ("Answer: (B) Rs. 600 or (A) Rs. 576", 0.0),
    ("So the answer is (A) Rs. 576 or (B) Rs. 600.", 0.0),
    # one answer
    ("CP = 720/1.2 = 600. The answer is (B) Rs. 600.", 1.0),
    ("The answer is (B) Rs. 600 and not (A) Rs. 576.", 1.0),
    ("The answer is (B) Rs. 600 or 5/6 of the selling price.", 1.0),
    ("The answer is (B) Rs. 600; (A) Rs. 576 would be the cost if the profit were on the selling price.", 1.0),
    ("Answer: (B) Rs. 600 (not (A) Rs. 576).", 1.0),
    ("La respuesta es (B) Rs. 600.", 1.0),
    # two options weighed before the answer, not offered as it
    ("Comparing (A) Rs. 576 and (B) Rs. 600, the answer is (B) Rs. 600.", 1.0),
    ("Between (A) Rs. 576 or (B) Rs. 600, the right one is B.", 1.0),
    ("(A) Rs. 576 and (B) Rs. 600 are the two candidates; the answer is (B) Rs. 600.", 1.0),
])
def test_two_letters_with_their_texts_joined_by_or(completion, paid):
    assert aqua(completion) == paid


@pytest.mark.parametrize("completion, paid", [
    ("The answer is C) Graves disease and E) TSH-secreting pituitary adenoma.", 0.0),
    ("The answer is (C) Graves disease or (E) TSH-secreting pituitary adenoma.", 0.0),
    ("The answer is (C) Graves disease, and (E) is ruled out by the normal TSH.", 1.0),
    ("The answer is (C) Graves disease and not (A) Toxic multinodular goiter.", 1.0),
    ("Answer: (C) Graves disease. (A) or (E) would not explain the proptosis.", 1.0),
    ("The answer is (C) Graves disease.", 1.0),
])
def test_two_vignette_options_with_their_texts(completion, paid):
    assert graves(completion) == paid


OPTIONS = {"A": "Rs. 576", "B": "Rs. 600", "C": "Rs. 620", "D": "Rs. 640", "E": "Rs. 864"}


@given(first=st.sampled_from("ABCDE"), second=st.sampled_from("ABCDE"), join=st.sampled_from(["or", "and", "or possibly", ", or"]),
       bracket=st.booleans())
@settings(max_examples=80, deadline=None)
def test_joined_with_own_texts_needs_two_letters_and_a_text(first, second, join, bracket):
    mark = (lambda x: f"({x})") if bracket else (lambda x: f"{x})")
    spaced = join if join.startswith(",") else " " + join
    view = f"So the answer is {mark(first)} {OPTIONS[first]}{spaced} {mark(second)} {OPTIONS[second]}."
    assert joined_with_own_texts(view, first, "ABCDE", OPTIONS, view.index(mark(first))) == (first != second)
    bare = f"So the answer is {mark(first)}{spaced} {mark(second)}."  # no text between: left to the older list rules
    assert not joined_with_own_texts(bare, first, "ABCDE", OPTIONS, bare.index(mark(first)))


@given(junk=st.text(max_size=300), letter=st.sampled_from("ABCDE"))
@settings(max_examples=80, deadline=None)
def test_joined_with_own_texts_on_hostile_text(junk, letter):
    text = f"The answer is ({letter}) {OPTIONS[letter]} {junk}"
    assert joined_with_own_texts(text, letter, "ABCDE", OPTIONS, len("The answer is ")) in (True, False)
