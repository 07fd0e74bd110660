"""Combiners against the REAL installed reference code: verl 0.9.1 ``core_algos`` estimators (called directly)
and TRL 1.16 ``RLOOTrainer`` (its inline advantage lines, pinned to the installed source and transcribed).

Random batches include ties, single-rollout groups, constant groups, shuffled group ids and (for TRL) NaN.
verl runs in float32, so rewards are multiples of 1/4 (a constant group's float32 mean is then exact; with
arbitrary decimals verl's own float32 rounding gives constant groups spurious advantages of ~0.1-0.3).
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from polyreward.combiners import DrGRPOCombiner, GDPOCombiner, GRPOCombiner, RLOOCombiner

torch = pytest.importorskip("torch")
core_algos = pytest.importorskip("verl.trainer.ppo.core_algos")

SEEDS = range(40)


def random_batch(seed):
    """Groups of 1-5 rollouts (some singletons), group 0 constant, ids shuffled on odd seeds."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 6, int(rng.integers(2, 8)))
    groups = np.repeat(np.arange(len(sizes)), sizes)
    if seed % 2:
        groups = groups[rng.permutation(len(groups))]
    k = int(rng.integers(1, 4))
    if seed % 3 == 0:
        scores = rng.integers(0, 2, (len(groups), k)).astype(float)  # binary: many ties
    else:
        scores = np.round(rng.normal(size=(len(groups), k)) * 12) / 4
    scores[groups == 0] = scores[groups == 0][0]
    return rng, scores, groups


def verl_outcome(fn, rewards, groups, length=4, **kwargs):
    """Call a verl outcome estimator with the reward on one token; returns the per-sequence advantage."""
    token_level = torch.zeros(len(rewards), length, dtype=torch.float64)
    token_level[:, length - 1] = torch.tensor(rewards)
    mask = torch.ones(len(rewards), length, dtype=torch.float64)
    advantages, returns = fn(token_level_rewards=token_level, response_mask=mask, index=np.array(groups, dtype=object), **kwargs)
    assert torch.equal(advantages, returns)
    return advantages[:, 0].numpy()


@pytest.mark.parametrize("seed", SEEDS)
def test_grpo_equals_verl_compute_grpo_outcome_advantage(seed):
    _, scores, groups = random_batch(seed)
    total = scores.sum(axis=1)
    expected = verl_outcome(core_algos.compute_grpo_outcome_advantage, total, groups)
    # verl keeps the singleton std and eps in float32 (1 + 1e-6 rounds at ~1e-8): float32-level agreement.
    np.testing.assert_allclose(GRPOCombiner(eps=1e-6, singleton="raw").combine(scores, groups), expected, atol=1e-6, rtol=1e-6)
    no_std = verl_outcome(core_algos.compute_grpo_outcome_advantage, total, groups, norm_adv_by_std_in_grpo=False)
    np.testing.assert_allclose(GRPOCombiner(scale="none", singleton="raw").combine(scores, groups), no_std, atol=1e-12)
    np.testing.assert_allclose(DrGRPOCombiner(singleton="raw").combine(scores, groups), no_std, atol=1e-12)
    # Default Dr. GRPO follows TRL: identical except that a lone rollout gets 0 instead of r.
    sizes = np.bincount(groups)[groups]
    np.testing.assert_allclose(DrGRPOCombiner().combine(scores, groups), np.where(sizes > 1, no_std, 0.0), atol=1e-12)


def test_verl_single_rollout_group_is_reward_over_one_plus_eps():
    expected = verl_outcome(core_algos.compute_grpo_outcome_advantage, [5.0, 3.0, 1.0, 2.0], [0, 1, 2, 2])
    np.testing.assert_allclose(expected[:2], [5 / (1 + 1e-6), 3 / (1 + 1e-6)], rtol=1e-7)  # not 5 and 3
    assert abs(expected[0] - 5.0) > 4e-6
    got = GRPOCombiner(eps=1e-6, singleton="raw").combine(np.array([5.0, 3.0, 1.0, 2.0]), [0, 1, 2, 2])
    np.testing.assert_allclose(got, expected, rtol=1e-7)


