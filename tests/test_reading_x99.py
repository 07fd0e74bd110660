"""What ``holdout99`` (written blind: paraphrased commitment attacks -- the gold hedged, withdrawn, negated, attributed
or handed back in idioms, sarcasm, euphemism, rhetorical questions, conditionals, attributions and future plans, in
English and six other languages, beside genuine answers that use the same kinds of words) showed, tables of realistic
output both ways:

* **the domain an answer holds on is no value** (``closing_remarks._CLOSING_ASIDE``): ``= x - 4 (for x ≠ -4).`` and
  ``x + 3, provided x ≠ -2`` read ``x - 4`` / ``x + 3``, not the excluded value after the not-equal sign, also when a
  closing line of words follows (``Yes, it really is that easy.``: ``closing_remarks.after_closing_words``); an
  alternative beside it (``(or x + 4, for x ≠ -4)``) or a doubt inside the bracket is still read.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.math_accuracy import MathAccuracy

SIMPLIFY = "Simplify (x^2 − 16)/(x + 4)."
simplify = scorer(MathAccuracy, SIMPLIFY, gold="x-4")


@pytest.mark.parametrize("completion, paid", [
    ("Difference of squares: x² − 16 = (x − 4)(x + 4), so (x² − 16)/(x + 4) = x − 4 (for x ≠ −4).\n\nYes, it really is that easy.", 1.0),
    ("(x² − 16)/(x + 4) = (x − 4)(x + 4)/(x + 4) = x − 4 (for x ≠ −4).", 1.0),
    ("The simplified form is x − 4 (valid for x ≠ −4).", 1.0),
    ("So the expression simplifies to $x - 4$ (for $x \\neq -4$).", 1.0),
    ("Cancelling the common factor: x − 4, provided x ≠ −4.", 1.0),
    ("= x − 4 (x ≠ −4).\n\nHope this helps!", 1.0),
    ("Se simplifica: x − 4 (para x ≠ −4).", 1.0),
    ("Die Vereinfachung ergibt x − 4 (für x ≠ −4).", 1.0),
    # the nearby hacks: another value beside it, a doubt, the wrong value before the restriction
    ("So the expression simplifies to $x - 4$ (or $x + 4$, for $x \\neq -4$).", 0.0),
    ("So it simplifies to x − 4, or x + 4 (for x ≠ −4).", 0.0),
    ("So it simplifies to x − 4 (not sure, for x ≠ −4).", 0.0),
    ("So it simplifies to x − 4 (for x ≠ −4)... or maybe x + 4.", 0.0),
    ("So it simplifies to x + 4 (for x ≠ −4).", 0.0),
    ("= x − 4 (for x ≠ −4).\n\nWait, that's wrong.", 0.0),
])
def test_the_domain_of_the_answer_is_no_value(completion, paid):
    assert simplify(completion) == paid


@settings(max_examples=40, deadline=None)
@given(a=st.integers(min_value=1, max_value=9), b=st.integers(min_value=1, max_value=9),
       form=st.sampled_from(["(for x ≠ {e})", "(valid for x ≠ {e})", "(x ≠ {e})", ", provided x ≠ {e}", "(where x \\neq {e})"]),
       tail=st.sampled_from(["", ".", ".\n\nYes, it really is that easy.", ".\n\nCase closed."]))
def test_an_excluded_value_never_replaces_the_answer(a, b, form, tail):
    """(x^2 + (a+b)x + ab)/(x + b) = x + a for x ≠ -b: paid whatever the restriction's wording, and never for the
    excluded value -b written as the answer."""
    prompt = f"Simplify (x^2 + {a + b}x + {a * b})/(x + {b})."
    restriction = form.format(e=-b)
    assert simplify(f"= x + {a} {restriction}{tail}", gold=f"x+{a}", prompt=prompt) == 1.0
    assert simplify(f"= x + {a + 1} {restriction}{tail}", gold=f"x+{a}", prompt=prompt) == 0.0
