"""Token choice shared by both decode loops, and the static-KV-cache decoder (CUDA graphs on GPUs).

The sampler (trainer/policy.py) has two decode loops that compute the same thing:

* ``eager``: a ``DynamicCache`` and an attention mask that grows by one column per token. Cheapest on
  CPU, where each forward is compute-bound.
* ``static`` / ``cuda_graph`` (:class:`StaticDecoder`): a transformers ``StaticCache`` of fixed length,
  prompts left-padded to a multiple of ``bucket`` (64) tokens and a fixed batch, so every decode step has
  the same shapes and reads and writes the same buffers. With ``cuda_graph`` one decode step (forward,
  temperature, inverse-CDF draw, EOS masking) is captured once per (batch, prompt bucket) with
  ``torch.cuda.CUDAGraph`` and replayed per token: one launch instead of hundreds of small kernels,
  which is what bounds a 30-layer model at batch 64 (~35 ms per token eagerly on an H200). "All rows
  finished" is read back only every ``check_every`` tokens, not after each one. ``static`` runs the very
  same step without capture (any device): the CPU tests check it token for token against ``eager``.

Why the two loops give the same tokens: the static cache only adds key/value slots that the mask hides
(bucket padding on the left, not-yet-written slots on the right, which causality excludes), and the
position ids are those of the eager loop (cumulative sum of the prompt mask), so each row sees the same
keys, values and rotary positions. Only the version-stable public API of transformers is used
(``StaticCache(config=..., max_cache_len=...)``, ``Cache.reset()``, the ``past_key_values`` /
``position_ids`` / ``logits_to_keep`` arguments of the forward), checked on transformers 5.10 and 5.17.
"""

from __future__ import annotations

import warnings
from collections import OrderedDict
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass

import torch

DECODE_MODES = ("auto", "eager", "static", "cuda_graph")


def resolve_decode(mode: str, device: torch.device) -> str:
    """``auto`` -> ``cuda_graph`` on CUDA, ``eager`` elsewhere; ``cuda_graph`` off CUDA warns and runs ``eager``."""
    if mode not in DECODE_MODES:
        raise ValueError(f"decode must be one of {', '.join(DECODE_MODES)}, got {mode!r}")
    if mode == "auto":
        return "cuda_graph" if device.type == "cuda" else "eager"
    if mode == "cuda_graph" and device.type != "cuda":
        warnings.warn(f"decode: cuda_graph needs a CUDA device, the policy is on {device.type}; decoding eagerly", stacklevel=2)
        return "eager"
    return mode


