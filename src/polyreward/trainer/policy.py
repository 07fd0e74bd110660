"""The policy model: loading, sampling G completions per prompt, and per-token log-probabilities.

Sampling runs a KV-cache decode loop on the policy itself (batched: every prompt repeated G times,
left-padded; the computation of ``model.generate(do_sample=True)`` without its overhead), so the next
step always samples from the updated weights. Completion tokens after the first EOS are masked out; the
EOS itself is kept in the loss, as in TRL.
"""

from __future__ import annotations

import warnings
from contextlib import nullcontext
from dataclasses import dataclass

import torch

from polyreward.trainer.decode import StaticDecoder, pick_next, resolve_decode, sample_from_probs  # noqa: F401 (re-export)
from polyreward.trainer.lm_head import chunked_token_logps, supports_chunked_head


@dataclass
class Rollouts:
    """One generation batch, N = prompts × G rows, grouped contiguously by prompt."""

    prompt_ids: torch.Tensor  # (N, Lp) left-padded
    prompt_mask: torch.Tensor  # (N, Lp)
    completion_ids: torch.Tensor  # (N, T) right-padded
    completion_mask: torch.Tensor  # (N, T) 1 up to and including the first EOS
    texts: list[str]  # decoded completions (special tokens skipped)
    terminated: torch.Tensor  # (N,) bool: the completion ended with EOS before max_new_tokens

    @property
    def lengths(self) -> torch.Tensor:
        return self.completion_mask.sum(-1)


