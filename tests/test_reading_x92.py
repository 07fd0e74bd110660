"""The two genuine answers ``holdout92`` (written blind against stop 54's reader: the classes issue #32 names, in new
variants) found refused, tables of realistic output both ways:

* **a unit the prompt asks for with its power set in math** (``units._ANY_UNIT``'s power may follow a ``$``): "What
  is its area in cm$^2$?" asks for cm², so ``$25\\text{ cm}^2$`` is in the asked unit (it was read as cm² where the
  question asks for cm); ``25 m²`` and a bare ``25 cm`` are still another unit.
* **a guess denied is no doubt** (``hedging._DOUBT``): "That's my final answer, no second-guessing." commits, as "no
  doubt" did; "my best guess", "though it's a guess" and "I guess." still doubt the answer.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.units import asked_units

AREA = "A square has side 5 cm. What is its area in cm$^2$?"
area = scorer(MathAccuracy, AREA, gold="25")
LINE = "How many ways can 4 people stand in a line?"
line = scorer(MathAccuracy, LINE, gold="24")


@pytest.mark.parametrize("completion, paid", [
    ("$5^2 = 25$\n\n**Answer:** $25\\text{ cm}^2$", 1.0),
    ("**Answer:** 25 cm²", 1.0),
    ("The area is $25\\,\\mathrm{cm}^2$.", 1.0),
    ("**Answer:** 25", 1.0),
    ("**Answer:** 25 m²", 0.0),
    ("**Answer:** 25 cm", 0.0),
    ("**Answer:** 25 mm²", 0.0),
])
def test_a_unit_asked_with_its_power_in_math(completion, paid):
    assert area(completion) == paid


@pytest.mark.parametrize("prompt, unit", [
    ("What is its area in cm$^2$?", ("cm", 2)),
    ("What is its volume in m$^3$?", ("m", 3)),
    ("What is its area in cm^2?", ("cm", 2)),
    ("What is its area in cm²?", ("cm", 2)),
    ("What is its length in cm?", ("cm", 1)),
])
def test_asked_units_read_a_power_after_a_dollar(prompt, unit):
    assert asked_units(prompt) == frozenset({unit})


@pytest.mark.parametrize("completion, paid", [
    ("Long story short: $4! = 24$. That's my final answer, no second-guessing.", 1.0),
    ("$4! = 24$. Final answer, no guessing involved.", 1.0),
    ("4! = 24 -- no second guesses.", 1.0),
    ("4! = 24, without second-guessing it.", 1.0),
    ("$4! = 24$. That's my best guess.", 0.0),
    ("$4! = 24$, though it's a guess.", 0.0),
    ("24? I guess.", 0.0),
])
def test_a_denied_guess_is_no_doubt(completion, paid):
    assert line(completion) == paid


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["cm", "m", "mm", "km", "ft"]), st.sampled_from(["2", "3"]),
       st.sampled_from(["$^{p}$", "$^{{{p}}}$", "^{p}", "$^ {p}$"]))
def test_a_power_after_the_unit_is_read_however_it_is_set(unit, power, form):
    written = form.replace("{p}", power) if "{{" not in form else form.replace("{{{p}}}", "{" + power + "}")
    assert asked_units(f"Give the answer in {unit}{written}.") == frozenset({(unit, int(power))})
