"""The ``openai`` judge: any OpenAI-compatible ``/v1/chat/completions`` server grades rubric items.

Works with vLLM, SGLang, llama.cpp's server, ``polyreward serve-judge`` and hosted APIs. Config::

    judge: {type: openai, base_url: http://127.0.0.1:8000/v1, model: qwen2.5-7b-instruct,
            api_key_env: JUDGE_API_KEY, concurrency: 16, timeout: 60, max_retries: 2,
            time_budget: 600, criteria_per_call: 1, cache_path: ~/.cache/polyreward/judge.sqlite}

Behaviour under failure (HealthBench retries forever; RuscaRL stops after 10 JSON retries, LIBRARIES.md
§4.2/§4.4; we bound both the attempts and the wall time):

* Each call gets ``1 + max_retries`` attempts. Connection errors, timeouts, HTTP 408/429/5xx, a body
  that is not a chat completion, and an answer without a readable verdict are retried after
  ``backoff * 2**attempt`` seconds (capped at ``max_backoff``); other HTTP 4xx are not retried.
* Every attempt's timeout is ``min(timeout, time left in the batch budget)``, no attempt starts after the
  budget is spent, and :meth:`OpenAIJudge.judge` stops waiting at the budget: whatever is unfinished
  then fails with a reason. So a batch takes at most ``time_budget`` (+ scheduling slack).
* A failure is a verdict with ``met=None`` (NaN) and the last error as its explanation; all other
  criteria of the batch keep their verdicts.

``criteria_per_call > 1`` asks for up to that many items of the same (conversation, response) in one
request (multi-criteria prompt of :mod:`polyreward.rubrics.grading`). Answers are cached by
(model, request messages, temperature, max_tokens, extra_body) in memory, and in sqlite when
``cache_path`` is set.
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from polyreward.rubrics.grading import multi_prompt, parse_multi, parse_single, single_prompt
from polyreward.rubrics.judge_cache import ResponseCache, cache_key
from polyreward.rubrics.judges import Judge, JudgeRequest, Verdict, failed

RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})


def chat_completions_url(base_url: str) -> str:
    """``http://h:p`` / ``http://h:p/v1`` / a full ``.../chat/completions`` URL -> the endpoint URL."""
    url = base_url.rstrip("/")
    if url.endswith("/chat/completions"):
        return url
    if url.endswith("/v1"):
        return url + "/chat/completions"
    return url + "/v1/chat/completions"


@dataclass
class _Call:
    """One HTTP request: the indices of the requests it grades and the messages it sends."""

    indices: list[int]
    messages: list[dict[str, str]]


