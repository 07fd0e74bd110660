"""Token-level clipped surrogate loss of GRPO, Dr. GRPO and DAPO, with the optional k3 KL term.

Per completion token t of rollout i (exact, TRL 1.16 ``GRPOTrainer._compute_loss``, grpo_trainer.py:3083-3184):

    ρ_it   = exp(log π_θ(o_it) − log π_old(o_it))                       importance ratio
    ℓ_it   = −min(ρ_it · A_i,  clip(ρ_it, 1 − ε_low, 1 + ε_high) · A_i)
    KL_it  = exp(r_it − log π_θ) − (r_it − log π_θ) − 1,  r = log π_ref     (k3 estimator, Schulman 2020)
    ℓ_it  += β · ρ_it · KL_it                                              (TRL's use_bias_correction_kl=True)

Log-probabilities are taken at the sampling temperature (logits / T), as TRL does.

Aggregation over the mask m (EOS included, padding after it excluded), per micro-batch of B rollouts
out of a generation batch split into ``accumulation`` micro-batches:

    grpo     Σ_i [Σ_t m ℓ / Σ_t m] / B / accumulation       per-sequence mean (Shao et al. 2024; length-biased)
    dr_grpo  Σ_i Σ_t m ℓ / (B · L_max) / accumulation       constant normaliser (Liu et al. 2025, arXiv 2503.20783)
    dapo     Σ_i Σ_t m ℓ / Σ_{generation batch} m           token mean over the whole generation batch
                                                           (Yu et al. 2025, arXiv 2503.14476; TRL's default)

Summed over the micro-batches, each equals the loss of the whole generation batch computed at once.
Zero-advantage rollouts (a zero-variance group) contribute no policy gradient, only KL.
The logged KL is the importance-weighted ρ·KL, as TRL logs it.

Audited against the installed TRL 1.16 (tests/test_trainer_loss.py calls ``GRPOTrainer._compute_loss``
itself on the same tensors): loss and gradient agree to float64 round-off for grpo, dr_grpo and dapo, with and
without β, on- and off-policy, for 1, 2 and 4 micro-batches (TRL with ``steps_per_generation`` =
``gradient_accumulation_steps``, its default, which is how trainer/loop.py steps). Deliberately not supported
(TRL's defaults are the behaviour here): ``bnpo`` (its token mean is per micro-batch, so it depends on the
split), ``delta`` (None), ``importance_sampling_level="sequence"`` (token), ``use_bias_correction_kl=False``,
the vLLM importance-sampling correction, ``top_entropy_quantile``, ``off_policy_mask_threshold`` and
``mask_truncated_completions``. Metrics differ in one respect: the loop weights KL / clip fractions by tokens over
the whole generation batch, where TRL averages one mean per micro-batch (equal when there is one).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass
class LossParts:
    """The loss of one micro-batch (with gradient) and detached diagnostics summed over its tokens."""

    loss: torch.Tensor
    kl_sum: float
    clipped_low: float  # tokens where the lower clip was active (ρ < 1 − ε_low and A < 0)
    clipped_high: float  # tokens where the upper clip was active (ρ > 1 + ε_high and A > 0)
    tokens: float


def clipped_surrogate_loss(
    logps: torch.Tensor,
    old_logps: torch.Tensor,
    advantages: torch.Tensor,
    mask: torch.Tensor,
    *,
    loss_type: str,
    clip_low: float,
    clip_high: float,
    beta: float = 0.0,
    ref_logps: torch.Tensor | None = None,
    max_new_tokens: int,
    accumulation: int = 1,
    batch_tokens: float | None = None,
) -> LossParts:
    """Loss of one micro-batch. ``logps``/``old_logps``/``ref_logps``/``mask``: (B, T); ``advantages``: (B,), or (B, T)
    from a token-level combiner.

    ``batch_tokens`` (``dapo`` only) is the number of completion tokens in the whole generation batch.
    """
    mask = mask.to(logps.dtype)
    advantages = advantages.to(logps.dtype)
    if advantages.dim() == 1:  # one advantage per sequence, on each of its tokens
        advantages = advantages.unsqueeze(1)
    ratio = torch.exp(logps - old_logps)
    clipped_ratio = torch.clamp(ratio, 1 - clip_low, 1 + clip_high)
    per_token = -torch.min(ratio * advantages, clipped_ratio * advantages)

    kl_sum = 0.0
    if beta != 0.0:
        if ref_logps is None:
            raise ValueError("beta > 0 needs ref_logps")
        delta = ref_logps - logps
        kl = torch.exp(delta) - delta - 1
        kl = kl * ratio  # TRL's use_bias_correction_kl=True: importance-weighted, in the loss and in the logged KL
        per_token = per_token + beta * kl
        kl_sum = float((kl.detach() * mask).sum())

    if loss_type == "grpo":
        loss = ((per_token * mask).sum(-1) / mask.sum(-1).clamp(min=1.0)).mean() / accumulation
    elif loss_type == "dr_grpo":
        loss = (per_token * mask).sum() / (per_token.size(0) * max_new_tokens) / accumulation
    elif loss_type == "dapo":
        if batch_tokens is None:
            raise ValueError("loss_type 'dapo' needs batch_tokens (completion tokens in the generation batch)")
        loss = (per_token * mask).sum() / max(batch_tokens, 1.0)
    else:
        raise ValueError(f"loss_type must be one of grpo, dr_grpo, dapo; got {loss_type!r}")

    with torch.no_grad():
        low = ((ratio < 1 - clip_low) & (advantages < 0)).to(mask.dtype)
        high = ((ratio > 1 + clip_high) & (advantages > 0)).to(mask.dtype)
        clipped_low = float((low * mask).sum())
        clipped_high = float((high * mask).sum())
    return LossParts(loss, kl_sum, clipped_low, clipped_high, float(mask.sum()))
