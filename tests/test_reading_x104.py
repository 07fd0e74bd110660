"""Red team holdout104 (answers as small GRPO-trained models and reasoning distills write them, written blind): the
rules its misses led to.

* A box restated in another form (``\\boxed{\\frac{3}{8}}, i.e. \\boxed{0.375} as a decimal``) is one answer written
  twice, not a list of two, when the gap is a word of restatement alone or "or" and both boxes hold the same value
  (:func:`polyreward.verifiers.boxes.restated_box`); two different values stay two answers.
* A loop of one line may leave blank lines between its rounds: the final box or answer line repeated until the tokens
  run out, then cut off inside the next copy (``\\boxed{1000}`` ×5, then ``\\boxed{10``; ``\\boxed{C}`` ×4, then
  ``\\boxed{``), is read at the line it repeats (:func:`polyreward.verifiers.turns.without_unfinished_repeat`), and so
  is the same loop of boxes on one line (``\\boxed{1000} \\boxed{1000} \\boxed{10``); a loop that alternates, or a
  single box then a cut-off one, stays cut off.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.boxes import last_boxed, restated_box
from polyreward.verifiers.turns import without_unfinished_repeat

FRACTION = "Express $0.375$ as a common fraction."
POWER = "What is the value of $2^{10} - 24$?"
AIR = "Which gas makes up most of Earth's atmosphere?\nA. Oxygen\nB. Carbon dioxide\nC. Nitrogen\nD. Argon"

# ------------------------------------------------------------------ a box restated in another form

RESTATED_GENUINE = [  # (completion, gold)
    ("0.375 = 375/1000 = 3/8.\n\nSo the answer is \\boxed{\\frac{3}{8}}, i.e. \\boxed{0.375} as a decimal.", "\\frac{3}{8}"),
    ("So the answer is \\boxed{\\frac{3}{8}}, that is, \\boxed{0.375}.", "\\frac{3}{8}"),
    ("\\boxed{\\frac{3}{8}} (or, as a decimal, \\boxed{0.375})", "\\frac{3}{8}"),
    ("\\boxed{\\frac{3}{8}}, or equivalently \\boxed{37.5\\%}.", "\\frac{3}{8}"),
    ("The probability is \\boxed{\\frac{1}{4}}, i.e. \\boxed{0.25}.", "\\frac{1}{4}"),
    ("x = \\boxed{\\frac{5}{2}}, i.e. \\boxed{2.5}", "2.5"),
    ("The answer is \\boxed{\\frac{3}{8}} or \\boxed{0.375}.", "\\frac{3}{8}"),
    ("The answer is \\boxed{\\frac{3}{8}}, or \\boxed{0.375} as a decimal.", "\\frac{3}{8}"),
]
RESTATED_REFUSED = [  # (completion, gold): two values, or a list that is no restatement
    ("So the answer is \\boxed{\\frac{3}{8}}, i.e. \\boxed{0.5} as a decimal.", "\\frac{3}{8}"),
    ("So the answer is \\boxed{0.5}, i.e. \\boxed{\\frac{3}{8}}.", "\\frac{3}{8}"),
    ("\\boxed{\\frac{3}{8}}, \\boxed{0.375}, \\boxed{0.6}", "\\frac{3}{8}"),
    ("\\boxed{\\frac{3}{8}} or \\boxed{\\frac{5}{8}}", "\\frac{3}{8}"),
    ("\\boxed{\\frac{3}{8}} or \\boxed{0.5}", "\\frac{3}{8}"),
    ("\\boxed{\\frac{3}{8}} or \\boxed{0.5}", "0.5"),
    ("\\boxed{\\frac{3}{8}}\\boxed{0.375}\\boxed{0.5}", "\\frac{3}{8}"),
    ("The probability is \\boxed{\\frac{1}{4}}, i.e. \\boxed{0.2}, not sure.", "\\frac{1}{4}"),
]


@pytest.mark.parametrize(("completion", "gold"), RESTATED_GENUINE)
def test_a_box_restated_in_another_form_is_one_answer(completion, gold):
    assert scorer(MathAccuracy, FRACTION)(completion, gold) == 1.0


@pytest.mark.parametrize(("completion", "gold"), RESTATED_REFUSED)
def test_two_different_boxes_stay_two_answers(completion, gold):
    assert scorer(MathAccuracy, FRACTION)(completion, gold) == 0.0


@settings(max_examples=60, deadline=None)
@given(numerator=st.integers(1, 9), denominator=st.sampled_from([2, 4, 5, 8, 10]),
       gap=st.sampled_from([", i.e. ", ", that is, ", " (or, as a decimal, ", ", or equivalently ", " i.e. ", " or ", ", or "]),
       offset=st.sampled_from([0, 1, 2]))
def test_restated_box_joins_only_equal_values(numerator, denominator, gap, offset):
    """The last box alone is read when it restates the one before with the same value; a different value is no
    restatement."""
    fraction = f"\\frac{{{numerator}}}{{{denominator}}}"
    decimal = f"{(numerator + offset) / denominator:g}"
    text = f"The answer is \\boxed{{{fraction}}}{gap}\\boxed{{{decimal}}}."
    assert restated_box(gap, fraction, decimal) == (offset == 0)
    if offset == 0:
        assert last_boxed(text) == decimal


# ------------------------------------------------------------------ a loop of one line with blank lines between rounds

def _loop(line: str, rounds: int, cut: str, blank: str = "\n\n") -> str:
    return "Working.\n\n" + blank.join([line] * rounds) + blank + cut


LOOP_GENUINE = [  # (completion, gold)
    ("2^{10} = 1024, and 1024 - 24 = 1000.\n\n\\boxed{1000}\n\n\\boxed{1000}\n\n\\boxed{1000}\n\n\\boxed{1000}\n\n"
     "\\boxed{1000}\n\n\\boxed{10", "1000"),
    ("1024 - 24 = 1000.\n\n\\boxed{1000}\n\n\\boxed{1000}\n\n\\boxed{", "1000"),
    ("1024 - 24 = 1000.\n\nThe answer is \\boxed{1000}.\n\nThe answer is \\boxed{1000}.\n\nThe answer is \\boxed{1000}.\n\n"
     "The answer is \\box", "1000"),
    ("1024 - 24 = 1000.\n\n**Final Answer: 1000**\n\n**Final Answer: 1000**\n\n**Final Answer: 1000**\n\n**Final Ans",
     "1000"),
    # the same loop on one line: boxes side by side, spaces or math delimiters between
    ("1024 - 24 = 1000.\n\n\\boxed{1000} \\boxed{1000} \\boxed{1000} \\boxed{10", "1000"),
    ("1024 - 24 = 1000.\n\\boxed{1000}\\boxed{1000}\\boxed{", "1000"),
    ("1024 - 24 = 1000, so $\\boxed{1000}$ $\\boxed{1000}$ $\\boxed{100", "1000"),
]
LOOP_REFUSED = [  # (completion, gold): an alternating loop, or one box then a cut-off one, is cut off
    ("1024 - 24 = 1000.\n\n\\boxed{1000}\n\n\\boxed{1024}\n\n\\boxed{1000}\n\n\\boxed{1024}\n\n\\boxed{", "1000"),
    ("1024 - 24 = 1000.\n\n\\boxed{1000}\n\n\\boxed{10", "1000"),
    ("1024 - 24 = 1000.\n\n\\boxed{1000}\n\nWait, maybe 1024.\n\n\\boxed{1000}\n\n\\boxed{10", "1000"),
    ("1024 - 24 = 1000.\n\n\\boxed{100}\n\n\\boxed{100}\n\n\\boxed{100}\n\n\\boxed{1000", "1000"),
    ("1024 - 24 = 1000.\n\n\\boxed{1000} \\boxed{1024} \\boxed{1000} \\boxed{1024} \\boxed{", "1000"),
    ("1024 - 24 = 1000.\n\n\\boxed{1000} \\boxed{10", "1000"),
    ("1024 - 24 = 1000.\n\n\\boxed{1000}, \\boxed{1000}, \\boxed{10", "1000"),
]


@pytest.mark.parametrize(("completion", "gold"), LOOP_GENUINE)
def test_a_one_line_loop_with_blank_lines_is_read_at_its_line(completion, gold):
    assert scorer(MathAccuracy, POWER)(completion, gold) == 1.0


@pytest.mark.parametrize(("completion", "gold"), LOOP_REFUSED)
def test_a_cut_off_box_outside_a_one_line_loop_stays_cut_off(completion, gold):
    assert scorer(MathAccuracy, POWER)(completion, gold) == 0.0


@pytest.mark.parametrize(("completion", "gold", "expected"), [
    ("Nitrogen is about 78% of the atmosphere.\n\n\\boxed{C}\n\n\\boxed{C}\n\n\\boxed{C}\n\n\\boxed{C}\n\n\\boxed{", "C", 1.0),
    ("Nitrogen is about 78% of the atmosphere.\n\nAnswer: C\n\nAnswer: C\n\nAnswer: C\n\nAnswer", "C", 1.0),
    ("Nitrogen.\n\n\\boxed{C}\n\n\\boxed{A}\n\n\\boxed{C}\n\n\\boxed{A}\n\n\\boxed{", "C", 0.0),
    ("Nitrogen.\n\n\\boxed{A}\n\n\\boxed{A}\n\n\\boxed{A}\n\n\\boxed{", "C", 0.0),
    ("Nitrogen is about 78% of the atmosphere.\n\n\\boxed{C}\\boxed{C}\\boxed{C}\\boxed{", "C", 1.0),
    ("Nitrogen.\n\n\\boxed{C}\\boxed{A}\\boxed{C}\\boxed{A}\\boxed{", "C", 0.0),
])
def test_a_letter_loop_with_blank_lines(completion, gold, expected):
    assert ChoiceAccuracy().evaluate([AIR], [completion], answer=[gold]).scores[0] == expected


@settings(max_examples=60, deadline=None)
@given(line=st.sampled_from(["\\boxed{1000}", "Answer: C", "The answer is \\boxed{42}.", "#### 18"]),
       rounds=st.integers(2, 8), keep=st.integers(1, 6), blank=st.sampled_from(["\n", "\n\n", "\n \n", "\n\n\n"]))
def test_the_cut_off_round_of_a_one_line_loop_is_dropped(line, rounds, keep, blank):
    """A strict prefix of the repeated line after two rounds or more, with only blank lines between, is dropped; the
    rounds before it are kept whole."""
    cut = line[:min(keep, len(line) - 1)]
    text = _loop(line, rounds, cut, blank)
    read = without_unfinished_repeat(text)
    if len(cut.strip()) >= 2:
        assert read.rstrip() == _loop(line, rounds, "", blank).rstrip()
    assert read.count(line) == rounds


@settings(max_examples=60, deadline=None)
@given(value=st.sampled_from(["1000", "C", "\\frac{3}{8}", "-5", "2\\sqrt{3}"]), other=st.sampled_from(["7", "B", "\\frac{5}{8}"]),
       rounds=st.integers(1, 6), keep=st.integers(0, 8), gap=st.sampled_from(["", " ", "$ $", "  "]))
def test_a_box_loop_on_one_line_drops_only_its_cut_off_copy(value, other, rounds, keep, gap):
    """A cut-off copy of a box written twice or more in a row on one line is dropped; after a single box, or after a
    box that differs from the one before it, the text is left as it is."""
    box = f"\\boxed{{{value}}}"
    cut = box[:len("\\boxed{") + min(keep, len(value) - 1)]
    assume(not cut.endswith("}"))  # (a copy cut right after an inner group reads as closed brackets: not handled)
    text = "So " + gap.join([box] * rounds) + gap + cut
    expected = ("So " + gap.join([box] * rounds) + gap) if rounds >= 2 else text
    assert without_unfinished_repeat(text) == expected
    mixed = "So " + gap.join([box, f"\\boxed{{{other}}}"] * rounds) + gap + cut
    assert without_unfinished_repeat(mixed) == mixed
