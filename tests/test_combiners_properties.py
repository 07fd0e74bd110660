"""Properties of EVERY registered combiner on generated batches (see ``combiner_batches``): group sizes 1-33,
constant groups of values that are not exactly representable, binary and continuous rewards, NaN cells,
zero and negative weights, stateful combiners over several batches.

For each registered type and each listed parameter variant:
- finite output of shape (N,);
- documented zeros within 1e-9: rows without any reward always; constant groups where the method says so;
- |A| within the bound its docstring states (MC-GRPO and EBPO state that they have none and are exempt);
- permuting the rows permutes the advantages (stateful combiners fed the permuted sequence of batches);
- adding a constant to one objective inside one group leaves the advantages unchanged where the maths says so.

Everything a combiner promises is declared on its class (:class:`polyreward.combiner.Combiner`): the parameter
variants to run (``example_params``), its bound on |A| (``advantage_bound``, in the quantities of
:class:`polyreward.combiners.bounds.BatchFacts`), whether constant groups get 0 and a per-group shift changes nothing
(``zero_for_constant_groups``, ``shift_invariant``), whether row order matters (``row_order_dependent``,
``ties_by_row_order``). A combiner that declares per-row arrays in ``row_columns`` (DRPO's ``domain``) gets a label
per group for each, or a number per row drawn from its ``example_row_values`` (AAPO's reference reward); other
keyword-only arrays of ``combine`` (GDPO's ``lengths``) get positive per-row counts; a combiner that refuses wide
score matrices (PAPO takes K <= 2) gets the columns it takes. A newly registered type needs no edit here.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combiner_batches import RewardBatch, batch_sequences, reward_batches
from polyreward import registry
from polyreward.combiners.bounds import BatchFacts

SETTINGS = settings(max_examples=50, derandomize=True, deadline=None, database=None)
ALL = registry.combiner_types()
CLASSES = {name: registry.combiner_class(name) for name in ALL}  # the registry scans entry points per lookup


def combiner_type(name: str) -> type:
    """The class registered as ``name`` (also one registered after this module was imported, as a plug-in test does)."""
    return CLASSES[name] if name in CLASSES else registry.combiner_class(name)


def variants(name: str) -> list[dict]:
    """The parameter variants the class declares for these tests (``example_params``, the defaults first)."""
    return [dict(p) for p in combiner_type(name).example_params]


def bound(name: str, p: dict, f: BatchFacts):
    """The |A| bound the class states (``advantage_bound``; None: the method has none and says why)."""
    try:
        return combiner_type(name).advantage_bound(p, f)
    except NotImplementedError as exc:
        pytest.fail(str(exc))


def zero_for_constant_groups(name: str, p: dict, k: int) -> bool:
    """Does the class promise A = 0 (to 1e-9) for a group that repeats one score row?"""
    return combiner_type(name).zero_for_constant_groups(p, k)


def shift_invariant(name: str, p: dict, k: int, column: int) -> bool:
    """Is the method unchanged by adding c to objective ``column`` in one group (the class says so)?"""
    return combiner_type(name).shift_invariant(p, k, column)


# ----------------------------------------------------------------------------------------- harness
def make(name: str, params: dict):
    return combiner_type(name)(**params)


def nan_is_zero(name: str, params: dict) -> bool:
    """Variants that, as their source, turn a None reward into 0 before any statistic (rows are never unscored)."""
    return combiner_type(name).none_is_zero(params)


def extra_arrays(combiner, groups: np.ndarray, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Per-row arrays ``combine`` takes beyond (scores, groups, weights): a label per group (domains, ...) for
    each name the combiner declares in ``row_columns``, a positive count (token lengths, ...) for each other
    keyword-only parameter."""
    numeric = getattr(combiner, "example_row_values", {})  # per-row numbers, not labels: the values drawn for them
    arrays = {name: rng.choice(np.array(["a", "b", "c"], dtype=object), groups.max() + 1)[groups]
              for name in getattr(combiner, "row_columns", ()) if name not in numeric}
    for name in sorted(set(getattr(combiner, "row_columns", ())) & set(numeric)):  # one number per row
        arrays[name] = rng.choice(np.array(numeric[name], dtype=object), len(groups))
    for q in inspect.signature(combiner.combine).parameters.values():
        if q.kind is inspect.Parameter.KEYWORD_ONLY and q.name not in arrays:
            arrays[q.name] = rng.integers(1, 40, len(groups)).astype(float)
    return arrays


def widest(name: str, params: dict, k: int) -> int:
    """The most reward columns (<= k) the combiner takes."""
    for width in range(k, 0, -1):
        combiner = make(name, params)
        try:
            combiner.combine(np.zeros((2, width)), [0, 0], **extra_arrays(combiner, np.zeros(2, dtype=int), np.random.default_rng(0)))
            return width
        except ValueError:
            continue
    pytest.fail(f"{name}{params} takes no score matrix of 1..{k} columns")


def prepared(name: str, params: dict, batch: RewardBatch, seed: int):
    width = widest(name, params, batch.scores.shape[1])
    batch = RewardBatch(batch.scores[:, :width], batch.groups, batch.weights[:width], batch.constant)
    return batch, extra_arrays(make(name, params), batch.groups, np.random.default_rng(seed))


