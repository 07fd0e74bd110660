"""Red team holdout125 (spoken and conversational transcripts; written blind): the rules its misses, and the variants of
its kinds tried by hand afterwards, led to.

* A number in words after a contracted copula closes the line as after ``is`` (``so that's two hundred ten minutes``,
  ``the answer's forty-two``; not ``let's``), and after it a known unit of two words as well as one noun (``it's
  negative seven degrees Celsius``, ``he's forty-two years old``; ``answer_forms.STATED_IN_WORDS``,
  ``answer_forms.stated_number_words``, ``units.OPENS_WITH_UNIT``).
* A last sentence that is a number in words alone states the answer, as a last line does (``so, um, one twenty. One
  hundred twenty.``; ``answer_extraction._extract_from_line``).
* A transcript's time mark opening a line (``[00:02:10] Student: ...``, ``(12:03) um, ...``) is no value
  (``dialogues.TIME_MARK``, read by ``answer_extraction._extract_from_line``), and a short closing line of words with no
  value (``Examiner: Good.``) is read past when the work above states its number in words too, as it was after digits
  (``answer_extraction._without_closing_words``).
* A spoken self-repair that opens its line (``A -- I mean B.``, ``A -- sorry, I mean B, the cell. B.``) reads as the
  letter it corrects to; a speaker's label stays the speaker's (``Student: A -- I mean B.`` reads as ``Student: B.``;
  ``span_corrections.corrected_line_openings``, read by ``choice._committed_letter``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.dialogues import without_time_marks
from polyreward.verifiers.span_corrections import corrected_line_openings

MINUTES = "How many minutes are there in 3.5 hours?"
TEMPERATURE = "The temperature is 5°C and then drops by 12 degrees. What is the new temperature, in °C?"
PRODUCT = "What is $6 \\times 7$?"
FACTORIAL = "Compute $5!$."
CELL = ("What is the smallest unit of life?\nA. atom\nB. cell\nC. tissue\nD. organ\n\n"
        "Answer with the letter of the correct option.")


@pytest.mark.parametrize("completion, gold, prompt, expected", [
    # a contracted copula before the number in words
    ("Three and a half hours is three times sixty plus thirty, so that's two hundred ten minutes.", "210", MINUTES, 1.0),
    ("So that's two hundred ten minutes.", "210", MINUTES, 1.0),
    ("Six sevens... so the answer's forty-two.", "42", PRODUCT, 1.0),
    ("Half of fifty, so that's twenty-five percent.", "25", "What percent of 200 is 50?", 1.0),
    ("Twelve hundreds make it, so that's twelve hundred.", "1200", "What is $12 \\times 100$?", 1.0),
    # a known unit of two words after the number
    ("Okay, so, five minus twelve... that goes below zero, so it's negative seven degrees Celsius.", "-7", TEMPERATURE, 1.0),
    ("Five minus twelve is below zero, so it is minus seven degrees Fahrenheit.", "-7", TEMPERATURE, 1.0),
    ("He was born long ago, so he's forty-two years old.", "42", "How old is he?", 1.0),
    ("So it's forty-two square metres.", "42", "What is the area, in square metres?", 1.0),
    # what the contraction does not make an answer
    ("Let's call it forty-two.", "42", PRODUCT, 0.0),
    ("Six sevens, so that's not forty-two.", "42", PRODUCT, 0.0),
    ("Six sevens, so that's forty-two or forty-three.", "42", PRODUCT, 0.0),
    ("Six sevens, so it's forty-two more than zero.", "42", PRODUCT, 0.0),
    ("Six sevens, so that's about forty-two.", "42", PRODUCT, 0.0),
    ("So the answer is seven or so.", "7", PRODUCT, 0.0),
    ("So it's seven at most.", "7", PRODUCT, 0.0),
    ("It's forty-two. Scratch that. Forty-eight.", "42", PRODUCT, 0.0),
    ("Eighteen dollars -- no wait, sorry. So that's twenty-seven dollars.", "18", "How much does she make?", 0.0),
])
def test_a_number_in_words_after_a_contracted_copula_is_the_answer(completion, gold, prompt, expected):
    assert scorer(MathAccuracy, prompt)(completion, gold) == expected


@pytest.mark.parametrize("completion, gold, expected", [
    ("f-f-five factorial is five times four times three times two times one... so, um, one twenty. One hundred twenty.", "120", 1.0),
    ("We multiply five by four by three by two. One hundred twenty.", "120", 1.0),
    ("We multiply five by four by three by two. One hundred twenty!", "120", 1.0),
    ("Sixty, no wait. One hundred twenty.", "120", 1.0),
    # a question, a take-back or another number after it
    ("We multiply five by four by three by two. One hundred twenty?", "120", 0.0),
    ("We multiply five by four by three by two. One hundred twenty. No wait, one hundred twenty-one.", "120", 0.0),
    ("Is it one hundred twenty? Sixty.", "120", 0.0),
    ("Maybe one hundred twenty. Sixty.", "120", 0.0),
])
def test_a_last_sentence_that_is_a_number_in_words_states_the_answer(completion, gold, expected):
    assert scorer(MathAccuracy, FACTORIAL)(completion, gold) == expected


EQUATION = "Solve for $x$: $5x - 3 = 2x + 9$."


@pytest.mark.parametrize("completion, gold, expected", [
    ("[00:02:10] Student: Subtract two x, add three, so three x equals twelve, so x equals four.\n[00:02:18] Examiner: Good.", "4", 1.0),
    ("[00:02:10] Student: Subtract two x, add three, so three x equals twelve, so x equals four.", "4", 1.0),
    ("Subtract two x, add three, so three x equals twelve, so x equals four.\nExaminer: Good.", "4", 1.0),
    ("(12:03) um, so 3x = 12 and x = 4.\n(12:09) Tutor: Nice.", "4", 1.0),
    ("[00:02:10] Student: so x = 4.", "4", 1.0),
    # the time mark is never the answer, and a closing line that takes the answer back is still read
    ("[00:04:00] Student: I don't know.", "4", 0.0),
    ("(00:04) Student: um, x equals five.", "4", 0.0),
    ("Student: so x equals four.\nTutor: No.", "4", 0.0),
    ("Student: so x equals four.\nWrong.", "4", 0.0),
    ("[00:01:00] Student: is it four?\n[00:01:05] Tutor: Hmm.", "4", 0.0),
])
def test_a_transcripts_time_marks_are_no_value(completion, gold, expected):
    assert scorer(MathAccuracy, EQUATION)(completion, gold) == expected


@pytest.mark.parametrize("text, read", [
    ("[00:02:10] Student: x = 4.\n[00:02:18] Examiner: Good.", "Student: x = 4.\nExaminer: Good."),
    ("(12:03) um, so x = 4.\n(12:09) Tutor: Nice.", "um, so x = 4.\nTutor: Nice."),
    ("(12:03) um, so x = 4.", "(12:03) um, so x = 4."),  # one mark and no speaker's label: it may state a time
    ("[12:30] is when the train leaves", "[12:30] is when the train leaves"),
    ("The meeting is at [10:30].", "The meeting is at [10:30]."),  # inside a line: left as written
    ("[10:30](https://example.com) x", "[10:30](https://example.com) x"),  # a link's text
])
def test_without_time_marks_drops_only_a_transcripts_marks(text, read):
    assert without_time_marks(text) == read


@pytest.mark.parametrize("completion, expected", [
    ("A -- sorry, I mean B, the cell. B.", 1.0),
    ("A -- I mean B.", 1.0),
    ("A — oops, I mean B.", 1.0),
    ("(A) -- make that (B).", 1.0),
    ("A, no: B.", 1.0),
    ("So: A -- no, I mean B. It's B.", 1.0),
    # a repair away from the gold, or to two letters, or taken back again
    ("B -- I mean A.", 0.0),
    ("B -- sorry, I mean D, D. Going with D.", 0.0),
    ("B, no: C.", 0.0),
    ("A -- I mean B? Or C.", 0.0),
    ("A -- I mean B or C.", 0.0),
    ("A -- I mean B.\nActually, on reflection, D.", 0.0),
    ("Answer: B\nA -- I mean C.", 0.0),
])
def test_a_self_repair_that_opens_its_line_reads_as_the_letter_it_corrects_to(completion, expected):
    assert scorer(ChoiceAccuracy, CELL)(completion, "B") == expected


@pytest.mark.parametrize("text, read", [
    ("A -- I mean B.", "B."),
    ("A -- sorry, I mean B, the cell. B.", "B, the cell. B."),
    ("Student: A -- I mean B.\nExaminer: Noted.", "Student: B.\nExaminer: Noted."),
    ("[00:01:02] Student: A, no: B.", "[00:01:02] Student: B."),
    ("The answer is A, I mean the first one.", "The answer is A, I mean the first one."),  # a clause, no lone value
    ("Wind is C, as in cat -- no, I mean B.", "Wind is C, as in cat -- no, I mean B."),
])
def test_corrected_line_openings_keeps_the_speakers_label_and_leaves_clauses(text, read):
    assert corrected_line_openings(text) == read


_FILLERS = st.sampled_from(["", "um, ", "uh, ", "so, like, ", "okay so "])
_COPULAS = st.sampled_from(["that's", "it's", "that is", "it is", "the answer's", "the answer is"])
_UNITS = st.sampled_from(["", " minutes", " degrees Celsius", " years old", " square metres"])
_OTHER = st.sampled_from(["forty-eight", "thirty-six", "fifty"])


@settings(max_examples=40, deadline=None)
@given(filler=_FILLERS, copula=_COPULAS.filter(lambda copula: copula != "the answer is"), unit=st.sampled_from(["", " degrees Celsius"]))
def test_a_spoken_filler_or_a_contraction_never_lowers_a_stated_answer(filler, copula, unit):
    # (after the answer phrase "the answer is" a unit of two words is still read whole: open, not this rule's form)
    score = scorer(MathAccuracy, TEMPERATURE)
    assert score(f"Five minus twelve, {filler}so {copula} negative seven{unit}.", "-7") == 1.0


@settings(max_examples=40, deadline=None)
@given(filler=_FILLERS, copula=_COPULAS, unit=_UNITS, other=_OTHER)
def test_the_gold_in_words_repaired_away_never_pays(filler, copula, unit, other):
    score = scorer(MathAccuracy, PRODUCT)
    assert score(f"Six times seven, {filler}so {copula} forty-two{unit} -- no wait, sorry. {copula.capitalize()} {other}{unit}.", "42") == 0.0


@settings(max_examples=40, deadline=None)
@given(label=st.sampled_from(["", "Student: ", "[00:03:12] "]), joint=st.sampled_from([" -- ", ", ", " — "]),
       word=st.sampled_from(["I mean", "sorry, I mean", "no, I mean", "make that", "oops, I mean"]))
def test_a_repair_away_from_the_gold_letter_never_pays(label, joint, word):
    score = scorer(ChoiceAccuracy, CELL)
    assert score(f"{label}B{joint}{word} D.", "B") == 0.0
