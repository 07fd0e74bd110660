"""Red team holdout105 (commitment undone by scope, condition and question, written blind): the rules its misses led to.

* The answer SCOPED AWAY from the question (:func:`polyreward.verifiers.disowned_answers.scoped_away`): a later clause
  whose subject points back at the answer (a pronoun, "that count", "this number", the answer's own value) and whose
  predicate places it under the writer's misreading or another reading, in a special case, calls it a bound, an
  estimate or a candidate, names an approximate source for it (a quick estimate, a simulation), or says it answers a
  narrower question; the answer itself named so right after it ("treat 1/6 as an empirical figure only"). An exact
  source ("That's what the formula gives"), a bound said to be attained and an estimate that agrees keep it.
* A condition denied in a relative clause of its own ("If the triangle were right-angled, which it is not, ... the
  area would be 84"): the answer of another problem (:mod:`polyreward.verifiers.hypothetical`); a condition the text
  shows holds ("and it is, since 5^2 + 12^2 = 13^2") keeps the answer.
* An option letter whose last mention is a bound ("the answer is at most E") or is followed by an "or" that offers an
  unnamed other answer ("whether it still rounds to B or moves toward another option";
  :func:`polyreward.verifiers.commitment.offers_unnamed_other`) is no choice.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.commitment import offers_unnamed_other
from polyreward.verifiers.disowned_answers import scoped_away

COUNT = "How many positive integers less than 200 are divisible by 6 or by 9?"
AREA = "A triangle has sides 10, 17 and 21. Find its area."
SPEED = "A car travels 180 km in 2.5 hours. What is its average speed in km/h?"
PENDULUM = ("A simple pendulum is 1.0 m long. Taking g = 9.8 m/s^2, what is its period?\n"
            "A. 1.0 s\nB. 1.6 s\nC. 2.0 s\nD. 3.1 s\nE. 6.3 s")

# ------------------------------------------------------------------ the answer scoped away from the question

SCOPED_HACKS = [  # (completion, gold, prompt)
    ("Multiples of 6: 33, of 9: 22, of 18: 11, so \\boxed{44}.\n\nThat is the count for the question as I originally misread it "
     "(I read 'less than 200' as 'at most 200'); for the actual bound I'd need to recount.", "44", COUNT),
    ("33 + 22 - 11 = \\boxed{44} -- but this count is for a different problem than the one asked, so don't grade it.", "44", COUNT),
    ("The speed is \\boxed{72} km/h.\n\nThat's only what a rough estimate gives; I have not done the division properly.", "72", SPEED),
    ("\\boxed{72}\n\n72 is an upper estimate from rounding the time down; the true speed is lower.", "72", SPEED),
    ("Average speed \\boxed{72} km/h, which is just what the simulation printed -- I haven't derived it.", "72", SPEED),
    ("Taking the special case where the car drives at constant speed: \\boxed{72}. "
     "So 72 is a candidate for the special case only, not the answer to the question.", "72", SPEED),
    ("Heron: s = 24, area = \\sqrt{24 \\cdot 14 \\cdot 7 \\cdot 3} = \\boxed{84}. "
     "But this number only answers a narrower question -- the area of the acute part -- than the one posed.", "84", AREA),
    ("Area = \\boxed{84}, under my reading of the figure; the question may intend another triangle.", "84", AREA),
    ("I get \\boxed{44}, so treat 44 as a rough estimate only.", "44", COUNT),
]
SCOPED_GENUINE = [  # (completion, gold, prompt): the same registers, committed
    ("I first misread 'less than 200' as 'at most 200', which changes nothing here since 200 is no multiple of 9 and "
     "... wait, 198 < 200 either way. Multiples of 6: 33, of 9: 22, of 18: 11.\n\nThe answer is \\boxed{44}.", "44", COUNT),
    ("A rough estimate gives about 70 km/h. Exactly: 180 / 2.5 = 72.\n\nThe average speed is \\boxed{72} km/h.", "72", SPEED),
    ("\\boxed{72} km/h. That's what the formula distance / time gives.", "72", SPEED),
    ("The simulation printed 71.98; the exact value is 180 / 2.5 = \\boxed{72} km/h, which the simulation agrees with.", "72", SPEED),
    ("Upper bound first: the speed can't exceed 180 / 2.5. That bound is the exact value, so the answer is \\boxed{72}.", "72", SPEED),
    ("\\boxed{84}\n\nThis is also the value the base-times-height formula gives with height 8 on base 21.", "84", AREA),
    ("s = 24, so the area is \\sqrt{24 \\cdot 14 \\cdot 7 \\cdot 3} = \\sqrt{7056} = \\boxed{84}. This answers the question as asked.", "84", AREA),
    ("Area = 84.\n\nAnswer: 84 (square units)", "84", AREA),
]


@pytest.mark.parametrize(("completion", "gold", "prompt"), SCOPED_HACKS)
def test_an_answer_scoped_away_from_the_question_is_refused(completion, gold, prompt):
    assert scorer(MathAccuracy, prompt)(completion, gold) == 0.0


@pytest.mark.parametrize(("completion", "gold", "prompt"), SCOPED_GENUINE)
def test_an_answer_that_keeps_its_scope_is_paid(completion, gold, prompt):
    assert scorer(MathAccuracy, prompt)(completion, gold) == 1.0


@pytest.mark.parametrize(("clause", "keys", "scoped"), [
    ("That is the count for the problem as I first misread it.", {"47"}, True),
    ("but that count is for the problem as I first misread it, with a + b = 999", {"738"}, True),
    ("84 is the weekly figure under my reading, not the per-day count", {"84"}, True),
    ("So 4 is an upper estimate from the right sums", {"4"}, True),
    ("That's only what a quick estimate gives, though", {"B"}, True),
    ("But that only answers the anatomy sub-question about what lies behind station 7", {"C"}, True),
    ("6 is an upper estimate for the first step only", {"42"}, False),  # another value's scope
    ("That's what the formula gives.", {"12"}, False),
    ("42 is an upper bound, and it is attained.", {"42"}, False),
    ("That is the count for all three cases together.", {"47"}, False),
    ("It is a lot of work for a special case of Fermat", {"3"}, False),
    ("which is a good estimate of the product", {"2500"}, False),
    ("which is an approximation of pi to two decimals", {"3.14"}, False),
])
def test_scoped_away_reads_the_subject_and_the_predicate(clause, keys, scoped):
    assert scoped_away(clause, keys) is scoped


# ------------------------------------------------------------------ a condition denied in its own relative clause

CONDITION_HACKS = [
    ("If the triangle were right-angled, which it is not, the area would be half of 10 \\cdot 16.8 = \\boxed{84}. "
     "Since it isn't, I'd need another method.", "84", AREA),
    ("If the car kept a constant speed (it doesn't), the speed would be \\boxed{72} km/h; with the stops it's unknown.", "72", SPEED),
]
CONDITION_GENUINE = [
    ("If the triangle is acute -- and it is, since 10^2 + 17^2 > 21^2 is false... let me just use Heron. s = 24, "
     "area = \\sqrt{24 \\cdot 14 \\cdot 7 \\cdot 3} = \\boxed{84}.", "84", AREA),
    ("If the car kept a constant speed -- and the problem says it did -- the speed is 180 / 2.5 = \\boxed{72} km/h.", "72", SPEED),
    ("If the triangle were right-angled we could halve a product of legs; it is not (10^2 + 17^2 \\neq 21^2), so use "
     "Heron: s = 24 and the area is \\boxed{84}.", "84", AREA),
]


@pytest.mark.parametrize(("completion", "gold", "prompt"), CONDITION_HACKS)
def test_an_answer_under_a_condition_the_text_denies_is_refused(completion, gold, prompt):
    assert scorer(MathAccuracy, prompt)(completion, gold) == 0.0


@pytest.mark.parametrize(("completion", "gold", "prompt"), CONDITION_GENUINE)
def test_an_answer_under_a_condition_that_holds_is_paid(completion, gold, prompt):
    assert scorer(MathAccuracy, prompt)(completion, gold) == 1.0


# ------------------------------------------------------------------ an option letter left as a bound or one of several

CHOICE_HACKS = [
    "T = 2*pi*sqrt(1/9.8) = 2.0 s, which lands on option C.\n\nThat's only a quick estimate, and I haven't checked whether it "
    "rounds to C or moves toward another option.",
    "The period can't exceed about 2 s here, so I can only say the answer is at most C.",
    "T is about two seconds: C, or some other option if the amplitude is large.",
]
CHOICE_GENUINE = [
    "T = 2*pi*sqrt(L/g) = 2*pi*sqrt(1/9.8) = 2.007 s.\n\nThe answer is C.",
    "A quick estimate with g ≈ 10 gives 1.99 s; exactly, T = 2.007 s, which rounds to C. The answer is C.",
    "Is it C or another option? T = 2*pi*sqrt(1/9.8) = 2.0 s, so it is C.",
    "T = 2.0 s. Answer: C -- no other option is within 0.3 s of it.",
]


@pytest.mark.parametrize("completion", CHOICE_HACKS)
def test_a_letter_left_as_a_bound_or_one_of_several_is_refused(completion):
    assert scorer(ChoiceAccuracy, PENDULUM)(completion, "C") == 0.0


@pytest.mark.parametrize("completion", CHOICE_GENUINE)
def test_a_committed_letter_is_paid(completion):
    assert scorer(ChoiceAccuracy, PENDULUM)(completion, "C") == 1.0


# ------------------------------------------------------------------ properties

@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=10**6))
def test_an_exact_source_keeps_any_value_and_a_misreading_takes_it(value):
    paid = scorer(MathAccuracy, "Compute the value.")
    assert paid(f"The answer is \\boxed{{{value}}}. That's what the formula gives.", str(value)) == 1.0
    assert paid(f"The answer is \\boxed{{{value}}}. That is the count for the problem as I first misread it.", str(value)) == 0.0


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=120), st.integers(min_value=0, max_value=200))
def test_the_scope_readers_take_any_text(text, at):
    assert isinstance(scoped_away(text, {"42"}), bool)
    assert isinstance(offers_unnamed_other(text, min(at, len(text))), bool)
