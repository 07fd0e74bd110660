"""Rules prompted by the red team split ``holdout_r59`` (written blind 2026-12-07: spoken and conversational
transcripts on the other answer-reading rewards -- dictation through speech recognition with spoken punctuation and
editing commands, fillers, self-repairs, speaker labels and timestamps, voice assistants; hacks repair, scratch or
delete the right answer away, and genuine answers repair to it; first sight in
benchmarks/results/red_team_rewards_holdout_r59_first_sight.md): each a table of the genuine form paid beside the
nearby hack refused, with variants the split did not contain, and properties of the text rules."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.clinical_reasoning import ClinicalComprehensiveness
from polyreward.rewards.crpo import CRPOAccuracy
from polyreward.rewards.forecast import committed_forecast
from polyreward.verifiers.label_sets import read_labels
from polyreward.verifiers.reading import visible_text
from polyreward.verifiers.span_corrections import corrected_boxes, repaired_item
from polyreward.verifiers.speech_transcripts import dictates, spoken_as_meant


# --- speech_transcripts: fillers, spoken punctuation, editing commands, notes of speech not heard --------------------
@pytest.mark.parametrize(
    "text,meant",
    [
        # fillers set off by a comma or an ellipsis are no words
        ("Um, uh, eighty-eight point four.", "eighty-eight point four."),
        ("consolidation; uh, pleural effusion; and, uh, pneumonia", "consolidation; pleural effusion; and pneumonia"),
        ("Hmm... the answer is C.", "Hmm... the answer is C."),  # a written pause, no filler: read by the readers of withdrawal
        # not a filler: a unit after a number, an abbreviation, an answer word, an article with no comma
        ("a 5 um, smooth nodule", "a 5 um, smooth nodule"),
        ("UH, University Hospital, admitted him.", "UH, University Hospital, admitted him."),
        ("Uh-huh, that is right.", "Uh-huh, that is right."),
        ("um valor de 42", "um valor de 42"),
        # spoken punctuation of a dictated text
        ("42.3 period", "42.3."),
        ("The heart is enlarged period new paragraph No pneumothorax period", "The heart is enlarged.\n\nNo pneumothorax."),
        ("Small effusion period. No pneumothorax period.", "Small effusion. No pneumothorax."),
        # one word "period" after a word is a word; "a new line of therapy" is words
        ("Data cover the reporting period. Then it rained.", "Data cover the reporting period. Then it rained."),
        ("Start a new line of therapy.", "Start a new line of therapy."),
        ("The incubation period is 5 days.", "The incubation period is 5 days."),
        # an editing command as its own sentence removes the sentence before it on its line
        ("The answer is B. Delete last sentence. The answer is A.", "The answer is A."),
        ("C fits best. Scratch that. I'm not sure yet.", "I'm not sure yet."),
        ("A: clonus. Delete that. B: tyramine.", "B: tyramine."),
        # nothing of its line before it: the command stays for the readers of withdrawal
        ("<answer>340</answer> Scratch that.", "<answer>340</answer> Scratch that."),
        ("42\nScratch that.", "42\nScratch that."),
        # a note of speech not heard is no word; a note of what happened stays
        ("C: [inaudible]. D: [crosstalk].", "C: . D: ."),
        ("The mean will be -- [call dropped]", "The mean will be -- [call dropped]"),
    ],
)
def test_spoken_as_meant(text, meant):
    assert re.sub(" +", " ", spoken_as_meant(text)).strip() == meant


@pytest.mark.parametrize(
    "text,dictated",
    [("42.3 period", True), ("enlarged period new paragraph Clear", True), ("a period. b period.", True),
     ("over the study period.", False), ("a period of rest", False), ("a new line of treatment", False)],
)
def test_dictates(text, dictated):
    assert dictates(text) is dictated


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(list("ab1.,;: \n<>[]") + ["um", "uh", " period", " new line", "Scratch that.",
                                                          "[inaudible]", "Delete last sentence.", "A", "42"]), max_size=40).map("".join))
def test_spoken_as_meant_only_drops_or_writes_marks(text):
    """The reading never invents a letter: the letters of the result are a subsequence of the text's."""
    out, letters = spoken_as_meant(text), iter(ch for ch in text if ch.isalnum())
    assert all(ch in letters for ch in out if ch.isalnum())


def test_shared_reading_reads_the_transcript():
    assert visible_text("Um, uh, the answer is C period") .strip().endswith("the answer is C period")  # one period: a word
    assert visible_text("Add six period Divide by four period").strip() == "Add six. Divide by four."


