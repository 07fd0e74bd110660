"""``reward_model``: the score a trained sequence-classification reward model gives each rollout.

    r = normalize(head(render(prompt, completion)))[label_index]

* **render** follows TRL's reward-model path (``GRPOTrainer._calculate_rewards`` in
  trl/trainer/grpo_trainer.py): a conversational rollout is the prompt messages plus the completion
  as the assistant turn, through the tokenizer's chat template (no generation prompt); a plain one
  is ``prompt + completion``. Tokens are right-padded without added special tokens, as TRL does.
* **head**: the model's classification logits (``num_labels`` of them; ``logits[:, 0]`` is TRL's
  reward), from a local Hugging Face directory (``model:``; batched under ``torch.inference_mode``)
  or from a server (``server:``):

  - ``api: pooling`` — vLLM's ``/pooling`` (``vllm serve RM --runner pooling``): body
    ``{"model", "input": [texts]}``, answer ``data[i].data`` = the raw head outputs;
  - ``api: classify`` — vLLM's / SGLang's ``/classify``: answer ``data[i].probs``, the head outputs
    already through the server's activation (softmax; sigmoid for one label), so ``normalize`` must
    be ``none``.

  The served path sends one request per ``batch_size`` texts through the judge's transport
  (:mod:`polyreward.judges.pool`): the same ``base_url`` list, limits, retries, per-attempt
  deadline and batch ``time_budget`` as the ``openai`` judge. It renders the text on the client, with
  the chat template of ``tokenizer:`` (a local tokenizer directory; without one, plain
  ``prompt + completion`` text), so the server scores the same string the local path would.
* **truncation**: ``max_length`` tokens at most, cut on ``truncation_side`` (``left`` keeps the
  completion's end, default; ``right`` keeps the start). Served models truncate from the left only
  (vLLM's ``truncate_prompt_tokens``).
* **normalize**: ``none`` (raw logit), ``sigmoid`` (of each logit) or ``softmax`` (over the labels).

A batch that fails (model error, server down) scores NaN for its rows only, with the reason.
"""

from __future__ import annotations

import functools
import math
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from polyreward.reward import Reward, RewardOutput, one_of
from polyreward.schema import completion_text, is_missing, prompt_text

NORMALIZE = ("none", "sigmoid", "softmax")
TRUNCATION_SIDES = ("left", "right")
APIS = {"pooling": "/pooling", "classify": "/classify"}
DTYPES = ("auto", "float32", "bfloat16", "float16")


def _messages(value: Any) -> list[dict[str, Any]] | None:
    """A chat-message list as plain dicts, or None when the value is plain text."""
    if isinstance(value, Sequence) and not isinstance(value, str) and all(isinstance(m, Mapping) for m in value):
        return [dict(m) for m in value]
    return None


def render(tokenizer: Any, prompt: Any, completion: Any) -> str:
    """The text a reward model scores for one rollout (TRL's rendering; see the module docstring)."""
    prompt_messages = _messages(prompt) if not is_missing(prompt) else []
    completion_messages = _messages(completion)
    if prompt_messages is not None and tokenizer is not None and getattr(tokenizer, "chat_template", None):
        turn = completion_messages if completion_messages is not None else [{"role": "assistant", "content": completion_text(completion)}]
        return tokenizer.apply_chat_template(prompt_messages + turn, tokenize=False)
    return ("" if is_missing(prompt) else prompt_text(prompt)) + completion_text(completion)


def normalized(values: Sequence[float], how: str) -> list[float]:
    if how == "sigmoid":
        return [1.0 / (1.0 + math.exp(-v)) if v >= 0 else math.exp(v) / (1.0 + math.exp(v)) for v in values]
    if how == "softmax":
        top = max(values)
        exps = [math.exp(v - top) for v in values]
        return [e / sum(exps) for e in exps]
    return list(values)


def _check_model_config(path: Path, model: str) -> None:
    """A ValueError now, at config validation, for a ``config.json`` transformers cannot load (empty, not JSON, no
    ``model_type``), instead of every row failing at scoring time."""
    import json

    try:
        if path.stat().st_size > 16 * 1024 * 1024:
            raise ValueError("over 16 MiB")
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"model: {model!r}: its config.json cannot be read as JSON ({str(exc)[:120] or 'empty'})") from None
    if not isinstance(data, dict) or not isinstance(data.get("model_type"), str) or not data["model_type"]:
        raise ValueError(f"model: {model!r}: its config.json names no model_type (an empty or foreign file); "
                         "give the folder of a saved transformers model")


