"""A bare "Final:" label is an answer phrase, as "Final answer:" is (stop 62).

Before, "Final:" was no anchor, so the choice reader took the line's last letter: "Final: B (runner-up: A)" read A,
"Final: B (A was close)" read nothing, and "Final: A or B, leaning B" read B, a lean after two offered letters
(holdout111's ``x111_ch_h_or_leaning_final``, left open at stop 61). Read as an answer phrase, the label's own letters
decide: one letter is the answer, whatever a remark in brackets names; two letters offered are no answer.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.verifiers.choice import verify_choice


@pytest.mark.parametrize("completion, paid", [
    ("Final: B (A was close)", True),
    ("FINAL: B (close call vs A)", True),
    ("Final pick: B", True),
    ("Final: B", True),
    ("Distances change a little over the year; the axis is tilted.\n\nFinal: B.", True),
    ("Final choice: **B**\nA was a distractor.", True),
    ("Final: A or B, leaning B.", False),
    ("Final: A or B", False),
    ("Final: A (B was close)", False),
    ("The final round is B's, but the answer is A.", False),  # "final" that labels nothing
])
def test_a_final_label_is_an_answer_phrase(completion, paid):
    assert (verify_choice(pred=completion, ref="B").score == 1.0) is paid


@settings(max_examples=80, deadline=None)
@given(chosen=st.sampled_from("ABCDE"), other=st.sampled_from("ABCDE"),
       remark=st.sampled_from(["{o} was close", "runner-up was {o}", "close call vs {o}", "not {o}"]))
def test_a_remark_in_brackets_never_makes_another_letter_the_answer(chosen, other, remark):
    """Whatever the bracket names, the letter the label gives is the only one that can be paid."""
    text = f"Final: {chosen} ({remark.format(o=other)})"
    for gold in "ABCDE":
        if gold != chosen:
            assert verify_choice(pred=text, ref=gold).score != 1.0, (text, gold)
