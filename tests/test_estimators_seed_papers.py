"""Estimators from seed papers with public code, against that code re-typed in torch (float64) on the generated
batches of ``combiner_batches`` (group sizes 1-33, non-dyadic constant groups, NaN cells, zero/negative weights).

- KRPO: billhhh/KRPO_LLMs_RL ``train.py`` ``KalmanFilter`` + ``group_advantages`` (one fresh filter per group, the
  group's rewards in row order); the source has no None rewards, so a row where none applies is compared as absent.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combiner_batches import reward_batches
from polyreward.combiners import AAPOCombiner, DGPOCombiner, KRPOCombiner

torch = pytest.importorskip("torch")

SETTINGS = settings(max_examples=40, derandomize=True, deadline=None, database=None)


class SourceKalmanFilter:
    """The release's ``KalmanFilter`` (x = 0, P = 1 at the start), in float64."""

    def __init__(self, process_var: float, meas_var: float) -> None:
        self.Q, self.R = process_var, meas_var
        self.x = torch.tensor(0.0, dtype=torch.float64)
        self.P = torch.tensor(1.0, dtype=torch.float64)

    def update(self, z):
        predicted = self.P + self.Q
        gain = predicted / (predicted + self.R)
        self.x = self.x + gain * (z - self.x)
        self.P = (1 - gain) * predicted
        return self.x, self.P


def source_group_advantages(returns, process_var=1e-5, meas_var=1e-2, eps=1e-8):
    """The release's ``group_advantages`` on one group's returns."""
    kf = SourceKalmanFilter(process_var, meas_var)
    out = []
    for r in torch.as_tensor(np.asarray(returns, dtype=np.float64)).flatten():
        mean, var = kf.update(r)
        out.append((r - mean) / (torch.sqrt(var) + eps))
    return torch.stack(out).numpy() if out else np.zeros(0)


def source_krpo(total, groups, **kwargs):
    """The release's training loop calls ``group_advantages`` once per question on its rollouts in order."""
    out = np.zeros(len(total))
    for g in np.unique(groups):
        rows = np.flatnonzero((groups == g) & ~np.isnan(total))
        out[rows] = source_group_advantages(total[rows], **kwargs)
    return out


@SETTINGS
@given(batch=reward_batches(), noise=st.sampled_from([{}, {"process_var": 1e-3, "meas_var": 0.5}, {"process_var": 0.0, "meas_var": 1.0}]))
def test_krpo_equals_the_release(batch, noise):
    total = np.where(np.all(np.isnan(batch.scores), axis=1), np.nan, np.nan_to_num(batch.scores) @ batch.weights)
    ours = KRPOCombiner(**noise).combine(batch.scores, batch.groups, batch.weights)
    np.testing.assert_allclose(ours, source_krpo(total, batch.groups, **noise), atol=1e-9, rtol=1e-9)


def test_krpo_depends_on_rollout_order_and_is_not_zero_on_a_constant_group():
    ours = KRPOCombiner().combine([1.0, 0.0, 0.0, 1.0], [0, 0, 0, 0])
    swapped = KRPOCombiner().combine([0.0, 1.0, 1.0, 0.0], [0, 0, 0, 0])
    assert not np.allclose(ours, swapped[::-1])  # the filter reads rows in order
    constant = KRPOCombiner().combine([0.7] * 5, [0] * 5)
    assert np.all(constant > 0) and constant[0] == pytest.approx(0.7 * 0.0995, rel=1e-2)


def source_aapo(rewards, ref_rewards, num_generations, scale_rewards=True):
    """The release's advantage lines (float64), then the sum its ``compute_loss`` takes."""
    rewards, ref_rewards = torch.as_tensor(rewards), torch.as_tensor(ref_rewards)
    advantage_constrain = rewards - ref_rewards
    mean_grouped_rewards = rewards.view(-1, num_generations).mean(dim=1)
    std_grouped_rewards = rewards.view(-1, num_generations).std(dim=1)
    mean_grouped_rewards = mean_grouped_rewards.repeat_interleave(num_generations, dim=0)
    std_grouped_rewards = std_grouped_rewards.repeat_interleave(num_generations, dim=0)
    advantages = rewards - mean_grouped_rewards
    if scale_rewards:
        advantages = advantages / (std_grouped_rewards + 1e-4)
    return (advantages + torch.clamp(advantage_constrain, -0.2, 0.28)).numpy()