@functools.lru_cache(maxsize=4)
def local_model(model_dir: str, device: str = "cpu", dtype: str = "auto") -> LocalRewardModel:
    """One loaded reward model per (directory, device, dtype) in this process."""
    return LocalRewardModel(model_dir, device, dtype)


class LocalRewardModel:
    """A sequence-classification model and its tokenizer from a local directory (never downloaded)."""

    def __init__(self, model_dir: str | Path, device: str = "cpu", dtype: str = "auto") -> None:
        import torch
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        path = Path(model_dir).expanduser()
        if not (path / "config.json").is_file():
            raise ValueError(f"model: {str(model_dir)!r} is not a local model directory with a config.json (hub ids are not downloaded)")
        self.device = device
        self.tokenizer = AutoTokenizer.from_pretrained(str(path), local_files_only=True)
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        self.tokenizer.padding_side = "right"
        torch_dtype = "auto" if dtype == "auto" else getattr(torch, dtype)
        self.model = AutoModelForSequenceClassification.from_pretrained(str(path), dtype=torch_dtype, local_files_only=True).to(device)
        self.model.eval()
        if self.model.config.pad_token_id is None:  # the head pools at the last non-pad token
            self.model.config.pad_token_id = self.tokenizer.pad_token_id
        self._lock = threading.Lock()

    def logits(self, texts: Sequence[str], max_length: int | None = None, truncation_side: str = "left") -> list[list[float]]:
        """One row of head outputs per text, all texts in one forward pass."""
        import torch

        with self._lock, torch.inference_mode():
            self.tokenizer.truncation_side = truncation_side
            encoded = self.tokenizer(list(texts), return_tensors="pt", padding=True, truncation=max_length is not None,
                                     max_length=max_length, add_special_tokens=False).to(self.device)
            return self.model(**encoded).logits.float().cpu().tolist()


class ServedRewardModel:
    """A reward model behind vLLM's ``/pooling`` or ``/classify`` (see the module docstring)."""

    def __init__(self, base_url: str | list[str], model: str, api: str = "pooling", api_key_env: str | None = None,
                 timeout: float = 60.0, max_retries: int = 2, backoff: float = 0.5, max_backoff: float = 8.0,
                 concurrency: int = 8, endpoint_concurrency: int | None = None, requests_per_minute: float | None = None,
                 tokens_per_minute: float | None = None, endpoint_requests_per_minute: float | None = None,
                 endpoint_tokens_per_minute: float | None = None, time_budget: float = 600.0) -> None:
        from polyreward.rubrics.judge_openai import base_urls, endpoint_pool
        from polyreward.judges.pool import seconds

        one_of("server.api", api, tuple(APIS))
        if not isinstance(model, str) or not model:
            raise ValueError(f"server.model: must be the model name the server serves, got {model!r}")
        urls = [u.rstrip("/") if u.rstrip("/").endswith(APIS[api]) else u.rstrip("/") + APIS[api] for u in base_urls(base_url)]
        self.pool = endpoint_pool(urls, api_key_env, timeout, max_retries, backoff, max_backoff, concurrency, endpoint_concurrency,
                                  requests_per_minute, tokens_per_minute, endpoint_requests_per_minute, endpoint_tokens_per_minute)
        self.model, self.api, self.time_budget = model, api, seconds("server.time_budget", time_budget)

    def values(self, chunks: Sequence[Sequence[str]], max_length: int | None) -> list[list[list[float]] | str]:
        """Per chunk: one row of values per text, or the reason the chunk failed."""
        import time

        from polyreward.judges.pool import JobState, RequestFailed, Unusable, estimate_tokens, run_batch

        deadline = time.monotonic() + self.time_budget
        states = [JobState() for _ in chunks]
        key = "data" if self.api == "pooling" else "probs"

        def check(data: Any, n: int) -> list[list[float]]:
            try:
                rows = sorted(data["data"], key=lambda d: d["index"])
                values = [[float(v) for v in _flat(row[key])] for row in rows]
            except (KeyError, TypeError, ValueError) as exc:
                raise Unusable(f"malformed {self.api} response ({type(exc).__name__}: {exc}): {str(data)[:200]}") from None
            if len(values) != n or not all(values):
                raise Unusable(f"{self.api} response has {len(values)} results for {n} inputs")
            return values

        def job(chunk: Sequence[str], state: JobState):
            async def run(client: Any) -> list[list[float]] | str:
                body: dict[str, Any] = {"model": self.model, "input": list(chunk)}
                if max_length is not None:
                    body["truncate_prompt_tokens"] = max_length
                try:
                    return await self.pool.request(client, body, lambda data: check(data, len(chunk)), deadline,
                                                   estimate_tokens(chunk), state)
                except RequestFailed as exc:
                    return f"reward model server: {exc}"
            return run

        def cut(k: int) -> str:
            return f"reward model server: time budget of {self.time_budget:g}s exhausted while {states[k].phase}"

        return run_batch([job(chunk, state) for chunk, state in zip(chunks, states)], deadline, cut, self.pool.overall.limits.concurrency)

    def summary(self) -> dict[str, Any]:
        return self.pool.summary()


