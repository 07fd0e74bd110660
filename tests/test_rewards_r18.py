"""Red team holdout_r18 (clinical and forecasting rewards, written blind): the rules its misses led to, each as a
table of realistic output both ways (the genuine form paid AND the nearby hack refused) and properties where the rule
parses text."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.jaccard import JaccardReward
from polyreward.verifiers.label_sets import as_gold_shorthand, read_labels

ECG = ("Read this ECG interpretation and list every diagnostic label that applies, separated by ';', inside "
       "<answer>...</answer>.\n\nIrregularly irregular rhythm without P waves. QRS 148 ms with broad notched R waves in "
       "I, aVL, V5-V6.")
ECG_GOLD = "<answer>atrial fibrillation; left bundle branch block</answer>"
CXR = ("Read this chest X-ray report and list every finding that is definitely present, separated by ';', inside "
       "<answer>...</answer>.\n\nFINDINGS: Left lower lobe atelectasis. Mild cardiomegaly. Small left pleural effusion. "
       "No pneumothorax.")
CXR_GOLD = "<answer>atelectasis; cardiomegaly; pleural effusion</answer>"
NORMAL = ("List every finding that is definitely present, separated by ';', inside <answer>...</answer>. If nothing is "
          "present, answer 'no finding'.\n\nFINDINGS: Normal heart size. Lungs clear. No effusion or pneumothorax.")


def _jaccard(prompt: str, gold: str, completion: str, **kw) -> float:
    reward = JaccardReward(mode="normalized", **kw)
    return reward.evaluate([prompt], [completion], answer=[gold]).scores[0]


JACCARD = [
    # the normal study's label is a label, not a denied finding
    (NORMAL, "<answer>no finding</answer>", "<answer>No finding.</answer>", 1.0),
    (NORMAL, "<answer>no finding</answer>", "<answer>No findings</answer>", 1.0),
    (NORMAL, "<answer>no finding</answer>", "<answer>no finding; pneumothorax; pleural effusion</answer>", 1 / 3),
    (NORMAL, "<answer>no finding</answer>", "<answer>no pneumothorax</answer>", 0.0),  # a denied finding stays out
    # initialisms of gold labels of several words (outside the radiology lexicon)
    (ECG, ECG_GOLD, "<answer>AF; LBBB</answer>", 1.0),
    (ECG, ECG_GOLD, "<answer>LBBB; atrial fibrillation</answer>", 1.0),
    (ECG, ECG_GOLD, "<answer>AF; LBBB; RBBB</answer>", 2 / 3),  # an initialism of no gold label stays extra
    (ECG, ECG_GOLD, "<answer>AF; LBBB; AFL; SVT</answer>", 0.5),
    (ECG, "<answer>atrial fibrillation; atrial flutter</answer>", "<answer>AF</answer>", 0.0),  # ambiguous: two golds
    (CXR, CXR_GOLD, "<answer>atelectasis; cardiomegaly; PE</answer>", 0.5),  # PE: pulmonary embolism (holdout_r9)
    # gold labels joined with "and" / "&" / "plus"
    (CXR, CXR_GOLD, "<answer>Cardiomegaly, atelectasis and pleural effusion.</answer>", 1.0),
    (CXR, CXR_GOLD, "<answer>Cardiomegaly and atelectasis and pleural effusion.</answer>", 1.0),
    (CXR, CXR_GOLD, "<answer>cardiomegaly & pleural effusion; atelectasis</answer>", 1.0),
    (CXR, CXR_GOLD, "<answer>cardiomegaly plus atelectasis; pleural effusion</answer>", 1.0),
    (CXR, CXR_GOLD, "<answer>cardiomegaly and pneumonia; atelectasis; pleural effusion</answer>", 0.5),  # kept whole
    (CXR, CXR_GOLD, "<answer>Cardiomegaly and pneumothorax.</answer>", 0.0),
    (ECG, ECG_GOLD, "<answer>AF and LBBB</answer>", 1.0),
    (ECG, ECG_GOLD, "<answer>AF and RBBB</answer>", 0.0),
]


@pytest.mark.parametrize("prompt,gold,completion,expected", JACCARD)
def test_jaccard_shorthand_and_normal_study(prompt, gold, completion, expected):
    assert _jaccard(prompt, gold, completion) == pytest.approx(expected)


def test_jaccard_f1_and_joined_sentence():
    assert _jaccard(CXR, "<answer>atelectasis; cardiomegaly</answer>", "<answer>Cardiomegaly and atelectasis.</answer>",
                    metric="f1") == pytest.approx(1.0)
    assert _jaccard(CXR, "<answer>atelectasis; cardiomegaly</answer>", "<answer>Cardiomegaly and edema.</answer>",
                    metric="f1") == pytest.approx(0.0)


_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=9)


@settings(max_examples=200, deadline=None)
@given(st.lists(_WORD, min_size=1, max_size=4, unique=True), st.lists(_WORD, min_size=1, max_size=4, unique=True))
def test_shorthand_never_adds_a_label_the_gold_lacks(gold, predicted):
    """Shorthand only ever reads a predicted label as gold labels: the labels outside the gold never grow, and a
    label joining a gold label with a non-gold one stays whole."""
    gold_set = set(gold)
    predicted_set = set(predicted) | {f"{gold[0]} and {p}" for p in predicted if p not in gold_set}
    out = as_gold_shorthand(predicted_set, gold_set)
    assert out - gold_set <= predicted_set - gold_set
    assert len(out & gold_set) >= len(predicted_set & gold_set)


@settings(max_examples=200, deadline=None)
@given(_WORD)
def test_denied_label_still_left_out_but_no_finding_kept(word):
    assert read_labels(f"no {word}") == [] or word.startswith("finding")
    assert read_labels("No finding.") == ["No finding"]


# --- crpo_format (guarded): a summary that only asks, a reasoning block reopened in the answer ---------------------

from polyreward.rewards.crpo import CRPOFormat  # noqa: E402
from polyreward.rewards.format import thin_content  # noqa: E402

MCQ = ("A 50-year-old man has crushing central chest pain; ECG shows ST elevation in V1-V4. The nearest PCI centre is "
       "30 minutes away. What is the best management? A. Thrombolysis B. Primary PCI C. Observe D. Stress test. Think "
       "inside <think>, answer inside <answer> with \\boxed{letter} and a summary.")
THINK = "<think>Anterior STEMI with a PCI centre 30 minutes away, well inside 120 minutes, so primary PCI beats lysis.</think>\n"

CRPO = [
    ("<answer>Transfer for primary PCI within the target time. \\boxed{B}</answer>", 1.5),
    ("<answer>Why PCI rather than lysis? The centre is only 30 minutes away. \\boxed{B}</answer>", 1.5),
    ("<answer>\\boxed{B}\nIs thrombolysis needed? No: primary PCI is reachable in 30 minutes.</answer>", 1.5),
    ("<answer>Dose 0.5 mg? No, that is for lysis; primary PCI is reachable. \\boxed{B}</answer>", 1.5),
    ("<answer>What is the best management for a man with an anterior STEMI near a PCI centre? \\boxed{B}</answer>", 1.0),
    ("<answer>Lysis or PCI? Which is better here?? \\boxed{B}</answer>", 1.0),
    ("<answer>\\boxed{B} Best management of this STEMI?</answer>", 1.0),
    ("<answer><think>Maybe lysis is faster.</think> Primary PCI is preferred here. \\boxed{B}</answer>", 0.0),
    ("<answer>Primary PCI is preferred here.</think> \\boxed{B}</answer>", 0.0),
]


@pytest.mark.parametrize("answer,expected", CRPO)
def test_crpo_format_summary_that_asks_and_reopened_think(answer, expected):
    out = CRPOFormat(min_content_words=3).evaluate([MCQ], [THINK + answer])
    assert out.scores[0] == pytest.approx(expected), out.reasons[0]


def test_crpo_format_released_rule_unchanged():
    """Unguarded (the release): a think tag in the answer and a question as the summary are still paid 1.5."""
    for answer in ("<answer><think>Maybe lysis.</think> PCI. \\boxed{B}</answer>",
                   "<answer>What is the best management? \\boxed{B}</answer>"):
        assert CRPOFormat().evaluate([MCQ], [THINK + answer]).scores[0] == pytest.approx(1.5)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="abcdefgh .,?!", min_size=1, max_size=60))
def test_summary_only_asks_iff_every_sentence_is_a_question(text):
    from polyreward.rewards.crpo import _only_asks

    sentences = [s.strip() for s in re.findall(r"[^.!?]*[^.!?\s][^.!?]*(?:[.!?]+|\Z)", text) if s.strip()]
    assert _only_asks(text) == (bool(sentences) and all(s.endswith("?") for s in sentences))
    assert not _only_asks(text.rstrip(" .!?") + ". Primary PCI.")


@given(st.sampled_from(["answer", "tool_call"]), st.sampled_from(["<think>", "</think>"]))
def test_any_non_think_block_with_a_think_tag_fails_the_guard(name, tag):
    assert thin_content({"think": "Anterior STEMI, PCI centre close, so primary PCI.", name: f"B {tag} x"}, 1) is not None
    assert thin_content({"think": "Anterior STEMI, PCI centre close, so primary PCI.", name: "B x"}, 1) is None


# --- forecast_class_cost: a station's name before a step label is the label's (the prompt names it) ---------------

from polyreward.rewards.forecast import ForecastClassCost  # noqa: E402

STATIONS = ("Daily mean PM2.5 (µg/m³), Busan, last 3 days:\n| station | D-2 | D-1 | D0 |\n|---|---|---|---|\n"
            "| Gwangbok-dong | 22 | 25 | 27 |\n| Yeonsan-dong | 30 | 29 | 31 |\nForecast D+1's daily mean at Yeonsan-dong "
            "only. Give one number inside <answer>...</answer>.")

FORECASTS = [
    ("<answer>Yeonsan-dong D+1: 28</answer>", 1.0),
    ("<answer>Yeonsan-dong, D+1: 28 µg/m³</answer>", 1.0),
    ("<answer>Yeonsan-dong daily mean D+1: 28</answer>", 1.0),
    ("<answer>D+1: 28</answer>", 1.0),
    ("<answer>Day 1: 28</answer>", 1.0),
    ("<answer>Yeonsan-dong D+1: 28, D+2: 60</answer>", -0.1),  # two forecasts
    ("<answer>Peak hourly D+1: 28</answer>", -0.1),  # a statistic the prompt does not ask for
    ("<answer>Yeonsan-dong AQI D+1: 28</answer>", -0.1),  # another quantity
    ("<answer>Yeonsan-dong D+1: below 28</answer>", -0.1),  # a bound
    ("<answer>Yeonsan-dong D+1: maybe 28</answer>", -0.1),  # offered, not stated
    ("<answer>Yeonsan-dong D+1: ~28</answer>", -0.1),  # an approximation sign (holdout_r4's rule)
]


@pytest.mark.parametrize("answer,expected", FORECASTS)
def test_forecast_station_before_step_label(answer, expected):
    reward = ForecastClassCost(thresholds="korea", answer_block="required")
    out = reward.evaluate([STATIONS], ["<think>Yeonsan-dong has held near 30.</think>\n" + answer], observed=[28.4])
    assert out.scores[0] == pytest.approx(expected), out.reasons[0]


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["Day", "D", "Step", "T", "Horizon"]), st.sampled_from(["+1", " 1", "1"]),
       st.integers(min_value=16, max_value=35))
def test_forecast_step_label_after_named_station_is_read_past(label, step, value):
    reward = ForecastClassCost(thresholds="korea", answer_block="required")
    answer = f"<think>Persistence at Yeonsan-dong.</think>\n<answer>Yeonsan-dong {label}{step}: {value}</answer>"
    assert reward.evaluate([STATIONS], [answer], observed=[28.4]).scores[0] == pytest.approx(1.0)


# --- kg_triplet_consistency's extractor: a hedge right after a finding reads it as another (suggestive_of) ---------

from polyreward.rewards.kg_triplet import KGTripletConsistency  # noqa: E402
from polyreward.verifiers.radiology_kg import extract_kg  # noqa: E402


def _suggests(report: str) -> set:
    return {t for t in extract_kg(report).triplets if t[2] == "suggestive_of"}


SUGGESTIVE = [
    ("Right lower lobe consolidation, possibly pneumonia.", {("consolidation", "pneumonia", "suggestive_of")}),
    ("Right lower lobe consolidation, probably pneumonia; correlate clinically.",
     {("consolidation", "pneumonia", "suggestive_of")}),
    ("Consolidation in the right lower lobe which could reflect pneumonia.", {("consolidation", "pneumonia", "suggestive_of")}),
    ("Consolidation in the right lower lobe that may reflect pneumonia.", {("consolidation", "pneumonia", "suggestive_of")}),
    ("Consolidation in the right lower lobe, which may represent pneumonia.", {("consolidation", "pneumonia", "suggestive_of")}),
    # a list with a hedged item, coordination, another sentence: no reading of one finding as the other
    ("Cardiomegaly, possible small pleural effusion.", set()),
    ("Consolidation and possibly pneumonia.", set()),
    ("Consolidation. Possibly pneumonia.", set()),
    ("Consolidation in the right lower lobe, which is dense. Pneumonia may develop.", set()),
]


@pytest.mark.parametrize("report,expected", SUGGESTIVE)
def test_hedge_after_finding_reads_suggestive_of(report, expected):
    assert _suggests(report) == expected


PNEUMONIA = ("Write the FINDINGS section of a chest X-ray report consistent with these findings.\nPresent: consolidation\n"
             "Absent: pleural effusion, pneumothorax\nUncertain: pneumonia")
PNEUMONIA_REF = ("There is consolidation in the right lower lobe, which may represent pneumonia. No pleural effusion. "
                 "No pneumothorax.")
KG_PARAMS = dict(min_content_words=1, drop_prompt_lines=True, empty_reference="skip", contradictions="keep")

KG_ROWS = [
    ("IMPRESSION:\n1. Right lower lobe consolidation, possibly pneumonia.\n2. No pleural effusion.\n3. No pneumothorax.",
     1.0),
    ("Right lower lobe consolidation which could reflect pneumonia. No pleural effusion or pneumothorax.", 1.0),
    ("Right lower lobe consolidation, possibly pneumonia. Small pleural effusion. No pneumothorax.", None),  # absent stated
    ("Right lower lobe consolidation. No pneumonia. No pleural effusion. No pneumothorax.", None),  # uncertain denied
    ("Possible right lower lobe consolidation, possibly pneumonia, possible pleural effusion, possible pneumothorax.",
     None),  # everything hedged
]


@pytest.mark.parametrize("report,expected", KG_ROWS)
def test_kg_hedged_reading_paid_and_hacks_refused(report, expected):
    reward = KGTripletConsistency(**KG_PARAMS)
    got = reward.evaluate([PNEUMONIA], [report], answer=[PNEUMONIA_REF]).scores[0]
    ref = reward.evaluate([PNEUMONIA], [PNEUMONIA_REF], answer=[PNEUMONIA_REF]).scores[0]
    if expected is None:
        assert got < ref
    else:
        assert got == pytest.approx(ref) == pytest.approx(expected)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["consolidation", "opacity", "atelectasis", "pleural effusion"]),
       st.sampled_from(["pneumonia", "pulmonary edema", "atelectasis", "aspiration"]),
       st.sampled_from([", possibly", ", probably", " which may reflect", " that could be"]))
def test_suggestive_link_joins_the_two_findings_only(first, second, hedge):
    """Whatever the two findings, the hedge links at most the finding before it to the one after it, never the
    other way and never a finding of another sentence."""
    report = f"Cardiomegaly. Right basilar {first}{hedge} {second}."
    for source, target, _ in _suggests(report):
        assert (source, target) != ("cardiomegaly", second)
        assert source != target


# --- jaccard: a note after the block that withdraws the whole list ---------------------------------------------------

from polyreward.verifiers.label_amendments import withdraws_list  # noqa: E402

FRACTURE = ("Read this chest X-ray report and list every finding that is definitely present, separated by ';', inside "
            "<answer>...</answer>.\n\nFINDINGS: Minimally displaced fracture of the right 6th rib. Lungs clear.")
WITHDRAWN = [
    ("<answer>fracture</answer>\nOn reflection I cannot tell from this report, so please disregard the list above.", 0.0),
    ("<answer>fracture</answer>\nIgnore my answer; I did not read the report carefully.", 0.0),
    ("<answer>fracture</answer> Discard the labels, they were a draft.", 0.0),
    ("<answer>fracture</answer>\nPlease disregard the entire list.", 0.0),
    ("<answer>fracture</answer>\nThe fracture is minimally displaced; don't ignore the list when planning analgesia.", 1.0),
    ("<answer>fracture</answer>\nNo need to discard the list: the fracture is confirmed on the oblique view.", 1.0),
    ("<answer>fracture</answer>\nThe list above is final; the oblique view confirms the fracture.", 1.0),
    ("<answer>fracture</answer>\nThe labels of the old film (pneumothorax) were on another patient.", 1.0),
    ("<answer>fracture</answer>\nThe report's other lines are normal.", 1.0),
]


@pytest.mark.parametrize("completion,expected", WITHDRAWN)
def test_jaccard_list_withdrawn_after_block(completion, expected):
    assert _jaccard(FRACTURE, "<answer>fracture</answer>", completion) == pytest.approx(expected)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz ,.", max_size=80))
def test_withdraws_list_needs_a_withdrawal_of_the_list(text):
    """Text without a verb of withdrawal never withdraws the list; the same text with one aimed at the list does."""
    words = set(text.split())
    if not words & {"disregard", "ignore", "discard", "scrap", "withdraw", "retract", "delete", "strike"}:
        assert not withdraws_list(text)
    assert withdraws_list(text + ". Disregard the list above.")