@SETTINGS
@given(batch=reward_batches(), size=st.integers(2, 13), scale=st.booleans(), seed=st.integers(0, 2**16))
def test_aapo_equals_the_release(batch, size, scale, seed):
    scores = np.where(np.isnan(batch.scores), 0.3, batch.scores)
    n = (len(scores) // size) * size
    if n == 0:
        return
    scores, groups = scores[:n], np.arange(n) // size  # the source's layout: consecutive groups of one size
    total = scores @ batch.weights
    reference = total + np.random.default_rng(seed).choice([-1.0, -0.25, -0.1, 0.0, 0.05, 0.27, 0.3, 2.0], n)
    ours = AAPOCombiner(scale_rewards=scale).combine(scores, groups, batch.weights, reference_reward=reference)
    expected = source_aapo(total, reference, size, scale)
    # constant groups: the source's std of equal floats can be ~1e-17, not 0 -- below 1e-4 it changes nothing
    np.testing.assert_allclose(ours, expected, atol=1e-9)


def test_aapo_momentum_is_clipped_asymmetrically_and_missing_references_add_nothing():
    scores = np.array([1.0, 0.0, 1.0, 0.0])
    out = AAPOCombiner().combine(scores, [0, 0, 1, 1], reference_reward=[0.0, 1.0, None, float("nan")])
    z = 0.5 / (np.std([1.0, 0.0], ddof=1) + 1e-4)
    np.testing.assert_allclose(out, [z + 0.28, -z - 0.2, z, -z])
    with pytest.raises(ValueError, match="reference_reward must hold one number"):
        AAPOCombiner().combine(scores, [0, 0, 1, 1], reference_reward=["a", "b", "c", "d"])
    with pytest.raises(ValueError, match="reference_reward must hold 4 values"):
        AAPOCombiner().combine(scores, [0, 0, 1, 1], reference_reward=[0.0, 1.0])


def source_dgpo(rewards_per_func, weights, lengths, num_generations, scale_rewards=True, dqw=True, temp=2.0):
    """The release's advantage lines (float64, one process: num_processes = 1, global = local lengths)."""
    rewards_per_func = torch.as_tensor(rewards_per_func)
    main_rewards = rewards_per_func[:, 0]
    mean_grouped_main_rewards = main_rewards.view(-1, num_generations).mean(dim=1)
    is_incorrect = torch.isclose(mean_grouped_main_rewards, torch.zeros_like(mean_grouped_main_rewards))
    rewards = (rewards_per_func * torch.as_tensor(weights).unsqueeze(0)).nansum(dim=1)
    mean_grouped_rewards = rewards.view(-1, num_generations).mean(dim=1)
    std_grouped_rewards = rewards.view(-1, num_generations).std(dim=1)
    sample_num = mean_grouped_rewards.size(0)
    is_std_zero = torch.isclose(std_grouped_rewards, torch.zeros_like(std_grouped_rewards))
    zero_sample_num = is_std_zero.sum()
    global_completion_length = torch.as_tensor(lengths, dtype=torch.float64)
    if zero_sample_num < sample_num:
        zero_mask_ratio = global_completion_length.sum() / global_completion_length.view(-1, num_generations)[~is_std_zero].sum()
    else:
        zero_mask_ratio = torch.tensor(1.0, dtype=torch.float64)
    difficulty_balancing_weights = torch.ones_like(mean_grouped_main_rewards)
    if zero_sample_num < sample_num:
        modified = mean_grouped_main_rewards.clone()
        modified[is_incorrect] = torch.ones_like(modified[is_incorrect])
        difficulty_balancing_weights[~is_std_zero] = (sample_num - zero_sample_num) * torch.nn.functional.softmax(
            -modified[~is_std_zero] / temp, dim=0)
    difficulty_balancing_weights = difficulty_balancing_weights.repeat_interleave(num_generations, dim=0)
    advantages = rewards - mean_grouped_rewards.repeat_interleave(num_generations, dim=0)
    if scale_rewards:
        extent = advantages.view(-1, num_generations).abs().sum(dim=1).repeat_interleave(num_generations, dim=0)
        advantages = num_generations * advantages / (extent + 1e-4)
    advantages = advantages * zero_mask_ratio
    if dqw:
        advantages = advantages * difficulty_balancing_weights
    return advantages.numpy()


@SETTINGS
@given(batch=reward_batches(), size=st.integers(2, 13), scale=st.booleans(), dqw=st.booleans(), seed=st.integers(0, 2**16))
def test_dgpo_equals_the_release(batch, size, scale, dqw, seed):
    scores = np.where(np.isnan(batch.scores), 0.3, batch.scores)
    n = (len(scores) // size) * size
    if n == 0:
        return
    scores, groups = scores[:n], np.arange(n) // size  # the source's layout: consecutive groups of one size
    lengths = np.random.default_rng(seed).integers(1, 50, n)
    expected = source_dgpo(scores, batch.weights, lengths, size, scale, dqw)
    # the source's std of a constant non-dyadic group is ~1e-17 (isclose: zero) as ours is 0: both give such groups 0
    ours = DGPOCombiner(scale_rewards=scale, dqw=dqw).combine(scores, groups, batch.weights, lengths=lengths)
    np.testing.assert_allclose(ours, expected, atol=1e-9, rtol=1e-9)


def test_dgpo_weights_hard_questions_up_and_gives_every_group_the_same_total():
    scores = np.array([1.0, 0.0, 0.0, 0.0] + [1.0, 1.0, 1.0, 0.0] + [1.0] * 4)  # hard, easy, solved (no signal)
    groups = np.repeat([0, 1, 2], 4)
    plain = DGPOCombiner(dqw=False).combine(scores, groups, lengths=np.ones(12))
    np.testing.assert_allclose(np.abs(plain[:4]).sum(), np.abs(plain[4:8]).sum())  # DGAE: equal total per group
    np.testing.assert_allclose(plain[8:], 0.0)
    weighted = DGPOCombiner().combine(scores, groups, lengths=np.ones(12))
    assert np.abs(weighted[:4]).sum() > np.abs(weighted[4:8]).sum()  # the question solved 1 in 4 counts more


def source_eda(rewards, entropy_mean, num_generations, scale_rewards=True):
    """EDGE-GRPO's lines: TRL's group advantage, then ``_compute_loss``'s ``advantages / per_entropy_mean *
    all_entropy_mean.mean(dim=0)`` (the entropies given, one micro-batch = the whole batch)."""
    rewards, per_entropy_mean = torch.as_tensor(rewards), torch.as_tensor(entropy_mean)
    mean_grouped = rewards.view(-1, num_generations).mean(dim=1).repeat_interleave(num_generations, dim=0)
    std_grouped = rewards.view(-1, num_generations).std(dim=1).repeat_interleave(num_generations, dim=0)
    advantages = rewards - mean_grouped
    if scale_rewards:
        advantages = advantages / (std_grouped + 1e-4)
    all_entropy_mean = per_entropy_mean
    return (advantages / per_entropy_mean * all_entropy_mean.mean(dim=0)).numpy()


@SETTINGS
@given(batch=reward_batches(), size=st.integers(2, 13), scale=st.booleans(), seed=st.integers(0, 2**16))
def test_edge_grpo_eda_equals_the_release_lines_on_given_entropies(batch, size, scale, seed):
    from polyreward.combiners import EDGEGRPOCombiner

    scores = np.where(np.isnan(batch.scores), 0.3, batch.scores)
    n = (len(scores) // size) * size
    if n == 0:
        return
    scores, groups = scores[:n], np.arange(n) // size
    entropy = np.random.default_rng(seed).uniform(0.05, 3.0, n)
    ours = EDGEGRPOCombiner(scale_rewards=scale).combine(scores, groups, batch.weights, entropy=entropy)
    np.testing.assert_allclose(ours, source_eda(scores @ batch.weights, entropy, size, scale), atol=1e-9)


def test_edge_grpo_refuses_missing_or_non_positive_entropies():
    from polyreward.combiners import EDGEGRPOCombiner

    with pytest.raises(ValueError, match="row 1 has 0.0"):
        EDGEGRPOCombiner().combine([1.0, 0.0], [0, 0], entropy=[0.5, 0.0])
    with pytest.raises(ValueError, match="row 0 has nan"):
        EDGEGRPOCombiner().combine([1.0, 0.0], [0, 0], entropy=[None, 1.0])
    # a row where no reward applies needs no entropy
    assert EDGEGRPOCombiner().combine([np.nan, 1.0, 0.0], [0, 0, 0], entropy=[None, 1.0, 1.0]).tolist()[0] == 0.0
