"""The policy loss of GRPO, Dr. GRPO, DAPO, GSPO and CISPO, with the optional k3 KL term.

Per completion token t of rollout i (exact, TRL 1.16 ``GRPOTrainer._compute_loss``, grpo_trainer.py:3020-3184):

    w_it   = log π_θ(o_it) − log π_old(o_it)                             log importance ratio
    token level (default):      ρ_it = exp(w_it)
    sequence level (GSPO):      ρ_i  = exp(Σ_t m_it w_it / max(Σ_t m_it, 1))   one ratio per rollout, broadcast
                                (Zheng et al. 2025, arXiv 2507.18071; TRL ``importance_sampling_level="sequence"``)
    clipped surrogate (grpo, dr_grpo, dapo):
                ℓ_it = −min(ρ · A_i,  clip(ρ, 1 − ε_low, 1 + ε_high) · A_i)
    cispo:      ℓ_it = −sg[min(ρ, ε_high)] · A_i · log π_θ(o_it)
                (MiniMax-M1, arXiv 2506.13585, as TRL 1.16 writes it: ε_high is an absolute cap on the ratio,
                TRL recommends 5.0; sg = stop-gradient, so every token keeps a gradient, however far off-policy)
    KL_it  = exp(r_it − log π_θ) − (r_it − log π_θ) − 1,  r = log π_ref     (k3 estimator, Schulman 2020)
    ℓ_it  += β · ρ · KL_it                                                 (TRL's use_bias_correction_kl=True)

Log-probabilities are taken at the sampling temperature (logits / T), as TRL does.

Aggregation over the mask m (EOS included, padding after it excluded; a truncated completion's row is all 0
under ``mask_truncated_completions``), per micro-batch of B rollouts out of a generation batch split into
``accumulation`` micro-batches:

    grpo     Σ_i [Σ_t m ℓ / max(Σ_t m, 1)] / B / accumulation   per-sequence mean (Shao et al. 2024; length-biased)
    dr_grpo  Σ_i Σ_t m ℓ / (B · L_max) / accumulation          constant normaliser (Liu et al. 2025, arXiv 2503.20783)
    dapo     Σ_i Σ_t m ℓ / Σ_{generation batch} m              token mean over the whole generation batch
    cispo    the same token mean as dapo                       (Yu et al. 2025, arXiv 2503.14476; TRL's default)

Summed over the micro-batches, each equals the loss of the whole generation batch computed at once.
Zero-advantage rollouts (a zero-variance group) contribute no policy gradient, only KL.
The logged KL is the importance-weighted ρ·KL, as TRL logs it. With one iteration per batch (ρ ≡ 1 in value) and
β = 0, sequence-level ratios and CISPO give the same gradient as the token-level clipped loss; they differ only when
``num_iterations`` > 1 makes the batch off-policy (with β > 0 the sequence-level ρ also changes the gradient of β·ρ·KL). The GSPO paper aggregates with the per-sequence mean
(``loss_type: grpo``); TRL warns that the token sums of dr_grpo / dapo / cispo weight each sequence by its length.

Audited against the installed TRL 1.16 (tests/test_trainer_loss.py calls ``GRPOTrainer._compute_loss``
itself on the same tensors): loss and gradient agree to float64 round-off for grpo, dr_grpo, dapo and cispo,
at token and sequence level, with and without β, on- and off-policy, for 1, 2 and 4 micro-batches (TRL with
``steps_per_generation`` = ``gradient_accumulation_steps``, its default, which is how trainer/loop.py steps).
verl 0.9.1 (core_algos.py) differs in two places, both documented in docs/trainer.md: its ``cispo`` clips the
ratio to [1 − ε_low, 1 + ε_high] (relative), and its ``gspo`` clamps the log-ratio at 10 (a test checks its GSPO
equals ours with grpo aggregation below that clamp). Deliberately not supported (TRL's defaults are the
behaviour here): ``bnpo`` (its token mean is per micro-batch, so it depends on the split), ``sapo``, ``luspo``,
``vespo``, ``delta`` (None), ``use_bias_correction_kl=False``, the vLLM importance-sampling correction,
``top_entropy_quantile`` and ``off_policy_mask_threshold``. Metrics differ in one respect: the loop weights KL /
clip fractions by tokens over the whole generation batch, where TRL averages one mean per micro-batch (equal
when there is one) and, at sequence level, counts sequences rather than tokens.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch


LOSS_TYPES = ("grpo", "dr_grpo", "dapo", "cispo")
IMPORTANCE_SAMPLING_LEVELS = ("token", "sequence")


@dataclass
class LossParts:
    """The loss of one micro-batch (with gradient) and detached diagnostics summed over its tokens."""

    loss: torch.Tensor
    kl_sum: float
    clipped_low: float  # tokens where the lower clip was active (ρ < 1 − ε_low and A < 0); 0 for cispo
    clipped_high: float  # tokens where the upper clip was active (ρ > 1 + ε_high and A > 0; cispo: ρ > ε_high and A > 0)
    tokens: float


def importance_weights(logps: torch.Tensor, old_logps: torch.Tensor, mask: torch.Tensor, level: str) -> torch.Tensor:
    """ρ: (B, T) per-token ratios, or (B, 1) GSPO sequence ratios exp(masked mean of the log-ratios)."""
    log_ratio = logps - old_logps
    if level == "token":
        return torch.exp(log_ratio)
    if level == "sequence":
        return torch.exp((log_ratio * mask).sum(-1) / mask.sum(-1).clamp(min=1.0)).unsqueeze(-1)
    raise ValueError(f"importance_sampling_level must be one of {', '.join(IMPORTANCE_SAMPLING_LEVELS)}; got {level!r}")


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
    importance_sampling_level: str = "token",
) -> LossParts:
    """Loss of one micro-batch. ``logps``/``old_logps``/``ref_logps``/``mask``: (B, T); ``advantages``: (B,), or (B, T)
    from a token-level combiner.

    ``batch_tokens`` (``dapo`` / ``cispo``) is the number of loss tokens in the whole generation batch.
    """
    if loss_type not in LOSS_TYPES:
        raise ValueError(f"loss_type must be one of {', '.join(LOSS_TYPES)}; got {loss_type!r}")
    mask = mask.to(logps.dtype)
    advantages = advantages.to(logps.dtype)
    if advantages.dim() == 1:  # one advantage per sequence, on each of its tokens
        advantages = advantages.unsqueeze(1)
    ratio = importance_weights(logps, old_logps, mask, importance_sampling_level)  # (B, T) or (B, 1)
    if loss_type == "cispo":
        per_token = -torch.clamp(ratio, max=clip_high).detach() * advantages * logps
    else:
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
    per_token = per_token.expand_as(mask)  # a sequence-level loss without KL is (B, 1)

    if loss_type == "grpo":
        loss = ((per_token * mask).sum(-1) / mask.sum(-1).clamp(min=1.0)).mean() / accumulation
    elif loss_type == "dr_grpo":
        loss = (per_token * mask).sum() / (per_token.size(0) * max_new_tokens) / accumulation
    else:  # dapo, cispo
        if batch_tokens is None:
            raise ValueError(f"loss_type {loss_type!r} needs batch_tokens (loss tokens in the generation batch)")
        loss = (per_token * mask).sum() / max(batch_tokens, 1.0)

    with torch.no_grad():
        if loss_type == "cispo":
            low = torch.zeros_like(ratio)
            high = ((ratio > clip_high) & (advantages > 0)).to(mask.dtype)
        else:
            low = ((ratio < 1 - clip_low) & (advantages < 0)).to(mask.dtype)
            high = ((ratio > 1 + clip_high) & (advantages > 0)).to(mask.dtype)
        clipped_low = float((low * mask).sum())
        clipped_high = float((high * mask).sum())
    return LossParts(loss, kl_sum, clipped_low, clipped_high, float(mask.sum()))
