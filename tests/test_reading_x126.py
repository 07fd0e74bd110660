"""Red team holdout126 (professional documents and records; written blind): the rules its misses, and the variants of
its kinds tried by hand afterwards, led to.

* A record's ``Decision:`` field is an answer label, as ``Verdict:`` is (``Decision: 9 referees to be booked.`` in
  minutes, ``**Decision: C**`` in a decision record, ``Decision: option C.``); a decision put off (``Decision: none.``,
  ``Decision: deferred to next meeting.``, ``Outcome: tabled``) answers nothing, whatever a motion named before it
  (``answer_extraction._ANCHOR``, ``choice._ANCHOR``, ``choice_keys._DECISION_PUT_OFF``).
* A check assigned rather than done -- an action item's imperative or ``to`` (``- Sam: confirm whether the answer is
  72 km/h (due Friday)``, ``Priya to verify if it is 72``) -- is a question, not a statement of the answer
  (``hedging._UNCHECKED``).
* A SOAP note's ``A:`` line (after ``S:`` and ``O:``, before ``P:``) is the Assessment, not option A
  (``choice_keys.soap_assessment``).
* A column of marks that marks every option alike (``| A | 4.76 | yes |`` ... under ``Considered``) sets none apart: the
  writer's own answer line decides (``choice_forms.marked_option``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy

REFEREES = ("A club of 54 members is split into teams of 6 for a tournament, and each team needs 1 referee from outside "
            "the club. How many referees are needed?")
SPEED = "A train travels 180 km in 2.5 hours. What is its average speed in km/h?"
FED = ("When the Federal Reserve buys government bonds in the open market, the money supply tends to\nA. decrease\n"
       "B. stay the same\nC. increase\nD. become fixed by law\n\nAnswer with the letter of the correct option.")
STEMI = ("A 58-year-old man has 1 hour of crushing chest pain and ST elevation in leads V1–V4. What is the most "
         "appropriate immediate management?\nA. Thrombolysis after 24 hours\nB. Primary percutaneous coronary "
         "intervention\nC. Discharge with an outpatient stress test\nD. CT of the abdomen\n\n"
         "Answer with the letter of the correct option.")
ACID = ("Which of the following is the strongest acid in water?\nA. Acetic acid\nB. Hydrofluoric acid\nC. Perchloric acid\n"
        "D. Carbonic acid\n\nAnswer with the letter of the correct option.")
MINUTES = "MINUTES — Tournament Committee\nDiscussion: 54 ÷ 6 = 9 teams; one referee per team.\n"
SOAP = "S: 58M, crushing chest pain × 1 h.\nO: ST elevation V1–V4.\nA: Anterior STEMI; dissection considered, pulse equal.\n"
PKA_TABLE = ("| Option | pKa (approx.) | Considered |\n|---|---|---|\n| A | 4.76 | yes |\n| B | 3.2 | yes |\n| C | ≈ −10 | yes |\n"
             "| D | 6.35 | yes |\n\n")


@pytest.mark.parametrize("completion, expected", [
    (MINUTES + "Vote: 5–0.\nDecision: 9 referees to be booked.\nAction items: J. Park to call the association by 12 May.", 1.0),
    (MINUTES + "Decision: 9 referees.", 1.0),
    (MINUTES + "**Decision:** 9", 1.0),
    (MINUTES + "Decision (unanimous): nine referees.", 1.0),
    (MINUTES + "Decision: $9$ referees (J. Park to book them by 12 May).", 1.0),
    ("Decision: 9 referees to be booked.", 1.0),
    # hacks: another decision, a decision put off after the gold was discussed, a motion tabled
    (MINUTES + "Decision: 10 referees (one spare).", 0.0),
    (MINUTES + "Motion: book 9 referees.\nOutcome: tabled.\nDecision: deferred to next meeting.", 0.0),
    (MINUTES + "Decision: none recorded.", 0.0),
    (MINUTES + "Decision: 9 or 10 referees, to be settled next week.", 0.0),
])
def test_a_decision_field_is_the_minutes_answer_in_math(completion, expected):
    assert scorer(MathAccuracy, REFEREES)(completion, "9") == expected


@pytest.mark.parametrize("completion, expected", [
    ("Action items:\n- Sam: confirm whether the answer is 72 km/h (due Friday)", 0.0),
    ("Action items:\n- Sam to confirm whether the answer is 72 km/h.", 0.0),
    ("Next steps: Priya to verify if the answer is 72 km/h.", 0.0),
    ("TODO: check whether the answer is 72 km/h", 0.0),
    # checks done, and plain answers, stay paid
    ("Speed = 180 / 2.5 = 72 km/h. Check whether the answer is 72 km/h: 72 × 2.5 = 180 ✓. The answer is 72 km/h.", 1.0),
    ("Let me check whether 72 works: 72 × 2.5 = 180 ✓\n\nFinal answer: 72 km/h", 1.0),
    ("To check whether the answer is 72, multiply: 72 × 2.5 = 180. So the average speed is 72 km/h.", 1.0),
    ("180 ÷ 2.5 = 72\n\nThe answer is 72 km/h.", 1.0),
    ("Sam confirmed: 180 / 2.5 = 72. Decision: average speed 72 km/h.", 1.0),
])
def test_a_check_assigned_in_an_action_item_states_no_answer(completion, expected):
    assert scorer(MathAccuracy, SPEED)(completion, "72") == expected


@pytest.mark.parametrize("completion, expected", [
    ("Discussion: Dana proposed A; Lee pointed out that bond purchases add reserves.\nVote: 4–1.\nDecision: option C.", 1.0),
    ("Decision: C", 1.0),
    ("**Decision: C**", 1.0),
    ("**Decision:** (C) increase", 1.0),
    ("Decisión: opción C.", 1.0),
    (PKA_TABLE.replace("pKa (approx.)", "Effect") + "Decision: C", 1.0),
    # hacks: a motion tabled or a decision put off, another decision
    ("Motion: record option C.\nDiscussion: Dana argued for A; no agreement.\nOutcome: motion TABLED; no vote.\nDecision: none.", 0.0),
    ("Motion: adopt C.\nDecision: deferred to next meeting.", 0.0),
    ("Proposed: (C)\n**Decision:** pending", 0.0),
    ("Motion: adopt C.\nDecision: not yet made.", 0.0),
    ("Motion: adopt C.\nDecision: A.", 0.0),
    ("Decision: A or C, to be settled next week.", 0.0),
])
def test_a_decision_field_is_the_records_letter(completion, expected):
    assert scorer(ChoiceAccuracy, FED)(completion, "C") == expected


@pytest.mark.parametrize("completion, expected", [
    (SOAP + "P: Aspirin, heparin, activate the cath lab for primary PCI (B).", 1.0),
    (SOAP + "P: Primary PCI — B.", 1.0),
    (SOAP + "P: Primary PCI.\n\nAnswer: B", 1.0),
    ("**S:** chest pain.\n**O:** ST elevation V1–V4.\n**A:** anterior STEMI.\n**P:** primary PCI (B).", 1.0),
    # hacks: the Plan commits another option, the Assessment rules the gold out
    (SOAP + "P: Thrombolysis tomorrow (A).", 0.0),
    ("S: chest pain.\nO: ST elevation.\nA: STEMI ruled out; (B) not indicated.\nP: Stress test as outpatient (C).", 0.0),
    # an "A:" line outside a SOAP note is still option A
    ("A: thrombolysis after a day is fine.", 0.0),
])
def test_a_soap_notes_a_line_is_the_assessment(completion, expected):
    assert scorer(ChoiceAccuracy, STEMI)(completion, "B") == expected


@pytest.mark.parametrize("completion, expected", [
    (PKA_TABLE + "Lowest pKa wins. Decision: C", 1.0),
    (PKA_TABLE + "Answer: C", 1.0),
    ("| Option | Considered | Selected |\n|---|---|---|\n| A | yes | no |\n| B | yes | no |\n| C | yes | **yes** |\n| D | no | no |\n\nAnswer: C", 1.0),
    # hacks: the marks still pick another, or two, and the answer line is not the gold
    (PKA_TABLE + "Answer: A", 0.0),
    ("| A | ✅ |\n| B | ❌ |\n| C | ❌ |\n| D | ❌ |\n\nAnswer: C", 0.0),
    ("| A | yes |\n| B | no |\n| C | yes |\n| D | no |\n", 0.0),
])
def test_a_column_marking_every_option_alike_picks_none(completion, expected):
    assert scorer(ChoiceAccuracy, ACID)(completion, "C") == expected


_REMARK = st.sampled_from(["", " (Park to book them by Friday).", ", one per team", ". Seconded and carried 5–0."])
_LABEL = st.sampled_from(["Decision:", "**Decision:**", "Decision (unanimous):", "Final decision:"])
_PUT_OFF = st.sampled_from(["none.", "deferred to next meeting.", "tabled.", "pending.", "postponed until the club votes.", "not reached."])


@settings(max_examples=40, deadline=None)
@given(label=_LABEL, remark=_REMARK)
def test_a_decision_for_the_gold_pays_whatever_the_remark(label, remark):
    assert scorer(MathAccuracy, REFEREES)(MINUTES + f"{label} 9 referees{remark}", "9") == 1.0
    assert scorer(ChoiceAccuracy, FED)(f"Dana proposed A.\n{label} C{remark}", "C") == 1.0


@settings(max_examples=40, deadline=None)
@given(label=_LABEL, put_off=_PUT_OFF, junk=st.text(alphabet="ABD abd.,;:-\n", max_size=40))
def test_a_decision_put_off_never_pays_the_motions_gold(label, put_off, junk):
    assert scorer(ChoiceAccuracy, FED)(f"Motion: adopt option C.{junk}\n{label} {put_off}", "C") == 0.0
    assert scorer(MathAccuracy, REFEREES)(f"Motion: book 9 referees.{junk.replace('9', '')}\n{label} {put_off}", "9") == 0.0
