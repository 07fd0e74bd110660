"""The speed work of issue #35 changes no advantage by a single bit.

``tests/data/combiner_golden.npz`` was written by ``tests/combiner_golden_cases.py`` with the code before that work
(every registered combiner, GRPO/GDPO variants, DRPO over a sequence of batches; ids as numpy ints, shuffled ints,
strings, floats, mixed int/str and torch tensors; scores as float64, float32 and torch). Each output must have the
same bytes today. A hypothesis test compares the vectorised group-id factorisation with a plain-Python reference.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from combiner_golden_cases import GOLDEN, case_list, configurations, make_case, run
from polyreward.combiners.group_index import GroupIndex
from polyreward.vocabulary import group_ids, group_key, weighted_total

EXPECTED = dict(np.load(GOLDEN, allow_pickle=False))


GOLDEN_CONFIGS = sorted({key.split("|")[0] for key in EXPECTED} - {"drpo-sequence"})
# a combiner registered after the golden file was written has no "before" to equal; every one with golden outputs
# (every combiner and variant registered before the speed work) is checked
CONFIGS = [c for c in configurations() if c[0] in GOLDEN_CONFIGS]


def test_golden_outputs_cover_the_combiners_and_variants_they_were_written_for():
    assert len(GOLDEN_CONFIGS) >= 30
    assert {key for key, _, _ in CONFIGS} == set(GOLDEN_CONFIGS), "a combiner or variant with golden outputs is gone"


@pytest.mark.parametrize("key,name,params", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_outputs_bit_identical(key, name, params):
    checked = 0
    for seed, ids, kind in case_list():
        expected = EXPECTED.get(f"{key}|{seed}")
        if expected is None:
            continue
        result = run(name, params, make_case(seed, ids, kind))
        assert result.dtype == expected.dtype, (seed, ids, kind)
        assert result.tobytes() == expected.tobytes(), (
            f"{key} seed {seed} ({ids} ids, {kind} scores): max |diff| {np.nanmax(np.abs(result - expected)):.3g}")
        checked += 1
    assert checked


def test_drpo_sequence_bit_identical():
    """One DRPO over every case in turn: each call clusters the questions of the earlier cases too (its history)."""
    from polyreward import registry

    drpo = registry.build_combiner("drpo")
    for seed, ids, kind in case_list():
        case = make_case(seed, ids, kind)
        groups = case["groups"].numpy() if hasattr(case["groups"], "numpy") else case["groups"]
        result = np.asarray(drpo.combine(case["raw"], groups, case["weights"], domain=case["extra"]["domain"]))
        assert result.tobytes() == EXPECTED[f"drpo-sequence|{seed}"].tobytes(), seed


# ------------------------------------------------------------------------------ group ids
def reference_codes(ids: list) -> np.ndarray:
    """Group codes in order of first appearance, one dict look-up per row (what the vectorised path must equal)."""
    seen: dict = {}
    return np.asarray([seen.setdefault(i, len(seen)) for i in ids], dtype=np.intp)


def _key(value):
    return "nan" if isinstance(value, float) and value != value else value


ID_VALUES = st.one_of(
    st.integers(-(2**62), 2**62),
    st.integers(-3, 3),
    st.sampled_from([0.5, -1.25, 3.0, float("nan"), 1e300]),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(ID_VALUES, min_size=0, max_size=60), st.sampled_from(["int", "float", "torch", "torch_float", "list"]))
@example([-4_611_686_018_427_387_648, -4_611_686_018_427_387_649, 0.5], "list")  # found by the stop-54 CI run: two ints
def test_group_codes_equal_a_python_reference(values, kind):  # past 2**53 beside a float merged into one float
    if kind in ("int", "torch"):
        values = [v if isinstance(v, int) else int(v) if v == v and abs(v) < 2**62 else 7 for v in values]
    if kind == "int":
        ids = np.asarray(values, dtype=np.int64)
    elif kind == "float":
        ids = np.asarray(values, dtype=np.float64)
    elif kind == "torch":
        import torch

        ids = torch.as_tensor(np.asarray(values, dtype=np.int64))
    elif kind == "torch_float":
        import torch

        ids = torch.as_tensor(np.asarray(values, dtype=np.float64))
    else:
        ids = values
    plain = [_key(float(v)) if kind in ("float", "torch_float") else _key(v) for v in values]
    index = GroupIndex.from_ids(ids, len(values))
    np.testing.assert_array_equal(index.codes, reference_codes(plain))
    assert index.n_groups == len(set(plain))
    fresh = GroupIndex.from_ids(ids, len(values))  # codes of some rows before (or without) every row's code
    rows = np.arange(len(values))[::3]
    np.testing.assert_array_equal(fresh.codes_of(rows), reference_codes(plain)[rows])
    np.testing.assert_array_equal(fresh.sizes(), np.bincount(reference_codes(plain), minlength=fresh.n_groups))


# ------------------------------------------------------------------------------ the weighted total


def left_to_right_nansum(scores: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The definition, one row and one reward at a time in plain Python floats (IEEE double, no fused operations)."""
    out = []
    for row in scores.tolist():
        applicable = [(float(v), float(w)) for v, w in zip(row, weights) if not math.isnan(v)]
        total = math.nan
        if applicable:
            total = 0.0
            for v, w in zip(row, weights):
                total += 0.0 * float(w) if math.isnan(v) else v * float(w)
        out.append(total)
    return np.array(out, dtype=np.float64)


