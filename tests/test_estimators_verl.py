"""REINFORCE++-baseline, GRPO pass@k, OPO and GPG against verl 0.9.1 ``core_algos``, called directly on the same
inputs (float64 default dtype, so that verl's internal ``torch.tensor(0.0)`` statistics stay float64).

verl returns token-level tensors (the per-sequence value on every response token, 0 on padding): the per-sequence
value is read at each row's first response token and compared with the combiner's (N,) advantages. The batches
come from ``combiner_batches`` (group sizes 1-33, non-dyadic constant groups, zero/negative weights); verl has no
None rewards, so the comparison runs on the batch with NaN cells filled by 0.3, and a separate test checks the
project's NaN rule: a row where no reward applies gets 0 and changes nothing for the others, i.e. equals verl on
the batch without that row.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from combiner_batches import reward_batches
from polyreward.combiners import GPGCombiner, GRPOPassKCombiner, OPOCombiner, ReinforcePlusPlusBaselineCombiner

torch = pytest.importorskip("torch")
core_algos = pytest.importorskip("verl.trainer.ppo.core_algos")

SETTINGS = settings(max_examples=40, derandomize=True, deadline=None, database=None)


def filled(batch):
    return np.where(np.isnan(batch.scores), 0.3, batch.scores)


def verl_per_sequence(fn, rewards, groups, lengths, **kwargs):
    """Call a verl outcome estimator with each reward on the last response token of a right-padded mask of
    ``lengths`` tokens; the per-sequence advantage read at the first token (0 for a row without tokens)."""
    rewards = np.asarray(rewards, dtype=np.float64)
    lengths = np.asarray(lengths, dtype=np.int64)
    width = max(int(lengths.max(initial=0)), 1) + 1  # one padding column at least
    previous = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        mask = (torch.arange(width)[None, :] < torch.tensor(lengths)[:, None]).double()
        token = torch.zeros(len(rewards), width)
        last = torch.tensor(np.maximum(lengths - 1, 0))
        token[torch.arange(len(rewards)), last] = torch.tensor(rewards)
        adv, _ = fn(token_level_rewards=token, response_mask=mask, index=np.array(groups, dtype=object), **kwargs)
    finally:
        torch.set_default_dtype(previous)
    adv = adv.numpy()
    assert np.all(adv[:, -1] == 0.0) and np.all(adv[lengths == 0] == 0.0)  # masked: padding gets nothing
    # broadcast: every response token of a row carries the same value
    for i in np.flatnonzero(lengths > 1):
        assert np.all(adv[i, : lengths[i]] == adv[i, 0])
    return adv[:, 0]


def token_lengths(seed, n, low=1):
    return np.random.default_rng(seed).integers(low, 9, n)


# ---------------------------------------------------------------------------------- REINFORCE++-baseline
@SETTINGS
@given(batch=reward_batches(), seed=st.integers(0, 2**16))
def test_reinforce_plus_plus_baseline_equals_verl(batch, seed):
    scores, g, w = filled(batch), batch.groups, batch.weights
    lengths = token_lengths(seed, batch.n)
    ours = ReinforcePlusPlusBaselineCombiner().combine(scores, g, w, lengths=lengths)
    if lengths.sum() <= 1:  # verl's masked_var raises on one token; ours has nothing to whiten
        assert np.all(ours == 0.0)
        return
    verl = verl_per_sequence(core_algos.compute_reinforce_plus_plus_baseline_outcome_advantage, scores @ w, g, lengths)
    deviations = ReinforcePlusPlusBaselineCombiner().combine(scores, g, w, lengths=np.ones(batch.n)) != 0
    if not deviations.any():
        # every deviation equal (every group constant, or lone rollouts of one value): verl's mean over T + 1e-8
        # tokens leaves ~1e-4 r/T where we give 0 exactly (the documented deviation)
        assert np.all(ours == 0.0) and np.abs(verl).max() < 1e-3 * max(1.0, np.abs(scores @ w).max())
        return
    np.testing.assert_allclose(ours, verl, atol=1e-6, rtol=1e-6)


def test_reinforce_plus_plus_baseline_weighs_tokens_and_ignores_zero_length_rows():
    rewards = np.array([1.0, 0.0, 0.5, 0.25, 2.0, -1.0, 0.7])
    groups = [0, 0, 0, 1, 1, 1, 2]  # 3 + 3 + a lone rollout (verl: mean 0)
    lengths = np.array([5, 0, 2, 7, 1, 3, 4])
    verl = verl_per_sequence(core_algos.compute_reinforce_plus_plus_baseline_outcome_advantage, rewards, groups, lengths)
    ours = ReinforcePlusPlusBaselineCombiner().combine(rewards, groups, lengths=lengths)
    has_tokens = lengths > 0
    np.testing.assert_allclose(ours[has_tokens], verl[has_tokens], atol=1e-12)
    # the token weighting matters: sequence-level whitening is a different answer
    assert not np.allclose(ReinforcePlusPlusBaselineCombiner().combine(rewards, groups)[has_tokens], verl[has_tokens])


# ----------------------------------------------------------------------------------------- GRPO pass@k
@SETTINGS
@given(batch=reward_batches(), normalize=st.booleans())
def test_grpo_passk_equals_verl(batch, normalize):
    scores, g, w = filled(batch), batch.groups, batch.weights
    ours = GRPOPassKCombiner(normalize=normalize).combine(scores, g, w)
    sizes = np.bincount(g)
    lone = sizes[g] == 1
    assert np.all(ours[lone] == 0.0)  # verl raises on a group of one; we give it nothing
    keep = ~lone
    assume(keep.any())
    verl = verl_per_sequence(core_algos.compute_grpo_passk_outcome_advantage, (scores @ w)[keep], g[keep],
                             np.full(keep.sum(), 2), config={"norm_adv_by_std_in_grpo": normalize})
    np.testing.assert_allclose(ours[keep], verl, atol=1e-9, rtol=1e-9)
    assert np.count_nonzero(ours) <= len(np.unique(g[keep]))  # at most one rollout per group


def test_grpo_passk_constant_group_and_tie_give_zero_and_margin_otherwise():
    rewards = np.array([0.1] * 5 + [1.0, 1.0, 0.0] + [0.2, 0.9, 0.5, 0.4, 0.3])
    groups = np.repeat([0, 1, 2], [5, 3, 5])
    ours = GRPOPassKCombiner().combine(rewards, groups)
    assert np.all(ours[:8] == 0.0)  # constant group; tied best
    std = np.std(rewards[8:], ddof=1)
    assert ours[9] == pytest.approx((0.9 - 0.5) / (std + 1e-6), rel=1e-12)
    assert np.count_nonzero(ours) == 1


# ------------------------------------------------------------------------------------------------ OPO
@SETTINGS
@given(batch=reward_batches(), seed=st.integers(0, 2**16))
def test_opo_equals_verl(batch, seed):
    scores, g, w = filled(batch), batch.groups, batch.weights
    lengths = token_lengths(seed, batch.n)
    verl = verl_per_sequence(core_algos.compute_opo_outcome_advantage, scores @ w, g, lengths)
    np.testing.assert_allclose(OPOCombiner().combine(scores, g, w, lengths=lengths), verl, atol=1e-9, rtol=1e-9)


def test_opo_zero_length_rows_weigh_nothing_and_an_all_empty_group_takes_the_plain_mean():
    rewards = np.array([1.0, 0.0, 0.5, 0.25, 2.0, -1.0])
    groups = [0, 0, 0, 1, 1, 1]
    lengths = np.array([4, 0, 2, 7, 1, 3])
    verl = verl_per_sequence(core_algos.compute_opo_outcome_advantage, rewards, groups, lengths)
    ours = OPOCombiner().combine(rewards, groups, lengths=lengths)
    np.testing.assert_allclose(ours[lengths > 0], verl[lengths > 0], atol=1e-12)
    assert ours[1] == pytest.approx(0.0 - (4 * 1.0 + 2 * 0.5) / 6)  # its reward minus a baseline it is not part of
    empty = OPOCombiner().combine([1.0, 0.0, 0.5], [0, 0, 0], lengths=[0, 0, 0])  # verl: 0/0 = NaN
    np.testing.assert_allclose(empty, [0.5, -0.5, 0.0])
    assert OPOCombiner().combine([0.7], [0], lengths=[3])[0] == 0.7  # a lone rollout's baseline is 0, as verl


# ------------------------------------------------------------------------------------------------ GPG
@SETTINGS
@given(batch=reward_batches())
def test_gpg_equals_verl(batch):
    scores, g, w = filled(batch), batch.groups, batch.weights
    verl = verl_per_sequence(core_algos.compute_gpg_outcome_advantage, scores @ w, g, np.full(batch.n, 3))
    np.testing.assert_allclose(GPGCombiner().combine(scores, g, w), verl, atol=1e-9, rtol=1e-9)
    f_norm = verl_per_sequence(core_algos.compute_gpg_outcome_advantage, scores @ w, g, np.full(batch.n, 3), f_norm=2.5)
    np.testing.assert_allclose(GPGCombiner(f_norm=2.5).combine(scores, g, w), f_norm, atol=1e-9, rtol=1e-9)


def test_gpg_scales_by_the_share_of_nonzero_rewards():
    rewards = np.array([1.0, 0.0, 0.0, 0.0, 0.0, 0.0])  # 6 rollouts, one nonzero: alpha = 6
    ours = GPGCombiner().combine(rewards, [0, 0, 0, 1, 1, 1])
    np.testing.assert_allclose(ours, 6 * np.array([2 / 3, -1 / 3, -1 / 3, 0, 0, 0]))
    assert np.all(GPGCombiner().combine(np.zeros(4), [0, 0, 1, 1]) == 0.0)  # M = 0: alpha = B / 1, no signal anyway


# --------------------------------------------------------------------------------------- NaN = absent
NAN_CASES = [
    (ReinforcePlusPlusBaselineCombiner, core_algos.compute_reinforce_plus_plus_baseline_outcome_advantage, {}),
    (OPOCombiner, core_algos.compute_opo_outcome_advantage, {}),
    (GPGCombiner, core_algos.compute_gpg_outcome_advantage, {}),
    (GRPOPassKCombiner, core_algos.compute_grpo_passk_outcome_advantage, {"config": {"norm_adv_by_std_in_grpo": True}}),
]


@pytest.mark.parametrize("cls, fn, kwargs", NAN_CASES, ids=lambda c: getattr(c, "type_name", ""))
@SETTINGS
@given(batch=reward_batches(), seed=st.integers(0, 2**16))
def test_a_row_without_any_reward_is_absent(cls, fn, kwargs, batch, seed):
    rng = np.random.default_rng(seed)
    scores, g, w = filled(batch), batch.groups, batch.weights
    gone = rng.random(batch.n) < 0.25
    scores[gone] = np.nan  # every reward None on those rows
    kept = ~gone
    lengths = token_lengths(seed, batch.n)
    if cls is GRPOPassKCombiner:  # verl refuses groups of one
        kept &= np.bincount(g, weights=kept)[g] >= 2
    assume(kept.sum() >= 2 and lengths[kept].sum() > 1)
    ours = cls().combine(scores, g, w, **({"lengths": lengths} if cls().uses_lengths else {}))
    assert np.all(ours[gone] == 0.0)
    verl = verl_per_sequence(fn, scores[kept] @ w, g[kept], lengths[kept], **kwargs)
    if cls is ReinforcePlusPlusBaselineCombiner and np.ptp(ours[kept]) == 0:
        return  # a constant batch: the documented whitening deviation (tested above)
    np.testing.assert_allclose(ours[kept], verl, atol=1e-6, rtol=1e-6)
