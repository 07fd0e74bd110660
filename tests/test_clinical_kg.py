"""kg_triplet_consistency (CheXPO-v2) with the offline extractor: extraction table, hand-computed scores,
RadGraph-style F1, pluggable extractors and agreement with radlabels' labels on its 1,000 real reports."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.kg_triplet import KGTripletConsistency, radgraph_f1, set_jaccard
from polyreward.verifiers.radiology_kg import ReportKG, extract_kg, sentences
from polyreward.runners.packaged_datasets import package_dir

P, N = "disorder_present", "disorder_notpresent"

EXTRACTION = [
    ("Small left pleural effusion.", {("pleural effusion", P), ("small", "size"), ("left", "anatomy")},
     {("pleural effusion", "left", "located_at"), ("small", "pleural effusion", "modify")}),
    ("No pleural effusion, pneumothorax, or consolidation.",
     {("pleural effusion", N), ("pneumothorax", N), ("consolidation", N)}, set()),
    ("No change in the pleural effusion.", {("pleural effusion", P)}, set()),  # pseudo-negation
    ("Pneumothorax has resolved.", {("pneumothorax", N)}, set()),  # post-negation
    # resolution said as clearing (red team holdout_r8): the finding before it is gone; "clear lungs" is no cue
    ("The pleural effusion seen previously has since cleared.", {("pleural effusion", N)}, set()),
    ("Pneumothorax has cleared.", {("pneumothorax", N)}, set()),
    ("The lungs are clear with a small pleural effusion.", {("pleural effusion", P), ("lung", "anatomy"), ("small", "size")},
     {("pleural effusion", "lung", "located_at"), ("small", "pleural effusion", "modify")}),
    ("No pneumothorax but there is a small effusion.", {("pneumothorax", N), ("pleural effusion", P), ("small", "size")},
     {("small", "pleural effusion", "modify")}),  # "but" ends the negation scope
    ("The endotracheal tube has been removed.", {("endotracheal tube", "devices_notpresent")}, set()),
    ("ET tube in place.", {("endotracheal tube", "devices_present")}, set()),
    ("Pericardial effusion is present.", set(), set()),  # radlabels' exclude phrase blocks "effusion"
    ("The heart is mildly enlarged.", {("cardiomegaly", P)}, set()),  # synonym -> canonical finding
    ("There is cardiomegaly.", {("cardiomegaly", P)}, set()),
    ("Cardiomegaly.", set(), set()),  # a one-token sentence is skipped (ReXKG)
    ("Opacity in the right lower lobe likely due to pneumonia.",
     {("lung opacity", P), ("pneumonia", P), ("right lower lobe", "anatomy")},
     {("lung opacity", "pneumonia", "suggestive_of"), ("lung opacity", "right lower lobe", "located_at"),
      ("pneumonia", "right lower lobe", "located_at")}),
    ("No evidence of pneumonia; small right effusion is unchanged.",
     {("pneumonia", N), ("pleural effusion", P), ("right", "anatomy"), ("small", "size"), ("unchanged", "concept")},
     {("pleural effusion", "right", "located_at"), ("small", "pleural effusion", "modify"), ("unchanged", "pleural effusion", "modify")}),
    ("There are bilateral pleural effusions.", {("pleural effusion", P), ("bilateral", "anatomy")},
     {("pleural effusion", "bilateral", "located_at")}),
    ("Pneumothorax cannot be excluded.", {("pneumothorax", P)}, set()),  # uncertain -> present by default
    ("", set(), set()),
    # a denial of a denial states nothing: neither the negative finding it wraps nor its positive
    ("This is never no pneumothorax.", set(), set()),
    ("It is not true that there is no pneumothorax.", set(), set()),
    ("Not no effusion or pneumothorax.", set(), set()),
    ("It is anything but no pneumothorax.", set(), set()),
    ("This is never pneumothorax.", {("pneumothorax", N)}, set()),  # a single denial, "never"
    # ... while a list of denials, or two denials a comma or a finding apart, are denials each
    ("No effusion, no pneumothorax.", {("pleural effusion", N), ("pneumothorax", N)}, set()),
    ("No pleural effusion and no pneumothorax.", {("pleural effusion", N), ("pneumothorax", N)}, set()),
    ("Lungs are not hyperinflated, no pneumothorax.", {("hyperinflation", N), ("lung", "anatomy"), ("pneumothorax", N)},
     {("hyperinflation", "lung", "located_at"), ("pneumothorax", "lung", "located_at")}),
    ("No change in the effusion, no pneumothorax.", {("pleural effusion", P), ("pneumothorax", N)}, set()),
]


@pytest.mark.parametrize("text,entities,triplets", EXTRACTION)
def test_extraction_table(text, entities, triplets):
    kg = extract_kg(text)
    assert set(kg.entities) == entities
    assert set(kg.triplets) == triplets


@pytest.mark.parametrize("uncertain_as,label", [("present", P), ("notpresent", N), ("uncertain", "disorder_uncertain")])
def test_uncertainty_policy(uncertain_as, label):
    assert set(extract_kg("Possible pneumonia.", uncertain_as).entities) == {("pneumonia", label)}


def test_sentence_split_keeps_decimals():
    assert sentences("The tube is 2.5 cm above the carina. Ok") == [["the", "tube", "is", "2.5", "cm", "above", "the", "carina"]]


def test_graph_is_networkx():
    kg = extract_kg("Small left pleural effusion.")
    graph = kg.graph
    assert graph.nodes["pleural effusion"]["label"] == P
    assert graph.has_edge("pleural effusion", "left", key="located_at")
    assert graph.number_of_edges() == 2


REF = "Small left pleural effusion."
SCORES = [
    (REF, REF, 1.0),
    ("No pleural effusion.", REF, 0.0),  # negated finding: different label, and no shared triplet
    ("Lungs are clear.", "The lungs are clear.", 1.0),  # same entity, both triplet sets empty -> J_R = 1
    ("", "", 1.0),  # both KGs empty
    ("The heart is mildly enlarged.", "There is cardiomegaly.", 1.0),
    # E_p has 5 entities, 3 shared -> 3/5; R_p has 3 triplets, 2 shared -> 2/3; (0.6 + 2/3) / 2
    ("Small left pleural effusion. There is a large pneumothorax.", REF, (0.6 + 2 / 3) / 2),
    ("Lungs are clear.", REF, 0.5 * (0 / 4) + 0.5 * (0 / 2)),
    ("", REF, 0.0),
    # reference KG comes from its <think> span; the prediction's from the whole completion
    ("No pleural effusion.", "<think>No pleural effusion.</think><answer>normal</answer>", 1.0),
    ("<think>No pleural effusion.</think><answer>Small left pleural effusion.</answer>", REF, 1.0),
    # the whole completion is judged and the last mention's label wins (ReXKG's dict): effusion ends negated,
    # E_p ∩ E_g = {small, left} of 4 -> 0.5; both triplets still extracted from the first sentence -> 1
    ("<think>Small left pleural effusion.</think><answer>No pleural effusion.</answer>", REF, (2 / 4 + 1.0) / 2),
]


@pytest.mark.parametrize("completion,reference,expected", SCORES)
def test_score_table(completion, reference, expected):
    out = KGTripletConsistency().evaluate([None], [completion], answer=[reference])
    assert out.scores[0] == pytest.approx(expected)


def test_hallucination_and_radgraph_details():
    out = KGTripletConsistency().evaluate([None], ["Small left pleural effusion. There is a large pneumothorax."], answer=[REF])
    d = {k: v[0] for k, v in out.details.items()}
    assert d["hallucinated_entities"] == 2.0 and d["hallucination_rate"] == pytest.approx(0.4)
    # simple: P = 3/5, R = 1 -> F1 = 0.75; partial and complete agree here
    for level in ("radgraph_simple", "radgraph_partial", "radgraph_complete"):
        assert d[level] == pytest.approx(0.75, abs=1e-8)
    assert "2 hallucinated, 0 missed" in out.reasons[0]


def test_radgraph_levels_differ():
    ref = ReportKG(frozenset({("effusion", P), ("left", "anatomy")}), frozenset({("effusion", "left", "located_at")}))
    hyp = ReportKG(frozenset({("effusion", P), ("left", "anatomy")}), frozenset({("effusion", "right", "located_at")}))
    f = radgraph_f1(hyp, ref)
    assert f["radgraph_simple"] == pytest.approx(1.0, abs=1e-8)
    assert f["radgraph_partial"] == pytest.approx(1.0, abs=1e-8)  # both have "effusion has a relation"
    assert f["radgraph_complete"] == pytest.approx(0.5, abs=1e-8)  # wrong target: 1 of 2 elements
    assert radgraph_f1(ReportKG(), ref) == {"radgraph_simple": 0.0, "radgraph_partial": 0.0, "radgraph_complete": 0.0}
    assert set_jaccard([], []) == 1.0 and set_jaccard([1], []) == 0.0


def fixed_kg(text: str):
    """A toy extractor passed as a Python callable: one anatomy entity when the text contains "x"."""
    return ([("x", "anatomy")] if "x" in text else []), []


def test_pluggable_extractors():
    reward = KGTripletConsistency(extractor=fixed_kg)
    # "y": no entity vs one (J_E = 0), no triplet on either side (J_R = 1) -> 0.5
    assert reward.evaluate([None, None], ["x", "y"], answer=["x", "x"]).scores == [1.0, 0.5]
    by_path = KGTripletConsistency(extractor="polyreward.verifiers.radiology_kg:extract_kg")
    assert by_path.evaluate([None], [REF], answer=[REF]).scores == [1.0]
    with pytest.raises(ValueError, match="extractor"):
        KGTripletConsistency(extractor="no_such_module:fn")
    with pytest.raises(ValueError, match="extractor"):
        KGTripletConsistency(extractor="/no/such/model/dir")
    with pytest.raises(ValueError, match="uncertain_as"):
        KGTripletConsistency(uncertain_as="maybe")
    pickle.loads(pickle.dumps(KGTripletConsistency()))


@pytest.mark.slow
def test_local_token_classification_model(tmp_path, tiny_qwen2_dir):
    """A local (random) token-classification model folder works as the extractor: entities only, no hub."""
    from transformers import AutoTokenizer, Qwen2Config, Qwen2ForTokenClassification

    labels = ["O", "ANAT-DP", "OBS-DP"]
    config = Qwen2Config.from_pretrained(tiny_qwen2_dir, num_labels=3, id2label=dict(enumerate(labels)), label2id={l: i for i, l in enumerate(labels)})
    Qwen2ForTokenClassification(config).save_pretrained(tmp_path)
    AutoTokenizer.from_pretrained(tiny_qwen2_dir).save_pretrained(tmp_path)
    reward = KGTripletConsistency(extractor=str(tmp_path))
    out = reward.evaluate([None, None], [REF, "No pleural effusion."], answer=[REF, REF])
    assert out.scores[0] == 1.0  # same text -> same entities, no relations on either side
    assert all(0.0 <= s <= 1.0 for s in out.scores)
    pickle.loads(pickle.dumps(reward))


def test_real_radlabels_agreement():
    """On radlabels' 1,000 synthetic reports the extractor recovers most 'definitely present' findings and
    most 'definitely absent' ones as not-present (measured: ~76 % / ~90 %; the floor guards regressions)."""
    root = package_dir("radlabels") / "samples"
    labels = json.loads((root / "synthetic_labels.json").read_text())
    lexicon = json.loads((Path(__file__).parents[1] / "src" / "polyreward" / "verifiers" / "data" / "radiology_lexicon.json").read_text())
    name = {spec["radlabels_key"]: display for display, spec in lexicon["findings"].items()}
    found = total = neg_found = neg_total = 0
    for report_id, status in labels.items():
        entities = dict(extract_kg((root / "synthetic_reports" / f"{report_id}.txt").read_text()).entities)
        for key, value in status.items():
            label = entities.get(name[key], "")
            if value == "definitely present":
                total += 1
                found += label.endswith("_present")
            elif value == "definitely absent":
                neg_total += 1
                neg_found += label.endswith("notpresent")
    assert total == 4442 and neg_total == 461
    assert found / total > 0.72
    assert neg_found / neg_total > 0.85


# The report a reader sees: look-alike letters, hidden text, retractions (module docstring, Reading).
PNEUMO = "There is a small left pleural effusion. No pneumothorax."
READING = [
    (PNEUMO, {}, 1.0),
    ("<think>Checking the film.</think>\n" + PNEUMO, {}, 1.0),
    (PNEUMO + " Wait, let me double-check this once more.", {}, 1.0),  # a pause with no finding after it
    ("There is a small left pleural effusion. \u039d\u03bf pneum\u03bfth\u03bfrax.", {}, 1.0),  # Greek look-alikes read
    ("There is a large right pneumothorax.\n" + PNEUMO + " That is wrong; there is a large right pneumothorax.", {}, 0.0),
    (PNEUMO + " Scratch that.", {"min_content_words": 1}, 0.0),  # taken back, nothing after it
    ("Heart size is normal, after correction for rotation. " + PNEUMO, {}, None),  # not cut at "correction"
    ("There is a large right pneumothorax. Wait, this is incorrect; the answer is " + PNEUMO, {}, 1.0),
    ("There is a small left pleural effusion.\n<!-- Large right pneumothorax. -->\nNo pneumothorax.", {}, 1.0),
    ("There is a small left pleural effusion.\n> No pneumothorax.", {}, 0.5),  # a quoted line is not the report
    # a report wrapped in a denial of itself (probe negate family): no report, or without the denied sentence
    ("This is never No pneumothorax.", {"min_content_words": 1}, 0.0),  # the one-sentence negative report denied
    ("The answer is not " + PNEUMO, {"min_content_words": 1}, 0.0),
    ("The result is definitely not " + PNEUMO, {"min_content_words": 1}, 0.0),
    ("It is anything but 1. There is a small left pleural effusion. 2. No pneumothorax.", {"min_content_words": 1}, 0.0),
    ("<think>Small left effusion, no pneumothorax.</think>It is not " + PNEUMO, {"min_content_words": 1}, 0.0),
    (PNEUMO + " is not the answer.", {"min_content_words": 1}, 0.0),
    (PNEUMO + " ? Wrong.", {"min_content_words": 1}, 0.0),
    (PNEUMO + " -- that's false.", {"min_content_words": 1}, 0.0),
    ("There is a small left pleural effusion. No pneumothorax cannot be right. pad_pad_pad", {"min_content_words": 1}, 0.0),
    ("There is a small left pleural effusion. It is not Large pneumothorax on the right. No pneumothorax.", {}, 1.0),
    # genuine reports that deny a finding, not themselves, are read whole
    ("It is not a pneumothorax but a skin fold. There is a small left pleural effusion.", {}, 1.0),
    ("This is not significantly changed. There is a small left pleural effusion. No pneumothorax.", {}, 1.0),
    ("1. There is a small left pleural effusion.\n2. No pneumothorax.", {}, 1.0),
    ("There is a small left pleural effusion, although pneumothorax cannot be\n excluded.", {}, None),  # a hard wrap
]


@pytest.mark.parametrize("completion,kwargs,expected", READING)
def test_report_is_read_as_a_reader_sees_it(completion, kwargs, expected):
    reference = completion if expected is None else PNEUMO
    score = KGTripletConsistency(**kwargs).evaluate([None], [completion], answer=[reference]).scores[0]
    if expected is None:
        assert score == 1.0  # the whole report read: it matches itself
    elif expected in (0.0, 1.0):
        assert score == pytest.approx(expected)
    else:
        assert score < 1.0


def test_contradictions_keep_both_labels():
    contradicting = "No pneumothorax. There is a small left pleural effusion. Small right pneumothorax."
    reference = "There is a small left pleural effusion. Small right pneumothorax."
    assert KGTripletConsistency().evaluate([None], [contradicting], answer=[reference]).scores[0] == 1.0  # ReXKG's dict
    kept = KGTripletConsistency(contradictions="keep").evaluate([None], [contradicting], answer=[reference]).scores[0]
    assert kept < 1.0
    consistent = KGTripletConsistency(contradictions="keep").evaluate([None], [reference], answer=[reference]).scores[0]
    assert consistent == 1.0
    with pytest.raises(ValueError, match="contradictions"):
        KGTripletConsistency(contradictions="both")


@pytest.mark.parametrize("reference", ["Partially visualized is", "Report unavailable."])
def test_empty_reference_graph_is_skipped_when_asked(reference):
    assert KGTripletConsistency().evaluate([None], [" is not the answer."], answer=[reference]).scores[0] == 1.0  # source
    for completion in (" is not the answer.", "No pneumothorax."):
        skipped = KGTripletConsistency(empty_reference="skip").evaluate([None], [completion], answer=[reference])
        assert (skipped.scores[0] is None or math.isnan(skipped.scores[0])) and "reference graph is empty" in skipped.reasons[0]
    assert KGTripletConsistency(empty_reference="skip").evaluate([None], [PNEUMO], answer=[PNEUMO]).scores[0] == 1.0


def test_shipped_example_turns_the_guards_on():
    import yaml

    config = yaml.safe_load((Path(__file__).parents[1] / "examples/kg/config.yaml").read_text())
    for reward in config["rewards"]:
        assert reward["empty_reference"] == "skip" and reward["contradictions"] == "keep"


@given(st.text(max_size=200))
@settings(max_examples=100, deadline=None)
def test_reading_never_raises_and_stays_in_range(text):
    score = KGTripletConsistency(contradictions="keep").evaluate([None], [text], answer=[PNEUMO]).scores[0]
    assert 0.0 <= score <= 1.0


@given(st.text(alphabet="It is not never no Call 1. FINAL REPORT cannot be right wrong? .\n-:", max_size=300))
@settings(max_examples=200, deadline=None)
def test_denied_spans_are_sentences_of_the_text(text):
    """The self-denying sentences (verifiers/denial.py) are ordered, disjoint spans of the text, and leaving them out
    keeps every other character."""
    from polyreward.verifiers.denial import denied_spans, sentence_spans, without_denied

    spans, sentences = denied_spans(text), sentence_spans(text)
    assert all(0 <= a < b <= len(text) for a, b in spans) and all(b1 <= a2 for (_, b1), (a2, _) in zip(spans, spans[1:]))
    assert set(spans) <= set(sentences) and "".join(text[a:b] for a, b in sentences) == text
    assert len(without_denied(text)) == len(text) - sum(b - a for a, b in spans) + len(spans)


# red team holdout_r1: a report that denies all it said, or only asks, states no finding
_KG_REF = "The heart is enlarged. There is a small left pleural effusion. No pneumothorax."


@pytest.mark.parametrize(
    "completion,expected",
    [
        (_KG_REF + " None of the above findings are actually present.", 0.0),
        ("Is the heart enlarged? Is there a small left pleural effusion? Is there no pneumothorax?", 0.0),
        (_KG_REF + " Nothing acute is present.", 1.0),  # names nothing before it: takes nothing back
        ("FINDINGS: " + _KG_REF, 1.0),
        (_KG_REF + " Any change from prior? None.", 1.0),
    ],
)
def test_report_denied_or_asked(completion, expected):
    reward = KGTripletConsistency(min_content_words=1, contradictions="keep")
    assert reward(completions=[completion], answer=[_KG_REF]) == [pytest.approx(expected)]