def _flat(value: Any) -> list[Any]:
    """vLLM returns a reward head's output as a list, or a list of one-element lists per label."""
    return [v for item in value for v in (item if isinstance(item, list) else [item])] if isinstance(value, list) else [value]


class RewardModelReward(Reward):
    """Score of a sequence-classification reward model for each (prompt, completion), local or served.

    Args:
        model: local folder of a sequence-classification model (never downloaded); give this or server
        server: a served model instead ({base_url, model, api}: vLLM /pooling or /classify); give this or model
        tokenizer: tokenizer folder when it differs from the model's
        batch_size: texts scored per forward pass (local) or per request (server)
        max_length: tokens kept per text; null: the model's limit
        truncation_side: which end is cut beyond max_length: left keeps the completion's end, right its start
        normalize: map the logits: none (raw), sigmoid (each) or softmax (over the labels)
        label_index: which output label is the reward
        device: torch device of a local model (cpu, cuda, cuda:1, ...)
        dtype: weights dtype of a local model: auto, float32, bfloat16 or float16
    """

    type_name = "reward_model"
    exactness = "exact"
    description = "score of a sequence-classification reward model (TRL's rendering; local HF directory or vLLM /pooling, /classify)"
    score_range = (-math.inf, math.inf)

    def __init__(self, name: str | None = None, weight: float = 1.0, model: str | None = None,
                 server: Mapping[str, Any] | None = None, tokenizer: str | None = None, batch_size: int = 8,
                 max_length: int | None = None, truncation_side: str = "left", normalize: str = "none", label_index: int = 0,
                 device: str = "cpu", dtype: str = "auto") -> None:
        super().__init__(name, weight)
        if (model is None) == (server is None):
            raise ValueError("reward_model: give exactly one of model (a local directory) or server ({base_url, model, api})")
        one_of("truncation_side", truncation_side, TRUNCATION_SIDES)
        one_of("normalize", normalize, NORMALIZE)
        one_of("dtype", dtype, DTYPES)
        for key, value, low in (("batch_size", batch_size, 1), ("label_index", label_index, 0)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"{key}: must be an integer >= {low}, got {value!r}")
        if max_length is not None and (isinstance(max_length, bool) or not isinstance(max_length, int) or max_length < 1):
            raise ValueError(f"max_length: must be an integer >= 1 or null, got {max_length!r}")
        self.model_dir = None if model is None else str(Path(model).expanduser())
        if self.model_dir is not None and not (Path(self.model_dir) / "config.json").is_file():
            raise ValueError(f"model: {model!r} is not a local model directory with a config.json (hub ids are not downloaded)")
        if self.model_dir is not None:
            _check_model_config(Path(self.model_dir) / "config.json", model)
        if server is not None and not isinstance(server, Mapping):
            raise ValueError(f"server: must be a mapping like {{base_url: http://127.0.0.1:8000, model: rm, api: pooling}}, got {server!r}")
        try:
            self.server = ServedRewardModel(**server) if server is not None else None
        except TypeError as exc:
            raise ValueError(f"server: {exc}") from None
        if self.server is not None and self.server.api == "classify" and normalize != "none":
            raise ValueError("normalize: the classify API already returns probabilities; use normalize: none")
        if self.server is not None and max_length is not None and truncation_side != "left":
            raise ValueError("truncation_side: served models truncate from the left (vLLM truncate_prompt_tokens)")
        self.tokenizer_dir = tokenizer
        self.batch_size, self.max_length, self.truncation_side = batch_size, max_length, truncation_side
        self.normalize, self.label_index, self.device, self.dtype = normalize, label_index, device, dtype
        if normalize != "none" or (self.server is not None and self.server.api == "classify"):
            self.score_range = (0.0, 1.0)
        self._tokenizer: Any = None

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_tokenizer"] = None  # reloaded lazily where the reward runs
        return state

    def _render_tokenizer(self) -> Any:
        if self.model_dir is not None:
            return local_model(self.model_dir, self.device, self.dtype).tokenizer
        if self.tokenizer_dir is not None and self._tokenizer is None:
            from transformers import AutoTokenizer

            self._tokenizer = AutoTokenizer.from_pretrained(str(Path(self.tokenizer_dir).expanduser()), local_files_only=True)
        return self._tokenizer

    def evaluate(self, prompts: Sequence[Any], completions: Sequence[Any], **columns: Sequence[Any]) -> RewardOutput:
        n = len(completions)
        if n == 0:
            return RewardOutput([], [])
        try:
            tokenizer = self._render_tokenizer()
        except Exception as exc:  # cannot load: every row fails with the reason
            reason = f"error: cannot load the reward model: {type(exc).__name__}: {exc}"[:300]
            return RewardOutput([math.nan] * n, [reason] * n)
        texts: list[str | None] = []
        problems: dict[int, str] = {}
        for i in range(n):
            try:
                texts.append(render(tokenizer, prompts[i] if i < len(prompts) else None, completions[i]))
            except Exception as exc:  # a malformed chat for the template: this row only
                texts.append(None)
                problems[i] = f"error: cannot render the chat: {type(exc).__name__}: {exc}"[:300]
        rows = [i for i, t in enumerate(texts) if t is not None]
        chunks = [rows[s:s + self.batch_size] for s in range(0, len(rows), self.batch_size)]
        results = self._values([[texts[i] for i in chunk] for chunk in chunks])  # type: ignore[misc]
        scores: list[float | None] = [math.nan] * n
        reasons = [problems.get(i, "") for i in range(n)]
        for chunk, result in zip(chunks, results):
            for row, i in enumerate(chunk):
                if isinstance(result, str):
                    reasons[i] = f"error: {result}"[:300]
                    continue
                values = result[row]
                if self.label_index >= len(values):
                    reasons[i] = f"error: label_index {self.label_index} but the model gives {len(values)} output(s)"
                    continue
                score = normalized(values, self.normalize)[self.label_index]
                scores[i] = score if math.isfinite(score) else math.nan
                reasons[i] = f"reward model score {score:.4g}" + (f" ({self.normalize})" if self.normalize != "none" else "")
        return RewardOutput(scores, reasons)

    def _values(self, chunks: list[list[str]]) -> list[list[list[float]] | str]:
        if self.server is not None:
            return self.server.values(chunks, self.max_length)
        out: list[list[list[float]] | str] = []
        for chunk in chunks:
            try:
                out.append(local_model(self.model_dir, self.device, self.dtype).logits(chunk, self.max_length, self.truncation_side))
            except Exception as exc:  # e.g. out of memory: this chunk only
                out.append(f"reward model: {type(exc).__name__}: {exc}")
        return out

    def summary(self) -> dict[str, Any] | None:
        """Per-endpoint counts of a served model (None for a local one)."""
        return self.server.summary() if self.server is not None else None

    def __repr__(self) -> str:
        where = f"model={self.model_dir!r}" if self.model_dir else f"server={self.server.pool.endpoints[0].url!r}"
        return f"RewardModelReward(name={self.name!r}, {where})"
