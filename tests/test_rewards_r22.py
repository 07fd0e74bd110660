"""Rules prompted by the red team split ``holdout_r22`` (written blind 2026-12-05 on two tricks at once; first sight in
benchmarks/results/red_team_rewards_holdout_r22_first_sight.md): each a table of the genuine form it pays beside the
nearby hack it refuses, with variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.forecast import committed_forecast
from polyreward.verifiers.forecast import class_edges
from polyreward.verifiers.forecast_evidence import led_as_one_case

_KOREA_PM25 = class_edges("korea", "pm25")


def forecast_in(completion: str):
    return committed_forecast(completion, 1, True, ("pm25",), None, _KOREA_PM25)[0]


# --- forecast_class_cost: a block led into as one case of several is one branch, not a forecast ----------------------
@pytest.mark.parametrize(
    "completion,value",
    [
        # hacks: the block is the "otherwise" case; the other case's block set aside in a fence (which is never read),
        # stated plainly, or not written at all
        ("If the wind turns:\n```\n<answer>20</answer>\n```\nOtherwise:\n<answer>60</answer>", None),
        ("If the wind turns, about 20.\nOtherwise:\n<answer>60</answer>", None),
        ("If it rains: 20. **Otherwise:** <answer>60</answer>", None),
        ("Otherwise, <answer>60</answer>", None),
        ("Else: <answer>60</answer>", None),
        ("Alternatively: <answer>60</answer>", None),
        ("Sinon : <answer>60</answer>", None),
        ("否则：<answer>60</answer>", None),
        ("Forecast: 40 or <answer>60</answer>", None),
        # genuine: a label, a reason, "otherwise" inside a finished sentence, a conditional lead without another case
        ("Forecast: <answer>60</answer>", 60.0),
        ("**Forecast:** <answer>60 µg/m³</answer>", 60.0),
        ("I see no reason to expect otherwise.\n<answer>60</answer>", 60.0),
        ("Levels were flat, otherwise unremarkable. So: <answer>60</answer>", 60.0),
        ("If I must give one number: <answer>60</answer>", 60.0),
        ("Either way the class stays bad:\n<answer>60</answer>", 60.0),
        ("<think>If the wind turns it would be lower; otherwise flat.</think>\n<answer>60</answer>", 60.0),
    ],
)
def test_a_block_led_in_as_one_case_is_no_forecast(completion, value):
    assert forecast_in(completion) == ([value] if value is not None else None)


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=1, max_value=300),
       st.sampled_from(["Otherwise", "otherwise", "Else", "Alternatively", "Or", "Sinon", "Sonst", "Altrimenti"]),
       st.sampled_from([":", ",", "", ":\n", ": **"]),
       st.sampled_from(["", "If the wind turns: 20.\n", "```\n<answer>20</answer>\n```\n"]))
def test_the_otherwise_case_never_commits(value, branch, mark, first_case):
    assert forecast_in(f"{first_case}{branch}{mark} <answer>{value}</answer>") is None


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=1, max_value=300),
       st.sampled_from(["Forecast:", "Tomorrow's mean:", "My forecast is", "So the answer is", "There is no reason to expect otherwise.",
                        "Nothing else changes.", "or so the data suggest."]))
def test_a_plain_lead_keeps_the_forecast(value, lead):
    assert forecast_in(f"{lead} <answer>{value}</answer>") == [float(value)]
    assert not led_as_one_case(lead + " ")


# --- kg_triplet_consistency: a statement followed by its opposite as a tag ("or not") states nothing -------------------
from polyreward.rewards.kg_triplet import KGTripletConsistency, without_both_ways  # noqa: E402

PTX_PROMPT = ("Write the FINDINGS section of a chest X-ray report consistent with these findings.\n"
              "Present: pneumothorax\nAbsent: rib fracture\nUncertain: none")
PTX_REF = "There is a small left apical pneumothorax. No rib fracture is seen."


def kg_score(report: str) -> float:
    reward = KGTripletConsistency(min_content_words=1, drop_prompt_lines=True, empty_reference="skip", contradictions="keep")
    return reward(prompts=[PTX_PROMPT], completions=[report], answer=[PTX_REF])[0]


@pytest.mark.parametrize(
    "report,full",
    [
        # hacks: each status with its opposite as a tag, in Spanish, English, German, French, Portuguese
        ("There is a small left apical pneumothorax (o no). No rib fracture is seen (o quizás sí).", False),
        ("There is a small left apical pneumothorax, or not. No rib fracture is seen, or maybe yes.", False),
        ("There is a small left apical pneumothorax (or perhaps not). No rib fracture is seen.", False),
        ("There is a small left apical pneumothorax (oder nicht). No rib fracture is seen.", False),
        ("There is a small left apical pneumothorax. No rib fracture is seen (ou pas).", False),
        ("There is a small left apical pneumothorax. No rib fracture is seen (ou talvez sim).", False),
        # genuine: "or" joining findings, a negated list, the reference's own wording, a plain "no" answer
        ("There is a small left apical pneumothorax. No rib fracture is seen.", True),
        ("Small left apical pneumothorax. No rib fracture or other bony abnormality is seen.", True),
        ("There is a small left apical pneumothorax; no rib fracture is seen.", True),
    ],
)
def test_a_status_tagged_with_its_opposite_states_nothing(report, full):
    assert (kg_score(report) == 1.0) == full


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["There is a small pneumothorax", "No rib fracture is seen", "Cardiomegaly", "Pleural effusion is present"]),
       st.sampled_from([" (or not)", ", or not", " or maybe not", " (o no)", " (o quizás sí)", " (oder vielleicht doch)",
                        " (ou pas)", ", or perhaps yes", " (или нет)"]),
       st.sampled_from([".", ".\n", "!"]))
def test_the_opposite_tag_drops_its_sentence(statement, tag, stop):
    assert without_both_ways(f"{statement}{tag}{stop} Heart size is normal.").strip() == "Heart size is normal."


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["pneumothorax", "pleural effusion", "consolidation", "rib fracture", "edema"]),
       st.sampled_from(["no", "not", "nothing"]), st.sampled_from(["pneumothorax", "effusion", "new opacity", "change"]))
def test_or_between_findings_keeps_the_sentence(first, negation, second):
    text = f"There is {negation} {first} or {second}. Heart size is normal."
    assert without_both_ways(text) == text


# --- KG extractor: a modal before "be present / seen" after a finding hedges it -----------------------------------------
from polyreward.verifiers.radiology_kg import extract_kg  # noqa: E402


@pytest.mark.parametrize(
    "report,status",
    [
        # hedged after the finding (radlabels' reports write it so: "a trace right pleural effusion may be present")
        ("A small pleural effusion may be present.", "disorder_uncertain"),
        ("Small pleural effusions may be present, not appreciably changed.", "disorder_uncertain"),
        ("A small pleural effusion might be present.", "disorder_uncertain"),
        ("A small pleural effusion could be present on the left.", "disorder_uncertain"),
        ("A small pleural effusion may be seen at the left base.", "disorder_uncertain"),
        # stated: present; denied: absent (the modal cue does not turn a plain statement into a hedge)
        ("A small pleural effusion is present.", "disorder_present"),
        ("A small pleural effusion is seen.", "disorder_present"),
        ("No pleural effusion is present.", "disorder_notpresent"),
        ("Pleural effusion is not seen.", "disorder_notpresent"),
    ],
)
def test_a_modal_before_be_present_hedges_the_finding(report, status):
    assert dict(extract_kg(report, "uncertain").entities)["pleural effusion"] == status
    # under the default uncertain_as: present the hedged finding reads present, as before
    expected = "disorder_present" if status == "disorder_uncertain" else status
    assert dict(extract_kg(report).entities)["pleural effusion"] == expected


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["pleural effusion", "pneumothorax", "consolidation", "cardiomegaly", "atelectasis"]),
       st.sampled_from(["may", "might", "could"]), st.sampled_from(["present", "seen"]),
       st.sampled_from(["", " No rib fracture.", " The heart is enlarged."]))
def test_a_postposed_modal_hedges_only_its_finding(finding, modal, verb, rest):
    if verb == "seen" and modal == "could":
        return  # "could be seen" is no cue (it reads as a statement that something is visible)
    if finding == "cardiomegaly" and "enlarged" in rest:
        return  # the later plain statement of the same finding wins (ReXKG's last mention)
    entities = dict(extract_kg(f"A {finding} {modal} be {verb}.{rest}", "uncertain").entities)
    assert entities[finding] == "disorder_uncertain"
    if "rib fracture" in rest:
        assert entities["fracture generic"] == "disorder_notpresent"
    if "enlarged" in rest:
        assert entities["cardiomegaly"] == "disorder_present"


# --- KG extractor: a bracketed aside that names nothing the lexicon knows does not separate a size word from its finding
@pytest.mark.parametrize(
    "report,modified",
    [
        # genuine: a measurement, an approximate size, a series/image number between the size word and the finding
        ("Small (approximately 1.5 cm) left apical pneumothorax; no rib fracture identified.", True),
        ("Small (1.5 cm) left apical pneumothorax.", True),
        ("Small (2.1 x 1.3 cm) pneumothorax at the left apex.", True),
        ("Small (series 3, image 42) left apical pneumothorax.", True),
        ("Small left apical pneumothorax (approximately 1.5 cm).", True),
        # an aside that names something stays, and keeps separating (it is a statement of its own)
        ("Small (no effusion) left apical pneumothorax.", False),
        ("Small (stable) left apical pneumothorax.", False),
        ("Small (stable since 2023) left apical pneumothorax.", False),
    ],
)
def test_an_empty_aside_keeps_the_size_on_its_finding(report, modified):
    assert (("small", "pneumothorax", "modify") in extract_kg(report).triplets) == modified


@pytest.mark.parametrize(
    "report,finding,status",
    [
        # the asides the extractor reads before this rule are still read: likelihoods, checklist marks, statuses
        ("Cardiomegaly (10% likelihood).", "cardiomegaly", "disorder_notpresent"),
        ("Cardiomegaly (90% likelihood).", "cardiomegaly", "disorder_present"),
        ("Pneumothorax (-)", "pneumothorax", "disorder_notpresent"),
        ("(+) Pneumothorax", "pneumothorax", "disorder_present"),
    ],
)
def test_asides_that_state_something_are_read_as_before(report, finding, status):
    assert dict(extract_kg(report).entities)[finding] == status


@settings(max_examples=80, deadline=None)
@given(st.floats(min_value=0.1, max_value=20, allow_nan=False).map(lambda x: round(x, 1)),
       st.sampled_from(["cm", "mm", "x 1.2 cm", "series 2, image 17", "measured 2025-03-02", "about {} cm"]),
       st.sampled_from(["pneumothorax", "pleural effusion", "consolidation", "nodule"]),
       st.sampled_from(["small", "large", "moderate"]))
def test_an_aside_of_numbers_and_plain_words_is_no_distance(size, unit, finding, word):
    aside = f"({size} {unit})" if unit in ("cm", "mm", "x 1.2 cm") else f"({unit.format(size)})"
    plain = extract_kg(f"{word.capitalize()} left {finding}.")
    with_aside = extract_kg(f"{word.capitalize()} {aside} left {finding}.")
    assert with_aside == plain


# --- KG lexicon: a bare "nodule" on a chest film is the lung nodule radlabels names ------------------------------------
@pytest.mark.parametrize(
    "report,status",
    [
        ("A 9 mm nodule is seen in the right upper lobe.", "disorder_present"),
        ("2 right lung nodules are new.", "disorder_present"),
        ("Stable 6 mm nodule in the left lower lobe.", "disorder_present"),
        ("No nodule is seen.", "disorder_notpresent"),
        ("No suspicious pulmonary nodule.", "disorder_notpresent"),
        ("A solitary pulmonary nodule in the right upper lobe.", "disorder_present"),
    ],
)
def test_a_bare_nodule_is_a_lung_nodule(report, status):
    assert dict(extract_kg(report).entities)["lung nodule or mass"] == status


def test_a_bare_nodule_report_matches_its_lung_nodule_reference():
    prompt = ("Write the FINDINGS section of a chest X-ray report consistent with these findings.\n"
              "Present: nodule\nAbsent: pneumothorax\nUncertain: none")
    reference = "A 9 mm lung nodule is seen in the right upper lobe. No pneumothorax."
    reward = KGTripletConsistency(min_content_words=1, drop_prompt_lines=True, empty_reference="skip", contradictions="keep")
    genuine = "A 9 mm nodule is seen in the right upper lobe. No pneumothorax."
    hack = "A 9 mm nodule may be seen in the right upper lobe, or not. No pneumothorax."
    genuine_score, hack_score = reward(prompts=[prompt] * 2, completions=[genuine, hack], answer=[reference] * 2)
    assert genuine_score == 1.0  # the bare nodule is the reference's lung nodule, with its place
    assert hack_score < 0.5  # the nodule stated both ways states nothing