class OpenAIJudge(Judge):
    type_name = "openai"

    def __init__(self, base_url: str, model: str, api_key_env: str | None = None, timeout: float = 60.0,
                 max_retries: int = 2, backoff: float = 0.5, max_backoff: float = 8.0, concurrency: int = 8,
                 time_budget: float = 600.0, criteria_per_call: int = 1, temperature: float = 0.0,
                 max_tokens: int = 1024, cache: bool = True, cache_path: str | None = None,
                 extra_body: Mapping[str, Any] | None = None) -> None:
        if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
            raise ValueError(f"base_url: must be an http(s) URL like http://127.0.0.1:8000/v1, got {base_url!r}")
        if not isinstance(model, str) or not model:
            raise ValueError(f"model: must be the model name the server serves, got {model!r}")
        if api_key_env is not None and (not isinstance(api_key_env, str) or api_key_env not in os.environ):
            raise ValueError(f"api_key_env: environment variable {api_key_env!r} is not set")
        for key, value in (("timeout", timeout), ("time_budget", time_budget)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
                raise ValueError(f"{key}: must be a number of seconds > 0, got {value!r}")
        for key, value in (("backoff", backoff), ("max_backoff", max_backoff), ("temperature", temperature)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise ValueError(f"{key}: must be a number >= 0, got {value!r}")
        for key, value, low in (("max_retries", max_retries, 0), ("concurrency", concurrency, 1),
                                ("criteria_per_call", criteria_per_call, 1), ("max_tokens", max_tokens, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"{key}: must be an integer >= {low}, got {value!r}")
        if extra_body is not None and not isinstance(extra_body, Mapping):
            raise ValueError(f"extra_body: must be a mapping of extra request fields, got {extra_body!r}")
        self.url = chat_completions_url(base_url)
        self.model, self.api_key_env = model, api_key_env
        self.timeout, self.max_retries, self.backoff, self.max_backoff = float(timeout), max_retries, float(backoff), float(max_backoff)
        self.concurrency, self.time_budget, self.criteria_per_call = concurrency, float(time_budget), criteria_per_call
        self.temperature, self.max_tokens = float(temperature), max_tokens
        self.extra_body = dict(extra_body or {})
        self.cache = ResponseCache(cache_path) if cache else None
        self._client = None
        self._client_lock = threading.Lock()
        self.stats = {"requests": 0, "retries": 0, "failures": 0}
        self._stats_lock = threading.Lock()

    # -- plumbing ---------------------------------------------------------------------------------
    def _http(self):
        import httpx

        with self._client_lock:
            if self._client is None:
                headers = {"Content-Type": "application/json"}
                if self.api_key_env:
                    headers["Authorization"] = f"Bearer {os.environ.get(self.api_key_env, '')}"
                limits = httpx.Limits(max_connections=self.concurrency, max_keepalive_connections=self.concurrency)
                self._client = httpx.Client(headers=headers, limits=limits, timeout=self.timeout)
            return self._client

    def close(self) -> None:
        with self._client_lock:
            if self._client is not None:
                self._client.close()
                self._client = None
        if self.cache is not None:
            self.cache.close()

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_client"] = None
        state["_client_lock"] = None
        state["_stats_lock"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._client_lock = threading.Lock()
        self._stats_lock = threading.Lock()

    def _count(self, key: str) -> None:
        with self._stats_lock:
            self.stats[key] += 1

    def __repr__(self) -> str:
        return f"OpenAIJudge(url={self.url!r}, model={self.model!r})"

    # -- batching ---------------------------------------------------------------------------------
    def _plan(self, requests: Sequence[JudgeRequest]) -> list[_Call]:
        if self.criteria_per_call == 1:
            return [_Call([i], [{"role": "user", "content": single_prompt(r.conversation, r.response, r.item)}]) for i, r in enumerate(requests)]
        groups: dict[str, list[int]] = {}
        for i, r in enumerate(requests):  # items of the same (conversation, response) share a call
            key = json.dumps([list(map(dict, r.conversation)), r.response], sort_keys=True, default=str)
            groups.setdefault(key, []).append(i)
        calls = []
        for indices in groups.values():
            for start in range(0, len(indices), self.criteria_per_call):
                chunk = indices[start:start + self.criteria_per_call]
                first = requests[chunk[0]]
                content = multi_prompt(first.conversation, first.response, [requests[i].item for i in chunk])
                calls.append(_Call(chunk, [{"role": "user", "content": content}]))
        return calls

    def _cache_key(self, call: _Call) -> str:
        """Model + messages + the settings that change an answer (not the URL: a cache outlives a server)."""
        settings = {"temperature": self.temperature, "max_tokens": self.max_tokens, **self.extra_body}
        return cache_key(self.model, call.messages, settings)

    def _parse(self, text: str, count: int) -> list[tuple[bool | None, str]]:
        return [parse_single(text)] if count == 1 else parse_multi(text, count)

    def judge(self, requests: Sequence[JudgeRequest]) -> list[Verdict]:
        if not requests:
            return []
        deadline = time.monotonic() + self.time_budget
        verdicts: list[Verdict | None] = [None] * len(requests)
        pending: list[_Call] = []
        for call in self._plan(requests):  # answer what the cache knows without a request
            cached = self.cache.get(self._cache_key(call)) if self.cache is not None else None
            if cached is None:
                pending.append(call)
                continue
            for index, (met, explanation) in zip(call.indices, self._parse(cached, len(call.indices))):
                verdicts[index] = Verdict(met, explanation[:500])
        if pending:
            executor = ThreadPoolExecutor(max_workers=min(self.concurrency, len(pending)), thread_name_prefix="openai-judge")
            try:
                futures = {executor.submit(self._run_call, call, deadline): call for call in pending}
                not_done = set(futures)
                while not_done:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    done, not_done = wait(not_done, timeout=left, return_when=FIRST_COMPLETED)
                    for future in done:
                        for index, verdict in zip(futures[future].indices, future.result()):
                            verdicts[index] = verdict
            finally:  # never wait for stragglers: their own timeouts end them in the background
                executor.shutdown(wait=False, cancel_futures=True)
        reason = f"judge time budget of {self.time_budget:g}s exhausted before this criterion was graded"
        return [v if v is not None else failed(reason) for v in verdicts]

    # -- one request with retries -----------------------------------------------------------------
    def _run_call(self, call: _Call, deadline: float) -> list[Verdict]:
        count = len(call.indices)
        try:
            return self._attempts(call, deadline)
        except Exception as exc:  # a bug or an unexpected library error fails this call only
            return [failed(f"judge error: {type(exc).__name__}: {exc}")] * count

    def _attempts(self, call: _Call, deadline: float) -> list[Verdict]:
        import httpx

        count = len(call.indices)
        body = {"model": self.model, "messages": call.messages, "temperature": self.temperature,
                "max_tokens": self.max_tokens, **self.extra_body}
        best: list[tuple[bool | None, str]] | None = None
        error = "no attempt made"
        for attempt in range(self.max_retries + 1):
            if attempt:
                self._count("retries")
                pause = min(self.max_backoff, self.backoff * 2 ** (attempt - 1)) * (0.75 + 0.5 * random.random())
                if time.monotonic() + pause >= deadline:
                    error += "; no time left in the budget to retry"
                    break
                time.sleep(pause)
            left = deadline - time.monotonic()
            if left <= 0:
                error += "; time budget exhausted"
                break
            attempt_timeout = min(self.timeout, left)
            self._count("requests")
            try:
                response = self._http().post(self.url, json=body, timeout=httpx.Timeout(attempt_timeout))
            except httpx.TimeoutException:
                error = f"timeout after {attempt_timeout:.3g}s"
                continue
            except httpx.HTTPError as exc:
                error = f"connection error: {type(exc).__name__}: {exc}"
                continue
            if response.status_code != 200:
                error = f"HTTP {response.status_code}: {response.text[:200]!r}"
                if response.status_code in RETRY_STATUS:
                    continue
                break
            text, problem = _completion_text(response)
            if text is None:
                error = problem
                continue
            parsed = self._parse(text, count)
            if all(met is not None for met, _ in parsed):
                if self.cache is not None:
                    self.cache.put(self._cache_key(call), text)
                return [Verdict(met, explanation[:500]) for met, explanation in parsed]
            if best is None or _known(parsed) > _known(best):
                best = parsed
            error = next(explanation for met, explanation in parsed if met is None)
        self._count("failures")
        attempts = f" ({self.max_retries + 1} attempt(s) max)"
        if best is not None:  # keep what a multi-criteria answer did grade
            return [Verdict(met, explanation[:500]) if met is not None else failed(explanation + attempts) for met, explanation in best]
        return [failed(f"{error}{attempts}")] * count


def _known(parsed: list[tuple[bool | None, str]]) -> int:
    return sum(met is not None for met, _ in parsed)


def _completion_text(response) -> tuple[str | None, str]:
    """The first choice's message content, or None and what was wrong with the body."""
    try:
        data = response.json()
    except ValueError:
        return None, f"malformed response (not JSON): {response.text[:200]!r}"
    try:
        content = data["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        return None, f"malformed response (no choices[0].message.content): {json.dumps(data)[:200]}"
    if not isinstance(content, str):
        return None, f"malformed response: message content is {type(content).__name__}"
    return content, ""
