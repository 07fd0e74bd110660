"""Every registered combiner at the edges: an empty batch (N = 0), one rollout per group (G = 1), every reward
missing, and finite rewards anywhere in the float64 range (up to ±1.7e308, down to subnormals): finite advantages
or a one-line ValueError, never inf, NaN or another exception. DRPO's domain labels: every NaN is one domain."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from polyreward.combiners import DRPOCombiner, DrGRPOCombiner, GRPOCombiner, MedianCenteredCombiner, RLOOCombiner
from polyreward.combiners.magnitudes import overflow_scale
from polyreward import registry


def build(name: str):
    return registry.combiner_class(name)()


def width(name: str, k: int) -> int:
    """The columns a combiner gets: ``max_reward_columns`` when the class fixes them (PAPO: outcome, process)."""
    return registry.combiner_class(name).max_reward_columns or k


# per-row numbers for the row columns of the built-in types; another declared number column gets its example values
ROW_NUMBERS = {
    "reference_reward": lambda n: np.full(n, 0.5),  # AAPO: the reference completion's reward per row
    "entropy": lambda n: np.linspace(0.5, 2.0, n),  # EDGE-GRPO: each rollout's mean token entropy
}


def row_arrays(combiner, groups: np.ndarray) -> dict[str, np.ndarray]:
    """The per-row arrays ``combine`` needs: numbers for a column the class gives ``example_row_values`` for, else
    a label per group (DRPO's domain: two domains alternating)."""
    arrays = {}
    for name in combiner.row_columns:
        if name in ROW_NUMBERS:
            arrays[name] = ROW_NUMBERS[name](len(groups))
        elif name in combiner.example_row_values:
            arrays[name] = np.resize(np.array(combiner.example_row_values[name], dtype=object), len(groups))
        else:
            arrays[name] = groups % 2
    return arrays


def combine(name: str, scores: np.ndarray, groups: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    combiner = build(name)
    return np.asarray(combiner.combine(scores, groups, weights, **row_arrays(combiner, groups)))


NAMES = registry.combiner_types()


@pytest.mark.parametrize("name", NAMES)
def test_an_empty_batch_gives_an_empty_array(name):
    out = combine(name, np.zeros((0, width(name, 2))), np.zeros(0, dtype=int))
    assert out.shape == (0,)


@pytest.mark.parametrize("name", NAMES)
def test_one_rollout_per_group_is_finite(name):
    scores = np.array([[0.2, 1.0], [0.9, 0.0], [0.5, 0.5]])[:, : width(name, 2)]
    out = combine(name, scores, np.arange(3))
    assert out.shape == (3,) and np.isfinite(out).all()


@pytest.mark.parametrize("name", NAMES)
def test_every_reward_missing_gives_zero(name):
    out = combine(name, np.full((6, width(name, 2)), np.nan), np.repeat([0, 1], 3))
    assert out.tolist() == [0.0] * 6


def extreme_floats():
    """Finite floats over the whole range: a random mantissa at any binary exponent, the largest ones, subnormals."""
    spread = st.builds(lambda m, e: math.ldexp(m, e), st.floats(-1.0, 1.0, exclude_min=True, exclude_max=True), st.integers(-1074, 1024))
    edges = st.sampled_from([1.7e308, -1.7e308, 1.7976931348623157e308, -1.7976931348623157e308, 5e-324, -5e-324, 0.0, 1.0])
    return st.one_of(spread, edges).filter(math.isfinite)


@st.composite
def extreme_batches(draw, k: int):
    n_groups = draw(st.integers(1, 3))
    sizes = draw(st.lists(st.integers(1, 6), min_size=n_groups, max_size=n_groups))
    groups = np.repeat(np.arange(n_groups), sizes)
    n = len(groups)
    values = draw(st.lists(st.one_of(extreme_floats(), st.just(math.nan)), min_size=n * k, max_size=n * k))
    weights = draw(st.lists(st.sampled_from([1.0, 0.5, 2.0, -1.0, 0.0]), min_size=k, max_size=k))
    return np.asarray(values, dtype=float).reshape(n, k), groups, np.asarray(weights)


def check_extremes(name, data):
    scores, groups, weights = data.draw(extreme_batches(width(name, data.draw(st.integers(1, 3)))))
    try:
        with np.errstate(all="ignore"):  # intermediate warnings are fine; only the result must be finite
            out = combine(name, scores, groups, weights)
    except ValueError as exc:  # refused: one line naming the problem
        assert "\n" not in str(exc) and str(exc)
        return
    assert out.shape == (len(groups),)
    assert np.isfinite(out).all(), (scores, groups, weights, out)


@pytest.mark.parametrize("name", [n for n in NAMES if n != "drpo"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_finite_rewards_give_finite_advantages_or_one_line_error(name, data):
    check_extremes(name, data)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_drpo_finite_rewards_give_finite_advantages_or_one_line_error(data):
    check_extremes("drpo", data)  # fewer examples: each call runs k-means


@pytest.mark.parametrize("make", [GRPOCombiner, MedianCenteredCombiner, lambda: RLOOCombiner(normalize=True)])
def test_scale_free_combiners_give_the_same_advantages_at_1e308_as_at_1e100(make):
    """A weighted sum of two rewards at 1.7e308 overflows float64; a z-score of it does not depend on the scale
    (1e100, not 1: there eps is as negligible as at 1e308)."""
    rewards = np.array([[0.1, 0.9], [0.7, 0.8], [1 / 3, 0.2], [0.9, 0.95], [0.2, 0.05], [0.6, 0.4]])
    groups = np.repeat([0, 1], 3)
    unit = make().combine(rewards * 1e100, groups)
    huge = make().combine(rewards * 1.7e308, groups)
    assert np.abs(unit).max() > 0.5
    np.testing.assert_allclose(huge, unit, rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("make", [DrGRPOCombiner, RLOOCombiner, lambda: GRPOCombiner(scale="none")])
def test_advantages_beyond_float64_are_a_one_line_error(make):
    """r - mean of rewards (1.7e308, -1.7e308, -1.7e308) is 2.3e308: not a float64. Refused in one line, never inf."""
    with pytest.raises(ValueError, match="exceed the float64 range") as caught:
        make().combine(np.array([1.7e308, -1.7e308, -1.7e308]), np.array([0, 0, 0]))
    assert "\n" not in str(caught.value)
    halves = make().combine(np.array([[1e308, 1e308], [1e308, 0.9e308]]), np.array([0, 0]))  # the sums overflow, A fits
    assert np.isfinite(halves).all() and halves[0] > 0 > halves[1]


def test_overflow_scale_is_a_power_of_two_only_when_needed():
    assert overflow_scale(np.array([[1e300, 1.0]]), np.array([1.0, 1.0])) == 1.0
    scale = overflow_scale(np.array([[1.7e308, 1.7e308]]), np.array([2.0, 1.0]))
    assert scale < 1.0 and math.frexp(scale)[0] == 0.5  # exact: a power of two
    assert np.isfinite((np.array([1.7e308, 1.7e308]) * scale) @ np.array([2.0, 1.0]))
    assert overflow_scale(np.zeros((0, 2)), np.ones(2)) == 1.0


def test_drpo_nan_labels_are_one_domain_whatever_float_object():
    scores = np.array([[1.0], [0.0], [1.0], [1.0], [0.0], [0.5]])
    groups = [0, 0, 1, 1, 2, 2]
    nans = [float("nan"), float("nan"), np.float32("nan"), np.float64("nan"), math.nan, -float("nan")]
    combiner = DRPOCombiner()
    got = combiner.combine(scores, groups, domain=np.asarray(nans, dtype=object))
    assert len(combiner.state_dict()["domains"]) == 1
    np.testing.assert_array_equal(got, DRPOCombiner().combine(scores, groups, domain=["same"] * 6))


def test_drpo_empty_batch_leaves_the_history_as_it_was():
    combiner = DRPOCombiner()
    combiner.combine(np.array([[1.0], [0.0]]), [0, 0], domain=["a", "a"])
    before = combiner.state_dict()
    assert combiner.combine(np.zeros((0, 1)), [], domain=[]).shape == (0,)
    assert combiner.state_dict() == before


def test_diagnostics_of_an_empty_batch():
    from polyreward.combiners import diagnose

    summary = diagnose(np.zeros((0, 2)), np.zeros(0), np.zeros(0)).summary
    assert summary["rollouts"] == 0.0 and summary["groups"] == 0.0


@pytest.mark.parametrize("post_norm", ["none", "batch", "group"])
def test_mo_grpo_weights_near_the_float64_limit_do_not_overflow_midway(post_norm):
    """Found by benchmarks/fuzz_nightly.py: weights of ±1e308 made Σ_k w_k Â^k inf (or NaN from inf - inf) midway
    although the advantages fit. Summed at a power-of-two scale: finite, the same as at 1e300 (scaled back)."""
    from polyreward.combiners import MOGRPOCombiner

    rewards = np.array([[0.1, 0.2, 0.3], [0.7, 0.8, 0.9], [1 / 3, 0.9, 0.2], [0.9, 0.1, 0.95]])
    groups = np.array([0, 0, 1, 1])
    huge = MOGRPOCombiner(post_norm=post_norm).combine(rewards, groups, np.array([1e308, 1e308, -1e308]))
    assert np.isfinite(huge).all()
    reference = MOGRPOCombiner(post_norm=post_norm).combine(rewards, groups, np.array([1e300, 1e300, -1e300]))
    np.testing.assert_allclose(huge, reference * (1e8 if post_norm == "none" else 1.0), rtol=1e-9)
    if post_norm == "none":  # |A| = 2e308 does not fit: one line, never inf
        with pytest.raises(ValueError, match="exceed the float64 range") as caught:
            MOGRPOCombiner().combine(rewards[:2, :2], groups[:2], np.array([1e308, 1e308]))
        assert "\n" not in str(caught.value)
