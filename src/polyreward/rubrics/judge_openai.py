"""The ``openai`` judge: OpenAI-compatible ``/v1/chat/completions`` servers grade rubric items.

Works with vLLM, SGLang, llama.cpp's server, ``polyreward serve-judge`` and hosted APIs. Config::

    judge: {type: openai, base_url: [http://10.0.0.1:8000/v1, http://10.0.0.2:8000/v1], model: qwen2.5-7b-instruct,
            api_key_env: JUDGE_API_KEY, concurrency: 16, endpoint_concurrency: 8,
            requests_per_minute: 600, tokens_per_minute: 400000, timeout: 60, max_retries: 2,
            time_budget: 600, criteria_per_call: 1, cache_path: ~/.cache/polyreward/judge.sqlite}

``base_url`` is one URL or a list; requests go to the endpoint with the fewest outstanding requests,
within the limits (``concurrency``, ``requests_per_minute``, ``tokens_per_minute`` overall; the
``endpoint_*`` ones per endpoint). The transport — endpoint choice, limits, back-off, 429
``Retry-After``, per-attempt deadlines — is :mod:`polyreward.judges.pool`.

Behaviour under failure (HealthBench retries forever; RuscaRL stops after 10 JSON retries; we bound
both the attempts and the wall time):

* Each call gets ``1 + max_retries`` attempts. Connection errors, timeouts, HTTP 408/429/5xx and a body
  that is not JSON back the endpoint off and are retried (on another endpoint when there is one); a
  body that is not a chat completion and an answer without a readable verdict are retried at once;
  other HTTP 4xx are not retried.
* Every attempt ends at ``min(timeout, time left in the batch budget)`` from its start, however slowly
  the server sends its bytes; no attempt starts after the budget is spent, and :meth:`OpenAIJudge.judge`
  returns at the budget: whatever is unfinished then fails with a reason saying what it was waiting
  for. Each batch runs in its own event loop and closes all its connections and tasks before it
  returns, so a hung server leaves nothing behind for the next batch or for the process's exit.
* A failure is a verdict with ``met=None`` (NaN) and the last error as its explanation; all other
  criteria of the batch keep their verdicts.

``criteria_per_call > 1`` asks for up to that many items of the same (conversation, response) in one
request (multi-criteria prompt of :mod:`polyreward.rubrics.grading`). Answers are cached by
(model, request messages, temperature, max_tokens, extra_body) in memory, and in sqlite when
``cache_path`` is set. :meth:`OpenAIJudge.summary` gives the per-endpoint counts.
"""

from __future__ import annotations

import importlib.util
import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from polyreward.rubrics.grading import multi_prompt, parse_multi, parse_single, single_prompt
from polyreward.judges.cache import ResponseCache, cache_key
from polyreward.judges.pool import (
    EndpointPool, JobState, Limits, RequestFailed, Unusable, estimate_tokens, positive_rate, run_batch, seconds, whole_number,
)
from polyreward.rubrics.judges import Judge, JudgeRequest, Verdict, failed

Parsed = list[tuple[bool | None, str]]


def chat_completions_url(base_url: str) -> str:
    """``http://h:p`` / ``http://h:p/v1`` / a full ``.../chat/completions`` URL -> the endpoint URL."""
    url = base_url.rstrip("/")
    if url.endswith("/chat/completions"):
        return url
    if url.endswith("/v1"):
        return url + "/chat/completions"
    return url + "/v1/chat/completions"


def base_urls(base_url: Any) -> list[str]:
    """``base_url`` as a non-empty list of http(s) URLs (one string or a list of them)."""
    urls = [base_url] if isinstance(base_url, str) else base_url
    if not isinstance(urls, (list, tuple)) or not urls:
        raise ValueError(f"base_url: must be an http(s) URL like http://127.0.0.1:8000/v1 or a list of them, got {base_url!r}")
    for url in urls:
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise ValueError(f"base_url: must be an http(s) URL like http://127.0.0.1:8000/v1, got {url!r}")
    if len(set(urls)) != len(urls):
        raise ValueError(f"base_url: lists the same URL twice: {list(urls)}")
    return list(urls)


def checked_key_env(api_key_env: str | None) -> str | None:
    """The NAME of the variable holding the API key; the key itself is read at each request, never stored."""
    if api_key_env is not None and (not isinstance(api_key_env, str) or api_key_env not in os.environ):
        raise ValueError(f"api_key_env: environment variable {api_key_env!r} is not set")
    return api_key_env


