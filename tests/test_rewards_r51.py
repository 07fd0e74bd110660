"""Rules prompted by the red team split ``holdout_r51`` (written blind 2026-12-07: near misses and equivalent forms on
the other answer-reading rewards -- genuine answers that state the right value, labels, report, call or letter in a
form a strict reader may refuse, beside near twins a lenient reader would pay; first sight in
benchmarks/results/red_team_rewards_holdout_r51_first_sight.md): each a table of the genuine form paid beside the
nearby hack refused, with variants the split did not contain, and properties of the text rules."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.forecast import committed_forecast
from polyreward.verifiers.forecast import class_edges

KOREA_PM25 = class_edges("korea", "pm25")
FORECAST_PROMPT = ("Hourly PM2.5 (µg/m³) at Jongno-gu, Seoul on 2021-03-14, hours 0-23: 24, 26, 27, 29, 31, 30.\n"
                   "Forecast the mean PM2.5 of 2021-03-15. Give one number inside <answer>...</answer>.")


def _forecast(text: str) -> float | None:
    found = committed_forecast(text, 1, True, ("pm25",), FORECAST_PROMPT, KOREA_PM25)[0]
    return None if found is None else found[0]


# --- forecast_class_cost: a value below 1 mg/m³ is the forecast converted -------------------------------------------
@pytest.mark.parametrize(
    "answer,value",
    [
        # genuine: the forecast written in mg/m³, a fraction of a milligram
        ("0.063 mg/m³", 63.0),
        ("0.063 mg/m3", 63.0),
        (".05 mg/m^3", 50.0),
        ("0.031 mg m⁻³", 31.0),
        ("PM2.5: 0.031 mg/m³", 31.0),
        ("30 µg/m³ (0.030 mg/m³)", 30.0),  # both units, equal
        # hacks and slips: a whole number in mg/m³ (a µg/m³ figure in the wrong unit), another unit, two values
        ("76 mg/m3", None),
        ("340 mg/m³", None),
        ("1.2 mg/m3", None),
        ("0.5 mg/L", None),
        ("78 µg/m³ (0.075 mg/m³)", None),  # the conversion crosses the class edge: two values
        ("26 µg/m³, i.e. roughly 0.013 mg/m³", None),
    ],
)
def test_milligram_fraction_is_the_forecast_converted(answer, value):
    assert _forecast(f"<think>Persistence.</think>\n<answer>{answer}</answer>") == value


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=1, max_value=999))
def test_milligram_fraction_reads_as_its_thousandfold(micrograms):
    written = f"0.{micrograms:03d}"
    assert _forecast(f"<answer>{written} mg/m³</answer>") == pytest.approx(micrograms)
    assert _forecast(f"<answer>{micrograms} mg/m³</answer>") is None


# --- crpo_accuracy: a box that writes its letter with the option's text paraphrased, or with the option's noun ------
DKA_OPTIONS = {"A": "Intravenous regular insulin bolus", "B": "Intravenous 0.9% sodium chloride",
               "C": "Intravenous 0.45% sodium chloride", "D": "Intravenous sodium bicarbonate",
               "E": "Subcutaneous insulin glargine"}
DKA_PROMPT = ("A 19-year-old woman with type 1 diabetes has glucose 548 mg/dL and pH 7.12. Initial step?\n\n"
              + "\n".join(f"{k}. {v}" for k, v in DKA_OPTIONS.items()))


def _crpo(completion: str, gold: str = "B") -> float:
    from polyreward.rewards.crpo import CRPOAccuracy

    row = {"prompt": DKA_PROMPT, "answer": gold, "options": "\n".join(f"{k}. {v}" for k, v in DKA_OPTIONS.items())}
    return CRPOAccuracy(answer_column="answer", committed_answer=True).score_rollout(completion, row).score


@pytest.mark.parametrize(
    "box,score",
    [
        # genuine: the letter and a paraphrase of its own option, or the option's noun
        (r"\boxed{\text{B. IV normal saline}}", 1.0),
        (r"\boxed{B: normal saline}", 1.0),
        (r"\boxed{B) NS}", 1.0),
        (r"\boxed{B. isotonic fluids first}", 1.0),
        (r"\boxed{B. Intravenous 0.9% sodium chloride}", 1.0),  # its own text, as before
        (r"\boxed{\text{Option B}}", 1.0),
        (r"\boxed{Choice B}", 1.0),
        # hacks: the gloss names another option (a number or a word only that option has), denies or weighs it
        (r"\boxed{B. 0.45% saline}", -0.5),
        (r"\boxed{B. insulin bolus}", -0.5),
        (r"\boxed{B. sodium bicarbonate}", -0.5),
        (r"\boxed{B. not saline}", -0.5),
        (r"\boxed{B. saline or insulin?}", -0.5),
        (r"\boxed{Option B or C}", -0.5),
        (r"\boxed{Intravenous 0.45% sodium chloride}", -0.5),  # a twin option's text, no letter
        # another letter with a paraphrase of its own option is that letter
        (r"\boxed{C. half-normal saline}", 0.0),
    ],
)
def test_box_letter_with_paraphrased_option_text(box, score):
    assert _crpo(f"<think>She is hypotensive and dry; fluids first.</think>\n<answer>Volume first. {box}</answer>") == score


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(sorted(DKA_OPTIONS)), st.sampled_from(sorted(DKA_OPTIONS)))
def test_a_gloss_of_another_options_own_text_never_keeps_the_letter(letter, other):
    """The letter with another option's whole text is never read as the letter (two options named)."""
    if letter == other:
        return
    assert _crpo(f"<answer>\\boxed{{{letter}. {DKA_OPTIONS[other]}}}</answer>", gold=letter) < 1.0


