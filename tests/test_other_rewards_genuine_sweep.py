"""The genuine-style sweep and cheapest-exploit attack of ``benchmarks/other_rewards_genuine_sweep.py`` as a test
(issue #32: a guard never refuses a plain correct answer, and a policy's cheapest exploit is never paid): every
answer-reading reward other than math / choice, 3-5 tasks x 10 answer styles of genuine correct output, each paid the
reward's full credit, and each exploit scoring below the genuine answer of its own task (for the length penalty: not
above the same text spelled plainly). Cells whose miss is a documented exact-source rule or a disputed label are in
the sweep's ``EXPECTED`` with their reason; they must still miss (a cell that starts passing is taken off the list)."""

from __future__ import annotations

import pytest

from benchmark_scripts import load_benchmark

sweep = load_benchmark("other_rewards_genuine_sweep")


@pytest.fixture(scope="module")
def grid():
    return sweep.score(sweep.cells())


def test_grid_covers_every_reward_in_ten_styles():
    cells = sweep.cells()
    for reward in sweep.BUILDERS:
        genuine = [c for c in cells if c.reward == reward and c.kind == "genuine"]
        tasks = {c.task for c in genuine}
        assert 3 <= len(tasks) <= 5, reward
        assert {c.name for c in genuine} == set(sweep.STYLES), reward
        assert len(genuine) == len(tasks) * len(sweep.STYLES)
        assert any(c.reward == reward and c.kind == "exploit" for c in cells), reward
    assert set(sweep.BUILDERS) == set(sweep.PARAMS) == set(sweep.FULL)


def test_every_genuine_answer_is_paid_full_credit(grid):
    refused = [(c.key, c.score, c.reason) for c in grid
               if c.kind == "genuine" and c.miss() and c.key not in sweep.EXPECTED]
    assert not refused, refused


def test_every_exploit_scores_below_its_genuine_twin(grid):
    paid = [(c.key, c.score, c.twin_score, c.reason) for c in grid
            if c.kind == "exploit" and c.miss() and c.key not in sweep.EXPECTED]
    assert not paid, paid


def test_expected_cells_still_miss_and_say_why(grid):
    by_key = {c.key: c for c in grid}
    for key, why in sweep.EXPECTED.items():
        assert key in by_key, key  # never a cell silently dropped from the grid
        assert len(why) > 20, key
        assert by_key[key].miss(), f"{key} now passes: take it off EXPECTED"
