"""A local causal LM for judging: batched, left-padded generation and yes/no next-token scoring.

Shared by the ``transformers`` judge and the ``serve-judge`` server. Only local directories are
loaded (``local_files_only``; nothing is downloaded). One lock serialises use of the model, so a
threaded server can call it from many request threads.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DTYPES = ("auto", "float32", "bfloat16", "float16")


@dataclass(frozen=True)
class Generation:
    text: str
    prompt_tokens: int
    completion_tokens: int
    finish_reason: str  # "stop" (end-of-sequence) or "length"


def resolve_model_dir(model: str | Path) -> Path:
    path = Path(model).expanduser()
    if not (path / "config.json").is_file():
        raise ValueError(f"model: {str(model)!r} is not a local model directory with a config.json (hub ids are not downloaded)")
    return path


@functools.lru_cache(maxsize=4)
def shared_lm(model_dir: str, device: str = "cpu", dtype: str = "auto", max_input_tokens: int | None = None) -> LocalLM:
    """One loaded model per (directory, device, dtype) in this process: judges and servers built from
    the same config reuse it instead of loading the weights again."""
    return LocalLM(model_dir, device, dtype, max_input_tokens)


class LocalLM:
    """A causal LM and its tokenizer loaded from ``model_dir``."""

    def __init__(self, model_dir: str | Path, device: str = "cpu", dtype: str = "auto", max_input_tokens: int | None = None) -> None:
        if dtype not in DTYPES:
            raise ValueError(f"dtype: {dtype!r} is not allowed; allowed: {', '.join(DTYPES)}")
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self.path = resolve_model_dir(model_dir)
        self.device = device
        self.tokenizer = AutoTokenizer.from_pretrained(str(self.path), local_files_only=True)
        self.tokenizer.padding_side = "left"  # decoder-only batching: pad on the left so every prompt ends at the same position
        self.tokenizer.truncation_side = "left"  # keep the end of an over-long prompt: the item and the answer format
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        torch_dtype = "auto" if dtype == "auto" else getattr(torch, dtype)
        self.model = AutoModelForCausalLM.from_pretrained(str(self.path), dtype=torch_dtype, local_files_only=True).to(device)
        self.model.eval()
        limit = getattr(self.model.config, "max_position_embeddings", None) or 4096
        self.max_input_tokens = max_input_tokens or limit
        self._lock = threading.Lock()
        self._yes_ids, self._no_ids = self._answer_token_ids()

    @property
    def name(self) -> str:
        return self.path.name

    def chat_text(self, messages: Sequence[Mapping[str, Any]]) -> str:
        """The prompt string for a chat: the tokenizer's chat template, or ``role: content`` lines."""
        messages = [{"role": str(m.get("role", "user")), "content": str(m.get("content") or "")} for m in messages]
        if getattr(self.tokenizer, "chat_template", None):
            return self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        return "\n\n".join(f"{m['role']}: {m['content']}" for m in messages) + "\n\nassistant:"

    def _encode(self, texts: Sequence[str], reserve: int):
        return self.tokenizer(
            list(texts), return_tensors="pt", padding=True, truncation=True,
            max_length=max(8, self.max_input_tokens - reserve), add_special_tokens=False,
        ).to(self.device)

    def generate(self, texts: Sequence[str], max_new_tokens: int = 256, temperature: float = 0.0, top_p: float = 1.0,
                 seed: int | None = None, batch_size: int = 8) -> list[Generation]:
        """Complete each prompt string; ``temperature == 0`` is greedy (deterministic)."""
        import torch

        out: list[Generation] = []
        eos = self._eos_ids()
        for start in range(0, len(texts), max(1, batch_size)):
            chunk = texts[start:start + batch_size]
            with self._lock, torch.inference_mode():
                enc = self._encode(chunk, max_new_tokens)
                sampling = {"do_sample": True, "temperature": temperature, "top_p": top_p} if temperature > 0 else {"do_sample": False}
                if temperature > 0 and seed is not None:
                    torch.manual_seed(seed)
                generated = self.model.generate(
                    **enc, max_new_tokens=max_new_tokens, pad_token_id=self.tokenizer.pad_token_id,
                    eos_token_id=eos or None, top_k=None, **sampling,
                )
            prompt_len = enc["input_ids"].shape[1]
            for row, mask in zip(generated, enc["attention_mask"]):
                new = row[prompt_len:].tolist()
                finish = "length"
                for i, token in enumerate(new):
                    if token in eos:
                        new, finish = new[:i], "stop"
                        break
                text = self.tokenizer.decode(new, skip_special_tokens=True)
                out.append(Generation(text, int(mask.sum()), len(new), finish))
        return out

    def _forward(self, input_ids, attention_mask, keep: int):
        """Logits of the last ``keep`` positions of a left-padded batch (the LM head over a 150k vocabulary
        is most of the cost, so only the positions we read are projected); positions count real tokens only,
        so padding changes nothing."""
        position_ids = (attention_mask.long().cumsum(-1) - 1).clamp_min(0)
        out = self.model(input_ids=input_ids, attention_mask=attention_mask, position_ids=position_ids, logits_to_keep=keep)
        return out.logits[:, -keep:, :].float()

    def yes_probability(self, texts: Sequence[str], batch_size: int = 8) -> list[float]:
        """P(yes) / (P(yes) + P(no)) for the next token after each prompt (one forward pass, deterministic)."""
        import torch

        out: list[float] = []
        for start in range(0, len(texts), max(1, batch_size)):
            chunk = texts[start:start + batch_size]
            with self._lock, torch.inference_mode():
                enc = self._encode(chunk, 1)
                logits = self._forward(enc["input_ids"], enc["attention_mask"], 1)[:, -1, :]  # left padding: the last position is every prompt's end
            probs = torch.softmax(logits, dim=-1)
            yes = probs[:, self._yes_ids].sum(dim=-1)
            no = probs[:, self._no_ids].sum(dim=-1)
            out.extend((yes / (yes + no).clamp_min(1e-30)).tolist())
        return out

    def choose(self, texts: Sequence[str], choices: Sequence[str], batch_size: int = 8) -> list[Generation]:
        """For each prompt, the choice with the highest total log-probability as its continuation
        (constrained decoding over a closed set, like vLLM's ``guided_choice``). Deterministic."""
        import torch

        choice_ids = [self.tokenizer.encode(c, add_special_tokens=False) for c in choices]
        if not choices or any(not ids for ids in choice_ids):
            raise ValueError("choices must be non-empty strings")
        room = max(8, self.max_input_tokens - max(len(ids) for ids in choice_ids))
        prompts = [self.tokenizer.encode(t, add_special_tokens=False)[-room:] for t in texts]
        rows = [(p, c) for p in prompts for c in choice_ids]
        totals: list[float] = []
        pad = self.tokenizer.pad_token_id
        step = max(1, batch_size) * len(choices)
        for start in range(0, len(rows), step):
            chunk = rows[start:start + step]
            width = max(len(p) + len(c) for p, c in chunk)
            ids = torch.full((len(chunk), width), pad, dtype=torch.long)
            mask = torch.zeros((len(chunk), width), dtype=torch.long)
            for r, (p, c) in enumerate(chunk):
                seq = p + c
                ids[r, width - len(seq):] = torch.tensor(seq)
                mask[r, width - len(seq):] = 1
            keep = max(len(c) for _, c in chunk) + 1
            with self._lock, torch.inference_mode():
                logprobs = torch.log_softmax(self._forward(ids.to(self.device), mask.to(self.device), keep), dim=-1).cpu()
            for r, (_, c) in enumerate(chunk):  # logits at t predict token t + 1; column j is position width - keep + j
                positions = torch.arange(keep - len(c) - 1, keep - 1)
                targets = torch.tensor(c)
                totals.append(float(logprobs[r, positions, targets].sum()))
        out = []
        for i, p in enumerate(prompts):
            scores = totals[i * len(choices):(i + 1) * len(choices)]
            best = max(range(len(choices)), key=scores.__getitem__)
            out.append(Generation(choices[best], len(p), len(choice_ids[best]), "stop"))
        return out

    def _eos_ids(self) -> list[int]:
        ids = {self.tokenizer.eos_token_id}
        configured = getattr(getattr(self.model, "generation_config", None), "eos_token_id", None)
        ids.update(configured if isinstance(configured, list) else [configured])
        return sorted(i for i in ids if isinstance(i, int))

    def _answer_token_ids(self) -> tuple[list[int], list[int]]:
        def first_tokens(words: Sequence[str]) -> list[int]:
            ids = set()
            for word in words:
                encoded = self.tokenizer.encode(word, add_special_tokens=False)
                if encoded:
                    ids.add(encoded[0])
            return sorted(ids)

        yes, no = first_tokens(["yes", " yes", "Yes", " Yes"]), first_tokens(["no", " no", "No", " No"])
        if not yes or not no or set(yes) & set(no):
            raise ValueError(f"the tokenizer of {self.path} has no distinct first tokens for yes/no")
        return yes, no
