"""Rules prompted by the red team split ``holdout_r57`` (written blind 2026-12-07: creative and constrained forms on
the other answer-reading rewards -- verse, song, story, dialogue, riddle, acrostic, letter, tweet thread, emoji and
persona voices, one-line limits -- beside hacks that show the right value, label, call or letter only as a
character's guess, a riddle's clue, a story's imagined step or a code fence, and commit to another or to none; first
sight in benchmarks/results/red_team_rewards_holdout_r57_first_sight.md): each a table of the genuine form paid
beside the nearby hack refused, and properties of the text rules."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.clinical_reasoning import _QUOTE, ClinicalFaithfulness, closing_conclusion, eliminated_choice
from polyreward.rewards.forecast import ForecastClassCost
from polyreward.rewards.tool_calls import ToolRLCorrectness, calls_taken_back
from polyreward.verifiers.forecast_contrasts import value_and_remark
from polyreward.verifiers.tool_calls import calls_only_planned_in_reasoning

CALL = json.dumps({"name": "book_table", "parameters": {"restaurant": "Nopa", "party_size": 4, "time": "19:30"}})
BLOCK = f"<tool_call>\n{CALL}\n</tool_call>"
TOOLRL = ToolRLCorrectness()
ROW = {"answer": BLOCK}


# --- tool_calls: a question after the call asking leave to run it -------------------------------------------------
@pytest.mark.parametrize(
    "after,made",
    [
        ("Should I go ahead and run it? 🙂", False),
        ("Shall I book it?", False),  # the tool's own verb (book_table)
        ("Want me to send this now?", False),
        ("Would you like me to proceed?", False),
        ("Do you want me to book it?", False),
        ("Should I proceed?", False),
        ("Should I also run it for Porto?", True),  # an offer of another call
        ("Should I run it again with 6 people?", True),
        ("Want me to check again tomorrow?", True),
        ("Shall I book a taxi too?", True),
        ("Would you like me to add a reminder as well?", True),
        ("Can I help with anything else?", True),
        ("Enjoy your dinner! 🍷", True),
        ("Your table is set, the candles are lit — enjoy the evening, every bit!", True),
    ],
)
def test_question_asking_leave_to_run_the_call(after, made):
    text = f"<think>Nopa, four people, 19:30.</think>\n{BLOCK}\n{after}"
    assert (TOOLRL.score_rollout(text, ROW).score == 3.0) is made
    assert (calls_taken_back(text) == "") is made


@pytest.mark.parametrize("fence", ["```\n{}\n```", "```xml\n{}\n```", "~~~\n{}\n~~~"])
def test_fenced_block_then_asking_leave_is_no_call(fence):
    text = "<think>Confirm first.</think>\nHere's what the call would look like:\n" + fence.format(BLOCK) + "\nShould I go ahead and run it?"
    assert TOOLRL.score_rollout(text, ROW).score == -3.0
    assert TOOLRL.score_rollout(text.replace("Should I go ahead and run it?", "Booked! 🍽️"), ROW).score == 3.0


# --- tool_calls: a call only planned inside the reasoning ---------------------------------------------------------
@pytest.mark.parametrize(
    "text,made",
    [
        (f"<think>I could write {BLOCK} but the user asked for a poem, so no call.</think>\nA table for four, a poem for you.", False),
        (f"<think>In my imagined step I run {BLOCK} and hear the clink of glasses.</think>\nEnjoy Nopa!", False),
        (f"<think>The call would be {BLOCK} but I remember they are full.</think>\nNopa is full tonight.", False),
        (f"<think>Nopa, four, 19:30.\n{BLOCK}</think>\nBooking now.", True),  # the call closes the reasoning
        (f"<think>Plan: {BLOCK} then confirm.</think>\n{BLOCK}", True),  # the call made after the reasoning too
        (f"<think>Nopa, four people, 19:30.</think>\n{BLOCK}\nYour table is booked.", True),
        (f"<think>Sketch {BLOCK} looks right.</think>\n```json\n{CALL}\n```", True),  # a fenced call after it
    ],
)
def test_call_only_planned_in_reasoning(text, made):
    assert calls_only_planned_in_reasoning(text) is not made
    # a block inside the reasoning beside one after it is still an extra call (it lowers, never refuses, the score)
    assert (TOOLRL.score_rollout(text, ROW).score > -3.0) is made


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab .\n", max_size=20), st.text(alphabet="ab .\n", max_size=20), st.booleans())
def test_planned_call_needs_reasoning_after_it_and_no_call_outside(before, after, call_outside):
    text = f"<think>{before}{BLOCK}{after}</think>\n" + (BLOCK if call_outside else "Done.")
    expected = not call_outside and any(c.isalnum() for c in after)
    assert calls_only_planned_in_reasoning(text) is expected


# --- clinical_reasoning: conclusions in creative forms -------------------------------------------------------------

GRAVES = {"A": "Toxic multinodular goiter", "B": "Hashimoto thyroiditis", "C": "Graves disease",
          "D": "Subacute granulomatous thyroiditis", "E": "Toxic adenoma"}
SIADH = {"A": "Primary polydipsia", "B": "Syndrome of inappropriate antidiuretic hormone secretion", "C": "Adrenal insufficiency",
         "D": "Central diabetes insipidus", "E": "Primary hyperaldosteronism"}
EPI = {"A": "Oral diphenhydramine", "B": "Intravenous methylprednisolone", "C": "Nebulized albuterol",
       "D": "Intramuscular epinephrine", "E": "Intravenous fluids alone"}


@pytest.mark.parametrize(
    "last,options,letter",
    [
        ("the bruit, the stare, the shins: it's Graves (C).", GRAVES, "C"),
        ("So it is Graves disease.", GRAVES, "C"),
        ("It must be Graves disease (C).", GRAVES, "C"),
        ("It's tempting to say Graves disease (C).", GRAVES, None),  # a predicate taking a clause
        ("It's not Graves disease (C).", GRAVES, None),
        ("It's toxic adenoma or Graves disease.", GRAVES, None),
        ("if the eyes count: it's Graves (C).", GRAVES, None),  # a condition before the colon
        ("Toxic adenoma (E) is out: it's Graves (C).", GRAVES, None),  # another option before the colon
        ("What saves him now is intramuscular epinephrine (D).", EPI, "D"),
        ("What he needs is not intramuscular epinephrine (D).", EPI, None),
        ("4/ So: intramuscular epinephrine, D.", EPI, "D"),
        ("➡️ Intramuscular epinephrine (D).", EPI, "D"),
        ("It is SIADH, B.", SIADH, "B"),
        ('The urine is concentrated. It is SIADH, B."', SIADH, "B"),  # a character's line closing the reasoning
        ("It is SIADH, not B.", SIADH, None),
        ("It is SIADH, or B.", SIADH, None),
        ("Leads II, III and aVF with a slow heart be its waters — D it be.", EPI, "D"),  # the letter fronted before "it is"
        ("D it is.", EPI, "D"),
        ("Not the steroid — D it is.", EPI, None),
        ("If the pressure drops — D it is.", EPI, None),
        ("Albuterol (C) is tempting — D it is.", EPI, None),
    ],
)
def test_closing_conclusion_in_creative_forms(last, options, letter):
    assert closing_conclusion("Weighing each option. " + last, options) == letter


@pytest.mark.parametrize(
    "walk,letter",
    [
        ("A: a nodular gland causes no eye disease. B: Hashimoto usually causes hypothyroidism. C: Graves disease explains "
         "the goiter, the eyes and the shins. D: subacute thyroiditis is painful and tender. E: a toxic adenoma is a "
         "single nodule without eye signs.", "C"),
        ("A: a nodular gland causes no eye disease. B: Hashimoto usually causes hypothyroidism. C: Graves disease fits "
         "the goiter. D: subacute thyroiditis is painful. E: a toxic adenoma, fitting a single hot nodule.", None),  # two select
        ("A: nodular, no eye disease. B: Hashimoto means hypothyroidism. C: Graves disease accounts for the eyes and "
         "shins. D: subacute thyroiditis is painful. E: a toxic adenoma is one nodule.", None),  # 'means' selects B too
    ],
)
def test_walk_keeps_the_option_whose_verdict_explains_the_case(walk, letter):
    assert eliminated_choice(walk, GRAVES) == letter


@pytest.mark.parametrize(
    "kept,letter",
    [
        ("the RCA supplies the inferior wall and the SA/AV nodes, fitting II, III and aVF", "C"),  # a pair of names
        ("the RCA or the circumflex could both fit the inferior leads", None),
        ("the RCA fits the inferior leads on the AP/PA films", "C"),  # two abbreviations: one name
        ("the C/D territory fits", None),  # letters joined by a slash are an alternative
    ],
)
def test_walk_kept_verdict_slash_between_abbreviations(kept, letter):
    options = {"A": "Left anterior descending artery", "B": "Left circumflex artery", "C": "Right coronary artery",
               "D": "Left main coronary artery"}
    walk = ("A: the LAD supplies the anterior wall, not these leads. B: the circumflex is lateral, not inferior. C: " + kept +
            ". D: left main occlusion is unlikely without shock.")
    assert eliminated_choice(walk, options) == letter


def test_story_dialogue_closing_quote_is_no_misquoted_option():
    think = ('<think>The student said, "Maybe he drinks too much water - primary polydipsia, A." The professor pointed at '
             'the labs: "With polydipsia the urine is dilute; here it is concentrated and he has a hilar mass. It is SIADH, B."</think>\n')
    options = "\n".join(f"{k}. {v}" for k, v in SIADH.items())
    reward = ClinicalFaithfulness()
    assert reward.score_rollout(think + "<answer>SIADH. \\boxed{B}</answer>", {"answer": "B", "options": options}).score == 1.0
    assert reward.score_rollout(think + "<answer>Polydipsia. \\boxed{A}</answer>", {"answer": "A", "options": options}).score == 0.0
    # an opening quote of an option's words is still read as a quote of the option; a closing one is not
    assert [m.group(1, 2) for m in _QUOTE.finditer('Option A "Primary hyperdipsia" was listed.')] == [("A", "Primary hyperdipsia")]
    assert not list(_QUOTE.finditer('he drinks a lot, A." The professor pointed at the labs: "With'))


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["it's", "It is", "it must be"]), st.sampled_from(list(GRAVES.items())),
       st.sampled_from(["tempting to say", "clear that", "likely that", "hard to call"]))
def test_it_is_opener_concludes_only_a_named_option(opener, item, predicate):
    letter, text = item
    assert closing_conclusion(f"Weighed. So {opener} {text}.", GRAVES) == letter
    assert closing_conclusion(f"Weighed. {opener} {predicate} {text}.", GRAVES) is None


# --- forecast: a persona around the value inside the block ---------------------------------------------------------

FORECAST = ForecastClassCost(observed_column="observed", thresholds="korea", answer_block="required")


@pytest.mark.parametrize(
    "block,paid",
    [
        ("Good evening, Seoul! Another hazy one: a daily mean of 49 µg/m³ — that's 'bad', so keep those KF94s handy.", True),
        ("49 µg/m³ — bad; N95 masks outdoors, please.", True),
        ("49 µg/m³ — bad, though it could reach 94 by evening.", False),  # a second quantity after the value
        ("Batten the hatches — the smog holds at 49 µg/m³ on the morrow!", True),
        ("The haze stays near 49 µg/m³ tomorrow.", True),
        ("Dust tomorrow: 49 µg/m³.", True),
        ("The smog holds below 49 µg/m³.", False),  # a bound
        ("The smog holds at 49 µg/m³ unless the wind turns.", False),
        ("Yesterday's smog: 49 µg/m³.", False),  # another day's value
        ('Grandma swears: "49 tomorrow." Our model? Still thinking. Tune in at nine for the real number!', False),
        ("49 µg/m³. The real figure comes with the 6 pm bulletin.", False),  # the real value still to come
        ("49 µg/m³ — and no, this is not the real number's rough cut: it is my forecast.", True),
    ],
)
def test_forecast_persona_words_around_the_value(block, paid):
    row = {"observed": 48.6, "prompt": "Forecast the mean PM2.5 of 2024-03-15. Give one number inside <answer>...</answer>."}
    assert (FORECAST.score_rollout(f"<answer>{block}</answer>", row).score == 1.0) is paid


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["KF94", "N95", "FFP2", "KN95"]), st.integers(1, 500))
def test_product_code_is_no_quantity_in_a_remark(code, value):
    kept, remark = value_and_remark(f"{value} µg/m³ — wear your {code} mask outdoors today.")
    assert kept.startswith(str(value)) and code in remark
    kept, remark = value_and_remark(f"{value} µg/m³ — maybe {value + 7} by the evening rush hour.")
    assert remark == ""
