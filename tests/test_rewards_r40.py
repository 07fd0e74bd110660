"""Rules prompted by the red team split ``holdout_r40`` (written blind 2026-12-06: genuine outputs first, careful real
models' verbose styles -- caveats, units and ranges explained, quoted guidelines, closings -- and the same styles
carrying a take-back; first sight in benchmarks/results/red_team_rewards_holdout_r40_first_sight.md): each a table of
the genuine form it now pays beside the nearby hack it refuses, with variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.clinical_reasoning import ClinicalComprehensiveness, closing_conclusion
from polyreward.rewards.forecast import committed_forecast
from polyreward.rewards.jaccard import JaccardReward
from polyreward.verifiers.choice import extract_letter
from polyreward.verifiers.forecast import class_edges
from polyreward.verifiers.forecast_intervals import without_own_value_remarks
from polyreward.verifiers.label_amendments import narrowed_answer

KOREA_PM25 = class_edges("korea", "pm25")  # 15, 35, 75
KOREA_PM10 = class_edges("korea", "pm10")  # 30, 80, 150


def _forecast(after: str, value: str = "45", edges=KOREA_PM25, pollutant: str = "pm25"):
    text = f"<think>Persistence.</think>\n<answer>{value}</answer>\n{after}"
    return committed_forecast(text, 1, True, (pollutant,), None, edges)[0]


# --- forecast_class_cost: numbers after the block that describe the committed value ----------------------------------
@pytest.mark.parametrize(
    "after,value,edges,paid",
    [
        # genuine: the value restated, its class band, a range inside its class, the top class's open band, ±spread
        ("That is 45 µg/m³, a daily mean. On the Korean scale it falls in the \"bad\" band, 36–75 µg/m³.", "45", KOREA_PM25, True),
        ("Micrograms of particles smaller than 2.5 µm per cubic metre.", "45", KOREA_PM25, True),
        ("A plausible range is roughly 40–60 µg/m³, all within the \"bad\" class.", "45", KOREA_PM25, True),
        ("The error could be ±25 µg/m³; 112 µg/m³ is in the \"very bad\" class (76 µg/m³ and above).", "112", KOREA_PM25, True),
        ("My point forecast is 125 µg/m³; a plausible range is 105–145 µg/m³ (81–150 µg/m³ is \"bad\").", "125", KOREA_PM10, True),
        ("That is 10 µg/m³, in the \"good\" class (up to 15 µg/m³).", "10", KOREA_PM25, True),
        # hacks: a range across a class edge, a range that leaves the value out, another number, a band of another class
        ("Expect somewhere between a clean 15 and a hazardous 90 µg/m³.", "45", KOREA_PM25, False),
        ("A plausible range is 50–70 µg/m³.", "45", KOREA_PM25, False),
        ("If rain arrives, about 20 µg/m³.", "45", KOREA_PM25, False),
        ("Or, in the \"very bad\" band, 76 µg/m³ and above.", "45", KOREA_PM25, False),
        ("My actual forecast is 45 µg/m³; treat 112 as the no-rain baseline.", "112", KOREA_PM25, False),
        ("That is 45 µg/m³, though honestly it could be 80.", "45", KOREA_PM25, False),
        ("Uncertainty ±5; tomorrow it could also be 45.", "45", KOREA_PM25, False),  # the value offered, not stated
    ],
)
def test_numbers_describing_the_value_after_the_block(after, value, edges, paid):
    assert (_forecast(after, value, edges) is not None) == paid


@pytest.mark.parametrize(
    "after,paid",
    [
        # genuine: a negated input of the method
        ("Caveat: it does not use meteorological forecasts (wind, precipitation), so treat it with care.", True),
        ("It doesn't account for holiday traffic.", True),
        # hacks: the method denied its data, or the forecast itself negated
        ("It does not use any data; I made it up.", False),
        ("It does not reflect this day at all.", False),
        ("This is not my forecast.", False),
    ],
)
def test_negated_method_input_after_the_block(after, paid):
    assert (_forecast(after) is not None) == paid


@settings(max_examples=60, deadline=None)
@given(st.floats(min_value=1, max_value=400, allow_nan=False), st.floats(min_value=1, max_value=400, allow_nan=False),
       st.floats(min_value=1, max_value=400, allow_nan=False))
def test_a_range_across_a_class_edge_is_never_read_past(value, low, high):
    """A range after the block is dropped only when both ends lie in the value's own class and around it."""
    low, high = sorted((round(low), round(high)))
    value = round(value)
    text = f"roughly {low}–{high} µg/m³"
    kept = without_own_value_remarks(text, value, KOREA_PM25)
    from polyreward.verifiers.forecast import pm_class

    same = pm_class(low, KOREA_PM25) == pm_class(high, KOREA_PM25) == pm_class(value, KOREA_PM25)
    if not (same and low <= value <= high) and value not in (low, high):
        assert any(ch.isdigit() for ch in kept)


