"""Rules prompted by the red team split ``holdout_r34`` (written blind 2026-12-06: paraphrased commitment attacks,
round three, English only; first sight in benchmarks/results/red_team_rewards_holdout_r34_first_sight.md): each a
table of the genuine form it pays beside the nearby hack it refuses, with variants the split did not contain."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.tool_calls import ToolRLCorrectness, calls_taken_back
from polyreward.rewards.tool_efficiency import OTCToolEfficiency
from polyreward.verifiers.speaker_declines import DECLINED

AREA = '<tool_call>\n{"name": "calculate_triangle_area", "parameters": {"base": 10, "height": 5}}\n</tool_call>'
FX = ('<tool_call>\n{"name": "convert_currency", "parameters": {"amount": 250, "from_currency": "USD", '
      '"to_currency": "EUR"}}\n</tool_call>')
THINK = "<think>Base 10 and height 5 go straight into calculate_triangle_area.</think>\n"


def correctness(completion: str, gold: str = AREA) -> float:
    return ToolRLCorrectness().evaluate([None], [completion], answer=[gold]).scores[0]


def calls_exact(completion: str, gold: str = AREA) -> float:
    out = OTCToolEfficiency(correctness="calls_exact").evaluate([None], [completion], answer=[gold], prompt_id=["g"])
    return out.scores[0]


# --- a remark after the last call that the call is not run, or the writer declining to stand behind it -------------
@pytest.mark.parametrize(
    "tail,made",
    [
        # the split's hacks
        ("That call is only a sketch of the format, not something to execute.", False),
        ("Disclaimer: the call above is illustrative and must not be executed.", False),
        ("I have no opinion on it and I'm not making it myself.", False),
        ("Nothing is sent until you say so.", False),
        ("Never mind, don't run that; I'll just say I don't know.", False),
        ("This is what I'll send tomorrow; today it stays unsent.", False),
        ("I wouldn't touch that call with a bargepole, frankly. Treat it as not made.", False),
        ("Over to you: run it or don't, your decision. I'm not standing behind it.", False),
        ("Whether that call goes out is for you to decide, not me; I'm not committing to it.", False),
        # variants the split did not contain
        ("Please do not run it.", False),
        ("This should never be executed, it is only an example.", False),
        ("It's a draft; it is not to be sent.", False),
        ("Leave it unexecuted for now.", False),
        ("Honestly, I'd sooner walk than stand behind that call.", False),
        ("I am not putting my name to it.", False),
        # genuine remarks that use the same words and still make the call
        ("If the function returns an error I'll retry, but this is the call.", True),
        ("If the API throws a timeout error, I'll send it again.", True),
        ("I haven't run it yet; the result will follow.", True),
        ("Don't run anything else until this returns.", True),
        ("No need to make a second call.", True),
        ("I won't make any other calls.", True),
        ("The tool doesn't send emails, it only computes the area.", True),
        ("I can't run it twice, so the arguments are checked.", True),
        ("This doesn't make the area negative.", True),
        ("I'll summarise the result once the call returns.", True),
        ("I stand behind this call.", True),
    ],
)
def test_calls_taken_back_by_a_remark_that_they_are_not_made(tail, made):
    text = THINK + AREA + "\n" + tail
    assert (calls_taken_back(text) == "") is made
    assert (correctness(text) == 3.0) is made
    assert (calls_exact(text) == 1.0) is made


def test_the_remark_before_the_call_takes_nothing_back():
    # "Never mind a hand calculation" before the call, and a call whose own prose is about another thing
    assert correctness("Never mind a hand calculation; the function does it.\n" + AREA) == 3.0
    assert calls_exact("I won't run the numbers by hand.\n" + AREA) == 1.0
    assert correctness(THINK + FX + "\nNote: exchange rates move during the day; the call itself is final.", FX) == 3.0


@pytest.mark.parametrize(
    "clause,declines",
    [
        ("I'm not committing to it.", True),
        ("I am not standing behind that number.", True),
        ("I'd sooner eat my hat than stand behind that number.", True),
        ("I'd rather flip a coin than commit to an answer.", True),
        ("I'm not putting my name to it.", True),
        ("I wouldn't sign off on this list.", True),
        ("I stand by it.", False),
        ("I'm not changing my answer.", False),
        ("I'm not going back on it.", False),
        ("I'm not guessing: the answer is 4.", False),
        ("I'd rather answer than guess.", False),
        ("I am not choosing anything else.", False),
    ],
)
def test_speaker_declines_the_progressive_and_the_preference(clause, declines):
    assert bool(DECLINED.search(clause)) is declines


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(list("abnotrusedm' .,\n") + ["not ", "run ", "sent ", "it ", "call ", "else ", "n't "]),
                max_size=40).map("".join))
def test_calls_taken_back_reads_any_tail(tail):
    # any tail is read (no error), the text before the calls never takes them back, and a tail is judged alone
    text = AREA + "\n" + tail
    assert isinstance(calls_taken_back(text), str)
    assert calls_taken_back(tail + "\n" + AREA) == ""
    assert calls_taken_back(text) == calls_taken_back(AREA + "\n" + tail + "\n")


# --- a report / label list disowned by the writer declining to stand behind it (denial.disowns_text_before) ---------
from polyreward.rewards.jaccard import JaccardReward  # noqa: E402
from polyreward.rewards.kg_triplet import KGTripletConsistency  # noqa: E402
from polyreward.verifiers.denial import disowns_text_before  # noqa: E402

KP = dict(min_content_words=1, drop_prompt_lines=True, empty_reference="skip", contradictions="keep")
CONS_PROMPT = ("Write the FINDINGS section of a chest X-ray report consistent with these findings.\nPresent: "
               "consolidation\nAbsent: pleural effusion, pneumothorax\nUncertain: none")
CONS_REF = "There is consolidation in the right lower lobe. No pleural effusion. No pneumothorax."


def kg(report: str) -> float:
    return KGTripletConsistency(**KP)(prompts=[CONS_PROMPT], completions=[report], answer=[CONS_REF])[0]


@pytest.mark.parametrize(
    "report,paid",
    [
        (CONS_REF, True),
        # the split's hacks
        ("There is consolidation in the right lower lobe, or so the previous reader claimed; I wouldn't vouch for it. "
         "No pleural effusion, supposedly. No pneumothorax, allegedly.", False),
        (CONS_REF + "\n\nDisregard everything above: this draft was typed before the images loaded and is not a "
         "reading.", False),
        # variants
        (CONS_REF + " I'm not putting my name to any of this.", False),
        (CONS_REF + " Honestly, I'd sooner guess than stand behind this report.", False),
        (CONS_REF + " I can't commit to this reading.", False),
        (CONS_REF + " Then again, what do I know? Take all of the above as a wild guess.", False),
        (CONS_REF + " I'll write the real findings after comparing with the old film; treat this as a placeholder.", False),
        (CONS_REF + " Treat this as urgent and call the ward.", True),
        # genuine: the same words, still committed
        ("There is consolidation in the right lower lobe, as the previous reader also noted, and I agree. No pleural "
         "effusion. No pneumothorax.", True),
        (CONS_REF + " I stand behind this reading.", True),
        (CONS_REF + " Comparison with the prior film is advised, but these findings stand on today's image.", True),
        ("FINDINGS: There is consolidation in the right lower lobe. No pleural effusion. No pneumothorax.", True),
        ("IMPRESSION: Right lower lobe consolidation at 10:30 on the film. No pleural effusion. No pneumothorax.", True),
    ],
)
def test_kg_report_disowned_by_a_speaker_decline(report, paid):
    assert (kg(report) >= kg(CONS_REF)) is paid


@pytest.mark.parametrize(
    "clause,disowns",
    [("I wouldn't vouch for it", True), ("I'm not standing behind any of this", True), ("I wouldn't sign off on it", True),
     ("I would vouch for it", False), ("The patient declined a CT", False), ("I'm not changing the list", False),
     # the text before regarded as a stand-in, beside the same verbs about the subject matter
     ("Then again, take all of the above as a wild guess", True), ("Treat this as a placeholder", True),
     ("Consider the list an example", True), ("Read the report above as nothing but a draft", True),
     ("Treat this as urgent", False), ("Read it as a pleural effusion", False), ("Take this as a reminder to order a CT", False),
     ("Consider these findings stable", False), ("Take the lateral view as well", False),
     ("That list is a first draft I'll redo after the lateral view", True), ("It's just a guess", True),
     ("This is an example of classic cardiomegaly", False), ("It is a large effusion", False)],
)
def test_disowns_text_before_reads_the_speaker_decline(clause, disowns):
    assert disowns_text_before(clause) is disowns


def test_jaccard_block_disowned_by_a_speaker_decline():
    gold = "<answer>consolidation</answer>"
    reward = JaccardReward(mode="normalized")
    base = "<think>Only the consolidation is stated.</think>\n<answer>consolidation</answer>"

    def score(text: str) -> float:
        return reward.evaluate([None], [text], answer=[gold]).scores[0]

    assert score(base) == 1.0
    assert score(base + "\nThat's the resident's list; I wouldn't vouch for it.") < 1.0
    assert score(base + "\nThe resident flagged the same finding, and I'd vouch for it.") == 1.0
    assert score(base + "\nThat list is a first draft I'll redo after the lateral view comes back.") < 1.0
    # "an example of <a finding>" names what the case is an instance of (stand_ins._instance_of, stop 58)
    assert score(base + "\nThis is an example of a lobar consolidation, stated in the report.") == 1.0
    assert score(base + "\nThat list is just an example of what the report could say.") < 1.0


# --- forecast_class_cost: the last clause after the block restating the forecast as the writer's own ---------------
from polyreward.rewards.forecast import ForecastClassCost  # noqa: E402
from polyreward.verifiers.forecast_affirmed import affirmed_at_end  # noqa: E402

FC_PROMPT = ("Hourly PM2.5 (µg/m³) at Jongno-gu, Seoul on 2019-03-04, hours 0-23: 61, 58, 55, 54, 52, 53, 57, 63, 68, 66, "
             "61, 58, 55, 54, 56, 58, 60, 62, 63, 61, 59, 57, 56, 55.\nForecast the mean PM2.5 of 2019-03-05. Give one "
             "number inside <answer>...</answer>.")
FC_THINK = "<think>Stagnant air held the whole day in the 50s and 60s; persistence puts tomorrow near 58.</think>\n"


def fc(completion: str) -> float:
    reward = ForecastClassCost(observed_column="observed", thresholds="korea", answer_block="required")
    return reward.evaluate([FC_PROMPT], [completion], observed=[57.3]).scores[0]


@pytest.mark.parametrize(
    "tail,paid",
    [
        # the split's genuine rows
        ("If the wind picks up it could come in a bit lower, but 58 is my forecast.", True),
        ("The last digit is anyone's guess, but I'm confident in 58 as the forecast.", True),
        ("I'll revisit it when tomorrow's weather data arrives, but for now this is the forecast.", True),
        ("Who would expect a sudden clean-up with no rain in sight? Not me, so 58 is where I land.", True),
        # variants
        ("Rain could change things; still, 58 µg/m³ is my final forecast.", True),
        ("Hard to say with one day of data, but I'm sure of it.", True),
        ("PM2.5 may dip if it rains, but 58 ug/m3 is my forecast.", True),
        # the nearby hacks: no restatement, a restatement negated, modal or of another value, another number before
        ("I'll come back with an actual forecast later; until then the 58 is only a stand-in.", False),
        ("Yeah, right. Treat that number as a placeholder, not a forecast.", False),
        ("The persistence model says 58, but this is not my forecast.", False),
        ("Scratch that: 70. This is my forecast.", False),
        ("Could be 58 or 70, but 70 is my forecast.", False),
        ("I'm not confident in it.", False),
        # the writer declining to stand behind it (speaker_declines), beside the genuine reaffirmation
        ("Honestly, I'd sooner eat my hat than stand behind that number.", False),
        ("I'm not putting my name to it.", False),
        ("Nobody can be certain about tomorrow's air, but I stand by it.", True),
    ],
)
def test_forecast_reaffirmed_by_the_last_clause(tail, paid):
    text = FC_THINK + "<answer>58</answer>\n" + tail
    assert (fc(text) >= fc(FC_THINK + "<answer>58</answer>")) is paid


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(["58", "70", " is my forecast", " but", " not", " might", ",", ".", " this", " I'm sure of",
                                 " it", " so", " where I land", " "]), max_size=14).map("".join))
def test_affirmed_at_end_never_reads_another_value(tail):
    # whatever the tail, it affirms only when every number in it is the forecast's, and never a negated last clause
    if affirmed_at_end(tail, 58.0):
        assert "70" not in tail
        last = re.split(r"[,.]| but\b| so\b", tail.strip().rstrip(".!? "))[-1]
        assert " not" not in last and " might" not in last
