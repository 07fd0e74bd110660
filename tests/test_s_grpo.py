"""S-GRPO's decaying serial-group reward (``combiners/s_grpo.py``, reconstructed from arXiv 2505.07686 §3): a table
worked by hand and properties the paper's description implies."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.combiners.s_grpo import SGRPOCombiner
from polyreward.config import parse_config


def test_a_table_worked_by_hand():
    scores = np.array([[0], [1], [1], [1], [0], [0], [1], [1], [1]], float)
    groups = ["a"] * 4 + ["b"] * 2 + ["c"] * 3
    positions = [10, 20, 30, 40, 5, 6, 30, 10, 20]
    # a: exits in order 10, 20, 30, 40 earn 0, 1, 1/2, 1/4 (mean 7/16); b: all wrong; c: in exit order 10, 20, 30
    # (rows 7, 8, 6) earn 1, 1/2, 1/4 (mean 7/12)
    expected = [-7 / 16, 9 / 16, 1 / 16, -3 / 16, 0, 0, 0.25 - 7 / 12, 1 - 7 / 12, 0.5 - 7 / 12]
    np.testing.assert_allclose(SGRPOCombiner().combine(scores, groups, exit_position=positions), expected, rtol=0, atol=1e-15)


def test_decay_threshold_ties_and_missing_rows():
    scores = np.array([[0.6], [0.9], [np.nan], [0.7], [0.2]])
    # threshold 0.5: rows 0, 1, 3 correct; row 2 unscored; equal positions keep row order (0 before 1)
    got = SGRPOCombiner(decay=3.0, correct_threshold=0.5).combine(scores, [1] * 5, exit_position=[5, 5, None, 9, 1])
    earned = np.array([1.0, 1 / 3, 0.0, 1 / 9, 0.0])
    mean = earned[[0, 1, 3, 4]].mean()
    np.testing.assert_allclose(got, [1 - mean, 1 / 3 - mean, 0.0, 1 / 9 - mean, -mean], rtol=0, atol=1e-15)
    assert SGRPOCombiner().combine(np.array([[1.0]]), [0], exit_position=[3]).tolist() == [0.0]  # a lone rollout


@pytest.mark.parametrize("params, message", [
    ({"decay": 0.5}, "decay must be >= 1"),
    ({"decay": -1}, "decay"),
    ({"correct_threshold": float("nan")}, "correct_threshold"),
])
def test_bad_parameters_are_one_line(params, message):
    with pytest.raises(ValueError, match=message):
        SGRPOCombiner(**params)


def test_bad_positions_are_one_line():
    with pytest.raises(ValueError, match="row 1 has nan"):
        SGRPOCombiner().combine(np.array([[1.0], [0.0]]), [0, 0], exit_position=[1, float("nan")])
    with pytest.raises(ValueError, match="2 values"):
        SGRPOCombiner().combine(np.array([[1.0], [0.0]]), [0, 0], exit_position=[1])


def test_a_config_names_it_with_its_row_column():
    config = parse_config({"rewards": [{"name": "acc", "type": "math_accuracy"}],
                           "combiner": {"type": "s_grpo", "decay": 2},
                           "columns": {"exit_position": "cut_at"}})
    combiner = config.build_combiner()
    assert type(combiner).__name__ == "SGRPOCombiner" and combiner.row_sources == {"exit_position": "cut_at"}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.sampled_from([0.0, 1.0, 0.3, float("nan")]), st.integers(0, 50)),
                min_size=1, max_size=40))
def test_properties(rows):
    groups = [g for g, _, _ in rows]
    scores = np.array([[s] for _, s, _ in rows])
    positions = [p for _, _, p in rows]
    got = SGRPOCombiner().combine(scores, groups, exit_position=positions)
    assert np.isfinite(got).all()
    for g in set(groups):
        rows_g = [i for i, (gg, s, _) in enumerate(rows) if gg == g and not np.isnan(s)]
        if not rows_g:
            continue
        n = len(rows_g)
        assert abs(got[rows_g].sum()) < 1e-12  # centred on the group mean
        assert (np.abs(got[rows_g]) <= 1 - 1 / n + 1e-12).all()  # the declared bound
        correct = [i for i in rows_g if scores[i, 0] >= 1.0]
        if not correct:
            assert (got[rows_g] == 0).all()  # an all-wrong group moves nothing
        else:
            first = min(correct, key=lambda i: (positions[i], i))
            assert got[first] == got[rows_g].max()  # the earliest correct exit earns the most
    assert (got[np.isnan(scores[:, 0])] == 0).all()
