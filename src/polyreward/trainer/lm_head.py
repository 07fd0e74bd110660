"""Per-token log-probabilities through the LM head in chunks, without keeping (tokens × vocabulary) logits.

The naive way (``model(...).logits`` then ``log_softmax`` and ``gather``) holds the completion logits in
float32 for the backward pass, plus their gradient: 2 × T × B × V × 4 bytes, which is 3.2 GB for SmolLM2
(V = 49,152) at 64 rollouts × 128 tokens and four times that for Qwen2's 151,936-token vocabulary. Here the
decoder body runs once and only its last hidden states (B × T × H) are kept; the LM head runs over
``chunk_tokens`` rows at a time in the forward pass and again in the backward pass (one extra matmul of the
head), which is the "fused linear cross-entropy" of Liger-Kernel / Cut-Cross-Entropy written in plain torch.

For the token ``t`` at temperature τ with raw logits ``z = W h``::

    log p(t) = z_t / τ - logsumexp(z / τ)
    ∂ log p(t) / ∂ z_j = ([j = t] - softmax(z / τ)_j) / τ
    ∂ / ∂ h = (∂ / ∂ z) W,     ∂ / ∂ W = (∂ / ∂ z)ᵀ h

Under autocast the head's matmuls run in the autocast dtype and the softmax in float32, as they do when
``lm_head`` runs under autocast and the logits are upcast with ``.float()`` (what ``token_logps`` did before);
the CPU tests check values and both gradients against that path.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

# Architectures whose causal-LM forward is exactly ``lm_head(decoder(...).last_hidden_state)``: no logit
# soft-capping (Gemma 2/3), logit scale (Cohere, Granite) or other post-processing that the chunked head would skip.
PLAIN_HEAD_MODEL_TYPES = frozenset({
    "llama", "mistral", "qwen2", "qwen3", "qwen2_moe", "qwen3_moe", "phi3", "olmo", "olmo2", "smollm3", "gpt2", "gpt_neox",
})


def supports_chunked_head(model) -> bool:
    """True when the model's logits are its output embedding applied to its base model's last hidden state."""
    head = model.get_output_embeddings()
    return (getattr(model.config, "model_type", None) in PLAIN_HEAD_MODEL_TYPES and isinstance(head, torch.nn.Linear)
            and head.bias is None and model.base_model is not model)


def _chunk_logits(hidden_rows: torch.Tensor, weight: torch.Tensor, temperature: float) -> torch.Tensor:
    """float32 ``(hidden_rows @ weightᵀ) / temperature`` for one chunk (inputs already in the compute dtype)."""
    logits = F.linear(hidden_rows, weight).float()
    return logits.div_(temperature) if temperature != 1.0 else logits


class ChunkedTokenLogps(torch.autograd.Function):
    """``(logps, entropy) = ChunkedTokenLogps.apply(hidden (N, H), weight (V, H), targets (N,), temperature, chunk_tokens,
    compute_dtype, with_entropy)``; only ``logps`` carries a gradient (``entropy`` is a detached diagnostic or None)."""

    @staticmethod
    def forward(ctx, hidden, weight, targets, temperature, chunk_tokens, compute_dtype, with_entropy):
        n = hidden.size(0)
        logps = torch.empty(n, dtype=torch.float32, device=hidden.device)
        log_normaliser = torch.empty_like(logps)
        entropy = torch.empty_like(logps) if with_entropy else None
        w = weight.to(compute_dtype)
        with torch.autocast(hidden.device.type, enabled=False):
            for start in range(0, n, chunk_tokens):
                rows = slice(start, start + chunk_tokens)
                logits = _chunk_logits(hidden[rows].to(compute_dtype), w, temperature)
                lse = logits.logsumexp(-1)
                log_normaliser[rows] = lse
                logps[rows] = logits.gather(-1, targets[rows].unsqueeze(-1)).squeeze(-1) - lse
                if with_entropy:  # H = logsumexp(z) - Σ softmax(z) z
                    entropy[rows] = lse - (torch.exp(logits - lse.unsqueeze(-1)) * logits).sum(-1)
        ctx.save_for_backward(hidden, weight, targets, log_normaliser)
        ctx.temperature, ctx.chunk_tokens, ctx.compute_dtype = temperature, chunk_tokens, compute_dtype
        if entropy is None:
            return logps, None
        ctx.mark_non_differentiable(entropy)
        return logps, entropy

    @staticmethod
    def backward(ctx, grad_logps, _grad_entropy):
        hidden, weight, targets, log_normaliser = ctx.saved_tensors
        temperature, chunk_tokens, dtype = ctx.temperature, ctx.chunk_tokens, ctx.compute_dtype
        need_hidden, need_weight = ctx.needs_input_grad[0], ctx.needs_input_grad[1]
        grad_hidden = torch.empty_like(hidden) if need_hidden else None
        grad_weight = torch.zeros(weight.shape, dtype=torch.float32, device=weight.device) if need_weight else None
        w = weight.to(dtype)
        with torch.autocast(hidden.device.type, enabled=False):
            for start in range(0, hidden.size(0), chunk_tokens):
                rows = slice(start, start + chunk_tokens)
                h = hidden[rows].to(dtype)
                logits = _chunk_logits(h, w, temperature)
                g = grad_logps[rows].float() / temperature
                # ∂/∂z = g·(onehot(t) - softmax): one (chunk, V) buffer, reused in place
                grad_logits = torch.exp(logits.sub_(log_normaliser[rows].unsqueeze(-1))).mul_(-g.unsqueeze(-1))
                grad_logits.scatter_add_(-1, targets[rows].unsqueeze(-1), g.unsqueeze(-1))
                grad_logits = grad_logits.to(dtype)
                if need_hidden:
                    grad_hidden[rows] = (grad_logits @ w).to(hidden.dtype)
                if need_weight:
                    grad_weight.add_((grad_logits.t() @ h).float())
        return (grad_hidden, grad_weight.to(weight.dtype) if need_weight else None, None, None, None, None, None)


def chunked_token_logps(hidden: torch.Tensor, weight: torch.Tensor, targets: torch.Tensor, temperature: float,
                        chunk_tokens: int = 1024, with_entropy: bool = False) -> tuple[torch.Tensor, torch.Tensor | None]:
    """Log-probabilities (B, T) of ``targets`` (B, T) under ``softmax(hidden @ weightᵀ / temperature)``; entropies too.

    The matmuls run in the active autocast dtype of ``hidden``'s device (else in ``hidden``'s dtype).
    """
    device_type = hidden.device.type
    dtype = torch.get_autocast_dtype(device_type) if torch.is_autocast_enabled(device_type) else hidden.dtype
    batch, length, width = hidden.shape
    logps, entropy = ChunkedTokenLogps.apply(hidden.reshape(batch * length, width), weight, targets.reshape(-1),
                                             float(temperature), int(chunk_tokens), dtype, bool(with_entropy))
    return logps.view(batch, length), (entropy.view(batch, length) if entropy is not None else None)
