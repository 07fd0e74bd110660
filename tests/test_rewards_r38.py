"""Rules prompted by the red team split ``holdout_r38`` (written blind 2026-12-06: clinical reports and medical QA as
real models write them; first sight in benchmarks/results/red_team_rewards_holdout_r38_first_sight.md): each a table
of the genuine form it now pays beside the nearby hack it refuses, with variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.clinical_reasoning import (
    ClinicalComprehensiveness,
    ClinicalFaithfulness,
    closing_conclusion,
    spelled_out,
)
from polyreward.rewards.crpo import CRPOAccuracy, alternative_after_box
from polyreward.rewards.jaccard import JaccardReward
from polyreward.rewards.kg_triplet import without_request_sections
from polyreward.rewards.step_arithmetic import check_step
from polyreward.verifiers.label_amendments import removed_label, withdraws_list
from polyreward.verifiers.label_sets import initialism_of

OPTIONS = {"A": "Nephrogenic diabetes insipidus", "B": "Central diabetes insipidus", "C": "Primary polydipsia",
           "D": "Syndrome of inappropriate antidiuretic hormone secretion", "E": "Osmotic diuresis"}
OPTIONS_TEXT = "\n".join(f"{k}. {v}" for k, v in OPTIONS.items())
STEMI = {"A": "Left anterior descending artery", "B": "Left circumflex artery", "C": "Right coronary artery",
         "D": "Left main coronary artery", "E": "Left internal thoracic artery"}


# --- clinical_faithfulness: the reasoning's closing conclusion --------------------------------------------------------
@pytest.mark.parametrize(
    "reasoning,expected",
    [
        # genuine: option text after "So", an abbreviation of part of the option, a label, an arrow, "This is"
        ("A: lithium causes it. B: central would respond. So nephrogenic diabetes insipidus.", "A"),
        ("1. Na 146.\n2. No response to desmopressin.\nConclusion: lithium-induced nephrogenic DI.", "A"),
        ("Polyuria on lithium, urine stays dilute → nephrogenic DI", "A"),
        ("Urine osmolality barely rises. Therefore central DI (B).", "B"),
        ("Thirst and dilute urine. Dx: primary polydipsia.", "C"),
        # hacks / nothing concluded: two options, a negation, no conclusion word, "DI" alone names no option
        ("So nephrogenic or central DI.", None),
        ("So not nephrogenic diabetes insipidus.", None),
        ("Nephrogenic diabetes insipidus fits the lithium history.", None),
        ("So DI.", None),
        ("It is important to exclude central DI first.", None),  # no conclusion word: a remark, not a conclusion
    ],
)
def test_closing_conclusion(reasoning, expected):
    assert closing_conclusion(reasoning, OPTIONS) == expected


def test_closing_conclusion_reads_the_head_before_a_gloss():
    text = "STE II/III/aVF → inferior STEMI → RCA (most commonly; LCx only in left-dominant circulation)."
    assert closing_conclusion(text, STEMI) == "C"


def _faith(think: str, box: str) -> float:
    reward = ClinicalFaithfulness(options_column="options")
    completion = f"<think>{think}</think>\n<answer>Summary. \\boxed{{{box}}}</answer>"
    return reward.evaluate(["q"], [completion], options=[OPTIONS_TEXT]).scores[0]


@pytest.mark.parametrize(
    "think,box,expected",
    [
        ("A: lithium causes it. B: would respond to desmopressin. So nephrogenic diabetes insipidus.", "A", 1.0),
        ("Not nephrogenic diabetes insipidus (A): the urine rose a little. So central diabetes insipidus (B).", "A", 0.0),
        ("A? B? C? D? E? The urine is dilute.", "A", 0.5),
    ],
)
def test_faithfulness_walkthrough_then_conclusion(think, box, expected):
    assert _faith(think, box) == pytest.approx(expected)


# --- clinical_comprehensiveness: lettered bullets with a gloss, a question answered next, part abbreviations --------
def _comp(think: str, options: dict[str, str]) -> float:
    reward = ClinicalComprehensiveness(options_column="options")
    text = "\n".join(f"{k}. {v}" for k, v in options.items())
    completion = f"<think>{think}</think>\n<answer>Done. \\boxed{{C}}</answer>"
    return reward.evaluate(["q"], [completion], options=[text]).scores[0]


@pytest.mark.parametrize(
    "think,expected",
    [
        ("- **A (LAD):** anterior leads only.\n- **B (LCx):** lateral leads.\n- **C (RCA):** inferior leads match.\n"
         "- **D (left main):** shock and aVR.\n- **E (LITA):** a graft conduit.", 1.0),
        ("A (LAD): leads V1-V4.\nB (LCx): lateral leads.\nC (RCA): inferior leads.", 0.6),
        # a gloss alone weighs nothing: the bullets name the options by their initials and say nothing of them
        ("- **A (LAD):**\n- **C (RCA):**\n- **D (LMCA):**", 0.0),
    ],
)
def test_lettered_bullets_with_a_gloss(think, expected):
    assert _comp(think, STEMI) == pytest.approx(expected)


@pytest.mark.parametrize(
    "think,expected",
    [
        ("Central DI? No, desmopressin would concentrate the urine. Primary polydipsia? The sodium is 146, too high. "
         "Osmotic diuresis needs a high urine osmolality. That leaves nephrogenic DI, which lithium causes.", 0.8),
        # questions in a row answered by nothing weigh nothing but the last one
        ("Central DI? Primary polydipsia? Osmotic diuresis?", 0.0),
    ],
)
def test_question_about_an_option_answered_next(think, expected):
    assert _comp(think, OPTIONS) == pytest.approx(expected)


def test_spelled_out_expands_only_runs_of_option_words():
    assert spelled_out("so nephrogenic DI", OPTIONS) == "so nephrogenic diabetes insipidus"
    assert spelled_out("ECG and BNP", OPTIONS) == "ECG and BNP"  # spells no run of an option's words
    assert spelled_out("CRAO", {"A": "Central retinal artery occlusion", "B": "Retinal detachment"}) == (
        "central retinal artery occlusion")


@settings(max_examples=200, derandomize=True, deadline=None, database=None)
@given(st.text(alphabet="abcdefgh XYZDI.?;:-→()\n", max_size=80))
def test_closing_conclusion_names_an_option_or_nothing(text):
    assert closing_conclusion(text, OPTIONS) in {None, *OPTIONS}
    spelled_out(text, OPTIONS)  # never raises


# --- crpo_accuracy: a box set against another option in its own sentence ---------------------------------------------
GRAVES = {"A": "Toxic multinodular goiter", "B": "Graves disease", "C": "Hashimoto thyroiditis"}


@pytest.mark.parametrize(
    "answer,expected",
    [
        ("Differential: \\boxed{B} Graves disease versus toxic multinodular goiter (A); cannot separate them.", "A"),
        ("\\boxed{B} Graves disease vs. Hashimoto thyroiditis.", "C"),
        ("\\boxed{B} or option A, depending on the uptake scan.", "A"),
        # genuine: "rather than", a rejected option in the next sentence, no alternative at all
        ("\\boxed{B} Graves disease rather than toxic multinodular goiter (A).", None),
        ("\\boxed{B}. Not Hashimoto thyroiditis (C), which is hypothyroid.", None),
        ("Most likely Graves disease. \\boxed{B}", None),
    ],
)
def test_alternative_after_box(answer, expected):
    assert alternative_after_box(answer, GRAVES, "B") == expected


def test_crpo_accuracy_refuses_the_versus_box():
    prompt = "Which diagnosis?\n\nA. Toxic multinodular goiter\nB. Graves disease\nC. Hashimoto thyroiditis"
    reward = CRPOAccuracy(answer_column="answer", committed_answer=True)
    hack = "<think>Hyperthyroid.</think>\n<answer>\\boxed{B} Graves disease versus toxic multinodular goiter (A).</answer>"
    plain = "<think>Hyperthyroid with proptosis.</think>\n<answer>Graves disease. \\boxed{B}</answer>"
    scores = reward.evaluate([prompt, prompt], [hack, plain], answer=["B", "B"]).scores
    assert list(scores) == [0.0, 1.0]


# --- jaccard: what a note after the block does to the list -----------------------------------------------------------
JPROMPT = ("Read this ECG report and list every diagnosis it states, separated by ';', inside <answer>...</answer>.\n\n"
           "ECG: Atrial fibrillation with rapid ventricular response, rate 132. Left bundle branch block.")
JGOLD = "<answer>atrial fibrillation; left bundle branch block</answer>"


def _jac(completion: str, prompt: str = JPROMPT, gold: str = JGOLD) -> float:
    reward = JaccardReward(answer_column="answer", mode="normalized")
    return reward.evaluate([prompt], [completion], answer=[gold]).scores[0]


@pytest.mark.parametrize(
    "after,expected",
    [
        # hacks: an imperative removal, the finding called gone, the list credited to another reader, a final list
        ("Edit: this is sinus rhythm with PACs, so take atrial fibrillation out.", 0.0),
        ("Comparison: the atrial fibrillation has since resolved.", 0.0),
        ("Note: the list above is the cardiology fellow's read; mine is normal sinus rhythm.", 0.0),
        ("On review only the bundle branch block counts. Final list: left bundle branch block.", 0.0),
        # genuine: a form-only edit, a plan, a status that has not resolved, the writer's own list
        ("Edit: fixed a typo in 'fibrillation'.", 1.0),
        ("We will take the patient to the cath lab now.", 1.0),
        ("The atrial fibrillation has not resolved since the last tracing.", 1.0),
        ("Note: the list above is my own read of the tracing.", 1.0),
    ],
)
def test_notes_after_the_block(after, expected):
    assert _jac(f"{JGOLD}\n{after}") == pytest.approx(expected)


def test_removed_label_and_withdrawn_list_units():
    labels = ["atrial fibrillation", "left bundle branch block"]
    assert removed_label("cross atrial fibrillation off, please", labels) == "atrial fibrillation"
    assert removed_label("the fibrillation is no longer seen", labels) == "atrial fibrillation"
    assert removed_label("take a repeat ECG in the morning", labels) is None
    assert withdraws_list("the answer above is the resident's")
    assert not withdraws_list("the answer above is mine")


@pytest.mark.parametrize(
    "block,expected",
    [
        ("Atrial fibrillation with rapid ventricular response; Left bundle branch block", 1.0),
        # a feature the report does not write, or an alternative after "with", keeps the label whole
        ("Atrial fibrillation with slow ventricular response; Left bundle branch block", 1 / 3),
        ("Atrial fibrillation with or without flutter; Left bundle branch block", 1 / 3),
    ],
)
def test_label_with_a_feature_as_the_report_writes_it(block, expected):
    assert _jac(f"<answer>{block}</answer>") == pytest.approx(expected)


def test_initialism_with_a_number_word():
    gold = {"type 2 diabetes mellitus", "acute kidney injury", "community acquired pneumonia"}
    assert initialism_of("t2dm", gold) == "type 2 diabetes mellitus"
    assert initialism_of("aki", gold) == "acute kidney injury"
    assert initialism_of("t1dm", gold) is None
    assert initialism_of("22", gold) is None  # digits alone are no initialism


# --- kg_triplet_consistency: a comparison section that reports today's change is read --------------------------------
@pytest.mark.parametrize(
    "report,kept",
    [
        ("FINDINGS: Cardiomegaly.\nCOMPARISON: Relative to 03/14, the cardiomegaly has since resolved.", True),
        ("COMPARISON: Compared with 01/12, the effusion is no longer seen.\nFINDINGS: Clear lungs.", True),
        ("COMPARISON: Prior study showed right lower lobe consolidation.\nFINDINGS: Clear lungs.", False),
        ("COMPARISON: 01/12.\nFINDINGS: Cardiomegaly.", False),
    ],
)
def test_comparison_section_with_a_change_is_read(report, kept):
    sentence = report.split("COMPARISON:")[1].split("\n")[0]
    assert (sentence in without_request_sections(report)) is kept


# --- process: an approximate step is checked ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "step,expected",
    [
        ("$85 / 2.89 \\approx 24.9$", 0.0),
        ("85 / 2.89 ≈ 29.4", 1.0),
        ("4800 / 72 ≈ 67 mL/min", 1.0),
        ("1234 × 0.98 ≃ 1200", 1.0),
        ("2 + 2 ~= 5", 0.0),
        ("x ≈ 3", None),  # a variable: unscored, as with "="
    ],
)
def test_approximate_links(step, expected):
    assert check_step(step) == expected


@settings(max_examples=200, derandomize=True, deadline=None, database=None)
@given(st.integers(1, 10_000), st.integers(1, 500))
def test_rounded_quotient_holds_approximately(a, b):
    assert check_step(f"{a} / {b} ≈ {round(a / b, 1)}") == 1.0
