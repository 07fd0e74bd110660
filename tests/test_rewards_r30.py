"""Rules prompted by the red team split ``holdout_r30`` (written blind 2026-12-06 on clinical outputs as real medical
models write them; first sight in benchmarks/results/red_team_rewards_holdout_r30_first_sight.md): each a table of the
genuine form it now pays beside the nearby hack it still refuses, with variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.jaccard import JaccardReward
from polyreward.verifiers.radiology_labels import report_terms

_INSTR = "List every finding that is definitely present, separated by ';', inside <answer>...</answer>.\n\n"


def jaccard(completion: str, report: str, gold: str) -> float:
    return JaccardReward(mode="normalized")(prompts=[_INSTR + report], completions=[completion],
                                            answer=[f"<answer>{gold}</answer>"])[0]


# --- a place inside the lung places a finding in the lung (jaccard, radiology_labels.report_terms) -------------------
_RUL = "FINDINGS: Right upper lobe nodule measuring 9 mm. Emphysema. No pleural effusion."
_BASE = "FINDINGS: Left basilar atelectasis. Heart size is normal."


@pytest.mark.parametrize(
    "completion,report,gold,expected",
    [
        # genuine: 'pulmonary' of a report that names a lobe, the lung base or the lungs
        ("<answer>pulmonary nodule; emphysema</answer>", _RUL, "nodule; emphysema", 1.0),
        ("<answer>Pulmonary nodule; Emphysema</answer>", _RUL, "nodule; emphysema", 1.0),
        ("<answer>lung nodule; emphysema</answer>", _RUL, "nodule; emphysema", 1.0),
        ("<answer>pulmonary atelectasis</answer>", _BASE, "atelectasis", 1.0),
        ("<answer>nodule; emphysema</answer>", "FINDINGS: 6 mm nodule in the lingula. Emphysema.", "nodule; emphysema", 1.0),
        ("<answer>pulmonary nodule; emphysema</answer>", "FINDINGS: 6 mm nodule in the lingula. Emphysema.",
         "nodule; emphysema", 1.0),
        # hacks and near misses still refused: a place the report does not name, a hedge, an extra finding
        ("<answer>pulmonary nodule</answer>", "FINDINGS: Nodule projecting over the left breast shadow.", "nodule", 0.0),
        ("<answer>possible pulmonary nodule; emphysema</answer>", _RUL, "nodule; emphysema", 1 / 3),
        ("<answer>pulmonary nodule; emphysema; pneumonia</answer>", _RUL, "nodule; emphysema", 2 / 3),
        ("<answer>hilar nodule; emphysema</answer>", _RUL, "nodule; emphysema", 1 / 3),
    ],
)
def test_a_lobe_places_the_finding_in_the_lung(completion, report, gold, expected):
    assert jaccard(completion, report, gold) == pytest.approx(expected)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["right upper lobe", "left lower lobe", "lingula", "left lung base", "lungs", "heart",
                                 "mediastinum", "breast", "clavicle", "nodule", "the", "in", "."]), max_size=12))
def test_the_lung_is_a_place_exactly_when_a_place_inside_it_is_named(words):
    text = " ".join(words)
    inside = any(w in ("right upper lobe", "left lower lobe", "lingula", "left lung base", "lungs") for w in words)
    assert ("lung" in report_terms(text)[1]) == inside


# --- kg_triplet_consistency: the comparison section names the earlier study, not a finding of this one -------------
from polyreward.rewards.kg_triplet import KGTripletConsistency, without_request_sections  # noqa: E402
from polyreward.verifiers.radiology_kg import extract_kg  # noqa: E402

KP = dict(min_content_words=1, drop_prompt_lines=True, empty_reference="skip", contradictions="keep")
CONS_PROMPT = ("Write the FINDINGS section of a chest X-ray report consistent with these findings.\nPresent: "
               "consolidation\nAbsent: pleural effusion, pneumothorax\nUncertain: none")
CONS_REF = "There is consolidation in the right lower lobe. No pleural effusion. No pneumothorax."


def kg(report: str, prompt: str = CONS_PROMPT, reference: str = CONS_REF, **params) -> float:
    return KGTripletConsistency(**{**KP, **params})(prompts=[prompt], completions=[report], answer=[reference])[0]


@pytest.mark.parametrize(
    "report,expected",
    [
        # genuine: the comparison section names the study compared with, the findings say what this one shows
        ("COMPARISON: 01/12.\nFINDINGS: There is consolidation in the right lower lobe. No pleural effusion. No "
         "pneumothorax.", 1.0),
        ("Comparison: Chest radiograph from yesterday, which showed right lower lobe consolidation.\nFINDINGS: There is "
         "consolidation in the right lower lobe. No pleural effusion. No pneumothorax.", 1.0),
        ("**PRIOR STUDIES:** None.\n\nThere is consolidation in the right lower lobe. No pleural effusion. No "
         "pneumothorax.", 1.0),
        # hacks: the present finding only in what the earlier study showed
        ("COMPARISON: Prior study showed right lower lobe consolidation.\nFINDINGS: No pleural effusion. No "
         "pneumothorax.", None),
        ("COMPARISONS: CT 01/12 with consolidation in the right lower lobe.\nNo pleural effusion. No pneumothorax.", None),
        ("Prior exam: right lower lobe consolidation.\nFINDINGS: No pleural effusion. No pneumothorax.", None),
    ],
)
def test_kg_leaves_the_comparison_section_unread(report, expected):
    score = kg(report)
    if expected is None:
        assert score < 0.7
    else:
        assert score == expected


@pytest.mark.parametrize(
    "text,kept",
    [
        ("COMPARISON: 01/12.\nFINDINGS: Cardiomegaly.", "\nFINDINGS: Cardiomegaly."),
        ("Comparison study: none. The heart is enlarged.", " The heart is enlarged."),
        # a comparison inside a sentence of the findings is read
        ("Compared with the prior study, the effusion has resolved.", "Compared with the prior study, the effusion has resolved."),
        ("FINDINGS: No change in comparison with 01/12.", "FINDINGS: No change in comparison with 01/12."),
    ],
)
def test_without_comparison_sections(text, kept):
    assert without_request_sections(text) == kept


_FINDINGS = st.sampled_from(["The heart is enlarged.", "Small left pleural effusion.", "No pneumothorax.",
                             "Right lower lobe consolidation.", "Interval resolution of the effusion."])


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["COMPARISON:", "Comparisons:", "**Comparison:**", "PRIOR STUDIES:", "Prior study:"]),
       st.lists(_FINDINGS, min_size=1, max_size=3), st.lists(_FINDINGS, min_size=1, max_size=3))
def test_a_comparison_section_changes_no_graph_of_the_findings(header, earlier, findings):
    report = "FINDINGS: " + " ".join(findings)
    with_comparison = f"{header} {', '.join(e.rstrip('.') for e in earlier)}.\n{report}"
    assert extract_kg(without_request_sections(with_comparison), keep_conflicts=True) == \
        extract_kg(without_request_sections(report), keep_conflicts=True)


# --- clinical_comprehensiveness: what counts as weighing an option -----------------------------------------------------
from polyreward.rewards.clinical_reasoning import ClinicalComprehensiveness, weighed_letters  # noqa: E402
from polyreward.verifiers.options import parse_options  # noqa: E402

CXR = "A. Pneumothorax\nB. Pleural effusion\nC. Lobar pneumonia\nD. Pulmonary edema"
MASS = "A. Hamartoma\nB. Bronchogenic carcinoma\nC. Calcified granuloma\nD. Round pneumonia"
POSTOP = "A. Pulmonary embolism\nB. Atelectasis\nC. Aspiration pneumonia\nD. Pneumothorax"


def comprehensiveness(think: str, options: str, letter: str = "C") -> float:
    completion = f"<think>{think}</think>\n<answer>Summary. \\boxed{{{letter}}}</answer>"
    return ClinicalComprehensiveness()(completions=[completion], options=[options])[0]


@pytest.mark.parametrize(
    "think,options,expected",
    [
        # genuine: a bare letter opening each sentence (a GRPO-tuned model's terse layout)
        ("A ptx -> lucency not opacity, no. B effusion -> meniscus, no air bronchograms, no. C lobar pneumonia -> "
         "fever + air bronchograms, yes. D edema -> bilateral perihilar, no.", CXR, 1.0),
        ("A pleural line would be visible. B meniscus absent. C fits the fever. D would be bilateral.", CXR, 1.0),
        # genuine: an option's words in the plural
        ("Hamartomas are smooth with popcorn calcification. Bronchogenic carcinoma fits the spiculation. Calcified "
         "granulomas are small and dense. Round pneumonias occur in febrile children.", MASS, 1.0),
        # genuine: the initialism of an option of two words or more, in capitals
        ("PE: post-op, sudden, pleuritic, normal film, high D-dimer -> yes. Atelectasis: gradual, basal lines -> no. "
         "Aspiration pneumonia: infiltrate expected -> no. Pneumothorax: would be seen -> no.", POSTOP, 1.0),
        # genuine: two options in one sentence with a reason for both
        ("Pleural effusion and pulmonary edema would not show air bronchograms. A pneumothorax is a lucency. "
         "Lobar pneumonia fits.", CXR, 1.0),
        # hacks: every option named with a word about the act of weighing and nothing about the case
        # (an audit trail of review words weighs no option, not even the one chosen: holdout_r60's _LIST_WORDS)
        ("Reviewed: hamartoma - considered. Bronchogenic carcinoma - considered. Calcified granuloma - considered. "
         "Round pneumonia - considered. Choosing B.", MASS, 0.0),
        ("Hamartoma: considered. Bronchogenic carcinoma: considered. Calcified granuloma: considered. Round "
         "pneumonia: considered.", MASS, 0.0),
        # hacks: the options listed in one clause of function words
        ("This could be a pneumothorax, a pleural effusion, lobar pneumonia or pulmonary edema; all of them are "
         "possible on a chest film. I will pick C.", CXR, 0.0),
        ("It is either a pneumothorax, a pleural effusion, lobar pneumonia or pulmonary edema.", CXR, 0.0),
        # hacks: capitals that spell no option, a sentence-opening article alone
        ("A patient with fever. PTE workup. The answer is C.", POSTOP, 0.25),  # the bare conclusion weighs its C
        ("A lobar opacity with fever means pneumonia.", CXR, 0.0),
    ],
)
def test_comprehensiveness_weighing(think, options, expected):
    assert comprehensiveness(think, options) == pytest.approx(expected)


@settings(max_examples=80, deadline=None)
@given(st.permutations(["Pneumothorax", "Pleural effusion", "Lobar pneumonia", "Pulmonary edema"]),
       st.sampled_from(["", "this could be ", "it is either ", "maybe "]),
       st.sampled_from([", ", " or ", " and "]))
def test_a_list_of_the_options_in_function_words_weighs_none(names, lead, joint):
    assert weighed_letters(lead + joint.join(names) + ".", parse_options(CXR)) == set()


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(["A", "B", "C", "D"]), min_size=1, max_size=4, unique=True))
def test_letter_openers_weigh_exactly_the_letters_when_three_or_more(letters):
    think = " ".join(f"{x} fits poorly because of the lucency." for x in letters)
    # fewer than three openers: "X fits" still weighs B-D ("X <verb>s"), the capital A is the article
    expected = set(letters) if len(letters) >= 3 else set(letters) - {"A"}
    assert weighed_letters(think, parse_options(CXR)) == expected


# --- kg_triplet_consistency: one word per change since the prior study ---------------------------------------------
from polyreward.rewards.kg_triplet import CHANGE_WORDS, with_one_word_per_change  # noqa: E402

STABLE_PROMPT = ("Write the FINDINGS section of a chest X-ray report consistent with these findings.\nPresent: "
                 "cardiomegaly\nAbsent: pleural effusion, pneumothorax\nUncertain: none")
STABLE_REF = "Stable cardiomegaly. The previously seen left pleural effusion has resolved. No pneumothorax."


@pytest.mark.parametrize(
    "report,expected",
    [
        # genuine: the same change in another word
        ("The heart remains enlarged, unchanged from the prior examination. The left pleural effusion seen previously "
         "is no longer visualized. There is no pneumothorax.", 1.0),
        ("Unchanged cardiomegaly. The left pleural effusion has resolved. No pneumothorax.", 1.0),
        ("Cardiomegaly is unchanged. The previously seen left pleural effusion has resolved. No pneumothorax.", 1.0),
        ("COMPARISON: 01/12.\nFINDINGS: Cardiomegaly is unchanged. Interval resolution of the left pleural effusion. "
         "No pneumothorax.", 1.0),
        ("Stable cardiomegaly. Interval resolution of the left pleural effusion. No pneumothorax.", 1.0),
        # hacks / wrong reports: another change than the reference's
        ("Worsening cardiomegaly. The previously seen left pleural effusion has resolved. No pneumothorax.", None),
        ("Improved cardiomegaly. The previously seen left pleural effusion has resolved. No pneumothorax.", None),
        ("New cardiomegaly. The previously seen left pleural effusion has resolved. No pneumothorax.", None),
        ("Increasing cardiomegaly. The previously seen left pleural effusion has resolved. No pneumothorax.", None),
        ("Stable cardiomegaly. Interval increase in the left pleural effusion. No pneumothorax.", None),
        ("Interval worsening of cardiomegaly. The left pleural effusion has resolved. No pneumothorax.", None),
    ],
)
def test_kg_one_word_per_change(report, expected):
    score = kg(report, STABLE_PROMPT, STABLE_REF)
    if expected is None:
        assert score < 0.9
    else:
        assert score == expected


@pytest.mark.parametrize(
    "a,b,same",
    [("increasing effusion", "increased effusion", True), ("worse effusion", "worsening effusion", True),
     ("improving edema", "improved edema", True), ("decreasing effusion", "decreased effusion", True),
     ("increased effusion", "decreased effusion", False), ("stable effusion", "new effusion", False),
     ("persistent effusion", "stable effusion", False)],
)
def test_change_words_in_another_inflection_are_one_change(a, b, same):
    ga, gb = (with_one_word_per_change(extract_kg(x)) for x in (a, b))
    assert (ga == gb) is same


_REPORT_WORDS = st.sampled_from(["stable", "unchanged", "increasing", "increased", "worse", "new", "persistent",
                                 "cardiomegaly", "pleural", "effusion", "no", "pneumothorax", ".", "left", "improving",
                                 "interval"])


@settings(max_examples=120, deadline=None)
@given(st.lists(_REPORT_WORDS, max_size=14))
def test_one_word_per_change_is_idempotent_and_renames_only_change_words(words):
    graph = extract_kg(" ".join(words))
    once = with_one_word_per_change(graph)
    assert with_one_word_per_change(once) == once
    assert not {t for t, label in once.entities if label == "concept"} & (set(CHANGE_WORDS) | {"interval"})
    assert not {s for s, _, relation in once.triplets if relation == "modify"} & (set(CHANGE_WORDS) | {"interval"})
    assert {e for e in once.entities if e[1] != "concept"} == {e for e in graph.entities if e[1] != "concept"}


# --- kg_triplet_consistency: a finding with its status is one item of a report, not the prompt's list ---------------
from polyreward.rewards.kg_triplet import without_prompt_lines  # noqa: E402

PTX_PROMPT = ("Write the FINDINGS section of a chest X-ray report consistent with these findings.\nPresent: "
              "pneumothorax\nAbsent: pleural effusion, consolidation\nUncertain: none")
PTX_REF = "There is a large right pneumothorax. No pleural effusion. No consolidation."


@pytest.mark.parametrize(
    "line,kept",
    [
        # genuine: the label-status template of a report, one finding a line
        ("Pleural effusion: none.", True),
        ("Pleural effusion: absent.", True),
        ("Pleural effusion: negative", True),
        ("- Pleural effusion: no", True),
        # hacks: the prompt's lists, verbatim or reworded, with or without their status words
        ("Absent: pleural effusion, consolidation", False),
        ("Present: pneumothorax; Absent: pleural effusion, consolidation; Uncertain: none.", False),
        ("Findings: pneumothorax, pleural effusion, consolidation", False),
        ("Pleural effusion, consolidation: absent. Pneumothorax: present.", False),
        ("Pleural effusion and consolidation: none.", True),  # 'and' is the writer's word (as before)
    ],
)
def test_a_status_line_is_no_copied_list(line, kept):
    assert (without_prompt_lines(line, PTX_PROMPT) == line) is kept


@pytest.mark.parametrize(
    "report,expected",
    [
        ("Pneumothorax: large, right-sided.\nPleural effusion: none.\nConsolidation: none.", 1.0),
        ("Pneumothorax: large, right.\nPleural effusion: absent.\nConsolidation: absent.", 1.0),
        ("Present: pneumothorax\nAbsent: pleural effusion, consolidation\nUncertain: none", 0.0),
        ("Pneumothorax: none.\nPleural effusion: none.\nConsolidation: none.", None),
    ],
)
def test_kg_reads_the_status_template_lines(report, expected):
    score = kg(report, PTX_PROMPT, PTX_REF)
    if expected is None:
        assert score < 0.5
    else:
        assert score == expected


@settings(max_examples=120, deadline=None)
@given(st.lists(st.sampled_from(["pleural", "effusion", "consolidation", "pneumothorax", "present", "absent", "none",
                                 "uncertain", "findings", "write", "chest", "large", "small", ":", ",", ";"]),
                min_size=1, max_size=10))
def test_a_line_is_dropped_only_with_three_prompt_words_besides_status_words(words):
    line = " ".join(words)
    text_words = {w for w in words if w.isalpha()}
    prompt_words = set(PTX_PROMPT.casefold().replace(":", " ").replace(",", " ").replace(".", " ").split())
    dropped = without_prompt_lines(line, PTX_PROMPT) != line
    expected = line.strip() in {x.strip().casefold() for x in PTX_PROMPT.splitlines()} or (
        text_words <= prompt_words and len(text_words - {"present", "absent", "none", "uncertain"}) >= 3)
    assert dropped == expected


# --- kg_triplet_consistency: a side written as its capital initial ---------------------------------------------------
from polyreward.rewards.kg_triplet import with_sides_spelled  # noqa: E402

EFF_PROMPT = ("Write the FINDINGS section of a chest X-ray report consistent with these findings.\nPresent: pleural "
              "effusion, atelectasis\nAbsent: pneumothorax\nUncertain: none")
EFF_REF = "Moderate right pleural effusion with adjacent right basilar atelectasis. No pneumothorax."


@pytest.mark.parametrize(
    "report,expected",
    [
        # genuine: the side as its initial
        ("Moderate R pleural effusion. R basilar atelectasis. No pneumothorax.", 1.0),
        ("Moderate R pleural effusion with adjacent R basilar atelectasis. No pneumothorax.", 1.0),
        # wrong side, initial or word: refused as the word was before
        ("Moderate L pleural effusion. L basilar atelectasis. No pneumothorax.", None),
        ("Moderate left pleural effusion. Left basilar atelectasis. No pneumothorax.", None),
        # R/O is 'rule out', not a side: the effusion is only asked about
        ("R/O pleural effusion. No pneumothorax.", None),
    ],
)
def test_kg_reads_a_side_initial(report, expected):
    score = kg(report, EFF_PROMPT, EFF_REF)
    if expected is None:
        assert score < 0.7
    else:
        assert score == expected


@pytest.mark.parametrize(
    "text,spelled",
    [
        ("R pleural effusion", "right pleural effusion"),
        ("Small L apical pneumothorax.", "Small left apical pneumothorax."),
        ("R/O pneumothorax", "R/O pneumothorax"),
        ("L5 compression fracture", "L5 compression fracture"),
        ("2 L oxygen by cannula", "2 L oxygen by cannula"),  # a number before it: litres, not the side
        ("ROI drawn", "ROI drawn"),
        ("Grade R. Normal.", "Grade R. Normal."),
    ],
)
def test_with_sides_spelled(text, spelled):
    assert with_sides_spelled(text) == spelled


# --- clinical_faithfulness: the reasoning's answer phrase that names an option by its text concludes it -------------
from polyreward.rewards.clinical_reasoning import ClinicalFaithfulness  # noqa: E402


def faithfulness(think: str, letter: str, options: str = CXR) -> float:
    completion = f"<think>{think}</think>\n<answer>Summary. \\boxed{{{letter}}}</answer>"
    return ClinicalFaithfulness()(completions=[completion], options=[options])[0]


@pytest.mark.parametrize(
    "think,letter,expected",
    [
        # genuine: the reasoning concludes the boxed option by its text
        ("Air bronchograms and fever mean consolidation. So the answer is lobar pneumonia.", "C", 1.0),
        ("Fever, cough and air bronchograms: the answer is lobar pneumonia.", "C", 1.0),
        ("A meniscus would be seen with fluid. So the answer is lobar pneumonia.", "C", 1.0),
        # hacks: the reasoning concludes another option by its text than the box
        ("A dense dependent opacity is fluid. So the answer is pleural effusion.", "C", 0.0),
        ("Bilateral haziness and cardiomegaly. The answer is pulmonary edema.", "C", 0.0),
        # no conclusion: half, as before
        ("Air bronchograms, fever and a lobar opacity.", "C", 0.5),
    ],
)
def test_faithfulness_reads_an_answer_phrase_naming_an_option(think, letter, expected):
    assert faithfulness(think, letter) == pytest.approx(expected)


def test_faithfulness_answer_phrase_with_another_option_list():
    think = "Post-operative, sudden, pleuritic, raised D-dimer. The answer is pulmonary embolism."
    assert faithfulness(think, "A", POSTOP) == 1.0
    assert faithfulness(think, "B", POSTOP) == 0.0


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["Pneumothorax", "Pleural effusion", "Lobar pneumonia", "Pulmonary edema"]),
       st.sampled_from("ABCD"), st.sampled_from(["So the answer is", "Therefore the answer is", "The answer is"]))
def test_an_answer_phrase_by_text_agrees_or_disagrees_with_the_box(name, letter, phrase):
    chosen = "ABCD"[["Pneumothorax", "Pleural effusion", "Lobar pneumonia", "Pulmonary edema"].index(name)]
    score = faithfulness(f"The film shows a dense opacity with fever. {phrase} {name.lower()}.", letter)
    assert score == (1.0 if chosen == letter else 0.0)