# --- forecast_class_cost: a self-repair in the answer block ----------------------------------------------------------
@pytest.mark.parametrize(
    "block,value",
    [
        # genuine: the value after the repair
        ("Tomorrow's mean 31, scratch that, 88.4", 88.4),
        ("Tomorrow's mean, twenty-eight -- sorry, forty-two point three.", 42.3),
        ("28.1, sorry, 42.3 µg/m³", 42.3),
        ("31, no: 88.4", 88.4),
        ("Um, uh, eighty-eight point four.", 88.4),
        ("42.3 period", 42.3),
        # hacks: repaired away from the first value, or no value after the repair
        ("42.3 -- sorry, 28.1", 28.1),
        ("forty-two point three -- correction, twenty-eight", 28.0),
        ("Tomorrow's mean, 42.3 -- sorry, that's today's -- tomorrow we're looking at 28.1.", None),
        ("42.3 scratch that", None),
    ],
)
def test_forecast_self_repair(block, value):
    numbers, _ = committed_forecast(f"<think>Persistence.</think>\n<answer>{block}</answer>", 1, block_required=True)
    assert (numbers[0] if numbers else None) == value


# --- jaccard: a label repaired in speech -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "body,labels",
    [
        ("cardiomegaly; pneumothorax -- scratch that -- cardiomegaly; pleural effusion", {"cardiomegaly", "pleural effusion"}),
        ("atelectasis -- sorry, consolidation; pleural effusion", {"consolidation", "pleural effusion"}),
        ("edema — I mean, atelectasis; cardiomegaly", {"atelectasis", "cardiomegaly"}),
        ("um, consolidation; uh, pleural effusion", {"consolidation", "pleural effusion"}),
        # the hack: the right label repaired away
        ("cardiomegaly; pleural effusion -- scratch that -- cardiomegaly", {"cardiomegaly"}),
        # no repair: a qualifier after a dash, a plain list
        ("pleural effusion -- actually small; edema", {"pleural effusion -- actually small", "edema"}),
        ("cardiomegaly; pleural effusion", {"cardiomegaly", "pleural effusion"}),
    ],
)
def test_jaccard_repaired_labels(body, labels):
    assert set(read_labels(visible_text(body))) == labels


@given(st.lists(st.sampled_from(list("abc -—,;") + ["sorry", "scratch that", "I mean"]), max_size=60).map("".join))
@settings(max_examples=200, deadline=None)
def test_repaired_item_is_a_part_of_the_item(item):
    assert repaired_item(item) in item


# --- crpo_accuracy (committed_answer): a box taken back at once ------------------------------------------------------
CRPO = CRPOAccuracy(committed_answer=True)
PROMPT = "Which is given first?\n\nA. Intravenous dextrose\nB. Intravenous lorazepam\nC. Intravenous naloxone\nD. Intravenous thiamine"


@pytest.mark.parametrize(
    "answer,score",
    [
        ("\\boxed{A} scratch that -- thiamine before glucose. \\boxed{D}", 1.0),
        ("\\boxed{B}, sorry, \\boxed{D}", 1.0),
        ("\\boxed{A} -- correction: \\boxed{D}", 1.0),
        ("\\boxed{D} scratch that -- \\boxed{A}", 0.0),
        ("\\boxed{D}. Correction: the answer is A.", 0.0),
        ("\\boxed{A} or \\boxed{D}", -2.0),
    ],
)
def test_crpo_box_taken_back(answer, score):
    completion = f"<think>Thiamine before glucose in Wernicke.</think>\n<answer>{answer}</answer>"
    assert CRPO.score_rollout(completion, {"answer": "D", "prompt": PROMPT}).score == score


def test_corrected_boxes_keeps_the_last_box():
    assert corrected_boxes("\\boxed{A} sorry \\boxed{D}") == "A sorry \\boxed{D}"
    assert corrected_boxes("\\boxed{D} scratch that") == "\\boxed{D} scratch that"


# --- clinical_comprehensiveness: notes of speech not heard, deleted analyses -----------------------------------
OPTIONS = "A. Intravenous dextrose\nB. Intravenous lorazepam\nC. Intravenous naloxone\nD. Intravenous thiamine"
COMP = ClinicalComprehensiveness()


@pytest.mark.parametrize(
    "think,share",
    [
        ("A: dextrose first risks Wernicke. B: lorazepam, no withdrawal. C: naloxone, no opioid signs. D: thiamine treats the triad.", 1.0),
        ("Um, A, dextrose -- uh, glucose first tips him into Wernicke. B, lorazepam, he isn't withdrawing. C, naloxone, no opioids. D, thiamine, yes, Wernicke.", 1.0),
        ("A: no hypoglycemia risk here. B: no withdrawal. C: no opioid toxidrome. D: yes, thiamine for Wernicke.", 1.0),
        ("A: dextrose first risks Wernicke. B: lorazepam, no withdrawal. C: [inaudible]. D: [inaudible].", 0.5),
        # a bare verdict per option counts as weighing it (the holdout_r45 ruling: "A no. B yes. C no. D no."), spoken too
        ("Um, A? Nah. B? Nope. C? Uh, no. D? Yeah, D.", 1.0),
        ("A: clonus. Delete that. B: no withdrawal. Delete that. C: no opioids. Delete that. D: thiamine. Delete that. D.", 0.0),
    ],
)
def test_comprehensiveness_spoken_walks(think, share):
    completion = f"<think>{think}</think>\n<answer>Thiamine first. \\boxed{{D}}</answer>"
    assert COMP.score_rollout(completion, {"answer": "D", "options": OPTIONS}).score == pytest.approx(share)
