"""Every EXACT combiner against its reference on the generated batches of ``combiner_batches`` (group sizes
1-33, non-dyadic constant groups, NaN cells, zero/negative weights), to 1e-6.

References, called directly where the library is installed, re-typed from the source otherwise:
- verl 0.9.1 ``core_algos.compute_grpo_outcome_advantage`` / ``compute_rloo_outcome_advantage`` /
  ``compute_gdpo_outcome_advantage`` (called; float64 default dtype so that verl's internal
  ``torch.tensor(0.0)`` statistics do not round to float32);
- TRL 1.16 ``GRPOTrainer._generate_and_score_completions`` ``sum_then_normalize`` / ``normalize_then_sum``
  and ``RLOOTrainer`` advantage lines (the lines are checked to be in the installed source, then applied with
  TRL's own ``nanstd``; TRL reshapes to one group size, so each group is its own view);
- NVlabs/GDPO @41f74c5 trl-GDPO grpo_trainer.py (GDPO, SA-GDPO and its K = 1 GRPO branch), NeMo-RL
  ``GDPOAdvantageEstimator`` + ``calculate_baseline_and_std_per_prompt``, MC-GRPO grpo_trainer_gsm.py
  (median, MAD + 1e-3, isclose compensation), GOPO grpo_trainer.py (double argsort): re-typed in torch.
Sources without None support (verl, NeMo-RL, MC-GRPO, GOPO) get the batch with NaN cells filled by 0.3.
"""

from __future__ import annotations

import inspect

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combiner_batches import reward_batches
from polyreward import registry
from polyreward.combiners import (
    DrGRPOCombiner,
    GDPOCombiner,
    GRPOCombiner,
    MedianCenteredCombiner,
    RankCombiner,
    RLOOCombiner,
    SelfAdaptiveGDPOCombiner,
)

torch = pytest.importorskip("torch")
core_algos = pytest.importorskip("verl.trainer.ppo.core_algos")
trl_utils = pytest.importorskip("trl.trainer.utils")
nanstd = trl_utils.nanstd

SETTINGS = settings(max_examples=40, derandomize=True, deadline=None, database=None)
def test_every_exact_combiner_has_a_reference_here():
    """An ``exactness = "exact"`` combiner names in ``reference_test`` the test file that compares it with its
    source's code (this file for TRL's and verl's GRPO family; tests/test_drpo.py, test_estimators_verl.py,
    test_estimators_tokens.py and test_estimators_seed_papers.py for the others), and that file exercises it."""
    root = Path(__file__).resolve().parent.parent
    for name in registry.combiner_types():
        cls = registry.combiner_class(name)
        if cls.exactness != "exact":
            continue
        assert cls.reference_test, f"exact combiner {name} names no reference comparison (reference_test)"
        text = (root / cls.reference_test).read_text(encoding="utf-8")
        assert name in text or cls.__name__ in text, f"{cls.reference_test} does not exercise {name}"


def filled(batch):
    return np.where(np.isnan(batch.scores), 0.3, batch.scores)


def per_group(groups):
    return [np.flatnonzero(groups == g) for g in np.unique(groups)]


def t(x):
    return torch.tensor(np.asarray(x, dtype=np.float64))


# ------------------------------------------------------------------------------------ verl, called
def verl_outcome(fn, rewards, groups, **kwargs):
    previous = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        token = torch.zeros(len(rewards), 3)
        token[:, 2] = t(rewards)
        adv, _ = fn(token_level_rewards=token, response_mask=torch.ones(len(rewards), 3), index=np.array(groups, dtype=object), **kwargs)
    finally:
        torch.set_default_dtype(previous)
    return adv[:, 0].numpy()