def score_matrix(rng, n: int, k: int, nan_share: float, spread: int) -> np.ndarray:
    scores = rng.normal(size=(n, k)) * 10.0 ** rng.integers(-spread, spread + 1, size=(n, k))
    scores[rng.random((n, k)) < 0.05] = -0.0
    scores[rng.random((n, k)) < nan_share] = np.nan
    return scores


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 40), st.integers(1, 9), st.sampled_from([0.0, 0.1, 0.5, 1.0]), st.sampled_from([0, 2, 300]),
       st.integers(0, 2**32 - 1))
def test_weighted_total_is_the_left_to_right_nansum_bit_for_bit(n, k, nan_share, spread, seed):
    """Σ_k w_k R_ik summed left to right with NaN as 0, NaN where no reward applies; any K (word check or not),
    values of one magnitude (where the order of the sum shows in the last bit) and of every magnitude, -0.0."""
    rng = np.random.default_rng(seed)
    scores = score_matrix(rng, n, k, nan_share, spread)
    weights = rng.normal(size=k) * 10.0 ** rng.integers(-3, 3, size=k)
    assert weighted_total(scores, weights).tobytes() == left_to_right_nansum(scores, weights).tobytes()


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 300), st.integers(1, 9), st.sampled_from([0.0, 0.2]), st.integers(0, 2**32 - 1), st.data())
def test_a_rows_weighted_total_does_not_depend_on_the_rows_around_it(n, k, nan_share, seed, data):
    """Same row, same bits, in a batch of one, in any slice, and in the whole matrix: a file's chunk size, a server
    request's size or an adapter's batch never change a total (a BLAS product did: 1-row and 2-row products of 4
    or 8 rewards of one magnitude rounded differently from the same rows in a large product)."""
    rng = np.random.default_rng(seed)
    scores = score_matrix(rng, n, k, nan_share, 1)
    weights = rng.normal(size=k)
    whole = weighted_total(scores, weights)
    start = data.draw(st.integers(0, n - 1))
    stop = data.draw(st.integers(start + 1, n))
    assert weighted_total(scores[start:stop], weights).tobytes() == whole[start:stop].tobytes()
    for i in data.draw(st.lists(st.integers(0, n - 1), max_size=5)):
        assert weighted_total(scores[i:i + 1], weights).tobytes() == whole[i:i + 1].tobytes()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 200), st.integers(1, 9), st.sampled_from([1, 2, 7, 64]), st.integers(0, 2**32 - 1))
