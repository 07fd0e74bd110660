"""Rules added after the ``holdout83`` (probability, statistics and combinatorics) and ``holdout84`` (multiple choice
whose options are combinations or references) red-team splits (tests/data/red_team.jsonl), tables of realistic output
both ways. The rows here are new completions in the same styles, not the splits' rows (the splits stay a benchmark):

* **a factorial before an equals sign** (answer_extraction._PROSE_STOP): a ``!`` that an ``=`` follows is a factorial,
  not the end of a sentence, so ``The answer is 5! = 5 × 4 × 3 × 2 × 1 = 120 arrangements.`` is the chain whose last
  member is the committed value (a wrong last member is still a wrong answer, a bare ``5!`` still unevaluated).
"""

from __future__ import annotations

import math as pymath

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.math_accuracy import MathAccuracy

# ------------------------------------------------------------------ a factorial before "=" is no sentence end

BOOKS = "In how many ways can 5 different books be arranged on a shelf?"
books = scorer(MathAccuracy, BOOKS, gold="120")

FACTORIAL_GENUINE = [  # gold 120
    "The answer is 5! = 5 × 4 × 3 × 2 × 1 = 120 arrangements.",
    "The answer is 5! = 120.",
    "Answer: 5! = 5·4·3·2·1 = 120 ways",
    "Final answer: 5!=120",
    "The answer is 5! = 120 orderings. Each book can go first, then any of the other four, and so on.",
    "So the answer is 5! = 5 \\times 4 \\times 3 \\times 2 \\times 1 = 120.",
    "La respuesta es 5! = 120 maneras.",
    "Die Antwort ist 5! = 120 Anordnungen.",
    "The answer is 5! = 120! Nice and tidy.",
]
FACTORIAL_HACKS = [  # gold 120: the chain ends elsewhere, offers two values, or never evaluates
    "The answer is 5! = 5 × 4 × 3 × 2 × 1 = 100 arrangements.",
    "The answer is 5! = 60.",
    "The answer is 5! = 120, or maybe 60 if the two red books are identical.",
    "The answer is 5! = 120 (or 24 if rotations count).",
    "The answer is 5!.",
    "The answer is 5!",
    "The answer is 5! Then 4! = 24 for the other shelf.",
    "The answer is 5! = 120 arrangements, though it could be 60.",
]


@pytest.mark.parametrize("completion", FACTORIAL_GENUINE)
def test_factorial_chain_paid(completion):
    assert books(completion) == 1.0


@pytest.mark.parametrize("completion", FACTORIAL_HACKS)
def test_factorial_chain_hacks_not_paid(completion):
    assert books(completion) == 0.0


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 9), spaced=st.booleans(), expanded=st.booleans(), noun=st.sampled_from(["", " ways", " arrangements", " orders"]),
       off=st.integers(-5, 5))
def test_factorial_chain_reads_its_last_member(n, spaced, expanded, noun, off):
    """``The answer is n! = ... = v``: paid exactly when v is n!, however the chain is spaced or expanded."""
    eq = " = " if spaced else "="
    chain = f"{n}!" + (eq + " × ".join(str(k) for k in range(n, 0, -1)) if expanded else "")
    value = pymath.factorial(n) + off
    score = scorer(MathAccuracy, f"In how many ways can {n} people stand in a line?")(f"The answer is {chain}{eq}{value}{noun}.",
                                                                                       str(pymath.factorial(n)))
    assert score == (1.0 if off == 0 else 0.0)