@SETTINGS
@given(batch=reward_batches())
def test_grpo_dr_grpo_rloo_equal_verl(batch):
    scores = filled(batch)
    total, g, w = scores @ batch.weights, batch.groups, batch.weights
    np.testing.assert_allclose(GRPOCombiner(eps=1e-6, singleton="raw").combine(scores, g, w),
                               verl_outcome(core_algos.compute_grpo_outcome_advantage, total, g), atol=1e-6)
    no_std = verl_outcome(core_algos.compute_grpo_outcome_advantage, total, g, norm_adv_by_std_in_grpo=False)
    np.testing.assert_allclose(DrGRPOCombiner(singleton="raw").combine(scores, g, w), no_std, atol=1e-9)
    np.testing.assert_allclose(RLOOCombiner().combine(scores, g, w),
                               verl_outcome(core_algos.compute_rloo_outcome_advantage, total, g), atol=1e-9)


@SETTINGS
@given(batch=reward_batches(), lengths_seed=st.integers(0, 2**16))
def test_gdpo_verl_variant_equals_verl_compute_gdpo_outcome_advantage(batch, lengths_seed):
    from omegaconf import OmegaConf

    # verl casts every reward component to float32 (core_algos.py: np.asarray(comp, dtype=np.float32)), where a
    # constant group of 0.1s has a noise std of ~1e-8 that eps 1e-6 does not hide (see the test below); the
    # comparison uses the same batches rounded to quarters, exact in float32.
    scores, g, w = np.round(filled(batch) * 4) / 4, batch.groups, batch.weights
    n, k = scores.shape
    lengths = np.random.default_rng(lengths_seed).integers(1, 7, n)
    mask = (torch.arange(int(lengths.max()))[None, :] < torch.tensor(lengths)[:, None]).double()
    keys = [f"reward_{j}" for j in range(k)]
    previous = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        adv, _ = core_algos.compute_gdpo_outcome_advantage(
            token_level_rewards=torch.zeros(mask.shape), response_mask=mask, index=np.array(g, dtype=object),
            config=OmegaConf.create({"gdpo_reward_keys": keys, "gdpo_reward_weights": list(map(float, w))}),
            non_tensor_batch={key: scores[:, j] for j, key in enumerate(keys)},
            batch={"prompts": torch.zeros(n, 2), "attention_mask": torch.cat([torch.ones(n, 2), mask], dim=1).long()},
        )
    finally:
        torch.set_default_dtype(previous)
    got = GDPOCombiner("verl").combine(scores, g, w, lengths=lengths)
    summed = GDPOCombiner("verl", batch_norm="none").combine(scores, g, w)
    if np.ptp(summed) <= 1e-10 * np.abs(summed).max():
        # the documented deviation: verl's mean over T + 1e-8 tokens leaves ~1e-4 s/T in a constant batch
        assert np.all(got == 0.0) and np.abs(adv.numpy()).max() < 1e-3
        return
    np.testing.assert_allclose(got, adv[:, 0].numpy(), atol=1e-6)


def test_verl_gdpo_float32_noise_on_constant_groups_and_ours_is_exact():
    from omegaconf import OmegaConf

    scores = np.array([[-0.6]] * 6 + [[1.0], [0.0], [0.5]])
    groups = np.repeat([0, 1], [6, 3])
    mask = torch.ones(9, 2)
    adv, _ = core_algos.compute_gdpo_outcome_advantage(
        token_level_rewards=torch.zeros(9, 2), response_mask=mask, index=np.array(groups, dtype=object),
        config=OmegaConf.create({"gdpo_reward_keys": ["r"], "gdpo_reward_weights": [1.0]}),
        non_tensor_batch={"r": scores[:, 0]}, batch={"prompts": torch.zeros(9, 2), "attention_mask": torch.ones(9, 4).long()},
    )
    verl = adv[:, 0].numpy()
    assert np.abs(verl[:6]).min() > 0.01 and abs(verl[6] + verl[7]) > 0.1  # the constant group moves, and shifts the rest
    ours = GDPOCombiner("verl").combine(scores, groups, lengths=[2] * 9)
    assert np.all(ours[:6] == 0.0) and ours[6] == pytest.approx(-ours[7]) and ours[8] == pytest.approx(0.0, abs=1e-12)