def test_the_weighted_totals_row_blocks_change_no_bit(n, k, block, seed):
    """The total is summed in blocks of rows (cache); any block size, including ones that do not divide N, gives the
    bits of the left-to-right definition."""
    from polyreward import vocabulary

    rng = np.random.default_rng(seed)
    scores = score_matrix(rng, n, k, 0.2, 1)
    weights = rng.normal(size=k)
    default = vocabulary._SUM_BLOCK
    vocabulary._SUM_BLOCK = block
    try:
        blocked = weighted_total(scores, weights)
    finally:
        vocabulary._SUM_BLOCK = default
    assert blocked.tobytes() == left_to_right_nansum(scores, weights).tobytes()


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 200), st.integers(1, 4), st.sampled_from([0.0, 0.3]), st.integers(0, 2**32 - 1))
def test_weighted_total_equals_trls_nansum_bit_for_bit_up_to_four_rewards(n, k, nan_share, seed):
    """TRL 1.16 ``GRPOTrainer``: ``rewards = (rewards_per_func * self.reward_weights.to(device).unsqueeze(0)).nansum(dim=1)``
    (trl/trainer/grpo_trainer.py), float64 here. On CPU torch sums a row of up to 4 values left to right."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(seed)
    scores = score_matrix(rng, n, k, nan_share, 1)
    scores[np.isnan(scores).all(axis=1), 0] = 1.0  # TRL's nansum gives 0 for a row of NaN; ours NaN (tested above)
    weights = rng.normal(size=k)
    trl = (torch.from_numpy(scores) * torch.from_numpy(weights).unsqueeze(0)).nansum(dim=1).numpy()
    assert weighted_total(scores, weights).tobytes() == trl.tobytes()




@settings(max_examples=200, deadline=None)
@given(st.lists(ID_VALUES, min_size=0, max_size=40), st.sampled_from(["numpy_int", "numpy_float", "torch_int", "torch_float"]))
def test_group_ids_of_arrays_equal_group_key_per_element(values, kind):
    import torch

    if kind.endswith("int"):
        values = [v if isinstance(v, int) else int(v) if v == v and abs(v) < 2**62 else 7 for v in values]
        array = np.asarray(values, dtype=np.int64)
    else:
        array = np.asarray(values, dtype=np.float64)
    ids = torch.as_tensor(array) if kind.startswith("torch") else array
    fast = group_ids(ids)
    slow = [group_key(v) for v in array.tolist()]
    assert [None if v is None else v for v in fast.tolist()] == slow
    if slow and all(type(k) is int for k in slow):
        assert fast.dtype == np.int64


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(st.integers(-5, 5), st.integers(-(2**70), 2**70), st.booleans()), min_size=1, max_size=40),
       st.lists(st.sampled_from(["1", "01", "-3", "1.0", "q", "0.5", "", "9" * 25]), min_size=1, max_size=40))
def test_group_ids_of_lists_equal_group_key_per_element(numbers, texts):
    for values in (numbers, [v for v in numbers if type(v) is int], texts):
        if not values:
            continue
        fast = group_ids(values)
        slow = [group_key(v) for v in values]
        assert fast.tolist() == slow
        assert (fast.dtype == np.int64) == all(type(k) is int for k in slow)


def test_advantages_equal_for_every_container_of_the_same_ids():
    import torch

    from polyreward.combiners.apply import advantages

    rng = np.random.default_rng(7)
    scores = rng.integers(0, 3, (210, 3)) / 2.0
    scores[rng.random(scores.shape) < 0.05] = np.nan
    ids = np.repeat(rng.permutation(30) * 7 - 40, 7)
    want = advantages(scores, ids, [1.0, 0.5, 0.2])
    for same in (torch.as_tensor(ids), ids.tolist(), ids.astype(float), [str(i) for i in ids], torch.as_tensor(ids.astype(float))):
        assert advantages(scores, same, [1.0, 0.5, 0.2]).tobytes() == want.tobytes(), type(same)


# ------------------------------------------------------------------------------ float32 scores


@pytest.mark.parametrize("key,name,params", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_float32_scores_give_what_their_float64_values_give(key, name, params):
    """Float32 scores skip the overflow and unit-scale passes (their values cannot be near either limit): the advantages
    equal those of the same values handed over as float64, including float32's extremes and weights that force a scale."""
    import torch

    rng = np.random.default_rng(7)
    n, k = 48, 3
    groups = np.repeat(np.arange(8), 6)
    for extreme, weights in ((1.0, [1.0, 0.5, 0.2]), (3.0e38, [1.0, 0.5, 0.2]), (1e-44, [1.0, 1.0, 1.0]),
                             (1.0, [1e280, 1.0, 1.0]), (3.0e38, [1e290, 2.0, 1.0])):
        narrow = (rng.integers(0, 4, (n, k)) * extreme / 3).astype(np.float32)
        narrow[rng.random((n, k)) < 0.1] = np.nan
        extra = {c: (np.asarray(["a", "b"] * (n // 2), dtype=object) if c == "domain" else rng.integers(1, 50, n).astype(float))
                 for c in make_case(0, "int", "numpy")["extra"]}
        case = {"groups": groups, "weights": np.asarray(weights), "extra": extra}
        try:
            wide = run(name, params, {**case, "scores": narrow.astype(np.float64)})
        except ValueError:
            continue  # a refusal (an overflow) is tested elsewhere
        got = run(name, params, {**case, "scores": torch.from_numpy(narrow)})
        if wide is not None:
            assert got.dtype == np.float32 and got.tobytes() == wide.astype(np.float32).tobytes(), (extreme, weights)
