"""Rules prompted by the red team split ``holdout_r48`` (written blind 2026-12-06: negation, polarity and scope on the
other answer-reading rewards -- the gold visible under a negation that does not commit to it, and genuine answers that
use negation legitimately; first sight in benchmarks/results/red_team_rewards_holdout_r48_first_sight.md): each a table
of the genuine form paid beside the nearby hack refused, with variants the split did not contain, and properties of
the text rules (:mod:`polyreward.verifiers.forecast_contrasts`, :func:`polyreward.verifiers.label_sets.without_negative_remark`,
:func:`polyreward.rewards.clinical_reasoning.corrective_conclusion`)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forecast_helpers import forecast_in_block
from polyreward.rewards.clinical_reasoning import (ClinicalComprehensiveness, ClinicalFaithfulness, corrective_conclusion,
                                                    mentioned_letters)
from polyreward.rewards.crpo import CRPOAccuracy
from polyreward.rewards.jaccard import JaccardReward
from polyreward.rewards.tool_calls import ToolRLCorrectness, calls_taken_back
from polyreward.verifiers.forecast_contrasts import value_and_remark, without_rejected_alternatives
from polyreward.verifiers.label_sets import read_labels, without_negative_remark
from polyreward.verifiers.radiology_kg import extract_kg



_forecast = forecast_in_block


# --- forecast_class_cost: a negation that sets another value or class aside --------------------------------------------
@pytest.mark.parametrize(
    "block,value",
    [
        ("28 µg/m³ — not the 35 that the evening peak would suggest.", 28.0),
        ("28, not 35.", 28.0),
        ("28 µg/m³; not the 45 of persistence.", 28.0),
        ("Not 20, but 12 µg/m³.", 12.0),
        ("Not 45 µg/m³ but rather 28 µg/m³.", 28.0),
        ("28 µg/m³ (moderate, not bad).", 28.0),
        ("102 µg/m³ (very bad, not bad).", 102.0),
        ("102 µg/m³. I have no doubt it stays very bad.", 102.0),
        ("58 µg/m³. Without a doubt.", 58.0),
        # the value itself negated, or nothing committed
        ("Anything but 28 µg/m³.", None),
        ("Not 28, but I can't say more.", None),
        ("28 (not moderate)", None),
        ("28, not 28.", None),
        ("Neither 102 nor 150 µg/m³.", None),
        ("I would not put 28 µg/m³ on the bulletin.", None),
        ("58 µg/m³. Not confident though.", None),
        ("58 µg/m³. No doubt it will be wrong.", None),
        ("102 µg/m³. I have no doubt it won't hold.", None),
        ("28 µg/m³, not 35. Or maybe 35.", None),
    ],
)
def test_forecast_negation_scope(block, value):
    assert _forecast(block) == value


def test_forecast_contrast_after_block_unchanged():
    # the text after a block keeps its own rules: a second number there is still a second number
    assert _forecast("28 µg/m³", " Not 35.") is None


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 300), st.integers(1, 300), st.sampled_from([" — not the {o} of yesterday.", ", not {o}.", "; not {o}."]))
def test_contrast_keeps_the_value_and_its_length(value, other, form):
    span = f"{value} µg/m³" + form.format(o=other)
    read = without_rejected_alternatives(span)
    assert len(read) == len(span)  # positions in the block are kept
    numbers = [w for w in read.replace(".", " ").split() if w.isdigit()]
    assert numbers == ([str(value)] if value != other else [str(value), str(other)])


@given(st.text(alphabet="abc .;,0123456789notNOT—", max_size=80))
def test_contrast_rules_total(text):
    assert len(without_rejected_alternatives(text)) == len(text)
    head, remark = value_and_remark(text)
    assert head.startswith(text[:1]) and (not remark or remark in text)


# --- jaccard: a pertinent negative beside a label -------------------------------------------------------------------
NOD_PROMPT = ("Read this chest X-ray report and list every finding that is definitely present, separated by ';', inside "
              "<answer>...</answer>.\n\nFINDINGS: 1.5 cm nodule in the right upper lobe. Linear atelectasis at the left "
              "base. No consolidation, pleural effusion or pneumothorax.")


@pytest.mark.parametrize(
    "body,score",
    [
        ("atelectasis (not consolidation); pulmonary nodule", 1.0),
        ("atelectasis; pulmonary nodule — no consolidation, pleural effusion or pneumothorax", 1.0),
        ("atelectasis, not consolidation; pulmonary nodule", 1.0),
        ("atelectasis [no effusion]; pulmonary nodule", 1.0),
        # the label's own hedge or denial stays
        ("atelectasis (not definite); pulmonary nodule", None),
        ("atelectasis; pulmonary nodule (no pulmonary nodule)", None),
        ("no atelectasis; pulmonary nodule", 0.5),
        ("neither atelectasis nor pulmonary nodule", 0.0),
    ],
)
def test_jaccard_pertinent_negative_beside_label(body, score):
    text = f"<think>Two findings.</think>\n<answer>{body}</answer>"
    got = JaccardReward(mode="normalized").score_rollout(
        text, {"answer": "<answer>atelectasis; pulmonary nodule</answer>", "prompt": NOD_PROMPT}).score
    assert got < 1.0 if score is None else got == pytest.approx(score)


def test_negative_remark_needs_a_denied_finding():
    assert without_negative_remark("edema, not pneumonia") == "edema"
    assert without_negative_remark("edema, not much") == "edema, not much"
    assert without_negative_remark("effusion (no effusion)") == "effusion (no effusion)"
    assert read_labels("cardiomegaly; edema (no pleural effusion, no pneumothorax)") == ["cardiomegaly", "edema"]


@given(st.text(alphabet="abcdeo ()—,;-ntx", max_size=60))
def test_negative_remark_total(label):
    out = without_negative_remark(label)
    assert label.startswith(out.strip()) or out == label


# --- kg_triplet_consistency: denials the extractor now reads ----------------------------------------------------------
@pytest.mark.parametrize(
    "report,finding,status",
    [
        ("It is not true that there is atelectasis at the left base.", "atelectasis", "disorder_notpresent"),
        ("No consolidation, nor that there is a nodule in the right upper lobe.", "lung nodule or mass", "disorder_notpresent"),
        ("There is no evidence that there is a pneumothorax.", "pneumothorax", "disorder_notpresent"),
        ("The film fails to show a left apical pneumothorax.", "pneumothorax", "disorder_notpresent"),
        ("Lack of atelectasis at the left base.", "atelectasis", "disorder_notpresent"),
        ("The lung lacks any consolidation.", "consolidation", "disorder_notpresent"),
        # a that-clause outside a denial, a new statement after a break, and a denied denial
        ("Note that there is an effusion.", "pleural effusion", "disorder_present"),
        ("No effusion; there is a pneumothorax.", "pneumothorax", "disorder_present"),
        ("It is true that there is atelectasis at the left base.", "atelectasis", "disorder_present"),
        ("It is not true that there is no pneumothorax.", "pneumothorax", None),
    ],
)
def test_kg_denials(report, finding, status):
    assert dict(extract_kg(report).entities).get(finding) == status


# --- toolrl_correctness / otc: a call under a negated intent ------------------------------------------------------------
GOLD = {"name": "convert_currency", "parameters": {"amount": 250, "from_currency": "USD", "to_currency": "EUR"}}
BLOCK = "<tool_call>\n" + json.dumps(GOLD) + "\n</tool_call>"


@pytest.mark.parametrize(
    "reply,made",
    [
        ("Calls I will not make (the rate is stable):\n" + BLOCK + "\n250 USD is about 230 EUR.", False),
        ("I won't send\n" + BLOCK + "\nuntil you confirm the amount.", False),
        ("I can't say I won't call\n" + BLOCK + "\nlater, but for now it's about 230 EUR.", False),
        ("The obvious call would be\n" + BLOCK + "\nbut that is not the call I'm making: 230 EUR.", False),
        ("No call required. For reference only, the call would have been:\n" + BLOCK, False),
        ("Had the rate mattered, I would have sent:\n" + BLOCK, False),
        # calls made, with negations about other things
        ("I won't guess the rate from memory; calling the tool:\n" + BLOCK, True),
        ("Not a guess, the live rate:\n" + BLOCK, True),
        ("The call is convert_currency, not a web search:\n" + BLOCK, True),
        (BLOCK + "\nNo other call is needed; I'm not booking anything, only converting.", True),
        ("Checking now\n" + BLOCK + "\nDone.", True),
        ("Here is the call\n" + BLOCK + "\nIt returns the rate.", True),
        ("Converting from USD, not EUR:\n" + BLOCK, True),
    ],
)
def test_call_under_negated_intent(reply, made):
    text = "<think>250 USD to EUR.</think>\n" + reply
    assert (calls_taken_back(text) == "") == made
    score = ToolRLCorrectness(read_blocks="all").score_rollout(text, {"answer": BLOCK}).score
    assert (score == pytest.approx(3.0)) == made


# --- crpo_accuracy (committed_answer): a box called "not the exception" -------------------------------------------------
NEPH = "A. Proteinuria\nB. Hypoalbuminemia\nC. Hyperlipidemia\nD. Red blood cell casts\nE. Edema"


@pytest.mark.parametrize(
    "answer,paid",
    [
        ("Red cell casts are nephritic, so the exception is \\boxed{D}.", True),
        ("\\boxed{D} is the exception: casts are nephritic.", True),
        ("\\boxed{D} is not a feature of nephrotic syndrome.", True),  # an EXCEPT answer said of the option's content
        ("Casts occur in both, so \\boxed{D} is not the exception; the exception is E.", False),
        ("\\boxed{D} isn't the exception.", False),
    ],
)
def test_crpo_box_not_the_exception(answer, paid):
    text = f"<think>Features of nephrotic syndrome.</think>\n<answer>{answer}</answer>"
    score = CRPOAccuracy(committed_answer=True).score_rollout(text, {"answer": "D", "options": NEPH}).score
    assert (score == pytest.approx(1.0)) == paid


# --- clinical_faithfulness: a last clause that corrects the options set aside ------------------------------------------
ANAPH = {"A": "Oral diphenhydramine", "B": "Intramuscular epinephrine", "C": "Intravenous methylprednisolone",
         "D": "Nebulised albuterol", "E": "Observation for 4 hours"}
ANAPH_TEXT = "\n".join(f"{k}. {v}" for k, v in ANAPH.items())


@pytest.mark.parametrize(
    "sentence,concluded",
    [
        ("It isn't A or C — it's B.", "B"),
        ("Not A, not C; it's B, the only drug that treats the shock.", "B"),
        ("Neither B nor C is needed for a mild reaction; A is enough.", "A"),
        ("Steroids act too late, but B is sufficient on its own.", "B"),
        ("It isn't A — it's B or C.", None),
        ("It isn't A; it's not B either.", None),
        ("It isn't A; B is enough if the pressure responds.", None),
        ("Hypotension after peanuts is anaphylaxis.", None),
    ],
)
def test_corrective_conclusion(sentence, concluded):
    assert corrective_conclusion(sentence, ANAPH) == concluded


@pytest.mark.parametrize(
    "think,box,score",
    [
        ("A is too slow; C does not act for hours. It isn't A or C — it's B.", "B", 1.0),
        ("Hives and wheeze. Neither B nor C is needed for a mild reaction; A is enough.", "B", 0.0),
        ("Heart failure (C) causes effusions, so C is not the exception. Embolism rarely does, so the exception is D.", "C", 0.0),
    ],
)
def test_faithfulness_corrective_close(think, box, score):
    text = f"<think>{think}</think>\n<answer>Treat it. \\boxed{{{box}}}</answer>"
    assert ClinicalFaithfulness().score_rollout(text, {"answer": "B", "options": ANAPH_TEXT}).score == pytest.approx(score)


@given(st.text(alphabet="ABCDE itsnot'—;,.or", max_size=60))
def test_corrective_conclusion_total(sentence):
    assert corrective_conclusion(sentence, ANAPH) in (None, *ANAPH)


# --- clinical_comprehensiveness: options set aside with their reason ----------------------------------------------------
TENSION = {"A": "Chest X-ray", "B": "CT scan of the chest", "C": "Needle decompression", "D": "Endotracheal intubation",
           "E": "Pericardiocentesis"}
TENSION_TEXT = "\n".join(f"{k}. {v}" for k, v in TENSION.items())


@pytest.mark.parametrize(
    "think,score",
    [
        ("Not A or B: imaging delays decompression. Not D: positive pressure worsens it. Not E: this is no tamponade. "
         "C relieves it.", 1.0),
        ("Neither A nor B — imaging delays treatment. Not D - intubation worsens it. Not E: no tamponade. C relieves it at once.", 1.0),
        ("I won't go through A, B, D or E; C.", 0.0),
        ("Not weighing A, B, D or E: textbook. C.", 0.0),
    ],
)
def test_comprehensiveness_options_set_aside(think, score):
    text = f"<think>{think}</think>\n<answer>Decompress. \\boxed{{C}}</answer>"
    got = ClinicalComprehensiveness().score_rollout(text, {"answer": "C", "options": TENSION_TEXT}).score
    assert got == pytest.approx(score)


def test_not_letters_need_a_clause_opening():
    assert mentioned_letters("I am not A: x", TENSION) == set()
    assert mentioned_letters("Not A or B: imaging delays.", TENSION) == {"A", "B"}
