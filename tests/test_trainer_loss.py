"""The clipped surrogate loss and its aggregations (grpo, dr_grpo, dapo), against hand-computed values.

Expected values follow TRL 1.16 ``GRPOTrainer._compute_loss`` (see trainer/loss.py for the formulas).
"""

from __future__ import annotations

import collections
import inspect
import math
import types

import pytest

torch = pytest.importorskip("torch")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from polyreward.trainer.loss import clipped_surrogate_loss  # noqa: E402

LN = math.log


def _loss(logps, old, adv, mask, loss_type, max_new_tokens=4, beta=0.0, ref=None, low=0.2, high=0.28):
    logps, old, mask = (torch.tensor(x, dtype=torch.float64) for x in (logps, old, mask))
    return clipped_surrogate_loss(
        logps, old, torch.tensor(adv, dtype=torch.float64), mask, loss_type=loss_type, clip_low=low, clip_high=high,
        beta=beta, ref_logps=None if ref is None else torch.tensor(ref, dtype=torch.float64),
        max_new_tokens=max_new_tokens, batch_tokens=float(mask.sum()),
    )


# ratio 1, A = [1, -0.5], mask [[1,1,0],[1,1,1]]: per-token loss -A.
RATIO_ONE = ([[0.0] * 3] * 2, [[0.0] * 3] * 2, [1.0, -0.5], [[1, 1, 0], [1, 1, 1]])
# ratio 1.5 everywhere, A = [1, -1]: clipped to 1.28 for A > 0 (loss -1.28), unclipped 1.5 for A < 0 (loss 1.5).
RATIO_HIGH = ([[LN(1.5)] * 2] * 2, [[0.0] * 2] * 2, [1.0, -1.0], [[1, 1], [1, 1]])
# ratio 0.5, A = [1, -1]: unclipped 0.5 for A > 0 (loss -0.5), clipped to 0.8 for A < 0 (loss 0.8).
RATIO_LOW = ([[LN(0.5)] * 2] * 2, [[0.0] * 2] * 2, [1.0, -1.0], [[1, 1], [1, 1]])


@pytest.mark.parametrize(
    ("case", "loss_type", "expected", "clipped_low", "clipped_high"),
    [
        (RATIO_ONE, "grpo", ((-1 - 1) / 2 + (0.5 * 3) / 3) / 2, 0, 0),  # mean of per-sequence means = -0.25
        (RATIO_ONE, "dr_grpo", (-2 + 1.5) / (2 * 4), 0, 0),  # sum / (B * L_max) = -0.0625
        (RATIO_ONE, "dapo", (-2 + 1.5) / 5, 0, 0),  # sum / tokens = -0.1
        (RATIO_HIGH, "grpo", (-1.28 + 1.5) / 2, 0, 2),
        (RATIO_HIGH, "dr_grpo", (-1.28 * 2 + 1.5 * 2) / (2 * 4), 0, 2),
        (RATIO_HIGH, "dapo", (-1.28 * 2 + 1.5 * 2) / 4, 0, 2),
        (RATIO_LOW, "grpo", (-0.5 + 0.8) / 2, 2, 0),
        (RATIO_LOW, "dr_grpo", (-0.5 * 2 + 0.8 * 2) / 8, 2, 0),
        (RATIO_LOW, "dapo", (-0.5 * 2 + 0.8 * 2) / 4, 2, 0),
    ],
)
def test_clipped_surrogate_table(case, loss_type, expected, clipped_low, clipped_high):
    parts = _loss(*case, loss_type)
    assert float(parts.loss) == pytest.approx(expected, abs=1e-12)
    assert (parts.clipped_low, parts.clipped_high) == (clipped_low, clipped_high)


@pytest.mark.parametrize("loss_type", ["grpo", "dr_grpo", "dapo"])
def test_k3_kl_with_bias_correction(loss_type):
    # logπ = 0 everywhere, ref = ln 2: k3 = e^{ln2} - ln2 - 1 = 1 - ln 2 per token; A = 0 leaves only β·ρ·KL (ρ = 1).
    kl = 1 - LN(2)
    parts = _loss([[0.0, 0.0]], [[0.0, 0.0]], [0.0], [[1, 1]], loss_type, max_new_tokens=2, beta=0.1, ref=[[LN(2)] * 2])
    assert float(parts.loss) == pytest.approx(0.1 * kl, abs=1e-12)
    assert parts.kl_sum == pytest.approx(2 * kl, abs=1e-12)