def endpoint_pool(urls: Sequence[str], api_key_env: str | None, timeout: float, max_retries: int, backoff: float,
                  max_backoff: float, concurrency: int, endpoint_concurrency: int | None, requests_per_minute: float | None,
                  tokens_per_minute: float | None, endpoint_requests_per_minute: float | None,
                  endpoint_tokens_per_minute: float | None) -> EndpointPool:
    """The transport settings every served model shares (judge, reward model), checked, as a pool."""
    if importlib.util.find_spec("httpx") is None:
        raise ValueError('a served judge or reward model needs httpx: pip install -e ".[judge]" (from the source checkout)')
    overall = Limits(whole_number("concurrency", concurrency, 1), positive_rate("requests_per_minute", requests_per_minute),
                     positive_rate("tokens_per_minute", tokens_per_minute))
    per_endpoint = Limits(whole_number("endpoint_concurrency", endpoint_concurrency, 1, allow_none=True),
                          positive_rate("endpoint_requests_per_minute", endpoint_requests_per_minute),
                          positive_rate("endpoint_tokens_per_minute", endpoint_tokens_per_minute))
    return EndpointPool(urls, timeout=seconds("timeout", timeout), max_retries=whole_number("max_retries", max_retries, 0),
                        backoff=seconds("backoff", backoff, strict=False), max_backoff=seconds("max_backoff", max_backoff, strict=False),
                        api_key_env=checked_key_env(api_key_env), overall=overall, per_endpoint=per_endpoint)


@dataclass
class _Call:
    """One HTTP request: the indices of the requests it answers, its messages, and how to read the answer."""

    indices: list[int]
    messages: list[dict[str, str]]
    parse: Callable[[str], Parsed]


