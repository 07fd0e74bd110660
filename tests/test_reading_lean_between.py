"""A lean on one of two alternatives just offered is no commitment (stop 63): "42 or 45, probably 42",
"Final: A/B, leaning B", "Is it C or D? Likely D." A belief word alone still commits ("Probably 42.", "It's most
likely D." -- MedQA's phrasing), and so do a decision and a pick with its reason after two candidates. Rule:
``commitment.lean_between_alternatives``, read by ``commitment.hedged`` for every answer reader."""

import pytest
from hypothesis import given, strategies as st

from polyreward.verifiers.choice import verify_choice
from polyreward.verifiers.commitment import lean_between_alternatives
from polyreward.verifiers.math import verify

MATH = [
    # (completion, paid for the gold 42?)
    ("The two cases give 42 or 45, probably 42.", False),
    ("Final: 42/45, probably 42", False),
    ("So the count is 42 or 45 -- most likely 42.", False),
    ("Is it 42 or 45? Probably 42.", False),
    ("It comes out as 42 or 45, I think 42.", False),
    ("Either 42 or 45; leaning towards 42.", False),
    ("$x = 42$ or $x = 45$, my bet is $42$.", False),
    ("42 or 45? If forced, 42.", False),
    # genuine: a lone belief word, a decision, a pick with its reason, other numbers before the "or"
    ("6 \\times 7 = 42, so the total is probably 42.", True),
    ("It is most likely 42.", True),
    ("42 or 45 -- definitely 42.", True),
    ("I first got 42 or 45. Checking: 45 leaves a remainder, so the answer is 42.", True),
    ("Each lap takes 6 or 7 minutes; the total is 42.", True),
    ("Half of 84 is 42, so \\boxed{42}.", True),
    # one value written twice is no pair of alternatives (compared as numbers, not as text)
    ("The total is 42 or 42.0 in decimal form, probably 42.", True),
    ("Written out: 42 or 42.00, most likely 42.", True),
    ("It is 4.2 or 42, probably 42.", False),
]


@pytest.mark.parametrize("completion, paid", MATH)
def test_math(completion, paid):
    assert (verify(pred=completion, ref="42").score == 1.0) is paid


CHOICE = [
    ("C or D, probably D.", False),
    ("Final: C/D, leaning D", False),
    ("It's C or D. I'd say D.", False),
    ("Between C or D -- likely D.", False),
    # genuine
    ("It's most likely D.", True),
    ("Final: A/B are both wrong; the answer is D.", True),
    ("Not C or A -- most likely D.", True),
    ("C or D? C fails the dosing check, so D.", True),
    ("**Answer: D**", True),
]


@pytest.mark.parametrize("completion, paid", CHOICE)
def test_choice(completion, paid):
    assert (verify_choice(pred=completion, ref="D").score == 1.0) is paid


_WORDS = st.sampled_from(["probably", "likely", "most likely", "I think", "leaning", "I'd say", "my guess is"])


@given(st.integers(1, 10**6), st.integers(1, 10**6), _WORDS, st.sampled_from([", ", "? ", " -- ", "; "]), st.sampled_from([" or ", "/"]))
def test_a_lean_between_two_values_is_never_paid(a, b, word, mark, joiner):
    """Whatever the values, the belief word and the marks, a lean on one of two different values is not paid; the
    same lean with one value alone is paid as before or not, but never more."""
    text = f"{a}{joiner}{b}{mark}{word} {a}."
    start = text.rindex(str(a))
    assert lean_between_alternatives(text, start, start + len(str(a))) is (a != b)
    if a != b:
        assert verify(pred=text, ref=str(a)).score == 0.0