@pytest.mark.parametrize("seed", SEEDS)
def test_rloo_equals_verl_compute_rloo_outcome_advantage(seed):
    _, scores, groups = random_batch(seed)
    total = scores.sum(axis=1)
    expected = verl_outcome(core_algos.compute_rloo_outcome_advantage, total, groups)
    np.testing.assert_allclose(RLOOCombiner().combine(scores, groups), expected, atol=1e-12, rtol=0)
    vectorized = verl_outcome(core_algos.compute_rloo_vectorized_outcome_advantage, total, groups)
    np.testing.assert_allclose(RLOOCombiner(singleton="zero").combine(scores, groups), vectorized, atol=1e-12, rtol=0)


def verl_gdpo(scores, groups, weights, lengths, prompt_length=3):
    """verl 0.9.1 ``compute_gdpo_outcome_advantage`` on reward components given through non_tensor_batch."""
    from omegaconf import OmegaConf

    n, k = scores.shape
    width = int(max(lengths))
    mask = (torch.arange(width)[None, :] < torch.tensor(lengths)[:, None]).float()
    attention = torch.cat([torch.ones(n, prompt_length), mask], dim=1).long()
    keys = [f"reward_{j}" for j in range(k)]
    config = OmegaConf.create({"gdpo_reward_keys": keys, "gdpo_reward_weights": list(map(float, weights))})
    advantages, _ = core_algos.compute_gdpo_outcome_advantage(
        token_level_rewards=torch.zeros(n, width),
        response_mask=mask,
        index=np.array(groups, dtype=object),
        config=config,
        non_tensor_batch={key: scores[:, j].astype(np.float32) for j, key in enumerate(keys)},
        batch={"prompts": torch.zeros(n, prompt_length), "attention_mask": attention},
    )
    return advantages[:, 0].numpy()  # every response has >= 1 token; the advantage is constant along it


@pytest.mark.parametrize("seed", SEEDS)
def test_gdpo_verl_variant_equals_verl_compute_gdpo_outcome_advantage(seed):
    rng, scores, groups = random_batch(seed)
    weights = rng.uniform(-1, 2, scores.shape[1]).round(2)
    lengths = rng.integers(1, 7, len(groups))
    expected = verl_gdpo(scores, groups, weights, lengths)
    got = GDPOCombiner("verl").combine(scores, groups, weights, lengths=lengths)
    np.testing.assert_allclose(got, expected, atol=5e-6, rtol=0)  # verl computes in float32
    # Equal lengths L are token-weighted too (Bessel over N*L tokens): pass them; without lengths each rollout counts once.
    equal = verl_gdpo(scores, groups, weights, [5] * len(groups))
    np.testing.assert_allclose(GDPOCombiner("verl").combine(scores, groups, weights, lengths=[5] * len(groups)), equal, atol=5e-6, rtol=0)
    one_token = verl_gdpo(scores, groups, weights, [1] * len(groups))
    np.testing.assert_allclose(GDPOCombiner("verl").combine(scores, groups, weights), one_token, atol=5e-6, rtol=0)


# ------------------------------------------------------------------------------ TRL 1.16 RLOOTrainer
@pytest.fixture(scope="module")
def trl_rloo_nanstd():
    trl_utils = pytest.importorskip("trl.trainer.utils")
    from trl.trainer import rloo_trainer

    source = inspect.getsource(rloo_trainer.RLOOTrainer._generate_and_score_completions)
    for line in (  # the lines transcribed below; if TRL changes them this test must be revisited
        "unscorable_mask = torch.isnan(rewards_per_func).all(dim=1)",
        "rewards = (rewards_per_func * self.reward_weights.to(device).unsqueeze(0)).nansum(dim=1)",
        "scorable_counts = (~torch.isnan(grouped_rewards)).sum(dim=1, keepdim=True)",
        "grouped_sum = torch.nansum(grouped_rewards, dim=1, keepdim=True)",
        "baselines = (grouped_sum - grouped_rewards) / (scorable_counts - 1)",
        "advantages = torch.zeros_like(rewards)",
        "advantages = (advantages - torch.nanmean(advantages)) / (nanstd(advantages) + 1e-4)",
        "advantages = torch.nan_to_num(advantages, nan=0.0)",
    ):
        assert line in source, line
    return trl_utils.nanstd


