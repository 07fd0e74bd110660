"""A format the writer says its answer complies with is no format example (hedging.IDIOM_DOUBT's format heading).

"Format:" or "Output format:" opening a line shows the shape of an answer, not the answer: ``Format: \\boxed{42}``
commits to nothing, and the heading stays a doubt. The same noun inside a sentence, after a participle that says the
writer meets it -- "Final answer in the required format: \\boxed{42}", "in the requested format:", "in the expected
format:" -- introduces the writer's own answer, which a careful grader pays (it scored 0 until stop 67). A clause that
names an example, a sample or a demonstration before the format ("an example in the required format:", "to
illustrate the expected format:") still shows a format, not an answer.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy

MUFFINS = "A baker puts 7 muffins in each box. She fills 6 boxes. How many muffins does she pack?"
NOBLE = ("Which of the following elements is a noble gas?\nA. Oxygen\nB. Nitrogen\nC. Hydrogen\nD. Neon\n\n"
         "Answer with the letter of the correct option.")

COMPLIES = [
    "7 × 6 = 42.\n\nFinal answer in the required format: \\boxed{42}",
    "Each box holds 7 and there are 6 boxes, so 42.\n\nAnswer in the requested format: \\boxed{42}",
    "7 × 6 = 42. Final answer (in the specified format): \\boxed{42}",
    "7 × 6 = 42.\n\nSo, in the desired format:\n\n\\boxed{42}",
    "She packs 7 · 6 = 42 muffins. In the expected format: \\boxed{42}",
    "7 per box times 6 boxes: 42. Giving it in the prescribed format: \\boxed{42}",
]

SHOWS_A_FORMAT = [
    "Format: \\boxed{42}",
    "Answer format: \\boxed{42}",
    "Required format: \\boxed{42}",
    "Output format: \\boxed{N}. Hmm, I think 42 maybe.",
    "Here is an example in the required format: \\boxed{42}. Now let me actually solve it.",
    "Just to demonstrate the required format: \\boxed{42}",
    "To illustrate the expected format: \\boxed{42}",
    "A sample answer in the requested format: \\boxed{42}",
]


@pytest.mark.parametrize("completion", COMPLIES)
def test_an_answer_in_the_required_format_is_paid(completion):
    assert scorer(MathAccuracy, MUFFINS)(completion, "42") == 1.0


@pytest.mark.parametrize("completion", SHOWS_A_FORMAT)
def test_a_format_shown_is_not_paid(completion):
    assert scorer(MathAccuracy, MUFFINS)(completion, "42") == 0.0


@pytest.mark.parametrize(("completion", "expected"), [
    ("Neon is the only noble gas listed.\n\nFinal answer in the required format: \\boxed{D}", 1.0),
    ("Neon is a noble gas. Answer in the requested format: **D**", 1.0),
    ("Format: \\boxed{D}", 0.0),
    ("Here is an example in the required format: \\boxed{D}. Now let me think about the options.", 0.0),
])
def test_choice_reads_the_same_heading(completion, expected):
    assert scorer(ChoiceAccuracy, NOBLE)(completion, "D") == expected


@settings(max_examples=60, deadline=None)
@given(participle=st.sampled_from(["required", "requested", "specified", "expected", "prescribed", "desired"]),
       lead=st.sampled_from(["Final answer in the", "Here it is in the", "Answer, in the", "Writing it in the"]),
       gold=st.integers(min_value=-10**6, max_value=10**6))
def test_compliance_pays_exactly_the_value_boxed(participle, lead, gold):
    """A complying heading pays the boxed value and only it: another value boxed after it is not paid."""
    text = f"The computation gives {gold}.\n\n{lead} {participle} format: \\boxed{{{gold}}}"
    assert scorer(MathAccuracy, "Compute the value.")(text, str(gold)) == 1.0
    assert scorer(MathAccuracy, "Compute the value.")(text, str(gold + 1)) == 0.0
    assert scorer(MathAccuracy, "Compute the value.")(f"{participle.capitalize()} format: \\boxed{{{gold}}}",
                                                        str(gold)) == 0.0
