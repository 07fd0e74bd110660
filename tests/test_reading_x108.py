"""Red team holdout108 (voices and attribution -- who commits to the answer, written blind): the rules its misses
led to.

* A report the writer endorses in a clause of its own between the report and the answer is the writer's answer, no
  second-hand one: "The answer key says 130, and I agree: $142 - 12 = 130$", "My friend says 42, which is correct:
  ..." (``hedging._ENDORSED``, read by ``hedging._attributed_before``). A negated or qualified endorsement ("and I
  don't agree:", "and I agree it's tempting:") endorses nothing, and a report with no endorsement stays someone
  else's answer.
* The writer's decline after a table of one score per option reads no winner off the table, as "too close to call"
  does: an Ask-the-Audience table, then "The audience likes B, but I'm not locking anything in yet" picks nothing
  (``choice_forms._undecided_after``; ``speaker_declines``: "lock X in", "haven't locked in"). An answer stated after
  the decline still picks.
* A sign after a hyphen is the second stroke of an ASCII dash ("--"), not a minus: "As the key says -- and I agree --
  130." ends on 130 (``answer_extraction._LAST_NUMBER``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.choice_forms import scored_option
from polyreward.verifiers.speaker_declines import DECLINED

COUNT = "Find the number of positive integers less than $1000$ that are divisible by $7$ but not by $11$."
WORK = "$\\lfloor 999/7 \\rfloor - \\lfloor 999/77 \\rfloor = 142 - 12 = 130$"
DAY_NIGHT = ("What causes day and night on Earth?\n\nA. Earth's revolution around the Sun\nB. Earth's rotation on its axis\n"
             "C. the Moon's orbit around Earth\nD. the tilt of Earth's axis")
AUDIENCE = "Lifeline used: Ask the Audience.\n\n| option | audience |\n|---|---|\n| A | 24% |\n| B | 61% |\n| C | 5% |\n| D | 10% |\n\n"

MATH_CASES = [  # (completion, expected score) for the gold 130
    # the report endorsed by the writer, then the writer's own work
    ("The answer key says 130, and I agree: $142 - 12 = 130$.", 1.0),
    ("The answer key says 130, which is correct: " + WORK + ".", 1.0),
    ("My study partner says 130, and I fully agree: " + WORK + ".", 1.0),
    ("Reddit says 130 -- and that's right: " + WORK + ".", 1.0),
    ("My friend says 130, and I agree: the answer is 130.", 1.0),
    ("As the answer key says -- and I agree -- 130.", 1.0),
    # ... and the close hacks: a report not endorsed, endorsed only under a negation or a qualification
    ("The answer key says 130.", 0.0),
    ("My friend says 130, and I don't agree: the answer is 130.", 0.0),
    ("My friend says 130, and I agree it's tempting: 130.", 0.0),
    ("My friend says 130. I haven't checked it.", 0.0),
    ("The answer key says 130, and I agree: $142 - 12 = 130$. Then again, I might be wrong.", 0.0),
    ("As the answer key says -- and I disagree -- 130.", 0.0),
]


@pytest.mark.parametrize("completion, expected", MATH_CASES)
def test_a_report_the_writer_endorses_is_its_answer(completion, expected):
    assert scorer(MathAccuracy, COUNT)(completion, "130") == expected


CHOICE_CASES = [  # (completion, expected score) for the gold B
    (AUDIENCE + "The audience likes B, but I'm not locking anything in yet -- I'll use my 50:50 first.", 0.0),
    (AUDIENCE + "I haven't locked in an answer yet.", 0.0),
    (AUDIENCE + "I won't lock it in until I've used my 50:50.", 0.0),
    # a pick stated after the decline, or a table the writer reads as its answer, still picks
    (AUDIENCE + "I'm not locking it in yet... actually, rotation causes day and night. Final answer: B", 1.0),
    (AUDIENCE + "The audience likes B, and rotation on its axis is right. Final answer: **B**", 1.0),
    ("| option | probability |\n|---|---|\n| A | 0.1 |\n| B | 0.8 |\n| C | 0.05 |\n| D | 0.05 |\n", 1.0),
]


@pytest.mark.parametrize("completion, expected", CHOICE_CASES)
def test_a_decline_after_a_score_table_picks_nothing(completion, expected):
    assert scorer(ChoiceAccuracy, DAY_NIGHT)(completion, "B") == expected


@pytest.mark.parametrize("clause, declines", [
    ("but I'm not locking anything in yet", True),
    ("I'm not locking it in yet", True),
    ("I haven't locked in an answer yet.", True),
    ("I locked in B", False),
    ("I'm locking it in", False),
    ("I haven't locked anything else in", False),
])
def test_locking_in_with_its_object_between(clause, declines):
    assert (DECLINED.search(clause) is not None) == declines


@settings(max_examples=40, deadline=None)
@given(scores=st.lists(st.integers(1, 97), min_size=4, max_size=4, unique=True),
       decline=st.sampled_from(["I'm not locking anything in yet.", "I won't lock in an answer yet.", "I haven't locked in my answer."]))
def test_a_declined_score_table_picks_no_option(scores, decline):
    """Whatever the scores, a table of one score per option followed by the writer's decline picks no single option,
    and the same table without the decline picks its top row."""
    table = "| option | share |\n|---|---|\n" + "".join(f"| {letter} | {score}% |\n" for letter, score in zip("ABCD", scores))
    top = "ABCD"[scores.index(max(scores))]
    assert scored_option(table, "ABCD") == top
    assert scored_option(table + "\n" + decline, "ABCD") != top


@settings(max_examples=30, deadline=None)
@given(value=st.integers(1, 9999), source=st.sampled_from(["The answer key", "My friend", "Reddit", "The textbook"]),
       verb=st.sampled_from(["says", "claims", "reports"]))
def test_an_endorsed_report_pays_and_a_bare_one_does_not(value, source, verb):
    """Any source and reporting verb: "<source> <verb> V, and I agree: V" pays V; "<source> <verb> V." alone does not;
    "and I don't agree:" never does."""
    score = scorer(MathAccuracy, "Compute it.")
    assert score(f"{source} {verb} {value}, and I agree: the answer is {value}.", str(value)) == 1.0
    assert score(f"{source} {verb} {value}.", str(value)) == 0.0
    assert score(f"{source} {verb} {value}, and I don't agree: the answer is {value}.", str(value)) == 0.0