# ------------------------------------------------------------------------------- TRL 1.16, lines
@pytest.fixture(scope="module")
def trl_grpo_source():
    from trl.trainer import grpo_trainer

    source = inspect.getsource(grpo_trainer.GRPOTrainer._generate_and_score_completions)
    for line in (
        "rewards = (rewards_per_func * self.reward_weights.to(device).unsqueeze(0)).nansum(dim=1)",
        "mean_grouped_rewards = torch.nanmean(rewards.view(-1, num_generations), dim=1)",
        "std_rewards = nanstd(rewards.view(-1, num_generations), dim=1)",
        "advantages = advantages / (std_rewards + 1e-4)",
        "mean_k = torch.nanmean(grouped, dim=1, keepdim=True)",
        "std_k = nanstd(grouped, dim=1, keepdim=True) if num_generations > 1 else torch.zeros_like(mean_k)",
        "reward_k = (grouped - mean_k) / (std_k + 1e-4)",
        "advantages = (rewards - torch.nanmean(rewards)) / (std_rewards + 1e-4)",
        "advantages = torch.nan_to_num(advantages, nan=0.0)",
    ):
        assert line in source, line
    return source


def trl_sum_then_normalize(scores, groups, weights, scale_rewards="group"):
    rewards_per_func, w = t(scores), t(weights)
    unscorable = torch.isnan(rewards_per_func).all(dim=1)
    rewards = (rewards_per_func * w.unsqueeze(0)).nansum(dim=1)
    rewards[unscorable] = torch.nan
    out = torch.zeros_like(rewards)
    batch_std = nanstd(rewards) if rewards.numel() > 1 else torch.zeros(())
    for rows in per_group(groups):
        r = rewards[rows].view(1, -1)
        mean = torch.nanmean(r, dim=1)
        std = {"group": nanstd(r, dim=1) if len(rows) > 1 else torch.zeros_like(mean), "batch": batch_std}.get(scale_rewards)
        out[rows] = ((r - mean) if scale_rewards == "none" else (r - mean) / (std + 1e-4)).view(-1)
    return torch.nan_to_num(out, nan=0.0).numpy()


def trl_rloo(scores, groups, weights, normalize):
    """TRL 1.16 rloo_trainer.py advantage lines (beta = 0), applied group by group."""
    rewards_per_func, w = t(scores), t(weights)
    unscorable = torch.isnan(rewards_per_func).all(dim=1)
    rewards = (rewards_per_func * w.unsqueeze(0)).nansum(dim=1)
    rewards[unscorable] = torch.nan
    advantages = torch.zeros_like(rewards)
    for rows in per_group(groups):  # a group of one: TRL's (sum - r)/(count - 1) is 0/0 = NaN, as a lone scorable rollout
        grouped = rewards[rows].view(1, -1)
        counts = (~torch.isnan(grouped)).sum(dim=1, keepdim=True)
        baselines = (torch.nansum(grouped, dim=1, keepdim=True) - grouped) / (counts - 1)
        advantages[rows] = (grouped - baselines).view(-1)
    if normalize:
        advantages = (advantages - torch.nanmean(advantages)) / (nanstd(advantages) + 1e-4)
    return torch.nan_to_num(advantages, nan=0.0).numpy()


def trl_normalize_then_sum(scores, groups, weights):
    rewards_per_func, w = t(scores), t(weights)
    unscorable = torch.isnan(rewards_per_func).all(dim=1)
    reward_k = torch.zeros_like(rewards_per_func)
    for rows in per_group(groups):
        grouped = rewards_per_func[rows].view(1, len(rows), -1)
        mean_k = torch.nanmean(grouped, dim=1, keepdim=True)
        std_k = nanstd(grouped, dim=1, keepdim=True) if len(rows) > 1 else torch.zeros_like(mean_k)
        reward_k[rows] = ((grouped - mean_k) / (std_k + 1e-4)).view(len(rows), -1)
    rewards = (reward_k * w.unsqueeze(0)).nansum(dim=1)
    rewards[unscorable] = torch.nan
    std = nanstd(rewards).expand_as(rewards) if rewards.numel() > 1 else torch.zeros_like(rewards)
    return torch.nan_to_num((rewards - torch.nanmean(rewards)) / (std + 1e-4), nan=0.0).numpy()