def run(combiner, batch: RewardBatch, extra: dict) -> np.ndarray:
    return np.asarray(combiner.combine(batch.scores, batch.groups, batch.weights, **extra), dtype=float)


def permuted(batch: RewardBatch, extra: dict, perm: np.ndarray):
    return RewardBatch(batch.scores[perm], batch.groups[perm], batch.weights, batch.constant[perm]), {k: v[perm] for k, v in extra.items()}


def check_row_properties(name: str, params: dict, batch: RewardBatch, extra: dict, adv: np.ndarray) -> None:
    label = f"{name}{params}"
    assert adv.shape == (batch.n,), label
    assert np.all(np.isfinite(adv)), f"{label}: non-finite advantages {adv}"
    if nan_is_zero(name, params):
        batch = RewardBatch(np.nan_to_num(batch.scores, nan=0.0), batch.groups, batch.weights, batch.constant)
    facts = BatchFacts(batch.scores, batch.groups, batch.weights, extra)
    np.testing.assert_allclose(adv[~facts.scored], 0.0, atol=0, err_msg=f"{label}: rows without reward")
    if zero_for_constant_groups(name, params, batch.scores.shape[1]):
        rows = batch.constant & (facts.n >= 2)
        np.testing.assert_allclose(adv[rows], 0.0, atol=1e-9, err_msg=f"{label}: constant groups")
    limit = bound(name, params, facts)
    if limit is not None:
        excess = np.abs(adv) - (limit + 1e-9)
        assert np.all(excess <= 0), f"{label}: |A| above the documented bound by {excess.max():.3g} at row {int(np.argmax(excess))}"


def permutation_invariant(name: str) -> bool:
    """False for a method that reads rows in order, as its source (DRPO's k-means over each question's rewards in
    rollout order, KRPO's Kalman filter): the class's ``row_order_dependent``."""
    return not combiner_type(name).row_order_dependent


def assert_permuted(name: str, params: dict, got: np.ndarray, expected: np.ndarray, groups: np.ndarray) -> None:
    if combiner_type(name).ties_by_row_order(params):
        # row order breaks ties: only each group's multiset of advantages is invariant
        for g in np.unique(groups):
            np.testing.assert_allclose(np.sort(got[groups == g]), np.sort(expected[groups == g]), atol=1e-9)
        return
    np.testing.assert_allclose(got, expected, atol=1e-9, rtol=1e-9, err_msg=f"{name}{params}: row permutation")


CASES = [(name, params) for name in ALL for params in variants(name)]


def check_over_batches(name: str, batches: list[RewardBatch], seed: int) -> None:
    """Every declared variant of ``name`` over a sequence of batches: the row properties, and (unless the class says
    row order matters) a row permutation permutes the advantages."""
    for params in variants(name):
        combiner, twin = make(name, params), make(name, params)
        for step, raw in enumerate(batches):
            batch, extra = prepared(name, params, raw, seed + step)
            adv = run(combiner, batch, extra)
            check_row_properties(name, params, batch, extra, adv)
            if permutation_invariant(name):
                perm = np.random.default_rng(seed + step).permutation(batch.n)
                moved, moved_extra = permuted(batch, extra, perm)
                assert_permuted(name, params, run(twin, moved, moved_extra), adv[perm], moved.groups)


def check_shift(name: str, raw: RewardBatch, seed: int, shift: float) -> None:
    """Adding ``shift`` to one objective inside one group leaves the advantages unchanged where the class says so."""
    for params in variants(name):
        batch, extra = prepared(name, params, raw, seed)
        rng = np.random.default_rng(seed)
        column = int(rng.integers(batch.scores.shape[1]))
        if not shift_invariant(name, params, batch.scores.shape[1], column):
            continue
        full = [g for g in np.unique(batch.groups)
                if np.sum(batch.groups == g) >= 2 and not np.isnan(batch.scores[batch.groups == g, column]).any()]
        if not full:
            continue
        group = full[int(rng.integers(len(full)))]
        shifted = batch.scores.copy()
        shifted[batch.groups == group, column] += shift
        moved = RewardBatch(shifted, batch.groups, batch.weights, batch.constant)
        base = run(make(name, params), batch, extra)
        np.testing.assert_allclose(run(make(name, params), moved, extra), base, atol=1e-7, rtol=1e-7,
                                   err_msg=f"{name}{params}: shift {shift} of objective {column} in group {group}")


@pytest.mark.parametrize("name", ALL)
@SETTINGS
@given(batches=batch_sequences(), seed=st.integers(0, 2**16))
def test_properties_over_batches(name, batches, seed):
    check_over_batches(name, batches, seed)


@pytest.mark.parametrize("name", ALL)
@SETTINGS
@given(raw=reward_batches(), seed=st.integers(0, 2**16), shift=st.sampled_from([0.37, -2.1, 5.0]))
def test_per_group_shift_of_one_objective(name, raw, seed, shift):
    check_shift(name, raw, seed, shift)