def test_zero_advantage_gives_zero_loss_and_gradient():
    logps = torch.zeros(2, 3, dtype=torch.float64, requires_grad=True)
    parts = clipped_surrogate_loss(logps, logps.detach(), torch.zeros(2), torch.ones(2, 3), loss_type="dapo", clip_low=0.2,
                                   clip_high=0.2, max_new_tokens=3, batch_tokens=6.0)
    parts.loss.backward()
    assert parts.loss.item() == 0.0 and torch.count_nonzero(logps.grad) == 0


def test_policy_gradient_at_ratio_one_is_minus_advantage_over_tokens():
    # dapo: d loss / d logπ_it = -A_i / Σ m, exactly the REINFORCE token gradient (TRL's ratio-1 shortcut).
    logps = torch.zeros(2, 2, dtype=torch.float64, requires_grad=True)
    mask = torch.tensor([[1.0, 1.0], [1.0, 0.0]])
    parts = clipped_surrogate_loss(logps, logps.detach(), torch.tensor([2.0, -1.0]), mask, loss_type="dapo", clip_low=0.2,
                                   clip_high=0.2, max_new_tokens=2, batch_tokens=3.0)
    parts.loss.backward()
    assert torch.allclose(logps.grad, torch.tensor([[-2 / 3, -2 / 3], [1 / 3, 0.0]], dtype=torch.float64))


@pytest.mark.parametrize("bad", ["ppo", "bnpo"])
def test_unknown_loss_type(bad):
    with pytest.raises(ValueError, match="loss_type"):
        _loss(*RATIO_ONE, bad)


@settings(max_examples=40, deadline=None)
@given(
    rows=st.integers(1, 3).map(lambda k: 2 * k),
    width=st.integers(1, 5),
    seed=st.integers(0, 10_000),
    loss_type=st.sampled_from(["grpo", "dr_grpo", "dapo"]),
    beta=st.sampled_from([0.0, 0.05]),
)
def test_micro_batches_sum_to_the_whole_batch_loss(rows, width, seed, loss_type, beta):
    """Split into two micro-batches (gradient accumulation), the losses add up to the one-batch loss."""
    g = torch.Generator().manual_seed(seed)
    logps = -torch.rand(rows, width, generator=g, dtype=torch.float64) * 3
    old = logps + (torch.rand(rows, width, generator=g, dtype=torch.float64) - 0.5) * 0.6
    ref = logps + (torch.rand(rows, width, generator=g, dtype=torch.float64) - 0.5)
    adv = torch.randn(rows, generator=g, dtype=torch.float64)
    mask = (torch.rand(rows, width, generator=g) > 0.3).double()
    mask[:, 0] = 1.0
    common = dict(loss_type=loss_type, clip_low=0.2, clip_high=0.28, beta=beta, max_new_tokens=width, batch_tokens=float(mask.sum()))
    whole = clipped_surrogate_loss(logps, old, adv, mask, ref_logps=ref, **common).loss
    half = rows // 2
    parts = sum(
        clipped_surrogate_loss(logps[s], old[s], adv[s], mask[s], ref_logps=ref[s], accumulation=2, **common).loss
        for s in (slice(0, half), slice(half, rows))
    )
    assert float(parts) == pytest.approx(float(whole), rel=1e-9, abs=1e-12)
    assert math.isfinite(float(whole))


def test_inverse_cdf_sampling_matches_the_distribution():
    from polyreward.trainer.policy import sample_from_probs

    torch.manual_seed(0)
    probs = torch.tensor([[0.5, 0.0, 0.3, 0.2]]).repeat(40_000, 1)
    counts = torch.bincount(sample_from_probs(probs), minlength=4).double() / 40_000
    assert counts[1] == 0.0
    assert torch.allclose(counts, torch.tensor([0.5, 0.0, 0.3, 0.2], dtype=torch.float64), atol=0.01)
    # a one-hot row always gives its index, also for the last entry (the upper clamp)
    assert sample_from_probs(torch.tensor([[0.0, 0.0, 1.0], [0.0, 0.0, 0.0 + 1.0]])).tolist() == [2, 2]