class OpenAIJudge(Judge):
    type_name = "openai"

    def __init__(self, base_url: str | list[str], model: str, api_key_env: str | None = None, timeout: float = 60.0,
                 max_retries: int = 2, backoff: float = 0.5, max_backoff: float = 8.0, concurrency: int = 8,
                 endpoint_concurrency: int | None = None, requests_per_minute: float | None = None,
                 tokens_per_minute: float | None = None, endpoint_requests_per_minute: float | None = None,
                 endpoint_tokens_per_minute: float | None = None, time_budget: float = 600.0, criteria_per_call: int = 1,
                 temperature: float = 0.0, max_tokens: int = 1024, cache: bool = True, cache_path: str | None = None,
                 extra_body: Mapping[str, Any] | None = None) -> None:
        urls = base_urls(base_url)
        if not isinstance(model, str) or not model:
            raise ValueError(f"model: must be the model name the server serves, got {model!r}")
        self.pool = endpoint_pool([chat_completions_url(u) for u in urls], api_key_env, timeout, max_retries, backoff,
                                  max_backoff, concurrency, endpoint_concurrency, requests_per_minute, tokens_per_minute,
                                  endpoint_requests_per_minute, endpoint_tokens_per_minute)
        self.time_budget = seconds("time_budget", time_budget)
        if isinstance(temperature, bool) or not isinstance(temperature, (int, float)) or temperature < 0:
            raise ValueError(f"temperature: must be a number >= 0, got {temperature!r}")
        self.criteria_per_call = whole_number("criteria_per_call", criteria_per_call, 1)
        self.max_tokens = whole_number("max_tokens", max_tokens, 1)
        if extra_body is not None and not isinstance(extra_body, Mapping):
            raise ValueError(f"extra_body: must be a mapping of extra request fields, got {extra_body!r}")
        self.model, self.temperature = model, float(temperature)
        self.extra_body = dict(extra_body or {})
        self.cache = ResponseCache(cache_path) if cache else None

    @property
    def urls(self) -> list[str]:
        return [e.url for e in self.pool.endpoints]

    @property
    def stats(self) -> dict[str, int]:
        """HTTP requests sent, retries, and calls that failed after all their attempts (all batches)."""
        summary = self.pool.summary()
        return {"requests": summary["attempts"], "retries": summary["retries"], "failures": summary["failures"]}

    def summary(self) -> dict[str, Any]:
        """Counts over every batch so far: per endpoint (sent, ok, failed, rate_limited, latency
        percentiles), attempts, retries, failures, and cache hits."""
        out = self.pool.summary()
        if self.cache is not None:
            out["cache_hits"] = self.cache.hits
        return out

    def close(self) -> None:
        if self.cache is not None:
            self.cache.close()

    def __repr__(self) -> str:
        urls = self.urls
        return f"OpenAIJudge(url={urls[0] if len(urls) == 1 else urls!r}, model={self.model!r})"

    # -- what to ask ------------------------------------------------------------------------------
    def _plan(self, requests: Sequence[JudgeRequest]) -> list[_Call]:
        def single(text: str) -> Parsed:
            return [parse_single(text)]

        def user(content: str) -> list[dict[str, str]]:
            return [{"role": "user", "content": content}]

        if self.criteria_per_call == 1:
            return [_Call([i], user(single_prompt(r.conversation, r.response, r.item)), single) for i, r in enumerate(requests)]
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
                calls.append(_Call(chunk, user(content), lambda text, n=len(chunk): parse_multi(text, n)))
        return calls

    def judge(self, requests: Sequence[JudgeRequest]) -> list[Verdict]:
        return self._run(self._plan(requests), len(requests)) if requests else []

    def ask(self, prompts: Sequence[str], parse: Callable[[str], tuple[bool | None, str]]) -> list[Verdict]:
        """One user message per prompt; ``parse(answer) -> (True/False/None, explanation)`` reads each answer
        (None = no verdict: retried, then a failed verdict). Same transport, cache and budget as :meth:`judge`."""
        calls = [_Call([i], [{"role": "user", "content": p}], lambda text: [parse(text)]) for i, p in enumerate(prompts)]
        return self._run(calls, len(prompts)) if calls else []

    def _cache_key(self, call: _Call) -> str:
        """Model + messages + the settings that change an answer (not the URL: a cache outlives a server)."""
        settings = {"temperature": self.temperature, "max_tokens": self.max_tokens, **self.extra_body}
        return cache_key(self.model, call.messages, settings)

    # -- asking -----------------------------------------------------------------------------------
    def _run(self, calls: list[_Call], count: int) -> list[Verdict]:
        deadline = time.monotonic() + self.time_budget
        verdicts: list[Verdict | None] = [None] * count
        pending: list[_Call] = []
        for call in calls:  # answer what the cache knows without a request
            cached = self.cache.get(self._cache_key(call)) if self.cache is not None else None
            if cached is None:
                pending.append(call)
                continue
            for index, (met, explanation) in zip(call.indices, call.parse(cached)):
                verdicts[index] = Verdict(met, explanation[:500])
        states = [JobState() for _ in pending]

        def cut(k: int) -> list[Verdict]:
            state = states[k]
            reason = f"judge time budget of {self.time_budget:g}s exhausted while {state.phase}"
            if state.last_error:
                reason += f"; last error: {state.last_error}"
            return [failed(reason)] * len(pending[k].indices)

        jobs = [lambda client, call=call, state=state: self._call(client, call, deadline, state) for call, state in zip(pending, states)]
        for call, results in zip(pending, run_batch(jobs, deadline, cut, self.pool.overall.limits.concurrency)):
            for index, verdict in zip(call.indices, results):
                verdicts[index] = verdict
        return [v if v is not None else failed("not graded") for v in verdicts]

    async def _call(self, client: Any, call: _Call, deadline: float, state: JobState) -> list[Verdict]:
        count = len(call.indices)
        body = {"model": self.model, "messages": call.messages, "temperature": self.temperature,
                "max_tokens": self.max_tokens, **self.extra_body}
        best: list[Parsed] = []

        def check(data: Any) -> tuple[str, Parsed]:
            text, problem = _completion_text(data)
            if text is None:
                raise Unusable(problem)
            parsed = call.parse(text)
            if all(met is not None for met, _ in parsed):
                return text, parsed
            if not best or _known(parsed) > _known(best[0]):
                best[:] = [parsed]
            raise Unusable(next(explanation for met, explanation in parsed if met is None))

        estimate = estimate_tokens([m["content"] for m in call.messages], self.max_tokens)
        try:
            text, parsed = await self.pool.request(client, body, check, deadline, estimate, state)
        except RequestFailed as exc:
            if best:  # keep what a multi-criteria answer did grade
                attempts = f" ({self.pool.max_retries + 1} attempt(s) max)"
                return [Verdict(met, e[:500]) if met is not None else failed(e + attempts) for met, e in best[0]]
            return [failed(str(exc))] * count
        except Exception as exc:  # a bug or an unexpected library error fails this call only
            return [failed(f"judge error: {type(exc).__name__}: {exc}")] * count
        if self.cache is not None:
            self.cache.put(self._cache_key(call), text)
        return [Verdict(met, explanation[:500]) for met, explanation in parsed]


def _known(parsed: Parsed) -> int:
    return sum(met is not None for met, _ in parsed)


def _completion_text(data: Any) -> tuple[str | None, str]:
    """The first choice's message content, or None and what was wrong with the body."""
    try:
        content = data["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        return None, f"malformed response (no choices[0].message.content): {json.dumps(data)[:200]}"
    if not isinstance(content, str):
        return None, f"malformed response: message content is {type(content).__name__}"
    return content, ""
