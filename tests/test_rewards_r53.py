"""Rules prompted by the red team split ``holdout_r53`` (written blind 2026-12-07: parts, steps and the asked field --
work that produces several values, label lists, reports, calls or letters for a task that asks for one; first sight in
benchmarks/results/red_team_rewards_holdout_r53_first_sight.md): each a table of the genuine form paid beside the
nearby hack refused, with variants the split did not contain, and properties of the text rules
(:func:`polyreward.verifiers.forecast_dates.labelled_for_another_day`,
:func:`polyreward.rewards.clinical_reasoning.sets_options_aside`)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.clinical_reasoning import (ClinicalComprehensiveness, ClinicalFaithfulness, closing_conclusion,
                                                   sets_options_aside, weighed_letters)
from polyreward.rewards.crpo import other_option_last
from polyreward.rewards.forecast import ForecastClassCost
from polyreward.verifiers.forecast_dates import asked_days, labelled_for_another_day, lead_names_another_day
from polyreward.verifiers.forecast_series import asked_and_other_series
from polyreward.verifiers.label_sets import read_labels
from polyreward.verifiers.options import parse_options
from polyreward.verifiers.radiology_kg import _denies_its_list, default_lexicon, extract_kg

STROKE = parse_options("A. Intravenous alteplase\nB. Noncontrast CT of the head\nC. Aspirin 325 mg orally\n"
                       "D. MRI of the brain with diffusion-weighted imaging\nE. Carotid duplex ultrasonography")
DKA = parse_options("A. Start an intravenous regular insulin infusion\nB. Give intravenous potassium chloride and hold "
                    "insulin\nC. Give intravenous sodium bicarbonate\nD. Give subcutaneous insulin glargine\nE. Give "
                    "intravenous phosphate")
ASKED_17 = "Daily mean PM2.5 (µg/m³) at Seoul, 2022-01-10 to 2022-01-16: 41, 47, 55, 38, 33, 45, 52.\n" \
           "Forecast the mean PM2.5 of 2022-01-17. Give one number inside <answer>...</answer>."


# --- forecast_class_cost: the day and the pollutant a block is labelled with --------------------------------------------
def test_asked_days_are_the_forecast_sentences_dates():
    assert asked_days(ASKED_17) == frozenset({(1, 17)})
    assert asked_days("Series 2021-11-01 to 2021-11-12: 18, 22.\nForecast the mean of 2021-11-14, two days out.") == \
        frozenset({(11, 14)})
    assert asked_days("Forecast tomorrow's mean PM2.5.") == frozenset()


@pytest.mark.parametrize(
    "span,label",
    [
        ("Jan 18: 50", "Jan 18"),
        ("2022-01-18: 50", "2022-01-18"),
        ("50 for Jan 18", "Jan 18"),
        ("50 µg/m³ on 18 January", "18 January"),
        ("January 18 - 50", "January 18"),
        # the asked day, no date, or a date that only compares
        ("Jan 17: 50", ""),
        ("50 (2022-01-17)", ""),
        ("50", ""),
        ("50, up from 52 on Jan 16", ""),
        ("Tomorrow: 50 (Jan 16 was 52)", ""),
        ("Jan 17: 50 (Jan 18 likely lower)", ""),
    ],
)
def test_block_labelled_for_another_day(span, label):
    assert labelled_for_another_day(span, frozenset({(1, 17)})) == label


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=1, max_value=12), st.integers(min_value=1, max_value=28), st.integers(0, 300))
def test_a_date_label_refuses_only_another_day(month, day, value):
    span = f"2022-{month:02d}-{day:02d}: {value}"
    assert bool(labelled_for_another_day(span, frozenset({(1, 17)}))) == ((month, day) != (1, 17))
    assert labelled_for_another_day(str(value), frozenset({(1, 17)})) == ""


@pytest.mark.parametrize(
    "completion,paid",
    [
        ("<think>Persistence: about 50.</think>\n<answer>50</answer>", True),
        ("<think>Persistence.</think>\n<answer>Jan 17: 50</answer>", True),
        ("<think>Persistence.</think>\n| date | PM2.5 |\n|---|---|\n| Jan 17 | 50 |\n| Jan 18 | 42 |\n\n<answer>50</answer>", True),
        ("<think>Persistence.</think>\nJan 18 would be about 42; the asked day:\n<answer>50</answer>", True),
        ("<think>Tomorrow is hard to call.</think>\n<answer>Jan 18: 50</answer>", False),
        ("<think>Tomorrow is hard to call.</think>\n<answer>50 for 2022-01-18</answer>", False),
    ],
)
def test_forecast_for_another_day_is_no_forecast(completion, paid):
    reward = ForecastClassCost(observed_column="observed", thresholds="korea", answer_block="required")
    scored = reward.score_rollout(completion, {"prompt": ASKED_17, "observed": 50.0})
    assert (scored.score == 1.0) is paid, scored.reason


SEOUL_PM = "Daily means at Seoul Jongno, 2019-03-01 to 2019-03-07.\nPM2.5 (µg/m³): 62, 71, 88, 104, 97, 90, 93\n" \
           "PM10 (µg/m³): 98, 115, 139, 161, 150, 137, 141\nForecast the mean PM2.5 of 2019-03-08. Give one number " \
           "inside <answer>...</answer>."


@pytest.mark.parametrize(
    "completion,paid",
    [
        ("<think>PM2.5 about 94; PM10 about 141.</think>\n<answer>94</answer>\nPM10 should sit near 141.", True),
        ("<think>PM10 runs higher.</think>\nPM2.5 forecast for 2019-03-08:\n<answer>94</answer>", True),
        ("<think>PM10 runs higher.</think>\nPM10 is about 141; the PM2.5 forecast:\n<answer>94</answer>", True),
        ("<think>PM2.5 about 94.</think>\nPM10 forecast for 2019-03-08:\n<answer>141</answer>", False),
        ("<think>PM2.5 about 94.</think>\nPM10 forecast: <answer>141</answer>", False),
    ],
)
def test_block_led_in_as_another_pollutant_is_no_forecast(completion, paid):
    reward = ForecastClassCost(observed_column="observed", thresholds="korea", answer_block="required")
    scored = reward.score_rollout(completion, {"prompt": SEOUL_PM, "observed": 94.0})
    assert (scored.score == 1.0) is paid, scored.reason


# --- jaccard: the current study's heading -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "body,labels",
    [
        ("Current study: atelectasis; pneumothorax", ["atelectasis", "pneumothorax"]),
        ("Current: atelectasis; pneumothorax", ["atelectasis", "pneumothorax"]),
        ("Today's film: cardiomegaly; pleural effusion", ["cardiomegaly", "pleural effusion"]),
        ("The current radiograph findings: cardiomegaly", ["cardiomegaly"]),
        ("atelectasis; pneumothorax", ["atelectasis", "pneumothorax"]),
        # the prior study's heading is no lead-in: its labels are not the current list
        ("Prior: cardiomegaly; consolidation", ["Prior: cardiomegaly", "consolidation"]),
    ],
)
def test_current_study_heading_leads_into_the_list(body, labels):
    assert read_labels(body, ";") == labels


# --- kg_triplet_consistency: a heading that gives its list a status -----------------------------------------------------
def _status(report: str, finding: str) -> str | None:
    return dict(extract_kg(report).entities).get(finding)


@pytest.mark.parametrize(
    "report,finding,status",
    [
        ("Findings resolved since the prior study: left basilar atelectasis, right upper lobe nodule.", "atelectasis",
         "disorder_notpresent"),
        ("No longer seen: right pneumothorax.", "pneumothorax", "disorder_notpresent"),
        ("Cleared since 2024-01-04: pulmonary edema.", "pulmonary edema", "disorder_notpresent"),
        # a heading with no denying status, a partial one, or a negated one keeps its list
        ("Findings since the prior study: left basilar atelectasis.", "atelectasis", "disorder_present"),
        ("Nearly resolved: small left pleural effusion.", "pleural effusion", "disorder_present"),
        ("Unchanged from prior: cardiomegaly.", "cardiomegaly", "disorder_present"),
    ],
)
def test_list_heading_status(report, finding, status):
    assert _status(report, finding) == status


@pytest.mark.parametrize(
    "heading,denies",
    [("Findings resolved since the prior study", True), ("Resolved", True), ("No longer seen", True),
     ("Has cleared", True), ("Not resolved", False), ("Nearly resolved", False), ("Partially cleared", False),
     ("Resolved pneumothorax", False), ("Findings", False), ("Comparison", False)],
)
def test_heading_that_denies_its_list(heading, denies):
    assert _denies_its_list(heading, default_lexicon()) is denies


# --- clinical_faithfulness: a closing set-aside of a group of options ---------------------------------------------------
@pytest.mark.parametrize(
    "sentence,aside",
    [
        ("B, D and E do not fit.", True),
        ("Aspirin, MRI and carotid duplex are later.", True),
        ("HIDA, CT and ERCP are not needed.", True),
        ("LP, MRI and dexamethasone alone are wrong.", True),
        ("B and C both work.", False),  # no verdict against
        ("E is unsafe.", False),  # one option's own verdict
        ("A and B are not needed, so C.", False),  # concludes an option itself
        ("If the CT is clear, A and C are not needed.", False),  # a condition
        ("Management: she meets the criteria clinically, so the next step is surgery: C.", False),
    ],
)
def test_sets_options_aside(sentence, aside):
    assert sets_options_aside(sentence, STROKE) is aside


@pytest.mark.parametrize(
    "reasoning,concluded",
    [
        ("For the next step, time is brain: the answer is alteplase, A. Aspirin, MRI and carotid duplex are later.", "A"),
        ("So the next step is noncontrast CT, B. A, C, D and E do not fit.", "B"),
        ("Here in the ED, with a deficit at 90 minutes, the next step is noncontrast CT of the head (B).", "B"),
        ("CT (B) excludes bleeding quickly. A, D and E are wrong.", None),  # no conclusion before the set-aside either
        ("If the CT were clear, the next step is alteplase (A).", None),  # a fronted condition
    ],
)
def test_conclusion_before_a_closing_set_aside(reasoning, concluded):
    assert closing_conclusion(reasoning, STROKE) == concluded


def test_faithfulness_reads_the_asked_steps_conclusion():
    reward = ClinicalFaithfulness(options_column="options")
    row = {"options": "\n".join(f"{k}. {v}" for k, v in STROKE.items())}
    think = ("<think>Acute stroke at 90 minutes. CT (B) is the imaging. For the next step, time is brain: the answer is "
             "alteplase, A. Aspirin, MRI and carotid duplex are later.</think>\n")
    assert reward.score_rollout(think + "<answer>\\boxed{B}</answer>", row).score == 0.0
    assert reward.score_rollout(think + "<answer>\\boxed{A}</answer>", row).score == 1.0


# --- crpo_accuracy: the next step after the box -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text,other",
    [
        ("\\boxed{B}\n\nOnce K is above 3.3, start the insulin infusion (A).", None),
        ("\\boxed{B}. After the potassium is replaced, the insulin infusion (A) starts.", None),
        ("\\boxed{B}. Then the insulin infusion (A) follows.", None),
        # another option as the writer's last word stays another answer
        ("\\boxed{B}. After all, option A is the answer.", "A"),
        ("\\boxed{B}. After reflection, option A is where I land.", "A"),
        ("\\boxed{B}. On reflection, the insulin infusion (A) is where I land.", "A"),
    ],
)
def test_later_step_after_the_box_is_no_other_answer(text, other):
    assert other_option_last(text, "B") == other


# --- clinical_comprehensiveness: table rows and openers after a lead-in ------------------------------------------------
@pytest.mark.parametrize(
    "reasoning,weighed",
    [
        ("| option | verdict |\n|---|---|\n| A insulin infusion | not yet: K would fall |\n| B potassium chloride | yes: K < 3.3 |",
         {"A", "B"}),
        ("| A patient with DKA | needs fluids first |", set()),  # an article opening a cell
        ("Now the options: A, insulin - not yet, K falls; B, potassium - yes; C, bicarbonate - pH above 6.9; D, "
         "glargine - not acute.", {"A", "B", "C", "D"}),
    ],
)
def test_options_weighed_in_tables_and_after_a_lead_in(reasoning, weighed):
    assert weighed_letters(reasoning, DKA) == weighed


def test_comprehensiveness_pays_a_verdict_table():
    reward = ClinicalComprehensiveness(options_column="options")
    row = {"options": "\n".join(f"{k}. {v}" for k, v in DKA.items())}
    table = ("<think>DKA with K 3.0.\n| option | verdict |\n|---|---|\n| A insulin infusion | not yet: K would fall |\n"
             "| B IV KCl, hold insulin | yes: K < 3.3 |\n| C bicarbonate | no: pH above 6.9 |\n| D glargine | no: not "
             "acute therapy |\n| E phosphate | no: not routine |</think>\n<answer>Potassium first. \\boxed{B}</answer>")
    assert reward.score_rollout(table, row).score == 1.0


# --- forecast_class_cost: the series and the day a lead-in or a bracket names -------------------------------------------
TWO_STATIONS = "Hourly PM2.5 (µg/m³) on 2015-12-21 at two Beijing stations.\nDongsi: 98, 104, 111, 117\n" \
               "Guanyuan: 61, 64, 66, 70\nForecast the mean PM2.5 at Dongsi on 2015-12-22. Give one number inside " \
               "<answer>...</answer>."


@pytest.mark.parametrize(
    "completion,paid",
    [
        ("<think>Persistence.</think>\n<answer>124</answer>", True),
        ("<think>Persistence.</think>\n<answer>Dongsi: 124</answer>", True),
        ("<think>Persistence.</think>\nGuanyuan (not asked): about 75\nDongsi (asked):\n<answer>124</answer>", True),
        ("<think>Guanyuan runs at 60 % of Dongsi.</think>\n<answer>124</answer>\nGuanyuan should be near 75.", True),
        ("<think>Persistence.</think>\n<answer>Guanyuan: 124</answer>", False),
        ("<think>Persistence.</think>\nGuanyuan forecast:\n<answer>124</answer>", False),
        ("<think>Persistence.</think>\n<answer>124 (Guanyuan)</answer>", False),
    ],
)
def test_block_for_another_series_is_no_forecast(completion, paid):
    reward = ForecastClassCost(observed_column="observed", thresholds="korea", answer_block="required")
    scored = reward.score_rollout(completion, {"prompt": TWO_STATIONS, "observed": 124.0})
    assert (scored.score == 1.0) is paid, scored.reason


def test_series_asked_needs_one_named_series():
    assert asked_and_other_series(TWO_STATIONS) == ("dongsi", frozenset({"guanyuan"}))
    assert asked_and_other_series(ASKED_17) == ("", frozenset())  # one series
    assert asked_and_other_series("Dongsi: 1, 2\nGuanyuan: 3, 4\nForecast the mean of both.") == ("", frozenset())


@pytest.mark.parametrize(
    "lead,day",
    [("Forecast for Jan 18:", "Jan 18"), ("2022-01-18 forecast:", "2022-01-18"), ("Forecast for Jan 17:", ""),
     ("Jan 16 was 52, so for tomorrow:", ""), ("Tomorrow:", ""), ("Jan 18 would be lower; Jan 17:", "")],
)
def test_lead_in_for_another_day(lead, day):
    assert lead_names_another_day(lead, frozenset({(1, 17)})) == day


@pytest.mark.parametrize("span,label", [("50 (2022-01-18)", "2022-01-18"), ("50 (for Jan 18)", "Jan 18"),
                                        ("50 (2022-01-17)", ""), ("50 (Jan 16: 52)", "")])
def test_bracketed_date_after_the_value(span, label):
    assert labelled_for_another_day(span, frozenset({(1, 17)})) == label


# --- hand variants: emphasis on the study heading, sequence openers after the box, the rest set aside -----------------
def test_emphasised_current_study_heading():
    assert read_labels("**Current study:** atelectasis; pneumothorax", ";") == ["atelectasis", "pneumothorax"]
    assert read_labels("**Current study**: atelectasis; pneumothorax", ";") == ["atelectasis", "pneumothorax"]


@pytest.mark.parametrize(
    "text,other",
    [
        ("Replace potassium first. \\boxed{B} Afterwards, start the insulin infusion (A).", None),
        ("\\boxed{B}. Later the insulin infusion (A) comes after.", None),
        ("\\boxed{B}. Then again, option A is better.", "A"),  # a correction, not a sequence
    ],
)
def test_sequence_opener_after_the_box(text, other):
    assert other_option_last(text, "B") == other


@pytest.mark.parametrize(
    "sentence,aside",
    [
        ("The other options are wrong here.", True),
        ("The others are not indicated.", True),
        ("Insulin (A) comes after that.", True),  # one option put off
        ("Insulin (A) is wrong.", False),  # one option's verdict
        ("The other options.", False),  # no verdict
    ],
)
def test_the_rest_set_aside(sentence, aside):
    assert sets_options_aside(sentence, DKA) is aside


def test_faithfulness_reads_past_the_rest_set_aside():
    reward = ClinicalFaithfulness(options_column="options")
    row = {"options": "\n".join(f"{k}. {v}" for k, v in DKA.items())}
    think = ("<think>Potassium is low but insulin treats the acidosis: the next step is the insulin infusion, A. The "
             "other options are wrong here.</think>\n")
    assert reward.score_rollout(think + "<answer>\\boxed{B}</answer>", row).score == 0.0
    assert reward.score_rollout(think + "<answer>\\boxed{A}</answer>", row).score == 1.0


# --- toolrl_correctness: a call planned in prose for after the block ----------------------------------------------------
FLIGHTS_PROMPT = ("You are a helpful assistant that can call functions. Available functions (JSON):\n"
                  '[{"name": "book_flight", "parameters": {"type": "dict", "properties": {"flight_id": {"type": "string"}, '
                  '"passenger_name": {"type": "string"}}, "required": ["flight_id", "passenger_name"]}}, {"name": '
                  '"send_confirmation", "parameters": {"type": "dict", "properties": {"email": {"type": "string"}, '
                  '"booking_id": {"type": "string"}}, "required": ["email", "booking_id"]}}]\nWrite only the next call.')
BOOK = '{"name": "book_flight", "parameters": {"flight_id": "B6433", "passenger_name": "Dana Reyes"}}'
CONFIRM = '{"name": "send_confirmation", "parameters": {"email": "dana@example.com", "booking_id": "X1"}}'


@pytest.mark.parametrize(
    "completion,full",
    [
        (f"<tool_call>\n{BOOK}\n</tool_call>", True),
        (f"<tool_call>\n{BOOK}\n</tool_call>\nOnce this returns a booking id, I'll call send_confirmation({CONFIRM}).", True),
        (f"<tool_call>\n{BOOK}\n</tool_call>\nNext, I will call:\n{CONFIRM}", True),
        (f"<tool_call>\n{BOOK}\n</tool_call>\nAfter that I'd run send_confirmation with the booking id.", True),
        # a second call made now, and the planned call as the only one made
        (f"<tool_call>\n{BOOK}\n</tool_call>\n<tool_call>\n{CONFIRM}\n</tool_call>", False),
        (f"<tool_call>\n{CONFIRM}\n</tool_call>\nOnce that is sent, I'll call {BOOK}", False),
    ],
)
def test_call_planned_for_later_is_not_made(completion, full):
    from polyreward.rewards.tool_calls import ToolRLCorrectness
    reward = ToolRLCorrectness(answer_column="answer", read_blocks="all")
    scored = reward.score_rollout(completion, {"prompt": FLIGHTS_PROMPT, "answer": f"<tool_call>\n{BOOK}\n</tool_call>"})
    assert (scored.score == 3.0) is full, scored.reason


def test_planned_line_needs_a_sequence_and_a_future_call():
    from polyreward.verifiers.tool_calls import without_planned_calls
    assert without_planned_calls("Then I'll call x({})").strip() == ""
    assert without_planned_calls("I'll call x({}) now.") == "I'll call x({}) now."
    assert without_planned_calls("When I'm done I'll summarise.") == "When I'm done I'll summarise."


# --- kg_triplet_consistency: a clause of the earlier study's findings, in the past ---------------------------------------
@pytest.mark.parametrize(
    "report,left",
    [
        ("Right lower lobe consolidation was seen on the prior study of 2023-08-30; it is no longer present.", False),
        ("The previous radiograph showed cardiomegaly.", False),
        ("Cardiomegaly was also noted on the earlier film.", False),
        # the finding stated now as well, or no past statement about the earlier study
        ("The effusion, as was seen on the prior study, is unchanged.", True),
        ("Small left effusion was present on the prior study and is unchanged.", True),
        ("New right pneumothorax, not present on the prior study.", True),
        ("Cardiomegaly. Comparison was made with the prior study of 2023.", True),
    ],
)
def test_prior_study_clause_left_out(report, left):
    from polyreward.rewards.kg_triplet import without_prior_study_clauses
    assert (without_prior_study_clauses(report).strip() != "" and any(
        w in without_prior_study_clauses(report) for w in ("consolidation", "cardiomegaly", "Cardiomegaly", "effusion",
                                                           "pneumothorax"))) is left


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab prior study was seen on the;.\n"), max_size=80))
def test_prior_study_clauses_keep_length(report):
    from polyreward.rewards.kg_triplet import without_prior_study_clauses
    assert len(without_prior_study_clauses(report)) == len(report)


def test_status_headings_stay_linear_on_blank_runs():
    import time
    from polyreward.verifiers.radiology_kg import _denied_lists
    start = time.process_time()
    _denied_lists(" " * 100_000 + "Absent: pneumothorax", default_lexicon())
    assert time.process_time() - start < 1.0