def bucket_length(length: int, multiple: int) -> int:
    return -(-length // multiple) * multiple


def sample_from_probs(probs: torch.Tensor) -> torch.Tensor:
    """One index per row of ``probs`` by inverse CDF: exact ancestral sampling, one uniform draw per row.

    ``torch.multinomial`` draws one exponential per vocabulary entry (151,936 per row for Qwen2), the
    largest single cost of CPU decoding with a big vocabulary; a cumulative sum and a binary search are not.
    """
    cdf = probs.cumsum(-1)
    u = torch.rand(probs.size(0), 1, device=probs.device, dtype=cdf.dtype) * cdf[:, -1:]
    return torch.searchsorted(cdf, u, right=True).clamp_(max=probs.size(-1) - 1).squeeze(1)


def pick_next(logits: torch.Tensor, temperature: float, finished: torch.Tensor, eos: torch.Tensor, pad: int) -> torch.Tensor:
    """Next token per row from last-position ``logits`` (greedy at temperature 0); rows already finished get
    ``pad``. Updates ``finished`` in place (no host sync: usable inside a CUDA graph)."""
    logits = logits.float()
    if temperature == 0:
        token = logits.argmax(-1)
    else:
        token = sample_from_probs(torch.softmax(logits / temperature, dim=-1))
    token = token.masked_fill(finished, pad)
    finished |= (token.unsqueeze(1) == eos).any(1)
    return token


@dataclass
class _Slot:
    """Static buffers of one (batch, prompt bucket) shape: the cache and every input of a decode step."""

    cache: object
    input_ids: torch.Tensor  # (B, 1) the token fed to the next step
    positions: torch.Tensor  # (B, 1) its rotary position
    attention_mask: torch.Tensor  # (B, bucket + max_new_tokens): bucket padding, prompt mask, then ones
    finished: torch.Tensor  # (B,) bool
    token: torch.Tensor  # (B,) the token chosen by the last step
    graph: object = None  # torch.cuda.CUDAGraph once captured


class StaticDecoder:
    """Decode with a ``StaticCache`` and fixed shapes; ``use_graphs`` captures the step as a CUDA graph.

    ``decode(prompt_ids, prompt_mask)`` returns the (N, T) completion tokens, T <= ``max_new_tokens``
    (a multiple of ``check_every`` unless every row ran to the end; columns after a row's EOS hold ``pad``).
    One slot (cache + buffers + graph) is kept per shape, at most ``max_slots``, least recently used out.
    """

    def __init__(self, model, *, eos_ids: list[int], pad_id: int, temperature: float, max_new_tokens: int, bf16: bool,
                 use_graphs: bool, check_every: int = 16, bucket: int = 64, max_slots: int = 4) -> None:
        if use_graphs and model.device.type != "cuda":
            raise ValueError("StaticDecoder(use_graphs=True) needs the model on a CUDA device")
        self.model, self.pad, self.temperature, self.max_new_tokens = model, pad_id, temperature, max_new_tokens
        self.use_graphs, self.check_every, self.bucket, self.max_slots = use_graphs, check_every, bucket, max_slots
        self.eos = torch.tensor(eos_ids, device=model.device)
        # Inside a capture autocast must not cache casted weights: the cache would be freed on exit while
        # the graph still reads it (PyTorch CUDA-graph notes). Weights are cast in the graph instead.
        self.bf16 = bf16
        self.slots: OrderedDict[tuple[int, int], _Slot] = OrderedDict()

    # ----------------------------------------------------------------------------------------------- buffers
    def _slot(self, batch: int, bucket: int) -> _Slot:
        key = (batch, bucket)
        if key in self.slots:
            self.slots.move_to_end(key)
            return self.slots[key]
        while len(self.slots) >= self.max_slots:
            self.slots.popitem(last=False)
        device = self.model.device
        cache = _typed_static_cache(self.model.config, bucket + self.max_new_tokens, torch.bfloat16 if self.bf16 else None)
        slot = _Slot(cache=cache, input_ids=torch.zeros(batch, 1, dtype=torch.long, device=device),
                     positions=torch.zeros(batch, 1, dtype=torch.long, device=device),
                     attention_mask=torch.ones(batch, bucket + self.max_new_tokens, dtype=torch.long, device=device),
                     finished=torch.zeros(batch, dtype=torch.bool, device=device),
                     token=torch.zeros(batch, dtype=torch.long, device=device))
        self.slots[key] = slot
        return slot

    def _step_autocast(self):
        return torch.autocast(self.model.device.type, dtype=torch.bfloat16, cache_enabled=False) if self.bf16 else nullcontext()

    # ----------------------------------------------------------------------------------------------- the two forwards
    def _prefill(self, slot: _Slot, prompt_ids: torch.Tensor, prompt_mask: torch.Tensor) -> torch.Tensor:
        """Reset the slot, run the (bucket-padded) prompt through the model, pick the first token (eager, never captured)."""
        batch, length = prompt_ids.shape
        bucket = slot.attention_mask.size(1) - self.max_new_tokens
        ids = prompt_ids.new_full((batch, bucket), self.pad)
        ids[:, bucket - length:] = prompt_ids
        slot.attention_mask.fill_(1)
        slot.attention_mask[:, : bucket - length] = 0
        slot.attention_mask[:, bucket - length: bucket] = prompt_mask
        positions = (slot.attention_mask[:, :bucket].cumsum(-1) - 1).clamp(min=0)
        slot.cache.reset()  # in place: the captured graph keeps pointing at the same key/value tensors
        slot.finished.zero_()
        # The same autocast as the step: StaticCache allocates its key/value tensors lazily in the dtype of the
        # first update, so a float32 prefill followed by bf16 steps fails (index_copy_ dtype mismatch, seen on an H200).
        with self._step_autocast():
            out = self.model(input_ids=ids, attention_mask=slot.attention_mask, position_ids=positions, past_key_values=slot.cache,
                             use_cache=True, logits_to_keep=1)
            token = pick_next(out.logits[:, -1], self.temperature, slot.finished, self.eos, self.pad)
        slot.token.copy_(token)
        slot.input_ids.copy_(token.unsqueeze(1))
        slot.positions.copy_(prompt_mask.sum(-1, keepdim=True))
        return token

    def _step(self, slot: _Slot) -> None:
        """One decode step on the slot's buffers only (this is what a CUDA graph captures)."""
        with self._step_autocast():
            out = self.model(input_ids=slot.input_ids, attention_mask=slot.attention_mask, position_ids=slot.positions,
                             past_key_values=slot.cache, use_cache=True, logits_to_keep=1)
            token = pick_next(out.logits[:, -1], self.temperature, slot.finished, self.eos, self.pad)
        slot.token.copy_(token)
        slot.input_ids.copy_(token.unsqueeze(1))
        slot.positions.add_(1)

    def _capture(self, slot: _Slot, prompt_ids: torch.Tensor, prompt_mask: torch.Tensor) -> None:
        """Warm up on a side stream (lazy cuBLAS/kernel setup), with host syncs made errors so that a step
        that cannot be captured fails here, cleanly; then capture one step. The caller prefills again."""
        self._prefill(slot, prompt_ids, prompt_mask)
        stream = torch.cuda.Stream(device=self.model.device)
        stream.wait_stream(torch.cuda.current_stream(self.model.device))
        with torch.cuda.stream(stream):
            self._step(slot)
            with _sync_debug_errors():
                self._step(slot)
        torch.cuda.current_stream(self.model.device).wait_stream(stream)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            self._step(slot)
        slot.graph = graph

    # ----------------------------------------------------------------------------------------------- decode
    @torch.no_grad()
    def decode(self, prompt_ids: torch.Tensor, prompt_mask: torch.Tensor) -> torch.Tensor:
        batch, length = prompt_ids.shape
        slot = self._slot(batch, bucket_length(length, self.bucket))
        if self.use_graphs and slot.graph is None:
            try:
                self._capture(slot, prompt_ids, prompt_mask)
            except Exception:
                self.slots.pop((batch, slot.attention_mask.size(1) - self.max_new_tokens), None)
                raise
        tokens = torch.full((batch, self.max_new_tokens), self.pad, dtype=torch.long, device=prompt_ids.device)
        tokens[:, 0] = self._prefill(slot, prompt_ids, prompt_mask)
        done = 1
        while done < self.max_new_tokens:
            if done % self.check_every == 0 and bool(slot.finished.all()):  # the only host sync of the loop
                break
            if slot.graph is not None:
                slot.graph.replay()
            else:
                self._step(slot)
            tokens[:, done] = slot.token
            done += 1
        return tokens[:, :done]


def _typed_static_cache(config, max_cache_len: int, kv_dtype: torch.dtype | None):
    """A ``StaticCache`` whose keys and values are stored in ``kv_dtype``.

    Under bf16 autocast the values leave ``v_proj`` in bf16 while the keys come out of the rotary
    embedding in float32 (bf16 × float32 cos/sin promotes), and ``StaticCache`` allocates both tensors
    in the keys' dtype at the first update — the value copy then fails (``index_copy_`` dtype mismatch;
    seen on an H200 and reproduced with CPU autocast). Casting both to one dtype on the way in fixes it.
    """
    from transformers import StaticCache

    class TypedStaticCache(StaticCache):
        def update(self, key_states, value_states, *args, **kwargs):
            if kv_dtype is not None:
                key_states, value_states = key_states.to(kv_dtype), value_states.to(kv_dtype)
            return super().update(key_states, value_states, *args, **kwargs)

    return TypedStaticCache(config=config, max_cache_len=max_cache_len)


@contextmanager
def _sync_debug_errors():
    previous = torch.cuda.get_sync_debug_mode()
    torch.cuda.set_sync_debug_mode("error")
    try:
        yield
    finally:
        torch.cuda.set_sync_debug_mode(previous)