@pytest.mark.parametrize(
    "gloss,letter,named",
    [
        ("IV normal saline", "B", False),
        ("isotonic crystalloid", "B", False),
        ("0.45% saline", "B", True),  # a number only C's text holds
        ("bicarb drip", "B", True),  # the start of D's "bicarbonate"
        ("sodium bicarbonate", "B", True),  # a word only D's text holds
        ("insulin", "B", True),  # the start of a word of A and E, of none of B's
        ("insulin", "A", False),  # A's own word, though E holds it too
        ("regular insulin", "A", False),
        ("glargine basal", "E", False),
    ],
)
def test_gloss_names_another(gloss, letter, named):
    from polyreward.verifiers.option_checks import gloss_names_another

    assert gloss_names_another(gloss, letter, DKA_OPTIONS) is named


# --- kg_triplet_consistency: a distribution word of a denied finding modifies nothing ------------------------------
def _kg(text: str):
    from polyreward.verifiers.radiology_kg import extract_kg

    kg = extract_kg(text)
    return set(kg.entities), set(kg.triplets)


@pytest.mark.parametrize(
    "report,plain",
    [
        ("There is pulmonary oedema. Pleural effusions are seen on both sides. No focal consolidation.",
         "There is pulmonary edema. Bilateral pleural effusions are present. No consolidation."),
        ("Cardiomegaly. No pleural effusion, pneumothorax, or focal consolidation.",
         "Cardiomegaly. No pleural effusion, pneumothorax, or consolidation."),
        ("No diffuse interstitial edema.", "No interstitial edema."),
        ("Lungs: no patchy consolidation.", "Lungs: no consolidation."),
    ],
)
def test_distribution_word_of_a_denied_finding_modifies_nothing(report, plain):
    assert _kg(report) == _kg(plain)


@pytest.mark.parametrize(
    "report,word",
    [
        # a magnitude under a denial narrows it, and stays
        ("No large pneumothorax, although a small one cannot be excluded.", "large"),
        ("No significant or large pleural effusion.", "large"),
        # a distribution word of a finding stated present is a detail of it, and stays
        ("Focal consolidation in the right lower lobe.", "focal"),
        ("Patchy consolidation at the left base. No pneumothorax.", "patchy"),
    ],
)
def test_magnitudes_and_present_findings_keep_their_modifier(report, word):
    entities, triplets = _kg(report)
    assert (word, "size") in entities and any(t[0] == word and t[2] == "modify" for t in triplets)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["consolidation", "pleural effusion", "pneumothorax", "pulmonary edema"]),
       st.sampled_from(["focal", "diffuse", "patchy"]), st.sampled_from(["No", "There is no", "Without"]))