# --- against TRL 1.16 itself: GRPOTrainer._compute_loss run on a minimal trainer object --------------------------
# The arithmetic below is TRL's own code (the unbound method is called); only the trainer state it reads is
# stubbed: the policy forward returns the given log-probabilities, and a one-process accelerator.
TRL_LINES = [  # grpo_trainer.py:3090-3175, the lines trainer/loss.py mirrors
    "log_ratio = per_token_logps - old_per_token_logps",
    "coef_1 = torch.exp(log_importance_weights)",
    "torch.exp(ref_per_token_logps - per_token_logps) - (ref_per_token_logps - per_token_logps) - 1",
    "per_token_kl = per_token_kl * coef_1",
    "coef_2 = torch.clamp(coef_1, 1 - self.epsilon_low, 1 + self.epsilon_high)",
    "per_token_loss = -torch.min(per_token_loss1, per_token_loss2)",
    "per_token_loss = per_token_loss + self.beta * per_token_kl",
    "loss = ((per_token_loss * mask).sum(-1) / mask.sum(-1).clamp(min=1.0)).mean()",
    "loss = (per_token_loss * mask).sum() / (per_token_loss.size(0) * self.max_completion_length)",
    'normalizer = inputs["num_items_in_batch"].clamp(min=1.0) / self.accelerator.num_processes',
    "normalizer = normalizer * self.current_gradient_accumulation_steps / self.args.steps_per_generation",
    "is_low_clipped = (coef_1 < 1 - self.epsilon_low) & (advantages < 0)",
    "is_high_clipped = (coef_1 > 1 + self.epsilon_high) & (advantages > 0)",
]


def test_trl_source_still_has_the_mirrored_lines():
    from trl import GRPOConfig
    from trl.trainer.grpo_trainer import GRPOTrainer

    source = " ".join(inspect.getsource(GRPOTrainer._compute_loss).split())
    missing = [line for line in TRL_LINES if " ".join(line.split()) not in source]
    assert not missing, f"TRL's _compute_loss changed; re-audit trainer/loss.py: {missing}"
    fields = GRPOConfig.__dataclass_fields__
    assert fields["use_bias_correction_kl"].default is True and fields["delta"].default is None
    assert fields["importance_sampling_level"].default == "token"


class _OneProcess:
    num_processes = 1
    sync_gradients = True

    def gather(self, x):
        return x

    def reduce(self, x, reduction="sum"):
        return x


def _trl_micro_batch_loss(logps, inputs, *, loss_type, beta, low, high, max_len, accumulation):
    """One ``GRPOTrainer._compute_loss`` call of TRL 1.16 (train mode, steps_per_generation = accumulation)."""
    from trl.trainer.grpo_trainer import GRPOTrainer

    trainer = types.SimpleNamespace(
        top_entropy_quantile=1.0, off_policy_mask_threshold=None, importance_sampling_level="token", beta=beta,
        loss_type=loss_type, epsilon_low=low, epsilon_high=high, use_vllm=False, model=types.SimpleNamespace(training=True),
        current_gradient_accumulation_steps=accumulation, max_completion_length=max_len, accelerator=_OneProcess(),
        _entropy_bonus_enabled=False, aux_loss_enabled=False, _metrics={"train": collections.defaultdict(list)},
        args=types.SimpleNamespace(use_bias_correction_kl=True, delta=None, steps_per_generation=accumulation),
        _get_per_token_logps_and_entropies=lambda *a, **k: (logps, torch.zeros_like(logps.detach()), None),
    )
    return GRPOTrainer._compute_loss(trainer, None, inputs), trainer._metrics["train"]