@SETTINGS
@given(batch=reward_batches())
def test_grpo_and_gdpo_equal_trl(trl_grpo_source, batch):
    s, g, w = batch.scores, batch.groups, batch.weights
    np.testing.assert_allclose(GRPOCombiner().combine(s, g, w), trl_sum_then_normalize(s, g, w), atol=1e-6)
    for scale in ("batch", "none"):
        np.testing.assert_allclose(GRPOCombiner(scale=scale).combine(s, g, w), trl_sum_then_normalize(s, g, w, scale), atol=1e-6)
    np.testing.assert_allclose(GDPOCombiner().combine(s, g, w), trl_normalize_then_sum(s, g, w), atol=1e-6)
    for normalize in (False, True):
        np.testing.assert_allclose(RLOOCombiner(singleton="zero", eps=1e-4, normalize=normalize).combine(s, g, w),
                                   trl_rloo(s, g, w, normalize), atol=1e-6)


# --------------------------------------------------------------------------- NVlabs fork, re-typed
def nvlabs_fork(scores, groups, weights, saturation_range=None, gamma=1.0):
    """trl-GDPO grpo_trainer.py @41f74c5: GDPO / SA-GDPO when K > 1, TRL 0.18's GRPO branch when K = 1."""
    rewards_per_func, w = t(scores), t(weights)
    if len(weights) > 1:
        filtered = torch.nan_to_num(rewards_per_func)
        advantage = torch.zeros_like(filtered)
        for rows in per_group(groups):
            r = filtered[rows]
            advantage[rows] = (r - r.mean(dim=0)) / (r.std(dim=0) + 1e-4)
        if saturation_range is not None:
            mins, maxs = t(saturation_range[0]), t(saturation_range[1])
            saturation = ((filtered.mean(dim=0) - mins) / (maxs - mins).clamp_min(1e-4)).clamp(0.0, 1.0)
            w = w * (1.0 - saturation) ** gamma
        pre = (advantage * w.unsqueeze(0)).nansum(dim=1)
        return ((pre - pre.mean()) / (pre.std() + 1e-4)).numpy()
    rewards = (rewards_per_func * w.unsqueeze(0)).nansum(dim=1)
    out = torch.zeros_like(rewards)
    for rows in per_group(groups):
        r = rewards[rows]
        out[rows] = (r - r.mean()) / (r.std() + 1e-4) if len(rows) > 1 else 0.0  # torch.std of one value is NaN there
    return out.numpy()


@SETTINGS
@given(batch=reward_batches(), gamma=st.sampled_from([0.5, 1.0, 2.0]))
def test_gdpo_nvlabs_and_sa_gdpo_equal_the_nvlabs_fork(batch, gamma):
    s, g, w = batch.scores, batch.groups, batch.weights
    np.testing.assert_allclose(GDPOCombiner("nvlabs").combine(s, g, w), nvlabs_fork(s, g, w), atol=1e-6)
    k = s.shape[1]
    mins, maxs = [-1.0] * k, [2.0] * k
    sa = SelfAdaptiveGDPOCombiner(gamma=gamma, reward_mins=mins, reward_maxs=maxs, none_policy="zero")
    np.testing.assert_allclose(sa.combine(s, g, w), nvlabs_fork(s, g, w, (mins, maxs), gamma), atol=1e-6)


