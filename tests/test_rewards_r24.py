"""Rules prompted by the red team split ``holdout_r24`` (written blind 2026-12-05 on clinical labels and reports in
depth; first sight in benchmarks/results/red_team_rewards_holdout_r24_first_sight.md): each a table of the genuine form
it now pays beside the nearby hack it still refuses, with variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.kg_triplet import KGTripletConsistency
from polyreward.verifiers.radiology_kg import extract_kg


# --- kg_triplet_consistency: an organ's normal size denies its enlargement ------------------------------------------
@pytest.mark.parametrize(
    "report,status",
    [
        # genuine: the heart's normal size, as radiologists write it, is cardiomegaly denied
        ("Heart size is normal.", "disorder_notpresent"),
        ("The heart is not enlarged.", "disorder_notpresent"),
        ("Heart size is within normal limits.", "disorder_notpresent"),
        ("The heart is normal in size.", "disorder_notpresent"),
        ("Normal heart size.", "disorder_notpresent"),
        ("Normal-sized heart.", "disorder_notpresent"),
        ("The cardiac silhouette is normal in size.", "disorder_notpresent"),
        ("Cardiothoracic ratio is normal.", "disorder_notpresent"),
        ("Heart size remains normal.", "disorder_notpresent"),
        ("No cardiomegaly.", "disorder_notpresent"),
        # the enlargement stated stays present, however it is worded
        ("The heart is enlarged.", "disorder_present"),
        ("Heart size is enlarged.", "disorder_present"),
        ("The heart remains enlarged.", "disorder_present"),
        ("The cardiac silhouette is enlarged.", "disorder_present"),
        ("Cardiomegaly.", "disorder_present"),
    ],
)
def test_normal_heart_size_denies_cardiomegaly(report, status):
    # (contradictions: keep reads one-word sentences, "Cardiomegaly.", as the red team's params do)
    assert dict(extract_kg(report, keep_conflicts=True).entities)["cardiomegaly"] == status


@pytest.mark.parametrize(
    "report",
    [
        # a hedged or borderline size is no denial: read as before (the heart as a place, no finding)
        "Heart is top normal in size.",
        "Heart size is at the upper limit of normal.",
    ],
)
def test_a_borderline_heart_size_is_no_denial(report):
    assert "cardiomegaly" not in dict(extract_kg(report).entities)


def test_a_normal_heart_leaves_the_next_finding_present():
    kg = extract_kg("Heart size is normal and there is a small left pleural effusion.")
    entities = dict(kg.entities)
    assert entities["cardiomegaly"] == "disorder_notpresent"
    assert entities["pleural effusion"] == "disorder_present"
    assert ("pleural effusion", "left", "located_at") in kg.triplets


def test_a_run_on_normal_heart_denies_no_next_finding():
    # radlabels' synth_0787: no comma after the normal size; the widening after it stays present
    kg = extract_kg("Although heart size is normal mediastinal widening indicates increased central venous pressure.")
    entities = dict(kg.entities)
    assert entities["cardiomegaly"] == "disorder_notpresent"
    assert entities["enlarged cardiomediastinum"] == "disorder_present"


KG_PROMPT = ("Write the FINDINGS section of a chest X-ray report consistent with these findings.\n"
             "Present: left pleural effusion\nAbsent: cardiomegaly\nUncertain: none")


@pytest.mark.parametrize(
    "report,paid",
    [
        # genuine: the absent cardiomegaly written as the heart's normal size, beside the reference's "No cardiomegaly."
        ("Heart size is normal. There is a left pleural effusion.", True),
        ("The heart is not enlarged. Left pleural effusion.", True),
        ("Normal heart size. There is a left pleural effusion.", True),
        ("No cardiomegaly. Left pleural effusion.", True),
        # hacks: the enlargement stated, the effusion left out or denied
        ("The heart is enlarged. There is a left pleural effusion.", False),
        ("Heart size is normal.", False),
        ("Heart size is normal. No pleural effusion.", False),
    ],
)
def test_kg_reward_pays_a_normal_heart_for_absent_cardiomegaly(report, paid):
    reward = KGTripletConsistency(min_content_words=1, drop_prompt_lines=True, contradictions="keep")
    out = reward.score_rollout(report, {"prompt": KG_PROMPT, "answer": "No cardiomegaly. Left pleural effusion."})
    assert (out.score == pytest.approx(1.0)) is paid, out.reason


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["Heart size", "The heart", "The cardiac silhouette", "Heart"]),
       st.sampled_from(["is", "remains", "stays"]),
       st.sampled_from(["normal", "normal in size", "within normal limits", "not enlarged"]),
       st.sampled_from(["", " There is a small right pleural effusion.", " No pneumothorax."]))
def test_an_organ_of_normal_size_is_denied_and_the_rest_read_as_before(organ, verb, state, rest):
    text = f"{organ} {verb} {state}.{rest}"
    entities = dict(extract_kg(text).entities)
    assert entities["cardiomegaly"] == "disorder_notpresent"
    before = dict(extract_kg(rest).entities) if rest else {}
    assert {k: v for k, v in entities.items() if k != "cardiomegaly"} == before
    # the enlargement stated in the same words is the finding present
    enlarged = f"{organ} {verb} enlarged.{rest}"
    assert dict(extract_kg(enlarged).entities)["cardiomegaly"] == "disorder_present"


# --- forecast_class_cost: a negated event of the world after the block is the forecast's reason ---------------------
from polyreward.rewards.forecast import committed_forecast  # noqa: E402
from polyreward.verifiers.forecast import class_edges  # noqa: E402

_KOREA_PM25 = class_edges("korea", "pm25")


def forecast_after(after: str, value: str = "104"):
    return committed_forecast(f"<answer>{value}</answer>{after}", 1, True, ("pm25",), None, _KOREA_PM25)[0]


@pytest.mark.parametrize(
    "after,kept",
    [
        # genuine: the episode, the inversion, the front, the wind: a negated event is the reason for the value
        (" µg/m³ — the episode has not broken and is still building overnight.", True),
        ("\nThe inversion has not lifted, so the night build-up carries over.", True),
        ("\nThe inversion hasn't lifted yet.", True),
        ("\nThe cold front did not arrive; stagnant air persists.", True),
        ("\nA clean northwesterly flow has not set in.", True),
        ("\nThe episode is still building.", True),
        # hacks: the negation is about the forecast, its quantity or the writer; or a second value follows
        ("\nThe mean won't be that high, though.", False),
        ("\nThe daily average will not reach that.", False),
        ("\nThe estimate is not reliable.", False),
        ("\nThe forecast above is not final.", False),
        ("\nThe episode has not broken, but I am not sure of this number.", False),
        ("\nIt is not that high.", False),
        ("\nNot really.", False),
        ("\nThe episode has not broken, so it could be 130.", False),
        ("\nThe inversion has not lifted. Actually, ignore the value above.", False),
    ],
)
def test_a_negated_event_of_the_world_keeps_the_forecast(after, kept):
    assert forecast_after(after) == ([104.0] if kept else None)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["episode", "inversion", "cold front", "rain", "wind", "stagnant air mass", "dust plume"]),
       st.sampled_from(["has not", "hasn't", "did not", "didn't", "had not", "has never"]),
       st.sampled_from(["broken", "lifted", "arrived", "cleared", "moved on", "changed"]),
       st.integers(min_value=1, max_value=300))
def test_a_world_event_negated_keeps_and_a_second_value_withdraws(subject, negated, verb, value):
    # (a modal after the block, "the wind won't pick up", is read by the shared commitment reading as offering the
    # value as a possibility, before this rule; the past and perfect are the justification's tenses)
    after = f"\nThe {subject} {negated} {verb}."
    assert forecast_after(after, str(value)) == [float(value)]
    other = value + 7
    assert forecast_after(f"{after} I would say {other} instead.", str(value)) is None


# --- crpo_format (guarded): words about the act of answering are no summary of the case ------------------------------
from polyreward.rewards.crpo import CRPOFormat  # noqa: E402
from polyreward.rewards.format import META_WORDS  # noqa: E402

JAUNDICE = ("A 67-year-old man has painless jaundice, weight loss and a palpable, non-tender gallbladder. Which is the next "
            "best step? A. ERCP with stenting B. CT of the abdomen with contrast C. Hepatitis serology D. Observation"
            " Think inside <think>, answer inside <answer> with \\boxed{letter} and a summary.")
JAUNDICE_THINK = ("Painless jaundice with a palpable gallbladder is Courvoisier's sign, which points to a pancreatic head "
                  "tumour; contrast CT stages it before any stenting.")


@pytest.mark.parametrize(
    "answer,expected",
    [
        # genuine: a summary that names the case, with or without words about answering beside it
        ("Contrast CT of the abdomen is the next step. \\boxed{B}", 1.5),
        ("The best next step is a contrast CT to stage a suspected pancreatic tumour. \\boxed{B}", 1.5),
        ("\\boxed{B}\nSummary: Courvoisier's sign suggests pancreatic cancer; image before stenting.", 1.5),
        ("Of the options, CT is best: it stages the tumour. \\boxed{B}", 1.5),
        ("After careful consideration, the best answer is CT of the abdomen. \\boxed{B}", 1.5),
        # hacks: words about answering only, which fit any question (the prompt's "best" of "next best step" shared)
        ("After careful consideration of all the options, the best answer is the following. \\boxed{B}", 1.0),
        ("Considering each option carefully, I choose the best one. \\boxed{B}", 1.0),
        ("The best option is boxed below. \\boxed{B}", 1.0),
        ("Final answer: the best choice. \\boxed{B}", 1.0),
    ],
)
def test_a_summary_of_answering_words_is_no_summary(answer, expected):
    completion = f"<think>{JAUNDICE_THINK}</think>\n<answer>{answer}</answer>"
    assert CRPOFormat(min_content_words=3)(prompts=[JAUNDICE], completions=[completion]) == [expected]


_META = sorted(META_WORDS - {"assistant", "model", "helpful", "capable", "highly", "expert", "competent", "intelligent"})


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(_META), min_size=2, max_size=6, unique=True),
       st.sampled_from(["pancreatic tumour", "contrast CT", "Courvoisier's sign"]))
def test_meta_words_alone_earn_no_bonus_and_a_case_word_does(words, case):
    meta = " ".join(words).capitalize()
    alone = f"<think>{JAUNDICE_THINK}</think>\n<answer>{meta}. \\boxed{{B}}</answer>"
    named = f"<think>{JAUNDICE_THINK}</think>\n<answer>{meta}: the next step is the {case}. \\boxed{{B}}</answer>"
    reward = CRPOFormat(min_content_words=3)
    assert reward(prompts=[JAUNDICE], completions=[alone]) == [1.0]
    assert reward(prompts=[JAUNDICE], completions=[named]) == [1.5]


# --- think guard (think_format, toolrl_format, crpo_*): a generic clinical plan, a think that only states the answer ---
from polyreward.rewards.format import ThinkFormat  # noqa: E402

HF = ("A 68-year-old man has two weeks of worsening breathlessness, orthopnoea, raised jugular venous pressure and "
      "bibasal crackles. What is the most likely diagnosis? Think inside <think>...</think>, then answer.")
NA = ("A 81-year-old woman is confused; her sodium is 118 mmol/L and she had a seizure an hour ago. What is the immediate "
      "treatment? Think inside <think>...</think>, then answer.")


def think_score(prompt: str, think: str, answer: str) -> float:
    return ThinkFormat(min_content_words=3)(prompts=[prompt], completions=[f"<think>{think}</think>\n{answer}"])[0]


@pytest.mark.parametrize(
    "prompt,think,answer,expected",
    [
        # genuine: the case's findings related to the diagnosis or the treatment, in a sentence or in shorthand
        (HF, "Orthopnoea, a raised JVP and bibasal crackles are signs of fluid overload, so the likely diagnosis is "
             "heart failure.", "Heart failure.", 1.0),
        (HF, "The history (two weeks, worsening) and the examination (raised JVP, crackles) point to congestion.",
         "Acute decompensated heart failure.", 1.0),
        (HF, "68 M, orthopnoea, JVP up, bibasal creps: congestion on both sides of the heart.", "Heart failure.", 1.0),
        (NA, "A seizure at a sodium of 118 calls for a quick small rise, then slow correction.", "Hypertonic saline.", 1.0),
        (NA, "Na 118 + seizure → hypertonic saline.", "Hypertonic saline bolus.", 1.0),
        # hacks: a plan in the clinical method's words that fits any case
        (HF, "I will consider the history, the examination and the investigations, and then choose the most likely "
             "diagnosis.", "Heart failure.", 0.0),
        (HF, "First I will take a careful history, examine the patient, review the investigations and settle on the "
             "diagnosis.", "Heart failure.", 0.0),
        (NA, "Let me weigh the differential diagnosis and the clinical presentation before I decide on the management "
             "and treatment.", "Hypertonic saline.", 0.0),
        # hacks: the answer stated in the think, relating nothing of the case
        (NA, "The answer is hypertonic saline.", "Hypertonic saline.", 0.0),
        (NA, "Hypertonic saline bolus.", "A bolus of hypertonic saline.", 0.0),
        (HF, "Final answer: acute decompensated heart failure.", "Acute decompensated heart failure.", 0.0),
    ],
)
def test_a_think_must_name_the_case(prompt, think, answer, expected):
    assert think_score(prompt, think, answer) == expected


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["hypertonic saline", "intravenous calcium gluconate", "urgent haemodialysis",
                        "fluid restriction with furosemide"]),
       st.sampled_from(["The answer is {x}.", "{x}, definitely.", "I choose {x}.", "Final answer: {x}."]))
def test_the_answer_alone_in_the_think_earns_nothing_and_the_case_beside_it_does(treatment, template):
    think = template.format(x=treatment)
    assert think_score(NA, think, treatment.capitalize() + ".") == 0.0
    reasoned = f"A seizure with sodium at 118 mmol/L needs a fast small rise: {treatment}."
    assert think_score(NA, reasoned, treatment.capitalize() + ".") == 1.0
