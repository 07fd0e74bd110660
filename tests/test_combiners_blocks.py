"""The shortcuts of issue #35's third pass hold to the general path bit for bit.

- Per-group standardisation of contiguous groups runs on runs of whole groups that stay in cache
  (:func:`~polyreward.combiners.group_stats.standardise_in_blocks`); GDPO zero-fills, measures and finds the unscored
  rows of each run there. Run sizes of 1-40 rows (runs cut inside and at group boundaries, groups longer than a run)
  must give what one run of the whole batch gives.
- GRPO and GDPO read float32 scores without a float64 copy of the whole matrix: the same bits as the float64 values.
- Group ids in runs of one size skip the search for the run starts.

Values: ragged and equal groups of sizes that are not powers of two, G = 1, a single group, NaN cells and rows,
constant groups of values a float cannot hold (0.1, 1/3), -0.0, huge (1e300, needing the unit scale) and subnormal
values, interleaved (non-contiguous) ids.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.combiners import group_stats
from polyreward.combiners.gdpo import GDPOCombiner
from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.grpo import GRPOCombiner
from polyreward.vocabulary import weighted_total

NON_DYADIC = (0.1, 1 / 3, 0.7, 2.3, -0.6)
MAGNITUDES = {"unit": 1.0, "huge": 1e300, "subnormal": 1e-310, "float32 range": 1e30}


def batch(seed: int, sizes: list[int], k: int, magnitude: str, nan_share: float) -> tuple[np.ndarray, np.ndarray]:
    """(scores (N, K) float64, contiguous group ids) with NaN cells, a row without scores, constant groups, -0.0."""
    rng = np.random.default_rng(seed)
    n = sum(sizes)
    scale = MAGNITUDES[magnitude]
    scores = rng.integers(-3, 4, (n, k)) / 3.0 * scale if seed % 2 else rng.normal(size=(n, k)) * scale
    scores[rng.random((n, k)) < 0.05] = -0.0
    scores[rng.random((n, k)) < nan_share] = np.nan
    if n > 2 and seed % 3 == 0:
        scores[int(rng.integers(0, n))] = np.nan
    groups = np.repeat(np.arange(len(sizes)) * 3 + 1, sizes)
    for g in np.flatnonzero(rng.random(len(sizes)) < 0.3):  # constant groups of non-dyadic values
        scores[groups == g * 3 + 1] = rng.choice(NON_DYADIC, k) * scale
    return scores, groups


SIZES = st.one_of(
    st.lists(st.sampled_from([1, 2, 3, 5, 6, 7, 9, 12, 33]), min_size=1, max_size=12),  # ragged
    st.tuples(st.sampled_from([1, 2, 3, 5, 7, 8, 9, 17]), st.integers(1, 12)).map(lambda gn: [gn[0]] * gn[1]),  # equal
)


class blocks_of:
    """Within the block: standardisation (and GDPO) cut contiguous groups into runs of about ``cells`` cells."""

    def __init__(self, cells: int) -> None:
        self.cells = cells

    def __enter__(self):
        self.saved = group_stats.BLOCK_CELLS
        group_stats.BLOCK_CELLS = self.cells

    def __exit__(self, *exc):
        group_stats.BLOCK_CELLS = self.saved


WHOLE = 10**12  # one run of the whole batch: the general path


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), SIZES, st.integers(1, 4), st.sampled_from(sorted(MAGNITUDES)),
       st.sampled_from([0.0, 0.1, 0.4]), st.integers(1, 40), st.sampled_from(["zero", "raw"]), st.booleans())
def test_standardising_runs_of_whole_groups_changes_no_bit(seed, sizes, k, magnitude, nan_share, cells, singleton, one_d):
    scores, groups = batch(seed, sizes, k, magnitude, nan_share)
    x = scores[:, 0].copy() if one_d else scores
    index = GroupIndex.from_ids(groups, len(x))
    with blocks_of(WHOLE):
        whole = group_stats.standardise_per_group(x, index, 1e-4, ddof=1, singleton=singleton)
    with blocks_of(cells):
        runs = group_stats.standardise_per_group(x, index, 1e-4, ddof=1, singleton=singleton)
    assert runs.tobytes() == whole.tobytes()
    if index.starts is not None:  # the blocked function itself, at any run size, and from float32 values
        blocked = group_stats.standardise_in_blocks(x, index, 1e-4, ddof=1, singleton=singleton, rows=cells)
        if group_stats.group_unit_scale(x, index) is None:
            assert blocked.tobytes() == whole.tobytes()
        narrow = x.astype(np.float32)
        with blocks_of(WHOLE):
            want = group_stats.standardise_per_group(narrow.astype(np.float64), index, 1e-4, ddof=1, singleton=singleton)
        got = group_stats.standardise_in_blocks(narrow, index, 1e-4, ddof=1, singleton=singleton, rows=cells)
        assert got.tobytes() == want.tobytes()


GDPO_PARAMS = [{}, {"variant": "nvlabs"}, {"variant": "verl"}, {"variant": "nemo_rl"}, {"batch_norm": "none"},
               {"singleton": "raw"}]
GRPO_PARAMS = [{}, {"scale": "batch"}, {"scale": "none"}, {"singleton": "raw", "eps": 1e-6}]


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32 - 1), SIZES, st.integers(1, 4), st.sampled_from(sorted(MAGNITUDES)),
       st.sampled_from([0.0, 0.1, 0.4]), st.integers(1, 40), st.sampled_from(range(len(GDPO_PARAMS) + len(GRPO_PARAMS))),
       st.booleans())
def test_grpo_and_gdpo_on_runs_of_groups_and_on_float32_scores_change_no_bit(
        seed, sizes, k, magnitude, nan_share, cells, which, shuffle):
    """The whole combiner (GDPO's zero-fill, unscored rows and largest |Â| per run; either on float32 input), against
    one run of the whole batch on the float64 values; shuffled ids take the general path both times."""
    torch = pytest.importorskip("torch")
    cls, params = ((GDPOCombiner, GDPO_PARAMS[which]) if which < len(GDPO_PARAMS)
                   else (GRPOCombiner, GRPO_PARAMS[which - len(GDPO_PARAMS)]))
    scores, groups = batch(seed, sizes, k, magnitude, nan_share)
    if shuffle:
        order = np.random.default_rng(seed).permutation(len(groups))
        scores, groups = scores[order], groups[order]
    weights = np.random.default_rng(seed + 1).normal(size=k) * (1e280 if seed % 7 == 0 else 1.0)  # an overflow scale
    with blocks_of(WHOLE):
        try:
            whole = cls(**params).combine(scores, groups, weights)
        except ValueError:  # advantages beyond the float64 range: refused, the same way (tested elsewhere)
            with blocks_of(cells), pytest.raises(ValueError):
                cls(**params).combine(scores, groups, weights)
            return
    with blocks_of(cells):
        assert cls(**params).combine(scores, groups, weights).tobytes() == whole.tobytes()
    if np.isfinite(scores.astype(np.float32)[~np.isnan(scores)]).all():
        narrow = scores.astype(np.float32)
        with blocks_of(WHOLE):
            try:
                want = cls(**params).combine(narrow.astype(np.float64), groups, weights).astype(np.float32)
            except ValueError:
                return
        with blocks_of(cells):
            for given_scores in (narrow, torch.from_numpy(narrow)):
                got = np.asarray(cls(**params).combine(given_scores, groups, weights))
                assert got.dtype == np.float32 and got.tobytes() == want.tobytes(), type(given_scores)


def test_a_million_rows_in_runs_equal_one_run():
    """The benchmark's layout at full size (1,000,000 x 4, G = 8, 1 % NaN): the default runs against one run."""
    rng = np.random.default_rng(3)
    n = 200_000
    scores = np.column_stack([rng.integers(0, 2, n), rng.integers(0, 2, n), rng.uniform(0, 1, n).round(2),
                              -rng.exponential(0.3, n).round(3)]).astype(np.float32)
    scores[rng.random(scores.shape) < 0.01] = np.nan
    groups = np.repeat(np.arange(n // 8), 8)
    weights = np.array([1.0, 0.5, 1.0, 0.2])
    for cls in (GRPOCombiner, GDPOCombiner):
        with blocks_of(WHOLE):
            whole = cls().combine(scores.astype(np.float64), groups, weights)
        assert cls().combine(scores, groups, weights).tobytes() == whole.astype(np.float32).tobytes()
        assert cls().combine(scores.astype(np.float64), groups, weights).tobytes() == whole.tobytes()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 9), min_size=1, max_size=30), st.sampled_from(["int", "float", "str"]), st.booleans())
