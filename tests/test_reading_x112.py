"""Red team holdout112 (structured output: JSON, JSON Patch, YAML, INI, XML-ish tags, key-value templates, forms,
answer sheets; written blind): the rules its misses led to.

* A JSON Patch (RFC 6902) written after a record is applied to it: the patched record's answer is the answer
  (``records.patched_record``): ``{"answer": 45}`` then ``[{"op": "replace", "path": "/answer", "value": 42}]`` is 42.
* An ``<answer>`` tag inside an element of work set aside (``<draft>``, ``<scratchpad>``, ``<rejected>``, ...) is
  work when a ``<final>`` / ``<final_answer>`` element stands outside it (``reading._answers_in_work``).
* A form's check box about handing the answer in: ``[ ] Submit this answer`` left empty or ``[x] Save as draft``
  ticked keeps the answer back (``answer_forms.form_withholds``); ``[x] Submit`` hands it in.
* A flag of confirmation unset on a plain record or template line (``submitted = no``, ``verified: false``,
  ``Correct?: No``) withdraws the answer, and ``"submitted": false`` in JSON (``answer_forms.PLAIN_FLAG_UNSET``).
* A filled template ``Answer: 102 | Correct?: Yes | Check: ...`` is read as its fields, one a line: the check is a
  check, ``Correct?: Yes`` no question of the writer's (``answer_forms.template_fields``).
* Radio buttons and answer-sheet bubbles are read as the ballot they show (``choice_forms.rendered_ballot``).
* A record's revised answer field is its answer (``revised_answer: 9.6`` after ``answer: 9600``), a ``| field | value
  |`` table is a record, and a ``"final_attempt": 2`` pointer picks its entry (``records``).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.answer_forms import form_withholds, template_fields
from polyreward.verifiers.choice_forms import rendered_ballot, ticked_on_ballot
from polyreward.verifiers.records import patched_record

MUFFINS = "A bakery sold 7 boxes of 6 muffins and 3 single muffins. How many muffins did it sell? Respond in JSON."
WARFARIN = ("A patient with atrial fibrillation is started on warfarin. Which test monitors its effect?\n\n"
            "A. aPTT\nB. Platelet count\nC. Anti-factor Xa level\nD. Bleeding time\nE. INR (prothrombin time)")
DNA = ("Which bonds hold the two strands of DNA together across the base pairs?\n\n"
       "A. Hydrogen bonds\nB. Phosphodiester bonds\nC. Peptide bonds\nD. Glycosidic bonds")


PATCHES = [  # (completion, gold, expected)
    ('{"answer": 45, "work": "7 × 6 + 3"}\n\nPatch after re-reading the question:\n'
     '[{"op": "replace", "path": "/answer", "value": 42}]', "45", 0.0),
    ('{"answer": 42, "work": "7 × 6"}\n\nThe singles count too. Patch:\n'
     '[{"op": "replace", "path": "/answer", "value": 45}, {"op": "replace", "path": "/work", "value": "7 × 6 + 3"}]', "45", 1.0),
    ('{"answer": 45}\n\n[{"op": "remove", "path": "/answer"}]', "45", 0.0),
    ('{"result": {"answer": 40}}\n[{"op": "replace", "path": "/result/answer", "value": 45}]', "45", 1.0),
    ('{"answer": 45}\n\n[{"op": "test", "path": "/answer", "value": 45}]', "45", 1.0),  # a test changes nothing
]


@pytest.mark.parametrize("completion, gold, expected", PATCHES)
def test_a_json_patch_after_the_record_decides_its_answer(completion, gold, expected):
    assert scorer(MathAccuracy, MUFFINS)(completion, gold) == expected


@pytest.mark.parametrize("completion, expected", [
    ('{"answer": "E", "reason": "INR"}\n\nPatch:\n[{"op": "replace", "path": "/answer", "value": "A"}]', 0.0),
    ('{"answer": "A", "reason": "heparin test"}\n\nWrong test -- patching:\n[{"op": "replace", "path": "/answer", "value": "E"}, '
     '{"op": "replace", "path": "/reason", "value": "warfarin is followed with the INR"}]', 1.0),
])
def test_a_json_patch_decides_the_letter(completion, expected):
    assert scorer(ChoiceAccuracy, WARFARIN)(completion, "E") == expected


def test_patched_record_applies_only_a_whole_patch():
    assert patched_record('{"answer": 1}\n[{"op": "replace", "path": "/answer", "value": 2}]') == {"answer": 2}
    assert patched_record('{"answer": 1}\n[{"op": "replace", "path": "/missing/x", "value": 2}]') is None
    assert patched_record('{"answer": 1}\n[{"op": "move", "from": "/answer", "path": "/x"}]') is None
    assert patched_record('{"answer": 1}\n[{"op": "replace", "path": "/answer", "value": 2}]\nActually 3.') is None
    assert patched_record('{"answer": 1}') is None


@pytest.mark.parametrize("completion, expected", [
    ("<solution>\n  <rejected>\n    <answer>9</answer>\n  </rejected>\n  <final>8</final>\n</solution>", 0.0),
    ("<scratchpad>\n100 = 2^2 · 5^2\n<answer>9</answer>\n</scratchpad>\n<final_answer>10</final_answer>", 0.0),
    ("<draft>\n<answer>8</answer>\n</draft>\n<final>9</final>", 1.0),
    ("<scratchpad>(2+1)(2+1)</scratchpad>\n<answer>9</answer>", 1.0),
    ("<answer>9</answer>\n<final>9</final>", 1.0),
])
def test_an_answer_tag_inside_work_set_aside_is_work_beside_a_final_element(completion, expected):
    assert scorer(MathAccuracy, "How many positive divisors does $100$ have?")(completion, "9") == expected


FORMS_MATH = [  # (completion, expected) for the gold 60
    ("6x = 72, x = 12, so Jake has 60.\n\nAnswer: 60\n[ ] Submit this answer\n[x] Save as draft (recheck later)", 0.0),
    ("Answer: 60\n- [ ] Submit\n- [ ] Save as draft", 0.0),
    ("Answer: 60\n[x] Mark for review", 0.0),
    ("6x = 72, x = 12, so Jake has 60.\n\nAnswer: 60\n[x] Submit this answer\n[ ] Save as draft", 1.0),
    ("Answer: 60\n[x] Units checked\n[x] Submit", 1.0),
    ("Answer: 60\n\nChecklist:\n[x] read the question\n[x] wrote the equation", 1.0),
]


@pytest.mark.parametrize("completion, expected", FORMS_MATH)
def test_a_form_box_that_keeps_the_answer_back_withdraws_it(completion, expected):
    prompt = "Jake has 5 times as many marbles as Lily. Together they have 72. How many does Jake have?"
    assert scorer(MathAccuracy, prompt)(completion, "60") == expected


@pytest.mark.parametrize("completion, expected", [
    ("Answer: A\n[ ] Submit\n[x] Skip for now and come back to it", 0.0),
    ("Answer: A\n[x] Submit\n[ ] Skip for now", 1.0),
])
def test_a_form_box_keeps_a_letter_back(completion, expected):
    prompt = "Which part of a plant takes in water from the soil?\n\nA. Roots\nB. Leaves\nC. Flowers\nD. Seeds"
    assert scorer(ChoiceAccuracy, prompt)(completion, "A") == expected


def test_a_ballot_of_options_is_no_form_about_handing_in():
    assert not form_withholds("[ ] A. Roots\n[x] B. Leaves\n[ ] C. Flowers")
    assert form_withholds("Answer: B\n[ ] Submit answer")


@pytest.mark.parametrize("completion, expected", [
    ("```ini\n[submission]\nanswer = 46\nsubmitted = no\n```", 0.0),
    ('{"answer": 46, "submitted": false}', 0.0),
    ("answer: 46\nverified: false", 0.0),
    ("Answer: 46 | Correct?: No | Reason: the boundary case is not checked", 0.0),
    ("Answer: 46\nCorrect: No", 0.0),
    ("```ini\n[submission]\nanswer = 46\nsubmitted = yes\n```", 1.0),
    ('{"answer": 46, "submitted": true}', 1.0),
    ("Answer: 46 | Correct?: Yes | Check: 33 + 19 - 6 = 46", 1.0),
    ("Answer: 46 | Confidence: high", 1.0),
])
def test_a_confirmation_flag_unset_withdraws_the_answer(completion, expected):
    prompt = "How many positive integers less than $100$ are multiples of $3$ or $5$?"
    assert scorer(MathAccuracy, prompt)(completion, "46") == expected


@pytest.mark.parametrize("completion, expected", [
    ("Answer: B | Correct?: Yes | Why: dolphins breathe air and nurse their young", 1.0),
    ("Answer: B | Correct?: No | Why: I'm not sure sharks aren't mammals", 0.0),
    ("Answer: B\nCorrect: No.", 0.0),
])
def test_a_filled_template_is_read_as_its_fields_for_a_letter(completion, expected):
    prompt = "Which of these animals is a mammal?\n\nA. Shark\nB. Dolphin\nC. Penguin\nD. Frog"
    assert scorer(ChoiceAccuracy, prompt)(completion, "B") == expected


def test_template_fields_leaves_tables_and_prose_alone():
    assert template_fields("Answer: 102 | Correct?: Yes") == "Answer: 102\nCorrect: Yes"
    assert template_fields("| a | b |\n|---|---|\n| 1 | 2 |") == "| a | b |\n|---|---|\n| 1 | 2 |"
    assert template_fields("Answer: 7 | 8 is wrong") == "Answer: 7 | 8 is wrong"  # a part that is no field
    assert template_fields("Is it correct? Yes.") == "Is it correct? Yes."


@pytest.mark.parametrize("completion, expected", [
    ('<fieldset>\n  <label><input type="radio" name="q" value="A" checked> Hydrogen bonds</label>\n'
     '  <label><input type="radio" name="q" value="B"> Phosphodiester bonds</label>\n'
     '  <label><input type="radio" name="q" value="C"> Peptide bonds</label>\n</fieldset>', 1.0),
    ('<input type="radio" name="q" value="A"> Hydrogen bonds\n<input type="radio" name="q" value="B" checked> Phosphodiester bonds\n'
     '<input type="radio" name="q" value="C"> Peptide bonds', 0.0),
    ("Answer sheet, question 3:\n\nA ●   B ○   C ○   D ○", 1.0),
    ("Answer sheet, question 3:\n\nA ●   B ●   C ○   D ○", 0.0),
    ("Answer sheet, question 3:\n\nA ○   B ○   C ●   D ○", 0.0),
])
def test_radio_buttons_and_bubbles_are_a_ballot(completion, expected):
    assert scorer(ChoiceAccuracy, DNA)(completion, "A") == expected


@settings(max_examples=40, deadline=None)
@given(filled=st.sets(st.sampled_from("ABCDE"), max_size=3), spaces=st.sampled_from([" ", "  ", "   "]),
       marks=st.sampled_from([("●", "○"), ("◉", "◯")]))
def test_any_bubble_row_picks_its_one_filled_bubble(filled, spaces, marks):
    row = spaces.join(f"{letter} {marks[0] if letter in filled else marks[1]}" for letter in "ABCDE")
    ticked = ticked_on_ballot(rendered_ballot("Answer sheet:\n\n" + row), "ABCDE")
    assert ticked == (next(iter(filled)) if len(filled) == 1 else "" if not filled else "several options")


@pytest.mark.parametrize("completion, gold, expected", [
    ("```yaml\nanswer: 9600\nrevised_answer: 9.6   # the question asks for kilometres\nunits: km\n```", "9.6", 1.0),
    ("```yaml\nanswer: 17\nrevised_answer: 18   # one extra day\n```", "17", 0.0),
    ("answer: 9.6\ncorrected_answer: 9600", "9.6", 0.0),
    ("| field | value |\n|---|---|\n| answer | 52 |\n| method | 3 × 13 + 13 |\n| status | final |", "52", 1.0),
    ("| field | value |\n|---|---|\n| answer | 52 |\n| status | withdrawn |", "52", 0.0),
    ('{"attempts": [{"n": 1, "value": 9}, {"n": 2, "value": 18}], "final_attempt": 2}', "18", 1.0),
    ('{"attempts": [{"n": 1, "value": 18}, {"n": 2, "value": 9}], "final_attempt": 2}', "18", 0.0),
])
def test_a_record_revision_table_or_pointer_decides_its_answer(completion, gold, expected):
    assert scorer(MathAccuracy, "Compute it.")(completion, gold) == expected


@pytest.mark.parametrize("completion, expected", [
    ("```yaml\nanswer: A\nrevised_answer: B\nrevision_note: Skinner is operant conditioning; Pavlov's dogs are classical\n```", 1.0),
    ("```yaml\nanswer: B\nrevised_answer: D\n```", 0.0),
])
def test_a_revised_letter_is_the_records_answer(completion, expected):
    prompt = "Classical conditioning was first studied by\n\nA. B. F. Skinner\nB. Ivan Pavlov\nC. Jean Piaget\nD. Sigmund Freud"
    assert scorer(ChoiceAccuracy, prompt)(completion, "B") == expected


@settings(max_examples=30, deadline=None)
@given(first=st.integers(1, 999), final=st.integers(1, 999), key=st.sampled_from(["answer", "final_answer"]))
def test_any_patch_gives_the_patched_value(first, final, key):
    completion = json.dumps({key: first}) + "\n\nPatch:\n" + json.dumps([{"op": "replace", "path": f"/{key}", "value": final}])
    score = scorer(MathAccuracy, "Compute it.")
    assert score(completion, str(final)) == 1.0
    assert score(completion, str(first)) == (1.0 if first == final else 0.0)