def trl_rloo(rewards_per_func, reward_weights, num_generations, normalize_advantages, nanstd):
    """TRL 1.16 rloo_trainer.py advantage block (beta = 0, no reward clipping), line by line."""
    unscorable_mask = torch.isnan(rewards_per_func).all(dim=1)
    rewards = (rewards_per_func * reward_weights.unsqueeze(0)).nansum(dim=1)
    rewards[unscorable_mask] = torch.nan
    grouped_rewards = rewards.view(-1, num_generations)
    scorable_counts = (~torch.isnan(grouped_rewards)).sum(dim=1, keepdim=True)
    grouped_sum = torch.nansum(grouped_rewards, dim=1, keepdim=True)
    if num_generations > 1:
        baselines = ((grouped_sum - grouped_rewards) / (scorable_counts - 1)).view(-1)
        advantages = rewards - baselines
    else:
        advantages = torch.zeros_like(rewards)
    if normalize_advantages:
        advantages = (advantages - torch.nanmean(advantages)) / (nanstd(advantages) + 1e-4)
    return torch.nan_to_num(advantages, nan=0.0).numpy()


@pytest.mark.parametrize("normalize", [False, True])
@pytest.mark.parametrize("seed", range(30))
def test_rloo_equals_trl_rloo_trainer(trl_rloo_nanstd, seed, normalize):
    rng = np.random.default_rng(1000 + seed)
    g, n_groups, k = int(rng.integers(1, 7)), int(rng.integers(1, 6)), int(rng.integers(1, 4))
    scores = rng.integers(0, 3, (g * n_groups, k)).astype(float) if seed % 2 else rng.normal(size=(g * n_groups, k))
    scores[rng.random(scores.shape) < 0.25] = np.nan  # None rewards, unscorable rows, lone scorable rollouts
    scores[:g] = 1.0  # a constant group
    weights = rng.uniform(-1, 2, k).round(2)
    groups = np.repeat(np.arange(n_groups), g)
    expected = trl_rloo(torch.tensor(scores), torch.tensor(weights), g, normalize, trl_rloo_nanstd)
    # the default eps is TRL 1.16's normalize_advantages eps (1e-4; it was 1e-8, 1e-4 relative off TRL)
    got = RLOOCombiner(normalize=normalize, singleton="zero").combine(scores, groups, weights)
    # TRL's nanstd computes the Bessel factor count/(count-1) in float32: ~1e-8 relative.
    np.testing.assert_allclose(got, expected, atol=1e-6, rtol=0)


# ------------------------------------------------------------------------------ NVlabs GDPO fork, K = 1
def test_gdpo_nvlabs_single_reward_falls_back_to_grpo():
    """The fork runs GDPO only when K > 1; one reward is TRL 0.18's plain GRPO (no batch normalisation)."""
    scores = np.array([[1.0], [0.0], [np.nan], [1.0], [2.0], [0.0], [0.0], [0.0]])
    groups = [0, 0, 0, 0, 1, 1, 1, 1]
    filled = np.nan_to_num(scores[:, 0]) * 2.0
    expected = np.concatenate([(b - b.mean()) / (b.std(ddof=1) + 1e-4) for b in (filled[:4], filled[4:])])
    np.testing.assert_allclose(GDPOCombiner("nvlabs").combine(scores, groups, [2.0]), expected, atol=1e-12)
    # TRL 1.16 normalize_then_sum keeps GDPO for one reward (group norm, then batch norm).
    assert not np.allclose(GDPOCombiner("trl").combine(scores, groups, [2.0]), expected, atol=1e-3)
