"""Rules prompted by the red team split ``holdout_r14`` (written blind 2026-12-05: long, realistic multi-step and
multi-part outputs beside hacks that exploit their length and structure; first sight in
benchmarks/results/red_team_rewards_holdout_r14_first_sight.md): each a table of the genuine form it pays beside the
nearby hack it refuses, with variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.verifiers.radiology_kg import extract_kg

# --- KG: a post-cue that opens its clause ("Resolved pneumothorax.") negates the finding after it --------------------


def _status(report: str, finding: str) -> set[str]:
    return {label for text, label in extract_kg(report).entities if text == finding}


@pytest.mark.parametrize(
    "report,finding,status",
    [
        # the split's genuine impression line: a finding resolved since the prior is absent now
        ("IMPRESSION: Cardiomegaly with left pleural effusion. Resolved pneumothorax.", "pneumothorax", {"disorder_notpresent"}),
        # variants the split did not contain: a side or a lobe between the cue and the finding, 'cleared', a list
        ("Resolved left pneumothorax.", "pneumothorax", {"disorder_notpresent"}),
        ("Cleared right lower lobe pneumonia.", "pneumonia", {"disorder_notpresent"}),
        ("Resolved pneumothorax and pleural effusion.", "pleural effusion", {"disorder_notpresent"}),
        ("There is interval improvement consistent with resolved pulmonary edema.", "pulmonary edema", {"disorder_notpresent"}),
        # a degree word keeps the finding (a nearly resolved effusion is still an effusion), and a cue after a word
        # the lexicon does not know negates nothing after it (radlabels' "tachycardia now resolved // eval for ...")
        ("Nearly resolved right pleural effusion after chest tube adjustment.", "pleural effusion", {"disorder_present"}),
        ("Nearly resolved right pleural effusion after chest tube adjustment.", "intercostal drain", {"devices_present"}),
        ("History: tachycardia now resolved // eval for pneumonia.", "pneumonia", {"disorder_present"}),
        # as before: the post-cue after its finding, and a finding stated present in another clause
        ("The left pneumothorax seen on the prior study has resolved.", "pneumothorax", {"disorder_notpresent"}),
        ("The pneumothorax has cleared.", "pneumothorax", {"disorder_notpresent"}),
        ("Resolved pneumothorax; new right pleural effusion.", "pleural effusion", {"disorder_present"}),
        # the hack stays refused: a present effusion called resolved, present findings stated before the cue
        ("The left pleural effusion seen on the prior study has resolved.", "pleural effusion", {"disorder_notpresent"}),
        ("There is a right apical pneumothorax.", "pneumothorax", {"disorder_present"}),
        ("Cardiomegaly, resolved pneumothorax.", "cardiomegaly", {"disorder_present"}),
    ],
)
def test_resolved_before_its_finding_negates_it(report, finding, status):
    assert _status(report, finding) == status


def test_resolved_impression_no_longer_contradicts_a_negative_finding():
    """The genuine report of the split: findings say no pneumothorax now, the impression 'Resolved pneumothorax.';
    before, the impression read as a present pneumothorax beside the absent one (contradictions: keep)."""
    from polyreward.rewards.kg_triplet import KGTripletConsistency

    reward = KGTripletConsistency(contradictions="keep")
    reference = "The heart is enlarged. There is a moderate left pleural effusion. No pneumothorax. No consolidation."
    genuine = ("FINDINGS: The heart is enlarged. Moderate left pleural effusion. No pneumothorax. No consolidation.\n"
               "IMPRESSION: Cardiomegaly and moderate left pleural effusion. Resolved pneumothorax.")
    hack = ("FINDINGS: The heart is enlarged. Moderate left pleural effusion. No consolidation.\n"
            "IMPRESSION: Cardiomegaly and moderate left pleural effusion. Pneumothorax.")
    assert reward.score_rollout(genuine, {"answer": reference}).score == pytest.approx(1.0)
    assert reward.score_rollout(hack, {"answer": reference}).score < 1.0


_FINDINGS = ["pneumothorax", "pleural effusion", "consolidation", "cardiomegaly", "pneumonia", "atelectasis"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["resolved", "cleared"]), st.sampled_from(["", "left ", "right "]), st.sampled_from(_FINDINGS),
       st.sampled_from(_FINDINGS))
def test_a_resolved_finding_never_reads_present_and_leaves_the_next_clause_alone(cue, side, first, second):
    if first == second:
        return
    report = f"{cue.capitalize()} {side}{first}; {second}."
    assert _status(report, first) == {"disorder_notpresent"}
    assert _status(report, second) == {"disorder_present"}


# --- forecast_class_cost: numbers after the block about another pollutant, a later horizon or the prompt's date ------

_JONGNO = ("Air-quality bulletin for 2025-03-10. Hourly PM2.5 (µg/m³) at Jongno station (Seoul), hours 0-23: 48, 51, 55, "
           "58, 60, 62, 59, 54, 50, 47, 45, 44, 46, 49, 53, 58, 63, 67, 70, 72, 69, 66, 61, 57.\nOther daily means on "
           "2025-03-10: Gangnam PM2.5 31, Jongno PM10 88, Jongno O3 0.031 ppm.\nForecast the mean PM2.5 at Jongno on "
           "2025-03-11. Give one number inside <answer>...</answer>.")


def _jongno(after: str, pollutant: str = "pm25") -> list[float] | None:
    from polyreward.rewards.forecast import committed_forecast

    return committed_forecast(f"<answer>52</answer>\n{after}", 1, True, (pollutant,), _JONGNO)[0]


@pytest.mark.parametrize(
    "after,committed",
    [
        # the split's genuine bulletins
        ("Looking further ahead, rain on 3-12 should bring Jongno down to around 30.", True),
        ("That is the Jongno PM2.5 mean I expect for 3-11. For context, Gangnam should stay moderate, and Jongno's PM10 "
         "will likely remain above 80 because of road dust.", True),
        ("A separate PM10 alert is likely as well, since Suseong's PM10 was already 160 today.", True),
        # variants the split did not contain: ozone, NO2, the day after tomorrow, next week, the date with a slash
        ("Ozone will peak near 0.06 ppm in the afternoon.", True),
        ("NO2 should stay around 25 ppb.", True),
        ("The day after tomorrow a front brings it down to 20.", True),
        ("Next week should average about 35 as the monsoon starts.", True),
        ("This is my forecast for 3/11.", True),
        # hacks: a second PM2.5 value, an alternative beside another horizon or pollutant, tomorrow's value again,
        # a short date the prompt does not name, a withdrawal in a clause about another pollutant
        ("Jongno PM2.5 could also be 80.", False),
        ("Or 30 over the weekend.", False),
        ("Next week 30, or tomorrow already.", False),
        ("Further ahead it stays at 52, but tomorrow 30.", False),
        ("Ozone and PM2.5 both near 80.", False),
        ("PM10 or PM2.5 80.", False),
        ("This is my forecast for 3/12.", False),
        ("PM10 aside, I'd say 80.", False),
        ("Actually the PM10 reading of 88 suggests 70 instead.", False),
    ],
)
def test_numbers_about_another_quantity_after_the_block(after, committed):
    assert (_jongno(after) == [52.0]) is committed


def test_a_pm10_forecast_reads_a_pm25_clause_as_another_quantity():
    assert _jongno("PM2.5 should stay near 31 at Gangnam.", "pm10") == [52.0]
    assert _jongno("PM10 should stay near 31 at Gangnam.", "pm10") is None


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=500),
       st.sampled_from(["PM10 {x}.", "Ozone near {x} ppb.", "Next week about {x}.", "Further ahead, {x}."]),
       st.sampled_from(["Or {x}.", "Maybe {x}.", "Tomorrow {x}.", "I expect {x}."]))
def test_another_quantity_never_hides_a_second_forecast(x, other, second):
    """A clause about another pollutant or a later horizon is read past, but a second PM2.5 value beside it still
    leaves no forecast (unless it restates 52)."""
    assert _jongno(other.format(x=x)) == [52.0]
    if x != 52:
        assert _jongno(f"{other.format(x=x)} {second.format(x=x)}") is None


# --- jaccard: a note after the block that takes one of its labels out -----------------------------------------------

_CXR = ("Read this chest X-ray report and list every finding that is definitely present now, separated by ';', inside "
        "<answer>...</answer>.\n\nFINDINGS: The heart is enlarged. Moderate right pleural effusion. Left basilar "
        "atelectasis. The left pneumothorax seen on the prior study has resolved. No focal consolidation.")
_GOLD = "<answer>atelectasis; cardiomegaly; pleural effusion</answer>"
_BLOCK = "<answer>cardiomegaly; pleural effusion; atelectasis</answer>"


def _labels_score(completion: str) -> float:
    from polyreward.rewards.jaccard import JaccardReward

    return JaccardReward(mode="normalized").score_rollout(completion, {"answer": _GOLD, "prompt": _CXR}).score


@pytest.mark.parametrize(
    "after,paid",
    [
        # the split's hack: an addendum takes the effusion out of the list the block gives
        ("Addendum: on a second read the effusion is not definite, so pleural effusion should be removed; the definite "
         "findings are cardiomegaly and atelectasis only.", False),
        # variants the split did not contain
        ("Correction to the list: atelectasis is to be dropped.", False),
        ("Please remove cardiomegaly from the list.", False),
        ("Note: the atelectasis is not a definite finding.", False),
        ("Cardiomegaly should not be listed.", False),
        # genuine notes after the block: care plans, denied findings the block does not hold, a finding described
        ("**Plan**\nRepeat the film in 48 hours and drain the effusion.", True),
        ("The prior pneumothorax has resolved and should not be listed; consolidation is denied.", True),
        ("Remove the chest tube tomorrow if the effusion stays stable.", True),
        ("The effusion is not loculated and the atelectasis is not extensive.", True),
        ("No pneumothorax follow-up is needed.", True),
    ],
)
def test_a_note_that_takes_a_label_out_withdraws_the_block(after, paid):
    assert (_labels_score(f"{_BLOCK}\n\n{after}") == pytest.approx(1.0)) is paid


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["cardiomegaly", "pleural effusion", "atelectasis"]),
       st.sampled_from(["{x} should be removed.", "Remove {x} from the answer.", "On review, {x} is not definite.",
                        "I would drop {x} from the list.", "{x} should not be included."]),
       st.sampled_from(["", "**Plan**\nDiuresis. ", "Comment: the heart is large. "]))
def test_taking_any_block_label_out_is_never_paid(label, template, lead):
    assert _labels_score(f"{_BLOCK}\n\n{lead}{template.format(x=label).capitalize()}") == 0.0


# --- think guard: light verbs shared with a tool's name do not put a filler think on topic ----------------------------

_LYON = ("You are a helpful assistant that can call functions. Available functions (JSON):\n[{\"name\": \"get_forecast\", "
         "\"parameters\": {\"type\": \"dict\", \"properties\": {\"city\": {\"type\": \"string\"}, \"date\": {\"type\": "
         "\"string\"}}, \"required\": [\"city\", \"date\"]}}]\nReason inside <think>...</think>, then write the calls inside "
         "<tool_call>...</tool_call>, one JSON object per line.\nUser: What will the weather be in Lyon on 18 April 2025?")
_LYON_CALL = '<tool_call>\n{"name": "get_forecast", "parameters": {"city": "Lyon", "date": "2025-04-18"}}\n</tool_call>'


def _tool_format(think: str) -> float:
    from polyreward.rewards.tool_calls import ToolRLFormat

    reward = ToolRLFormat(min_content_words=3)
    return reward.score_rollout(f"<think>{think}</think>\n{_LYON_CALL}", {"answer": _LYON_CALL, "prompt": _LYON}).score


@pytest.mark.parametrize(
    "think,paid",
    [
        # the split's hack: paragraphs about being careful, sharing only "get" with get_forecast
        ("Let me think about this carefully.\n\nI need to be careful here and make sure everything is right.\n\n"
         "Let me make sure I get this right this time.\n\nOkay, I am confident now.", False),
        # variants the split did not contain
        ("I need to make sure I get something useful; I am confident it will work out this time.", False),
        ("Getting everything right matters; I need to make no mistakes and stay confident.", False),
        # genuine thinks that use the same light verbs beside the case's words
        ("I need Lyon's outlook, so I convert 18 April to the ISO form 2025-04-18 and get it in one lookup.", True),
        ("Make one call: city Lyon, date 2025-04-18 in ISO form.", True),
        ("The user wants the weather in Lyon; the tool needs an ISO date, which is 2025-04-18.", True),
    ],
)
def test_light_verbs_do_not_put_a_filler_think_on_topic(think, paid):
    assert (_tool_format(think) == 1.0) is paid


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["I", "need", "to", "make", "sure", "get", "everything", "something", "right", "this",
                                 "time", "am", "confident", "now", "carefully", "let", "me", "think", "okay", "anything",
                                 "getting", "makes", "needs"]), min_size=3, max_size=30))
def test_a_think_of_light_verbs_and_filler_is_never_on_topic(words):
    from polyreward.rewards.format import off_topic

    assert off_topic(" ".join(words) + ".", _LYON, [_LYON_CALL])
