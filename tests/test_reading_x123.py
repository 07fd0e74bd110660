"""Red team holdout123 (creative and constrained forms: poems, songs, stories, dialogues, riddles, letters, recipes,
emoji, persona voices; written blind): the rules its misses, and the variants of its kinds tried by hand afterwards,
led to. All its 45 hacks were refused on first sight; six genuine answers were refused.

* A letter as the subject of an answer noun is affirmed as ``C is the answer`` is: ``So C is the choice to be
  made!``, ``B is my pick`` (``choice._patterns``, the "affirmed" tier).
* A confirmation word before ``it's`` states the pick as ``so it's`` does: ``Teacher: Correct, it's D -- Pavlov.``,
  ``Yes, it's D.`` (``choice._ANCHOR``).
* A decorative pictograph (music, objects, animals, flags) closing a line after the letter closes it as a full stop
  does: ``sing it with me: C! 🎵`` (``registers.DECORATIVE_EMOJI``); faces, hands and marks are not decoration.
* A subject pronoun and its copula opening the span after an answer phrase are the sentence's frame: ``Answer: it's
  102``, a riddle's ``Answer: I'm 53!`` (``answer_forms.ANSWER_SUBJECT_COPULA``).
* An emoji is no word when a closing line is counted as a short remark: ``(Sorry, the meter got away from me there 😅)``
  (``answer_extraction._without_closing_words``).
* An elliptical verdict after an option or a value denies it: ``silver is Ag, not ours`` (``commitment._NEGATED_AFTER``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import JUNK, LETTER, read_filled, scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy

HERBIVORE = ("Which of these animals is a herbivore?\nA. Lion\nB. Wolf\nC. Deer\nD. Shark\n\n"
             "Answer with the letter of the correct option.")
PAVLOV = ("Who is best known for discovering classical conditioning?\nA. B. F. Skinner\nB. Sigmund Freud\nC. Jean Piaget\n"
          "D. Ivan Pavlov\n\nAnswer with the letter of the correct option.")
GOLD_SYMBOL = ("What is the chemical symbol for gold?\nA. Au\nB. Ag\nC. Gd\nD. Go\n\nAnswer with the letter of the correct option.")
PRODUCT = "Compute $17 \\times 6$."


@pytest.mark.parametrize("completion, gold, expected", [
    ("There once was a deer in the glade,\nWho munched on the leaves in the shade;\nNo lion or shark,\nNo wolf in the dark —\n"
     "So C is the choice to be made!", "C", 1.0),
    ("Deer eat plants. C is my pick.", "C", 1.0),
    ("Deer graze on grass, so C is our answer.", "C", 1.0),
    ("Lions and wolves hunt; deer graze. C is the right choice.", "C", 1.0),
    ("Deer graze on grass.\n\nC is my choice 🦌", "C", 1.0),
    # not paid: another letter affirmed, a question, a denial, a hedge
    ("Deer graze, but A is my pick.", "C", 0.0),
    ("Is C the choice? Or is it B?", "C", 0.0),
    ("C is not the choice here; A is.", "C", 0.0),
    ("C is my pick, or maybe B.", "C", 0.0),
    ("C is the choice most people make, but the answer is B.", "C", 0.0),
])
def test_a_letter_as_the_subject_of_an_answer_noun_is_affirmed(completion, gold, expected):
    assert scorer(ChoiceAccuracy, HERBIVORE)(completion, gold) == expected


@pytest.mark.parametrize("completion, expected", [
    ("Student: Is it D, Pavlov, with the dogs and the bell?\nTeacher: Correct, it's D — Pavlov. Skinner's work was operant conditioning.", 1.0),
    ("Yes, it's D. Skinner's work was operant conditioning.", 1.0),
    ("Right, it's D: Pavlov's dogs and the bell.", 1.0),
    ("Exactly! It's D, Pavlov.", 1.0),
    ("Indeed, it is D — the bell and the dogs.", 1.0),
    # not paid: the confirmation of another letter, a question, a later correction
    ("Student: Is it D?\nTeacher: Not quite. Correct, it's A — Skinner.", 0.0),
    ("Yes, it's D? I'm not sure at all.", 0.0),
    ("Correct, it's A. Skinner conditioned pigeons.", 0.0),
    ("Right, it's D or A — I can't decide.", 0.0),
    ("If any option is right, it's D — but strictly none of them is.", 0.0),  # (holdout17: a condition, not a confirmation)
])
def test_a_confirmation_before_its_states_the_pick(completion, expected):
    assert scorer(ChoiceAccuracy, PAVLOV)(completion, "D") == expected


PRIME_SONG = ("Which of these numbers is prime?\nA. 21\nB. 27\nC. 31\nD. 33\n\nAnswer with the letter of the correct option.")


@pytest.mark.parametrize("completion, expected", [
    ("🎵 Thirty-three is three times eleven —\nThirty-one's the prime, so sing it with me: C! 🎵", 1.0),
    ("Thirty-one has no divisor but 1 and itself, so it's C! 🎶🎶", 1.0),
    ("Arr, thirty-one be prime, matey. Me answer be C! 🏴‍☠️", 1.0),
    ("31 is prime: C. ✨", 1.0),
    ("Only 31 is prime, so C 🐝", 1.0),
    # not paid: a question, two letters, a doubt or a cross after the letter
    ("Thirty-one's the prime, or is it? Sing it with me: C? 🎵", 0.0),
    ("Sing it with me: C or D! 🎵", 0.0),
    ("Sing it with me: C! 🤔", 0.0),
    ("Sing it with me: C ❌ — I'm not sure it's prime.", 0.0),
])
def test_a_decorative_pictograph_closes_a_line_final_letter(completion, expected):
    assert scorer(ChoiceAccuracy, PRIME_SONG)(completion, "C") == expected


@pytest.mark.parametrize("completion, gold, expected", [
    ("Answer: it's 102", "102", 1.0),
    ("Answer: It is 102.", "102", 1.0),
    ("Final answer: That's 102!", "102", 1.0),
    ("Riddle: I'm just past a hundred and even. What number am I?\n\nAnswer: I'm 102!", "102", 1.0),
    ("Answer: it’s $102$.", "102", 1.0),
    ("Answer: it's 1,200", "1200", 1.0),
    ("Answer: it is -3.", "-3", 1.0),
    # not paid: a denial, a hedge, another value, an estimate
    ("Answer: it's not 102", "102", 0.0),
    ("Answer: it's 102 or 104", "102", 0.0),
    ("Answer: it's 104", "102", 0.0),
    ("Answer: it's about 102, maybe less", "102", 0.0),
])
def test_a_subject_and_copula_opening_the_answer_span_are_its_frame(completion, gold, expected):
    assert scorer(MathAccuracy, PRODUCT)(completion, gold) == expected


@pytest.mark.parametrize("completion, expected", [
    ("Seventeen times six, let's see:\nsixty plus forty-two is 102, as neat as can be!\n\n(Sorry, the meter got away from me there 😅)", 1.0),
    ("17 × 6 = 102.\n\nHope you enjoyed the little rhyme, it was fun 🎶 🎶", 1.0),
    ("17 × 6 = 102.\n\n(Sorry, the meter got away from me there 😅)", 1.0),
    # not paid: the closing line takes the answer back or doubts it
    ("17 × 6 = 102.\n\nHmm, wait, I might have slipped — maybe 104 😅", 0.0),
    ("17 × 6 = 102.\n\n(Sorry, I think it might be 104 though 🤔)", 0.0),
])
def test_an_emoji_is_no_word_of_a_short_closing_remark(completion, expected):
    assert scorer(MathAccuracy, PRODUCT)(completion, "102") == expected


@pytest.mark.parametrize("completion, gold, expected", [
    ("Aurum, Latin gold —\nsilver is Ag, not ours:\nthe answer is A.", "A", 1.0),
    ("Silver is Ag, not ours. Gold is Au.\n\nThe answer is A.", "A", 1.0),
    ("Ag — not the one we want; the answer is A.", "A", 1.0),
    # not paid: the writer's letter is another one
    ("Au, not ours: the answer is B.", "A", 0.0),
])
def test_an_elliptical_verdict_denies_the_option_before_it(completion, gold, expected):
    assert scorer(ChoiceAccuracy, GOLD_SYMBOL)(completion, gold) == expected


def test_an_elliptical_verdict_denies_a_boxed_value():
    assert scorer(MathAccuracy, PRODUCT)("\\boxed{102}, not my answer -- the book's. Mine is 104.", "102") == 0.0


_DECORATION = st.sampled_from(["🎵", "🎶", "🏴‍☠️", "✨", "🐝", "🌞", "🎉", "⭐", "🦜", "🍎", "🚀"])
_NOT_DECORATION = st.sampled_from(["🤔", "😬", "🤷", "❌", "❓", "🚫", "⚠️"])


@settings(max_examples=40, deadline=None)
@given(decoration=st.lists(_DECORATION, min_size=1, max_size=3), mark=st.sampled_from(["!", ".", ""]))
def test_decoration_after_a_committed_letter_never_lowers_a_genuine_score(decoration, mark):
    tail = " " + " ".join(decoration)
    assert scorer(ChoiceAccuracy, PRIME_SONG)(f"Only 31 is prime, so sing it with me: C{mark}{tail}", "C") == 1.0


@settings(max_examples=40, deadline=None)
@given(decoration=st.lists(_DECORATION, max_size=2), doubt=_NOT_DECORATION)
def test_a_doubt_or_cross_after_a_letter_never_pays(decoration, doubt):
    tail = " " + " ".join([*decoration, doubt])
    assert scorer(ChoiceAccuracy, PRIME_SONG)(f"Sing it with me: C or D?{tail}", "C") == 0.0
    assert scorer(ChoiceAccuracy, PRIME_SONG)(f"Is it C?{tail}", "C") == 0.0


@settings(max_examples=30, deadline=None)
@given(frame=st.sampled_from(["it's", "It is", "That's", "I'm", "this is", "We're"]),
       other=st.sampled_from(["104", "not 102", "102 or 104", "maybe 102", "102?"]))
def test_a_framed_answer_span_pays_only_the_value_it_states(frame, other):
    score = scorer(MathAccuracy, PRODUCT)
    assert score(f"Answer: {frame} 102.", "102") == 1.0
    assert score(f"Answer: {frame} {other}", "102") == 0.0


@settings(max_examples=60, deadline=None)
@given(junk=JUNK, letter=LETTER)
def test_hostile_text_around_the_new_rules_never_raises(junk, letter):
    read_filled(("So {l} is the choice {j}", "Correct, it's {l} {j}", "sing it: {l}! 🎵{j}", "Answer: it's {j}",
                 "{j}, not ours: the answer is {l}.", "102!\n\n({j} 😅)"), junk, letter)
