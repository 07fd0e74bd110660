"""What ``holdout93`` (multiple choice attacked where the letter meets words, written blind) and ``holdout94`` (long
reasoning transcripts; no miss) showed, tables of realistic output both ways:

* **a correction inside one answer span** (``span_corrections.py``): ``<answer>16, no: 15</answer>`` and
  ``<answer>(C), no: (E)</answer>`` commit to the corrected value -- paid for it, refused for the value taken back;
  a second part that asks, offers two values or states none is read as before.
* **letters joined by a pipe** (``choice._in_option_list``): ``<answer>C|D</answer>`` offers two options, as
  ``C/D`` does; one letter beside a table's pipes still pays.
* **an answer label set in LaTeX text outside math** (``reading._LABEL_IN_TEXT``): ``\\textbf{Answer:} $x =
  \\sqrt{2}$`` is the label ``Answer:`` and its value, in the languages of the answer headings.
* **options each held under a condition, the letter first** (``conditional_letters._LETTER_BRANCH``): "(B) fits if
  X. (C) fits if Y." chooses neither; a letter settled after the branches, "even if", or one letter alone still pays.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.conditional_letters import answers_under_conditions
from polyreward.verifiers.span_corrections import corrected_answer_line, corrected_value

HYPOTENUSE = "A right triangle has legs 9 and 12. What is its hypotenuse?"
hypotenuse = scorer(MathAccuracy, HYPOTENUSE)
LCM = ("What is the least common multiple of 8 and 12?\n(A) 4\n(B) 96\n(C) 48\n(D) 36\n(E) 24\n"
       "Answer with the letter of the single best option.")
lcm = scorer(ChoiceAccuracy, LCM)


@pytest.mark.parametrize("completion, gold, paid", [
    # the split's genuine rows and their twins refused for the value taken back
    ("$\\sqrt{81+144}=\\sqrt{225}$.\n\n<answer>16, no: 15</answer>", "15", 1.0),
    ("$\\sqrt{81+144}=\\sqrt{225}$.\n\n<answer>16, no: 15</answer>", "16", 0.0),
    ("Sum of first n odd numbers is n^2.\n\n<answer>144, no: 156</answer>", "144", 0.0),
    # other separators and correcting words, other languages
    ("<answer>16 -- no: 15</answer>", "15", 1.0),
    ("<answer>16, no, 15</answer>", "15", 1.0),
    ("<answer>16 → correction: 15</answer>", "15", 1.0),
    ("<answer>16; scratch that, 15</answer>", "15", 1.0),
    ("<answer>16, I mean 15</answer>", "15", 1.0),
    ("<answer>16, nein: 15</answer>", "15", 1.0),
    ("<answer>16, non : 15</answer>", "15", 1.0),
    ("<answer>16 cm, no: 15 cm</answer>", "15", 1.0),
    ("Answer: 16, no: 15", "15", 1.0),
    ("The answer is 16; correction: 15.", "15", 1.0),
    ("Answer: 16, no: 15", "16", 0.0),
    # the second part asks, offers two, or takes it all back: no answer
    ("<answer>16, no: 15?</answer>", "15", 0.0),
    ("<answer>16, no: 15 or 17</answer>", "15", 0.0),
    ("<answer>15, no: I'm not sure</answer>", "15", 0.0),
    ("<answer>16, no: 15</answer>\n\nScratch that.", "15", 0.0),
    # a plain block is read as before
    ("<answer>15</answer>", "15", 1.0),
    ("<answer>15</answer> (the hypotenuse, not a leg)", "15", 1.0),
])
def test_a_correction_inside_the_math_answer_span(completion, gold, paid):
    assert hypotenuse(completion, gold) == paid


@pytest.mark.parametrize("completion, gold, paid", [
    ("8 = 2^3, 12 = 2^2·3, so lcm = 2^3·3 = 24.\n\n<answer>(C), no: (E)</answer>", "E", 1.0),
    ("8 = 2^3, 12 = 2^2·3, so lcm = 2^3·3 = 24.\n\n<answer>(C), no: (E)</answer>", "C", 0.0),
    ("Multiples of 12: 12, 24, 36, 48. 24 is divisible by 8.\n\n<answer>(E), no: (C)</answer>", "E", 0.0),
    ("<answer>C, no: E</answer>", "E", 1.0),
    ("<answer>(C). Correction: (E)</answer>", "E", 1.0),
    ("<answer>(C) — I mean (E)</answer>", "E", 1.0),
    ("<answer>C, non : E</answer>", "E", 1.0),
    ("<answer>C, nein: (E) 24</answer>", "E", 1.0),
    ("<answer>(C), no: (E)?</answer>", "E", 0.0),
    ("<answer>(C), no: (E) or (B)</answer>", "E", 0.0),
    ("<answer>(E)</answer>", "E", 1.0),
    # the same on an answer line
    ("lcm(8, 12) = 24.\n\nAnswer: (C), no: (E)", "E", 1.0),
    ("lcm(8, 12) = 24.\n\nAnswer: (C), no: (E)", "C", 0.0),
    ("**Final answer:** C, no: E\n\n24 is the smallest common multiple.", "E", 1.0),
    ("Respuesta: C, no: E", "E", 1.0),
    ("Answer: (C), no doubt.", "C", 1.0),
    ("Answer: (C), no: (E)?", "E", 0.0),
    ("Answer: C, no: E or B", "E", 0.0),
])
def test_a_correction_inside_the_choice_answer_block(completion, gold, paid):
    assert lcm(completion, gold) == paid


@pytest.mark.parametrize("span, value", [
    ("16, no: 15", "15"),
    ("(C), no: (E)", "(E)"),
    ("\\frac{1}{2}, no: \\frac{1}{3}", "\\frac{1}{3}"),
    ("x = 4 — correction: x = 5", "x = 5"),
    ("15", None),
    ("16, rather than 15", None),
    ("15 (not 16)", None),
    ("(E), no, I'd rather not say", None),
    ("The answer is 16. Wait, that is wrong. No: 15", None),
])
def test_corrected_value_reads_one_shape(span, value):
    assert corrected_value(span) == value


_VALUES = st.one_of(st.integers(-999, 9999).map(str), st.sampled_from(["(A)", "(B)", "C", "D", "\\frac{3}{4}", "x = 7"]))
_WORDS = st.sampled_from([", no: ", " -- no: ", ", no, ", "; correction: ", " → correction: ", ", scratch that, ",
                          ", I mean ", ", nein: ", ". Correction: "])


@settings(max_examples=60, deadline=None)
@given(first=_VALUES, word=_WORDS, second=_VALUES)
def test_a_span_corrects_to_its_second_value(first, word, second):
    assert corrected_value(f"{first}{word}{second}") == second


@settings(max_examples=80, deadline=None)
@given(st.text(max_size=200))
def test_corrected_value_is_a_tail_of_the_span_or_none(span):
    found = corrected_value(span)
    assert found is None or (found and found in span)


_ANSWER_PHRASE = r"(?i:answer)\s*:"


@settings(max_examples=80, deadline=None)
@given(before=st.text(max_size=80), pair=st.lists(st.sampled_from("ABCDE"), min_size=2, max_size=2, unique=True),
       word=_WORDS, after=st.text(alphabet=st.characters(blacklist_characters="\n"), max_size=40).filter(lambda tail: "answer" not in tail.lower()))
def test_an_answer_line_is_read_at_its_correction(before, pair, word, after):
    text = f"{before}\nAnswer: {pair[0]}{word}{pair[1]}\n{after}"
    read = corrected_answer_line(text, _ANSWER_PHRASE)
    assert read.endswith(f" {pair[1]}\n{after}")  # the line after the last answer phrase is the corrected value
    assert corrected_answer_line(f"{before}\nAnswer: {pair[1]}\n{after}", _ANSWER_PHRASE).endswith(f"Answer: {pair[1]}\n{after}")


PAST_PERFECT = ("Choose the correct form: 'By the time we arrived, the film ____.'\nA) has started\nB) starts\n"
                "C) was starting\nD) had started\nE) will have started\nAnswer with the letter of the single best option.")
past_perfect = scorer(ChoiceAccuracy, PAST_PERFECT, gold="D")


@pytest.mark.parametrize("completion, paid", [
    ("Past perfect is needed for an action completed before another past action, but the continuous also works "
     "colloquially.\n\n<answer>C|D</answer>", 0.0),
    ("<answer>C | D</answer>", 0.0),
    ("<answer>C||D</answer>", 0.0),
    ("Answer: C|D", 0.0),
    ("**Answer:** D | C", 0.0),
    ("<answer>D</answer>", 1.0),
    ("| Form | Verdict |\n|---|---|\n| C | wrong aspect |\n| D | past perfect |\n\n**Answer: D**", 1.0),
    ("| Option | Tense |\n|---|---|\n| C | past continuous |\n| D | past perfect |\n\nThe earlier action takes the past perfect.\n\nAnswer: D", 1.0),
])
def test_letters_joined_by_a_pipe_are_two_options(completion, paid):
    assert past_perfect(completion) == paid


ROOT = "Find the positive solution of $x^2 - 2 = 0$."
root = scorer(MathAccuracy, ROOT, gold="\\sqrt{2}")


@pytest.mark.parametrize("completion, paid", [
    ("$x^2 = 2$, and we want the positive root.\n\n\\textbf{Answer:} $x = \\sqrt{2}$", 1.0),
    ("\\textbf{Final answer:} $\\sqrt{2}$", 1.0),
    ("\\emph{Answer:} $x=\\sqrt{2}$", 1.0),
    ("\\underline{Answer:} $\\sqrt{2}$", 1.0),
    ("\\textbf{Respuesta:} $x = \\sqrt{2}$", 1.0),
    ("\\textbf{Antwort:} $\\sqrt{2}$", 1.0),
    ("\\textbf{Answer: } $\\sqrt{2}$", 1.0),
    ("\\textbf{Answer:} $x = \\sqrt{3}$", 0.0),
    ("\\textbf{Answer:} $x = -\\sqrt{2}$", 0.0),
    ("\\textbf{Answer:} $\\sqrt{2}$ or $-\\sqrt{2}$, I can't tell which", 0.0),
])
def test_an_answer_label_in_latex_text_outside_math(completion, paid):
    assert root(completion) == paid


HEART = ("In a patient with systolic heart failure, which change is caused by chronic untreated hypertension and "
         "worsens ejection?\nA. Decreased preload\nB. Increased afterload\nC. Decreased contractility from "
         "hypokalaemia\nD. Bradycardia\nE. Increased venous capacitance\nAnswer with the letter of the single best option.")
heart = scorer(ChoiceAccuracy, HEART, gold="B")


@pytest.mark.parametrize("completion, paid", [
    ("### Is it (B)?\n\n(B) fits if the hypertension is the main driver. (C) fits if the diuretics have caused "
     "hypokalaemia. The stem gives both, so I can't settle it.", 0.0),
    ("(B) fits if the hypertension is the main driver. (C) fits if the diuretics have caused hypokalaemia.", 0.0),
    ("B would be right if the pressure load dominates; C would be right when potassium is low.", 0.0),
    ("B is the answer only if he is still hypertensive. C is the answer if the diuretics dropped his potassium.", 0.0),
    ("(B) passt, wenn der Bluthochdruck die Ursache ist. (C) passt, wenn das Kalium niedrig ist.", 0.0),
    # settled after the branches, a concession, one letter under a condition, or one letter both ways: paid
    ("(B) fits if the hypertension is the main driver. (C) fits if the diuretics caused hypokalaemia. "
     "His potassium is normal, so the answer is B.", 1.0),
    ("B is correct even if the diuretics have lowered his potassium: afterload is what the hypertension raises.", 1.0),
    ("B fits if the hypertension is untreated, and the stem says it is. Answer: B", 1.0),
    ("**Answer: B** — increased afterload. C would only matter if he were on diuretics.", 1.0),
    ("Answer: B (increased afterload).", 1.0),
])
def test_options_each_held_under_a_condition_letter_first(completion, paid):
    assert heart(completion) == paid


@settings(max_examples=60, deadline=None)
@given(pair=st.lists(st.sampled_from("ABCDE"), min_size=2, max_size=2, unique=True),
       verb=st.sampled_from(["fits", "would be right", "is correct", "works"]),
       cond=st.sampled_from(["if", "when", "only if", "provided"]))
def test_two_letters_each_under_a_condition_choose_neither(pair, verb, cond):
    first, second = pair
    text = f"({first}) {verb} {cond} the first reading holds. ({second}) {verb} {cond} the second one does."
    assert answers_under_conditions(text, text.index(f"({first})"), first, "ABCDE")
    assert not answers_under_conditions(f"({first}) {verb} {cond} the first reading holds.", 0, first, "ABCDE")
