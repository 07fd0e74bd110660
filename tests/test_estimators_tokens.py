"""Token-level advantages: ``Combiner.combine_tokens`` / ``combine_token_scores``.

- every sequence-level combiner: the default is its ``combine`` value on each of the row's tokens (lengths = the
  mask's row sums for a combiner that reads them);
- REINFORCE++ against verl 0.9.1 ``compute_reinforce_plus_plus_outcome_advantage`` called directly (float64, masks
  with holes as multi-turn observation spans, γ < 1, dense per-token rewards);
- GRPO with process supervision against the DeepSeekMath formula re-typed as a per-group loop below;
- the consumers: the trainer's loss takes (B, T) advantages; the verl estimator gives a token-level combiner's own
  (bs, T) advantages.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combiner_batches import reward_batches
from polyreward import registry
from polyreward.combiner import combine_token_scores
from polyreward.combiners import ProcessGRPOCombiner, ReinforcePlusPlusCombiner

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.usefixtures("one_torch_thread")  # tests/conftest.py: the tiny models on one torch thread

SETTINGS = settings(max_examples=30, derandomize=True, deadline=None, database=None)
ALL = registry.combiner_types()
TOKEN_LEVEL = [n for n in ALL if registry.combiner_class(n).token_level]


def right_padded(lengths, width=None):
    lengths = np.asarray(lengths)
    width = width or max(int(lengths.max(initial=0)), 1)
    return (np.arange(width)[None, :] < lengths[:, None]).astype(np.float64)


def with_holes(seed, n, width):
    """Right-padded masks with masked-out spans inside (tool observations of a multi-turn response)."""
    rng = np.random.default_rng(seed)
    mask = right_padded(rng.integers(0, width + 1, n), width)
    holes = rng.random(mask.shape) < 0.2
    return np.where(holes, 0.0, mask)


def row_columns(combiner, groups):
    return {name: (np.where(np.asarray(groups) % 2 == 0, 0.5, 1.0) if name in combiner.example_row_values  # numbers
                   else np.where(np.asarray(groups) % 2 == 0, "a", "b")) for name in combiner.row_columns}


def test_token_level_registry():
    assert set(TOKEN_LEVEL) == {"reinforce_plus_plus", "grpo_process"}


@pytest.mark.parametrize("name", [n for n in ALL if n not in TOKEN_LEVEL])
@SETTINGS
@given(batch=reward_batches(), seed=st.integers(0, 2**16))
def test_default_token_advantages_broadcast_the_sequence_value(name, batch, seed):
    cls = registry.combiner_class(name)
    scores = batch.scores[:, : cls.max_reward_columns or batch.scores.shape[1]]  # PAPO: outcome, process
    weights = batch.weights[: scores.shape[1]]
    mask = with_holes(seed, batch.n, 7)
    columns = row_columns(cls(), batch.groups)
    tokens = combine_token_scores(cls(), scores, batch.groups, weights, mask=mask, columns=columns)
    kwargs = {"lengths": mask.sum(1)} if cls().uses_lengths else {}
    per_row = np.asarray(cls().combine(scores, batch.groups, weights, **kwargs, **columns))
    np.testing.assert_array_equal(tokens, per_row[:, None] * mask)


def test_token_scores_refuse_a_mask_of_the_wrong_shape():
    with pytest.raises(ValueError, match="mask must be"):
        combine_token_scores(registry.combiner_class("grpo")(), np.ones((3, 1)), [0, 0, 0], mask=np.ones((2, 4)))
    with pytest.raises(ValueError, match="token_rewards must have"):
        combine_token_scores(ReinforcePlusPlusCombiner(), np.ones((3, 1)), [0, 0, 0], mask=np.ones((3, 4)),
                             token_rewards=np.ones((3, 2)))


# ------------------------------------------------------------------------------------------ REINFORCE++
core_algos = pytest.importorskip("verl.trainer.ppo.core_algos")


def verl_reinforce_pp(token_rewards, mask, gamma):
    from omegaconf import OmegaConf

    previous = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        adv, _ = core_algos.compute_reinforce_plus_plus_outcome_advantage(
            token_level_rewards=torch.tensor(token_rewards), response_mask=torch.tensor(mask),
            config=OmegaConf.create({"gamma": gamma}))
    finally:
        torch.set_default_dtype(previous)
    return adv.numpy()


@SETTINGS
@given(seed=st.integers(0, 2**16), n=st.integers(2, 37), width=st.integers(1, 13), gamma=st.sampled_from([1.0, 0.9, 0.5, 0.0]),
       dense=st.booleans())
def test_reinforce_plus_plus_equals_verl(seed, n, width, gamma, dense):
    rng = np.random.default_rng(seed)
    mask = with_holes(seed, n, width)
    if mask.sum() <= 1:  # verl's masked_var raises
        return
    outcome = rng.choice([0.0, 1.0, 0.1, -0.6, 2.5], n)
    if dense:  # rewards on many tokens (process rewards, a KL penalty folded into the reward)
        token_rewards = np.round(rng.normal(size=mask.shape), 2) * (rng.random(mask.shape) < 0.5)
    else:  # verl's outcome layout: the reward on each row's last response token
        token_rewards = np.zeros(mask.shape)
        for i in np.flatnonzero(mask.any(1)):
            token_rewards[i, np.flatnonzero(mask[i])[-1]] = outcome[i]
    verl = verl_reinforce_pp(token_rewards, mask, gamma)
    ours = combine_token_scores(ReinforcePlusPlusCombiner(gamma=gamma), outcome, np.arange(n), mask=mask,
                                token_rewards=token_rewards)
    if np.ptp(verl[mask > 0]) < 1e-3 and np.abs(verl).max() < 1e-3:  # all returns equal: verl's M + 1e-8 noise, ours 0
        assert np.all(ours == 0.0)
        return
    np.testing.assert_allclose(ours, verl, atol=1e-9, rtol=1e-9)
    if not dense:  # without token rewards the outcome goes on the last token: the same answer
        placed = combine_token_scores(ReinforcePlusPlusCombiner(gamma=gamma), outcome, np.arange(n), mask=mask)
        np.testing.assert_allclose(placed, verl, atol=1e-9, rtol=1e-9)


def test_reinforce_plus_plus_per_row_value_is_verls_with_gamma_one():
    outcome = np.array([1.0, 0.0, 0.5, 0.25, 1.0])
    lengths = np.array([3, 5, 1, 4, 2])
    mask = right_padded(lengths)
    token_rewards = np.zeros(mask.shape)
    token_rewards[np.arange(5), lengths - 1] = outcome
    verl = verl_reinforce_pp(token_rewards, mask, 1.0)
    np.testing.assert_allclose(ReinforcePlusPlusCombiner().combine(outcome, [0, 0, 1, 1, 1], lengths=lengths), verl[:, 0],
                               atol=1e-12)


def test_reinforce_plus_plus_rows_without_reward_are_left_out():
    scores = np.array([1.0, 0.0, np.nan, 0.5])
    mask = right_padded([2, 3, 4, 1])
    ours = combine_token_scores(ReinforcePlusPlusCombiner(), scores, [0, 0, 1, 1], mask=mask)
    assert np.all(ours[2] == 0.0)
    kept = combine_token_scores(ReinforcePlusPlusCombiner(), scores[[0, 1, 3]], [0, 0, 1], mask=mask[[0, 1, 3]])
    np.testing.assert_allclose(ours[[0, 1, 3]], kept, atol=1e-12)


# ----------------------------------------------------------------------------------- process GRPO
def process_grpo_reference(step_rewards, groups, mask, eps=1e-6):
    """DeepSeekMath §4.1.3 re-typed: per group, every step reward normalised by the mean and (Bessel) std of all the
    group's step rewards; a token's advantage is the sum of the normalised rewards of the steps ending at or after it."""
    n, width = mask.shape
    out = np.zeros((n, width))
    for g in np.unique(groups):
        rows = np.flatnonzero(groups == g)
        rewards = [step_rewards[i, t] for i in rows for t in range(width) if mask[i, t] > 0 and not np.isnan(step_rewards[i, t])]
        if len(rewards) < 2:
            continue
        mean, std = np.mean(rewards), np.std(rewards, ddof=1)
        if np.ptp(rewards) <= 1e-10 * np.max(np.abs(rewards)):
            continue
        for i in rows:
            for t in range(width):
                if mask[i, t] == 0:
                    continue
                later = [(step_rewards[i, s] - mean) / (std + eps) for s in range(t, width)
                         if mask[i, s] > 0 and not np.isnan(step_rewards[i, s])]
                out[i, t] = sum(later)
    return out


@SETTINGS
@given(seed=st.integers(0, 2**16), sizes=st.lists(st.integers(1, 9), min_size=1, max_size=4), width=st.integers(1, 11))
def test_process_grpo_equals_the_paper_formula(seed, sizes, width):
    rng = np.random.default_rng(seed)
    groups = np.repeat(np.arange(len(sizes)), sizes)
    n = len(groups)
    mask = with_holes(seed, n, width)
    steps = np.where(rng.random((n, width)) < 0.3, rng.choice([0.0, 1.0, 0.1, 1 / 3, 0.7], (n, width)), np.nan)
    ours = combine_token_scores(ProcessGRPOCombiner(), np.ones(n), groups, mask=mask, token_rewards=steps)
    np.testing.assert_allclose(ours, process_grpo_reference(steps, groups, mask), atol=1e-9)


def test_process_grpo_with_outcome_only_is_grpo():
    from polyreward.combiners import GRPOCombiner

    scores = np.array([[1.0, 0.5], [0.0, 1.0], [1.0, 1.0], [0.2, 0.0], [0.7, 0.1], [0.3, 0.3]])
    groups = [0, 0, 0, 1, 1, 1]
    expected = GRPOCombiner(eps=1e-6).combine(scores, groups, [1.0, 0.5])
    np.testing.assert_allclose(ProcessGRPOCombiner().combine(scores, groups, [1.0, 0.5]), expected, atol=1e-12)
    mask = right_padded([3, 1, 4, 2, 2, 5])
    tokens = combine_token_scores(ProcessGRPOCombiner(), scores, groups, [1.0, 0.5], mask=mask)
    np.testing.assert_allclose(tokens, expected[:, None] * mask, atol=1e-12)


def test_process_grpo_credits_early_tokens_with_later_steps():
    mask = right_padded([4, 4])
    steps = np.full((2, 4), np.nan)
    steps[0, 1], steps[0, 3] = 1.0, 0.0  # rollout 0: a good first step, a bad second
    steps[1, 1], steps[1, 3] = 0.0, 0.0
    tokens = combine_token_scores(ProcessGRPOCombiner(), np.ones(2), [0, 0], mask=mask, token_rewards=steps)
    z_good, z_bad = (1.0 - 0.25) / (0.5 + 1e-6), (0.0 - 0.25) / (0.5 + 1e-6)
    np.testing.assert_allclose(tokens[0], [z_good + z_bad] * 2 + [z_bad] * 2)
    np.testing.assert_allclose(tokens[1], [2 * z_bad] * 2 + [z_bad] * 2)


# -------------------------------------------------------------------------------------------- consumers
def test_trainer_loss_takes_token_advantages():
    from polyreward.trainer.loss import clipped_surrogate_loss

    gen = torch.Generator().manual_seed(0)
    logps = torch.randn(3, 5, generator=gen, dtype=torch.float64)
    old = logps + 0.1 * torch.randn(3, 5, generator=gen, dtype=torch.float64)
    mask = torch.tensor(right_padded([5, 2, 4]))
    per_row = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64)
    common = dict(loss_type="grpo", clip_low=0.2, clip_high=0.2, max_new_tokens=5)
    broadcast = clipped_surrogate_loss(logps, old, per_row[:, None] * mask, mask, **common)
    assert torch.allclose(broadcast.loss, clipped_surrogate_loss(logps, old, per_row, mask, **common).loss)
    varied = per_row[:, None] * mask * torch.linspace(1.0, 0.2, 5, dtype=torch.float64)
    assert not torch.allclose(clipped_surrogate_loss(logps, old, varied, mask, **common).loss, broadcast.loss)


def test_verl_estimator_gives_a_token_level_combiners_own_advantages():
    from omegaconf import OmegaConf

    from polyreward.integrations.verl import compute_polyreward_advantage

    rng = np.random.default_rng(3)
    mask = with_holes(3, 12, 9)
    token_rewards = np.round(rng.normal(size=mask.shape), 2) * (rng.random(mask.shape) < 0.4)
    previous = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        config = OmegaConf.create({"polyreward_combiner": {"type": "reinforce_plus_plus", "gamma": 0.9}, "gamma": 0.9})
        ours, _ = compute_polyreward_advantage(torch.tensor(token_rewards), torch.tensor(mask),
                                               index=np.repeat(np.arange(4), 3), config=config)
    finally:
        torch.set_default_dtype(previous)
    np.testing.assert_allclose(ours.numpy(), verl_reinforce_pp(token_rewards, mask, 0.9), atol=1e-9)


def test_trainer_runs_a_token_level_combiner_and_micro_batches_slice_its_advantages(tiny_qwen2_dir, tmp_path, monkeypatch):
    """REINFORCE++ (γ < 1: the advantage varies along each completion) through the trainer: the (N, T) advantages reach
    the loss, and one micro-batch or two give the same loss and gradient (each slice trimmed to its own width)."""
    import json

    from polyreward.registry import register_reward
    from polyreward.reward import RolloutReward, Scored
    from polyreward.trainer import train

    @register_reward
    class HasLetterE(RolloutReward):
        type_name = "test_tokens_has_e"

        def score_rollout(self, completion: str, row) -> Scored:
            return Scored(1.0 if "e" in completion else 0.0)

    prompts = tmp_path / "prompts.jsonl"
    prompts.write_text("".join(json.dumps({"prompt": f"Write the letter {c}."}) + "\n" for c in "abcd"), encoding="utf-8")

    def run(accumulation):
        config = {
            "rewards": [{"name": "has_e", "type": "test_tokens_has_e"}],
            "combiner": {"type": "reinforce_plus_plus", "gamma": 0.8},
            "train": {"model": str(tiny_qwen2_dir), "dataset": str(prompts), "prompts_per_step": 2, "num_generations": 4,
                      "max_new_tokens": 6, "learning_rate": 1e-3, "max_steps": 1, "output_dir": str(tmp_path / f"ga{accumulation}"),
                      "gradient_accumulation_steps": accumulation},
        }
        return train(config, progress=False).metrics[0]

    from polyreward.trainer import loop

    seen = []
    real_loss = loop.clipped_surrogate_loss

    def recording_loss(logps, old_logps, advantages, mask, **kwargs):
        seen.append((tuple(advantages.shape), tuple(mask.shape), bool((advantages * (1 - mask)).abs().max() == 0)))
        return real_loss(logps, old_logps, advantages, mask, **kwargs)

    monkeypatch.setattr(loop, "clipped_surrogate_loss", recording_loss)
    one, two = run(1), run(2)
    assert seen and all(adv == mask and clean for adv, mask, clean in seen), seen  # (B, T) per micro-batch, 0 on padding
    assert one["reward"] == two["reward"]
    assert np.isfinite(one["loss"]) and one["loss"] == pytest.approx(two["loss"], abs=1e-6)
    assert one["grad_norm"] == pytest.approx(two["grad_norm"], rel=1e-4)


@SETTINGS
@given(batch=reward_batches(), seed=st.integers(0, 2**16))
def test_reinforce_plus_plus_per_row_shortcut_equals_the_token_path(batch, seed):
    """γ = 1: ``combine`` whitens the totals weighted by token counts instead of building (N, T); the same numbers."""
    lengths = np.random.default_rng(seed).integers(0, 9, batch.n)
    mask = right_padded(lengths, 9)
    tokens = ReinforcePlusPlusCombiner().combine_tokens(batch.scores, batch.groups, batch.weights, mask=mask)
    with np.errstate(invalid="ignore"):
        expected = np.nan_to_num(tokens.sum(1) / mask.sum(1), nan=0.0)
    got = ReinforcePlusPlusCombiner().combine(batch.scores, batch.groups, batch.weights, lengths=lengths)
    np.testing.assert_allclose(got, expected, atol=1e-9, rtol=1e-9)


def test_poly_grpo_trainer_hands_trl_a_token_level_combiners_advantages(tiny_qwen2_dir, tmp_path):
    """TRL 1.16's loss takes (B, T) advantages: PolyGRPOTrainer with REINFORCE++ (γ < 1) gives each completion token its
    own advantage, equal to the combiner on the gathered reward matrix and completion mask."""
    trl = pytest.importorskip("trl")
    from datasets import Dataset

    from integration_rewards import LengthMod3, VowelShare
    from polyreward.integrations.trl import PolyGRPOTrainer, reward_funcs

    class Recording(PolyGRPOTrainer):
        def _generate_and_score_completions(self, inputs):
            output = super()._generate_and_score_completions(inputs)
            self.seen = getattr(self, "seen", []) + [(dict(self.last_batch), output["completion_mask"].detach().cpu())]
            return output

    rows = [{"prompt": [{"role": "user", "content": f"What is {i} + {i + 1}?"}]} for i in range(4)]
    args = trl.GRPOConfig(output_dir=str(tmp_path), max_steps=1, per_device_train_batch_size=8, num_generations=4,
                          max_completion_length=8, learning_rate=1e-5, logging_steps=1, report_to=[], use_cpu=True,
                          bf16=False, save_strategy="no", seed=0)
    trainer = Recording(model=str(tiny_qwen2_dir), reward_funcs=reward_funcs([LengthMod3(name="length"), VowelShare(name="vowels")]),
                        args=args, train_dataset=Dataset.from_list(rows), combiner={"type": "reinforce_plus_plus", "gamma": 0.9})
    assert math.isfinite(trainer.train().training_loss)
    for batch, mask in trainer.seen:
        assert batch["advantages"].shape == mask.shape  # (B, T): one value per completion token
        expected = combine_token_scores(ReinforcePlusPlusCombiner(gamma=0.9), batch["rewards"].double().numpy(), batch["groups"],
                                        mask=mask)
        np.testing.assert_allclose(batch["advantages"].double().numpy(), expected, atol=1e-5)
        varied = [row[m > 0] for row, m in zip(batch["advantages"], mask) if m.sum() > 1]
        assert any(float(v.max() - v.min()) > 1e-6 for v in varied)  # γ < 1: not one value per row