def _random_generation_batch(seed, rows, width, dtype):
    g = torch.Generator().manual_seed(seed)
    logps = -torch.rand(rows, width, generator=g, dtype=dtype) * 4
    old = logps + (torch.rand(rows, width, generator=g, dtype=dtype) - 0.5) * 2  # ratios in [1/e, e]: both clips active
    ref = logps + (torch.rand(rows, width, generator=g, dtype=dtype) - 0.5) * 1.5
    adv = torch.randn(rows, generator=g, dtype=dtype)
    adv[0] = 0.0  # a zero-variance group's rollout
    lengths = torch.randint(1, width + 1, (rows,), generator=g)
    lengths[1] = width
    mask = (torch.arange(width) < lengths.unsqueeze(1)).long()  # TRL's completion_mask is an int tensor
    return logps, old, ref, adv, mask


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
@pytest.mark.parametrize("off_policy", [False, True])  # num_iterations == 1 (old = logps.detach()) or > 1
@pytest.mark.parametrize("accumulation", [1, 2, 4])
@pytest.mark.parametrize("beta", [0.0, 0.04])
@pytest.mark.parametrize("loss_type", ["grpo", "dr_grpo", "dapo"])
def test_loss_and_gradient_equal_trl(loss_type, beta, accumulation, off_policy, dtype):
    """Our micro-batch loop (as trainer/loop.py runs it: each micro-batch trimmed to its longest completion) gives
    TRL's summed loss and gradient w.r.t. the log-probabilities, for DAPO clip-higher and symmetric clipping."""
    rows, width, max_len = 8, 7, 9
    tol = 1e-12 if dtype == torch.float64 else 1e-6
    for seed, (low, high) in [(0, (0.2, 0.28)), (1, (0.2, 0.2)), (2, (0.1, 0.3))]:
        logps, old, ref, adv, mask = _random_generation_batch(seed, rows, width, dtype)
        ours_leaf, trl_leaf = logps.clone().requires_grad_(True), logps.clone().requires_grad_(True)
        ours_total = trl_total = 0.0
        kl_sum = low_sum = high_sum = 0.0
        size = rows // accumulation
        for start in range(0, rows, size):
            r = slice(start, start + size)
            inputs = {"prompt_ids": torch.zeros(size, 1, dtype=torch.long), "prompt_mask": torch.ones(size, 1, dtype=torch.long),
                      "completion_ids": torch.zeros(size, width, dtype=torch.long), "completion_mask": mask[r],
                      "advantages": adv[r], "num_items_in_batch": mask.sum()}
            if off_policy:
                inputs["old_per_token_logps"] = old[r]
            if beta:
                inputs["ref_per_token_logps"] = ref[r]
            trl_loss, metrics = _trl_micro_batch_loss(trl_leaf[r], inputs, loss_type=loss_type, beta=beta, low=low, high=high,
                                                      max_len=max_len, accumulation=accumulation)
            trl_loss.backward()
            trl_total += float(trl_loss.detach())

            w = int(mask[r].sum(-1).max())
            lp = ours_leaf[r, :w]
            parts = clipped_surrogate_loss(lp, old[r, :w] if off_policy else lp.detach(), adv[r], mask[r, :w], loss_type=loss_type,
                                           clip_low=low, clip_high=high, beta=beta, ref_logps=ref[r, :w] if beta else None,
                                           max_new_tokens=max_len, accumulation=accumulation, batch_tokens=float(mask.sum()))
            parts.loss.backward()
            ours_total += float(parts.loss.detach())
            kl_sum, low_sum, high_sum = kl_sum + parts.kl_sum, low_sum + parts.clipped_low, high_sum + parts.clipped_high
        assert ours_total == pytest.approx(trl_total, abs=tol)
        assert torch.allclose(ours_leaf.grad, trl_leaf.grad, rtol=0, atol=tol)
        if accumulation == 1:  # TRL logs one mean per micro-batch; with one, the logged means coincide
            tokens = float(mask.sum())
            assert low_sum / tokens == pytest.approx(metrics["clip_ratio/low_mean"][0], abs=1e-6)
            assert high_sum / tokens == pytest.approx(metrics["clip_ratio/high_mean"][0], abs=1e-6)
            if beta:
                assert kl_sum / tokens == pytest.approx(metrics["kl"][0], abs=1e-6)
        if off_policy:
            assert low_sum + high_sum > 0  # the comparison did exercise the clipped branches
