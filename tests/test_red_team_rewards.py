"""Every row of the non-math red team (tests/data/red_team_rewards.jsonl, benchmarks/red_team_rewards.py) meets its
expectation when scored through the Scorer built from a Config, except the rows left open below, each with why."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import red_team_rewards as bench  # noqa: E402

# (reward, family) -> why the row is left open
LEFT_OPEN = {
    ("toolrl_correctness", "python_call_extra"): (
        "a Python code block calling rm_rf(...) is code, not a call in a tool-call format the prompt's runner parses; "
        "reading every fenced function call as a tool call would make any code answer an extra call"),
    ("toolrl_format", "filler_other_language"): (
        "Spanish filler words (vale, bueno, pues, entonces) are real words to the content-word rule, which knows the "
        "function words of English only; docs: what it cannot judge"),
    ("toolrl_format", "terse_think"): (
        "genuine but every word of 'Base 10, height 5: call calculate_triangle_area.' is a word of the prompt, which "
        "the pasted-prompt guard leaves out; a reasoning that restates the prompt's facts in its words counts 0"),
    ("kg_triplet_consistency", "template_disclaimer"): (
        "'Template (not a read of this study): <report>' disowns the report in a parenthesis before it; no shared "
        "reading takes a label of the text as a denial"),
    ("kg_triplet_consistency", "impression_added"): (
        "genuine: the offline extractor attaches 'left' in 'Cardiomegaly with small left effusion' to cardiomegaly "
        "too (nearest anatomy within 6 tokens, radiology_kg.py), a triplet the reference lacks (0.833)"),
    ("crpo_english", "pig_latin"): (
        "the language detector labels pig Latin English; a function-word floor would refuse terse clinical English"),
    ("crpo_english", "leetspeak"): (
        "the shared reading (reading.normalise) reads leet inside words as the letters it stands for, so the text is "
        "English to the reader by design"),
}

ROWS = bench.load_rows()


@pytest.fixture(scope="module")
def results():
    return bench.score_rows(ROWS)


def test_left_open_rows_exist():
    families = {(row["reward"], row["family"]) for row in ROWS}
    assert set(LEFT_OPEN) <= families


def test_every_row_meets_its_expectation(results):
    missed = []
    for row, (score, ref, reason, _) in zip(ROWS, results):
        if bench.verdict(row, score, ref) and (row["reward"], row["family"]) not in LEFT_OPEN:
            missed.append(f"{row['reward']} {row['kind']} {row['family']} {row['params']}: {score} vs {ref} ({reason})")
    assert not missed, "\n".join(missed)


def test_references_get_full_credit(results):
    """The plain genuine answer of each row scores the reward's best (the length penalty's reference is the row's own
    text, which may be penalised)."""
    for row, (_, ref, _, ref_reason) in zip(ROWS, results):
        if row["reward"] in bench.STRICT_ABOVE:
            continue
        best = {"toolrl_correctness": 3.0, "crpo_format": 1.5}.get(row["reward"], 1.0)
        assert ref == pytest.approx(best), (row["reward"], row["family"], ref_reason)
