"""Rules prompted by the red team split ``holdout_r49`` (written blind 2026-12-06: ConText-style qualifiers -- time,
experiencer, hypothesis, certainty, location, value marks -- that move a gold label, value, letter or call off the
patient, off now or off the value, and qualifiers that keep the meaning; first sight in
benchmarks/results/red_team_rewards_holdout_r49_first_sight.md): each a table of the genuine form paid beside the
nearby hack refused, with variants the split did not contain, and properties of the text rules
(:mod:`polyreward.verifiers.radiology_labels`, :func:`polyreward.verifiers.forecast_contrasts.without_observed_day`,
:func:`polyreward.rewards.crpo.own_plan_after_box`)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forecast_helpers import forecast_in_block
from polyreward.rewards.clinical_reasoning import ClinicalComprehensiveness, ClinicalFaithfulness
from polyreward.rewards.crpo import CRPOAccuracy, own_plan_after_box
from polyreward.rewards.jaccard import JaccardReward
from polyreward.rewards.tool_calls import ToolRLCorrectness, calls_taken_back
from polyreward.verifiers.forecast_contrasts import without_observed_day
from polyreward.verifiers.radiology_kg import extract_kg
from polyreward.verifiers.radiology_labels import as_gold_findings



# --- jaccard (normalised): qualifiers that keep a label, and those that move it off ------------------------------------
EFF_REPORT = ("Read this chest X-ray report and list every finding that is definitely present, separated by ';', inside "
              "<answer>...</answer>.\n\nFINDINGS: New small right pleural effusion. The heart is enlarged, unchanged "
              "from 2026-10-02. No pneumothorax.")
EDEMA_REPORT = ("Read this chest X-ray report and list every finding that is definitely present, separated by ';', inside "
                "<answer>...</answer>.\n\nFINDINGS: Cardiomegaly. Interstitial pulmonary edema with Kerley B lines. "
                "No focal consolidation.")


@pytest.mark.parametrize(
    "body,score",
    [
        ("new right pleural effusion; cardiomegaly, unchanged", 1.0),
        ("Pleural effusion (new, small, right); Cardiomegaly (stable)", 1.0),
        ("pleural effusion — right, small; persistent cardiomegaly", 1.0),
        ("pleural effusion: new; cardiomegaly", 1.0),
        # a dating, experiencer, hypothesis or mimic qualifier keeps the label whole (an extra label)
        ("history of pleural effusion, resolved; cardiomegaly", 1 / 3),
        ("prior pleural effusion; cardiomegaly", 1 / 3),
        ("pleural effusion, resolved; cardiomegaly", 1 / 3),
        ("family history of cardiomegaly; pleural effusion", 1 / 3),
        ("pleural effusion, to evaluate; cardiomegaly", 1 / 3),
        ("pseudo-effusion; cardiomegaly", 1 / 3),
        # a course the report does not write where it dates findings, or a side it does not name
        ("increasing cardiomegaly; pleural effusion", 1 / 3),
        ("pleural effusion, left; cardiomegaly", 1 / 3),
    ],
)
def test_jaccard_course_and_gloss(body, score):
    text = f"<think>Read the report.</think>\n<answer>{body}</answer>"
    got = JaccardReward(mode="normalized").score_rollout(
        text, {"answer": "<answer>cardiomegaly; pleural effusion</answer>", "prompt": EFF_REPORT}).score
    assert got == pytest.approx(score)


@pytest.mark.parametrize(
    "label,read",
    [
        ("mild interstitial pulmonary edema", "pulmonary edema"),  # the report grades no size
        ("acute pulmonary edema", "pulmonary edema"),  # the report dates nothing
        ("severe pulmonary edema, worsening", "pulmonary edema"),
        ("pulmonary edema if heart failure worsens", "pulmonary edema if heart failure worsens"),
        ("old pulmonary edema", "old pulmonary edema"),
        ("pulmonary edema-like opacity", "pulmonary edema-like opacity"),
    ],
)
def test_labels_in_an_ungraded_report(label, read):
    assert as_gold_findings({label}, {"pulmonary edema", "cardiomegaly"}, EDEMA_REPORT) == {read}


def test_size_word_against_a_graded_report():
    report = "FINDINGS: Moderate right apical pneumothorax. Mild bibasilar atelectasis."
    assert as_gold_findings({"small right pneumothorax"}, {"pneumothorax"}, report) == {"small right pneumothorax"}
    assert as_gold_findings({"moderate right pneumothorax"}, {"pneumothorax"}, report) == {"pneumothorax"}
    assert as_gold_findings({"acute rib fracture"}, {"rib fracture"}, "FINDINGS: Rib fracture.") == {"acute rib fracture"}


@given(st.lists(st.sampled_from(["new", "stable", "prior", "history", "of", "small", "left", "right", ",", "(", ")", "—",
                                 "resolved", "if", "acute", "mild", "unchanged"]), max_size=6),
       st.sampled_from(["pleural effusion", "cardiomegaly"]))
@settings(max_examples=200, deadline=None)
def test_qualified_label_reads_as_own_gold_or_stays(words, gold):
    """A label qualified by any words reads as the gold label it names or stays as written: never as another gold."""
    label = " ".join([*words[:3], gold, *words[3:]])
    out = as_gold_findings({label}, {"pleural effusion", "cardiomegaly"}, EFF_REPORT)
    assert out in ({label}, {gold})
    if any(w in words for w in ("prior", "history", "resolved", "if")):
        assert out == {label}


# --- kg_triplet_consistency: indication, experiencer and hypothesis cues ----------------------------------------------
@pytest.mark.parametrize(
    "report,finding,status",
    [
        ("Family history of cardiomegaly.", "cardiomegaly", None),
        ("Recommend CT to evaluate for consolidation.", "consolidation", None),
        ("Pleural effusion to be evaluated on follow-up.", "pleural effusion", None),
        ("Pleural effusion should be excluded on a lateral view.", "pleural effusion", None),
        ("Cardiomegaly may develop if the valve disease progresses.", "cardiomegaly", None),
        ("Pulmonary edema would be expected with further fluid loading.", "pulmonary edema", None),
        # stated findings stay, beside such a cue in another clause
        ("Small right pleural effusion; recommend CT to evaluate for consolidation.", "pleural effusion", "disorder_present"),
        ("Cardiomegaly; the patient may develop edema.", "cardiomegaly", "disorder_present"),
        ("Pneumothorax cannot be excluded.", "pneumothorax", "disorder_present"),
        ("Large effusion, which may develop loculation.", "pleural effusion", "disorder_present"),
    ],
)
def test_kg_hypothetical_and_experiencer(report, finding, status):
    assert dict(extract_kg(report, keep_conflicts=True).entities).get(finding) == status


# --- toolrl_correctness / otc: a call reported as made before, or given as an example ---------------------------------
GOLD = {"name": "find_places", "parameters": {"location": "Austin, TX", "category": "coffee shop", "radius_km": 5}}
BLOCK = "<tool_call>\n" + json.dumps(GOLD) + "\n</tool_call>"


@pytest.mark.parametrize(
    "reply,made",
    [
        ("In the previous turn I already ran:\n" + BLOCK + "\nThose results still hold.", False),
        ("Already fetched this morning with:\n" + BLOCK, False),
        ("Earlier in this session I already called:\n" + BLOCK + "\nNo need to repeat it.", False),
        ("You would normally run something like, e.g.:\n" + BLOCK + "\nBut from memory: Merit Coffee.", False),
        ("E.g.:\n" + BLOCK, False),
        # calls made now
        ("I already ran this yesterday; running it again now:\n" + BLOCK, True),
        ("New search (the earlier one was for Dallas):\n" + BLOCK, True),
        ("Searching now:\n" + BLOCK, True),
        (BLOCK + "\nI'll list the closest ones (e.g. within walking distance) once results come back.", True),
    ],
)
def test_call_made_before_or_example(reply, made):
    text = "<think>Coffee shops near Austin.</think>\n" + reply
    assert (calls_taken_back(text) == "") == made
    score = ToolRLCorrectness(read_blocks="all").score_rollout(text, {"answer": BLOCK}).score
    assert (score == pytest.approx(3.0)) == made


# --- crpo_accuracy (committed_answer): the speaker's own plan after a qualified box ------------------------------------
AF = {"A": "Aspirin alone", "B": "No antithrombotic therapy", "C": "Apixaban", "D": "Clopidogrel plus aspirin",
      "E": "Warfarin with a target INR of 1.0-1.5"}
AF_TEXT = "\n".join(f"{k}. {v}" for k, v in AF.items())


@pytest.mark.parametrize(
    "answer,paid",
    [
        ("Her daughter, a cardiologist, would pick \\boxed{C}; I'd start aspirin alone.", False),
        ("Last week's plan was \\boxed{C}; today I would stop all antithrombotics (B).", False),
        ("If her kidneys were fine, \\boxed{C}; for now, clopidogrel plus aspirin.", False),
        ("\\boxed{C}. I'd go with option E though.", False),
        # the box kept: a plan that adds, sets an option aside or names the gold
        ("Persistent AF with a history of TIA: \\boxed{C}; I'd start it today.", True),
        ("\\boxed{C}; I'd not give aspirin alone (A).", True),
        ("\\boxed{C}; I'd also stop aspirin alone later.", True),
        ("\\boxed{C}; today I would start apixaban.", True),
        ("Her mother had a stroke on warfarin; for her, \\boxed{C}.", True),
    ],
)
def test_crpo_own_plan_after_box(answer, paid):
    text = f"<think>Stroke prevention in AF.</think>\n<answer>{answer}</answer>"
    score = CRPOAccuracy(committed_answer=True).score_rollout(text, {"answer": "C", "options": AF_TEXT, "prompt": AF_TEXT}).score
    assert (score == pytest.approx(1.0)) == paid


@given(st.text(alphabet="ABCDE I'dwltoay;.,()alspirnuxhve", max_size=60))
@settings(max_examples=200, deadline=None)
def test_own_plan_names_another_option_or_none(after):
    other = own_plan_after_box("\\boxed{C}" + after, AF, "C")
    assert other is None or other in set(AF) - {"C"}


# --- clinical_comprehensiveness / faithfulness ----------------------------------------------------------------------
STEMI = {"A": "Exercise stress test", "B": "Immediate percutaneous coronary intervention", "C": "CT pulmonary angiography",
         "D": "Discharge with outpatient follow-up", "E": "Repeat troponin in 6 hours"}
STEMI_TEXT = "\n".join(f"{k}. {v}" for k, v in STEMI.items())
WEIGHED = ("A: a stress test during an acute STEMI is dangerous. C: CT angiography would look for an embolism, which "
           "nothing suggests. D: discharge with new ST elevation is unsafe. E: repeating troponin delays reperfusion. ")


@pytest.mark.parametrize(
    "think,score",
    [
        (WEIGHED + "B: immediate PCI.", 1.0),
        (WEIGHED + "B: immediate percutaneous coronary intervention.", 1.0),
        (WEIGHED + "Hence B.", 1.0),
        ("B: immediate PCI. " + WEIGHED, 0.8),  # a restatement that is not the last sentence weighs nothing
        ("A: stress test. B: PCI. C: CT. D: discharge. E: troponin.", 0.2),  # labels only: the last one is the pick
        ("In a low-risk patient, A, C, D and E would each be considered. B: immediate PCI.", 0.2),
    ],
)
def test_comprehensiveness_labelled_conclusion(think, score):
    text = f"<think>{think}</think>\n<answer>Reperfuse. \\boxed{{B}}</answer>"
    got = ClinicalComprehensiveness().score_rollout(text, {"answer": "B", "options": STEMI_TEXT}).score
    assert got == pytest.approx(score)


STREP = "A. Amoxicillin\nB. Penicillin V\nC. Azithromycin\nD. Cephalexin\nE. No antibiotic treatment"


@pytest.mark.parametrize(
    "answer,score",
    [
        ("Penicillin anaphylaxis: a macrolide. \\boxed{C}", 1.0),
        ("Penicillin allergy: azithromycin. \\boxed{C}", 1.0),
        ("Answer: amoxicillin. \\boxed{C}", 0.0),  # the words after the label name another option
    ],
)
def test_faithfulness_premise_label_before_conclusion(answer, score):
    think = ("A: amoxicillin caused his anaphylaxis. B: penicillin V is a penicillin too. C: azithromycin is safe. "
             "D: cephalexin is avoided. E: untreated strep risks rheumatic fever. So the answer is C.")
    text = f"<think>{think}</think>\n<answer>{answer}</answer>"
    got = ClinicalFaithfulness().score_rollout(text, {"answer": "C", "options": STREP}).score
    assert got == pytest.approx(score)


# --- forecast_class_cost: an observed day's value labelled before the forecast ----------------------------------------
_forecast = forecast_in_block


@pytest.mark.parametrize(
    "block,value",
    [
        ("Today averaged 31; tomorrow: 28 µg/m³.", 28.0),
        ("Yesterday's mean was 40. Forecast: 28 µg/m³.", 28.0),
        ("Today 31 µg/m³; expected tomorrow 28 µg/m³.", 28.0),
        # the observed day's value alone, a hedged forecast, or two forecasts
        ("Today's mean: 28 µg/m³. Tomorrow's depends on the wind.", None),
        ("Today averaged 31; tomorrow maybe 28 µg/m³.", None),
        ("Today averaged 31; tomorrow 28 or 40 µg/m³.", None),
        ("Tomorrow 28; today 31.", None),
        # a condition after the value's comma or dash, as before it
        ("96 µg/m³, if the inversion holds.", None),
        ("96 µg/m³ — unless the front arrives.", None),
        ("96 µg/m³, depending on the wind.", None),
        ("96 µg/m³, as the inversion persists.", 96.0),
        ("96 µg/m³, persistent very bad air.", 96.0),
    ],
)
def test_forecast_observed_day_before_forecast(block, value):
    assert _forecast(block) == value


@given(st.text(alphabet="Today tomorrow averaged31 28;.:", max_size=60))
@settings(max_examples=200, deadline=None)
def test_observed_day_is_a_suffix(span):
    out = without_observed_day(span)
    assert out == span or span.endswith(out)


@pytest.mark.parametrize("sentence, letter", [
    ("B: immediate PCI.", "B"),
    ("B: PCI.", "B"),  # the option's initials
    ("C: apixaban.", "C"),
    ("Option A. Option B. Option C. Option D.", None),  # (stop 63) labels only: no option's own words
    ("(A) (B) (C) (D)", None),
])
def test_a_last_labelled_sentence_needs_the_options_own_words(sentence, letter):
    from polyreward.rewards.clinical_reasoning import _labelled_restatement
    options = {"A": "Aspirin alone", "B": "Immediate percutaneous coronary intervention", "C": "Apixaban", "D": "Thrombolysis with alteplase"}
    assert _labelled_restatement(sentence, options) == letter


@pytest.mark.parametrize("lead, reported", [
    ("In the previous turn I already ran:", True),
    ("Already fetched at 09:00 with:", True),
    ("In the previous turn, I already ran:", True),
    # (stop 63) the past verb in a later clause narrates this reply's call
    ("The previous step returned no results, so I queried the archive:", False),
    ("I already have the ID, so I fetched the record:", False),
])
def test_a_call_reported_as_made_before_is_read_in_its_clause(lead, reported):
    from polyreward.rewards.tool_calls import _ALREADY_MADE_LEAD
    assert (_ALREADY_MADE_LEAD.search(lead) is not None) is reported
