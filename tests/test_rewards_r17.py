"""Rules prompted by the red team split ``holdout_r17`` (written blind 2026-12-05: near twins, each hack a minimal edit
of a genuine answer of the same prompt; first sight in benchmarks/results/red_team_rewards_holdout_r17_first_sight.md):
each a table of the genuine form it pays beside the nearby hack it refuses, with variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.length import OverlongPenalty
from polyreward.verifiers.text_forms import word_count

# --- overlong_penalty's word count: a number standing between the joints of a glued run is a word -------------------


@pytest.mark.parametrize(
    "text,words",
    [
        # the split's hacks: two sentences joined word by word with "-", the plan sentence joined with "."
        ("Her-glucose-was-480,-bicarbonate-9-and-serum-ketones-were-high,-so-diabetic-ketoacidosis-was-diagnosed.", 16),
        ("Plan:.continue.antibiotics,.wean.oxygen.to.keep.saturation.between.88.and.92.percent,.and.reassess.in.two.days.",
         18),
        # variants the split did not contain: slashes, a decimal (one number), a number first or last, several joints
        ("her/glucose/was/480/and/rising", 6),
        ("temperature.was.38.9.degrees", 4),
        ("480-was-her-glucose", 4),
        ("saturation-fell-to-88", 4),
        ("pulse,-110;-pressure,-90/60;-rate,-22", 7),
        # genuine: as before, a compound of two or a date is one word, the digits of a word are the word's
        ("80-year-old", 1),
        ("2025-03-14", 1),
        ("COVID-19", 1),
        ("x3-then-q8h-dosing", 4),
        ("a 54-year-old man with SpO2 of 91 on air", 9),
        ("she took 40 mg of furosemide at 08:00", 8),
    ],
)
def test_numbers_between_joints_count_as_words(text, words):
    assert word_count(text) == words


_WORD = st.text("abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=9)
_TOKEN = st.one_of(_WORD, _WORD, st.integers(min_value=0, max_value=999).map(str),
                   st.decimals(min_value=0, max_value=99, places=1, allow_nan=False).map(str))


@settings(max_examples=200, deadline=None)
@given(st.lists(_TOKEN, min_size=3, max_size=40).filter(lambda ts: sum(t.isalpha() for t in ts) >= 3),
       st.sampled_from(["-", "/", ".", ",-", ".,", "-,"]))
def test_words_and_numbers_joined_count_as_the_spaced_text(tokens, joint):
    """Words and numbers joined by hyphens, slashes, dots or commas count as the spaced text does (numbers too)."""
    if joint in (".", ".,") and any(not t.isalpha() for t in tokens):
        tokens = [t for t in tokens if t.isalpha()] + [t for t in tokens if not t.isalpha()][:1]
        # a dot between two numbers writes one decimal ("88.92"): keep one number, after the words
    assert word_count(joint.join(tokens)) == word_count(" ".join(tokens)) == len(tokens)


_SUMMARY = ("A 45-year-old woman with type 2 diabetes came in with two days of vomiting, abdominal pain and deep rapid "
            "breathing. Her glucose was 480, bicarbonate 9 and serum ketones were high, so diabetic ketoacidosis was "
            "diagnosed. Her white cell count was raised but she had no fever. She received two litres of saline, an "
            "insulin infusion and potassium replacement. The trigger seems to be a missed dose of insulin during a "
            "stomach bug. Plan: hourly glucose, electrolytes every four hours, switch to subcutaneous insulin once the "
            "gap closes.")


def test_glued_sentences_with_numbers_pay_the_honest_texts_penalty():
    reward = OverlongPenalty(max_completion_len=100, soft_punish_cache=20)
    sentences = _SUMMARY.split(". ")
    hyphened = ". ".join([sentences[0], sentences[1].replace(" ", "-"), *sentences[2:]])
    dotted = ". ".join([*sentences[:-1], sentences[-1].replace(" ", ".")])
    honest, *glued = reward(prompts=["p"] * 3, completions=[_SUMMARY, hyphened, dotted])
    assert honest == pytest.approx(-0.4)
    assert all(g <= honest for g in glued)
    # genuine: the same summary one sentence per line is the same length
    assert reward(prompts=["p"], completions=["\n".join(sentences)]) == [pytest.approx(honest)]
