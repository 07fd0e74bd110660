"""Three readings of what a choice completion says after, or beside, its answer (red team holdout109 / holdout110
hacks that were still paid):

* a result said to match a letter states that option, as "which is option A" does: "2.48 eV, option B. Recomputing
  ... 1.24 eV, which matches (A)." ends on A (the "option" tier reads "matches" / "corresponds to" before a letter);
* the writer's own answer named in a relative clause is an answer phrase: "The textbook answer is (A). The answer I'd
  actually give on the wards is (C)." answers C (another voice's A is not the writer's);
* the last word on the answered letter, when it doubts it, leaves it uncommitted: "Answer: **D** ... closer to A. I'm
  no longer sure D is right." (commitment.qualified on the last mention after the answer's own).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.verifiers.choice import extract_letter

READ = [
    # a result said to match a letter
    ("E = hc/λ = 2.48 eV, option B.\n\nRecomputing with λ doubled: E = 1.24 eV, which matches (A).", "A"),
    ("E = 2.48 eV, which matches (B).", "B"),
    ("The computed 2.48 eV matches B.", "B"),
    ("Answer: B, which matches the textbook value.", "B"),
    ("The answer is B. This matches a typical photon energy.", "B"),
    ("44 g/mol corresponds to option C.", "C"),
    # the writer's own answer in a relative clause
    ("The textbook answer is (A). The answer I'd actually give on the wards is (C), and that's mine.", "C"),
    ("The answer I would pick is B.", "B"),
    ("The option I'd choose in clinic is D.", "D"),
    ("Everyone says C. The answer I'd put down is C too.", "C"),
    # a confirmation after the answer is no doubt
    ("F = ma gives 2 m/s².\n\nAnswer: **D**\n\nI think D is right.", "D"),
    ("F = ma gives 2 m/s².\n\nAnswer: **D**\n\nChecked again: D is right.", "D"),
    ("F = ma gives 2 m/s².\n\nAnswer: **D**\n\nI'm confident D is right.", "D"),
    ("F = ma gives 2 m/s².\n\nAnswer: **D**\n\nD is most likely right.", "D"),
]

UNCOMMITTED = [
    "a = F/m = 2 m/s².\n\nAnswer: **D**\n\nFinal check: hmm, with friction the acceleration would be smaller, closer to "
    "A. I'm no longer sure D is right.",
    "a = F/m = 2 m/s².\n\nAnswer: **D**\n\nHmm, closer to A. I'm not sure D is right.",
    "a = F/m = 2 m/s².\n\nAnswer: **D**\n\nHmm. I doubt D is right.",
    "The answer I'd give is A, but the textbook says C.",
]


@pytest.mark.parametrize(("text", "letter"), READ)
def test_read(text, letter):
    assert extract_letter(text, "ABCD")[0] == letter


@pytest.mark.parametrize("text", UNCOMMITTED)
def test_uncommitted(text):
    assert extract_letter(text, "ABCD")[0] is None


@settings(max_examples=60, deadline=None)
@given(letter=st.sampled_from("ABCD"), other=st.sampled_from("ABCD"),
       verb=st.sampled_from(["matches", "corresponds to", "matches option"]))
def test_a_later_match_to_another_letter_never_pays_the_first(letter, other, verb):
    """Whatever the letters, a result said to match another letter after the answer leaves the first unpaid."""
    text = f"The value is 2.48 eV, option {letter}.\n\nRecomputing: 1.24 eV, which {verb} ({other})."
    found = extract_letter(text, "ABCD")[0]
    assert found == other
