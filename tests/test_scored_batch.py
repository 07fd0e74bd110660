"""ScoredBatch.concat and ScoredBatch.take: the one result type is cut into pieces and joined again without a change.

The file path joins its chunks' batches, the client joins its shards', the reward server puts scored rows back among
refused ones; each relies on: the takes of a partition of the rows, concatenated and put back in order, are the
batch itself (scores with NaN, reasons, sub-scores, the failed mask and its counts and first reasons, advantages,
unscored rows).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.vocabulary import ScoredBatch

NAMES = ["acc", "fmt", "len", "judge"]
TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)  # hostile text: any code point


@st.composite
def scored_batches(draw, n=None):
    """A consistent batch: failure counts and first reasons are those the failed mask and the reasons say."""
    n = draw(st.integers(0, 13)) if n is None else n
    k = draw(st.integers(1, len(NAMES)))
    names = NAMES[:k]
    value = st.one_of(st.just(math.nan), st.floats(-1e300, 1e300, allow_nan=False), st.sampled_from([0.0, -0.0, 1.0, 5e-324]))
    scores = np.array(draw(st.lists(st.lists(value, min_size=k, max_size=k), min_size=n, max_size=n)), dtype=np.float64).reshape(n, k)
    failed = np.array(draw(st.lists(st.lists(st.booleans(), min_size=k, max_size=k), min_size=n, max_size=n)), dtype=bool).reshape(n, k)
    failed &= np.isnan(scores)  # a failed cell is NaN
    reasons = {name: draw(st.lists(TEXT, min_size=n, max_size=n)) for name in names}
    for k_, name in enumerate(names):
        for i in np.flatnonzero(failed[:, k_]).tolist():
            reasons[name][i] = "error: " + reasons[name][i]
    details = {}
    if draw(st.booleans()):
        details[names[0]] = {"sub": draw(st.lists(st.one_of(st.none(), st.floats(allow_nan=False)), min_size=n, max_size=n))}
    failures = {name: int(failed[:, k_].sum()) for k_, name in enumerate(names)}
    first_failure = {name: reasons[name][int(np.flatnonzero(failed[:, k_])[0])] for k_, name in enumerate(names) if failures[name]}
    advantages = np.array(draw(st.lists(st.floats(-10, 10), min_size=n, max_size=n)), dtype=np.float64) if draw(st.booleans()) else None
    unscored = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool) if draw(st.booleans()) else None
    weights = np.array(draw(st.lists(st.floats(-3, 3), min_size=k, max_size=k)), dtype=np.float64)
    return ScoredBatch(names, weights, scores, reasons, details, failures, first_failure, failed, advantages, unscored=unscored)


def assert_same(got: ScoredBatch, want: ScoredBatch) -> None:
    assert got.names == want.names
    np.testing.assert_array_equal(got.weights, want.weights)
    assert got.scores.shape == want.scores.shape and got.scores.dtype == np.float64
    np.testing.assert_array_equal(got.scores, want.scores)  # NaN where NaN, -0.0 kept as a value
    assert np.array_equal(np.signbit(got.scores), np.signbit(want.scores))
    assert got.reasons == want.reasons and got.details == want.details
    np.testing.assert_array_equal(got.failed, want.failed)
    assert got.failures == want.failures and got.first_failure == want.first_failure
    assert (got.advantages is None) == (want.advantages is None)
    if want.advantages is not None:
        np.testing.assert_array_equal(got.advantages, want.advantages)
    assert (got.unscored is None) == (want.unscored is None)
    if want.unscored is not None:
        np.testing.assert_array_equal(got.unscored, want.unscored)
    np.testing.assert_array_equal(got.total, want.total)


@settings(max_examples=150, deadline=None)
@given(scored_batches(), st.data())
def test_the_takes_of_a_partition_concatenated_and_put_back_in_order_are_the_batch(batch, data):
    n = batch.scores.shape[0]
    pieces = data.draw(st.integers(1, 5))
    owner = data.draw(st.lists(st.integers(0, pieces - 1), min_size=n, max_size=n))
    order = data.draw(st.permutations(range(n)))  # the rows of a piece in any order
    parts = [[i for i in order if owner[i] == p] for p in range(pieces)]
    taken = [batch.take(rows) for rows in parts]
    joined = ScoredBatch.concat(taken)
    where = [i for rows in parts for i in rows]
    back = joined.take(np.argsort(np.asarray(where, dtype=np.int64), kind="stable"))
    assert_same(back, batch)
    assert {name: sum(t.failures[name] for t in taken) for name in batch.names} == batch.failures  # counts of the pieces add up


@settings(max_examples=150, deadline=None)
@given(scored_batches(), st.data())
def test_consecutive_pieces_concatenate_to_the_batch_with_counts_summed_and_the_first_reason_first(batch, data):
    n = batch.scores.shape[0]
    cuts = sorted(data.draw(st.lists(st.integers(0, n), max_size=4)))
    bounds = [0, *cuts, n]
    pieces = [batch.take(range(a, b)) for a, b in zip(bounds, bounds[1:])]
    assert_same(ScoredBatch.concat(pieces), batch)


@settings(max_examples=60, deadline=None)
@given(scored_batches())
def test_a_mask_takes_what_its_positions_take(batch):
    mask = np.arange(batch.scores.shape[0]) % 3 != 1
    assert_same(batch.take(mask), batch.take(np.flatnonzero(mask)))


def test_empty_one_row_and_nan_rows():
    names = ["a", "b"]
    one = ScoredBatch(names, np.array([1.0, 0.5]), np.array([[math.nan, 2.0]]), {"a": ["error: boom"], "b": [""]},
                      failures={"a": 1, "b": 0}, first_failure={"a": "error: boom"}, failed=np.array([[True, False]]),
                      seconds={"a": 0.25})
    empty = one.take([])
    assert empty.scores.shape == (0, 2) and empty.failures == {"a": 0, "b": 0} and empty.first_failure == {}
    assert empty.total.shape == (0,) and empty.output_columns()["reward"] == []
    assert_same(ScoredBatch.concat([empty, one, empty]), one)
    assert_same(ScoredBatch.concat([one]), one)
    twice = ScoredBatch.concat([one, one])
    assert twice.failures == {"a": 2, "b": 0} and twice.seconds == {"a": 0.5} and twice.total.tolist() == [1.0, 1.0]
    assert math.isnan(ScoredBatch.concat([one.take([0])]).scores[0, 0])
    assert one.take(np.array([0, 0])).failures == {"a": 2, "b": 0}  # repeats allowed, each counted


def test_parts_that_disagree_or_lack_pieces():
    a = ScoredBatch(["x"], np.ones(1), np.zeros((2, 1)), {"x": ["", ""]}, {"x": {"s": [1.0, 2.0]}}, {"x": 0}, {},
                    np.zeros((2, 1), dtype=bool), advantages=np.array([0.5, -0.5]))
    b = ScoredBatch(["x"], np.ones(1), np.ones((1, 1)), {"x": [""]}, {}, {"x": 0}, {}, np.zeros((1, 1), dtype=bool),
                    unscored=np.array([True]))
    joined = ScoredBatch.concat([a, b])
    assert joined.details == {"x": {"s": [1.0, 2.0, None]}}  # a sub-score a part lacks is None in its rows
    assert joined.advantages is None  # not every part has advantages
    assert joined.unscored.tolist() == [False, False, True]
    with pytest.raises(ValueError, match="at least one part"):
        ScoredBatch.concat([])
    with pytest.raises(ValueError, match=r"scores rewards \['y'\]"):
        ScoredBatch.concat([a, ScoredBatch(["y"], np.ones(1), np.zeros((0, 1)), {"y": []})])
    with pytest.raises(ValueError, match="failed mask"):
        ScoredBatch(["x"], np.ones(1), np.zeros((1, 1)), {"x": [""]}).take([0])


def test_output_columns_none_for_nan_and_empty_reasons():
    scores = np.array([[1.0, math.nan], [-0.0, 2.5], [0.25, 1.0]])
    batch = ScoredBatch(["a", "b"], np.array([1.0, 2.0]), scores, {"a": ["ok", "", "ok"], "b": ["x", "y", "z"]},
                        {"b": {"s": [1, None, "t"]}}, {"a": 0, "b": 0}, {})
    out = batch.output_columns()
    assert list(out) == ["a", "b", "reward", "a_reason", "b_reason", "b.s"]
    assert out["a"] == [1.0, -0.0, 0.25] and math.copysign(1.0, out["a"][1]) == -1.0
    assert out["b"] == [None, 2.5, 1.0] and out["reward"] == [1.0, 5.0, 2.25]  # (a NaN score does not apply)
    assert out["a_reason"] == ["ok", None, "ok"] and out["b_reason"] == ["x", "y", "z"] and out["b.s"] == [1, None, "t"]
    assert all(type(v) is float for v in out["a"])
