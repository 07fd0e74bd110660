"""Red team holdout106 (correct answers in the notations real models and textbooks use, written blind): the rules
its misses led to.

* A matrix row break with extra vertical space (``-\\tfrac{1}{2} \\\\[2pt] -2 & 1``) is a row break
  (``math_normalize._ROW_SKIP``).
* A mixed number with a percent sign (``37\\tfrac{1}{2}\\%``) is that percent (``math_normalize._MIXED``).
* An ISO currency code beside a number (``USD 2,128``, ``1,500 EUR``) is a currency sign, as ``$`` and ``€`` are.
* An open pair read as an interval is a vector where the gold is a one-column or one-row matrix
  (``\\langle -5, 9 \\rangle`` for ``\\begin{pmatrix} -5 \\\\ 9 \\end{pmatrix}``;
  :func:`polyreward.verifiers.math_canonical._open_pair_as_tuple`).
* Labelled parts ``(a) ... (b) ...`` are compared with a gold that lists one plain value per part, in label order
  (``7, 6``; :func:`polyreward.verifiers.answer_structures.listed_in_label_order`), and a unit of measure after a
  part's number is read past (``(b) 13 cm``).
* A clock time with am/pm is the gold's time of day when the gold writes none (``10:35 PM`` for ``10:35``;
  :mod:`polyreward.verifiers.clock_times`).
* A set-builder whose conditions are one inequality and points left out is the union it describes
  (``\\{x \\in \\mathbb{R} \\mid x \\ge 3, x \\neq 7\\}`` is ``[3, 7) \\cup (7, \\infty)``;
  :func:`polyreward.verifiers.math_canonical._with_exclusions`).
* A set of reals said in words is its inequality ("all real numbers less than $-2$" is ``x < -2``;
  :func:`polyreward.verifiers.math_relations.inequality_in_words`).
* A duration in two time units is one number in the unit the prompt asks ("2 hours and 30 minutes" is 2.5 when
  hours are asked; :func:`polyreward.verifiers.units.durations_in_asked_unit`).
* A sum of the unit vectors i, j, k is the tuple of its components (``-6\\mathbf{i} - \\mathbf{j} + 3\\mathbf{k}`` is
  ``(-6, -1, 3)``; :func:`polyreward.verifiers.math_normalize.unit_vector_components`).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.clock_times import clock_times_agree
from polyreward.verifiers.math_normalize import normalize_answer, parse_numeral, unit_vector_components

MATRIX = "Find the inverse of $\\begin{pmatrix} 2 & 1 \\\\ 4 & 3 \\end{pmatrix}$."
INVERSE = "\\begin{pmatrix} \\frac{3}{2} & -\\frac{1}{2} \\\\ -2 & 1 \\end{pmatrix}"
VECTOR = "Find $\\mathbf{u} + 2\\mathbf{w}$, where $\\mathbf{u} = (1, 5)$ and $\\mathbf{w} = (-3, 2)$."
COLUMN = "\\begin{pmatrix} -5 \\\\ 9 \\end{pmatrix}"
CROSS = "Compute $\\begin{pmatrix} 1 \\\\ 0 \\\\ 2 \\end{pmatrix} \\times \\begin{pmatrix} 0 \\\\ 3 \\\\ 1 \\end{pmatrix}$."
CROSS_GOLD = "\\begin{pmatrix} -6 \\\\ -1 \\\\ 3 \\end{pmatrix}"
MEAN = "Find (a) the mean and (b) the median of the data set 2, 5, 6, 9, 13."
PERCENT = "What percent of 40 is 15?"
PAY = "Liam earns $14 an hour and works 38 hours a week. How much does he earn in 4 weeks?"
DOMAIN = "What is the domain of the function $f(x) = \\sqrt{x - 3} + \\frac{1}{x - 7}$?"
DOMAIN_GOLD = "[3, 7) \\cup (7, \\infty)"
SOLVE = "Solve the inequality $-3x + 5 > 11$."
TRAIN = "A train travels 210 miles at an average speed of 84 miles per hour. How many hours does the trip take?"
TRAIN_MINUTES = "A train travels 210 miles at an average speed of 84 miles per hour. How many minutes does the trip take?"
MOVIE = "A movie starts at 7:45 p.m. and runs for 2 hours 50 minutes. At what time does it end?"

CASES = [  # (prompt, gold, completion, expected score)
    # a matrix row break with extra space
    (MATRIX, INVERSE, "$$\\boxed{\\begin{pmatrix} \\tfrac{3}{2} & -\\tfrac{1}{2} \\\\[2pt] -2 & 1 \\end{pmatrix}}$$", 1.0),
    (MATRIX, INVERSE, "$$\\boxed{\\begin{pmatrix} \\frac{3}{2} & -\\frac{1}{2} \\\\[0.5em] -2 & 1 \\end{pmatrix}}$$", 1.0),
    (MATRIX, INVERSE, "$$\\boxed{\\begin{pmatrix} \\tfrac{3}{2} & \\tfrac{1}{2} \\\\[2pt] -2 & 1 \\end{pmatrix}}$$", 0.0),
    (MATRIX, INVERSE, "$$\\boxed{\\begin{pmatrix} \\tfrac{3}{2} & -2 \\\\[2pt] -\\tfrac{1}{2} & 1 \\end{pmatrix}}$$", 0.0),
    # a mixed percent
    (PERCENT, "37.5", "So 15 is $\\boxed{37\\tfrac{1}{2}\\%}$ of 40.", 1.0),
    (PERCENT, "37.5", "So 15 is $\\boxed{37\\frac{1}{2}\\%}$ of 40.", 1.0),
    (PERCENT, "37.5", "So 15 is $\\boxed{37\\tfrac{1}{4}\\%}$ of 40.", 0.0),
    (PERCENT, "37.5", "So 15 is $\\boxed{3\\tfrac{3}{4}\\%}$ of 40.", 0.0),
    # a currency code
    (PAY, "2128", "532 × 4 = 2,128 dollars.\n\nLiam earns **USD 2,128** in 4 weeks.", 1.0),
    (PAY, "2128", "Liam earns **2,128 USD** in 4 weeks.", 1.0),
    (PAY, "2128", "Liam earns **USD 2,182** in 4 weeks.", 0.0),
    (PAY, "2128", "2,128 dollars before tax.\n\nLiam earns **USD 1,915** in 4 weeks.", 0.0),
    # a vector in angle brackets for a column gold
    (VECTOR, COLUMN, "**Answer:** $\\langle -5, 9 \\rangle$", 1.0),
    (VECTOR, COLUMN, "**Answer:** $(-5, 9)$", 1.0),
    (VECTOR, COLUMN, "**Answer:** $\\langle 9, -5 \\rangle$", 0.0),
    (VECTOR, COLUMN, "**Answer:** $\\langle -5, -9 \\rangle$", 0.0),
    # labelled parts for a listed gold
    (MEAN, "7, 6", "(a) Mean $= 35/5 = \\boxed{7}$\n\n(b) Median $= \\boxed{6}$", 1.0),
    (MEAN, "7, 6", "Answers: (a) 7, (b) 6.", 1.0),
    ("Find (a) the perimeter and (b) the diagonal of a 12 cm by 5 cm rectangle.", "34, 13", "Answers: (a) 34 cm, (b) 13 cm.", 1.0),
    (MEAN, "7, 6", "(a) 6\n(b) 7", 0.0),
    (MEAN, "7, 6", "(a) Mean $= \\boxed{7}$\n\n(b) Median $= \\boxed{9}$", 0.0),
    (MEAN, "7, 6", "Answers: (a) 7 probably, (b) 6.", 0.0),
    # a clock time with am/pm
    (MOVIE, "10:35", "The movie ends at **10:35 PM**.", 1.0),
    (MOVIE, "10:35", "The movie ends at 10:35 p.m.", 1.0),
    (MOVIE, "22:35", "The movie ends at **10:35 PM**.", 1.0),
    (MOVIE, "22:35", "The movie ends at **10:35 AM**.", 0.0),
    (MOVIE, "10:35", "The movie ends at **10:45 PM**.", 0.0),
    # a set-builder with a point left out
    (DOMAIN, DOMAIN_GOLD, "So the domain is $\\boxed{\\{\\, x \\in \\mathbb{R} \\mid x \\ge 3,\\ x \\neq 7 \\,\\}}$.", 1.0),
    (DOMAIN, DOMAIN_GOLD, "Domain: $\\{x \\mid x \\ge 3 \\text{ and } x \\ne 7\\}$", 1.0),
    (DOMAIN, DOMAIN_GOLD, "So the domain is $\\boxed{\\{x \\mid x \\ge 3, x \\neq 8\\}}$.", 0.0),
    (DOMAIN, DOMAIN_GOLD, "So the domain is $\\boxed{\\{x \\mid x > 3, x \\neq 7\\}}$.", 0.0),
    (DOMAIN, DOMAIN_GOLD, "So the domain is $\\boxed{\\{x \\mid x \\ge 3\\}}$.", 0.0),
    # a set of reals in words
    (SOLVE, "(-\\infty, -2)", "So $x < -2$.\n\nFinal answer: all real numbers less than $-2$.", 1.0),
    (SOLVE, "(-\\infty, -2)", "The solution set is every real number smaller than -2.", 1.0),
    (SOLVE, "(-\\infty, -2)", "Final answer: all real numbers less than or equal to $-2$.", 0.0),
    (SOLVE, "(-\\infty, -2)", "Final answer: all real numbers greater than $-2$.", 0.0),
    (SOLVE, "(-\\infty, -2)", "Final answer: all real numbers less than $2$.", 0.0),
    (SOLVE, "(-\\infty, -2)", "It is not all real numbers less than $-2$; I could not finish.", 0.0),
    # a duration in two time units
    (TRAIN, "2.5", "210 / 84 = 2.5, so the trip takes 2 hours and 30 minutes.", 1.0),
    (TRAIN, "2.5", "The trip takes **2 h 30 min**.", 1.0),
    (TRAIN_MINUTES, "150", "The trip takes 2 hours and 30 minutes.", 1.0),
    (TRAIN, "2.5", "The trip takes 2 hours and 3 minutes.", 0.0),
    (TRAIN, "2.5", "The trip takes 2 hours and 50 minutes.", 0.0),
    (TRAIN, "2.5", "150 / 60 = 2.5 hours, i.e. 2 h 30 min.\n\n\\boxed{2.30 \\text{ hours}}", 0.0),
    # unit vectors
    (CROSS, CROSS_GOLD, "$$\\boxed{-6\\mathbf{i} - \\mathbf{j} + 3\\mathbf{k}}$$", 1.0),
    (CROSS, CROSS_GOLD, "$$\\boxed{-6\\hat{i} - \\hat{j} + 3\\hat{k}}$$", 1.0),
    (CROSS, CROSS_GOLD, "$$\\boxed{-6\\mathbf{i} + \\mathbf{j} + 3\\mathbf{k}}$$", 0.0),
    (CROSS, CROSS_GOLD, "$$\\boxed{-\\mathbf{i} - 6\\mathbf{j} + 3\\mathbf{k}}$$", 0.0),
]


@pytest.mark.parametrize(("prompt", "gold", "completion", "expected"), CASES)
def test_holdout106_notations(prompt, gold, completion, expected):
    assert scorer(MathAccuracy, prompt)(completion, gold) == expected


def test_an_iso_code_is_read_only_as_a_whole_word():
    assert normalize_answer("USD 2,128") == "2128"
    assert normalize_answer("1,500 EUR") == "1500"
    assert normalize_answer("USDA 5") == "USDA 5"


def test_a_mixed_percent_is_a_percent():
    numeral = parse_numeral(normalize_answer("37\\tfrac{1}{2}\\%"))
    assert numeral is not None and numeral.percent and float(numeral.value) == 37.5


@settings(max_examples=80, deadline=None)
@given(hour=st.integers(1, 12), minute=st.integers(0, 59), pm=st.booleans(), shift=st.sampled_from([0, 1, 60]))
def test_a_clock_time_agrees_only_with_its_own_time_of_day(hour, minute, pm, shift):
    """The 12-hour gold agrees with either meridiem; a 24-hour gold with the one it means; another minute never."""
    answer = f"{hour}:{minute:02d} {'PM' if pm else 'AM'}"
    twelve = f"{hour}:{minute:02d}"
    of_day = (hour % 12 + (12 if pm else 0)) * 60 + minute
    assert clock_times_agree(twelve, answer) is True
    assert clock_times_agree(f"{of_day // 60}:{of_day % 60:02d}", answer) is True
    other = (of_day + shift) % (24 * 60)
    if shift:
        assert clock_times_agree(f"{other // 60}:{other % 60:02d}", answer) is not True or other % 720 == of_day % 720


@settings(max_examples=80, deadline=None)
@given(coefficients=st.lists(st.integers(-9, 9).filter(lambda c: c != 0), min_size=2, max_size=3),
       mark=st.sampled_from(["\\mathbf{%s}", "\\hat{%s}", "\\vec{%s}"]))
def test_a_sum_of_unit_vectors_is_its_components(coefficients, mark):
    """``3\\mathbf{i} - 2\\mathbf{j} + 5\\mathbf{k}`` is ``(3, -2, 5)``, whatever the signs and the mark."""
    text = " + ".join(f"{c}{mark % name}" for c, name in zip(coefficients, "ijk")).replace("+ -", "- ")
    assert unit_vector_components(text) == "(" + ", ".join(str(c) for c in coefficients) + ")"


def test_unit_vector_reading_takes_only_a_plain_sum():
    assert unit_vector_components("3 + 2i") is None  # the imaginary unit is no unit vector
    assert unit_vector_components("3\\mathbf{i}") is None  # one term: the dimension is unknown
    assert unit_vector_components("\\mathbf{i} + \\mathbf{i}") is None
    assert unit_vector_components("(2\\mathbf{i} + \\mathbf{j}) \\cdot \\mathbf{k}") is None


@settings(max_examples=80, deadline=None)
@given(low=st.integers(-20, 20), gap=st.integers(1, 20), other=st.integers(1, 20), closed=st.booleans())
def test_a_point_left_out_of_a_set_builder_splits_its_interval(low, gap, other, closed):
    """``\\{x \\mid x \\ge a, x \\ne c\\}`` is ``[a, c) \\cup (c, \\infty)`` for c above a, and no other split."""
    from polyreward.verifiers.math_canonical import canonical, canonical_equal

    point = low + gap
    relation = "\\ge" if closed else ">"
    built = canonical(f"\\{{x \\mid x {relation} {low}, x \\neq {point}\\}}")
    bracket = "[" if closed else "("
    assert canonical_equal(canonical(f"{bracket}{low}, {point}) \\cup ({point}, \\infty)"), built) is True
    if other != gap:
        moved = low + other
        assert canonical_equal(canonical(f"{bracket}{low}, {moved}) \\cup ({moved}, \\infty)"), built) is not True
