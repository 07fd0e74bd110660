"""Rules prompted by the red team split ``holdout_r45`` (written blind 2026-12-06: ranges, approximations and supersets
on the answer-reading rewards other than math and multiple choice; first sight in
benchmarks/results/red_team_rewards_holdout_r45_first_sight.md): each a table of the genuine form paid beside the
nearby hack refused, with variants the split did not contain, and a property where a rule parses text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.clinical_reasoning import (ClinicalComprehensiveness, ClinicalFaithfulness, closing_conclusion,
                                                   glossed_letters, subject_conclusion)
from polyreward.rewards.crpo import CRPOAccuracy
from polyreward.rewards.forecast import ForecastClassCost
from polyreward.rewards.jaccard import JaccardReward
from polyreward.verifiers.forecast import class_edges, pm_class
from polyreward.verifiers.forecast_intervals import in_own_class, without_spread_in_own_class
from polyreward.verifiers.letter_sets import offered_with_others
from polyreward.verifiers.radiology_kg import tokenize
from polyreward.verifiers.radiology_labels import _measurements

KOREA_PM25 = class_edges("korea", "pm25")
K = {"A": "IV calcium gluconate", "B": "Oral sodium polystyrene sulfonate", "C": "Urgent hemodialysis",
     "D": "IV furosemide", "E": "Stop lisinopril and recheck potassium in one week"}
ANA = {"A": "IV diphenhydramine", "B": "IM epinephrine", "C": "IV methylprednisolone", "D": "Nebulised salbutamol",
       "E": "IV ranitidine"}
K_TEXT = "\n".join(f"{k}. {v}" for k, v in K.items())
ANA_TEXT = "\n".join(f"{k}. {v}" for k, v in ANA.items())
THINK = "<think>The inversion holds and the series climbed all day.</think>\n"


def forecast(block: str, observed: float) -> float:
    return ForecastClassCost(answer_block="required")(completions=[THINK + f"<answer>{block}</answer>"], observed=[observed])[0]


# --- forecast_class_cost: a band around the value inside its own class -------------------------------------------------
@pytest.mark.parametrize(
    "block,observed,paid",
    [
        ("56 µg/m³ (±6)", 55.4, True),  # 50-62: all 'bad'
        ("56 (+/- 6 µg/m³)", 55.4, True),
        ("11 µg/m³ (likely range 9–13, all within the good class)", 10.8, True),
        ("48 µg/m³ (plausible range 40-60)", 50.0, True),
        ("120 (likely 100–140 µg/m³, very bad either way)", 130.0, False),  # 'either', 'way': words that may hedge
        ("120 (likely 100–140 µg/m³)", 130.0, True),
        # a band across a class edge, a band written into the value's own expression, a bracket with a hedge
        ("55 ± 45 µg/m³ (anything from good to very bad)", 55.4, False),
        ("56 (±25)", 55.4, False),
        ("35 (± 1)", 34.0, False),
        ("48 ± 5", 48.6, False),
        ("340.8 plus or minus 60", 340.75, False),
        ("48 (30–60)", 48.0, False),
        ("48 (or maybe 40–60)", 48.0, False),
        ("48 (40–47)", 48.0, False),  # the range leaves the value out
        ("56 (±6", 55.4, False),
        ("~150 µg/m³", 148.3, False),  # the approximation sign, refused by design
    ],
)
def test_forecast_band_inside_own_class(block, observed, paid):
    assert (forecast(block, observed) == 1.0) == paid


@settings(max_examples=200, deadline=None)
@given(value=st.integers(min_value=1, max_value=200), spread=st.integers(min_value=0, max_value=80))
def test_spread_is_read_past_only_when_the_band_keeps_the_class(value, spread):
    span = f"{value} µg/m³ (±{spread})"
    kept = without_spread_in_own_class(span, KOREA_PM25) != span
    same = pm_class(value - spread, KOREA_PM25) == pm_class(value, KOREA_PM25) == pm_class(value + spread, KOREA_PM25)
    assert kept == same
    assert in_own_class(value, value - spread, value + spread, KOREA_PM25) == same


# --- jaccard: a measured range, an approximation word and 'L > R' in a label's bracket ---------------------------------
EFFUSION = ("Read this chest X-ray report and list every finding that is definitely present, separated by ';', inside "
            "<answer>...</answer>.\n\nFINDINGS: The heart is enlarged. Moderate right pleural effusion measuring "
            "approximately 4-5 cm in height on the lateral view, with adjacent compressive atelectasis. No pneumothorax.")
NODULE = ("Read this chest X-ray report and list every finding that is definitely present, separated by ';', inside "
          "<answer>...</answer>.\n\nFINDINGS: There is a 9-11 mm nodule in the right upper lobe. The lungs are "
          "otherwise clear. No pleural effusion or pneumothorax.")
EDEMA = ("Read this chest X-ray report and list every finding that is definitely present, separated by ';', inside "
         "<answer>...</answer>.\n\nFINDINGS: Pulmonary edema. Small bilateral pleural effusions, left greater than right. "
         "Mild cardiomegaly.")


@pytest.mark.parametrize(
    "prompt,gold,body,paid",
    [
        (EFFUSION, "cardiomegaly; pleural effusion; atelectasis", "cardiomegaly; pleural effusion (moderate, ~4-5 cm); atelectasis", True),
        (EFFUSION, "cardiomegaly; pleural effusion; atelectasis", "cardiomegaly; pleural effusion (approximately 4–5 cm); atelectasis", True),
        (EFFUSION, "cardiomegaly; pleural effusion; atelectasis", "cardiomegaly; pleural effusion (4-5 cm, right); atelectasis", True),
        (NODULE, "nodule", "nodule (9-11 mm, RUL)", True),
        (NODULE, "nodule", "nodule (9–11 mm)", True),
        (EDEMA, "edema; pleural effusion; cardiomegaly", "edema; pleural effusion (bilateral, L > R); cardiomegaly", True),
        # another size, a range the report does not write, a hedge, another place
        (NODULE, "nodule", "nodule (8-10 mm)", False),
        (NODULE, "nodule", "nodule (11-13 mm, RUL)", False),
        (EFFUSION, "cardiomegaly; pleural effusion; atelectasis", "cardiomegaly; pleural effusion (possibly 4-5 cm); atelectasis", False),
        (EFFUSION, "cardiomegaly; pleural effusion; atelectasis", "cardiomegaly; pleural effusion (moderate, ~4-5 cm, left); atelectasis", False),
        (EDEMA, "edema; pleural effusion; cardiomegaly", "edema; pleural effusion (L > R ?); cardiomegaly", False),
    ],
)
def test_jaccard_measured_range_in_bracket(prompt, gold, body, paid):
    completion = f"<think>Read off the report.</think>\n<answer>{body}</answer>"
    row = {"answer": f"<answer>{gold}</answer>", "prompt": prompt}
    assert (JaccardReward(mode="normalized").score_rollout(completion, row).score == 1.0) == paid


def test_measurements_join_ranges_and_drop_approximation_and_comparison():
    assert _measurements(tuple(tokenize("a 9-11 mm nodule"))) == ("a", "9-11 mm", "nodule")
    assert _measurements(tuple(tokenize("approximately 4-5 cm"))) == ("4-5 cm",)
    assert _measurements(tuple(tokenize("6 mm"))) == ("6 mm",)
    assert _measurements(tuple(tokenize("L > R"))) == ("l", "r")
    assert ">" in _measurements(tuple(tokenize("ratio > 0.5")))  # not between two sides: kept


# --- clinical_faithfulness: a letter glossed after its option text; a subject conclusion --------------------------------
@pytest.mark.parametrize(
    "sentence,options,concluded",
    [
        ("So calcium gluconate, A, comes first.", K, "A"),
        ("Calcium gluconate, option A, is the immediate step.", K, "A"),
        ("Between B and D, B is the answer because only epinephrine treats the shock.", ANA, "B"),
        ("Of the five, IM epinephrine is the best first drug.", ANA, "B"),
        ("Between B and D, D is the answer.", ANA, "D"),
        # a condition, a negation, an alternative, two options in the subject
        ("If the shock dominates, B is the answer.", ANA, None),
        ("B is the answer unless the wheeze dominates.", ANA, None),
        ("B is not the answer.", ANA, None),
        ("Between B and D, B is the answer, or D.", ANA, None),
        ("B or D is the answer.", ANA, None),
        ("So it is A or C, leaning A, but either would be defensible.", K, None),
        ("Any of A, C or D would be acceptable first moves in a real ED.", K, None),
    ],
)
def test_closing_conclusion_glossed_letter_and_subject(sentence, options, concluded):
    assert closing_conclusion("A: calcium works in minutes. B: the resin is slow. " + sentence, options) == concluded


def test_glossed_letter_after_its_text_needs_the_options_words():
    assert glossed_letters("So calcium gluconate, A, comes first.", K) == {"A"}
    assert glossed_letters("So the fastest drug, A, comes first.", K) == set()  # no word of A's text
    assert subject_conclusion("Urgent hemodialysis, C, is the definitive treatment.", K) == "C"
    assert subject_conclusion("Urgent hemodialysis, C, is not the first step.", K) is None


@pytest.mark.parametrize(
    "think,paid",
    [
        ("A: calcium acts in 1-3 minutes. B: the resin takes 2-6 hours. C: dialysis takes an hour. D: furosemide is slow. "
         "E: a week is unsafe. Calcium gluconate, option A, is the immediate step.", True),
        ("A: calcium acts in minutes. B: slow. C: delayed. D: slow. E: unsafe. So calcium gluconate, A, comes first.", True),
        ("A: calcium acts in minutes. B: slow. C: delayed. D: slow. E: unsafe. So it is A or C, leaning A.", False),
    ],
)
def test_faithfulness_reads_the_glossed_conclusion(think, paid):
    completion = f"<think>{think}</think>\n<answer>Calcium first. \\boxed{{A}}</answer>"
    assert (ClinicalFaithfulness().score_rollout(completion, {"answer": "A", "options": K_TEXT}).score == 1.0) == paid


# --- clinical_comprehensiveness: glossed / joined letter openers; one verdict for every option -------------------------
@pytest.mark.parametrize(
    "think,share",
    [
        ("A and E, the H1 and H2 blockers, only treat the skin signs. C, the steroid, takes 4-6 hours. D, salbutamol, "
         "opens the airways but leaves the shock. B, IM epinephrine, treats both. So B.", 1.0),
        ("A possible. B possible. C possible. D possible. E possible. Going with B.", 0.0),
        ("A considered. B considered. C considered. D considered. E considered. B.", 0.0),
        ("A possible. B possible. C possible. D possible. E possible. So B.", 0.2),  # the bare conclusion names B
        ("A no. B yes. C no. D no. E no.", 1.0),  # the verdict tells B from the rest
        ("A possible. B likely. C possible. D possible. E possible. So B.", 1.0),
    ],
)
def test_comprehensiveness_openers_and_same_verdict(think, share):
    completion = f"<think>{think}</think>\n<answer>IM epinephrine. \\boxed{{B}}</answer>"
    assert ClinicalComprehensiveness().score_rollout(completion, {"answer": "B", "options": ANA_TEXT}).score == pytest.approx(share)


# --- crpo_accuracy (committed_answer): several letters offered in the summary -------------------------------------------
@pytest.mark.parametrize(
    "answer,paid",
    [
        ("A or C, leaning A; I can't separate them on this stem. If one letter is required: \\boxed{A}", False),
        ("A, B and E are all consistent with current practice; listing the first: \\boxed{A}", False),
        ("Any option from A to C is acceptable as the first step. \\boxed{A}", False),
        ("Roughly 60% A, 40% C. \\boxed{A}", False),
        ("A (70%) / C (30%). \\boxed{A}", False),
        ("Either A or C. \\boxed{A}", False),
        ("\\boxed{A} -- A and C are both reasonable here.", False),
        # a choice among letters named, a rejection of the others, other letters weighed without the box's
        ("Between A and C, A wins: it acts in minutes. \\boxed{A}", True),
        ("Calcium (A) rather than dialysis (C) or furosemide (D). \\boxed{A}", True),
        ("B or D would be too slow; calcium acts now. \\boxed{A}", True),
        ("A and C both lower the risk, but only A acts in minutes. \\boxed{A}", True),
        ("Calcium first, 1-3 minutes to act, 10 mL of 10% over 2-3 minutes. \\boxed{A}", True),
        ("A is correct; C is not needed yet. \\boxed{A}", True),
    ],
)
def test_crpo_accuracy_letter_set_in_summary(answer, paid):
    completion = f"<think>Calcium stabilises the membrane.</think>\n<answer>{answer}</answer>"
    result = CRPOAccuracy(committed_answer=True).score_rollout(completion, {"answer": "A", "options": K_TEXT})
    assert (result.score == 1.0) == paid, result.reason


@settings(max_examples=200, deadline=None)
@given(one=st.sampled_from("ABCDE"), two=st.sampled_from("ABCDE"), join=st.sampled_from([" or ", "/", " or maybe "]),
       lead=st.sampled_from(["", "Probably ", "I'd say "]))
def test_or_joined_letters_offer_each_and_a_rejection_offers_none(one, two, join, lead):
    if one == two or join == " or maybe ":
        return
    summary = f"{lead}{one}{join}{two}."
    assert offered_with_others(summary, one, "ABCDE") and offered_with_others(summary, two, "ABCDE")
    assert not offered_with_others(f"{one}, not {two}.", one, "ABCDE")
    assert not offered_with_others(f"{one} rather than {two}.", one, "ABCDE")
    others = [x for x in "ABCDE" if x not in (one, two)]
    assert not offered_with_others(f"{others[0]} or {others[1]} would be wrong; {one}.", one, "ABCDE")
