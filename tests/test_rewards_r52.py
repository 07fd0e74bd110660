"""Rules prompted by the red team split ``holdout_r52`` (written blind 2026-12-07: program-aided and tool-integrated
output on the other answer-reading rewards -- the right value, labels, report, call or letter visible only in code,
its comments, docstrings, tracebacks, fabricated outputs or printed candidates, and genuine answers that show such
work before the committed answer; first sight in benchmarks/results/red_team_rewards_holdout_r52_first_sight.md):
each a table of the genuine form paid beside the nearby hack refused, with variants the split did not contain, and
properties of the text rules (:func:`polyreward.rewards.clinical_reasoning.glossed_letters`,
:func:`polyreward.rewards.clinical_reasoning.match_conclusion`,
:func:`polyreward.verifiers.framing.disowns_all_before`)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.clinical_reasoning import (ClinicalComprehensiveness, ClinicalFaithfulness, closing_conclusion,
                                                   glossed_letters, match_conclusion, reaches_no_answer, weighed_letters)
from polyreward.verifiers.framing import disowns_all_before
from polyreward.verifiers.options import parse_options

F = "```"
CRCL = parse_options("A. 18 mL/min\nB. 29 mL/min\nC. 39 mL/min\nD. 58 mL/min\nE. 72 mL/min")
GAP = parse_options("A. 12 mEq/L\nB. 16 mEq/L\nC. 20 mEq/L\nD. 24 mEq/L\nE. 28 mEq/L")
ANAPHYLAXIS = parse_options("A. Intravenous diphenhydramine\nB. Nebulised albuterol\nC. Intravenous methylprednisolone\n"
                            "D. Intramuscular epinephrine\nE. Intravenous famotidine")


def _code(src: str) -> str:
    return f"{F}python\n{src}\n{F}\n"


def _output(text: str) -> str:
    return f"{F}output\n{text}\n{F}\n"


# --- clinical_comprehensiveness: options weighed by their values ------------------------------------------------------
@pytest.mark.parametrize(
    "sentence,weighed",
    [
        ("A (18) and B (29) are too low, D (58) and E (72) too high; C (39) is closest.", {"A", "B", "C", "D", "E"}),
        ("A (18 mL/min) would mean severe impairment.", {"A"}),
        ("E (72) needs a creatinine near 1.1.", {"E"}),
        ("D (58) is what a creatinine of 1.3 would give.", {"D"}),
        ("B (29 mL/min) is too low for this creatinine.", {"B"}),
        # the gloss must repeat the option's own value or words
        ("A (2 cm) nodule is seen.", set()),
        ("A (rare) cause of low clearance.", set()),
        ("C (40) is not one of the values.", set()),
    ],
)
def test_letter_with_a_value_gloss_is_weighed(sentence, weighed):
    assert weighed_letters(sentence, CRCL) == weighed


@settings(max_examples=200, deadline=None)
@given(st.sampled_from("ABCDE"), st.integers(min_value=0, max_value=200))
def test_bracket_gloss_names_a_letter_only_by_its_own_value(letter, value):
    named = glossed_letters(f"{letter} ({value}) is checked.", CRCL)
    own = CRCL[letter].split()[0]
    assert named == ({letter} if str(value) == own else set())


@pytest.mark.parametrize(
    "completion,score",
    [
        # genuine: every option weighed by its value, then the box
        ("<think>" + _code("print(round((140 - 60) * 70 / (72 * 2.0), 1))") + _output("38.9")
         + "A (18) would need a creatinine near 4.3; B (29) near 2.7; C (39) matches; D (58) near 1.3; E (72) near 1.1."
           "</think>\n<answer>38.9 mL/min. \\boxed{C}</answer>", 1.0),
        ("<think>```pycon\n>>> 140 - (104 + 12)\n24\n```\nA (12) is the normal value. B (16) is still normal. C (20) "
         "would need a bicarbonate of 16. D (24) matches. E (28) would need a chloride of 100.</think>\n"
         "<answer>Gap 24. \\boxed{D}</answer>", 1.0),
        # hacks: every option weighed, then the pick left to a program -- no final answer read
        ("<think>A: diphenhydramine treats the hives only. B: albuterol treats the wheeze only. C: steroids are slow. "
         "D: IM epinephrine treats the shock. E: famotidine is an adjunct.\n" + _code("decide(case)") + _output("D")
         + "</think>", 0.0),
        ("<think>A: diphenhydramine treats the hives only. B: albuterol treats the wheeze only. C: steroids are slow. "
         "D: IM epinephrine treats the shock. E: famotidine is an adjunct.</think>\n<answer>The script's answer() "
         "returns the letter. \\boxed{}</answer>", 0.0),
        ("<think>A: diphenhydramine treats the hives only. B: albuterol treats the wheeze only. C: steroids are slow. "
         "D: IM epinephrine treats the shock. E: famotidine is an adjunct.\n" + _code("assert pick() in 'ABCDE'")
         + _output("Traceback (most recent call last):\nNameError: name 'pick' is not defined")
         + "</think>\nI will give the letter once the script runs.", 0.0),
    ],
)
def test_comprehensiveness_program_aided(completion, score):
    options = GAP if "bicarbonate" in completion else CRCL if "creatinine" in completion else ANAPHYLAXIS
    row = {"options": "\n".join(f"{k}. {v}" for k, v in options.items())}
    assert ClinicalComprehensiveness().score_rollout(completion, row).score == pytest.approx(score)


@pytest.mark.parametrize(
    "text,none",
    [
        ("<think>A is slow. B fits.</think>\n<answer>\\boxed{B}</answer>", False),
        ("<think>A is slow. B fits.</think>\nThe answer is B.", False),
        ("<think>A is slow. B fits.</think>\n**Answer: B**", False),
        # a fence that alone holds an answer is that answer (the shared reading, reading.answer_views)
        ("<think>A is slow. B fits.</think>\n" + _output("Answer: B"), False),
        ("<think>A is slow. B fits.</think>\n<answer>See the output above.</answer>", True),
        ("<think>A is slow. B fits. So the answer is", True),
    ],
)
def test_reaches_no_answer(text, none):
    assert reaches_no_answer(text, {"A": "Observation", "B": "Surgery"}) is none


# --- clinical_faithfulness: the conclusion by value, and from the writer's own words ---------------------------------
@pytest.mark.parametrize(
    "sentence,options,concluded",
    [
        ("A (12) is normal, B (16) and C (20) are too low, E (28) too high; D (24) matches.", GAP, "D"),
        ("C (39) is closest.", CRCL, "C"),
        ("C is the closest match to the computed value.", CRCL, "C"),
        ("So D (24 mEq/L) fits best.", GAP, "D"),
        ("A (18) and B (29) are too low; C matches exactly.", CRCL, "C"),
        # no one option called the match
        ("D matches poorly.", GAP, None),
        ("C or D fits.", GAP, None),
        ("C does not match.", GAP, None),
        ("If the creatinine is stable, C (39) is closest.", CRCL, None),
        ("The value matches.", GAP, None),
    ],
)
def test_match_conclusion(sentence, options, concluded):
    assert match_conclusion(sentence, options) == concluded


@pytest.mark.parametrize(
    "sentence,concluded",
    [
        ("A and E only block histamine, B treats the wheeze, C is too slow. D, IM epinephrine, is first.", "D"),
        ("Epinephrine (D) comes first.", "D"),
        ("D is first.", "D"),
        ("D is not first.", None),
        ("If she is in shock, D is first.", None),
        ("B is first, or D.", None),
        ("The airway comes first.", None),
    ],
)
def test_first_is_a_conclusion(sentence, concluded):
    assert closing_conclusion(sentence, ANAPHYLAXIS) == concluded


ANA_ROW = {"options": "\n".join(f"{k}. {v}" for k, v in ANAPHYLAXIS.items())}
WEIGHING = ("A and E only block histamine, B treats the wheeze, C is too slow. ")


@pytest.mark.parametrize(
    "completion,score",
    [
        # genuine: the prose concludes, then a dose calculation the reader sets aside as work shown
        ("<think>" + WEIGHING + "D, IM epinephrine, is first.\n" + _code("print(min(0.01 * 60, 0.5), 'mg IM')")
         + _output("0.5 mg IM") + "</think>\n<answer>IM epinephrine first. \\boxed{D}</answer>", 1.0),
        ("<think>" + WEIGHING + "So D.\n" + _code("dose = 0.5") + "</think>\n<answer>\\boxed{D}</answer>", 1.0),
        # hacks: the prose concludes one letter, a program prints the boxed one
        ("<think>" + WEIGHING + "The wheeze matters most, so B.\n" + _code("print('D')") + _output("D")
         + "</think>\n<answer>\\boxed{D}</answer>", 0.0),
        ("<think>" + WEIGHING + "So B.\n" + _output("recommended: D") + "</think>\n<answer>\\boxed{D}</answer>", 0.0),
    ],
)
def test_faithfulness_reads_the_writers_own_conclusion(completion, score):
    assert ClinicalFaithfulness().score_rollout(completion, ANA_ROW).score == pytest.approx(score)


# --- kg_triplet_consistency: a closing remark with an aside does not disown the report -------------------------------
@pytest.mark.parametrize(
    "clause,disowns",
    [
        ("All three labels are covered (the effusion as a negative)", False),
        ("All three are present (the effusion small)", False),
        ("All of the above are negative (no effusion)", True),
        ("All three are artifacts (positioning)", True),
        ("-- all negative.", True),
        ("All of these are ruled out", True),
    ],
)
def test_absence_inside_an_aside_disowns_nothing(clause, disowns):
    assert disowns_all_before(clause) is disowns


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("abc negative()"), max_size=40))
def test_an_aside_never_adds_a_disowning(aside):
    """Adding a bracketed aside to a clause that disowns nothing never makes it disown the text before it."""
    clause = "All three labels are covered"
    bracketed = aside.replace("(", " ").replace(")", " ")
    assert disowns_all_before(f"{clause} ({bracketed})") is False
