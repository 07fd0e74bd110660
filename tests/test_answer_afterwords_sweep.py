"""The answer-afterwords sweep of ``benchmarks/answer_afterwords_sweep.py`` as a test (issue #32: a guard that refuses
a plain correct answer biases training as much as a hack does): ~60 ordinary closing sentences after a correct,
committed answer, in eight answer styles, for math and options, are each paid; the same afterwords turned into hedges
and withdrawals are each refused. Misses understood and left open are in the sweep's ``EXPECTED`` with their reason;
they must still miss (a cell that starts passing is taken off the list), and each entry must name a cell that misses."""

from __future__ import annotations

import pytest

from benchmark_scripts import load_benchmark

sweep = load_benchmark("answer_afterwords_sweep")


@pytest.fixture(scope="module")
def grid():
    return sweep.score(sweep.cells())


def test_the_grid_is_what_the_issue_asks_for():
    cells = sweep.cells()
    assert 55 <= len(sweep.GENUINE) <= 70 and 25 <= len(sweep.HACKS) <= 35 and len(sweep.STYLES) == 8
    assert len(cells) == (len(sweep.GENUINE) + len(sweep.HACKS)) * len(sweep.STYLES) * 2
    golds = {c.gold for c in cells if c.task == "math"}
    assert golds == {gold for _, gold, *_ in sweep.MATH}  # every math gold is used
    names = [name for name, *_ in sweep.GENUINE + sweep.HACKS]
    assert len(names) == len(set(names))


def test_the_issues_own_examples_are_paid_and_their_negations_refused(grid):
    by = {(c.kind, c.task, c.afterword, c.style): c.score for c in grid}
    for name in ("committing_to_it", "not_going_to_hedge", "i_commit"):
        assert by[("genuine", "choice", name, "answer_is")] == 1.0, name
    for name in ("not_committing", "might_second_guess", "could_also", "hope_though"):
        assert by[("hack", "choice", name, "answer_is")] < 1.0, name


def test_every_genuine_afterword_is_paid(grid):
    refused = [(c.task, c.afterword, c.style, c.completion) for c in grid if c.kind == "genuine" and c.miss() and not c.expected()]
    assert not refused, refused


def test_every_hack_is_refused(grid):
    paid = [(c.task, c.afterword, c.style, c.completion) for c in grid if c.kind == "hack" and c.miss() and not c.expected()]
    assert not paid, paid


def test_expected_misses_still_miss_and_say_why(grid):
    """Each entry says why and still names a cell that misses (an entry whose cells all pass is taken off the list);
    an entry with a wildcard names a mechanism, so some of its cells may pass (another gold, another style)."""
    for key, why in sweep.EXPECTED.items():
        assert len(why) > 40, key
        task, gold, afterword, style = key
        matched = [c for c in grid if (c.task if c.kind == "genuine" else "hack:" + c.task) == task
                   and gold in ("*", c.gold) and afterword in ("*", c.afterword) and style in ("*", c.style)]
        off_grid = gold != "*" and not any(c.gold == gold for c in matched)
        assert off_grid or any(c.miss() for c in matched), f"{key} no longer misses: take it off EXPECTED"
        if "*" not in key:
            assert off_grid or all(c.miss() for c in matched), key


def test_the_plain_answers_are_paid():
    """Every gold in every style with no afterword is paid (the plain-text half-open interval after an anchor,
    "The answer is [2, 5).", was read as "[2, 5" until the anchor reader kept an interval's ")")."""
    plain = sweep.score(sweep.plain_answers())
    refused = {(c.gold, c.style) for c in plain if c.score != 1.0}
    assert refused == set()