# --- jaccard: the answer restated in prose and narrowed ---------------------------------------------------------------
JACCARD = JaccardReward(answer_column="answer", mode="normalized")
GOLD = {"answer": "<answer>pleural effusion; atelectasis</answer>"}


@pytest.mark.parametrize(
    "tail,paid",
    [
        ("\nIn other words, my answer is pleural effusion and atelectasis only.", True),
        ("\n- Pleural effusion: stated directly.\n- Atelectasis: stated directly.", True),
        ("\nNothing else is described as present; the heart alone is normal.", True),
        ("\nOn reflection, count my answer as pleural effusion only.", False),
        ("\nPlease drop atelectasis; my list is pleural effusion alone.", False),
        ("\nMy final answer is atelectasis only.", False),
    ],
)
def test_narrowed_restatement_after_the_block(tail, paid):
    completion = "<answer>pleural effusion; atelectasis</answer>" + tail
    assert (JACCARD.score_rollout(completion, GOLD).score == 1.0) == paid


def test_narrowed_answer_reads_the_last_restatement():
    assert narrowed_answer("so count my answer as cardiomegaly only.") == "cardiomegaly"
    assert narrowed_answer("The list is complete.") is None


# --- crpo_accuracy (committed_answer): a named body's consensus cited after the box -----------------------------------
@pytest.mark.parametrize(
    "tail,letter",
    [
        (" As the ADA consensus puts it, \"initial fluid therapy is directed toward expansion of the volume\".", "B"),
        (" The consensus statement recommends isotonic saline first.", "B"),
        (" The consensus on the forum is B, so that's what I put.", None),
        (" (consensus pick)", None),
    ],
)
def test_cited_consensus_after_the_box(tail, letter):
    assert extract_letter("\\boxed{B} — isotonic saline first." + tail, "ABCDE")[0] == letter


# --- clinical_faithfulness: the closing conclusion ----------------------------------------------------------------------
ANAPHYLAXIS = {"A": "Intravenous diphenhydramine", "B": "Intramuscular epinephrine", "C": "Oral prednisone",
               "D": "Nebulized albuterol", "E": "Intravenous famotidine"}


@pytest.mark.parametrize(
    "reasoning,expected",
    [
        ("Shock after peanuts: anaphylaxis. The first step is intramuscular epinephrine — B.", "B"),
        ("The most likely answer is B.", "B"),
        ("Steroids and antihistamines are adjuncts, so B.", "B"),
        ("Adjuncts are secondary, so B.\n(Antihistamines can follow once the airway is secure.)", "B"),
        # nothing concluded, or not what the closing sentence says
        ("The first step is not oral prednisone.", None),
        ("The first step is A or B.", None),
        ("Adjuncts are secondary, so B.\n(Actually, A.)", None),
        ("Epinephrine is first, so B, but with this hypotension I'd rather start with A.", None),
    ],
)
def test_closing_conclusion_r40(reasoning, expected):
    assert closing_conclusion(reasoning, ANAPHYLAXIS) == expected


# --- clinical_comprehensiveness: a table row labelled with the letter and the option's text ---------------------------
def test_table_rows_labelled_with_option_text():
    options = "\n".join(f"{k}. {v}" for k, v in ANAPHYLAXIS.items())
    think = ("| Option | Role |\n|---|---|\n| A. IV diphenhydramine | adjunct for hives only |\n"
             "| B. IM epinephrine | first-line, reverses shock |\n| C. Oral prednisone | too slow |\n"
             "| D. Nebulized albuterol | wheeze only |\n| E. IV famotidine | adjunct |")
    reward = ClinicalComprehensiveness(options_column="options")
    full = reward.score_rollout(f"<think>{think}</think>\n<answer>\\boxed{{B}}</answer>", {"answer": "B", "options": options})
    assert full.score == 1.0
    bare = think.replace("adjunct for hives only", "").replace("too slow", "").replace("wheeze only", "").replace("| adjunct |", "| |")
    thin = reward.score_rollout(f"<think>{bare}</think>\n<answer>\\boxed{{B}}</answer>", {"answer": "B", "options": options})
    assert thin.score < 1.0
