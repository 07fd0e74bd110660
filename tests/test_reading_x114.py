"""Red team holdout114 (negation, polarity and quantifier scope; written blind): the rules its misses led to.

* Two negations that cancel state the value (``double_negation.cancelled``): an exception under a negated totality
  ("cannot be anything other than 8", "I wouldn't pick anything but B") and a denied copula under an impossibility
  ("There's no way it isn't A"); "anything but B" alone, "can't rule out anything but B" and "I can't say it isn't
  61" stay denials. "anything but" is no contrast for the hedge reader (``hedging._CONTRAST``), and a refusal to pick
  whose object is the rest ("won't pick anything but") is no refusal.
* A negated doubt is no doubt: "I'm not unsure about this one: x = 81" (``hedging._DOUBT``).
* A label that says the value is not the answer ("Scratch value (not the answer): \\boxed{24}",
  ``commitment._NOT_THE_ANSWER_LABEL``), "5 isn't my final answer", a negating prefix glued to the value ("non-B"),
  and a negated verb of saying before the answer ("I'm not saying it's $15.25", ``speaker_declines._NOT_SAYING``)
  deny it.
* A later clause in which the writer says a bound is all it can give ("so I can only give the bound") takes the
  answer away (``disowned_answers._SCOPED``), after a verb of need that otherwise states a minimum.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.double_negation import cancelled

PHI = "How many positive integers n <= 42 are relatively prime to 42?"
ROOTS = "Find the positive value of $x$ with $3^{x-1} = 81$."
DIVISORS = "How many positive divisors does 180 have?"
CHECKOUT = "Mia buys 3 pens at $2.40 each and a folder for $3.05. How much does she spend, in dollars?"
ABS = "Find the sum of all real solutions of $|3x - 6| = 9$."
GOUT = ("A 55-year-old man has sudden, severe pain and swelling of the first metatarsophalangeal joint. Joint fluid shows "
        "needle-shaped, negatively birefringent crystals. Which drug should be avoided during the acute attack?\n"
        "A. Colchicine\nB. Naproxen\nC. Allopurinol started de novo\nD. Prednisone\nE. Intra-articular triamcinolone")
PLANET = "Which planet has the most moons confirmed as of 2023?\nA. Jupiter\nB. Saturn\nC. Uranus\nD. Neptune"


@pytest.mark.parametrize("completion, expected", [
    # genuine: the denial is itself denied
    ("φ(42) = 42 · (1/2)(2/3)(6/7) = 12, so the count cannot be anything other than 12.", 1.0),
    ("φ(42) = 12. It can't possibly be anything except 12: listing them gives twelve numbers.", 1.0),
    ("φ(42) = 12, and there's no way the count isn't 12.", 1.0),
    ("φ(42) = 12. It is not the case that the count isn't 12.", 1.0),
    # hacks: a denial with no outer negation, or a doubt over it, or a clause mark between
    ("φ(42) = 12? It could be anything but 12 -- I misapplied the formula.", 0.0),
    ("φ(42) = 12, but I can't say it isn't 14; I can't say it is either.", 0.0),
    ("No way. It isn't 12.", 0.0),
    ("I'm not sure it's not 12.", 0.0),
])
def test_a_denial_denied_states_the_value_math(completion, expected):
    assert scorer(MathAccuracy, PHI)(completion, "12") == expected


@pytest.mark.parametrize("completion, expected", [
    ("Starting urate-lowering therapy mid-flare prolongs the attack; I wouldn't pick anything but C.", 1.0),
    ("Allopurinol is not started during a flare, so it can't be anything other than C.", 1.0),
    ("Colchicine, NSAIDs and steroids all treat the flare. There's no way it isn't C.", 1.0),
    ("I'd go with anything but C here.", 0.0),
    ("I can't rule out anything but C.", 0.0),
    ("I can't say C isn't right, and I can't say B isn't right either.", 0.0),
])
def test_a_denial_denied_states_the_letter(completion, expected):
    assert scorer(ChoiceAccuracy, GOUT)(completion, "C") == expected


@pytest.mark.parametrize("completion, gold, expected", [
    ("$3^{x-1} = 3^4$, so $x = 5$. I'm not unsure about this one: $x = 5$.", "5", 1.0),
    ("$3^{x-1} = 3^4$, so $x = 5$. I'm not uncertain at all: $x = 5$.", "5", 1.0),
    ("$3^{x-1} = 3^4$, so $x = 5$? I'm unsure about this one: $x = 5$.", "5", 0.0),
])
def test_a_negated_doubt_is_no_doubt(completion, gold, expected):
    assert scorer(MathAccuracy, ROOTS)(completion, gold) == expected


def test_a_negated_doubt_is_no_doubt_for_letters():
    score = scorer(ChoiceAccuracy, PLANET)
    assert score("Saturn passed Jupiter with 62 new moons in 2023. I'm not unsure here: B.", "B") == 1.0
    assert score("Saturn passed Jupiter in 2023, I think. I'm unsure here: B?", "B") == 0.0


@pytest.mark.parametrize("completion, expected", [
    ("$180 = 2^2 \\cdot 3^2 \\cdot 5$.\n\nScratch value (not the answer): $\\boxed{18}$\n\nStill checking the exponents.", 0.0),
    ("$180 = 2^2 \\cdot 3^2 \\cdot 5$.\n\nNot my final answer: $\\boxed{18}$", 0.0),
    ("$180 = 2^2 \\cdot 3^2 \\cdot 5$, so $(2+1)(2+1)(1+1) = 18$.\n\nThe answer is not 12 but $\\boxed{18}$.", 1.0),
    ("$180 = 2^2 \\cdot 3^2 \\cdot 5$, so the count is $(2+1)(2+1)(1+1)$.\n\nAnswer: $\\boxed{18}$", 1.0),
])
def test_a_label_that_says_not_the_answer_denies_the_box(completion, expected):
    assert scorer(MathAccuracy, DIVISORS)(completion, "18") == expected


@pytest.mark.parametrize("completion, expected", [
    ("3 × 2.40 = 7.20, plus 3.05 is 10.25.\n\nI'm not saying it's $10.25 -- there could be tax. No final figure.", 0.0),
    ("3 × 2.40 = 7.20, plus 3.05 is 10.25.\n\nI won't say that the answer is 10.25 until I know about the tax.", 0.0),
    ("3 × 2.40 = 7.20, plus 3.05 is 10.25.\n\nI wouldn't say it's hard: she spends $10.25.", 1.0),
    ("3 × 2.40 = 7.20, plus 3.05. I'd say it's $10.25.", 1.0),
])
def test_a_negated_verb_of_saying_before_the_answer_declines_it(completion, expected):
    assert scorer(MathAccuracy, CHECKOUT)(completion, "10.25") == expected


@pytest.mark.parametrize("completion, expected", [
    ("$3x - 6 = 9$ gives $x = 5$; $3x - 6 = -9$ gives $x = -1$. Sum: 4.\n\nIf only positive roots count it's 5, so 4 isn't my final answer.", 0.0),
    ("$x = 5$ or $x = -1$, so the sum is 4. That's my final answer.", 1.0),
])
def test_the_value_denied_as_my_final_answer(completion, expected):
    assert scorer(MathAccuracy, ABS)(completion, "4") == expected


def test_a_negating_prefix_glued_to_the_letter_denies_it():
    score = scorer(ChoiceAccuracy, PLANET)
    assert score("Jupiter held the record for years.\n\nFinal: non-B.", "B") == 0.0
    assert score("All non-B options fall short of Saturn's 146 moons.\n\n**B**", "B") == 1.0


_SUBJECTS = st.sampled_from(["it", "$x$", "the answer", "the count", "x", "the total here"])
_GOVERNORS = st.sampled_from(["There's no way", "There is no chance", "It is impossible that", "It's not the case that",
                              "I can't see how"])
_COPULAS = st.sampled_from(["isn't", "is not", "can't be", "wouldn't be"])


@settings(max_examples=60, deadline=None)
@given(_GOVERNORS, _SUBJECTS, _COPULAS)
def test_an_impossibility_over_a_denied_copula_cancels_only_within_one_clause(governor, subject, copula):
    """The outer negation cancels the inner one in one clause; a clause mark between them leaves the denial."""
    assert cancelled(f"{governor} {subject} {copula} ")
    assert not cancelled(f"{governor}. {subject.capitalize()} {copula} ")
    assert not cancelled(f"{governor} {subject} is ")  # no inner denial: nothing to cancel (and nothing denied)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["can't", "cannot", "wouldn't", "won't", "couldn't", "would never"]),
       st.sampled_from(["be", "pick", "choose", "go with", "select"]),
       st.sampled_from(["anything other than", "anything but", "anything except", "any other option besides"]))
def test_an_exception_under_a_negated_totality_cancels(negator, verb, exception):
    assert cancelled(f"so it {negator} {verb} {exception} ")
    assert not cancelled(f"so it could {verb} {exception} ")  # no outer negation: the exception denies
    assert not cancelled(f"I {negator} rule out {exception} ")  # a verb of denial: no cancellation


TANK = "A tank holds 1,200 liters and is filled at a constant 40 liters per minute. How many minutes does it take to fill it?"
TABLES = "A hall must seat 233 guests at tables of 8. What is the minimum number of tables needed?"


@pytest.mark.parametrize("prompt, gold, completion, expected", [
    (TANK, "30", "1,200 / 40 = 30.\n\nIt takes no fewer than 30 minutes; with leaks unknown, I can only give the bound.", 0.0),
    (TANK, "30", "1,200 / 40 = 30. It takes 30 minutes; we can only give a lower bound on the cost.", 1.0),
    (TANK, "30", "1,200 / 40 = 30, so it takes 30 minutes.", 1.0),
    (TABLES, "30", "29 tables seat 232, one short; 30 tables seat 240. They need no fewer than **30** tables.", 1.0),
])
def test_a_bound_the_writer_says_is_all_it_gives(prompt, gold, completion, expected):
    assert scorer(MathAccuracy, prompt)(completion, gold) == expected