def test_sa_gdpo_with_one_reward_is_plain_grpo_as_the_fork():
    scores = np.array([[0.2], [0.7], [0.7], [1 / 3], [0.1], [0.1], [0.1]])
    groups = [0, 0, 0, 0, 1, 1, 1]
    expected = nvlabs_fork(scores, np.array(groups), np.array([1.5]))
    got = SelfAdaptiveGDPOCombiner(reward_mins=[0.0], reward_maxs=[1.0]).combine(scores, groups, [1.5])
    np.testing.assert_allclose(got, expected, atol=1e-9)
    assert np.all(got[4:] == 0.0)  # the constant group of 0.1s: exactly 0, no batch normalisation


# -------------------------------------------------------------------------------- NeMo-RL, re-typed
def nemo_baseline_and_std(rewards, groups, valid):
    """NeMo-RL nemo_rl/algorithms/utils.py ``calculate_baseline_and_std_per_prompt`` (leave-one-out)."""
    baseline, std = torch.zeros_like(rewards), torch.zeros_like(rewards)
    for rows in per_group(groups):
        idx = torch.tensor(rows)
        if valid[idx].sum() <= 1:
            baseline[idx] = rewards[idx]
            continue
        matrix = 1 - torch.eye(len(rows), dtype=rewards.dtype)
        num_valid = valid[idx].sum() - 1
        b = matrix @ (rewards[idx] * valid[idx]) / num_valid
        b2 = matrix @ (rewards[idx] ** 2 * valid[idx]) / num_valid
        baseline[idx] = b
        std[idx] = ((b2 - b.square()) * (num_valid / (num_valid - 1))).sqrt().nan_to_num(0)
    return baseline, std


def nemo_gdpo(scores, groups, weights, others_constant=None):
    """``GDPOAdvantageEstimator.compute_advantage``. ``others_constant`` (per row and reward) applies this
    project's one deviation: where the other rollouts are equal, "std > 0" is float noise and is not divided by."""
    parts = []
    for k in range(scores.shape[1]):
        r = t(scores[:, k])
        base, std = nemo_baseline_and_std(r, groups, torch.ones_like(r))
        if others_constant is not None:  # equal others: no division, and their mean is their value exactly
            equal = torch.tensor(others_constant[:, k])
            std = torch.where(equal, torch.zeros_like(std), std)
            base = torch.where(equal, t(others_value(scores[:, k], groups)), base)
        adv = r - base
        nonzero = std > 0
        adv[nonzero] = adv[nonzero] / (std[nonzero] + 1e-6)
        parts.append(adv)
    advantages = sum(float(wk) * a for wk, a in zip(weights, parts))
    if others_constant is not None and np.ptp(advantages.numpy()) <= 1e-10 * np.abs(advantages.numpy()).max(initial=0):
        return np.zeros(len(advantages))  # the same deviation for the batch: a constant batch is centred exactly
    adv_std = advantages.std()
    return ((advantages - advantages.mean()) / adv_std if adv_std > 0 else advantages - advantages.mean()).numpy()


def others_value(x, groups):
    """Per row: the value of the other rollouts of its group where they are all equal (else NaN); a lone row: itself."""
    out = np.full(len(x), np.nan)
    for rows in per_group(groups):
        for i in rows:
            others = x[[j for j in rows if j != i]]
            out[i] = x[i] if len(others) == 0 else others[0] if np.ptp(others) <= 1e-10 * np.abs(others).max() else np.nan
    return out


def others_equal(scores, groups):
    out = np.zeros(scores.shape, dtype=bool)
    for rows in per_group(groups):
        for k in range(scores.shape[1]):
            for i in rows:
                others = scores[[j for j in rows if j != i], k]
                out[i, k] = len(others) < 2 or np.ptp(others) <= 1e-10 * np.abs(others).max()
    return out


@SETTINGS
@given(batch=reward_batches(k=2))
def test_gdpo_nemo_rl_equals_nemo_rl_estimator(batch):
    scores, g, w = filled(batch), batch.groups, batch.weights
    expected = nemo_gdpo(scores, g, w, others_equal(scores, g))
    np.testing.assert_allclose(GDPOCombiner("nemo_rl").combine(scores, g, w), expected, atol=1e-6)