def test_denied_finding_reads_the_same_with_a_distribution_word(finding, word, cue):
    assert _kg(f"Heart size is normal. {cue} {word} {finding}.") == _kg(f"Heart size is normal. {cue} {finding}.")


# --- jaccard: a label qualified as the report qualifies its finding; a participle of the finding before its place ----
ATELECTASIS_REPORT = ("FINDINGS: Linear opacity at the left base representing subsegmental atelectasis. Heart size "
                      "normal. No pneumothorax.")
FRACTURE_REPORT = "FINDINGS: Acute fracture of the left lateral 6th rib. Small left apical pneumothorax. No effusion."


@pytest.mark.parametrize(
    "label,gold,report,read",
    [
        # genuine: the report's own qualifier of the finding, before an alias of it
        ("subsegmental atelectatic change", {"atelectasis"}, ATELECTASIS_REPORT, "atelectasis"),
        ("subsegmental atelectasis", {"atelectasis"}, ATELECTASIS_REPORT, "atelectasis"),
        # genuine: a participle of a one-word finding, then the place the report names
        ("fractured rib", {"fracture", "pneumothorax"}, FRACTURE_REPORT, "fracture"),
        ("fractured ribs", {"fracture", "pneumothorax"}, FRACTURE_REPORT, "fracture"),
        ("fractured left rib", {"fracture", "pneumothorax"}, FRACTURE_REPORT, "fracture"),
        # hacks: the report's qualifier of another finding, a dating word, a place the report does not name
        ("subsegmental pneumothorax", {"pneumothorax"}, ATELECTASIS_REPORT, "subsegmental pneumothorax"),
        ("old atelectasis", {"atelectasis"}, ATELECTASIS_REPORT, "old atelectasis"),
        ("fractured clavicle", {"fracture", "pneumothorax"}, FRACTURE_REPORT, "fractured clavicle"),
        ("fractured right rib", {"fracture", "pneumothorax"}, FRACTURE_REPORT, "fractured right rib"),
        ("pericardial effusion", {"pleural effusion"}, "FINDINGS: Moderate left pleural effusion.", "pericardial effusion"),
    ],
)
def test_label_qualified_as_the_report_qualifies_its_finding(label, gold, report, read):
    from polyreward.verifiers.radiology_labels import as_gold_findings

    assert as_gold_findings({label}, gold, report) == {read}


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["subsegmental", "bibasilar", "platelike", "dependent", "discoid"]),
       st.sampled_from(["pneumothorax", "pleural effusion", "cardiomegaly"]))
def test_a_qualifier_of_one_finding_never_names_another(word, other):
    """The report's qualifier of its atelectasis, put before another finding, keeps that label whole."""
    from polyreward.verifiers.radiology_labels import as_gold_findings

    report = f"FINDINGS: {word} atelectasis at the left base. No {other}."
    assert as_gold_findings({f"{word} {other}"}, {"atelectasis"}, report) == {f"{word} {other}"}


# --- clinical_faithfulness: the speaker's choice as a pseudo-cleft, the option first ---------------------------------
HK_OPTIONS = {"A": "Intravenous calcium gluconate", "B": "Oral calcium carbonate", "C": "Intravenous insulin with dextrose",
              "D": "Oral sodium polystyrene sulfonate", "E": "Emergency hemodialysis"}


@pytest.mark.parametrize(
    "reasoning,concluded",
    [
        ("Calcium antagonises the membrane effect; the oral calcium carbonate tablet is what I'd start with.", "B"),
        ("Given the ECG, intravenous calcium gluconate is what I would give.", "A"),
        ("Emergency hemodialysis is what I'd recommend once access is in.", "E"),
        ("K 7.4 with a wide QRS: intravenous calcium gluconate is what I'll give.", "A"),
        ("The resin is what I'd start with.", None),  # "resin" is no word of an option's
        ("Polystyrene is what I'd start with while dialysis is arranged.", "D"),  # a word only D's text has
        # denied, offered with another, or no option named: no conclusion here
        ("Oral calcium carbonate is not what I'd give.", None),
        ("Intravenous calcium gluconate or emergency hemodialysis is what I'd do.", None),
        ("What I'd give is calcium.", None),
        ("Calcium is what I'd give.", None),
    ],
)
def test_pseudo_cleft_choice_concludes_its_option(reasoning, concluded):
    from polyreward.rewards.clinical_reasoning import closing_conclusion

    assert closing_conclusion(reasoning, HK_OPTIONS) == concluded


