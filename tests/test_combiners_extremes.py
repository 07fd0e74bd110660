"""Combiners at the edges of float64: rewards of magnitude 1e300 / 1e-300 (squares overflow / underflow) and
weighted sums that cancel to float noise (r and 1 - r).

Both were bugs: at 1e300 every group std became inf and GRPO/GDPO/RLOO-normalised/MC-GRPO... returned 0 for
the whole batch (DVAO: its Σσ² overflowed); GDPO ``nemo_rl`` (batch division only where std > 0) turned the ~1e-16 residue of cancelling
per-reward advantages into advantages of order 1. The statistics are now computed at unit scale per group
(an exact power-of-two rescaling) and the batch constant rule compares against the size of the summed terms.
"""

from __future__ import annotations

import numpy as np
import pytest

from polyreward.combiners import (
    DVAOCombiner,
    GDPOCombiner,
    GRPOCombiner,
    MedianCenteredCombiner,
    RLOOCombiner,
    SelfAdaptiveGDPOCombiner,
)
from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.group_stats import group_moments, leave_one_out_moments, nan_mean_std

REWARDS = np.array([0.1, 0.7, 1 / 3, 0.2, 0.9, 0.3, 0.6, 0.45, 0.05, 0.8, 0.15, 0.55])  # non-dyadic, 12 rows
GROUPS = np.repeat([0, 1], [5, 7])  # group sizes not powers of two

SCALE_FREE = {  # eps is negligible at 1e100 and 1e300 alike, so both scales must give the same advantages
    "grpo": lambda: GRPOCombiner(),
    "grpo_batch": lambda: GRPOCombiner(scale="batch"),
    "gdpo_trl": lambda: GDPOCombiner("trl"),
    "gdpo_nvlabs": lambda: GDPOCombiner("nvlabs"),
    "gdpo_verl": lambda: GDPOCombiner("verl"),
    "gdpo_nemo_rl": lambda: GDPOCombiner("nemo_rl"),
    "rloo_normalized": lambda: RLOOCombiner(normalize=True),
    "sa_gdpo": lambda: SelfAdaptiveGDPOCombiner(),
    "mc_grpo": lambda: MedianCenteredCombiner(),
    "dvao": lambda: DVAOCombiner(),
    "dvao_variance": lambda: DVAOCombiner(weighting="variance"),
}


@pytest.mark.parametrize("name", sorted(SCALE_FREE))
def test_advantages_at_1e300_equal_those_at_1e100(name):
    scores = np.column_stack([REWARDS, REWARDS[::-1]])
    moderate = SCALE_FREE[name]().combine(scores * 1e100, GROUPS)
    huge = SCALE_FREE[name]().combine(scores * 1e300, GROUPS)
    assert np.abs(moderate).max() > 0.5  # a real signal, not the all-zero answer of an infinite std
    np.testing.assert_allclose(huge, moderate, rtol=1e-9, atol=1e-9)


def test_each_group_is_scaled_on_its_own():
    """One group at 1e300 and one at 1 in the same column: each keeps its own z-scores."""
    x = np.concatenate([REWARDS[:5] * 1e300, REWARDS[5:]])
    got = GRPOCombiner(eps=0.0).combine(x, GROUPS)
    expected = np.concatenate([(v - v.mean()) / v.std(ddof=1) for v in (REWARDS[:5], REWARDS[5:])])
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("scale", [2.0**1000, 2.0**-1000])
def test_statistics_scale_exactly_with_the_rewards(scale):
    """Statistics of scale·x equal scale · statistics of x."""
    index = GroupIndex.from_ids(GROUPS, len(GROUPS))
    x = REWARDS * scale
    unit = x / scale  # exact: scale is a power of two
    count, mean, std, dev = group_moments(unit, index)
    s_count, s_mean, s_std, s_dev = group_moments(x, index)
    np.testing.assert_array_equal(s_count, count)
    np.testing.assert_allclose(s_mean / scale, mean, rtol=1e-12)
    np.testing.assert_allclose(s_std / scale, std, rtol=1e-12)
    np.testing.assert_allclose(s_dev / scale, dev, rtol=1e-12, atol=1e-15)
    _, centred, others_std = leave_one_out_moments(unit, index)
    _, s_centred, s_others = leave_one_out_moments(x, index)
    np.testing.assert_allclose(s_others / scale, others_std, rtol=1e-12)
    np.testing.assert_allclose(s_centred / scale, centred, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(nan_mean_std(x)[2] / scale, nan_mean_std(unit)[2], rtol=1e-12)


@pytest.mark.parametrize("variant", ["trl", "nvlabs", "verl", "nemo_rl"])
@pytest.mark.parametrize("size", [3, 5, 7, 12, 33])
def test_cancelling_rewards_give_zero_advantages(variant, size):
    """r and 1 - r with equal weights: every per-reward advantage cancels its partner, so A = 0 (the float
    residue of the sum, ~1e-16, is not a signal; nemo_rl used to divide it by its own std)."""
    rng = np.random.default_rng(size)
    r = rng.integers(0, 8, 3 * size) / 7 + 0.1
    groups = np.repeat(np.arange(3), size)
    got = GDPOCombiner(variant).combine(np.column_stack([r, 1 - r]), groups, [1.0, 1.0])
    np.testing.assert_allclose(got, 0.0, atol=1e-9)
    # a genuine signal next to the cancelling pair is kept
    signal = GDPOCombiner(variant).combine(np.column_stack([r, 1 - r, r]), groups, [1.0, 1.0, 1.0])
    assert np.abs(signal).max() > 0.5


def test_rewards_of_1e_300_keep_their_z_scores():
    """1e-300 rewards (squares underflow to 0: the std was 0) get the z-scores of their values with eps = 0."""
    expected = np.concatenate([(v - v.mean()) / v.std(ddof=1) for v in (REWARDS[:5], REWARDS[5:])])
    np.testing.assert_allclose(GRPOCombiner(eps=0.0).combine(REWARDS * 1e-300, GROUPS), expected, rtol=1e-9, atol=1e-9)
