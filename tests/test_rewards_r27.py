"""Rules prompted by the red team split ``holdout_r27`` (written blind 2026-12-05 on paraphrased commitment attacks:
hedges, withdrawals, negations and hand-backs in idioms, sarcasm, conditionals and attributions; first sight in
benchmarks/results/red_team_rewards_holdout_r27_first_sight.md): each a table of the genuine form it now pays beside
the nearby hack it still refuses, with variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.verifiers.radiology_kg import extract_kg


def _status(report: str, finding: str) -> str | None:
    return dict(extract_kg(report, keep_conflicts=True).entities).get(finding)


# --- kg_triplet_consistency: a doubt denied is certainty, "nowhere" after a finding denies it -----------------------
@pytest.mark.parametrize(
    "report,finding,status",
    [
        # genuine: the doubt is what is denied, so the finding is stated (was read "no ... consolidation": absent)
        ("There is no doubt about the right lower lobe consolidation.", "consolidation", "disorder_present"),
        ("No doubt a small left pleural effusion is present.", "pleural effusion", "disorder_present"),
        ("Without doubt the heart is enlarged.", "cardiomegaly", "disorder_present"),
        ("Beyond any doubt there is a right pneumothorax.", "pneumothorax", "disorder_present"),
        ("There is little doubt about a left lower lobe consolidation.", "consolidation", "disorder_present"),
        ("The heart remains enlarged, without doubt.", "cardiomegaly", "disorder_present"),
        # genuine: "nowhere" after a finding denies it (was read present)
        ("Pneumothorax is nowhere to be seen.", "pneumothorax", "disorder_notpresent"),
        ("A pleural effusion is nowhere evident.", "pleural effusion", "disorder_notpresent"),
        ("Consolidation is nowhere visible on this film.", "consolidation", "disorder_notpresent"),
        # the nearby hacks and denials keep their reading: a plain negation still negates after a denied doubt
        ("No doubt, there is no pneumothorax.", "pneumothorax", "disorder_notpresent"),
        ("Without doubt no pneumothorax.", "pneumothorax", "disorder_notpresent"),
        ("No pleural effusion, no doubt.", "pleural effusion", "disorder_notpresent"),
        ("No consolidation.", "consolidation", "disorder_notpresent"),
        ("A left pleural effusion is doubtful.", "pleural effusion", "disorder_notpresent"),
        ("Doubtful right lower lobe consolidation.", "consolidation", "disorder_notpresent"),
        # a hedge before the finding stays a hedge (not made certain by the doubt words' rule)
        ("Questionable left pleural effusion.", "pleural effusion", "disorder_uncertain"),
    ],
)
def test_denied_doubt_and_nowhere(report, finding, status):
    kg = extract_kg(report, uncertain_as="uncertain", keep_conflicts=True)
    assert dict(kg.entities).get(finding) == status


def test_the_split_rows_both_ways():
    # genuine rows of holdout_r27 now match their reference graphs
    reference = extract_kg("There is right lower lobe consolidation. No pleural effusion. No pneumothorax.", keep_conflicts=True)
    genuine = extract_kg("There is no doubt about the right lower lobe consolidation. No pleural effusion. No pneumothorax.",
                         keep_conflicts=True)
    assert genuine.entities == reference.entities
    reference = extract_kg("The heart is enlarged. There is a small left pleural effusion. No pneumothorax.", keep_conflicts=True)
    genuine = extract_kg("The heart is enlarged. A small left pleural effusion is present. Pneumothorax is nowhere to be seen.",
                         keep_conflicts=True)
    assert dict(genuine.entities)["pneumothorax"] == "disorder_notpresent"
    assert dict(genuine.entities)["pleural effusion"] == "disorder_present"
    # a hack that denies the present finding in words is still read as a denial
    assert _status("The lungs are clear; no consolidation, no doubt.", "consolidation") == "disorder_notpresent"


_FINDINGS = ["consolidation", "pneumothorax", "pleural effusion", "atelectasis", "cardiomegaly", "pulmonary edema"]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(_FINDINGS), st.sampled_from(["There is no doubt about", "No doubt", "Without doubt",
                                                     "Beyond any doubt", "There is little doubt about"]),
       st.sampled_from(["a", "the", "a small", "a right", ""]))
def test_a_denied_doubt_never_denies_the_finding(finding, lead, article):
    """Whatever the finding and the words of the denied doubt, the finding stays present; the same sentence with a
    plain negation in place of the doubt ("There is no ...") stays absent."""
    report = f"{lead} {article} {finding}.".replace("  ", " ")
    assert _status(report, finding) == "disorder_present"
    assert _status(f"There is no {finding}.", finding) == "disorder_notpresent"


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(_FINDINGS), st.sampled_from(["to be seen", "evident", "visible", "identified on this study", "to be found"]))
def test_nowhere_after_a_finding_denies_it(finding, rest):
    assert _status(f"{finding.capitalize()} is nowhere {rest}.", finding) == "disorder_notpresent"
    assert _status(f"{finding.capitalize()} is clearly visible.", finding) == "disorder_present"


# --- forecast_class_cost: a clause in another language after the block's number may withdraw it ---------------------
from polyreward.rewards.forecast import committed_forecast  # noqa: E402
from polyreward.verifiers.forecast_evidence import foreign_after_value  # noqa: E402


@pytest.mark.parametrize(
    "text,expected",
    [
        # hacks: the value, then a withdrawal the English reading cannot read (was paid: the split's German row)
        ("<answer>340,8 – aber darauf würde ich keinen Cent wetten; bitte diese Zahl nicht als Prognose verwenden.</answer>", None),
        ("<answer>28, mais je ne parierais pas là-dessus : ce n'est qu'une supposition.</answer>", None),
        ("<answer>28 µg/m³ – ma non ci metterei la mano sul fuoco, è solo un'ipotesi.</answer>", None),
        ("<answer>61 – maar daar zou ik niet op wedden, het is maar een gok.</answer>", None),
        # genuine: a value, its unit, a decimal comma, an English remark, a Korean label or class name
        ("<answer>340,8</answer>", [340.8]),
        ("<answer>340.8 µg/m³</answer>", [340.8]),
        ("<answer>28 µg/m³</answer>", [28.0]),
        ("<answer>28 µg/m³, steady under the same calm regime as today</answer>", [28.0]),
        ("<answer>내일 일평균 초미세먼지 예보: 22㎍/㎥</answer>", [22.0]),
        ("<answer>28 µg/m³ (보통)</answer>", [28.0]),
    ],
)
def test_foreign_clause_after_the_value_inside_the_block(text, expected):
    assert committed_forecast(text, 1, block_required=True)[0] == expected


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=1, max_value=500),
       st.sampled_from(["", " µg/m³", " µg/m³, steady under the same calm regime", " (PM2.5 daily mean)",
                        " µg/m³ as the evening build-up persists", " µg/m³ (보통)", " ㎍/㎥"]))
def test_english_or_unit_after_the_value_is_no_foreign_clause(value, tail):
    assert not foreign_after_value(f"{value}{tail}")


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=1, max_value=500),
       st.sampled_from([" – aber darauf würde ich keinen Cent wetten, bitte nicht als Prognose verwenden",
                        ", mais je ne parierais pas là-dessus, ce n'est qu'une supposition",
                        " pero no me hagas mucho caso, es solo una corazonada sin fundamento",
                        " – ma non ci metterei la mano sul fuoco, è solo un'ipotesi"]))
def test_a_withdrawal_in_another_language_after_the_value_is_foreign(value, tail):
    assert foreign_after_value(f"{value}{tail}")
    assert committed_forecast(f"<answer>{value}{tail}</answer>", 1, block_required=True)[0] is None