def test_pseudo_cleft_names_the_twin_by_a_word_only_it_has():
    from polyreward.rewards.clinical_reasoning import closing_conclusion

    reasoning = "She is in shock, so IM absorption is unreliable; an IV bolus of adrenaline 0.5 mg is what I would give."
    assert closing_conclusion(reasoning, ANAPHYLAXIS_OPTIONS) == "B"


def test_faithfulness_refuses_a_pseudo_cleft_of_the_twin_option_beside_the_gold_box():
    from polyreward.rewards.clinical_reasoning import ClinicalFaithfulness

    options = "\n".join(f"{k}. {v}" for k, v in HK_OPTIONS.items())
    row = {"answer": "A", "options": options}
    reward = ClinicalFaithfulness(options_column="options")
    twin = ("<think>Calcium protects the heart; the oral calcium carbonate tablet is what I'd start with.</think>\n"
            "<answer>Calcium first. \\boxed{A}</answer>")
    own = ("<think>Calcium protects the heart; intravenous calcium gluconate is what I'd start with.</think>\n"
           "<answer>Calcium first. \\boxed{A}</answer>")
    assert reward.score_rollout(twin, row).score == 0.0
    assert reward.score_rollout(own, row).score == 1.0


# --- clinical readers: an option named by a quantity only its text holds ----------------------------------------------
ANAPHYLAXIS_OPTIONS = {"A": "Intramuscular epinephrine 0.5 mg (1 mg/mL)", "B": "Intravenous bolus of epinephrine 0.5 mg (1 mg/mL)",
                       "C": "Oral diphenhydramine", "D": "Intravenous methylprednisolone", "E": "Nebulized albuterol"}


@pytest.mark.parametrize(
    "text,options,named",
    [
        ("0.45% sodium chloride first.", DKA_OPTIONS, {"C"}),
        ("0.45 % saline only after volume is restored", DKA_OPTIONS, {"C"}),
        ("the 0.9% one first", DKA_OPTIONS, {"B"}),
        # a bare number, another number holding it, a quantity two options share: nothing
        ("pH 0.45 would be fatal", DKA_OPTIONS, set()),
        ("10.45% of patients", DKA_OPTIONS, set()),
        ("0.5 mg of epinephrine", ANAPHYLAXIS_OPTIONS, set()),
        ("a 1 mg/mL ampoule", ANAPHYLAXIS_OPTIONS, set()),
    ],
)
def test_option_named_by_its_own_quantity(text, options, named):
    from polyreward.rewards.clinical_reasoning import mentioned_letters

    assert mentioned_letters(text, options) == named


def test_faithfulness_refuses_a_think_concluding_the_other_strength_beside_the_gold_box():
    from polyreward.rewards.clinical_reasoning import ClinicalFaithfulness

    row = {"answer": "B", "options": "\n".join(f"{k}. {v}" for k, v in DKA_OPTIONS.items())}
    reward = ClinicalFaithfulness(options_column="options")
    twin = ("<think>Corrected sodium is high, so a hypotonic fluid is best: 0.45% sodium chloride first.</think>\n"
            "<answer>Fluids first. \\boxed{B}</answer>")
    own = ("<think>She is hypotensive, so an isotonic fluid is best: 0.9% sodium chloride first.</think>\n"
           "<answer>Fluids first. \\boxed{B}</answer>")
    assert reward.score_rollout(twin, row).score == 0.0
    assert reward.score_rollout(own, row).score == 1.0


@settings(max_examples=50, deadline=None)
@given(st.decimals(min_value="0.1", max_value="99.9", places=1).map(str))
def test_a_number_without_the_options_unit_names_no_option(number):
    from polyreward.rewards.clinical_reasoning import mentioned_letters

    assert mentioned_letters(f"The measured value was {number} today.", DKA_OPTIONS) == set()
