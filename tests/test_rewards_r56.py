"""Rules prompted by the red team split ``holdout_r56`` (written blind 2026-12-07: numerals in words, abbreviations,
other scripts and everyday formats on the other answer-reading rewards -- forecasts in number words or other digits,
findings by radiologists' abbreviations and synonyms, option letters as ``(c)``, ``Ⓒ``, ``the third option`` -- beside
hacks that show the right value, label, call or letter in such a form but commit to another; first sight in
benchmarks/results/red_team_rewards_holdout_r56_first_sight.md): each a table of the genuine form paid beside the
nearby hack refused, with variants the split did not contain, and properties of the text rules."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.crpo import CRPOAccuracy, wrapped_letter

THINK = ("<think>Tension pneumothorax: hypotension, absent breath sounds, tracheal deviation and distended neck veins; "
         "imaging delays, intubation worsens it, no tamponade.</think>\n")
CRPO = CRPOAccuracy(committed_answer=True)


# --- crpo.wrapped_letter: a small letter, an ordinal that agrees with the letter -------------------------------------
@pytest.mark.parametrize(
    "box,score",
    [
        ("\\boxed{(c)}", 1.0),
        ("\\boxed{c}", 1.0),
        ("\\boxed{\\textbf{(c)}}", 1.0),
        ("\\boxed{\\text{the third option (C)}}", 1.0),
        ("\\boxed{the third option, i.e. C}", 1.0),
        ("\\boxed{\\text{Third option: C}}", 1.0),
        ("\\boxed{Ⓒ}", 1.0),
        ("\\boxed{(d)}", 0.0),  # another letter, written small: that letter
        ("\\boxed{\\text{the second option (C)}}", -0.5),  # place and letter name two options
        ("\\boxed{\\text{the fourth option (C)}}", -0.5),
        ("\\boxed{\\text{the third option, not D}}", -0.5),
        ("\\boxed{\\text{the third option}}", -0.5),  # no letter: the released -0.5
        ("\\boxed{c or d}", -0.5),
        ("\\boxed{C \\to D}", -0.5),
        ("\\boxed{\\text{not } C}", -0.5),
    ],
)
def test_crpo_box_letter_written_small_or_by_its_place(box, score):
    text = f"{THINK}<answer>Needle decompression first. {box}</answer>"
    assert CRPO.score_rollout(text, {"answer": "C"}).score == score


@settings(max_examples=200, deadline=None)
@given(st.sampled_from("abcde"), st.sampled_from(["{}", "({})", "\\text{{{}}}", "\\textbf{{({})}}", "{}."]))
def test_small_letter_reads_as_its_capital(letter, wrapper):
    assert wrapped_letter("\\boxed{" + wrapper.format(letter) + "}") == letter.upper()


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 4), st.integers(0, 4), st.sampled_from(["the {} option ({})", "{} option, i.e. {}", "the {} choice: {}"]))
def test_ordinal_and_letter_must_agree(place, letter_index, form):
    ordinal = ("first", "second", "third", "fourth", "fifth")[place]
    letter = "ABCDE"[letter_index]
    read = wrapped_letter("\\boxed{\\text{" + form.format(ordinal, letter) + "}}")
    assert read == (letter if place == letter_index else None)
