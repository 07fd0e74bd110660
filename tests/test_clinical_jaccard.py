"""jaccard (MedTVT-R1): exact table hand-computed from |P ∩ G| / |P ∪ G|, normalised and F1 modes."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.config import ConfigError, parse_config
from polyreward.schema import Batch
from polyreward.rewards.jaccard import JaccardReward

REF = "<answer>A; B; C</answer>"

EXACT = [
    ("<answer>A; B; C</answer>", 1.0),
    ("<answer>C;B;A</answer>", 1.0),  # order ignored
    ("<answer>A; B</answer>", 2 / 3),
    ("<answer>A; B; C; D</answer>", 3 / 4),
    ("<answer>a; b; c</answer>", 0.0),  # case-sensitive in the exact mode
    ("<answer>A; A; A</answer>", 1 / 3),  # duplicated labels collapse
    ("A; B; C", 0.0),  # no <answer> block
    ("<answer>A; B; C", 0.0),  # unclosed tag
    ("<answer></answer>", 0.0),
    ("<answer>A</answer><answer>B; C</answer>", 1 / 3),  # only the first block counts
    ("<think>draft <answer>X</answer></think><answer>A;B;C</answer>", 0.0),  # first block is inside <think>
    ("<answer>\nA;\n B ;;C\n</answer>", 1.0),  # stripped, empty labels dropped
    ("<answer>A, B, C</answer>", 0.0),  # wrong separator: one label "A, B, C"
    ("<ANSWER>A;B;C</ANSWER>", 0.0),  # tag is case-sensitive
    ("<answer>no A; B; C</answer>", 0.5),  # a negated label is just another label: 2 / 4
    ("<answer>A; B; C; " + "; ".join(f"X{i}" for i in range(997)) + "</answer>", 3 / 1000),
    ("", 0.0),
]


@pytest.mark.parametrize("completion,expected", EXACT)
def test_exact_table(completion, expected):
    out = JaccardReward().evaluate([None], [completion], answer=[REF])
    assert out.scores[0] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(
    "reference,completion,expected,reason",
    [
        ("<answer></answer>", "<answer></answer>", 0.0, ""),  # empty union -> 0 (MedTVT-R1)
        (["A", "B"], "<answer>A</answer>", 0.5, ""),  # list column
        ('["A", "B"]', "<answer>B; A</answer>", 1.0, ""),  # JSON list text (CSV files)
        ("A; B", "<answer>A; B</answer>", 0.0, "reference has no <answer> block"),
        (None, "<answer>A</answer>", None, "no reference"),
        (float("nan"), "<answer>A</answer>", None, "no reference"),
    ],
)
def test_reference_shapes(reference, completion, expected, reason):
    out = JaccardReward().evaluate([None], [completion], answer=[reference])
    assert out.scores[0] == (pytest.approx(expected) if expected is not None else None)
    assert reason in out.reasons[0]


@pytest.mark.parametrize(
    "kwargs,completion,reference,expected",
    [
        ({"mode": "normalized"}, "<answer>a ;  b</answer>", "<answer>A;B</answer>", 1.0),
        ({"mode": "normalized"}, "<answer>Pleural   Effusion</answer>", "<answer>pleural effusion</answer>", 1.0),
        ({"mode": "normalized", "synonyms": {"Enlarged heart": "cardiomegaly"}}, "<answer>enlarged  HEART; edema</answer>", "<answer>Cardiomegaly</answer>", 0.5),
        ({"mode": "normalized", "synonyms": {"AF": "atrial fibrillation"}}, "<answer>af</answer>", "<answer>Atrial Fibrillation</answer>", 1.0),
        ({"metric": "f1"}, "<answer>A; B</answer>", "<answer>A; C</answer>", 0.5),  # 2·1/(2+2)
        ({"metric": "jaccard"}, "<answer>A; B</answer>", "<answer>A; C</answer>", 1 / 3),
        ({"metric": "f1"}, "<answer></answer>", "<answer></answer>", 0.0),
        ({"separator": ","}, "<answer>A, B</answer>", ["A", "B"], 1.0),
        ({"separator": "|", "mode": "normalized", "metric": "f1"}, "<answer>a|b|c</answer>", "<answer>A|B</answer>", 0.8),
    ],
)
def test_modes(kwargs, completion, reference, expected):
    out = JaccardReward(**kwargs).evaluate([None], [completion], answer=[reference])
    assert out.scores[0] == pytest.approx(expected)


def test_details_and_columns():
    reward = JaccardReward(answer_column="gold")
    assert reward.columns == ("gold",)
    out = reward.evaluate([None, None], ["<answer>A; B</answer>", "nothing"], gold=[REF, REF])
    assert out.details["jaccard"] == [pytest.approx(2 / 3), 0.0]
    assert out.details["f1"] == [pytest.approx(0.8), 0.0]
    assert "2 of 3 reference labels found" in out.reasons[0]
    assert out.reasons[1] == "no <answer> block in completion"


def test_conversational_completion():
    completion = [{"role": "assistant", "content": "<answer>A; B; C</answer>"}]
    assert JaccardReward()(completions=[completion], answer=[REF]) == [1.0]


@pytest.mark.parametrize(
    "kwargs,key",
    [
        ({"mode": "fuzzy"}, "mode"),
        ({"metric": "dice"}, "metric"),
        ({"separator": ""}, "separator"),
        ({"separator": "  "}, "separator"),
        ({"synonyms": {"a": "b"}}, "synonyms"),  # needs mode: normalized
        ({"mode": "normalized", "synonyms": {"a": 1}}, "synonyms"),
        ({"answer_column": ""}, "answer_column"),
    ],
)
def test_bad_params(kwargs, key):
    with pytest.raises(ValueError, match=key):
        JaccardReward(**kwargs)


def test_config_rejects_unknown_key():
    with pytest.raises(ConfigError, match="allowed"):
        parse_config({"rewards": [{"name": "j", "type": "jaccard", "labels_col": "x"}]})
    config = parse_config({"rewards": [{"name": "j", "type": "jaccard", "mode": "normalized", "metric": "f1"}]})
    scores = config.build_scorer().score(Batch([None], ["<answer>a</answer>"], {"answer": ["<answer>A</answer>"]})).scores
    assert scores[0, 0] == 1.0 and not math.isnan(scores[0, 0])


# The guarded mode (normalized) pays only a committed answer; exact mode keeps the source's reading (first block).
GUARDED = [
    ("<think>Reading the film.</think>\n<answer>Pleural effusion; atelectasis</answer>", 1.0),
    ("<answer>pleural effusion; atelectasis</answer>\nThese labels summarise the findings.", 1.0),
    ("<answer>pleural effusion; atelectasis</answer> Follow-up film in 3 days.", 1.0),  # a later number is no label
    ("<answer>atelectasis; pleural effusion</answer> so <answer>Pleural Effusion; atelectasis</answer>", 1.0),  # same set
    ("<answer>pleural effusion; atelectasis</answer> I am not certain about the rest of the film.", 0.0),
    ("<answer>pleural effusion; atelectasis</answer>\n\n<answer>edema</answer>", 0.0),  # second, different block
    ("either <answer>pleural effusion; atelectasis</answer> or <answer>edema</answer>", 0.0),
    ("<answer>edema</answer> that was a mistake; <answer>pleural effusion; atelectasis</answer> instead.", 0.0),
    ("This is not <answer>pleural effusion; atelectasis</answer>", 0.0),
    ("This is n\u043et quite <answer>pleural effusion; atelectasis</answer>", 0.0),  # Cyrillic o in "not"
    ("<answer>pleural effusion; atelectasis</answer> is wrong.", 0.0),
    ("<answer>pleural effusion; atelectasis</answer> ? Wrong.", 0.0),
    ("<answer>pleural effusion; atelectasis</answer> -- that's false.", 0.0),
    ("<answer>pleural effusion; atelectasis</answer> Scratch that.", 0.0),
    ("<!-- <answer>pleural effusion; atelectasis</answer> -->", 0.0),
    ("% <answer>pleural effusion; atelectasis</answer>\n", 0.0),
    ("```\n<answer>pleural effusion; atelectasis</answer>\n```\n", 0.0),
]


@pytest.mark.parametrize("completion,expected", GUARDED)
def test_guarded_mode_pays_only_a_committed_answer(completion, expected):
    out = JaccardReward(mode="normalized").evaluate([None], [completion], answer=[["pleural effusion", "atelectasis"]])
    assert out.scores[0] == pytest.approx(expected), out.reasons[0]


def test_exact_mode_keeps_the_source_reading():
    # MedTVT-R1 reads the first block of the raw text: documented, and why the shipped example uses the guarded mode
    out = JaccardReward().evaluate([None], ["<answer>A; B; C</answer>\n\n<answer>D</answer>"], answer=[REF])
    assert out.scores[0] == 1.0


def test_shipped_example_uses_the_guarded_mode():
    from pathlib import Path

    import yaml

    config = yaml.safe_load((Path(__file__).parents[1] / "examples/jaccard/config.yaml").read_text())
    assert all(reward.get("mode") == "normalized" for reward in config["rewards"] if reward["type"] == "jaccard")


@given(st.text(max_size=200), st.text(max_size=200))
@settings(max_examples=150, deadline=None)
def test_guarded_mode_never_pays_more_than_one_for_hostile_text(before, after):
    completion = before + "<answer>pleural effusion</answer>" + after
    score = JaccardReward(mode="normalized").evaluate([None], [completion], answer=[["pleural effusion"]]).scores[0]
    assert 0.0 <= score <= 1.0
    # a second, different block can never raise the score (it is 0 unless the text before it hides it: "%", "<!--")
    doubled = completion + "\n<answer>edema</answer>"
    doubled_score = JaccardReward(mode="normalized").evaluate([None], [doubled], answer=[["pleural effusion"]]).scores[0]
    assert doubled_score <= score
    if not any(mark in after for mark in ("%", "<!--", "`", "~", ">", "[^", "<span", "<div", "\\")):
        assert doubled_score == 0.0


# The guarded mode reads the labels as a reader reads a list: the prompt's ';' is a format request, so a genuine
# answer written with commas, as a bulleted or numbered list, or with a closing full stop names the same labels.
LIST_STYLES = [
    ("<answer>pleural effusion; atelectasis</answer>", 1.0),
    ("<answer>Pleural effusion, atelectasis</answer>", 1.0),
    ("<answer>\n- pleural effusion\n- atelectasis\n</answer>", 1.0),
    ("<answer>\n1. Pleural effusion\n2. Atelectasis.\n</answer>", 1.0),
    ("<answer>\n* pleural effusion\n\n* atelectasis\n</answer>", 1.0),
    ("<answer>pleural effusion; atelectasis.</answer>", 1.0),
    ("<answer>pleural effusion</answer>", 0.5),
    ("<answer>pleural effusion or atelectasis</answer>", 0.0),  # an alternative is not a list
    ("<answer>- pleural effusion, atelectasis, pneumothorax, edema</answer>", 0.5),
]


@pytest.mark.parametrize("completion, expected", LIST_STYLES)
def test_guarded_mode_reads_lists_as_a_reader_does(completion, expected):
    out = JaccardReward(mode="normalized").evaluate([None], [completion], answer=[["pleural effusion", "atelectasis"]])
    assert out.scores[0] == pytest.approx(expected)


def test_exact_mode_still_splits_on_the_separator_only():
    out = JaccardReward().evaluate([None], ["<answer>pleural effusion, atelectasis</answer>"],
                                   answer=["<answer>pleural effusion; atelectasis</answer>"])
    assert out.scores[0] == 0.0


# red team holdout_r1: a later clause that denies the whole list by pointing back at it
@pytest.mark.parametrize(
    "completion,expected",
    [
        ("<answer>a; b</answer>\nActually, none of these is definite; I cannot commit to any finding.", 0.0),
        ("<answer>a; b</answer>\nNone of these is certain.", 0.0),
        ("<answer>a; b</answer>\nNo pneumothorax is seen.", 1.0),
    ],
)
def test_denied_by_reference_after_block(completion, expected):
    assert JaccardReward(mode="normalized")(completions=[completion], answer=["<answer>a; b</answer>"]) == [expected]


# red team holdout_r8: the words clinicians list a report's findings in (radiology_labels.as_gold_findings)
_GOLD_A = "<answer>atelectasis; cardiomegaly; pleural effusion</answer>"
_REPORT_A = ("List the findings present.\n\nFINDINGS: The cardiac silhouette is enlarged. Moderate right pleural effusion "
             "with adjacent compressive atelectasis at the right base. No pneumothorax.")


@pytest.mark.parametrize(
    "labels,expected",
    [
        # genuine: aliases of the same finding, place and size words the report writes before a gold label
        ("cardiomegaly; effusion; atelectasis", 1.0),
        ("enlarged cardiac silhouette; pleural effusion; atelectasis", 1.0),
        ("cardiac enlargement; pleural effusion; atelectasis", 1.0),
        ("cardiomegaly; R pleural effusion; basilar atelectasis", 1.0),
        ("cardiomegaly; moderate rt pleural effusion; atelectasis", 1.0),
        ("cardiomegaly; pleural effusion; atelectasis; PTX", 0.75),  # an alias of a finding the gold lacks stays extra
        # hacks: a hedge, a denial, another finding, a place or a size the report does not write keeps a label whole
        ("cardiomegaly; possible pleural effusion; atelectasis", 0.5),
        ("cardiomegaly; no pleural effusion; atelectasis", 2 / 3),  # a denied label is left out (holdout_r7)
        ("cardiomegaly; pericardial effusion; atelectasis", 0.5),
        ("cardiomegaly; left pleural effusion; atelectasis", 0.5),  # the report's effusion is right
        ("cardiomegaly; massive pleural effusion; atelectasis", 0.5),  # the report's is moderate (holdout_r3)
        ("cardiomegaly; pleural effusion; atelectasis; ?PNA", 0.75),
        ("cardiomegaly; pleural effusion; atelectasis vs consolidation", 0.5),
    ],
)
def test_clinician_names_of_gold_findings(labels, expected):
    reward = JaccardReward(mode="normalized")
    got = reward(prompts=[_REPORT_A], completions=[f"<answer>{labels}</answer>"], answer=[_GOLD_A])
    assert got == [pytest.approx(expected)]


def test_clinician_names_need_normalized_mode_and_places_need_the_report():
    assert JaccardReward()(completions=["<answer>cardiomegaly; effusion; atelectasis</answer>"], answer=[_GOLD_A]) == [0.5]
    # without the report a place word cannot be checked: the label stays whole; an alias needs no report
    reward = JaccardReward(mode="normalized")
    assert reward(completions=["<answer>cardiomegaly; R pleural effusion; atelectasis</answer>"], answer=[_GOLD_A]) == [0.5]
    assert reward(completions=["<answer>cardiomegaly; effusion; atelectasis</answer>"], answer=[_GOLD_A]) == [1.0]


_PLACES = ["left", "right", "bilateral", "upper lobe", "lower lobe", "apical", "basilar", "rib"]


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["pleural effusion", "pneumothorax", "atelectasis", "consolidation", "fracture", "edema"]),
       st.lists(st.sampled_from(_PLACES), min_size=1, max_size=2, unique=True),
       st.sampled_from(["possible", "no", "old", "history of", "resolved", "query", "rule out"]))
def test_place_words_the_report_writes_keep_a_finding(finding, place, other):
    reward = JaccardReward(mode="normalized")
    gold = [f"<answer>{finding}</answer>"]
    placed = " ".join([*place, finding])
    report = f"List the findings present.\n\nFINDINGS: {' '.join(place).capitalize()} {finding}."
    assert reward(prompts=[report], completions=[f"<answer>{placed}</answer>"], answer=gold) == [1.0]
    assert reward(prompts=[report], completions=[f"<answer>{other} {placed}</answer>"], answer=gold) != [1.0]
    elsewhere = "shoulder" if "rib" in place else "rib"  # a place the report does not name
    assert reward(prompts=[report], completions=[f"<answer>{elsewhere} {finding}</answer>"], answer=gold) == [0.0]


# red team holdout_r9: a subtype alias (a qualifier before or glued onto another alias of the finding) is the gold
# label only where the report states the qualifier (radiology_labels.unstated_subtype)
_GOLD_B = "<answer>pneumothorax; subcutaneous emphysema</answer>"
_REPORT_B = ("List the findings present.\n\nFINDINGS: Right apical pneumothorax, approximately 2 cm. Subcutaneous "
             "emphysema along the right chest wall. Heart size is normal.")


@pytest.mark.parametrize(
    "report,labels,expected",
    [
        # hacks: a subtype the report does not state stays an extra label
        (_REPORT_B, "hydropneumothorax; subcutaneous emphysema", 1 / 3),
        (_REPORT_B, "tension pneumothorax; subcutaneous emphysema", 1 / 3),
        (_REPORT_B, "right hydropneumothorax; subcutaneous emphysema", 1 / 3),
        (_REPORT_B, "pneumothorax; emphysema", 1 / 3),  # lung emphysema is another finding
        # genuine: the report's own subtype, place words, a synonym that is no subtype
        (_REPORT_B, "right apical pneumothorax; subcutaneous gas", 1.0),
        (_REPORT_B.replace("Right apical pneumothorax", "Right hydropneumothorax"),
         "hydropneumothorax; subcutaneous emphysema", 1.0),
        (_REPORT_B.replace("Right apical pneumothorax", "Right tension pneumothorax"),
         "tension pneumothorax; subcutaneous emphysema", 1.0),
    ],
)
def test_subtype_aliases_need_the_reports_qualifier(report, labels, expected):
    reward = JaccardReward(mode="normalized")
    got = reward(prompts=[report], completions=[f"<answer>{labels}</answer>"], answer=[_GOLD_B])
    assert got == [pytest.approx(expected)]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([("pneumothorax", "tension"), ("pneumothorax", "loculated"), ("atelectasis", "discoid"),
                        ("atelectasis", "compressive"), ("emphysema", "centrilobular"), ("pneumothorax", "hydro")]))
def test_subtype_stated_or_not(pair):
    finding, qualifier = pair
    subtype = qualifier + finding if qualifier == "hydro" else f"{qualifier} {finding}"
    reward = JaccardReward(mode="normalized")
    gold = [f"<answer>{finding}</answer>"]
    stated = f"List the findings present.\n\nFINDINGS: Small {subtype}."
    plain = f"List the findings present.\n\nFINDINGS: Small {finding}."
    assert reward(prompts=[stated], completions=[f"<answer>{subtype}</answer>"], answer=gold) == [1.0]
    assert reward(prompts=[plain], completions=[f"<answer>{subtype}</answer>"], answer=gold) == [0.0]
    assert reward(prompts=[plain], completions=[f"<answer>{finding}</answer>"], answer=gold) == [1.0]
