"""What ``holdout100`` (written blind: choice and math answers whose commitment is carried by structure -- per-option
probabilities, rankings, verdict tables, checklists, a final answer with an addendum, footnotes, ``<details>``, a
TL;DR, JSON with several keys) showed, tables of realistic output both ways:

* **a record's null answer field states no answer** (``records._walk``): ``{"answer": null, "candidates": ["C",
  "E"]}`` is the writer saying it has none, as ``"answer": ""`` is, whatever the rest of the record lists;
* **a key for a second answer beside the answer field is a second answer for math too**
  (``answer_forms.answer_fields_disagree``): ``{"answer": 56, "alternative": 336, "confidence": 0.5}`` keeps 336
  open (choice read it so since holdout57); ``"alternative": null`` offers nothing;
* **another value offered after the answer may carry its SI unit** (``clauses.offers_alternative``): ``Final answer:
  72 km/h`` then ``80 km/h is also a reasonable answer`` offers 80 as ``80 is also ...`` does.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy

CARBON = ("Which element has atomic number 6?\nA. Oxygen\nB. Nitrogen\nC. Boron\nD. Helium\nE. Carbon")
carbon = scorer(ChoiceAccuracy, CARBON, gold="E")
BINOM = "Compute $\\binom{8}{3}$."
binom = scorer(MathAccuracy, BINOM, gold="56")
TRAIN = "A train travels 180 km in 2.5 hours. What is its average speed in km/h?"
train = scorer(MathAccuracy, TRAIN, gold="72")


@pytest.mark.parametrize("completion, paid", [
    # the answer field holds null: no answer, whatever else the record lists
    ('{\n  "answer": null,\n  "candidates": ["C", "E"],\n  "confidence": {"C": 0.5, "E": 0.5}\n}', 0.0),
    ('{"answer": null, "reasoning": "Carbon has 6 protons, so E.", "confidence": 0.9}', 0.0),
    ('```json\n{"final_answer": null, "shortlist": ["E", "C"]}\n```', 0.0),
    ('{"answer": null, "scores": {"A": 0.1, "B": 0.1, "C": 0.1, "D": 0.1, "E": 0.6}}', 0.0),
    # a record that answers
    ('{"reasoning": "Carbon has 6 protons; boron has 5.", "answer": "E", "alternative": null, "confidence": "high"}', 1.0),
    ('{"answer": "E", "confidence": 0.98}', 1.0),
    ('```json\n{"answer": "E", "note": null}\n```', 1.0),
    ('{"scores": {"A": 0.01, "B": 0.0, "C": 0.01, "D": 0.0, "E": 0.98}, "answer": "E"}', 1.0),
])
def test_a_null_answer_field_answers_nothing(completion, paid):
    assert carbon(completion) == paid


@pytest.mark.parametrize("completion, paid", [
    ('{"answer": 56, "alternative": 336, "confidence": {"56": 0.5, "336": 0.5}, "note": "depends on whether order matters"}', 0.0),
    ('{"answer": 56, "alternative": 336}', 0.0),
    ('```json\n{"answer": "56", "alt": "336", "confidence": 0.5}\n```', 0.0),
    ('{"answer": 56, "backup_answer": 28}', 0.0),
    ('{"answer": null, "candidates": [56, 336]}', 0.0),
    # one answer
    ('{"work": "8·7·6 / 3! = 336 / 6", "answer": 56, "alternative": null}', 1.0),
    ('{"answer": 56, "alternative": "none"}', 1.0),
    ('{"answer": 56, "confidence": 0.97}', 1.0),
    ('```json\n{"answer": "56", "check": "C(8,5) = 56 too"}\n```', 1.0),
    ('{"answer": 56, "alternative": 56}', 1.0),
])
def test_a_second_answer_key_beside_a_math_answer(completion, paid):
    assert binom(completion) == paid


INTERVAL = "Solve the inequality $3x - 7 > 2$. Express your answer in interval notation."


def test_an_alternative_interval_is_a_second_answer():
    ineq = scorer(MathAccuracy, INTERVAL, gold="(3,\\infty)")
    assert ineq('{"answer": "(3, \\\\infty)", "alternative": "[3, \\\\infty)", "confidence": 0.5}') == 0.0
    assert ineq('{"answer": "(3, \\\\infty)", "confidence": 0.95}') == 1.0


@given(a=st.integers(1, 10 ** 6), b=st.integers(1, 10 ** 6), key=st.sampled_from(["alternative", "alt", "backup", "fallback_answer", "second_choice"]))
@settings(max_examples=40, deadline=None)
def test_property_a_second_answer_key_never_pays(a, b, key):
    if a == b:
        return
    assert binom(json.dumps({"answer": a, key: b}), gold=str(a)) == 0.0
    assert binom(json.dumps({"answer": a, key: None}), gold=str(a)) == 1.0


@pytest.mark.parametrize("completion, paid", [
    ("Final answer: 72 km/h\n\n---\nErratum: the 2.5 h probably includes a stop, so the moving speed could be higher — "
     "80 km/h is also a reasonable answer.", 0.0),
    ("Final answer: 72 km/h. 80 km/h also works.", 0.0),
    ("The average speed is 72 km/h, though 75 km/h would also be acceptable.", 0.0),
    ("Final answer: 72 km/h. 80 km/h is still on the table.", 0.0),
    ("Final answer: 72 km/h\n\n80 is also a reasonable answer.", 0.0),
    # a value with its unit that is no offer
    ("Final answer: 72 km/h. (At 80 km/h the trip would take 2.25 h.)", 1.0),
    ("Final answer: 72 km/h\n\nA car at 80 km/h would also arrive sooner.", 1.0),
    ("Final answer: 72 km/h (that is 20 m/s).", 1.0),
    ("180 km ÷ 2.5 h = 72 km/h.", 1.0),
])
def test_another_value_offered_with_its_unit(completion, paid):
    assert train(completion) == paid


@given(a=st.integers(2, 900), b=st.integers(2, 900), unit=st.sampled_from(["km/h", "cm", "kg", "m/s", "mL", "km"]),
       offer=st.sampled_from(["is also a reasonable answer", "also works", "would also be acceptable", "is equally plausible"]))
@settings(max_examples=40, deadline=None)
def test_property_an_offer_after_a_unit_is_an_offer(a, b, unit, offer):
    if a == b:
        return
    score = scorer(MathAccuracy, "What is the quantity?", gold=str(a))
    assert score(f"Final answer: {a} {unit}. {b} {unit} {offer}.") == 0.0
    assert score(f"Final answer: {a} {unit}.") == 1.0
