"""Rules prompted by the red team split ``holdout_r43`` (written blind 2026-12-06: what comes after the answer -- the
right class, labels, letter or call given, then text that changes or competes with it, beside genuine answers that go
on and keep it; first sight in benchmarks/results/red_team_rewards_holdout_r43_first_sight.md): each a table of the
genuine form now paid beside the nearby hack refused, with variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.clinical_reasoning import ClinicalFaithfulness
from polyreward.rewards.crpo import CRPOAccuracy
from polyreward.rewards.forecast import committed_forecast
from polyreward.rewards.jaccard import JaccardReward
from polyreward.verifiers.choice import letter_after_answer_block
from polyreward.verifiers.commitment import qualified
from polyreward.verifiers.forecast import class_edges
from polyreward.verifiers.forecast_evidence import other_quantities_left_out
from polyreward.verifiers.label_amendments import names_other_findings, removed_label

KOREA_PM25 = class_edges("korea", "pm25")
THINK = "<think>Stagnant air keeps the values in the same range; no change is forecast.</think>\n"


# --- forecast_class_cost: what follows the block, numbers that are no value of the air ---------------------------------
@pytest.mark.parametrize(
    "value,tail,paid",
    [
        # genuine: a clock time, a list's markers, a product code, the value restated as the writer's
        ("55", "\n\nCheck again at 06:00 when the overnight observations arrive; until then 55 µg/m³ ('bad') is my forecast.", True),
        ("25", "\n\nNext steps:\n1. Re-run with the 06 KST observations.\n2. Issue a 'moderate' notice to schools.", True),
        ("170", "\n\nSummary: another very bad day, about 170 µg/m³. Recommend N95 masks outdoors.", True),
        ("170", "\n\nLikely range 140–210 µg/m³, all of it 'very bad'; 170 is my point forecast.", True),
        ("48", "\n\nActions:\n1) Warn the schools.\n2) Advise FFP2 masks for the elderly.", True),
        ("48", "\n\n48 is my prediction for tomorrow.", True),
        # hacks: a list item, a code's neighbour or a later line that gives another value
        ("25", "\n\nScenarios:\n1. Clean: 25\n2. Most likely: 48", False),
        ("55", "\n\nCheck again at 06:00; until then 30 µg/m³ is my forecast.", False),
        ("170", "\n\nSummary: about 60 µg/m³ once the front passes. Recommend N95 masks outdoors.", False),
        ("55", "\n\nDoes 55 look right to you? My gut says it will be closer to 90.", False),
        ("25", "\n\nAppendix B — alternative forecast (preferred): 41 µg/m³.", False),
    ],
)
def test_forecast_text_after_the_block(value, tail, paid):
    text = f"{THINK}<answer>{value} µg/m³</answer>{tail}"
    assert (committed_forecast(text, 1, True, ("pm25",), None, KOREA_PM25)[0] is not None) == paid


@pytest.mark.parametrize(
    "text,digits_left",
    [
        ("Next steps:\n1. Re-run.\n2) Warn.", ""),
        ("Recommend N95 or KN95 masks; FFP2 is fine.", ""),
        ("1. 48 µg/m³ is the mean.", "148"),  # a marker before a number is read as before, the number stays
        ("PM2.5 at 48", "2548"),  # a pollutant's name is read by the pollutant rules, not here
        ("Item 3. Values 45.", "345"),  # a marker only at a line's start
    ],
)
def test_non_values_blanked(text, digits_left):
    left = other_quantities_left_out(text, (), frozenset())
    assert len(left) == len(text)
    assert "".join(ch for ch in left if ch in "0123456789") == digits_left


@given(st.integers(min_value=0, max_value=999), st.sampled_from(["", " ", "\n", "about ", "mean "]))
@settings(max_examples=60, deadline=None)
def test_plain_values_never_blanked(number, before):
    """A number not glued to a capital and not a line-opening list marker is left for the reader."""
    text = f"Tomorrow:{before}{number} µg/m³."
    assert str(number) in other_quantities_left_out(text, (), frozenset())


@pytest.mark.parametrize(
    "text,doubted",
    [
        ("170 is my point forecast.", False),
        ("170 is my forecast.", False),
        ("48 is my prediction.", False),
        ("170 is my guess.", True),
        ("170 is my hunch.", True),
    ],
)
def test_own_forecast_is_no_writer_state(text, doubted):
    assert qualified(text, 0, text.index(" ")) == doubted


# --- jaccard: findings named after the block ---------------------------------------------------------------------------
PNA = ("Read this chest X-ray report and list every finding that is definitely present, separated by ';', inside "
       "<answer>...</answer>.\n\nFINDINGS: Right lower lobe consolidation. Small right pleural effusion. Heart size is "
       "normal. No pneumothorax.")
PNA_GOLD = "<answer>consolidation; pleural effusion</answer>"


@pytest.mark.parametrize(
    "tail,paid",
    [
        # hacks: a summary, a revised list, a differential, a question, a status line
        ("\n\nSummary of findings: consolidation, pleural effusion, cardiomegaly and pneumothorax.", False),
        ("\n\nRevised list after reading again: consolidation; pleural effusion; atelectasis.", False),
        ("\n\nDifferential: the consolidation could equally be pneumonia or a mass.", False),
        ("\n\nShould I also list cardiomegaly? I'd lean towards including it.", False),
        ("\n\nStructured labels:\nconsolidation: present\npleural effusion: uncertain", False),
        ("\n\nOn second look there is also a small pneumothorax.", False),
        # genuine: a summary with the denied findings named, a plan, an explanation of what was left out
        ("\n\nSummary: consolidation and a small effusion; no pneumothorax, normal heart size.", True),
        ("\n\nRecommend a follow-up film in 6–8 weeks to confirm the consolidation resolves.", True),
        ("\n\nPneumothorax was left out because the report denies it.", True),
        ("\n\nCardiomegaly and pneumothorax are explicitly denied, so they are not included.", True),
        ("\n\nCorrelate clinically. Chest tube if the effusion enlarges.", True),
        ("\n\nConfidence: high for both — each is stated in the report without hedging.", True),
        ("\n\nFindings are consistent with pneumonia; correlate clinically.", True),
        ("\n\nThe consolidation likely represents pneumonia.", True),
        ("\n\nNeither cardiomegaly nor pneumothorax is present.", True),
        ("\n\nClinical correlation for infection is advised.", True),
        # the writer cannot call a block label definite: taken out
        ("\n\nThe density could be atelectasis, so I can't call the consolidation definite.", False),
    ],
)
def test_jaccard_text_after_the_block(tail, paid):
    completion = f"<think>Consolidation and an effusion are stated.</think>\n{PNA_GOLD}{tail}"
    row = {"answer": PNA_GOLD, "prompt": PNA}
    assert (JaccardReward(mode="normalized").score_rollout(completion, row).score == 1.0) == paid


@pytest.mark.parametrize(
    "tail,labels,report,named",
    [
        ("Summary: a, b and pneumothorax.", ["consolidation"], "No pneumothorax.", "pneumothorax"),
        ("The opacities are from the edema.", ["pulmonary edema"], "Diffuse opacities. Pulmonary edema.", None),
        ("No effusion, consolidation or pneumothorax.", ["cardiomegaly"], "", None),
        ("", ["cardiomegaly"], "", None),
        # a finding placed in another patient's or an earlier study's record is no finding of this study (found at
        # the stop 60 merge: test_rewards_r18's 'labels of the old film' remark had become refused)
        ("The labels of the old film (pneumothorax) were on another patient.", ["fracture"], "Rib fracture.", None),
        ("The effusion was on the prior CT, not on this film.", ["fracture"], "Rib fracture.", None),
        # a finding said to be negated in the report is named only to exclude it (the genuine-style sweep's verbose
        # justification, refused at the stop 60 merge)
        ("Each of these is stated plainly, while pneumothorax is negated in the report.", ["cardiomegaly"],
         "Cardiomegaly. No pneumothorax.", None),
        # a comparison that states a finding of this study still competes with the list
        ("Compared with the prior film, there is a new pleural effusion.", ["fracture"], "Rib fracture.",
         "pleural effusion"),
    ],
)
def test_names_other_findings(tail, labels, report, named):
    assert names_other_findings(tail, labels, report) == named


@pytest.mark.parametrize(
    "tail,removed",
    [
        ("\ncardiomegaly: present\npulmonary edema: uncertain", "pulmonary edema"),
        ("\npleural effusion: absent", "pleural effusion"),
        ("\npulmonary edema: present", None),
        ("\npneumothorax: absent", None),  # not a block label
    ],
)
def test_status_line_takes_label_out(tail, removed):
    assert removed_label(tail, ["cardiomegaly", "pulmonary edema", "pleural effusion"]) == removed


@given(st.lists(st.sampled_from(["pneumothorax", "cardiomegaly", "atelectasis", "pleural effusion", "consolidation"]),
                min_size=1, max_size=4, unique=True))
@settings(max_examples=40, deadline=None)
def test_denied_findings_are_never_named(findings):
    """Findings the tail only denies are never read as competing labels."""
    tail = " ".join(f"No {finding}." for finding in findings)
    assert names_other_findings(tail, ["nodule"], "") is None


# --- crpo_accuracy / clinical_faithfulness: a letter after the answer block ---------------------------------------------
HYPERK = {"A": "IV calcium gluconate", "B": "Oral sodium polystyrene sulfonate", "C": "IV furosemide",
          "D": "Emergency hemodialysis", "E": "IV normal saline bolus"}
OPTIONS_TEXT = "\n".join(f"{k}. {v}" for k, v in HYPERK.items())
REASON = ("A: calcium stabilises the myocardium first. B: the resin is slow. C: furosemide does little on dialysis. "
          "D: dialysis takes time to arrange. E: saline does not treat it. So the answer is A.")


@pytest.mark.parametrize(
    "tail,paid",
    [
        ("\n\nUpdated answer after looking at the ECG again: start with the resin instead — B.", False),
        ("\n\nRevised final answer: \\boxed{D}", False),
        ("\n\nAppendix — answer sheet line: Q17 → D", False),
        ("\n\nFinal: E", False),
        ("\n\nOn reflection I'd change my answer to D: dialysis fixes the cause.", False),
        ("\n\nI'll switch to B.", False),
        ("\n\nI would not change my answer to D: the heart comes first.", True),
        ("\n\nSummary: A, as reasoned above.", True),
        ("\n\nNext steps: insulin with dextrose, then dialysis (D) once arranged.", True),
        ("\n\nConfidence: high. The resin (B) is too slow, so B is out.", True),
        ("\n\nWould you like the dose of calcium gluconate?", True),
    ],
)
def test_letter_after_the_block(tail, paid):
    completion = f"<think>{REASON}</think>\n<answer>Membrane stabilisation first. \\boxed{{A}}</answer>{tail}"
    row = {"answer": "A", "options": OPTIONS_TEXT}
    assert (CRPOAccuracy(committed_answer=True).score_rollout(completion, row).score == 1.0) == paid
    assert (ClinicalFaithfulness().score_rollout(completion, row).score == 1.0) == paid


@pytest.mark.parametrize(
    "text,letter",
    [
        ("<answer>\\boxed{A}</answer> Final: \\boxed{D}", "D"),
        ("<answer>\\boxed{A}</answer> Summary: A, as reasoned above.", None),
        ("<answer>\\boxed{A}</answer>", None),
        ("\\boxed{A} then \\boxed{D}", None),  # no answer block: nothing after it to read
    ],
)
def test_letter_after_answer_block(text, letter):
    assert letter_after_answer_block(text) == letter