def load_policy(path: str, device: torch.device, gradient_checkpointing: bool = False):
    """Model (fp32 master weights, train mode) and left-padding tokenizer from a local folder."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(path, padding_side="left")
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32).to(device)
    if gradient_checkpointing:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        model.config.use_cache = False
    model.train()
    return model, tokenizer


def eos_token_ids(model, tokenizer) -> list[int]:
    ids = {tokenizer.eos_token_id}
    configured = getattr(model.generation_config, "eos_token_id", None)
    ids.update(configured if isinstance(configured, list) else [configured])
    return sorted(i for i in ids if i is not None)


def autocast(device: torch.device, bf16: bool):
    """bf16 autocast on CUDA (fp32 master weights, like TRL's ``bf16=True``); nothing elsewhere."""
    return torch.autocast("cuda", dtype=torch.bfloat16) if bf16 and device.type == "cuda" else nullcontext()


def _mask_after_eos(completion_ids: torch.Tensor, eos_ids: list[int]) -> tuple[torch.Tensor, torch.Tensor]:
    is_eos = torch.isin(completion_ids, torch.tensor(eos_ids, device=completion_ids.device))
    has_eos = is_eos.any(dim=1)
    first_eos = torch.where(has_eos, is_eos.int().argmax(dim=1), torch.full_like(has_eos, completion_ids.size(1), dtype=torch.long))
    positions = torch.arange(completion_ids.size(1), device=completion_ids.device).expand_as(completion_ids)
    return (positions <= first_eos.unsqueeze(1)).long(), has_eos


class TransformersSampler:
    """Ancestral sampling at ``temperature`` (no top-k/top-p, like TRL's defaults; 0 = greedy) with a KV cache.

    The same computation as ``model.generate(do_sample=True)`` (left-padded prompts, position ids from
    the attention mask, prefill then one token per forward) without its per-token machinery (logits
    processors, stopping criteria, multinomial over the whole vocabulary). Stops when every row has
    emitted an EOS.

    ``decode`` picks the loop (trainer/decode.py): ``eager`` (DynamicCache, the CPU default), ``static``
    (StaticCache, fixed shapes, no capture) or ``cuda_graph`` (the static step captured as a CUDA graph;
    if capture fails the sampler warns once and decodes eagerly from then on). ``auto`` resolves by device.
    """

    def __init__(self, model, tokenizer, *, max_new_tokens: int, temperature: float, bf16: bool, decode: str = "eager",
                 check_every: int = 16) -> None:
        self.model, self.tokenizer, self.bf16 = model, tokenizer, bf16
        self.max_new_tokens, self.temperature = max_new_tokens, temperature
        self.eos_ids = eos_token_ids(model, tokenizer)
        self.decode = resolve_decode(decode, model.device)
        self.check_every = check_every
        self.static: StaticDecoder | None = None

    def _static_decoder(self) -> StaticDecoder:
        if self.static is None:
            self.static = StaticDecoder(self.model, eos_ids=self.eos_ids, pad_id=self.tokenizer.pad_token_id,
                                        temperature=self.temperature, max_new_tokens=self.max_new_tokens, bf16=self.bf16,
                                        use_graphs=self.decode == "cuda_graph", check_every=self.check_every)
        return self.static

    def _decode(self, prompt_ids: torch.Tensor, prompt_mask: torch.Tensor) -> torch.Tensor:
        if self.decode == "eager":
            return self._decode_eager(prompt_ids, prompt_mask)
        if self.decode == "static":
            return self._static_decoder().decode(prompt_ids, prompt_mask)
        try:
            return self._static_decoder().decode(prompt_ids, prompt_mask)
        except Exception as exc:  # never let the fast path end a training run
            warnings.warn(f"CUDA-graph decoding failed ({type(exc).__name__}: {exc}); decoding eagerly from now on", stacklevel=2)
            print(f"decode: cuda_graph failed ({type(exc).__name__}: {str(exc)[:300]}); falling back to eager decoding")
            self.decode, self.static = "eager", None
            return self._decode_eager(prompt_ids, prompt_mask)

    @torch.no_grad()
    def _decode_eager(self, prompt_ids: torch.Tensor, prompt_mask: torch.Tensor) -> torch.Tensor:
        eos = torch.tensor(self.eos_ids, device=prompt_ids.device)
        pad = self.tokenizer.pad_token_id
        attention_mask = prompt_mask
        positions = (prompt_mask.cumsum(-1) - 1).clamp(min=0)
        next_position = prompt_mask.sum(-1, keepdim=True)
        finished = torch.zeros(prompt_ids.size(0), dtype=torch.bool, device=prompt_ids.device)
        tokens, inputs, cache = [], prompt_ids, None
        for _ in range(self.max_new_tokens):
            out = self.model(input_ids=inputs, attention_mask=attention_mask, position_ids=positions, past_key_values=cache,
                             use_cache=True, logits_to_keep=1)
            cache = out.past_key_values
            token = pick_next(out.logits[:, -1], self.temperature, finished, eos, pad)
            tokens.append(token)
            if bool(finished.all()):
                break
            inputs, positions = token.unsqueeze(1), next_position
            next_position = next_position + 1
            attention_mask = torch.cat([attention_mask, attention_mask.new_ones(attention_mask.size(0), 1)], dim=1)
        return torch.stack(tokens, dim=1)

    def sample(self, prompt_texts: list[str], num_generations: int) -> Rollouts:
        device = self.model.device
        encoded = self.tokenizer(prompt_texts, return_tensors="pt", padding=True, add_special_tokens=False).to(device)
        prompt_ids = encoded["input_ids"].repeat_interleave(num_generations, dim=0)
        prompt_mask = encoded["attention_mask"].repeat_interleave(num_generations, dim=0)
        was_training = self.model.training
        self.model.eval()
        with autocast(device, self.bf16):
            completion_ids = self._decode(prompt_ids, prompt_mask)
        self.model.train(was_training)
        completion_mask, terminated = _mask_after_eos(completion_ids, self.eos_ids)
        width = int(completion_mask.sum(-1).max())  # the static loop stops only every check_every tokens
        completion_ids, completion_mask = completion_ids[:, :width], completion_mask[:, :width]
        completion_ids = completion_ids.masked_fill(completion_mask == 0, self.tokenizer.pad_token_id)
        texts = self.tokenizer.batch_decode(completion_ids, skip_special_tokens=True)
        return Rollouts(prompt_ids, prompt_mask, completion_ids, completion_mask, texts, terminated)


def token_logps(model, input_ids: torch.Tensor, attention_mask: torch.Tensor, completion_len: int, temperature: float,
                with_entropy: bool = False, chunk_tokens: int = 0) -> tuple[torch.Tensor, torch.Tensor | None]:
    """Log-probabilities (B, T) of the last ``completion_len`` tokens at ``temperature``, and their entropies.

    Position ids follow the left padding exactly as ``generate`` builds them, so the log-probabilities are
    those of the distribution the tokens were sampled from. With ``chunk_tokens`` > 0 (and a plain LM head,
    trainer/lm_head.py) the head runs over that many tokens at a time and no (B, T, V) logits are kept;
    otherwise only the completion positions go through the head (``logits_to_keep``) as float32 logits.
    """
    position_ids = (attention_mask.cumsum(-1) - 1).clamp(min=0)
    targets = input_ids[:, -completion_len:]
    if chunk_tokens > 0 and supports_chunked_head(model):
        hidden = model.base_model(input_ids=input_ids, attention_mask=attention_mask, position_ids=position_ids,
                                  use_cache=False).last_hidden_state[:, -completion_len - 1:-1]
        return chunked_token_logps(hidden, model.get_output_embeddings().weight, targets, temperature, chunk_tokens, with_entropy)
    logits = model(input_ids=input_ids, attention_mask=attention_mask, position_ids=position_ids,
                   logits_to_keep=completion_len + 1, use_cache=False).logits[:, :-1].float()
    if temperature != 1.0:
        logits = logits / temperature
    log_normaliser = logits.logsumexp(-1)
    logps = logits.gather(-1, targets.unsqueeze(-1)).squeeze(-1) - log_normaliser
    entropy = None
    if with_entropy:
        with torch.no_grad():  # H = log Z - Σ p·logit, row by row so no second (B, T, V) tensor exists at once
            lse = log_normaliser.detach()
            entropy = torch.stack([z - (torch.exp(row - z.unsqueeze(-1)) * row).sum(-1) for row, z in zip(logits.detach(), lse)])
    return logps, entropy