def test_group_runs_of_one_size_give_the_starts_the_search_gives(sizes, kind, interleave):
    """Ids in runs of one size (or not): the starts, codes and sizes equal those found by searching every change."""
    ids = np.repeat(np.arange(len(sizes)) * 5 - 7, sizes)
    if interleave:
        ids = np.tile(np.arange(3), len(ids))[: len(ids)]  # 0 1 2 0 1 2 ...: no contiguous groups
    ids = {"int": ids, "float": ids.astype(np.float64), "str": ids.astype(str)}[kind]
    index = GroupIndex.from_ids(ids, len(ids))
    change = ids[1:] != ids[:-1]
    runs = np.concatenate(([0], np.flatnonzero(change) + 1))
    if index.starts is not None:
        assert index.starts.tolist() == runs.tolist()
        assert index.sizes().tolist() == np.diff(runs, append=len(ids)).tolist()
    seen: dict = {}
    assert index.codes.tolist() == [seen.setdefault(i, len(seen)) for i in ids.tolist()]


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 300), st.integers(1, 6), st.sampled_from([0.0, 0.2, 1.0]), st.integers(0, 2**32 - 1))
def test_weighted_total_of_float32_scores_is_that_of_their_float64_values(n, k, nan_share, seed):
    rng = np.random.default_rng(seed)
    narrow = (rng.normal(size=(n, k)) * 10.0 ** rng.integers(-40, 38, size=(n, k))).astype(np.float32)
    narrow[rng.random((n, k)) < nan_share] = np.nan
    narrow[rng.random((n, k)) < 0.05] = -0.0
    weights = rng.normal(size=k) * 10.0 ** rng.integers(-3, 3, size=k)
    assert weighted_total(narrow, weights).tobytes() == weighted_total(narrow.astype(np.float64), weights).tobytes()


