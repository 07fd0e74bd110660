"""kg_triplet_consistency on the report styles real radiologists and models write (issue 32: a guard that refuses a
plain correct answer is a bug). Each rule of the offline extractor is tested both ways: a genuine report in that style
scores what its reference scores (1.0, the same graph), and the nearby hack -- a flipped status, a finding moved to
other anatomy, a negation that does not cover it -- still scores lower. Hypothesis properties check that the text
the rule parses (headers, qualifiers, list order) does not change the graph."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.kg_triplet import KGTripletConsistency
from polyreward.verifiers.radiology_kg import extract_kg

# the red team's params (tests/data/red_team_rewards.jsonl): every guard on
REWARD = KGTripletConsistency(min_content_words=1, drop_prompt_lines=True, empty_reference="skip", contradictions="keep")
SOURCE = KGTripletConsistency()  # the source's rule: last mention wins, no guard


def score(completion: str, reference: str, reward: KGTripletConsistency = REWARD) -> float:
    return reward(completions=[completion], answer=[reference])[0]


def graph(text: str):
    kg = extract_kg(text, keep_conflicts=True)
    return kg.entities, kg.triplets


CARDIO_EFFUSION = "The heart is enlarged. There is a small left pleural effusion. No pneumothorax."
APICAL_PTX = "Small right apical pneumothorax. No pleural effusion."
EDEMA_PLEURA = "There is mild interstitial pulmonary edema. No pleural effusion or pneumothorax."
LLL_CONSOLIDATION = "There is left lower lobe consolidation. No pleural effusion."

# ---------------------------------------------------------------------------------------------------------------------
# Organ-system section headers ("Lungs:", "PLEURA:") name a part of the template, not a place of the finding under them

SECTION_HEADERS_GENUINE = [
    ("Heart: enlarged.\nPleura: small left effusion; no pneumothorax.", CARDIO_EFFUSION),
    ("Heart: enlarged.\nPleura: small left effusion.\nPneumothorax: none.", CARDIO_EFFUSION),
    ("LUNGS: Small right apical pneumothorax.\nPLEURA: No pleural effusion.", APICAL_PTX),
    ("- Lungs: small right apical pneumothorax.\n- Pleura: no pleural effusion.", APICAL_PTX),
    ("FINDINGS:\nHeart: The heart is enlarged.\nPleura: There is a small left pleural effusion. No pneumothorax.",
     CARDIO_EFFUSION),
    ("Lungs and pleura: left lower lobe consolidation. No pleural effusion.", LLL_CONSOLIDATION),
]

SECTION_HEADERS_HACK = [
    # the effusion moved to the other side under the same header
    ("Heart: enlarged.\nPleura: small right effusion; no pneumothorax.", CARDIO_EFFUSION),
    # the status flipped under a header
    ("Heart: enlarged.\nPleura: no effusion. Pneumothorax: small left.", CARDIO_EFFUSION),
    ("LUNGS: No pneumothorax.\nPLEURA: Small right apical pleural effusion.", APICAL_PTX),
    # a header that places the finding is no template header: the lobe is kept, and it is the other lung's
    ("Right lower lobe: consolidation. No pleural effusion.", LLL_CONSOLIDATION),
    # a header over a list the negation does not cover
    ("Pleura: small left effusion.\nLungs: pneumothorax. Heart: enlarged.", CARDIO_EFFUSION),
]


@pytest.mark.parametrize("completion,reference", SECTION_HEADERS_GENUINE)
def test_section_header_reports_score_as_their_reference(completion, reference):
    assert score(completion, reference) == 1.0


@pytest.mark.parametrize("completion,reference", SECTION_HEADERS_HACK)
def test_section_header_hacks_still_score_lower(completion, reference):
    assert score(completion, reference) < 1.0
    assert score(completion, reference, SOURCE) < 1.0


def test_a_header_over_a_bare_status_is_the_subject():
    # "Heart: enlarged." names no finding after the colon: the header is the finding's subject (cardiomegaly)
    assert ("cardiomegaly", "disorder_present") in graph("Heart: enlarged.")[0]
    assert ("pneumothorax", "disorder_notpresent") in graph("Pneumothorax: none.")[0]
    # a place that locates is read as such
    assert ("consolidation", "right lung", "located_at") in graph("Right lung: consolidation.")[1]


HEADERS = ["Lungs", "LUNGS", "Pleura", "PLEURA", "Heart", "Mediastinum", "Cardiomediastinal silhouette", "Bones",
           "Soft tissues", "Lines and tubes", "Airways", "Upper abdomen"]
STATEMENTS = ["There is a small left pleural effusion.", "No pneumothorax.", "Mild cardiomegaly.",
              "Right lower lobe consolidation.", "No pleural effusion or pneumothorax.", "Possible left basilar atelectasis.",
              "ET tube in place.", "Moderate pulmonary edema.", "No acute rib fracture."]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(HEADERS), st.sampled_from(STATEMENTS)), min_size=1, max_size=5),
       st.sampled_from(["", "- ", "* ", "## "]))
def test_organ_headers_do_not_change_the_graph(sections, bullet):
    prose = "\n".join(statement for _, statement in sections)
    templated = "\n".join(f"{bullet}{header}: {statement}" for header, statement in sections)
    assert graph(templated) == graph(prose)


# ---------------------------------------------------------------------------------------------------------------------
# A statement that the whole study is normal denies every finding stated before it

NORMAL_REFERENCE = "No pleural effusion or pneumothorax. The lungs are clear."

NORMAL_STUDY_GENUINE = [
    # a normal impression after negative findings only states nothing new
    ("No pleural effusion or pneumothorax. The lungs are clear.\nIMPRESSION: Normal chest radiograph.", NORMAL_REFERENCE),
    ("FINDINGS: No pleural effusion or pneumothorax. The lungs are clear.\nIMPRESSION: No radiographic abnormality.",
     NORMAL_REFERENCE),
    # an impression of no acute process beside a chronic finding is no normal study
    (CARDIO_EFFUSION + "\nIMPRESSION: No acute cardiopulmonary process.", CARDIO_EFFUSION),
    # a negated normal study denies nothing
    (CARDIO_EFFUSION + "\nIMPRESSION: Not a normal study.", CARDIO_EFFUSION),
]

NORMAL_STUDY_HACK = [
    (CARDIO_EFFUSION + "\nIMPRESSION: Normal chest radiograph.", CARDIO_EFFUSION),
    ("FINDINGS: The heart is enlarged. Small left pleural effusion. No pneumothorax.\nIMPRESSION: Normal study.",
     CARDIO_EFFUSION),
    (APICAL_PTX + " The chest radiograph is otherwise unremarkable. No abnormality.", APICAL_PTX),
]


@pytest.mark.parametrize("completion,reference", NORMAL_STUDY_GENUINE)
def test_normal_impression_after_negative_findings_scores_as_its_reference(completion, reference):
    assert score(completion, reference) == 1.0


@pytest.mark.parametrize("completion,reference", NORMAL_STUDY_HACK)
def test_normal_impression_after_positive_findings_is_a_contradiction(completion, reference):
    assert score(completion, reference) < 1.0
    assert score(completion, reference, SOURCE) < 1.0  # the last mention wins: the finding reads absent


def test_a_finding_after_the_normal_statement_wins_under_the_source_rule():
    kg = extract_kg("Normal chest radiograph. Small left pleural effusion.")
    assert ("pleural effusion", "disorder_present") in kg.entities


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(STATEMENTS), min_size=1, max_size=4),
       st.sampled_from(["Normal chest radiograph.", "IMPRESSION: Normal study.", "No abnormality.",
                        "The examination is unremarkable."]))
def test_a_normal_study_denies_every_present_finding_before_it(statements, normal):
    before = dict(extract_kg(" ".join(statements)).entities)
    after = dict(extract_kg(" ".join(statements) + "\n" + normal).entities)
    for name, label in before.items():
        expected = "disorder_notpresent" if label == "disorder_present" else label
        assert after[name] == expected


# ---------------------------------------------------------------------------------------------------------------------
# Synonyms the lexicon lacked: the cardiothoracic ratio over one half is cardiomegaly's definition

CTR_GENUINE = [
    ("The cardiothoracic ratio is increased, in keeping with cardiomegaly. Small left pleural effusion. No pneumothorax.",
     CARDIO_EFFUSION),
    ("Increased cardiothoracic ratio. There is a small left pleural effusion. No pneumothorax.", CARDIO_EFFUSION),
]
CTR_HACK = [
    ("The cardiothoracic ratio is normal. There is a small left pleural effusion. No pneumothorax.", CARDIO_EFFUSION),
    ("No increased cardiothoracic ratio. There is a small left pleural effusion. No pneumothorax.", CARDIO_EFFUSION),
    ("Increased cardiothoracic ratio. There is a small left pleural effusion. Small pneumothorax.", CARDIO_EFFUSION),
]


@pytest.mark.parametrize("completion,reference", CTR_GENUINE)
def test_cardiothoracic_ratio_increased_is_cardiomegaly(completion, reference):
    assert score(completion, reference) == 1.0


@pytest.mark.parametrize("completion,reference", CTR_HACK)
def test_cardiothoracic_ratio_hacks_still_score_lower(completion, reference):
    assert score(completion, reference) < 1.0


def test_cardiothoracic_ratio_names_the_gold_label():
    from polyreward.verifiers.radiology_labels import finding_of
    from polyreward.verifiers.radiology_kg import tokenize

    assert finding_of(tuple(tokenize("increased cardiothoracic ratio"))) == "cardiomegaly"


# ---------------------------------------------------------------------------------------------------------------------
# "Label: status." -- a status the reader does not know states nothing (it used to affirm the finding)

LABEL_STATUS_GENUINE = [
    ("Cardiomegaly: present. Small left pleural effusion: present. Pneumothorax: none.", CARDIO_EFFUSION),
    ("Cardiomegaly: yes.\nSmall left pleural effusion: yes.\nPneumothorax: no.", CARDIO_EFFUSION),
    ("Heart: enlarged. Small left pleural effusion: seen. Pneumothorax: absent.", CARDIO_EFFUSION),
]
LABEL_STATUS_HACK = [
    ("Cardiomegaly: nein. Small left pleural effusion: nein. No pneumothorax.", CARDIO_EFFUSION),
    ("Cardiomegaly: non. Small left pleural effusion: present. Pneumothorax: none.", CARDIO_EFFUSION),
    ("Cardiomegaly: present. Small left pleural effusion: present. Pneumothorax: present.", CARDIO_EFFUSION),
]


@pytest.mark.parametrize("completion,reference", LABEL_STATUS_GENUINE)
def test_label_status_lists_score_as_their_reference(completion, reference):
    assert score(completion, reference) == 1.0


@pytest.mark.parametrize("completion,reference", LABEL_STATUS_HACK)
def test_label_status_hacks_still_score_lower(completion, reference):
    assert score(completion, reference) < 1.0


FINDING_LABELS = ["Cardiomegaly", "Pleural effusion", "Pneumothorax", "Consolidation", "Pulmonary edema", "ET tube"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(FINDING_LABELS), st.sampled_from(["nein", "non", "nej", "nee", "oui", "ja", "igen", "evet"]),
       st.sampled_from(["present", "yes", "positive", "seen", "mild", "small", "in place", "noted"]))
def test_an_unknown_status_word_states_nothing(label, foreign, affirming):
    assert graph(f"{label}: {foreign}.") == (frozenset(), frozenset())
    entities = dict(graph(f"{label}: {affirming}.")[0])
    assert any(value.endswith("_present") for value in entities.values())


# ---------------------------------------------------------------------------------------------------------------------
# Checklist marks: ticked / empty boxes, (+) / (-), two-cell table rows

CHECKLIST_REFERENCE = "Cardiomegaly. Pleural effusion. No pneumothorax."
CHECKLIST_GENUINE = [
    ("[x] Cardiomegaly\n[x] Pleural effusion\n[ ] Pneumothorax", CHECKLIST_REFERENCE),
    ("- [x] Cardiomegaly\n- [x] Pleural effusion\n- [ ] Pneumothorax", CHECKLIST_REFERENCE),
    ("\u2611 Cardiomegaly\n\u2611 Pleural effusion\n\u2610 Pneumothorax", CHECKLIST_REFERENCE),
    ("| Finding | Status |\n|---|---|\n| Cardiomegaly | Present |\n| Pleural effusion | Present |\n| Pneumothorax | Absent |",
     CHECKLIST_REFERENCE),
    ("Cardiomegaly (+). Pleural effusion (+). Pneumothorax (\u2212).", CHECKLIST_REFERENCE),
    ("Cardiomegaly: +\nPleural effusion: +\nPneumothorax: -", CHECKLIST_REFERENCE),
    ("Cardiomegaly: present\nPleural effusion: present\nPneumothorax: none", CHECKLIST_REFERENCE),
    ("[x] Small left pleural effusion\n[x] The heart is enlarged\n[ ] Pneumothorax", CARDIO_EFFUSION),
]
CHECKLIST_HACK = [
    ("[x] Cardiomegaly\n[ ] Pleural effusion\n[x] Pneumothorax", CHECKLIST_REFERENCE),
    ("[x] Cardiomegaly\n[x] Pleural effusion\n[x] Pneumothorax", CHECKLIST_REFERENCE),
    ("| Cardiomegaly | Present |\n| Pleural effusion | Absent |\n| Pneumothorax | Absent |", CHECKLIST_REFERENCE),
    ("Cardiomegaly (+). Pleural effusion (\u2212). Pneumothorax (\u2212).", CHECKLIST_REFERENCE),
    ("Cardiomegaly: +\nPleural effusion: +\nPneumothorax: +", CHECKLIST_REFERENCE),
    ("[x] Small right pleural effusion\n[x] The heart is enlarged\n[ ] Pneumothorax", CARDIO_EFFUSION),
]


@pytest.mark.parametrize("completion,reference", CHECKLIST_GENUINE)
def test_checklist_marks_score_as_their_reference(completion, reference):
    # (under contradictions: keep, which reads the one-word lines ReXKG's preprocessing skips)
    assert score(completion, reference) == 1.0


@pytest.mark.parametrize("completion,reference", CHECKLIST_HACK)
def test_checklist_hacks_still_score_lower(completion, reference):
    assert score(completion, reference) < 1.0
    assert score(completion, reference, SOURCE) < 1.0


MARKS = {"present": ["[x] {}", "- [X] {}", "\u2611 {}", "{} (+)", "{}: +", "| {} | Present |"],
         "notpresent": ["[ ] {}", "- [ ] {}", "\u2610 {}", "{} (-)", "{} (\u2212)", "{}: -", "| {} | Absent |"]}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(FINDING_LABELS[:5]), st.sampled_from(["present", "notpresent"])),
                min_size=1, max_size=5, unique_by=lambda item: item[0]), st.data())
def test_checklist_lines_read_as_the_sentences_they_mark(items, data):
    """Any mix of marks, in any order, gives the graph of the plain sentences ("X." / "No X.")."""
    lines = [data.draw(st.sampled_from(MARKS[status])).format(label) for label, status in items]
    prose = " ".join(f"{label}." if status == "present" else f"No {label}." for label, status in items)
    assert graph("\n".join(lines)) == graph(prose)


# ---------------------------------------------------------------------------------------------------------------------
# "A with adjacent / associated B": B shares A's place

RLL_REFERENCE = "There is right lower lobe consolidation with adjacent atelectasis. No pleural effusion or pneumothorax."
SHARED_PLACE_GENUINE = [
    ("No pneumothorax or pleural effusion. Consolidation is present in the right lower lobe with associated atelectasis.",
     RLL_REFERENCE),
    ("Right lower lobe consolidation with associated atelectasis. No pleural effusion. No pneumothorax.", RLL_REFERENCE),
    ("Consolidation in the right lower lobe with adjacent atelectasis; no pleural effusion or pneumothorax.", RLL_REFERENCE),
]
SHARED_PLACE_HACK = [
    # the finding moved to the other lobe
    ("Consolidation is present in the left lower lobe with associated atelectasis. No pleural effusion or pneumothorax.",
     RLL_REFERENCE),
    # the atelectasis placed elsewhere, joined by nothing
    ("Right lower lobe consolidation. Left upper lobe atelectasis. No pleural effusion or pneumothorax.", RLL_REFERENCE),
    # the negation covers the atelectasis too
    ("Right lower lobe consolidation without adjacent atelectasis. No pleural effusion or pneumothorax.", RLL_REFERENCE),
]


@pytest.mark.parametrize("completion,reference", SHARED_PLACE_GENUINE)
def test_adjacent_finding_shares_the_place(completion, reference):
    assert score(completion, reference) == 1.0


@pytest.mark.parametrize("completion,reference", SHARED_PLACE_HACK)
def test_adjacent_finding_hacks_still_score_lower(completion, reference):
    assert score(completion, reference) < 1.0


def test_a_bare_with_still_places_nothing():
    assert graph("Cardiomegaly with a small left pleural effusion.")[1] == {
        ("pleural effusion", "left", "located_at"), ("small", "pleural effusion", "modify")}


PLACES = ["right lower lobe", "left upper lobe", "right lung base", "left apex"]
PAIRS = [("consolidation", "atelectasis"), ("pleural effusion", "atelectasis"), ("opacity", "pleural effusion")]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(PLACES), st.sampled_from(PAIRS), st.sampled_from(sorted(["adjacent", "associated", "accompanying"])),
       st.booleans())
def test_place_sharing_reads_prenominal_and_postnominal_places_alike(place, pair, adjective, prenominal):
    first, second = pair
    text = (f"{place.capitalize()} {first} with {adjective} {second}." if prenominal
            else f"{first.capitalize()} in the {place} with {adjective} {second}.")
    located = {(source, target) for source, target, relation in graph(text)[1] if relation == "located_at"}
    targets = {target for _, target in located}
    assert len(targets) == 1 and {source for source, _ in located} == {
        name for name, label in graph(text)[0] if label.startswith("disorder")}


# ---------------------------------------------------------------------------------------------------------------------
# Styles the extractor already read right (issue 32's review), pinned both ways: a negation list before a present
# finding, "effusion" without "pleural", hedges under uncertain_as

NEGATIVES = ["pneumothorax", "pleural effusion", "consolidation", "pulmonary edema"]


@settings(max_examples=50, deadline=None)
@given(st.permutations(NEGATIVES), st.sampled_from(["No {}.", "There is no {}.", "Without {}."]),
       st.sampled_from(["Cardiomegaly is present.", "The heart is enlarged.", "There is cardiomegaly."]))
def test_a_negation_list_in_any_order_before_a_present_finding(order, template, present):
    listed = ", ".join(order[:-1]) + " or " + order[-1]
    entities = dict(graph(template.format(listed) + " " + present)[0])
    assert entities == {**{name: "disorder_notpresent" for name in NEGATIVES}, "cardiomegaly": "disorder_present"}


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["small", "moderate", "large", "trace"]), st.sampled_from(["left", "right", "bilateral"]))
def test_effusion_without_pleural_is_the_pleural_effusion(size, side):
    assert graph(f"There is a {size} {side} effusion.") == graph(f"There is a {size} {side} pleural effusion.")
    assert graph(f"No effusion.") == graph("No pleural effusion.")


HEDGED = ["Possible right lower lobe pneumonia.", "Right lower lobe pneumonia cannot be excluded.",
          "Right lower lobe opacity, likely pneumonia.", "Questionable right lower lobe pneumonia."]


@pytest.mark.parametrize("uncertain_as", ["present", "notpresent", "uncertain"])
@pytest.mark.parametrize("hedged", HEDGED)
def test_hedges_follow_uncertain_as(hedged, uncertain_as):
    label = dict(extract_kg(hedged, uncertain_as).entities)["pneumonia"]
    assert label == f"disorder_{uncertain_as}"
    # a hedge is never the finding denied (unless uncertain_as says so) nor a certain finding under "uncertain"
    if uncertain_as == "uncertain":
        assert dict(extract_kg("Right lower lobe pneumonia.", uncertain_as).entities)["pneumonia"] == "disorder_present"


def test_hedged_report_scores_as_a_hedged_reference_and_not_as_a_denial():
    reference = "Possible right lower lobe pneumonia. No pneumothorax."
    reward = KGTripletConsistency(min_content_words=1, contradictions="keep", uncertain_as="uncertain")
    assert score("Right lower lobe pneumonia cannot be excluded. No pneumothorax.", reference, reward) == 1.0
    assert score("No right lower lobe pneumonia. No pneumothorax.", reference, reward) < 1.0
    assert score("Right lower lobe pneumonia. No pneumothorax.", reference, reward) < 1.0


# ---------------------------------------------------------------------------------------------------------------------
# "N of the <place>": a finding's noun with its place in an "of" phrase is the compound the lexicon names

GENITIVE_GENUINE = [
    ("The heart is enlarged. Blunting of the left costophrenic angle, in keeping with a small pleural effusion. "
     "No pneumothorax.", CARDIO_EFFUSION),
    ("Enlargement of the cardiac silhouette. There is a small left pleural effusion. No pneumothorax.", CARDIO_EFFUSION),
    ("Collapse of the left lower lobe. No pleural effusion.", "Left lower lobe collapse. No pleural effusion."),
]
GENITIVE_HACK = [
    # the other side
    ("The heart is enlarged. Blunting of the right costophrenic angle, in keeping with a small pleural effusion. "
     "No pneumothorax.", CARDIO_EFFUSION),
    # the negation covers it
    ("The heart is enlarged. No blunting of the left costophrenic angle. No pneumothorax.", CARDIO_EFFUSION),
    # the organ without the finding
    ("The heart is normal in size. There is a small left pleural effusion. No pneumothorax.", CARDIO_EFFUSION),
    ("No collapse of the left lower lobe. No pleural effusion.", "Left lower lobe collapse. No pleural effusion."),
    # the lobe an alias names is the finding's place (below): the other lobe is another graph
    ("Collapse of the right lower lobe. No pleural effusion.", "Left lower lobe collapse. No pleural effusion."),
]


@pytest.mark.parametrize("completion,reference", GENITIVE_GENUINE)
def test_of_phrase_places_score_as_their_reference(completion, reference):
    assert score(completion, reference) == 1.0


@pytest.mark.parametrize("completion,reference", GENITIVE_HACK)
def test_of_phrase_hacks_still_score_lower(completion, reference):
    assert score(completion, reference) < 1.0


@settings(max_examples=50, deadline=None)
@given(st.sampled_from([("blunting", "costophrenic angle"), ("enlargement", "heart"), ("collapse", "left lower lobe"),
                        ("collapse", "right upper lobe"), ("fracture", "clavicle")]),
       st.sampled_from(["", "left ", "right "]), st.sampled_from(["", "No ", "Mild ", "Possible "]), st.booleans())
def test_of_phrase_reads_as_the_compound(pair, side, lead, article):
    noun, place = pair
    if place.startswith(("left", "right")):
        side = ""
    compound = f"{side}{place} {noun}" if noun != "blunting" else f"{side}blunting {place}"
    of_phrase = f"{noun} of {'the ' if article else ''}{side}{place}"
    assert graph(f"{lead}{of_phrase}.".capitalize()) == graph(f"{lead}{compound}.".capitalize())


# ---------------------------------------------------------------------------------------------------------------------
# A sided place inside a finding's alias ("left lower lobe collapse") is the finding's place

SIDED_ALIAS_GENUINE = [
    ("Left lower lobe collapse. No pneumothorax.", "There is collapse of the left lower lobe. No pneumothorax."),
    ("LLL atelectasis. No pneumothorax.", "Left lower lobe atelectasis. No pneumothorax."),
    ("Complete collapse of the left lung. No pleural effusion.", "Complete left lung collapse. No pleural effusion."),
]
SIDED_ALIAS_HACK = [
    ("Right lower lobe collapse. No pneumothorax.", "Left lower lobe collapse. No pneumothorax."),
    ("RML atelectasis. No pneumothorax.", "Left lower lobe atelectasis. No pneumothorax."),
    ("Complete right lung collapse. No pleural effusion.", "Complete left lung collapse. No pleural effusion."),
]


@pytest.mark.parametrize("completion,reference", SIDED_ALIAS_GENUINE)
def test_lobe_inside_an_alias_scores_as_its_reference(completion, reference):
    assert score(completion, reference) == 1.0


@pytest.mark.parametrize("completion,reference", SIDED_ALIAS_HACK)
def test_lobe_inside_an_alias_moved_scores_lower(completion, reference):
    assert score(completion, reference) < 1.0
    assert score(completion, reference, SOURCE) < 1.0


LOBES = ["right upper lobe", "right middle lobe", "right lower lobe", "left upper lobe", "left lower lobe"]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(LOBES), st.sampled_from(LOBES), st.sampled_from(["collapse", "atelectasis"]))
def test_lobar_aliases_keep_their_lobe(first, second, noun):
    same = graph(f"{first.capitalize()} {noun}.") == graph(f"{second.capitalize()} {noun}.")
    assert same == (first == second)