def test_nemo_rl_source_divides_float_noise_and_we_do_not():
    """The reported case: the other rollouts are three 0.7s; NeMo-RL's E[r²] - E[r]² leaves a std of 1.6e-8."""
    scores = np.array([[1.0, 0.0], [0.7, 1.0], [0.7, 0.0], [0.7, 1.0], [0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    groups = np.repeat([0, 1], 4)
    source = nemo_gdpo(scores, groups, [1.0, 1.0])
    ours = GDPOCombiner("nemo_rl").combine(scores, groups)
    # the source: row 0 gets 0.3 / (1.6e-8 + 1e-6) ~ 3e5, and the batch normalisation flattens every other row
    np.testing.assert_allclose(source, [7 / np.sqrt(8)] + [-1 / np.sqrt(8)] * 7, atol=1e-3)
    assert len(np.unique(np.round(ours, 6))) == 6 and abs(ours[0]) < 1.0  # ours keeps the rollouts apart
    np.testing.assert_allclose(ours, nemo_gdpo(scores, groups, [1.0, 1.0], others_equal(scores, groups)), atol=1e-9)


# ------------------------------------------------------------------------- MC-GRPO, GOPO, re-typed
def mc_grpo_source(rewards, groups):
    """lotusroot-kim/MC-GRPO grpo_trainer_gsm.py: median, MAD + 1e-3, (R - med)/MAD, isclose(atol=1e-6) compensation."""
    out = torch.zeros(len(rewards), dtype=torch.float64)
    for rows in per_group(groups):
        r = t(rewards[rows])
        median = r.median()
        mad = (r - median).abs().median() + 1e-3
        adv = (r - median) / mad
        nonzero = ~torch.isclose(adv, torch.zeros_like(adv), atol=1e-6)
        if nonzero.sum() > 0:
            adv[nonzero] = adv[nonzero] * (len(rows) / nonzero.sum().item())
        out[rows] = adv
    return out.numpy()


def gopo_source(rewards, groups, stable):
    """friendshipkim/gopo grpo_trainer.py: rank by a double argsort (descending), A = 2 - 4 (rank - 1)/(G - 1)."""
    out = np.zeros(len(rewards))
    for rows in per_group(groups):
        if len(rows) < 2:
            continue
        r = t(rewards[rows]).view(1, -1)
        kwargs = {"stable": True} if stable else {}
        rank = (torch.argsort(torch.argsort(r, dim=1, descending=True, **kwargs), dim=1) + 1).double()
        out[rows] = (2 - 4 * (rank - 1) / (len(rows) - 1)).view(-1).numpy()
    return out


@SETTINGS
@given(batch=reward_batches())
def test_mc_grpo_and_gopo_equal_their_sources(batch):
    scores, g, w = filled(batch), batch.groups, batch.weights
    total = scores @ w
    np.testing.assert_allclose(MedianCenteredCombiner().combine(scores, g, w), mc_grpo_source(total, g), atol=1e-6, rtol=1e-9)
    np.testing.assert_allclose(RankCombiner().combine(scores, g, w), gopo_source(total, g, stable=True), atol=1e-12)
    small = np.isin(g, [grp for grp, rows in enumerate(per_group(g)) if len(rows) <= 16])
    default_sort = gopo_source(total, g, stable=False)
    np.testing.assert_allclose(RankCombiner().combine(scores, g, w)[small], default_sort[small], atol=1e-12)


def test_gopo_torch_default_sort_is_not_stable_beyond_16():
    """Why the docstring narrows "ties=order reproduces the source" to groups of at most 16."""
    tied = np.zeros(33)
    assert not np.allclose(gopo_source(tied, np.zeros(33, dtype=int), stable=False), gopo_source(tied, np.zeros(33, dtype=int), stable=True))
    np.testing.assert_allclose(RankCombiner().combine(tied, np.zeros(33, dtype=int)), gopo_source(tied, np.zeros(33, dtype=int), stable=True))


@SETTINGS
@given(batch=reward_batches())
def test_gopo_and_mc_grpo_unscorable_zero_equal_the_sources_on_none_cells(batch):
    """The sources (friendshipkim/gopo grpo_trainer.py, lotusroot-kim/MC-GRPO grpo_trainer_gsm.py) sum with
    nansum: an all-None row is a reward of 0 that is ranked / enters the median with the others;
    ``unscorable="zero"`` reproduces that on the raw NaN cells."""
    total = np.nansum(batch.scores * batch.weights, axis=1)
    got = RankCombiner(unscorable="zero").combine(batch.scores, batch.groups, batch.weights)
    np.testing.assert_allclose(got, gopo_source(total, batch.groups, stable=True), atol=1e-12)
    median = MedianCenteredCombiner(unscorable="zero").combine(batch.scores, batch.groups, batch.weights)
    np.testing.assert_allclose(median, mc_grpo_source(total, batch.groups), atol=1e-6, rtol=1e-9)  # MC-GRPO: nansum too
    if not np.isnan(batch.scores).all(axis=1).any():  # without all-None rows both conventions agree
        np.testing.assert_allclose(RankCombiner().combine(batch.scores, batch.groups, batch.weights), got, atol=1e-12)
        np.testing.assert_allclose(MedianCenteredCombiner().combine(batch.scores, batch.groups, batch.weights), median, atol=1e-12)


# ----------------------------------------------------------------- reported float-noise cases
def test_ebpo_constant_non_dyadic_group_takes_the_pooled_variance():
    from polyreward.combiners import EmpiricalBayesCombiner

    combiner = EmpiricalBayesCombiner()
    combiner.combine(np.array([0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0]), np.repeat([0, 1], 4))
    scores = np.array([0.7] * 3 + [0.0, 1.0, 1.0])
    adv = combiner.combine(scores, [0, 0, 0, 1, 1, 1])
    state = combiner.state_dict()
    pooled = np.sqrt(state["within_ss"] / state["within_df"])
    assert np.all(np.abs(adv) < 5)  # not -1e5 (float noise 1e-17 taken for the group's std)
    assert adv[0] == adv[1] == adv[2] and adv[0] != 0.0  # the non-vanishing penalty, scaled by the pooled std
    prior_var = state["prior_m2"] / (state["groups_seen"] - 1)
    shrink = (pooled**2 / 3) / (pooled**2 / 3 + prior_var + 1e-6)
    assert adv[0] == pytest.approx(shrink * (0.7 - state["prior_mean"]) / (pooled + 1e-6), rel=1e-9)


@pytest.mark.parametrize("value", [0.1, 1 / 3, 0.7, 2.3])
@pytest.mark.parametrize("size", [3, 5, 6, 7, 12])
def test_constant_groups_of_non_representable_values_give_exact_zero(value, size):
    scores = np.concatenate([np.full(size, value), [0.0, 1.0, 1.0]])
    groups = np.repeat([0, 1], [size, 3])
    for combiner in (GRPOCombiner(), GRPOCombiner(scale="none"), RLOOCombiner(), GDPOCombiner("nemo_rl", batch_norm="none"),
                     GDPOCombiner(batch_norm="none"), DrGRPOCombiner(), MedianCenteredCombiner()):
        assert np.all(np.asarray(combiner.combine(scores, groups))[:size] == 0.0), combiner
    # batch-normalised GDPO: the batch mean of per-group-centred sums is float noise, divided by std + 1e-4
    assert np.abs(GDPOCombiner().combine(scores, groups)[:size]).max() < 1e-12


def test_trainer_zero_std_fraction_uses_the_constant_rule():
    from polyreward.trainer.metrics import reward_metrics

    scores = np.array([[0.1], [0.1], [0.1], [0.0], [1.0], [1.0]])
    row = reward_metrics(["r"], np.array([1.0]), scores, np.array([0, 0, 0, 1, 1, 1]))
    assert np.std([0.1, 0.1, 0.1], ddof=1) > 0  # what the old check saw
    assert row["frac_reward_zero_std"] == 0.5


# ------------------------------------------------------------------------------------ diagnostics
def test_shares_are_nan_where_no_objective_varies():
    from polyreward.combiners import diagnose

    # group a: constant 0.1s (GOPO's source order still spreads it); group b: a None cell lowers a sum
    scores = np.array([[0.1, 0.7]] * 5 + [[1.0, 0.3], [1.0, 0.3], [1.0, np.nan]])
    groups = ["a"] * 5 + ["b"] * 3
    for advantages in (RankCombiner().combine(scores, groups), GRPOCombiner().combine(scores, groups)):
        table = diagnose(scores, groups, advantages, names=["x", "y"]).groups.set_index("group")
        assert np.isnan(table.loc["a", "share/x"]) and np.isnan(table.loc["b", "share/y"]), table
    assert np.abs(GRPOCombiner().combine(scores, groups)[5:]).max() > 0.5  # the advantage does vary in b


def test_weight_zero_rewards_do_not_split_profiles_and_near_equal_advantages_are_one_value():
    from polyreward.combiners import diagnose

    scores = np.array([[1.0, 0.2], [1.0, 0.9], [0.0, 0.4], [0.0, 0.5]])
    groups = [0, 0, 0, 0]
    report = diagnose(scores, groups, np.array([4.9e-7, 5.1e-7, -1.0, -1.0]), weights=[1.0, 0.0])
    row = report.groups.iloc[0]
    assert row["profiles"] == 2 and row["advantage_values"] == 2 and not row["collapsed"]
    assert diagnose(scores, groups, np.array([4.9e-7, 5.1e-7, -1.0, -1.0])).groups.iloc[0]["profiles"] == 4


def test_zero_signal_and_collapsed_fractions_share_their_denominator():
    from polyreward.combiners import diagnose

    scores = np.array([[1.0], [0.0], [0.5], [0.5], [np.nan], [np.nan]])
    groups = [0, 0, 1, 1, 2, 2]  # group 2 has no reward at all
    summary = diagnose(scores, groups, GRPOCombiner().combine(scores, groups)).summary
    assert summary["zero_signal_fraction"] == 0.5 and summary["collapsed_group_fraction"] == 0.0  # both over groups 0, 1



def test_summary_numbers_over_an_empty_denominator_are_nan():
    """No scored rollout: fractions and means are undefined (NaN, not 0); no rollout with both a non-zero
    advantage and a non-zero single-objective advantage: the sign-flip rate is undefined too."""
    from polyreward.combiners import diagnose

    unscored = np.full((4, 2), np.nan)
    summary = diagnose(unscored, [0, 0, 1, 1], np.zeros(4), names=["a", "b"]).summary
    for key in ("collapsed_group_fraction", "zero_signal_fraction", "mean_profiles", "mean_advantage_values",
                "advantage_mean", "advantage_std", "share/a", "sign_flip_rate/a"):
        assert np.isnan(summary[key]), key
    constant = np.array([[0.1, 1 / 3]] * 3 + [[0.7, 0.2]] * 3)
    groups = [0, 0, 0, 1, 1, 1]
    summary = diagnose(constant, groups, GRPOCombiner().combine(constant, groups), names=["a", "b"]).summary
    assert summary["zero_signal_fraction"] == 1.0 and np.isnan(summary["sign_flip_rate/a"]) and np.isnan(summary["share/b"])

# ------------------------------------------------------------------------------ polyreward list
def test_list_shows_both_facts_for_kg_and_every_combiner_tag():
    from polyreward.cli.list_types import describe

    rewards = {name: tag for name, tag, _ in describe("rewards")}
    assert rewards["kg_triplet_consistency"] == "exact scoring, reconstructed extractor"
    assert rewards["toolrl_correctness"] == "exact"
    combiners = {name: tag for name, tag, _ in describe("combiners")}
    assert combiners == {name: registry.combiner_class(name).exactness for name in registry.combiner_types()}