SUM_VALUES = st.sampled_from([0.0, -0.0, 0.1, -0.1, 1 / 3, 2.3, 1e-310, -1e-310, 5e-324, 1e300, -1e300, 1.7e308,
                              -1.7e308, 1e16, 1.0, -1.0, float("nan"), float("inf"), float("-inf")])


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 12), st.integers(1, 30), st.data(), st.booleans())
def test_per_group_sums_of_equal_runs_are_reduceats_bit_for_bit(size, n_groups, data, finite_only):
    """GroupIndex.sum of (N,) values in runs of one size (the strided form for 2-8 rows) against ``np.add.reduceat``:
    non-representable, -0.0, subnormal and huge values (sums that overflow), NaN and inf (reduceat itself then)."""
    values = np.array(data.draw(st.lists(st.one_of(SUM_VALUES, st.floats(allow_nan=not finite_only, allow_infinity=not finite_only)),
                                         min_size=size * n_groups, max_size=size * n_groups)), dtype=np.float64)
    if finite_only:
        values[~np.isfinite(values)] = 0.5
    index = GroupIndex.from_ids(np.repeat(np.arange(n_groups), size), len(values))
    assert index.uniform_size == size
    with np.errstate(over="ignore", invalid="ignore"):
        want = np.add.reduceat(values, np.arange(0, len(values), size))
        assert index.sum(values).tobytes() == want.tobytes()
        if 2 <= size <= 8 and np.isfinite(want).all():
            from polyreward.combiners.group_index import sum_equal_runs

            assert sum_equal_runs(values, size).tobytes() == want.tobytes()


def test_the_extremes_of_the_inf_check_serve_only_the_call_that_found_them():
    """A float64 matrix may be the caller's own array: the extremes its inf check found are read once, by the overflow
    check of the same ``combine``, and forgotten after it, so a changed array is measured again."""
    from polyreward.combiners import inputs

    rng = np.random.default_rng(5)
    scores = rng.normal(size=(64, 3))
    groups = np.repeat(np.arange(8), 8)
    weights = np.array([1.0, 0.5, 2.0])
    first = GRPOCombiner().combine(scores, groups, weights)
    assert inputs._EXTREMES.matrix is None
    assert first.tobytes() == GRPOCombiner().combine(scores.copy(), groups, weights).tobytes()
    scores *= 2.0**1020  # now needs the overflow scale: measured afresh
    scores[0, 0] = 1.7e308
    assert GRPOCombiner().combine(scores, groups, weights).tobytes() == GRPOCombiner().combine(scores.copy(), groups, weights).tobytes()
    matrix = inputs.as_score_matrix(scores)  # not asked to remember: nothing kept
    assert inputs._EXTREMES.matrix is None and matrix is scores
    with pytest.raises(ValueError, match="inf"):
        GRPOCombiner().combine(np.where(scores > 0, np.inf, scores), groups, weights)
